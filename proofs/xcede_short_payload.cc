// XCEDE-3 (safety): a payload_size below 2 yields no records and a warning,
// never a count computed from a wrapped payload_size - 2.
//
// Assumptions: none on the input: every byte symbolic, any u32 length,
// capacity 16. The clause concerns payloads whose header is accepted (3
// bytes, record size 10); other record sizes are XCEDE-2's.
//
// Obligation, with payload_size read from bytes 0-1 of the input:
//   - accepted header and payload_size < 2 => count = 0, declared = 0, no
//     record slot present, and the short-payload warning is raised;
//   - the warning is raised only then.
//
// Verdict: held, or the payload in hex with what the decoder concluded.
#include "proofs/xcede_proofs.h"

namespace idlespec::proofs {

ProofResult prove_xcede_short_payload(DecodeFn decoder, const ProofOptions& options) {
  Prover prover("xcede_short_payload", options);
  z3::context ctx;
  Z3Scope scope(ctx);
  SymbolicBuffer buf;
  const Decoding d = decode_symbolic(decoder, buf, kProofCapacity);
  const auto& raw = d.raw;

  const z3::expr accepted = z3::uge(buf.len().e, ctx.bv_val(xcede::kHeaderSize, 32)) &&
                            buf.byte(2) == ctx.bv_val(xcede::kRecordSizeByte, 8);
  const z3::expr short_size = accepted && z3::ult(buf.payload_size(), ctx.bv_val(2, 16));

  Obligation ob(ctx);
  ob.label = "capacity " + std::to_string(kProofCapacity) + ", every buffer length";
  ob.logic = "QF_ABV";
  ob.failures.push_back({"XCEDE-3", "records counted from a payload_size below 2",
                         short_size && raw.count.e != ctx.bv_val(0, 32)});
  ob.failures.push_back({"XCEDE-3", "declared count computed from a wrapped payload_size - 2",
                         short_size && raw.declared.e != ctx.bv_val(0, 32)});
  ob.failures.push_back(
      {"XCEDE-3", "no warning for a payload_size below 2", short_size && !raw.short_payload.e});
  ob.failures.push_back({"XCEDE-3", "short-payload warning for a payload that is not short",
                         raw.short_payload.e && !short_size});
  for (size_t i = 0; i < d.slots.size(); ++i) {
    ob.failures.push_back({"XCEDE-3",
                           "record " + std::to_string(i) + " decoded from a payload_size below 2",
                           short_size && d.slots[i].present.e});
  }
  ob.preferences = buf.short_buffer_preferences();
  ob.describe = [&](const z3::model& m) { return buf.describe(m) + d.describe(m); };
  prover.decide(scope, ob);
  return prover.finish("payload_size < 2 gives no records and the short-payload warning");
}

}  // namespace idlespec::proofs
