#include "verify/runner.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <exception>
#include <map>
#include <sstream>
#include <stdexcept>

#include "impl/json.h"

namespace idlespec::verify {
namespace {

bool contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool selected(const std::vector<std::string>& filter, std::string_view s) {
  return filter.empty() || contains(filter, s);
}

bool violates(const CheckResult& r, const std::string& clause) {
  return r.outcome == Outcome::fail && (r.violated.empty() || r.violated.count(clause));
}

CheckResult run_guarded(const Check& c, const std::string& subject, const RunOptions& opts) {
  const auto t0 = std::chrono::steady_clock::now();
  CheckResult r;
  try {
    r = c.run(subject, opts);
  } catch (const std::exception& e) {
    r.outcome = Outcome::unknown;
    r.detail = std::string("check threw: ") + e.what();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

// --- running checks in child processes ----------------------------------------------
//
// A child runs one check and writes its CheckResult to a pipe as
// length-prefixed fields; the parent reads every pipe as it fills (a
// counterexample can outgrow the pipe's buffer) and keeps `jobs` children
// busy. A child that dies without a complete result makes the check
// unknown, naming the signal or exit status: a crash in one check costs
// that check, not the run.

void put_field(std::string& out, const std::string& s) {
  out += std::to_string(s.size());
  out += '\n';
  out += s;
}

std::string encode_result(const CheckResult& r) {
  std::string out;
  put_field(out, std::to_string(static_cast<int>(r.outcome)));
  put_field(out, r.detail);
  put_field(out, r.counterexample);
  put_field(out, r.replay);
  put_field(out, std::to_string(r.violated.size()));
  for (const std::string& v : r.violated) put_field(out, v);
  return out;
}

bool get_field(const std::string& in, size_t& pos, std::string& out) {
  const size_t nl = in.find('\n', pos);
  if (nl == std::string::npos || nl == pos || nl - pos > 19) return false;
  size_t len = 0;
  for (size_t i = pos; i < nl; ++i) {
    if (in[i] < '0' || in[i] > '9') return false;
    len = len * 10 + static_cast<size_t>(in[i] - '0');
  }
  if (in.size() - (nl + 1) < len) return false;
  out = in.substr(nl + 1, len);
  pos = nl + 1 + len;
  return true;
}

bool decode_result(const std::string& in, CheckResult& r) {
  size_t pos = 0;
  std::string f;
  if (!get_field(in, pos, f) || f.size() != 1 || f[0] < '0' || f[0] > '2') return false;
  r.outcome = static_cast<Outcome>(f[0] - '0');
  if (!get_field(in, pos, r.detail) || !get_field(in, pos, r.counterexample) ||
      !get_field(in, pos, r.replay) || !get_field(in, pos, f))
    return false;
  const size_t n = std::strtoul(f.c_str(), nullptr, 10);
  for (size_t i = 0; i < n; ++i) {
    if (!get_field(in, pos, f)) return false;
    r.violated.insert(f);
  }
  return pos == in.size();
}

void write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t k = write(fd, s.data() + done, s.size() - done);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return;
    done += static_cast<size_t>(k);
  }
}

using Run = std::pair<const Check*, std::string>;

// The order children start checks in: the kinds that usually run longest
// first (model checks and proofs: tens of seconds of solver or search time
// each), then properties, then exhaustive scans and corpus replays (seconds),
// so that a long check does not start last and leave the other jobs idle.
// Stable within a kind; the report's order is the plan's, not this one.
int start_rank(CheckKind k) {
  switch (k) {
    case CheckKind::model_check:
      return 0;
    case CheckKind::proof:
      return 1;
    case CheckKind::property:
      return 2;
    case CheckKind::exhaustive:
      return 3;
    case CheckKind::fuzz_replay:
      return 4;
  }
  return 5;
}

void run_in_children(const std::vector<Run>& planned, const RunOptions& options,
                     const Progress& progress, std::map<Run, CheckResult>& results) {
  std::vector<Run> runs = planned;
  std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) {
    return start_rank(a.first->kind) < start_rank(b.first->kind);
  });
  struct Child {
    pid_t pid;
    int fd;
    size_t run;
    std::string data;
    std::chrono::steady_clock::time_point start;
  };
  std::vector<Child> active;
  size_t next = 0;
  size_t finished = 0;
  const size_t jobs = static_cast<size_t>(std::max(1, options.jobs));
  auto finish = [&](Child& ch) {
    close(ch.fd);
    int status = 0;
    while (waitpid(ch.pid, &status, 0) < 0 && errno == EINTR) {
    }
    CheckResult r;
    if (!decode_result(ch.data, r)) {
      r = CheckResult{};
      r.outcome = Outcome::unknown;
      if (WIFSIGNALED(status)) {
        r.detail = "the check's process died of signal " + std::to_string(WTERMSIG(status)) + " (" +
                   strsignal(WTERMSIG(status)) + ")";
      } else {
        r.detail = "the check's process ended (status " +
                   std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                   ") without a result";
      }
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - ch.start).count();
    ++finished;
    if (progress) progress(finished, runs.size(), *runs[ch.run].first, runs[ch.run].second, r);
    results[runs[ch.run]] = std::move(r);
  };
  while (next < runs.size() || !active.empty()) {
    while (next < runs.size() && active.size() < jobs) {
      int fds[2];
      if (pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + strerror(errno));
      std::fflush(nullptr);
      const pid_t pid = fork();
      if (pid < 0) throw std::runtime_error(std::string("fork: ") + strerror(errno));
      if (pid == 0) {
        close(fds[0]);
        const CheckResult r = run_guarded(*runs[next].first, runs[next].second, options);
        write_all(fds[1], encode_result(r));
        close(fds[1]);
        std::fflush(nullptr);
        _exit(0);
      }
      close(fds[1]);
      active.push_back({pid, fds[0], next, {}, std::chrono::steady_clock::now()});
      ++next;
    }
    std::vector<pollfd> pfds;
    for (const Child& ch : active) pfds.push_back({ch.fd, POLLIN, 0});
    if (poll(pfds.data(), pfds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("poll: ") + strerror(errno));
    }
    for (size_t i = active.size(); i-- > 0;) {
      if (!(pfds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      const ssize_t k = read(active[i].fd, buf, sizeof(buf));
      if (k < 0 && errno == EINTR) continue;
      if (k > 0) {
        active[i].data.append(buf, static_cast<size_t>(k));
        continue;
      }
      finish(active[i]);
      active.erase(active.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
}

}  // namespace

std::string_view status_name(Status s) {
  switch (s) {
    case Status::held:
      return "held";
    case Status::failed:
      return "failed";
    case Status::unknown:
      return "unknown";
    case Status::uncovered:
      return "uncovered";
    case Status::accepted:
      return "accepted";
  }
  return "?";
}

bool VerifyReport::passed(bool allow_unknown) const {
  if (!errors.empty()) return false;
  for (const auto& c : clauses) {
    if (c.status == Status::failed || c.status == Status::uncovered) return false;
    if (c.status == Status::unknown && !allow_unknown) return false;
  }
  return true;
}

int VerifyReport::exit_code(bool allow_unknown) const {
  if (!errors.empty()) return 1;
  bool unknown = false;
  for (const auto& c : clauses) {
    if (c.status == Status::failed || c.status == Status::uncovered) return 1;
    unknown = unknown || c.status == Status::unknown;
  }
  return unknown && !allow_unknown ? 3 : 0;
}

VerifyReport run_verify(const SpecIndex& spec, const Registry& registry, const VerifyFilter& filter,
                        const RunOptions& options, const Progress& progress) {
  VerifyReport report;
  for (const Check& c : registry.checks()) {
    for (const auto& id : c.clauses) {
      if (!spec.find(id)) {
        report.errors.push_back(std::string(check_kind_name(c.kind)) + " " + c.name +
                                " names clause " + id + ", which no spec file defines");
      }
    }
  }

  // Plan: every (clause, subject) in the filter, with the checks that apply.
  struct Planned {
    const Clause* clause;
    std::string subject;
    std::vector<const Check*> checks;
    std::vector<std::string> mismatches;
  };
  std::vector<Planned> plan;
  for (const Clause& cl : spec.clauses) {
    if (!selected(filter.components, cl.component)) continue;
    Planned base{&cl, "", {}, {}};
    for (const CheckRef& ref : cl.checks) {
      const Check* c = registry.find(ref.kind, ref.name);
      if (!c) {
        base.mismatches.push_back("spec lists " + std::string(check_kind_name(ref.kind)) + " " +
                                  ref.name + ", which is not registered");
      } else if (!contains(c->clauses, cl.id)) {
        base.mismatches.push_back("spec lists " + std::string(check_kind_name(ref.kind)) + " " +
                                  ref.name + ", which does not name " + cl.id);
      }
    }
    for (const Check& c : registry.checks()) {
      if (!contains(c.clauses, cl.id)) continue;
      const bool listed = std::any_of(cl.checks.begin(), cl.checks.end(), [&](const CheckRef& r) {
        return r.kind == c.kind && r.name == c.name;
      });
      if (!listed) {
        base.mismatches.push_back(std::string(check_kind_name(c.kind)) + " " + c.name + " names " +
                                  cl.id + " but " + cl.file + " does not list it");
      }
    }
    for (const auto& subject : cl.subjects) {
      if (!selected(filter.subjects, subject)) continue;
      Planned p = base;
      p.subject = subject;
      for (const Check& c : registry.checks()) {
        if (contains(c.clauses, cl.id) && contains(c.subjects, subject)) p.checks.push_back(&c);
      }
      plan.push_back(std::move(p));
    }
  }

  // Run each (check, subject) once, however many clauses it discharges.
  std::vector<std::pair<const Check*, std::string>> runs;
  for (const auto& p : plan) {
    for (const Check* c : p.checks) {
      if (std::find(runs.begin(), runs.end(), std::make_pair(c, p.subject)) == runs.end()) {
        runs.emplace_back(c, p.subject);
      }
    }
  }
  std::map<std::pair<const Check*, std::string>, CheckResult> results;
  if (options.jobs > 1 && runs.size() > 1) {
    run_in_children(runs, options, progress, results);
  } else {
    for (size_t i = 0; i < runs.size(); ++i) {
      CheckResult r = run_guarded(*runs[i].first, runs[i].second, options);
      if (progress) progress(i + 1, runs.size(), *runs[i].first, runs[i].second, r);
      results[runs[i]] = std::move(r);
    }
  }

  for (auto& p : plan) {
    ClauseReport cr;
    cr.clause = *p.clause;
    cr.subject = p.subject;
    bool any_fail = false;
    bool any_unknown = false;
    for (const Check* c : p.checks) {
      const CheckResult& r = results[{c, p.subject}];
      cr.checks.push_back({c, CheckRef{c->kind, c->name}, r});
      any_fail |= violates(r, p.clause->id);
      any_unknown |= r.outcome == Outcome::unknown;
    }
    const Acceptance* acc = p.clause->acceptance_for(p.subject);
    if (!p.mismatches.empty()) {
      cr.status = Status::failed;
      std::ostringstream d;
      for (size_t i = 0; i < p.mismatches.size(); ++i) d << (i ? "; " : "") << p.mismatches[i];
      cr.detail = d.str();
    } else if (p.checks.empty()) {
      cr.status = Status::uncovered;
      cr.detail = "no check discharges " + p.clause->id + " for subject " + p.subject;
    } else if (acc) {
      if (any_fail) {
        cr.status = Status::accepted;
        cr.detail = acc->reason;
        if (!acc->fixed_by_commit.empty())
          cr.detail += " (fixed upstream by " + acc->fixed_by_commit + ")";
      } else if (any_unknown) {
        cr.status = Status::unknown;
        cr.detail = "accepted violation neither confirmed nor refuted";
      } else {
        cr.status = Status::failed;
        cr.detail = "expected violation not found (the spec accepts one: " + acc->reason + ")";
      }
    } else if (any_fail) {
      cr.status = Status::failed;
    } else if (any_unknown) {
      cr.status = Status::unknown;
    } else {
      cr.status = Status::held;
    }
    report.clauses.push_back(std::move(cr));
  }
  return report;
}

std::string report_json(const VerifyReport& report) {
  JsonWriter w;
  w.begin_object().key("clauses").begin_array();
  for (const auto& c : report.clauses) {
    w.begin_object();
    w.key("id").value(c.clause.id);
    w.key("component").value(c.clause.component);
    w.key("subject").value(c.subject);
    w.key("kind").value(c.clause.kind);
    w.key("status").value(status_name(c.status));
    w.key("obligation").value(c.clause.obligation);
    if (!c.detail.empty()) w.key("detail").value(c.detail);
    w.key("checks").begin_array();
    for (const auto& ch : c.checks) {
      w.begin_object();
      w.key("kind").value(check_kind_name(ch.ref.kind));
      w.key("name").value(ch.ref.name);
      w.key("status").value(outcome_name(ch.result.outcome));
      w.key("detail").value(ch.result.detail);
      if (!ch.result.counterexample.empty())
        w.key("counterexample").value(ch.result.counterexample);
      w.key("replay").value(ch.result.replay);
      w.key("seconds").value(ch.result.seconds);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("errors").begin_array();
  for (const auto& e : report.errors) w.value(e);
  w.end_array();
  w.end_object();
  return w.str() + "\n";
}

std::string report_text(const VerifyReport& report) {
  std::ostringstream out;
  std::map<std::string, int> counts;
  for (const auto& c : report.clauses) {
    ++counts[std::string(status_name(c.status))];
    out << c.clause.id << " [" << c.subject << ", " << c.clause.kind << "] "
        << status_name(c.status) << "\n";
    for (const auto& ch : c.checks) {
      out << "    " << check_kind_name(ch.ref.kind) << " " << ch.ref.name << ": "
          << outcome_name(ch.result.outcome);
      if (!ch.result.detail.empty()) out << " - " << ch.result.detail;
      out << "\n";
      if (!ch.result.counterexample.empty()) {
        out << "      counterexample: " << ch.result.counterexample << "\n";
      }
      if (ch.result.outcome != Outcome::pass && !ch.result.replay.empty()) {
        out << "      replay: " << ch.result.replay << "\n";
      }
    }
    if (!c.detail.empty()) out << "    " << c.detail << "\n";
  }
  for (const auto& e : report.errors) out << "error: " << e << "\n";
  out << "\n" << report.clauses.size() << " clause verdicts:";
  for (const auto& [k, v] : counts) out << " " << v << " " << k;
  out << "\n";
  return out.str();
}

}  // namespace idlespec::verify
