// SARIF 2.1.0 for `idlespec verify --sarif FILE` and `idlespec check --sarif
// FILE`, the format code scanning reads (validate and review write their own,
// validate/validate.cc render_sarif).
//
//   rules    one per clause of the report: the clause text, its kind and its
//            place in spec/ (helpUri: SarifOptions::spec_base_uri + the spec
//            file + "#L" line)
//   results  one per clause x subject that did not hold: failed and
//            uncovered are errors, unknown a warning, accepted a note with an
//            external suppression (the spec's acceptance); located at the
//            clause in spec/ (verify judges the reference code, not a file
//            of the user's)
//   codeFlows one per failed check, from its counterexample: a model-check
//            timeline ("step | t0 | t1 | word after") is one threadFlow per
//            hardware thread, each row where the thread moves a location with
//            its executionOrder; any other counterexample (the governor's
//            input -> selection, a busy_delay status -> request) is one
//            threadFlow with a location per line, in order
//   partialFingerprints "idlespecFinding/v1": a hash of clause, subject and
//            the failing checks' kind and name, never of the counterexample
//            (it changes with the seed), so a finding keeps its identity
//            across runs
//
// Header-only: the writer needs nothing but the report and impl/json.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "impl/json.h"
#include "verify/registry.h"
#include "verify/runner.h"
#include "verify/spec_index.h"

namespace idlespec::verify {

struct SarifOptions {
  // Absolute URI the spec's relative paths are resolved against for a rule's
  // helpUri, e.g. "https://github.com/OWNER/idlespec/blob/main/"; the CLI
  // passes $IDLESPEC_SPEC_URI or "file://" + the source tree + "/".
  std::string spec_base_uri = "file:///";
  std::string tool_version = "0.1.0";
};

namespace sarif_detail {

inline std::string fingerprint(std::string_view text) {  // FNV-1a 64, hex
  uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

inline std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

inline std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t end = std::min(s.find(sep, start), s.size());
    out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

inline void location(JsonWriter& w, const Clause& c, const std::string& message) {
  w.begin_object();
  w.key("physicalLocation").begin_object();
  w.key("artifactLocation").begin_object().key("uri").value(c.file).end_object();
  w.key("region").begin_object().key("startLine").value(std::max(1, c.line)).end_object();
  w.end_object();
  if (!message.empty()) w.key("message").begin_object().key("text").value(message).end_object();
  w.end_object();
}

inline void flow_location(JsonWriter& w, const Clause& c, const std::string& text, int order) {
  w.begin_object();
  w.key("location");
  location(w, c, text);
  if (order > 0) w.key("executionOrder").value(order);
  w.end_object();
}

// A model-check timeline: the header "step | t0 | t1 | ... | word after" and
// rows "  N | cell | cell | ... | word". One threadFlow per thread column,
// written as the threadFlows array; false (nothing written) for any other text.
inline bool timeline_flows(JsonWriter& w, const Clause& c, const std::vector<std::string>& lines) {
  std::vector<std::string> threads;
  size_t header = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto cells = split(lines[i], '|');
    if (cells.size() >= 3 && trim(cells[0]) == "step") {
      for (size_t k = 1; k + 1 < cells.size(); ++k) threads.push_back(trim(cells[k]));
      header = i;
      break;
    }
  }
  if (threads.empty()) return false;
  struct Step {
    int order;
    std::string text;
  };
  std::vector<std::vector<Step>> per_thread(threads.size());
  for (size_t i = header + 1; i < lines.size(); ++i) {
    const auto cells = split(lines[i], '|');
    if (cells.size() != threads.size() + 2) continue;  // "... moves left out ...", loss rows
    const std::string step = trim(cells[0]);
    if (step.empty() || step.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string word = trim(cells.back());
    for (size_t t = 0; t < threads.size(); ++t) {
      const std::string cell = trim(cells[t + 1]);
      if (cell.empty() || cell == "." || cell == "-") continue;
      per_thread[t].push_back({std::stoi(step), threads[t] + ": " + cell +
                                                    (word.empty() ? "" : " (word " + word + ")")});
    }
  }
  w.begin_array();
  bool any = false;
  for (size_t t = 0; t < threads.size(); ++t) {
    if (per_thread[t].empty()) continue;
    any = true;
    w.begin_object().key("id").value(threads[t]);
    w.key("message").begin_object().key("text").value("hardware thread " + threads[t]).end_object();
    w.key("locations").begin_array();
    for (const Step& s : per_thread[t]) flow_location(w, c, s.text, s.order);
    w.end_array().end_object();
  }
  if (!any) {  // a timeline with no readable row: the lines as they are
    w.begin_object().key("locations").begin_array();
    for (const auto& l : lines)
      if (!trim(l).empty()) flow_location(w, c, trim(l), 0);
    w.end_array().end_object();
  }
  w.end_array();
  return true;
}

inline void code_flow(JsonWriter& w, const Clause& c, const CheckReport& ch) {
  const std::string name = std::string(check_kind_name(ch.ref.kind)) + " " + ch.ref.name;
  const std::string& cex =
      ch.result.counterexample.empty() ? ch.result.detail : ch.result.counterexample;
  std::vector<std::string> lines = split(cex, '\n');
  w.begin_object();
  w.key("message").begin_object().key("text").value(
      name + (ch.result.replay.empty() ? "" : "; replay: " + ch.result.replay));
  w.end_object();
  w.key("threadFlows");
  if (!timeline_flows(w, c, lines)) {
    w.begin_array().begin_object().key("locations").begin_array();
    int order = 0;
    for (const auto& l : lines) {
      const std::string t = trim(l);
      if (!t.empty()) flow_location(w, c, t, ++order);
    }
    if (order == 0) flow_location(w, c, name + " failed", 1);
    w.end_array().end_object().end_array();
  }
  w.end_object();
}

inline void rules(JsonWriter& w, const std::vector<const Clause*>& clauses, const SarifOptions& o) {
  w.key("rules").begin_array();
  for (const Clause* c : clauses) {
    w.begin_object().key("id").value(c->id);
    w.key("name").value(c->id);
    w.key("shortDescription")
        .begin_object()
        .key("text")
        .value(c->id + " (" + c->kind + ", " + c->component + ")")
        .end_object();
    w.key("fullDescription").begin_object().key("text").value(c->obligation).end_object();
    std::string checks;
    for (const auto& ch : c->checks)
      checks +=
          (checks.empty() ? "" : ", ") + std::string(check_kind_name(ch.kind)) + " " + ch.name;
    w.key("help")
        .begin_object()
        .key("text")
        .value(c->obligation + (c->source.empty() ? "" : "\nSource: " + c->source) +
               (checks.empty() ? "" : "\nChecks: " + checks))
        .end_object();
    w.key("helpUri").value(o.spec_base_uri + c->file + "#L" + std::to_string(c->line));
    w.key("defaultConfiguration").begin_object().key("level").value("error").end_object();
    w.key("properties").begin_object().key("tags").begin_array().value(c->kind).value(c->component);
    w.end_array().end_object();
    w.end_object();
  }
  w.end_array();
}

inline void run_header(JsonWriter& w, const std::vector<const Clause*>& clauses,
                       const SarifOptions& o) {
  w.begin_object();
  w.key("$schema").value("https://json.schemastore.org/sarif-2.1.0.json");
  w.key("version").value("2.1.0");
  w.key("runs").begin_array().begin_object();
  w.key("tool").begin_object().key("driver").begin_object();
  w.key("name").value("idlespec").key("version").value(o.tool_version);
  w.key("informationUri").value(o.spec_base_uri + "spec/README.md");
  rules(w, clauses, o);
  w.end_object().end_object();
}

inline void result(JsonWriter& w, const ClauseReport& r, const std::vector<const CheckReport*>& bad,
                   size_t rule_index) {
  const std::string status(status_name(r.status));
  const bool error = r.status == Status::failed || r.status == Status::uncovered;
  std::string text = r.clause.id + " " + status + " for subject " + r.subject;
  if (!r.detail.empty()) text += ": " + r.detail;
  std::string key = r.clause.id + "|" + r.subject + "|" + status;
  for (const CheckReport* ch : bad) {
    key += "|" + std::string(check_kind_name(ch->ref.kind)) + " " + ch->ref.name;
    if (r.detail.empty() && !ch->result.detail.empty()) text += ": " + ch->result.detail;
  }
  w.begin_object();
  w.key("ruleId").value(r.clause.id).key("ruleIndex").value(static_cast<uint64_t>(rule_index));
  w.key("level").value(error ? "error" : r.status == Status::unknown ? "warning" : "note");
  w.key("kind").value(error ? "fail" : r.status == Status::unknown ? "review" : "fail");
  w.key("message").begin_object().key("text").value(text).end_object();
  w.key("locations").begin_array();
  location(w, r.clause, "");
  w.end_array();
  w.key("partialFingerprints")
      .begin_object()
      .key("idlespecFinding/v1")
      .value(fingerprint(key))
      .end_object();
  if (!bad.empty()) {
    w.key("codeFlows").begin_array();
    for (const CheckReport* ch : bad) code_flow(w, r.clause, *ch);
    w.end_array();
  }
  if (r.status == Status::accepted) {
    const Acceptance* a = r.clause.acceptance_for(r.subject);
    w.key("suppressions").begin_array().begin_object().key("kind").value("external");
    w.key("justification").value(a ? a->reason : "accepted in spec/");
    w.end_object().end_array();
  }
  w.key("properties").begin_object().key("subject").value(r.subject).key("status").value(status);
  w.key("replay").begin_array();
  for (const CheckReport* ch : bad)
    if (!ch->result.replay.empty()) w.value(ch->result.replay);
  w.end_array().end_object();
  w.end_object();
}

}  // namespace sarif_detail

// The SARIF log of a verify report: every clause of the report a rule, every
// clause x subject that is not held a result.
inline std::string report_sarif(const VerifyReport& report, const SarifOptions& o = {}) {
  using namespace sarif_detail;
  std::vector<const Clause*> clauses;
  for (const auto& r : report.clauses) {
    const bool seen = std::any_of(clauses.begin(), clauses.end(),
                                  [&](const Clause* c) { return c->id == r.clause.id; });
    if (!seen) clauses.push_back(&r.clause);
  }
  JsonWriter w;
  run_header(w, clauses, o);
  w.key("results").begin_array();
  for (const auto& r : report.clauses) {
    if (r.status == Status::held) continue;
    std::vector<const CheckReport*> bad;
    for (const auto& ch : r.checks)
      if (ch.result.outcome != Outcome::pass &&
          (ch.result.violated.empty() || ch.result.violated.count(r.clause.id)))
        bad.push_back(&ch);
    size_t index = 0;
    while (clauses[index]->id != r.clause.id) ++index;
    result(w, r, bad, index);
  }
  w.end_array();
  if (!report.errors.empty()) {  // the spec and the registry disagree
    w.key("invocations").begin_array().begin_object();
    w.key("executionSuccessful").value(false);
    w.key("toolExecutionNotifications").begin_array();
    for (const auto& e : report.errors)
      w.begin_object()
          .key("level")
          .value("error")
          .key("message")
          .begin_object()
          .key("text")
          .value(e)
          .end_object()
          .end_object();
    w.end_array().end_object().end_array();
  }
  w.end_object().end_array().end_object();
  return w.str() + "\n";
}

// The SARIF log of one `idlespec check`: the clauses the check names are the
// rules; a failure is a result per violated clause, an unknown a warning per
// clause; a pass has no result.
inline std::string check_sarif(const Check& check, const std::string& subject, const CheckResult& r,
                               const SpecIndex& spec, const SarifOptions& o = {}) {
  VerifyReport report;
  for (const auto& id : check.clauses) {
    ClauseReport cr;
    const auto it = std::find_if(spec.clauses.begin(), spec.clauses.end(),
                                 [&](const Clause& c) { return c.id == id; });
    if (it != spec.clauses.end()) {
      cr.clause = *it;
    } else {
      cr.clause.id = id;
      cr.clause.component = check.component;
      cr.clause.file = "spec/" + check.component + ".md";
    }
    cr.subject = subject;
    const bool hit = r.violated.empty() || r.violated.count(id);
    cr.status = r.outcome == Outcome::pass          ? Status::held
                : r.outcome == Outcome::unknown     ? Status::unknown
                : !hit                              ? Status::held
                : cr.clause.acceptance_for(subject) ? Status::accepted
                                                    : Status::failed;
    CheckReport ch;
    ch.check = &check;
    ch.ref = {check.kind, check.name};
    ch.result = r;
    cr.checks.push_back(ch);
    report.clauses.push_back(cr);
  }
  return report_sarif(report, o);
}

}  // namespace idlespec::verify
