// Bit packing and the small integer codings the encoders write: the mirror of bit_unpack.h and of
// ByteReader's varint reads. PackBits writes values LSB first (the Parquet spec, "Run Length
// Encoding / Bit-Packing Hybrid", note 1), the order every current encoding uses; the deprecated
// BIT_PACKED level encoding packs MSB first and has its own writer in level_encoder.cc.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/encoding/values.h"
#include "format/util/byte_reader.h"

namespace pq::bitpack {

// Appends `n` values of width `bit_width` (0..64) packed LSB first: PackedBytes(n, bit_width)
// bytes, the last byte zero-padded. Bits of a value above `bit_width` are ignored.
template <typename In>
void PackBits(const In* values, size_t n, int bit_width, Buffer* out) {
  if (bit_width == 0 || n == 0) return;
  const uint64_t mask = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
  uint64_t acc = 0;  // pending bits, LSB first
  int bits = 0;      // how many bits of acc are pending; always < 64 between values
  uint8_t word[8];
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = static_cast<uint64_t>(values[i]) & mask;
    acc |= v << bits;
    if (bits + bit_width >= 64) {
      StoreLE<uint64_t>(word, acc);
      out->insert(out->end(), word, word + 8);
      int used = 64 - bits;  // bits of v that went into the stored word
      acc = used < 64 ? v >> used : 0;
      bits = bits + bit_width - 64;
    } else {
      bits += bit_width;
    }
  }
  StoreLE<uint64_t>(word, acc);
  out->insert(out->end(), word, word + (bits + 7) / 8);
}

// Unsigned LEB128 ("varint-encode()" in the spec).
inline void AppendUleb128(Buffer* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<uint8_t>(v));
}

// ZigZag then ULEB128: 0, -1, 1, -2, ... -> 0, 1, 2, 3, ...
inline void AppendZigZag(Buffer* out, int64_t v) {
  uint64_t u = static_cast<uint64_t>(v);
  AppendUleb128(out, (u << 1) ^ static_cast<uint64_t>(v >> 63));
}

inline void AppendU32LE(Buffer* out, uint32_t v) {
  uint8_t b[4];
  StoreLE<uint32_t>(b, v);
  out->insert(out->end(), b, b + 4);
}

// Overwrites 4 bytes at `pos` (a length prefix reserved earlier).
inline void PatchU32LE(Buffer* out, size_t pos, uint32_t v) {
  StoreLE<uint32_t>(out->data() + pos, v);
}

}  // namespace pq::bitpack
