#include "properties/run_property.h"

#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <unordered_map>

#include "impl/text.h"
#include "verify/build_paths.h"

namespace idlespec::props {
namespace {

// RapidCheck reports through a listener; verify prints its own report, so
// this one stays silent.
class QuietListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

// RapidCheck's multi-line failure text on one line: the source path relative
// to the tree, and RC_FAIL's own source text left out (its message follows).
std::string one_line(const std::string& text) {
  const std::string source_dir = std::string(idlespec::build::source_dir()) + "/";
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.rfind("RC_FAIL(", 0) == 0) continue;
    if (line.rfind(source_dir, 0) == 0) line.erase(0, source_dir.size());
    out += (out.empty() ? "" : " | ") + line;
  }
  return out;
}

}  // namespace

std::string replay_command(std::string_view kind, std::string_view name, std::string_view subject,
                           const verify::RunOptions& options) {
  std::ostringstream out;
  out << "idlespec check " << kind << " " << name << " --subject " << subject << " --seed "
      << options.seed;
  if (options.property_cases != verify::RunOptions{}.property_cases) {
    out << " --cases " << options.property_cases;
  }
  return out.str();
}

verify::CheckResult run_property(std::string_view name, std::string_view subject,
                                 const std::vector<std::string>& clauses,
                                 const verify::RunOptions& options, const PropertyBody& body) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(options.budget_seconds);
  bool out_of_time = false;
  // Once the budget is spent every further case passes without running, so
  // RapidCheck finishes (or stops shrinking) at once; the verdict then says so.
  const auto capped = [&] {
    if (out_of_time || Clock::now() > deadline) {
      out_of_time = true;
      return;
    }
    body();
  };

  rc::detail::TestParams params;
  params.seed = options.seed;
  params.maxSuccess = options.property_cases;
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(name);
  metadata.description = std::string(name);
  QuietListener listener;
  // The overload with an (empty) reproduce map: the others load RapidCheck's
  // global configuration (RC_PARAMS), which picks and prints a seed of its own.
  const std::unordered_map<std::string, rc::detail::Reproduce> no_reproduce;
  const rc::detail::TestResult result = rc::detail::checkProperty(
      rc::detail::toProperty(capped), metadata, params, listener, no_reproduce);

  verify::CheckResult r;
  rc::detail::SuccessResult success;
  rc::detail::FailureResult failure;
  rc::detail::GaveUpResult gave_up;
  rc::detail::Error error;
  if (result.match(success)) {
    if (out_of_time) {
      r.outcome = verify::Outcome::unknown;
      r.detail = strprintf("time budget of %.0f s spent before %d cases passed",
                           options.budget_seconds, options.property_cases);
    } else {
      r.outcome = verify::Outcome::pass;
      r.detail = strprintf("%d random cases passed (seed %llu)", success.numSuccess,
                           static_cast<unsigned long long>(options.seed));
    }
  } else if (result.match(failure)) {
    r.outcome = verify::Outcome::fail;
    const std::string description = one_line(failure.description);
    r.detail = strprintf("falsified after %d passing cases: ", failure.numSuccess) + description;
    for (const auto& [type, value] : failure.counterExample) {
      r.counterexample += (r.counterexample.empty() ? "" : "; ") + value;
    }
    r.replay = replay_command("property", name, subject, options);
    for (const auto& clause : clauses) {
      if (description.find(clause + ":") != std::string::npos) r.violated.insert(clause);
    }
  } else if (result.match(gave_up)) {
    r.outcome = verify::Outcome::unknown;
    r.detail =
        strprintf("gave up after %d cases: ", gave_up.numSuccess) + one_line(gave_up.description);
  } else if (result.match(error)) {
    r.outcome = verify::Outcome::unknown;
    r.detail = "RapidCheck error: " + one_line(error.description);
  }
  return r;
}

namespace {
std::string join_parts(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}
}  // namespace

verify::CheckResult run_parts(std::string_view check, std::string_view subject,
                              const std::vector<Part>& parts, const verify::RunOptions& options) {
  verify::RunOptions each = options;
  each.budget_seconds =
      options.budget_seconds / static_cast<double>(std::max<size_t>(1, parts.size()));
  std::vector<std::string> passed;
  std::vector<std::string> failed;
  std::vector<std::string> unknown;
  std::vector<std::string> examples;
  verify::CheckResult merged;
  for (const Part& part : parts) {
    const verify::CheckResult r = run_property(check, subject, part.clauses, each, part.body);
    switch (r.outcome) {
      case verify::Outcome::pass:
        passed.push_back(part.name);
        break;
      case verify::Outcome::fail:
        if (r.violated.empty()) {
          merged.violated.insert(part.clauses.begin(), part.clauses.end());
        } else {
          merged.violated.insert(r.violated.begin(), r.violated.end());
        }
        failed.push_back(part.name + ": " + r.detail);
        examples.push_back(part.name + ": " + r.counterexample);
        merged.replay = r.replay;
        break;
      case verify::Outcome::unknown:
        unknown.push_back(part.name + ": " + r.detail);
        break;
    }
  }
  std::vector<std::string> text;
  if (!failed.empty()) text.push_back(join_parts(failed, " || "));
  if (!unknown.empty()) text.push_back("not decided: " + join_parts(unknown, "; "));
  if (!passed.empty()) {
    text.push_back(strprintf("%s: %d random cases each passed (seed %llu)",
                             join_parts(passed, ", ").c_str(), options.property_cases,
                             static_cast<unsigned long long>(options.seed)));
  }
  merged.detail = join_parts(text, "; ");
  merged.counterexample = join_parts(examples, " | ");
  merged.outcome = !unknown.empty()  ? verify::Outcome::unknown
                   : !failed.empty() ? verify::Outcome::fail
                                     : verify::Outcome::pass;
  if (merged.outcome == verify::Outcome::unknown) merged.violated.clear();
  return merged;
}

}  // namespace idlespec::props
