// The symbolic parameter buffer and the symbolic decode shared by the xcede
// proofs (proofs/xcede_proofs.h).
#include <algorithm>

#include "proofs/xcede_proofs.h"

namespace idlespec::proofs {

SymbolicBuffer::SymbolicBuffer()
    : bytes_(current_context().constant(
          "buf", current_context().array_sort(current_context().bv_sort(32),
                                              current_context().bv_sort(8)))),
      len_(fresh<32>("len")) {}

Sym<8> SymbolicBuffer::read(const SymBool& guard, const Sym<32>& offset) {
  reads_.push_back({guard, offset});
  return Sym<8>(z3::select(bytes_, offset.e));
}

z3::expr SymbolicBuffer::byte(uint32_t offset) const {
  return z3::select(bytes_, bytes_.ctx().bv_val(offset, 32));
}

z3::expr SymbolicBuffer::byte_at(const z3::expr& offset) const {
  return z3::select(bytes_, offset);
}

z3::expr SymbolicBuffer::payload_size() const { return z3::concat(byte(0), byte(1)); }

std::vector<z3::expr> SymbolicBuffer::short_buffer_preferences() const {
  z3::context& ctx = bytes_.ctx();
  return {z3::ule(len_.e, ctx.bv_val(64, 32)), z3::ule(len_.e, ctx.bv_val(kMaxPrintedBytes, 32))};
}

std::string SymbolicBuffer::describe(const z3::model& m, uint32_t max_bytes) const {
  const uint64_t length = model_u64(m, len_.e);
  const uint64_t shown = std::min<uint64_t>(length, max_bytes);
  std::string out = "length " + std::to_string(length) + " (" + hex_u64(length) + ")\n";
  out += "payload ";
  for (uint64_t i = 0; i < shown; ++i) out += hex_byte(model_u64(m, byte(uint32_t(i))));
  if (shown == 0) out += "(empty)";
  if (shown < length) {
    out += " ... (first " + std::to_string(shown) + " of " + std::to_string(length) + " bytes)";
  }
  out += "\n";
  return out;
}

Decoding decode_symbolic(DecodeFn decoder, SymbolicBuffer& buffer, uint32_t capacity) {
  Decoding d;
  const RecordSink sink = [&d](uint32_t index, const xcede::RawRecord<Z3Domain>& rec) {
    if (index >= d.slots.size()) d.slots.resize(index + 1);
    d.slots[index] = rec;
  };
  d.raw = decoder(buffer, capacity, sink);
  return d;
}

std::string Decoding::describe(const z3::model& m) const {
  auto flag = [&](const char* name, const SymBool& b) {
    return model_true(m, b.e) ? std::string(" ") + name : std::string();
  };
  std::string out = "decoded: payload_size " + hex_u64(model_u64(m, raw.payload_size.e)) +
                    ", record-size byte " + hex_u64(model_u64(m, raw.record_size_byte.e)) +
                    ", declared " + std::to_string(model_u64(m, raw.declared.e)) + ", in buffer " +
                    std::to_string(model_u64(m, raw.in_buffer.e)) + ", count " +
                    std::to_string(model_u64(m, raw.count.e)) + "\n";
  std::string flags = flag("header_ok", raw.header_ok) + flag("size_ok", raw.size_ok) +
                      flag("short_payload", raw.short_payload) +
                      flag("over_capacity", raw.over_capacity) + flag("truncated", raw.truncated) +
                      flag("partial_record", raw.partial_record) +
                      flag("nul_missing", raw.nul_missing);
  out += "flags:" + (flags.empty() ? std::string(" none") : flags) + "\n";
  for (size_t i = 0; i < slots.size(); ++i) {
    const auto& r = slots[i];
    if (!model_true(m, r.present.e)) continue;
    out += "xcede: Record " + std::to_string(i) +
           " : hint = " + std::to_string(model_u64(m, r.hint.e)) +
           ", latency = " + hex_u64(model_u64(m, r.latency_ticks.e)) +
           " tb ticks, Wake-on-irq = " + std::to_string(model_u64(m, r.wake_on_irqs.e)) + "\n";
  }
  return out;
}

}  // namespace idlespec::proofs
