// Z3-chosen boundary inputs (validate/boundaries.h): the spec model is
// impl/'s templates over proofs/z3_domain.h, the code production runs.
#include "validate/boundaries.h"

#include <sys/stat.h>
#include <unistd.h>
#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <sstream>

#include "impl/busy_delay.h"
#include "impl/domain.h"
#include "impl/states.h"
#include "impl/xcede.h"
#include "proofs/proof.h"
#include "proofs/xcede_proofs.h"
#include "proofs/z3_domain.h"
#include "validate/states_edges.h"

namespace idlespec::validate {
namespace {

using proofs::model_u64;
using proofs::Sym;
using proofs::SymBool;
using proofs::Z3Domain;
using proofs::Z3Scope;

// Per solver call; unknown beyond it. The calls take well under a second
// (states' ~1 s) on an idle machine; the limit leaves room for a loaded one
// (a CI runner building in parallel made states' calls pass 4 s).
constexpr unsigned kQueryMs = 30000;

struct Flag {
  const char* name;
  z3::expr holds;
};

// One valuation of `flags` as a Z3 constraint and as text ("size_ok
// partial_record", or "none").
z3::expr valuation(const std::vector<Flag>& flags, unsigned bits, std::string& text) {
  z3::expr c = flags.front().holds.ctx().bool_val(true);
  text.clear();
  for (size_t i = 0; i < flags.size(); ++i) {
    const bool on = (bits >> i) & 1;
    c = c && (on ? flags[i].holds : !flags[i].holds);
    if (!on) continue;
    if (!text.empty()) text += ' ';
    text += flags[i].name;
  }
  if (text.empty()) text = "none";
  return c;
}

// The end of the Z3 stage: no query starts after it and none runs past it
// (--budget is the part's, validate/component.h). Open-ended by default.
struct Until {
  std::chrono::steady_clock::time_point at = std::chrono::steady_clock::time_point::max();
  bool passed() const { return std::chrono::steady_clock::now() >= at; }
  // Z3's timeout for the next query: kQueryMs, or less when the end is nearer.
  unsigned query_ms() const {
    if (at == std::chrono::steady_clock::time_point::max()) return kQueryMs;
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(at - std::chrono::steady_clock::now())
            .count();
    return static_cast<unsigned>(std::clamp<long long>(ms, 1, kQueryMs));
  }
};

// A solver with the per-query time limit: Z3's default engine, or `tactic`.
z3::solver timed_solver(z3::context& ctx, const char* tactic = nullptr) {
  z3::solver s = tactic ? z3::tactic(ctx, tactic).mk_solver() : z3::solver(ctx);
  z3::params p(ctx);
  p.set("timeout", kQueryMs);
  // Z3 would take SIGINT for itself during a query (and give the query up
  // as unknown, the run going on to its verdicts): the driver's handler
  // keeps it, so an interrupt always ends the run (exit 130).
  p.set("ctrl_c", false);
  s.set(p);
  return s;
}

// `s`'s time limit for its next query.
void limit(z3::solver& s, const Until& until) {
  z3::params p(s.ctx());
  p.set("timeout", until.query_ms());
  p.set("ctrl_c", false);
  s.set(p);
}

// Asks every valuation of `flags` of `s` (which holds the input domain);
// for each satisfiable one calls `edges(branch constraint, bits, text)`,
// which adds its boundary inputs (and may use `s`, leaving it as it was).
// Once `until` has passed, the valuations left are counted as not asked.
void each_branch(z3::solver& s, const std::vector<Flag>& flags, Boundaries& out,
                 const std::function<void(const z3::expr&, unsigned, const std::string&)>& edges,
                 const Until& until = {}) {
  for (unsigned bits = 0; bits < (1u << flags.size()); ++bits) {
    if (until.passed()) {
      out.not_asked += (1u << flags.size()) - bits;
      return;
    }
    std::string text;
    const z3::expr branch = valuation(flags, bits, text);
    ++out.valuations;
    s.push();
    s.add(branch);
    limit(s, until);
    const z3::check_result r = s.check();
    s.pop();
    if (r == z3::unknown) ++out.unknown;
    if (r != z3::sat) continue;
    ++out.feasible;
    edges(branch, bits, text);
  }
}

// The model of `constraint` with `objective` at its least (or greatest)
// unsigned value, and then `tie` (if any) at its least: nullopt when Z3 has
// no answer.
std::optional<z3::model> extreme(z3::context& ctx, const z3::expr& constraint,
                                 const z3::expr& objective, bool greatest,
                                 const std::optional<z3::expr>& tie, const Until& until = {}) {
  if (until.passed()) return std::nullopt;
  z3::optimize o(ctx);
  z3::params p(ctx);
  p.set("timeout", until.query_ms());
  p.set("ctrl_c", false);  // SIGINT is the driver's (see timed_solver)
  o.set(p);
  o.add(constraint);
  if (greatest)
    o.maximize(objective);
  else
    o.minimize(objective);
  if (tie) o.minimize(*tie);
  if (o.check() != z3::sat) return std::nullopt;
  return o.get_model();
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The busy-delay model's status edges: each retried branch (busy, each
// extended-delay status, told apart by the delay the model computes) at its
// signed least and greatest; the failing statuses (neither retried nor 0) at
// theirs, and those nearest to each retried one.
void status_edges(std::vector<int>& retried, std::vector<int>& failing, Boundaries& out,
                  const Until& until) {
  z3::context ctx;
  Z3Scope scope(ctx);
  const Sym<32> status = proofs::fresh<32>("status");
  const SymBool busy = busy_delay::is_busy<Z3Domain>(status);
  const SymBool ext = busy_delay::is_extended_delay<Z3Domain>(status);
  const Sym<32> ms = busy_delay::delay_time_ms<Z3Domain>(status);
  const z3::expr retries = busy.e || ext.e;
  const z3::expr fails = !retries && status.e != ctx.bv_val(0, 32);
  // Signed order: biased by 2^31, the unsigned extremes are the signed ones.
  const z3::expr biased = status.e + ctx.bv_val(0x80000000u, 32);
  std::set<int> r, f;
  auto add_edges = [&](const z3::expr& c, std::set<int>& into) {
    if (until.passed()) {
      ++out.not_asked;
      return;
    }
    ++out.valuations;
    bool found = false;
    for (bool greatest : {false, true})
      if (auto m =
              extreme(ctx, c && scope.side_conditions(), biased, greatest, std::nullopt, until)) {
        into.insert(static_cast<int>(static_cast<uint32_t>(model_u64(*m, status.e))));
        found = true;
      }
    out.feasible += found;
  };
  for (uint32_t d : {1u, 10u, 100u, 1000u, 10000u, 100000u})
    add_edges(retries && ms.e == ctx.bv_val(d, 32), r);
  add_edges(fails, f);
  for (int v : r) {  // the failing neighbours of each retried status
    const z3::expr at = ctx.bv_val(static_cast<uint32_t>(v), 32);
    add_edges(fails && (status.e == at - ctx.bv_val(1, 32) || status.e == at + ctx.bv_val(1, 32)),
              f);
  }
  retried.assign(r.begin(), r.end());
  failing.assign(f.begin(), f.end());
}

// The fix-up model's decision flags for one record of `ticks`: the table
// builder (states::build_from_latencies) on its exact latency.
std::vector<Flag> fixup_flags(z3::context& ctx, const Sym<64>& ticks, uint64_t tb_hz) {
  xcede::RawRecord<Z3Domain> rec;
  rec.present = SymBool(ctx.bool_val(true));
  rec.hint = Sym<8>(ctx.bv_val(1, 8));
  rec.latency_ticks = ticks;
  rec.wake_on_irqs = Sym<8>(ctx.bv_val(1, 8));
  const Sym<128> lat = states::exact_latency_us<Z3Domain>(ticks, tb_hz);
  states::BuildConfig cfg;
  cfg.tb_hz = tb_hz;
  const auto table =
      states::build_from_latencies<Z3Domain>(std::span<const xcede::RawRecord<Z3Domain>>(&rec, 1),
                                             std::span<const Sym<128>>(&lat, 1), cfg);
  return {{"zero", table.fates[0].zero_latency.e}, {"too_large", table.fates[0].too_large.e}};
}

// The same flags on the concrete model (impl/'s templates over Concrete): the
// bits of the valuation one record of `ticks` takes (bit 0 zero, bit 1
// too_large, in fixup_flags' order). A cached edge is re-checked with it.
unsigned fixup_bits(uint64_t ticks, uint64_t tb_hz) {
  xcede::RawRecord<Concrete> rec;
  rec.present = true;
  rec.hint = Concrete::lit<8>(1);
  rec.latency_ticks = Concrete::lit<64>(ticks);
  rec.wake_on_irqs = Concrete::lit<8>(1);
  const auto lat = states::exact_latency_us<Concrete>(rec.latency_ticks, tb_hz);
  states::BuildConfig cfg;
  cfg.tb_hz = tb_hz;
  const auto table =
      states::build_from_latencies<Concrete>(std::span<const xcede::RawRecord<Concrete>>(&rec, 1),
                                             std::span<const Concrete::U<128>>(&lat, 1), cfg);
  return (table.fates[0].zero_latency ? 1u : 0u) | (table.fates[0].too_large ? 2u : 0u);
}

// --- Z3's answers, kept -------------------------------------------------------
// states' edges take Z3 about 10 s and depend only on the model built into
// this executable and on tb_hz. Two places keep them, both read back the
// same way: every edge is re-checked on the concrete model (the branch's
// flags at the edge, others one tick beyond it), so a stale or edited table
// can only lose its edges, never add a wrong one; a table that fails the
// check is ignored and Z3 asked.
//
//   the table built into idlespec  validate/states_edges.txt: Z3's answers
//       for the default tb_hz, written with the hash of the model's sources
//       (CMakeLists.txt: IDLESPEC_STATES_MODEL_FILES). It is used only when
//       that hash is the one this build was compiled from, and ctest's
//       ValidateBoundaries.ShippedStatesEdgesAreZ3sAnswerNow asks Z3 again
//       and compares, so a model change without a new table fails the suite
//       (a first run, a fresh CI machine: no Z3 wait at the default tb_hz).
//   the cache of this executable's runs  one file per executable (its
//       device, inode, size and modification time: a rebuild or another
//       installation is another key) and tb_hz, for the other tb_hz values
//       and for a build whose model the table does not describe. Where:
//       $IDLESPEC_CACHE_DIR, else $XDG_CACHE_HOME/idlespec, else
//       $HOME/.cache/idlespec; IDLESPEC_CACHE_DIR set to "off" (or empty)
//       keeps nothing.
struct CachedEdge {
  uint64_t ticks;
  unsigned bits;
  int dir;  // 0: upper edge (ticks + 1 leaves the branch), 1: lower edge
  std::string text;
};

}  // namespace

std::string cache_dir() {
  if (const char* d = std::getenv("IDLESPEC_CACHE_DIR"))
    return std::string(d) == "off" ? "" : std::string(d);
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/idlespec";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/idlespec";
  return "";
}

std::string states_cache_path(uint64_t tb_hz) {
  const std::string dir = cache_dir();
  struct stat st;
  if (dir.empty() || ::stat("/proc/self/exe", &st) != 0) return "";
  char name[160];
  std::snprintf(name, sizeof(name), "/z3-states-edges-%llx-%llx-%llx-%lld.%09ld-%llu.txt",
                (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
                (unsigned long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                (unsigned long long)tb_hz);
  return dir + name;
}

namespace {

// The header lines of a table: what it is, which model and tb_hz it is for,
// what Z3 was asked and answered.
constexpr const char* kCacheMagic = "idlespec z3 states edges v2";

// Reads a table (a cache file's or the built-in one's text) for `tb_hz` and
// the model this build was compiled from, re-checking every edge; false (and
// nothing changed) when it is not such a table or an edge fails.
bool parse_edges(std::istream& in, uint64_t tb_hz, std::vector<CachedEdge>& edges,
                 Boundaries& out) {
  std::string line;
  if (!std::getline(in, line) || line != kCacheMagic) return false;
  char model[80] = "";
  unsigned long long hz = 0;
  if (!std::getline(in, line) ||
      std::sscanf(line.c_str(), "model %79s tb_hz %llu", model, &hz) != 2 ||
      std::string(model) != kStatesModelHash || hz != tb_hz)
    return false;
  unsigned valuations = 0, feasible = 0, unknown = 0;
  if (!std::getline(in, line) ||
      std::sscanf(line.c_str(), "valuations %u feasible %u unknown %u", &valuations, &feasible,
                  &unknown) != 3 ||
      unknown != 0)
    return false;  // answers Z3 did not give are asked again
  std::vector<CachedEdge> got;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    CachedEdge e;
    std::string tag;
    if (!(ls >> tag >> e.ticks >> e.bits >> e.dir) || tag != "edge" || e.bits > 3 ||
        (e.dir != 0 && e.dir != 1))
      return false;
    std::getline(ls >> std::ws, e.text);
    // The re-check: in the branch at the edge, out of it one tick beyond.
    const bool at_end = e.dir == 0 ? e.ticks == ~uint64_t{0} : e.ticks == 0;
    if (at_end || fixup_bits(e.ticks, tb_hz) != e.bits ||
        fixup_bits(e.dir == 0 ? e.ticks + 1 : e.ticks - 1, tb_hz) == e.bits)
      return false;
    got.push_back(std::move(e));
  }
  edges = std::move(got);
  out.valuations = valuations;
  out.feasible = feasible;
  out.unknown = 0;
  return true;
}

bool read_cache(const std::string& file, uint64_t tb_hz, std::vector<CachedEdge>& edges,
                Boundaries& out) {
  std::ifstream in(file);
  if (!in || !parse_edges(in, tb_hz, edges, out)) return false;
  out.cached_from = file;
  return true;
}

std::string edges_text(const std::vector<CachedEdge>& edges, const Boundaries& out,
                       uint64_t tb_hz) {
  std::ostringstream o;
  o << kCacheMagic << "\n"
    << "model " << kStatesModelHash << " tb_hz " << tb_hz << "\n"
    << "valuations " << out.valuations << " feasible " << out.feasible << " unknown 0\n";
  for (const CachedEdge& e : edges)
    o << "edge " << e.ticks << " " << e.bits << " " << e.dir << " " << e.text << "\n";
  return o.str();
}

void write_cache(const std::string& file, const std::vector<CachedEdge>& edges,
                 const Boundaries& out, uint64_t tb_hz) {
  if (file.empty() || out.unknown || !out.error.empty()) return;
  const std::string dir = file.substr(0, file.rfind('/'));
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);  // a failure shows when the file is opened
  const std::string tmp = file + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream o(tmp);
    if (!o) return;  // a read-only home: nothing kept, nothing lost
    o << edges_text(edges, out, tb_hz);
    if (!o) {
      o.close();
      ::unlink(tmp.c_str());
      return;
    }
  }
  if (std::rename(tmp.c_str(), file.c_str()) != 0) ::unlink(tmp.c_str());
  // Each build of idlespec is a key of its own, so files pile up: those
  // written more than 30 days ago go (a build still in use writes its own
  // again on its next run).
  const auto now = std::filesystem::file_time_type::clock::now();
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename();
    if (name.rfind("z3-states-edges-", 0) != 0 || e.path() == file) continue;
    std::error_code tec;
    const auto t = std::filesystem::last_write_time(e.path(), tec);
    if (!tec && now - t > std::chrono::hours(24 * 30)) std::filesystem::remove(e.path(), tec);
  }
}

}  // namespace

std::string Boundaries::summary() const {
  char secs[32];
  std::snprintf(secs, sizeof(secs), "%.1f s", seconds);
  std::string s = "Z3: ";
  s += std::to_string(inputs.size());
  s += " boundary inputs for ";
  s += std::to_string(feasible);
  s += " feasible branches of the spec model (";
  s += std::to_string(valuations);
  s += " valuations asked";
  if (!cached_from.empty())
    s += std::string(shipped ? " for this model" : " in an earlier run") + ", read from " +
         cached_from + ", every edge re-checked on the concrete model";
  if (unknown) {
    s += ", ";
    s += std::to_string(unknown);
    s += " without an answer";
  }
  if (not_asked) {
    s += ", ";
    s += std::to_string(not_asked);
    s += " questions not asked: the time the budget left for Z3 ran out";
  }
  s += ", ";
  s += secs;
  if (reused) s += ", asked once in this run";
  s += ")";
  if (!error.empty()) s += "; Z3 failed: " + error;
  return s;
}

Boundaries xcede_boundaries(uint32_t capacity, uint32_t max_len, double seconds) {
  // The inputs depend on the spec model alone: a complete answer is asked
  // once per process (each target of a run, validate --targets, and each
  // file of a tree judges the same ones).
  static std::mutex cache_mutex;
  static std::map<std::pair<uint32_t, uint32_t>, Boundaries> cache;
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    if (const auto it = cache.find({capacity, max_len}); it != cache.end()) {
      Boundaries again = it->second;
      again.reused = true;
      return again;
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  Boundaries out;
  Until until;
  if (seconds < 1e9)
    until.at = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(std::max(seconds, 0.0)));
  try {
    std::vector<int> retried, failing;
    status_edges(retried, failing, out, until);

    z3::context ctx;
    Z3Scope scope(ctx);
    proofs::SymbolicBuffer buf;
    const proofs::Decoding d =
        proofs::decode_symbolic(proofs::decoder_of<ReferenceSubject>(), buf, capacity);
    const auto& raw = d.raw;
    const std::vector<Flag> flags = {
        {"header_ok", raw.header_ok.e},         {"size_ok", raw.size_ok.e},
        {"short_payload", raw.short_payload.e}, {"partial_record", raw.partial_record.e},
        {"over_capacity", raw.over_capacity.e}, {"truncated", raw.truncated.e},
        {"nul_missing", raw.nul_missing.e}};
    const z3::expr domain =
        z3::ule(buf.len().e, ctx.bv_val(max_len, 32)) && scope.side_conditions();
    const z3::expr ps = z3::zext(buf.payload_size(), 16);
    std::set<std::string> seen;  // payloads already chosen
    z3::solver feasibility = timed_solver(ctx);
    feasibility.add(domain);
    each_branch(
        feasibility, flags, out,
        [&](const z3::expr& branch, unsigned, const std::string& text) {
          const z3::expr c = domain && branch;
          for (bool greatest : {false, true}) {
            const auto m = extreme(ctx, c, ps, greatest, buf.len().e, until);
            if (!m) {
              ++(until.passed() ? out.not_asked : out.unknown);
              continue;
            }
            const uint64_t len = model_u64(*m, buf.len().e);
            std::vector<uint8_t> bytes;
            for (uint32_t i = 0; i < len; ++i)
              bytes.push_back(static_cast<uint8_t>(model_u64(*m, buf.byte(i))));
            if (!seen.insert(std::string(bytes.begin(), bytes.end())).second) continue;
            std::string why = text;
            why += greatest ? ", payload_size greatest" : ", payload_size least";
            out.inputs.push_back({bytes, {}, {0}, why});
          }
        },
        until);
    // The status edges, each with a small valid payload.
    const std::vector<uint8_t> valid = {0x00, 0x0c, 0x09, 0x01, 0,    0,    0,
                                        0,    0,    0,    0x04, 0x00, 0x01, 0x00};
    for (int s : retried)
      out.inputs.push_back({valid, {}, {s, 0}, "retried status " + std::to_string(s)});
    for (int s : failing)
      out.inputs.push_back({valid, {}, {s}, "failing status " + std::to_string(s)});
  } catch (const z3::exception& e) {
    out.error = e.msg();
  }
  out.seconds = since(t0);
  if (out.error.empty() && !out.unknown && !out.not_asked) {
    std::lock_guard<std::mutex> lock(cache_mutex);
    cache.emplace(std::pair{capacity, max_len}, out);
  }
  return out;
}

// Edges, not extremes: the arithmetic (a 128-bit product and a division)
// makes optimisation slow, so each query asks directly for a pair of
// neighbouring tick counts on either side of a branch's border: ticks in the
// branch whose neighbour (one more, or one less) is not. One query per
// border and direction, with Z3's lazy bit-vector core. The edges of one
// record's fate are then paired (two records in either order, and each
// beside a record one tick longer), which puts the fix-up's choice of the
// smaller latency on every border too.
namespace {

// Asks Z3 for the edges of every feasible fate of one record at `tb_hz`.
void ask_z3_for_edges(uint64_t tb_hz, std::vector<CachedEdge>& edges, Boundaries& out) {
  z3::context ctx;
  Z3Scope scope(ctx);
  const Sym<64> ticks = proofs::fresh<64>("ticks");
  const Sym<64> one(ctx.bv_val(1, 64));
  const std::vector<Flag> here = fixup_flags(ctx, ticks, tb_hz);
  const std::vector<Flag> next[2] = {fixup_flags(ctx, ticks + one, tb_hz),
                                     fixup_flags(ctx, ticks - one, tb_hz)};
  const z3::expr domain = scope.side_conditions();
  z3::solver s = timed_solver(ctx, "smt");
  s.add(domain);
  edges.clear();
  each_branch(s, here, out,
              [&](const z3::expr& in_branch, unsigned bits, const std::string& flags) {
                const std::string text = flags == "none" ? "usable" : flags;
                std::string unused;
                for (int dir = 0; dir < 2; ++dir) {
                  const z3::expr at_end = ticks.e == ctx.bv_val(dir == 0 ? ~uint64_t{0} : 0, 64);
                  s.push();
                  s.add(in_branch && !at_end && !valuation(next[dir], bits, unused));
                  const z3::check_result r = s.check();
                  if (r == z3::sat)
                    edges.push_back({model_u64(s.get_model(), ticks.e), bits, dir,
                                     text + (dir == 0 ? ", upper edge" : ", lower edge")});
                  else if (r == z3::unknown)
                    ++out.unknown;
                  s.pop();
                }
              });
}

}  // namespace

const char* shipped_states_edges() { return kShippedStatesEdges; }

bool states_edges_believed(const std::string& table, uint64_t tb_hz) {
  std::istringstream in(table);
  std::vector<CachedEdge> edges;
  Boundaries out;
  return parse_edges(in, tb_hz, edges, out);
}

std::string states_edges_from_z3(uint64_t tb_hz, std::string& error) {
  Boundaries out;
  std::vector<CachedEdge> edges;
  try {
    ask_z3_for_edges(tb_hz, edges, out);
  } catch (const z3::exception& e) {
    error = e.msg();
    return "";
  }
  if (out.unknown) {
    error = std::to_string(out.unknown) + " of Z3's queries gave no answer";
    return "";
  }
  return edges_text(edges, out, tb_hz);
}

Boundaries states_boundaries(uint64_t tb_hz, bool use_shipped) {
  const auto t0 = std::chrono::steady_clock::now();
  Boundaries out;
  try {
    std::vector<CachedEdge> cached;
    std::istringstream shipped(kShippedStatesEdges);
    if (use_shipped && parse_edges(shipped, tb_hz, cached, out)) {
      out.cached_from = "the table built into idlespec (validate/states_edges.txt)";
      out.shipped = true;
    } else if (const std::string file = states_cache_path(tb_hz);
               file.empty() || !read_cache(file, tb_hz, cached, out)) {
      ask_z3_for_edges(tb_hz, cached, out);
      write_cache(file, cached, out, tb_hz);
    }
    std::set<std::vector<uint64_t>> seen;
    auto add = [&](std::vector<uint64_t> t, const std::string& why) {
      if (seen.insert(t).second) out.inputs.push_back({{}, std::move(t), {0}, why});
    };
    for (const CachedEdge& e : cached) {
      const uint64_t t = e.ticks;
      add({t}, "one record: " + e.text);
      if (t != ~uint64_t{0}) add({t, t + 1}, "beside one tick more: " + e.text);
      if (t != 0) add({t, t - 1}, "beside one tick less: " + e.text);
    }
    for (const CachedEdge& a : cached)
      for (const CachedEdge& b : cached)
        if (a.ticks != b.ticks) add({a.ticks, b.ticks}, "two records: " + a.text + "; " + b.text);
  } catch (const z3::exception& e) {
    out.error = e.msg();
  }
  out.seconds = since(t0);
  return out;
}

}  // namespace idlespec::validate
