// A C-aware function extractor for `idlespec validate` (issue 6).
//
// Given the text of a kernel-style C file and the names of functions in it,
// build a self-contained fragment: the functions themselves plus the
// file-scope items they need (non-#include #define lines, static variables,
// other static helpers, enums and struct tags they reference, transitively),
// in source order, each preceded by a `#line N "file"` so that compiler
// messages, __LINE__ and BUG_ON reports name the original lines.
//
// The scanner understands what matters for brace matching: // and /* */
// comments, string and character literals (with escapes) and preprocessor
// lines (with backslash continuations) are skipped. It does not run the
// preprocessor: top-level #if/#ifdef lines are dropped and everything inside
// them is kept, #include lines are dropped (the shim header replaces them).
// When a name has several definitions in different branches (a stub under
// `#ifndef CONFIG_SMP` and the real function under `#else`), the one the
// kernel's usual configuration compiles is taken: every CONFIG_ option on,
// `#if 0` off (see TopLevelItem::cond).
//
// Only what the requested functions reach is taken: an unrelated function
// (one using a type the shims lack, say) is never compiled. Inline asm in a
// function that is pulled in but not requested is neutralised (a no-op
// statement; the prelude says so): it is not on the judged path, and the
// harness is built for the host. After the code, one line per name the
// fragment defines, `#define IDLESPEC_HAVE_<name> 1`, lets a harness refer
// to the file's own globals (`snooze_timeout`) only in the eras that have
// them; `#define IDLESPEC_EXTERN_<name> 1` besides for a variable the
// fragment only declares `extern` (another file of the kernel defines it:
// the harness may define it in its place).
//
// Cost: linear in the size of the source (a 5 MB file extracts in well under
// a second).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace idlespec::extraction {

// One top-level item of the file.
struct TopLevelItem {
  enum Kind { kDirective, kDeclaration, kFunction } kind = kDeclaration;
  // The top-level #if context: 1 compiled with every CONFIG_ option on,
  // -1 not (`#if 0`, `#ifndef CONFIG_X`, the #else of `#ifdef CONFIG_X`),
  // 0 cannot tell.
  int cond = 1;
  size_t begin = 0, end = 0;          // byte offsets [begin, end)
  int first_line = 0, last_line = 0;  // 1-based, inclusive
  std::vector<std::string> defines;   // names this item introduces
  std::vector<std::string> uses;      // identifiers it mentions
};

// Split `source` into its top-level items (comments between items dropped).
std::vector<TopLevelItem> top_level_items(std::string_view source);

// "" when the braces of `source` balance as the extractor matches them
// (comments, literals and the branches after a conditional's first are
// skipped), else where they do not: "line 42: unbalanced '{': no '}' closes
// it before the end of the file" (for a '{' without '}', the inner '{'
// whose '}' is missing when a '}' in column 1, the kernel's end of a
// function, shows it; else the innermost one left open) or "line 9:
// unbalanced '}': it closes no '{'".
std::string unbalanced_brace(std::string_view source);

struct FoundFunction {
  std::string name;
  bool found = false;
  int first_line = 0, last_line = 0;
  std::string text;  // the definition as written
};

struct Extraction {
  std::string code;                      // prelude + functions, with #line markers
  std::vector<FoundFunction> functions;  // one per requested name, in request order
  std::vector<std::string> prelude;      // what was pulled in: "define RTAS_BUSY (line 12)"
  std::vector<std::string> notes;        // what was changed: "inline asm neutralised in ..."
};

// Extract the requested functions (those found) and their dependencies.
// `file_label` is the name #line markers use.
Extraction extract(std::string_view source, std::span<const std::string> names,
                   std::string_view file_label);

// The file label of the first #line marker in extracted `code` (the
// extraction's own: its first marker precedes any text of the file), or ""
// when there is none. The sandbox refuses a tool's read of that file
// quietly (sandbox/process.h, Job::quiet_refusals).
std::string first_line_label(std::string_view code);

// What a failed harness build says about the file under test, one line per
// identifier the shims lack, naming the shim line that would define it:
//   "CPUIDLE_FLAG_POLLING_SOFT: not in the shims; harness/shims/cpuidle.h
//    would need `#define CPUIDLE_FLAG_POLLING_SOFT ...`"
// (from gcc's "undeclared", "unknown type name", "has no member named",
// "incomplete type" and the linker's "undefined reference" messages).
// The context, when known, names the shim better: a struct's member in the
// header of `shims_dir` that defines the struct, any other name outside
// cpuidle's in the component's `env_header`; `code` (what was compiled)
// tells a variable the linker lacks from a function.
struct ExplainContext {
  std::string_view env_header;  // "idle_env.h"; empty: kernel.h
  std::string_view shims_dir;   // harness/shims on this machine; empty: not searched
  std::string_view code;
};
std::vector<std::string> explain_build_error(std::string_view compiler_output);
std::vector<std::string> explain_build_error(std::string_view compiler_output,
                                             const ExplainContext& context);

// A harness build failed with `compiler_output` on `code` (an Extraction's
// code, whose items carry `/* idlespec item ... */` markers): the code
// without the pulled-in items (not the requested functions) that the
// compiler blamed, each dropped one named in `dropped`. A pulled function
// whose body is to blame (or that the linker found an undefined reference
// in) keeps its declaration with a stub body that stops the harness if it is
// called (`idlespec_dropped_function()`, shims/kernel.h), so that what
// refers to it still compiles; a stub that is blamed in turn, or any other
// item, goes entirely. Returns `code` unchanged when no such item was
// blamed (the caller then reports the error).
std::string drop_failing_items(const std::string& code, std::string_view compiler_output,
                               std::string_view file_label, std::vector<std::string>& dropped);

}  // namespace idlespec::extraction
