// GOV-5 through the walk, observed: see governor_gov5.h and
// spec/governor.md (GOV-5, "Who shows what").
#include "validate/governor_gov5.h"

#include <algorithm>

#include "oracle/governor.h"

namespace idlespec::validate::gov5 {
namespace {

namespace gov = idlespec::governor;
using u128 = unsigned __int128;

std::string u128_text(u128 v) {
  if (v == 0) return "0";
  std::string s;
  for (; v > 0; v /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
  return s;
}

// The timer estimate in ns from a product (time to the next timer times the
// factor) as the file holds it: rounded to whole us in an unsigned int, as
// every menu.c since the nanosecond rework does.
uint64_t timer_ns_of(u128 product) {
  const u128 scale = u128{gov::kResolution} * gov::kDecay * gov::kNsecPerUsec;
  const u128 us = (scale / 2 + product) / scale;
  return static_cast<uint64_t>(static_cast<uint32_t>(us)) * gov::kNsecPerUsec;
}

}  // namespace

std::vector<WrappedPrediction> wrapped_predictions(const PredictionInputs& in) {
  std::vector<WrappedPrediction> out;
  const u128 product = u128{in.next_timer_ns} * in.factor;
  const uint64_t exact_timer = timer_ns_of(product);
  auto with_typicals = [&](const std::string& word, const std::string& overflow,
                           uint64_t timer_ns) {
    for (const auto& [name, t] : in.typicals) {
      const uint64_t typical = uint64_t{t} * gov::kNsecPerUsec;
      const uint64_t exact = std::min(typical, exact_timer);
      const uint64_t wrapped = std::min(typical, timer_ns);
      if (wrapped != exact) out.push_back({word, overflow, exact, wrapped, name});
    }
  };
  if (in.timer) {
    // The product in 32 bits (or the time to the next timer narrowed to 32
    // bits before it: the same residue).
    if (product >> 32)
      with_typicals(
          "the timer estimate's product (time to the next timer x correction factor) "
          "in 32 bits",
          u128_text(product) + " (" + std::to_string(in.next_timer_ns) + " ns x " +
              std::to_string(in.factor) + ") exceeds 2^32",
          timer_ns_of(product & 0xffffffffu));
    // The product in 64 bits: beyond the ranges GOV-5 is stated for, but a
    // wrap all the same.
    if (product >> 64)
      with_typicals("the timer estimate's product in 64 bits", u128_text(product) + " exceeds 2^64",
                    timer_ns_of(static_cast<uint64_t>(product)));
  }
  // The typical interval turned into ns in 32 bits.
  for (const auto& [name, t] : in.typicals) {
    const uint64_t typical = uint64_t{t} * gov::kNsecPerUsec;
    if (t == gov::kUintMax || typical >> 32 == 0) continue;
    const uint64_t narrowed = typical & 0xffffffffu;
    const uint64_t exact = in.timer ? std::min(typical, exact_timer) : typical;
    const uint64_t wrapped = in.timer ? std::min(narrowed, exact_timer) : narrowed;
    if (wrapped != exact)
      out.push_back({"the typical interval in ns in 32 bits",
                     std::to_string(typical) + " ns exceeds 2^32", exact, wrapped, name});
  }
  return out;
}

std::vector<std::pair<std::string, uint64_t>> exact_predictions(const PredictionInputs& in) {
  std::vector<std::pair<std::string, uint64_t>> out;
  const uint64_t exact_timer = timer_ns_of(u128{in.next_timer_ns} * in.factor);
  for (const auto& [name, t] : in.typicals) {
    const uint64_t typical = uint64_t{t} * gov::kNsecPerUsec;
    out.emplace_back(name, in.timer ? std::min(typical, exact_timer) : typical);
  }
  return out;
}

std::string wrap_text(const WrappedPrediction& w, const std::string& walker,
                      const std::string& exact_choice) {
  return "the prediction wrapped: " + w.word + ": " + w.overflow + "; so computed, with the " +
         w.typical + " typical interval, the prediction is " + std::to_string(w.predicted_ns) +
         " ns, and " + walker +
         "'s walk of it gives the file's choice; exact arithmetic predicts " +
         std::to_string(w.exact_ns) + " ns, where the walk gives " + exact_choice;
}

}  // namespace idlespec::validate::gov5
