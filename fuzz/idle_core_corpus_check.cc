// The `fuzz-replay idle_core_fuzz` check: the stored corpus
// fuzz/corpus/idle_core_fuzz/ replayed through the driver and the oracle
// (fuzz/idle_core_check.h) for the reference. Discharges IDLE-3, IDLE-4,
// IDLE-5, IDLE-6 and IDLE-9 (spec/idle_core.md) for the schedules stored.
// The oracle judges IDLE-2 and the kernel assertions too: a violation of a
// clause outside the check's list fails every clause it names, so that it
// cannot pass unnoticed.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fuzz/corpus_files.h"
#include "fuzz/idle_core_check.h"
#include "verify/layers.h"

namespace idlespec::verify {
namespace {

namespace fs = std::filesystem;
namespace icf = idle_core_fuzz;

constexpr const char* kCorpus = "fuzz/corpus/idle_core_fuzz";
const std::vector<std::string>& clauses() {
  static const std::vector<std::string> ids = {"IDLE-3", "IDLE-4", "IDLE-5", "IDLE-6", "IDLE-9"};
  return ids;
}

bool read_file(const fs::path& path, std::vector<uint8_t>& bytes) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return !f.bad();
}

struct ClauseFinding {
  size_t inputs = 0;
  std::string file;
  std::string example;
};

CheckResult replay_corpus(const std::string& subject, const RunOptions& opts) {
  CheckResult r;
  if (subject != "reference") {
    r.detail = "idle_core_fuzz replays the corpus for reference, not " + subject;
    return r;
  }
  const std::vector<fs::path> files = idlespec::fuzz::corpus_files(opts, kCorpus, r.detail);
  if (files.empty()) return r;

  const auto t0 = std::chrono::steady_clock::now();
  std::map<std::string, ClauseFinding> findings;
  std::vector<uint8_t> bytes;
  size_t moves = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (elapsed > opts.budget_seconds) {
      r.detail = "budget ran out after " + std::to_string(i) + " of " +
                 std::to_string(files.size()) + " corpus inputs";
      return r;
    }
    if (!read_file(files[i], bytes)) {
      r.detail = "cannot read " + files[i].string();
      return r;
    }
    const icf::Input in = icf::parse_input(bytes);
    const icf::Outcome out = icf::run<idle_core::Reference>(in);
    moves += out.rows.size();
    if (out.ok()) continue;
    ClauseFinding& f = findings[out.verdict.clause];
    if (f.inputs++ == 0) {
      f.file = files[i].filename().string();
      f.example = icf::hex(bytes) + " (" + icf::describe(in) + "): " + out.verdict.message + "\n" +
                  icf::timeline(in.config, out, 60);
    }
  }
  if (findings.empty()) {
    r.outcome = Outcome::pass;
    r.detail = "replayed " + std::to_string(files.size()) + " schedules of " + kCorpus + " (" +
               std::to_string(moves) + " moves judged by the oracle): no violation";
    return r;
  }
  r.outcome = Outcome::fail;
  std::string counts;
  bool outside = false;
  for (const auto& [clause, f] : findings) {
    if (std::find(clauses().begin(), clauses().end(), clause) != clauses().end()) {
      r.violated.insert(clause);
    } else {
      outside = true;
    }
    counts += (counts.empty() ? "" : ", ") + clause + " by " + std::to_string(f.inputs);
    r.counterexample +=
        (r.counterexample.empty() ? "" : "\n") + clause + ": " + f.file + ": " + f.example;
  }
  if (outside) r.violated.clear();  // a clause the check does not name: fail them all
  const auto& [first_clause, first] = *findings.begin();
  r.detail = "of " + std::to_string(files.size()) + " corpus schedules, violated: " + counts +
             "; first " + first_clause + ": " + first.file;
  r.replay = "build/release/idle_core_fuzz_replay " + std::string(kCorpus) + "/" + first.file;
  return r;
}

}  // namespace

void register_idle_core_fuzz(Registry& r) {
  Check c;
  c.kind = CheckKind::fuzz_replay;
  c.name = "idle_core_fuzz";
  c.component = "idle_core";
  c.clauses = clauses();
  c.subjects = {"reference"};
  c.run = replay_corpus;
  r.add(std::move(c));
}

}  // namespace idlespec::verify
