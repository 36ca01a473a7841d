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
// preprocessor: top-level #if/#ifdef blocks are dropped and everything inside
// them is kept, #include lines are dropped (the shim header replaces them).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace idlespec::validate {

// One top-level item of the file.
struct TopLevelItem {
  enum Kind { kDirective, kDeclaration, kFunction } kind = kDeclaration;
  size_t begin = 0, end = 0;          // byte offsets [begin, end)
  int first_line = 0, last_line = 0;  // 1-based, inclusive
  std::vector<std::string> defines;   // names this item introduces
  std::vector<std::string> uses;      // identifiers it mentions
};

// Split `source` into its top-level items (comments between items dropped).
std::vector<TopLevelItem> top_level_items(std::string_view source);

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
};

// Extract the requested functions (those found) and their dependencies.
// `file_label` is the name #line markers use.
Extraction extract(std::string_view source, std::span<const std::string> names,
                   std::string_view file_label);

}  // namespace idlespec::validate
