// A validate report as JSON (`idlespec validate --json`, and each side of
// review's): its parts, runs and clause verdicts.
#include <sstream>
#include <string>

#include "validate/targets.h"
#include "verify/report.h"
#include "verify/report_format.h"

namespace idlespec::validate {

using verify::fixed;
using verify::json_list;
using verify::json_string;

namespace {

// A verdict on each target it was judged on (validate/targets.h).
std::string targets_json(const ClauseVerdict& v) {
  std::string o = "[";
  for (size_t i = 0; i < v.targets.size(); ++i) {
    const auto& t = v.targets[i];
    o += (i ? "," : "");
    o += "{\"target\":" + json_string(t.target) + ",\"status\":" + json_string(t.status) +
         ",\"detail\":" + json_string(t.detail) +
         ",\"proof\":" + json_string(t.status == "held" ? t.proof : std::string()) + "}";
  }
  return o + "]";
}

std::string clause_json(const ClauseVerdict& v) {
  return "{\"id\":" + json_string(v.id) + ",\"component\":" + json_string(v.component) +
         ",\"function\":" + json_string(v.function) + ",\"file\":" + json_string(v.file) +
         ",\"line\":" + std::to_string(v.line) + ",\"subject\":" + json_string(v.subject) +
         ",\"status\":" + json_string(v.status) + ",\"coverage\":" + json_string(v.coverage) +
         ",\"error\":" + json_string(v.error) + ",\"note\":" + json_string(v.note) +
         ",\"follows_from\":" + json_string(v.follows_from) +
         ",\"spec_note\":" + json_string(v.spec_note) + ",\"fixed_by\":" + json_string(v.fixed_by) +
         ",\"era\":" + json_string(v.era) + ",\"replay\":" + json_string(v.replay) +
         ",\"counterexamples\":" + json_list(v.counterexamples) +
         ",\"proof\":" + json_string(v.proof) + ",\"proof_note\":" + json_string(v.proof_note) +
         ",\"alarm\":" + json_string(v.alarm) + ",\"alarm_file\":" + json_string(v.alarm_file) +
         ",\"alarm_line\":" + std::to_string(v.alarm_line) +
         (v.subjects_compared ? ",\"fails_like\":" + json_list(v.fails_like) : std::string()) +
         ",\"targets\":" + targets_json(v) + ",\"where\":" + json_string(where_text(v)) + "}";
}

}  // namespace

std::string render_json(const Report& rep) {
  std::ostringstream o;
  o << "{\"subject\":" << json_string(rep.subject)
    << ",\"judged_subject\":" << json_string(rep.judged_subject)
    << ",\"sandbox\":" << json_string(rep.sandbox.empty() ? "on" : rep.sandbox) << ",\"parts\":[";
  for (size_t i = 0; i < rep.parts.size(); ++i) {
    const auto& p = rep.parts[i];
    o << (i ? "," : "") << "{\"component\":" << json_string(p.component)
      << ",\"file\":" << json_string(p.file) << ",\"functions\":[";
    for (size_t k = 0; k < p.functions.size(); ++k) {
      const auto& f = p.functions[k];
      o << (k ? "," : "") << "{\"name\":" << json_string(f.name)
        << ",\"found\":" << (f.found ? "true" : "false") << ",\"first_line\":" << f.first_line
        << ",\"last_line\":" << f.last_line << "}";
    }
    o << "],\"prelude\":" << json_list(p.prelude)
      << ",\"build_error\":" << json_string(p.build_error) << ",\"runs\":[";
    for (size_t k = 0; k < p.runs.size(); ++k) {
      const auto& r = p.runs[k];
      o << (k ? "," : "") << "{\"build\":" << json_string(r.build)
        << ",\"mode\":" << json_string(r.mode) << ",\"seconds\":" << fixed(r.seconds, 3)
        << ",\"outcome\":" << json_string(r.outcome) << "}";
    }
    o << "],\"escapes\":" << json_list(p.escapes) << ",\"notes\":" << json_list(p.notes)
      << ",\"seconds\":" << fixed(p.seconds, 3) << "}";
  }
  o << "],\"clauses\":[";
  for (size_t i = 0; i < rep.clauses.size(); ++i)
    o << (i ? "," : "") << clause_json(rep.clauses[i]);
  o << "],\"notes\":" << json_list(rep.notes) << ",\"error\":" << json_string(rep.error)
    << ",\"seconds\":" << fixed(rep.seconds, 3) << ",\"exit_code\":" << rep.exit_code << "}\n";
  return o.str();
}

}  // namespace idlespec::validate
