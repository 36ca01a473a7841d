// The components validate knows (the spec's "validate FUNCTION" checks give
// each clause its function), the verdicts a component's check starts from,
// and a candidate library's stand-in for extracted text.
#include "validate/component.h"

#include <algorithm>
#include <string>
#include <vector>

#include "verify/spec_index.h"

namespace idlespec::validate {

// Which function each clause is judged on comes from the spec's "validate
// FUNCTION" checks (the first one named, for the component's table; a
// component whose check covers several functions reports each).
const verify::SpecIndex& spec() {
  static const verify::SpecIndex index = verify::builtin_spec();
  return index;
}

const std::vector<Component>& components() {
  static const std::vector<Component> all = [] {
    std::vector<Component> cs = {
        {"busy_delay",
         "arch/powerpc/kernel/rtas.c",
         {"rtas_busy_delay_time", "rtas_busy_delay"},
         {},
         &check_busy_delay},
        {"xcede", "drivers/cpuidle/cpuidle-pseries.c", {"parse_cede_parameters"}, {}, &check_xcede},
        {"states",
         "drivers/cpuidle/cpuidle-pseries.c",
         {"fixup_cede0_latency", "pseries_idle_probe"},
         {},
         &check_states},
        {"governor",
         "drivers/cpuidle/governors/menu.c",
         {"menu_select", "menu_update"},
         {},
         &check_governor},
        {"teo",
         "drivers/cpuidle/governors/teo.c",
         {"teo_select", "teo_reflect", "teo_update"},
         {},
         &check_teo},
        {"idle_core",
         "arch/powerpc/platforms/powernv/idle.c",
         {"power7_idle_insn", "power9_idle_stop"},
         {},
         &check_idle_core},
    };
    for (auto& c : cs)
      for (const auto& clause : spec().clauses)
        if (clause.component == c.name && !clause.validate_functions.empty())
          c.clauses.emplace_back(clause.id, clause.validate_functions.front());
    return cs;
  }();
  return all;
}

const Component* find_component(const std::string& name) {
  for (const auto& c : components())
    if (c.name == name) return &c;
  return nullptr;
}

std::string conflict_markers(const std::string& text) {
  std::vector<size_t> lines;
  bool opens = false, closes = false;
  size_t line = 1;
  for (size_t at = 0; at < text.size(); ++line) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string l = text.substr(at, end - at);
    const bool open = l.rfind("<<<<<<< ", 0) == 0 || l == "<<<<<<<";
    const bool close = l.rfind(">>>>>>> ", 0) == 0 || l == ">>>>>>>";
    if (open || close || l == "=======") lines.push_back(line);
    opens = opens || open;
    closes = closes || close;
    at = end + 1;
  }
  // "=======" alone may be a ruler in a comment: a conflict opens and closes.
  if (!opens || !closes) return "";
  std::string out = "lines ";
  for (size_t i = 0; i < lines.size() && i < 5; ++i)
    out += (i ? ", " : "") + std::to_string(lines[i]);
  if (lines.size() > 5) out += " and " + std::to_string(lines.size() - 5) + " more";
  return out;
}

void mark_not_found(ClauseVerdict& v, const std::string& text) {
  const std::string markers = conflict_markers(text);
  if (markers.empty()) {
    v.status = "absent";
    return;
  }
  v.status = "error";
  v.error = v.function + "() not found in text with version-control conflict markers (" + markers +
            "): resolve the conflict first";
}

ClauseVerdict clause_verdict(const Component& component, const Target& target,
                             const std::vector<FoundFunction>& functions, const std::string& id,
                             const std::string& fn) {
  ClauseVerdict v;
  v.id = id;
  v.component = component.name;
  v.function = fn;
  v.file = target.display;
  for (const auto& f : functions)
    if (f.name == fn && f.found) v.line = f.first_line;
  return v;
}

void fill_verdicts(const Component& component, const Target& target, Part& part,
                   const std::string& status, const std::string& why) {
  if (part.functions.empty())
    part.functions = extract(target.text, target.functions, target.path).functions;
  for (const auto& [id, fn] : component.clauses) {
    if (std::find(target.functions.begin(), target.functions.end(), fn) == target.functions.end())
      continue;
    ClauseVerdict v = clause_verdict(component, target, part.functions, id, fn);
    bool found = false;
    for (const auto& f : part.functions)
      if (f.name == fn && f.found) found = true, v.status = status;
    if (found)
      (status == "error" ? v.error : v.note) = why;
    else
      mark_not_found(v, target.text);
    part.clauses.push_back(v);
  }
}

Extraction candidate_extraction(const Options& opt, const Target& target,
                                const std::string& define) {
  Extraction ex;
  ex.code = "#define IDLESPEC_CANDIDATE_PATH \"" + target.candidate + "\"\n#define " + define +
            "\n#include \"" + opt.harness_dir + "/candidate_adapter.c\"\n";
  for (const auto& f : target.functions) {
    FoundFunction found;
    found.name = f;
    found.found = std::find(target.implemented.begin(), target.implemented.end(), f) !=
                  target.implemented.end();
    ex.functions.push_back(found);
  }
  ex.prelude.push_back("candidate library " + target.candidate);
  return ex;
}

}  // namespace idlespec::validate
