// idlespec-validate: the standalone front end of `idlespec validate` (issue 6).
//
//   idlespec-validate --source FILE.c [--function NAME...] [--json]
//                     [--budget SECONDS] [--scan full|sampled] [--no-sanitizers] [--cc COMPILER]
//                     [--validate-dir DIR] [--keep-temp]
//
// Exit 0: every clause held. 1: a clause failed, errored or is absent.
// 2: usage error, unreadable file or a harness that does not compile (the
// compiler's message is printed).
#include <cstdlib>
#include <iostream>
#include <string>

#include "validate/validate.h"

#ifndef IDLESPEC_VALIDATE_DIR
#define IDLESPEC_VALIDATE_DIR "validate"
#endif

namespace {
int usage(const std::string& why) {
  std::cerr << "idlespec-validate: " << why
            << " (usage: idlespec-validate --source FILE.c [--function NAME...] [--json] "
               "[--budget SECONDS] [--scan full|sampled] [--no-sanitizers] [--cc COMPILER] "
               "[--validate-dir DIR] "
               "[--keep-temp])\n";
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  idlespec::validate::Options opt;
  opt.validate_dir = IDLESPEC_VALIDATE_DIR;
  if (const char* d = std::getenv("IDLESPEC_VALIDATE_DIR")) opt.validate_dir = d;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--source") {
      if (!value(opt.source)) return usage("--source needs a file");
    } else if (a == "--function") {
      if (!value(v)) return usage("--function needs a name");
      opt.functions.push_back(v);
      while (i + 1 < argc && argv[i + 1][0] != '-') opt.functions.push_back(argv[++i]);
    } else if (a == "--budget") {
      if (!value(v)) return usage("--budget needs a number of seconds");
      char* end = nullptr;
      opt.budget_seconds = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end || opt.budget_seconds <= 0)
        return usage("bad --budget '" + v + "'");
    } else if (a == "--cc") {
      if (!value(opt.cc)) return usage("--cc needs a compiler");
    } else if (a == "--validate-dir") {
      if (!value(opt.validate_dir)) return usage("--validate-dir needs a directory");
    } else if (a == "--scan") {
      if (!value(v) || (v != "full" && v != "sampled"))
        return usage("--scan takes full or sampled");
      opt.sampled = v == "sampled";
    } else if (a == "--json") {
      json = true;
    } else if (a == "--no-sanitizers") {
      opt.sanitizers = false;
    } else if (a == "--keep-temp") {
      opt.keep_temp = true;
    } else {
      return usage("unknown argument '" + a + "'");
    }
  }
  if (opt.source.empty()) return usage("--source is required");
  const auto report = idlespec::validate::validate(opt);
  if (!report.build_error.empty()) {  // one message, on stderr (and in the JSON if asked)
    std::cerr << "idlespec-validate: " << opt.source << ": " << report.build_error << "\n";
    if (json) std::cout << idlespec::validate::render_json(report);
    return report.exit_code;
  }
  if (json)
    std::cout << idlespec::validate::render_json(report);
  else
    std::cout << idlespec::validate::render_text(report);
  return report.exit_code;
}
