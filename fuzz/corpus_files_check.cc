// (Named *_check.cc to sit in the idlespec_fuzzcheck library with the
// replay checks that use it.)
#include <algorithm>
#include <system_error>

#include "fuzz/corpus_files.h"

namespace idlespec::fuzz {

std::vector<std::filesystem::path> corpus_files(const verify::RunOptions& opts,
                                                const std::string& corpus, std::string& error) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::path(opts.source_dir.empty() ? IDLESPEC_SOURCE_DIR : opts.source_dir) / corpus;
  std::error_code ec;
  std::vector<fs::path> files;
  if (fs::is_directory(dir, ec)) {
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.is_regular_file(ec)) files.push_back(entry.path());
    }
  }
  if (files.empty()) error = "no corpus: " + dir.string() + " is missing or empty";
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace idlespec::fuzz
