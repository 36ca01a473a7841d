// Writes the hand-made seeds of fuzz/corpus/idle_core_fuzz/ (one file per
// seed, named seed-<what>), built with the driver's own op encoding
// (fuzz/idle_core_input.h) so that they follow the layout if it changes:
//
//   cmake --build BUILD --target idle_core_fuzz_seeds
//   BUILD/idle_core_fuzz_seeds fuzz/corpus/idle_core_fuzz
//
// Each seed must run clean on the reference, and every loss op in it must
// find the core able to lose state (unless the seed says otherwise): a seed
// that stopped doing what its name says fails here. The campaign finds
// (sha1-named files) are kept beside them after a `-merge=1`.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/idle_core_input.h"

namespace {

namespace icf = idlespec::idle_core_fuzz;
using idlespec::Platform;
using idlespec::idle_core::Config;
using idlespec::idle_core::Kind;
using Bytes = std::vector<uint8_t>;

// A schedule under construction.
struct Schedule {
  explicit Schedule(const Config& c) : config(c) {}
  Config config;
  Bytes ops;
  size_t expect_skipped = 0;
  Schedule& enter(unsigned t, Kind k) { return push(icf::op_begin(t, k, true)); }
  Schedule& begin(unsigned t, Kind k) { return push(icf::op_begin(t, k, false)); }
  Schedule& wake(unsigned t) { return push(icf::op_wake(t, true)); }
  Schedule& wake_only(unsigned t) { return push(icf::op_wake(t, false)); }
  Schedule& step(unsigned t, unsigned n = 1) {
    while (n > 0) {
      const unsigned k = n > 4 ? 4 : n;
      push(icf::op_step(t, k));
      n -= k;
    }
    return *this;
  }
  Schedule& run(unsigned t) { return push(icf::op_run(t)); }
  Schedule& loss() { return push(icf::kLossOp); }
  Schedule& all_enter(Kind k) {
    for (unsigned t = 0; t < config.threads; ++t) enter(t, k);
    return *this;
  }
  Schedule& all_wake() {
    for (unsigned t = 0; t < config.threads; ++t) wake(t);
    return *this;
  }
  Schedule& push(uint8_t b) {
    ops.push_back(b);
    return *this;
  }
  Bytes bytes() const {
    Bytes b{icf::config_byte(config)};
    b.insert(b.end(), ops.begin(), ops.end());
    return b;
  }
};

std::vector<std::pair<std::string, Bytes>> seeds() {
  std::vector<std::pair<std::string, Bytes>> out;
  auto add = [&](const std::string& name, const Schedule& s) {
    const Bytes b = s.bytes();
    const icf::Outcome o = icf::check_fuzz_input(b);
    if (!o.ok()) {
      throw std::logic_error("seed-" + name + ": the reference breaks " + o.verdict.clause + ": " +
                             o.verdict.message);
    }
    if (o.skipped != s.expect_skipped) {
      throw std::logic_error("seed-" + name + ": " + std::to_string(o.skipped) +
                             " loss ops skipped, expected " + std::to_string(s.expect_skipped));
    }
    out.emplace_back("seed-" + name, b);
  };
  const Config p8smt2 = Config::of(Platform::power8, 2);
  const Config p8smt4 = Config::of(Platform::power8, 4);
  const Config p8smt8 = Config::of(Platform::power8, 8);
  const Config split2x2 = Config::of(Platform::power8, 4, 2);
  const Config split4x1 = Config::of(Platform::power8, 4, 4);
  const Config split2x4 = Config::of(Platform::power8, 8, 2);
  const Config split4x2 = Config::of(Platform::power8, 8, 4);
  const Config p9smt2 = Config::of(Platform::power9, 2);
  const Config p9smt4 = Config::of(Platform::power9, 4);

  // Fastsleep: the last thread applies the workaround, the first awake undoes
  // it and resyncs the timebase.
  add("p8-smt2-fastsleep", Schedule{p8smt2}.all_enter(Kind::p8_sleep).loss().wake(0).wake(1));
  add("p8-smt2-fastsleep-no-workaround", Schedule{Config::of(Platform::power8, 2, 1, false)}
                                             .all_enter(Kind::p8_sleep)
                                             .loss()
                                             .all_wake());
  add("p8-smt1-sleep-winkle", Schedule{Config::of(Platform::power8, 1)}
                                  .enter(0, Kind::p8_sleep)
                                  .loss()
                                  .wake(0)
                                  .enter(0, Kind::p8_winkle)
                                  .loss()
                                  .wake(0));
  // Full winkle: per-core, per-subcore and per-thread registers.
  add("p8-smt4-full-winkle", Schedule{p8smt4}.all_enter(Kind::p8_winkle).loss().all_wake());
  add("p8-smt8-full-winkle", Schedule{p8smt8}.all_enter(Kind::p8_winkle).loss().all_wake());
  add("p8-smt4-split-2x2-full-winkle",
      Schedule{split2x2}.all_enter(Kind::p8_winkle).loss().wake(0).wake(2).wake(1).wake(3));
  add("p8-smt4-split-4x1-full-winkle",
      Schedule{split4x1}.all_enter(Kind::p8_winkle).loss().wake(3).wake(1).wake(0).wake(2));
  add("p8-smt8-split-2x4-full-winkle",
      Schedule{split2x4}.all_enter(Kind::p8_winkle).loss().wake(5).wake(0).wake(4).wake(1));
  add("p8-smt8-split-4x2-full-winkle",
      Schedule{split4x2}.all_enter(Kind::p8_winkle).loss().wake(7).wake(6).wake(2).wake(0));
  // Sleep and winkle mixed: a fastsleep loss; then a full winkle, a thread
  // back to sleep, a fastsleep loss on top (its winkle bit is still set).
  add("p8-smt4-mixed-fastsleep", Schedule{p8smt4}
                                     .enter(0, Kind::p8_winkle)
                                     .enter(1, Kind::p8_sleep)
                                     .enter(2, Kind::p8_winkle)
                                     .enter(3, Kind::p8_sleep)
                                     .loss()
                                     .all_wake());
  add("p8-smt2-winkle-then-fastsleep", Schedule{p8smt2}
                                           .all_enter(Kind::p8_winkle)
                                           .loss()
                                           .wake(0)
                                           .enter(0, Kind::p8_sleep)
                                           .loss()
                                           .wake(1)
                                           .wake(0));
  // Winkle without loss: the count goes up and down again.
  add("p8-smt2-winkle-no-loss", Schedule{p8smt2}
                                    .enter(0, Kind::p8_winkle)
                                    .enter(1, Kind::p8_winkle)
                                    .wake(1)
                                    .wake(0)
                                    .enter(0, Kind::p8_winkle)
                                    .wake(0));
  // Nap keeps the core up: the loss op is skipped.
  Schedule nap{p8smt2};
  nap.enter(0, Kind::p8_nap).enter(1, Kind::p8_sleep).loss().wake(0).wake(1);
  nap.expect_skipped = 1;
  add("p8-smt2-nap-blocks-loss", nap);
  // Two resyncs after one loss (IDLE-9's note): the first thread resyncs and
  // goes back to sleep; the next to wake again finds no bit set.
  add("p8-smt2-second-first-after-reentry", Schedule{p8smt2}
                                                .all_enter(Kind::p8_sleep)
                                                .loss()
                                                .wake(0)
                                                .enter(0, Kind::p8_sleep)
                                                .wake(1)
                                                .wake(0));
  // Two threads woken together after a loss, stepping in turn: the second
  // spins on the lock while the first does the first-thread duties.
  add("p8-smt2-contended-wake", Schedule{p8smt2}
                                    .all_enter(Kind::p8_sleep)
                                    .loss()
                                    .wake_only(0)
                                    .wake_only(1)
                                    .step(1)
                                    .step(0)
                                    .step(1)
                                    .step(0)
                                    .step(1)
                                    .step(0)
                                    .run(1)
                                    .run(0));
  add("p8-smt4-split-2x2-contended-wake", Schedule{split2x2}
                                              .all_enter(Kind::p8_winkle)
                                              .loss()
                                              .wake_only(2)
                                              .wake_only(3)
                                              .wake_only(0)
                                              .step(3, 2)
                                              .step(2)
                                              .step(0)
                                              .step(2, 2)
                                              .step(3)
                                              .run(2)
                                              .run(0)
                                              .run(3)
                                              .wake(1));
  // The lost-update pattern of IDLE-2's witness: an entry's load and store
  // around another thread's unlock cmpxchg (the reference holds the lock, so
  // the entry spins instead).
  add("p8-smt2-entry-against-unlock", Schedule{p8smt2}
                                          .enter(1, Kind::p8_sleep)
                                          .wake_only(1)
                                          .step(1)
                                          .step(1)
                                          .begin(0, Kind::p8_sleep)
                                          .step(0)
                                          .step(0)
                                          .step(1)
                                          .step(0)
                                          .step(0)
                                          .step(0)
                                          .run(0)
                                          .wake(0));
  add("p8-smt4-entry-against-entry", Schedule{p8smt4}
                                         .begin(0, Kind::p8_sleep)
                                         .begin(1, Kind::p8_winkle)
                                         .step(0)
                                         .step(1)
                                         .step(0)
                                         .step(1)
                                         .run(0)
                                         .run(1)
                                         .enter(2, Kind::p8_sleep)
                                         .enter(3, Kind::p8_sleep)
                                         .loss()
                                         .all_wake());
  // POWER9: deep stop (SPRs lost, timebase kept) and the timebase-loss level.
  add("p9-smt2-deep-stop", Schedule{p9smt2}.all_enter(Kind::p9_deep).loss().all_wake());
  add("p9-smt4-tb-loss-stop", Schedule{p9smt4}.all_enter(Kind::p9_tb_loss).loss().all_wake());
  add("p9-smt4-mixed-stop", Schedule{p9smt4}
                                .enter(0, Kind::p9_tb_loss)
                                .enter(1, Kind::p9_deep)
                                .enter(2, Kind::p9_shallow)
                                .enter(3, Kind::p9_tb_loss)
                                .wake(2)
                                .enter(2, Kind::p9_tb_loss)
                                .loss()
                                .all_wake());
  add("p9-smt1-tb-loss", Schedule{Config::of(Platform::power9, 1)}
                             .enter(0, Kind::p9_tb_loss)
                             .loss()
                             .wake(0)
                             .enter(0, Kind::p9_deep)
                             .loss()
                             .wake(0));
  // POWER9: a lock-free set_bit (no-loss wake) racing with the first
  // thread's cmpxchg, which then retries.
  add("p9-smt2-set-bit-against-cmpxchg", Schedule{p9smt2}
                                             .all_enter(Kind::p9_tb_loss)
                                             .loss()
                                             .wake(0)
                                             .enter(0, Kind::p9_deep)
                                             .wake_only(1)
                                             .step(1, 5)
                                             .wake(0)
                                             .run(1)
                                             .run(1));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir(argv[1]);
  std::filesystem::create_directories(dir);
  size_t n = 0;
  try {
    for (const auto& [name, bytes] : seeds()) {
      std::ofstream f(dir / name, std::ios::binary | std::ios::trunc);
      f.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
      if (!f) {
        std::fprintf(stderr, "cannot write %s\n", (dir / name).c_str());
        return 1;
      }
      ++n;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "idle_core_fuzz_seeds: %s\n", e.what());
    return 1;
  }
  std::printf("wrote %zu seeds to %s\n", n, dir.c_str());
  return 0;
}
