// MixHash64: a 64-bit finalizer (the MurmurHash3 fmix64 constants) that spreads every input bit
// over the whole word, for the open-addressing hash tables of the dictionary encoder and the sorted
// scan and for the writer's distinct count; HashBytes the same for a run of bytes. Neither is for
// anything stored in a file (Bloom filters use XXH64, as the format requires).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pq {

inline uint64_t MixHash64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

// A hash of `n` bytes, eight at a time (host byte order: the hash is never stored).
inline uint64_t HashBytes(const void* data, size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t h = MixHash64(n + 0x9e3779b97f4a7c15ULL);
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    h = MixHash64(h ^ word) * 0x9e3779b97f4a7c15ULL;
  }
  if (n > 0) {
    uint64_t tail = 0;
    std::memcpy(&tail, p, n);
    h = MixHash64(h ^ tail);
  }
  return h;
}

}  // namespace pq
