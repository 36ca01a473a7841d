// The subjects of impl/governor.h replayed from the file's own state: the
// differential, the predictions and walks that explain a choice, and which
// subjects fail or store as the file does.
#include <algorithm>

#include "oracle/governor.h"
#include "oracle/violation.h"
#include "validate/governor_run.h"

namespace idlespec::validate::menu {

using u128 = unsigned __int128;

Ctx context(const Input& input, const Outcome& o, size_t k) {
  Ctx c;
  const Dev& pre = k == 0 ? o.init : o.sels[k - 1].after;
  const Step* prev = k == 0 ? nullptr : &input.steps[k - 1];
  const bool reflected = prev != nullptr && prev->entered;
  auto& h = c.h;
  h = gov::fresh_history<Concrete>();
  h.needs_update = reflected;
  h.tick_wakeup = reflected && prev->got_tick;
  h.next_timer_ns = Concrete::lit<64>(pre.next_timer_ns());
  h.bucket = Concrete::lit<32>(pre.bucket);
  for (size_t b = 0; b < gov::kBuckets; ++b) h.correction_factor[b] = Concrete::lit<32>(pre.f[b]);
  for (size_t i = 0; i < gov::kIntervals; ++i) h.intervals[i] = Concrete::lit<32>(pre.iv[i]);
  h.interval_ptr = Concrete::lit<32>(static_cast<uint64_t>(pre.ptr));
  c.history_ok = pre.ok && pre.bucket < gov::kBuckets && pre.ptr >= 0 &&
                 pre.ptr < static_cast<long long>(gov::kIntervals);
  const Step& x = input.steps[k];
  auto& in = c.in;
  in.latency_req_ns = Concrete::lit<64>(x.latency_req);
  in.sleep_length_ns = Concrete::lit<64>(x.sleep);
  in.delta_tick_ns = Concrete::lit<64>(x.dtick);
  in.tick_stopped = x.stopped;
  in.tick_ns = Concrete::lit<64>(gov::tick_nsec(input.hz));
  const long long last = k == 0 ? 0 : o.sels[k - 1].idx;
  in.last_state_idx = Concrete::lit<32>(static_cast<uint64_t>(std::max(0LL, last)));
  in.last_residency_ns = Concrete::lit<64>(reflected ? prev->residency : 0);
  in.poll_time_limit = reflected && prev->poll_limit;
  return c;
}

static bool same_learned(const gov::History<Concrete>& h, const Dev& d, std::string* why) {
  for (size_t b = 0; b < gov::kBuckets; ++b)
    if (h.correction_factor[b].v != d.f[b]) {
      if (why)
        *why = "correction factor " + std::to_string(b) + " " + std::to_string(d.f[b]) +
               " (subject " + std::to_string(h.correction_factor[b].v) + ")";
      return false;
    }
  for (size_t i = 0; i < gov::kIntervals; ++i)
    if (h.intervals[i].v != d.iv[i]) {
      if (why)
        *why = "interval " + std::to_string(i) + " " + std::to_string(d.iv[i]) + " us (subject " +
               std::to_string(h.intervals[i].v) + ")";
      return false;
    }
  if (static_cast<long long>(h.interval_ptr.v) != d.ptr) {
    if (why) *why = "ring pointer " + std::to_string(d.ptr);
    return false;
  }
  if (h.next_timer_ns.v != d.next_timer_ns() || h.bucket.v != d.bucket) {
    if (why)
      *why = "next_timer " + ns_text(d.next_timer_ns()) + ", bucket " + std::to_string(d.bucket) +
             " (subject " + ns_text(h.next_timer_ns.v) + ", " + std::to_string(h.bucket.v) + ")";
    return false;
  }
  return true;
}

// Subject `s`'s choice for the selection of `c`: its prediction from the
// file's state before the selection, then its walk; `h` is left holding what
// the subject learned while predicting.
static gov::Choice<Concrete> subject_choice(const gf::Subject& s, const std::vector<CState>& states,
                                            const Ctx& c, gov::History<Concrete>& h) {
  h = c.h;
  return s.walk(states, s.predict(states, h, c.in), c.in);
}

void differ(const Input& input, const Outcome& o, Diff& d) {
  const auto subjects = gf::all_subjects();
  if (d.equal.empty()) d.equal.assign(subjects.size(), 0), d.first.assign(subjects.size(), "");
  const std::vector<CState> states = gov::to_states(input.table);
  for (size_t k = 0; k < o.sels.size(); ++k) {
    const Sel& s = o.sels[k];
    if (!s.ok) break;
    ++d.selections;
    Ctx c = context(input, o, k);
    for (size_t j = 0; j < subjects.size(); ++j) {
      std::string why;
      bool eq = c.history_ok;
      if (eq) {
        gov::History<Concrete> h;
        const auto ch = subject_choice(subjects[j], states, c, h);
        if (static_cast<long long>(ch.idx.v) != s.idx || ch.stop_tick != s.stop) {
          eq = false;
          why = "the file chose " + choice_text(s.idx, s.stop) + ", the subject " +
                choice_text(ch.idx.v, ch.stop_tick);
        } else if (!same_learned(h, s.after, &why)) {
          eq = false;
          why = "the file learned " + why;
        }
      } else {
        why = "the file's struct menu_device is not the model's (units or buckets)";
      }
      if (eq) {
        ++d.equal[j];
      } else if (d.first[j].empty()) {
        d.first[j] = describe(input, static_cast<long long>(k)) + ": at step " + std::to_string(k) +
                     " " + why;
      }
    }
  }
}

// The subject the file matches best (the first of the most matches).
size_t best_subject(const Diff& d) {
  size_t best = 0;
  for (size_t j = 0; j < d.equal.size(); ++j)
    if (d.equal[j] > d.equal[best]) best = j;
  return best;
}

// get_typical_interval() as 85975daeaa4d ("cpuidle: menu: Avoid discarding
// useful information", v6.15 until its late-2025 revert, also in 6.6.y) has
// it: the v6.15 loop over the samples between two thresholds, except that
// once at most three quarters of the samples remain, it answers the largest
// of them when at least half remain (instead of no prediction). Kept in the
// kernel's 64-bit words, so that it wraps where that predictor does.
static uint32_t typical_keeping_max(const std::array<uint32_t, gov::kIntervals>& iv) {
  int64_t low = -1, high = gov::kUintMax;  // samples strictly between count
  for (;;) {
    uint64_t sum = 0, squares = 0;
    uint32_t count = 0, largest = 0, smallest = gov::kUintMax;
    for (uint32_t v : iv) {
      if (static_cast<int64_t>(v) <= low || static_cast<int64_t>(v) >= high) continue;
      ++count;
      sum += v;
      squares += uint64_t{v} * v;
      largest = std::max(largest, v);
      smallest = std::min(smallest, v);
    }
    if (largest == 0) return gov::kUintMax;
    const uint64_t avg = sum / count, spread = squares / count - avg * avg;
    if (spread <= ~uint64_t{0} / 36 &&
        ((avg * avg > spread * 36 && count * 4 >= gov::kIntervals * 3) || spread <= 400))
      return static_cast<uint32_t>(avg);
    if (count * 4 <= gov::kIntervals * 3)
      return count * 2 >= gov::kIntervals ? largest : gov::kUintMax;
    if (avg - smallest > largest - avg)
      low = smallest;
    else
      high = largest;
  }
}

// get_typical_interval() before the empty-ring check (v5.x to v6.1 and the
// stable trees of that time): the two-pass loop, but a ring of zeros gives
// its average, 0, instead of no prediction. (Its early return when the
// smallest sample is at least the timer estimate changes nothing the
// smaller of the two can show.) In the kernel's words.
static uint32_t typical_two_pass_zeros(const std::array<uint32_t, gov::kIntervals>& iv) {
  uint32_t limit = gov::kIntMax;  // samples above are left out
  for (;;) {
    uint64_t sum = 0;
    uint32_t count = 0, largest = 0;
    for (uint32_t v : iv)
      if (v <= limit) sum += v, ++count, largest = std::max(largest, v);
    if (count == 0) return gov::kUintMax;
    const uint32_t avg = static_cast<uint32_t>(count == gov::kIntervals ? sum >> 3 : sum / count);
    uint64_t spread = 0;
    for (uint32_t v : iv)
      if (v <= limit) {
        const int64_t d = static_cast<int64_t>(v) - avg;
        spread += static_cast<uint64_t>(d * d);
      }
    spread = count == gov::kIntervals ? spread >> 3 : spread / count;
    if (spread <= ~uint64_t{0} / 36 &&
        ((uint64_t{avg} * avg > spread * 36 && count * 4 >= gov::kIntervals * 3) || spread <= 400))
      return avg;
    if (count * 4 <= gov::kIntervals * 3) return gov::kUintMax;
    limit = largest - 1;
  }
}

WalkBase walk_base(const Input& input, const Sel& s, const Step& x, const gf::Subject& subj) {
  WalkBase w;
  const Dev& d = s.after;
  const uint64_t tick = gov::tick_nsec(input.hz);
  w.timer = s.timer;
  const bool negative = x.sleep > kS64Max;
  w.p.next_timer_ns = Concrete::lit<64>(d.next_timer_ns());
  w.p.delta_tick_ns = Concrete::lit<64>(w.timer ? (negative ? 0 : x.dtick) : tick / 2);
  w.p.latency_req_ns = Concrete::lit<64>(x.latency_req);
  std::array<Concrete::U<32>, gov::kIntervals> ring;
  for (size_t i = 0; i < gov::kIntervals; ++i) ring[i] = Concrete::lit<32>(d.iv[i]);
  const uint32_t two_pass = gov::typical_interval_two_pass<Concrete>(ring).v;
  const uint32_t both_ends = gov::typical_interval_both_ends<Concrete>(ring).v;
  const uint32_t keeps_max = typical_keeping_max(d.iv);
  // The timer estimate in the reference's words (a 64-bit product, an
  // unsigned int of microseconds), and exactly.
  const uint64_t delta = negative ? 0 : x.sleep;
  const uint32_t factor = d.f[d.bucket < gov::kBuckets ? d.bucket : gov::kBuckets - 1];
  const uint64_t scale = gov::kResolution * gov::kDecay * gov::kNsecPerUsec;
  const uint64_t timer_words =
      uint64_t{static_cast<uint32_t>((scale / 2 + delta * factor) / scale)} * 1000;
  const u128 timer_exact = gov::oracle::timer_us_exact(delta, factor) * gov::kNsecPerUsec;
  auto predict = [&](uint32_t typical) {
    const uint64_t t = uint64_t{typical} * gov::kNsecPerUsec;
    return w.timer ? std::min(t, timer_words) : t;
  };
  w.typicals = {
      {"two-pass (v6.14)", two_pass},
      {"two-pass without the empty-ring check (v5.x..v6.1)", typical_two_pass_zeros(d.iv)},
      {"both-ends (v6.15)", both_ends},
      {"both-ends keeping the maximum (85975daeaa4d)", keeps_max}};
  w.family = {
      {"two-pass (v6.14)", predict(two_pass)},
      {"two-pass without the empty-ring check (v5.x..v6.1)", predict(typical_two_pass_zeros(d.iv))},
      {"both-ends (v6.15)", predict(both_ends)},
      {"both-ends keeping the maximum (85975daeaa4d)", predict(keeps_max)}};
  // The subject's own: v6.14's two-pass loop, or the v6.15 one.
  w.subject_ns =
      subj.predictor == gov::Predictor::kTwoPass ? w.family[0].second : w.family[2].second;
  // What exact arithmetic allows: the known predictors' predictions, and the
  // timer estimate alone (no typical interval), each within a microsecond
  // (another rounding of the same estimate). A prediction outside is a word
  // that did not hold its value.
  uint64_t lo = ~uint64_t{0}, hi = 0;
  for (const auto& f : w.family) lo = std::min(lo, f.second), hi = std::max(hi, f.second);
  if (w.timer) {
    const uint64_t t =
        timer_exact > ~uint64_t{0} ? ~uint64_t{0} : static_cast<uint64_t>(timer_exact);
    lo = std::min(lo, t), hi = std::max(hi, t);
  }
  w.low = lo > 1000 ? lo - 1000 : 0;
  w.high = hi > ~uint64_t{0} - 1000 ? ~uint64_t{0} : hi + 1000;
  return w;
}

std::vector<Range> explaining(const gf::Subject& subj, std::span<const CState> states,
                              const Input& input, gov::Prediction<Concrete> p,
                              const gov::Inputs<Concrete>& in, long long idx, bool stop) {
  std::set<uint64_t> at = {0, ~uint64_t{0}};
  auto add = [&](uint64_t v) {
    at.insert(v);
    if (v != ~uint64_t{0}) at.insert(v + 1);
  };
  const uint64_t tick = gov::tick_nsec(input.hz);
  add(tick);
  for (const auto& e : input.table) add(e.target_residency_ns), add(e.exit_latency_ns);
  std::vector<Range> r;
  for (auto it = at.begin(); it != at.end(); ++it) {
    p.predicted_ns = Concrete::lit<64>(*it);
    const auto c = subj.walk(states, p, in);
    const auto next = std::next(it);
    const uint64_t hi = next == at.end() ? *it : *next - 1;
    if (static_cast<long long>(c.idx.v) != idx || c.stop_tick != stop) continue;
    if (!r.empty() && r.back().hi + 1 == *it && r.back().walk.path.v == c.path.v)
      r.back().hi = hi;
    else
      r.push_back({*it, hi, c});
  }
  return r;
}

// The file's choice at selection k as the oracle judges it.
gov::Choice<Concrete> file_choice(const Sel& s) {
  gov::Choice<Concrete> ch;
  ch.idx = Concrete::lit<32>(s.idx < 0 || s.idx > 0xffffffffLL ? 0xffffffffULL
                                                               : static_cast<uint64_t>(s.idx));
  ch.stop_tick = s.stop;
  ch.path = Concrete::lit<8>(gov::kResidencyFits);
  ch.predicted_ns = Concrete::lit<64>(~uint64_t{0});
  return ch;
}

static bool breaks(std::span<const CState> states, const gov::Inputs<Concrete>& in,
                   const gov::Choice<Concrete>& ch, const std::string& clause) {
  for (const oracle::Violation& v : gov::oracle::judge_selection(states, in, ch))
    if (v.clause == clause) return true;
  return false;
}

// The selections of `input` at which the file's choice breaks `clause` (up
// to the first the model cannot state: a failed selection or a learned
// state it cannot hold).
static std::vector<size_t> failing_steps(const Input& input, const Outcome& o,
                                         const std::string& clause) {
  std::vector<size_t> at;
  const std::vector<CState> states = gov::to_states(input.table);
  for (size_t k = 0; k < o.sels.size() && k < input.steps.size(); ++k) {
    if (!o.sels[k].ok) break;
    const Ctx c = context(input, o, k);
    if (!c.history_ok) break;
    if (breaks(states, c.in, file_choice(o.sels[k]), clause)) at.push_back(k);
  }
  return at;
}

// The subjects that break `clause` as the file does on `input`: at a
// selection where the file's choice breaks it, the subject makes the same
// choice and so breaks it too. Each subject is compared from the file's
// state before that selection (as the differential compares them): its own
// prediction and walk, and its walk of each prediction a known predictor
// makes from the file's learned state (a clause judged on the choice alone
// is about the walk; how the file predicts is GOV-5's and the
// differential's matter, and a file of another predictor, such as a stable
// tree's backport, walks the same code to the same violation). A subject the
// spec accepts a violation for, but which makes no such choice on the
// file's counterexample, does not fail the way the file does: the file's
// failure is another defect than the one the acceptance names.
std::vector<std::string> failing_like(const Input& input, const Outcome& o,
                                      const std::string& clause) {
  std::vector<std::string> out;
  const std::vector<CState> states = gov::to_states(input.table);
  const std::vector<size_t> at = failing_steps(input, o, clause);
  for (const gf::Subject& subject : gf::all_subjects()) {
    bool fails = false;
    for (size_t k : at) {
      const Sel& s = o.sels[k];
      const Ctx c = context(input, o, k);
      auto same = [&](const gov::Choice<Concrete>& ch) {
        return static_cast<long long>(ch.idx.v) == s.idx && breaks(states, c.in, ch, clause);
      };
      gov::History<Concrete> h = c.h;
      gov::Prediction<Concrete> p = subject.predict(states, h, c.in);
      fails = same(subject.walk(states, p, c.in));
      if (!fails && s.after.ok) {
        const WalkBase w = walk_base(input, s, input.steps[k], subject);
        // The subject's walk inputs stay its own (the time to the next
        // timer, the tick delta); a prediction made with the timer
        // consulted is at most the time to the next timer (the factor is
        // at most 1), so a known predictor's prediction is capped by the
        // subject's timer where the subject consulted it.
        const uint64_t timer = p.next_timer_ns.v;
        for (const auto& f : w.family) {
          p.predicted_ns =
              Concrete::lit<64>(timer == kS64Max ? f.second : std::min(f.second, timer));
          if ((fails = same(subject.walk(states, p, c.in)))) break;
        }
      }
      if (fails) break;
    }
    if (fails) out.push_back(std::string(subject.name));
  }
  return out;
}

// Whether, at every selection of `input` where the file breaks `clause`,
// every subject returns state 0 before its walk because the latency limit
// is below state 1's exit latency (an input the file gets as the subjects
// do; the other reasons for that return, the time to the next timer, come
// from the subject's own timer handling and are compared). Text without
// that early return (menu.c of v4.17 to v4.19 among it) walks on to the
// state it breaks the clause with; the subjects never reach their walk
// there, so they cannot be compared with the file on that input.
bool subjects_return_early(const Input& input, const Outcome& o, const std::string& clause) {
  const std::vector<CState> states = gov::to_states(input.table);
  const std::vector<size_t> at = failing_steps(input, o, clause);
  if (at.empty()) return false;
  for (size_t k : at) {
    const Ctx c = context(input, o, k);
    if (states.size() < 2 || c.in.latency_req_ns.v >= states[1].exit_latency_ns.v) return false;
    for (const gf::Subject& subject : gf::all_subjects()) {
      gov::History<Concrete> h;
      if (subject_choice(subject, states, c, h).path.v != gov::kTrivial) return false;
    }
  }
  return true;
}

// The subjects whose menu_update(), replayed from the file's state before
// selection k of `input` (the period it reflects, the time to the next timer
// the file recorded), stores in the ring slot the file wrote what the file
// stored there.
std::vector<std::string> storing_like(const Input& input, const Outcome& o, size_t k) {
  std::vector<std::string> out;
  if (k >= o.sels.size() || !o.sels[k].after.ok) return out;
  const Dev& pre = k == 0 ? o.init : o.sels[k - 1].after;
  const Ctx c = context(input, o, k);
  if (!c.history_ok) return out;
  const size_t slot = static_cast<size_t>(pre.ptr);
  const std::vector<CState> states = gov::to_states(input.table);
  for (const gf::Subject& subject : gf::all_subjects()) {
    gov::History<Concrete> h;
    subject_choice(subject, states, c, h);
    if (h.intervals[slot].v == o.sels[k].after.iv[slot]) out.push_back(std::string(subject.name));
  }
  return out;
}

}  // namespace idlespec::validate::menu
