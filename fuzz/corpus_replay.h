// The `fuzz-replay <target>` checks, written once: a target's stored corpus
// (fuzz/corpus/<target>/, sorted) replayed for one subject through the
// target's judge, the violations collected per clause (how many inputs break
// each, the first of them as the counterexample), the verdict in verify's
// terms. fuzz/replays.cc holds the table of the six targets.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "oracle/violation.h"
#include "verify/registry.h"

namespace idlespec::fuzz {

// What a target's judge says of one corpus input for one subject.
struct ReplayJudgement {
  oracle::Violations violations;  // a violation's `input`, if empty, is describe()'s
  size_t judged = 0;              // units judged in this input (selections, moves)
  size_t judged_in_range = 0;     // of them, those a range-limited clause judged
};

struct CorpusReplay {
  std::string target;     // "xcede_fuzz": corpus fuzz/corpus/<target>, binary <target>_replay
  std::string component;  // "xcede"
  std::vector<std::string> clauses;
  std::vector<std::string> subjects;
  // The environment variable by which <target>_replay takes a subject
  // (IDLESPEC_GOVERNOR_SUBJECT ...); empty: the replay binary runs reference.
  std::string subject_env;
  std::string judged_unit;    // "selections judged" (empty: not counted)
  std::string in_range_unit;  // "of them in the GOV-5 ranges" (empty: not counted)
  std::function<ReplayJudgement(const std::string& subject, std::span<const uint8_t> input)> judge;
  std::function<std::string(std::span<const uint8_t> input)> describe;
};

// The regular files of `corpus` (e.g. "fuzz/corpus/xcede_fuzz") below the
// source tree of `opts` (idlespec::build::source_dir() if unset), sorted. Empty, with
// `error` set, when the folder is missing or holds no file.
std::vector<std::filesystem::path> corpus_files(const verify::RunOptions& opts,
                                                const std::string& corpus, std::string& error);

// The verify check that replays `replay`'s corpus.
verify::Check corpus_replay_check(CorpusReplay replay);

}  // namespace idlespec::fuzz
