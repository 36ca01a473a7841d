#include "oracle/states.h"

#include <vector>

#include "impl/text.h"

namespace idlespec::states::oracle {
namespace {

using idlespec::oracle::dec;

constexpr size_t kNoRecord = static_cast<size_t>(-1);

}  // namespace

u128 exact_us(uint64_t ticks, uint64_t tb_hz) {
  const u128 scaled = u128{ticks} * 1000000u;
  const u128 quotient = scaled / tb_hz;
  return quotient + (scaled % tb_hz != 0 ? 1 : 0);
}

std::optional<uint64_t> cede0_latency_us(std::span<const xcede::Record> records, uint64_t tb_hz) {
  std::optional<uint64_t> best;
  for (const auto& r : records) {
    const u128 us = exact_us(r.latency_ticks, tb_hz);
    if (us == 0 || us > kLargestKeptUs) continue;
    if (!best || us < *best) best = static_cast<uint64_t>(us);
  }
  return best;
}

const FixupGateRow* spec_fixup_row(const Lpar& lpar) {
  for (const auto& row : kSpecFixupGate) {
    if (row.processor == lpar.processor && row.compat == lpar.compat) return &row;
  }
  return nullptr;
}

bool spec_fixup_expected(const Lpar& lpar) {
  const FixupGateRow* row = spec_fixup_row(lpar);
  return !lpar.shared_processor && row && row->dedicated_fixed_up;
}

CedeValues cede_from_latencies(std::span<const u128> latency_us) {
  CedeValues c;
  std::optional<u128> best;
  for (const u128 us : latency_us) {
    if (us == 0 || us > kLargestKeptUs) continue;
    if (!best || us < *best) best = us;
  }
  if (best) {
    c.exit_us = *best;
    c.residency_us = *best * kResidencyFactor;
  }
  return c;
}

CedeValues expected_cede(std::span<const xcede::Record> records, uint64_t tb_hz, bool dedicated,
                         bool fixup_gate) {
  if (!dedicated || !fixup_gate) return CedeValues{};
  std::vector<u128> us;
  for (const auto& r : records) us.push_back(exact_us(r.latency_ticks, tb_hz));
  return cede_from_latencies(us);
}

void judge_table(const Options& options, std::span<const xcede::Record> records, const Table& table,
                 bool fixup_gate, Violations& out) {
  const auto& s = table.states;
  const bool dedicated = !options.lpar.shared_processor;
  auto fail = [&](const char* clause, std::string message) {
    out.push_back({clause, std::move(message)});
  };

  if (s.size() > kCpuidleStateMax) {
    fail("STATES-5", strprintf("%zu states, CPUIDLE_STATE_MAX is %u", s.size(), kCpuidleStateMax));
  }
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i].target_residency_us < s[i].exit_latency_us) {
      fail("STATES-3",
           strprintf("state %zu %s: target residency %u us < exit latency %u us", i,
                     s[i].name.c_str(), s[i].target_residency_us, s[i].exit_latency_us));
    }
    if (i == 0) continue;
    if (s[i].exit_latency_us < s[i - 1].exit_latency_us) {
      fail("STATES-1", strprintf("state %zu %s: exit latency %u us < %u us of state %zu %s", i,
                                 s[i].name.c_str(), s[i].exit_latency_us, s[i - 1].exit_latency_us,
                                 i - 1, s[i - 1].name.c_str()));
    }
    if (s[i].target_residency_us < s[i - 1].target_residency_us) {
      fail("STATES-2", strprintf("state %zu %s: target residency %u us < %u us of state %zu %s", i,
                                 s[i].name.c_str(), s[i].target_residency_us,
                                 s[i - 1].target_residency_us, i - 1, s[i - 1].name.c_str()));
    }
  }
  if (s.size() < 2) {
    fail("STATES-4", strprintf("%zu states: snooze and CEDE missing", s.size()));
    return;
  }

  // STATES-4: the exact values. snooze is 0/0; CEDE is 10/100 unless the
  // fix-up (the subject's own gate) finds a non-zero latency that fits.
  if (s[0].exit_latency_us != 0 || s[0].target_residency_us != 0) {
    fail("STATES-4",
         strprintf("snooze %u/%u us, exact 0/0", s[0].exit_latency_us, s[0].target_residency_us));
  }
  const CedeValues cede = expected_cede(records, options.tb_hz, dedicated, fixup_gate);
  if (s[1].exit_latency_us != cede.exit_us || s[1].target_residency_us != cede.residency_us) {
    fail("STATES-4", strprintf("%s %u/%u us (exit latency/target residency), exact %s/%s us",
                               s[1].name.c_str(), s[1].exit_latency_us, s[1].target_residency_us,
                               dec(cede.exit_us).c_str(), dec(cede.residency_us).c_str()));
  }
  const u128 timeout = snooze_timeout_ticks(cede.residency_us, options.tb_hz);
  if (table.snooze_timeout_ticks != timeout) {
    fail("STATES-4", strprintf("snooze timeout %llu ticks, exact %s (residency %s us x %llu "
                               "ticks/us)",
                               static_cast<unsigned long long>(table.snooze_timeout_ticks),
                               dec(timeout).c_str(), dec(cede.residency_us).c_str(),
                               static_cast<unsigned long long>(tb_ticks_per_usec(options.tb_hz))));
  }
  // STATES-4: a record too large for cpuidle is refused, with a note, never wrapped.
  size_t too_large = 0;
  for (const auto& r : records)
    too_large += exact_us(r.latency_ticks, options.tb_hz) > kLargestKeptUs;
  size_t refused = 0;
  for (const auto& note : table.notes) refused += note.rfind("cpuidle: Refusing", 0) == 0;
  if (refused != too_large) {
    fail("STATES-4",
         strprintf("%zu record(s) too large for cpuidle, %zu refusal note(s)", too_large, refused));
  }

  // STATES-7: each XCEDE state comes, in record order, from a record with
  // its hint that wakes on interrupts and is not hint 1; STATES-4: its values
  // are that record's exact latency (+10 us with TIMER_STOP) and 10x that.
  size_t next = 0;
  for (size_t i = 2; i < s.size(); ++i) {
    const State& st = s[i];
    if (!dedicated || !options.expose_xcede) {
      fail("STATES-7", strprintf("state %zu %s with XCEDE exposure off", i, st.name.c_str()));
      continue;
    }
    if (st.timer_stop != (st.cede_hint > 0)) {
      fail("STATES-7", strprintf("state %zu %s: TIMER_STOP %s with hint %u", i, st.name.c_str(),
                                 st.timer_stop ? "set" : "clear", st.cede_hint));
    }
    size_t candidate = kNoRecord;
    size_t match = kNoRecord;
    u128 candidate_exit = 0;
    for (size_t k = next; k < records.size(); ++k) {
      const auto& r = records[k];
      if (r.hint != st.cede_hint || r.wake_on_irqs == 0 || r.hint == kXcede1Hint) continue;
      const u128 exit =
          exact_us(r.latency_ticks, options.tb_hz) + (r.hint > 0 ? kTimerStopExtraUs : 0);
      if (candidate == kNoRecord) {
        candidate = k;
        candidate_exit = exit;
      }
      if (exit == st.exit_latency_us && exit * kResidencyFactor == st.target_residency_us) {
        match = k;
        break;
      }
    }
    if (match != kNoRecord) {
      next = match + 1;
    } else if (candidate != kNoRecord) {
      fail("STATES-4",
           strprintf("state %zu %s %u/%u us, exact from record %zu: %s/%s us", i, st.name.c_str(),
                     st.exit_latency_us, st.target_residency_us, candidate,
                     dec(candidate_exit).c_str(), dec(candidate_exit * kResidencyFactor).c_str()));
      next = candidate + 1;
    } else {
      fail("STATES-7", strprintf("state %zu %s comes from no later record with hint %u that "
                                 "wakes on external interrupts",
                                 i, st.name.c_str(), st.cede_hint));
    }
  }
}

std::optional<Violation> judge_fixup(const Options& options, std::span<const xcede::Record> records,
                                     const Table& table) {
  const Lpar& lpar = options.lpar;
  const bool gate = spec_fixup_expected(lpar);
  const bool fixes = gate && cede0_latency_us(records, options.tb_hz).has_value();
  const CedeValues want = expected_cede(records, options.tb_hz, !lpar.shared_processor, gate);
  if (table.states.size() < 2) return Violation{"STATES-6", "no CEDE state"};
  const State& cede = table.states[1];
  if (table.cede0_fixed_up == fixes && cede.exit_latency_us == want.exit_us &&
      cede.target_residency_us == want.residency_us) {
    return std::nullopt;
  }
  const FixupGateRow* row = spec_fixup_row(lpar);
  const std::string why = lpar.shared_processor ? "shared LPARs never"
                          : row                 ? std::string(row->why)
                                                : "the spec's table has no row for this mode";
  return Violation{
      "STATES-6",
      strprintf("CEDE %u/%u us%s, the spec says %s/%s (%s)", cede.exit_latency_us,
                cede.target_residency_us, table.cede0_fixed_up ? " (fixed up)" : "",
                dec(want.exit_us).c_str(), dec(want.residency_us).c_str(), why.c_str())};
}

std::string show_table(const Table& t) {
  std::string out;
  for (const State& s : t.states) {
    out += (out.empty() ? "" : ", ") + s.name + " " + std::to_string(s.exit_latency_us) + "/" +
           std::to_string(s.target_residency_us);
    if (s.timer_stop) out += " (TIMER_STOP)";
  }
  return out;
}

}  // namespace idlespec::states::oracle
