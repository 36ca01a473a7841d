// XCEDE-5 (safety): decoding is exact: for every valid payload p,
// encode(decode(p)) = p, every byte value of hint and wake-on-irq kept as it
// is.
//
// Assumptions (a valid payload, spec/xcede.md "The format"): for some record
// count n <= capacity (16), payload_size = 10n + 2 (so payload_size >= 2 and
// payload_size - 2 is a multiple of 10), byte 2 is 9, the byte at
// 1 + payload_size is NUL and the buffer ends right after it:
// length = payload_size + 2. Every record byte is symbolic.
//
// Obligation:
//   - the payload is decoded (size_ok) with no warning (short payload,
//     capacity, truncation, partial record, missing NUL), count = n, and the
//     decoded records fill slots 0, 1, ... in order;
//   - encode(decode(p)) = p: the encoding of the decoded records (the format
//     table: payload_size = 10k + 2 big-endian, 9, the records, NUL) has p's
//     length and, at every offset o < length (o symbolic), p's byte. Field by
//     field: each decoded record's hint, ticks and wake-on-irq are the payload
//     bytes at 3 + 10i, 4 + 10i .. 11 + 10i and 12 + 10i.
//
// Verdict: held, or the payload in hex, what was decoded and where the
// encoding differs.
#include "proofs/xcede_proofs.h"

namespace idlespec::proofs {
namespace {

constexpr uint32_t kRecordBase = xcede::kHeaderSize;

// The ticks of slot i as the payload holds them: 8 bytes, big-endian.
z3::expr payload_ticks(const SymbolicBuffer& buf, uint32_t i) {
  const uint32_t at = kRecordBase + xcede::kRecordSize * i + 1;
  z3::expr t = buf.byte(at);
  for (uint32_t b = 1; b < 8; ++b) t = z3::concat(t, buf.byte(at + b));
  return t;
}

}  // namespace

ProofResult prove_xcede_roundtrip(DecodeFn decoder, const ProofOptions& options) {
  Prover prover("xcede_roundtrip", options);
  z3::context ctx;
  Z3Scope scope(ctx);
  SymbolicBuffer buf;
  const uint32_t capacity = kProofCapacity;
  const Decoding d = decode_symbolic(decoder, buf, capacity);
  const auto& raw = d.raw;
  auto bv32 = [&](uint64_t v) { return ctx.bv_val(v, 32); };

  // The valid payloads of n records.
  const z3::expr n = fresh<32>("n_records").e;
  const z3::expr size32 = z3::zext(buf.payload_size(), 16);
  Obligation ob(ctx);
  ob.label = "valid payloads of 0.." + std::to_string(capacity) + " records";
  ob.logic = "QF_ABV";
  ob.assumptions = z3::ule(n, bv32(capacity)) && size32 == bv32(xcede::kRecordSize) * n + bv32(2) &&
                   buf.byte(2) == ctx.bv_val(xcede::kRecordSizeByte, 8) &&
                   buf.byte_at(size32 + bv32(1)) == ctx.bv_val(0, 8) &&
                   buf.len().e == size32 + bv32(2);

  // encode(decode(p)), byte by byte, at a symbolic offset o.
  z3::expr k = bv32(0);
  for (const auto& s : d.slots) k = k + z3::ite(s.present.e, bv32(1), bv32(0));
  const z3::expr enc_size = bv32(xcede::kRecordSize) * k + bv32(2);
  const z3::expr enc_len = enc_size + bv32(2);
  const z3::expr o = fresh<32>("offset").e;
  z3::expr enc = ctx.bv_val(0, 8);  // the NUL, and nothing past the end
  for (size_t i = d.slots.size(); i-- > 0;) {
    const auto& s = d.slots[i];
    const uint32_t base = kRecordBase + xcede::kRecordSize * uint32_t(i);
    enc = z3::ite(s.present.e && o == bv32(base + 9), s.wake_on_irqs.e, enc);
    for (uint32_t b = 8; b-- > 0;) {
      enc = z3::ite(s.present.e && o == bv32(base + 1 + b),
                    s.latency_ticks.e.extract(63 - 8 * b, 56 - 8 * b), enc);
    }
    enc = z3::ite(s.present.e && o == bv32(base), s.hint.e, enc);
  }
  enc = z3::ite(o == bv32(2), ctx.bv_val(xcede::kRecordSizeByte, 8), enc);
  enc = z3::ite(o == bv32(1), enc_size.extract(7, 0), enc);
  enc = z3::ite(o == bv32(0), enc_size.extract(15, 8), enc);

  ob.failures.push_back({"XCEDE-5", "a valid payload is not decoded", !raw.size_ok.e});
  ob.failures.push_back({"XCEDE-5", "short-payload warning", raw.short_payload.e});
  ob.failures.push_back({"XCEDE-5", "capacity warning", raw.over_capacity.e});
  ob.failures.push_back({"XCEDE-5", "truncation warning", raw.truncated.e});
  ob.failures.push_back({"XCEDE-5", "partial-record warning", raw.partial_record.e});
  ob.failures.push_back({"XCEDE-5", "missing-NUL warning", raw.nul_missing.e});
  ob.failures.push_back({"XCEDE-5", "count is not (payload_size - 2) / 10", raw.count.e != n});
  ob.failures.push_back(
      {"XCEDE-5", "encode(decode(p)) is not as long as p", enc_len != buf.len().e});
  ob.failures.push_back({"XCEDE-5", "encode(decode(p)) differs from p inside p",
                         z3::ult(o, buf.len().e) && enc != buf.byte_at(o)});
  for (size_t i = 0; i < d.slots.size(); ++i) {
    const auto& s = d.slots[i];
    const uint32_t base = kRecordBase + xcede::kRecordSize * uint32_t(i);
    const std::string rec = "record " + std::to_string(i);
    if (i > 0) {
      ob.failures.push_back({"XCEDE-5",
                             rec + " decoded but record " + std::to_string(i - 1) + " not",
                             s.present.e && !d.slots[i - 1].present.e});
    }
    ob.failures.push_back({"XCEDE-5", rec + "'s hint is not payload byte " + std::to_string(base),
                           s.present.e && s.hint.e != buf.byte(base)});
    ob.failures.push_back({"XCEDE-5",
                           rec + "'s latency is not payload bytes " + std::to_string(base + 1) +
                               ".." + std::to_string(base + 8),
                           s.present.e && s.latency_ticks.e != payload_ticks(buf, uint32_t(i))});
    ob.failures.push_back({"XCEDE-5",
                           rec + "'s wake-on-irq is not payload byte " + std::to_string(base + 9),
                           s.present.e && s.wake_on_irqs.e != buf.byte(base + 9)});
  }
  ob.describe = [&](const z3::model& m) {
    std::string out = buf.describe(m) + d.describe(m);
    out += "encode(decode(p)): length " + std::to_string(model_u64(m, enc_len)) + "; at offset " +
           std::to_string(model_u64(m, o)) + " it holds " + hex_byte(model_u64(m, enc)) +
           ", p holds " + hex_byte(model_u64(m, buf.byte_at(o))) + "\n";
    return out;
  };
  prover.decide(scope, ob);
  return prover.finish("encode(decode(p)) = p for every valid payload, with no warning");
}

}  // namespace idlespec::proofs
