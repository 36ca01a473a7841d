// The fuzz-replay checks of the six corpora, one row each: which clauses a
// target judges, for which subjects, and how one input is judged for one
// subject (always through the oracle: the target's driver runs the subject
// and oracle/<component> judges it). Registered with verify by
// register_fuzz_replays().
#include <vector>

#include "fuzz/busy_delay_input.h"
#include "fuzz/corpus_replay.h"
#include "fuzz/governor_input.h"
#include "fuzz/idle_core_input.h"
#include "fuzz/teo_input.h"
#include "fuzz/xcede_input.h"
#include "impl/subjects.h"
#include "verify/layers.h"

namespace idlespec::fuzz {
namespace {

namespace bf = busy_delay_fuzz;
namespace gf = governor_fuzz;
namespace icf = idle_core_fuzz;
namespace tf = teo_fuzz;

std::vector<CorpusReplay> replays() {
  std::vector<CorpusReplay> r;
  r.push_back({"xcede_fuzz",
               "xcede",
               {"XCEDE-1", "XCEDE-2", "XCEDE-3", "XCEDE-4", "XCEDE-5"},
               {"reference"},
               "",
               "",
               "",
               [](const std::string&, std::span<const uint8_t> in) {
                 return ReplayJudgement{check_xcede_input<ReferenceSubject>(in)};
               },
               describe_input});
  r.push_back({"states_fuzz",
               "states",
               {"STATES-1", "STATES-2", "STATES-3", "STATES-4", "STATES-5", "STATES-7"},
               {"reference"},
               "",
               "",
               "",
               [](const std::string&, std::span<const uint8_t> in) {
                 return ReplayJudgement{check_states_input<ReferenceSubject>(in)};
               },
               describe_input});
  // The subject overrides each input's choice of policy form; the rest of
  // the config (need_resched, start count, byte order) is kept. Legacy's
  // known BUSY-3 and BUSY-6 violations are reported with any other.
  r.push_back({"busy_delay_fuzz",
               "busy_delay",
               {"BUSY-1", "BUSY-3", "BUSY-6", "BUSY-7"},
               {"reference", "legacy", "early"},
               "IDLESPEC_BUSY_DELAY_SUBJECT",
               "",
               "",
               [](const std::string& subject, std::span<const uint8_t> bytes) {
                 const bf::Input in = bf::parse_input(bytes);
                 ReplayJudgement j;
                 for (const bf::Policy& p : bf::policies_for_subject(subject)) {
                   for (oracle::Violation& v : bf::check(p, in)) {
                     bool seen = false;
                     for (const auto& w : j.violations) seen |= w.clause == v.clause;
                     if (seen) continue;
                     v.input = "replayed as " + subject + "; config " + bf::describe(in.config) +
                               "; statuses " + bf::describe_statuses(in.statuses);
                     j.violations.push_back(std::move(v));
                   }
                 }
                 return j;
               },
               [](std::span<const uint8_t> bytes) {
                 const bf::Input in = bf::parse_input(bytes);
                 return bf::describe(in.config) + "; statuses " +
                        bf::describe_statuses(in.statuses);
               }});
  CorpusReplay governor{
      "governor_fuzz",
      "governor",
      {"GOV-1", "GOV-2", "GOV-3", "GOV-4", "GOV-5", "GOV-7", "GOV-8", "GOV-9"},
      {},
      "IDLESPEC_GOVERNOR_SUBJECT",
      "selections judged",
      "of them in the GOV-5 ranges",
      [](const std::string& subject, std::span<const uint8_t> bytes) {
        const gf::Outcome out = gf::run(*gf::find_subject(subject), gf::parse_input(bytes));
        return ReplayJudgement{out.violations, out.selections, out.gov5_judged};
      },
      [](std::span<const uint8_t> bytes) { return gf::describe(gf::parse_input(bytes)); }};
  for (const gf::Subject& s : gf::all_subjects()) governor.subjects.emplace_back(s.name);
  r.push_back(std::move(governor));
  r.push_back(
      {"idle_core_fuzz",
       "idle_core",
       {"IDLE-3", "IDLE-4", "IDLE-5", "IDLE-6", "IDLE-9"},
       {"reference"},
       "",
       "moves judged by the oracle",
       "",
       [](const std::string&, std::span<const uint8_t> bytes) {
         const icf::Input in = icf::parse_input(bytes);
         const icf::Outcome out = icf::run<idle_core::Reference>(in);
         ReplayJudgement j;
         j.judged = out.rows.size();
         if (!out.ok()) {
           // The schedule as a timeline, after the message.
           j.violations.push_back({out.verdict.clause,
                                   out.verdict.message + "\n" + icf::timeline(in.config, out, 60),
                                   icf::describe(in)});
         }
         return j;
       },
       [](std::span<const uint8_t> bytes) { return icf::describe(icf::parse_input(bytes)); }});
  // The subject overrides each input's choice; every violation is reported,
  // spec/teo.md's acceptances (TEO-1 for every subject, TEO-5 for v6.1) included:
  // verify applies them.
  CorpusReplay teo{
      "teo_fuzz",
      "teo",
      {"TEO-1", "TEO-2", "TEO-3", "TEO-4", "TEO-5", "TEO-6"},
      {},
      "IDLESPEC_TEO_SUBJECT",
      "selections judged",
      "",
      [](const std::string& subject, std::span<const uint8_t> bytes) {
        const tf::Outcome out = tf::run(*tf::find_subject(subject), tf::parse_input(bytes));
        return ReplayJudgement{out.violations, out.selections, 0};
      },
      [](std::span<const uint8_t> bytes) { return tf::describe(tf::parse_input(bytes)); }};
  for (const tf::Subject& s : tf::all_subjects()) teo.subjects.emplace_back(s.name);
  r.push_back(std::move(teo));
  return r;
}

}  // namespace
}  // namespace idlespec::fuzz

namespace idlespec::verify {

void register_fuzz_replays(Registry& r) {
  for (fuzz::CorpusReplay& c : fuzz::replays()) r.add(fuzz::corpus_replay_check(std::move(c)));
}

}  // namespace idlespec::verify
