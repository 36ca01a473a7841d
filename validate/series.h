// `idlespec review` of a whole series (issue 51): a b4 mbox, a lore thread
// with replies, a `git format-patch` directory or several patch files.
//
// The messages are read with extract/mbox.h (MIME decoded), sorted into
// versions by their "[PATCH vN M/K]" tags; a cover letter (0/K) is
// recognised, replies (a "Re:" subject) are set aside whatever they quote,
// and a missing or duplicated patch stops the review with its number named.
// Each patch is then applied in order to a scratch copy of the files the
// series touches, and review() (validate/review.cc) judges it against the
// state the patches before it left: the clause diff after each patch, the
// patch that first breaks a clause and the one that repairs it. A patch that
// changes no text the modelled functions are built from (series_code_print)
// is not judged again: its verdicts are those before it. The net effect is
// composed from the per-patch diffs (no rerun). Two versions (both in the
// input, or the older one given with --against) are compared clause by
// clause.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "validate/validate.h"

namespace idlespec::validate {

struct SeriesOptions {
  std::vector<std::string> inputs;  // files and directories, as given
  std::string against;              // an older version's mbox (--against), or ""
  std::string reply;                // --reply FILE: the reply mails (an mbox), or ""
  ReviewOptions review;             // kernel_tree and how each state is validated
};

struct SeriesPatch {
  int number = 1, total = 1;
  std::string subject, message_id, from, date, to, cc;
  std::vector<std::string> references;
  std::string text;     // the decoded mail as review() reads it
  std::string judged;   // "judged" | "carried" (no modelled code changed) | "not applied"
  std::string why;      // for carried / not applied
  ReviewReport report;  // when judged
  std::vector<ClauseChange> changes;  // this patch's clause diff
  // When judged: "FILE FUNCTION" -> its first and last line after the
  // patch, for every function of the files it touches (the reply quotes
  // the hunks of the function a clause concerns).
  std::map<std::string, std::pair<int, int>> function_lines;
};

struct SeriesVersion {
  int version = 1;
  std::string cover_subject, cover_id;
  std::vector<SeriesPatch> patches;          // in M order
  std::vector<std::string> problems;         // a missing or duplicated patch: not reviewed
  std::vector<ClauseChange> net;             // base -> after the last patch applied
  std::vector<ClauseVerdict> final_clauses;  // the verdicts after the last patch, every file
  int exit_code = 0;
};

struct SeriesReport {
  std::vector<SeriesVersion> versions;   // oldest first; the last one is the series reviewed
  std::vector<std::string> replies;      // "Re: ... (from X): quotes a diff / no diff" set aside
  std::vector<std::string> notes;        // decoding notes
  std::vector<std::string> comparison;   // "v1 broke BUSY-3 in 1/2; v2 holds it"
  std::vector<std::string> reply_files;  // what --reply wrote
  std::string error;                     // exit 2
  int exit_code = 0;
};

// Whether `review` should read its inputs as a series: several inputs, a
// directory, --against or --reply, or a file whose mail is more than one
// message or is MIME-encoded. A single plain patch keeps review()'s path.
bool is_series_input(const std::vector<std::string>& inputs, const std::string& against,
                     const std::string& reply);

SeriesReport review_series(const SeriesOptions& options);
std::string render_series_text(const SeriesReport& report);
std::string render_series_json(const SeriesReport& report);

// What a file's modelled functions are built from: every top-level item
// they reach (extract/extract.h's reading of uses and defines), every item
// that defines no name, each with its #if context; comments between items
// and line numbers left out. Two texts with the same print give every
// component the same harness, so the same verdicts.
std::string series_code_print(const std::string& text);

// --- the reply (validate/series_reply.cc) ---------------------------------
// One plain-text mail per patch that newly failed a clause, in the
// kernel's reply conventions (see docs/review.md), as an mbox.
std::string render_series_replies(const SeriesReport& report, const SeriesOptions& options);
// `text` wrapped at `width` columns, continuation lines indented by `indent`.
std::string wrap_text(const std::string& text, size_t width, const std::string& indent);

}  // namespace idlespec::validate
