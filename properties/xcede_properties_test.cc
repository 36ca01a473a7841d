// The XCEDE properties against the reference subject, as gtest cases (RC_PARAMS
// sets the seed and the case count), and the oracle they judge by (oracle/xcede.h),
// on inputs whose answer is known by hand.
#include "properties/xcede_properties.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "impl/subjects.h"
#include "oracle/xcede.h"

namespace idlespec::props {
namespace {

using namespace xcede::oracle;  // the oracle the properties judge by

RC_GTEST_PROP(XcedeProperties, NeverOverruns, ()) { xcede_never_overruns<ReferenceSubject>(); }

RC_GTEST_PROP(XcedeProperties, RejectsBadRecordSize, ()) {
  xcede_rejects_bad_record_size<ReferenceSubject>();
}

RC_GTEST_PROP(XcedeProperties, ShortPayloadWarns, ()) {
  xcede_short_payload_warns<ReferenceSubject>();
}

RC_GTEST_PROP(XcedeProperties, CapacityBound, ()) { xcede_capacity_bound<ReferenceSubject>(); }

RC_GTEST_PROP(XcedeProperties, Roundtrip, ()) { xcede_roundtrip<ReferenceSubject>(); }

RC_GTEST_PROP(XcedeProperties, QueryFailure, ()) { xcede_query_failure<ReferenceSubject>(); }

RC_GTEST_PROP(XcedeProperties, QueryRetries, ()) { xcede_query_retries<ReferenceSubject>(); }
RC_GTEST_PROP(XcedeProperties, ReadsBigEndian, ()) { xcede_reads_big_endian<ReferenceSubject>(); }

// The generators make what they say: every corruption shape comes up, and a
// "valid" payload is one.
RC_GTEST_PROP(XcedeGenerators, ValidPayloadsAreValid, ()) {
  const Payload p = *gen::valid_payload();
  const ExpectedDecode e = expected_decode(p.bytes, p.capacity);
  RC_ASSERT(e.error_clause.empty());
  RC_ASSERT(e.warning_clauses.empty());
  RC_ASSERT(e.count == e.declared);
}

RC_GTEST_PROP(XcedeGenerators, BadRecordSizeIsBad, ()) {
  const Payload p = *gen::bad_record_size_payload();
  RC_ASSERT(p.bytes.size() >= 3u);
  RC_ASSERT(p.bytes[2] != xcede::kRecordSizeByte);
}

TEST(XcedeModel, UpstreamOverrunPayload) {
  // payload_size 65535 in a 3-byte buffer: upstream would read 6553 records.
  const std::vector<uint8_t> b = {0xff, 0xff, 0x09};
  const ExpectedDecode e = expected_decode(b, 16);
  EXPECT_EQ(e.declared, 6553u);
  EXPECT_EQ(e.count, 0u);
  EXPECT_TRUE(e.truncated);
  EXPECT_EQ(e.warning_clauses, (std::vector<std::string>{"XCEDE-1", "XCEDE-4", "XCEDE-5"}));
}

TEST(XcedeModel, ShortBufferAndBadSize) {
  EXPECT_EQ(expected_decode(std::vector<uint8_t>{0x00, 0x0c}, 16).error_clause, "XCEDE-1");
  EXPECT_EQ(expected_decode(std::vector<uint8_t>{0x00, 0x0c}, 16).error_offset, 2u);
  const ExpectedDecode bad = expected_decode(std::vector<uint8_t>{0x00, 0x00, 0x0a}, 16);
  EXPECT_EQ(bad.error_clause, "XCEDE-2");  // before XCEDE-3, although payload_size is 0
  EXPECT_EQ(bad.error_offset, 2u);
}

TEST(XcedeModel, OneValidRecord) {
  const std::vector<xcede::Record> r = {{1, 0x400, 1}};
  const std::vector<uint8_t> b = xcede::encode(r);
  const ExpectedDecode e = expected_decode(b, 16);
  EXPECT_EQ(e.count, 1u);
  EXPECT_TRUE(e.warning_clauses.empty());
  EXPECT_EQ(record_at(b, 0), r[0]);
  // Without its NUL the record still decodes, with an XCEDE-5 warning.
  const ExpectedDecode no_nul = expected_decode(std::span(b).first(b.size() - 1), 16);
  EXPECT_EQ(no_nul.count, 1u);
  EXPECT_EQ(no_nul.warning_clauses, std::vector<std::string>{"XCEDE-5"});
}

TEST(CheckedSource, CountsReadsPastTheEndWithoutPerformingThem) {
  const std::vector<uint8_t> b = {1, 2, 3};
  CheckedSource src{std::span<const uint8_t>(b).first(2)};
  EXPECT_EQ(src.read(true, Word<32>(1)).v, 2u);
  EXPECT_EQ(src.read(true, Word<32>(2)).v, 0u);
  EXPECT_EQ(src.read(false, Word<32>(9)).v, 0u);  // unguarded: not a read
  EXPECT_EQ(src.out_of_range_reads(), 1u);
  EXPECT_EQ(src.first_out_of_range(), 2u);
}

}  // namespace
}  // namespace idlespec::props
