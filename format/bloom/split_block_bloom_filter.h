// SplitBlockBloomFilter: the Parquet Bloom filter of one column chunk (the Parquet spec, "Bloom
// Filter": split block Bloom filters, the only representation the format defines). A value is
// hashed once with XXH64 (seed 0) over its PLAIN encoding; Check() answers "definitely absent"
// (false) or "maybe present" (true), with no false negatives. The writer sizes a filter with the
// fewest blocks that meet the false positive probability asked for; the reader accepts any whole
// number of blocks up to kMaxBytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq {

// A filter is z blocks of 256 bits, each block eight 32-bit words. A value is hashed once with
// XXH64 (seed 0) over its PLAIN encoding (see BloomHash below); the upper 32 bits of the hash pick
// the block, (h >> 32) * z >> 32, and the lower 32 bits set one bit in each of the block's eight
// words, the bit (x * SALT[i]) >> 27 of word i. Check() answers "definitely absent" (false) or
// "maybe present" (true); there are no false negatives.
//
// In a file a filter is stored as a Thrift BloomFilterHeader (numBytes, BLOCK, XXHASH,
// UNCOMPRESSED) followed by numBytes of bitset: the words in block order, each little endian. Any
// number z >= 1 of blocks is a valid filter (the spec's "Bloom Filter" section; the block index is
// a multiply-shift, not a mask). The writer sizes filters with OptimalNumBytes, the fewest blocks
// that meet the false positive probability asked for; the reader's Read accepts any whole number
// of blocks up to 128 MiB.
//
// Equality of floating point values is the equality of their bits here: -0.0 and +0.0 hash
// differently (so do NaNs with different payloads). A reader probing for a zero must probe both.
class SplitBlockBloomFilter {
 public:
  static constexpr int64_t kBytesPerBlock = 32;
  static constexpr int64_t kMinBytes = kBytesPerBlock;
  static constexpr int64_t kMaxBytes = int64_t{128} << 20;

  // Bitset bytes for `ndv` distinct values at false positive probability `fpp`: the fewest whole
  // blocks whose expected false positive probability (FalsePositiveProbability) is at most `fpp`,
  // clamped to [kMinBytes, max_bytes]. `max_bytes` is itself clamped to [kMinBytes, kMaxBytes] and
  // rounded down to whole blocks. An fpp outside (0, 1) is taken as 0.01.
  static int64_t OptimalNumBytes(int64_t ndv, double fpp, int64_t max_bytes = kMaxBytes);
  // The probability that a value never inserted passes Check, in a filter of `num_blocks` blocks
  // holding `ndv` distinct values: the block's load is Poisson with mean ndv / num_blocks, and a
  // block that took j values has each of the 8 bits a probe tests set with probability
  // 1 - (31/32)^j. This model gives the spec's table ("Sizing an SBBF": 10 bits per value, 1.26%).
  static double FalsePositiveProbability(int64_t ndv, int64_t num_blocks);

  // An empty filter of `num_bytes` rounded up to whole blocks and clamped to [kMinBytes,
  // kMaxBytes].
  explicit SplitBlockBloomFilter(int64_t num_bytes);

  // Parses a stored filter: the header then the bitset, from the start of `data` (which may run on
  // past the filter). *consumed (when not null) gets the header plus bitset size.
  // Corruption for a header that does not parse, a numBytes that is not a positive multiple of 32
  // or runs past `data`; NotSupported for an algorithm, hash or compression other than BLOCK,
  // XXHASH, UNCOMPRESSED, or numBytes over `max_bytes`. Allocates at most numBytes, which is never
  // more than data.size().
  static Result<SplitBlockBloomFilter> Read(ByteSpan data, size_t* consumed = nullptr,
                                            int64_t max_bytes = kMaxBytes);
  // The same for a header the caller parsed already and the bytes that follow it; `bitset` must
  // hold at least header.num_bytes bytes (only those are used).
  static Result<SplitBlockBloomFilter> FromHeader(const BloomFilterHeader& header, ByteSpan bitset,
                                                  int64_t max_bytes = kMaxBytes);

  void Insert(uint64_t hash);
  // Insert for each hash; the blocks of a batch are prefetched first, so that the cache misses of
  // a filter larger than the cache overlap.
  void InsertMany(const uint64_t* hashes, int64_t n);
  // False only when no value with this hash was inserted.
  bool Check(uint64_t hash) const;

  int64_t num_bytes() const { return static_cast<int64_t>(words_.size()) * 4; }
  int64_t num_blocks() const { return static_cast<int64_t>(words_.size()) / 8; }
  // The bitset as stored (little-endian words).
  ByteSpan bitset() const {
    return ByteSpan(reinterpret_cast<const uint8_t*>(words_.data()), words_.size() * 4);
  }
  // The BloomFilterHeader this filter is stored with.
  BloomFilterHeader header() const;
  // Appends the Thrift header then the bitset to *out.
  void Serialize(std::string* out) const;

 private:
  SplitBlockBloomFilter() = default;
  std::vector<uint32_t> words_;  // num_blocks * 8
};

// XXH64 with seed 0 of a value's PLAIN encoding, the hash Bloom filters use: little-endian bytes
// of INT32, INT64, INT96, FLOAT, DOUBLE; for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY the value's bytes
// alone (no length prefix). BOOLEAN columns have no Bloom filters.
uint64_t BloomHash(ByteSpan bytes);
uint64_t BloomHash(int32_t v);
uint64_t BloomHash(int64_t v);
uint64_t BloomHash(const Int96& v);
uint64_t BloomHash(float v);
uint64_t BloomHash(double v);
uint64_t BloomHash(const ByteArray& v);

}  // namespace pq
