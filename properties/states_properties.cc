#include "properties/states_properties.h"

namespace idlespec::props {

std::string show_u128(u128 v) {
  if (v == 0) return "0";
  std::string digits;
  for (; v != 0; v /= 10) digits.insert(digits.begin(), static_cast<char>('0' + int(v % 10)));
  return digits;
}

std::string show_table(const states::Table& t) {
  std::string out;
  for (const states::State& s : t.states) {
    out += (out.empty() ? "" : ", ") + s.name + " " + std::to_string(s.exit_latency_us) + "/" +
           std::to_string(s.target_residency_us);
    if (s.timer_stop) out += " (TIMER_STOP)";
  }
  return out;
}

}  // namespace idlespec::props
