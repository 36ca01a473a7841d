#include "validate/input_check.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <set>
#include <sstream>

#include "sandbox/process.h"
#include "validate/job_retry.h"

namespace idlespec::validate {
namespace {
using Clock = std::chrono::steady_clock;
constexpr int kRestarts = 40;
}  // namespace

std::string payload_hex(const std::vector<uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (const uint8_t c : bytes) s += digits[c >> 4], s += digits[c & 15];
  return s.empty() ? "-" : s;
}

long long HarnessOutcome::field(const std::string& key) const {
  const size_t p = result.find(" " + key + "=");
  return p == std::string::npos ? 0
                                : std::strtoll(result.c_str() + p + key.size() + 2, nullptr, 10);
}

HarnessBatch run_harness_inputs(const std::string& harness, bool sanitizers,
                                const std::vector<std::string>& inputs, const std::string& dir,
                                const std::string& tag, double budget, size_t first_id) {
  HarnessBatch b;
  b.outcomes.resize(inputs.size());
  size_t next = 0;
  const auto t0 = Clock::now();
  for (int attempt = 0; next < inputs.size() && attempt < kRestarts; ++attempt) {
    const double left = budget - std::chrono::duration<double>(Clock::now() - t0).count();
    if (left <= 0.1) {  // too little to start a run
      b.errors.push_back(tag + ": the budget ran out before input " +
                         std::to_string(first_id + next));
      break;
    }
    std::string text;
    for (size_t i = next; i < inputs.size(); ++i)
      text += std::to_string(first_id + i) + " " + inputs[i] + "\n";
    const std::string stem = dir + "/" + tag + std::to_string(attempt);
    spit(stem + ".in", text);
    Job j;
    j.argv = {harness};
    if (sanitizers) j.argv.push_back("trace"), j.env = sanitizer_env();
    j.in = stem + ".in", j.out = stem + ".out", j.err = stem + ".err";
    j.timeout = left;
    const JobResult r = run_jobs_retrying({j}, 1).front();
    const std::string out = slurp(j.out);
    std::istringstream is(out);
    size_t last = next;  // the highest id seen + 1
    bool done = false;
    for (std::string line; std::getline(is, line);) {
      std::istringstream l(line);
      std::string tag_word;
      size_t id = 0;
      l >> tag_word;
      if (tag_word == "DONE") {
        done = true;
        continue;
      }
      if (!(l >> id) || id < first_id || id - first_id >= inputs.size()) continue;
      id -= first_id;
      HarnessOutcome& o = b.outcomes[id];
      last = std::max(last, id + 1);
      std::string rest;
      std::getline(l, rest);
      if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
      if (tag_word == "LOG") {
        o.log.push_back(rest);
        continue;
      }
      if (tag_word == "WARN") {
        o.warns.push_back(rest);
        continue;
      }
      o.reported = true;
      o.lines.push_back(tag_word + " " + rest);
      if (tag_word == "CRASH" || tag_word == "HANG") {
        (tag_word == "CRASH" ? o.crashed : o.hung) = true;
        o.result = tag_word + " " + rest;
        // "11 SIGSEGV nr=3 ..." -> "11 SIGSEGV": the words before the fields.
        const size_t eq = rest.find('=');
        o.crash = rest.substr(0, eq == std::string::npos ? rest.size() : rest.rfind(' ', eq));
      } else if (o.result.empty() && (tag_word == "R" || tag_word == "S")) {
        o.result = tag_word + " " + rest;
      }
    }
    // Sanitizer reports, attributed to the input in flight ("AT id" on stderr).
    if (sanitizers) {
      std::istringstream es(slurp(j.err));
      long long at = -1;
      std::string* open = nullptr;  // the ASan report being summarised
      for (std::string line; std::getline(es, line);) {
        if (line.rfind("AT ", 0) == 0) {
          at = std::atoll(line.c_str() + 3) - static_cast<long long>(first_id);
          open = nullptr;
          continue;
        }
        if (at < 0 || static_cast<size_t>(at) >= inputs.size()) continue;
        auto& reports = b.outcomes[static_cast<size_t>(at)].sanitizer;
        size_t p = line.find("runtime error:");
        if (p != std::string::npos) {
          if (reports.size() < 3) reports.push_back("UBSan " + line.substr(p));
        } else if ((p = line.find("ERROR: AddressSanitizer: ")) != std::string::npos) {
          // "ERROR: AddressSanitizer: global-buffer-overflow on address ..." -> the kind;
          // the access, the frame and the object follow on their own lines.
          const std::string kind = line.substr(p + 25, line.find(' ', p + 25) - (p + 25));
          reports.push_back("ASan " + kind);
          open = &reports.back();
        } else if (open) {
          if (line.rfind("READ of size", 0) == 0 || line.rfind("WRITE of size", 0) == 0) {
            *open += ": " + line.substr(0, line.find(" at 0x"));
          } else if (line.find("    #0 ") == 0 && line.find(" in ") != std::string::npos) {
            std::string where = line.substr(line.find(" in ") + 4);
            const size_t slash = where.rfind('/');
            if (slash != std::string::npos && where.find(' ') < slash)
              where = where.substr(0, where.find(' ') + 1) + where.substr(slash + 1);
            *open += " in " + where;
          } else if (line.find(" is located ") != std::string::npos &&
                     line.find(" global variable ") != std::string::npos &&
                     line.find(" to the left of ") == std::string::npos) {
            const size_t q = line.find('\'');
            const std::string var = line.substr(q, line.find('\'', q + 1) - q + 1);
            const size_t loc = line.find(" is located ") + 12;
            *open += ", " + line.substr(loc, line.find(" of global") - loc) + " of " + var;
            const size_t sz = line.rfind(" of size ");
            if (sz != std::string::npos) *open += " (" + line.substr(sz + 9) + " bytes)";
          } else if (line.rfind("SUMMARY:", 0) == 0) {
            open = nullptr;
          }
        }
        last = std::max(last, static_cast<size_t>(at) + 1);
      }
    }
    RunRecord rec{sanitizers ? "sanitizers" : "plain",
                  tag + " inputs " + std::to_string(first_id + next) + ".." +
                      std::to_string(first_id + inputs.size() - 1),
                  r.seconds,
                  done        ? "finished"
                  : r.skipped ? (r.interrupted ? "not started: the run was interrupted"
                                               : "not started: the budget ran out before it")
                              : outcome(r, left)};
    // Exit status 0 before the harness's end: the code under test called
    // exit(0) (the harness itself returns only after its last input).
    if (!done && rec.outcome == "finished") rec.outcome = kExitMidRun;
    const bool backstop =
        !done && !r.timed_out && !r.skipped && r.signal == 0 && r.exit_code == kHarnessExitHung;
    if (backstop) rec.outcome = kHungRunOutcome;
    b.runs.push_back(rec);
    if (done) {
      next = inputs.size();
      break;
    }
    // The input in flight when the run ended: blame it, resume after it. The
    // hang backstop wrote the HANG line of its input in flight itself.
    const bool hang_written = backstop && last > next && b.outcomes[last - 1].hung;
    if (hang_written) {
      // resume after it
    } else if (last < inputs.size() && !b.outcomes[last].reported && !r.timed_out && !r.skipped) {
      HarnessOutcome& o = b.outcomes[last];
      o.reported = true;
      if (backstop) {  // its HANG line did not arrive: the hang is still this input's
        o.hung = true;
        o.result = "HANG";
        o.lines.push_back("HANG");
      } else {
        o.crashed = true;
        o.crash =
            rec.outcome == kExitMidRun ? rec.outcome : "the harness died (" + rec.outcome + ")";
      }
      ++last;
    } else if (r.timed_out || r.skipped) {  // no input to blame: stop here
      b.errors.push_back(tag + ": " + rec.outcome + " at input " + std::to_string(first_id + last));
      break;
    }
    next = std::max(last, next + 1);
  }
  if (next < inputs.size() && b.errors.empty())
    b.errors.push_back(tag + ": gave up resuming after " + std::to_string(kRestarts) + " runs");
  return b;
}

namespace detail {
void fill_clause(ClauseVerdict& v, const std::vector<std::string>& errors, size_t judged_plain,
                 size_t judged_san, bool san, bool needs_san) {
  if (!errors.empty()) {
    v.status = "error";
    for (const auto& e : errors) v.error += (v.error.empty() ? "" : "; ") + e;
  } else if (judged_plain == 0) {
    v.status = "unknown";
    v.note = "no input was judged (--inputs chose none that ran)";
  } else if (needs_san && !san) {
    v.status = "unknown";
    v.note =
        "judged by the ASan build's reports, and there was none (--no-sanitizers, a "
        "candidate library, or an ASan build that failed)";
  } else {
    v.status = "held";
    v.coverage = std::to_string(judged_plain) + " inputs (plain)";
    if (san) v.coverage += ", " + std::to_string(judged_san) + " (ASan+UBSan)";
  }
}
}  // namespace detail

bool prepare_part(const Options& opt, const Component& component, const Target& target,
                  const std::string& env_header, const std::string& harness_file,
                  const std::string& have_define, const std::string& candidate_define, Part& part,
                  HarnessBuild& hb, int& line, bool fuzz, const std::vector<std::string>& libs) {
  part.component = component.name;
  part.file = target.display;
  const Extraction ex = target.candidate.empty()
                            ? extract(target.text, target.functions, target.path)
                            : candidate_extraction(opt, target, candidate_define);
  part.functions = ex.functions;
  part.prelude = ex.prelude;
  if (ex.functions.empty() || !ex.functions.front().found) {
    fill_verdicts(component, target, part, "absent", "");
    return false;
  }
  line = ex.functions.front().first_line;
  part.temp_dir = make_temp_dir("validate");
  if (part.temp_dir.empty()) {
    fill_verdicts(component, target, part, "error", "cannot create a temporary directory");
    return false;
  }
  // A candidate library has no coverage instrumentation to guide a campaign.
  hb = build_harness(opt, part.temp_dir, env_header, ex.code, harness_file, {have_define},
                     fuzz && target.candidate.empty(), libs);
  part.notes.insert(part.notes.end(), hb.notes.begin(), hb.notes.end());
  if (!hb.error.empty()) {
    part.build_error = hb.error;
    fill_verdicts(component, target, part, "error", hb.verdict_reason);
    return false;
  }
  return true;
}

void finish_part(const Options& opt, Part& part, std::chrono::steady_clock::time_point t0) {
  part.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!opt.keep_temp) remove_tree(part.temp_dir), part.temp_dir.clear();
}

// --- the fuzz campaign ------------------------------------------------------------

namespace {
// harness_firmware.c's FUZZ_RETRIED and FUZZ_FAILING, in the same order.
constexpr int kFuzzRetried[7] = {-2, 9900, 9901, 9902, 9903, 9904, 9905};
constexpr int kFuzzFailing[8] = {-1, -3, 9906, 1, -9999, 9899, INT32_MIN, INT32_MAX};

// libFuzzer's -seed (0 would mean a random one).
unsigned long fuzz_seed(const Options& opt) {
  return std::max<unsigned long>(1, static_cast<unsigned long>(opt.seed % 4294967295u));
}

// "cov: 123" from a libFuzzer status line ("#4096 ... cov: 123 ft: 456 corp: 78 ...").
long stat_after(const std::string& line, const std::string& key) {
  const size_t p = line.rfind(" " + key + " ");
  return p == std::string::npos ? -1 : std::strtol(line.c_str() + p + key.size() + 2, nullptr, 10);
}
}  // namespace

FuzzScript fuzz_script(const std::vector<uint8_t>& data) {
  FuzzScript s;
  size_t at = 0;
  const unsigned head = data.empty() ? 0 : data[at++];
  for (unsigned i = 0; i < (head & 3); ++i)
    s.statuses.push_back(kFuzzRetried[(at < data.size() ? data[at++] : 0) % 7]);
  s.statuses.push_back((head & 4) ? kFuzzFailing[(head >> 3) & 7] : 0);
  s.body.assign(data.begin() + static_cast<long>(std::min(at, data.size())), data.end());
  return s;
}

std::vector<uint8_t> fuzz_bytes(const std::vector<int>& statuses,
                                const std::vector<uint8_t>& body) {
  if (statuses.empty() || statuses.size() > 4) return {};
  std::vector<uint8_t> out = {static_cast<uint8_t>(statuses.size() - 1)};
  for (size_t i = 0; i + 1 < statuses.size(); ++i) {
    const int* at = std::find(std::begin(kFuzzRetried), std::end(kFuzzRetried), statuses[i]);
    if (at == std::end(kFuzzRetried)) return {};
    out.push_back(static_cast<uint8_t>(at - std::begin(kFuzzRetried)));
  }
  if (statuses.back() != 0) {
    const int* at = std::find(std::begin(kFuzzFailing), std::end(kFuzzFailing), statuses.back());
    if (at == std::end(kFuzzFailing)) return {};
    out[0] = static_cast<uint8_t>(out[0] | 4 | (at - std::begin(kFuzzFailing)) << 3);
  }
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

FuzzCorpus run_fuzz_campaign(const Options& opt, const HarnessBuild& hb, const std::string& dir,
                             const std::vector<std::vector<uint8_t>>& seeds, size_t max_inputs,
                             std::chrono::steady_clock::time_point part_start) {
  FuzzCorpus c;
  const double seconds = fuzz_seconds(opt);
  if (seconds <= 0) return c;  // none asked for (--fuzz 0, or not among --inputs)
  const double left = budget_left(opt, part_start) - later_shares_seconds(opt, Stage::fuzz);
  if (left < 1) {
    c.summary = "libFuzzer: no campaign (less than a second of the part's budget was left for it)";
    return c;
  }
  if (hb.fuzz.empty()) {
    c.summary = "libFuzzer: no campaign (the fuzz build failed: " + hb.fuzz_note + ")";
    return c;
  }
  const std::string corpus = dir + "/fuzz-corpus", artifacts = dir + "/fuzz-artifacts";
  if (!std::filesystem::create_directories(corpus) ||
      !std::filesystem::create_directories(artifacts)) {
    c.summary = "libFuzzer: no campaign (cannot create " + corpus + ")";
    return c;
  }
  std::set<std::string> seeded;  // judged already: not again from the corpus
  for (size_t i = 0; i < seeds.size(); ++i) {
    seeded.insert(std::string(seeds[i].begin(), seeds[i].end()));
    spit(corpus + "/seed-" + std::to_string(i), std::string(seeds[i].begin(), seeds[i].end()));
  }
  const long whole = std::lround(std::max(1.0, seconds));
  Job j;
  j.argv = {hb.fuzz,
            corpus,
            "-max_total_time=" + std::to_string(whole),
            "-timeout=2",
            "-seed=" + std::to_string(fuzz_seed(opt)),
            "-max_len=1024",
            "-fork=1",
            "-ignore_crashes=1",
            "-ignore_timeouts=1",
            "-ignore_ooms=1",
            "-artifact_prefix=" + artifacts + "/",
            "-print_final_stats=1"};
  if (opt.memory_mb > 0) j.argv.push_back("-rss_limit_mb=" + std::to_string(opt.memory_mb));
  j.env = {{"ASAN_OPTIONS", "detect_leaks=0"}, {"UBSAN_OPTIONS", "print_stacktrace=0"}};
  j.out = dir + "/fuzz.out";
  j.err = dir + "/fuzz.err";
  // Its time and a grace for start-up and the last job (a fifth of the
  // budget, 1 to 30 s), within what the later stages leave of the part's
  // budget. Fork mode first runs the seeds in a child that libFuzzer's
  // -timeout does not reach, so a function that hangs on every input would
  // otherwise keep it until this limit; what it kept by then is still read
  // and judged below.
  j.timeout =
      std::min(static_cast<double>(whole) + std::clamp(opt.budget_seconds / 5, 1.0, 30.0), left);
  j.memory_mb = 0;  // libFuzzer's -rss_limit_mb (ASan reserves terabytes of address space)
  const JobResult r = run_jobs({j}, 1).front();

  // What it kept: smallest first (a corpus minimum is the readable one).
  std::vector<std::pair<std::vector<uint8_t>, bool>> kept;
  size_t corpus_files = 0, artifact_files = 0;
  for (const auto& [folder, is_artifact] : {std::pair{corpus, false}, std::pair{artifacts, true}})
    // The campaign's directories are the code's to write: a link there is
    // not followed, whatever it names (slurp() opens nothing but a regular
    // file beneath the run's directory; issue 47).
    for (std::error_code ec; const auto& e : std::filesystem::directory_iterator(folder, ec)) {
      std::error_code fec;
      if (e.is_symlink(fec) || !e.is_regular_file(fec)) continue;
      const std::string text = slurp(e.path().string());
      if (seeded.count(text)) continue;
      kept.push_back({std::vector<uint8_t>(text.begin(), text.end()), is_artifact});
      (is_artifact ? artifact_files : corpus_files)++;
    }
  std::stable_sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second : a.first.size() < b.first.size();
  });
  if (kept.size() > max_inputs) kept.resize(max_inputs);
  for (auto& [bytes, art] : kept) c.inputs.push_back(std::move(bytes)), c.artifact.push_back(art);

  long cov = -1, runs = -1;
  std::istringstream err(slurp(j.err));
  for (std::string line; std::getline(err, line);) {
    if (stat_after(line, "cov:") >= 0) cov = stat_after(line, "cov:");
    if (line.rfind("stat::number_of_executed_units:", 0) == 0)
      runs = std::strtol(line.c_str() + 32, nullptr, 10);
    if (line.size() > 1 && line[0] == '#' && line.find(" cov: ") != std::string::npos)
      runs = std::max(runs, std::strtol(line.c_str() + 1, nullptr, 10));
  }
  std::string s = "libFuzzer: " + std::to_string(whole) +
                  " s coverage-guided campaign on the code under test (ASan+UBSan, fork mode, "
                  "seed " +
                  std::to_string(fuzz_seed(opt)) + ", " + std::to_string(seeds.size()) + " seeds)";
  if (runs >= 0) s += ", " + std::to_string(runs) + " executions";
  if (cov >= 0) s += ", " + std::to_string(cov) + " coverage edges";
  s += ": " + std::to_string(corpus_files) + " corpus inputs and " +
       std::to_string(artifact_files) + " crash/timeout/OOM artifacts kept; " +
       std::to_string(c.inputs.size()) + " of them judged with the other inputs";
  if (r.exit_code != 0 && artifact_files == 0) s += " (libFuzzer " + outcome(r, j.timeout) + ")";
  c.summary = s;
  return c;
}

}  // namespace idlespec::validate
