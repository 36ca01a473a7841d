// Internal to validate/: the engine of the input-driven components (xcede,
// states): generated inputs go through a line-protocol harness
// (harness/harness_firmware.c) in both builds; each input's outcome is
// judged against the clauses; the first counterexample of each failed
// clause is shrunk by re-running the harness on candidates; the verdicts
// are filled in. A component supplies the inputs and an InputChecker.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "validate/component.h"

namespace idlespec::validate {

// What a harness printed for one input.
// How a run reads that the code under test ended with exit(0) before the
// harness finished its inputs.
inline constexpr const char* kExitMidRun =
    "exit(0) from the code under test in the middle of the run";

// The exit status of a harness that its hang backstop ended
// (harness/harness_runtime.c HARNESS_EXIT_HUNG): a call of the code under
// test made no progress for longer than the signal watchdog needs, which the
// code kept from firing by blocking or ignoring SIGALRM. The harness wrote
// the input's hang line first; the runner resumes after it.
inline constexpr int kHarnessExitHung = 5;
inline constexpr const char* kHungRunOutcome =
    "ended by the hang backstop (the code under test hung with the watchdog's signal blocked or "
    "ignored)";

// What stopped an input, for a finding: "crashed: 11 SIGSEGV", or the
// exit(0) of kExitMidRun as it is (an exit is not a crash).
inline std::string stop_text(const std::string& crash) {
  return crash == kExitMidRun ? crash : "crashed: " + crash;
}

struct HarnessOutcome {
  bool reported = false;
  bool crashed = false, hung = false;
  std::string crash;               // "11 SIGSEGV" (CRASH's words before its fields)
  std::string result;              // the first R or S line (or CRASH/HANG), without the id
  std::vector<std::string> lines;  // every line of the input but LOG/WARN, without the id
  std::vector<std::string> log, warns, sanitizer;
  // key=value of the result line (0 when absent).
  long long field(const std::string& key) const;
};

struct HarnessBatch {
  std::vector<HarnessOutcome> outcomes;
  std::vector<RunRecord> runs;
  std::vector<std::string> errors;  // runs that did not finish and could not be resumed
};

// Runs the inputs (each a line without its id) through `harness` ("trace"
// and sanitizer_env() when `sanitizers`), resuming after a run that stops
// early (a crash the harness could not survive, its abort after too many
// traps), so that no input's result is lost; ASan and UBSan reports are
// summarised and attributed to the input in flight.
// `first_id`: the id of lines[0] (a batch split across processes numbers
// its inputs as the whole does); outcomes[i] is still lines[i]'s.
HarnessBatch run_harness_inputs(const std::string& harness, bool sanitizers,
                                const std::vector<std::string>& lines, const std::string& dir,
                                const std::string& tag, double budget, size_t first_id = 0);

// A payload as a harness line field: lower-case hex, "-" when empty.
std::string payload_hex(const std::vector<uint8_t>& bytes);

// Findings per clause for one input: clause -> what happened.
using Findings = std::map<std::string, std::string>;

template <class Input>
struct InputChecker {
  std::function<std::string(const Input&)> line;  // the harness line, without the id
  std::function<Findings(const Input&, const HarnessOutcome&)> judge;
  std::function<std::vector<Input>(const Input&)> shrink;  // smaller candidates, best first
  std::function<std::string(const Input&)> describe;       // for people
  std::function<size_t(const Input&)> weight;              // the smallest failing input is shrunk
  std::string sanitizer_clause;  // judged only with the ASan build ("" none): unknown without it
  std::map<std::string, std::string> failure_notes;  // clause -> note when it fails
  int shrink_rounds = 48;
  // The ASan+UBSan build's inputs run in several processes at once, one per
  // slice: the index each slice starts at, in order (empty: one process). A
  // slow sanitizer batch beside a quick plain one would leave a CPU idle.
  std::vector<size_t> san_slices;
  // When the part began (its extraction and build, Z3's inputs, the fuzz
  // campaign and RapidCheck count too): --budget is the part's, so the runs
  // and the shrinking get what is left of it.
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  // The spec's subjects that break `clause` on the shrunk counterexample as
  // the file does (`finding` is what the file did), judged by the same
  // oracle; nullopt where the component does not compare (then an acceptance
  // applies to any failure of the clause). Null: never compared.
  std::function<std::optional<std::vector<std::string>>(const std::string& clause, const Input& in,
                                                        const std::string& finding)>
      fails_like;
  // The inputs every run with the same options draws alike, whatever the
  // code under test does (generated from the seed, Z3's): their failures
  // are kept as ClauseVerdict::failing_inputs for review's comparison. A
  // fuzz campaign's or RapidCheck's inputs follow the code's behaviour and
  // are not. Null: none is kept.
  std::function<bool(const Input&)> reproducible;
};

namespace detail {
struct Found {
  size_t input;
  std::string text;
  bool plain;  // the plain build shows it (else only the ASan build)
};
void fill_clause(ClauseVerdict& v, const std::vector<std::string>& errors, size_t judged_plain,
                 size_t judged_san, bool san, bool needs_san);
}  // namespace detail

// Runs `inputs` through `hb`'s builds, judges, shrinks and appends one
// verdict per clause of `component` to `part`.
template <class Input>
void check_inputs(const Options& opt, const HarnessBuild& hb, const Component& component,
                  const Target& target, int line, const std::vector<Input>& inputs,
                  const InputChecker<Input>& c, Part& part) {
  // What is left of the part's budget (validate/component.h), and no more:
  // when the earlier stages used it all (a build or a campaign that ran long
  // on a loaded machine), the runs say which input they stopped at, input 0,
  // and the part still ends by its budget.
  const auto left = [&] { return budget_left(opt, c.start); };
  const double run_budget = left();
  const bool san = !hb.san.empty();
  std::vector<std::string> lines;
  for (const auto& in : inputs) lines.push_back(c.line(in));
  HarnessBatch plain, sanb;
  {
    // Both builds at once; the sanitizer one in c.san_slices' processes.
    std::vector<size_t> starts;
    if (san) starts.push_back(0);
    for (size_t k : c.san_slices)
      if (san && k > starts.back() && k < lines.size()) starts.push_back(k);
    std::vector<HarnessBatch> parts(starts.size());
    std::vector<std::thread> others;
    for (size_t k = 0; k < starts.size(); ++k) {
      const size_t from = starts[k], to = k + 1 < starts.size() ? starts[k + 1] : lines.size();
      others.emplace_back([&, k, from, to] {
        const std::vector<std::string> slice(lines.begin() + from, lines.begin() + to);
        parts[k] = run_harness_inputs(hb.san, true, slice, part.temp_dir,
                                      starts.size() == 1 ? "san" : "san" + std::to_string(k),
                                      run_budget, from);
      });
    }
    plain = run_harness_inputs(hb.plain, false, lines, part.temp_dir, "plain", run_budget);
    for (auto& t : others) t.join();
    for (auto& p : parts) {
      sanb.outcomes.insert(sanb.outcomes.end(), p.outcomes.begin(), p.outcomes.end());
      sanb.runs.insert(sanb.runs.end(), p.runs.begin(), p.runs.end());
      sanb.errors.insert(sanb.errors.end(), p.errors.begin(), p.errors.end());
    }
  }
  part.runs.insert(part.runs.end(), plain.runs.begin(), plain.runs.end());
  part.runs.insert(part.runs.end(), sanb.runs.begin(), sanb.runs.end());

  std::map<std::string, std::vector<detail::Found>> found;
  size_t judged_plain = 0, judged_san = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    judged_plain += plain.outcomes[i].reported;
    if (san) judged_san += sanb.outcomes[i].reported;
    for (const HarnessBatch* b : {&sanb, &plain}) {  // a sanitizer's report says more than a crash
      if (b->outcomes.empty() || !b->outcomes[i].reported) continue;
      for (const auto& [clause, text] : c.judge(inputs[i], b->outcomes[i])) {
        auto& v = found[clause];
        const auto it =
            std::find_if(v.begin(), v.end(), [&](const auto& x) { return x.input == i; });
        if (it == v.end())
          v.push_back({i, text, b == &plain});
        else if (b == &plain)
          it->plain = true;
      }
    }
  }

  // Shrink through the build that shows the finding: plain if it does.
  auto shrink = [&](const std::string& clause, Input in, std::string text, bool via_san) {
    const std::string& harness = via_san ? hb.san : hb.plain;
    // Within what is left of the budget: a round stops the shrinking where
    // it is (the counterexample stays a failing input, only less small).
    for (int round = 0; round < c.shrink_rounds; ++round) {
      if (left() <= 1) break;
      const std::vector<Input> cand = c.shrink(in);
      if (cand.empty()) break;
      std::vector<std::string> cl;
      for (const auto& x : cand) cl.push_back(c.line(x));
      const HarnessBatch b =
          run_harness_inputs(harness, via_san, cl, part.temp_dir,
                             "shrink" + std::to_string(round) + "-", std::min(20.0, left()));
      bool progressed = false;
      for (size_t i = 0; i < cand.size() && !progressed; ++i) {
        const Findings f = c.judge(cand[i], b.outcomes[i]);
        const auto it = f.find(clause);
        if (it != f.end()) in = cand[i], text = it->second, progressed = true;
      }
      if (!progressed) break;
    }
    // ASan reports each faulting instruction once per process: the shrunk
    // input's own report may have gone to an earlier candidate. Alone in a
    // fresh process it shows it.
    if (via_san && left() > 1) {
      const HarnessBatch alone = run_harness_inputs(hb.san, true, {c.line(in)}, part.temp_dir,
                                                    "alone-", std::min(20.0, left()));
      const Findings f = c.judge(in, alone.outcomes.front());
      if (const auto it = f.find(clause); it != f.end()) text = it->second;
    }
    return std::make_pair(in, text);
  };

  for (const auto& [id, fn] : component.clauses) {
    ClauseVerdict v;
    v.id = id;
    v.component = component.name;
    v.function = fn;
    v.file = target.display;
    v.line = line;
    const auto it = found.find(id);
    if (it != found.end() && !it->second.empty()) {
      v.status = "failed";
      auto list = it->second;
      std::stable_sort(list.begin(), list.end(), [&](const auto& a, const auto& b) {
        return c.weight(inputs[a.input]) < c.weight(inputs[b.input]);
      });
      const bool via_san = san && !list.front().plain;
      auto [small, text] = shrink(id, inputs[list.front().input], list.front().text, via_san);
      v.counterexamples.push_back(c.describe(small) + ": " + text);
      for (size_t k = 1; k < list.size() && v.counterexamples.size() < 3; ++k)
        v.counterexamples.push_back(c.describe(inputs[list[k].input]) + ": " + list[k].text);
      v.coverage =
          std::to_string(list.size()) + " of " + std::to_string(inputs.size()) + " inputs fail";
      if (c.reproducible)
        for (const auto& x : list)
          if (v.failing_inputs.size() < kMaxFailingInputs && c.reproducible(inputs[x.input]))
            v.failing_inputs.emplace_back(c.line(inputs[x.input]),
                                          c.describe(inputs[x.input]) + ": " + x.text);
      v.replay =
          "printf '0 " + c.line(small) + "\\n' | " + (via_san ? "harness_san trace" : "harness");
      if (const auto n = c.failure_notes.find(id); n != c.failure_notes.end()) v.note = n->second;
      if (c.fails_like)
        if (auto like = c.fails_like(id, small, text)) {
          v.subjects_compared = true;
          v.fails_like = std::move(*like);
        }
    } else {
      std::vector<std::string> errors = plain.errors;
      if (id == c.sanitizer_clause)
        errors.insert(errors.end(), sanb.errors.begin(), sanb.errors.end());
      detail::fill_clause(v, errors, judged_plain, judged_san, san, id == c.sanitizer_clause);
    }
    part.clauses.push_back(v);
  }
}

// The part of a component's check before its inputs: extract (or the
// candidate adapter), make the temp dir, build the harness. Returns false
// (with the verdicts filled in) when there is nothing to run.
// With `fuzz`, also the libFuzzer build (not for a candidate library).
bool prepare_part(const Options& opt, const Component& component, const Target& target,
                  const std::string& env_header, const std::string& harness_file,
                  const std::string& have_define, const std::string& candidate_define, Part& part,
                  HarnessBuild& hb, int& line, bool fuzz = false,
                  const std::vector<std::string>& libs = {});

// --- the fuzz campaign (harness_firmware.c's LLVMFuzzerTestOneInput) ----------

// libFuzzer's bytes as the firmware script the fuzz entry makes of them:
// the statuses, and the rest (the payload; for a records-only entry, the
// records' bytes).
struct FuzzScript {
  std::vector<int> statuses;
  std::vector<uint8_t> body;
};
FuzzScript fuzz_script(const std::vector<uint8_t>& data);
// The bytes for a script (a seed); empty when a status is not one the
// entry's tables hold.
std::vector<uint8_t> fuzz_bytes(const std::vector<int>& statuses, const std::vector<uint8_t>& body);

struct FuzzCorpus {
  std::vector<std::vector<uint8_t>> inputs;  // the corpus, then the artifacts
  std::vector<bool> artifact;                // crash/timeout/oom artifact (else corpus)
  std::string summary;                       // for the report's notes
};
// Runs hb.fuzz for fuzz_seconds(opt) from `seeds` (fork mode: crashes,
// timeouts and OOMs are kept as artifacts and the campaign goes on) and
// returns what it kept, at most `max_inputs` (smallest first); within what
// is left of the budget of the part that began at `part_start`.
FuzzCorpus run_fuzz_campaign(const Options& opt, const HarnessBuild& hb, const std::string& dir,
                             const std::vector<std::vector<uint8_t>>& seeds, size_t max_inputs,
                             std::chrono::steady_clock::time_point part_start);

// Removes the temp dir (unless kept) and stamps the time.
void finish_part(const Options& opt, Part& part, std::chrono::steady_clock::time_point t0);

}  // namespace idlespec::validate
