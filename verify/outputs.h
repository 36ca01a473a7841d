// The files a command writes besides its standard output, for verify,
// check, validate, review and matrix: output paths checked before a run
// (--sarif, --junit, --markdown), and `--html DIR`, the static report of scripts/html_report.py
// (the clause traceability table, the governor sweep plot, per-release tables), written from the
// command's own JSON and the spec's clauses. The renderer is looked for as
// $IDLESPEC_SOURCE_DIR/scripts/html_report.py, else in the source tree
// idlespec was built from; it needs python3 and nothing from the network.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "verify/spec_index.h"

namespace idlespec::verify {

// Checked before a run, so that a long run never ends in "cannot write":
// "" when PATH can be written, else what is wrong with it (a directory, no
// such directory, cannot be opened for writing, a device that refuses
// writes such as /dev/full). PATH is opened for writing, not truncated; a
// file that was not there is removed again.
std::string output_path_problem(const std::string& path);

// Writes TEXT to PATH (truncating it): "" on success, else why it failed.
std::string write_output(const std::string& path, const std::string& text);

// The spec's clauses as `idlespec clauses --json` prints them (those of
// `components`; all when empty).
std::string clauses_json(const SpecIndex& spec, const std::vector<std::string>& components = {});

// Checked before a run, so that a long run never ends unable to write its
// report: "" when DIR can be made and the renderer can run, else why not.
std::string html_report_problem(const std::string& dir);

// Writes DIR/<kind>.json (kind: verify, check, validate, review, matrix),
// DIR/clauses.json and the report (DIR/index.html and its files); "" on
// success, else why it failed.
std::string write_html_report(const std::string& dir, std::string_view kind,
                              const std::string& json, const SpecIndex& spec);

}  // namespace idlespec::verify
