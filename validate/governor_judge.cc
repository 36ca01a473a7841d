// The governor's judge: each selection and update of one input against
// GOV-1..GOV-9 (how the clauses are judged: validate/governor_check.cc's
// opening), and GOV-6's search across inputs.
#include <algorithm>

#include "oracle/governor.h"
#include "oracle/violation.h"
#include "validate/governor_gov5.h"
#include "validate/governor_run.h"

namespace idlespec::validate::menu {

static std::string ring_text(const std::array<uint32_t, gov::kIntervals>& iv) {
  std::string t = "[";
  for (size_t i = 0; i < iv.size(); ++i) t += (i ? " " : "") + std::to_string(iv[i]);
  return t + "] us";
}

static bool in_ring_range(const Dev& d) {
  for (uint32_t v : d.iv)
    if (!(v == gov::kUintMax || v < kRangeNs / 1000)) return false;
  for (uint32_t v : d.f)
    if (v < 1 || v > gov::kUnityFactor) return false;
  return true;
}

static std::string key_of(const Input& input, const gov::Prediction<Concrete>& p, const Step& x) {
  return std::to_string(input.hz) + " " + table_text(input.table) + " " +
         std::to_string(x.latency_req) + " " + std::to_string(p.next_timer_ns.v) + " " +
         std::to_string(p.delta_tick_ns.v) + " " + (x.stopped ? "1" : "0");
}

// `ring_holds_residency`: the text's ring is of the era before v3.16 (GOV-8's
// meaning then, oracle/governor.h's UpdateIn).
Judged judge(const Input& input, const Outcome& o, size_t subject, bool ring_holds_residency) {
  Judged r;
  if (!o.reported) return r;
  auto add = [&](const std::string& clause, const std::string& text) { r.f.emplace(clause, text); };
  for (const auto& s : o.sanitizer)
    add(s.find("division by zero") != std::string::npos || s.find("overflow") != std::string::npos
            ? "GOV-5"
            : "GOV-7",
        describe(input) + ": " + s);
  if (o.crashed || o.hung)
    add(o.hung                                        ? input.clause
        : o.crash.find("SIGFPE") != std::string::npos ? "GOV-5"  // an integer division by zero
                                                      : "GOV-7",
        describe(input, o.crash_step) + ": menu_select() " +
            (o.hung ? "did not return within 2 s (hang)" : "crashed: " + o.crash) +
            (o.crash_step >= 0 ? " at step " + std::to_string(o.crash_step) : ""));
  for (const auto& w : o.warns) add(input.clause, describe(input) + ": " + w);

  const gf::Subject& subj = gf::all_subjects()[subject];
  const std::vector<CState> states = gov::to_states(input.table);
  const size_t n = states.size();
  const bool ordered = gov::oracle::table_is_ordered(states);
  const size_t first = gov::oracle::first_enabled(states);
  const uint64_t tick = gov::tick_nsec(input.hz);
  bool states_in_range = true;
  for (const auto& e : input.table)
    states_in_range =
        states_in_range && e.exit_latency_ns < kRangeNs && e.target_residency_ns < kRangeNs;
  // GOV-5 through the walk: (step, text) of divergences only a prediction
  // outside exact arithmetic's range explains.
  std::vector<std::pair<size_t, std::string>> wrapped;

  for (size_t k = 0; k < o.sels.size(); ++k) {
    const Sel& s = o.sels[k];
    if (!s.ok) break;
    if (s.idx < 0 && input.may_decline) {
      ++r.declined;
      break;
    }
    ++r.selections;
    const Step& x = input.steps[k];
    Ctx c = context(input, o, k);
    const std::string at = (input.family >= 0 && k + 1 == input.steps.size()
                                ? describe_member(input)
                                : describe(input, static_cast<long long>(k))) +
                           ": at step " + std::to_string(k) + " the file chose " +
                           choice_text(s.idx, s.stop);
    // GOV-1, GOV-2, GOV-4, GOV-7: the clause judge on the choice alone.
    const gov::Choice<Concrete> ch = file_choice(s);  // GOV-3 is judged below
    for (const oracle::Violation& v : gov::oracle::judge_selection(states, c.in, ch)) {
      if (v.clause == "GOV-3") continue;
      std::string why = v.message;
      const size_t p = why.find(" (path ");
      if (p != std::string::npos) why.erase(p);
      add(v.clause, at + ": " + why);
    }
    const Dev& pre = k == 0 ? o.init : o.sels[k - 1].after;
    const Step* prev = k == 0 ? nullptr : &input.steps[k - 1];
    const long long last = k == 0 ? 0 : o.sels[k - 1].idx;
    if (s.idx < 0 || static_cast<size_t>(s.idx) >= n || !s.after.ok || !c.history_ok) {
      ++r.gov3_unjudged;
      if (s.idx < 0 || static_cast<size_t>(s.idx) >= n) r.walk_differs = true;
      continue;
    }
    const bool in_range = states_in_range && pre.ok && in_ring_range(pre) &&
                          (pre.next_timer_ns() < kRangeNs || pre.next_timer_ns() == kS64Max) &&
                          x.latency_req <= kNoLimitNs &&
                          (x.sleep < kRangeNs || x.sleep > kS64Max) &&
                          (x.dtick < kRangeNs || x.dtick > kS64Max) &&
                          (prev == nullptr || prev->residency < kRangeNs) && last >= 0 &&
                          static_cast<size_t>(last) < n;
    // GOV-5 and GOV-8 on menu_update(), from the file's own previous state.
    const bool reflected = prev != nullptr && prev->entered;
    if (in_range && reflected && pre.bucket < gov::kBuckets && pre.ptr >= 0 &&
        pre.ptr < static_cast<long long>(gov::kIntervals)) {
      ++r.gov5_update;
      const auto& t = input.table[static_cast<size_t>(last)];
      gov::oracle::UpdateIn ui;
      ui.unit = pre.us ? 1000 : 1;
      ui.exit_latency = t.exit_latency_ns / ui.unit;
      ui.residency = prev->residency / ui.unit;
      ui.next_timer = pre.next_timer;
      ui.tick = pre.us ? (1000000 + input.hz / 2) / input.hz : tick;
      ui.tick_wakeup = prev->got_tick;
      ui.polling = t.polling;
      ui.poll_time_limit = prev->poll_limit;
      ui.factor = pre.f[pre.bucket];
      ui.ring_holds_residency = ring_holds_residency;
      ui.ns_era = !pre.us && !ring_holds_residency;  // the text's marker: next_timer_ns
      const size_t slot = static_cast<size_t>(pre.ptr);
      const gov::oracle::UpdateJudgement uj =
          gov::oracle::judge_update(ui, {s.after.f[pre.bucket], s.after.iv[slot]});
      const std::string learn =
          " (last state " + std::to_string(last) + ", idle " + ns_text(prev->residency) +
          (uj.exact.tick_guess ? ", the tick woke it" : "") +
          (uj.exact.poll_timeout ? ", poll_time_limit" : "") + ", next_timer " +
          std::to_string(pre.next_timer) + (pre.us ? " us" : " ns") + ", factor " +
          std::to_string(pre.f[pre.bucket]) + " of bucket " + std::to_string(pre.bucket) + ")";
      if (!uj.gov5.empty()) add("GOV-5", at + ": " + uj.gov5 + learn);
      if (!uj.differs.empty() && r.update_differs.empty())
        r.update_differs = at + ": " + uj.differs + learn;
      ++r.gov8_stored;
      if (uj.gov8_accepted && r.gov8_accepted.empty())
        r.gov8_accepted_step = static_cast<long long>(k),
        r.gov8_accepted = at + ": menu_update() stored " + std::to_string(s.after.iv[slot]) +
                          " us for a learned " +
                          std::to_string(static_cast<uint64_t>(uj.exact.interval_us)) + " us" +
                          learn;
      if (!uj.gov8.empty())
        add("GOV-8",
            at + ": " + (uj.gov8_follows ? kFollowsGov5 : std::string()) + uj.gov8 + learn);
    } else if (!reflected && pre.ok && s.after.ok && pre.ptr >= 0 &&
               pre.ptr < static_cast<long long>(gov::kIntervals)) {
      // No period to learn (a rejected entry, or boot): the ring keeps its
      // entries or marks the slot UINT_MAX.
      for (size_t i = 0; i < gov::kIntervals; ++i)
        if (s.after.iv[i] != pre.iv[i] && s.after.iv[i] != gov::kUintMax)
          add("GOV-8", at + ": menu_update() stored " + std::to_string(s.after.iv[i]) +
                           " us in slot " + std::to_string(i) +
                           " for a rejected entry (UINT_MAX marks one)");
    }

    // GOV-5 on the predictor's sums: the file's get_typical_interval() read
    // back on the ring the selection predicted from.
    if (s.typical >= 0 && s.typical <= gov::kUintMax && in_ring_range(s.after)) {
      ++r.gov5_typical;
      const gov::oracle::TypicalJudgement tj =
          gov::oracle::judge_typical(s.after.iv, static_cast<uint32_t>(s.typical));
      if (!tj.gov5.empty())
        add("GOV-5", at + ": " + tj.gov5 + " (ring " + ring_text(s.after.iv) + ")");
    }

    // GOV-3 (and GOV-5 through the walk): which prediction and path explain
    // the choice.
    WalkBase w = walk_base(input, s, x, subj);
    auto walk_of = [&](uint64_t predicted) {
      gov::Prediction<Concrete> p = w.p;
      p.predicted_ns = Concrete::lit<64>(predicted);
      return subj.walk(states, p, c.in);
    };
    auto same = [&](const gov::Choice<Concrete>& a) {
      return static_cast<long long>(a.idx.v) == s.idx && a.stop_tick == s.stop;
    };
    auto judge3 = [&](const gov::Choice<Concrete>& walk, const std::string& how) {
      for (const oracle::Violation& v : gov::oracle::judge_selection(states, c.in, walk))
        if (v.clause == "GOV-3") add("GOV-3", at + ": " + v.message + "; " + how);
    };
    // The subjects in the order tried: the matched one, then the others (a
    // file may walk as one subject and learn as another).
    std::vector<const gf::Subject*> order = {&subj};
    for (const auto& other : gf::all_subjects())
      if (other.name != subj.name) order.push_back(&other);
    auto walk_by = [&](const gf::Subject* by, uint64_t predicted) {
      gov::Prediction<Concrete> p = w.p;
      p.predicted_ns = Concrete::lit<64>(predicted);
      return by->walk(states, p, c.in);
    };
    const auto exact = walk_of(w.subject_ns);
    bool done = false;
    if (same(exact)) {
      ++r.gov3_exact;
      judge3(exact, std::string(subj.name) + "'s walk of its own prediction");
      if (ordered) r.known.push_back({key_of(input, w.p, x), w.subject_ns, s.idx, at});
      done = true;
    }
    // Another known predictor's prediction, walked by some subject.
    for (const gf::Subject* by : order) {
      for (size_t q = 0; q < w.family.size() && !done; ++q) {
        const auto& [name, v] = w.family[q];
        const auto fw = walk_by(by, v);
        if (!same(fw)) continue;
        ++r.gov3_family;
        if (r.family_first.empty() && (by != &subj || v != w.subject_ns))
          r.family_first = v == w.subject_ns
                               // The same prediction, another subject's walk: the file
                               // walks otherwise than the matched subject here.
                               ? at + ": " + std::string(by->name) +
                                     "'s walk of the same prediction " + ns_text(v) + " (" +
                                     std::string(subj.name) + "'s walk of it gives another choice)"
                               : at + ": " + std::string(by->name) + "'s walk of the " + name +
                                     " predictor's prediction " + ns_text(v) + ", where " +
                                     std::string(subj.name) + "'s predictor gives " +
                                     ns_text(w.subject_ns);
        judge3(fw, std::string(by->name) + "'s walk of the " + name + " predictor's prediction");
        if (ordered) r.known.push_back({key_of(input, w.p, x), v, s.idx, at});
        done = true;
      }
      if (done) break;
    }
    // Any prediction exact arithmetic allows, walked by some subject; the
    // ranges of the matched subject's walk kept for what follows.
    const gf::Subject* explainer = nullptr;
    std::vector<Range> theirs;
    for (const gf::Subject* by : order) {
      if (done) break;
      const std::vector<Range> why = explaining(*by, states, input, w.p, c.in, s.idx, s.stop);
      if (!why.empty() && !explainer) explainer = by, theirs = why;
      for (const auto& g : why) {
        if (g.lo > w.high || g.hi < w.low) continue;
        ++r.gov3_other;
        const uint64_t v = std::clamp(w.subject_ns, std::max(g.lo, w.low), std::min(g.hi, w.high));
        if (r.other_first.empty())
          r.other_first = at + ": " + std::string(by->name) + "'s walk of a prediction of " +
                          ns_text(v) + " (any in " + range_text(g.lo, g.hi) + "), where " +
                          std::string(subj.name) + "'s predictor gives " + ns_text(w.subject_ns);
        judge3(walk_by(by, v), std::string(by->name) + "'s walk of a prediction of " + ns_text(v));
        done = true;
        break;
      }
    }
    gov5::PredictionInputs pi;
    pi.next_timer_ns = w.p.next_timer_ns.v;
    pi.factor = s.after.f[std::min<uint32_t>(s.after.bucket, gov::kBuckets - 1)];
    pi.timer = w.timer;
    if (s.typical >= 0 && s.typical <= gov::kUintMax)
      pi.typicals.push_back({"file's own", static_cast<uint32_t>(s.typical)});
    pi.typicals.insert(pi.typicals.end(), w.typicals.begin(), w.typicals.end());
    // The file's own prediction computed exactly from its inputs (its
    // get_typical_interval() read back, the timer estimate without a wrap),
    // walked by some subject: a predictor no subject has (85975daeaa4d's
    // maximum on a 6.13 text) explains the choice, and nothing wrapped.
    for (const gf::Subject* by : order) {
      if (done) break;
      for (const auto& [name, v] : gov5::exact_predictions(pi)) {
        const auto ew = walk_by(by, v);
        if (!same(ew)) continue;
        ++r.gov3_family;
        if (r.family_first.empty())
          r.family_first = at + ": " + std::string(by->name) + "'s walk of the " + name +
                           " typical interval's prediction " + ns_text(v) +
                           " (computed exactly), where " + std::string(subj.name) +
                           "'s predictor gives " + ns_text(w.subject_ns);
        judge3(ew, std::string(by->name) + "'s walk of the " + name +
                       " typical interval's prediction (computed exactly)");
        done = true;
        break;
      }
    }
    if (!done && in_range && in_ring_range(s.after)) {
      // GOV-5 through the walk: the file's own prediction recomputed from
      // its inputs with one word wrapped (governor_gov5.cc), walked by some
      // subject, gives the choice that exact arithmetic does not.
      for (const gov5::WrappedPrediction& wp : gov5::wrapped_predictions(pi)) {
        for (const gf::Subject* by : order) {
          const auto ww = walk_by(by, wp.predicted_ns);
          if (!same(ww)) continue;
          ++r.gov3_wrapped;
          judge3(ww, std::string(by->name) + "'s walk of the wrapped prediction " +
                         ns_text(wp.predicted_ns));
          wrapped.push_back(
              {k, at + ": " +
                      gov5::wrap_text(wp, std::string(by->name),
                                      choice_text(walk_by(by, wp.exact_ns).idx.v,
                                                  walk_by(by, wp.exact_ns).stop_tick))});
          done = true;
          break;
        }
        if (done) break;
      }
    }
    const bool judged5 = in_range && in_ring_range(s.after);
    if (!done && !judged5 && explainer) {
      // Beyond the ranges GOV-5 is stated for: some subject's walk of a
      // prediction outside what exact arithmetic allows gives the choice;
      // GOV-3 is judged on that walk, and no claim is made about the walk.
      ++r.gov3_beyond;
      const Range& g = theirs.front();
      judge3(g.walk, std::string(explainer->name) + "'s walk of a prediction of " + ns_text(g.lo));
      done = true;
    }
    if (!done && judged5 && r.new_walk.empty()) {
      // No prediction, exact or wrapped, explains the choice: the file's
      // walk is not a subject's (a note, not an overflow). Where the nearest
      // subject differs: what it chooses from its own prediction, and the
      // predictions (if any) for which it would make the file's choice.
      std::string ranges;
      for (size_t q = 0; q < theirs.size() && q < 3; ++q)
        ranges += (q ? ", " : "") + range_text(theirs[q].lo, theirs[q].hi);
      r.new_walk = at + "; " + std::string(subj.name) + "'s walk of its own prediction " +
                   ns_text(w.subject_ns) + " gives " + choice_text(exact.idx.v, exact.stop_tick) +
                   (explainer != nullptr && !ranges.empty()
                        ? "; " + std::string(explainer->name) +
                              "'s walk gives the file's choice only for predictions in " + ranges
                        : "; no subject's walk of any prediction gives the file's choice") +
                   ", none of which the file's predictor (exact, or with a word wrapped) makes "
                   "here (" +
                   range_text(w.low, w.high) + " is what exact arithmetic allows)";
    }
    if (!done) {
      // No subject's walk of any prediction gives it: the clause's own words.
      // Exempt: the fall-back, the GOV-1 exceptions, a choice the polling
      // rule or the tick-stopped promotion could make; else the target
      // residency must fit the largest prediction a known predictor makes
      // from the file's state (after the tick-stopped adjustment).
      r.walk_differs = true;
      ++r.gov3_wording;
      const size_t i = static_cast<size_t>(s.idx);
      const bool gov1 = first == n || x.latency_req == 0 || n <= 1;
      size_t below = i;
      for (size_t q = i; q-- > 0;)
        if (!input.table[q].disabled) {
          below = q;
          break;
        }
      const auto& e = input.table[i];
      const bool rule = below != i && input.table[below].polling &&
                        e.target_residency_ns <= w.p.next_timer_ns.v &&
                        e.exit_latency_ns <= x.latency_req;
      const bool promote = x.stopped && below != i &&
                           input.table[below].target_residency_ns < tick &&
                           e.target_residency_ns <= w.p.delta_tick_ns.v;
      uint64_t bound = 0;
      auto adjusted = [&](uint64_t v) { return x.stopped && v < tick ? w.p.next_timer_ns.v : v; };
      for (const auto& f : w.family) bound = std::max(bound, adjusted(f.second));
      // Kernels before the nanosecond rework replace a short prediction with
      // the time to the next tick event instead.
      if (x.stopped)
        for (const auto& f : w.family)
          if (f.second < tick) bound = std::max(bound, w.p.delta_tick_ns.v);
      if (ordered && i != first && !(gov1 && i == 0) && !rule && !promote &&
          e.target_residency_ns > bound)
        add("GOV-3", at + ": state " + std::to_string(i) + " target residency " +
                         std::to_string(e.target_residency_ns) + " ns > " + ns_text(bound) +
                         ", the largest prediction a known predictor makes from the file's "
                         "learned state (no subject's walk gives this choice, and it is not the "
                         "fall-back, the polling rule or the tick-stopped promotion)");
    }
    if (in_range && in_ring_range(s.after)) ++r.gov5_predict;
  }
  if (!wrapped.empty() && !r.walk_differs) r.gov5_walk = wrapped.front().second;
  return r;
}

// GOV-6. The limit half: members of an 'l' family share everything up to
// the last step's limit; the prediction half: selections with the same
// walk inputs and known predictions.
Gov6 search_gov6(const std::vector<Input>& inputs, const Batch& plain,
                 const std::vector<Known>& known) {
  Gov6 r;
  std::vector<std::string>& gov6 = r.found;
  size_t& limit_pairs = r.limit_pairs;
  size_t& prediction_pairs = r.prediction_pairs;
  size_t limit_found = 0, prediction_found = 0;
  {
    std::map<int, std::vector<size_t>> fam;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].vary == 'l') fam[inputs[i].family].push_back(i);
    for (const auto& [f, members] : fam) {
      for (size_t a : members)
        for (size_t b : members) {
          const Outcome& oa = plain.outcomes[a];
          const Outcome& ob = plain.outcomes[b];
          const size_t last = inputs[a].steps.size() - 1;
          if (!oa.reported || !ob.reported || oa.sels.size() <= last || ob.sels.size() <= last ||
              !oa.sels[last].ok || !ob.sels[last].ok ||
              !gov::oracle::table_is_ordered(gov::to_states(inputs[a].table)))
            continue;
          const uint64_t la = inputs[a].steps[last].latency_req,
                         lb = inputs[b].steps[last].latency_req;
          if (la >= lb) continue;
          ++limit_pairs;
          const long long ia = oa.sels[last].idx, ib = ob.sels[last].idx;
          if (ib < ia && limit_found++ < 2)
            gov6.push_back("limit: " + describe_member(inputs[a]) + ": at step " +
                           std::to_string(last) + " the file chose " +
                           choice_text(ia, oa.sels[last].stop) + "; with the larger limit " +
                           ns_text(lb) + " (everything else the same) it chose " +
                           choice_text(ib, ob.sels[last].stop) + ", a shallower state");
        }
    }
    std::map<std::string, std::vector<const Known*>> by_key;
    for (const auto& k : known) by_key[k.key].push_back(&k);
    std::string found;
    for (const auto& [key, list] : by_key) {
      const Known* lo = nullptr;  // a violation: a longer prediction, a shallower state
      for (const Known* a : list)
        for (const Known* b : list) {
          if (a->predicted >= b->predicted) continue;
          ++prediction_pairs;
          if (b->idx < a->idx && found.empty()) lo = a, found = b->at;
        }
      if (lo && prediction_found++ < 2) {
        const Known* hi = nullptr;
        for (const Known* b : list)
          if (b->at == found) hi = b;
        gov6.push_back("prediction: " + lo->at + " from a prediction of " + ns_text(lo->predicted) +
                       "; " + hi->at + " from the longer prediction " + ns_text(hi->predicted) +
                       " (the walk's other inputs the same: table, limit, "
                       "next_timer, delta_tick, tick state)");
        found = "done";
      }
    }
  }
  return r;
}

}  // namespace idlespec::validate::menu
