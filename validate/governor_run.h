// Internal to validate/: what the files of the governor check (menu.c's
// menu_select() and menu_update(), validate/governor_check.cc) share: the
// inputs, the harness's answers, and the steps from one to a verdict.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "fuzz/governor_input.h"
#include "impl/governor.h"
#include "validate/component.h"
#include "validate/cpuidle_run.h"

namespace idlespec::validate::menu {

namespace gov = idlespec::governor;
namespace gf = idlespec::governor_fuzz;
using CState = gov::State<Concrete>;

constexpr uint64_t kNoLimitNs = kCpuidleNoLimitNs;  // S32_MAX us
constexpr uint64_t kS64Max = 0x7fffffffffffffffULL;
constexpr uint64_t kRangeNs = uint64_t{1} << 40;
// The opening of a GOV-8 finding on an update where GOV-5 wrapped: the ring
// holds the wrapped duration.
inline const std::string kFollowsGov5 = "follows from GOV-5 (the update wrapped): ";

// An idle period; `entered` false is an entry the driver rejected.
struct Step : IdleStep {
  bool entered = true;
};

struct Input {
  unsigned hz = 1000;
  std::vector<gov::TableEntry> table;
  std::vector<Step> steps;
  std::string clause = "GOV-7";  // a hang or a WARN fails this one
  // GOV-6: inputs of one family share the table and the last step's inputs;
  // 'l' ones also the steps before it (only the last step's limit differs),
  // 'p' ones differ in the steps before it (what the predictor learned).
  int family = -1;
  char vary = 0;
  // A governor of before v4.4 may answer -1, no state (the core then ran the
  // default idle): the selection is not judged and the input ends there.
  bool may_decline = false;
};

// struct menu_device as the harness printed it.
struct Dev {
  bool ok = false;
  long long ptr = 0;
  uint32_t bucket = 0;
  uint64_t next_timer = 0;
  bool us = false;  // v5.x: next_timer_us
  std::array<uint32_t, gov::kBuckets> f{};
  std::array<uint32_t, gov::kIntervals> iv{};
  uint64_t next_timer_ns() const { return us ? next_timer * 1000 : next_timer; }
};

struct Sel {
  bool ok = false;
  long long idx = 0;
  bool stop = true;
  bool timer = true;  // it asked the tick layer for the time to the next timer
  Dev after;
  long long typical = -1;  // what its get_typical_interval() answers on that ring (-1: not read)
};

struct Outcome {
  bool reported = false, crashed = false, hung = false;
  long long crash_step = -1;
  std::string crash;
  Dev init;
  std::vector<Sel> sels;
  std::vector<std::string> warns, sanitizer;
};

using Batch = HarnessRun<Outcome>;

// --- the inputs (governor_inputs.cc) ---------------------------------------------
std::vector<Input> make_inputs(uint64_t seed);

// --- the harness (governor_harness_run.cc) -------------------------------------------
std::string table_text(const std::vector<gov::TableEntry>& t);
// The harness line of an input with its id, newline-terminated.
std::string input_line(size_t id, const Input& in);
// The harness line of an input, without its id.
std::string line_of(const Input& in);
// Runs `inputs` through `harness` and reads its answers.
Batch run_inputs(const std::string& harness, bool sanitizers, const std::vector<Input>& inputs,
                 const std::string& dir, const std::string& tag, double budget);

// --- the words of findings (governor_describe.cc) ------------------------------------
std::string ns_text(uint64_t v);
std::string describe(const Input& in, long long upto = -1);
std::string range_text(uint64_t lo, uint64_t hi);
// A GOV-6 family member: its eight teaching steps are alike.
std::string describe_member(const Input& in);
std::string choice_text(long long idx, bool stop);

// --- the era (governor_era.cc) -----------------------------------------------------
// What the text's era changes in how it is driven and judged.
struct MenuEra {
  bool us = false;                    // struct menu_device keeps next_timer_us (v5.6 and before)
  bool tick_stopped = false;          // menu_select(drv, dev): before v4.17
  bool ring_holds_residency = false;  // menu_update() stores last_idle_us: before v3.16
  bool v44_fallback = false;          // the fall-back from CPUIDLE_DRIVER_STATE_START: v4.4-v4.12
};
MenuEra read_era(const Extraction& ex, const std::vector<std::string>& defs);
// The inputs in the era's terms.
void era_inputs(const MenuEra& era, std::vector<Input>& inputs);
// The era's constraints on shrinking candidates of `in`.
void era_candidates(const MenuEra& era, const Input& in, std::vector<Input>& cand);
// What the report says of the era (after the inputs are made).
std::vector<std::string> era_notes(const MenuEra& era);
// The clauses a menu.c of v4.4 to v4.12 breaks through the disabled state 0
// it falls back to (spec/governor.md's "- Era v4.4-v4.12:" lines).
extern const std::set<std::string> kDisabledState0Era;
using ClauseFindings = std::map<std::string, std::vector<std::pair<size_t, std::string>>>;
// Whether the failing `list` of a clause (its shrunk counterexample `small`
// with `text`) is the v4.4-v4.12 era's disabled state 0.
bool disabled_state0_era(const MenuEra& era, const ClauseFindings& findings,
                         const std::vector<std::pair<size_t, std::string>>& list,
                         const Input& small, const std::string& text);

// --- the subjects replayed from the file's state (governor_replay.cc) ---------------
struct Ctx {
  gov::History<Concrete> h;  // the file's state before the step, as the model holds it
  gov::Inputs<Concrete> in;
  bool history_ok = true;  // convertible (ns units, buckets 0..5, pointer in the ring)
};
Ctx context(const Input& input, const Outcome& o, size_t k);

// The differential: per subject, the selections whose choice and learned
// state equal the file's, and the first that does not.
struct Diff {
  std::vector<size_t> equal;
  std::vector<std::string> first;  // "" while none diverged
  size_t selections = 0;
};
void differ(const Input& input, const Outcome& o, Diff& d);
// The subject the file matches best (the first of the most matches).
size_t best_subject(const Diff& d);

// What the file's walk started from, as far as its own state after the
// selection shows it: the time to the next timer it recorded, whether it
// asked the tick layer (then the tick delta is the step's, else half a
// tick), and the predictions the known predictors make from its own ring and
// correction factor.
struct WalkBase {
  gov::Prediction<Concrete> p;  // predicted_ns set per candidate
  bool timer = false;
  std::vector<std::pair<std::string, uint64_t>> family;    // predictor -> prediction (ns)
  std::vector<std::pair<std::string, uint32_t>> typicals;  // predictor -> typical interval (us)
  uint64_t subject_ns = 0;                                 // the matched subject's predictor
  uint64_t low = 0, high = ~uint64_t{0};  // what exact arithmetic allows a known predictor
};
WalkBase walk_base(const Input& input, const Sel& s, const Step& x, const gf::Subject& subj);

// The predictions for which the subject's walk gives `idx`/`stop`, as
// maximal ranges [lo, hi] with the walk's own choice (path, adjusted
// prediction) for each. The walk compares the prediction only with target
// residencies, exit latencies and the tick, so between those values (each
// and its successor) it is constant: one walk per value finds every range.
struct Range {
  uint64_t lo, hi;
  gov::Choice<Concrete> walk;
};
std::vector<Range> explaining(const gf::Subject& subj, std::span<const CState> states,
                              const Input& input, gov::Prediction<Concrete> p,
                              const gov::Inputs<Concrete>& in, long long idx, bool stop);
// The file's choice at a selection as the oracle judges it.
gov::Choice<Concrete> file_choice(const Sel& s);
// The subjects that break `clause` as the file does on `input`; whether
// every subject returns state 0 before its walk where the file breaks it;
// the subjects whose menu_update() stores what the file stored at selection
// k (governor_replay.cc says how each is found).
std::vector<std::string> failing_like(const Input& input, const Outcome& o,
                                      const std::string& clause);
bool subjects_return_early(const Input& input, const Outcome& o, const std::string& clause);
std::vector<std::string> storing_like(const Input& input, const Outcome& o, size_t k);

// --- the judge (governor_judge.cc) ---------------------------------------------------
// A selection whose prediction is known (the subject's walk of it gives the
// file's choice): GOV-6's prediction half compares such selections.
struct Known {
  std::string key;  // the walk's inputs besides the prediction
  uint64_t predicted = 0;
  long long idx = 0;
  std::string at;
};

struct Judged {
  std::map<std::string, std::string> f;  // clause -> first finding
  size_t selections = 0, gov5_update = 0, gov5_predict = 0, gov5_typical = 0;
  std::string gov8_accepted;          // the accepted truncation, observed
  long long gov8_accepted_step = -1;  // the selection whose update stored it
  // GOV-3: how each selection's prediction and path were found.
  size_t gov3_exact = 0, gov3_family = 0, gov3_other = 0, gov3_wrapped = 0, gov3_wording = 0;
  size_t gov3_unjudged = 0;
  size_t gov3_beyond = 0;  // beyond GOV-5's ranges, a walk of a prediction outside them
  size_t declined = 0;     // selections that answered -1 (Input::may_decline)
  std::string family_first, other_first;  // the first selection of each kind
  // GOV-5 through the walk: the first divergence only a prediction outside
  // exact arithmetic's range explains, set only when every divergence of the
  // input has some explanation; walk_differs when one has none (the file's
  // walk is not the subject's).
  std::string gov5_walk;
  bool walk_differs = false;
  std::string new_walk;        // the first choice no prediction explains (a walk of its own)
  std::string update_differs;  // menu_update() learns otherwise, without a wrap
  std::vector<Known> known;
  size_t gov8_stored = 0;
};
// One input's outcome judged, the subjects' walks tried in the order the
// matched `subject` first; `ring_holds_residency`: the text's ring is of the
// era before v3.16 (GOV-8's meaning then, oracle/governor.h's UpdateIn).
Judged judge(const Input& input, const Outcome& o, size_t subject, bool ring_holds_residency);

// GOV-6 searched: the counterexamples (at most two of each half) and the
// pairs compared.
struct Gov6 {
  std::vector<std::string> found;
  size_t limit_pairs = 0, prediction_pairs = 0;
};
Gov6 search_gov6(const std::vector<Input>& inputs, const Batch& plain,
                 const std::vector<Known>& known);

// --- shrinking (governor_shrink.cc) ----------------------------------------------------
// What shrinking re-runs candidates with: the era, the harnesses, the
// first runs' outcomes, the part's directory and budget, the subject matched.
struct ShrinkRun {
  const MenuEra& era;
  const std::string& harness_plain;
  const std::string& harness_san;  // empty: no sanitizer build
  const Batch& plain;
  const Batch& san;
  const std::string& dir;
  const Options& opt;
  std::chrono::steady_clock::time_point t0;
  size_t subject;
};
// Clause `clause`'s failing input `index` (finding `text`) shrunk; `keep`
// as governor_shrink.cc says.
std::tuple<Input, Outcome, std::string> shrink(const ShrinkRun& run,
                                               const std::vector<Input>& inputs,
                                               const std::string& clause, size_t index,
                                               std::string text,
                                               const std::vector<std::string>* keep);

// --- notes (governor_notes.cc) -----------------------------------------------------------
// What the plain run's judgements add up to across the inputs.
struct Tally {
  size_t selections = 0, gov5_update = 0, gov5_predict = 0, gov5_typical = 0, gov8_stored = 0;
  size_t g3_exact = 0, g3_family = 0, g3_other = 0, g3_wrapped = 0, g3_wording = 0, g3_unjudged = 0;
  std::string gov8_accepted, family_first, other_first, update_differs;
  size_t gov8_input = 0;
  long long gov8_step = -1;
  std::vector<std::pair<size_t, std::string>> walk_findings;
  std::string new_walk;
  size_t new_walks = 0;
  std::vector<Known> known;
  size_t walk_differs = 0, declined = 0;
};
// Input i's judgement `jd` (of the plain run) counted in.
void tally(Tally& t, Judged& jd, size_t i);
// The differential's note: the subjects equal on every selection, or the
// closest (`subject`) and where it diverges.
std::string differential_note(const Diff& diff, size_t subject);
// The notes the tally gives (walks of its own, declined selections, other
// predictions, menu_update() learning otherwise); `sname` the subject matched.
std::vector<std::string> judged_notes(const Tally& t, const std::string& sname);

}  // namespace idlespec::validate::menu
