// A part's budget (issue 15): the shares of --budget its stages are given,
// what is left of it, and how a message names it.
#include <algorithm>
#include <chrono>
#include <string>

#include "impl/text.h"
#include "validate/component.h"

namespace idlespec::validate {

double fuzz_seconds(const Options& opt) {
  if (!opt.inputs.count("fuzz")) return 0;
  if (opt.fuzz_seconds >= 0) return opt.fuzz_seconds;
  return std::clamp(opt.budget_seconds / 6, 1.0, 5.0);
}

double property_seconds(const Options& opt) { return std::clamp(opt.budget_seconds / 6, 1.0, 5.0); }

double budget_left(const Options& opt, std::chrono::steady_clock::time_point start) {
  const auto now = std::chrono::steady_clock::now();
  const double left = opt.budget_seconds - std::chrono::duration<double>(now - start).count();
  if (opt.deadline == std::chrono::steady_clock::time_point{}) return left;
  return std::min(left, std::chrono::duration<double>(opt.deadline - now).count());
}

double as_deadline(double left) { return std::max(left, 1e-3); }

std::string budget_words(const Options& opt) {
  const std::string whole =
      "--budget " +
      strprintf("%g", opt.part_budget_seconds > 0 ? opt.part_budget_seconds : opt.budget_seconds) +
      " s";
  if (opt.part_budget_seconds <= 0) return whole;
  const std::string who = (opt.target.empty() ? std::string("the host") : opt.target) + "'s";
  return who + " share (" + strprintf("%.1f", opt.budget_seconds) + " s) of " + whole;
}

double later_shares_seconds(const Options& opt, Stage stage) {
  double shares = property_seconds(opt);  // the runs'
  if (stage < Stage::rapidcheck && opt.inputs.count("rapidcheck")) shares += property_seconds(opt);
  if (stage < Stage::fuzz) shares += fuzz_seconds(opt);  // 0 unless asked for
  return shares;
}

double z3_seconds(const Options& opt, std::chrono::steady_clock::time_point start) {
  return std::max(0.0, budget_left(opt, start) - later_shares_seconds(opt, Stage::z3));
}

}  // namespace idlespec::validate
