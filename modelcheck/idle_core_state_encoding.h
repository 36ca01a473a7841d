// How the checker encodes a state: the symmetry's representative packed
// into a fixed-width key (and spelled out wide, for the distributed search),
// and a move packed into a byte.
//
// A state is packed into a 16-byte key: 12 bits of core-wide fields (winkle
// count, lock, timebase / workaround / per-core / per-subcore register
// validity) and one dictionary index per thread (14 bits at SMT8, up to 32
// below). The dictionary interns a thread's *local view*: program point,
// kind, loss, flags, its own thread and winkle bit of the word, its
// per-thread register validity and `seen` (stored as "equal to the word", or
// raw). Few local views are reachable (hundreds), so the key stays
// fixed-width (the store, idle_core_state_store.h, keeps the keys).
//
// Symmetry. Threads of a block are interchangeable: the whole core is one
// block; in split-core mode each subcore is one and whole subcores are
// interchangeable too (the wreath product S_k wr S_m). A witness whose
// core_thread_mask is not the core's splits blocks further by the mask and
// forbids block swaps. The representative sorts threads by their local view
// within blocks (then blocks by their subcore register bit and sorted views),
// which permutes the thread and winkle bits of the word, of every `seen`, and
// the ghost's per-thread and per-subcore bitmasks along. When some thread's
// `seen` differs from the word in per-thread bits (POWER9's lock-free races,
// the ClearOutsideLock witness), views that tie are ordered by how many such
// `seen`s reference them: still a member of the orbit (sound), possibly not
// the unique one (a few more states). Judges are symmetric; counterexamples
// are replayed on concrete states, un-permuting each move.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"

namespace idlespec::idle_core::mc {

struct Key {
  uint64_t w[2] = {0, 0};
  friend bool operator==(const Key&, const Key&) = default;
};

// Which threads are interchangeable.
struct Symmetry {
  bool enabled = false;
  unsigned blocks = 1;  // contiguous blocks of block_size threads
  unsigned block_size = 1;
  bool swap_blocks = false;  // whole blocks interchangeable (their subcore register bit too)
};
Symmetry symmetry_for(const Config& c, uint64_t subject_mask, bool on);

// Per-thread bits (thread bits and winkle bits) of a word, permuted: new bit
// j = old bit perm[j] (of n threads); the other bits as they were.
uint32_t permute_bits(uint32_t x, const std::array<uint8_t, kMaxThreads>& perm, unsigned n);

// A state's representative spelled out, the same in every process: the
// core-wide fields, then each thread's local view in the representative's
// order (what a key holds dictionary indices of). The distributed search
// sends these.
struct WideKey {
  uint64_t w[1 + kMaxThreads] = {};
  friend bool operator==(const WideKey&, const WideKey&) = default;
};

// Packs states into keys, canonical under the symmetry.
class Codec {
 public:
  Codec(const Config& c, const Symmetry& sym);
  // The representative's key; perm[new] = the thread of s it came from.
  // False if the state cannot be packed (stray word bits, dictionary full).
  bool encode(const CoreState& s, Key& key, std::array<uint8_t, kMaxThreads>& perm);
  // encode() in two halves: the representative spelled out, and its key in
  // this codec's dictionary.
  bool canonical(const CoreState& s, WideKey& wide, std::array<uint8_t, kMaxThreads>& perm);
  bool intern_wide(const WideKey& wide, Key& key);
  void decode(const Key& key, CoreState& s) const;
  size_t local_views() const { return views_.size(); }
  const std::string& error() const { return error_; }

 private:
  uint32_t intern(uint64_t view);
  Config c_;
  Symmetry sym_;
  unsigned id_bits_;
  std::vector<uint64_t> views_;  // id -> view
  // The views of the state decoded last, and their ids: most of a
  // successor's views are among them.
  mutable std::array<uint64_t, kMaxThreads> hint_view_{};
  mutable std::array<uint32_t, kMaxThreads> hint_id_{};
  std::vector<uint64_t> slots_;  // open addressing: view+1, 0 = empty
  std::vector<uint32_t> slot_ids_;
  std::string error_;
};

// The 64-bit finaliser the dictionary and the store hash with, and a key's
// hash.
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

// A move in one byte: kind (2 bits), thread (3), the begin_idle kind's index
// among the platform's three (2).
uint8_t pack_move(const Config& c, const Move& m);
Move unpack_move(const Config& c, uint8_t b);

}  // namespace idlespec::idle_core::mc
