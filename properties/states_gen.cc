#include "properties/states_gen.h"

#include <algorithm>
#include <iterator>

#include "properties/xcede_gen.h"

namespace idlespec::props {

void showValue(const TableInput& in, std::ostream& os) {
  os << platform_name(in.lpar.processor) << " in " << platform_name(in.lpar.compat) << " mode, "
     << (in.lpar.shared_processor ? "shared" : "dedicated") << ", expose "
     << (in.expose_xcede ? "on" : "off") << ", tb " << in.tb_hz << " Hz, records "
     << show_records(in.records);
}

namespace gen {
namespace {

// Ticks for a latency of `us` microseconds at 512 MHz.
constexpr uint64_t us512(uint64_t us) { return us * 512; }

rc::Gen<std::vector<xcede::Record>> arbitrary_records() {
  return rc::gen::exec([] {
    const auto n = *rc::gen::inRange<size_t>(0, 17);
    return *rc::gen::container<std::vector<xcede::Record>>(n, record());
  });
}

// What PAPR promises: hints and latencies increasing, every state waking on
// interrupts. Long ladders overflow CPUIDLE_STATE_MAX when exposed.
rc::Gen<std::vector<xcede::Record>> ordered_ladder() {
  return rc::gen::exec([] {
    const auto n = *rc::gen::inRange<size_t>(6, 17);
    auto ticks =
        *rc::gen::container<std::vector<uint64_t>>(n, rc::gen::inRange<uint64_t>(1, us512(100000)));
    std::sort(ticks.begin(), ticks.end());
    std::vector<xcede::Record> out;
    for (size_t i = 0; i < n; ++i) {
      out.push_back({static_cast<uint8_t>(i + 2), ticks[i], 1});
    }
    return out;
  });
}

// Tables as POWER9 and POWER10 firmware publish them: XCEDE1 at a couple of
// microseconds, deeper hints slower, sometimes a zero placeholder.
rc::Gen<std::vector<xcede::Record>> power_like() {
  return rc::gen::exec([] {
    std::vector<xcede::Record> out;
    if (*rc::gen::arbitrary<bool>()) out.push_back({0, 0, 1});
    out.push_back({1, *rc::gen::element<uint64_t>(us512(2), us512(2) + 1, 512, 513), 1});
    out.push_back(
        {2, *rc::gen::inRange<uint64_t>(us512(5), us512(200)), *rc::gen::element<uint8_t>(0, 1)});
    if (*rc::gen::arbitrary<bool>()) out.push_back({3, us512(5000), 0});
    return out;
  });
}

// An ordered ladder with one record moved elsewhere.
rc::Gen<std::vector<xcede::Record>> one_out_of_place() {
  return rc::gen::exec([] {
    auto out = *ordered_ladder();
    const auto from = *rc::gen::inRange<size_t>(0, out.size());
    const auto to = *rc::gen::inRange<size_t>(0, out.size());
    const xcede::Record moved = out[from];
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(from));
    out.insert(out.begin() + static_cast<std::ptrdiff_t>(to), moved);
    return out;
  });
}

}  // namespace

rc::Gen<Lpar> lpar() {
  return rc::gen::exec([] {
    Lpar l;
    const std::vector<Platform> all(std::begin(kAllPlatforms), std::end(kAllPlatforms));
    l.processor = *rc::gen::elementOf(all);
    std::vector<Platform> modes;
    for (Platform p : all) {
      if (p <= l.processor) modes.push_back(p);
    }
    l.compat = *rc::gen::elementOf(modes);
    l.shared_processor = *rc::gen::weightedElement<bool>({{3, false}, {1, true}});
    return l;
  });
}

rc::Gen<uint64_t> tb_hz() {
  return rc::gen::weightedOneOf<uint64_t>({
      {6, rc::gen::just(uint64_t{states::kDefaultTbHz})},
      {2, rc::gen::element<uint64_t>(1000000, 1000000000, 7372800, 3333333333)},
      {2, rc::gen::resize(100, rc::gen::inRange<uint64_t>(1, kFastestTbHz + 1))},
  });
}

rc::Gen<std::vector<xcede::Record>> firmware_records() {
  return rc::gen::weightedOneOf<std::vector<xcede::Record>>({
      {3, arbitrary_records()},
      {2, ordered_ladder()},
      {2, power_like()},
      {2, one_out_of_place()},
  });
}

rc::Gen<TableInput> table_input() {
  return rc::gen::exec([] {
    TableInput in;
    in.records = *firmware_records();
    in.lpar = *lpar();
    in.expose_xcede = *rc::gen::weightedElement<bool>({{3, true}, {2, false}});
    in.tb_hz = *tb_hz();
    return in;
  });
}

rc::Gen<TableInput> probing_input() {
  return rc::gen::exec([] {
    TableInput in = *table_input();
    // A latency of 1..5000 us at this timebase, never 0 ticks.
    const uint64_t us = *rc::gen::inRange<uint64_t>(1, 5001);
    const unsigned __int128 ticks = (static_cast<unsigned __int128>(us) * in.tb_hz) / 1000000;
    const xcede::Record probe{*hint(), ticks == 0 ? 1 : static_cast<uint64_t>(ticks),
                              *wake_on_irqs()};
    const auto at = *rc::gen::inRange<size_t>(0, in.records.size() + 1);
    in.records.insert(in.records.begin() + static_cast<std::ptrdiff_t>(at), probe);
    return in;
  });
}

}  // namespace gen
}  // namespace idlespec::props
