// The xcede proofs (spec/xcede.md, XCEDE-1..5) and what they share: the
// symbolic parameter buffer and the decoder run over it.
//
// Each proof is a template over a Subject (impl/subjects.h): it instantiates
// Subject::Decoder with Z3Domain, so the proof is about the decoder that
// runs. Witness tests pass broken subjects (tests/witnesses/). The template
// only erases the decoder's type; the proof itself lives in its own file
// (proofs/xcede_<name>.cc) and opens with the clause it discharges.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "impl/subjects.h"
#include "impl/xcede.h"
#include "proofs/proof.h"
#include "proofs/z3_domain.h"

namespace idlespec::proofs {

// The capacity the xcede proofs decode with: the kernel's 16-record buffer.
inline constexpr uint32_t kProofCapacity = xcede::kDefaultCapacity;

// The buffer the decoder is given: 2^32 symbolic bytes (a Z3 array from
// BV32 to BV8) and a symbolic length, any u32. As a Source for decode_raw it
// records every read the decoder makes, with the guard it makes it under.
class SymbolicBuffer {
 public:
  struct Read {
    SymBool guard;
    Sym<32> offset;
  };

  SymbolicBuffer();  // fresh array "buf" and length "len"; needs a Z3Scope

  // The Source interface of xcede::decode_raw.
  Sym<32> length() const { return len_; }
  Sym<8> read(const SymBool& guard, const Sym<32>& offset);

  const Sym<32>& len() const { return len_; }
  const z3::expr& bytes() const { return bytes_; }
  z3::expr byte(uint32_t offset) const;  // BV8
  z3::expr byte_at(const z3::expr& offset) const;
  z3::expr payload_size() const;  // bytes 0-1, big-endian, BV16
  const std::vector<Read>& reads() const { return reads_; }

  // "length 13 (0xd)\npayload 000b09..." with at most `max_bytes` bytes.
  std::string describe(const z3::model& m, uint32_t max_bytes = kMaxPrintedBytes) const;

  // Preferences (proofs/proof.h) for a counterexample short enough to print.
  std::vector<z3::expr> short_buffer_preferences() const;

  static constexpr uint32_t kMaxPrintedBytes = 400;

 private:
  z3::expr bytes_;
  Sym<32> len_;
  std::vector<Read> reads_;
};

// What a decoder concluded, and the record slots it filled (by sink index;
// slots it never filled are absent).
struct Decoding {
  xcede::RawDecode<Z3Domain> raw;
  std::vector<xcede::RawRecord<Z3Domain>> slots;

  // The flags and the decoded records, as dmesg lines.
  std::string describe(const z3::model& m) const;
};

using RecordSink = std::function<void(uint32_t, const xcede::RawRecord<Z3Domain>&)>;
using DecodeFn = xcede::RawDecode<Z3Domain> (*)(SymbolicBuffer&, uint32_t, const RecordSink&);

Decoding decode_symbolic(DecodeFn decoder, SymbolicBuffer& buffer, uint32_t capacity);

template <class Decoder>
xcede::RawDecode<Z3Domain> run_decoder(SymbolicBuffer& src, uint32_t capacity,
                                       const RecordSink& sink) {
  return Decoder::template run<Z3Domain>(src, capacity, sink);
}

template <class Subject>
DecodeFn decoder_of() {
  return &run_decoder<typename Subject::Decoder>;
}

// ---- The proofs ---------------------------------------------------------

ProofResult prove_xcede_no_overrun(DecodeFn decoder, const ProofOptions& options);        // XCEDE-1
ProofResult prove_xcede_record_size_gate(DecodeFn decoder, const ProofOptions& options);  // XCEDE-2
ProofResult prove_xcede_short_payload(DecodeFn decoder, const ProofOptions& options);     // XCEDE-3
ProofResult prove_xcede_capacity_bound(DecodeFn decoder, const ProofOptions& options);    // XCEDE-4
ProofResult prove_xcede_roundtrip(DecodeFn decoder, const ProofOptions& options);         // XCEDE-5

template <class Subject = ReferenceSubject>
ProofResult prove_xcede_no_overrun(const ProofOptions& options) {
  return prove_xcede_no_overrun(decoder_of<Subject>(), options);
}
template <class Subject = ReferenceSubject>
ProofResult prove_xcede_record_size_gate(const ProofOptions& options) {
  return prove_xcede_record_size_gate(decoder_of<Subject>(), options);
}
template <class Subject = ReferenceSubject>
ProofResult prove_xcede_short_payload(const ProofOptions& options) {
  return prove_xcede_short_payload(decoder_of<Subject>(), options);
}
template <class Subject = ReferenceSubject>
ProofResult prove_xcede_capacity_bound(const ProofOptions& options) {
  return prove_xcede_capacity_bound(decoder_of<Subject>(), options);
}
template <class Subject = ReferenceSubject>
ProofResult prove_xcede_roundtrip(const ProofOptions& options) {
  return prove_xcede_roundtrip(decoder_of<Subject>(), options);
}

}  // namespace idlespec::proofs
