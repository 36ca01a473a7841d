// The governor component of `idlespec validate`: a file's menu_select() and
// menu_update() (with the helpers they call) against spec/governor.md.
//
// The harness (harness/harness_governor.c) drives one CPU through a state
// table and a sequence of idle periods: per step it sets the PM QoS limit,
// the tick layer's answers and the tick state, calls menu_select(), reports
// the index, stop_tick and whether it asked the tick layer for the time to
// the next timer, and the learned state of the per-CPU struct menu_device
// (correction factors, the interval ring, next_timer, bucket), then plays
// the idle period (menu_reflect(), or a rejected entry). The driver judges
// each selection (the status is held or failed; spec_judgement.cc's post-pass
// applies the spec's acceptances):
//
//   GOV-1, GOV-2, GOV-4, GOV-7  oracle/governor.h's judge_selection() on
//            (table, inputs, index, stop_tick): these need nothing the code
//            keeps to itself. A crash, a hang or an ASan report fails GOV-7.
//   GOV-3    judged on every selection as verify judges it, with the path
//            and the prediction that made the choice. The file does not
//            expose them; they are found from its own state after the
//            selection (its ring and correction factor, the next_timer it
//            recorded, whether it asked the tick layer): the matched
//            subject's walk of the subject's own prediction from that state;
//            else a subject's walk (the matched one first: a file may walk as
//            one subject and learn as another) of another known predictor's
//            prediction (two-pass v6.14, two-pass before the empty-ring check
//            v5.x..v6.1, both-ends v6.15, 85975daeaa4d's keeping the
//            maximum); else of any prediction exact arithmetic allows (the
//            walk is constant between the table's residencies, latencies and
//            the tick, so one walk per such value finds every range); else of
//            any prediction at all. A choice that no subject's walk gives is
//            judged by the clause's words:
//            not the fall-back, not a GOV-1 exception, not a choice the
//            polling rule or the tick-stopped promotion could make, and a
//            target residency above the largest prediction a known
//            predictor makes: failed.
//   GOV-5    wraps and divisions by zero: UBSan's reports (overflow,
//            division by zero) and SIGFPE; menu_update() by oracle/governor.h's
//            judge_update(), which recomputes each step the spec names (the
//            exit latency deduction, the factor update, the division by the
//            time to the next timer, the learned interval) exactly from the
//            file's own inputs and previous state, compares the file's factor
//            and stored interval, and names the step that wrapped: a learned
//            duration, shown by both, beyond what any deduction from the
//            residency gives (the deduction); the ratio formed in 32 bits
//            (the division); a factor outside 1..8192 (the factor update);
//            the predictor's sums by judge_typical() on what the file's own
//            get_typical_interval() answers, read back on the ring the
//            selection predicted from (an answer outside the ring's samples,
//            or one a predictor gives only with an accumulator in 32 bits);
//            in the predictor (governor_gov5.cc), a wrap the arithmetic
//            shows: the file's prediction recomputed from its own inputs (the
//            time to the next timer and factor it recorded, its own
//            get_typical_interval() answer, the known predictors') with one
//            word wrapped where the exact value does not fit it, whose walk
//            gives the choice that exact arithmetic does not, when every
//            divergence of the input is some prediction's walk. A choice no
//            prediction explains is never blamed on a wrap by elimination:
//            it is a walk of its own (a note naming the nearest subject and
//            where it differs; GOV-3 by the clause's words). A prediction or
//            a learning that merely differs from the subject's is the
//            differential's report (notes), not GOV-5.
//   GOV-6    searched: families of inputs that differ only in the last
//            step's latency limit (the same learned state), and selections
//            with the same walk inputs whose predictions are known (GOV-3
//            above) compared by prediction; a larger limit or a longer
//            prediction giving a shallower state is a counterexample
//            (failed; the spec accepts GOV-6 for every subject).
//   GOV-8    every interval menu_update() stores (judge_update() too): the
//            slot it wrote must hold the learned duration in us (recomputed
//            exactly from the file's previous state; when the file's factor
//            shows another learned duration, within the range that factor
//            implies), a rejected entry at most marks UINT_MAX. The
//            poll-timeout after a selection that did not consult the timer
//            (the truncation the spec accepts for every subject) is set
//            apart: without another GOV-8 finding it is failed with the
//            subjects whose own update stores the same value from the
//            file's state, which the post-pass turns into `accepted`. A
//            GOV-8 finding on an update where GOV-5 wrapped follows from
//            it, and the verdict says so (follows_from).
//
// The selection clauses judged on the choice alone (GOV-1, -2, -4, -7, -9)
// compare the subjects with the file on every failing input (failing_like):
// the acceptance spec_judgement.cc applies is named only when the subjects make
// the file's violating choice on every failing input they reach.
//
// Differential: every step is also run through the six subjects of
// impl/governor.h from the file's own learned state (so one divergence does
// not cascade); the note names the subject whose choices and learned state
// equal the file's on every selection, or the closest and the first
// divergence; a second note counts the selections explained by another
// prediction than the subject's.
//
// A governor in microseconds (struct menu_device keeps next_timer_us: v5.6
// and before) gets its inputs in its own units: whole microseconds, HZ whose
// tick is a whole number of them, no negative or over-long sleep length, so
// that the numbers the file compares are the judge's divided by 1000 (a
// 1 ns limit would reach it as 0 us and take the "no latency allowed"
// return); it is then judged like the others.
//
// Each failed clause's first counterexample is shrunk (every shorter prefix,
// each step left out, fewer states, plainer steps; the smallest candidate
// that still fails wins a round) by re-running the harness on candidates.
//
// This file is the driver (extract, build, run, judge, verdicts); the jobs
// it calls each have a file: the inputs (governor_inputs.cc), the harness
// line and its answers (governor_harness_run.cc, with what TEO shares in
// cpuidle_run.cc), the words of findings (governor_describe.cc), the text's
// era (governor_era.cc), the subjects replayed from the file's state
// (governor_replay.cc), the judge and GOV-6's search (governor_judge.cc,
// GOV-5 through the walk in governor_gov5.cc), shrinking
// (governor_shrink.cc) and the notes (governor_notes.cc); governor_run.h
// holds what they share.

#include <algorithm>
#include <optional>
#include <thread>

#include "oracle/governor.h"
#include "sandbox/sandbox.h"
#include "validate/governor_run.h"
#include "validate/input_check.h"

namespace idlespec::validate {

using namespace menu;  // this file is the governor check's driver
using Clock = std::chrono::steady_clock;

constexpr size_t kMaxCounterexamples = 3;

Part check_governor(const Options& opt, const Target& target) {
  const auto t0 = Clock::now();
  const Component& component = *find_component("governor");
  Extraction ex = governor_extraction(target);
  Part part = start_part(component, target, ex);
  // get_typical_interval() is asked for by name (the harness reads it back)
  // rather than found as menu_select()'s helper: listed with the helpers.
  for (const auto& f : ex.functions)
    if (f.name == "get_typical_interval" && f.found)
      part.prelude.push_back("function get_typical_interval (line " + std::to_string(f.first_line) +
                             ")");
  auto found = [&](const std::string& name) { return found_function(ex, name); };
  if (!found("menu_select")) {
    fill_verdicts(component, target, part, "absent", "");
    if (found("menu_update"))
      for (auto& v : part.clauses)
        if (v.status != "absent") v.status = "unknown", v.note = "menu_select() is not in the file";
    return part;
  }
  const std::vector<std::string> defs = governor_defines(ex);
  HarnessBuild hb;
  if (!build_part_harness(opt, component, target, part, "governor_env.h", ex.code,
                          "harness_governor.c", defs, hb, t0))
    return part;
  auto finish = [&] {
    finish_part(opt, part, t0);
    return part;
  };
  if (opt.sanitizers && hb.san.empty())
    part.notes.push_back("the ASan+UBSan build failed, sanitizer reports not observed: " +
                         hb.san_note);
  if (!found("menu_reflect"))
    part.notes.push_back(
        "menu_reflect() is not in the file: the harness records the idle period as it does "
        "(last_state_idx, needs_update, tick_wakeup)");
  const MenuEra era = read_era(ex, defs);
  for (auto& note : era_notes(era)) part.notes.push_back(std::move(note));
  std::vector<Input> inputs = make_inputs(opt.seed);
  era_inputs(era, inputs);
  const bool san = !hb.san.empty();
  Batch plain, sanb;
  {
    std::thread other;
    SandboxLog& log = SandboxLog::current();  // the san runs are this part's too
    // --budget is the part's: the runs get what the build left of it, no more.
    const double left = budget_left(opt, t0);
    if (san)
      other = std::thread([&] {
        SandboxLog::Scope scope(log);
        sanb = run_inputs(hb.san, true, inputs, part.temp_dir, "san", left);
      });
    plain = run_inputs(hb.plain, false, inputs, part.temp_dir, "plain", left);
    if (other.joinable()) other.join();
  }
  part.runs = plain.runs;
  part.runs.insert(part.runs.end(), sanb.runs.begin(), sanb.runs.end());

  // The differential, then the judge with the subject matched.
  Diff diff;
  for (size_t i = 0; i < inputs.size(); ++i) differ(inputs[i], plain.outcomes[i], diff);
  const size_t subject = best_subject(diff);
  const auto subjects = gf::all_subjects();
  const std::string sname(subjects[subject].name);
  part.notes.push_back(differential_note(diff, subject));

  ClauseFindings findings;
  Tally t;
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (const Batch* b : {&sanb, &plain}) {
      if (b->outcomes.empty() || !b->outcomes[i].reported) continue;
      Judged jd = judge(inputs[i], b->outcomes[i], subject, era.ring_holds_residency);
      for (const auto& [clause, text] : jd.f) {
        auto& v = findings[clause];
        if (std::none_of(v.begin(), v.end(), [&](const auto& x) { return x.first == i; }))
          v.push_back({i, text});
      }
      if (b == &plain) tally(t, jd, i);
    }
  }

  // A prediction is blamed only when the file's walk is the subject's
  // everywhere: every divergence of every input is explained by one.
  if (t.walk_differs == 0)
    for (const auto& w : t.walk_findings) findings["GOV-5"].push_back(w);
  for (auto& note : judged_notes(t, sname)) part.notes.push_back(std::move(note));

  const Gov6 g6 = search_gov6(inputs, plain, t.known);
  const std::vector<std::string>& gov6 = g6.found;
  const size_t limit_pairs = g6.limit_pairs, prediction_pairs = g6.prediction_pairs;
  const ShrinkRun shrink_run{era, hb.plain, hb.san, plain, sanb, part.temp_dir, opt, t0, subject};

  const std::string coverage_all =
      std::to_string(t.selections) + " selections of " + std::to_string(inputs.size()) + " inputs";
  for (const auto& [id, fn] : component.clauses) {
    ClauseVerdict v = clause_verdict(component, target, part.functions, id, fn);
    if (v.line == 0)
      for (const auto& f : part.functions)
        if (f.name == "menu_select") v.line = f.first_line;
    const auto it = findings.find(id);
    if (id == "GOV-6") {
      v.coverage = std::to_string(limit_pairs) + " pairs differing only in the limit, " +
                   std::to_string(prediction_pairs) +
                   " pairs differing only in the walk's input prediction";
      if (!gov6.empty()) {
        v.status = "failed";
        v.counterexamples = gov6;
        v.note =
            "the counterexamples go through the tick logic as spec/governor.md describes "
            "(the spec accepts GOV-6 for every subject)";
      } else if (!plain.errors.empty()) {
        v.status = "error";
        for (const auto& e : plain.errors) v.error += (v.error.empty() ? "" : "; ") + e;
      } else if (limit_pairs + prediction_pairs == 0) {
        v.status = "unknown";
        v.note = "no pair of selections could be compared";
      } else {
        v.status = "held";
      }
    } else if (it != findings.end() && !it->second.empty()) {
      v.status = "failed";
      auto list = it->second;
      // The smallest input first; GOV-6's families (built for pairs) last.
      auto weight = [&](size_t i) {
        return inputs[i].steps.size() * inputs[i].table.size() +
               (inputs[i].family >= 0 ? 100000 : 0);
      };
      std::stable_sort(list.begin(), list.end(), [&](const auto& a, const auto& b) {
        return weight(a.first) < weight(b.first);
      });
      // A clause judged on the choice alone: the subjects are compared with
      // the file on every failing input, each input being shared (some
      // subject makes the file's violating choice there), not comparable
      // (every subject returns state 0 before its walk where the file
      // fails: text without that early return, v4.17 to v4.19, walks on)
      // or unshared. The file fails as the subjects do only if no failing
      // input is unshared and one is shared; then the counterexample is the
      // smallest shared input, shrunk so that it stays shared (a smaller
      // table can put it where the subjects return early). Otherwise it is
      // the smallest unshared input (the smallest of all when every one is
      // not comparable), shrunk so that it stays unshared, and the file
      // fails another way than the subjects.
      const bool compared = gov::oracle::judged_on_choice(id);
      size_t start = 0, shared_n = 0, early = 0, unshared_n = 0;
      std::optional<size_t> first_shared, first_unshared;
      std::vector<std::string> shared;
      if (compared)
        for (size_t k = 0; k < list.size(); ++k) {
          const size_t i = list[k].first;
          const bool via_san =
              san && !sanb.outcomes.empty() && list[k].second.find("San ") != std::string::npos;
          const Outcome& o = via_san ? sanb.outcomes[i] : plain.outcomes[i];
          std::vector<std::string> like = failing_like(inputs[i], o, id);
          if (!like.empty()) {
            ++shared_n;
            if (!first_shared) first_shared = k, shared = std::move(like);
          } else if (subjects_return_early(inputs[i], o, id)) {
            ++early;
          } else {
            ++unshared_n;
            if (!first_unshared) first_unshared = k;
          }
        }
      const bool as_subjects = compared && unshared_n == 0 && shared_n > 0;
      const std::vector<std::string> none;
      const std::vector<std::string>* keep = nullptr;
      if (as_subjects)
        start = *first_shared, keep = &shared;
      else if (compared)
        start = first_unshared.value_or(0), keep = &none;
      auto [small, small_out, text] =
          shrink(shrink_run, inputs, id, list[start].first, list[start].second, keep);
      v.counterexamples.push_back(text);
      if (compared) {
        v.subjects_compared = true;
        v.fails_like = as_subjects ? failing_like(small, small_out, id) : none;
        const std::string n = " of the " + std::to_string(list.size()) + " failing inputs";
        if (early > 0)
          v.note = "on " + std::to_string(early) + n +
                   " every subject returns state 0 before its walk (state 1's exit latency "
                   "is above the limit), which the file does not: its walk goes on to the "
                   "state it breaks " +
                   id + " with; the subjects are not compared with the file there";
        if (!as_subjects && shared_n > 0)
          v.note += (v.note.empty() ? "" : "; ") + std::string("on ") + std::to_string(shared_n) +
                    n + " some subject makes the file's choice too, on " +
                    std::to_string(unshared_n) + " (this counterexample among them) none does";
      }
      if (kDisabledState0Era.count(id) && disabled_state0_era(era, findings, list, small, text))
        v.era = "v4.4-v4.12";
      if (id == "GOV-8") {
        // The judge records the violation the spec accepts for every subject
        // (the KTIME_MAX truncation after a poll timeout) apart, as observed,
        // and never as a finding: a GOV-8 finding is one no subject shares.
        v.subjects_compared = true;
      }
      for (size_t k = 0; k < list.size() && v.counterexamples.size() < kMaxCounterexamples; ++k)
        if (k != start) v.counterexamples.push_back(list[k].second);
      v.coverage =
          std::to_string(list.size()) + " of " + std::to_string(inputs.size()) + " inputs fail";
      // The inputs are the seed's alike on every run (review compares them).
      for (const auto& [i, t] : list)
        if (v.failing_inputs.size() < kMaxFailingInputs)
          v.failing_inputs.emplace_back(input_line(0, inputs[i]), t);
      const std::string line = input_line(0, small);
      v.replay = "printf '" + line.substr(0, line.size() - 1) + "\\n' | " +
                 (san && text.find("San ") != std::string::npos ? "harness_san trace" : "harness");
      // GOV-8 on updates whose arithmetic wrapped: the ring stores the
      // wrapped duration; GOV-5 is the failure to read first.
      if (id == "GOV-8" && findings.count("GOV-5")) {
        const size_t follow =
            static_cast<size_t>(std::count_if(list.begin(), list.end(), [](const auto& x) {
              return x.second.find(kFollowsGov5) != std::string::npos;
            }));
        if (follow == list.size() && text.find(kFollowsGov5) != std::string::npos) {
          v.follows_from = "GOV-5";
          v.note =
              "follows from GOV-5: on every failing input menu_update()'s arithmetic wrapped "
              "on the same update (GOV-5's counterexamples name the step), and the ring "
              "stores the wrapped duration";
        } else if (follow > 0) {
          v.note = std::to_string(follow) + " of the " + std::to_string(list.size()) +
                   " failing inputs follow from GOV-5 (the update wrapped); the others do not";
        }
      }
      if (id == "GOV-5" && text.find("the prediction wrapped: ") != std::string::npos)
        v.note =
            "the prediction is recomputed from the file's own inputs (its time to the next "
            "timer, correction factor and typical interval): with the word named wrapped it "
            "gives the file's choice, exactly it does not, and every divergence of the "
            "input is some prediction's walk";
    } else if (id == "GOV-8" && !t.gov8_accepted.empty() && plain.errors.empty()) {
      // No GOV-8 finding, but the violation spec/governor.md accepts for
      // every subject (the truncated KTIME_MAX after a polling time-out
      // that had no timer to guess from) observed: failed here, with the
      // subjects whose own menu_update() stores the same value from the
      // file's state, so that spec_judgement.cc's post-pass reports it as the
      // acceptance (`accepted` for the subject judged against, with the
      // spec's words and what upstream did about it) and not as `held`.
      v.status = "failed";
      v.counterexamples.push_back(t.gov8_accepted);
      v.subjects_compared = true;
      v.fails_like = storing_like(inputs[t.gov8_input], plain.outcomes[t.gov8_input],
                                  static_cast<size_t>(t.gov8_step));
      v.coverage = coverage_all + (san ? " (plain and ASan+UBSan)" : " (plain)") + "; " +
                   std::to_string(t.gov8_stored) + " stored intervals in range";
      const std::string line = input_line(0, inputs[t.gov8_input]);
      v.replay = "printf '" + line.substr(0, line.size() - 1) + "\\n' | harness";
      v.note =
          "observed the truncation spec/governor.md accepts for every subject (a polling state "
          "timing out after a selection that did not consult the timer); every other stored "
          "interval in range";
    } else if (!plain.errors.empty()) {
      v.status = "error";
      for (const auto& e : plain.errors) v.error += (v.error.empty() ? "" : "; ") + e;
    } else if (id == "GOV-3" && t.g3_unjudged > 0) {
      v.status = "unknown";
      v.note = std::to_string(t.g3_unjudged) + " of " + std::to_string(t.selections) +
               " selections not judged (the file's struct menu_device is not the model's: units "
               "or buckets, or the index is outside the table)";
    } else {
      v.status = "held";
      v.coverage = coverage_all + (san ? " (plain and ASan+UBSan)" : " (plain)");
      if (id == "GOV-3")
        v.coverage += "; the path and prediction of each: " + std::to_string(t.g3_exact) + " " +
                      sname + "'s walk of its own prediction, " + std::to_string(t.g3_family) +
                      " of another known predictor's, " + std::to_string(t.g3_other) +
                      " of another prediction, " + std::to_string(t.g3_wrapped) +
                      " of a prediction exact arithmetic does not give, " +
                      std::to_string(t.g3_wording) + " judged by the clause's words (no walk of " +
                      sname + " gives the choice)";
      if (id == "GOV-5") {
        v.coverage += "; menu_update() recomputed exactly on " + std::to_string(t.gov5_update);
        if (found("get_typical_interval"))
          v.coverage += ", get_typical_interval() read back on " + std::to_string(t.gov5_typical);
        if (t.walk_differs == 0) {
          v.coverage += ", the prediction judged through " + sname + "'s walk on " +
                        std::to_string(t.gov5_predict);
        } else {
          v.note = "the prediction is not judged: in " + std::to_string(t.walk_differs) +
                   " inputs the file's choice is no prediction's walk by subject " + sname +
                   " (its walk differs; see the other clauses and the differential note)";
        }
      }
      if (id == "GOV-8")
        v.coverage += "; " + std::to_string(t.gov8_stored) + " stored intervals in range";
    }
    part.clauses.push_back(v);
  }
  return finish();
}

}  // namespace idlespec::validate
