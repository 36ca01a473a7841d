#include "properties/busy_delay_properties.h"

#include <algorithm>

namespace idlespec::props {
namespace {

using namespace busy_delay::oracle;

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string show_sequence(const std::vector<uint32_t>& statuses) {
  std::string out = "[";
  for (size_t i = 0; i < statuses.size(); ++i) {
    out += (i ? ", " : "") + show_rtas_status(statuses[i]);
  }
  return out + "]";
}

}  // namespace

std::string show_rtas_status(uint32_t status) {
  const auto s = static_cast<int32_t>(status);
  if (s >= -0x10000 && s <= 0x10000) return std::to_string(s);
  return strprintf("0x%08x", status);
}

void showValue(const StatusCase& c, std::ostream& os) {
  os << show_status(c.status) << ", need_resched " << (c.need_resched ? "true" : "false") << ", "
     << c.form;
}

void showValue(const LoopCase& c, std::ostream& os) {
  os << "RTAS statuses " << show_sequence(c.statuses) << ", need_resched "
     << (c.need_resched ? "true" : "false") << ", " << c.form;
}

size_t EarlySequence::length() const {
  size_t n = 0;
  for (const StatusRun& r : runs) n += r.repeat;
  return n;
}

void showValue(const EarlySequence& s, std::ostream& os) {
  os << "runs [";
  for (size_t i = 0; i < s.runs.size(); ++i) {
    os << (i ? ", " : "") << s.runs[i].repeat << " x " << show_rtas_status(s.runs[i].status);
  }
  os << "] (" << s.length() << " statuses)";
}

namespace gen {

rc::Gen<uint32_t> busy_delay_status() {
  return rc::gen::weightedOneOf<uint32_t>({
      {3, rc::gen::just(kSpecBusy)},
      {6, uniform_in<uint32_t>(9898, 9908)},
      {1, rc::gen::just(uint32_t{0})},
      {2, rc::gen::map(uniform_in<int32_t>(-64, 0),
                       [](int32_t s) { return static_cast<uint32_t>(s); })},
      {2, rc::gen::arbitrary<uint32_t>()},
      {2, rc::gen::map(uniform_in<uint64_t>(0, uint64_t{1} << 32),
                       [](uint64_t s) { return static_cast<uint32_t>(s); })},
  });
}

rc::Gen<uint32_t> final_status() {
  return rc::gen::suchThat(
      rc::gen::weightedOneOf<uint32_t>(
          {{3, rc::gen::element<uint32_t>(0, 1, 9899, 9906, 0xffffffffu, 0xfffffffdu, 0x80000000u)},
           {1, rc::gen::arbitrary<uint32_t>()}}),
      [](uint32_t s) { return classify(s) == StatusClass::other; });
}

rc::Gen<std::vector<uint32_t>> loop_statuses() {
  // Extended statuses shrink towards 9905, the longest hint.
  const auto one = rc::gen::weightedOneOf<uint32_t>({
      {3, rc::gen::just(kSpecBusy)},
      {6, rc::gen::map(uniform_in<uint32_t>(0, 6), [](uint32_t n) { return 9905 - n; })},
      {1, final_status()},
  });
  return rc::gen::mapcat(rc::gen::inRange<size_t>(0, 25), [one](size_t n) {
    return rc::gen::container<std::vector<uint32_t>>(n, one);
  });
}

rc::Gen<EarlySequence> early_sequence() {
  const auto extended = uniform_in<uint32_t>(kSpecExtendedFirst, kSpecExtendedLast + 1);
  const auto run = rc::gen::weightedOneOf<StatusRun>({
      // Long enough to reach the give-up (the 1001st) from either side.
      {3, rc::gen::build<StatusRun>(
              rc::gen::set(&StatusRun::status, extended),
              rc::gen::set(&StatusRun::repeat, uniform_in<uint32_t>(990, 1011)))},
      {3, rc::gen::build<StatusRun>(
              rc::gen::set(&StatusRun::status, extended),
              rc::gen::set(&StatusRun::repeat, rc::gen::inRange<uint32_t>(1, 6)))},
      {2, rc::gen::build<StatusRun>(
              rc::gen::set(&StatusRun::status, rc::gen::just(kSpecBusy)),
              rc::gen::set(&StatusRun::repeat, rc::gen::inRange<uint32_t>(1, 4)))},
      {2, rc::gen::build<StatusRun>(rc::gen::set(&StatusRun::status, final_status()),
                                    rc::gen::set(&StatusRun::repeat, rc::gen::just(1u)))},
  });
  return rc::gen::mapcat(uniform_in<size_t>(1, 13), [run](size_t n) {
    return rc::gen::map(rc::gen::container<std::vector<StatusRun>>(n, run),
                        [](std::vector<StatusRun> runs) { return EarlySequence{std::move(runs)}; });
  });
}

}  // namespace gen

verify::CheckResult run_per_clause(std::string_view name, std::string_view subject,
                                   const std::vector<std::string>& clauses,
                                   const verify::RunOptions& options,
                                   const std::function<PropertyBody(unsigned clause)>& body) {
  verify::RunOptions each = options;
  each.budget_seconds = options.budget_seconds / std::max<size_t>(1, clauses.size());
  std::vector<std::string> passed;
  std::vector<std::string> failed;
  std::vector<std::string> unknown;
  std::vector<std::string> examples;
  verify::CheckResult merged;
  for (const std::string& clause : clauses) {
    const unsigned bit = clause_mask({clause});
    verify::CheckResult r = run_property(name, subject, {clause}, each, body(bit));
    switch (r.outcome) {
      case verify::Outcome::pass:
        passed.push_back(clause);
        break;
      case verify::Outcome::fail:
        merged.violated.insert(clause);
        failed.push_back(r.detail);
        examples.push_back(clause + ": " + r.counterexample);
        merged.replay = r.replay;
        break;
      case verify::Outcome::unknown:
        unknown.push_back(clause + ": " + r.detail);
        break;
    }
  }
  std::vector<std::string> parts;
  if (!failed.empty()) parts.push_back(join(failed, " || "));
  if (!unknown.empty()) parts.push_back("not decided: " + join(unknown, "; "));
  if (!passed.empty()) {
    parts.push_back(strprintf("%s: %d random cases each passed (seed %llu)",
                              join(passed, ", ").c_str(), options.property_cases,
                              static_cast<unsigned long long>(options.seed)));
  }
  merged.detail = join(parts, "; ");
  merged.counterexample = join(examples, " | ");
  // A clause that neither passed nor failed would read as held beside a
  // failing one: the whole verdict is then unknown.
  merged.outcome = !unknown.empty()  ? verify::Outcome::unknown
                   : !failed.empty() ? verify::Outcome::fail
                                     : verify::Outcome::pass;
  if (merged.outcome == verify::Outcome::unknown) merged.violated.clear();
  return merged;
}

void check_loop(const LoopCase& c, const busy_delay::LoopTrace& t) {
  // The driver's own bookkeeping: each call saw the status the firmware answered.
  for (size_t i = 0; i < t.calls.size() && i < c.statuses.size(); ++i) {
    if (t.calls[i].status != c.statuses[i]) {
      RC_FAIL(strprintf("BUSY-6: call %zu saw status %s, the firmware answered %s", i + 1,
                        show_rtas_status(t.calls[i].status).c_str(),
                        show_rtas_status(c.statuses[i]).c_str()));
    }
  }
  std::vector<busy_delay::oracle::Call> calls;
  for (const busy_delay::LoopCall& call : t.calls) calls.push_back({call.status, call.request});
  busy_delay::oracle::Collector out;
  busy_delay::oracle::judge_runtime_loop(calls, 1, 1, 0, out);
  if (!out.violations().empty()) {
    const auto& v = out.violations().front();
    RC_FAIL(v.clause + ": " + v.message);
  }
}

void check_early(const std::vector<busy_delay::oracle::Call>& calls) {
  busy_delay::oracle::Collector out;
  busy_delay::oracle::judge_early_calls(calls, 0, out);
  if (!out.violations().empty()) {
    const auto& v = out.violations().front();
    RC_FAIL(v.clause + ": " + v.message);
  }
}

verify::CheckResult run_busy_delay_property(std::string_view name, std::string_view subject,
                                            const verify::RunOptions& options) {
  using busy_delay::EarlyPolicy;
  using busy_delay::LegacyPolicy;
  using busy_delay::ReferenceFsleepPolicy;
  using busy_delay::ReferencePolicy;
  verify::CheckResult none;
  none.detail = std::string(name) + " has no subject named '" + std::string(subject) + "'";
  if (name == "busy_delay_single_status") {
    // The clauses whose "- Subjects:" line names the subject.
    if (subject == "reference") {
      return run_single_status<ReferencePolicy, ReferenceFsleepPolicy>(
          subject, {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-5"}, options);
    }
    if (subject == "legacy") {
      return run_single_status<LegacyPolicy>(subject, {"BUSY-1", "BUSY-2", "BUSY-3"}, options);
    }
    return none;
  }
  if (name == "busy_delay_loop_bounded") {
    if (subject == "reference") {
      return run_loop_bounded<ReferencePolicy, ReferenceFsleepPolicy>(subject, options);
    }
    if (subject == "legacy") return run_loop_bounded<LegacyPolicy>(subject, options);
    return none;
  }
  if (name == "busy_delay_early_sequence") {
    if (subject == "early") return run_early_sequence<EarlyPolicy>(subject, options);
    return none;
  }
  none.detail = "the busy_delay properties have no check named '" + std::string(name) + "'";
  return none;
}

}  // namespace idlespec::props
