// idle_core_stress: the stress test of tests/stress/idle_core_stress.h as a
// command, for soak runs and for the data-race witness.
//
//   idle_core_stress [--platform power8|power9] [--threads N] [--subcores K]
//                    [--no-workaround] [--seconds S] [--iterations N] [--seed N]
//                    [--subject NAME] [--word atomic|plain] [--loss-percent P]
//                    [--yield-percent P] [--window-yield-percent P]
//
// --subject: reference or a witness of tests/witnesses/idle_core_witnesses.h
// by its name without "witness-" (clear-outside-lock, first-skips-resync,
// ...). --word plain shares one non-atomic PlainWord across the threads: a
// data race by construction, for ThreadSanitizer to report (the ctest
// stress/tsan_race_witness); without TSan it is undefined behaviour.
//
// Exit: 0 clean, 1 a violation, 2 usage.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "impl/idle_core.h"
#include "tests/stress/idle_core_stress.h"
#include "tests/witnesses/idle_core_witnesses.h"

namespace {

using namespace idlespec;
using namespace idlespec::idle_core;

int usage(const char* msg) {
  std::fprintf(stderr,
               "idle_core_stress: %s\nusage: idle_core_stress [--platform power8|power9] "
               "[--threads N] [--subcores K] [--no-workaround] [--seconds S] [--iterations N] "
               "[--seed N] [--subject NAME] [--word atomic|plain] [--loss-percent P] "
               "[--yield-percent P] [--window-yield-percent P]\n",
               msg);
  return 2;
}

template <class Subject>
int run_with(const stress::Options& o, bool plain) {
  stress::Result r;
  if (plain) {
    PlainWord word;
    r = stress::run<Subject>(o, word);
  } else {
    std::atomic<uint64_t> a{0};
    AtomicWord word{&a};
    r = stress::run<Subject>(o, word);
  }
  std::printf("%s (%s word) on %s\n", std::string(Subject::name).c_str(),
              plain ? "plain" : "atomic", r.summary(o.config).c_str());
  return r.ok() ? 0 : 1;
}

template <class... Subjects>
int dispatch(std::string_view name, const stress::Options& o, bool plain) {
  int rc = -1;
  const auto try_one = [&](std::string_view n, auto run) {
    if (rc == -1 && (n == name || (n.rfind("witness-", 0) == 0 && n.substr(8) == name))) {
      rc = run();
    }
  };
  (try_one(Subjects::name, [&] { return run_with<Subjects>(o, plain); }), ...);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  stress::Options o;
  o.seconds = 5;
  std::string subject = "reference";
  bool plain = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "--no-workaround") {
      o.config.fastsleep_workaround = false;
      continue;
    }
    if (!(v = value())) return usage("missing value");
    if (a == "--platform") {
      const auto p = parse_platform(v);
      if (!p) return usage("unknown platform");
      o.config.platform = *p;
    } else if (a == "--threads") {
      o.config.threads = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    } else if (a == "--subcores") {
      o.config.subcores = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    } else if (a == "--seconds") {
      o.seconds = std::strtod(v, nullptr);
    } else if (a == "--iterations") {
      o.iterations = std::strtoull(v, nullptr, 10);
    } else if (a == "--seed") {
      o.seed = std::strtoull(v, nullptr, 10);
    } else if (a == "--subject") {
      subject = v;
    } else if (a == "--word") {
      if (std::strcmp(v, "plain") != 0 && std::strcmp(v, "atomic") != 0) {
        return usage("--word is atomic or plain");
      }
      plain = std::strcmp(v, "plain") == 0;
    } else if (a == "--loss-percent") {
      o.loss_percent = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    } else if (a == "--yield-percent") {
      o.yield_percent = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    } else if (a == "--window-yield-percent") {
      o.window_yield_percent = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    } else {
      return usage(("unknown option " + std::string(a)).c_str());
    }
  }
  if (const std::string err = stress::check_options(o); !err.empty()) return usage(err.c_str());
  const int rc = dispatch<Reference, witness::ClearOutsideLock, witness::FirstSkipsResync,
                          witness::UnlockBeforeResync, witness::NoWinkleDecOnNoLoss,
                          witness::EveryThreadResyncs, witness::CoreMaskFor4>(subject, o, plain);
  if (rc == -1) return usage(("unknown subject " + subject).c_str());
  return rc;
}
