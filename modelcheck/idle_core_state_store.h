// The checker's visited set and BFS queue: encoded states
// (idle_core_state_encoding.h) in a chunked array in BFS order, each with
// its parent's index and the move from it (the queue is a cursor into it);
// the visited set is an open-addressing table of 32-bit indices into that
// array. No heap allocation per state.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "modelcheck/idle_core_state_encoding.h"

namespace idlespec::idle_core::mc {

// The visited set and the BFS queue: keys in insertion order, with parents.
// The table holds 32-bit indices into the key chunks and, in a parallel byte
// array, 8 bits of each key's hash, so that a probe rarely touches a key that
// does not match.
class StateStore {
 public:
  StateStore();
  ~StateStore();
  StateStore(const StateStore&) = delete;
  StateStore& operator=(const StateStore&) = delete;
  static constexpr uint32_t kNone = UINT32_MAX;
  static uint64_t hash(const Key& k);
  // Hints that key (with this hash) will be looked up soon.
  void prefetch(uint64_t h) const {
    __builtin_prefetch(&table_[h & table_mask_]);
    __builtin_prefetch(&tags_[h & table_mask_]);
  }
  // Whether key (with this hash) is stored.
  bool contains(const Key& key, uint64_t h) const;
  // The index of key; inserted tells whether it is new.
  uint32_t insert(const Key& key, uint64_t h, uint32_t parent, uint8_t move, bool& inserted);
  uint32_t insert(const Key& key, uint32_t parent, uint8_t move, bool& inserted) {
    return insert(key, hash(key), parent, move, inserted);
  }
  const Key& key(uint32_t i) const { return keys_[i >> kChunkBits][i & kChunkMask]; }
  uint32_t parent(uint32_t i) const { return parents_[i >> kChunkBits][i & kChunkMask]; }
  uint8_t move(uint32_t i) const { return moves_[i >> kChunkBits][i & kChunkMask]; }
  uint64_t size() const { return size_; }
  uint64_t memory_bytes() const;

 private:
  static constexpr unsigned kChunkBits = 20;
  static constexpr uint32_t kChunkMask = (1u << kChunkBits) - 1;
  void grow();
  std::vector<std::unique_ptr<Key[]>> keys_;
  std::vector<std::unique_ptr<uint32_t[]>> parents_;
  std::vector<std::unique_ptr<uint8_t[]>> moves_;
  uint32_t* table_ = nullptr;  // index+1, 0 = empty
  uint8_t* tags_ = nullptr;    // hash bits 56..63 of the key at the same slot
  uint64_t table_mask_ = 0;
  uint64_t size_ = 0;
};

}  // namespace idlespec::idle_core::mc
