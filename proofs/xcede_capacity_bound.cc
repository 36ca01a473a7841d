// XCEDE-4 (safety): at most capacity records are decoded; when payload_size
// declares more, the decoder warns.
//
// Assumptions: none on the input: every byte symbolic, any u32 length. The
// capacity is the kernel's 16 records.
//
// Obligation:
//   - the count is at most the capacity, and no record slot at or past the
//     capacity is filled (present);
//   - with an accepted header (3 bytes, record size 10), payload_size
//     declares more than capacity records, i.e. payload_size >= 2 +
//     10 * (capacity + 1), exactly when the over-capacity warning is raised.
//
// Verdict: held, or the payload in hex with what the decoder concluded.
#include "proofs/xcede_proofs.h"

namespace idlespec::proofs {

ProofResult prove_xcede_capacity_bound(DecodeFn decoder, const ProofOptions& options) {
  Prover prover("xcede_capacity_bound", options);
  z3::context ctx;
  Z3Scope scope(ctx);
  SymbolicBuffer buf;
  const uint32_t capacity = kProofCapacity;
  const Decoding d = decode_symbolic(decoder, buf, capacity);
  const auto& raw = d.raw;

  const z3::expr accepted = z3::uge(buf.len().e, ctx.bv_val(xcede::kHeaderSize, 32)) &&
                            buf.byte(2) == ctx.bv_val(xcede::kRecordSizeByte, 8);
  const uint32_t first_too_many = 2 + xcede::kRecordSize * (capacity + 1);
  const z3::expr declares_more =
      accepted && z3::uge(z3::zext(buf.payload_size(), 16), ctx.bv_val(first_too_many, 32));

  Obligation ob(ctx);
  ob.label = "capacity " + std::to_string(capacity) + ", every buffer length";
  ob.logic = "QF_ABV";
  ob.failures.push_back(
      {"XCEDE-4", "count above the capacity", z3::ugt(raw.count.e, ctx.bv_val(capacity, 32))});
  for (size_t i = capacity; i < d.slots.size(); ++i) {
    ob.failures.push_back({"XCEDE-4",
                           "record slot " + std::to_string(i) + " (past the capacity) decoded",
                           d.slots[i].present.e});
  }
  ob.failures.push_back({"XCEDE-4", "more records declared than the capacity, and no warning",
                         declares_more && !raw.over_capacity.e});
  ob.failures.push_back({"XCEDE-4", "capacity warning although payload_size declares no more",
                         raw.over_capacity.e && !declares_more});
  ob.preferences = buf.short_buffer_preferences();
  ob.describe = [&](const z3::model& m) { return buf.describe(m) + d.describe(m); };
  prover.decide(scope, ob);
  return prover.finish("count <= capacity; warning exactly when more records are declared");
}

}  // namespace idlespec::proofs
