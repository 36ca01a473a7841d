// The values the shims give identifiers whose meaning is fixed outside the
// file under test (issue 53): a Power ISA constant (MAX_STOP_STATE), a
// proposed patch's flag whose only use is a test against a state's flags
// (CPUIDLE_FLAG_POLLING_SOFT), a variable another file of the kernel
// defines (cede_latency_override). The shim or harness that defines one
// says so on a line of its own,
//
//   idlespec assumed: NAME = VALUE (why)
//
// and a clause judged on a function whose extracted code uses NAME, which
// the file does not define itself, has its note say which value it
// assumed. The shims are the one place the value is written.
#pragma once

#include <string>
#include <vector>

#include "validate/component.h"

namespace idlespec::validate {

struct AssumedValue {
  std::string name;  // MAX_STOP_STATE
  std::string text;  // "MAX_STOP_STATE = 0xF (the Power ISA's ...)"
};

// Every "idlespec assumed:" line of harness_dir's shims/*.h and *.c.
std::vector<AssumedValue> assumed_values(const std::string& harness_dir);

// The assumed names `code` (an extraction's) uses and does not define:
// the file has no #define of it, and declares it at most `extern`.
std::vector<const AssumedValue*> assumed_in(const std::vector<AssumedValue>& assumed,
                                            const std::string& code);

// Adds "assumed NAME = VALUE (why)" to the note of each clause of `part`
// whose function's extracted code (from t's text) uses an assumed name.
void note_assumed_values(const Options& opt, const Target& t, Part& part);

}  // namespace idlespec::validate
