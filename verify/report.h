// The renderers of validate's and review's reports, beside verify's own
// (verify/runner.h, verify/sarif.h; files: verify/outputs.h): a validate
// report as text, JSON, JUnit, SARIF and Markdown, review's clause diff as
// text, JSON and Markdown; a series' and matrix's use markdown_cell() and
// verdict_counts(). What every command's report shares: verify/report_format.h.
#pragma once

#include <string>
#include <vector>

#include "validate/validate.h"

namespace idlespec::validate {

std::string render_text(const Report& report);
std::string render_json(const Report& report);
// JUnit XML: one testsuite per part, one testcase per clause.
std::string render_junit(const Report& report);
// SARIF 2.1.0 (verify/sarif.h's writer): one result per clause that is not
// held, n/a or absent, located at the function's file and first line, with
// a code flow per counterexample and a fingerprint that survives reruns.
std::string render_sarif(const Report& report);
// Markdown (a CI job summary): the verdict counts and a clause table.
std::string render_markdown(const Report& report);
// A Markdown table cell: '|' escaped, newlines as <br>.
std::string markdown_cell(const std::string& text);
// "3 held, 1 failed, 2 accepted": the statuses of `clauses`, counted.
std::string verdict_counts(const std::vector<ClauseVerdict>& clauses);

std::string render_review_text(const ReviewReport& report);
std::string render_review_json(const ReviewReport& report);
// Markdown (the job summary of a pull request): the clause diff, each newly
// failed clause with its counterexample.
std::string render_review_markdown(const ReviewReport& report);

// How the renderers word one verdict. proof_level: how it was reached, after
// its status (issue 38): " (proven: ...)", " (tested; ...)" for a held
// clause a Frama-C unit covers, "" otherwise. alarm_beside: EVA's alarm
// beside a clause that did not hold, "EVA: <alarm> at f:l", "" for none.
std::string proof_level(const ClauseVerdict& v);
std::string alarm_beside(const ClauseVerdict& v);

}  // namespace idlespec::validate
