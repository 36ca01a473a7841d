// What the code under test may not say to Frama-C (issue 48): see
// framac_text.h.
#include "validate/framac_text.h"

#include <algorithm>

namespace idlespec::validate {

namespace {

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// A name of the analyser's (its builtins, its own macros, its libc's), of
// the sanitizer build's, or a -D flag only the unit gets.
bool analyser_name(const std::string& w, const std::vector<std::string>& unit_defines) {
  // Frama-C's, the sanitizers', the C libraries' (glibc's in the harness,
  // Frama-C's own under the analysis: a test for either is a test for the
  // analysis), the project's own harness and shims'.
  for (const char* p : {"__FRAMAC", "Frama_C", "FRAMA_C", "__fc_", "__FC_", "__frama_c", "__e_acsl",
                        "E_ACSL", "__SANITIZE", "__GLIBC", "__GNU_LIBRARY__", "_FEATURES_H",
                        "__USE_", "IDLESPEC_", "SHIM_", "shim_", "xcede_fw", "gov_env", "teo_env"})
    if (starts_with(w, p)) return true;
  if (w == "SHIM_ASAN" || w == "__has_feature") return true;
  const std::string suffix = "_sanitizer";
  if (w.size() >= suffix.size() && w.compare(w.size() - suffix.size(), suffix.size(), suffix) == 0)
    return true;
  return std::find(unit_defines.begin(), unit_defines.end(), w) != unit_defines.end();
}

}  // namespace

AnalysisText analysis_text(const std::string& source, const std::vector<std::string>& unit_defines,
                           bool extracted) {
  AnalysisText r;
  r.text = source;
  // The logical characters: backslash-newline splices removed (the
  // preprocessor's phase 2), each mapped to its byte in the source.
  std::vector<size_t> pos;
  pos.reserve(source.size());
  for (size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\\') {
      size_t j = i + 1;
      if (j < source.size() && source[j] == '\r') ++j;
      if (j < source.size() && source[j] == '\n') {
        i = j;
        continue;
      }
    }
    pos.push_back(i);
  }
  const size_t n = pos.size();
  auto at = [&](size_t i) -> char { return i < n ? source[pos[i]] : '\0'; };
  auto line_of = [&](size_t i) {
    const size_t p = i < n ? pos[i] : source.size();
    return 1 + std::count(source.begin(), source.begin() + static_cast<long>(p), '\n');
  };
  auto refuse = [&](size_t i, const std::string& why) {
    const std::string msg = "line " + std::to_string(line_of(i)) + ": " + why;
    if (std::find(r.refusals.begin(), r.refusals.end(), msg) == r.refusals.end() &&
        r.refusals.size() < 4)
      r.refusals.push_back(msg);
  };
  auto neutralise = [&](size_t i) { r.text[pos[i]] = ' '; };
  auto add_macro = [&](const std::string& name) {
    if (std::find(r.macros.begin(), r.macros.end(), name) == r.macros.end())
      r.macros.push_back(name);
  };
  // Directive state: at a line's start (only blanks and comments before),
  // in a directive, its name, the macro it defines.
  bool line_start = true, in_directive = false;
  std::string directive;  // "" until its name is read
  bool want_macro = false;
  size_t i = 0;
  while (i < n) {
    const char c = at(i);
    if (c == '\n') {
      line_start = true, in_directive = false, want_macro = false;
      directive.clear();
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && at(i + 1) == '*') {
      if (at(i + 2) == '@') ++r.annotations;
      size_t j = i + 2;
      while (j < n && !(at(j) == '*' && at(j + 1) == '/')) {
        if (at(j) == '@') neutralise(j);
        ++j;
      }
      i = std::min(n, j + 2);
      continue;
    }
    if (c == '/' && at(i + 1) == '/') {
      if (at(i + 2) == '@') ++r.annotations;
      size_t j = i + 2;
      for (; j < n && at(j) != '\n'; ++j)
        if (at(j) == '@') neutralise(j);
      i = j;
      continue;
    }
    const bool hash = c == '#' || (c == '%' && at(i + 1) == ':');
    if (hash && line_start) {
      in_directive = true;
      directive.clear();
      i += c == '#' ? 1 : 2;
      line_start = false;
      continue;
    }
    line_start = false;
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      for (; j < n && at(j) != c && at(j) != '\n'; ++j) {
        if (at(j) == '@' && !extracted)
          refuse(j, "an '@' inside a literal (where an annotation ends is unclear)");
        if (at(j) == '\\') ++j;
      }
      i = std::min(n, j + 1);
      continue;
    }
    if (c >= '0' && c <= '9') {
      if (in_directive && directive.empty() && !extracted)
        refuse(i, "a line marker (# N) names other lines");
      size_t j = i + 1;
      while (j < n && (ident_char(at(j)) || at(j) == '.' ||
                       ((at(j) == '+' || at(j) == '-') && (at(j - 1) == 'e' || at(j - 1) == 'E' ||
                                                           at(j - 1) == 'p' || at(j - 1) == 'P'))))
        ++j;
      if (in_directive && directive.empty()) directive = "line";
      i = j;
      continue;
    }
    if (ident_char(c)) {
      size_t j = i;
      std::string w;
      while (j < n && ident_char(at(j))) w += at(j++);
      if (at(j) == '"' && !w.empty() && w.back() == 'R' && !extracted)
        refuse(i, "a raw string literal (" + w + "\"...)");
      if (!extracted && analyser_name(w, unit_defines))
        refuse(i, "names " + w + " (the analyser's or the sanitizer build's own)");
      if (in_directive && directive.empty()) {
        directive = w;
        want_macro = w == "define" || w == "undef";
        if (extracted && (w == "include" || w == "include_next" || w == "import"))
          refuse(i, "#" + w + " in the code");
        if (w == "line" && !extracted) refuse(i, "#line names other lines");
      } else if (want_macro) {
        add_macro(w);
        want_macro = false;
      }
      i = j;
      continue;
    }
    if (c == '@') neutralise(i);
    ++i;
  }
  return r;
}

std::string undef_lines(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& m : names) out += "#undef " + m + "\n";
  return out;
}

}  // namespace idlespec::validate
