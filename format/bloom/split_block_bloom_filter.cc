#include "format/bloom/split_block_bloom_filter.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "format/metadata/metadata_io.h"

namespace pq {
namespace {

// The Parquet spec, "Bloom Filter": the eight odd constants of the block mask.
constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

constexpr int64_t kBlock = SplitBlockBloomFilter::kBytesPerBlock;

// n rounded up to whole blocks, within [kMinBytes, kMaxBytes].
int64_t ClampBytes(int64_t n) {
  n = std::clamp(n, SplitBlockBloomFilter::kMinBytes, SplitBlockBloomFilter::kMaxBytes);
  return (n + kBlock - 1) / kBlock * kBlock;
}

// Index of the block a hash selects: the upper 32 bits scaled to [0, num_blocks).
inline size_t BlockIndex(uint64_t hash, uint64_t num_blocks) {
  return static_cast<size_t>(((hash >> 32) * num_blocks) >> 32);
}

}  // namespace

double SplitBlockBloomFilter::FalsePositiveProbability(int64_t ndv, int64_t num_blocks) {
  if (ndv <= 0) return 0.0;
  if (num_blocks <= 0) return 1.0;
  const double load = static_cast<double>(ndv) / static_cast<double>(num_blocks);
  // Sum over the block's load j of P(j) * P(a probe's 8 bits are all set | j values), from j = 0
  // up to far into the Poisson tail; the terms are computed in log space so that large loads do
  // not underflow exp(-load).
  const double spread = 12.0 * std::sqrt(load) + 40.0;
  const int64_t last = static_cast<int64_t>(load + spread);
  const int64_t first = std::max<int64_t>(0, static_cast<int64_t>(load - spread));
  double fpp = 0.0;
  for (int64_t j = first; j <= last; ++j) {
    const double jd = static_cast<double>(j);
    const double log_p = jd * std::log(load) - load - std::lgamma(jd + 1.0);
    const double bit_set = 1.0 - std::pow(31.0 / 32.0, jd);
    fpp += std::exp(log_p) * std::pow(bit_set, 8.0);
  }
  return std::min(fpp, 1.0);
}

int64_t SplitBlockBloomFilter::OptimalNumBytes(int64_t ndv, double fpp, int64_t max_bytes) {
  if (!(fpp > 0.0 && fpp < 1.0)) fpp = 0.01;
  max_bytes = std::clamp(max_bytes, kMinBytes, kMaxBytes) / kBlock * kBlock;
  if (ndv <= 0) return kMinBytes;
  const int64_t max_blocks = max_bytes / kBlock;
  if (FalsePositiveProbability(ndv, max_blocks) > fpp) return max_bytes;
  // The probability falls as blocks are added: find the fewest that meet fpp.
  int64_t lo = 1, hi = max_blocks;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (FalsePositiveProbability(ndv, mid) <= fpp) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo * kBlock;
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

void SplitBlockBloomFilter::InsertMany(const uint64_t* hashes, int64_t n) {
  constexpr int64_t kBatch = 32;
  const uint64_t num_blocks = words_.size() / 8;
  for (int64_t start = 0; start < n; start += kBatch) {
    const int64_t end = std::min(n, start + kBatch);
    for (int64_t i = start; i < end; ++i) {
      __builtin_prefetch(words_.data() + BlockIndex(hashes[i], num_blocks) * 8, 1);
    }
    for (int64_t i = start; i < end; ++i) Insert(hashes[i]);
  }
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
