// Tests for validate's input sources: Z3's boundary inputs (validate/
// boundaries.h) bound to the concrete code they were chosen from, and the
// fuzz campaign's byte encoding (validate/input_check.h).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "impl/domain.h"
#include "impl/states.h"
#include "impl/xcede.h"
#include "sandbox/process.h"
#include "validate/boundaries.h"
#include "validate/input_check.h"

namespace idlespec::validate {
namespace {

// --- xcede: each Z3 input is in the branch it names, at its edge -------------

// The decoder's Source over a concrete buffer (reads outside it give 0 and
// are counted: the reference decoder must make none).
struct Buffer {
  std::vector<uint8_t> bytes;
  int overruns = 0;
  Word<32> length() const { return Word<32>(static_cast<uint32_t>(bytes.size())); }
  Word<8> read(bool guard, Word<32> at) {
    if (!guard) return Word<8>(0);
    if (at.v >= bytes.size()) return ++overruns, Word<8>(0);
    return Word<8>(bytes[at.v]);
  }
};

// The flags of decode_raw<Concrete> as boundaries.cc names them.
std::string xcede_branch(const std::vector<uint8_t>& payload) {
  Buffer b{payload};
  const auto d = xcede::decode_raw<Concrete>(b, xcede::kDefaultCapacity,
                                             [](uint32_t, const xcede::RawRecord<Concrete>&) {});
  EXPECT_EQ(b.overruns, 0);
  std::string s;
  const std::pair<const char*, bool> flags[] = {
      {"header_ok", d.header_ok},         {"size_ok", d.size_ok},
      {"short_payload", d.short_payload}, {"partial_record", d.partial_record},
      {"over_capacity", d.over_capacity}, {"truncated", d.truncated},
      {"nul_missing", d.nul_missing}};
  for (const auto& [name, on] : flags) {
    if (!on) continue;
    if (!s.empty()) s += ' ';
    s += name;
  }
  return s.empty() ? "none" : s;
}

std::vector<uint8_t> with_payload_size(std::vector<uint8_t> p, unsigned ps) {
  p[0] = static_cast<uint8_t>(ps >> 8), p[1] = static_cast<uint8_t>(ps);
  return p;
}

TEST(ValidateBoundaries, XcedeInputsSitInTheirBranchAtItsEdge) {
  const Boundaries z = xcede_boundaries(xcede::kDefaultCapacity, 200);
  ASSERT_TRUE(z.error.empty()) << z.error;
  EXPECT_EQ(z.unknown, 0u);
  size_t payload_edges = 0;
  for (const auto& in : z.inputs) {
    const size_t cut = in.branch.find(", payload_size ");
    if (cut == std::string::npos) continue;  // a status edge
    ++payload_edges;
    const std::string branch = in.branch.substr(0, cut);
    EXPECT_EQ(xcede_branch(in.payload), branch) << in.branch;
    if (in.payload.size() < 3) continue;  // no payload_size to move
    const unsigned ps = static_cast<unsigned>(in.payload[0] << 8 | in.payload[1]);
    // The least (greatest) payload_size of the branch: one less (more), all
    // else equal, is outside it.
    if (in.branch.ends_with("least") && ps > 0) {
      EXPECT_NE(xcede_branch(with_payload_size(in.payload, ps - 1)), branch) << in.branch;
    }
    if (in.branch.ends_with("greatest") && ps < 0xffff) {
      EXPECT_NE(xcede_branch(with_payload_size(in.payload, ps + 1)), branch) << in.branch;
    }
  }
  EXPECT_GE(payload_edges, 20u);
  EXPECT_GE(z.feasible, 20u);
}

TEST(ValidateBoundaries, XcedeStatusEdgesAreTheRetriedSetAndItsNeighbours) {
  const Boundaries z = xcede_boundaries(xcede::kDefaultCapacity, 200);
  std::vector<int> retried, failing;
  for (const auto& in : z.inputs) {
    if (in.branch.rfind("retried status", 0) == 0) retried.push_back(in.statuses.front());
    if (in.branch.rfind("failing status", 0) == 0) failing.push_back(in.statuses.front());
  }
  std::sort(retried.begin(), retried.end());
  std::sort(failing.begin(), failing.end());
  EXPECT_EQ(retried, (std::vector<int>{-2, 9900, 9901, 9902, 9903, 9904, 9905}));
  EXPECT_EQ(failing, (std::vector<int>{INT32_MIN, -3, -1, 9899, 9906, INT32_MAX}));
}

// The stage's time is a bound (issue 15): with none left, Z3 is asked
// nothing and every question is counted as not asked, in the summary too;
// an ample time asks every question (none left over), as no bound does.
TEST(ValidateBoundaries, XcedeAsksNothingPastItsTime) {
  // A buffer length no other call of this process uses: a complete answer
  // is kept per (capacity, length) for the process (each target and file of
  // a run judges the same inputs), and a cached one is given even without
  // time (ReusesACompleteAnswer below).
  const Boundaries none = xcede_boundaries(xcede::kDefaultCapacity, 197, 0);
  EXPECT_EQ(none.valuations, 0u);
  EXPECT_EQ(none.feasible, 0u);
  EXPECT_TRUE(none.inputs.empty());
  EXPECT_GE(none.not_asked, 128u + 7u);  // every flag valuation and the status questions
  EXPECT_NE(none.summary().find("questions not asked"), std::string::npos) << none.summary();

  const Boundaries ample = xcede_boundaries(xcede::kDefaultCapacity, 200, 3600);
  const Boundaries open = xcede_boundaries(xcede::kDefaultCapacity, 200);
  EXPECT_EQ(ample.not_asked, 0u);
  EXPECT_EQ(ample.valuations, open.valuations);
  EXPECT_EQ(ample.inputs.size(), open.inputs.size());
  EXPECT_EQ(ample.summary().find("not asked"), std::string::npos) << ample.summary();
}

// A complete answer is asked once per process: the next call for the same
// capacity and length gets it again, says so, and needs no time for it.
TEST(ValidateBoundaries, ReusesACompleteAnswer) {
  const Boundaries first = xcede_boundaries(xcede::kDefaultCapacity, 198, 3600);
  ASSERT_EQ(first.not_asked, 0u);
  ASSERT_TRUE(first.error.empty());
  const Boundaries again = xcede_boundaries(xcede::kDefaultCapacity, 198, 0);
  EXPECT_TRUE(again.reused);
  EXPECT_EQ(again.inputs.size(), first.inputs.size());
  EXPECT_EQ(again.not_asked, 0u);
  EXPECT_NE(again.summary().find("asked once in this run"), std::string::npos) << again.summary();
}

// A run's limit cut to what is left of the budget is often under a second:
// the report says how long, not "0 s".
TEST(ValidateRunOutcome, ATimeOutNamesItsLimitInTenthsUnderTenSeconds) {
  JobResult r;
  r.timed_out = true;
  EXPECT_EQ(outcome(r, 0.6), "timed out after 0.6 s");
  EXPECT_EQ(outcome(r, 9.96), "timed out after 10.0 s");
  EXPECT_EQ(outcome(r, 30), "timed out after 30 s");
  r.timed_out = false, r.exit_code = 0;
  EXPECT_EQ(outcome(r, 0.6), "finished");
}

// A run never started is said to be so, not "exited -1".
TEST(ValidateRunOutcome, ARunNeverStartedSaysSo) {
  JobResult r;
  r.skipped = true;
  EXPECT_EQ(outcome(r, 10), "was not started: the budget ran out before it");
  r.interrupted = true;
  EXPECT_EQ(outcome(r, 10), "was not started: the run was interrupted");
}

// A stage leaves the later ones their shares: the campaign's and
// RapidCheck's only when they are asked for, the runs' always.
TEST(ValidateBudget, EachStageLeavesTheLaterStagesTheirShares) {
  Options opt;
  opt.budget_seconds = 30;  // a sixth: 5 s each for the campaign, RapidCheck, the runs
  EXPECT_DOUBLE_EQ(later_shares_seconds(opt, Stage::z3), 15);
  EXPECT_DOUBLE_EQ(later_shares_seconds(opt, Stage::fuzz), 10);
  EXPECT_DOUBLE_EQ(later_shares_seconds(opt, Stage::rapidcheck), 5);
  opt.inputs = {"z3", "generated"};
  EXPECT_DOUBLE_EQ(later_shares_seconds(opt, Stage::z3), 5);
  opt.inputs = {"z3", "fuzz", "generated"};
  opt.fuzz_seconds = 2;
  EXPECT_DOUBLE_EQ(later_shares_seconds(opt, Stage::z3), 7);
  opt.budget_seconds = 3;  // the shares' floor of 1 s
  opt.inputs = {"z3", "fuzz", "rapidcheck"};
  opt.fuzz_seconds = -1;
  EXPECT_DOUBLE_EQ(later_shares_seconds(opt, Stage::z3), 3);
  // Z3 gets what is left less the later shares, never less than nothing.
  EXPECT_DOUBLE_EQ(z3_seconds(opt, std::chrono::steady_clock::now()), 0);
  opt.budget_seconds = 1000;
  EXPECT_GT(z3_seconds(opt, std::chrono::steady_clock::now()), 1000 - 15 - 1);
}

// --- states: each edge tick is in its fate, its neighbour is not -------------

std::string fate(uint64_t ticks) {
  xcede::RawRecord<Concrete> r{true, Word<8>(1), Word<64>(ticks), Word<8>(1)};
  const Word<128> us = states::exact_latency_us<Concrete>(Word<64>(ticks), states::kDefaultTbHz);
  states::BuildConfig cfg;
  const auto t = states::build_from_latencies<Concrete>(
      std::span<const xcede::RawRecord<Concrete>>(&r, 1), std::span<const Word<128>>(&us, 1), cfg);
  return t.fates[0].zero_latency ? "zero" : t.fates[0].too_large ? "too_large" : "usable";
}

// A scratch cache directory for one test, removed after it.
struct ScratchCache {
  std::string dir;
  ScratchCache() {
    char t[] = "/tmp/idlespec-cache-test-XXXXXX";
    dir = ::mkdtemp(t) ? t : "";
    ::setenv("IDLESPEC_CACHE_DIR", dir.c_str(), 1);
  }
  ~ScratchCache() {
    ::unsetenv("IDLESPEC_CACHE_DIR");
    std::filesystem::remove_all(dir);
  }
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path());
    return out;
  }
};

std::vector<std::vector<uint64_t>> ticks_of(const Boundaries& z) {
  std::vector<std::vector<uint64_t>> out;
  for (const auto& in : z.inputs) out.push_back(in.ticks);
  return out;
}

TEST(ValidateBoundaries, StatesEdgesSeparateTwoFates) {
  ScratchCache cache;  // Z3 asked, not an earlier run's answers nor the built-in table
  const Boundaries z = states_boundaries(states::kDefaultTbHz, /*use_shipped=*/false);
  EXPECT_TRUE(z.cached_from.empty());
  ASSERT_TRUE(z.error.empty()) << z.error;
  EXPECT_EQ(z.feasible, 3u);  // zero, usable, too large
  size_t edges = 0;
  for (const auto& in : z.inputs) {
    if (in.branch.rfind("one record: ", 0) != 0) continue;
    ++edges;
    const std::string rest = in.branch.substr(std::string("one record: ").size());
    const std::string name = rest.substr(0, rest.find(','));
    const uint64_t t = in.ticks.at(0);
    EXPECT_EQ(fate(t), name) << in.branch;
    if (rest.ends_with("upper edge")) {
      EXPECT_NE(fate(t + 1), name) << in.branch;
    }
    if (rest.ends_with("lower edge")) {
      EXPECT_NE(fate(t - 1), name) << in.branch;
    }
  }
  // zero's upper edge, usable's two, too_large's lower one.
  EXPECT_EQ(edges, 4u);
}

// --- states: Z3's answers kept for the next run, re-checked when read ---------

TEST(ValidateBoundaries, StatesEdgesAreCachedAndReCheckedWhenRead) {
  ScratchCache cache;
  ASSERT_FALSE(cache.dir.empty());
  const Boundaries asked = states_boundaries(states::kDefaultTbHz, false);
  ASSERT_TRUE(asked.error.empty()) << asked.error;
  EXPECT_TRUE(asked.cached_from.empty());
  ASSERT_EQ(cache.files().size(), 1u);
  const std::string file = cache.files().front();
  // The next run reads Z3's answers: the same inputs, and it says so.
  const Boundaries read = states_boundaries(states::kDefaultTbHz, false);
  EXPECT_EQ(read.cached_from, file);
  EXPECT_EQ(ticks_of(read), ticks_of(asked));
  EXPECT_EQ(read.feasible, asked.feasible);
  EXPECT_NE(read.summary().find("read from " + file), std::string::npos) << read.summary();
  // Another tb_hz is another key.
  EXPECT_NE(states_cache_path(states::kDefaultTbHz / 2), file);
  EXPECT_EQ(states_cache_path(states::kDefaultTbHz), file);

  // Witness: an edge moved by one tick is no edge on the concrete model; the
  // file is not believed and Z3 is asked again (which rewrites it).
  std::string text;
  {
    std::ifstream in(file);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string edge = "edge 219902325248 0 0 ";
  const size_t at = text.find(edge);
  ASSERT_NE(at, std::string::npos) << text;
  std::string moved = text;
  moved.replace(at, edge.size(), "edge 219902325247 0 0 ");
  std::ofstream(file, std::ios::trunc) << moved;
  const Boundaries again = states_boundaries(states::kDefaultTbHz, false);
  EXPECT_TRUE(again.cached_from.empty());
  EXPECT_EQ(ticks_of(again), ticks_of(asked));
  {
    std::ifstream in(file);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), text);
  }
}

// --- states: the table built into idlespec ------------------------------------

// The table is Z3's answer for the model this build was compiled from: asked
// again, Z3 gives the same text. With IDLESPEC_STATES_EDGES_OUT set (the
// update script), the answer is written there instead of compared.
TEST(ValidateBoundaries, ShippedStatesEdgesAreZ3sAnswerNow) {
  std::string error;
  const std::string now = states_edges_from_z3(states::kDefaultTbHz, error);
  ASSERT_TRUE(error.empty()) << error;
  if (const char* out = std::getenv("IDLESPEC_STATES_EDGES_OUT"); out && *out) {
    std::ofstream(out, std::ios::trunc) << now;
    GTEST_SKIP() << "wrote Z3's table to " << out;
  }
  EXPECT_EQ(std::string(shipped_states_edges()), now)
      << "validate/states_edges.txt is not Z3's answer for this model: run "
         "scripts/update-states-edges.sh and commit the table with the change";
  EXPECT_TRUE(states_edges_believed(now, states::kDefaultTbHz));
}

// A run uses the table: no Z3 (the table is Z3's answer, the test above),
// no cache file, inputs at every edge, and the report says where the
// answers came from.
TEST(ValidateBoundaries, TheBuiltInTableSparesZ3) {
  ScratchCache cache;
  const Boundaries shipped = states_boundaries(states::kDefaultTbHz);
  ASSERT_TRUE(shipped.error.empty()) << shipped.error;
  EXPECT_TRUE(shipped.shipped);
  EXPECT_TRUE(cache.files().empty());
  EXPECT_NE(shipped.summary().find("for this model, read from the table built into idlespec"),
            std::string::npos)
      << shipped.summary();
  EXPECT_EQ(shipped.feasible, 3u);
  size_t edges = 0;
  for (const auto& in : shipped.inputs) edges += in.branch.rfind("one record: ", 0) == 0;
  EXPECT_EQ(edges, 4u);
}

// Witnesses: a table is believed only for its model and tb_hz, and only
// with every edge still an edge on the concrete model.
TEST(ValidateBoundaries, ATableIsBelievedOnlyWhenItHolds) {
  const std::string table = shipped_states_edges();
  ASSERT_TRUE(states_edges_believed(table, states::kDefaultTbHz));
  EXPECT_FALSE(states_edges_believed(table, states::kDefaultTbHz / 2));
  const size_t model = table.find("model ");
  ASSERT_NE(model, std::string::npos);
  std::string other_model = table;
  other_model[model + 6] = other_model[model + 6] == '0' ? '1' : '0';
  EXPECT_FALSE(states_edges_believed(other_model, states::kDefaultTbHz));
  const std::string edge = "edge 219902325248 0 0 ";
  const size_t at = table.find(edge);
  ASSERT_NE(at, std::string::npos) << table;
  std::string moved = table;
  moved.replace(at, edge.size(), "edge 219902325247 0 0 ");
  EXPECT_FALSE(states_edges_believed(moved, states::kDefaultTbHz));
  EXPECT_FALSE(states_edges_believed("", states::kDefaultTbHz));
}

TEST(ValidateBoundaries, StatesCacheOffKeepsNothing) {
  ScratchCache cache;
  ::setenv("IDLESPEC_CACHE_DIR", "off", 1);
  EXPECT_EQ(states_cache_path(states::kDefaultTbHz), "");
  ::setenv("IDLESPEC_CACHE_DIR", "", 1);
  EXPECT_EQ(states_cache_path(states::kDefaultTbHz), "");
}

// --- the fuzz entry's encoding -------------------------------------------------

TEST(ValidateFuzzScript, EmptyBytesAreOneSuccessfulCallWithNoPayload) {
  const FuzzScript s = fuzz_script({});
  EXPECT_EQ(s.statuses, std::vector<int>{0});
  EXPECT_TRUE(s.body.empty());
}

TEST(ValidateFuzzScript, StatusesOutsideTheTablesHaveNoEncoding) {
  EXPECT_TRUE(fuzz_bytes({-7}, {}).empty());
  EXPECT_TRUE(fuzz_bytes({1234, 0}, {}).empty());
  EXPECT_TRUE(fuzz_bytes({-2, -2, -2, -2, 0}, {}).empty());  // at most three retried
}

RC_GTEST_PROP(ValidateFuzzScript, BytesRoundTripThroughTheScript, ()) {
  const auto retried = *rc::gen::container<std::vector<int>>(
      *rc::gen::inRange<size_t>(0, 4), rc::gen::element(-2, 9900, 9901, 9902, 9903, 9904, 9905));
  const int last = *rc::gen::element(0, -1, -3, 9906, 1, -9999, 9899, INT32_MIN, INT32_MAX);
  const auto body = *rc::gen::arbitrary<std::vector<uint8_t>>();
  std::vector<int> statuses = retried;
  statuses.push_back(last);
  const std::vector<uint8_t> bytes = fuzz_bytes(statuses, body);
  RC_ASSERT(!bytes.empty());
  const FuzzScript s = fuzz_script(bytes);
  RC_ASSERT(s.statuses == statuses);
  RC_ASSERT(s.body == body);
}

}  // namespace
}  // namespace idlespec::validate
