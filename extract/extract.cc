// The C-aware function extractor (see extract.h).
#include "extract/extract.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace idlespec::extraction {
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

// 1-based line numbers in O(log n) per look-up (a table of line starts).
class Lines {
 public:
  explicit Lines(std::string_view s) {
    starts_.push_back(0);
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] == '\n') starts_.push_back(i + 1);
  }
  int of(size_t offset) const {
    return static_cast<int>(std::upper_bound(starts_.begin(), starts_.end(), offset) -
                            starts_.begin());
  }

 private:
  std::vector<size_t> starts_;
};

bool is_keyword(std::string_view w) {
  static const std::set<std::string_view> k = {
      "auto",  "break",    "case",   "char",     "const",  "continue", "default",
      "do",    "double",   "else",   "enum",     "extern", "float",    "for",
      "goto",  "if",       "inline", "int",      "long",   "register", "return",
      "short", "signed",   "sizeof", "static",   "struct", "switch",   "typedef",
      "union", "unsigned", "void",   "volatile", "while",  "bool",     "_Bool"};
  return k.count(w) > 0;
}

bool is_asm(std::string_view w) { return w == "asm" || w == "__asm__" || w == "__asm"; }
bool is_asm_qualifier(std::string_view w) {
  return w == "volatile" || w == "__volatile__" || w == "__volatile" || w == "goto" ||
         w == "inline" || w == "__inline__";
}

// A vector of names without repeats, linear to fill.
class NameList {
 public:
  explicit NameList(std::vector<std::string>& v) : v_(v) {
    for (const auto& w : v_) seen_.insert(w);
  }
  void add(std::string_view w) {
    if (seen_.insert(std::string(w)).second) v_.emplace_back(w);
  }
  bool empty() const { return v_.empty(); }

 private:
  std::vector<std::string>& v_;
  std::unordered_set<std::string> seen_;
};

// The names a declaration or function definition introduces, and the
// identifiers it mentions (a member after `.` or `->` is not a use of a
// file-scope name).
void analyse(TopLevelItem& item, const std::vector<Token>& toks) {
  NameList uses(item.uses), defines(item.defines);
  int depth = 0;            // () [] {} together
  bool in_init = false;     // after '=' in the current declarator
  int enum_body = -1;       // depth of the enumerator list of an `enum ... {` at file scope
  bool enumerator = false;  // the next identifier names an enumerator
  int record_body = -1;     // depth of the member list of a `struct/union ... {`
  for (size_t i = 0; i < toks.size(); ++i) {
    const Token& t = toks[i];
    const Token* nx = i + 1 < toks.size() ? &toks[i + 1] : nullptr;
    const std::string_view next = nx ? nx->text : std::string_view{};
    const std::string_view prev = i > 0 ? toks[i - 1].text : std::string_view{};
    if (t.kind == Token::kIdent) {
      if (enumerator && depth == enum_body) {
        defines.add(t.text);
        enumerator = false;
      }
      // A member's name in a struct body is not a use either.
      const bool member_name = record_body > 0 && depth >= record_body &&
                               (next == ";" || next == "," || next == "[" || next == ":" ||
                                (next == ")" && prev == "*"));
      const bool arrow = prev == ">" && i >= 2 && toks[i - 2].text == "-";  // one-char puncts
      if (prev != "." && !arrow && !member_name) uses.add(t.text);
      if ((t.text == "struct" || t.text == "union" || t.text == "enum") && nx &&
          nx->kind == Token::kIdent && i + 2 < toks.size() && toks[i + 2].text == "{")
        defines.add(nx->text);
      if (depth == 0 && !in_init && !is_keyword(t.text) &&
          t.text.substr(0, 13) != "__attribute__") {
        if (next == "(" && item.kind == TopLevelItem::kFunction && defines.empty()) {
          defines.add(t.text);
        } else if (next == "(" && item.kind == TopLevelItem::kDeclaration && defines.empty()) {
          defines.add(t.text);  // a prototype (or a macro invocation)
        } else if (item.kind == TopLevelItem::kDeclaration &&
                   (next == "=" || next == "," || next == ";" || next == "[" ||
                    (nx && nx->kind == Token::kIdent && next.substr(0, 2) == "__"))) {
          defines.add(t.text);
        }
      }
      continue;
    }
    if (t.kind != Token::kPunct) continue;
    const char c = t.text[0];
    if (c == '{' && depth == 0 && item.kind == TopLevelItem::kDeclaration &&
        (prev == "enum" || (i >= 2 && toks[i - 2].text == "enum"))) {
      enum_body = 1;
      enumerator = true;
    }
    if (c == '{' && record_body < 0 &&
        (prev == "struct" || prev == "union" ||
         (i >= 2 && (toks[i - 2].text == "struct" || toks[i - 2].text == "union"))))
      record_body = depth + 1;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (depth < record_body) record_body = -1;
    if (depth == 0 && c == '=') in_init = true;
    if (depth == 0 && c == ',') in_init = false;
    if (depth < enum_body) enum_body = -1, enumerator = false;
    if (depth == enum_body && c == ',') enumerator = true;
  }
}

// The truth of a top-level #if line under the usual configuration: every
// CONFIG_ option on. 1 true, -1 false, 0 cannot tell.
int condition_truth(std::string_view word, std::string_view rest) {
  auto trim = [](std::string_view v) {
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
    return v;
  };
  rest = trim(rest.substr(0, std::min(rest.find("/*"), rest.find("//"))));
  auto config = [](std::string_view v) { return v.substr(0, 7) == "CONFIG_"; };
  if (word == "ifdef") return config(rest) ? 1 : 0;
  if (word == "ifndef") return config(rest) ? -1 : 0;
  if (word != "if" && word != "elif") return 0;
  if (rest == "0") return -1;
  if (rest == "1") return 1;
  bool negated = false;
  if (!rest.empty() && rest.front() == '!') negated = true, rest = trim(rest.substr(1));
  for (std::string_view f : {"defined", "IS_ENABLED", "IS_BUILTIN", "IS_REACHABLE"}) {
    if (rest.substr(0, f.size()) != f) continue;
    std::string_view arg = trim(rest.substr(f.size()));
    if (!arg.empty() && arg.front() == '(' && arg.back() == ')')
      arg = trim(arg.substr(1, arg.size() - 2));
    else if (f != "defined")
      return 0;
    if (!config(arg) || !std::all_of(arg.begin(), arg.end(), ident_char)) return 0;
    return negated ? -1 : 1;
  }
  return 0;
}

// The #if/#else/#endif frames around the current top-level item.
class Conditions {
 public:
  void directive(std::string_view word, std::string_view rest) {
    if (word == "if" || word == "ifdef" || word == "ifndef") {
      const int t = condition_truth(word, rest);
      frames_.push_back({t, t == 1});
    } else if (word == "elif" && !frames_.empty()) {
      Frame& f = frames_.back();
      const int t = condition_truth(word, rest);
      f.truth = f.taken ? -1 : t;
      f.taken = f.taken || t == 1;
    } else if (word == "else" && !frames_.empty()) {
      Frame& f = frames_.back();
      f.truth = f.taken ? -1 : -f.truth;
      f.taken = true;
    } else if (word == "endif" && !frames_.empty()) {
      frames_.pop_back();
    }
  }
  int truth() const {
    int t = 1;
    for (const Frame& f : frames_) t = std::min(t, f.truth);
    return t;
  }

 private:
  struct Frame {
    int truth;
    bool taken;  // a branch so far is known to be compiled
  };
  std::vector<Frame> frames_;
};

// The item's text with its inline asm statements replaced by a no-op (an
// asm label on a declarator, `register long sp asm("r1")`, by nothing).
std::string neutralise_asm(std::string_view text, int& count) {
  Scanner sc(text);
  std::string out;
  size_t copied = 0, q = 0;
  std::string_view prev;
  while (true) {
    Token t = sc.next(q, true);
    if (t.text.empty()) break;
    if (t.kind == Token::kIdent && is_asm(t.text)) {
      size_t r = q;
      Token u = sc.next(r, true);
      while (u.kind == Token::kIdent && is_asm_qualifier(u.text)) u = sc.next(r, true);
      if (u.text == "(") {
        int depth = 1;
        while (depth > 0) {
          Token v = sc.next(r, true);
          if (v.text.empty()) break;
          if (v.text == "(") ++depth;
          if (v.text == ")") --depth;
        }
        out.append(text.substr(copied, t.offset - copied));
        const bool label = !prev.empty() && (ident_start(prev[0]) || prev == "]") &&
                           prev != "else" && prev != "do" && prev != "return";
        out += label ? "" : "((void)0)";
        copied = q = r;
        ++count;
        prev = ")";
        continue;
      }
    }
    prev = t.text;
  }
  out.append(text.substr(copied));
  return out;
}

// The rank of a definition: compiled (cond 1) before cannot-tell before not.
int rank(const TopLevelItem& it) { return it.cond; }

}  // namespace

std::vector<TopLevelItem> top_level_items(std::string_view s) {
  Scanner sc(s);
  const Lines lines(s);
  Conditions conds;
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
        NameList uses(item.uses);
        while (q < item.end) {
          Token t = sc.next(q, false);
          if (t.offset >= item.end) break;
          if (t.kind == Token::kIdent) uses.add(t.text);
        }
      } else if (word.kind == Token::kIdent) {
        const size_t after = word.offset + word.text.size();
        conds.directive(word.text, s.substr(after, item.end > after ? item.end - after : 0));
      }
      item.cond = conds.truth();
      p = item.end;
    } else {
      item.cond = conds.truth();
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
    item.first_line = lines.of(item.begin);
    item.last_line = lines.of(item.end == 0 ? 0 : item.end - 1);
    items.push_back(std::move(item));
  }
  return items;
}

std::string unbalanced_brace(std::string_view source) {
  Scanner sc(source);
  const Lines lines(source);
  const auto column1 = [&](size_t offset) { return offset == 0 || source[offset - 1] == '\n'; };
  std::vector<size_t> open;
  size_t suspect = std::string_view::npos;
  for (size_t q = 0;;) {
    const Token t = sc.next(q, true);
    if (t.text.empty()) break;
    if (t.kind != Token::kPunct) continue;
    if (t.text == "{") {
      open.push_back(t.offset);
    } else if (t.text == "}") {
      if (open.empty())
        return "line " + std::to_string(lines.of(t.offset)) + ": unbalanced '}': it closes no '{'";
      const size_t matched = open.back();
      open.pop_back();
      // Kernel style ends a function (a top-level item) with a '}' in column
      // 1: one that leaves braces open closed an inner '{' that has no '}'.
      if (!open.empty() && column1(t.offset) && suspect == std::string_view::npos)
        suspect = matched;
    }
  }
  if (open.empty()) return "";
  const size_t at = suspect != std::string_view::npos ? suspect : open.back();
  return "line " + std::to_string(lines.of(at)) +
         ": unbalanced '{': no '}' closes it before the end of the file";
}

Extraction extract(std::string_view source, std::span<const std::string> names,
                   std::string_view file_label) {
  const std::vector<TopLevelItem> items = top_level_items(source);
  // Who defines what. A name defined in several places resolves to the
  // best-ranked definitions only (the branch the usual configuration
  // compiles); among several function bodies of that rank, the first.
  std::unordered_map<std::string_view, std::vector<size_t>> definers;
  for (size_t i = 0; i < items.size(); ++i)
    for (const auto& d : items[i].defines) {
      auto& v = definers[d];
      if (std::find(v.begin(), v.end(), i) == v.end()) v.push_back(i);
    }
  for (auto& [name, v] : definers) {
    int best = -2;
    for (size_t i : v) best = std::max(best, rank(items[i]));
    bool body = false;
    std::vector<size_t> kept;
    for (size_t i : v) {
      if (rank(items[i]) != best) continue;
      if (items[i].kind == TopLevelItem::kFunction && !items[i].defines.empty() &&
          items[i].defines[0] == name) {
        if (body) continue;
        body = true;
      }
      kept.push_back(i);
    }
    v = std::move(kept);
  }

  Extraction out;
  std::set<size_t> chosen;
  std::set<size_t> targets;
  std::vector<size_t> work;
  for (const std::string& name : names) {
    FoundFunction f;
    f.name = name;
    if (const auto d = definers.find(name); d != definers.end())
      for (size_t i : d->second) {
        const auto& it = items[i];
        if (it.kind == TopLevelItem::kFunction && !it.defines.empty() && it.defines[0] == name) {
          f.found = true;
          f.first_line = it.first_line;
          f.last_line = it.last_line;
          f.text = std::string(source.substr(it.begin, it.end - it.begin));
          targets.insert(i);
          if (chosen.insert(i).second) work.push_back(i);
          break;
        }
      }
    out.functions.push_back(std::move(f));
  }
  // The file's message prefix applies to the shim's pr_*() macros, which the
  // functions use without naming pr_fmt: keep it whenever it is defined.
  if (const auto d = definers.find("pr_fmt"); d != definers.end())
    for (size_t i : d->second)
      if (items[i].kind == TopLevelItem::kDirective && chosen.insert(i).second) work.push_back(i);
  while (!work.empty()) {
    const size_t i = work.back();
    work.pop_back();
    for (const auto& u : items[i].uses) {
      const auto d = definers.find(u);
      if (d == definers.end()) continue;
      for (size_t j : d->second)
        if (chosen.insert(j).second) work.push_back(j);
    }
  }
  const std::string label(file_label);
  std::vector<std::string> have;
  std::unordered_set<std::string> have_seen;
  // Names some chosen item defines other than by an `extern` declaration.
  std::unordered_set<std::string> defined_here;
  for (size_t i : chosen) {  // std::set: source order
    const auto& it = items[i];
    const bool target = targets.count(i) > 0;
    const char* kind = it.kind == TopLevelItem::kDirective  ? "define"
                       : it.kind == TopLevelItem::kFunction ? "function"
                                                            : "declaration";
    const std::string name = it.defines.empty() ? std::string("?") : it.defines[0];
    const std::string where = " (line " + std::to_string(it.first_line) + ")";
    if (!target) out.prelude.push_back(std::string(kind) + " " + name + where);
    for (const auto& d : it.defines)
      if (have_seen.insert(d).second && std::all_of(d.begin(), d.end(), ident_char))
        have.push_back(d);
    const std::string_view head = source.substr(it.begin, std::min<size_t>(7, it.end - it.begin));
    const bool extern_only =
        it.kind == TopLevelItem::kDeclaration && head.substr(0, 6) == "extern" &&
        (head.size() < 7 || !ident_char(head[6])) &&
        source.substr(it.begin, it.end - it.begin).find('=') == std::string_view::npos;
    if (!extern_only) defined_here.insert(it.defines.begin(), it.defines.end());
    out.code += std::string("/* idlespec item ") + (target ? "target " : "pulled ") + kind + " " +
                name + " */\n";
    if (it.kind == TopLevelItem::kDirective && !it.defines.empty())
      out.code += "#undef " + it.defines[0] + "\n";
    out.code += "#line " + std::to_string(it.first_line) + " \"" + label + "\"\n";
    const std::string_view text = source.substr(it.begin, it.end - it.begin);
    int asm_count = 0;
    if (!target && it.kind == TopLevelItem::kFunction &&
        (text.find("asm") != std::string_view::npos)) {
      const std::string plain = neutralise_asm(text, asm_count);
      if (asm_count > 0) {
        out.code += plain;
        const std::string note = "inline asm neutralised in " + name + where +
                                 " (pulled in, not judged): " + std::to_string(asm_count) +
                                 (asm_count == 1 ? " statement" : " statements");
        out.notes.push_back(note);
        out.prelude.push_back(note);
      }
    }
    if (asm_count == 0) out.code.append(text);
    out.code += "\n";
  }
  out.code += "/* idlespec item end */\n";
  for (const auto& d : have) {
    out.code += "#define IDLESPEC_HAVE_" + d + " 1\n";
    if (!defined_here.count(d)) out.code += "#define IDLESPEC_EXTERN_" + d + " 1\n";
  }
  return out;
}

namespace {

// The name between the first pair of quotes after `key` in `line` (gcc's
// ‘x’ in a UTF-8 locale, 'x' or `x' otherwise).
std::string quoted_after(std::string_view line, std::string_view key) {
  const size_t k = line.find(key);
  if (k == std::string_view::npos) return "";
  std::string_view rest = line.substr(k + key.size());
  static const std::string_view opens[] = {"\xe2\x80\x98", "'", "`"};
  for (std::string_view open : opens) {
    const size_t b = rest.find(open);
    if (b == std::string_view::npos || b > 2) continue;
    rest.remove_prefix(b + open.size());
    size_t e = 0;
    while (e < rest.size() && (ident_char(rest[e]) || rest[e] == ' ')) ++e;
    return std::string(rest.substr(0, e));
  }
  return "";
}

bool all_caps(std::string_view w) {
  return !w.empty() && std::none_of(w.begin(), w.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c));
  });
}

// The shim a name belongs in: cpuidle's names in cpuidle.h, a struct's
// members where the struct is (when `shims_dir` is given and a header there
// defines it), anything else in the component's own header (`env_header`),
// or kernel.h when there is none.
std::string shim_for(std::string_view name, const ExplainContext& ctx, bool is_struct = false) {
  if (name.substr(0, 8) == "CPUIDLE_" || name.substr(0, 8) == "cpuidle_")
    return "harness/shims/cpuidle.h";
  if (is_struct && !ctx.shims_dir.empty()) {
    for (const char* h : {"kernel.h", "cpuidle.h", "xcede_env.h", "states_env.h", "governor_env.h",
                          "teo_env.h", "idle_env.h"}) {
      std::ifstream in(std::string(ctx.shims_dir) + "/" + h);
      const std::string text((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
      if (text.find("struct " + std::string(name) + " {") != std::string::npos)
        return "harness/shims/" + std::string(h);
    }
  }
  if (!ctx.env_header.empty()) return "harness/shims/" + std::string(ctx.env_header);
  return "harness/shims/kernel.h";
}

// Whether `name` is called in `code` (name followed by an opening
// parenthesis), as opposed to used as a variable.
bool called_in(std::string_view code, const std::string& name) {
  for (size_t p = code.find(name); p != std::string_view::npos; p = code.find(name, p + 1)) {
    if (p > 0 && ident_char(code[p - 1])) continue;
    size_t e = p + name.size();
    if (e < code.size() && ident_char(code[e])) continue;
    while (e < code.size() && (code[e] == ' ' || code[e] == '\t')) ++e;
    if (e < code.size() && code[e] == '(') return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> explain_build_error(std::string_view out) {
  return explain_build_error(out, ExplainContext{});
}

std::vector<std::string> explain_build_error(std::string_view out, const ExplainContext& ctx) {
  std::vector<std::string> lines;
  std::unordered_set<std::string> seen;
  auto add = [&](const std::string& key, const std::string& text) {
    if (!key.empty() && seen.insert(key).second) lines.push_back(text);
  };
  size_t p = 0;
  while (p < out.size()) {
    size_t e = out.find('\n', p);
    if (e == std::string_view::npos) e = out.size();
    const std::string_view line = out.substr(p, e - p);
    p = e + 1;
    if (std::string n = quoted_after(line, "error: ");
        !n.empty() && line.find("undeclared") != line.npos) {
      add(n, n + ": not in the shims; " + shim_for(n, ctx) + " would need " +
                 (all_caps(n) ? "`#define " + n + " ...`"
                              : "a declaration of `" + n + "` (`extern ... " + n + ";`)"));
    } else if (std::string t = quoted_after(line, "unknown type name"); !t.empty()) {
      add(t,
          t + ": not in the shims; " + shim_for(t, ctx) + " would need `typedef ... " + t + ";`");
    } else if (std::string f = quoted_after(line, "undefined reference to"); !f.empty()) {
      const bool variable = !ctx.code.empty() && !called_in(ctx.code, f);
      add(f, f + ": not in the shims (the linker found no definition); " + shim_for(f, ctx) +
                 " would need " +
                 (variable ? "a definition of the variable `" + f + "` (`... " + f + " = ...;`)"
                           : "`static inline ... " + f + "(...) { ... }`"));
    } else if (std::string m = quoted_after(line, "has no member named"); !m.empty()) {
      std::string type = quoted_after(line, "error: ");
      add(type + "." + m, m + ": not a member of `" + type + "` in the shims; " +
                              shim_for(type.substr(type.find(' ') + 1), ctx, true) +
                              " would need the field `" + m + "` in `" + type + "`");
    } else if (std::string u = quoted_after(line, "invalid use of undefined type"); !u.empty()) {
      add(u, u + ": not in the shims; " + shim_for(u.substr(u.find(' ') + 1), ctx, true) +
                 " would need `" + u + " { ... };`");
    } else if (line.find("has incomplete type") != line.npos ||
               line.find("isn't known") != line.npos) {
      const std::string v = quoted_after(line, "of");
      add("incomplete " + v, "the type of `" + v + "` is incomplete: a struct the shims lack");
    }
  }
  return lines;
}

std::string drop_failing_items(const std::string& code, std::string_view compiler_output,
                               std::string_view file_label, std::vector<std::string>& dropped) {
  // The lines the compiler blamed in the file under test, and the functions
  // the linker found an undefined reference in.
  std::set<int> blamed;
  std::set<std::string> link_blamed;
  const std::string prefix = std::string(file_label) + ":";
  std::string in_function;
  for (size_t p = 0; p < compiler_output.size();) {
    size_t eol = compiler_output.find('\n', p);
    if (eol == std::string_view::npos) eol = compiler_output.size();
    const std::string_view line = compiler_output.substr(p, eol - p);
    p = eol + 1;
    if (line.substr(0, prefix.size()) == prefix && line.find(" error: ") != std::string_view::npos)
      blamed.insert(std::atoi(std::string(line.substr(prefix.size())).c_str()));
    if (const size_t f = line.find("in function `"); f != std::string_view::npos) {
      const size_t b = f + 13, e = line.find('\'', b);
      // gcc's clones of a static function: `name.constprop.0`, `name.isra.0`.
      if (e != std::string_view::npos) in_function = std::string(line.substr(b, e - b));
      in_function = in_function.substr(0, in_function.find('.'));
    }
    if (line.find("undefined reference to") != std::string_view::npos && !in_function.empty())
      link_blamed.insert(in_function);
  }
  if (blamed.empty() && link_blamed.empty()) return code;
  // The pulled-in items, each from its marker to the next; its lines from
  // its #line marker and its newlines.
  std::string result;
  const std::string marker = "/* idlespec item ";
  size_t at = code.find(marker);
  if (at == std::string::npos) return code;
  result = code.substr(0, at);
  bool changed = false;
  while (at != std::string::npos) {
    size_t next = code.find(marker, at + marker.size());
    const std::string_view block(code.data() + at,
                                 (next == std::string::npos ? code.size() : next) - at);
    const size_t head_end = block.find(" */");
    const std::string head(block.substr(marker.size(), head_end - marker.size()));
    const size_t ln = block.find("#line ");
    if (head.rfind("pulled ", 0) != 0 || ln == std::string_view::npos) {
      result.append(block);
      at = next;
      continue;
    }
    const std::string what = head.substr(7);  // "function NAME", "declaration NAME", ...
    const std::string name = what.substr(what.find(' ') + 1);
    const bool function = what.rfind("function ", 0) == 0;
    const int first = std::atoi(std::string(block.substr(ln + 6, 12)).c_str());
    const size_t text = block.find('\n', ln) + 1;
    const int n_lines = static_cast<int>(std::count(block.begin() + text, block.end(), '\n'));
    const auto hit = blamed.lower_bound(first);
    const bool compile_blamed = hit != blamed.end() && *hit < first + std::max(1, n_lines);
    const bool link = function && link_blamed.count(name) > 0;
    if (!compile_blamed && !link) {
      result.append(block);
      at = next;
      continue;
    }
    const std::string where = " (line " + std::to_string(first) + ")";
    // A function whose body is to blame keeps its declaration, with a body
    // that stops the harness if it is ever called (kernel.h,
    // idlespec_dropped_function): what refers to it (a state table's
    // .enter) still compiles, and nothing judged can run it unnoticed.
    // A function the code calls is on the path the harness runs: it stays,
    // and the error with it (the caller explains what the shims lack).
    if (function) {
      std::string rest = code.substr(0, at);
      if (next != std::string::npos) rest.append(code, next, std::string::npos);
      if (called_in(rest, name)) {
        result.append(block);
        at = next;
        continue;
      }
    }
    changed = true;
    const size_t brace = function ? block.find('{', text) : std::string_view::npos;
    if (brace != std::string_view::npos) {
      const int body_line =
          first + static_cast<int>(std::count(block.begin() + text, block.begin() + brace, '\n'));
      if (link || hit == blamed.end() || *hit >= body_line) {
        result += marker + "pulled stub " + name + " */\n";
        result.append(block.substr(ln, brace - ln));
        result += "{ idlespec_dropped_function(\"" + name + "\"); }\n";
        dropped.push_back(what + where + " does not " + (link ? "link" : "compile") +
                          " with the shims: dropped (its body replaced by a stub that stops the "
                          "harness if it is called)");
        at = next;
        continue;
      }
    }
    dropped.push_back((what.rfind("stub ", 0) == 0 ? "function " + name : what) + where +
                      " does not compile with the shims: dropped");
    at = next;
  }
  return changed ? result : code;
}

std::string first_line_label(std::string_view code) {
  const size_t l = code.find("#line ");
  if (l == std::string_view::npos) return "";
  const size_t nl = code.find('\n', l);
  const size_t q = code.find('"', l);
  if (q == std::string_view::npos || q > nl) return "";
  const size_t e = code.find('"', q + 1);
  if (e == std::string_view::npos || e > nl) return "";
  return std::string(code.substr(q + 1, e - q - 1));
}

}  // namespace idlespec::extraction
