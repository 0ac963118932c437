// DELTA_BINARY_PACKED reader against streams built here from the spec's layout (the Parquet spec,
// "Delta Encoding"), not by the project's writer: every block size / miniblock count the reader
// accepts, every bit width 0..64 (0..32 for INT32), random minimum deltas that make the sums wrap,
// reads in calls of every size (whole miniblocks go through the fixed-width unpacker straight into
// the caller's array, partial ones through UnpackRange), skips mixed in, pages that end inside the
// last miniblock, and every truncation of a stream giving an error or the right values, never a
// read outside the bytes (ExactCopy: AddressSanitizer sees any).

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <vector>

#include "encoding_test_util.h"
#include "format/encoding/bit_pack.h"
#include "format/encoding/bit_unpack.h"
#include "format/encoding/delta_binary_packed.h"

namespace pq {
namespace {

using testing::ExactCopy;

// A stream and what it holds.
template <typename U>
struct Stream {
  Buffer bytes;
  std::vector<U> values;  // the values, worked out from the spec's rule
  size_t needed = 0;      // bytes up to the last bit of the last value (later ones: padding)
};

// Builds a stream of `count` values: blocks of `block` values in `miniblocks` miniblocks, the
// bit widths of the miniblocks taken in turn from `widths`, random relative deltas that use every
// bit of their width, and a random minimum delta per block. Value i+1 = value i + min delta +
// relative delta, modulo 2^bits: computed here directly from that rule. With `pad_last` false the
// last miniblock holding values stops at the byte holding the last value's last bit.
template <typename U>
Stream<U> BuildStream(uint32_t block, uint32_t miniblocks, uint32_t count, const std::vector<int>& widths,
                      uint64_t seed, bool pad_last = true) {
  constexpr int kBits = static_cast<int>(sizeof(U) * 8);
  std::mt19937_64 rng(seed);
  Stream<U> s;
  const uint32_t per_mini = block / miniblocks;
  bitpack::AppendUleb128(&s.bytes, block);
  bitpack::AppendUleb128(&s.bytes, miniblocks);
  bitpack::AppendUleb128(&s.bytes, count);
  const U first = static_cast<U>(rng());
  // INT32 streams store the first value and min delta as the sign extension of 32 bits.
  auto as_signed = [](U v) { return static_cast<int64_t>(static_cast<std::make_signed_t<U>>(v)); };
  bitpack::AppendZigZag(&s.bytes, as_signed(first));
  if (count > 0) s.values.push_back(first);
  U last = first;
  uint32_t left = count > 0 ? count - 1 : 0;
  size_t w = 0;
  while (left > 0) {
    const U min_delta = static_cast<U>(rng());
    bitpack::AppendZigZag(&s.bytes, as_signed(min_delta));
    const size_t widths_at = s.bytes.size();
    s.bytes.resize(widths_at + miniblocks, 0xEE);  // unused miniblocks: any width, no bytes
    for (uint32_t m = 0; m < miniblocks && left > 0; ++m) {
      const int width = widths[w++ % widths.size()];
      s.bytes[widths_at + m] = static_cast<uint8_t>(width);
      const U mask = width == kBits ? ~U{0} : static_cast<U>((U{1} << width) - 1);
      std::vector<U> rel(per_mini);
      for (U& r : rel) r = static_cast<U>(rng()) & mask;
      rel[rng() % per_mini] = mask;  // the width is needed
      const uint32_t take = std::min(left, per_mini);
      for (uint32_t i = 0; i < take; ++i) {
        last = static_cast<U>(last + min_delta + rel[i]);
        s.values.push_back(last);
      }
      const size_t at = s.bytes.size();
      bitpack::PackBits(rel.data(), per_mini, width, &s.bytes);
      left -= take;
      if (left == 0) {
        s.needed = at + bitpack::PackedBytes(take, width);
        if (!pad_last) s.bytes.resize(s.needed);
      }
    }
  }
  if (count <= 1) s.needed = s.bytes.size();
  return s;
}

// Decodes the whole stream in calls of the sizes `rng` draws from [1, max_call], skipping instead
// of decoding now and then (skipped values are checked by the next decoded one).
template <typename U>
void ExpectDecodes(const Stream<U>& s, size_t max_call, uint64_t seed, bool with_skips) {
  auto exact = ExactCopy(ByteSpan(s.bytes.data(), s.bytes.size()));
  delta::DeltaBinaryPackedReader<U> r;
  ASSERT_TRUE(r.Init(ByteSpan(exact.get(), s.bytes.size())).ok());
  ASSERT_EQ(r.total_values(), s.values.size());
  std::mt19937_64 rng(seed);
  std::vector<U> out(max_call);
  size_t at = 0;
  while (at < s.values.size()) {
    const size_t n = 1 + rng() % max_call;
    const size_t k = std::min(n, s.values.size() - at);
    if (with_skips && rng() % 4 == 0) {
      ASSERT_TRUE(r.Skip(static_cast<int64_t>(n)).ok());
    } else {
      Status st = r.Decode(out.data(), static_cast<int64_t>(n));
      ASSERT_TRUE(st.ok()) << st.ToString();
      for (size_t i = 0; i < k; ++i) ASSERT_EQ(out[i], s.values[at + i]) << "value " << at + i;
    }
    at += k;
    ASSERT_EQ(r.values_left(), s.values.size() - at);
  }
}

template <typename U>
void EveryWidthEveryLayout() {
  constexpr int kBits = static_cast<int>(sizeof(U) * 8);
  const std::pair<uint32_t, uint32_t> layouts[] = {{128, 4}, {128, 1}, {128, 2}, {256, 8},
                                                   {256, 4}, {256, 2}, {512, 16}, {384, 3}};
  for (int width = 0; width <= kBits; ++width) {
    for (auto [block, minis] : layouts) {
      for (uint32_t count : {1u, 2u, 33u, 200u, 1031u}) {
        SCOPED_TRACE("width " + std::to_string(width) + " block " + std::to_string(block) + "/" +
                     std::to_string(minis) + " count " + std::to_string(count));
        const uint64_t seed = static_cast<uint64_t>(width) * 1000 + block + minis + count;
        // Every miniblock at `width`, then widths mixed around it.
        Stream<U> s = BuildStream<U>(block, minis, count, {width}, seed);
        for (size_t call : {size_t{1}, size_t{37}, size_t{64}, size_t{600}}) {
          ExpectDecodes(s, call, seed + call, /*with_skips=*/call == 37);
          if (::testing::Test::HasFatalFailure()) return;
        }
        Stream<U> mixed = BuildStream<U>(block, minis, count, {width, 0, kBits, width / 2, 1}, seed + 1);
        ExpectDecodes(mixed, 300, seed, /*with_skips=*/true);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(DeltaBinaryPackedLayoutTest, EveryWidthEveryLayoutInt32) { EveryWidthEveryLayout<uint32_t>(); }
TEST(DeltaBinaryPackedLayoutTest, EveryWidthEveryLayoutInt64) { EveryWidthEveryLayout<uint64_t>(); }

TEST(DeltaBinaryPackedLayoutTest, WholeMiniblockReadsAtTheEndOfTheBytes) {
  // Calls of exactly one miniblock, where the last miniblock ends less than 8 bytes before the end
  // of the data (no room for the unpacker's 8-byte overread): the reader must take the careful path.
  for (int width : {1, 7, 8, 30, 31, 57, 63, 64}) {
    for (uint32_t count : {33u, 65u, 129u, 257u}) {
      Stream<uint64_t> s = BuildStream<uint64_t>(128, 4, count, {width}, 7 + width + count);
      ASSERT_EQ(s.needed, s.bytes.size());  // full final miniblock: nothing after it
      ExpectDecodes(s, 32, 1, false);
      Stream<uint64_t> cut = BuildStream<uint64_t>(256, 2, count, {width}, 9 + width + count, false);
      ExpectDecodes(cut, 128, 2, false);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(DeltaBinaryPackedLayoutTest, PageEndingInsideTheLastMiniblock) {
  // The writer may leave out the padding of the last miniblock when the stream ends the page.
  for (int width : {3, 13, 32, 45, 64}) {
    for (uint32_t count : {2u, 20u, 100u, 130u, 1000u}) {
      SCOPED_TRACE("width " + std::to_string(width) + " count " + std::to_string(count));
      Stream<uint64_t> s = BuildStream<uint64_t>(128, 4, count, {width}, 11 + width + count, false);
      for (size_t call : {size_t{1}, size_t{32}, size_t{1000}}) ExpectDecodes(s, call, call, false);
      Stream<uint32_t> s32 =
          BuildStream<uint32_t>(256, 8, count, {width % 33}, 13 + width + count, false);
      ExpectDecodes(s32, 32, 3, true);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(DeltaBinaryPackedLayoutTest, EveryTruncationIsAnErrorOrTheRightValues) {
  for (int width : {0, 5, 17, 40, 64}) {
    Stream<uint64_t> s = BuildStream<uint64_t>(128, 4, 300, {width, 9}, 17 + width, true);
    for (size_t len = 0; len < s.bytes.size(); ++len) {
      auto exact = ExactCopy(ByteSpan(s.bytes.data(), len));
      delta::DeltaBinaryPackedReader<uint64_t> r;
      std::vector<uint64_t> out(s.values.size());
      Status st = r.Init(ByteSpan(exact.get(), len));
      size_t got = 0;
      while (st.ok() && got < out.size()) {
        const size_t n = std::min<size_t>(64, out.size() - got);
        st = r.Decode(out.data() + got, static_cast<int64_t>(n));
        if (st.ok()) got += n;
      }
      if (len < s.needed) {
        EXPECT_FALSE(st.ok()) << "width " << width << ", " << len << " of " << s.bytes.size() << " bytes";
        if (!st.ok()) {
          EXPECT_TRUE(st.IsCorruption()) << st.ToString();
        }
      } else {
        ASSERT_TRUE(st.ok()) << st.ToString();
      }
      for (size_t i = 0; i < got; ++i) ASSERT_EQ(out[i], s.values[i]) << "value " << i << ", " << len << " bytes";
    }
  }
}

TEST(DeltaBinaryPackedLayoutTest, StreamEndIsThePaddedSize) {
  for (auto [block, minis] : {std::pair<uint32_t, uint32_t>{128, 4}, {256, 2}, {512, 16}}) {
    for (uint32_t count : {0u, 1u, 2u, 129u, 1000u}) {
      Stream<uint32_t> s = BuildStream<uint32_t>(block, minis, count, {6, 0, 32}, count + block);
      s.bytes.push_back(0x55);  // data after the stream
      delta::DeltaBinaryPackedReader<uint32_t> r;
      ASSERT_TRUE(r.Init(ByteSpan(s.bytes.data(), s.bytes.size())).ok());
      auto end = r.StreamEnd();
      ASSERT_TRUE(end.ok()) << end.status().ToString();
      EXPECT_EQ(*end, s.bytes.size() - 1) << block << "/" << minis << " count " << count;
    }
  }
}

}  // namespace
}  // namespace pq
