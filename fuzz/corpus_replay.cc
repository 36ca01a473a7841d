#include "fuzz/corpus_replay.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <system_error>

#include "verify/build_paths.h"

namespace idlespec::fuzz {
namespace {

namespace fs = std::filesystem;
using verify::CheckResult;
using verify::Outcome;

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

std::string list(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + v[i];
  return s;
}

CheckResult replay(const CorpusReplay& c, const std::string& subject,
                   const verify::RunOptions& opts) {
  CheckResult r;
  if (std::find(c.subjects.begin(), c.subjects.end(), subject) == c.subjects.end()) {
    r.detail = c.target + " replays the corpus for " + list(c.subjects) + ", not " + subject;
    return r;
  }
  const std::string corpus = "fuzz/corpus/" + c.target;
  const std::vector<fs::path> files = corpus_files(opts, corpus, r.detail);
  if (files.empty()) return r;

  const auto t0 = std::chrono::steady_clock::now();
  std::map<std::string, ClauseFinding> findings;  // by clause, in clause order
  std::vector<uint8_t> bytes;
  size_t judged = 0;
  size_t in_range = 0;
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
    const ReplayJudgement j = c.judge(subject, bytes);
    judged += j.judged;
    in_range += j.judged_in_range;
    for (const oracle::Violation& v : j.violations) {
      ClauseFinding& f = findings[v.clause];
      if (f.inputs++ != 0) continue;
      f.file = files[i].filename().string();
      f.message = v.message;
      f.example = oracle::hex(bytes) + " (" + (v.input.empty() ? c.describe(bytes) : v.input) + ")";
    }
  }
  std::string counted;
  if (!c.judged_unit.empty()) {
    counted = std::to_string(judged) + " " + c.judged_unit;
    if (!c.in_range_unit.empty())
      counted += ", " + std::to_string(in_range) + " " + c.in_range_unit;
  }
  if (findings.empty()) {
    r.outcome = Outcome::pass;
    r.detail = "replayed " + std::to_string(files.size()) + " inputs of " + corpus + " as " +
               subject + (counted.empty() ? "" : " (" + counted + ")") + ": no violation";
    return r;
  }
  r.outcome = Outcome::fail;
  std::string counts;
  bool outside = false;
  for (const auto& [clause, f] : findings) {
    if (std::find(c.clauses.begin(), c.clauses.end(), clause) != c.clauses.end()) {
      r.violated.insert(clause);
    } else {
      outside = true;
    }
    counts += (counts.empty() ? "" : ", ") + clause + " by " + std::to_string(f.inputs);
    r.counterexample += (r.counterexample.empty() ? "" : " | ") + clause + ": " + f.file + ": " +
                        f.example + ": " + f.message;
  }
  if (outside) r.violated.clear();  // a clause the check does not name: fail them all
  const auto& [first_clause, first] = *findings.begin();
  r.detail = "of " + std::to_string(files.size()) + " corpus inputs" +
             (counted.empty() ? "" : " (" + counted + ")") + ", violated: " + counts + "; first " +
             first_clause + ": " + first.file + ": " +
             first.message.substr(0, first.message.find('\n'));  // a timeline stays below
  r.replay = (c.subject_env.empty() ? "" : c.subject_env + "=" + subject + " ") + "build/release/" +
             c.target + "_replay " + corpus + "/" + first.file;
  return r;
}

}  // namespace

std::vector<fs::path> corpus_files(const verify::RunOptions& opts, const std::string& corpus,
                                   std::string& error) {
  const fs::path dir = fs::path(opts.source_dir.empty() ? std::string(idlespec::build::source_dir())
                                                        : opts.source_dir) /
                       corpus;
  std::error_code ec;
  std::vector<fs::path> files;
  if (fs::is_directory(dir, ec)) {
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.is_regular_file(ec)) files.push_back(entry.path());
    }
  }
  if (files.empty()) error = "no corpus: " + dir.string() + " is missing or empty";
  std::sort(files.begin(), files.end());
  return files;
}

verify::Check corpus_replay_check(CorpusReplay replay_spec) {
  verify::Check check;
  check.kind = verify::CheckKind::fuzz_replay;
  check.name = replay_spec.target;
  check.component = replay_spec.component;
  check.clauses = replay_spec.clauses;
  check.subjects = replay_spec.subjects;
  auto spec = std::make_shared<const CorpusReplay>(std::move(replay_spec));
  check.run = [spec](const std::string& subject, const verify::RunOptions& opts) {
    return replay(*spec, subject, opts);
  };
  return check;
}

}  // namespace idlespec::fuzz
