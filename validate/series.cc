// `idlespec review` of a series: see validate/series.h.
#include "validate/series.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "extract/extract.h"
#include "extract/mbox.h"
#include "extract/patch.h"
#include "impl/text.h"
#include "sandbox/process.h"
#include "validate/component.h"
#include "verify/report.h"
#include "verify/report_format.h"

namespace idlespec::validate {
namespace {

namespace fs = std::filesystem;

bool failing(const std::string& s) { return s == "failed" || s == "uncovered"; }
// Judged and not failing: what "repaired" and "fixed" lead to (an error or
// an unknown after a failure repairs nothing).
bool passing(const std::string& s) { return s == "held" || s == "accepted" || s == "n/a"; }

std::string clause_key(const std::string& component, const std::string& id,
                       const std::string& function) {
  return component + " " + id + " " + function;
}

// What review() reads: the decoded mail as a plain message (no MIME left).
std::string review_text(const extraction::MailMessage& m) {
  if (!m.had_headers) return m.body;
  return "Subject: " + m.subject + "\nFrom: " + m.from + "\n\n" + m.body;
}

std::string label_of(const SeriesPatch& p) {
  return std::to_string(p.number) + "/" + std::to_string(p.total);
}

// A tree path from a patch may name a file the scratch copy gets from the
// kernel tree: a relative path of plain components, inside the tree.
bool copy_from_tree(const std::string& tree, const std::string& rel, const std::string& to) {
  if (rel.empty() || rel == "/dev/null" || rel.front() == '/' ||
      rel.find("..") != std::string::npos)
    return false;
  if (!sandbox::inside_tree(tree, rel).empty()) return false;
  std::error_code ec;
  const fs::path src = fs::path(tree) / rel;
  if (!fs::is_regular_file(fs::symlink_status(src, ec))) return false;
  fs::create_directories((fs::path(to) / rel).parent_path(), ec);
  return fs::copy_file(src, fs::path(to) / rel, fs::copy_options::overwrite_existing, ec);
}

// Whether a reply quotes diff lines ("> +", "> @@", "> diff --git").
bool quotes_a_diff(const std::string& body) {
  std::istringstream is(body);
  for (std::string l; std::getline(is, l);) {
    if (l.rfind("> ", 0) != 0 || l.size() < 3) continue;
    const std::string rest = l.substr(2);
    if (rest.rfind("diff --git ", 0) == 0 || rest.rfind("@@ -", 0) == 0 ||
        ((rest[0] == '+' || rest[0] == '-') && rest.rfind("--", 0) != 0))
      return true;
  }
  return false;
}

struct Classified {
  std::map<int, SeriesVersion> versions;  // by version number
  std::vector<std::string> replies, notes;
};

// Sorts the messages into versions, patches by number; replies aside.
void classify(const std::vector<extraction::MailMessage>& messages, Classified& out,
              int version_offset) {
  std::set<std::string> seen_ids;
  std::map<int, std::vector<SeriesPatch>> unnumbered;
  std::map<std::pair<int, int>, std::string> first_id;
  for (const auto& m : messages) {
    for (const auto& n : m.notes) out.notes.push_back(m.origin + ": " + n);
    if (!m.message_id.empty() && !seen_ids.insert(m.message_id).second) continue;  // read twice
    const extraction::SubjectTag tag = extraction::parse_subject_tag(m.subject);
    const std::string text = review_text(m);
    const extraction::ParsedPatch parsed = extraction::parse_patch(text);
    const std::string who = m.from.empty() ? "" : " (" + m.from + ")";
    if (tag.reply) {
      out.replies.push_back("\"" + m.subject + "\"" + who + ": a reply" +
                            (parsed.error.empty()
                                 ? ", with a diff of its own (not a patch of the series)"
                             : quotes_a_diff(m.body) ? ", quoting the patch"
                                                     : ""));
      continue;
    }
    const int v = tag.version + version_offset;
    SeriesVersion& sv = out.versions[v];
    sv.version = tag.version;
    if (tag.numbered && tag.number == 0) {
      sv.cover_subject = m.subject;
      sv.cover_id = m.message_id;
      continue;
    }
    if (!parsed.error.empty()) {
      if (tag.tagged)
        sv.problems.push_back("\"" + m.subject + "\" carries no diff to apply: " + parsed.error);
      else
        out.replies.push_back("\"" + m.subject + "\"" + who + ": no patch in it");
      continue;
    }
    SeriesPatch p;
    p.number = tag.number;
    p.total = tag.total;
    p.subject = m.subject.empty() ? parsed.subject : m.subject;
    p.message_id = m.message_id;
    p.from = m.from;
    p.date = m.date;
    p.to = m.to;
    p.cc = m.cc;
    p.references = m.references;
    p.text = text;
    if (!tag.numbered) {
      unnumbered[v].push_back(p);
      continue;
    }
    const auto key = std::make_pair(v, tag.number);
    if (first_id.count(key)) {
      sv.problems.push_back("v" + std::to_string(tag.version) + " " + label_of(p) + " twice: <" +
                            first_id[key] + "> and <" + m.message_id +
                            ">; keep one (b4 am picks the newest) and review again");
      continue;
    }
    first_id[key] = m.message_id;
    sv.patches.push_back(std::move(p));
  }
  // Unnumbered patches (several single patch files, format-patch without
  // -n): in the order given, when the version has no numbered ones.
  for (auto& [v, list] : unnumbered) {
    SeriesVersion& sv = out.versions[v];
    if (!sv.patches.empty() || list.size() == 1) {
      for (auto& p : list) sv.patches.push_back(std::move(p));
      continue;
    }
    int n = 0;
    for (auto& p : list) {
      p.number = ++n;
      p.total = static_cast<int>(list.size());
      sv.patches.push_back(std::move(p));
    }
  }
  for (auto& [v, sv] : out.versions) {
    std::sort(sv.patches.begin(), sv.patches.end(),
              [](const SeriesPatch& a, const SeriesPatch& b) { return a.number < b.number; });
    if (sv.patches.empty()) {
      if (sv.problems.empty()) sv.problems.push_back("no patch of this version is in the input");
      continue;
    }
    const int total = sv.patches.front().total;
    std::set<int> have;
    for (const auto& p : sv.patches) {
      have.insert(p.number);
      if (p.total != total)
        sv.problems.push_back(label_of(p) + " does not belong with " +
                              label_of(sv.patches.front()) + " (a different count)");
    }
    std::string missing;
    for (int k = 1; k <= total; ++k)
      if (!have.count(k))
        missing += (missing.empty() ? "" : ", ") + std::to_string(k) + "/" + std::to_string(total);
    if (!missing.empty())
      sv.problems.push_back("v" + std::to_string(sv.version) + " lacks " + missing +
                            " (fetch the whole thread, e.g. with b4 am)");
  }
}

// The changes of one version, composed: each clause's first verdict and
// its last, kept when they differ.
std::vector<ClauseChange> compose(const SeriesVersion& sv) {
  std::vector<ClauseChange> out;
  std::map<std::string, size_t> at;
  for (const auto& p : sv.patches)
    for (const auto& c : p.changes) {
      const std::string k = clause_key(c.component, c.id, c.function);
      if (!at.count(k)) {
        at[k] = out.size();
        out.push_back(c);
        continue;
      }
      ClauseChange& n = out[at[k]];
      n.after = c.after;
      n.counterexamples = c.counterexamples;
      n.where = c.where;
    }
  out.erase(std::remove_if(out.begin(), out.end(),
                           [](const ClauseChange& c) { return c.before == c.after; }),
            out.end());
  return out;
}

void run_version(SeriesVersion& sv, const SeriesOptions& so) {
  const std::string work = sandbox::make_temp_dir("series");
  if (work.empty()) {
    sv.problems.push_back("cannot create a temporary directory");
    return;
  }
  const std::string state = work + "/tree";
  fs::create_directories(state);
  std::set<std::string> known;  // paths the scratch tree has taken from the kernel tree
  // The verdicts after the latest judged patch, per file and component.
  std::map<std::string, std::vector<ClauseVerdict>> current;
  int step = 0;
  for (auto& p : sv.patches) {
    ++step;
    const std::string patch_file = work + "/" + std::to_string(step) + ".patch";
    sandbox::spit(patch_file, p.text);
    const extraction::ParsedPatch parsed = extraction::parse_patch(p.text);
    for (const auto& fp : parsed.files)
      for (const std::string& path : {fp.old_path, fp.new_path})
        if (path != "/dev/null" && known.insert(path).second)
          copy_from_tree(so.review.kernel_tree, path, state);
    const std::string stepdir = work + "/step" + std::to_string(step);
    const extraction::AppliedPatch applied =
        extraction::apply_to_copy(parsed, p.text, state, stepdir);
    if (!applied.ok) {
      // patch(1)'s words name the scratch copy: say the user's tree.
      std::string why = applied.message;
      for (size_t at; (at = why.find(state)) != std::string::npos;)
        why.replace(at, state.size(), so.review.kernel_tree);
      p.judged = "not applied";
      p.why = why;
      sv.problems.push_back(label_of(p) + " does not apply" +
                            (step == 1 ? " to the tree: " : " after the patches before it: ") +
                            why);
      break;
    }
    bool code_changed = false;
    for (const auto& fp : parsed.files) {
      const std::string before = applied.before_root + "/" + fp.old_path;
      const std::string after = applied.after_root + "/" + fp.new_path;
      std::error_code ec;
      const std::string b =
          fp.is_creation() || !fs::is_regular_file(before, ec) ? "" : sandbox::slurp(before);
      const std::string a =
          fp.is_deletion() || !fs::is_regular_file(after, ec) ? "" : sandbox::slurp(after);
      if (fp.symlink || fp.binary || series_code_print(b) != series_code_print(a))
        code_changed = true;
    }
    if (code_changed) {
      ReviewOptions ro = so.review;
      ro.patch = patch_file;
      ro.kernel_tree = state;
      p.report = review(ro);
      p.judged = "judged";
      if (!p.report.error.empty()) {
        sv.problems.push_back(label_of(p) + ": " + p.report.error);
        break;
      }
      p.changes = p.report.changes;
      for (const auto& fp : parsed.files) {
        const std::string after = applied.after_root + "/" + fp.new_path;
        std::error_code ec;
        if (fp.is_deletion() || !fs::is_regular_file(fs::symlink_status(after, ec))) continue;
        for (const auto& it : extraction::top_level_items(sandbox::slurp(after)))
          if (it.kind == extraction::TopLevelItem::kFunction)
            for (const auto& name : it.defines)
              p.function_lines[fp.new_path + " " + name] = {it.first_line, it.last_line};
      }
      for (const auto& part : p.report.after.parts)
        current[part.file + " " + part.component] = part.clauses;
    } else {
      p.judged = "carried";
      p.why = "no change to what the modelled functions are built from";
    }
    // The scratch tree moves on: the patch's files as it left them.
    for (const auto& fp : parsed.files) {
      std::error_code ec;
      if (fp.is_deletion()) {
        fs::remove(fs::path(state) / fp.old_path, ec);
        continue;
      }
      const fs::path from = fs::path(applied.after_root) / fp.new_path;
      if (!fs::is_regular_file(fs::symlink_status(from, ec))) continue;
      fs::create_directories((fs::path(state) / fp.new_path).parent_path(), ec);
      fs::copy_file(from, fs::path(state) / fp.new_path, fs::copy_options::overwrite_existing, ec);
      if (fp.old_path != fp.new_path && fp.old_path != "/dev/null")
        fs::remove(fs::path(state) / fp.old_path, ec);
    }
    if (interrupted()) break;
  }
  if (!so.review.validate.keep_temp) sandbox::remove_tree(work);
  sv.net = compose(sv);
  for (const auto& [file, clauses] : current)
    sv.final_clauses.insert(sv.final_clauses.end(), clauses.begin(), clauses.end());
  bool newly = false, unjudged = false;
  for (const auto& p : sv.patches) {
    if (p.judged != "judged") continue;
    newly = newly || p.report.exit_code == kExitFailed;
    unjudged = unjudged || p.report.exit_code == kExitUnjudged;
  }
  sv.exit_code = newly                  ? kExitFailed
                 : !sv.problems.empty() ? kExitUsage
                 : unjudged             ? kExitUnjudged
                                        : kExitHeld;
}

// Per clause of a version: the patches that newly fail it, those that make
// it pass again, and its verdict after the series.
struct ClauseStory {
  std::vector<std::string> broke, repaired;
  std::string first, last;
};

std::map<std::string, ClauseStory> stories(const SeriesVersion& sv) {
  std::map<std::string, ClauseStory> out;
  for (const auto& p : sv.patches)
    for (const auto& c : p.changes) {
      ClauseStory& s = out[c.id + " [" + c.function + "]"];
      if (s.first.empty()) s.first = c.before;
      s.last = c.after;
      if (failing(c.after) && !failing(c.before)) s.broke.push_back(label_of(p));
      if (passing(c.after) && failing(c.before)) s.repaired.push_back(label_of(p));
    }
  return out;
}

std::string list_text(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i)
    out += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + v[i];
  return out;
}

// "v1 broke BUSY-5 [rtas_busy_delay] in 2/2; v2 holds it", per clause
// either version changed.
std::vector<std::string> compare(const SeriesVersion& old_v, const SeriesVersion& new_v,
                                 const std::string& old_name, const std::string& new_name) {
  std::vector<std::string> out;
  const auto a = stories(old_v), b = stories(new_v);
  std::set<std::string> keys;
  for (const auto& [k, s] : a) keys.insert(k);
  for (const auto& [k, s] : b) keys.insert(k);
  // A clause's verdict after a version's last patch.
  auto final_status = [](const SeriesVersion& sv, const std::string& k) {
    for (const auto& v : sv.final_clauses)
      if (v.id + " [" + v.function + "]" == k) return v.status;
    return std::string("not judged");
  };
  for (const auto& k : keys) {
    const std::string a_end = final_status(old_v, k), b_end = final_status(new_v, k);
    const ClauseStory* sa = a.count(k) ? &a.at(k) : nullptr;
    const ClauseStory* sb = b.count(k) ? &b.at(k) : nullptr;
    const bool a_breaks = sa && !sa->broke.empty(), b_breaks = sb && !sb->broke.empty();
    const bool a_fixes = sa && failing(sa->first) && passing(sa->last);
    const bool b_fixes = sb && failing(sb->first) && passing(sb->last);
    std::string line;
    if (a_breaks && !b_breaks) {
      line = old_name + " broke " + k + " in " + list_text(sa->broke) +
             (passing(sa->last) && !sa->repaired.empty()
                  ? " (repaired in " + list_text(sa->repaired) + ")"
                  : "") +
             "; " + new_name + (b_end == "held" ? " holds it" : " leaves it " + b_end);
    } else if (!a_breaks && b_breaks) {
      line = new_name + " breaks " + k + " in " + list_text(sb->broke) + ", which " + old_name +
             " held";
    } else if (a_breaks && b_breaks) {
      line = old_name + " and " + new_name + " both break " + k + " (" + old_name + " in " +
             list_text(sa->broke) + ", " + new_name + " in " + list_text(sb->broke) + ")";
    } else if (a_fixes && b_fixes) {
      line = old_name + " and " + new_name + " both fix " + k + " (" + old_name + " in " +
             list_text(sa->repaired) + ", " + new_name + " in " + list_text(sb->repaired) + ")";
    } else if (a_fixes) {
      line = old_name + " fixed " + k + " in " + list_text(sa->repaired) + "; " + new_name +
             " leaves it " + b_end;
    } else if (b_fixes) {
      line = new_name + " fixes " + k + " in " + list_text(sb->repaired) + ", which " + old_name +
             " left " + a_end;
    } else {
      continue;  // a verdict moved and came back in both, or between non-failing ones
    }
    out.push_back(line);
  }
  if (out.empty()) out.push_back(old_name + " and " + new_name + " change no clause differently");
  return out;
}

}  // namespace

std::string series_code_print(const std::string& text) {
  if (text.empty()) return "";
  std::vector<std::string> modelled;
  for (const auto& c : components())
    for (const auto& f : c.functions) modelled.push_back(f);
  const auto items = extraction::top_level_items(text);
  // Does the file define any modelled function? If not, no harness is
  // ever built from it (headers are the shims' business).
  std::set<std::string> wanted(modelled.begin(), modelled.end());
  bool defines_one = false;
  for (const auto& it : items)
    if (it.kind == extraction::TopLevelItem::kFunction)
      for (const auto& d : it.defines) defines_one = defines_one || wanted.count(d);
  if (!defines_one) return "";
  // The closure over uses -> defines, from the modelled functions and the
  // helpers a harness calls itself (validate/governor_check.cc's
  // governor_extraction()).
  for (const char* extra : {"menu_reflect", "get_typical_interval"}) wanted.insert(extra);
  std::vector<bool> take(items.size(), false);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < items.size(); ++i) {
      if (take[i]) continue;
      bool reached = items[i].defines.empty();
      for (const auto& d : items[i].defines) reached = reached || wanted.count(d);
      if (!reached) continue;
      take[i] = grew = true;
      for (const auto& u : items[i].uses) wanted.insert(u);
    }
  }
  std::string print;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!take[i]) continue;
    print += std::to_string(items[i].cond) + ":";
    print += text.substr(items[i].begin, items[i].end - items[i].begin);
    print += '\n';
  }
  return print;
}

bool is_series_input(const std::vector<std::string>& inputs, const std::string& against,
                     const std::string& reply) {
  if (inputs.size() != 1 || !against.empty() || !reply.empty()) return true;
  std::error_code ec;
  if (fs::is_directory(inputs.front(), ec)) return true;
  if (!fs::is_regular_file(inputs.front(), ec)) return false;  // review() says why
  const extraction::Mailbox box = extraction::read_mail(inputs);
  if (!box.error.empty() || box.messages.empty()) return false;
  return box.messages.size() > 1 || box.messages.front().transfer_encoded;
}

SeriesReport review_series(const SeriesOptions& so) {
  SeriesReport sr;
  std::error_code ec;
  if (so.review.kernel_tree.empty() || !fs::is_directory(so.review.kernel_tree, ec)) {
    sr.error = so.review.kernel_tree.empty() ? "--kernel-tree DIR is required"
                                             : "no such directory: " + so.review.kernel_tree;
    sr.exit_code = kExitUsage;
    return sr;
  }
  const extraction::Mailbox box = extraction::read_mail(so.inputs);
  if (!box.error.empty()) {
    sr.error = box.error;
    sr.exit_code = kExitUsage;
    return sr;
  }
  Classified cl;
  if (!so.against.empty()) {
    const extraction::Mailbox old_box = extraction::read_mail({so.against});
    if (!old_box.error.empty()) {
      sr.error = "--against: " + old_box.error;
      sr.exit_code = kExitUsage;
      return sr;
    }
    // The older series sorts before every version of the input.
    classify(old_box.messages, cl, -100000);
  }
  classify(box.messages, cl, 0);
  sr.replies = cl.replies;
  sr.notes = cl.notes;
  for (auto& [v, sv] : cl.versions) sr.versions.push_back(std::move(sv));
  if (sr.versions.empty()) {
    sr.error = "no patch in the input" +
               std::string(sr.replies.empty() ? "" : " (only replies: " + sr.replies.front() + ")");
    sr.exit_code = kExitUsage;
    return sr;
  }
  for (auto& sv : sr.versions)
    if (sv.problems.empty())
      run_version(sv, so);
    else
      sv.exit_code = kExitUsage;
  if (sr.versions.size() > 1) {
    const SeriesVersion& now = sr.versions.back();
    for (size_t i = 0; i + 1 < sr.versions.size(); ++i) {
      const SeriesVersion& old = sr.versions[i];
      if (!old.problems.empty() || !now.problems.empty()) continue;
      std::string old_name = "v" + std::to_string(old.version);
      std::string new_name = "v" + std::to_string(now.version);
      if (old_name == new_name) old_name = "the --against series", new_name = "this series";
      for (auto& line : compare(old, now, old_name, new_name)) sr.comparison.push_back(line);
    }
  }
  sr.exit_code = sr.versions.back().exit_code;
  if (const int sig = interrupted()) sr.exit_code = 128 + sig;
  if (!so.reply.empty()) {
    const std::string mails = render_series_replies(sr, so);
    if (mails.empty()) {
      sr.reply_files.push_back(so.reply + ": no reply written (no clause newly failed)");
    } else if (!sandbox::spit(so.reply, mails)) {
      sr.error = "--reply: cannot write " + so.reply;
      sr.exit_code = sr.exit_code == kExitFailed ? kExitFailed : kExitUsage;
    } else {
      sr.reply_files.push_back(so.reply);
    }
  }
  return sr;
}

std::string render_series_text(const SeriesReport& sr) {
  std::ostringstream o;
  auto safe = [](const std::string& s) { return untrusted_text(s, 300); };
  for (size_t vi = 0; vi < sr.versions.size(); ++vi) {
    const SeriesVersion& sv = sr.versions[vi];
    o << "idlespec review: series v" << sv.version << ", " << sv.patches.size() << " patch(es)";
    if (!sv.cover_subject.empty()) o << "\n  cover letter \"" << safe(sv.cover_subject) << "\"";
    o << "\n";
    for (const auto& pr : sv.problems) o << "  not reviewed: " << safe(pr) << "\n";
    if (!sv.problems.empty() && sv.patches.empty()) continue;
    for (const auto& p : sv.patches) {
      o << "  " << label_of(p) << " \"" << safe(p.subject) << "\"\n";
      if (p.judged == "carried") {
        o << "      " << p.why << ": verdicts as before it, not judged again\n";
        continue;
      }
      if (p.judged != "judged") {
        o << "      " << (p.judged.empty() ? "not reviewed" : p.judged) << "\n";
        continue;
      }
      for (const auto& t : p.report.touched) o << "      touches " << t << "\n";
      if (p.changes.empty()) o << "      no clause changed its verdict\n";
      for (const auto& c : p.changes) {
        o << "      " << c.id << " [" << c.function << "] " << c.before << " -> " << c.after;
        if (!c.where.empty()) o << " (" << c.where << ")";
        if (failing(c.after) && !failing(c.before)) o << "   NEWLY FAILED";
        if (passing(c.after) && failing(c.before)) o << "   repaired";
        // A clause failed on both sides whose inputs changed (review.cc):
        // newly failing or failing another way is a change (exit 1).
        if (const std::string in = inputs_text(c); !in.empty()) o << "   " << in;
        o << "\n";
        if ((failing(c.after) && !failing(c.before)) || c.newly_failing + c.another_way > 0)
          for (const auto& x : c.counterexamples) o << "          " << x << "\n";
      }
      for (const auto& e : p.report.escapes) o << "      escape: " << e << "\n";
      for (const auto& n : p.report.notes_after) o << "      error: " << n << "\n";
    }
    // Per clause: the patch that first broke it and the one that repaired it.
    const auto st = stories(sv);
    bool any = false;
    for (const auto& [k, s] : st) {
      if (s.broke.empty()) continue;
      if (!any) o << "  bisect: ";
      o << (any ? "; " : "") << k << " first fails at " << s.broke.front();
      if (!s.repaired.empty() && passing(s.last)) o << ", repaired by " << s.repaired.back();
      any = true;
    }
    if (any) o << "\n";
    if (!sv.problems.empty()) {
      o << "no net effect: v" << sv.version << " was not reviewed to its end\n";
      if (vi + 1 < sr.versions.size()) o << "exit " << sv.exit_code << " (for this version)\n\n";
      continue;
    }
    o << "net effect of v" << sv.version << " against the base:\n";
    if (sv.net.empty()) o << "  no clause changed its verdict\n";
    for (const auto& c : sv.net) {
      o << "  " << c.id << " [" << c.function << "] " << c.before << " -> " << c.after;
      if (!c.where.empty()) o << " (" << c.where << ")";
      o << "\n";
    }
    if (!sv.final_clauses.empty())
      o << "after the series: " << sv.final_clauses.size() << " clause(s) judged, "
        << verdict_counts(sv.final_clauses) << "\n";
    if (vi + 1 < sr.versions.size()) o << "exit " << sv.exit_code << " (for this version)\n\n";
  }
  if (!sr.comparison.empty()) {
    o << "between the versions:\n";
    for (const auto& c : sr.comparison) o << "  " << c << "\n";
  }
  if (!sr.replies.empty()) o << "set aside: " << sr.replies.size() << " reply(ies)\n";
  for (const auto& r : sr.replies) o << "  " << safe(r) << "\n";
  for (const auto& n : sr.notes) o << "note: " << safe(n) << "\n";
  for (const auto& f : sr.reply_files) o << "reply: " << safe(f) << "\n";
  if (!sr.error.empty()) o << "error: " << safe(sr.error) << "\n";
  o << "exit " << sr.exit_code << "\n";
  return o.str();
}

std::string render_series_json(const SeriesReport& sr) {
  // Every string through report_text(): a series' mail is the code under
  // test's (impl/text.h).
  auto js = [](const std::string& s) { return verify::json_string(report_text(s)); };
  auto list = [](std::vector<std::string> v) {
    for (auto& s : v) s = report_text(s);
    return verify::json_list(v);
  };
  auto change = [&](const ClauseChange& c) {
    std::string o = "{\"id\":" + js(c.id) + ",\"component\":" + js(c.component) +
                    ",\"function\":" + js(c.function) + ",\"file\":" + js(c.file) +
                    ",\"before\":" + js(c.before) + ",\"after\":" + js(c.after) +
                    ",\"where\":" + js(c.where) + ",\"counterexamples\":";
    return o + list(c.counterexamples) + "}";
  };
  std::ostringstream o;
  o << "{\"versions\":[";
  for (size_t vi = 0; vi < sr.versions.size(); ++vi) {
    const SeriesVersion& sv = sr.versions[vi];
    o << (vi ? "," : "") << "{\"version\":" << sv.version << ",\"cover\":" << js(sv.cover_subject)
      << ",\"problems\":" << list(sv.problems) << ",\"patches\":[";
    for (size_t i = 0; i < sv.patches.size(); ++i) {
      const SeriesPatch& p = sv.patches[i];
      o << (i ? "," : "") << "{\"number\":" << p.number << ",\"total\":" << p.total
        << ",\"subject\":" << js(p.subject) << ",\"message_id\":" << js(p.message_id)
        << ",\"judged\":" << js(p.judged) << ",\"why\":" << js(p.why) << ",\"changes\":[";
      for (size_t k = 0; k < p.changes.size(); ++k) o << (k ? "," : "") << change(p.changes[k]);
      o << "],\"exit_code\":" << (p.judged == "judged" ? p.report.exit_code : 0) << "}";
    }
    o << "],\"net\":[";
    for (size_t k = 0; k < sv.net.size(); ++k) o << (k ? "," : "") << change(sv.net[k]);
    o << "],\"after\":" << js(verdict_counts(sv.final_clauses)) << ",\"exit_code\":" << sv.exit_code
      << "}";
  }
  o << "],\"comparison\":" << list(sr.comparison) << ",\"replies\":" << list(sr.replies)
    << ",\"notes\":" << list(sr.notes) << ",\"reply_files\":" << list(sr.reply_files)
    << ",\"error\":" << js(sr.error) << ",\"exit_code\":" << sr.exit_code << "}\n";
  return o.str();
}

}  // namespace idlespec::validate
