// A main for fuzz targets without libFuzzer: runs LLVMFuzzerTestOneInput over
// every file given, or every regular file in every directory given (sorted,
// not recursive). For gcc builds and ctest (label fuzz-replay).
//
//   xcede_fuzz_replay fuzz/corpus/xcede_fuzz [more files or dirs ...]
//
// Exits 0 when every input ran, 1 when an argument is missing or no input
// was found at all; a target that finds a violation aborts, and the replay
// names the file it was running first.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

char g_current[4096];  // the input being run, for the abort handler

void on_abort(int) {
  static const char kPrefix[] = "replay: crashed on input ";
  if (write(STDERR_FILENO, kPrefix, sizeof(kPrefix) - 1) < 0) return;
  if (write(STDERR_FILENO, g_current, strlen(g_current)) < 0) return;
  if (write(STDERR_FILENO, "\n", 1) < 0) return;
  std::signal(SIGABRT, SIG_DFL);
  std::raise(SIGABRT);
}

bool run_file(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
    return false;
  }
  const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(f),
                                   std::istreambuf_iterator<char>()};
  std::snprintf(g_current, sizeof(g_current), "%s", path.c_str());
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGABRT, on_abort);
  size_t inputs = 0;
  size_t dirs = 0;
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;  // libFuzzer flags: ignored here
    const fs::path arg(argv[i]);
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(arg, ec)) {
        if (entry.is_regular_file(ec)) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      ++dirs;
      if (files.empty()) {
        std::fprintf(stderr, "replay: %s holds no input\n", arg.c_str());
        ok = false;
      }
      for (const auto& file : files) {
        if (run_file(file)) {
          ++inputs;
        } else {
          ok = false;
        }
      }
    } else if (fs::is_regular_file(arg, ec)) {
      if (run_file(arg)) {
        ++inputs;
      } else {
        ok = false;
      }
    } else {
      std::fprintf(stderr, "replay: %s: no such file or directory\n", arg.c_str());
      ok = false;
    }
  }
  std::printf("replay: %zu inputs (%zu directories, %d arguments) ran without a violation\n",
              inputs, dirs, argc - 1);
  if (inputs == 0) {
    std::fprintf(stderr, "replay: no input: give corpus files or directories\n");
    return 1;
  }
  return ok ? 0 : 1;
}
