// The checker's state encoding (idle_core_state_encoding.h): the symmetry
// of a configuration, the codec's representative and dictionary, and moves
// packed into bytes.
#include "modelcheck/idle_core_state_encoding.h"

#include <algorithm>
#include <cstring>

#include "impl/text.h"

namespace idlespec::idle_core::mc {

namespace {

// The local view of a thread (see the header): bit layout.
constexpr unsigned kVPc = 0;       // 5 bits
constexpr unsigned kVKind = 5;     // 3
constexpr unsigned kVLost = 8;     // 2
constexpr unsigned kVFlags = 10;   // 4: sprs_saved, full_winkle, first, sibling_awake
constexpr unsigned kVBit = 14;     // own thread bit of the word
constexpr unsigned kVWinkle = 15;  // own winkle bit
constexpr unsigned kVRegs = 16;    // own per-thread register validity
constexpr unsigned kVEq = 17;      // seen == word
constexpr unsigned kVSeen = 18;    // raw seen (32 bits) when not equal
constexpr unsigned kVRefs = 50;    // sort signature only: references by other seens

// Core-wide fields of the key: bits 0..11.
constexpr unsigned kGlobalBits = 12;

// v < 2^n, n <= 32; the field may straddle the two words.
inline void put_bits(Key& k, unsigned pos, unsigned n, uint64_t v) {
  const unsigned w = pos >> 6, o = pos & 63;
  k.w[w] |= v << o;
  if (o + n > 64 && w == 0) k.w[1] |= v >> (64 - o);
}

inline uint64_t get_bits(const Key& k, unsigned pos, unsigned n) {
  // n <= 32; may straddle the two words.
  const unsigned w = pos >> 6, o = pos & 63;
  uint64_t v = k.w[w] >> o;
  if (o + n > 64 && w == 0) v |= k.w[1] << (64 - o);
  return n == 64 ? v : v & ((uint64_t{1} << n) - 1);
}

}  // namespace

// Per-thread bits (thread bits and winkle bits) of a word, permuted: new bit
// j = old bit perm[j].
uint32_t permute_bits(uint32_t x, const std::array<uint8_t, kMaxThreads>& perm, unsigned n) {
  const uint32_t mask = (1u << n) - 1;
  uint32_t out = x & ~(mask | (mask << kWinkleBitsShift));
  for (unsigned j = 0; j < n; ++j) {
    out |= ((x >> perm[j]) & 1u) << j;
    out |= ((x >> (kWinkleBitsShift + perm[j])) & 1u) << (kWinkleBitsShift + j);
  }
  return out;
}

// --- symmetry --------------------------------------------------------------------

Symmetry symmetry_for(const Config& c, uint64_t subject_mask, bool on) {
  Symmetry s;
  s.blocks = 1;
  s.block_size = c.threads;
  if (!on || c.threads == 1) return s;
  s.enabled = true;
  s.blocks = c.subcores;
  s.block_size = c.threads_per_subcore();
  s.swap_blocks = c.subcores > 1;
  const uint64_t full = c.core_thread_mask();
  if ((subject_mask & full) != full) {
    // Threads the subject's mask leaves out are not interchangeable with
    // those it covers: blocks of the largest size that the mask and the
    // subcores both respect, and no block swaps.
    s.swap_blocks = false;
    unsigned size = s.block_size;
    const auto respects = [&](unsigned sz) {
      for (unsigned b = 0; b < c.threads / sz; ++b) {
        const uint64_t blk = ((uint64_t{1} << sz) - 1) << (b * sz);
        if ((subject_mask & blk) != 0 && (subject_mask & blk) != blk) return false;
      }
      return true;
    };
    while (size > 1 && !respects(size)) size /= 2;
    s.block_size = size;
    s.blocks = c.threads / size;
    if (size == 1) s.enabled = false;
  }
  return s;
}

// --- codec -------------------------------------------------------------------------

Codec::Codec(const Config& c, const Symmetry& sym) : c_(c), sym_(sym) {
  hint_view_.fill(UINT64_MAX);
  id_bits_ = std::min(32u, (128 - kGlobalBits) / c.threads);
  slots_.assign(1024, 0);
  slot_ids_.assign(1024, 0);
}

uint32_t Codec::intern(uint64_t view) {
  const uint64_t tag = view + 1;
  uint64_t mask = slots_.size() - 1;
  uint64_t i = fmix64(view) & mask;
  while (slots_[i]) {
    if (slots_[i] == tag) return slot_ids_[i];
    i = (i + 1) & mask;
  }
  const uint32_t id = static_cast<uint32_t>(views_.size());
  if (id_bits_ < 32 && id >= (1u << id_bits_)) {
    error_ = strprintf("more than %u distinct thread views: the %u-bit dictionary index is full",
                       1u << id_bits_, id_bits_);
    return UINT32_MAX;
  }
  views_.push_back(view);
  if (views_.size() * 2 > slots_.size()) {
    std::vector<uint64_t> old = std::move(slots_);
    std::vector<uint32_t> old_ids = std::move(slot_ids_);
    slots_.assign(old.size() * 2, 0);
    slot_ids_.assign(old.size() * 2, 0);
    mask = slots_.size() - 1;
    for (size_t k = 0; k < old.size(); ++k) {
      if (!old[k]) continue;
      uint64_t j = fmix64(old[k] - 1) & mask;
      while (slots_[j]) j = (j + 1) & mask;
      slots_[j] = old[k];
      slot_ids_[j] = old_ids[k];
    }
    i = fmix64(view) & mask;
    while (slots_[i]) i = (i + 1) & mask;
  }
  slots_[i] = tag;
  slot_ids_[i] = id;
  return id;
}

bool Codec::encode(const CoreState& s, Key& key, std::array<uint8_t, kMaxThreads>& perm) {
  WideKey wide;
  return canonical(s, wide, perm) && intern_wide(wide, key);
}

bool Codec::intern_wide(const WideKey& wide, Key& key) {
  const unsigned n = c_.threads;
  key = Key{};
  key.w[0] = wide.w[0];
  for (unsigned j = 0; j < n; ++j) {
    const uint64_t v = wide.w[1 + j];
    uint32_t id = UINT32_MAX;
    for (unsigned k = 0; k < n; ++k) {
      if (hint_view_[k] == v) {
        id = hint_id_[k];
        break;
      }
    }
    if (id == UINT32_MAX) id = intern(v);
    if (id == UINT32_MAX) return false;
    put_bits(key, kGlobalBits + j * id_bits_, id_bits_, id);
  }
  return true;
}

bool Codec::canonical(const CoreState& s, WideKey& wide, std::array<uint8_t, kMaxThreads>& perm) {
  const unsigned n = c_.threads;
  const uint32_t tmask = static_cast<uint32_t>(c_.core_thread_mask());
  const uint32_t pmask = tmask | (tmask << kWinkleBitsShift);
  const uint32_t allowed =
      pmask | static_cast<uint32_t>(kWinkleCountBits) | static_cast<uint32_t>(kLock);
  if ((s.word & ~allowed) || (s.ghost.thread_regs_valid & ~tmask) ||
      (s.ghost.subcore_regs_valid & ~((1u << c_.subcores) - 1))) {
    error_ = "a state with bits outside the word's fields: " + describe_word(c_, s.word);
    return false;
  }
  std::array<uint64_t, kMaxThreads> view{};
  bool cross = false;
  for (unsigned t = 0; t < n; ++t) {
    const ThreadState& th = s.th[t];
    uint64_t v =
        uint64_t(th.pc) << kVPc | uint64_t(th.kind) << kVKind | uint64_t(th.lost) << kVLost |
        uint64_t(th.sprs_saved | th.full_winkle << 1 | th.first << 2 | th.sibling_awake << 3)
            << kVFlags |
        uint64_t((s.word >> t) & 1) << kVBit |
        uint64_t((s.word >> (kWinkleBitsShift + t)) & 1) << kVWinkle |
        uint64_t((s.ghost.thread_regs_valid >> t) & 1) << kVRegs;
    if (th.seen == s.word) {
      v |= uint64_t{1} << kVEq;
    } else {
      v |= uint64_t{th.seen} << kVSeen;
      const uint32_t self = (1u << t) | (1u << (kWinkleBitsShift + t));
      cross = cross || (th.seen & pmask & ~self) != 0;
    }
    view[t] = v;
  }
  for (unsigned t = 0; t < n; ++t) perm[t] = static_cast<uint8_t>(t);
  uint8_t bperm[4] = {0, 1, 2, 3};
  if (sym_.enabled) {
    std::array<uint64_t, kMaxThreads> sig = view;
    if (cross) {
      // Other threads' bits in a raw seen depend on the numbering: leave them
      // out of the signature, count the references instead.
      for (unsigned t = 0; t < n; ++t) {
        if ((view[t] >> kVEq) & 1) continue;
        const uint32_t self = (1u << t) | (1u << (kWinkleBitsShift + t));
        sig[t] &= ~(uint64_t(pmask & ~self) << kVSeen);
        const uint32_t seen = static_cast<uint32_t>(view[t] >> kVSeen);
        for (unsigned k = 0; k < n; ++k) {
          if (k == t) continue;
          sig[k] += uint64_t((seen >> k) & 1) << kVRefs;
          sig[k] += uint64_t((seen >> (kWinkleBitsShift + k)) & 1) << (kVRefs + 4);
        }
      }
      // Own bits in a raw seen are about the thread itself: keep them, but at
      // a position independent of its number.
      for (unsigned t = 0; t < n; ++t) {
        if ((view[t] >> kVEq) & 1) continue;
        const uint32_t seen = static_cast<uint32_t>(view[t] >> kVSeen);
        sig[t] &= ~(uint64_t((1u << t) | (1u << (kWinkleBitsShift + t))) << kVSeen);
        sig[t] |= uint64_t((seen >> t) & 1) << (kVRefs + 8);
        sig[t] |= uint64_t((seen >> (kWinkleBitsShift + t)) & 1) << (kVRefs + 9);
      }
    }
    const unsigned bs = sym_.block_size;
    for (unsigned b = 0; b < sym_.blocks; ++b) {
      uint8_t* p = perm.data() + b * bs;
      // insertion sort by (sig, index): n <= 8
      for (unsigned i = 1; i < bs; ++i) {
        const uint8_t x = p[i];
        unsigned j = i;
        while (j > 0 && sig[p[j - 1]] > sig[x]) {
          p[j] = p[j - 1];
          --j;
        }
        p[j] = x;
      }
    }
    if (sym_.swap_blocks) {
      const auto less = [&](unsigned a, unsigned b) {
        const unsigned ra = (s.ghost.subcore_regs_valid >> a) & 1;
        const unsigned rb = (s.ghost.subcore_regs_valid >> b) & 1;
        if (ra != rb) return ra < rb;
        for (unsigned i = 0; i < bs; ++i) {
          const uint64_t x = sig[perm[a * bs + i]], y = sig[perm[b * bs + i]];
          if (x != y) return x < y;
        }
        return false;
      };
      for (unsigned i = 1; i < sym_.blocks; ++i) {
        const uint8_t x = bperm[i];
        unsigned j = i;
        while (j > 0 && less(x, bperm[j - 1])) {
          bperm[j] = bperm[j - 1];
          --j;
        }
        bperm[j] = x;
      }
      std::array<uint8_t, kMaxThreads> p2{};
      for (unsigned b = 0; b < sym_.blocks; ++b)
        for (unsigned i = 0; i < bs; ++i) p2[b * bs + i] = perm[bperm[b] * bs + i];
      perm = p2;
    }
  }
  // Globals.
  wide = WideKey{};
  uint64_t g = detail::winkle_count(s.word) | uint64_t((s.word & kLock) != 0) << 4 |
               uint64_t(s.ghost.tb_valid) << 5 | uint64_t(s.ghost.wa_applied) << 6 |
               uint64_t(s.ghost.core_regs_valid) << 7;
  uint32_t sub = s.ghost.subcore_regs_valid;
  if (sym_.swap_blocks) {
    sub = 0;
    for (unsigned b = 0; b < sym_.blocks; ++b)
      sub |= ((s.ghost.subcore_regs_valid >> bperm[b]) & 1u) << b;
  }
  g |= uint64_t(sub) << 8;
  wide.w[0] = g;
  for (unsigned j = 0; j < n; ++j) {
    uint64_t v = view[perm[j]];
    if (!((v >> kVEq) & 1) && sym_.enabled) {
      const uint32_t seen = permute_bits(static_cast<uint32_t>(v >> kVSeen), perm, n);
      v = (v & ((uint64_t{1} << kVSeen) - 1)) | uint64_t{seen} << kVSeen;
    }
    wide.w[1 + j] = v;
  }
  return true;
}

void Codec::decode(const Key& key, CoreState& s) const {
  s = CoreState{};
  const uint64_t g = key.w[0];
  uint32_t word = static_cast<uint32_t>(g & 0xf) << kWinkleCountShift;
  if ((g >> 4) & 1) word |= static_cast<uint32_t>(kLock);
  s.ghost.tb_valid = (g >> 5) & 1;
  s.ghost.wa_applied = (g >> 6) & 1;
  s.ghost.core_regs_valid = (g >> 7) & 1;
  s.ghost.subcore_regs_valid = static_cast<uint8_t>((g >> 8) & 0xf);
  s.ghost.thread_regs_valid = 0;
  const unsigned n = c_.threads;
  std::array<uint64_t, kMaxThreads> v{};
  for (unsigned j = 0; j < n; ++j) {
    const uint32_t id = static_cast<uint32_t>(get_bits(key, kGlobalBits + j * id_bits_, id_bits_));
    v[j] = views_[id];
    hint_view_[j] = v[j];
    hint_id_[j] = id;
    ThreadState& th = s.th[j];
    th.pc = static_cast<Pc>((v[j] >> kVPc) & 0x1f);
    th.kind = static_cast<Kind>((v[j] >> kVKind) & 7);
    th.lost = static_cast<Loss>((v[j] >> kVLost) & 3);
    const unsigned f = (v[j] >> kVFlags) & 0xf;
    th.sprs_saved = f & 1;
    th.full_winkle = (f >> 1) & 1;
    th.first = (f >> 2) & 1;
    th.sibling_awake = (f >> 3) & 1;
    word |= static_cast<uint32_t>((v[j] >> kVBit) & 1) << j;
    word |= static_cast<uint32_t>((v[j] >> kVWinkle) & 1) << (kWinkleBitsShift + j);
    s.ghost.thread_regs_valid |= static_cast<uint8_t>(((v[j] >> kVRegs) & 1) << j);
  }
  s.word = word;
  for (unsigned j = 0; j < n; ++j)
    s.th[j].seen = ((v[j] >> kVEq) & 1) ? word : static_cast<uint32_t>(v[j] >> kVSeen);
}

// --- moves -------------------------------------------------------------------------

namespace {
constexpr Kind kP8Kinds[] = {Kind::p8_nap, Kind::p8_sleep, Kind::p8_winkle};
constexpr Kind kP9Kinds[] = {Kind::p9_shallow, Kind::p9_deep, Kind::p9_tb_loss};
}  // namespace

uint8_t pack_move(const Config& c, const Move& m) {
  unsigned k = 0;
  if (m.kind == MoveKind::begin_idle) {
    const Kind* kinds = c.power9() ? kP9Kinds : kP8Kinds;
    for (unsigned i = 0; i < 3; ++i)
      if (kinds[i] == m.idle) k = i;
  }
  return static_cast<uint8_t>(static_cast<unsigned>(m.kind) | (m.thread & 7u) << 2 | k << 5);
}

Move unpack_move(const Config& c, uint8_t b) {
  // The shifts are hoisted out of the conditional on purpose: gcc 12 with
  // -fsanitize=shift miscompiles a shift inside one arm of ?: here (it warns
  // that its temporary "may be used uninitialized" and the asan build then
  // decoded every begin_idle as nap).
  const unsigned kind = b & 3u;
  const unsigned thread = (b >> 2) & 7u;
  const unsigned k = (b >> 5) & 3u;
  Move m;
  m.kind = static_cast<MoveKind>(kind);
  m.thread = static_cast<uint8_t>(thread);
  m.idle = Kind::none;
  if (m.kind == MoveKind::begin_idle && k < 3) m.idle = (c.power9() ? kP9Kinds : kP8Kinds)[k];
  return m;
}

}  // namespace idlespec::idle_core::mc
