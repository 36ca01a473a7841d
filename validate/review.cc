// `idlespec review PATCH --kernel-tree DIR`: validate the functions a patch
// touches before and after it, and report the clauses whose verdict changed.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "extract/patch.h"
#include "impl/text.h"
#include "sandbox/process.h"
#include "validate/component.h"
#include "validate/review_parallel.h"
#include "validate/targets.h"
#include "validate/validate.h"
#include "validate/verdict_cache.h"

namespace idlespec::validate {
namespace {

// The components whose modelled functions a file has.
std::vector<std::string> components_in(const std::string& path) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return out;
  const std::string text = slurp(path);
  for (const auto& c : components()) {
    const Extraction ex = extract(text, c.functions, path);
    if (std::any_of(ex.functions.begin(), ex.functions.end(),
                    [](const FoundFunction& f) { return f.found; }))
      out.push_back(c.name);
  }
  return out;
}

std::string key(const ClauseVerdict& v) { return v.component + " " + v.id + " " + v.function; }

// Whether every verdict of a part was reached (none is error or unknown).
bool all_judged(const Part& part) {
  return std::none_of(part.clauses.begin(), part.clauses.end(), [](const ClauseVerdict& v) {
    return v.status == "error" || v.status == "unknown";
  });
}

// Component `c` judged on `o`'s source: its part and notes; `refused` when
// validate refused it (its notes in run.notes).
CachedRun judge_alone(Options o, const std::string& c, bool& refused) {
  o.components = {c};
  const Report r = validate(o);
  CachedRun run;
  if (!r.parts.empty()) run.part = r.parts.front();
  run.notes = r.notes;
  refused = r.parts.size() != 1;
  return run;
}

// A clause that fails before and after the patch: the inputs that held
// before and fail after (newly failing: one counterexample kept), those
// that failed before and hold after (repaired), and those that fail on both
// sides in another way (a key's part after a tab says how: busy_delay's
// early boot, where a sleep before the scheduler runs is another failure
// than no delay; counted with the newly failing, a new violation there).
// An input is failing on a side when its key is among that side's failing
// inputs; both sides ran the same inputs (the checks keep only inputs drawn
// alike whatever the code does), so a key on one side only is an input the
// patch changed. A side that kept no inputs (a check that does not record
// them, or a verdict capped at kMaxFailingInputs) is not compared. True
// when anything changed.
bool compare_failing_inputs(const ClauseVerdict& was, const ClauseVerdict& now, ClauseChange& ch) {
  if (was.failing_inputs.empty() || now.failing_inputs.empty() ||
      was.failing_inputs.size() >= kMaxFailingInputs ||
      now.failing_inputs.size() >= kMaxFailingInputs)
    return false;
  auto input_of = [](const std::string& k) { return k.substr(0, k.find('\t')); };
  std::map<std::string, std::string> before(was.failing_inputs.begin(), was.failing_inputs.end());
  std::map<std::string, std::string> after(now.failing_inputs.begin(), now.failing_inputs.end());
  std::set<std::string> inputs_before, inputs_after;
  for (const auto& [k, text] : before) inputs_before.insert(input_of(k));
  for (const auto& [k, text] : after) inputs_after.insert(input_of(k));
  std::string another_example;
  for (const auto& [k, text] : after) {
    if (before.count(k)) continue;
    if (!inputs_before.count(input_of(k))) {
      if (ch.newly_failing++ == 0) ch.counterexamples.push_back(text);
    } else if (ch.another_way++ == 0) {
      another_example = text;
    }
  }
  if (ch.counterexamples.empty() && !another_example.empty())
    ch.counterexamples.push_back(another_example);
  for (const auto& [k, text] : before)
    if (!inputs_after.count(input_of(k)) && ch.repaired++ == 0)
      ch.repaired_examples.push_back(text);
  return ch.newly_failing + ch.another_way + ch.repaired > 0;
}

// BUSY-6 (a retry loop's bound) is judged on real text through the
// per-call clauses (spec/busy_delay.md): a loop whose calls each hold
// BUSY-1, -2, -3 and -5 holds it. When a patch changes any of them on a
// function, review names BUSY-6 beside them with the verdict that
// reduction gives on each side.
constexpr const char* kBusy6Parts[] = {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-5"};

bool busy6_part(const std::string& id) {
  return std::find(std::begin(kBusy6Parts), std::end(kBusy6Parts), id) != std::end(kBusy6Parts);
}

std::string busy6_status(const std::vector<ClauseVerdict>& side, const std::string& file,
                         const std::string& fn) {
  std::set<std::string> st;
  for (const auto& v : side)
    if (v.component == "busy_delay" && v.file == file && v.function == fn && busy6_part(v.id))
      st.insert(v.status);
  if (st.empty()) return "absent";
  for (const char* s : {"failed", "uncovered", "error", "unknown", "accepted", "absent", "n/a"})
    if (st.count(s)) return s;
  return "held";
}

void add_busy6_reduction(ReviewReport& rr) {
  std::map<std::pair<std::string, std::string>, std::vector<const ClauseChange*>> by_fn;
  for (const auto& c : rr.changes)
    if (c.component == "busy_delay" && busy6_part(c.id)) by_fn[{c.file, c.function}].push_back(&c);
  std::vector<ClauseChange> add;
  for (const auto& [where, parts] : by_fn) {
    std::string ids;
    size_t newly = 0, another = 0, repaired = 0;
    for (const ClauseChange* c : parts) {
      ids += (ids.empty() ? "" : ", ") + c->id;
      newly += c->newly_failing, another += c->another_way, repaired += c->repaired;
    }
    ClauseChange ch{"BUSY-6",
                    "busy_delay",
                    where.second,
                    where.first,
                    busy6_status(rr.before.clauses, where.first, where.second),
                    busy6_status(rr.after.clauses, where.first, where.second),
                    {},
                    {}};
    ch.where = "follows from BUSY-1/-2/-3/-5 here; changed: " + ids;
    ch.newly_failing = newly, ch.another_way = another, ch.repaired = repaired;
    add.push_back(ch);
  }
  rr.changes.insert(rr.changes.end(), add.begin(), add.end());
}

}  // namespace

std::string inputs_text(const ClauseChange& c) {
  std::string t;
  if (c.newly_failing) t += std::to_string(c.newly_failing) + " newly failing input(s)";
  if (c.another_way)
    t += (t.empty() ? "" : ", ") + std::to_string(c.another_way) + " input(s) failing another way";
  if (c.repaired) t += (t.empty() ? "" : ", ") + std::to_string(c.repaired) + " repaired input(s)";
  return t;
}

ReviewReport review(const ReviewOptions& ro) {
  ReviewReport rr;
  rr.patch = ro.patch;
  std::error_code ec;
  if (ro.patch.empty() || !std::filesystem::is_regular_file(ro.patch, ec) ||
      access(ro.patch.c_str(), R_OK) != 0) {
    rr.error = "cannot read the patch " + ro.patch;
    rr.exit_code = 2;
    return rr;
  }
  if (ro.kernel_tree.empty() || !std::filesystem::is_directory(ro.kernel_tree, ec)) {
    rr.error = ro.kernel_tree.empty() ? "--kernel-tree DIR is required"
                                      : "no such directory: " + ro.kernel_tree;
    rr.exit_code = 2;
    return rr;
  }
  std::string text;
  if (const std::string why = read_input_file(ro.patch, 64u << 20, text); !why.empty()) {
    rr.error = "cannot read the patch: " + why;
    rr.exit_code = 2;
    return rr;
  }
  const ParsedPatch parsed = parse_patch(text);
  rr.subject = untrusted_text(parsed.subject, 300);
  if (!parsed.error.empty()) {
    rr.error = parsed.error;
    rr.exit_code = 2;
    return rr;
  }
  const std::string work = make_temp_dir("review");
  if (work.empty()) {
    rr.error = "cannot create a temporary directory";
    rr.exit_code = 2;
    return rr;
  }
  const AppliedPatch applied = apply_to_copy(parsed, text, ro.kernel_tree, work);
  if (!applied.ok) {
    rr.error = "the patch does not apply to " + ro.kernel_tree + ": " + applied.message;
    rr.exit_code = 2;
    if (!ro.validate.keep_temp) remove_tree(work);
    return rr;
  }

  // The verdict cache: --cache-dir, else the user's; none with --no-cache.
  const std::string cache_dir = !ro.use_cache           ? ""
                                : !ro.cache_dir.empty() ? ro.cache_dir
                                                        : default_cache_dir();
  std::vector<std::string> again;  // sides judged again alone
  rr.before.subject = applied.before_root;
  rr.after.subject = applied.after_root;
  for (const auto& fp : parsed.files) {
    const std::string path = fp.new_path != "/dev/null" ? fp.new_path : fp.old_path;
    const std::string before = applied.before_root + "/" + fp.old_path;
    const std::string after = applied.after_root + "/" + path;
    std::vector<std::string> names;
    std::error_code e2;
    if (fp.old_path != "/dev/null" && std::filesystem::is_regular_file(before, e2))
      names = touched_functions(slurp(before), fp.old_changed);
    if (fp.new_path != "/dev/null" && std::filesystem::is_regular_file(after, e2))
      for (const auto& n : touched_functions(slurp(after), fp.new_changed))
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    rr.touched.push_back(
        report_text(path + ": " + (list.empty() ? "(outside functions)" : list), 1024));

    // Every component with a modelled function in either version of the
    // file: a change to a helper, a macro or a static reaches it too.
    std::vector<std::string> comps = components_in(before);
    for (const auto& c : components_in(after))
      if (std::find(comps.begin(), comps.end(), c) == comps.end()) comps.push_back(c);
    comps.erase(std::remove_if(comps.begin(), comps.end(),
                               [&](const std::string& c) {
                                 const auto& want = ro.validate.components;  // --component
                                 return !find_component(c)->check ||
                                        (!want.empty() &&
                                         std::find(want.begin(), want.end(), c) == want.end());
                               }),
                comps.end());
    // A component whose judged text the patch leaves as it was, or only
    // moves, cannot change its verdicts: not judged, unless asked for.
    std::error_code e3;
    const bool both = fp.old_path != "/dev/null" && fp.new_path != "/dev/null" &&
                      std::filesystem::is_regular_file(before, e3) &&
                      std::filesystem::is_regular_file(after, e3);
    if (!ro.judge_unchanged && both) {
      const std::string before_text = slurp(before), after_text = slurp(after);
      comps.erase(
          std::remove_if(
              comps.begin(), comps.end(),
              [&](const std::string& c) {
                if (!same_but_lines(ro.validate, *find_component(c), path, before_text, after_text))
                  return false;
                rr.reused.push_back(path + " (" + c +
                                    "): not judged: the patch changes nothing its checks read "
                                    "(at most where it sits in the file), so its verdicts "
                                    "cannot change (--judge-unchanged judges it)");
                return true;
              }),
          comps.end());
    }
    if (comps.empty()) continue;
    // A component whose judged text is the same on both sides runs once;
    // a side found in the cache does not run (validate/verdict_cache.h).
    // --no-cache (and --keep-temp, whose directories are each run's) runs
    // every component on both sides.
    std::map<std::string, std::pair<std::string, CachedRun>> before_runs;  // component -> key, run
    // The after side of every component that runs on both sides is judged
    // in a child beside the before side (validate/review_parallel.h);
    // IDLESPEC_REVIEW_SERIAL=1 judges them one after the other.
    AfterSide after_side;
    std::vector<std::string> ahead;
    const char* serial = std::getenv("IDLESPEC_REVIEW_SERIAL");
    if (!ro.validate.keep_temp && !(serial && std::string(serial) == "1") &&
        std::filesystem::is_regular_file(before, e2) &&
        std::filesystem::is_regular_file(after, e2)) {
      Options oa = ro.validate;
      oa.kernel_tree.clear();
      oa.source = after;
      const std::string before_text = slurp(before), after_text = slurp(after);
      for (const auto& c : comps) {
        const Component& comp = *find_component(c);
        if (ro.use_cache) {
          const std::string ka = judged_text(oa, comp, path, after_text);
          CachedRun cached;
          std::string ignored;
          if (ka == judged_text(oa, comp, path, before_text) ||
              (!cache_dir.empty() && cache_load(cache_dir, ka, comp, cached, ignored)))
            continue;  // the after side is the before side's, or cached
        }
        ahead.push_back(c);
      }
      if (!after_side.start(oa, ahead)) ahead.clear();
    }
    for (int side = 0; side < 2; ++side) {
      Options o = ro.validate;
      o.kernel_tree.clear();
      o.source = side == 0 ? before : after;
      const std::string& root = side == 0 ? applied.before_root : applied.after_root;
      const char* side_name = side == 0 ? "before the patch" : "after the patch";
      Report& into = side == 0 ? rr.before : rr.after;
      const bool exists = std::filesystem::is_regular_file(o.source, e2);
      const std::string side_text = exists ? slurp(o.source) : "";
      for (const auto& c : comps) {
        const Component& comp = *find_component(c);
        CachedRun run;
        if (!exists) {  // the file does not exist on this side: its functions are absent
          run.part.component = c;
          fill_verdicts(comp, Target{o.source, path, "", comp.functions, {}, {}}, run.part,
                        "absent", "");
        } else {
          const bool keyed = ro.use_cache && !ro.validate.keep_temp;
          const std::string k = keyed ? judged_text(o, comp, path, side_text) : "";
          const auto same = before_runs.find(c);
          std::string note;
          if (keyed && side == 1 && same != before_runs.end() && same->second.first == k &&
              reusable(same->second.second)) {
            run = with_root(same->second.second, applied.before_root, root);
            rr.reused.push_back(path + " (" + c + ") " + side_name +
                                ": reused from the before side (its judged text is the same)");
          } else if (keyed && !cache_dir.empty() && cache_load(cache_dir, k, comp, run, note)) {
            run = with_root(std::move(run), kRootPlaceholder, root);
            rr.reused.push_back(path + " (" + c + ") " + side_name + ": reused from the cache");
          } else {
            if (!note.empty()) rr.cache_notes.push_back(note);
            bool refused = false;
            const bool beside = side == 1 && after_side.take(c, run, refused);
            // Judged beside the before side, a run that did not reach every
            // verdict (the two shared the machine) is judged again alone.
            if (!beside || (!refused && !all_judged(run.part))) {
              if (beside) again.push_back(path + " (" + c + ") " + side_name);
              run = judge_alone(o, c, refused);
            }
            if (refused) {  // validate refused (a usage error): nothing kept
              into.notes.insert(into.notes.end(), run.notes.begin(), run.notes.end());
              continue;
            }
            if (keyed && !cache_dir.empty())
              if (const std::string why =
                      cache_store(cache_dir, k, with_root(run, root, kRootPlaceholder));
                  !why.empty() && std::find(rr.cache_notes.begin(), rr.cache_notes.end(), why) ==
                                      rr.cache_notes.end())
                rr.cache_notes.push_back(why);
          }
          if (side == 0 && keyed) before_runs[c] = {k, run};
        }
        run.part.file = path;
        for (auto& v : run.part.clauses) v.file = path;
        into.parts.push_back(run.part);
        for (const auto& n : run.notes)
          if (std::find(into.notes.begin(), into.notes.end(), n) == into.notes.end())
            into.notes.push_back(n);
      }
    }
    // The before side of a component judged beside the after side (the
    // child is done by now): judged again alone where it did not reach
    // every verdict.
    for (const auto& c : ahead)
      for (auto& part : rr.before.parts) {
        if (part.file != path || part.component != c || all_judged(part)) continue;
        Options o = ro.validate;
        o.kernel_tree.clear();
        o.source = before;
        bool refused = false;
        CachedRun run = judge_alone(o, c, refused);
        if (refused) break;
        again.push_back(path + " (" + c + ") before the patch");
        run.part.file = path;
        for (auto& v : run.part.clauses) v.file = path;
        part = run.part;
        for (const auto& n : run.notes)
          if (std::find(rr.before.notes.begin(), rr.before.notes.end(), n) == rr.before.notes.end())
            rr.before.notes.push_back(n);
        if (ro.use_cache && !cache_dir.empty())
          cache_store(cache_dir, judged_text(o, *find_component(c), path, slurp(before)),
                      with_root(run, applied.before_root, kRootPlaceholder));
        break;
      }
  }
  for (const auto& a : again)
    rr.cache_notes.push_back(a +
                             ": judged again alone (judged beside the other side, it did not "
                             "reach every verdict)");
  for (Report* r : {&rr.before, &rr.after}) {
    r->judged_subject = ro.validate.subject;
    r->clauses.clear();
    for (auto& p : r->parts) {
      withdraw_if_interrupted(p.clauses);
      r->clauses.insert(r->clauses.end(), p.clauses.begin(), p.clauses.end());
    }
    r->exit_code = command_exit_code(r->clauses, ro.validate.allow_unknown, any_escape(*r));
    make_report_safe(*r);
  }
  if (!ro.validate.keep_temp) remove_tree(work);

  std::map<std::string, const ClauseVerdict*> before;
  for (const auto& v : rr.before.clauses) before[key(v)] = &v;
  std::set<std::string> seen;
  for (const auto& v : rr.after.clauses) {
    seen.insert(key(v));
    const auto it = before.find(key(v));
    const std::string was = it == before.end() ? "absent" : it->second->status;
    if (was == v.status && v.status == "failed") {
      // Failed on both sides: compare the inputs it fails on.
      ClauseChange ch{v.id, v.component, v.function, v.file, was, v.status, {}, {}};
      if (compare_failing_inputs(*it->second, v, ch)) {
        ch.where = where_text(v);
        rr.changes.push_back(ch);
      }
      continue;
    }
    if (was == v.status) continue;
    ClauseChange ch{v.id, v.component, v.function, v.file, was, v.status, {}, {}};
    if (v.status == "failed" || v.status == "accepted") ch.counterexamples = v.counterexamples;
    // A clause that could not be judged after the patch says why (the
    // budget, the sandbox, a tool's last words), in every format.
    if ((v.status == "error" || v.status == "unknown") && !(v.error.empty() && v.note.empty()))
      ch.counterexamples = {"why: " + (v.error.empty() ? v.note : v.error)};
    ch.where = where_text(v);
    rr.changes.push_back(ch);
  }
  for (const auto& v : rr.before.clauses)
    if (!seen.count(key(v)))
      rr.changes.push_back({v.id, v.component, v.function, v.file, v.status, "absent", {}, {}});

  add_busy6_reduction(rr);

  // 1: a clause newly failed; 3: nothing did, but after the patch something
  // could not be judged (a harness that no longer compiles, an unknown).
  auto failing = [](const std::string& s) { return s == "failed" || s == "uncovered"; };
  rr.exit_code = kExitHeld;
  bool unjudged = false;
  for (const auto& v : rr.after.clauses)
    unjudged = unjudged || v.status == "error" || v.status == "unknown";
  if (unjudged && !ro.validate.allow_unknown) rr.exit_code = kExitUnjudged;
  for (const auto& c : rr.changes)
    if ((failing(c.after) && !failing(c.before)) || c.newly_failing + c.another_way > 0)
      rr.exit_code = kExitFailed;
  // An escape attempt on either side fails the review, whatever
  // --allow-unknown says; an interrupt leaves no verdict.
  for (const Report* r : {&rr.before, &rr.after})
    for (const auto& p : r->parts)
      for (const auto& e : p.escapes)
        rr.escapes.push_back((r == &rr.before ? "before the patch, " : "after the patch, ") +
                             p.file + " (" + p.component + "): " + e);
  if (!rr.escapes.empty()) rr.exit_code = kExitFailed;
  if (const int sig = interrupted()) rr.exit_code = 128 + sig;
  for (const auto& p : rr.after.parts)
    if (!p.build_error.empty())
      rr.notes_after.push_back(p.file + " (" + p.component + ") after the patch: " + p.build_error);
  return rr;
}

}  // namespace idlespec::validate
