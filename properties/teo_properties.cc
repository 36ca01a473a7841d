#include "properties/teo_properties.h"

#include <algorithm>
#include <sstream>

namespace idlespec::props::teo_props {
namespace {

using gov::gen::uniform_in;

constexpr uint64_t kWideNs = uint64_t{1} << 42;              // the spec's input range
constexpr uint64_t kQosDefaultNs = 2000000000ULL * 1000ULL;  // no PM QoS request, in ns

rc::Gen<uint32_t> metric() {
  return rc::gen::weightedOneOf<uint32_t>({
      {2, rc::gen::just(uint32_t{0})},
      {2, rc::gen::just(teo::kMetricBound)},
      {1, rc::gen::just(teo::kPulse)},
      {5, uniform_in<uint32_t>(0, teo::kMetricBound + 1)},
  });
}

// Per-CPU data anywhere in TEO-6's invariant for a table of n states.
rc::Gen<teo::ConcreteCpu> cpu_in_invariant(size_t n) {
  return rc::gen::exec([n] {
    teo::ConcreteCpu c = teo::fresh_cpu<Concrete>();
    if (*rc::gen::weightedElement<bool>({{1, true}, {5, false}})) return c;  // a fresh CPU
    uint64_t sum = 0;
    for (size_t i = 0; i < n; ++i) {
      c.bins[i].hits = Concrete::lit<32>(*metric());
      c.bins[i].intercepts = Concrete::lit<32>(*metric());
      sum += c.bins[i].hits.v + c.bins[i].intercepts.v;
    }
    const uint64_t top = (2 * n + 2) * uint64_t{teo::kMetricBound};
    const uint64_t extra =
        *rc::gen::weightedOneOf<uint64_t>({{3, rc::gen::just(uint64_t{0})},
                                           {2, rc::gen::just(uint64_t{teo::kPulse})},
                                           {3, uniform_in<uint64_t>(0, top - sum + 1)}});
    c.total = Concrete::lit<32>(sum + extra);
    c.tick_hits = Concrete::lit<32>(*metric());
    c.total_tick = Concrete::lit<32>(*metric());
    c.tick_intercepts = Concrete::lit<32>(*metric());
    c.short_idles = Concrete::lit<32>(*metric());
    c.next_recent_idx = Concrete::lit<32>(*uniform_in<uint32_t>(0, teo::kNrRecent));
    for (auto& slot : c.recent_idx) {
      const bool empty = *rc::gen::weightedElement<bool>({{1, true}, {2, false}});
      slot = Concrete::lit<32>(empty ? teo::kNoIndex : *uniform_in<uint32_t>(0, n));
    }
    for (size_t b = 0; b < n; ++b) {
      uint32_t count = 0;
      for (const auto& slot : c.recent_idx) count += slot.v == b;
      c.bins[b].recent = Concrete::lit<32>(count);
    }
    return c;
  });
}

rc::Gen<Step> step(uint64_t tick_ns) {
  return rc::gen::exec([tick_ns] {
    Step s;
    s.latency_req_ns =
        *rc::gen::weightedOneOf<uint64_t>({{3, rc::gen::just(kQosDefaultNs)},
                                           {1, rc::gen::just(uint64_t{0})},
                                           {4, gov::gen::ns_value(tick_ns, kWideNs, false)}});
    const bool far = *rc::gen::weightedElement<bool>({{1, true}, {2, false}});
    s.sleep_length_ns = *gov::gen::ns_value(tick_ns, kWideNs, far);
    s.tick_stopped = *rc::gen::weightedElement<bool>({{1, true}, {1, false}});
    const bool in_order = *rc::gen::weightedElement<bool>({{9, true}, {1, false}});
    if (!in_order) {
      s.delta_tick_ns = *gov::gen::ns_value(tick_ns, kWideNs, false);
    } else if (s.tick_stopped) {
      s.delta_tick_ns =
          *rc::gen::weightedOneOf<uint64_t>({{3, rc::gen::just(s.sleep_length_ns)},
                                             {1, uniform_in<uint64_t>(0, s.sleep_length_ns + 1)}});
    } else {
      const uint64_t top = std::min(s.sleep_length_ns, tick_ns);
      s.delta_tick_ns = *rc::gen::weightedOneOf<uint64_t>(
          {{2, rc::gen::just(top)}, {3, uniform_in<uint64_t>(0, top + 1)}});
    }
    s.residency_ns =
        *rc::gen::weightedOneOf<uint64_t>({{3, rc::gen::just(s.sleep_length_ns)},
                                           {1, rc::gen::just(tick_ns)},
                                           {4, gov::gen::ns_value(tick_ns, kWideNs, false)}});
    s.got_tick = *rc::gen::weightedElement<bool>({{1, true}, {3, false}});
    s.poll_time_limit = *rc::gen::weightedElement<bool>({{1, true}, {4, false}});
    return s;
  });
}

}  // namespace

teo::ConcreteInputs inputs_of(const Step& s, unsigned hz) {
  teo::ConcreteInputs in;
  in.latency_req_ns = Concrete::lit<64>(s.latency_req_ns);
  in.sleep_length_ns = Concrete::lit<64>(s.sleep_length_ns);
  in.delta_tick_ns = Concrete::lit<64>(s.delta_tick_ns);
  in.tick_stopped = s.tick_stopped;
  in.tick_ns = Concrete::lit<64>(1000000000ULL / hz);
  return in;
}

namespace {

void show_step(const Step& s, std::ostream& os) {
  os << "limit " << s.latency_req_ns << " ns, sleep length " << s.sleep_length_ns
     << " ns, delta_next " << s.delta_tick_ns << " ns, tick "
     << (s.tick_stopped ? "stopped" : "running") << "; then idle " << s.residency_ns << " ns"
     << (s.got_tick ? ", woken by the tick" : "") << (s.poll_time_limit ? ", poll time-out" : "");
}

void show_cpu(const teo::ConcreteCpu& c, size_t n, std::ostream& os) {
  os << "bins (hits/intercepts/recent)";
  for (size_t i = 0; i < n; ++i) {
    os << ' ' << c.bins[i].hits.v << '/' << c.bins[i].intercepts.v << '/' << c.bins[i].recent.v;
  }
  os << ", total " << c.total.v << ", tick_hits " << c.tick_hits.v << ", total_tick "
     << c.total_tick.v << ", tick_intercepts " << c.tick_intercepts.v << ", short_idles "
     << c.short_idles.v;
}

}  // namespace

void showValue(const SelectionCase& c, std::ostream& os) {
  os << "states " << gov::show_table(c.states) << ", HZ " << c.hz << "; ";
  show_cpu(c.cpu, c.states.size(), os);
  os << "; limit " << c.inputs.latency_req_ns.v << " ns, sleep length "
     << c.inputs.sleep_length_ns.v << " ns, delta_next " << c.inputs.delta_tick_ns.v << " ns, tick "
     << (c.inputs.tick_stopped ? "stopped" : "running");
}

void showValue(const SequenceCase& c, std::ostream& os) {
  os << "states " << gov::show_table(c.states) << ", HZ " << c.hz << ", from a fresh CPU:";
  for (size_t k = 0; k < c.steps.size(); ++k) {
    os << " [" << k << "] ";
    show_step(c.steps[k], os);
  }
}

namespace gen {

rc::Gen<SelectionCase> selection_case() {
  return rc::gen::exec([] {
    SelectionCase c;
    c.hz = *gov::gen::hz();
    const uint64_t tick = 1000000000ULL / c.hz;
    const bool wide = *rc::gen::weightedElement<bool>({{1, true}, {3, false}});
    c.states = *gov::gen::table(tick, false, wide ? gov::kKernelRange : gov::kSequenceRange);
    c.cpu = *cpu_in_invariant(c.states.size());
    c.inputs = inputs_of(*step(tick), c.hz);
    return c;
  });
}

rc::Gen<SequenceCase> sequence_case() {
  return rc::gen::exec([] {
    SequenceCase c;
    c.hz = *gov::gen::hz();
    const uint64_t tick = 1000000000ULL / c.hz;
    c.states = *gov::gen::table(tick, false, gov::kSequenceRange);
    const size_t k = *uniform_in<size_t>(1, 41);
    for (size_t i = 0; i < k; ++i) c.steps.push_back(*step(tick));
    return c;
  });
}

}  // namespace gen

std::string show_choice(const teo::ConcreteChoice& c) {
  return "state " + std::to_string(c.idx.v) + (c.stop_tick ? ", stop the tick" : ", keep the tick");
}

std::string failure_of(const teo::oracle::Violations& v, const std::string& clause) {
  for (const teo::oracle::Violation& x : v) {
    if (x.clause == clause) return x.message;
  }
  return "";
}

const std::vector<std::string>& selection_clauses() {
  static const std::vector<std::string> c = {"TEO-1", "TEO-2", "TEO-3", "TEO-4", "TEO-5"};
  return c;
}

const std::vector<std::string>& sequence_clauses() {
  static const std::vector<std::string> c = {"TEO-1", "TEO-2", "TEO-3", "TEO-4", "TEO-5", "TEO-6"};
  return c;
}

namespace {

template <class S>
verify::CheckResult run_for(std::string_view check, std::string_view subject,
                            const verify::RunOptions& options) {
  if (check == "teo_selection") return run_selection<S>(subject, options);
  return run_wakeup_sequence<S>(subject, options);
}

}  // namespace

verify::CheckResult run_teo_property(std::string_view check, std::string_view subject,
                                     const verify::RunOptions& options) {
  if (subject == teo::V61::name) return run_for<teo::V61>(check, subject, options);
  if (subject == teo::V612::name) return run_for<teo::V612>(check, subject, options);
  if (subject == teo::V619::name) return run_for<teo::V619>(check, subject, options);
  if (subject == teo::V70::name) return run_for<teo::V70>(check, subject, options);
  if (subject == teo::Mainline::name) return run_for<teo::Mainline>(check, subject, options);
  verify::CheckResult unknown;
  unknown.outcome = verify::Outcome::unknown;
  unknown.detail = "property " + std::string(check) + " does not run against subject '" +
                   std::string(subject) + "' (its subjects: v6.1, v6.12, v6.19, v7.0, mainline)";
  return unknown;
}

}  // namespace idlespec::props::teo_props
