// Proofs on the file's own text (issue 38): Frama-C's EVA over the same
// extraction and shims the harness is built from.
//
// For a component with a Frama-C unit (framac_<component>.c beside the
// harnesses), the unit is kernel.h, the component's env header, the code
// extract() pulled out of the file, then the unit's driver: a main() that
// gives the code the spec's value ranges as abstract inputs
// (Frama_C_interval, unknown payload bytes) and states each clause's
// post-condition as an ACSL assertion named after it ("assert XCEDE_4:").
// EVA runs on it in the sandbox (as a tool, like the compilers), with the
// signed and unsigned overflow alarms on, and reports every property it
// could not prove (report-csv).
//
// A clause it covers is then
//   - held (proven: Frama-C EVA, 0 alarms over the spec's ranges): the
//     tests found nothing, EVA raised no alarm anywhere in the unit and
//     proved every assertion of the clause;
//   - held (tested; EVA could not prove it: <alarm> at <file:line>): the
//     tests found nothing, EVA left something unproven (an alarm without a
//     counterexample never fails a clause);
//   - failed as the tests say, with EVA's alarm located beside the
//     counterexample where it raised one.
// Without Frama-C (not installed, or IDLESPEC_FRAMAC=none) the clauses say
// "tested" and the report names the set-up line once.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "validate/component.h"
#include "validate/framac_dead.h"

namespace idlespec::validate {

// One property EVA left unproven: an alarm, a library function's
// precondition, or an assertion of the driver.
struct EvaProperty {
  std::string kind;  // mem_access, unsigned_overflow, precondition of memcpy, user assertion
  std::string file;  // as the #line markers name it (the shims and drivers by path)
  int line = 0;
  std::string function;   // where
  std::string status;     // Unknown, Invalid, Dead (an assertion never reached)
  std::string text;       // the ACSL
  std::string assertion;  // user assertions: the clause name (XCEDE_4), else ""
};

struct EvaResult {
  bool ran = false;                            // EVA finished and its report was read
  std::string unavailable;                     // Frama-C is not installed: what to run
  std::string error;                           // it ran and could not analyse the unit: why
  std::vector<EvaProperty> unproven;           // every property not proven
  std::map<std::string, int> assertions;       // assertion name -> how many the driver states
  std::map<int, std::string> assertion_lines;  // the driver's line -> assertion name
  std::map<std::string, int> reached;          // assertion name -> how many EVA proved (Valid)
  // Functions whose end EVA never reached (its "NON TERMINATING FUNCTION"),
  // and whether its analysis degenerated (results partial from some point).
  std::vector<std::string> non_terminating;
  bool degenerated = false;
  // The statements EVA never reached, per function (validate/framac_dead.h);
  // dead_error says why there is no whole list (then nothing is proven).
  DeadList dead;
  std::string dead_error;
  double seconds = 0;
};

// WP on one function's contract (an ACSL header of the project's, read
// before the code, or after it when `contracts_after_code`; `extra_args`
// are Frama-C options such as -ulevel, `defs` the unit's -D flags): the
// goals and how many Z3 proved. `shim_functions` are shims the function
// calls whose contracts (in the same header) WP proves in the same run, on
// their bodies: the caller relies on no contract WP has not proved. WP
// exits 0 either way; the verdict is read from its summary ("Proved goals:
// N / M").
struct WpResult {
  bool ran = false;
  std::string error;
  int proved = 0, goals = 0;
  double seconds = 0;
};
WpResult run_wp(const Options& options, const std::string& dir, const std::string& env_header,
                const std::string& code, const std::string& contracts, const std::string& function,
                const std::vector<std::string>& inline_functions,
                const std::vector<std::string>& extra_args, const std::vector<std::string>& defs,
                double timeout, bool contracts_after_code = false,
                const std::vector<std::string>& shim_functions = {});

// The command that runs Frama-C (IDLESPEC_FRAMAC, else "frama-c"); "" when
// switched off (IDLESPEC_FRAMAC=none).
std::string framac_command();
// The sentence a report gives when Frama-C is missing.
std::string framac_setup_line();

// Build the unit in `dir` and run EVA within `timeout` seconds
// (`extra_args`: the unit's own EVA options).
EvaResult run_eva(const Options& options, const std::string& dir, const std::string& env_header,
                  const std::string& code, const std::string& driver,
                  const std::vector<std::string>& defs, double timeout,
                  const std::vector<std::string>& extra_args = {});

// Parse a report-csv file (exposed for tests). `driver` is the driver's
// path: its assertion lines name the clause ("assert XCEDE_4:"). `log` is
// EVA's output (-eva-verbose 1): the functions it found non-terminating and
// a degeneration.
EvaResult parse_eva_report(const std::string& csv, const std::string& driver_text,
                           const std::string& driver_name, const std::string& log = "");

// The machine Frama-C assumes (gcc_x86_64), and whether it describes the
// host's harness build; "" when it does, else why not.
extern const char* const kFramacMachine;
std::string framac_host_mismatch();

// The EVA stage of a part: for a component with a Frama-C unit, extracts
// the target's functions again, runs EVA and sets each covered clause's
// proof level (ClauseVerdict::proof). Nothing for other components.
void framac_pass(const Options& options, const Component& component, const Target& target,
                 Part& part);

// The names of the -D flags a text is refused for naming (it would test for
// the analysis): those `component`'s unit is given on `target` (one per
// found function, and its layout's) and every unit's per-function ones.
// framac_pass refuses by this list; review's verdict cache keys on what it
// refuses (validate/verdict_cache.h).
std::vector<std::string> framac_define_names(const std::string& component, const Target& target);

// Whether the component has a Frama-C unit, and the clauses it covers.
std::vector<std::string> framac_clauses(const std::string& component);

}  // namespace idlespec::validate
