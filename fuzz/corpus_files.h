// The stored corpus of a fuzz target, as the fuzz-replay checks read it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "verify/registry.h"

namespace idlespec::fuzz {

// The regular files of `corpus` (e.g. "fuzz/corpus/xcede_fuzz") below the
// source tree of `opts` (IDLESPEC_SOURCE_DIR if unset), sorted. Empty, with
// `error` set, when the folder is missing or holds no file.
std::vector<std::filesystem::path> corpus_files(const verify::RunOptions& opts,
                                                const std::string& corpus, std::string& error);

}  // namespace idlespec::fuzz
