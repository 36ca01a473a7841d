// XCEDE-1 (safety): the decoder never reads a byte outside the buffer it was
// given, for every payload_size 0..65535, every record-size byte and every
// buffer length.
//
// Assumptions: none on the input. Every byte of the buffer is symbolic
// (payload_size and the record-size byte included), its length is any u32
// (the concrete source saturates longer spans at 2^32 - 1). The capacity is
// the kernel's 16 records.
//
// Obligation: for every read the decoder makes, read under guard g at offset
// o, g => o < length. The decoder is Subject::Decoder instantiated with
// Z3Domain; the source records each (g, o) it is asked for.
//
// Verdict: held, or a counterexample: the buffer length, the payload in hex
// (the solver is asked for a well-formed header and a buffer of at most 64,
// then 400 bytes first), the read that overruns (offset >= length) and what
// was decoded.
#include "proofs/xcede_proofs.h"

namespace idlespec::proofs {
namespace {

// "byte 13" for a constant offset, "byte payload_size + 1" for the NUL.
std::string offset_text(const Sym<32>& offset) {
  uint64_t v = 0;
  const z3::expr s = offset.e.simplify();
  if (s.is_numeral_u64(v)) return "byte " + std::to_string(v);
  return "a computed offset (the NUL's: payload_size + 1)";
}

}  // namespace

ProofResult prove_xcede_no_overrun(DecodeFn decoder, const ProofOptions& options) {
  Prover prover("xcede_no_overrun", options);
  z3::context ctx;
  Z3Scope scope(ctx);
  SymbolicBuffer buf;
  const Decoding decoding = decode_symbolic(decoder, buf, kProofCapacity);

  Obligation ob(ctx);
  ob.label = "capacity " + std::to_string(kProofCapacity) + ", every buffer length";
  ob.logic = "QF_ABV";
  const auto& reads = buf.reads();
  for (size_t i = 0; i < reads.size(); ++i) {
    ob.failures.push_back({"XCEDE-1",
                           "read #" + std::to_string(i) + " (" + offset_text(reads[i].offset) +
                               ") is outside the buffer",
                           reads[i].guard.e && z3::uge(reads[i].offset.e, buf.len().e)});
  }
  // Prefer an overrun past a well-formed header (what upstream does with a
  // large payload_size), then a short buffer.
  ob.preferences.push_back(z3::uge(buf.len().e, ctx.bv_val(xcede::kHeaderSize, 32)) &&
                           buf.byte(2) == ctx.bv_val(xcede::kRecordSizeByte, 8));
  for (const z3::expr& p : buf.short_buffer_preferences()) ob.preferences.push_back(p);
  ob.describe = [&](const z3::model& m) {
    std::string out = buf.describe(m);
    for (const auto& r : reads) {
      if (!model_true(m, r.guard.e && z3::uge(r.offset.e, buf.len().e))) continue;
      const uint64_t offset = model_u64(m, r.offset.e);
      const uint64_t length = model_u64(m, buf.len().e);
      out += "overrun: read of offset " + std::to_string(offset) + " >= length " +
             std::to_string(length) + "\n";
      break;
    }
    return out + decoding.describe(m);
  };
  prover.decide(scope, ob);
  return prover.finish("every guarded read is at an offset below the buffer length");
}

}  // namespace idlespec::proofs
