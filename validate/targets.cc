// The host and POWER targets of a component's harnesses: targets.h.
#include "validate/targets.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "sandbox/sandbox.h"

namespace idlespec::validate {

const std::vector<TargetArch>& target_archs() {
  static const std::vector<TargetArch> all = {
      {"host", "host", "", "", {}, ""},
      {"ppc64",
       "ppc64 (big-endian)",
       "powerpc64-linux-gnu-gcc",
       "qemu-ppc64",
       {"-funsigned-char", "-static"},
       "libc6-dev-ppc64-cross"},
      {"ppc64le",
       "ppc64le",
       "powerpc64le-linux-gnu-gcc",
       "qemu-ppc64le",
       {"-funsigned-char", "-static"},
       "libc6-dev-ppc64el-cross"},
  };
  return all;
}

const TargetArch* find_target(const std::string& name) {
  for (const auto& t : target_archs())
    if (t.name == name) return &t;
  return nullptr;
}

std::string target_label(const std::string& name) {
  const TargetArch* t = find_target(name.empty() ? "host" : name);
  return t ? t->label : name;
}

std::string parse_targets(const std::string& list, std::vector<std::string>& out) {
  out.clear();
  std::istringstream in(list);
  for (std::string one; std::getline(in, one, ',');) {
    if (!find_target(one)) return "bad --targets '" + list + "': targets are host, ppc64, ppc64le";
    if (std::find(out.begin(), out.end(), one) == out.end()) out.push_back(one);
  }
  if (out.empty()) return "bad --targets '" + list + "': name at least one of host, ppc64, ppc64le";
  return "";
}

std::string target_missing(const TargetArch& t) {
  std::string missing;
  for (const std::string* p : {&t.cc, &t.emulator})
    if (!p->empty() && !executable_on_path(*p)) missing += (missing.empty() ? "" : ", ") + *p;
  // Debian's cross C library lives under /usr/TRIPLE (the compiler's name
  // less "-gcc"); scripts/power-check.sh builds a harness to the same end.
  if (missing.empty() && !t.libc_package.empty()) {
    const std::string root = "/usr/" + t.cc.substr(0, t.cc.rfind('-'));
    std::error_code ec;
    if (!std::filesystem::is_regular_file(root + "/include/stdio.h", ec) ||
        !std::filesystem::is_regular_file(root + "/lib/libc.a", ec))
      missing = t.cc + " cannot build a harness: no C library for it (" + t.libc_package + ")";
  }
  return missing;
}

std::vector<std::string> targets_for(const Options& opt, const std::string& component,
                                     std::vector<std::string>& missing,
                                     std::string& why_host_only) {
  // idle_core's harness links the idle_core oracle, a C++ archive built for
  // the host: it has no POWER build.
  if (component == "idle_core") {
    const bool asked = std::any_of(opt.targets.begin(), opt.targets.end(),
                                   [](const std::string& t) { return t != "host"; });
    if (asked)
      why_host_only =
          "idle_core runs on the host only: its harness links the idle_core oracle, C++ built "
          "for the host, which has no POWER build (its ucontext scheduler itself does run under "
          "qemu-user)";
    return {"host"};
  }
  const bool power_only =
      component == "xcede" || component == "states" || component == "busy_delay";
  std::vector<std::string> wanted = opt.targets;
  if (wanted.empty())
    wanted = power_only ? std::vector<std::string>{"host", "ppc64", "ppc64le"}
                        : std::vector<std::string>{"host"};
  std::vector<std::string> out;
  for (const auto& name : wanted) {
    const TargetArch* t = find_target(name);
    if (!t) continue;
    if (const std::string lacks = target_missing(*t); !lacks.empty()) {
      const std::string line = t->name + " (" + lacks + ")";
      if (std::find(missing.begin(), missing.end(), line) == missing.end()) missing.push_back(line);
      continue;
    }
    out.push_back(name);
  }
  return out;
}

Options options_for_target(const Options& opt, const std::string& component,
                           const std::string& target, std::vector<std::string>& notes) {
  Options o = opt;
  o.target = target == "host" ? "" : target;
  if (o.target.empty()) return o;
  const std::string label = target_label(target);
  if (opt.sanitizers)
    notes.push_back(label +
                    ": the sanitizer build is UBSan alone (ASan does not run under qemu-user); "
                    "ASan ran on the host");
  if (o.inputs.erase("fuzz") && component != "busy_delay")
    notes.push_back(label +
                    ": no libFuzzer campaign (the host's clang runtime); its corpus from the "
                    "host's run is not replayed here");
  // RapidCheck's cases each start a process, qemu's start-up included
  // (~0.1 s): a fifth of the host's.
  if (o.inputs.count("rapidcheck") && component != "busy_delay" && o.property_cases > 20) {
    o.property_cases = std::max(20, opt.property_cases / 5);
    notes.push_back(label + ": RapidCheck " + std::to_string(o.property_cases) + " cases (" +
                    std::to_string(opt.property_cases) + " on the host)");
  }
  if (component == "busy_delay" && !o.sampled) {
    o.sampled = true;
    notes.push_back(label +
                    ": busy_delay's sampled scan only (the 2^32 scans under qemu-user would take "
                    "hours; the host ran them)");
  }
  return o;
}

double target_budget_seconds(const std::vector<std::string>& order, size_t i, double left_seconds) {
  auto weight = [](const std::string& t) { return t == "host" ? 2.0 : 1.0; };
  double weights = 0;
  for (size_t j = i; j < order.size(); ++j) weights += weight(order[j]);
  const double share = i < order.size() ? left_seconds * weight(order[i]) / weights : 0;
  return std::max(share, 1e-3);
}

std::vector<std::string> target_run_order(const std::vector<std::string>& targets) {
  std::vector<std::string> order;
  if (std::find(targets.begin(), targets.end(), "host") != targets.end()) order.push_back("host");
  for (const auto& t : targets)
    if (t != "host") order.push_back(t);
  return order;
}

std::string target_cc(const Options& opt) {
  const TargetArch* t = opt.target.empty() ? nullptr : find_target(opt.target);
  return t && !t->cc.empty() ? t->cc : opt.cc;
}

std::vector<std::string> target_flags(const Options& opt) {
  const TargetArch* t = opt.target.empty() ? nullptr : find_target(opt.target);
  return t ? t->cflags : std::vector<std::string>{};
}

bool target_has_asan(const Options& opt) { return opt.target.empty() || opt.target == "host"; }

namespace {

// How bad a verdict is, for the worst of a clause's targets.
int severity(const std::string& status) {
  static const std::map<std::string, int> order = {{"absent", 0},    {"n/a", 1},     {"held", 2},
                                                   {"accepted", 3},  {"unknown", 4}, {"error", 5},
                                                   {"uncovered", 6}, {"failed", 7}};
  const auto it = order.find(status);
  return it == order.end() ? 5 : it->second;
}

std::string first_detail(const ClauseVerdict& v) {
  if (!v.counterexamples.empty()) return v.counterexamples.front();
  if (!v.error.empty()) return v.error;
  if (v.status != "held" && !v.note.empty()) return v.note;
  return "";
}

}  // namespace

Part merge_target_parts(std::vector<std::pair<std::string, Part>> parts) {
  if (parts.size() == 1 && parts.front().first == "host") return std::move(parts.front().second);
  Part out = parts.front().second;  // the functions, prelude, file of the first (the host's)
  out.clauses.clear();
  out.runs.clear();
  out.notes.clear();
  out.escapes.clear();
  out.build_error.clear();
  out.seconds = 0;
  std::vector<std::string> temp_dirs;
  for (auto& [target, p] : parts) {
    const bool host = target == "host";
    const std::string label = target_label(target);
    const std::string mark = host ? "" : "[" + target + "] ";
    out.seconds += p.seconds;
    for (auto r : p.runs) {
      r.mode = mark + r.mode;
      out.runs.push_back(r);
    }
    for (const auto& n : p.notes) {
      const std::string note = host ? n : label + ": " + n;
      if (std::find(out.notes.begin(), out.notes.end(), note) == out.notes.end())
        out.notes.push_back(note);
    }
    for (const auto& e : p.escapes) out.escapes.push_back(host ? e : "on " + label + ": " + e);
    if (!p.build_error.empty())
      out.build_error += (out.build_error.empty() ? "" : "\n") +
                         (host ? p.build_error : label + ": " + p.build_error);
    if (!p.temp_dir.empty()) temp_dirs.push_back(mark + p.temp_dir);
    for (const auto& v : p.clauses) {
      auto it = std::find_if(out.clauses.begin(), out.clauses.end(), [&](const ClauseVerdict& m) {
        return m.id == v.id && m.function == v.function;
      });
      if (it == out.clauses.end()) {
        ClauseVerdict first = v;
        first.counterexamples.clear();
        first.fails_like.clear();
        first.status = "absent";  // raised below
        first.error.clear();
        first.note.clear();
        first.coverage.clear();
        first.replay.clear();
        first.follows_from.clear();
        first.era.clear();
        first.subjects_compared = false;
        it = out.clauses.insert(out.clauses.end(), first);
      }
      ClauseVerdict& m = *it;
      // The proof level: the weakest of the targets' (a target without a
      // proof of its own makes the clause "tested", with that target's
      // reason).
      if (m.targets.empty()) {
        m.proof = v.proof;
        m.proof_note = v.proof_note.empty() || host ? v.proof_note : label + ": " + v.proof_note;
      } else if (m.proof == "proven" && v.proof != "proven") {
        m.proof = v.proof.empty() ? "tested" : v.proof;
        m.proof_note = label + ": " + (v.proof_note.empty() ? "no proof" : v.proof_note);
      }
      m.targets.push_back({target, v.status, first_detail(v), v.proof});
      for (const auto& c : v.counterexamples) m.counterexamples.push_back(mark + c);
      if (!v.error.empty())
        m.error += (m.error.empty() ? "" : "\n") + (host ? v.error : label + ": " + v.error);
      if (!v.note.empty() && m.note.find(v.note) == std::string::npos)
        m.note += (m.note.empty() ? "" : "; ") + (host ? v.note : label + ": " + v.note);
      if (!v.coverage.empty()) {
        // A POWER target's sanitizer build is UBSan alone (targets.h).
        std::string coverage = v.coverage;
        for (size_t at; !host && (at = coverage.find("ASan+UBSan")) != std::string::npos;)
          coverage.replace(at, 10, "UBSan");
        m.coverage +=
            (m.coverage.empty() ? "" : "; ") + (host ? coverage : label + ": " + coverage);
      }
      if (m.replay.empty() && !v.replay.empty()) m.replay = mark + v.replay;
      // The subjects' comparison, the era and the clause it follows from:
      // from the worst target that has them (the one a reader looks at).
      if (severity(v.status) > severity(m.status) ||
          (v.status == m.status && !m.subjects_compared && v.subjects_compared)) {
        if (v.subjects_compared || severity(v.status) > severity(m.status)) {
          m.subjects_compared = v.subjects_compared;
          m.fails_like = v.fails_like;
        }
        if (!v.era.empty()) m.era = v.era;
        if (!v.follows_from.empty()) m.follows_from = v.follows_from;
        if (severity(v.status) > severity(m.status)) m.status = v.status;
      } else if (v.status == "failed" && m.subjects_compared && v.subjects_compared) {
        // Both failed: a subject accepted only if it fails like the file on
        // every target that failed.
        std::vector<std::string> both;
        for (const auto& s : m.fails_like)
          if (std::count(v.fails_like.begin(), v.fails_like.end(), s)) both.push_back(s);
        m.fails_like = both;
      }
      if (v.line > 0 && m.line == 0) m.line = v.line;
    }
  }
  // No format carries "proven" beside a status other than held.
  for (auto& m : out.clauses)
    if (m.proof == "proven" && m.status != "held") m.proof = "tested";
  if (!temp_dirs.empty()) {
    out.temp_dir.clear();
    for (const auto& d : temp_dirs) out.temp_dir += (out.temp_dir.empty() ? "" : ", ") + d;
  }
  return out;
}

void settle_target_statuses(std::vector<ClauseVerdict>& clauses) {
  for (auto& v : clauses)
    for (auto& t : v.targets) {
      if (v.status == "accepted" && t.status == "failed") t.status = "accepted";
      if (v.status == "n/a" && t.status != "absent") t.status = "n/a";
      if (v.status == "unknown" && v.note.rfind("not judged: the run was interrupted", 0) == 0)
        t.status = "unknown";
    }
}

std::string where_text(const ClauseVerdict& v) {
  if (v.targets.size() < 2 && (v.targets.empty() || v.targets.front().target == "host")) return "";
  // Statuses in the order of their worst first; targets in their order.
  std::vector<std::pair<std::string, std::vector<std::string>>> by;
  for (const auto& t : v.targets) {
    auto it =
        std::find_if(by.begin(), by.end(), [&](const auto& b) { return b.first == t.status; });
    if (it == by.end()) it = by.insert(by.end(), {t.status, {}});
    it->second.push_back(target_label(t.target));
  }
  std::stable_sort(by.begin(), by.end(), [](const auto& a, const auto& b) {
    return severity(a.first) > severity(b.first);
  });
  std::string out;
  for (const auto& [status, names] : by) {
    out += (out.empty() ? "" : ", ") + status + " on ";
    for (size_t i = 0; i < names.size(); ++i)
      out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return out;
}

}  // namespace idlespec::validate
