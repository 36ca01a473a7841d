// Shrinking a failed clause's first counterexample: candidates with fewer
// steps, fewer states, plainer steps and tables, re-run through the harness
// and judged again; the smallest that still fails wins a round.
#include <algorithm>

#include "validate/governor_run.h"

namespace idlespec::validate::menu {
namespace {

// Shrinking candidates: fewer steps, fewer states, plainer steps and tables.
std::vector<Input> shrink_candidates(const Input& in) {
  std::vector<Input> c;
  auto with = [&](auto change) {
    Input x = in;
    change(x);
    if (input_line(0, x) != input_line(0, in)) c.push_back(x);
  };
  const size_t n = in.steps.size();
  // Every shorter prefix (the shrink keeps the smallest that still fails:
  // one round instead of one per step), then each step left out.
  for (size_t k = 1; k < n; ++k) with([&](Input& x) { x.steps.resize(k); });
  for (size_t k = n; k-- > 0;)
    if (n > 1) with([&](Input& x) { x.steps.erase(x.steps.begin() + static_cast<long>(k)); });
  for (size_t i = in.table.size(); i-- > 1;)
    with([&](Input& x) { x.table.erase(x.table.begin() + static_cast<long>(i)); });
  for (size_t i = 0; i < in.table.size(); ++i) with([&](Input& x) { x.table[i].disabled = false; });
  for (size_t k = 0; k < n && c.size() < 160; ++k) {
    with([&](Input& x) { x.steps[k].latency_req = kNoLimitNs; });
    with([&](Input& x) { x.steps[k].got_tick = x.steps[k].poll_limit = false; });
    with([&](Input& x) { x.steps[k].entered = true; });
    with([&](Input& x) { x.steps[k].stopped = false; });
    with([&](Input& x) { x.steps[k].dtick = x.steps[k].sleep; });
    if (k + 1 == n) with([&](Input& x) { x.steps[k].residency = 0; });
  }
  if (in.hz != 1000) with([](Input& x) { x.hz = 1000; });
  return c;
}

}  // namespace

// `keep`: when given, a candidate counts only if it stays what the input
// was to the subjects (failing_like): shared with one of these subjects,
// or (an empty list) shared with none. Shrinking must not turn a failure
// the subjects share into one they do not, nor the reverse.
std::tuple<Input, Outcome, std::string> shrink(const ShrinkRun& run,
                                               const std::vector<Input>& inputs,
                                               const std::string& clause, size_t index,
                                               std::string text,
                                               const std::vector<std::string>* keep) {
  Input in = inputs[index];
  const bool via_san = !run.harness_san.empty() && text.find("San ") != std::string::npos;
  const std::string& harness = via_san ? run.harness_san : run.harness_plain;
  Outcome out =
      via_san && !run.san.outcomes.empty() ? run.san.outcomes[index] : run.plain.outcomes[index];
  for (int round = 0; round < 40; ++round) {
    const double round_left = budget_left(run.opt, run.t0);
    if (round_left <= 1) break;  // no round in the last second, as the input engine
    std::vector<Input> cand = shrink_candidates(in);
    era_candidates(run.era, in, cand);
    if (cand.empty()) break;
    const Batch b = run_inputs(harness, via_san, cand, run.dir,
                               "shrink" + std::to_string(round) + "-", std::min(round_left, 20.0));
    bool progressed = false;
    // The smallest candidate that still fails (the first of equals).
    size_t best_size = ~size_t{0};
    Input best;
    Outcome best_out;
    std::string best_text;
    for (size_t i = 0; i < cand.size(); ++i) {
      Input c = cand[i];
      c.clause = in.clause;
      const size_t size = c.steps.size() * c.table.size();
      if (size >= best_size) continue;
      const Judged jd = judge(c, b.outcomes[i], run.subject, run.era.ring_holds_residency);
      auto it = jd.f.find(clause);
      std::string found;
      if (it != jd.f.end() && (text.find(kFollowsGov5) == std::string::npos ||
                               it->second.find(kFollowsGov5) != std::string::npos))
        found = it->second;
      else if (clause == "GOV-5" && !jd.gov5_walk.empty() &&
               text.find("the prediction wrapped: ") != std::string::npos)
        found = jd.gov5_walk;
      if (!found.empty() && keep) {
        const std::vector<std::string> like = failing_like(c, b.outcomes[i], clause);
        const bool shares = std::any_of(like.begin(), like.end(), [&](const std::string& x) {
          return std::find(keep->begin(), keep->end(), x) != keep->end();
        });
        if (keep->empty() ? !like.empty() : !shares) found.clear();
      }
      if (!found.empty()) best = c, best_out = b.outcomes[i], best_text = found, best_size = size;
    }
    if (best_size != ~size_t{0})
      in = best, out = std::move(best_out), text = best_text, progressed = true;
    if (!progressed) break;
  }
  return std::make_tuple(in, out, text);
}

}  // namespace idlespec::validate::menu
