// XCEDE-2 (safety): a record size other than 10 is rejected before
// payload_size is looked at, and nothing is decoded.
//
// Assumptions: none on the input: every byte symbolic, any u32 length,
// capacity 16.
//
// Obligation, stated on the input bytes (not on what the decoder says it
// read):
//   - the payload is accepted (size_ok) exactly when the buffer holds the
//     3-byte header and byte 2, the record size - 1, is 9;
//   - with a header whose byte 2 is not 9: no record is decoded, the count and
//     the declared count are 0, and no payload_size diagnostic is raised
//     (short payload, capacity, truncation, partial record, NUL): "before"
//     means a bad record size with a short payload_size reports XCEDE-2, not
//     XCEDE-3.
//
// Verdict: held, or the payload in hex with what the decoder concluded.
#include "proofs/xcede_proofs.h"

namespace idlespec::proofs {

ProofResult prove_xcede_record_size_gate(DecodeFn decoder, const ProofOptions& options) {
  Prover prover("xcede_record_size_gate", options);
  z3::context ctx;
  Z3Scope scope(ctx);
  SymbolicBuffer buf;
  const Decoding d = decode_symbolic(decoder, buf, kProofCapacity);
  const auto& raw = d.raw;

  const z3::expr header = z3::uge(buf.len().e, ctx.bv_val(xcede::kHeaderSize, 32));
  const z3::expr papr_size = buf.byte(2) == ctx.bv_val(xcede::kRecordSizeByte, 8);
  const z3::expr bad = header && !papr_size;

  Obligation ob(ctx);
  ob.label = "capacity " + std::to_string(kProofCapacity) + ", every buffer length";
  ob.logic = "QF_ABV";
  ob.failures.push_back(
      {"XCEDE-2", "a record-size byte other than 9 is accepted", bad && raw.size_ok.e});
  ob.failures.push_back({"XCEDE-2", "the PAPR record size (byte 2 = 9) is rejected",
                         header && papr_size && !raw.size_ok.e});
  ob.failures.push_back(
      {"XCEDE-2", "a buffer without the 3-byte header is accepted", !header && raw.size_ok.e});
  ob.failures.push_back({"XCEDE-2", "records counted despite a bad record size",
                         bad && raw.count.e != ctx.bv_val(0, 32)});
  ob.failures.push_back({"XCEDE-2",
                         "payload_size looked at (declared count) despite a bad record size",
                         bad && raw.declared.e != ctx.bv_val(0, 32)});
  ob.failures.push_back({"XCEDE-2", "XCEDE-3 (short payload) reported instead of XCEDE-2",
                         bad && raw.short_payload.e});
  ob.failures.push_back({"XCEDE-2", "payload diagnostics despite a bad record size",
                         bad && (raw.over_capacity.e || raw.truncated.e || raw.partial_record.e ||
                                 raw.nul_missing.e)});
  for (size_t i = 0; i < d.slots.size(); ++i) {
    ob.failures.push_back({"XCEDE-2",
                           "record " + std::to_string(i) + " decoded despite a bad record size",
                           bad && d.slots[i].present.e});
  }
  ob.preferences = buf.short_buffer_preferences();
  ob.describe = [&](const z3::model& m) { return buf.describe(m) + d.describe(m); };
  prover.decide(scope, ob);
  return prover.finish(
      "size_ok <=> header and record-size byte 9; a bad record size decodes and diagnoses nothing");
}

}  // namespace idlespec::proofs
