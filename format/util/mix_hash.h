// MixHash64: a 64-bit finalizer (the MurmurHash3 fmix64 constants) that spreads every input bit over
// the whole word, for the open-addressing hash tables of the dictionary encoder and the sorted scan.
// Not for anything stored in a file (Bloom filters use XXH64, as the format requires).
#pragma once

#include <cstdint>

namespace pq {

inline uint64_t MixHash64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

}  // namespace pq
