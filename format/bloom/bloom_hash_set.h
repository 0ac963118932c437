// BloomHashSet: the distinct Bloom hashes (BloomHash, split_block_bloom_filter.h) of one column
// chunk, gathered while its values are written, so that the chunk's filter can be sized for its
// exact distinct count and then filled (column_writer.h). An open-addressing table of 64-bit hashes
// (linear probing, at most half full, doubling as it fills): memory is about 16 bytes per distinct
// hash, whatever the number of values, and adding a value costs one probe. InsertMany hashes a
// batch first and prefetches its slots, so the probes of a chunk whose hashes do not fit in the
// cache overlap instead of waiting one after another.
#pragma once

#include <cstdint>
#include <vector>

#include "format/bloom/split_block_bloom_filter.h"

namespace pq {

class BloomHashSet {
 public:
  BloomHashSet();

  void Insert(uint64_t hash);
  void InsertMany(const uint64_t* hashes, int64_t n);
  // Distinct hashes so far.
  int64_t size() const { return size_ + (has_zero_ ? 1 : 0); }
  bool empty() const { return size() == 0; }
  // Inserts every hash of the set into `filter`.
  void AddTo(SplitBlockBloomFilter* filter) const;
  // Empties the set and gives back its memory.
  void Clear();
  // Empties the set but keeps its table (zeroed), for the next chunk of a column: a chunk of as
  // many distinct values then neither grows the table again nor faults its pages in anew.
  void Reset();

 private:
  void Grow();

  std::vector<uint64_t> slots_;  // 0: empty (the hash 0 is kept apart in has_zero_)
  int64_t size_ = 0;             // non-zero hashes in slots_
  bool has_zero_ = false;
};

}  // namespace pq
