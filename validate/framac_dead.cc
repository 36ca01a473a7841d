// EVA's dead statements: builds the Frama-C module that lists them and reads its list.
#include "validate/framac_dead.h"

#include <sstream>

#include "sandbox/process.h"
#include "sandbox/sandbox.h"

namespace idlespec::validate {

using namespace idlespec::sandbox;

namespace {

// Frama-C's library directory (its .cmi files), from `frama-c -print-lib-path`.
std::string framac_lib_path(const std::string& framac, const std::string& dir) {
  Job j;
  j.argv = {framac, "-print-lib-path"};
  j.out = dir + "/libpath.out";
  j.err = dir + "/libpath.err";
  j.timeout = 30;
  j.memory_mb = 0;
  j.confine = Confine::tool;
  j.scratch = dir;
  const auto r = run_jobs({j}, 1, 30);
  if (r.at(0).exit_code != 0) return "";
  std::string p = slurp(j.out);
  while (!p.empty() && (p.back() == '\n' || p.back() == ' ')) p.pop_back();
  return p;
}

}  // namespace

std::string build_dead_module(const Options& opt, const std::string& dir, std::string& why) {
  const char* e = std::getenv("IDLESPEC_FRAMAC");
  const std::string framac = e && *e ? e : "frama-c";
  if (!executable_on_path("ocamlopt")) {
    why =
        "ocamlopt is not installed (scripts/setup.sh framac), so EVA's dead statements "
        "cannot be listed";
    return "";
  }
  const std::string lib = framac_lib_path(framac, dir);
  if (lib.empty()) {
    why = "Frama-C did not name its library directory (frama-c -print-lib-path)";
    return "";
  }
  // A copy in the unit's directory: ocamlopt writes its objects beside the source.
  const std::string ml = dir + "/framac_dead.ml", cmxs = dir + "/framac_dead.cmxs";
  if (!spit(ml, slurp(opt.harness_dir + "/framac_dead.ml"))) {
    why = "cannot write " + ml;
    return "";
  }
  Job j;
  j.argv = {"ocamlopt", "-shared", "-I", lib, "-I", lib + "/plugins", ml, "-o", cmxs};
  j.out = dir + "/ocamlopt.out";
  j.err = dir + "/ocamlopt.err";
  j.timeout = 60;
  j.memory_mb = 0;
  j.confine = Confine::tool;
  j.scratch = dir;
  j.reads = {lib};
  const auto r = run_jobs({j}, 1, 60);
  if (r.at(0).exit_code != 0) {
    std::string t = tail(slurp(j.err), 2);
    for (char& c : t)
      if (c == '\n') c = ' ';
    why = "the module listing EVA's dead statements did not build (" + outcome(r.at(0), 60) +
          "): " + t;
    return "";
  }
  return cmxs;
}

DeadList parse_dead_list(const std::string& text) {
  DeadList d;
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) {
    if (l == "END") {
      d.complete = true;
      break;
    }
    const size_t a = l.find('\t'), b = a == std::string::npos ? a : l.find('\t', a + 1);
    if (b == std::string::npos) continue;
    DeadStatement s;
    s.line = std::atoi(l.substr(0, a).c_str());
    s.function = l.substr(a + 1, b - a - 1);
    s.file = l.substr(b + 1);
    d.statements.push_back(s);
  }
  return d;
}

const DeadStatement* first_dead_in(const DeadList& dead, const std::vector<std::string>& functions,
                                   const std::string& file) {
  const DeadStatement* first = nullptr;
  for (const auto& s : dead.statements) {
    if (s.file != file) continue;
    bool named = false;
    for (const auto& f : functions) named = named || f == s.function;
    if (named && (!first || s.line < first->line)) first = &s;
  }
  return first;
}

}  // namespace idlespec::validate
