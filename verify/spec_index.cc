#include "verify/spec_index.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace idlespec::verify {
namespace {

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string> split_list(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',' || c == ';') {
      if (auto t = trim(cur); !t.empty()) out.push_back(t);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (auto t = trim(cur); !t.empty()) out.push_back(t);
  return out;
}

bool parse_check_kind(std::string_view s, CheckKind& k) {
  for (CheckKind c : {CheckKind::proof, CheckKind::exhaustive, CheckKind::property,
                      CheckKind::fuzz_replay, CheckKind::model_check}) {
    if (check_kind_name(c) == s) {
      k = c;
      return true;
    }
  }
  return false;
}

}  // namespace

namespace {
// The entry of `list` named `name` (an acceptance's subject, an era's name).
const Acceptance* named(const std::vector<Acceptance>& list, std::string_view name) {
  for (const auto& a : list) {
    if (a.subject == name) return &a;
  }
  return nullptr;
}
}  // namespace

const Acceptance* Clause::acceptance_for(std::string_view subject) const {
  return named(accepted, subject);
}

const Acceptance* Clause::era(std::string_view name) const { return named(eras, name); }

bool Clause::applies_to(std::string_view subject, const std::vector<std::string>& modes) const {
  for (const auto& s : subjects) {
    if (s == subject || std::find(modes.begin(), modes.end(), s) != modes.end()) return true;
  }
  return false;
}

const Clause* SpecIndex::find(std::string_view id) const {
  for (const auto& c : clauses) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

std::vector<std::string> SpecIndex::modes_of(std::string_view component,
                                             std::string_view subject) const {
  for (const auto& m : modes) {
    if (m.component == component && m.subject == subject) return m.modes;
  }
  return {};
}

std::string SpecIndex::validate_default(std::string_view component) const {
  for (const auto& d : validate_defaults) {
    if (d.first == component) return d.second;
  }
  return "";
}

std::vector<std::string> SpecIndex::subjects_of(std::string_view component) const {
  std::vector<std::string> out;
  for (const auto& c : clauses) {
    if (c.component != component) continue;
    for (const auto& s : c.subjects) {
      if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    }
  }
  return out;
}

std::string_view component_for_prefix(std::string_view prefix) {
  if (prefix == "XCEDE") return "xcede";
  if (prefix == "STATES") return "states";
  if (prefix == "BUSY") return "busy_delay";
  if (prefix == "IDLE") return "idle_core";
  if (prefix == "GOV") return "governor";
  if (prefix == "TEO") return "teo";
  return "";
}

std::string canonical_component(std::string_view name) {
  std::string n(name);
  std::replace(n.begin(), n.end(), '-', '_');
  for (auto c : kComponents) {
    if (c == n) return n;
  }
  return "";
}

void parse_spec_file(std::string_view component, std::string_view file_name, std::string_view text,
                     SpecIndex& into) {
  static const std::regex heading(R"(^### ([A-Z]+)-([0-9]+[a-z]?) \(([a-z]+)\)\s*$)");
  static const std::regex field(
      R"(^- (Subjects|Source|Checks|Since|Fixed by|Accepted for ([A-Za-z0-9_.-]+(, *[A-Za-z0-9_.-]+)*)|Era ([A-Za-z0-9_.-]+)):\s*(.*)$)");
  static const std::regex modes_line(R"(^- Modes of ([A-Za-z0-9_.-]+):\s*(.*)$)");
  static const std::regex default_line(R"(^- Validate default:\s*([A-Za-z0-9_.-]+)\s*$)");
  static const std::regex commit_id(R"(^([0-9a-f]{12,40})\b.*)");
  std::istringstream in{std::string(text)};
  std::string line;
  int lineno = 0;
  Clause* cur = nullptr;
  bool in_obligation = false;
  size_t pending_fix = 0;  // acceptances of the last "Accepted for" line still without a fix
  std::vector<Acceptance>* pending_in = nullptr;  // where they are: accepted or eras
  auto err = [&](const std::string& msg) {
    into.errors.push_back(std::string(file_name) + ":" + std::to_string(lineno) + ": " + msg);
  };
  auto finish = [&]() {
    if (!cur) return;
    if (pending_fix)
      err(cur->id + ": an 'Accepted for' or 'Era' line without its '- Fixed by:' line");
    pending_fix = 0;
    if (cur->obligation.empty()) err(cur->id + ": no obligation sentence");
    if (cur->subjects.empty()) err(cur->id + ": no '- Subjects:' line");
    if (cur->source.empty()) err(cur->id + ": no '- Source:' line");
    for (const auto& a : cur->accepted) {
      if (std::find(cur->subjects.begin(), cur->subjects.end(), a.subject) == cur->subjects.end()) {
        err(cur->id + ": accepted for '" + a.subject + "', which is not one of its subjects");
      }
    }
  };
  while (std::getline(in, line)) {
    ++lineno;
    std::smatch m;
    if (line.rfind("#", 0) == 0) {
      finish();
      cur = nullptr;
      in_obligation = false;
      if (std::regex_match(line, m, heading)) {
        const std::string prefix = m[1];
        if (component_for_prefix(prefix) != component) {
          err("clause " + prefix + "-" + std::string(m[2]) + " does not belong in " +
              std::string(component));
        }
        const std::string kind = m[3];
        if (kind != "safety" && kind != "efficiency" && kind != "liveness") {
          err("clause kind must be safety, efficiency or liveness, not '" + kind + "'");
        }
        const std::string id = prefix + "-" + std::string(m[2]);
        if (into.find(id)) err("clause " + id + " defined twice");
        into.clauses.push_back(Clause{});
        cur = &into.clauses.back();
        cur->id = id;
        cur->component = std::string(component);
        cur->kind = kind;
        cur->file = std::string(file_name);
        cur->line = lineno;
        in_obligation = true;
      } else if (line.rfind("### ", 0) == 0 &&
                 std::regex_search(line, std::regex(R"(^### [A-Z]+-[0-9])"))) {
        err("malformed clause heading (want '### ID-N (safety|efficiency|liveness)'): " + line);
      }
      continue;
    }
    if (!cur) {
      if (std::regex_match(line, m, modes_line)) {
        into.modes.push_back({std::string(component), m[1], split_list(std::string(m[2]))});
      } else if (std::regex_match(line, m, default_line)) {
        if (!into.validate_default(component).empty())
          err("two '- Validate default:' lines for " + std::string(component));
        into.validate_defaults.push_back({std::string(component), m[1]});
      } else if (line.rfind("- Validate default:", 0) == 0) {
        err("'- Validate default:' takes one subject name");
      }
      continue;
    }
    const std::string t = trim(line);
    if (std::regex_match(line, m, field)) {
      in_obligation = false;
      const std::string key = m[1];
      const std::string value = trim(std::string(m[5]));
      if (key != "Fixed by" && pending_fix) {
        err(cur->id + ": an 'Accepted for' or 'Era' line without its '- Fixed by:' line");
        pending_fix = 0;
      }
      if (key == "Subjects") {
        cur->subjects = split_list(value);
      } else if (key == "Source") {
        cur->source = value;
      } else if (key == "Since") {
        std::smatch c;
        if (!std::regex_match(value, c, commit_id)) {
          err(cur->id + ": '- Since:' takes a commit id (12 or more hex digits) and its title");
          continue;
        }
        if (!cur->since.empty()) err(cur->id + ": two '- Since:' lines");
        cur->since = value;
        cur->since_commit = c[1];
      } else if (key == "Checks") {
        for (const auto& item : split_list(value)) {
          const auto sp = item.find(' ');
          if (sp != std::string::npos && item.substr(0, sp) == "validate") {
            cur->validate_functions.push_back(trim(item.substr(sp + 1)));
            continue;
          }
          CheckRef ref;
          if (sp == std::string::npos || !parse_check_kind(item.substr(0, sp), ref.kind)) {
            err(cur->id + ": check '" + item + "' must read '<kind> <name>'");
            continue;
          }
          ref.name = trim(item.substr(sp + 1));
          cur->checks.push_back(ref);
        }
      } else if (key == "Fixed by") {
        if (!pending_fix) {
          err(cur->id + ": a '- Fixed by:' line must follow an 'Accepted for' or 'Era' line");
          continue;
        }
        std::smatch c;
        const bool none = value.rfind("none", 0) == 0;
        if (!none && !std::regex_match(value, c, commit_id)) {
          err(cur->id +
              ": '- Fixed by:' takes a commit id (12 or more hex digits) or 'none (why)'");
        }
        std::vector<Acceptance>& list = *pending_in;
        for (size_t i = list.size() - pending_fix; i < list.size(); ++i) {
          list[i].fixed_by = value;
          if (!none && !c.empty()) list[i].fixed_by_commit = c[1];
        }
        pending_fix = 0;
      } else if (key.rfind("Era ", 0) == 0) {
        const std::string name = m[4];
        if (cur->era(name)) err(cur->id + ": era '" + name + "' twice");
        if (value.empty()) err(cur->id + ": era '" + name + "' says nothing of what it does");
        cur->eras.push_back({name, value, "", ""});
        pending_fix = 1;
        pending_in = &cur->eras;
      } else {
        const auto subjects = split_list(std::string(m[2]));
        for (const auto& s : subjects) {
          if (cur->acceptance_for(s)) err(cur->id + ": accepted for '" + s + "' twice");
          cur->accepted.push_back({s, value, "", ""});
        }
        pending_fix = subjects.size();
        pending_in = &cur->accepted;
      }
      continue;
    }
    if (in_obligation) {
      if (t.empty()) {
        if (!cur->obligation.empty()) in_obligation = false;
      } else {
        if (!cur->obligation.empty()) cur->obligation += ' ';
        cur->obligation += t;
      }
    }
  }
  finish();
  const std::string def = into.validate_default(component);
  const std::vector<std::string> known = into.subjects_of(component);
  if (!def.empty() && std::find(known.begin(), known.end(), def) == known.end())
    into.errors.push_back(std::string(file_name) + ": '- Validate default: " + def +
                          "' names no subject of the clauses");
}

SpecIndex load_spec_dir(const std::string& dir) {
  SpecIndex idx;
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".md" && e.path().stem() != "README") files.push_back(e.path());
  }
  if (ec) {
    idx.errors.push_back(dir + ": " + ec.message());
    return idx;
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    parse_spec_file(f.stem().string(), "spec/" + f.filename().string(), ss.str(), idx);
  }
  return idx;
}

}  // namespace idlespec::verify
