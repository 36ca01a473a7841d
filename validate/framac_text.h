// What the code under test may not say to Frama-C (issue 48): the text a
// Frama-C unit is built from, read as the C preprocessor reads it
// (backslash-newline splices, comments, string and character literals,
// digraphs), so that nothing the file writes steers the analyser.
//
//  - Annotations: every '@' outside a literal becomes a space (an ACSL
//    annotation is a comment that opens with '@': `/*@ ... */`, `//@`, also
//    inside a macro's body or split by a backslash-newline). Line numbers and
//    byte offsets are kept: the alarms still name the file's own lines.
//  - Names of the analyser's and of the sanitizer build's: a file that names
//    __FRAMAC__, Frama_C_*, __fc_* / __FC_*, __SANITIZE_*, __has_feature,
//    *_sanitizer, the C libraries' own (__GLIBC__, __USE_*: glibc's in the
//    harness, Frama-C's under the analysis), the harness's and the shims'
//    (IDLESPEC_*, SHIM_*, shim_*, xcede_fw, gov_env, teo_env) or a -D flag
//    only the Frama-C unit is given (HAVE_RTAS_BUSY_DELAY...) could analyse
//    other code than the harness runs, or call the analyser's builtins: it
//    cannot be proven.
//  - Directives that would reach past the code: #include inside the code,
//    #line / `# N` (an alarm would name another file's line), raw string
//    literals and an '@' inside a literal (where a literal ends could be
//    read otherwise): it cannot be proven.
//  - Macros: the names the file #defines or #undefs, which the unit
//    #undefs after the code, so that none of them reaches the driver's C or
//    its assertions (Frama-C expands macros inside annotations).
#pragma once

#include <string>
#include <vector>

namespace idlespec::validate {

struct AnalysisText {
  std::string text;                   // the source, annotations neutralised
  int annotations = 0;                // comments that opened with '@'
  std::vector<std::string> refusals;  // why it cannot be proven: "line 12: names __FRAMAC__"
  std::vector<std::string> macros;    // every name it #defines or #undefs, once each
};

// Read `source`; `unit_defines` are the names of the -D flags only the
// Frama-C unit gets (their use is a test for the analysis). The file's own
// text refuses #line and `# N` (the extractor drops its top-level
// #include lines); an extraction (`extracted`, whose #line markers are the
// extractor's, and which may hold the harness's own text) refuses only an
// #include left inside an item.
AnalysisText analysis_text(const std::string& source,
                           const std::vector<std::string>& unit_defines = {},
                           bool extracted = false);

// "#undef NAME" lines for every name, to put between the code and the
// driver.
std::string undef_lines(const std::vector<std::string>& names);

}  // namespace idlespec::validate
