// The XCEDE properties (spec/xcede.md), one per check name, each a template
// over a subject (impl/subjects.h): `reference` in verify, and the broken
// subjects of tests/witnesses/ in the tests that show each one can fail.
// Bodies pick their inputs with `*gen` and assert with RC_ASSERT, so the same
// body runs under RC_GTEST_PROP and under props::run_property().
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <string>
#include <vector>

#include "impl/query.h"
#include "impl/states.h"
#include "impl/xcede.h"
#include "oracle/states.h"
#include "oracle/xcede.h"
#include "properties/xcede_gen.h"

namespace idlespec::props {

// The property's verdict is the oracle's (oracle/xcede.h): the subject's
// decoder on the payload, XCEDE-1 through the checked source first (a decoder
// that reads outside the buffer is not run on it), then XCEDE-1..5 on what it
// decoded. Any violation fails the property, naming the clause the oracle
// names.
template <class Decoder>
void assert_decode_holds(const Payload& p) {
  const xcede::oracle::Violations v = xcede::oracle::judge_decoder<Decoder>(p.bytes, p.capacity);
  if (!v.empty()) {
    RC_FAIL(v[0].clause + ": " + v[0].message + " (" +
            xcede::oracle::describe_buffer(p.bytes, p.capacity) + ": " + hex(p.bytes, 48) + ")");
  }
}

// XCEDE-1: no read at an offset >= the buffer length, whatever the buffer;
// no record slot beyond the capacity or beyond the buffer.
template <class S>
void xcede_never_overruns() {
  const Payload p = *gen::any_payload();
  RC_TAG(p.shape);  // the gtest run prints how often each shape came up
  assert_decode_holds<typename S::Decoder>(p);
}

// XCEDE-2: a record-size byte other than 9 is an error at offset 2, whatever
// payload_size says, and nothing is decoded.
template <class S>
void xcede_rejects_bad_record_size() {
  assert_decode_holds<typename S::Decoder>(*gen::bad_record_size_payload());
}

// XCEDE-3: payload_size 0 or 1 gives no records and a warning, never a count
// from a wrapped payload_size - 2.
template <class S>
void xcede_short_payload_warns() {
  assert_decode_holds<typename S::Decoder>(*gen::short_payload());
}

// XCEDE-4: at most `capacity` records, a warning exactly when payload_size
// declares more, and the records kept are the first ones.
template <class S>
void xcede_capacity_bound() {
  assert_decode_holds<typename S::Decoder>(*gen::around_capacity_payload());
}

// XCEDE-5: encode(decode(p)) == p for every valid payload, every hint and
// wake-on-irq byte kept; with a partial trailing record or no NUL the whole
// records still decode, with a warning naming XCEDE-5.
template <class S>
void xcede_roundtrip() {
  const RecordList in = *gen::record_list();
  const std::vector<uint8_t> exact = xcede::encode(in.records);
  assert_decode_holds<typename S::Decoder>(Payload{exact, in.capacity, "valid"});

  std::vector<uint8_t> damaged = exact;
  const auto damage =
      *rc::gen::element<std::string>("partial trailing record", "NUL not zero", "NUL cut off");
  if (damage == "NUL not zero") {
    damaged.back() = *rc::gen::element<uint8_t>(1, 0xff);
  } else if (damage == "NUL cut off") {
    damaged.pop_back();
  } else {
    const auto extra = *rc::gen::inRange<size_t>(1, xcede::kRecordSize);
    damaged.insert(damaged.end() - 1, extra, 0xa5);
    set_payload_size(damaged, static_cast<uint16_t>(damaged.size() - 2));
  }
  assert_decode_holds<typename S::Decoder>(Payload{damaged, in.capacity, damage});
}

// XCEDE-8: every multi-byte field big-endian on every host. The subject's
// decoder on a valid payload (its records' latencies from the generator, so
// their bytes are rarely palindromic) and on one whose payload_size's two
// bytes differ; the oracle's byte-order judges on what it decoded.
template <class S>
void xcede_reads_big_endian() {
  const RecordList in = *gen::record_list();
  const std::vector<uint8_t> exact = xcede::encode(in.records);
  RC_TAG(exact[0] == exact[1] ? "palindromic payload_size" : "payload_size bytes differ");
  const xcede::Decoded d = xcede::decode_using<typename S::Decoder>(exact, in.capacity);
  const xcede::oracle::Violations v = xcede::oracle::judge_byte_order(exact, in.capacity, d);
  if (!v.empty())
    RC_FAIL(v[0].clause + ": " + v[0].message + " (" +
            xcede::oracle::describe_buffer(exact, in.capacity) + ": " + hex(exact, 48) + ")");
}

// A scripted query: what the firmware answers, and the buffer it finally
// hands over.
struct QueryScript {
  std::vector<int32_t> statuses;
  Payload payload;
};

inline void showValue(const QueryScript& q, std::ostream& os) {
  os << "RTAS statuses [";
  for (size_t i = 0; i < q.statuses.size(); ++i) os << (i ? ", " : "") << q.statuses[i];
  os << "] then success, buffer ";
  showValue(q.payload, os);
}

namespace gen {

inline rc::Gen<int32_t> retry_status() {
  return rc::gen::element<int32_t>(int32_t{busy_delay::kRtasBusy}, 9900, 9901, 9902, 9903, 9904,
                                   9905);
}

inline bool is_retry_status(int32_t s) {
  return s == busy_delay::kRtasBusy ||
         (s >= busy_delay::kExtendedDelayMin && s <= busy_delay::kExtendedDelayMax);
}

// A final status: non-zero, neither busy nor extended delay.
inline rc::Gen<int32_t> failure_status() {
  return rc::gen::suchThat(
      rc::gen::weightedOneOf<int32_t>({{2, rc::gen::element<int32_t>(-1, -3, -9999, 1, 9899, 9906)},
                                       {1, rc::gen::arbitrary<int32_t>()}}),
      [](int32_t s) { return s != xcede::kRtasSuccess && !is_retry_status(s); });
}

// A payload whose records give the CEDE(0) fix-up something to use at 512 MHz.
inline rc::Gen<Payload> fixable_payload() {
  return rc::gen::exec([] {
    RecordList r = *record_list();
    r.records.push_back({*hint(), *rc::gen::inRange<uint64_t>(1, 512 * 100000), *wake_on_irqs()});
    const uint32_t cap = std::max<uint32_t>(r.capacity, static_cast<uint32_t>(r.records.size()));
    return Payload{xcede::encode(r.records), cap, "valid"};
  });
}

// Busy or extended-delay answers (0..3), a failure, then anything.
inline rc::Gen<QueryScript> failing_query() {
  return rc::gen::exec([] {
    QueryScript q;
    q.statuses =
        *rc::gen::container<std::vector<int32_t>>(*rc::gen::inRange<size_t>(0, 4), retry_status());
    q.statuses.push_back(*failure_status());
    const auto after = *rc::gen::container<std::vector<int32_t>>(*rc::gen::inRange<size_t>(0, 3),
                                                                 failure_status());
    q.statuses.insert(q.statuses.end(), after.begin(), after.end());
    q.payload = *fixable_payload();
    return q;
  });
}

// 1..6 busy or extended-delay answers, then success.
inline rc::Gen<QueryScript> busy_query() {
  return rc::gen::exec([] {
    QueryScript q;
    q.statuses =
        *rc::gen::container<std::vector<int32_t>>(*rc::gen::inRange<size_t>(1, 7), retry_status());
    q.payload = *fixable_payload();
    return q;
  });
}

}  // namespace gen

// A dedicated POWER10: the LPAR on which the fix-up is at stake.
inline states::Options power10_dedicated() {
  return states::Options{Lpar{Platform::power10, Platform::power10, false}, states::kDefaultTbHz,
                         false};
}

// XCEDE-6: a final status other than success gives no records, no fix-up,
// and the status in the report.
template <class S>
void xcede_query_failure() {
  const QueryScript q = *gen::failing_query();
  const xcede::QueryResult r =
      xcede::query(q.statuses, q.payload.bytes, q.payload.capacity, S::query_policy);
  RC_ASSERT(!r.succeeded());
  RC_ASSERT(r.final_status != xcede::kRtasSuccess);
  RC_ASSERT(r.final_status == r.statuses.back());
  RC_ASSERT(r.decoded.records.empty());
  RC_ASSERT(r.decoded.error.has_value());
  RC_ASSERT(r.decoded.error->clause == std::string("XCEDE-6"));
  RC_ASSERT(r.decoded.error->message.find(std::to_string(r.final_status)) != std::string::npos);
  const states::Table t =
      states::build_using<typename S::Builder>(r.decoded.records, power10_dedicated());
  RC_ASSERT(!t.cede0_fixed_up);
  RC_ASSERT(t.states.at(1).exit_latency_us == states::kCedeExitLatencyUs);
  RC_ASSERT(t.states.at(1).target_residency_us == states::kCedeTargetResidencyUs);
}

// XCEDE-7: busy and extended-delay answers followed by success still decode
// the records, and the fix-up still happens. Runs the subject's own retry
// policy: upstream's single call fails here (the spec accepts that).
template <class S>
void xcede_query_retries() {
  const QueryScript q = *gen::busy_query();
  const xcede::QueryResult r =
      xcede::query(q.statuses, q.payload.bytes, q.payload.capacity, S::query_policy);
  // The clause's judge is the oracle's; r.statuses holds every answer the
  // firmware gave, one per RTAS call.
  if (const auto v = xcede::oracle::judge_query_retries(q.statuses, r.statuses.size()))
    RC_FAIL(v->clause + ": " + v->message + "; so no records, no fix-up");
  RC_ASSERT(r.succeeded());
  std::vector<xcede::Record> expected;
  for (uint32_t i = 0;
       i < xcede::oracle::expected_decode(q.payload.bytes, q.payload.capacity).count; ++i) {
    expected.push_back(xcede::oracle::record_at(q.payload.bytes, i));
  }
  RC_ASSERT(show_records(r.decoded.records) == show_records(expected));
  const states::Table t =
      states::build_using<typename S::Builder>(r.decoded.records, power10_dedicated());
  const auto cede0 = states::oracle::cede0_latency_us(expected, states::kDefaultTbHz);
  RC_ASSERT(cede0.has_value());
  RC_ASSERT(t.cede0_fixed_up);
  RC_ASSERT(uint64_t{t.states.at(1).exit_latency_us} == *cede0);
}

}  // namespace idlespec::props
