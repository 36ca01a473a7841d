// Review's clause diff as text, JSON (both sides' validate reports inside)
// and Markdown (a pull request's job summary).
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "verify/report.h"
#include "verify/report_format.h"

namespace idlespec::validate {

std::string render_review_text(const ReviewReport& rr) {
  std::ostringstream o;
  o << "idlespec review: " << rr.patch;
  if (!rr.subject.empty()) o << "\n  \"" << rr.subject << "\"";
  o << "\n";
  for (const auto& t : rr.touched) o << "  touches " << t << "\n";
  if (rr.before.clauses.empty() && rr.after.clauses.empty() && rr.reused.empty())
    o << "  the patch touches no file with a function validate checks\n";
  size_t unchanged = 0;
  std::map<std::string, size_t> still;
  std::set<std::string> changed;
  for (const auto& c : rr.changes) changed.insert(c.component + " " + c.id + " " + c.function);
  for (const auto& v : rr.after.clauses)
    if (!changed.count(v.component + " " + v.id + " " + v.function)) ++unchanged, ++still[v.status];
  if (rr.changes.empty()) {
    o << "no clause changed its verdict";
  } else {
    o << "clauses whose verdict changed (before -> after):\n";
    for (const auto& c : rr.changes) {
      o << "  " << c.id << " [" << c.function << "] " << c.before << " -> " << c.after;
      if (!inputs_text(c).empty()) o << ": " << inputs_text(c);
      if (!c.where.empty()) o << " (" << c.where << ")";
      if ((c.after == "failed" || c.after == "uncovered") && c.before != "failed" &&
          c.before != "uncovered")
        o << "   NEWLY FAILED";
      if (c.newly_failing + c.another_way) o << "   NEWLY FAILING INPUTS";
      o << "\n";
      if (c.newly_failing + c.another_way && !c.counterexamples.empty())
        o << "      " << (c.newly_failing ? "newly failing" : "failing another way") << ", e.g.:\n";
      for (const auto& x : c.counterexamples) o << "      " << x << "\n";
      for (const auto& x : c.repaired_examples)
        o << "      repaired, e.g. (before the patch):\n      " << x << "\n";
    }
    o << "unchanged";
  }
  if (unchanged) {
    o << ": " << unchanged << " clause(s)";
    for (const auto& [s, n] : still) o << ", " << n << " " << s;
  }
  o << "\n";
  for (const auto& e : rr.escapes) o << "escape: " << e << " (a finding: exit 1)\n";
  for (const auto& n : rr.notes_after) o << "error: " << n << "\n";
  for (const auto& n : rr.reused) o << "note: " << n << "\n";
  for (const auto& n : rr.cache_notes) o << "note: " << n << "\n";
  if (!rr.error.empty()) o << "error: " << rr.error << "\n";
  o << "exit " << rr.exit_code << "\n";
  return o.str();
}

std::string render_review_markdown(const ReviewReport& rr) {
  std::ostringstream o;
  o << "### idlespec review: " << markdown_cell(rr.patch) << "\n\n";
  if (!rr.subject.empty()) o << "*" << markdown_cell(rr.subject) << "*\n\n";
  for (const auto& t : rr.touched) o << "- touches `" << t << "`\n";
  if (!rr.touched.empty()) o << "\n";
  const auto failing = [](const std::string& s) { return s == "failed" || s == "uncovered"; };
  if (rr.changes.empty()) {
    o << "No clause changed its verdict.\n\n";
  } else {
    o << "| clause | function | before | after | |\n|---|---|---|---|---|\n";
    for (const auto& c : rr.changes) {
      const bool newly = failing(c.after) && !failing(c.before);
      o << "| " << c.id << " | `" << c.function << "` | " << c.before << " | "
        << (newly || c.newly_failing + c.another_way ? "**" + c.after + "**" : c.after)
        << (c.where.empty() ? "" : " (" + markdown_cell(c.where) + ")") << " | "
        << (newly ? "newly failed" : inputs_text(c)) << " |\n";
    }
    o << "\n";
    for (const auto& c : rr.changes) {
      if (c.counterexamples.empty() && c.repaired_examples.empty()) continue;
      o << "<details><summary>" << c.id << " [" << c.function << "] " << c.before << " -> "
        << c.after << (inputs_text(c).empty() ? "" : ": " + inputs_text(c))
        << "</summary>\n\n```\n";
      for (const auto& x : c.counterexamples)
        o << (c.newly_failing ? "newly failing: "
              : c.another_way ? "failing another way: "
                              : "")
          << x << "\n";
      for (const auto& x : c.repaired_examples) o << "repaired (before the patch): " << x << "\n";
      o << "```\n</details>\n\n";
    }
  }
  o << "After the patch: " << verdict_counts(rr.after.clauses) << "; exit " << rr.exit_code << "\n";
  for (const auto& e : rr.escapes)
    o << "\n- **escape**: " << markdown_cell(e) << " (a finding: the review fails)";
  for (const auto& n : rr.notes_after) o << "\n- error: " << markdown_cell(n);
  for (const auto& n : rr.reused) o << "\n- note: " << markdown_cell(n);
  for (const auto& n : rr.cache_notes) o << "\n- note: " << markdown_cell(n);
  if (!rr.error.empty()) o << "\n- error: " << markdown_cell(rr.error);
  o << "\n";
  return o.str();
}

std::string render_review_json(const ReviewReport& rr) {
  using verify::json_list;
  const auto js = [](const std::string& s) { return verify::json_string(s); };
  std::ostringstream o;
  o << "{\"patch\":" << js(rr.patch) << ",\"subject\":" << js(rr.subject)
    << ",\"touched\":" << json_list(rr.touched) << ",\"changes\":[";
  for (size_t i = 0; i < rr.changes.size(); ++i) {
    const auto& c = rr.changes[i];
    o << (i ? "," : "") << "{\"id\":" << js(c.id) << ",\"component\":" << js(c.component)
      << ",\"function\":" << js(c.function) << ",\"file\":" << js(c.file)
      << ",\"before\":" << js(c.before) << ",\"after\":" << js(c.after)
      << ",\"where\":" << js(c.where) << ",\"newly_failing_inputs\":" << c.newly_failing
      << ",\"failing_another_way\":" << c.another_way << ",\"repaired_inputs\":" << c.repaired
      << ",\"counterexamples\":" << json_list(c.counterexamples)
      << ",\"repaired_examples\":" << json_list(c.repaired_examples) << "}";
  }
  std::string before = render_json(rr.before), after = render_json(rr.after);
  while (!before.empty() && before.back() == '\n') before.pop_back();
  while (!after.empty() && after.back() == '\n') after.pop_back();
  o << "],\"escapes\":" << json_list(rr.escapes) << ",\"reused\":" << json_list(rr.reused)
    << ",\"cache_notes\":" << json_list(rr.cache_notes) << ",\"before\":" << before
    << ",\"after\":" << after << ",\"error\":" << js(rr.error) << ",\"exit_code\":" << rr.exit_code
    << "}\n";
  return o.str();
}

}  // namespace idlespec::validate
