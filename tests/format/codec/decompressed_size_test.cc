// CheckDecompressedSize (codec.h): a page's claimed uncompressed size is settled before it is
// allocated. True claims pass for every codec, also at very high compression ratios; false ones
// are refused: exactly where the stream states its size, by the codec's largest possible ratio, or
// by counting the output of a claim far beyond the input.
#include <gtest/gtest.h>
#include <snappy.h>
#include <zstd.h>

#include <random>
#include <string>
#include <vector>

#include "format/codec/codec.h"

namespace pq {
namespace {

std::vector<uint8_t> Packed(CompressionCodec codec, const std::vector<uint8_t>& plain) {
  std::vector<uint8_t> out;
  Status s = Compress(codec, ByteSpan(plain.data(), plain.size()), kDefaultCompressionLevel, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

std::vector<uint8_t> Plain(size_t n, bool zeros) {
  std::vector<uint8_t> v(n);
  std::mt19937 rng(7);
  if (!zeros) {
    for (auto& b : v) b = static_cast<uint8_t>(rng() % 16);  // compressible, not trivially
  }
  return v;
}

const CompressionCodec kCodecs[] = {CompressionCodec::kSnappy, CompressionCodec::kGzip,
                                    CompressionCodec::kBrotli, CompressionCodec::kZstd,
                                    CompressionCodec::kLz4Raw, CompressionCodec::kLzo};

TEST(DecompressedSizeTest, TrueClaimsPassAtAnyRatio) {
  for (CompressionCodec codec : kCodecs) {
    for (size_t n : {size_t{1}, size_t{1000}, size_t{1} << 20}) {
      for (bool zeros : {false, true}) {
        const std::vector<uint8_t> plain = Plain(n, zeros);
        const std::vector<uint8_t> packed = Packed(codec, plain);
        Status s = CheckDecompressedSize(codec, ByteSpan(packed.data(), packed.size()), n);
        EXPECT_TRUE(s.ok()) << static_cast<int>(codec) << " " << n << " " << zeros << ": " << s.ToString();
      }
    }
    // 64 MiB of zeros: far above kPlausibleRatio for every codec, still accepted (counted or
    // stated), since it is true.
    const std::vector<uint8_t> zeros(size_t{64} << 20);
    const std::vector<uint8_t> packed = Packed(codec, zeros);
    if (codec != CompressionCodec::kSnappy) {  // SNAPPY tops out near 21:1 (and states its size)
      EXPECT_GT(zeros.size(), packed.size() * kPlausibleRatio + kPlausibleSlack) << static_cast<int>(codec);
    }
    Status s = CheckDecompressedSize(codec, ByteSpan(packed.data(), packed.size()), zeros.size());
    EXPECT_TRUE(s.ok()) << static_cast<int>(codec) << ": " << s.ToString();
  }
}

TEST(DecompressedSizeTest, FalseClaimsAreRefused) {
  for (CompressionCodec codec : kCodecs) {
    const std::vector<uint8_t> plain = Plain(5000, false);
    const std::vector<uint8_t> packed = Packed(codec, plain);
    const ByteSpan in(packed.data(), packed.size());
    // A gigabyte from a few kilobytes: every codec refuses it without allocating.
    Status s = CheckDecompressedSize(codec, in, size_t{1} << 30);
    EXPECT_TRUE(s.IsCorruption()) << static_cast<int>(codec) << ": " << s.ToString();
    // A claim off by one is only caught where the size is stated (SNAPPY, ZSTD); Decompress
    // catches the others.
    s = CheckDecompressedSize(codec, in, plain.size() + 1);
    if (codec == CompressionCodec::kSnappy || codec == CompressionCodec::kZstd) {
      EXPECT_TRUE(s.IsCorruption()) << static_cast<int>(codec);
    } else {
      EXPECT_TRUE(s.ok()) << static_cast<int>(codec) << ": " << s.ToString();
    }
  }
}

// A SNAPPY block states its size in its first bytes, and a hostile one states the page header's:
// 64 bytes cannot make a gigabyte (a snappy element of 3 bytes makes at most 64), refused before
// anything is allocated.
TEST(DecompressedSizeTest, AStatedSizeBeyondTheCodecsRatioIsRefused) {
  std::vector<uint8_t> block;
  uint32_t v = 1u << 30;  // the stated size, a varint
  for (; v >= 0x80; v >>= 7) block.push_back(static_cast<uint8_t>(v | 0x80));
  block.push_back(static_cast<uint8_t>(v));
  block.resize(64, 0);
  size_t stated = 0;
  ASSERT_TRUE(snappy::GetUncompressedLength(reinterpret_cast<const char*>(block.data()), block.size(), &stated));
  ASSERT_EQ(stated, size_t{1} << 30);
  Status s = CheckDecompressedSize(CompressionCodec::kSnappy, ByteSpan(block.data(), block.size()), size_t{1} << 30);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("SNAPPY page of 64 bytes cannot decompress to the 1073741824 bytes the page header says"),
            std::string::npos)
      << s.message();
}

// A ZSTD frame written by a streaming writer does not state its size: the claim is counted.
TEST(DecompressedSizeTest, ZstdFramesWithoutContentSizeAreCounted) {
  const std::vector<uint8_t> zeros(size_t{8} << 20);
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ASSERT_NE(cctx, nullptr);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
  std::vector<uint8_t> out(ZSTD_compressBound(zeros.size()));
  ZSTD_inBuffer in = {zeros.data(), zeros.size(), 0};
  ZSTD_outBuffer o = {out.data(), out.size(), 0};
  // Streaming compression with an unknown pledged size leaves the content size out.
  size_t r = ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_end);
  ZSTD_freeCCtx(cctx);
  ASSERT_EQ(r, 0u);
  out.resize(o.pos);
  ASSERT_EQ(ZSTD_getFrameContentSize(out.data(), out.size()), ZSTD_CONTENTSIZE_UNKNOWN);
  const ByteSpan packed(out.data(), out.size());
  EXPECT_TRUE(CheckDecompressedSize(CompressionCodec::kZstd, packed, zeros.size()).ok());
  EXPECT_TRUE(CheckDecompressedSize(CompressionCodec::kZstd, packed, zeros.size() - 1).IsCorruption());
  EXPECT_TRUE(CheckDecompressedSize(CompressionCodec::kZstd, packed, zeros.size() + 1).IsCorruption());
  EXPECT_TRUE(CheckDecompressedSize(CompressionCodec::kZstd, packed, size_t{1} << 31).IsCorruption());
  // Decompress agrees.
  std::vector<uint8_t> back(zeros.size());
  EXPECT_TRUE(Decompress(CompressionCodec::kZstd, packed, std::span<uint8_t>(back)).ok());
  EXPECT_EQ(back, zeros);
}

TEST(DecompressedSizeTest, CorruptStreamsAreErrorsNotCrashes) {
  std::mt19937 rng(11);
  for (CompressionCodec codec : kCodecs) {
    std::vector<uint8_t> packed = Packed(codec, std::vector<uint8_t>(1 << 16));
    for (int i = 0; i < 200; ++i) {
      std::vector<uint8_t> bad = packed;
      bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
      bad.resize(1 + rng() % bad.size());
      Status s = CheckDecompressedSize(codec, ByteSpan(bad.data(), bad.size()), size_t{1} << 30);
      EXPECT_FALSE(s.ok()) << static_cast<int>(codec);
    }
  }
}

}  // namespace
}  // namespace pq
