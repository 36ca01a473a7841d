#include "validate/sparse_check.h"

#include <map>
#include <sstream>

#include "validate/validate.h"

namespace idlespec::validate {

sandbox::Job sparse_job(const std::string& sparse, const std::string& tu, const std::string& shims,
                        const std::vector<std::string>& reads, double timeout) {
  sandbox::Job j;
  // The kernel's checker flags for what this check is about: -Wbitwise
  // (restricted types), and gnu11 as the harness builds it.
  j.argv = {sparse, "-std=gnu11", "-Wbitwise", "-Wno-decl", "-Wno-unknown-attribute", "-I" + shims,
            tu};
  j.out = tu + ".sparse.out";
  j.err = tu + ".sparse.err";
  j.reads = reads;
  j.timeout = timeout;
  j.memory_mb = 0;
  j.confine = sandbox::Confine::tool;
  return j;
}

std::string sparse_unit(const std::string& env_header, const std::string& code) {
  std::string text = "#include \"kernel.h\"\n";
  if (!env_header.empty()) text += "#include \"" + env_header + "\"\n";
  return text + code;
}

namespace {

// For each line of the unit (1-based), the file and line its #line marker
// says it is; unit lines before the first marker map to nothing.
std::vector<std::pair<std::string, int>> line_map(const std::string& unit) {
  std::vector<std::pair<std::string, int>> map(1);
  std::istringstream in(unit);
  std::string l, file;
  int next = 0;
  while (std::getline(in, l)) {
    if (l.rfind("#line ", 0) == 0) {
      const size_t q = l.find('"'), e = q == std::string::npos ? q : l.find('"', q + 1);
      next = std::atoi(l.c_str() + 6);
      file = e == std::string::npos ? "" : l.substr(q + 1, e - q - 1);
      map.emplace_back("", 0);
      continue;
    }
    map.emplace_back(file, file.empty() ? 0 : next);
    if (!file.empty()) ++next;
  }
  return map;
}

bool byte_order_message(const std::string& m) {
  return m.find("restricted __be") != std::string::npos ||
         m.find("restricted __le") != std::string::npos;
}

}  // namespace

std::vector<SparseFinding> parse_sparse(const std::string& diagnostics, const std::string& unit,
                                        const std::string& unit_name) {
  const auto map = line_map(unit);
  std::vector<SparseFinding> out;
  std::map<std::string, size_t> at;  // "name:line:col" -> its finding (continuation lines)
  std::istringstream in(diagnostics);
  std::string l;
  while (std::getline(in, l)) {
    if (l.rfind(unit_name + ":", 0) != 0) continue;
    const char* p = l.c_str() + unit_name.size() + 1;
    char* end = nullptr;
    const long line = std::strtol(p, &end, 10);
    if (end == p || *end != ':') continue;
    const long col = std::strtol(end + 1, &end, 10);
    if (*end != ':') continue;
    std::string text = end + 1;
    while (!text.empty() && text[0] == ' ') text.erase(0, 1);
    const std::string key = std::to_string(line) + ":" + std::to_string(col);
    if (line <= 0 || static_cast<size_t>(line) >= map.size() || map[line].first.empty()) continue;
    if (auto it = at.find(key);
        it != at.end() && text.rfind("warning:", 0) != 0 && text.rfind("error:", 0) != 0) {
      out[it->second].message += "; " + text;  // "expected ...", "got ..."
      continue;
    }
    at[key] = out.size();
    out.push_back({map[line].first, map[line].second, text});
  }
  std::vector<SparseFinding> kept;
  for (auto& f : out)
    if (byte_order_message(f.message)) kept.push_back(std::move(f));
  return kept;
}

SparseRun sparse_result(const sandbox::Job& job, const sandbox::JobResult& r,
                        const std::string& unit) {
  SparseRun s;
  if (r.exec_failed) {
    s.note =
        "sparse: not run (" +
        (r.sandbox_error.empty() ? "'" + job.argv[0] + "' is not installed" : r.sandbox_error) +
        "; install it with scripts/setup.sh power)";
    return s;
  }
  if (r.timed_out || r.skipped) {
    s.note = "sparse: not run to the end within the budget";
    return s;
  }
  s.ran = true;
  std::string name = job.argv.back();
  s.byte_order = parse_sparse(sandbox::slurp(job.err) + sandbox::slurp(job.out), unit, name);
  s.note = "sparse: " + std::to_string(s.byte_order.size()) +
           " byte-order diagnostic(s) in the file's lines (-Wbitwise, the kernel's __bitwise "
           "__be/__le types)";
  return s;
}

void apply_sparse(const SparseRun& run, const std::string& clause, Part& part) {
  if (!run.note.empty()) part.notes.push_back(run.note);
  if (run.byte_order.empty()) return;
  for (auto& v : part.clauses) {
    if (v.id != clause || v.status == "absent") continue;
    if (v.status != "failed") {
      v.counterexamples.clear();
      v.coverage = "sparse";
      v.replay.clear();
    }
    v.status = "failed";
    v.error.clear();
    for (const auto& f : run.byte_order)
      if (v.counterexamples.size() < 6)
        v.counterexamples.push_back(f.file + ":" + std::to_string(f.line) +
                                    ": sparse: " + f.message);
    v.note = (v.note.empty() ? "" : v.note + "; ") +
             "sparse sees a byte-order type used without its conversion (on every target)";
  }
}

}  // namespace idlespec::validate
