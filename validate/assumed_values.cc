// What the shims assume of identifiers the file does not define:
// assumed_values.h.
#include "validate/assumed_values.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>

namespace idlespec::validate {

namespace {

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `name` occurs in `text` as a whole identifier.
bool uses_word(const std::string& text, const std::string& name) {
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const bool left = at == 0 || !ident(text[at - 1]);
    const bool right = at + name.size() >= text.size() || !ident(text[at + name.size()]);
    if (left && right) return true;
  }
  return false;
}

}  // namespace

std::vector<AssumedValue> assumed_values(const std::string& harness_dir) {
  static const std::string kMark = "idlespec assumed: ";
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& dir : {harness_dir + "/shims", harness_dir})
    for (auto it = std::filesystem::directory_iterator(dir, ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
      const auto ext = it->path().extension();
      if ((ext == ".h" || ext == ".c") && it->is_regular_file(ec)) files.push_back(it->path());
    }
  std::sort(files.begin(), files.end());
  std::vector<AssumedValue> out;
  for (const auto& f : files) {
    std::ifstream in(f);
    for (std::string line; std::getline(in, line);) {
      const size_t at = line.find(kMark);
      if (at == std::string::npos) continue;
      std::string text = line.substr(at + kMark.size());
      if (const size_t end = text.find("*/"); end != std::string::npos) text.resize(end);
      while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.pop_back();
      size_t n = 0;
      while (n < text.size() && ident(text[n])) ++n;
      if (n == 0 || text.compare(n, 3, " = ") != 0) continue;
      out.push_back({text.substr(0, n), text});
    }
  }
  return out;
}

std::vector<const AssumedValue*> assumed_in(const std::vector<AssumedValue>& assumed,
                                            const std::string& code) {
  std::vector<const AssumedValue*> out;
  for (const auto& a : assumed) {
    if (!uses_word(code, a.name)) continue;
    // The file's own #define (the extractor pulls in each one the code
    // uses) or definition (IDLESPEC_HAVE_ without IDLESPEC_EXTERN_).
    if (code.find("#undef " + a.name + "\n") != std::string::npos) continue;
    if (uses_word(code, "IDLESPEC_HAVE_" + a.name) && !uses_word(code, "IDLESPEC_EXTERN_" + a.name))
      continue;
    out.push_back(&a);
  }
  return out;
}

void note_assumed_values(const Options& opt, const Target& t, Part& part) {
  if (t.text.empty() || opt.harness_dir.empty()) return;
  const std::vector<AssumedValue> assumed = assumed_values(opt.harness_dir);
  if (assumed.empty()) return;
  std::map<std::string, std::string> by_function;  // the note for each function
  for (auto& v : part.clauses) {
    if (v.status == "absent" || v.function.empty()) continue;
    auto it = by_function.find(v.function);
    if (it == by_function.end()) {
      const std::vector<std::string> one = {v.function};
      const Extraction ex = extract(t.text, one, t.display);
      std::string note;
      for (const AssumedValue* a : assumed_in(assumed, ex.code))
        note += (note.empty() ? "" : "; ") + ("assumed " + a->text);
      it = by_function.emplace(v.function, note).first;
    }
    if (!it->second.empty() && v.note.find(it->second) == std::string::npos)
      v.note += (v.note.empty() ? "" : "; ") + it->second;
  }
}

}  // namespace idlespec::validate
