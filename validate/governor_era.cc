// menu.c's era read from its text: the extraction and -D flags the harness
// and the Frama-C unit are built from, what the era changes in the inputs,
// the shrinking and the verdict, and what the report says of it.
#include <algorithm>
#include <regex>

#include "validate/governor_run.h"

namespace idlespec::validate {
namespace menu {
namespace {

// The inputs of a governor in microseconds (next_timer_us, v5.6 and before)
// in its own units: every time a whole number of microseconds, so that the
// harness's division by 1000 loses nothing (a limit of 1 ns is 0 us, and the
// judge must see the 0 the file sees); the sleep length within an unsigned
// int of microseconds and never negative (the era's ktime_to_us() into an
// unsigned int does not clamp); the limit within an int; HZ whose tick is a
// whole number of microseconds.
void in_microseconds(std::vector<Input>& inputs) {
  auto us = [](uint64_t v) { return v / 1000 * 1000; };
  auto time = [&](uint64_t v) { return v > kS64Max ? 0 : us(std::min(v, kRangeNs - 1)); };
  for (Input& in : inputs) {
    if (in.hz == 300) in.hz = 250;
    for (auto& e : in.table) {
      e.exit_latency_ns = us(std::min(e.exit_latency_ns, kRangeNs - 1));
      e.target_residency_ns = us(std::min(e.target_residency_ns, kRangeNs - 1));
    }
    for (Step& x : in.steps) {
      x.latency_req = us(std::min(x.latency_req, kNoLimitNs));
      x.sleep = time(x.sleep);
      x.dtick = time(x.dtick);
      x.residency = time(x.residency);
    }
  }
}

// The inputs of a governor from before v4.17's idle loop rework
// (menu_select(drv, dev): no stop_tick), when the idle loop stopped the tick
// before it asked the governor: every step with the tick stopped and the
// time to the next event the sleep length (the tick no longer bounds it).
// Inputs with the tick running describe a kernel that did not exist then.
void tick_stopped_first(std::vector<Input>& inputs) {
  for (Input& in : inputs) {
    in.may_decline = true;
    for (Step& x : in.steps) {
      x.stopped = true;
      x.dtick = x.sleep;
    }
  }
}

}  // namespace

// two-parameter form of before v4.17.
bool select_without_stop_tick(const std::string& code) {
  static const std::regex two(
      R"(\bmenu_select\s*\(\s*struct\s+cpuidle_driver\s*\*\s*\w+\s*,\s*struct\s+cpuidle_device\s*\*\s*\w+\s*\))");
  return std::regex_search(code, two);
}

const std::set<std::string> kDisabledState0Era = {"GOV-1", "GOV-2", "GOV-3", "GOV-9"};

MenuEra read_era(const Extraction& ex, const std::vector<std::string>& defs) {
  MenuEra era;
  era.us = ex.code.find("next_timer_us") != std::string::npos;
  era.tick_stopped = std::find(defs.begin(), defs.end(), "-DMENU_SELECT_STOP_TICK") == defs.end();
  // menu_update() of before v3.16 stores the period it read from the core
  // (`last_idle_us`) in the ring, and learns the factor from another
  // duration: GOV-8 judges that ring by the era's meaning.
  static const std::regex ring_residency_era(R"(intervals\s*\[[^\]]*\]\s*=\s*last_idle_us\s*;)");
  era.ring_holds_residency = std::regex_search(ex.code, ring_residency_era);
  // spec/governor.md, the "- Era v4.4-v4.12:" lines of GOV-1, -2, -3 and
  // -9: menu_select() of that era (9c4b2867ed7c, v4.5-rc1 and 4.4.y, to
  // v4.13) takes CPUIDLE_DRIVER_STATE_START (0 without a polling state at
  // the front) as the fall-back and walks from the state after it, so a
  // disabled state 0 is returned when no deeper state fits. Recognised by
  // the text's shape (the fall-back assigned from CPUIDLE_DRIVER_STATE_START)
  // and by the failure: the clause's shrunk counterexample is a choice of a
  // disabled state 0, and every input failing the clause also fails GOV-1
  // that way (the oracle's finding: "state 0 is disabled").
  static const std::regex era_v44_fallback(R"(=\s*CPUIDLE_DRIVER_STATE_START\s*;)");
  era.v44_fallback = std::regex_search(ex.code, era_v44_fallback);
  return era;
}

void era_inputs(const MenuEra& era, std::vector<Input>& inputs) {
  if (era.us) in_microseconds(inputs);
  if (era.tick_stopped) tick_stopped_first(inputs);
}

void era_candidates(const MenuEra& era, const Input& in, std::vector<Input>& cand) {
  // The era's constraints hold for every candidate too (the shrinker's
  // plainer step has the tick running).
  if (era.tick_stopped) {
    tick_stopped_first(cand);
    std::erase_if(cand, [&](const Input& x) { return input_line(0, x) == input_line(0, in); });
  }
}

std::vector<std::string> era_notes(const MenuEra& era) {
  std::vector<std::string> notes;
  if (era.us)
    notes.push_back(
        "struct menu_device keeps next_timer_us: the governor of v5.6 and before, in "
        "microseconds: the inputs are stated in whole microseconds (limit, latencies, "
        "residencies, times below 2^40 ns, no negative sleep length; HZ 100, 250 or 1000, where "
        "TICK_USEC is TICK_NSEC in us), so that the file's view and the judge's are the same "
        "numbers; menu_update() is recomputed in us");
  if (era.ring_holds_residency)
    notes.push_back(
        "menu_update() stores last_idle_us, the period as the core measured it, in the ring: "
        "the ring of before v3.16; GOV-8 is judged by that era's meaning (the slot holds the "
        "measured residency in us; spec/governor.md, GOV-8)");
  if (era.tick_stopped)
    notes.push_back(
        "menu_select(drv, dev) without stop_tick: the governor of before v4.17, when the idle "
        "loop stopped the tick before asking it; every input has the tick stopped and the next "
        "event at the sleep length, and the file's stop_tick is reported as true (it had no say)");
  return notes;
}

bool disabled_state0_era(const MenuEra& era, const ClauseFindings& findings,
                         const std::vector<std::pair<size_t, std::string>>& list,
                         const Input& small, const std::string& text) {
  if (!era.v44_fallback || small.table.empty() || !small.table[0].disabled) return false;
  if (text.find("the file chose idx=0 ") == std::string::npos) return false;
  const auto g1 = findings.find("GOV-1");
  if (g1 == findings.end()) return false;
  return std::all_of(list.begin(), list.end(), [&](const auto& f) {
    return std::any_of(g1->second.begin(), g1->second.end(), [&](const auto& x) {
      return x.first == f.first && x.second.find("the file chose idx=0 ") != std::string::npos &&
             x.second.find("state 0 is disabled") != std::string::npos;
    });
  });
}

}  // namespace menu

// The extraction the harness and the Frama-C unit are built from:
// menu_select() and menu_update() with menu_reflect() and
// get_typical_interval() asked for by name, and the per-CPU menu_devices
// the extractor does not take for a definition.
Extraction governor_extraction(const Target& target) {
  std::vector<std::string> wanted = target.functions;
  wanted.push_back("menu_reflect");
  wanted.push_back("get_typical_interval");
  Extraction ex = extract(target.text, wanted, target.path);
  add_per_cpu(target, ex, "menu_devices");
  return ex;
}

// The file's era as -D flags, for the harness (whose _Generic reads the
// signatures itself) and the Frama-C unit (which cannot parse _Generic):
// HAVE_MENU_SELECT, HAVE_MENU_REFLECT, HAVE_TYPICAL_INTERVAL where the
// extraction found them, MENU_NEXT_TIMER_US when struct menu_device keeps
// next_timer_us (v5.6 and before), MENU_SELECT_STOP_TICK when menu_select()
// takes bool *stop_tick (v4.17 on; its own text says).
std::vector<std::string> governor_defines(const Extraction& ex) {
  auto found = [&](const std::string& name) -> const FoundFunction* {
    for (const auto& f : ex.functions)
      if (f.name == name && f.found) return &f;
    return nullptr;
  };
  std::vector<std::string> defs;
  const FoundFunction* select = found("menu_select");
  if (!select) return defs;
  defs.push_back("-DHAVE_MENU_SELECT");
  if (found("menu_reflect")) defs.push_back("-DHAVE_MENU_REFLECT");
  if (found("get_typical_interval")) defs.push_back("-DHAVE_TYPICAL_INTERVAL");
  if (ex.code.find("next_timer_us") != std::string::npos) defs.push_back("-DMENU_NEXT_TIMER_US");
  if (!menu::select_without_stop_tick(select->text)) defs.push_back("-DMENU_SELECT_STOP_TICK");
  return defs;
}

}  // namespace idlespec::validate
