// The `fuzz-replay governor_fuzz` check: the stored corpus
// fuzz/corpus/governor_fuzz/ replayed through the driver and checker of
// fuzz/governor_loop_check.h for one subject (any of the five: the subject
// under test overrides each input's form; the table, HZ and events are
// kept). Every violation is collected per clause, so that the v6.14
// family's known GOV-2 violation (the tick-stopped promotion over the latency
// limit) is reported as the violated set {GOV-2} together with any other.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fuzz/corpus_files.h"
#include "fuzz/governor_loop_check.h"
#include "verify/layers.h"

namespace idlespec::verify {
namespace {

namespace fs = std::filesystem;
namespace gf = governor_fuzz;

constexpr const char* kCorpus = "fuzz/corpus/governor_fuzz";

bool read_file(const fs::path& path, std::vector<uint8_t>& bytes) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return !f.bad();
}

struct ClauseFinding {
  size_t inputs = 0;    // corpus inputs that violate the clause
  std::string file;     // the first of them
  std::string example;  // its bytes and decoding
  std::string message;  // the violation there
};

CheckResult replay_corpus(const std::string& subject, const RunOptions& opts) {
  CheckResult r;
  const gf::Subject* s = gf::find_subject(subject);
  if (s == nullptr) {
    r.detail =
        "governor_fuzz replays the corpus for v6.14, seed-v2, "
        "seed-threshold, reference "
        "and v6.19, not " +
        subject;
    return r;
  }
  const std::vector<fs::path> files = idlespec::fuzz::corpus_files(opts, kCorpus, r.detail);
  if (files.empty()) return r;

  const auto t0 = std::chrono::steady_clock::now();
  std::map<std::string, ClauseFinding> findings;  // by clause, in clause order
  std::vector<uint8_t> bytes;
  size_t selections = 0;
  size_t gov5_judged = 0;
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
    const gf::Input in = gf::parse_input(bytes);
    const gf::Outcome out = gf::run(*s, in);
    selections += out.selections;
    gov5_judged += out.gov5_judged;
    for (const gf::Violation& v : out.violations) {
      ClauseFinding& f = findings[v.clause];
      if (f.inputs++ == 0) {
        f.file = files[i].filename().string();
        f.message = v.message;
        f.example = gf::hex(bytes) + " (" + gf::describe(in) + ")";
      }
    }
  }
  const std::string judged = std::to_string(selections) + " selections judged, " +
                             std::to_string(gov5_judged) + " of them in the GOV-5 ranges";
  if (findings.empty()) {
    r.outcome = Outcome::pass;
    r.detail = "replayed " + std::to_string(files.size()) + " inputs of " + kCorpus + " as " +
               subject + " (" + judged + "): no violation";
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
  r.detail = "of " + std::to_string(files.size()) + " corpus inputs (" + judged +
             "), violated: " + counts + "; first " + first_clause + ": " + first.file + ": " +
             first.message;
  r.replay = "IDLESPEC_GOVERNOR_SUBJECT=" + subject + " build/release/governor_fuzz_replay " +
             kCorpus + "/" + first.file;
  return r;
}

}  // namespace

void register_governor_fuzz(Registry& r) {
  Check c;
  c.kind = CheckKind::fuzz_replay;
  c.name = "governor_fuzz";
  c.component = "governor";
  c.clauses = {"GOV-1", "GOV-2", "GOV-3", "GOV-4", "GOV-5", "GOV-7", "GOV-8"};
  for (const gf::Subject& s : gf::all_subjects()) c.subjects.emplace_back(s.name);
  c.run = replay_corpus;
  r.add(std::move(c));
}

}  // namespace idlespec::verify
