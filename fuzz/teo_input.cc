// The teo_fuzz decoder and driver: the subject's selections and updates,
// each judged by oracle/teo.h (judge_selection, judge_metrics). The oracle
// never calls the selection code of impl/teo.h; the driver runs only the
// subject under test and builds no text unless a clause breaks.
#include "fuzz/teo_input.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "impl/text.h"

namespace idlespec::teo_fuzz {
namespace {

constexpr uint64_t kNsPerSec = 1000000000ULL;

uint64_t clamp_below(uint64_t v, uint64_t top) { return v < top ? v : top - 1; }

std::string ns(uint64_t v) { return std::to_string(v) + " ns"; }

// The time encoding: fuzz/cpuidle_input.h, the long times kSeconds.
const cpuidle_fuzz::TimeCode kTimes = {
    &named_time,
    {kSeconds[0] * kNsPerSec, kSeconds[1] * kNsPerSec, kSeconds[2] * kNsPerSec,
     kSeconds[3] * kNsPerSec, kSeconds[4] * kNsPerSec, kSeconds[5] * kNsPerSec,
     kSeconds[6] * kNsPerSec, kSeconds[7] * kNsPerSec}};

// The input's bytes; a time is clamped below `top`.
class Reader : public cpuidle_fuzz::Reader {
 public:
  using cpuidle_fuzz::Reader::Reader;
  uint64_t time(unsigned hz, uint64_t top) {
    return clamp_below(cpuidle_fuzz::Reader::time(kTimes, hz), top);
  }
};

void put_time(std::vector<uint8_t>& out, uint64_t v, unsigned hz) {
  cpuidle_fuzz::put_time(out, v, hz, kTimes);
}

constexpr std::array<unsigned, 4> kRepeats = {1, 2, 4, 16};

uint64_t default_delta_next(uint64_t sleep_length_ns, bool tick_stopped, uint64_t tick_ns) {
  return tick_stopped ? sleep_length_ns : std::min(sleep_length_ns, tick_ns);
}

bool delta_in_order(uint64_t delta, uint64_t sleep_length_ns, bool tick_stopped, uint64_t tick_ns) {
  return delta <= sleep_length_ns && (tick_stopped || delta <= tick_ns);
}

// --- the driver's text (built only for a violation) ---------------------------

std::string describe_table(std::span<const Entry> table) {
  std::string s = strprintf("%zu states:", table.size());
  for (size_t i = 0; i < table.size(); ++i) {
    const Entry& e = table[i];
    s += strprintf(" %zu%s%s %s/%s;", i, e.polling ? " polling" : "", e.disabled ? " disabled" : "",
                   ns(e.exit_latency_ns).c_str(), ns(e.target_residency_ns).c_str());
  }
  return s;
}

std::string describe_selection(const Step& st) {
  return strprintf("limit %s, sleep length %s, delta_next %s, tick %s",
                   ns(st.latency_req_ns).c_str(), ns(st.sleep_length_ns).c_str(),
                   ns(st.delta_next_ns).c_str(), st.tick_stopped ? "stopped" : "running");
}

std::string describe_period(const Step& st) {
  std::string s = "then idle " + ns(st.residency_ns);
  if (st.elapsed_ns != st.residency_ns) s += " (elapsed " + ns(st.elapsed_ns) + ")";
  if (st.got_tick) s += ", woken by the tick";
  if (st.poll_time_limit) s += ", poll time-out";
  return s;
}

std::string describe_step(const Step& st) {
  std::string s = describe_selection(st) + "; " + describe_period(st);
  if (st.repeat != 1) s += strprintf(" (x%u)", st.repeat);
  return s;
}

std::string describe_cpu(const teo::ConcreteCpu& c, size_t n, teo::Era era) {
  std::string s = "bins (hits/intercepts";
  s += era == teo::Era::k61 ? "/recent)" : ")";
  for (size_t i = 0; i < n; ++i) {
    s += strprintf(" %u/%u", c.bins[i].hits.v, c.bins[i].intercepts.v);
    if (era == teo::Era::k61) s += strprintf("/%u", c.bins[i].recent.v);
  }
  s += strprintf(", total %u", c.total.v);
  if (era == teo::Era::k612) s += strprintf(", tick_hits %u", c.tick_hits.v);
  if (teo::has_v619_metrics(era)) {
    s += strprintf(", total_tick %u, tick_intercepts %u, short_idles %u", c.total_tick.v,
                   c.tick_intercepts.v, c.short_idles.v);
  }
  return s;
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
      return teo::kLatencyThresholdNs;
    case 3:
      return teo::kLatencyThresholdNs - 1;
    case 4:
      return teo::kResidencyThresholdNs;
    case 5:
      return teo::kResidencyThresholdNs - 1;
    case 6:
      return tick / 2;
    case 7:
      return tick - 1;
    case 8:
      return tick;
    case 9:
      return tick + 1;
    case 10:
      return 2 * tick;
    case 11:
      return 2 * tick + 1;
    case 12:
      return kNoLimitNs;
    case 13:
      return uint64_t{1} << 32;
    case 14:
      return kStateTopNs - 1;
    default:
      return kStepTopNs - 1;
  }
}

std::string_view form_subject(Form f) {
  switch (f) {
    case Form::v61:
      return teo::V61::name;
    case Form::v612:
      return teo::V612::name;
    case Form::v619:
      return teo::V619::name;
    case Form::v70:
      return teo::V70::name;
    case Form::mainline:
      return teo::Mainline::name;
  }
  return teo::Mainline::name;
}

Input parse_input(std::span<const uint8_t> data) {
  Input in;
  Reader r(data);
  const uint8_t b0 = r.byte();
  in.config.form = (b0 & 0x10u) != 0 ? Form::v70 : static_cast<Form>(b0 & 3u);
  in.config.hz = kHz[(b0 >> 2) & 3u];
  const unsigned hz = in.config.hz;
  const uint64_t tick = governor::tick_nsec(hz);
  const size_t n = r.byte() % teo::kMaxStates + 1;
  in.table.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    Entry e;
    const uint8_t flags = r.byte();
    e.polling = flags & 1u;
    e.disabled = (flags >> 1) & 1u;
    const bool as_written = (flags >> 2) & 1u;
    e.exit_latency_ns = r.time(hz, kStateTopNs);
    e.target_residency_ns = r.time(hz, kStateTopNs);
    if (!as_written && i > 0) {
      // Both below 2^40, so the sums cannot wrap.
      e.exit_latency_ns =
          clamp_below(in.table[i - 1].exit_latency_ns + e.exit_latency_ns, kStateTopNs);
      e.target_residency_ns =
          clamp_below(in.table[i - 1].target_residency_ns + e.target_residency_ns, kStateTopNs);
    }
    in.table.push_back(e);
  }
  in.steps.reserve(data.size() / 3 + 1);
  while (!r.done()) {
    Step st;
    const uint8_t sel = r.byte();
    st.tick_stopped = sel & 1u;
    st.latency_req_ns = (sel >> 1) & 1u ? kNoLimitNs : r.time(hz, kStepTopNs);
    st.sleep_length_ns = r.time(hz, kStepTopNs);
    const uint64_t dflt = default_delta_next(st.sleep_length_ns, st.tick_stopped, tick);
    if ((sel >> 2) & 1u) {
      st.delta_next_ns = dflt;
    } else {
      st.delta_next_ns = r.time(hz, kStepTopNs);
      if (((sel >> 3) & 3u) != 3u) {
        st.delta_next_ns = std::min(st.delta_next_ns, st.sleep_length_ns);
        if (!st.tick_stopped) st.delta_next_ns = std::min(st.delta_next_ns, tick);
      }
    }
    st.repeat = kRepeats[(sel >> 5) & 3u];
    const uint8_t per = r.byte();
    st.got_tick = per & 1u;
    st.poll_time_limit = (per >> 1) & 1u;
    st.residency_ns = (per >> 2) & 1u ? st.sleep_length_ns : r.time(hz, kStepTopNs);
    st.elapsed_ns = (per >> 3) & 1u ? r.time(hz, kStepTopNs) : st.residency_ns;
    if (r.ran_short()) break;
    const size_t room = kMaxSelections - in.selections;
    if (st.repeat > room) {
      in.dropped += st.repeat - room;
      st.repeat = static_cast<unsigned>(room);
    }
    if (st.repeat == 0) continue;
    in.selections += st.repeat;
    in.steps.push_back(st);
  }
  return in;
}

std::vector<uint8_t> encode(const Input& input) {
  const Config& c = input.config;
  const size_t hz = cpuidle_fuzz::hz_index(kHz, c.hz);
  cpuidle_fuzz::check_table_size(input.table.size(), teo::kMaxStates);
  const uint64_t tick = governor::tick_nsec(c.hz);
  std::vector<uint8_t> out;
  const unsigned form = c.form == Form::v70 ? 0x10u : static_cast<unsigned>(c.form);
  out.push_back(static_cast<uint8_t>(form | static_cast<unsigned>(hz) << 2));
  out.push_back(static_cast<uint8_t>(input.table.size() - 1));
  for (size_t i = 0; i < input.table.size(); ++i) {
    const Entry& e = input.table[i];
    if (e.exit_latency_ns >= kStateTopNs || e.target_residency_ns >= kStateTopNs) {
      throw std::invalid_argument("state " + std::to_string(i) + " beyond 2^40 ns");
    }
    const Entry* prev = i > 0 ? &input.table[i - 1] : nullptr;
    const bool increments = prev == nullptr || (e.exit_latency_ns >= prev->exit_latency_ns &&
                                                e.target_residency_ns >= prev->target_residency_ns);
    out.push_back(static_cast<uint8_t>(unsigned(e.polling) | unsigned(e.disabled) << 1 |
                                       unsigned(!increments) << 2));
    const uint64_t base_exit = increments && prev != nullptr ? prev->exit_latency_ns : 0;
    const uint64_t base_res = increments && prev != nullptr ? prev->target_residency_ns : 0;
    put_time(out, e.exit_latency_ns - base_exit, c.hz);
    put_time(out, e.target_residency_ns - base_res, c.hz);
  }
  for (const Step& st : input.steps) {
    for (uint64_t v : {st.latency_req_ns, st.sleep_length_ns, st.delta_next_ns, st.residency_ns,
                       st.elapsed_ns}) {
      if (v >= kStepTopNs) throw std::invalid_argument("a step's time beyond 2^42 ns");
    }
    const auto rep = std::find(kRepeats.begin(), kRepeats.end(), st.repeat);
    if (rep == kRepeats.end()) throw std::invalid_argument("repeat " + std::to_string(st.repeat));
    const bool no_limit = st.latency_req_ns == kNoLimitNs;
    const bool dflt =
        st.delta_next_ns == default_delta_next(st.sleep_length_ns, st.tick_stopped, tick);
    const bool as_written =
        !dflt && !delta_in_order(st.delta_next_ns, st.sleep_length_ns, st.tick_stopped, tick);
    out.push_back(static_cast<uint8_t>(unsigned(st.tick_stopped) | unsigned(no_limit) << 1 |
                                       unsigned(dflt) << 2 | (as_written ? 3u : 0u) << 3 |
                                       static_cast<unsigned>(rep - kRepeats.begin()) << 5));
    if (!no_limit) put_time(out, st.latency_req_ns, c.hz);
    put_time(out, st.sleep_length_ns, c.hz);
    if (!dflt) put_time(out, st.delta_next_ns, c.hz);
    const bool res_is_sleep = st.residency_ns == st.sleep_length_ns;
    const bool elapsed = st.elapsed_ns != st.residency_ns;
    out.push_back(static_cast<uint8_t>(unsigned(st.got_tick) | unsigned(st.poll_time_limit) << 1 |
                                       unsigned(res_is_sleep) << 2 | unsigned(elapsed) << 3));
    if (!res_is_sleep) put_time(out, st.residency_ns, c.hz);
    if (elapsed) put_time(out, st.elapsed_ns, c.hz);
  }
  return out;
}

std::span<const Subject> all_subjects() {
  static const Subject all[] = {subject_of<teo::V61>(), subject_of<teo::V612>(),
                                subject_of<teo::V619>(), subject_of<teo::V70>(),
                                subject_of<teo::Mainline>()};
  return all;
}

const Subject* find_subject(std::string_view name) {
  return cpuidle_fuzz::find_by_name(all_subjects(), name);
}

const Subject& fuzz_subject(const Config& config) {
  static const Subject* const overridden = cpuidle_fuzz::env_override(
      "IDLESPEC_TEO_SUBJECT", all_subjects(), "teo_fuzz", "v6.1, v6.12, v6.19, v7.0 or mainline");
  if (overridden != nullptr) return *overridden;
  return *find_subject(form_subject(config.form));
}

Outcome run(const Subject& s, const Input& input, fuzz::Judging judging) {
  Outcome o;
  const bool judged = judging == fuzz::Judging::every_step;
  oracle::Collector out;
  const size_t n = input.table.size();
  std::array<State, teo::kMaxStates> states{};
  for (size_t i = 0; i < n; ++i) {
    const Entry& e = input.table[i];
    states[i].exit_latency_ns = Concrete::lit<64>(e.exit_latency_ns);
    states[i].target_residency_ns = Concrete::lit<64>(e.target_residency_ns);
    states[i].polling = e.polling;
    states[i].timer_stop = false;
    states[i].disabled = e.disabled;
  }
  const std::span<const State> table(states.data(), n);
  const uint64_t tick_ns = governor::tick_nsec(input.config.hz);
  const teo::U64<Concrete> tick = Concrete::lit<64>(tick_ns);
  teo::ConcreteCpu cpu = teo::fresh_cpu<Concrete>();
  for (size_t k = 0; k < input.steps.size(); ++k) {
    const Step& st = input.steps[k];
    teo::ConcreteInputs in;
    in.latency_req_ns = Concrete::lit<64>(st.latency_req_ns);
    in.sleep_length_ns = Concrete::lit<64>(st.sleep_length_ns);
    in.delta_tick_ns = Concrete::lit<64>(st.delta_next_ns);
    in.tick_stopped = st.tick_stopped;
    in.tick_ns = tick;
    teo::ConcretePeriod p;
    p.last_residency_ns = Concrete::lit<64>(st.residency_ns);
    p.poll_time_limit = st.poll_time_limit;
    p.got_tick = st.got_tick;
    p.elapsed_ns = Concrete::lit<64>(st.elapsed_ns);
    for (unsigned rep = 0; rep < st.repeat; ++rep) {
      ++o.selections;
      const size_t sel = o.selections;
      const teo::ConcreteCpu before = cpu;
      const teo::ConcreteChoice c = s.select(table, cpu, in);
      auto where = [&] {
        return strprintf("selection %zu (step %zu", sel, k + 1) +
               (st.repeat > 1 ? strprintf(", repeat %u of %u)", rep + 1, st.repeat) : ")") + ": " +
               describe_selection(st) + "; from " + describe_cpu(before, n, s.era) +
               strprintf(": chose state %u, %s the tick", c.idx.v,
                         c.stop_tick ? "stopping" : "keeping");
      };
      if (judged) {
        for (const Violation& v : teo::oracle::judge_selection(table, in, c)) {
          out.add(v.clause.c_str(), [&] { return where() + "; " + v.message; });
        }
      }
      p.last_state_idx = c.idx;
      s.learn(table, cpu, p, tick);
      if (!judged) continue;
      for (const Violation& v : teo::oracle::judge_metrics(n, cpu, s.era)) {
        out.add(v.clause.c_str(), [&] {
          return where() + "; " + describe_period(st) + "; the update leaves " +
                 describe_cpu(cpu, n, s.era) + "; " + v.message;
        });
      }
    }
  }
  o.violations = out.take();
  return o;
}

std::string describe(const Input& input) {
  const Config& c = input.config;
  std::string s = strprintf("%s, HZ %u; ", std::string(form_subject(c.form)).c_str(), c.hz) +
                  describe_table(input.table);
  constexpr size_t kMaxShown = 24;
  s += strprintf(" %zu steps (%zu selections):", input.steps.size(), input.selections);
  for (size_t i = 0; i < input.steps.size() && i < kMaxShown; ++i) {
    s += i ? "; " : " ";
    s += describe_step(input.steps[i]);
  }
  if (input.steps.size() > kMaxShown)
    s += strprintf("; ... (%zu more)", input.steps.size() - kMaxShown);
  if (input.dropped != 0) s += strprintf(" (%zu selections dropped)", input.dropped);
  return s;
}

void report_and_abort(const char* target, std::string_view subject, std::span<const uint8_t> data,
                      const Violations& violations) {
  cpuidle_fuzz::report_and_abort(target, subject, data, violations, describe(parse_input(data)));
}

}  // namespace idlespec::teo_fuzz
