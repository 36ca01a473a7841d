// sparse as a check of validate (issue 37): the extracted unit (kernel.h,
// the component's env header, the code under test) through sparse, with the
// kernel's __bitwise byte-order types (harness/shims/kernel.h declares
// them restricted under __CHECKER__). What it says about the byte order of
// the file's own lines becomes a finding against the component's
// byte-order clause (XCEDE-8), with the file and line.
#pragma once

#include <string>
#include <vector>

#include "sandbox/process.h"

namespace idlespec::validate {

struct SparseFinding {
  std::string file;     // as the #line markers of the extracted code name it
  int line = 0;         // in that file
  std::string message;  // sparse's warning with its "expected"/"got" lines
};

struct SparseRun {
  bool ran = false;                       // sparse ran (else `note` says why not)
  std::string note;                       // "sparse is not installed (scripts/setup.sh power)", ...
  std::vector<SparseFinding> byte_order;  // restricted-type diagnostics in the file's lines
};

// The job that runs `sparse` on `tu` (written by the caller), confined as a
// tool, its diagnostics in <tu>.sparse.err.
sandbox::Job sparse_job(const std::string& sparse, const std::string& tu, const std::string& shims,
                        const std::vector<std::string>& reads, double timeout);
// The unit sparse reads: kernel.h, `env_header`, then `code`.
std::string sparse_unit(const std::string& env_header, const std::string& code);
// What the finished job said: the byte-order diagnostics of lines that came
// from the file under test (sparse ignores #line markers: each line of the
// unit is mapped back through them).
SparseRun sparse_result(const sandbox::Job& job, const sandbox::JobResult& r,
                        const std::string& unit);
// The same from sparse's text (for tests).
std::vector<SparseFinding> parse_sparse(const std::string& diagnostics, const std::string& unit,
                                        const std::string& unit_name);

struct Part;
// The part's verdict of `clause` from sparse: failed with each byte-order
// diagnostic (file:line: message) when there is one, whatever the runs
// said; sparse's note joins the part's notes.
void apply_sparse(const SparseRun& run, const std::string& clause, Part& part);

}  // namespace idlespec::validate
