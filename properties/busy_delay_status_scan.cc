#include "properties/busy_delay_status_scan.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <set>
#include <thread>

#include "impl/text.h"
#include "properties/run_property.h"

namespace idlespec::props {
namespace {

using namespace busy_delay::oracle;

constexpr uint64_t kAllStatuses = uint64_t{1} << 32;

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string show_pass(const ScanPass& p) {
  return p.form + ", need_resched " + (p.need_resched ? "true" : "false");
}

std::string show_pass_clauses(const ScanPass& p) {
  std::vector<std::string> ids;
  for (unsigned i = 0; i < kClauseCount; ++i) {
    if (p.mask & (1u << i)) ids.push_back(clause_id(i).substr(5));
  }
  return show_pass(p) + " (BUSY-" + join(ids, ",") + ")";
}

}  // namespace

std::string_view scan_isa_name(ScanIsa isa) {
  switch (isa) {
    case ScanIsa::baseline:
      return "baseline";
    case ScanIsa::avx2:
      return "avx2";
    case ScanIsa::avx512:
      return "avx512";
  }
  return "?";
}

bool scan_isa_supported(ScanIsa isa) {
  switch (isa) {
    case ScanIsa::baseline:
      return true;
#if IDLESPEC_SCAN_MULTIVERSIONED
    case ScanIsa::avx2:
      return __builtin_cpu_supports("avx2");
    case ScanIsa::avx512:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl");
#else
    default:
      return false;
#endif
  }
  return false;
}

ScanIsa scan_isa() {
  static const ScanIsa chosen = [] {
    constexpr ScanIsa kBestFirst[] = {ScanIsa::avx512, ScanIsa::avx2, ScanIsa::baseline};
    if (const char* want = std::getenv("IDLESPEC_SCAN_ISA")) {
      for (ScanIsa isa : kBestFirst) {
        if (want == scan_isa_name(isa) && scan_isa_supported(isa)) return isa;
      }
    }
    for (ScanIsa isa : kBestFirst) {
      if (scan_isa_supported(isa)) return isa;
    }
    return ScanIsa::baseline;
  }();
  return chosen;
}

void ScanTally::merge(const ScanTally& other) {
  statuses += other.statuses;
  for (unsigned i = 0; i < kClauseCount; ++i) {
    violations[i] += other.violations[i];
    if (other.first[i].found && (!first[i].found || other.first[i].order < first[i].order)) {
      first[i] = other.first[i];
    }
  }
}

void record_violation(ScanTally& t, unsigned violated, uint32_t pass, uint64_t position,
                      uint32_t status, const busy_delay::Request& r, uint32_t delay_time_ms) {
  const uint64_t order = (uint64_t{pass} << 40) | position;
  for (unsigned i = 0; i < kClauseCount; ++i) {
    if (!(violated & (1u << i))) continue;
    ++t.violations[i];
    ScanFinding& f = t.first[i];
    if (!f.found || order < f.order) f = {true, order, pass, status, r, delay_time_ms};
  }
}

std::vector<uint32_t> status_scan_boundaries() {
  std::set<uint32_t> s;
  const auto around = [&](uint32_t centre, uint32_t radius) {
    for (uint32_t d = 0; d <= radius; ++d) {
      s.insert(centre + d);  // modulo 2^32: around 0 and UINT32_MAX both ways
      s.insert(centre - d);
    }
  };
  for (uint32_t centre : {0u, kSpecBusy, 0x80000000u, 0x7fffffffu, 0xffffffffu}) around(centre, 16);
  for (uint32_t e = kSpecExtendedFirst; e <= kSpecExtendedLast; ++e) around(e, 16);
  for (unsigned k = 0; k < 32; ++k) around(uint32_t{1} << k, 1);
  return {s.begin(), s.end()};
}

std::vector<uint32_t> status_scan_statuses(uint64_t seed, size_t n) {
  std::vector<uint32_t> out = status_scan_boundaries();
  std::mt19937_64 rng(seed);
  out.reserve(out.size() + n);
  for (size_t i = 0; i < n; ++i) out.push_back(static_cast<uint32_t>(rng()));
  return out;
}

verify::CheckResult run_status_scan(std::string_view subject, unsigned mask,
                                    const std::vector<ScanPass>& passes,
                                    const verify::RunOptions& options, bool full,
                                    unsigned threads) {
  const auto t0 = std::chrono::steady_clock::now();
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<uint32_t> statuses;
  if (!full) statuses = status_scan_statuses(options.seed);
  const uint64_t per_pass = full ? kAllStatuses : statuses.size();

  std::vector<ScanTally> tallies(threads);
  for (uint32_t pass = 0; pass < passes.size(); ++pass) {
    const ScanPass& p = passes[pass];
    const auto share = [&](unsigned t) {
      const uint64_t begin = per_pass * t / threads;
      const uint64_t end = per_pass * (t + 1) / threads;
      if (full) {
        p.range(begin, end, p.need_resched, pass, tallies[t]);
      } else {
        p.list(std::span<const uint32_t>(statuses).subspan(begin, end - begin), begin,
               p.need_resched, pass, tallies[t]);
      }
    };
    std::vector<std::thread> workers;
    for (unsigned t = 1; t < threads; ++t) workers.emplace_back(share, t);
    share(0);
    for (auto& w : workers) w.join();
  }
  ScanTally all;
  for (const ScanTally& t : tallies) all.merge(t);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::vector<std::string> forms;
  unsigned judged = 0;
  for (const ScanPass& p : passes) {
    forms.push_back(show_pass_clauses(p));
    judged |= p.mask;
  }
  const std::string scope = full ? "every 32-bit status"
                                 : strprintf("%zu boundary statuses and %zu sampled (seed %llu)",
                                             statuses.size() - kStatusScanSample, kStatusScanSample,
                                             static_cast<unsigned long long>(options.seed));
  std::vector<std::string> held;
  std::vector<std::string> broken;
  std::vector<std::string> examples;
  verify::CheckResult r;
  for (unsigned i = 0; i < kClauseCount; ++i) {
    if (!(mask & (1u << i))) continue;
    if (!(judged & (1u << i))) {
      verify::CheckResult unjudged;
      unjudged.detail = "no pass judges " + clause_id(i);
      return unjudged;
    }
    if (all.violations[i] == 0) {
      held.push_back(clause_id(i));
      continue;
    }
    r.violated.insert(clause_id(i));
    broken.push_back(strprintf("%s (%llu cases)", clause_id(i).c_str(),
                               static_cast<unsigned long long>(all.violations[i])));
    const ScanFinding& f = all.first[i];
    std::string got = (1u << i) == kBusy4 ? strprintf("delay time %u ms", f.delay_time_ms)
                                          : busy_delay::describe(f.request);
    examples.push_back(clause_id(i) + ": " + show_status(f.status) + ", " +
                       show_pass(passes[f.pass]) + ": " + got +
                       "; the spec: " + spec_expectation(i, f.status));
  }
  const std::string done =
      strprintf("%s x %zu passes [%s]: %llu cases judged on %u threads in %.1f s", scope.c_str(),
                passes.size(), join(forms, "; ").c_str(),
                static_cast<unsigned long long>(all.statuses), threads, seconds);
  if (r.violated.empty()) {
    r.outcome = verify::Outcome::pass;
    r.detail = done + ": " + join(held, ", ") + " hold";
    return r;
  }
  r.outcome = verify::Outcome::fail;
  r.detail = done + ": violates " + join(broken, ", ") +
             (held.empty() ? "" : "; holds " + join(held, ", "));
  r.counterexample = join(examples, " | ");
  r.replay = replay_command("exhaustive", "busy_delay_status_scan", subject, options);
  return r;
}

verify::CheckResult run_busy_delay_status_scan(std::string_view subject,
                                               const verify::RunOptions& options, bool full) {
  using busy_delay::EarlyPolicy;
  using busy_delay::LegacyPolicy;
  using busy_delay::ReferenceFsleepPolicy;
  using busy_delay::ReferencePolicy;
  // The clauses whose "- Subjects:" line names the subject.
  constexpr unsigned kReference = kBusy1 | kBusy2 | kBusy3 | kBusy4 | kBusy5;
  constexpr unsigned kLegacy = kBusy1 | kBusy2 | kBusy3 | kBusy4;
  constexpr unsigned kEarly = kBusy4;
  // BUSY-4 judges the subject's delay time, a function of the status alone
  // that both forms of the reference (and legacy with need_resched() either
  // way) share: the first pass judges it, the second does not repeat it.
  if (subject == "reference") {
    return run_status_scan(subject, kReference,
                           {scan_pass<ReferencePolicy, kReference>(false),
                            scan_pass<ReferenceFsleepPolicy, kReference & ~kBusy4>(false)},
                           options, full);
  }
  if (subject == "legacy") {
    return run_status_scan(
        subject, kLegacy,
        {scan_pass<LegacyPolicy, kLegacy>(false), scan_pass<LegacyPolicy, kLegacy & ~kBusy4>(true)},
        options, full);
  }
  if (subject == "early") {
    return run_status_scan(subject, kEarly, {scan_pass<EarlyPolicy, kEarly>(false)}, options, full);
  }
  verify::CheckResult unknown;
  unknown.detail = "busy_delay_status_scan has no subject named '" + std::string(subject) + "'";
  return unknown;
}

}  // namespace idlespec::props
