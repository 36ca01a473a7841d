// The states component of `idlespec validate`: a file's CEDE(0) fix-up,
// fixup_cede0_latency(), against spec/states.md's STATES-3 and STATES-4, as
// oracle/states.h computes CEDE's values (the smallest non-zero record
// latency, exactly).
//
// The harness (harness/harness_states.c) hands each input's payload to the
// code through the fake firmware of xcede_env.h (statuses "0": the query
// succeeds), runs fixup_cede0_latency() (which calls parse_cede_parameters())
// on a dedicated POWER10 LPAR at 512 MHz, where STATES-6 says the fix-up
// applies, and reports CEDE's exit latency and target residency. The driver
// judges each input:
//
//   STATES-3  CEDE's target residency >= its exit latency.
//   STATES-4  CEDE's exit latency and target residency are the reference's:
//             the smallest non-zero record latency, ceil(ticks * 10^6 /
//             tb_hz) µs, and ten times it; records whose latency (or ten
//             times it) does not fit an unsigned int refused; 10/100 µs
//             when no record is usable. KD-1: the kernel's tb_to_ns() may
//             give a record one µs less than the exact value (kernel <=
//             exact <= kernel + 1); the reference fix-up is also accepted
//             with any record's latency taken the kernel's way, when it
//             differs from the exact one by that µs and nothing more. (A
//             record of 1 tick is 1 µs exactly, 0 µs in the kernel: the
//             fix-up may skip it.) Nothing else is accepted.
//
// A crash, a hang, a WARN_ON/BUG_ON or a sanitizer report fails STATES-4
// (the run that was to give the exact values did not). Each failed clause's
// first counterexample is shrunk (fewer records, smaller latencies, zeroed
// hints) by re-running the harness on candidates.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "impl/platform.h"
#include "impl/states.h"
#include "impl/timebase.h"
#include "oracle/states.h"
#include "sandbox/process.h"
#include "validate/boundaries.h"
#include "validate/component.h"
#include "validate/input_check.h"
#include "validate/property_check.h"

namespace idlespec::validate {
namespace {

using Clock = std::chrono::steady_clock;
using Bytes = std::vector<uint8_t>;
constexpr uint64_t kTbHz = states::kDefaultTbHz;  // the shim's timebase (xcede_env.h)
constexpr size_t kMaxRecords = 16;                // what the kernel's buffer holds

struct Input {
  std::vector<xcede::Record> records;  // all handed over, all decoded (record size 9)
  std::string origin;                  // "Z3 <branch>" for a Z3-chosen input (not kept when shrunk)
  // Drawn alike by every run with the same options (generated, Z3's), not
  // by what the code did (the fuzz campaign's, RapidCheck's): review
  // compares the failures of these (InputChecker::reproducible).
  bool reproducible = true;
};

// --- inputs ---------------------------------------------------------------------

// The payload firmware hands over: payload_size, the record-size byte (9),
// the records, the NUL.
Bytes payload(const Input& in) {
  const uint16_t ps = static_cast<uint16_t>(2 + 10 * in.records.size());
  Bytes b = {static_cast<uint8_t>(ps >> 8), static_cast<uint8_t>(ps), 9};
  for (const auto& r : in.records) {
    b.push_back(r.hint);
    for (int s = 56; s >= 0; s -= 8) b.push_back(static_cast<uint8_t>(r.latency_ticks >> s));
    b.push_back(r.wake_on_irqs);
  }
  b.push_back(0);
  return b;
}

// The tick counts where the fix-up's arithmetic turns (at 512 MHz, 512 ticks
// per µs).
std::vector<uint64_t> boundary_ticks() {
  const uint64_t tpu = kTbHz / 1000000;
  const uint64_t most_us = states::kMaxLatencyUs;  // 10x still fits an unsigned int
  return {0, 1, 2, tpu - 1, tpu, tpu + 1, 2 * tpu - 1, 2 * tpu, 2 * tpu + 1, 9 * tpu,
          10 * tpu - 1,  // just under 10 µs
          10 * tpu,      // exactly 10 µs
          10 * tpu + 1,  // just over
          11 * tpu, 100 * tpu + 7, most_us * tpu - 1,
          most_us * tpu,  // the largest latency cpuidle keeps
          most_us * tpu + 1, (most_us + 1) * tpu, uint64_t{0xffffffff} * tpu,  // UINT_MAX µs
          uint64_t{0xffffffff} * tpu + 1, uint64_t{1} << 32, uint64_t{1} << 40, uint64_t{1} << 63,
          // tb_to_ns() overflows 64 bits here: the kernel's ns wrap to 0, 2, 4.
          9444732965739290428ull, 9444732965739290429ull, 9444732965739290430ull, ~uint64_t{0} - 1,
          ~uint64_t{0}};
}

// RapidCheck's generator: up to 16 records whose tick counts are small,
// whole microseconds, the fix-up's edges, or any u64.
rc::Gen<Input> property_gen() {
  using namespace rc;
  const std::vector<uint64_t> edge = boundary_ticks();
  const auto ticks = gen::weightedOneOf<uint64_t>(
      {{3, gen::inRange<uint64_t>(0, 1 << 20)},
       {2, gen::map(gen::inRange<uint64_t>(0, 100000), [](uint64_t us) { return us * 512; })},
       {2, gen::elementOf(edge)},
       {2, gen::arbitrary<uint64_t>()}});
  const auto record = gen::build<xcede::Record>(gen::set(&xcede::Record::hint),
                                                gen::set(&xcede::Record::latency_ticks, ticks),
                                                gen::set(&xcede::Record::wake_on_irqs));
  return gen::map(gen::container<std::vector<xcede::Record>>(record),
                  [](std::vector<xcede::Record> r) {
                    if (r.size() > kMaxRecords) r.resize(kMaxRecords);
                    return Input{r, {}};
                  });
}

std::vector<Input> make_inputs(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Input> in;
  const std::vector<uint64_t> edge = boundary_ticks();
  auto rec = [&](uint64_t ticks, uint8_t hint) {
    return xcede::Record{hint, ticks, static_cast<uint8_t>(rng() & 1)};
  };
  in.push_back({});  // no records: CEDE keeps 10/100
  for (uint64_t t : edge) {
    in.push_back({{rec(t, 1)}, {}});
    in.push_back({{rec(t, 1), rec(10 * 512, 2)}, {}});  // against 10 µs
    in.push_back({{rec(10 * 512, 1), rec(t, 2)}, {}});
    in.push_back({{rec(0, 1), rec(t, 2)}, {}});  // behind a zero record
    in.push_back({{rec(t, 1), rec(512, 2)}, {}});
  }
  for (uint64_t a : edge)
    for (uint64_t b : edge)
      if (a != b) in.push_back({{rec(a, 1), rec(b, 2)}, {}});
  for (size_t k = 1; k <= kMaxRecords; ++k) {  // all zero
    Input z;
    for (size_t i = 0; i < k; ++i) z.records.push_back(rec(0, static_cast<uint8_t>(i)));
    in.push_back(z);
  }
  // The minimum last, first, in the middle, of a full buffer.
  for (size_t pos : {size_t{0}, size_t{7}, kMaxRecords - 1}) {
    Input f;
    for (size_t i = 0; i < kMaxRecords; ++i)
      f.records.push_back(rec(i == pos ? 3 * 512 + 5 : 20 * 512 + i, static_cast<uint8_t>(i)));
    in.push_back(f);
  }
  // Random: record counts 0..16, latencies small, µs-sized, edges and full-width.
  for (int n = 0; n < 3000; ++n) {
    Input r;
    const size_t k = rng() % (kMaxRecords + 1);
    for (size_t i = 0; i < k; ++i) {
      uint64_t t;
      switch (rng() % 6) {
        case 0:
          t = rng() & 0x3ff;
          break;
        case 1:
          t = rng() & 0xffff;
          break;
        case 2:
          t = rng() & 0xffffffffff;
          break;
        case 3:
          t = edge[rng() % edge.size()];
          break;
        case 4:
          t = 0;
          break;
        default:
          t = rng() >> (rng() % 64);
          break;
      }
      r.records.push_back(rec(t, static_cast<uint8_t>(rng())));
    }
    in.push_back(r);
  }
  return in;
}

// --- the reference --------------------------------------------------------------

struct Expected {
  uint32_t exit = 0, residency = 0;  // the exact reference
  bool kd1_differs = false;          // the kernel's conversion gives another table
  uint32_t kd1_exit = 0, kd1_residency = 0;
};

// The reference is the oracle's (oracle/states.h): the fix-up applies on a
// dedicated POWER10 (STATES-6), CEDE takes the smallest non-zero record
// latency cpuidle can hold and ten times it.
using u128 = states::oracle::u128;

u128 exact_us(uint64_t ticks) { return states::oracle::exact_us(ticks, kTbHz); }

// KD-1: the kernel's µs for a record, when it is of the tolerated kind
// (kernel <= exact <= kernel + 1); the exact value otherwise.
u128 kd1_us(uint64_t ticks) {
  const u128 x = exact_us(ticks);
  const u128 k = timebase::kernel_latency_us(ticks, kTbHz);
  return k <= x && x <= k + 1 ? k : x;
}

// CEDE's exit latency and target residency from the fix-up with the given
// per-record latencies.
std::pair<uint32_t, uint32_t> cede_with(const std::vector<u128>& us) {
  const states::oracle::CedeValues c = states::oracle::cede_from_latencies(us);
  return {static_cast<uint32_t>(c.exit_us), static_cast<uint32_t>(c.residency_us)};
}

Expected expected(const Input& in) {
  Expected e;
  std::vector<u128> exact, k;
  for (const auto& r : in.records) {
    exact.push_back(exact_us(r.latency_ticks));
    k.push_back(kd1_us(r.latency_ticks));
  }
  std::tie(e.exit, e.residency) = cede_with(exact);
  std::tie(e.kd1_exit, e.kd1_residency) = cede_with(k);
  e.kd1_differs = e.kd1_exit != e.exit || e.kd1_residency != e.residency;
  return e;
}

// Whether the code's CEDE values are the reference's for some per-record
// choice between the exact and the kernel's (KD-1) conversion. Each record
// takes the value the code's exit latency names if it can, else a value the
// fix-up does not use (0 or too large), else one no smaller: if any choice
// gives the code's values, this one does.
bool kd1_accepts(const Input& in, long long exit_latency, long long residency) {
  const u128 most = states::oracle::kLargestKeptUs;
  std::vector<u128> us;
  for (const auto& r : in.records) {
    const u128 a = exact_us(r.latency_ticks), b = kd1_us(r.latency_ticks);
    auto unused = [&](u128 v) { return v == 0 || v > most; };
    if (a <= most && static_cast<long long>(a) == exit_latency)
      us.push_back(a);
    else if (b <= most && static_cast<long long>(b) == exit_latency)
      us.push_back(b);
    else if (unused(a) || unused(b))
      us.push_back(unused(a) ? a : b);
    else
      us.push_back(a >= b ? a : b);
  }
  const auto [e, r] = cede_with(us);
  return e == exit_latency && r == residency;
}

// --- running the harness ---------------------------------------------------------

std::string u128_text(unsigned __int128 v) {
  if (v == 0) return "0";
  std::string s;
  for (; v != 0; v /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
  return s;
}

// "{hint 1, 513 ticks = 2 µs (kernel tb_to_ns: 1 µs)}"
std::string show_record(const xcede::Record& r) {
  const unsigned __int128 x = exact_us(r.latency_ticks);
  const uint64_t k = timebase::kernel_latency_us(r.latency_ticks, kTbHz);
  std::string s = "{hint " + std::to_string(r.hint) + ", " + std::to_string(r.latency_ticks) +
                  " ticks = " + u128_text(x) + " µs";
  if (k != x) s += " (kernel tb_to_ns: " + std::to_string(k) + " µs)";
  return s + "}";
}

std::string describe(const Input& in) {
  if (in.records.empty()) return "no records";
  std::string s = std::to_string(in.records.size()) + " record(s) ";
  for (size_t i = 0; i < in.records.size(); ++i) {
    if (s.size() > 400) return s + ", ...";
    s += (i ? ", " : "") + show_record(in.records[i]);
  }
  if (!in.origin.empty()) s += " [" + in.origin + "]";
  return s;
}

// Findings per clause for one input.
// What the harness said of one input (harness_states.c's S line).
struct Outcome {
  bool crashed = false, hung = false;
  std::string crash;
  long long exit_latency = 0, residency = 0, nr = 0;
  std::vector<std::string> warns, sanitizer;
};

Findings judge(const Input& in, const HarnessOutcome& h) {
  Findings f;
  if (!h.reported) return f;
  Outcome o;
  o.crashed = h.crashed, o.hung = h.hung, o.crash = h.crash;
  o.exit_latency = h.field("exit"), o.residency = h.field("residency"), o.nr = h.field("nr");
  o.warns = h.warns, o.sanitizer = h.sanitizer;
  for (const auto& s : o.sanitizer) f.emplace("STATES-4", s);
  if (o.crashed) f.emplace("STATES-4", stop_text(o.crash));
  if (o.hung) f.emplace("STATES-4", "did not return within 2 s (hang)");
  for (const auto& w : o.warns) f.emplace("STATES-4", w);
  const std::string got = "exit_latency = " + std::to_string(o.exit_latency) +
                          " µs, target_residency = " + std::to_string(o.residency) + " µs";
  if (o.residency < o.exit_latency)
    f.emplace("STATES-3", "CEDE's " + got + ": the residency is below the exit latency");
  if (o.crashed || o.hung) return f;
  const Expected e = expected(in);
  const bool exact = o.exit_latency == e.exit && o.residency == e.residency;
  if (!exact && !kd1_accepts(in, o.exit_latency, o.residency)) {
    std::string want =
        "the reference: " + std::to_string(e.exit) + " µs, " + std::to_string(e.residency) + " µs";
    if (e.kd1_differs)
      want += " (with the kernel's tb_to_ns, KD-1: " + std::to_string(e.kd1_exit) + " µs, " +
              std::to_string(e.kd1_residency) + " µs)";
    std::string text = "CEDE's " + got + "; " + want;
    if (o.nr != static_cast<long long>(in.records.size()))
      text += " (nr_xcede_records = " + std::to_string(o.nr) + ")";
    f.emplace("STATES-4", text);
  }
  return f;
}

// Shrinking candidates: fewer records, smaller latencies, hints and wake bits zeroed.
std::vector<Input> shrink_candidates(const Input& in) {
  std::vector<Input> c;
  auto with = [&](auto change) {
    Input x = in;
    x.origin.clear();
    change(x);
    if (x.records != in.records) c.push_back(x);
  };
  for (size_t i = 0; i < in.records.size(); ++i)
    with([&](Input& x) { x.records.erase(x.records.begin() + static_cast<long>(i)); });
  // Latencies: 0, 1, whole µs, then down by the largest power of two that
  // still fails (the first candidate that fails is taken: a binary descent).
  for (size_t i = 0; i < in.records.size(); ++i) {
    const uint64_t t = in.records[i].latency_ticks;
    std::vector<uint64_t> smaller = {0, 1, t / 512 * 512};
    for (int k = 63; k >= 0; --k)
      if ((uint64_t{1} << k) < t) smaller.push_back(t - (uint64_t{1} << k));
    for (uint64_t v : smaller)
      if (v < t) with([&](Input& x) { x.records[i].latency_ticks = v; });
  }
  for (size_t i = 0; i < in.records.size(); ++i) {
    with([&](Input& x) { x.records[i].hint = static_cast<uint8_t>(i + 1); });
    with([&](Input& x) { x.records[i].wake_on_irqs = 0; });
  }
  return c;
}

// --- the probe: STATES-1, -2, -5, -6 and STATES-4's snooze timeout ---------------

struct ProbeInput {
  int pvr = 10, mode = 10;  // the processor and its architected mode (8..11)
  bool shared = false, splpar = true, disabled = false;
  std::vector<int> statuses;  // the firmware's answer to the fix-up's query
  Bytes payload;
  std::vector<xcede::Record> records;  // what the payload holds, for people
};

Lpar lpar_of(const ProbeInput& in) {
  Lpar l;
  l.processor = static_cast<Platform>(in.pvr);
  l.compat = static_cast<Platform>(in.mode);
  l.shared_processor = in.shared;
  return l;
}

// The reference: a probe that gets as far as choosing a table (SPLPAR,
// cpuidle on) runs the fix-up exactly where cede0_fixup_applies() says.
bool fixup_expected(const ProbeInput& in) {
  return in.splpar && !in.disabled && cede0_fixup_applies(lpar_of(in));
}

std::string describe_probe(const ProbeInput& in) {
  std::string s = "POWER" + std::to_string(in.pvr);
  if (in.mode != in.pvr) s += " in POWER" + std::to_string(in.mode) + " mode";
  s += in.shared ? ", shared LPAR" : ", dedicated LPAR";
  if (!in.splpar) s += ", no SPLPAR";
  if (in.disabled) s += ", cpuidle disabled";
  s += "; firmware answers status " + std::to_string(in.statuses.back());
  if (in.statuses.back() == 0) s += " with " + std::to_string(in.records.size()) + " record(s)";
  return s;
}

std::vector<ProbeInput> probe_inputs() {
  // Two records of 5 and 50 µs; none; a failed query; one record of the
  // largest latency cpuidle keeps (STATES-4: CEDE's residency 4294967290
  // µs, whose snooze timeout needs 42 bits at 512 ticks per µs: a 32-bit
  // timeout or product wraps there).
  const std::vector<xcede::Record> two = {{1, 5 * 512, 1}, {2, 50 * 512, 1}};
  const std::vector<xcede::Record> most = {
      {1, static_cast<uint64_t>(states::oracle::kLargestKeptUs) * 512, 1}};
  struct Answer {
    std::vector<int> statuses;
    std::vector<xcede::Record> records;
  };
  const std::vector<Answer> answers = {{{0}, two}, {{0}, {}}, {{-3}, two}, {{0}, most}};
  std::vector<ProbeInput> in;
  for (int pvr = 8; pvr <= 11; ++pvr)
    for (int mode = 8; mode <= pvr; ++mode)
      for (int flags = 0; flags < 8; ++flags)
        for (const auto& a : answers)
          in.push_back({pvr, mode, (flags & 1) != 0, (flags & 2) == 0, (flags & 4) != 0, a.statuses,
                        payload(Input{a.records, {}}),
                        a.statuses.back() == 0 ? a.records : std::vector<xcede::Record>{}});
  return in;
}

// STATES-4's snooze timeout, where the text keeps one (the harness's
// snooze= field) and the probe chose a table with a CEDE state: CEDE's
// target residency as the table holds it (its exact value is judged on the
// fix-up) times the timebase's ticks per µs, exactly, as the oracle reads
// the clause (oracle/states.h snooze_timeout_ticks). The kernel computes it
// only when the table has more than one state.
void judge_snooze(const ProbeInput& in, const HarnessOutcome& h, long long max, Findings& f) {
  const size_t at = h.result.find(" snooze=");
  if (at == std::string::npos || max < 2 || h.field("ret") != 0) return;
  const char* text = h.result.c_str() + at + 8;
  char* end = nullptr;
  errno = 0;
  const unsigned long long got = std::strtoull(text, &end, 10);
  const bool readable = end != text && errno == 0;
  for (const auto& l : h.lines) {
    unsigned i = 0, exit = 0, res = 0;
    if (std::sscanf(l.c_str(), "ST %u %u %u", &i, &exit, &res) != 3 || i != 1) continue;
    const states::oracle::u128 want = states::oracle::snooze_timeout_ticks(res, kTbHz);
    if (readable && got == want) return;
    std::string records;
    for (size_t r = 0; r < in.records.size(); ++r)
      records += (r ? ", " : "; the record(s): ") + show_record(in.records[r]);
    f.emplace("STATES-4",
              "snooze_timeout = " + (readable ? std::to_string(got) : std::string("unreadable")) +
                  " ticks; the exact value: " + u128_text(want) +
                  " ticks (CEDE's target residency " + std::to_string(res) + " µs x " +
                  std::to_string(states::oracle::tb_ticks_per_usec(kTbHz)) + " ticks per µs)" +
                  records);
    return;
  }
}

Findings judge_probe(const ProbeInput& in, const HarnessOutcome& h) {
  Findings f;
  if (!h.reported) return f;
  if (h.crashed) f.emplace("STATES-6", "the probe crashed: " + h.crash);
  if (h.hung) f.emplace("STATES-6", "the probe did not return within 2 s (hang)");
  for (const auto& w : h.warns) f.emplace("STATES-6", w);
  for (const auto& s : h.sanitizer) f.emplace("STATES-6", s);
  if (h.crashed || h.hung) return f;
  const long long queries = h.field("queries"), max = h.field("max");
  const bool ran = queries > 0, expected = fixup_expected(in);
  if (ran != expected)
    f.emplace("STATES-6",
              std::string(ran ? "the CEDE(0) fix-up ran (" + std::to_string(queries) +
                                    " firmware quer" + (queries == 1 ? "y" : "ies") + ")"
                              : "the CEDE(0) fix-up did not run") +
                  "; the spec: " +
                  (expected ? "it runs here (ISA 3.1 or a POWER10 PVR, dedicated)"
                            : "it does not run here"));
  if (max > static_cast<long long>(states::kCpuidleStateMax))
    f.emplace("STATES-5", "max_idle_state = " + std::to_string(max) +
                              ", more than CPUIDLE_STATE_MAX (" +
                              std::to_string(states::kCpuidleStateMax) + ")");
  long long prev_exit = -1, prev_res = -1;
  for (const auto& l : h.lines) {
    unsigned i = 0, exit = 0, res = 0;
    if (std::sscanf(l.c_str(), "ST %u %u %u", &i, &exit, &res) != 3) continue;
    const std::string table =
        h.result.find("table=shared") != std::string::npos ? "shared" : "dedicated";
    if (static_cast<long long>(exit) < prev_exit)
      f.emplace("STATES-1", "the " + table + " table's state " + std::to_string(i) + " exits in " +
                                std::to_string(exit) + " µs, state " + std::to_string(i - 1) +
                                " in " + std::to_string(prev_exit) + " µs");
    if (static_cast<long long>(res) < prev_res)
      f.emplace("STATES-2", "the " + table + " table's state " + std::to_string(i) +
                                " has target residency " + std::to_string(res) + " µs, state " +
                                std::to_string(i - 1) + " " + std::to_string(prev_res) + " µs");
    prev_exit = exit, prev_res = res;
  }
  judge_snooze(in, h, max, f);
  return f;
}

// The probe's clauses, on a target whose functions are just the probe.
Part check_probe(const Options& opt, const Component& component, const Target& target) {
  const auto t0 = std::chrono::steady_clock::now();
  Part part;
  HarnessBuild hb;
  int line = 0;
  if (prepare_part(opt, component, target, "states_env.h", "harness_probe.c",
                   "-DHAVE_PSERIES_IDLE_PROBE", "CANDIDATE_STATES", part, hb, line)) {
    InputChecker<ProbeInput> c;
    c.start = t0;  // the budget is the part's
    c.line = [](const ProbeInput& in) {
      std::string st;
      for (size_t i = 0; i < in.statuses.size(); ++i)
        st += (i ? "," : "") + std::to_string(in.statuses[i]);
      return std::to_string(in.pvr) + "," + std::to_string(in.mode) + "," +
             std::to_string(in.shared) + "," + std::to_string(in.splpar) + "," +
             std::to_string(in.disabled) + " " + st + " " + payload_hex(in.payload);
    };
    c.judge = judge_probe;
    c.shrink = [](const ProbeInput&) { return std::vector<ProbeInput>{}; };  // already minimal
    c.describe = describe_probe;
    c.weight = [](const ProbeInput& in) { return static_cast<size_t>(in.pvr * 8 + in.mode); };
    c.reproducible = [](const ProbeInput&) { return true; };  // a fixed list
    const std::vector<ProbeInput> inputs = probe_inputs();
    part.notes.push_back(
        "probe: every processor (POWER8..11) in every architected mode, shared "
        "and dedicated, with and without SPLPAR and cpuidle, four firmware "
        "answers (the last a record of the largest latency cpuidle keeps, for the snooze "
        "timeout): " +
        std::to_string(inputs.size()) + " platforms x answers");
    check_inputs(opt, hb, component, target, line, inputs, c, part);
  }
  finish_part(opt, part, t0);
  return part;
}

// STATES-6 is about the CEDE(0) fix-up: text without one (the XCEDE parser
// alone, as before d947fb4c965c, whose probe queries the firmware for the
// parser's sake) has nothing the clause gates, so it is `absent` there; a
// firmware query is read as the fix-up running only in text that has one.
void judge_states6_where_fixup_runs(const Target& target, Part& part) {
  const std::vector<std::string> fixup = {"fixup_cede0_latency"};
  const Extraction ex = extract(target.text, fixup, target.path);
  if (ex.functions.empty() || ex.functions.front().found) return;
  for (auto& v : part.clauses) {
    if (v.id != "STATES-6" || v.status == "error") continue;
    v.status = "absent";
    v.counterexamples.clear();
    v.failing_inputs.clear();
    v.replay.clear();
    v.note =
        "the text has no CEDE(0) fix-up (fixup_cede0_latency()): STATES-6 is judged where one "
        "runs; the probe's firmware queries here are the XCEDE parser's";
  }
}

// The component restricted to the clauses of one function; the probe's
// adds STATES-4 for the snooze timeout it computes (judge_snooze), folded
// into the fix-up's STATES-4 by fold_snooze().
Component only(const Component& component, const std::string& fn) {
  Component c = component;
  c.functions = {fn};
  std::erase_if(c.clauses, [&](const auto& clause) { return clause.second != fn; });
  if (fn == "pseries_idle_probe") c.clauses.emplace_back("STATES-4", fn);
  return c;
}

// One STATES-4 verdict of the fix-up's (the exact CEDE values) and the
// probe's (the snooze timeout): the probe's failure fails the clause (its
// counterexamples after the fix-up's), a probe run that could not judge the
// timeout (error, unknown, uncovered) keeps a held clause from saying held,
// and a text without the fix-up has the probe's verdict alone. A probe
// without a CEDE state to time (absent, n/a) leaves the fix-up's as it is.
void fold_snooze(Part& part) {
  auto at = [&](const std::string& fn) {
    return std::find_if(part.clauses.begin(), part.clauses.end(), [&](const ClauseVerdict& v) {
      return v.id == "STATES-4" && v.function == fn;
    });
  };
  const auto probe = at("pseries_idle_probe");
  if (probe == part.clauses.end()) return;
  ClauseVerdict p = std::move(*probe);
  part.clauses.erase(probe);
  const auto fix = at("fixup_cede0_latency");
  if (fix == part.clauses.end() || fix->status == "absent") {
    if (p.status == "absent" || p.status == "n/a") return;
    if (fix != part.clauses.end())
      *fix = std::move(p);
    else
      part.clauses.push_back(std::move(p));
    return;
  }
  ClauseVerdict& v = *fix;
  const bool probe_failed = p.status == "failed";
  const bool probe_unjudged =
      p.status == "error" || p.status == "unknown" || p.status == "uncovered";
  if (probe_failed && v.status == "failed") {
    v.counterexamples.insert(v.counterexamples.end(), p.counterexamples.begin(),
                             p.counterexamples.end());
    v.failing_inputs.insert(v.failing_inputs.end(), p.failing_inputs.begin(),
                            p.failing_inputs.end());
    v.coverage += "; the probe's snooze timeout: " + p.coverage;
  } else if (probe_failed || (probe_unjudged && v.status == "held")) {
    const std::string fixup = v.status + (v.coverage.empty() ? "" : " (" + v.coverage + ")");
    v = std::move(p);
    v.note +=
        (v.note.empty() ? "" : "; ") + std::string("the fix-up's exact CEDE values: ") + fixup;
  }
}

Target target_for(const Target& target, const std::string& fn) {
  Target t = target;
  t.functions.clear();
  if (std::find(target.functions.begin(), target.functions.end(), fn) != target.functions.end())
    t.functions = {fn};
  return t;
}

void merge(Part& into, Part&& from) {
  into.functions.insert(into.functions.end(), from.functions.begin(), from.functions.end());
  for (auto& p : from.prelude)
    if (std::find(into.prelude.begin(), into.prelude.end(), p) == into.prelude.end())
      into.prelude.push_back(p);
  into.clauses.insert(into.clauses.end(), from.clauses.begin(), from.clauses.end());
  into.runs.insert(into.runs.end(), from.runs.begin(), from.runs.end());
  into.notes.insert(into.notes.end(), from.notes.begin(), from.notes.end());
  if (!from.build_error.empty())
    into.build_error += (into.build_error.empty() ? "" : "\n") + from.build_error;
  if (into.temp_dir.empty())
    into.temp_dir = from.temp_dir;
  else if (!from.temp_dir.empty())
    into.notes.push_back("the probe's harness files kept in " + from.temp_dir);
}

Part check_fixup(const Options& opt, const Component& component, const Target& target) {
  const auto t0 = std::chrono::steady_clock::now();
  Part part;
  HarnessBuild hb;
  int line = 0;
  if (prepare_part(opt, component, target, "states_env.h", "harness_states.c",
                   "-DHAVE_FIXUP_CEDE0_LATENCY", "CANDIDATE_STATES", part, hb, line,
                   /*fuzz=*/true)) {
    part.notes.push_back(
        "states: CEDE(0) fix-up on a dedicated POWER10 LPAR at 512 MHz (STATES-6 is judged on "
        "pseries_idle_probe); KD-1: the reference with the kernel's tb_to_ns() conversion is "
        "accepted too");
    InputChecker<Input> c;
    c.start = t0;  // the budget is the part's
    c.line = [](const Input& in) { return "0 " + payload_hex(payload(in)); };
    c.judge = judge;
    c.shrink = shrink_candidates;
    c.describe = describe;
    c.weight = [](const Input& in) { return in.records.size(); };
    c.shrink_rounds = 200;
    // Z3's inputs at the edges of the fix-up model's branches first.
    const Boundaries z = opt.inputs.count("z3") ? states_boundaries(kTbHz) : Boundaries{};
    if (opt.inputs.count("z3")) part.notes.push_back(z.summary());
    std::vector<Input> inputs;
    for (const auto& b : z.inputs) {
      Input x;
      for (size_t i = 0; i < b.ticks.size(); ++i)
        x.records.push_back({static_cast<uint8_t>(i + 1), b.ticks[i], 1});
      x.origin = "Z3 " + b.branch;
      inputs.push_back(std::move(x));
    }
    // The campaign starts from Z3's inputs (its entry takes record bytes);
    // what it keeps is judged as well.
    std::vector<Bytes> seeds;
    for (const auto& x : inputs) {
      const Bytes p = payload(x);  // header (3 bytes), records, NUL
      seeds.push_back(Bytes(p.begin() + 3, p.end() - 1));
    }
    const FuzzCorpus fc = run_fuzz_campaign(opt, hb, part.temp_dir, seeds, 1500, t0);
    if (!fc.summary.empty()) part.notes.push_back(fc.summary);
    for (size_t i = 0; i < fc.inputs.size(); ++i) {
      const Bytes& b = fc.inputs[i];
      Input x;
      for (size_t r = 0; r + 10 <= b.size() && x.records.size() < kMaxRecords; r += 10) {
        uint64_t ticks = 0;
        for (size_t k = 1; k <= 8; ++k) ticks = ticks << 8 | b[r + k];
        x.records.push_back({b[r], ticks, b[r + 9]});
      }
      x.origin = fc.artifact[i] ? "libFuzzer artifact" : "libFuzzer corpus";
      x.reproducible = false;
      inputs.push_back(std::move(x));
    }
    if (opt.inputs.count("generated"))
      for (auto& x : make_inputs(opt.seed)) inputs.push_back(std::move(x));
    const size_t drawn = inputs.size();
    add_property_inputs(opt, hb, property_gen(), c, part, inputs);
    for (size_t i = drawn; i < inputs.size(); ++i) inputs[i].reproducible = false;
    c.reproducible = [](const Input& in) { return in.reproducible; };
    check_inputs(opt, hb, component, target, line, inputs, c, part);
  }
  finish_part(opt, part, t0);
  return part;
}

}  // namespace

Part check_states(const Options& opt, const Target& target) {
  const auto t0 = std::chrono::steady_clock::now();
  const Component& component = *find_component("states");
  Part part;
  part.component = component.name;
  part.file = target.display;
  for (const std::string fn : {"fixup_cede0_latency", "pseries_idle_probe"}) {
    const Target t = target_for(target, fn);
    if (t.functions.empty()) continue;
    // A candidate library implements no probe (candidate ABI v1).
    if (fn == std::string("pseries_idle_probe") && !target.candidate.empty()) continue;
    Part p = fn == std::string("fixup_cede0_latency") ? check_fixup(opt, only(component, fn), t)
                                                      : check_probe(opt, only(component, fn), t);
    if (fn == std::string("pseries_idle_probe")) judge_states6_where_fixup_runs(target, p);
    merge(part, std::move(p));
  }
  fold_snooze(part);
  part.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return part;
}

}  // namespace idlespec::validate
