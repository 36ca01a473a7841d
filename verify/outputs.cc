#include "verify/outputs.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "impl/json.h"
#include "verify/build_paths.h"
#include "verify/registry.h"

namespace idlespec::verify {
namespace {

std::string renderer() {
  const char* env = std::getenv("IDLESPEC_SOURCE_DIR");
  return std::string(env && *env ? env : idlespec::build::source_dir()) + "/scripts/html_report.py";
}

// Runs argv (argv[0] looked up in PATH); the exit status (127: it could not
// start), or -1 when it could not be forked.
int run(const std::vector<std::string>& argv, bool quiet) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    // The command's stdout is its report (--json): the renderer's lines
    // go to stderr, or nowhere for a probe.
    if (quiet) {
      if (FILE* null = std::fopen("/dev/null", "w")) {
        dup2(fileno(null), 1);
        dup2(fileno(null), 2);
      }
    } else {
      dup2(2, 1);
    }
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

std::string write_output(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return "cannot write " + path;
  out << text;
  out.close();  // a full device fails here, on the flush
  return out ? "" : "cannot write " + path;
}

std::string output_path_problem(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path f(path);
  if (path.empty()) return "an empty file name";
  if (std::filesystem::is_directory(f, ec)) return path + " is a directory";
  const std::filesystem::path dir = f.has_parent_path() ? f.parent_path() : ".";
  if (!std::filesystem::is_directory(dir, ec)) return "no such directory: " + dir.string();
  // Opened as the write will open it (root passes access(2) where /proc or
  // a read-only mount refuses the file itself); not truncated; a file this
  // made is removed again. O_NONBLOCK: a FIFO without a reader fails here
  // instead of blocking.
  const bool existed = std::filesystem::exists(std::filesystem::symlink_status(f, ec));
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
  if (fd < 0) return "cannot write " + path + ": " + std::strerror(errno);
  // A zero-length write reaches the file's own write: /dev/full says ENOSPC.
  std::string why;
  if (write(fd, "", 0) < 0) why = "cannot write " + path + ": " + std::strerror(errno);
  close(fd);
  if (!existed) unlink(path.c_str());
  return why;
}

std::string clauses_json(const SpecIndex& spec, const std::vector<std::string>& components) {
  JsonWriter w;
  w.begin_array();
  for (const auto& c : spec.clauses) {
    if (!components.empty() &&
        std::find(components.begin(), components.end(), c.component) == components.end())
      continue;
    w.begin_object();
    w.key("id").value(c.id).key("component").value(c.component).key("kind").value(c.kind);
    w.key("obligation").value(c.obligation).key("source").value(c.source);
    w.key("subjects").begin_array();
    for (const auto& s : c.subjects) w.value(s);
    w.end_array().key("checks").begin_array();
    for (const auto& ch : c.checks) w.value(std::string(check_kind_name(ch.kind)) + " " + ch.name);
    // An acceptance (its subject) and an era (its name) share one shape.
    const auto each = [&](const std::vector<Acceptance>& list, const char* name_key) {
      for (const auto& a : list)
        w.begin_object()
            .key(name_key)
            .value(a.subject)
            .key("reason")
            .value(a.reason)
            .key("fixed_by")
            .value(a.fixed_by)
            .end_object();
    };
    w.end_array().key("accepted").begin_array();
    each(c.accepted, "subject");
    w.end_array().key("eras").begin_array();
    each(c.eras, "era");
    w.end_array().key("location").value(c.file + ":" + std::to_string(c.line));
    w.end_object();
  }
  w.end_array();
  return w.str() + "\n";
}

std::string html_report_problem(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return "cannot make " + dir + ": " + ec.message();
  const std::string probe = (std::filesystem::path(dir) / ".idlespec-write-test").string();
  if (const std::string why = write_output(probe, ""); !why.empty()) return why;
  std::filesystem::remove(probe, ec);
  const std::string script = renderer();
  if (!std::filesystem::is_regular_file(script))
    return "the renderer " + script + " is missing (set IDLESPEC_SOURCE_DIR to the idlespec tree)";
  if (const int rc = run({"python3", "-c", ""}, true); rc != 0)
    return "python3 does not run (Debian: python3)";
  return "";
}

std::string write_html_report(const std::string& dir, std::string_view kind,
                              const std::string& json, const SpecIndex& spec) {
  if (const std::string why = html_report_problem(dir); !why.empty()) return why;
  const std::filesystem::path d(dir);
  const std::string input = (d / (std::string(kind) + ".json")).string();
  const std::string clauses = (d / "clauses.json").string();
  if (const std::string why = write_output(input, json); !why.empty()) return why;
  if (const std::string why = write_output(clauses, clauses_json(spec)); !why.empty()) return why;
  // The renderer knows verify (check is verify's), validate (review's
  // after-patch report is validate's) and matrix.
  const std::string flag = kind == "check"    ? "--verify"
                           : kind == "review" ? "--validate"
                                              : "--" + std::string(kind);
  const int rc = run({"python3", renderer(), flag, input, "--clauses", clauses, "--title",
                      "idlespec " + std::string(kind), "--out", dir},
                     false);
  if (rc != 0) return "the renderer failed (exit " + std::to_string(rc) + ")";
  return "";
}

}  // namespace idlespec::verify
