// EVA's dead lines (issue 48, "proven means reached"): the Frama-C module
// harness/framac_dead.ml, compiled and loaded beside EVA, lists every
// statement of an analysed function and whether EVA reached it; a clause is
// not proven where a line of the function under test has none reached.
#pragma once

#include <string>
#include <vector>

#include "validate/component.h"

namespace idlespec::validate {

struct DeadStatement {
  int line = 0;
  std::string function, file;
};

// Compiles harness/framac_dead.ml with ocamlopt against Frama-C's own
// interfaces into `dir` (a tool job in the sandbox, about 0.2 s). Returns
// the module's path, or "" with `why` set when it cannot be built (no
// ocamlopt: scripts/setup.sh framac installs it; $IDLESPEC_OCAMLOPT names
// another).
std::string build_dead_module(const Options& opt, const std::string& dir, std::string& why);

// What the module wrote: the dead lines (a line of a function where EVA
// reached none of its statements; a macro's untaken branch on a reached
// line is not one), and whether the list is whole (the module's END line;
// a list cut short lists nothing for sure).
struct DeadList {
  bool complete = false;
  std::vector<DeadStatement> statements;
};
DeadList parse_dead_list(const std::string& text);

// The first dead statement of one of `functions` in `file` (lowest line),
// or null.
const DeadStatement* first_dead_in(const DeadList& dead, const std::vector<std::string>& functions,
                                   const std::string& file);

}  // namespace idlespec::validate
