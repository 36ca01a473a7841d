// The targets a component's harnesses are built for and run on (issue 37):
// the host, and the two POWER targets the kernel code runs on in fact.
// POWER is where four of the six components' code runs (pseries, RTAS,
// powernv) and where XCEDE's firmware buffer is big-endian; a harness built
// by the host's compiler judges x86-64's reading of it (little-endian,
// plain char signed) only.
//
//   host     the host's C compiler (--cc), ASan+UBSan beside the plain build
//   ppc64    powerpc64-linux-gnu-gcc, big-endian, its default ABI (ELFv1)
//   ppc64le  powerpc64le-linux-gnu-gcc, little-endian, ELFv2
//
// A POWER build is as the kernel compiles it for the target (plain char
// unsigned, -funsigned-char, as the kernel builds every architecture since
// v6.2; the kernel's own code-generation flags as on the host), linked
// -static (no sysroot needed), and run under qemu-user
// (sandbox/emulation.h: the same sandbox and supervisor, the memory limit
// on the emulator's process). Its sanitizer build is UBSan alone: ASan's
// shadow mapping fails under qemu-user, so ASan runs on the host, and every
// report that ran a POWER target says so. There is no libFuzzer campaign on
// a POWER target (clang's libFuzzer runtime is the host's); busy_delay scans
// the sampled statuses there (the 2^32 scans under qemu would take hours).
//
// Each target judges the same inputs with the same oracle; the clause's
// verdict is the worst of its targets' (a clause that fails on any target
// fails), and ClauseVerdict::targets keeps each one.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "validate/validate.h"

namespace idlespec::validate {

struct TargetArch {
  std::string name;                 // host, ppc64, ppc64le
  std::string label;                // "ppc64 (big-endian)"
  std::string cc;                   // the cross compiler ("" the host's: --cc)
  std::string emulator;             // qemu-user's program ("" none)
  std::vector<std::string> cflags;  // besides the host's flags
  std::string libc_package;         // Debian's package of the cross C library ("" none)
};

const std::vector<TargetArch>& target_archs();
const TargetArch* find_target(const std::string& name);
// "host" for "", else the target's label ("ppc64 (big-endian)").
std::string target_label(const std::string& name);

// The set-up line that installs the POWER targets' tools.
constexpr const char* kTargetsSetup = "scripts/setup.sh power";

// Parses --targets' comma-separated list into `out`; "" or why not.
std::string parse_targets(const std::string& list, std::vector<std::string>& out);

// What a target lacks, "" when it can build and run a harness (the host
// always can): its programs ("powerpc64-linux-gnu-gcc, qemu-ppc64"), or,
// with the compiler there, the cross C library a -static harness needs
// ("libc6-dev-ppc64-cross": without it the first libc header is missing).
std::string target_missing(const TargetArch& t);

// The targets `component` runs on under `opt` (--targets, else its
// default: every installed target for xcede, states and busy_delay, the
// host for governor and teo; idle_core only on the host, `why_host_only`
// saying why when more was asked). A target that is asked for or would be
// by default but is not installed is left out and named in `missing`
// (its tools, once per target).
std::vector<std::string> targets_for(const Options& opt, const std::string& component,
                                     std::vector<std::string>& missing, std::string& why_host_only);

// The options of one target's run of a component: its compiler and flags
// (through opt.target, read by build_harness), no libFuzzer campaign on a
// POWER target, busy_delay's sampled scan; `notes` says what was reduced.
Options options_for_target(const Options& opt, const std::string& component,
                           const std::string& target, std::vector<std::string>& notes);

// --budget is a part's (a component on one file), every target's together
// (issue 53): the targets run one after another, in target_run_order(),
// and the i-th to run gets its weight's share of `left_seconds` (what the
// targets before it left of the budget) among the targets still to run:
// the host 2, a POWER target 1 (under the default 30 s with three targets,
// the host 15 s, then each POWER target half of what is left). A target
// that ends early leaves the later ones more; one whose code spends its
// share (a hang, a flood) leaves them theirs. Never below 1 ms (a run_jobs
// deadline of 0 would mean none): a target that starts with the budget
// spent is not judged, and says so.
double target_budget_seconds(const std::vector<std::string>& order, size_t i, double left_seconds);

// The order the targets run in: the host first, then the POWER targets.
// The host does the most (the libFuzzer campaign, ASan, all of
// RapidCheck's cases, busy_delay's 2^32 scans) and what it asks Z3 for
// xcede, once complete, every later target reuses (xcede_boundaries());
// a POWER target's work is bounded (no campaign, a fifth of the cases,
// busy_delay's sampled scan), so it mostly ends within its share.
std::vector<std::string> target_run_order(const std::vector<std::string>& targets);

// The compiler and the extra flags of opt.target's builds; `sanitizer`
// selects the sanitizer build's flags (UBSan alone on a POWER target).
std::string target_cc(const Options& opt);
std::vector<std::string> target_flags(const Options& opt);
bool target_has_asan(const Options& opt);

// One component's parts, one per target in `targets` order (the host's
// first when it ran), into one part: each clause's verdict the worst of its
// targets' with ClauseVerdict::targets filled, counterexamples of a POWER
// target marked with it, runs, notes, escapes and build errors named by
// target. A single part is returned as it is.
Part merge_target_parts(std::vector<std::pair<std::string, Part>> parts);

// After the spec post-pass (judge_against_spec): a clause the spec made
// accepted or n/a has its targets' verdicts say the same.
void settle_target_statuses(std::vector<ClauseVerdict>& clauses);

// "failed on ppc64le, host; held on ppc64 (big-endian)"; "" when the
// clause ran on one target only.
std::string where_text(const ClauseVerdict& v);

}  // namespace idlespec::validate
