#include "format/bloom/bloom_hash_set.h"

#include <algorithm>

namespace pq {
namespace {

constexpr size_t kInitialSlots = 1024;
// Hashes handed to the table at once by InsertMany: their slots are prefetched first.
constexpr int64_t kBatch = 64;

// The slot a hash starts probing from. BloomHash values are XXH64 outputs, already well mixed;
// the low bits are used (the filter uses the high 32 bits for its block, the low 32 for its bits,
// which does not matter here).
inline size_t HomeSlot(uint64_t hash, size_t mask) {
  return static_cast<size_t>(hash) & mask;
}

}  // namespace

BloomHashSet::BloomHashSet() : slots_(kInitialSlots, 0) {}

void BloomHashSet::Insert(uint64_t hash) {
  if (hash == 0) {
    has_zero_ = true;
    return;
  }
  const size_t mask = slots_.size() - 1;
  for (size_t i = HomeSlot(hash, mask);; i = (i + 1) & mask) {
    const uint64_t slot = slots_[i];
    if (slot == hash) return;
    if (slot == 0) {
      slots_[i] = hash;
      if (static_cast<uint64_t>(++size_) * 2 > slots_.size()) Grow();
      return;
    }
  }
}

void BloomHashSet::InsertMany(const uint64_t* hashes, int64_t n) {
  for (int64_t start = 0; start < n; start += kBatch) {
    const int64_t end = std::min(n, start + kBatch);
    const size_t mask = slots_.size() - 1;
    for (int64_t i = start; i < end; ++i) __builtin_prefetch(&slots_[HomeSlot(hashes[i], mask)]);
    for (int64_t i = start; i < end; ++i) Insert(hashes[i]);
  }
}

void BloomHashSet::Grow() {
  std::vector<uint64_t> bigger(slots_.size() * 2, 0);
  const size_t mask = bigger.size() - 1;
  for (uint64_t hash : slots_) {
    if (hash == 0) continue;
    size_t i = HomeSlot(hash, mask);
    while (bigger[i] != 0) i = (i + 1) & mask;
    bigger[i] = hash;
  }
  slots_.swap(bigger);
}

void BloomHashSet::AddTo(SplitBlockBloomFilter* filter) const {
  // In batches, so that the filter prefetches their blocks (a chunk's filter is about a megabyte).
  uint64_t batch[256];
  int64_t n = 0;
  for (uint64_t hash : slots_) {
    if (hash == 0) continue;
    batch[n++] = hash;
    if (n == 256) {
      filter->InsertMany(batch, n);
      n = 0;
    }
  }
  filter->InsertMany(batch, n);
  if (has_zero_) filter->Insert(0);
}

void BloomHashSet::Reset() {
  std::fill(slots_.begin(), slots_.end(), 0);
  size_ = 0;
  has_zero_ = false;
}

void BloomHashSet::Clear() {
  std::vector<uint64_t>(kInitialSlots, 0).swap(slots_);
  size_ = 0;
  has_zero_ = false;
}

}  // namespace pq
