// The code under test cannot opt out of the sanitizer run (issue 47).
//
// validate builds every harness twice, plain (-O3) and with ASan+UBSan, and
// a clause held on the plain runs is held only if the sanitizer runs saw the
// same code. Text that reads differently under the sanitizer build (an
// `#ifdef __SANITIZE_ADDRESS__`, `__has_feature(address_sanitizer)`, however
// spelt: token pasting, a macro of a macro) or that does not build there
// (an `#error` under it, a 1 TB static array) would otherwise leave the
// out-of-bounds read the sanitizer run would have caught unobserved. Both
// are an `error` naming why, never a note beside held clauses.
#pragma once

#include <string>
#include <vector>

namespace idlespec::validate {

// "" when `code` preprocesses to the same text under the plain build's
// command line and under the sanitizer build's (each a compiler argv that
// compiles one file; only its -D/-U/-f/-O/-m/-std options are used), else
// why not. The code is preprocessed alone (no shims: the same macros are
// missing on both sides) in `dir`, each run in the sandbox, within
// `timeout` seconds.
std::string sanitizer_parity(const std::string& code, const std::vector<std::string>& plain_argv,
                             const std::vector<std::string>& san_argv, const std::string& dir,
                             double timeout);

}  // namespace idlespec::validate
