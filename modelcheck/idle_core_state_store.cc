// The checker's visited set and BFS queue (idle_core_state_store.h).
#include "modelcheck/idle_core_state_store.h"

#include <cstdlib>
#include <new>
#include <stdexcept>

namespace idlespec::idle_core::mc {

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

}  // namespace idlespec::idle_core::mc
