// EVA's dead statements: builds the Frama-C module that lists them and reads its list.
#include "validate/framac_dead.h"

#include <cstdlib>
#include <map>
#include <sstream>
#include <tuple>

#include "sandbox/process.h"
#include "sandbox/sandbox.h"
#include "validate/framac.h"

namespace idlespec::validate {

using namespace idlespec::sandbox;

namespace {

// A tool job in the sandbox, writing only `dir`; its output in dir/NAME.out and .err.
JobResult run_tool(std::vector<std::string> argv, const std::string& dir, const std::string& name,
                   std::vector<std::string> reads = {}) {
  Job j;
  j.argv = std::move(argv);
  j.out = dir + "/" + name + ".out";
  j.err = dir + "/" + name + ".err";
  j.timeout = 60;
  j.memory_mb = 0;
  j.confine = Confine::tool;
  j.scratch = dir;
  j.reads = std::move(reads);
  return run_jobs({j}, 1, 60).at(0);
}

// Frama-C's library directory (its .cmi files), from `frama-c -print-lib-path`.
std::string framac_lib_path(const std::string& framac, const std::string& dir) {
  if (run_tool({framac, "-print-lib-path"}, dir, "libpath").exit_code != 0) return "";
  std::string p = slurp(dir + "/libpath.out");
  while (!p.empty() && (p.back() == '\n' || p.back() == ' ')) p.pop_back();
  return p;
}

}  // namespace

std::string build_dead_module(const Options& opt, const std::string& dir, std::string& why) {
  const std::string framac = framac_command();
  // IDLESPEC_OCAMLOPT names another compiler (the tests: one that is not there).
  const char* o = std::getenv("IDLESPEC_OCAMLOPT");
  const std::string ocamlopt = o && *o ? o : "ocamlopt";
  if (!executable_on_path(ocamlopt)) {
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
  const JobResult r =
      run_tool({ocamlopt, "-shared", "-I", lib, "-I", lib + "/plugins", ml, "-o", cmxs}, dir,
               "ocamlopt", {lib});
  if (r.exit_code != 0) {
    std::string t = tail(slurp(dir + "/ocamlopt.err"), 2);
    for (char& c : t)
      if (c == '\n') c = ' ';
    why = "the module listing EVA's dead statements did not build (" + outcome(r, 60) + "): " + t;
    return "";
  }
  return cmxs;
}

DeadList parse_dead_list(const std::string& text) {
  DeadList d;
  std::istringstream in(text);
  std::string l;
  // (file, function, line) -> whether EVA reached some statement there.
  std::map<std::tuple<std::string, std::string, int>, bool> lines;
  while (std::getline(in, l)) {
    if (l == "END") {
      d.complete = true;
      break;
    }
    std::vector<std::string> f;
    for (size_t at = 0;;) {
      const size_t tab = l.find('\t', at);
      f.push_back(l.substr(at, tab == std::string::npos ? tab : tab - at));
      if (tab == std::string::npos || f.size() == 4) break;
      at = tab + 1;
    }
    if (f.size() != 4 || (f[0] != "R" && f[0] != "D")) continue;
    bool& reached = lines[{f[3], f[2], std::atoi(f[1].c_str())}];
    reached = reached || f[0] == "R";
  }
  for (const auto& [where, reached] : lines)
    if (!reached)
      d.statements.push_back({std::get<2>(where), std::get<1>(where), std::get<0>(where)});
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
