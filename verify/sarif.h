// SARIF 2.1.0, the format code scanning reads, for every command that
// judges clauses: `idlespec verify --sarif FILE` and `idlespec check --sarif
// FILE` (report_sarif, check_sarif) and `idlespec validate` / `review
// --sarif FILE` (verify/report_sarif.cc render_sarif). One writer, write_sarif,
// serves all of them; each command only says what its results are.
//
//   rules    one per clause of the report: the clause text, its kind and its
//            place in spec/ (helpUri: SarifOptions::spec_base_uri + the spec
//            file + "#L" line)
//   results  one per clause (x subject, x function) that did not hold: failed
//            and uncovered are errors, unknown and error warnings, accepted a
//            note with an external suppression (the spec's acceptance).
//            verify's are located at the clause in spec/ (it judges the
//            reference code, not a file of the user's); validate's at the
//            function in the user's file
//   codeFlows one per counterexample: a model-check or harness timeline
//            ("step | t0 | t1 | word after") is one threadFlow per hardware
//            thread, each row where the thread moves a location with its
//            executionOrder; any other counterexample (the governor's
//            input -> selection, a busy_delay status -> request) is one
//            threadFlow with a location per line, in order
//   partialFingerprints "idlespecFinding/v1": a hash of what identifies the
//            finding (clause, subject, status and the failing checks, or the
//            function for validate), never of the counterexample (it changes
//            with the seed) or of a path, so a finding keeps its identity
//            across runs
//
// Header-only: the writer needs nothing but the results and impl/json.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
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

// The options every command uses: $IDLESPEC_SPEC_URI (e.g. the idlespec
// repository's blob URL) when set, else the source tree as a file: URI.
inline SarifOptions sarif_options_for(const std::string& source_dir) {
  SarifOptions s;
  if (const char* base = std::getenv("IDLESPEC_SPEC_URI"); base && *base)
    s.spec_base_uri = base;
  else
    s.spec_base_uri = "file://" + source_dir + "/";
  if (s.spec_base_uri.back() != '/') s.spec_base_uri += '/';
  return s;
}

// Where a result (or one step of its code flow) is: a file relative to the
// repository (or the tree validated) and a line.
struct SarifLocation {
  std::string uri;
  int line = 1;
};

// One counterexample: its title (the check, the replay command) and its
// lines (a timeline, or one step per line).
struct SarifFlow {
  std::string message;
  std::vector<std::string> lines;
};

// One result. `status` is the verdict word (failed, uncovered, unknown,
// error, accepted); the level follows from it.
struct SarifResult {
  std::string rule;  // the clause ID: one of the rules
  std::string status;
  std::string message;
  SarifLocation location;
  std::string fingerprint_key;  // what identifies the finding across runs
  std::vector<SarifFlow> flows;
  std::string suppression;  // accepted: the spec's reason
  std::vector<std::pair<std::string, std::string>> properties;
  std::vector<std::string> replay;
  // Further locations of the result, each with its message (validate: where
  // Frama-C's EVA raised its alarm on the clause).
  struct Extra {
    std::string uri;
    int line = 1;
    std::string message;
  };
  std::vector<Extra> related;
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

// A file path as a URI reference (RFC 3986): the unreserved characters and
// the '/' between segments stay, every other byte (space, '#', '%', ':',
// non-ASCII UTF-8 bytes, ...) becomes %XX, so that "a b#1%.c" is the file
// and not a fragment, and a URI reader gives back the path's bytes.
inline std::string percent_encode_path(std::string_view path) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : path) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

inline void location(JsonWriter& w, const SarifLocation& at, const std::string& message) {
  w.begin_object();
  w.key("physicalLocation").begin_object();
  w.key("artifactLocation")
      .begin_object()
      .key("uri")
      .value(percent_encode_path(at.uri))
      .end_object();
  w.key("region").begin_object().key("startLine").value(std::max(1, at.line)).end_object();
  w.end_object();
  if (!message.empty()) w.key("message").begin_object().key("text").value(message).end_object();
  w.end_object();
}

inline void flow_location(JsonWriter& w, const SarifLocation& at, const std::string& text,
                          int order) {
  w.begin_object();
  w.key("location");
  location(w, at, text);
  if (order > 0) w.key("executionOrder").value(order);
  w.end_object();
}

// A model-check timeline: the header "step | t0 | t1 | ... | word after" and
// rows "  N | cell | cell | ... | word". One threadFlow per thread column,
// written as the threadFlows array; false (nothing written) for any other text.
inline bool timeline_flows(JsonWriter& w, const SarifLocation& c,
                           const std::vector<std::string>& lines) {
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

inline void code_flow(JsonWriter& w, const SarifLocation& at, const SarifFlow& f) {
  w.begin_object();
  w.key("message").begin_object().key("text").value(f.message).end_object();
  w.key("threadFlows");
  if (!timeline_flows(w, at, f.lines)) {
    w.begin_array().begin_object().key("locations").begin_array();
    int order = 0;
    for (const auto& l : f.lines) {
      const std::string t = trim(l);
      if (!t.empty()) flow_location(w, at, t, ++order);
    }
    if (order == 0) flow_location(w, at, f.message, 1);
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

// failed and uncovered are errors; unknown and error warnings (something
// was not judged); accepted a note (suppressed).
inline const char* level_of(const std::string& status) {
  if (status == "failed" || status == "uncovered") return "error";
  if (status == "unknown" || status == "error") return "warning";
  return "note";
}

inline void result(JsonWriter& w, const SarifResult& r, size_t rule_index) {
  const std::string level = level_of(r.status);
  w.begin_object();
  w.key("ruleId").value(r.rule).key("ruleIndex").value(static_cast<uint64_t>(rule_index));
  w.key("level").value(level);
  w.key("kind").value(level == "warning" ? "review" : "fail");
  w.key("message").begin_object().key("text").value(r.message).end_object();
  w.key("locations").begin_array();
  location(w, r.location, "");
  for (const auto& x : r.related) location(w, {x.uri, x.line}, x.message);
  w.end_array();
  w.key("partialFingerprints")
      .begin_object()
      .key("idlespecFinding/v1")
      .value(fingerprint(r.fingerprint_key))
      .end_object();
  if (!r.flows.empty()) {
    w.key("codeFlows").begin_array();
    for (const SarifFlow& f : r.flows) code_flow(w, r.location, f);
    w.end_array();
  }
  if (r.status == "accepted") {
    w.key("suppressions").begin_array().begin_object().key("kind").value("external");
    w.key("justification").value(r.suppression.empty() ? "accepted in spec/" : r.suppression);
    w.end_object().end_array();
  }
  w.key("properties").begin_object().key("status").value(r.status);
  for (const auto& [k, v] : r.properties) w.key(k).value(v);
  w.key("replay").begin_array();
  for (const auto& c : r.replay) w.value(c);
  w.end_array().end_object();
  w.end_object();
}

}  // namespace sarif_detail

// The SARIF log: `rules` (in order; every result's rule must be among them),
// the results, and tool notifications (errors of the run itself: the spec
// and the registry disagree) that make the invocation unsuccessful.
inline std::string write_sarif(const std::vector<const Clause*>& rules,
                               const std::vector<SarifResult>& results, const SarifOptions& o,
                               const std::vector<std::string>& notifications = {}) {
  using namespace sarif_detail;
  JsonWriter w;
  run_header(w, rules, o);
  w.key("results").begin_array();
  for (const SarifResult& r : results) {
    size_t index = 0;
    while (index < rules.size() && rules[index]->id != r.rule) ++index;
    result(w, r, index);
  }
  w.end_array();
  if (!notifications.empty()) {
    w.key("invocations").begin_array().begin_object();
    w.key("executionSuccessful").value(false);
    w.key("toolExecutionNotifications").begin_array();
    for (const auto& e : notifications)
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

// The SARIF log of a verify report: every clause of the report a rule, every
// clause x subject that is not held a result, located at the clause in spec/.
inline std::string report_sarif(const VerifyReport& report, const SarifOptions& o = {}) {
  std::vector<const Clause*> clauses;
  for (const auto& r : report.clauses) {
    const bool seen = std::any_of(clauses.begin(), clauses.end(),
                                  [&](const Clause* c) { return c->id == r.clause.id; });
    if (!seen) clauses.push_back(&r.clause);
  }
  std::vector<SarifResult> results;
  for (const auto& r : report.clauses) {
    if (r.status == Status::held) continue;
    SarifResult out;
    out.rule = r.clause.id;
    out.status = status_name(r.status);
    out.location = {r.clause.file, r.clause.line};
    out.message = r.clause.id + " " + out.status + " for subject " + r.subject;
    if (!r.detail.empty()) out.message += ": " + r.detail;
    out.fingerprint_key = r.clause.id + "|" + r.subject + "|" + out.status;
    for (const auto& ch : r.checks) {
      if (ch.result.outcome == Outcome::pass ||
          !(ch.result.violated.empty() || ch.result.violated.count(r.clause.id)))
        continue;
      const std::string name = std::string(check_kind_name(ch.ref.kind)) + " " + ch.ref.name;
      out.fingerprint_key += "|" + name;
      if (r.detail.empty() && !ch.result.detail.empty()) out.message += ": " + ch.result.detail;
      const std::string& cex =
          ch.result.counterexample.empty() ? ch.result.detail : ch.result.counterexample;
      out.flows.push_back({name + (ch.result.replay.empty() ? "" : "; replay: " + ch.result.replay),
                           sarif_detail::split(cex, '\n')});
      if (!ch.result.replay.empty()) out.replay.push_back(ch.result.replay);
    }
    if (r.status == Status::accepted)
      if (const Acceptance* a = r.clause.acceptance_for(r.subject)) out.suppression = a->reason;
    out.properties.push_back({"subject", r.subject});
    results.push_back(std::move(out));
  }
  return write_sarif(clauses, results, o, report.errors);
}

// The SARIF log of one `idlespec check`: the clauses the check names are the
// rules; a failure is a result per violated clause, an unknown a warning per
// clause; a pass has no result.
inline std::string check_sarif(const Check& check, const std::string& subject, const CheckResult& r,
                               const SpecIndex& spec, const SarifOptions& o = {}) {
  VerifyReport report;
  for (const auto& id : check.clauses) {
    ClauseReport cr;
    if (const Clause* c = spec.find(id)) {
      cr.clause = *c;
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
