// Every string of a validate report through report_text() (impl/text.h):
// what the code under test printed or made a compiler quote reaches no
// terminal, log, JSON, Markdown, SARIF or HTML raw.
#include <string>
#include <vector>

#include "impl/text.h"
#include "validate/validate.h"

namespace idlespec::validate {

void make_report_safe(Report& report) {
  auto safe = [](std::string& s) { s = report_text(s); };
  auto safe_all = [&](std::vector<std::string>& v) {
    for (auto& s : v) safe(s);
  };
  for (std::string* s : {&report.subject, &report.judged_subject, &report.sandbox, &report.error})
    safe(*s);
  safe_all(report.notes);
  auto safe_clause = [&](ClauseVerdict& v) {
    for (std::string* s :
         {&v.id, &v.component, &v.function, &v.file, &v.subject, &v.status, &v.coverage, &v.error,
          &v.note, &v.spec_note, &v.fixed_by, &v.era, &v.replay})
      safe(*s);
    safe_all(v.counterexamples);
    safe_all(v.fails_like);
    for (auto& [key, text] : v.failing_inputs) safe(key), safe(text);
    for (auto& t : v.targets)
      for (std::string* s : {&t.target, &t.status, &t.detail, &t.proof}) safe(*s);
  };
  for (auto& p : report.parts) {
    for (std::string* s : {&p.component, &p.file, &p.build_error, &p.temp_dir}) safe(*s);
    for (auto& f : p.functions) safe(f.name);
    safe_all(p.prelude);
    safe_all(p.notes);
    safe_all(p.escapes);
    for (auto& r : p.runs)
      for (std::string* s : {&r.build, &r.mode, &r.outcome}) safe(*s);
    for (auto& v : p.clauses) safe_clause(v);
  }
  for (auto& v : report.clauses) safe_clause(v);
}

}  // namespace idlespec::validate
