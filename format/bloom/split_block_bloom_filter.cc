#include "format/bloom/split_block_bloom_filter.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "format/metadata/metadata_io.h"

namespace pq {
namespace {

// file-format.txt, "Bloom Filter": the eight odd constants of the block mask.
constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

int64_t PowerOfTwoAtLeast(int64_t n) {
  return static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(std::max<int64_t>(n, 1))));
}

int64_t ClampBytes(int64_t n) {
  return std::clamp(PowerOfTwoAtLeast(n), SplitBlockBloomFilter::kMinBytes,
                    SplitBlockBloomFilter::kMaxBytes);
}

// Index of the block a hash selects: the upper 32 bits scaled to [0, num_blocks).
inline size_t BlockIndex(uint64_t hash, uint64_t num_blocks) {
  return static_cast<size_t>(((hash >> 32) * num_blocks) >> 32);
}

}  // namespace

int64_t SplitBlockBloomFilter::OptimalNumBytes(int64_t ndv, double fpp, int64_t max_bytes) {
  if (!(fpp > 0.0 && fpp < 1.0)) fpp = 0.01;
  max_bytes = std::clamp(max_bytes, kMinBytes, kMaxBytes);
  max_bytes = static_cast<int64_t>(std::bit_floor(static_cast<uint64_t>(max_bytes)));
  if (ndv <= 0) return kMinBytes;
  const double bits_per_value = -8.0 / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  const double bytes = bits_per_value * static_cast<double>(ndv) / 8.0;
  if (!(bytes < static_cast<double>(max_bytes))) return max_bytes;
  return std::min(ClampBytes(static_cast<int64_t>(std::ceil(bytes))), max_bytes);
}

SplitBlockBloomFilter::SplitBlockBloomFilter(int64_t num_bytes)
    : words_(static_cast<size_t>(ClampBytes(num_bytes) / 4), 0) {}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::FromHeader(const BloomFilterHeader& header,
                                                                ByteSpan bitset,
                                                                int64_t max_bytes) {
  if (header.algorithm != 1) {
    return Status::NotSupported("Bloom filter algorithm " + std::to_string(header.algorithm) +
                                " is not supported (only split block)");
  }
  if (header.hash != 1) {
    return Status::NotSupported("Bloom filter hash " + std::to_string(header.hash) +
                                " is not supported (only XXHASH)");
  }
  if (header.compression != 1) {
    return Status::NotSupported("Bloom filter compression " + std::to_string(header.compression) +
                                " is not supported (only UNCOMPRESSED)");
  }
  const int64_t n = header.num_bytes;
  if (n <= 0 || n % kBytesPerBlock != 0) {
    return Status::Corruption("Bloom filter size " + std::to_string(n) +
                              " is not a positive multiple of 32 bytes");
  }
  if (n > std::min(max_bytes, kMaxBytes)) {
    return Status::NotSupported("Bloom filter of " + std::to_string(n) +
                                " bytes is over the limit of " +
                                std::to_string(std::min(max_bytes, kMaxBytes)));
  }
  if (static_cast<uint64_t>(n) > bitset.size()) {
    return Status::Corruption("Bloom filter bitset of " + std::to_string(n) +
                              " bytes runs past the " + std::to_string(bitset.size()) +
                              " bytes available");
  }
  SplitBlockBloomFilter filter;
  filter.words_.resize(static_cast<size_t>(n / 4));
  std::memcpy(filter.words_.data(), bitset.data(), static_cast<size_t>(n));
  return filter;
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::Read(ByteSpan data, size_t* consumed,
                                                          int64_t max_bytes) {
  BloomFilterHeader header;
  size_t header_size = 0;
  PQ_RETURN_IF_ERROR(ReadBloomFilterHeader(data, &header, &header_size));
  PQ_ASSIGN_OR_RETURN(SplitBlockBloomFilter filter,
                      FromHeader(header, data.subspan(header_size), max_bytes));
  if (consumed != nullptr) *consumed = header_size + static_cast<size_t>(header.num_bytes);
  return filter;
}

void SplitBlockBloomFilter::Insert(uint64_t hash) {
  uint32_t* block = words_.data() + BlockIndex(hash, words_.size() / 8) * 8;
  const uint32_t key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; ++i) block[i] |= uint32_t{1} << ((key * kSalt[i]) >> 27);
}

bool SplitBlockBloomFilter::Check(uint64_t hash) const {
  const uint32_t* block = words_.data() + BlockIndex(hash, words_.size() / 8) * 8;
  const uint32_t key = static_cast<uint32_t>(hash);
  bool all = true;
  for (int i = 0; i < 8; ++i) all &= (block[i] >> ((key * kSalt[i]) >> 27)) & 1u;
  return all;
}

BloomFilterHeader SplitBlockBloomFilter::header() const {
  BloomFilterHeader h;
  h.num_bytes = static_cast<int32_t>(num_bytes());
  h.algorithm = 1;
  h.hash = 1;
  h.compression = 1;
  return h;
}

void SplitBlockBloomFilter::Serialize(std::string* out) const {
  WriteBloomFilterHeader(header(), out);
  out->append(AsStringView(bitset()));
}

uint64_t BloomHash(ByteSpan bytes) {
  return XXH64(bytes.data(), bytes.size(), 0);
}
uint64_t BloomHash(int32_t v) {
  return XXH64(&v, sizeof(v), 0);
}
uint64_t BloomHash(int64_t v) {
  return XXH64(&v, sizeof(v), 0);
}
uint64_t BloomHash(const Int96& v) {
  return XXH64(v.value, sizeof(v.value), 0);
}
uint64_t BloomHash(float v) {
  return XXH64(&v, sizeof(v), 0);
}
uint64_t BloomHash(double v) {
  return XXH64(&v, sizeof(v), 0);
}
uint64_t BloomHash(const ByteArray& v) {
  return XXH64(v.ptr, v.len, 0);
}

}  // namespace pq
