// The governor_fuzz decoder and driver: the subject's selections, each
// judged by oracle/governor.h (judge_selection, judge_prediction). The oracle
// never calls the selection code of impl/governor.h; the driver runs only
// the subject under test.
#include "fuzz/governor_input.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "impl/text.h"

namespace idlespec::governor_fuzz {
namespace {

using governor::Choice;
using governor::History;
using governor::Inputs;
using governor::Prediction;

constexpr uint64_t kKtimeMax = 0x7fffffffffffffffULL;
constexpr uint64_t kTenMinutesNs = 600ULL * 1000000000ULL;

using idlespec::oracle::dec;

std::string ns(uint64_t v) { return dec(v) + " ns"; }

// --- the driver
// ---------------------------------------------------------------

using oracle::Collector;

bool time_in_range(uint64_t v) { return v < kRangeNs; }
// A signed time: negative (clamped to 0 by the kernel) or below 2^40.
bool signed_time_in_range(uint64_t v) { return v < kRangeNs || v > kKtimeMax; }

std::string describe_event(const Event& ev) {
  switch (ev.kind) {
    case Event::kSelect:
      return strprintf("select (latency limit %s, sleep length %s, delta_tick %s, tick %s)",
                       ns(ev.latency_req_ns).c_str(), ns(ev.sleep_length_ns).c_str(),
                       ns(ev.delta_tick_ns).c_str(), ev.tick_stopped ? "stopped" : "running");
    case Event::kWake:
      return strprintf("wake-up after %s%s%s", ns(ev.residency_ns).c_str(),
                       ev.got_tick ? ", by the tick" : "",
                       ev.poll_time_limit ? ", poll_time_limit" : "");
    case Event::kReject:
      return "rejected entry";
  }
  return "?";
}

std::string where(size_t selection, const Inputs<Concrete>& in) {
  return strprintf(
      "selection %zu (latency limit %s, sleep length %s, delta_tick %s, "
      "tick %s; "
      "last state %u, last residency %s%s)",
      selection, ns(in.latency_req_ns.v).c_str(), ns(in.sleep_length_ns.v).c_str(),
      ns(in.delta_tick_ns.v).c_str(), in.tick_stopped ? "stopped" : "running", in.last_state_idx.v,
      ns(in.last_residency_ns.v).c_str(), in.poll_time_limit ? ", poll_time_limit" : "");
}

// The time encoding: fuzz/cpuidle_input.h, the long times 10 to 80 minutes.
const cpuidle_fuzz::TimeCode kTimes = {
    &named_time,
    {kTenMinutesNs, 2 * kTenMinutesNs, 3 * kTenMinutesNs, 4 * kTenMinutesNs, 5 * kTenMinutesNs,
     6 * kTenMinutesNs, 7 * kTenMinutesNs, 8 * kTenMinutesNs}};

// The input's bytes, its times in governor_fuzz's encoding.
class Reader : public cpuidle_fuzz::Reader {
 public:
  using cpuidle_fuzz::Reader::Reader;
  uint64_t time(unsigned hz) { return cpuidle_fuzz::Reader::time(kTimes, hz); }
};

void put_time(std::vector<uint8_t>& out, uint64_t v, unsigned hz) {
  cpuidle_fuzz::put_time(out, v, hz, kTimes);
}

}  // namespace

uint64_t named_time(size_t i, unsigned hz) {
  const uint64_t tick = governor::tick_nsec(hz);
  switch (i & 15) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return governor::kResidencyThresholdNs;
    case 3:
      return governor::kResidencyThresholdNs - 1;
    case 4:
      return tick;
    case 5:
      return tick - 1;
    case 6:
      return tick + 1;
    case 7:
      return governor::kMaxInterestingNs;
    case 8:
      return uint64_t{0xffffffff} * 1000;
    case 9:
      return uint64_t{0x100000000} * 1000;
    case 10:
      return kRangeNs - 1;
    case 11:
      return kRangeNs;
    case 12:
      return kMaxLatencyReqNs;
    case 13:
      return kKtimeMax;
    case 14:
      return 0x8000000000000000ULL;
    default:
      return ~uint64_t{0};
  }
}

std::string_view form_subject(Form f) {
  switch (f) {
    case Form::reference:
      return governor::Reference::name;
    case Form::v619:
      return governor::V619::name;
    case Form::v614:
      return governor::V614::name;
    case Form::seed_v2:
      return governor::SeedV2::name;
    case Form::seed_threshold:
      return governor::SeedThreshold::name;
    case Form::mainline:
      return governor::Mainline::name;
  }
  return governor::Reference::name;
}

Input parse_input(std::span<const uint8_t> data) {
  Input in;
  Reader r(data);
  const uint8_t b0 = r.byte();
  const unsigned form = b0 & 7u;
  in.config.form = form <= 5 ? static_cast<Form>(form) : Form::reference;
  in.config.hz = kHz[(b0 >> 3) & 3u];
  in.config.ordered = (b0 >> 5) & 1u;
  const unsigned hz = in.config.hz;
  const size_t n = r.byte() % governor::kMaxStates + 1;
  in.table.reserve(n);
  // One allocation for the events: a byte makes at most 32 of them (a cycle
  // op), and past kMaxSelections selections only ops are read, none kept.
  in.events.reserve(std::min(32 * data.size(), data.size() + 2 * kMaxSelections));
  for (size_t i = 0; i < n; ++i) {
    governor::TableEntry e;
    const uint8_t flags = r.byte();
    e.polling = flags & 1u;
    e.disabled = (flags >> 1) & 1u;
    e.timer_stop = (flags >> 2) & 1u;
    e.exit_latency_ns = r.time(hz);
    e.target_residency_ns = r.time(hz);
    if (in.config.ordered) {
      if (i > 0) {
        e.exit_latency_ns = std::max(e.exit_latency_ns, in.table[i - 1].exit_latency_ns);
        e.target_residency_ns =
            std::max(e.target_residency_ns, in.table[i - 1].target_residency_ns);
      }
      e.target_residency_ns = std::max(e.target_residency_ns, e.exit_latency_ns);
    }
    in.table.push_back(e);
  }
  size_t selections = 0;
  const Event* last_select = nullptr;
  const Event* last_wake = nullptr;
  Event select_copy;
  Event wake_copy;
  auto push = [&](const Event& ev) {
    if (ev.kind == Event::kSelect) {
      if (selections == kMaxSelections) {
        ++in.dropped;
        return;
      }
      ++selections;
    } else if (selections == kMaxSelections) {
      ++in.dropped;
      return;
    }
    in.events.push_back(ev);
  };
  while (!r.done()) {
    const uint8_t op = r.byte();
    Event ev;
    switch (op & 3u) {
      case 0:
        ev.kind = Event::kSelect;
        ev.tick_stopped = (op >> 2) & 1u;
        ev.latency_req_ns = (op >> 4) & 1u ? kMaxLatencyReqNs : r.time(hz);
        ev.sleep_length_ns = r.time(hz);
        ev.delta_tick_ns = (op >> 3) & 1u ? ev.sleep_length_ns : r.time(hz);
        if (r.ran_short()) return in;
        push(ev);
        select_copy = ev;
        last_select = &select_copy;
        break;
      case 1:
        ev.kind = Event::kWake;
        ev.got_tick = (op >> 2) & 1u;
        ev.poll_time_limit = (op >> 3) & 1u;
        ev.residency_ns = r.time(hz);
        if (r.ran_short()) return in;
        push(ev);
        wake_copy = ev;
        last_wake = &wake_copy;
        break;
      case 2:
        ev.kind = Event::kReject;
        push(ev);
        break;
      default:
        if (last_select == nullptr) break;
        for (unsigned k = 0; k < ((op >> 2) & 15u) + 1; ++k) {
          push(*last_select);
          if (last_wake != nullptr) push(*last_wake);
        }
        break;
    }
  }
  return in;
}

std::vector<uint8_t> encode(const Input& input) {
  const Config& c = input.config;
  const size_t hz = cpuidle_fuzz::hz_index(kHz, c.hz);
  cpuidle_fuzz::check_table_size(input.table.size(), governor::kMaxStates);
  std::vector<uint8_t> out;
  out.push_back(static_cast<uint8_t>(static_cast<unsigned>(c.form) |
                                     static_cast<unsigned>(hz) << 3 | unsigned(c.ordered) << 5));
  out.push_back(static_cast<uint8_t>(input.table.size() - 1));
  for (const governor::TableEntry& e : input.table) {
    out.push_back(static_cast<uint8_t>(unsigned(e.polling) | unsigned(e.disabled) << 1 |
                                       unsigned(e.timer_stop) << 2));
    put_time(out, e.exit_latency_ns, c.hz);
    put_time(out, e.target_residency_ns, c.hz);
  }
  for (const Event& ev : input.events) {
    switch (ev.kind) {
      case Event::kSelect: {
        const bool no_limit = ev.latency_req_ns == kMaxLatencyReqNs;
        const bool same = ev.delta_tick_ns == ev.sleep_length_ns;
        out.push_back(static_cast<uint8_t>(unsigned(ev.tick_stopped) << 2 | unsigned(same) << 3 |
                                           unsigned(no_limit) << 4));
        if (!no_limit) put_time(out, ev.latency_req_ns, c.hz);
        put_time(out, ev.sleep_length_ns, c.hz);
        if (!same) put_time(out, ev.delta_tick_ns, c.hz);
        break;
      }
      case Event::kWake:
        out.push_back(static_cast<uint8_t>(1 | unsigned(ev.got_tick) << 2 |
                                           unsigned(ev.poll_time_limit) << 3));
        put_time(out, ev.residency_ns, c.hz);
        break;
      case Event::kReject:
        out.push_back(2);
        break;
    }
  }
  return out;
}

std::span<const Subject> all_subjects() {
  static const Subject all[] = {
      subject_of<governor::V614>(),          subject_of<governor::SeedV2>(),
      subject_of<governor::SeedThreshold>(), subject_of<governor::Reference>(),
      subject_of<governor::V619>(),          subject_of<governor::Mainline>()};
  return all;
}

const Subject* find_subject(std::string_view name) {
  return cpuidle_fuzz::find_by_name(all_subjects(), name);
}

const Subject& fuzz_subject(const Config& config) {
  static const Subject* const overridden =
      cpuidle_fuzz::env_override("IDLESPEC_GOVERNOR_SUBJECT", all_subjects(), "governor_fuzz",
                                 "v6.14, seed-v2, seed-threshold, reference, v6.19 or mainline");
  if (overridden != nullptr) return *overridden;
  static const Subject* const reference = find_subject(governor::Reference::name);
  static const Subject* const v619 = find_subject(governor::V619::name);
  static const Subject* const mainline = find_subject(governor::Mainline::name);
  if (config.form == Form::v619) return *v619;
  return config.form == Form::mainline ? *mainline : *reference;
}

Outcome run(const Subject& s, const Input& input, fuzz::Judging judging) {
  Outcome o;
  Collector out;
  const std::vector<State> states = governor::to_states(input.table);
  const std::span<const State> table(states);
  const uint64_t tick_ns = governor::tick_nsec(input.config.hz);
  bool states_in_range = true;
  for (const governor::TableEntry& e : input.table) {
    states_in_range =
        states_in_range && time_in_range(e.exit_latency_ns) && time_in_range(e.target_residency_ns);
  }
  History<Concrete> h = governor::fresh_history<Concrete>();
  uint32_t last_idx = 0;
  const Event* pending = nullptr;  // the wake-up since the last selection, if any
  for (const Event& ev : input.events) {
    if (ev.kind != Event::kSelect) {
      pending = ev.kind == Event::kWake ? &ev : nullptr;
      continue;
    }
    ++o.selections;
    const size_t sel = o.selections;
    if (pending != nullptr) governor::reflect<Concrete>(h, pending->got_tick);
    Inputs<Concrete> in;
    in.latency_req_ns = Concrete::lit<64>(ev.latency_req_ns);
    in.sleep_length_ns = Concrete::lit<64>(ev.sleep_length_ns);
    in.delta_tick_ns = Concrete::lit<64>(ev.delta_tick_ns);
    in.tick_stopped = ev.tick_stopped;
    in.tick_ns = Concrete::lit<64>(tick_ns);
    in.last_state_idx = Concrete::lit<32>(last_idx);
    in.last_residency_ns = Concrete::lit<64>(pending != nullptr ? pending->residency_ns : 0);
    in.poll_time_limit = pending != nullptr && pending->poll_time_limit;
    pending = nullptr;

    bool factors_ok = true;
    for (const auto& f : h.correction_factor)
      factors_ok = factors_ok && f.v >= 1 && f.v <= kMaxFactor;
    bool ring_ok = true;
    for (const auto& v : h.intervals)
      ring_ok = ring_ok && (v.v == governor::kUintMax || v.v < kRangeNs / governor::kNsecPerUsec);
    // The history's time to the next timer (from the previous selection,
    // which may have been out of range) is what menu_update() learns from.
    const bool history_ok =
        h.next_timer_ns.v < kRangeNs || h.next_timer_ns.v == governor::kKtimeMax;
    const bool in_range =
        states_in_range && factors_ok && ring_ok && history_ok && last_idx < states.size() &&
        in.latency_req_ns.v <= kMaxLatencyReqNs && signed_time_in_range(in.sleep_length_ns.v) &&
        signed_time_in_range(in.delta_tick_ns.v) && time_in_range(in.last_residency_ns.v);
    const History<Concrete> before = h;
    const Prediction<Concrete> p = s.predict(table, h, in);
    const Choice<Concrete> c = s.walk(table, p, in);
    last_idx = c.idx.v;
    if (judging == fuzz::Judging::subject_only) continue;

    for (const Violation& v : governor::oracle::judge_selection(table, in, c)) {
      out.add(v.clause.c_str(), [&] {
        return where(sel, in) + ": chose " + governor::describe(c, input.table) + "; " + v.message;
      });
    }
    if (in_range) {
      ++o.gov5_judged;
      bool invariants = h.interval_ptr.v < governor::kIntervals;
      for (const auto& f : h.correction_factor)
        invariants = invariants && f.v >= 1 && f.v <= kMaxFactor;
      if (!invariants) {
        out.add("GOV-5", [&] {
          std::string fs;
          for (const auto& f : h.correction_factor) {
            fs += fs.empty() ? "" : " ";
            fs += dec(f.v);
          }
          return where(sel, in) + ": the history leaves its invariants: correction factors [" + fs +
                 "] (each within 1..8192), ring pointer " + std::to_string(h.interval_ptr.v);
        });
      }
      governor::oracle::judge_prediction(
          s.predictor, s.consults_timer_when_stopped, s.rejected_period_invalidates, table, before,
          h, in, p, [&] { return where(sel, in); }, out);
    }
  }
  o.violations = out.take();
  return o;
}

Violations check_fuzz_input(std::span<const uint8_t> data) {
  const Input in = parse_input(data);
  return run(fuzz_subject(in.config), in).violations;
}

std::string describe(const Input& input) {
  const Config& c = input.config;
  std::string s =
      strprintf("form %s, HZ %u, %s; %zu states:", std::string(form_subject(c.form)).c_str(), c.hz,
                c.ordered ? "ordered" : "as written", input.table.size());
  for (size_t i = 0; i < input.table.size(); ++i) {
    const governor::TableEntry& e = input.table[i];
    s += strprintf(" %zu%s%s%s %s/%s;", i, e.polling ? " polling" : "",
                   e.disabled ? " disabled" : "", e.timer_stop ? " timer_stop" : "",
                   ns(e.exit_latency_ns).c_str(), ns(e.target_residency_ns).c_str());
  }
  constexpr size_t kMaxShown = 24;
  s += strprintf(" %zu events:", input.events.size());
  for (size_t i = 0; i < input.events.size() && i < kMaxShown; ++i) {
    s += i ? "; " : " ";
    s += describe_event(input.events[i]);
  }
  if (input.events.size() > kMaxShown)
    s += strprintf("; ... (%zu more)", input.events.size() - kMaxShown);
  if (input.dropped != 0) s += strprintf(" (%zu dropped)", input.dropped);
  return s;
}

void report_and_abort(const char* target, std::string_view subject, std::span<const uint8_t> data,
                      const Violations& violations) {
  cpuidle_fuzz::report_and_abort(target, subject, data, violations, describe(parse_input(data)));
}

}  // namespace idlespec::governor_fuzz
