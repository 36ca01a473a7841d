// The xcede component of `idlespec validate`: a file's
// parse_cede_parameters() against spec/xcede.md, the records judged against
// what oracle/xcede.h says the buffer decodes to.
//
// The harness (harness/harness_xcede.c) is a fake firmware: each input is a
// status script (one RTAS status per ibm,get-system-parameter call) and the
// payload it hands over on success. It reports what the kernel code
// returned, its record count, the records as the kernel's own struct types
// read them, and its log. The driver judges each input:
//
//   XCEDE-1  no ASan report (the sanitizer build runs every input), no crash.
//   XCEDE-2  record-size byte != 9 (after success): non-zero return, no records.
//   XCEDE-3  record size 9, payload_size < 2: no records.
//   XCEDE-4  nr_xcede_records <= the records the kernel's buffer holds.
//   XCEDE-5  record size 9, 2 <= payload_size, declared <= capacity: return 0,
//            the count and every record equal to the reference's.
//   XCEDE-6  final status non-zero: non-zero return, no records.
//   XCEDE-7  busy (-2) or 9900..9905 before success: retried, and decoded.
//   XCEDE-8  record size 9, decoded: not the count payload_size gives read in
//            the other byte order (oracle/xcede.h, judge_count_order); and
//            sparse's byte-order diagnostics on the file (sparse_check.h).
//
// A WARN_ON/BUG_ON or a hang fails the clause the input was made for. Each
// failed clause's first counterexample is shrunk (shorter payload, fewer
// records, zeroed bytes) by re-running the harness on candidates.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "impl/query.h"
#include "impl/subjects.h"
#include "impl/xcede.h"
#include "oracle/xcede.h"
#include "sandbox/process.h"
#include "validate/boundaries.h"
#include "validate/component.h"
#include "validate/input_check.h"
#include "validate/property_check.h"

namespace idlespec::validate {
namespace {

using Bytes = std::vector<uint8_t>;

struct Input {
  std::vector<int> statuses;  // one per RTAS call
  Bytes payload;              // handed over on status 0
  std::string clause;         // what it was made for (a hang or WARN fails this one)
  std::string origin;         // "Z3 <branch>" for a Z3-chosen input (not kept when shrunk)
};

// --- inputs ---------------------------------------------------------------------

Bytes header(uint16_t payload_size, uint8_t record_size_byte) {
  return {static_cast<uint8_t>(payload_size >> 8), static_cast<uint8_t>(payload_size),
          record_size_byte};
}

void put_record(Bytes& b, uint8_t hint, uint64_t ticks, uint8_t wake) {
  b.push_back(hint);
  for (int s = 56; s >= 0; s -= 8) b.push_back(static_cast<uint8_t>(ticks >> s));
  b.push_back(wake);
}

// A payload declaring `declared` records, carrying `present` of them.
Bytes payload(std::mt19937_64& rng, uint32_t declared, uint32_t present, bool nul = true) {
  Bytes b = header(static_cast<uint16_t>(2 + 10 * declared), 9);
  for (uint32_t i = 0; i < present; ++i) {
    const uint64_t ticks = (i % 3 == 0) ? rng() : (rng() & 0xffffff);
    put_record(b, static_cast<uint8_t>(i + 1), ticks, static_cast<uint8_t>(rng() & 1));
  }
  if (nul) b.push_back(0);
  return b;
}

bool retried_status(int s) { return xcede::oracle::spec_retried_status(s); }

// The busy and extended-delay statuses before the first final one: what
// XCEDE-7 judges the query's calls by (the firmware answers success after
// them when the final status is 0).
std::vector<int32_t> retried_prefix(const std::vector<int>& statuses) {
  std::vector<int32_t> out;
  for (size_t k = 0; k < statuses.size() && retried_status(statuses[k]); ++k)
    out.push_back(statuses[k]);
  return out;
}

// XCEDE-7's subjects (impl/subjects.h) on a counterexample: each runs its
// own retry policy on the script and the same oracle judges its calls; a
// subject fails like the file when it breaks the clause with the very
// violation the file showed. A hang or a warning is no subject's.
std::vector<std::string> query_fails_like(const std::vector<int>& statuses,
                                          const std::vector<uint8_t>& payload,
                                          const std::string& finding) {
  std::vector<std::string> out;
  const std::vector<int32_t> script = retried_prefix(statuses);
  auto compare = [&](std::string_view name, xcede::RetryPolicy policy) {
    const xcede::QueryResult r = xcede::query(script, payload, xcede::kDefaultCapacity, policy);
    const auto v = xcede::oracle::judge_query_retries(script, r.statuses.size());
    if (v && finding.rfind(v->message, 0) == 0) out.emplace_back(name);
  };
  compare(ReferenceSubject::name, ReferenceSubject::query_policy);
  compare(UpstreamQuerySubject::name, UpstreamQuerySubject::query_policy);
  return out;
}

// The clause an input was made for: a hang or a WARN fails this one.
const char* clause_of(const std::vector<int>& statuses, const Bytes& p) {
  if (statuses.empty() || statuses.back() != 0) return "XCEDE-6";
  if (statuses.size() > 1 && retried_status(statuses.front())) return "XCEDE-7";
  if (p.size() < 3 || p[2] != 9) return "XCEDE-2";
  const unsigned ps = static_cast<unsigned>(p[0] << 8 | p[1]);
  return ps < 2 ? "XCEDE-3" : ps > 162 ? "XCEDE-4" : "XCEDE-5";
}

std::vector<Input> make_inputs(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Input> in;
  auto add = [&](std::vector<int> st, Bytes p, const char* clause) {
    in.push_back({std::move(st), std::move(p), clause, {}});
  };
  // XCEDE-5: valid payloads, 0..16 records.
  for (uint32_t k = 0; k <= 16; ++k) {
    add({0}, payload(rng, k, k), "XCEDE-5");
    add({0}, payload(rng, k, k), "XCEDE-5");
  }
  // Partial trailing records and missing NULs.
  for (uint32_t extra = 1; extra < 10; extra += 4) {
    Bytes b = payload(rng, 3, 3, false);
    const uint16_t ps = static_cast<uint16_t>(2 + 30 + extra);
    b[0] = static_cast<uint8_t>(ps >> 8), b[1] = static_cast<uint8_t>(ps);
    for (uint32_t i = 0; i < extra; ++i) b.push_back(static_cast<uint8_t>(rng()));
    b.push_back(0);
    add({0}, b, "XCEDE-5");
  }
  add({0}, payload(rng, 5, 5, false), "XCEDE-5");
  // XCEDE-4 (and XCEDE-1): more records declared than the buffer holds.
  for (uint32_t k : {17u, 18u, 32u, 100u, 6553u}) add({0}, payload(rng, k, 16), "XCEDE-4");
  // XCEDE-3: payload_size 0 and 1.
  for (uint16_t ps : {0, 1}) {
    Bytes b = header(ps, 9);
    put_record(b, 1, 0x400, 1);
    add({0}, b, "XCEDE-3");
  }
  // XCEDE-2: other record sizes, with valid and with short payload_size.
  for (uint8_t rs : {0, 1, 8, 10, 19, 0xff}) {
    Bytes b = payload(rng, 2, 2);
    b[2] = rs;
    add({0}, b, "XCEDE-2");
  }
  add({0}, header(0, 8), "XCEDE-2");
  add({0}, {}, "XCEDE-2");  // firmware hands over nothing: an all-zero buffer
  // XCEDE-6: failures, after retries too.
  for (int st : {-1, -3, -9999, 9000, 9906, 1}) add({st}, payload(rng, 2, 2), "XCEDE-6");
  add({-2, -3}, payload(rng, 2, 2), "XCEDE-6");
  // XCEDE-7: busy and extended delay, then success.
  for (std::vector<int> st : std::vector<std::vector<int>>{
           {-2, 0}, {9900, 0}, {9901, 0}, {9902, 0}, {9905, 0}, {-2, -2, -2, 0}, {9900, -2, 0}})
    add(st, payload(rng, 3, 3), "XCEDE-7");
  // Random: headers near every boundary, random bodies and lengths.
  for (int i = 0; i < 4000; ++i) {
    const uint32_t r = static_cast<uint32_t>(rng());
    uint16_t ps;
    switch (r % 5) {
      case 0:
        ps = static_cast<uint16_t>(rng() % 200);
        break;
      case 1:
        ps = static_cast<uint16_t>(2 + 10 * (rng() % 17));
        break;
      case 2:
        ps = static_cast<uint16_t>(2 + 10 * (rng() % 17) + rng() % 10);
        break;
      case 3:
        ps = static_cast<uint16_t>(162 + rng() % 40);
        break;
      default:
        ps = static_cast<uint16_t>(rng() % 3 == 0 ? 3 : 2 + 10 * (rng() % 17));
        break;
    }
    if (ps < 2 && rng() % 2) ps = 2;  // the wrapping sizes are slow on broken code: few of them
    const uint8_t rs = rng() % 8 == 0 ? static_cast<uint8_t>(rng()) : 9;
    Bytes b = header(ps, rs);
    const size_t body =
        std::min<size_t>(rng() % 2 ? ps - std::min<uint16_t>(ps, 1) : rng() % 180, 200);
    for (size_t k = 0; k < body; ++k) b.push_back(static_cast<uint8_t>(rng()));
    if (rng() % 2) b.push_back(0);
    std::vector<int> st = {0};
    if (rng() % 10 == 0) st.insert(st.begin(), rng() % 2 ? -2 : 9900 + static_cast<int>(rng() % 3));
    add(st, b, clause_of(st, b));
  }
  return in;
}

// RapidCheck's generator: up to three retried statuses, then 0 (mostly) or
// a failing one; a payload encoding arbitrary records (mostly), the same
// with an arbitrary header, or arbitrary bytes.
rc::Gen<Input> property_gen() {
  using namespace rc;
  const auto record = gen::build<xcede::Record>(gen::set(&xcede::Record::hint),
                                                gen::set(&xcede::Record::latency_ticks),
                                                gen::set(&xcede::Record::wake_on_irqs));
  const auto records = gen::container<std::vector<xcede::Record>>(record);
  const auto encoded =
      gen::map(records, [](const std::vector<xcede::Record>& r) { return xcede::encode(r); });
  const auto reheaded = gen::map(
      gen::tuple(records, gen::arbitrary<uint16_t>(), gen::element<uint8_t>(9, 9, 8, 10, 0)),
      [](const std::tuple<std::vector<xcede::Record>, uint16_t, uint8_t>& t) {
        Bytes b = xcede::encode(std::get<0>(t));
        b[0] = static_cast<uint8_t>(std::get<1>(t) >> 8);
        b[1] = static_cast<uint8_t>(std::get<1>(t));
        b[2] = std::get<2>(t);
        return b;
      });
  const auto payload =
      gen::weightedOneOf<Bytes>({{4, encoded}, {3, reheaded}, {1, gen::arbitrary<Bytes>()}});
  const auto retried =
      gen::container<std::vector<int>>(gen::element(-2, 9900, 9901, 9902, 9903, 9904, 9905));
  const auto last =
      gen::weightedOneOf<int>({{6, gen::just(0)}, {1, gen::element(-1, -3, 1, 9899, 9906, -9999)}});
  return gen::map(gen::tuple(retried, last, payload),
                  [](const std::tuple<std::vector<int>, int, Bytes>& t) {
                    std::vector<int> st = std::get<0>(t);
                    if (st.size() > 3) st.resize(3);
                    st.push_back(std::get<1>(t));
                    const char* clause = clause_of(st, std::get<2>(t));
                    return Input{st, std::get<2>(t), clause, {}};
                  });
}

// The inputs Z3 chose at the edges of the spec model's branches
// (validate/boundaries.h), within the stage's share of the part's budget.
std::vector<Input> z3_inputs(Part& part, double seconds) {
  const Boundaries z = xcede_boundaries(xcede::kDefaultCapacity, 200, seconds);
  part.notes.push_back(z.summary());
  std::vector<Input> in;
  for (const auto& b : z.inputs)
    in.push_back({b.statuses, b.payload, clause_of(b.statuses, b.payload), "Z3 " + b.branch});
  return in;
}

// --- running the harness ---------------------------------------------------------

std::string statuses_text(const std::vector<int>& st) {
  std::string s;
  for (size_t i = 0; i < st.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(st[i]);
  }
  return s;
}

// --- judging ----------------------------------------------------------------------

std::string show_payload(const Bytes& p) {
  if (p.empty()) return "(empty)";
  std::string h = payload_hex(p), s;
  // payload_size, record-size byte, then 10-byte records.
  s = h.substr(0, std::min<size_t>(4, h.size()));
  if (h.size() > 4) s += " " + h.substr(4, 2);
  for (size_t i = 6; i < h.size(); i += 20) s += " " + h.substr(i, 20);
  if (s.size() > 240) s = s.substr(0, 240) + "...";
  return s + " (" + std::to_string(p.size()) + " bytes)";
}

std::string describe(const Input& in) {
  std::string s =
      "statuses " + statuses_text(in.statuses) + ", payload " + show_payload(in.payload);
  if (!in.origin.empty()) s += " [" + in.origin + "]";
  return s;
}

std::string show_record(const xcede::Record& r) {
  char b[80];
  std::snprintf(b, sizeof(b), "{hint %u, 0x%llx ticks, wake %u}", r.hint,
                static_cast<unsigned long long>(r.latency_ticks), r.wake_on_irqs);
  return b;
}

// Findings per clause for one input.
// What the harness said of one input (harness_xcede.c's R and REC lines).
struct Outcome {
  bool crashed = false, hung = false;
  bool in_query = false;  // the trap came before any payload reached the code, or while
                          // the firmware wrote the code's buffer: decoding never began
  std::string crash;
  long long ret = 0, calls = 0, nr = 0, buflen = -1, bufsize = 0;
  std::vector<xcede::Record> records;
  std::vector<std::string> warns, sanitizer;
};

Outcome outcome_of(const HarnessOutcome& h) {
  Outcome o;
  o.crashed = h.crashed, o.hung = h.hung, o.crash = h.crash;
  o.ret = h.field("ret"), o.calls = h.field("calls"), o.nr = h.field("nr");
  o.buflen = h.result.find(" buflen=") == std::string::npos ? -1 : h.field("buflen");
  o.bufsize = h.field("bufsize");
  if (o.crashed || o.hung)
    o.in_query = h.result.find(" handed=") != std::string::npos &&
                 (h.field("handed") == 0 || h.field("in_firmware") != 0);
  for (const auto& l : h.lines) {
    unsigned idx = 0, hint = 0, wake = 0;
    unsigned long long ticks = 0;
    if (std::sscanf(l.c_str(), "REC %u %u %llx %u", &idx, &hint, &ticks, &wake) == 4)
      o.records.push_back({static_cast<uint8_t>(hint), ticks, static_cast<uint8_t>(wake)});
  }
  o.warns = h.warns, o.sanitizer = h.sanitizer;
  return o;
}

Findings judge(const Input& in, const HarnessOutcome& h) {
  Findings f;
  if (!h.reported) return f;
  const Outcome o = outcome_of(h);
  for (const auto& s : o.sanitizer) f.emplace("XCEDE-1", s);
  // A crash or a hang fails XCEDE-1 (or the clause the input was made for);
  // the count the code had set by then is judged as well.
  if (o.crashed)
    f.emplace("XCEDE-1", stop_text(o.crash) +
                             (o.in_query ? " (during the firmware query: before the payload "
                                           "reached the code, or while the firmware wrote the "
                                           "buffer it was given)"
                                         : ""));
  if (o.hung) f.emplace(in.clause, "did not return within 2 s (hang)");
  const bool finished = !o.crashed && !o.hung;
  for (const auto& w : o.warns) f.emplace(in.clause, w);
  // The status the reference would act on: the first that is not retried.
  size_t k = 0;
  while (k < in.statuses.size() && retried_status(in.statuses[k])) ++k;
  const int final_status = k < in.statuses.size() ? in.statuses[k] : -1;
  const long long capacity = o.bufsize >= 4 ? (o.bufsize - 4) / 10 : 0;

  if (o.nr > capacity)
    f.emplace("XCEDE-4", "nr_xcede_records = " + std::to_string(o.nr) + ", the buffer holds " +
                             std::to_string(capacity) + " records");
  if (final_status != 0 && finished) {
    if (o.ret == 0)
      f.emplace("XCEDE-6", "final RTAS status " + std::to_string(final_status) + " but returned 0");
    else if (o.nr != 0)
      f.emplace("XCEDE-6", "final RTAS status " + std::to_string(final_status) + " but kept " +
                               std::to_string(o.nr) + " record(s)");
    return f;
  }
  if (final_status != 0) return f;
  if (finished)
    if (const auto v = xcede::oracle::judge_query_retries(retried_prefix(in.statuses),
                                                          static_cast<uint64_t>(o.calls))) {
      f.emplace(v->clause, v->message + " (returned " + std::to_string(o.ret) + ")");
      return f;
    }
  // What the kernel's buffer holds: the payload, cut at the length the code
  // gave the firmware and at the buffer's size, zero after it. Code that
  // never asked the firmware (buflen -1) is judged against the payload it
  // should have asked for.
  Bytes buf(static_cast<size_t>(std::max<long long>(o.bufsize, 0)), 0);
  const size_t asked = o.buflen < 0 ? buf.size() : static_cast<size_t>(o.buflen);
  const size_t n = std::min({in.payload.size(), buf.size(), asked});
  std::copy(in.payload.begin(), in.payload.begin() + static_cast<long>(n), buf.begin());
  if (buf.size() < 3) return f;
  const uint16_t ps = static_cast<uint16_t>(buf[0] << 8 | buf[1]);
  const uint8_t rs = buf[2];
  if (rs != 9) {
    // A trap in the query is not the decoding's: nothing of this payload
    // was read yet (XCEDE-1 above has it).
    if (o.in_query) return f;
    if (!finished || o.ret == 0 || o.nr != 0) {
      char b[120];
      if (finished)
        std::snprintf(b, sizeof(b),
                      "record-size byte 0x%02x accepted: returned %lld, %lld record(s)", rs, o.ret,
                      o.nr);
      else
        std::snprintf(b, sizeof(b), "record-size byte 0x%02x accepted: decoding went on and %s", rs,
                      o.crashed ? "crashed" : "hung");
      f.emplace("XCEDE-2", b);
    }
    return f;
  }
  // XCEDE-8: a count that is what payload_size gives read in the other byte
  // order (the oracle's signature of a field read in the host's order). The
  // input's other decoding clauses are not charged with it.
  if (finished && o.ret == 0 && o.nr >= 0)
    if (const auto v = xcede::oracle::judge_count_order(buf, static_cast<uint32_t>(capacity),
                                                        static_cast<uint32_t>(o.nr))) {
      f.emplace(v->clause, v->message);
      return f;
    }
  if (ps < 2) {
    if (o.nr != 0)
      f.emplace("XCEDE-3", "payload_size " + std::to_string(ps) +
                               " gave nr_xcede_records = " + std::to_string(o.nr));
    return f;
  }
  if (!finished) return f;
  // What the spec says the buffer decodes to (oracle/xcede.h).
  const auto ref = xcede::oracle::expected_decode(buf, static_cast<uint32_t>(capacity));
  if (ref.declared > capacity) return f;  // XCEDE-4's domain
  if (o.ret != 0) {
    f.emplace("XCEDE-5", "returned " + std::to_string(o.ret) + " for a payload of " +
                             std::to_string(ref.count) + " record(s)");
  } else if (o.nr != static_cast<long long>(ref.count)) {
    f.emplace("XCEDE-5", "nr_xcede_records = " + std::to_string(o.nr) + ", the payload has " +
                             std::to_string(ref.count) + " whole record(s)");
  } else {
    for (uint32_t i = 0; i < ref.count && i < o.records.size(); ++i) {
      const xcede::Record want = xcede::oracle::record_at(buf, i);
      if (!(want == o.records[i])) {
        f.emplace("XCEDE-5", "record " + std::to_string(i) + " read as " +
                                 show_record(o.records[i]) + ", the payload says " +
                                 show_record(want));
        break;
      }
    }
  }
  return f;
}

// Shrinking candidates for an input: fewer retries, a shorter payload, fewer
// records declared, zeroed bytes.
std::vector<Input> shrink_candidates(const Input& in) {
  std::vector<Input> c;
  auto with = [&](auto change) {
    Input x = in;
    x.origin.clear();
    change(x);
    if (x.payload != in.payload || x.statuses != in.statuses) c.push_back(x);
  };
  if (in.statuses.size() > 1) with([](Input& x) { x.statuses.erase(x.statuses.begin()); });
  if (!in.statuses.empty() && in.statuses.back() != 0 && in.statuses.back() != -1 &&
      !retried_status(in.statuses.back()))  // -1 is the simplest failing status
    with([](Input& x) { x.statuses.back() = -1; });
  for (size_t i = 0; i < in.statuses.size(); ++i)  // busy (-2) is the simplest retried status
    if (in.statuses[i] > 9900 && in.statuses[i] <= 9905)
      with([&](Input& x) { x.statuses[i] = -2; });
  const size_t n = in.payload.size();
  for (size_t cut : {n / 2, n > 10 ? n - 10 : 0, n > 0 ? n - 1 : 0})
    if (cut < n && cut >= 3) with([&](Input& x) { x.payload.resize(cut); });
  if (n >= 2) {
    const uint16_t ps = static_cast<uint16_t>(in.payload[0] << 8 | in.payload[1]);
    for (uint16_t smaller : {static_cast<uint16_t>(ps / 2), static_cast<uint16_t>(ps - 10),
                             static_cast<uint16_t>(ps - 1)})
      if (smaller < ps)
        with([&](Input& x) {
          x.payload[0] = static_cast<uint8_t>(smaller >> 8);
          x.payload[1] = static_cast<uint8_t>(smaller);
        });
  }
  for (size_t i = n; i-- > 3 && c.size() < 48;)
    if (in.payload[i] != 0) with([&](Input& x) { x.payload[i] = 0; });
  return c;
}

}  // namespace

Part check_xcede(const Options& opt, const Target& target) {
  const auto t0 = std::chrono::steady_clock::now();
  const Component& component = *find_component("xcede");
  Part part;
  HarnessBuild hb;
  int line = 0;
  if (prepare_part(opt, component, target, "xcede_env.h", "harness_xcede.c",
                   "-DHAVE_PARSE_CEDE_PARAMETERS", "CANDIDATE_XCEDE", part, hb, line,
                   /*fuzz=*/true)) {
    InputChecker<Input> c;
    c.start = t0;  // the budget is the part's
    c.line = [](const Input& in) {
      return statuses_text(in.statuses) + " " + payload_hex(in.payload);
    };
    c.judge = judge;
    c.shrink = shrink_candidates;
    c.describe = describe;
    c.weight = [](const Input& in) { return in.payload.size(); };
    c.sanitizer_clause = "XCEDE-1";
    c.failure_notes["XCEDE-7"] =
        "efficiency clause: a busy firmware costs the CEDE(0) fix-up, never correctness";
    c.fails_like = [](const std::string& clause, const Input& in,
                      const std::string& finding) -> std::optional<std::vector<std::string>> {
      if (clause != "XCEDE-7") return std::nullopt;
      return query_fails_like(in.statuses, in.payload, finding);
    };
    c.shrink_rounds = 24;
    std::vector<Input> inputs;
    if (opt.inputs.count("z3")) inputs = z3_inputs(part, z3_seconds(opt, t0));
    // The campaign starts from a minimal well-formed payload (no records)
    // and Z3's inputs; what it keeps is judged as well.
    std::vector<Bytes> seeds = {fuzz_bytes({0}, {0x00, 0x02, 0x09, 0x00})};
    for (const auto& x : inputs)
      if (Bytes b = fuzz_bytes(x.statuses, x.payload); !b.empty()) seeds.push_back(b);
    const FuzzCorpus fc = run_fuzz_campaign(opt, hb, part.temp_dir, seeds, 1500, t0);
    if (!fc.summary.empty()) part.notes.push_back(fc.summary);
    for (size_t i = 0; i < fc.inputs.size(); ++i) {
      FuzzScript sc = fuzz_script(fc.inputs[i]);
      const char* clause = clause_of(sc.statuses, sc.body);
      inputs.push_back({std::move(sc.statuses), std::move(sc.body), clause,
                        fc.artifact[i] ? "libFuzzer artifact" : "libFuzzer corpus"});
    }
    if (opt.inputs.count("generated"))
      for (auto& x : make_inputs(opt.seed)) inputs.push_back(std::move(x));
    add_property_inputs(opt, hb, property_gen(), c, part, inputs);
    check_inputs(opt, hb, component, target, line, inputs, c, part);
    apply_sparse(hb.sparse, "XCEDE-8", part);
  }
  finish_part(opt, part, t0);
  return part;
}

}  // namespace idlespec::validate
