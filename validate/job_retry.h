// Internal to validate/: a job that could not be started (the sandbox
// refused it, the tool did not exec: a fork refused under load, a namespace
// bwrap could not make) is started once more before it counts, and its
// result says why (JobResult::sandbox_error, which outcome() prints).
#pragma once

#include <string>
#include <vector>

#include "sandbox/process.h"

namespace idlespec::validate {

using sandbox::Job;
using sandbox::JobResult;

// run_jobs(), with each job that failed to start run once more (within the
// same deadline). A job that fails to start twice keeps exec_failed, and its
// sandbox_error names the reason: the sandbox's own, else the last line the
// job wrote to stderr (the exec's error), else its exit status; "(started
// twice)" follows it.
// `tool_jobs`: the jobs are tools of this suite's choosing (compilers), whose
// stderr the code under test cannot make begin with the sandbox's own
// "bwrap: " (a compiler's diagnostics begin with a file name): exit status 1
// with that line first is then the sandbox's failure to start the tool
// (bwrap: execvp ...), not the tool's. Never for a harness, whose output is
// the code under test's.
std::vector<JobResult> run_jobs_retrying(const std::vector<Job>& jobs, unsigned parallel,
                                         double deadline = 0, bool tool_jobs = false);

// Why a job did not start, for a report: the reason above, or "".
std::string start_failure(const JobResult& r);

}  // namespace idlespec::validate
