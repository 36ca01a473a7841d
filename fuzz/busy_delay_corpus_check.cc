// The `fuzz-replay busy_delay_fuzz` check: the stored corpus
// fuzz/corpus/busy_delay_fuzz/ replayed through the invariant checker
// (fuzz/busy_delay_check.h) for one subject: reference (both forms), early or
// legacy. The subject under test overrides each input's choice of policy
// form; the rest of the config (need_resched, start count, byte order) is
// kept. Every violation is collected per clause, so that legacy's known
// BUSY-3 and BUSY-6 violations are reported together with (here: without)
// any other.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fuzz/busy_delay_check.h"
#include "fuzz/corpus_files.h"
#include "verify/layers.h"

namespace idlespec::verify {
namespace {

namespace fs = std::filesystem;
namespace bf = busy_delay_fuzz;

constexpr const char* kCorpus = "fuzz/corpus/busy_delay_fuzz";

bool read_file(const fs::path& path, std::vector<uint8_t>& bytes) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return !f.bad();
}

struct ClauseFinding {
  size_t inputs = 0;    // corpus inputs that violate the clause (any form)
  std::string file;     // the first of them
  std::string example;  // its bytes, config and statuses
  std::string message;  // the violation there
};

CheckResult replay_corpus(const std::string& subject, const RunOptions& opts) {
  CheckResult r;
  const std::vector<bf::Policy> policies = bf::policies_for_subject(subject);
  if (policies.empty()) {
    r.detail = "busy_delay_fuzz replays the corpus for reference, early and legacy, not " + subject;
    return r;
  }
  const std::vector<fs::path> files = idlespec::fuzz::corpus_files(opts, kCorpus, r.detail);
  if (files.empty()) return r;

  const auto t0 = std::chrono::steady_clock::now();
  std::map<std::string, ClauseFinding> findings;  // by clause, in clause order
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < files.size(); ++i) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (elapsed > opts.budget_seconds) {
      r.detail = "budget ran out after " + std::to_string(i) + " of " +
                 std::to_string(files.size()) + " corpus inputs";
      if (!findings.empty()) r.detail += " (violations so far: " + findings.begin()->first + ")";
      return r;
    }
    if (!read_file(files[i], bytes)) {
      r.detail = "cannot read " + files[i].string();
      return r;
    }
    const bf::Input in = bf::parse_input(bytes);
    const std::string name = files[i].filename().string();
    std::map<std::string, bool> seen_here;
    for (const bf::Policy& p : policies) {
      for (const bf::Violation& v : bf::check(p, in)) {
        if (seen_here[v.clause]) continue;
        seen_here[v.clause] = true;
        ClauseFinding& f = findings[v.clause];
        if (f.inputs++ == 0) {
          f.file = name;
          f.message = v.message;
          f.example = bf::hex(bytes) + " (replayed as " + subject + "; config " +
                      bf::describe(in.config) + "; statuses " + bf::describe_statuses(in.statuses) +
                      ")";
        }
      }
    }
  }
  if (findings.empty()) {
    r.outcome = Outcome::pass;
    r.detail = "replayed " + std::to_string(files.size()) + " inputs of " + kCorpus + " (" +
               std::to_string(policies.size()) + (policies.size() == 1 ? " form" : " forms") +
               "): no violation";
    return r;
  }
  r.outcome = Outcome::fail;
  std::string counts;
  for (const auto& [clause, f] : findings) {
    r.violated.insert(clause);
    counts += (counts.empty() ? "" : ", ") + clause + " by " + std::to_string(f.inputs);
    r.counterexample += (r.counterexample.empty() ? "" : " | ") + clause + ": " + f.file + ": " +
                        f.example + ": " + f.message;
  }
  const auto& [first_clause, first] = *findings.begin();
  r.detail = "of " + std::to_string(files.size()) + " corpus inputs, violated: " + counts +
             "; first " + first_clause + ": " + first.file + ": " + first.message;
  r.replay = "IDLESPEC_BUSY_DELAY_SUBJECT=" + subject + " build/release/busy_delay_fuzz_replay " +
             kCorpus + "/" + first.file;
  return r;
}

}  // namespace

void register_busy_delay_fuzz(Registry& r) {
  Check c;
  c.kind = CheckKind::fuzz_replay;
  c.name = "busy_delay_fuzz";
  c.component = "busy_delay";
  c.clauses = {"BUSY-1", "BUSY-3", "BUSY-6", "BUSY-7"};
  c.subjects = {"reference", "legacy", "early"};
  c.run = replay_corpus;
  r.add(std::move(c));
}

}  // namespace idlespec::verify
