#include "validate/input_check.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "validate/process.h"

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
                                const std::string& tag, double budget) {
  HarnessBatch b;
  b.outcomes.resize(inputs.size());
  size_t next = 0;
  const auto t0 = Clock::now();
  for (int attempt = 0; next < inputs.size() && attempt < kRestarts; ++attempt) {
    const double left = budget - std::chrono::duration<double>(Clock::now() - t0).count();
    if (left <= 1) {
      b.errors.push_back(tag + ": the budget ran out before input " + std::to_string(next));
      break;
    }
    std::string text;
    for (size_t i = next; i < inputs.size(); ++i)
      text += std::to_string(i) + " " + inputs[i] + "\n";
    const std::string stem = dir + "/" + tag + std::to_string(attempt);
    spit(stem + ".in", text);
    Job j;
    j.argv = {harness};
    if (sanitizers) j.argv.push_back("trace"), j.env = sanitizer_env();
    j.in = stem + ".in", j.out = stem + ".out", j.err = stem + ".err";
    j.timeout = left;
    const JobResult r = run_jobs({j}, 1).front();
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
      if (!(l >> id) || id >= inputs.size()) continue;
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
          at = std::atoll(line.c_str() + 3);
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
    RunRecord rec{
        sanitizers ? "sanitizers" : "plain",
        tag + " inputs " + std::to_string(next) + ".." + std::to_string(inputs.size() - 1),
        r.seconds, done ? "finished" : outcome(r, left)};
    if (!done && rec.outcome == "finished") rec.outcome = "stopped early";
    b.runs.push_back(rec);
    if (done) {
      next = inputs.size();
      break;
    }
    // The input in flight when the run ended: blame it, resume after it.
    if (last < inputs.size() && !b.outcomes[last].reported && !r.timed_out) {
      HarnessOutcome& o = b.outcomes[last];
      o.reported = o.crashed = true;
      o.crash = "the harness died (" + rec.outcome + ")";
      ++last;
    } else if (r.timed_out) {
      b.errors.push_back(tag + ": " + rec.outcome + " at input " + std::to_string(last));
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
                  HarnessBuild& hb, int& line) {
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
  hb = build_harness(opt, part.temp_dir, env_header, ex.code, harness_file, {have_define});
  if (!hb.error.empty()) {
    part.build_error = hb.error;
    fill_verdicts(component, target, part, "error", "the harness does not compile");
    return false;
  }
  if (opt.sanitizers && hb.san.empty())
    part.notes.push_back("the ASan+UBSan build failed, sanitizer reports not observed: " +
                         hb.san_note);
  return true;
}

void finish_part(const Options& opt, Part& part, std::chrono::steady_clock::time_point t0) {
  part.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!opt.keep_temp) remove_tree(part.temp_dir), part.temp_dir.clear();
}

}  // namespace idlespec::validate
