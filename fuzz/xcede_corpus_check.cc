// The `fuzz-replay xcede_fuzz` check: the stored corpus
// fuzz/corpus/xcede_fuzz/ replayed through the invariant checker
// (fuzz/xcede_check.h) for the reference subject.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/corpus_files.h"
#include "fuzz/xcede_check.h"
#include "impl/subjects.h"
#include "verify/layers.h"

namespace idlespec::verify {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCorpus = "fuzz/corpus/xcede_fuzz";

bool read_file(const fs::path& path, std::vector<uint8_t>& bytes) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return !f.bad();
}

CheckResult replay_corpus(const std::string& subject, const RunOptions& opts) {
  CheckResult r;
  if (subject != "reference") {
    r.detail = "xcede_fuzz replays the corpus for the reference subject only, not " + subject;
    return r;
  }
  const std::vector<fs::path> files = idlespec::fuzz::corpus_files(opts, kCorpus, r.detail);
  if (files.empty()) return r;

  const auto t0 = std::chrono::steady_clock::now();
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < files.size(); ++i) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (elapsed > opts.budget_seconds) {
      r.detail = "budget ran out after " + std::to_string(i) + " of " +
                 std::to_string(files.size()) + " corpus inputs, no violation so far";
      return r;
    }
    if (!read_file(files[i], bytes)) {
      r.detail = "cannot read " + files[i].string();
      return r;
    }
    const fuzz::Violations v = fuzz::check_xcede_input<ReferenceSubject>(bytes);
    if (v.empty()) continue;
    const std::string name = files[i].filename().string();
    r.outcome = Outcome::fail;
    for (const auto& violation : v) r.violated.insert(violation.clause);
    r.detail = name + ": " + v[0].clause + ": " + v[0].message;
    if (v.size() > 1) r.detail += " (and " + std::to_string(v.size() - 1) + " more)";
    r.counterexample = name + ": " + fuzz::hex(bytes) + " (" +
                       fuzz::describe(fuzz::split_input(bytes).config) + ")";
    r.replay = std::string("build/release/xcede_fuzz_replay ") + kCorpus + "/" + name;
    return r;
  }
  r.outcome = Outcome::pass;
  r.detail =
      "replayed " + std::to_string(files.size()) + " inputs of " + kCorpus + ": no violation";
  return r;
}

}  // namespace

void register_xcede_fuzz(Registry& r) {
  Check c;
  c.kind = CheckKind::fuzz_replay;
  c.name = "xcede_fuzz";
  c.component = "xcede";
  c.clauses = {"XCEDE-1",  "XCEDE-2",  "XCEDE-4",  "XCEDE-5",  "STATES-1",
               "STATES-2", "STATES-3", "STATES-4", "STATES-5", "STATES-7"};
  c.subjects = {"reference"};
  c.run = replay_corpus;
  r.add(std::move(c));
}

}  // namespace idlespec::verify
