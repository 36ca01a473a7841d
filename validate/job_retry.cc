#include "validate/job_retry.h"

#include <chrono>

namespace idlespec::validate {
namespace {

using sandbox::run_jobs;
using sandbox::slurp;
using sandbox::tail;

// The reason a job did not start, from what it left.
std::string reason_of(const Job& job, const JobResult& r) {
  if (!r.sandbox_error.empty()) return r.sandbox_error;
  std::string err = job.err.empty() ? std::string() : tail(slurp(job.err), 1);
  while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
  if (err.size() > 300) err = err.substr(0, 300) + "...";
  if (!err.empty()) return err;
  return r.exit_code >= 0 ? "it exited " + std::to_string(r.exit_code) + " before running"
                          : "no reason given";
}

}  // namespace

// A tool job the sandbox could not start: bwrap's own message first.
void mark_sandbox_start_failure(const Job& job, JobResult& r) {
  if (r.exec_failed || r.exit_code != 1 || job.err.empty()) return;
  const std::string err = slurp(job.err);
  if (err.rfind("bwrap: ", 0) != 0) return;
  r.exec_failed = true;
  r.sandbox_error = err.substr(0, err.find('\n'));
}

std::vector<JobResult> run_jobs_retrying(const std::vector<Job>& jobs, unsigned parallel,
                                         double deadline, bool tool_jobs) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<JobResult> res = run_jobs(jobs, parallel, deadline);
  if (tool_jobs)
    for (size_t i = 0; i < res.size(); ++i) mark_sandbox_start_failure(jobs[i], res[i]);
  std::vector<Job> again;
  std::vector<size_t> where;
  for (size_t i = 0; i < res.size(); ++i)
    if (res[i].exec_failed) again.push_back(jobs[i]), where.push_back(i);
  if (again.empty()) return res;
  double left = 0;
  if (deadline > 0) {
    left = deadline - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (left <= 0.1) left = 0.1;  // too late to start: run_jobs skips them
  }
  const std::vector<JobResult> second = run_jobs(again, parallel, left);
  for (size_t k = 0; k < second.size(); ++k) {
    JobResult r = second[k];
    if (tool_jobs) mark_sandbox_start_failure(again[k], r);
    if (r.exec_failed) r.sandbox_error = reason_of(again[k], r) + " (started twice)";
    res[where[k]] = r;
  }
  return res;
}

std::string start_failure(const JobResult& r) { return r.exec_failed ? r.sandbox_error : ""; }

}  // namespace idlespec::validate
