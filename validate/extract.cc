// The C-aware function extractor (see extract.h).
#include "validate/extract.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace idlespec::validate {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct Token {
  enum Kind { kIdent, kPunct, kOther } kind;
  std::string_view text;
  size_t offset;
};

class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}

  // True if only blanks separate q from the start of its line.
  bool at_line_start(size_t q) const {
    while (q > 0) {
      const char c = s_[q - 1];
      if (c == '\n') return true;
      if (c != ' ' && c != '\t') return false;
      --q;
    }
    return true;
  }

  // End of the logical line starting at q (backslash continuations joined;
  // a /* comment */ spanning lines inside a directive is skipped).
  size_t line_end(size_t q) const {
    while (q < s_.size()) {
      if (s_[q] == '\\' && q + 1 < s_.size() && s_[q + 1] == '\n') {
        q += 2;
        continue;
      }
      if (s_[q] == '/' && q + 1 < s_.size() && s_[q + 1] == '*') {
        q = comment_end(q);
        continue;
      }
      if (s_[q] == '\n') return q;
      ++q;
    }
    return q;
  }

  size_t comment_end(size_t q) const {  // q at "/*"
    const size_t e = s_.find("*/", q + 2);
    return e == std::string_view::npos ? s_.size() : e + 2;
  }

  size_t literal_end(size_t q) const {  // q at ' or "
    const char quote = s_[q++];
    while (q < s_.size() && s_[q] != quote && s_[q] != '\n') q += (s_[q] == '\\') ? 2 : 1;
    return std::min(q + 1, s_.size());
  }

  // Skip blanks, comments and (when `directives`) preprocessor lines.
  size_t skip_trivia(size_t q, bool directives) const {
    while (q < s_.size()) {
      const char c = s_[q];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++q;
        continue;
      }
      if (c == '/' && q + 1 < s_.size() && s_[q + 1] == '/') {
        q = line_end_plain(q);
        continue;
      }
      if (c == '/' && q + 1 < s_.size() && s_[q + 1] == '*') {
        q = comment_end(q);
        continue;
      }
      if (directives && c == '#' && at_line_start(q)) {
        q = skip_directive(q);
        continue;
      }
      break;
    }
    return q;
  }

  // The word of the directive at q ("if", "else", ...) and its first argument.
  std::pair<std::string_view, std::string_view> directive_words(size_t q) const {
    auto word = [&](size_t& r) {
      while (r < s_.size() && (s_[r] == ' ' || s_[r] == '\t' || s_[r] == '#')) ++r;
      const size_t b = r;
      while (r < s_.size() && ident_char(s_[r])) ++r;
      return s_.substr(b, r - b);
    };
    size_t r = q;
    const auto w = word(r);
    return {w, word(r)};
  }

  // Skip the directive at q. Inside a body only the first branch of a
  // conditional counts for brace matching (as ctags does): "#if 0" skips to
  // its #else/#elif/#endif, "#else"/"#elif" skip to the matching #endif.
  size_t skip_directive(size_t q) const {
    const auto [w, arg] = directive_words(q);
    const bool if0 = w == "if" && arg == "0";
    if (!if0 && w != "else" && w != "elif") return line_end(q);
    int depth = 0;
    q = line_end(q);
    while (q < s_.size()) {
      q = s_.find('#', q);
      if (q == std::string_view::npos) return s_.size();
      if (!at_line_start(q)) {
        ++q;
        continue;
      }
      const auto [v, unused] = directive_words(q);
      if (v == "if" || v == "ifdef" || v == "ifndef")
        ++depth;
      else if (v == "endif" && depth-- == 0)
        return line_end(q);
      else if (if0 && depth == 0 && (v == "else" || v == "elif"))
        return line_end(q);
      q = line_end(q);
    }
    return q;
  }

  // Next token at q (after trivia); kind kOther for numbers and literals.
  Token next(size_t& q, bool directives) const {
    q = skip_trivia(q, directives);
    if (q >= s_.size()) return {Token::kOther, {}, q};
    const size_t b = q;
    const char c = s_[q];
    if (ident_start(c)) {
      while (q < s_.size() && ident_char(s_[q])) ++q;
      return {Token::kIdent, s_.substr(b, q - b), b};
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (q < s_.size() && (ident_char(s_[q]) || s_[q] == '.')) ++q;
      return {Token::kOther, s_.substr(b, q - b), b};
    }
    if (c == '"' || c == '\'') {
      q = literal_end(q);
      return {Token::kOther, s_.substr(b, q - b), b};
    }
    ++q;
    return {Token::kPunct, s_.substr(b, 1), b};
  }

 private:
  size_t line_end_plain(size_t q) const {
    const size_t e = s_.find('\n', q);
    return e == std::string_view::npos ? s_.size() : e;
  }
  std::string_view s_;
};

int line_of(std::string_view s, size_t offset) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + std::min(offset, s.size()), '\n'));
}

bool is_keyword(std::string_view w) {
  static const std::set<std::string_view> k = {
      "auto",  "break",    "case",   "char",     "const",  "continue", "default",
      "do",    "double",   "else",   "enum",     "extern", "float",    "for",
      "goto",  "if",       "inline", "int",      "long",   "register", "return",
      "short", "signed",   "sizeof", "static",   "struct", "switch",   "typedef",
      "union", "unsigned", "void",   "volatile", "while",  "bool",     "_Bool"};
  return k.count(w) > 0;
}

void add_unique(std::vector<std::string>& v, std::string_view w) {
  if (std::find(v.begin(), v.end(), w) == v.end()) v.emplace_back(w);
}

// The names a declaration or function definition introduces.
void analyse(TopLevelItem& item, const std::vector<Token>& toks) {
  int depth = 0;         // () [] {} together
  bool in_init = false;  // after '=' in the current declarator
  bool is_enum = false;
  for (size_t i = 0; i < toks.size(); ++i) {
    const Token& t = toks[i];
    const Token* nx = i + 1 < toks.size() ? &toks[i + 1] : nullptr;
    const std::string_view next = nx ? nx->text : std::string_view{};
    if (t.kind == Token::kIdent) {
      add_unique(item.uses, t.text);
      if (t.text == "enum") is_enum = true;
      if ((t.text == "struct" || t.text == "union" || t.text == "enum") && nx &&
          nx->kind == Token::kIdent && i + 2 < toks.size() && toks[i + 2].text == "{")
        add_unique(item.defines, nx->text);
      if (is_enum && depth == 1 && i > 0 && (toks[i - 1].text == "{" || toks[i - 1].text == ","))
        add_unique(item.defines, t.text);
      if (depth == 0 && !in_init && !is_keyword(t.text) &&
          t.text.substr(0, 13) != "__attribute__") {
        if (next == "(" && item.kind == TopLevelItem::kFunction && item.defines.empty()) {
          add_unique(item.defines, t.text);
        } else if (next == "(" && item.kind == TopLevelItem::kDeclaration && item.defines.empty()) {
          add_unique(item.defines, t.text);  // a prototype (or a macro invocation)
        } else if (item.kind == TopLevelItem::kDeclaration &&
                   (next == "=" || next == "," || next == ";" || next == "[" ||
                    (nx && nx->kind == Token::kIdent && next.substr(0, 2) == "__"))) {
          add_unique(item.defines, t.text);
        }
      }
      continue;
    }
    if (t.kind != Token::kPunct) continue;
    const char c = t.text[0];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (depth == 0 && c == '=') in_init = true;
    if (depth == 0 && c == ',') in_init = false;
  }
}

}  // namespace

std::vector<TopLevelItem> top_level_items(std::string_view s) {
  Scanner sc(s);
  std::vector<TopLevelItem> items;
  size_t p = 0;
  while (true) {
    p = sc.skip_trivia(p, false);
    if (p >= s.size()) break;
    TopLevelItem item;
    item.begin = p;
    if (s[p] == '#' && sc.at_line_start(p)) {
      item.kind = TopLevelItem::kDirective;
      item.end = sc.line_end(p);
      size_t q = p + 1;
      Token word = sc.next(q, false);
      if (word.text == "define") {
        Token name = sc.next(q, false);
        if (name.kind == Token::kIdent) item.defines.emplace_back(name.text);
        while (q < item.end) {
          Token t = sc.next(q, false);
          if (t.offset >= item.end) break;
          if (t.kind == Token::kIdent) add_unique(item.uses, t.text);
        }
      }
      p = item.end;
    } else {
      std::vector<Token> toks;
      int depth = 0;
      std::string_view prev;
      size_t q = p;
      while (true) {
        Token t = sc.next(q, true);
        if (t.text.empty()) {
          item.end = s.size();
          break;
        }
        toks.push_back(t);
        if (t.kind == Token::kPunct) {
          const char c = t.text[0];
          if (c == '{' && depth == 0 && prev == ")") {
            item.kind = TopLevelItem::kFunction;
            int braces = 1;  // the body: braces only
            while (braces > 0) {
              Token b = sc.next(q, true);
              if (b.text.empty()) break;
              toks.push_back(b);
              if (b.text == "{") ++braces;
              if (b.text == "}") --braces;
            }
            item.end = q;
            break;
          }
          if (c == '(' || c == '[' || c == '{') ++depth;
          if (c == ')' || c == ']' || c == '}') --depth;
          if (c == ';' && depth <= 0) {
            item.end = q;
            break;
          }
        }
        prev = t.text;
      }
      analyse(item, toks);
      p = item.end;
    }
    item.first_line = line_of(s, item.begin);
    item.last_line = line_of(s, item.end == 0 ? 0 : item.end - 1);
    items.push_back(std::move(item));
  }
  return items;
}

Extraction extract(std::string_view source, std::span<const std::string> names,
                   std::string_view file_label) {
  const std::vector<TopLevelItem> items = top_level_items(source);
  // Who defines what; the last definition wins for lookups of functions,
  // every defining item is pulled in otherwise (prototype + definition).
  std::multimap<std::string, size_t> definers;
  for (size_t i = 0; i < items.size(); ++i)
    for (const auto& d : items[i].defines) definers.emplace(d, i);

  Extraction out;
  std::set<size_t> chosen;
  std::vector<size_t> work;
  for (const std::string& name : names) {
    FoundFunction f;
    f.name = name;
    for (size_t i = 0; i < items.size(); ++i) {
      const auto& it = items[i];
      if (it.kind == TopLevelItem::kFunction && !it.defines.empty() && it.defines[0] == name) {
        f.found = true;
        f.first_line = it.first_line;
        f.last_line = it.last_line;
        f.text = std::string(source.substr(it.begin, it.end - it.begin));
        if (chosen.insert(i).second) work.push_back(i);
        break;  // the first definition (#ifdef'd alternatives are not told apart)
      }
    }
    out.functions.push_back(std::move(f));
  }
  // The file's message prefix applies to the shim's pr_*() macros, which the
  // functions use without naming pr_fmt: keep it whenever it is defined.
  for (auto [b, e] = definers.equal_range("pr_fmt"); b != e; ++b)
    if (items[b->second].kind == TopLevelItem::kDirective && chosen.insert(b->second).second)
      work.push_back(b->second);
  while (!work.empty()) {
    const size_t i = work.back();
    work.pop_back();
    for (const auto& u : items[i].uses) {
      auto [b, e] = definers.equal_range(u);
      for (auto it = b; it != e; ++it)
        if (chosen.insert(it->second).second) work.push_back(it->second);
    }
  }
  const std::string label(file_label);
  for (size_t i : chosen) {  // std::set: source order
    const auto& it = items[i];
    const bool target = std::any_of(out.functions.begin(), out.functions.end(), [&](auto& f) {
      return f.found && it.kind == TopLevelItem::kFunction && f.first_line == it.first_line;
    });
    if (!target) {
      const char* kind = it.kind == TopLevelItem::kDirective  ? "define"
                         : it.kind == TopLevelItem::kFunction ? "function"
                                                              : "declaration";
      out.prelude.push_back(std::string(kind) + " " +
                            (it.defines.empty() ? std::string("?") : it.defines[0]) + " (line " +
                            std::to_string(it.first_line) + ")");
    }
    if (it.kind == TopLevelItem::kDirective && !it.defines.empty())
      out.code += "#undef " + it.defines[0] + "\n";
    out.code += "#line " + std::to_string(it.first_line) + " \"" + label + "\"\n";
    out.code.append(source.substr(it.begin, it.end - it.begin));
    out.code += "\n";
  }
  return out;
}

}  // namespace idlespec::validate
