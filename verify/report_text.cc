// A validate report as text: each part's functions, runs and clause
// verdicts with their counterexamples, then the verdict counts and the exit
// code.
#include <cstdio>
#include <sstream>
#include <string>

#include "validate/targets.h"
#include "verify/report.h"

namespace idlespec::validate {

std::string render_text(const Report& rep) {
  std::ostringstream o;
  if (!rep.sandbox.empty()) o << rep.sandbox << "\n";
  for (const auto& p : rep.parts) {
    o << "idlespec validate: " << p.file << " (" << p.component << ")\n";
    for (const auto& f : p.functions) {
      if (f.found && f.first_line == 0)
        o << "  " << f.name << "  in the candidate library\n";
      else if (f.found)
        o << "  " << f.name << "  lines " << f.first_line << "-" << f.last_line << "\n";
      else
        o << "  " << f.name << "  not in the file\n";
    }
    if (!p.prelude.empty()) {
      o << "  with:";
      for (const auto& x : p.prelude) o << " " << x << ";";
      o << "\n";
    }
    if (!p.build_error.empty()) o << "  error: " << p.build_error << "\n";
    for (const auto& r : p.runs) {
      char line[120];
      std::snprintf(line, sizeof(line), "  run %-10s %-22s %7.2fs  ", r.build.c_str(),
                    r.mode.c_str(), r.seconds);
      o << line << r.outcome << "\n";
    }
    for (const auto& v : p.clauses) {
      o << v.id << " [" << v.function << "] " << v.status << proof_level(v);
      if (const std::string where = where_text(v); !where.empty()) o << " (" << where << ")";
      if (v.status == "failed" && !v.spec_note.empty()) o << ": " << v.spec_note;
      if (!v.coverage.empty()) o << "  (" << v.coverage << ")";
      o << "\n";
      if (v.status != "failed" && !v.spec_note.empty()) {
        o << "    spec: " << v.spec_note;
        if (v.status == "accepted" && !v.fixed_by.empty())
          o << " (fixed upstream by " << v.fixed_by << ")";
        o << "\n";
      }
      for (const auto& c : v.counterexamples) o << "    " << c << "\n";
      if (const std::string a = alarm_beside(v); !a.empty()) o << "    " << a << "\n";
      if (!v.replay.empty()) o << "    replay (--keep-temp): " << v.replay << "\n";
      if (!v.error.empty()) o << "    " << v.error << "\n";
      if (!v.note.empty()) o << "    note: " << v.note << "\n";
    }
    for (const auto& e : p.escapes) o << "escape: " << e << " (a finding: exit 1)\n";
    for (const auto& n : p.notes) o << "note: " << n << "\n";
    if (!p.temp_dir.empty()) o << "note: harness files kept in " << p.temp_dir << "\n";
  }
  for (const auto& n : rep.notes) o << "note: " << n << "\n";
  if (!rep.error.empty()) o << "error: " << rep.error << "\n";
  o << verdict_counts(rep.clauses);
  char secs[32];
  std::snprintf(secs, sizeof(secs), "; %.1fs", rep.seconds);
  o << secs << ", subject " << rep.judged_subject << ", exit " << rep.exit_code << "\n";
  if (!rep.sandbox.empty()) o << rep.sandbox << "\n";
  return o.str();
}

}  // namespace idlespec::validate
