// A validate report as SARIF 2.1.0 through verify/sarif.h's writer: the
// spec's clauses as rules, a result per clause that did not hold and per
// escape attempt of the code under test.
#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "validate/component.h"
#include "validate/targets.h"
#include "verify/build_paths.h"
#include "verify/report.h"
#include "verify/sarif.h"

namespace idlespec::validate {

namespace {

constexpr const char* kSandboxRule = "SANDBOX-ESCAPE";

}  // namespace

std::string render_sarif(const Report& rep) {
  // The rules: the spec's clauses (a clause the spec lacks, which the
  // post-pass reports as an error, gets a rule of its ID alone).
  std::vector<const verify::Clause*> rules;
  std::deque<verify::Clause> unknown_clauses;
  for (const auto& v : rep.clauses) {
    if (std::any_of(rules.begin(), rules.end(),
                    [&](const verify::Clause* c) { return c->id == v.id; }))
      continue;
    const verify::Clause* c = spec().find(v.id);
    if (!c) {
      verify::Clause& stub = unknown_clauses.emplace_back();
      stub.id = stub.obligation = v.id;
      stub.component = v.component;
      stub.file = "spec/" + v.component + ".md";
      stub.line = 1;
      c = &stub;
    }
    rules.push_back(c);
  }
  std::vector<verify::SarifResult> results;
  for (const auto& v : rep.clauses) {
    if (v.status == "held" || v.status == "n/a" || v.status == "absent") continue;
    verify::SarifResult r;
    r.rule = v.id;
    r.status = v.status;
    r.location = {v.file, std::max(1, v.line)};
    r.message = v.id + " " + v.status + " in " + v.function + "()";
    if (const std::string where = where_text(v); !where.empty()) r.message += " (" + where + ")";
    if (!v.spec_note.empty()) r.message += " (" + v.spec_note + ")";
    if (!v.counterexamples.empty()) r.message += ": " + v.counterexamples.front();
    if (!v.error.empty()) r.message += ": " + v.error;
    if (const std::string a = alarm_beside(v); !a.empty()) r.message += "; " + a;
    // The finding's identity: the clause, where it is judged and how it
    // ended; not the counterexample (it changes with the seed) or the path.
    r.fingerprint_key =
        v.id + "|" + v.component + "|" + v.function + "|" + v.subject + "|" + v.status;
    for (size_t k = 0; k < v.counterexamples.size(); ++k) {
      std::string title = "counterexample " + std::to_string(k + 1) + " of " + v.function + "()";
      if (k == 0 && !v.replay.empty()) title += "; replay: " + v.replay;
      r.flows.push_back({title, verify::sarif_detail::split(v.counterexamples[k], '\n')});
    }
    if (v.status == "accepted") r.suppression = v.spec_note;
    r.properties = {{"subject", v.subject}, {"function", v.function}};
    for (const auto& t : v.targets) r.properties.push_back({"target:" + t.target, t.status});
    if (!v.proof.empty()) r.properties.push_back({"proof", v.proof});
    // EVA's alarm: a location of the result, the code flow's last step.
    if (!v.alarm.empty() && v.alarm_line > 0) {
      r.related.push_back({v.alarm_file, v.alarm_line, "EVA: " + v.alarm});
    }
    if (!v.fixed_by.empty()) r.properties.push_back({"fixedBy", v.fixed_by});
    if (!v.replay.empty()) r.replay.push_back(v.replay);
    results.push_back(std::move(r));
  }
  // An escape attempt of the code under test: a result of its own, an error,
  // under a rule that is the sandbox's (docs/security.md), not a clause's.
  for (const auto& p : rep.parts) {
    if (p.escapes.empty()) continue;
    if (std::none_of(rules.begin(), rules.end(),
                     [](const verify::Clause* c) { return c->id == kSandboxRule; })) {
      verify::Clause& rule = unknown_clauses.emplace_back();
      rule.id = kSandboxRule;
      rule.obligation =
          "The code under test stays inside its sandbox: no file, process, network or system "
          "call outside the view and the policy of docs/security.md.";
      rule.component = p.component;
      rule.file = "docs/security.md";
      rule.line = 1;
      rules.push_back(&rule);
    }
    for (const auto& e : p.escapes) {
      verify::SarifResult r;
      r.rule = kSandboxRule;
      r.status = "failed";
      r.location = {p.file, 1};
      r.message = e + " (" + p.component + ")";
      r.fingerprint_key = std::string(kSandboxRule) + "|" + p.component + "|" + e;
      results.push_back(std::move(r));
    }
  }
  std::vector<std::string> notes;
  if (!rep.error.empty()) notes.push_back(rep.error);
  return verify::write_sarif(rules, results,
                             verify::sarif_options_for(idlespec::build::source_dir()), notes);
}

}  // namespace idlespec::validate
