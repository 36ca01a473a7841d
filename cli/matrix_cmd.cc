// `idlespec matrix`: the release x clause table a distro maintainer reads.
// Each argument is a kernel tree (validated with --kernel-tree) or one file
// (--source); each becomes a column, named by the tree's Makefile version
// (or LABEL=PATH), and each clause validate judges a row. A failed cell names
// the upstream commit that fixes it where the spec records one; an error
// cell names what could not be judged; an absent function shows as absent.
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "impl/json.h"
#include "impl/text.h"
#include "sandbox/process.h"
#include "validate/command_line.h"
#include "validate/targets.h"
#include "validate/validate.h"
#include "verify/build_paths.h"
#include "verify/outputs.h"
#include "verify/report.h"
#include "verify/spec_index.h"

namespace idlespec::cli {
namespace {

constexpr const char* kMatrixUsage =
    R"(usage: idlespec matrix [LABEL=]TREE|FILE... [--format text|markdown|json] [options]

Validates each kernel tree (a directory: every checked component's file in
it) or file, and prints one table: a row per clause, a column per release.
A column is named LABEL, or by the tree's Makefile version (6.1.192), or by
the file's name.

  --format FORMAT        text (default), markdown, or json (also --json)
  --markdown FILE        also write the Markdown table to FILE (a job summary)
  --html DIR             also write a static HTML report into DIR (needs python3)
  and validate's --component, --function, --budget, --scan, --targets, --seed,
  --subject, --allow-unknown, --inputs, --fuzz, --fuzz-cc, --cases,
  --memory, --disk-quota, --no-sanitizers, --no-sandbox, --cc,
  --harness-dir, --keep-temp.

Cells: held (held (proven) or held (tested) for a clause Frama-C's EVA
covers: proven on the file's text, or the tests' verdict alone), accepted,
n/a, absent; failed (fix: the upstream commit that
fixed it, where the spec records one); error (what could not be judged);
unknown; uncovered. Below the table, each failed or errored cell's first
counterexample or message.

Exit codes (the same for verify, check, validate and review): 0 every
judged clause of every release held (n/a, absent, accepted allowed); 1 a
clause failed somewhere; 2 bad command line or an unreadable tree or file;
3 nothing failed but something could not be judged (--allow-unknown: 0).
)";

struct Column {
  std::string label, path;
  validate::Report report;
};

// The tree's Makefile is read like any file of a tree: bounded, never
// through a symlink out of the tree, never a FIFO or a device.
std::string makefile_version(const std::string& tree) {
  std::string text;
  if (!validate::inside_tree(tree, "Makefile").empty() ||
      !validate::read_input_file(tree + "/Makefile", 1u << 20, text).empty())
    return "";
  std::istringstream in(text);
  std::string line, version, patchlevel, sublevel;
  for (int i = 0; i < 12 && std::getline(in, line); ++i) {
    auto value = [&](const char* key, std::string& out) {
      const std::string k = std::string(key) + " = ";
      if (line.rfind(k, 0) == 0) out = line.substr(k.size());
    };
    value("VERSION", version);
    value("PATCHLEVEL", patchlevel);
    value("SUBLEVEL", sublevel);
  }
  if (version.empty() || patchlevel.empty()) return "";
  const auto plain = [](const std::string& v) {
    return v.size() <= 8 && v.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!plain(version) || !plain(patchlevel) || !plain(sublevel)) return "";
  return version + "." + patchlevel + (sublevel.empty() || sublevel == "0" ? "" : "." + sublevel);
}

std::string label_for(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    if (std::string v = makefile_version(path); !v.empty()) return v;
  }
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// The cell of one verdict: its status, with the fix or the construct.
// A clause judged on several targets (validate/targets.h) whose verdicts
// differ names the targets of the cell's status: "failed on ppc64".
std::string cell(const validate::ClauseVerdict& v) {
  std::string on;
  bool differ = false;
  for (const auto& t : v.targets) {
    differ = differ || t.status != v.status;
    if (t.status == v.status) on += (on.empty() ? "" : ",") + t.target;
  }
  const std::string status = differ ? v.status + " on " + on : v.status;
  if (v.status == "failed" && !v.fixed_by.empty()) return status + " (fix " + v.fixed_by + ")";
  // A clause Frama-C's EVA covers: proven apart from tested (validate/framac.h).
  if (v.status == "held" && !v.proof.empty()) return status + " (" + v.proof + ")";
  return status;
}

// The line under the table that explains a cell.
std::string footnote(const validate::ClauseVerdict& v) {
  std::string why;
  if (v.status == "failed") {
    why = v.counterexamples.empty() ? "" : v.counterexamples.front();
    if (!v.alarm.empty())
      why += (why.empty() ? "" : "; ") + std::string("EVA: ") + v.alarm + " at " + v.alarm_file +
             ":" + std::to_string(v.alarm_line);
    if (!v.spec_note.empty()) why += (why.empty() ? "" : "; ") + v.spec_note;
    // Where, when the targets' verdicts differ (the cell names them).
    const bool differ = std::any_of(v.targets.begin(), v.targets.end(),
                                    [&](const auto& t) { return t.status != v.status; });
    if (differ) why = validate::where_text(v) + (why.empty() ? "" : ": ") + why;
  } else if (v.status == "error" || v.status == "uncovered") {
    why = v.error.substr(0, v.error.find('\n'));
  } else if (v.status == "unknown") {
    why = v.note.empty() ? v.coverage : v.note;
  }
  return why;
}

// Row order: the spec's clause order as validate reports it, first seen.
std::vector<std::string> row_ids(const std::vector<Column>& cols) {
  std::vector<std::string> ids;
  for (const auto& c : cols)
    for (const auto& v : c.report.clauses)
      if (std::find(ids.begin(), ids.end(), v.id) == ids.end()) ids.push_back(v.id);
  return ids;
}

// Several verdicts of one clause in one release (idle_core judges a clause
// on each function): the worst decides the cell.
const validate::ClauseVerdict* pick(const validate::Report& r, const std::string& id) {
  static const char* rank[] = {"failed",   "uncovered", "error", "unknown",
                               "accepted", "held",      "n/a",   "absent"};
  const validate::ClauseVerdict* best = nullptr;
  auto order = [&](const std::string& s) {
    for (size_t i = 0; i < std::size(rank); ++i)
      if (s == rank[i]) return i;
    return std::size(rank);
  };
  for (const auto& v : r.clauses)
    if (v.id == id && (!best || order(v.status) < order(best->status))) best = &v;
  return best;
}

std::string render(const std::vector<Column>& cols, bool markdown) {
  const std::vector<std::string> ids = row_ids(cols);
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"clause"});
  for (const auto& c : cols)
    rows[0].push_back(markdown ? validate::markdown_cell(c.label) : c.label);
  std::vector<std::string> notes;
  for (const auto& id : ids) {
    std::vector<std::string> row = {id};
    for (const auto& c : cols) {
      const validate::ClauseVerdict* v = pick(c.report, id);
      row.push_back(v ? cell(*v) : "-");
      if (v)
        if (const std::string f = footnote(*v); !f.empty())
          notes.push_back(c.label + " " + id + " [" + v->function + "] " + v->status + ": " + f);
    }
    rows.push_back(row);
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  std::ostringstream o;
  for (size_t k = 0; k < rows.size(); ++k) {
    const auto& r = rows[k];
    for (size_t i = 0; i < r.size(); ++i) {
      if (markdown)
        o << "| " << r[i] << " ";
      else
        o << (i ? "  " : "") << r[i] << std::string(width[i] - r[i].size(), ' ');
    }
    o << (markdown ? "|\n" : "\n");
    if (markdown && k == 0) {
      for (size_t i = 0; i < r.size(); ++i) o << "|---";
      o << "|\n";
    }
  }
  if (!notes.empty()) o << "\n";
  const auto shown = [&](const std::string& t) {
    return markdown ? validate::markdown_cell(t) : t;
  };
  for (const auto& n : notes) o << (markdown ? "- " : "  ") << shown(n) << "\n";
  for (const auto& c : cols)
    for (const auto& n : c.report.notes)
      o << (markdown ? "- " : "  ") << shown(c.label + ": " + n) << "\n";
  // An escape attempt fails the whole matrix (exit 1), named here.
  for (const auto& c : cols)
    for (const auto& p : c.report.parts)
      for (const auto& e : p.escapes)
        o << (markdown ? "- **escape** " : "escape: ")
          << shown(c.label + ": " + p.file + " (" + p.component + "): " + e)
          << " (a finding: exit 1)\n";
  return o.str();
}

std::string render_json(const std::vector<Column>& cols, int exit_code) {
  JsonWriter w;
  w.begin_object().key("releases").begin_array();
  for (const auto& c : cols) {
    w.begin_object().key("label").value(c.label).key("path").value(c.path);
    w.key("subject")
        .value(c.report.judged_subject)
        .key("exit_code")
        .value(int64_t{c.report.exit_code});
    w.key("escapes").begin_array();
    for (const auto& p : c.report.parts)
      for (const auto& e : p.escapes) w.value(p.file + " (" + p.component + "): " + e);
    w.end_array();
    w.key("clauses").begin_array();
    for (const auto& v : c.report.clauses) {
      w.begin_object().key("id").value(v.id).key("function").value(v.function);
      w.key("file").value(v.file).key("status").value(v.status).key("fixed_by").value(v.fixed_by);
      w.key("proof").value(v.proof);
      w.key("targets").begin_array();
      for (const auto& t : v.targets)
        w.begin_object().key("target").value(t.target).key("status").value(t.status).end_object();
      w.end_array();
      w.key("why").value(footnote(v)).end_object();
    }
    w.end_array().end_object();
  }
  w.end_array().key("exit_code").value(int64_t{exit_code}).end_object();
  return w.str() + "\n";
}

}  // namespace

int matrix_command(const std::vector<std::string>& argv) {
  const std::string prog = "idlespec matrix";
  std::string format = "text";
  std::vector<std::string> rest;
  for (size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "--format") {
      if (i + 1 >= argv.size() ||
          (argv[i + 1] != "text" && argv[i + 1] != "markdown" && argv[i + 1] != "json")) {
        std::cerr << prog << ": --format takes text, markdown or json (see --help)\n";
        return validate::kExitUsage;
      }
      format = argv[++i];
    } else {
      rest.push_back(argv[i]);
    }
  }
  validate::CommandLine p;
  std::vector<std::string> positional;
  if (const int rc = validate::parse_front_end(rest, idlespec::build::harness_dir(), prog,
                                               kMatrixUsage, p, positional);
      rc >= 0)
    return rc;
  if (p.json) format = "json";
  if (positional.empty() || !p.opt.source.empty() || !p.opt.kernel_tree.empty() ||
      !p.opt.candidate.empty() || !p.junit.empty() || !p.sarif.empty()) {
    std::cerr << prog << ": give one or more [LABEL=]TREE|FILE (no --source, --kernel-tree, "
              << "--candidate, --junit, --sarif; see --help)\n";
    return validate::kExitUsage;
  }
  std::vector<Column> cols;
  std::vector<validate::ClauseVerdict> all;
  for (const auto& arg : positional) {
    if (validate::interrupted()) break;  // SIGINT/SIGTERM: no further release
    Column c;
    const size_t eq = arg.find('=');
    c.path = eq == std::string::npos ? arg : arg.substr(eq + 1);
    // Labels and paths are the caller's text (a tree name from a CI job):
    // control characters shown, not sent to the terminal or the Markdown.
    c.label = idlespec::untrusted_text(
        eq == std::string::npos ? label_for(c.path) : arg.substr(0, eq), 200);
    struct stat st;
    if (stat(c.path.c_str(), &st) != 0) {
      std::cerr << prog << ": " << idlespec::untrusted_text(c.path, 1024)
                << ": no such file or directory\n";
      return validate::kExitUsage;
    }
    validate::Options o = p.opt;
    (S_ISDIR(st.st_mode) ? o.kernel_tree : o.source) = c.path;
    std::fprintf(stderr, "%s: %s (%s)...\n", prog.c_str(), c.label.c_str(), c.path.c_str());
    c.report = validate::validate(o);
    if (!c.report.error.empty()) {
      std::cerr << prog << ": " << c.path << ": " << c.report.error << "\n";
      return validate::kExitUsage;
    }
    all.insert(all.end(), c.report.clauses.begin(), c.report.clauses.end());
    cols.push_back(std::move(c));
  }
  bool escaped = false;
  for (const auto& c : cols) escaped = escaped || validate::any_escape(c.report);
  const int rc = validate::command_exit_code(all, p.opt.allow_unknown, escaped);
  const std::string json = render_json(cols, rc);
  if (format == "json")
    std::cout << json;
  else
    std::cout << render(cols, format == "markdown");
  bool written = true;
  if (!p.markdown.empty())
    if (const std::string why = verify::write_output(p.markdown, render(cols, true));
        !why.empty()) {
      std::cerr << prog << ": " << why << "\n";
      written = false;
    }
  if (!p.html.empty())
    if (const std::string why =
            verify::write_html_report(p.html, "matrix", json, verify::builtin_spec());
        !why.empty()) {
      std::cerr << prog << ": --html " << p.html << ": " << why << "\n";
      written = false;
    }
  return written || rc == validate::kExitFailed ? rc : validate::kExitUsage;
}

}  // namespace idlespec::cli
