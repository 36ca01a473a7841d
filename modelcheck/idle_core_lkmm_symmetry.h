// The weak exploration's symmetry reduction (modelcheck/idle_core_lkmm.h):
// a weak state's threads renumbered, and the representative of its orbit.
//
// The threads of a block (symmetry_for: the whole core, or each subcore; no
// block swaps here) are interchangeable in the weak state exactly as in the
// interleaving one: the step function treats thread t only through its bit
// 1 << t, and the LKMM machine treats every thread alike (a view per
// thread, knowledge bits per (location, thread, kind)). Renumbering a state
// renumbers its thread states, every per-thread bit of every value (the
// stored values of the state word, each `seen`, the ghost's per-thread
// register bits) and the machine's per-thread views and knowledge bits
// (lkmm::Machine::permute_threads). The representative: threads sorted
// within their block by a signature that does not depend on the numbering
// (program point, kind, flags, own bits, views, how much each thread
// knows); among threads that tie, every order is tried (up to kMaxTies
// candidates) and the smallest serialised state kept, which makes it the
// orbit's unique representative; beyond kMaxTies the sorted order is kept
// as it is: still a member of the orbit (sound), possibly not the unique
// one (more states). docs/model-check.md says why each clause's verdict is
// kept.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"
#include "modelcheck/idle_core_state_encoding.h"
#include "modelcheck/lkmm.h"

namespace idlespec::idle_core::mc {

using ThreadPerm = std::array<uint8_t, kMaxThreads>;

// Renumbers the threads: new thread j is old thread perm[j].
inline void permute_weak(const Config& c, const ThreadPerm& perm, CoreState& core,
                         lkmm::Machine& mem) {
  const unsigned n = c.threads;
  const CoreState old = core;
  uint8_t regs = static_cast<uint8_t>(old.ghost.thread_regs_valid & ~((1u << n) - 1));
  for (unsigned j = 0; j < n; ++j) {
    core.th[j] = old.th[perm[j]];
    core.th[j].seen = permute_bits(old.th[perm[j]].seen, perm, n);
    regs = static_cast<uint8_t>(regs | (((old.ghost.thread_regs_valid >> perm[j]) & 1u) << j));
  }
  core.ghost.thread_regs_valid = regs;
  core.word = permute_bits(old.word, perm, n);
  mem.permute_threads(perm, [&](unsigned, uint32_t v) { return permute_bits(v, perm, n); });
}

inline constexpr unsigned kMaxTies = 120;

// Makes (core, mem) its orbit's representative and writes its bytes to
// `buf` (bytes(core, mem, buf) serialises a state); perm[j] = the thread of
// the state as given that the representative's thread j is.
template <class Bytes>
void canonical_weak(const Config& c, const Symmetry& sym, CoreState& core, lkmm::Machine& mem,
                    ThreadPerm& perm, std::string& buf, Bytes&& bytes) {
  const unsigned n = c.threads;
  for (unsigned t = 0; t < kMaxThreads; ++t) perm[t] = static_cast<uint8_t>(t);
  if (!sym.enabled) {
    bytes(core, mem, buf);
    return;
  }
  // The signature: what a thread is, whatever its number.
  std::array<uint64_t, kMaxThreads> sig{};
  {
    std::string own;
    for (unsigned t = 0; t < n; ++t) {
      const ThreadState& th = core.th[t];
      const uint32_t self = (1u << t) | (1u << (kWinkleBitsShift + t));
      const uint32_t others_mask = static_cast<uint32_t>(((1u << n) - 1) * 0x101u) & ~self;
      uint64_t h = 0xcbf29ce484222325ull;
      const auto mix = [&](uint64_t v) { h = (h ^ v) * 0x100000001b3ull; };
      mix(static_cast<uint64_t>(th.pc) | uint64_t(th.kind) << 8 | uint64_t(th.lost) << 16 |
          uint64_t(th.sprs_saved | th.full_winkle << 1 | th.first << 2 | th.sibling_awake << 3)
              << 24);
      mix(((th.seen >> t) & 1u) | ((th.seen >> (kWinkleBitsShift + t)) & 1u) << 1 |
          uint64_t(th.seen & ~(others_mask | self)) << 2 |
          uint64_t(std::popcount(th.seen & others_mask)) << 40);
      mix((core.ghost.thread_regs_valid >> t) & 1u);
      mix(((core.word >> t) & 1u) | ((core.word >> (kWinkleBitsShift + t)) & 1u) << 1);
      own.clear();
      mem.thread_signature(t, own);
      for (const char ch : own) mix(static_cast<uint8_t>(ch));
      sig[t] = h;
    }
  }
  ThreadPerm order = perm;
  const unsigned bs = sym.block_size;
  // Tie groups: [begin, end) ranges of equal signatures within a block.
  std::vector<std::pair<unsigned, unsigned>> ties;
  uint64_t candidates = 1;
  for (unsigned b = 0; b < sym.blocks; ++b) {
    uint8_t* p = order.data() + b * bs;
    std::stable_sort(p, p + bs, [&](uint8_t x, uint8_t y) { return sig[x] < sig[y]; });
    for (unsigned i = 0; i < bs;) {
      unsigned j = i + 1;
      while (j < bs && sig[p[j]] == sig[p[i]]) ++j;
      if (j - i > 1) {
        ties.push_back({b * bs + i, b * bs + j});
        for (unsigned k = 2; k <= j - i && candidates <= kMaxTies; ++k) candidates *= k;
      }
      i = j;
    }
  }
  const CoreState core0 = core;
  const lkmm::Machine mem0 = mem;
  if (ties.empty() || candidates > kMaxTies) {
    perm = order;
    permute_weak(c, perm, core, mem);
    bytes(core, mem, buf);
    return;
  }
  // Every order of the tied threads; the smallest bytes win.
  std::string best, cand;
  CoreState cc;
  lkmm::Machine cm;
  for (auto& [b, e] : ties) std::sort(order.begin() + b, order.begin() + e);
  for (;;) {
    cc = core0;
    cm = mem0;
    permute_weak(c, order, cc, cm);
    bytes(cc, cm, cand);
    if (best.empty() || cand < best) {
      best = cand;
      perm = order;
      core = cc;
      mem = cm;
    }
    size_t g = 0;
    for (; g < ties.size(); ++g)
      if (std::next_permutation(order.begin() + ties[g].first, order.begin() + ties[g].second))
        break;
    if (g == ties.size()) break;
  }
  buf = best;
}

}  // namespace idlespec::idle_core::mc
