// A validate report in Markdown (a CI job summary): the verdict counts and
// a clause table, every cell of it escaped (markdown_cell, which review and
// matrix use too).
#include <sstream>
#include <string>

#include "validate/targets.h"
#include "verify/report.h"

namespace idlespec::validate {

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|' || c == '`' || c == '[' || c == ']' || c == '\\')
      out += std::string("\\") + c;  // no table cell, code span or link of the text's own
    else if (c == '\n')
      out += "<br>";
    else if (c == '<')
      out += "&lt;";
    else
      out += c;
  }
  return out;
}

std::string render_markdown(const Report& rep) {
  std::ostringstream o;
  o << "### idlespec validate: " << markdown_cell(rep.subject) << "\n\n";
  o << verdict_counts(rep.clauses) << "; subject `" << rep.judged_subject << "`, exit "
    << rep.exit_code << "\n\n";
  if (!rep.sandbox.empty()) o << "> " << markdown_cell(rep.sandbox) << "\n\n";
  o << "| clause | function | file | verdict | why |\n|---|---|---|---|---|\n";
  for (const auto& v : rep.clauses) {
    const bool bad = v.status == "failed" || v.status == "uncovered";
    std::string why = v.spec_note;
    if (v.status == "accepted" && !v.fixed_by.empty())
      why += " (fixed upstream by " + v.fixed_by + ")";
    if (!v.counterexamples.empty()) why += (why.empty() ? "" : "; ") + v.counterexamples.front();
    if (const std::string a = alarm_beside(v); !a.empty()) why += (why.empty() ? "" : "; ") + a;
    if (!v.error.empty()) why += (why.empty() ? "" : "; ") + v.error;
    o << "| " << v.id << " | `" << v.function << "` | " << markdown_cell(v.file);
    if (v.line > 0) o << ":" << v.line;  // (GCC 12 warns of ":" + std::to_string() here)
    o << " | " << markdown_cell(bad ? "**" + v.status + "**" : v.status + proof_level(v))
      << (where_text(v).empty() ? "" : " (" + markdown_cell(where_text(v)) + ")") << " | "
      << markdown_cell(why) << " |\n";
  }
  for (const auto& p : rep.parts)
    for (const auto& e : p.escapes) o << "\n- escape: " << markdown_cell(e) << " (a finding)";
  if (!rep.error.empty()) o << "\n- error: " << markdown_cell(rep.error);
  o << "\n";
  return o.str();
}

}  // namespace idlespec::validate
