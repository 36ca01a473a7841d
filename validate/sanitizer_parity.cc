#include "validate/sanitizer_parity.h"

#include "sandbox/process.h"

namespace idlespec::validate {

namespace {

// The options of a compile command line that decide what the preprocessor
// defines: the compiler itself, -D/-U, -f (-fsanitize=...), -O, -m, -std.
std::vector<std::string> preprocessing(const std::vector<std::string>& argv) {
  std::vector<std::string> out = {argv.empty() ? std::string("cc") : argv[0]};
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    for (const char* p : {"-D", "-U", "-f", "-O", "-m", "-std="})
      if (a.rfind(p, 0) == 0) {
        out.push_back(a);
        break;
      }
  }
  return out;
}

}  // namespace

std::string sanitizer_parity(const std::string& code, const std::vector<std::string>& plain_argv,
                             const std::vector<std::string>& san_argv, const std::string& dir,
                             double timeout) {
  const std::string unit = dir + "/parity.c";
  if (!sandbox::spit(unit, code)) return "cannot write " + unit;
  std::vector<sandbox::Job> jobs;
  for (const auto* argv : {&plain_argv, &san_argv}) {
    sandbox::Job j;
    j.argv = preprocessing(*argv);
    j.argv.insert(j.argv.end(), {"-w", "-E", "-P", unit});
    const std::string name = dir + (argv == &plain_argv ? "/parity-plain" : "/parity-san");
    j.out = name + ".i";
    j.err = name + ".err";
    j.timeout = timeout;
    j.memory_mb = 0;
    j.confine = sandbox::Confine::tool;
    jobs.push_back(j);
  }
  const auto r = sandbox::run_jobs(jobs, 2, timeout);
  for (const auto& x : r)
    if (x.timed_out || x.skipped || x.exec_failed)
      return "the sanitizer build could not be compared with the plain one (the preprocessor " +
             sandbox::outcome(x, timeout) + ")";
  if (!r[0].escapes.empty() || !r[1].escapes.empty()) return "";  // the escape is the finding
  const std::string plain = sandbox::slurp(jobs[0].out), san = sandbox::slurp(jobs[1].out);
  if (r[0].exit_code != r[1].exit_code || plain != san)
    return "the code under test reads differently under the ASan+UBSan build than under the "
           "plain one (it tests for the sanitizer: __SANITIZE_ADDRESS__, __has_feature, or a "
           "spelling of them), so the sanitizer runs did not see the code the plain runs judged";
  return "";
}

}  // namespace idlespec::validate
