#include "modelcheck/idle_core_checker.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>

#include "impl/text.h"

namespace idlespec::idle_core::mc {

namespace {

inline uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

inline uint64_t hash_key(const Key& k) {
  return fmix64(k.w[0] ^ fmix64(k.w[1] + 0x9E3779B97F4A7C15ULL));
}

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

}  // namespace

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

// --- the store ---------------------------------------------------------------------

uint64_t StateStore::hash(const Key& k) { return hash_key(k); }

StateStore::StateStore() {
  table_mask_ = (uint64_t{1} << 16) - 1;
  table_ = static_cast<uint32_t*>(std::calloc(table_mask_ + 1, sizeof(uint32_t)));
  tags_ = static_cast<uint8_t*>(std::calloc(table_mask_ + 1, 1));
  if (!table_ || !tags_) throw std::bad_alloc();
}

StateStore::~StateStore() {
  std::free(table_);
  std::free(tags_);
}

void StateStore::grow() {
  const uint64_t slots = (table_mask_ + 1) * 2;
  std::free(table_);
  std::free(tags_);
  table_ = static_cast<uint32_t*>(std::calloc(slots, sizeof(uint32_t)));
  tags_ = static_cast<uint8_t*>(std::calloc(slots, 1));
  if (!table_ || !tags_) throw std::bad_alloc();
  table_mask_ = slots - 1;
  for (uint64_t idx = 0; idx < size_; ++idx) {
    const uint64_t h = hash_key(key(static_cast<uint32_t>(idx)));
    uint64_t i = h & table_mask_;
    while (table_[i]) i = (i + 1) & table_mask_;
    table_[i] = static_cast<uint32_t>(idx + 1);
    tags_[i] = static_cast<uint8_t>(h >> 56);
  }
}

bool StateStore::contains(const Key& k, uint64_t h) const {
  const uint8_t tag = static_cast<uint8_t>(h >> 56);
  for (uint64_t i = h & table_mask_; const uint32_t e = table_[i]; i = (i + 1) & table_mask_) {
    if (tags_[i] == tag && key(e - 1) == k) return true;
  }
  return false;
}

uint32_t StateStore::insert(const Key& k, uint64_t h, uint32_t parent, uint8_t move,
                            bool& inserted) {
  if ((size_ + 1) * 4 > (table_mask_ + 1) * 3) {
    grow();
  }
  const uint8_t tag = static_cast<uint8_t>(h >> 56);
  uint64_t i = h & table_mask_;
  while (const uint32_t e = table_[i]) {
    if (tags_[i] == tag && key(e - 1) == k) {
      inserted = false;
      return e - 1;
    }
    i = (i + 1) & table_mask_;
  }
  if (size_ >= UINT32_MAX - 1) throw std::length_error("more than 2^32 states");
  const uint32_t idx = static_cast<uint32_t>(size_);
  if ((idx >> kChunkBits) == keys_.size()) {
    keys_.emplace_back(new Key[size_t{1} << kChunkBits]);
    parents_.emplace_back(new uint32_t[size_t{1} << kChunkBits]);
    moves_.emplace_back(new uint8_t[size_t{1} << kChunkBits]);
  }
  keys_[idx >> kChunkBits][idx & kChunkMask] = k;
  parents_[idx >> kChunkBits][idx & kChunkMask] = parent;
  moves_[idx >> kChunkBits][idx & kChunkMask] = move;
  table_[i] = idx + 1;
  tags_[i] = tag;
  ++size_;
  inserted = true;
  return idx;
}

uint64_t StateStore::memory_bytes() const {
  return keys_.size() * (size_t{1} << kChunkBits) * (sizeof(Key) + sizeof(uint32_t) + 1) +
         (table_mask_ + 1) * (sizeof(uint32_t) + 1);
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

// --- the timeline ------------------------------------------------------------------

namespace {

std::string ghost_changes(const Config& c, const Ghost& a, const Ghost& b) {
  std::string out;
  const auto add = [&](const std::string& s) {
    if (!out.empty()) out += ", ";
    out += s;
  };
  if (a.tb_valid != b.tb_valid) add(b.tb_valid ? "timebase resynced" : "TIMEBASE LOST");
  if (a.wa_applied != b.wa_applied) add(b.wa_applied ? "workaround on" : "workaround off");
  if (a.core_regs_valid != b.core_regs_valid)
    add(b.core_regs_valid ? "core regs restored" : "CORE REGS LOST");
  for (unsigned k = 0; k < c.subcores; ++k) {
    const bool x = (a.subcore_regs_valid >> k) & 1, y = (b.subcore_regs_valid >> k) & 1;
    if (x != y) add(strprintf(y ? "subcore %u regs restored" : "SUBCORE %u REGS LOST", k));
  }
  const uint8_t lost = a.thread_regs_valid & ~b.thread_regs_valid;
  const uint8_t got = b.thread_regs_valid & ~a.thread_regs_valid;
  if (lost == static_cast<uint8_t>(c.core_thread_mask())) {
    add("THREAD REGS LOST");
  } else {
    for (unsigned t = 0; t < c.threads; ++t)
      if ((lost >> t) & 1) add(strprintf("T%u REGS LOST", t));
  }
  for (unsigned t = 0; t < c.threads; ++t)
    if ((got >> t) & 1) add(strprintf("t%u regs restored", t));
  return out;
}

std::string cell_text(const TraceRow& r) {
  const std::string kind(kind_name(r.kind));
  switch (r.move.kind) {
    case MoveKind::begin_idle:
      return "begin " + std::string(kind_name(r.move.idle)) + " -> " +
             std::string(pc_name(r.pc_after));
    case MoveKind::wake: {
      std::string s = "WAKE";
      if (r.pc_before == Pc::hw_idle) {
        // what it lost is what the pc it went to says
        if (r.pc_after == Pc::loss_lock) s += " (state lost)";
      }
      if (r.result.returned) return s + " => running";
      return s + " -> " + std::string(pc_name(r.pc_after));
    }
    case MoveKind::step: {
      std::string s(pc_name(r.pc_before));
      if (r.result.event == Event::spin) return s + " (spin)";
      if (r.result.event == Event::bug) return s + " !BUG";
      if (r.result.returned) return s + " => running";
      return s + " -> " + std::string(pc_name(r.pc_after));
    }
    case MoveKind::core_loss:
      break;
  }
  return "";
}

std::string pad(const std::string& s, size_t w) {
  if (s.size() >= w) return s.substr(0, w);
  return s + std::string(w - s.size(), ' ');
}

}  // namespace

std::string render_timeline(const Config& c, const std::vector<TraceRow>& rows,
                            const CoreState& final_state, const std::string& headline,
                            unsigned max_rows) {
  std::string out = headline + "\n";
  out += strprintf("  %zu moves from the initial state (all threads running, word %s)\n",
                   rows.size(), describe_word(c, initial_state(c).word).c_str());
  size_t w = 10;
  for (const TraceRow& r : rows) w = std::max(w, cell_text(r).size());
  w = std::min<size_t>(w, 40);
  std::string head = "  step ";
  for (unsigned t = 0; t < c.threads; ++t) head += "| " + pad(strprintf("t%u", t), w) + " ";
  head += "| word after";
  out += head + "\n";
  Ghost prev = initial_state(c).ghost;
  size_t skip_from = rows.size(), skip_to = rows.size();
  if (max_rows && rows.size() > max_rows) {
    skip_from = max_rows / 2;
    skip_to = rows.size() - max_rows / 2;
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    const TraceRow& r = rows[i];
    if (i >= skip_from && i < skip_to) {
      if (i == skip_from) out += strprintf("  ... %zu moves left out ...\n", skip_to - skip_from);
      prev = r.ghost_after;
      continue;
    }
    std::string line = strprintf("  %4zu ", i + 1);
    if (r.move.kind == MoveKind::core_loss) {
      const std::string what =
          r.loss == Loss::full ? "== CORE LOSES STATE (full winkle: timebase, registers) =="
          : r.loss == Loss::partial && !c.power9() ? "== CORE LOSES STATE (fastsleep: timebase) =="
          : r.loss == Loss::partial                ? "== CORE LOSES STATE (deep stop: registers) =="
                                                   : "== CORE LOSES STATE ==";
      line += "| " + pad(what, (w + 3) * c.threads - 2) + " ";
    } else {
      for (unsigned t = 0; t < c.threads; ++t) {
        line += "| " + pad(t == r.move.thread ? cell_text(r) : std::string(), w) + " ";
      }
    }
    line += "| " + describe_word(c, r.word_after);
    const std::string g = ghost_changes(c, prev, r.ghost_after);
    if (!g.empty()) line += "; " + g;
    if (!r.note.empty()) line += "   " + r.note;
    prev = r.ghost_after;
    out += line + "\n";
  }
  out += "  state at the end: " + describe_state(c, final_state);
  return out;
}

// --- liveness ----------------------------------------------------------------------
//
// IDLE-8 under strong fairness, on the unreduced state graph (the quotient
// under symmetry permutes thread numbers along its edges, so "thread t stays
// on its wake path" and the per-thread fairness labels are not well defined
// on it without recording the permutation per edge).
//
// Labels: an edge is labelled by its move (thread, kind: begin_idle with the
// idle kind, step, wake, core loss) and, for a step, whether it spun (a
// test-and-set that found the lock held, a cmpxchg that found the word
// changed). A successful test-and-set and a failing one are different
// transitions: strong fairness about the successful one is what rules out a
// thread spinning forever while the lock is free infinitely often. By default
// only thread steps are subject to fairness (the hardware may keep a thread
// running or idle forever, and the core need not ever lose state); with
// fair_environment every move is.
//
// For each thread t: restrict the graph to the states in which t is on its
// wake path. A fair run in which t never returns stays in that set from some
// point on, hence inside one SCC C of it, and visits infinitely often a set
// of states in which every label enabled infinitely often is taken. The
// standard Streett refinement (Emerson-Lei; as in SPIN's and LTSmin's strong
// fairness checks): compute the SCCs; in an SCC C (with at least one edge),
// let E = the fair labels enabled at some state of C, T = those taken by an
// edge inside C. If E == T (the oracle's breaks_idle8: the IDLE-8 judgement
// of a cycle, which validate's harness makes too), C itself carries a fair cycle (go round C taking
// every label in T): a violation. Otherwise any label in E \ T is never taken
// inside C, so a fair run staying in C visits the states enabling it only
// finitely often: remove them and recompute the SCCs of the rest. Each round
// removes at least one state, so it terminates; a violation is reported with
// the BFS path to C and a cycle through C that takes every label of T.

using oracle::Obligations;

bool analyse_liveness(const Config& c, const Graph& g, bool fair_environment, Lasso& out,
                      uint64_t* sccs_examined) {
  const uint32_t N = static_cast<uint32_t>(g.waking.size());
  if (g.offsets.size() < size_t{N} + 1) return false;
  constexpr uint32_t kUnvisited = UINT32_MAX;
  std::vector<uint32_t> member(N, 0), idx(N, kUnvisited), low(N, 0);
  std::vector<uint8_t> onstk(N, 0);
  uint32_t next_set = 1;
  uint64_t examined = 0;
  const auto fair = [&](uint8_t lab) {
    return fair_environment || static_cast<MoveKind>(lab & 3) == MoveKind::step;
  };
  struct Frame {
    uint32_t v;
    uint64_t e;
  };
  std::vector<Frame> frames;
  std::vector<uint32_t> stk;
  for (unsigned t = 0; t < c.threads; ++t) {
    std::vector<std::vector<uint32_t>> work(1);
    for (uint32_t v = 0; v < N; ++v)
      if ((g.waking[v] >> t) & 1) work[0].push_back(v);
    while (!work.empty()) {
      std::vector<uint32_t> X = std::move(work.back());
      work.pop_back();
      if (X.empty()) continue;
      const uint32_t id = next_set++;
      for (uint32_t v : X) {
        member[v] = id;
        idx[v] = kUnvisited;
        onstk[v] = 0;
      }
      // Tarjan, iterative, on the subgraph induced by X.
      std::vector<std::vector<uint32_t>> sccs;
      uint32_t counter = 0;
      for (uint32_t root : X) {
        if (idx[root] != kUnvisited) continue;
        idx[root] = low[root] = counter++;
        stk.push_back(root);
        onstk[root] = 1;
        frames.push_back({root, g.offsets[root]});
        while (!frames.empty()) {
          const uint32_t v = frames.back().v;
          if (frames.back().e < g.offsets[v + 1]) {
            const uint32_t w = g.targets[frames.back().e++];
            if (member[w] != id) continue;
            if (idx[w] == kUnvisited) {
              idx[w] = low[w] = counter++;
              stk.push_back(w);
              onstk[w] = 1;
              frames.push_back({w, g.offsets[w]});
            } else if (onstk[w]) {
              low[v] = std::min(low[v], idx[w]);
            }
          } else {
            if (low[v] == idx[v]) {
              std::vector<uint32_t> scc;
              uint32_t w;
              do {
                w = stk.back();
                stk.pop_back();
                onstk[w] = 0;
                scc.push_back(w);
              } while (w != v);
              sccs.push_back(std::move(scc));
            }
            frames.pop_back();
            if (!frames.empty()) {
              const uint32_t u = frames.back().v;
              low[u] = std::min(low[u], low[v]);
            }
          }
        }
      }
      for (auto& C : sccs) {
        const uint32_t cid = next_set++;
        for (uint32_t v : C) member[v] = cid;
        Obligations E, T;
        bool internal = false;
        for (uint32_t v : C) {
          for (uint64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
            const bool in = member[g.targets[e]] == cid;
            internal = internal || in;
            if (!fair(g.labels[e])) continue;
            E.set(g.labels[e]);
            if (in) T.set(g.labels[e]);
          }
        }
        if (!internal) continue;
        ++examined;
        const Obligations bad = oracle::unmet(E, T);
        if (oracle::breaks_idle8(E, T, 1u << t)) {  // t is on its wake path throughout C
          // A fair SCC: build the lasso.
          out.thread = t;
          out.scc_size = C.size();
          out.entry = *std::min_element(C.begin(), C.end());
          out.cycle.clear();
          // BFS inside C from `from` to the first edge satisfying `want`;
          // returns its (label, target) edges.
          std::vector<uint32_t> stamp(N, 0);
          uint32_t stamp_id = 0;
          const auto walk = [&](uint32_t from, auto want) {
            ++stamp_id;
            std::vector<uint32_t> order{from};
            std::vector<uint64_t> via{UINT64_MAX};
            std::vector<uint32_t> up{UINT32_MAX};
            stamp[from] = stamp_id;
            uint32_t found_pos = UINT32_MAX;
            uint64_t found_edge = 0;
            for (size_t qi = 0; qi < order.size() && found_pos == UINT32_MAX; ++qi) {
              const uint32_t v = order[qi];
              for (uint64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
                const uint32_t w = g.targets[e];
                if (member[w] != cid) continue;
                if (want(e)) {
                  found_pos = static_cast<uint32_t>(qi);
                  found_edge = e;
                  break;
                }
                if (stamp[w] != stamp_id) {
                  stamp[w] = stamp_id;
                  order.push_back(w);
                  via.push_back(e);
                  up.push_back(static_cast<uint32_t>(qi));
                }
              }
            }
            std::vector<std::pair<uint8_t, uint32_t>> path;
            if (found_pos == UINT32_MAX) return path;
            path.push_back({g.labels[found_edge], g.targets[found_edge]});
            for (uint32_t p = found_pos; p != 0; p = up[p])
              path.push_back({g.labels[via[p]], order[p]});
            std::reverse(path.begin(), path.end());
            return path;
          };
          uint32_t cur = out.entry;
          for (unsigned lab = 0; lab < 256; ++lab) {
            if (!T.test(lab)) continue;
            const auto p = walk(cur, [&](uint64_t e) { return g.labels[e] == lab; });
            for (const auto& x : p) out.cycle.push_back(x);
            if (!p.empty()) cur = p.back().second;
          }
          if (cur != out.entry || out.cycle.empty()) {
            const uint32_t target = out.entry;
            const auto p = walk(cur, [&](uint64_t e) { return g.targets[e] == target; });
            for (const auto& x : p) out.cycle.push_back(x);
          }
          if (sccs_examined) *sccs_examined = examined;
          return true;
        }
        std::vector<uint32_t> rest;
        for (uint32_t v : C) {
          bool enables_bad = false;
          for (uint64_t e = g.offsets[v]; e < g.offsets[v + 1] && !enables_bad; ++e)
            enables_bad = bad.test(g.labels[e]);
          if (!enables_bad) rest.push_back(v);
        }
        if (!rest.empty() && rest.size() < C.size()) work.push_back(std::move(rest));
      }
    }
  }
  if (sccs_examined) *sccs_examined = examined;
  return false;
}

// --- misc --------------------------------------------------------------------------

long peak_rss_kb() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

std::string human_count(double n) {
  if (n >= 1e9) return strprintf("%.2fG", n / 1e9);
  if (n >= 1e6) return strprintf("%.2fM", n / 1e6);
  if (n >= 1e4) return strprintf("%.1fk", n / 1e3);
  return strprintf("%.0f", n);
}

}  // namespace idlespec::idle_core::mc
