// Worked examples of the decoder and the query, one behaviour each.
#include "impl/xcede.h"

#include <gtest/gtest.h>

#include "impl/query.h"

namespace idlespec::xcede {
namespace {

// The POWER9 dedicated LPAR the 2020 RFC printed: hint 1 at 0x400 ticks,
// wakes on interrupts; hint 2 at 0x3e8000 ticks, does not.
const std::vector<Record> kPower9 = {{1, 0x400, 1}, {2, 0x3e8000, 0}};

bool has_warning(const Decoded& d, const std::string& clause) {
  for (const auto& w : d.warnings) {
    if (w.clause == clause) return true;
  }
  return false;
}

TEST(Xcede, EncodesThePower9ExampleByteForByte) {
  const std::vector<uint8_t> expected = {0x00, 0x16, 0x09, 0x01, 0,    0,    0,    0,
                                         0,    0,    0x04, 0x00, 0x01, 0x02, 0,    0,
                                         0,    0,    0,    0x3e, 0x80, 0x00, 0x00, 0x00};
  EXPECT_EQ(encode(kPower9), expected);
}

TEST(Xcede, DecodesThePower9Example) {
  const Decoded d = decode(encode(kPower9));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.records, kPower9);
  EXPECT_TRUE(d.warnings.empty());
  EXPECT_EQ(d.payload_size, 22);
}

TEST(Xcede, PrintsTheKernelsDmesgLines) {
  const auto lines = dmesg_lines(decode(encode(kPower9)));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], "xcede: Record 0 : hint = 1, latency = 0x400 tb ticks, Wake-on-irq = 1");
  EXPECT_EQ(lines[2], "xcede: Record 1 : hint = 2, latency = 0x3e8000 tb ticks, Wake-on-irq = 0");
}

TEST(Xcede, RejectsABadRecordSizeAtOffset2EvenWithAShortPayload) {
  std::vector<uint8_t> buf = {0x00, 0x01, 0x0a};
  const Decoded d = decode(buf);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error->clause, "XCEDE-2");
  EXPECT_EQ(d.error->offset, 2u);
  EXPECT_TRUE(d.records.empty());
}

TEST(Xcede, RejectsABufferShorterThanTheHeader) {
  const std::vector<uint8_t> buf = {0x00, 0x16};
  const Decoded d = decode(buf);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error->offset, 2u);
}

TEST(Xcede, ShortPayloadGivesNoRecordsAndAWarning) {
  for (uint8_t size : {0, 1}) {
    const std::vector<uint8_t> buf = {0x00, size, 0x09, 0x00};
    const Decoded d = decode(buf);
    ASSERT_TRUE(d.ok());
    EXPECT_TRUE(d.records.empty());
    EXPECT_TRUE(has_warning(d, "XCEDE-3"));
  }
}

TEST(Xcede, TruncatesToTheBufferAndSaysWhereItEnds) {
  std::vector<uint8_t> buf = encode(kPower9);
  buf[1] = 0xff;  // payload_size 255: declares 25 records
  buf.resize(3 + 10 + 4);
  const Decoded d = decode(buf);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.records.size(), 1u);
  EXPECT_TRUE(has_warning(d, "XCEDE-1"));
  EXPECT_TRUE(has_warning(d, "XCEDE-4"));
}

TEST(Xcede, DecodesAtMostCapacityRecords) {
  const std::vector<Record> many(17, Record{3, 1000, 1});
  const Decoded d = decode(encode(many));
  EXPECT_EQ(d.records.size(), kDefaultCapacity);
  EXPECT_TRUE(has_warning(d, "XCEDE-4"));
  EXPECT_EQ(decode(encode(many), 17).records.size(), 17u);
}

TEST(Xcede, WarnsAboutAMissingNul) {
  std::vector<uint8_t> buf = encode(kPower9);
  buf.back() = 0x7f;
  EXPECT_TRUE(has_warning(decode(buf), "XCEDE-5"));
  buf.pop_back();
  EXPECT_TRUE(has_warning(decode(buf), "XCEDE-5"));
}

TEST(Query, RetriesBusyAndExtendedDelayThenDecodes) {
  const std::vector<int32_t> statuses = {-2, 9900, 9902, -2};
  const QueryResult q = query(statuses, encode(kPower9));
  ASSERT_TRUE(q.succeeded());
  EXPECT_EQ(q.statuses.size(), 5u);
  // 9900: usleep_range(100, 1000 us); 9902: msleep(100).
  EXPECT_EQ(q.requested_sleep_us, 1000u + 100000u);
  EXPECT_EQ(q.yields, 2u);
  EXPECT_EQ(q.decoded.records, kPower9);
}

TEST(Query, ClampsTheExtendedDelayHintToOneSecond) {
  const std::vector<int32_t> statuses = {9905};
  EXPECT_EQ(query(statuses, encode(kPower9)).requested_sleep_us, 1000u * 1000u);
}

TEST(Query, AnyOtherStatusIsFinal) {
  const std::vector<int32_t> statuses = {-2, -3, 0};
  const QueryResult q = query(statuses, encode(kPower9));
  EXPECT_EQ(q.final_status, -3);
  EXPECT_TRUE(q.decoded.records.empty());
  ASSERT_TRUE(q.decoded.error);
  EXPECT_EQ(q.decoded.error->clause, "XCEDE-6");
}

TEST(Query, UpstreamGivesUpOnTheFirstBusy) {
  const std::vector<int32_t> statuses = {-2};
  const QueryResult q = query(statuses, encode(kPower9), kDefaultCapacity, single_call_policy);
  EXPECT_EQ(q.final_status, -2);
  EXPECT_TRUE(q.decoded.records.empty());
}

}  // namespace
}  // namespace idlespec::xcede
