// `idlespec review --reply FILE`: the review of a series as the mail a
// maintainer sends (see validate/series.h and docs/review.md).
//
// One reply per patch that newly fails a clause, as the kernel's lists
// expect one: plain text, no HTML, no Markdown; In-Reply-To and References
// from the patch's Message-ID; "Re: " and the patch's subject; the author
// in To, the patch's To and Cc in Cc; only the hunks of the functions the
// failed clauses concern quoted ("> "), each clause said beneath its hunk
// with the spec's sentence, the counterexample and the command that
// reproduces it; everything but the quoted code wrapped at 72 columns.
#include <map>
#include <set>
#include <sstream>

#include "impl/text.h"
#include "validate/component.h"
#include "validate/series.h"
#include "verify/spec_index.h"

namespace idlespec::validate {

namespace {

constexpr size_t kWidth = 72;
// A quoted hunk longer than this keeps its first and last kQuoteEdge lines
// around a "[...]", as a reviewer trims one.
constexpr size_t kQuoteMax = 40, kQuoteEdge = 14;

bool failing(const std::string& s) { return s == "failed" || s == "uncovered"; }

// A header value from a stranger's mail: one line, no control characters
// (a decoded word may carry a line break that would start a new header).
std::string header_value(const std::string& v) {
  std::string out;
  for (unsigned char c : v) out += (c < 0x20 || c == 0x7f) ? ' ' : static_cast<char>(c);
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream is(text);
  for (std::string l; std::getline(is, l);) out.push_back(l);
  return out;
}

struct QuotedHunk {
  std::string file;
  size_t diff_line = 0;       // the "diff --git" line
  size_t first = 0, end = 0;  // the "@@" line, one past the hunk's last line
  int new_start = 0, new_count = 0;
};

// The hunks of a patch mail, with where they are in its text.
std::vector<QuotedHunk> hunks_of(const std::vector<std::string>& lines) {
  std::vector<QuotedHunk> out;
  std::string file;
  size_t diff_line = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.rfind("diff --git ", 0) == 0) {
      diff_line = i;
      file.clear();
    } else if (l.rfind("+++ ", 0) == 0) {
      file = l.substr(4);
      if (file.rfind("b/", 0) == 0) file = file.substr(2);
      const size_t tab = file.find('\t');
      if (tab != std::string::npos) file.resize(tab);
    } else if (l.rfind("@@ -", 0) == 0 && !file.empty()) {
      int os = 0, oc = 1, ns = 0, nc = 1;
      if (std::sscanf(l.c_str(), "@@ -%d,%d +%d,%d @@", &os, &oc, &ns, &nc) != 4) {
        oc = nc = 1;
        if (std::sscanf(l.c_str(), "@@ -%d +%d,%d @@", &os, &ns, &nc) != 3 &&
            std::sscanf(l.c_str(), "@@ -%d,%d +%d @@", &os, &oc, &ns) != 3)
          std::sscanf(l.c_str(), "@@ -%d +%d @@", &os, &ns);
      }
      QuotedHunk h{file, diff_line, i, i + 1, ns, nc};
      int old_left = oc, new_left = nc;
      size_t j = i + 1;
      for (; j < lines.size() && (old_left > 0 || new_left > 0); ++j) {
        const char c = lines[j].empty() ? ' ' : lines[j][0];
        if (c == ' ')
          --old_left, --new_left;
        else if (c == '-')
          --old_left;
        else if (c == '+')
          --new_left;
        else if (c != '\\')
          break;
      }
      h.end = j;
      out.push_back(h);
      i = j - 1;
    }
  }
  return out;
}

std::string quote(const std::vector<std::string>& lines, const QuotedHunk& h) {
  std::string out = "> " + report_text(lines[h.diff_line], 400) + "\n";
  auto one = [&](size_t i) {
    const std::string l = report_text(lines[i], 400);
    out += l.find_first_not_of(' ') == std::string::npos ? ">\n" : "> " + l + "\n";
  };
  if (h.end - h.first <= kQuoteMax) {
    for (size_t i = h.first; i < h.end; ++i) one(i);
  } else {
    for (size_t i = h.first; i < h.first + 1 + kQuoteEdge; ++i) one(i);
    out += "> [...]\n";
    for (size_t i = h.end - kQuoteEdge; i < h.end; ++i) one(i);
  }
  return out;
}

// "Ada Example" of "Ada Example <ada@example.org>".
std::string author_name(const std::string& from) {
  std::string name = from.substr(0, from.find('<'));
  while (!name.empty() && (name.back() == ' ' || name.back() == '"')) name.pop_back();
  while (!name.empty() && (name.front() == ' ' || name.front() == '"')) name.erase(name.begin());
  return name.empty() ? from : name;
}

std::string clause_words(const std::string& id) {
  if (const verify::Clause* c = spec().find(id)) return c->obligation;
  return "";
}

std::string clause_file(const std::string& id) {
  if (const verify::Clause* c = spec().find(id)) return "spec/" + c->component + ".md";
  return "spec/";
}

// The command that reproduces a verdict on the tree as the patch leaves it.
std::string replay_command(const ClauseChange& c, const SeriesOptions& so) {
  std::string cmd = "idlespec validate --source " + c.file + " --component " + c.component;
  if (so.review.validate.subject_given) cmd += " --subject " + so.review.validate.subject;
  if (so.review.validate.seed != 1) cmd += " --seed " + std::to_string(so.review.validate.seed);
  return cmd;
}

// A shell command over several lines, each within the width.
std::string wrap_command(const std::string& cmd) {
  std::vector<std::string> units;  // "--component busy_delay" is one
  std::istringstream words(cmd);
  for (std::string w; words >> w;) {
    if (!units.empty() && units.back().rfind("--", 0) == 0 &&
        units.back().find(' ') == std::string::npos && w.rfind("--", 0) != 0)
      units.back() += " " + w;
    else
      units.push_back(w);
  }
  std::string out = "  ";
  size_t col = 2;
  for (size_t i = 0; i < units.size(); ++i) {
    if (i > 0 && col + 1 + units[i].size() + 2 > kWidth) {
      out += " \\\n      ";
      col = 6;
    } else if (i > 0) {
      out += ' ';
      ++col;
    }
    out += units[i];
    col += units[i].size();
  }
  return out + "\n";
}

std::string reply_to(const SeriesPatch& p, const SeriesOptions& so) {
  std::vector<const ClauseChange*> newly;
  for (const auto& c : p.changes)
    if (failing(c.after) && !failing(c.before)) newly.push_back(&c);
  if (newly.empty()) return "";
  const std::vector<std::string> lines = lines_of(p.text);
  const std::vector<QuotedHunk> hunks = hunks_of(lines);
  // Each clause under the first hunk of its function (else of its file).
  std::map<size_t, std::vector<const ClauseChange*>> under;
  std::vector<const ClauseChange*> unplaced;
  for (const ClauseChange* c : newly) {
    const auto range = p.function_lines.find(c->file + " " + c->function);
    size_t pick = hunks.size();
    for (size_t i = 0; i < hunks.size() && pick == hunks.size(); ++i) {
      const QuotedHunk& h = hunks[i];
      if (h.file != c->file || range == p.function_lines.end()) continue;
      const int last = h.new_start + std::max(h.new_count, 1) - 1;
      if (h.new_start <= range->second.second && last >= range->second.first) pick = i;
    }
    for (size_t i = 0; i < hunks.size() && pick == hunks.size(); ++i)
      if (hunks[i].file == c->file) pick = i;
    if (pick == hunks.size())
      unplaced.push_back(c);
    else
      under[pick].push_back(c);
  }

  std::string refs;
  // References folded as mailers fold it: one id per continuation line
  // once the line is full.
  size_t line_len = std::string("References: ").size();
  auto add_ref = [&](const std::string& id) {
    std::string one = "<";
    one += header_value(id);
    one += '>';
    if (!refs.empty() && line_len + 1 + one.size() > kWidth) {
      refs += "\n ";
      line_len = 1;
    } else if (!refs.empty()) {
      refs += ' ';
      ++line_len;
    }
    refs += one;
    line_len += one.size();
  };
  for (const auto& r : p.references) add_ref(r);
  if (!p.message_id.empty()) add_ref(p.message_id);
  std::string subject = header_value(p.subject);
  if (subject.rfind("Re:", 0) != 0) subject = "Re: " + subject;
  std::ostringstream o;
  o << "From idlespec-review Mon Sep 17 00:00:00 2001\n";
  o << "Subject: " << subject << "\n";
  if (!p.message_id.empty()) o << "In-Reply-To: <" << header_value(p.message_id) << ">\n";
  if (!refs.empty()) o << "References: " << refs << "\n";
  if (!p.from.empty()) o << "To: " << header_value(p.from) << "\n";
  std::string cc = p.to;
  if (!p.cc.empty()) cc += (cc.empty() ? "" : ", ") + p.cc;
  if (!cc.empty()) o << "Cc: " << header_value(cc) << "\n";
  o << "Content-Type: text/plain; charset=UTF-8\n\n";
  const std::string who = header_value(author_name(p.from));
  o << wrap_text((p.date.empty() ? "" : "On " + header_value(p.date) + ", ") +
                     (who.empty() ? "the patch" : who) + " wrote:",
                 kWidth, "")
    << "\n";

  auto say = [&](const ClauseChange& c) {
    std::string s = "\n";
    s += wrap_text("This breaks " + c.id + " for " + c.function + "() (" + clause_file(c.id) +
                       (c.where.empty() ? "" : "; " + c.where) + "):",
                   kWidth, "") +
         "\n\n";
    if (const std::string w = clause_words(c.id); !w.empty())
      s += wrap_text("  " + w, kWidth, "  ") + "\n\n";
    if (!c.counterexamples.empty()) {
      s += c.counterexamples.size() == 1 ? "A counterexample:\n\n" : "Counterexamples:\n\n";
      size_t shown = 0;
      for (const auto& x : c.counterexamples) {
        if (++shown > 3) {
          s += "  (and " + std::to_string(c.counterexamples.size() - 3) +
               " more, which the command below lists)\n";
          break;
        }
        s += wrap_text("  " + report_text(x, 2000), kWidth, "    ") + "\n";
      }
      s += "\n";
    }
    s += "With the series applied up to this patch, this reproduces it:\n\n";
    s += wrap_command(replay_command(c, so));
    return s;
  };
  bool first = true;
  for (const auto& [h, cs] : under) {
    o << (first ? "" : "\n") << quote(lines, hunks[h]);
    first = false;
    for (const ClauseChange* c : cs) o << say(*c);
  }
  for (const ClauseChange* c : unplaced) o << say(*c);
  return o.str();
}

}  // namespace

std::string wrap_text(const std::string& text, size_t width, const std::string& indent) {
  // Words separated by spaces; a word longer than the line stays whole.
  std::string out, line;
  size_t lead = 0;
  while (lead < text.size() && text[lead] == ' ') ++lead;
  line = text.substr(0, lead);
  bool empty_line = true;
  std::istringstream words(text.substr(lead));
  for (std::string w; words >> w;) {
    if (!empty_line && line.size() + 1 + w.size() > width) {
      out += line + "\n";
      line = indent;
      empty_line = true;
    }
    line += (empty_line ? "" : " ") + w;
    empty_line = false;
  }
  out += line;
  return out;
}

std::string render_series_replies(const SeriesReport& sr, const SeriesOptions& so) {
  if (sr.versions.empty()) return "";
  std::string out;
  for (const auto& p : sr.versions.back().patches) {
    const std::string mail = reply_to(p, so);
    if (!mail.empty()) out += (out.empty() ? "" : "\n") + mail;
  }
  return out;
}

}  // namespace idlespec::validate
