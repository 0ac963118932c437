// ChunkCache: what pruning and lookups have already read from one open file (FileReader), kept up
// to a byte budget.
#pragma once

#include <concepts>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/encoding/values.h"
#include "format/metadata/metadata.h"

namespace pq {

// A decompressed dictionary page: what the dictionary pruning layer needs to test its entries.
struct CachedDictionary {
  BufferPtr owner;        // these two keep `body` alive (as Page::owner and Page::owner2)
  BufferPtr owner2;
  ByteSpan body;          // the PLAIN-encoded entries
  int64_t num_values = 0;
};

// What pruning and lookups have already read from one file, up to a byte budget: decompressed
// dictionary pages and Bloom filters by (row group, leaf column), parsed page indexes by their file
// offset. A join that scans the same file once per outer row, or a query run again, reads and
// decompresses each of them once, not once per scan. Thread-safe; entries are immutable once
// stored, and entries past the budget are simply not kept.
template <typename T, typename Key = std::pair<int, int>>
class ChunkCache {
 public:
  explicit ChunkCache(int64_t budget_bytes) : budget_(budget_bytes) {}
  std::shared_ptr<const T> Find(const Key& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second;
  }
  std::shared_ptr<const T> Find(int row_group, int leaf) const
    requires std::same_as<Key, std::pair<int, int>>
  {
    return Find(Key{row_group, leaf});
  }
  // Keeps `entry` (which holds `bytes` bytes) when it fits in what is left of the budget.
  void Store(const Key& key, std::shared_ptr<const T> entry, int64_t bytes) {
    if (entry == nullptr) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (bytes > budget_ - used_) return;
    if (entries_.emplace(key, std::move(entry)).second) used_ += bytes;
  }
  void Store(int row_group, int leaf, std::shared_ptr<const T> entry, int64_t bytes)
    requires std::same_as<Key, std::pair<int, int>>
  {
    Store(Key{row_group, leaf}, std::move(entry), bytes);
  }

 private:
  mutable std::mutex mu_;
  int64_t budget_;
  int64_t used_ = 0;
  std::map<Key, std::shared_ptr<const T>> entries_;
};
using DictionaryCache = ChunkCache<CachedDictionary>;
using BloomFilterCache = ChunkCache<SplitBlockBloomFilter>;
// Keyed by (offset, length) of the stored index.
using OffsetIndexCache = ChunkCache<OffsetIndex, std::pair<int64_t, int64_t>>;
using ColumnIndexCache = ChunkCache<ColumnIndex, std::pair<int64_t, int64_t>>;

}  // namespace pq
