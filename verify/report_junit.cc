// A validate report as JUnit XML: one testsuite per part, one testcase per
// clause (failure, error, skipped, or the spec's acceptance as output).
#include <sstream>
#include <string>

#include "validate/targets.h"
#include "verify/report.h"
#include "verify/report_format.h"

namespace idlespec::validate {

using verify::fixed;
using verify::xml_text;

std::string render_junit(const Report& rep) {
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"idlespec validate\">\n";
  for (const auto& p : rep.parts) {
    size_t failures = 0, errors = 0, skipped = 0;
    for (const auto& v : p.clauses) {
      failures += v.status == "failed" || v.status == "uncovered";
      errors += v.status == "error";
      skipped += v.status == "absent" || v.status == "unknown" || v.status == "n/a";
    }
    o << "  <testsuite name=\"" << xml_text(p.component + " " + p.file) << "\" tests=\""
      << p.clauses.size() << "\" failures=\"" << failures << "\" errors=\"" << errors
      << "\" skipped=\"" << skipped << "\" time=\"" << fixed(p.seconds, 3) << "\">\n";
    for (const auto& v : p.clauses) {
      o << "    <testcase classname=\"idlespec." << xml_text(v.component) << "\" name=\""
        << xml_text(v.id + " " + v.function) << "\" file=\"" << xml_text(v.file) << "\" line=\""
        << v.line << "\">";
      std::string body;
      for (const auto& c : v.counterexamples) body += c + "\n";
      if (!v.replay.empty()) body += "replay (--keep-temp): " + v.replay + "\n";
      if (v.status == "failed" || v.status == "uncovered")
        o << "<failure message=\""
          << xml_text(v.id + " " + v.status +
                      (where_text(v).empty() ? "" : " (" + where_text(v) + ")") +
                      (v.spec_note.empty() ? "" : ": " + v.spec_note))
          << "\">" << xml_text(body + v.error) << "</failure>";
      else if (v.status == "error")
        o << "<error message=\"" << xml_text(v.error) << "\"/>";
      else if (v.status == "accepted")
        o << "<system-out>" << xml_text(v.spec_note + "\n" + body) << "</system-out>";
      else if (v.status != "held")
        o << "<skipped message=\"" << xml_text(v.status + (v.note.empty() ? "" : ": " + v.note))
          << "\"/>";
      o << "</testcase>\n";
    }
    o << "  </testsuite>\n";
  }
  o << "</testsuites>\n";
  return o.str();
}

}  // namespace idlespec::validate
