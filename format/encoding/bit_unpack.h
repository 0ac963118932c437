// Bit unpacking: the inner loop of every bit-packed encoding (RLE/bit-packing hybrid runs,
// dictionary indices, levels, PLAIN booleans, DELTA_BINARY_PACKED miniblocks), with one
// instantiation per bit width whose shifts and offsets are compile-time constants, and UnpackRange,
// which never reads outside the bytes it is given. Also the two other per-value loops of the
// hybrid's consumers, written to vectorize at -O2: FillValues (an RLE run) and MaxValue (checking
// levels or indices against their limit).
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "format/util/byte_reader.h"

namespace pq::bitpack {

// Widest value an output type can hold (int16_t levels: 16, uint32_t indices: 32, ...).
// Values are packed LSB first (the Parquet spec, "Run Length Encoding / Bit-Packing Hybrid", note
// 1): value i of width w occupies bits [i*w, (i+1)*w) of the little-endian bit stream. Values
// always come in groups of 8, so a group of width w is exactly w bytes.
//
// The unpackers are instantiated once per bit width (0..64) and output type, with every shift and
// byte offset a compile-time constant; a table picks the instantiation once per call, never per
// value. Each value is read with one unaligned 64-bit load (two for widths above 56), which is why
// the fast path needs 8 readable bytes past the last group it touches. UnpackRange() takes care of
// that: near the end of the input it copies the last groups into a zero-padded local buffer, so it
// never reads outside the bytes it is given.
//
// Also here, the two other per-value loops of the hybrid's consumers, written so that they
// vectorize at -O2: FillValues (an RLE run) and MaxValue (checking levels / indices against their
// limit).
template <typename Out>
inline constexpr int kMaxBitWidth = static_cast<int>(sizeof(Out) * 8);

// Bytes a bit-packed region of `num_values` values of width `bit_width` takes (rounded up).
inline constexpr uint64_t PackedBytes(uint64_t num_values, int bit_width) {
  return (num_values * static_cast<uint64_t>(bit_width) + 7) / 8;
}

namespace internal {

// Extracts value J of a group starting at `in`. Reads in[byte, byte + 8) and, for widths that
// straddle 9 bytes, in[byte + 8], all inside the values' own bytes or the 8 bytes after them.
template <int BW, int J, typename Out>
inline void UnpackOne(const uint8_t* in, Out* out) {
  constexpr int kBit = J * BW;
  constexpr int kByte = kBit / 8;
  constexpr int kShift = kBit % 8;
  uint64_t w = LoadLE<uint64_t>(in + kByte) >> kShift;
  if constexpr (kShift + BW > 64) w |= uint64_t{in[kByte + 8]} << (64 - kShift);
  if constexpr (BW < 64) w &= (uint64_t{1} << BW) - 1;
  out[J] = static_cast<Out>(w);
}

// Unpacks N values (N a multiple of 8) of width BW. Requires in[0, N*BW/8 + 8) readable.
template <int BW, int N, typename Out>
inline void UnpackFixed(const uint8_t* in, Out* out) {
  [&]<int... J>(std::integer_sequence<int, J...>) {
    (UnpackOne<BW, J>(in, out), ...);
  }
  (std::make_integer_sequence<int, N>{});
}

// Unpacks `groups` groups of 8 values of width BW, 32 values per step while it can.
template <int BW, typename Out>
void UnpackGroupsFixed(const uint8_t* in, size_t groups, Out* out) {
  if constexpr (BW == 0) {
    std::fill_n(out, groups * 8, Out{0});
  } else {
    for (; groups >= 4; groups -= 4, in += 4 * BW, out += 32) UnpackFixed<BW, 32>(in, out);
    for (; groups > 0; --groups, in += BW, out += 8) UnpackFixed<BW, 8>(in, out);
  }
}

template <typename Out>
using UnpackGroupsFn = void (*)(const uint8_t*, size_t, Out*);

template <typename Out, int... BW>
constexpr std::array<UnpackGroupsFn<Out>, sizeof...(BW)> MakeUnpackTable(
    std::integer_sequence<int, BW...>) {
  return {&UnpackGroupsFixed<BW, Out>...};
}

template <typename Out>
inline constexpr auto kUnpackTable =
    MakeUnpackTable<Out>(std::make_integer_sequence<int, kMaxBitWidth<Out> + 1>{});

}  // namespace internal

// Unpacks `groups` groups of 8 values of width `bit_width` (0..kMaxBitWidth<Out>) from `in`.
// Requires in[0, groups * bit_width + 8) readable: use UnpackRange() when that is not known.
template <typename Out>
inline void UnpackGroups(const uint8_t* in, int bit_width, size_t groups, Out* out) {
  assert(bit_width >= 0 && bit_width <= kMaxBitWidth<Out>);
  internal::kUnpackTable<Out>[bit_width](in, groups, out);
}

// Unpacks group `group` (values [8*group, 8*group + 8)) of a packed region whose readable bytes are
// in[0, readable). Bytes of the group past `readable` read as zero.
template <typename Out>
inline void UnpackGroupPadded(const uint8_t* in, size_t readable, int bit_width, uint64_t group,
                              Out* out) {
  uint8_t padded[64 + 8] = {};
  uint64_t offset = group * static_cast<uint64_t>(bit_width);
  if (offset < readable) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(bit_width, readable - offset));
    std::memcpy(padded, in + offset, n);
  }
  UnpackGroups(padded, bit_width, 1, out);
}

// Unpacks values [first, first + count) of a packed region starting at `in` into out[0, count).
// `readable` is how many bytes may be read from `in` (the region itself and whatever follows it in
// the same buffer). Requires the values themselves to be present:
// PackedBytes(first + count, bit_width) <= readable. Never reads at or past in + readable.
template <typename Out>
void UnpackRange(const uint8_t* in, size_t readable, int bit_width, uint64_t first, size_t count,
                 Out* out) {
  assert(PackedBytes(first + count, bit_width) <= readable);
  if (count == 0) return;
  if (bit_width == 0) {
    std::fill_n(out, count, Out{0});
    return;
  }
  const uint64_t width = static_cast<uint64_t>(bit_width);
  uint64_t group = first / 8;
  size_t skip = static_cast<size_t>(first % 8);
  Out tmp[8];
  if (skip != 0) {  // head: the rest of a group already started
    UnpackGroupPadded(in, readable, bit_width, group, tmp);
    size_t take = std::min(count, 8 - skip);
    std::copy_n(tmp + skip, take, out);
    out += take;
    count -= take;
    ++group;
  }
  size_t full = count / 8;
  if (full > 0) {
    uint64_t offset = group * width;
    uint64_t avail = readable > offset ? readable - offset : 0;
    // Groups whose bytes plus the 8-byte overread stay inside `readable`.
    size_t fast =
        avail >= 8 ? static_cast<size_t>(std::min<uint64_t>((avail - 8) / width, full)) : 0;
    UnpackGroups(in + offset, bit_width, fast, out);
    out += fast * 8;
    group += fast;
    for (size_t i = fast; i < full; ++i, ++group, out += 8) {
      UnpackGroupPadded(in, readable, bit_width, group, out);
    }
    count -= full * 8;
  }
  if (count > 0) {  // tail: the start of a group
    UnpackGroupPadded(in, readable, bit_width, group, tmp);
    std::copy_n(tmp, count, out);
  }
}

// Sets out[0, n) to `value` (an RLE run). Blocks of a fixed 8 values let the compiler use vector
// stores even at -O2, where a plain fill of 16/32-bit values with a run-time count stays scalar.
template <typename T>
inline void FillValues(T* out, size_t n, T value) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (size_t j = 0; j < 8; ++j) out[i + j] = value;
  }
  for (; i < n; ++i) out[i] = value;
}

// Largest of p[0, n) (0 when n is 0): how decoders check a batch of levels or dictionary indices
// against their limit in one pass instead of a branch per value. Blocks of a fixed 64 values let
// the compiler vectorize the loop even at -O2.
template <typename T>
T MaxValue(const T* p, size_t n) {
  T max = 0;
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    T block = 0;
    for (size_t j = 0; j < 64; ++j) block = std::max(block, p[i + j]);
    max = std::max(max, block);
  }
  for (; i < n; ++i) max = std::max(max, p[i]);
  return max;
}

}  // namespace pq::bitpack
