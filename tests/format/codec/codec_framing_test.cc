// Framings that real files carry and our own Compress never produces: several gzip members,
// Hadoop's LZ4 frames, bare LZ4 blocks under codec 5, Zstandard frames without a content size or
// several frames in one page; and the Hadoop LZO framing parquet-java writes (hadoop-lzo), with
// its blocks split into several chunks, and the bare LZO1X blocks of parquetjs. The test builds
// each with the codec libraries directly.
#include <gtest/gtest.h>
#include <lz4.h>
#include <lzo/lzo1x.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "format/codec/codec.h"

namespace pq {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes TextBytes(size_t n, uint32_t seed) {
  static const std::string kWords[] = {"alpha ", "beta ", "gamma ", "delta ", "42 ", "\n"};
  std::mt19937 rng(seed);
  Bytes out;
  while (out.size() < n) {
    for (char c : kWords[rng() % 6]) {
      if (out.size() < n) out.push_back(static_cast<uint8_t>(c));
    }
  }
  return out;
}

Bytes Concat(const Bytes& a, const Bytes& b) {
  Bytes out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

// One deflate member with the given wrapper: windowBits 15+16 gzip, 15 zlib.
Bytes Deflate(const Bytes& input, int window_bits, int level = 6) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY), Z_OK);
  Bytes out(deflateBound(&z, input.size()));
  uint8_t dummy = 0;
  z.next_in = input.empty() ? &dummy : const_cast<uint8_t*>(input.data());
  z.avail_in = static_cast<uInt>(input.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}
Bytes GzipMember(const Bytes& input, int level = 6) {
  return Deflate(input, 15 + 16, level);
}

Bytes Lz4Block(const Bytes& input) {
  Bytes out(static_cast<size_t>(LZ4_compressBound(static_cast<int>(input.size()))));
  int n = LZ4_compress_default(reinterpret_cast<const char*>(input.data()),
                               reinterpret_cast<char*>(out.data()), static_cast<int>(input.size()),
                               static_cast<int>(out.size()));
  EXPECT_GT(n, 0);
  out.resize(static_cast<size_t>(n));
  return out;
}

void PutU32BigEndian(Bytes* out, uint32_t v) {
  out->push_back(static_cast<uint8_t>(v >> 24));
  out->push_back(static_cast<uint8_t>(v >> 16));
  out->push_back(static_cast<uint8_t>(v >> 8));
  out->push_back(static_cast<uint8_t>(v));
}

// A Hadoop frame as parquet-mr writes it: uncompressed size, compressed size, one block.
void AppendHadoopFrame(Bytes* page, const Bytes& uncompressed) {
  Bytes block = Lz4Block(uncompressed);
  PutU32BigEndian(page, static_cast<uint32_t>(uncompressed.size()));
  PutU32BigEndian(page, static_cast<uint32_t>(block.size()));
  page->insert(page->end(), block.begin(), block.end());
}

Status DecompressInto(CompressionCodec codec, const Bytes& input, size_t size, Bytes* output) {
  output->assign(size, 0xEE);
  return Decompress(codec, input, *output);
}

// --- GZIP ---------------------------------------------------------------------------------------

TEST(GzipFramingTest, ConcatenatedMembersDecompressToTheConcatenation) {
  Bytes first = TextBytes(3000, 1), second = TextBytes(5000, 2);
  Bytes page = Concat(GzipMember(first, 1), GzipMember(second, 9));
  Bytes output;
  Status s = DecompressInto(CompressionCodec::kGzip, page, first.size() + second.size(), &output);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(output, Concat(first, second));
  // The concatenation's size is the only right one.
  EXPECT_TRUE(DecompressInto(CompressionCodec::kGzip, page, first.size(), &output).IsCorruption());
  EXPECT_TRUE(
      DecompressInto(CompressionCodec::kGzip, page, first.size() + second.size() + 1, &output)
          .IsCorruption());
}

TEST(GzipFramingTest, ManyMembersIncludingEmptyOnes) {
  Bytes page, expected;
  for (int i = 0; i < 10; ++i) {
    Bytes part = (i % 3 == 0)
                     ? Bytes{}
                     : TextBytes(100 * static_cast<size_t>(i), 10 + static_cast<uint32_t>(i));
    page = Concat(page, GzipMember(part));
    expected = Concat(expected, part);
  }
  Bytes output;
  Status s = DecompressInto(CompressionCodec::kGzip, page, expected.size(), &output);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(output, expected);
}

TEST(GzipFramingTest, EmptyMembersOnlyDecodeToAnEmptyPage) {
  Bytes page = Concat(GzipMember({}), GzipMember({}));
  Bytes output;
  EXPECT_TRUE(DecompressInto(CompressionCodec::kGzip, page, 0, &output).ok());
  EXPECT_TRUE(DecompressInto(CompressionCodec::kGzip, page, 1, &output).IsCorruption());
}

TEST(GzipFramingTest, ZlibWrappedDataIsAccepted) {
  Bytes input = TextBytes(2000, 3);
  Bytes output;
  ASSERT_TRUE(
      DecompressInto(CompressionCodec::kGzip, Deflate(input, 15), input.size(), &output).ok());
  EXPECT_EQ(output, input);
}

TEST(GzipFramingTest, GarbageAfterTheLastMemberIsCorruption) {
  Bytes input = TextBytes(2000, 4);
  Bytes output;
  for (Bytes tail : {Bytes{0}, Bytes{0, 0, 0, 0}, Bytes{0x1f, 0x8b}, Bytes{'x', 'y', 'z'}}) {
    Status s = DecompressInto(CompressionCodec::kGzip, Concat(GzipMember(input), tail),
                              input.size(), &output);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  }
}

TEST(GzipFramingTest, CorruptCrcIsDetected) {
  Bytes input = TextBytes(2000, 5);
  Bytes page = GzipMember(input);
  page[page.size() - 8] ^= 0x01;  // the trailer is CRC32 then ISIZE, little endian
  Bytes output;
  EXPECT_TRUE(DecompressInto(CompressionCodec::kGzip, page, input.size(), &output).IsCorruption());
}

// --- LZ4 (Hadoop framing) and LZ4_RAW ----------------------------------------------------------

TEST(Lz4FramingTest, TwoHadoopFramesDecode) {
  Bytes first = TextBytes(4000, 6), second = TextBytes(1234, 7);
  Bytes page;
  AppendHadoopFrame(&page, first);
  AppendHadoopFrame(&page, second);
  Bytes output;
  Status s = DecompressInto(CompressionCodec::kLz4, page, first.size() + second.size(), &output);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(output, Concat(first, second));
  // Codec 7 does not understand the framing.
  EXPECT_TRUE(
      DecompressInto(CompressionCodec::kLz4Raw, page, output.size(), &output).IsCorruption());
}

TEST(Lz4FramingTest, HadoopBlockSplitIntoSeveralChunks) {
  // Hadoop's block compressor states the block's size once, then several compressed chunks.
  Bytes a = TextBytes(3000, 8), b = TextBytes(2000, 9), c = TextBytes(10, 10);
  Bytes page;
  PutU32BigEndian(&page, static_cast<uint32_t>(a.size() + b.size() + c.size()));
  for (const Bytes* part : {&a, &b, &c}) {
    Bytes block = Lz4Block(*part);
    PutU32BigEndian(&page, static_cast<uint32_t>(block.size()));
    page = Concat(page, block);
  }
  Bytes output;
  Status s = DecompressInto(CompressionCodec::kLz4, page, a.size() + b.size() + c.size(), &output);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(output, Concat(Concat(a, b), c));
}

TEST(Lz4FramingTest, EmptyHadoopFrameAmongOthers) {
  Bytes first = TextBytes(500, 11);
  Bytes page;
  AppendHadoopFrame(&page, first);
  AppendHadoopFrame(&page, {});
  Bytes output;
  Status s = DecompressInto(CompressionCodec::kLz4, page, first.size(), &output);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(output, first);
}

TEST(Lz4FramingTest, BareBlockUnderCodec5DecodesThroughTheFallback) {
  Bytes input = TextBytes(7000, 12);
  Bytes output;
  Status s = DecompressInto(CompressionCodec::kLz4, Lz4Block(input), input.size(), &output);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(output, input);
}

TEST(Lz4FramingTest, Codec5ReadsWhatLz4RawWrites) {
  Bytes input = TextBytes(30000, 21);
  Bytes compressed;
  ASSERT_TRUE(
      Compress(CompressionCodec::kLz4Raw, input, kDefaultCompressionLevel, &compressed).ok());
  Bytes output;
  ASSERT_TRUE(DecompressInto(CompressionCodec::kLz4, compressed, input.size(), &output).ok());
  EXPECT_EQ(output, input);
}

TEST(Lz4FramingTest, FramesThatDoNotAddUpAreCorruption) {
  Bytes first = TextBytes(4000, 13), second = TextBytes(1000, 14);
  Bytes page;
  AppendHadoopFrame(&page, first);
  AppendHadoopFrame(&page, second);
  Bytes output;
  // Too small, too large, and a frame header claiming more than the page holds.
  EXPECT_TRUE(DecompressInto(CompressionCodec::kLz4, page, 4999, &output).IsCorruption());
  EXPECT_TRUE(DecompressInto(CompressionCodec::kLz4, page, 5001, &output).IsCorruption());
  Bytes lying = page;
  lying[3] = static_cast<uint8_t>(lying[3] + 1);  // first frame says 4001 bytes
  Status s = DecompressInto(CompressionCodec::kLz4, lying, 5000, &output);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  Bytes huge = page;
  huge[0] = 0xFF;  // first frame says ~4 GB
  EXPECT_TRUE(DecompressInto(CompressionCodec::kLz4, huge, 5000, &output).IsCorruption());
  Bytes chunk_overrun = page;
  chunk_overrun[4] = 0x7F;  // compressed size past the end of the page
  EXPECT_TRUE(DecompressInto(CompressionCodec::kLz4, chunk_overrun, 5000, &output).IsCorruption());
}

TEST(Lz4FramingTest, TruncatedOrFlippedFramedPagesNeverCrash) {
  Bytes first = TextBytes(1500, 22), second = TextBytes(700, 23);
  Bytes page;
  AppendHadoopFrame(&page, first);
  AppendHadoopFrame(&page, second);
  const size_t size = first.size() + second.size();
  Bytes output;
  for (size_t keep = 0; keep < page.size(); ++keep) {
    Bytes truncated(page.begin(), page.begin() + static_cast<std::ptrdiff_t>(keep));
    Status s = DecompressInto(CompressionCodec::kLz4, truncated, size, &output);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString() << " kept " << keep;
  }
  for (size_t bit = 0; bit < page.size() * 8; bit += 3) {
    Bytes flipped = page;
    flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    Status s = DecompressInto(CompressionCodec::kLz4, flipped, size, &output);
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    }
  }
}

TEST(Lz4FramingTest, RawBlockMustFillTheOutputExactly) {
  Bytes input = TextBytes(1000, 15);
  Bytes block = Lz4Block(input);
  Bytes output;
  EXPECT_TRUE(DecompressInto(CompressionCodec::kLz4Raw, block, 1000, &output).ok());
  EXPECT_TRUE(DecompressInto(CompressionCodec::kLz4Raw, block, 999, &output).IsCorruption());
  EXPECT_TRUE(DecompressInto(CompressionCodec::kLz4Raw, block, 1001, &output).IsCorruption());
}

// --- LZO (Hadoop framing, as hadoop-lzo's LzoCodec writes it) ----------------------------------

// One LZO1X-1 block, as hadoop-lzo's default compressor (LZO1X_1) makes it.
Bytes LzoBlock(const Bytes& input) {
  EXPECT_EQ(lzo_init(), LZO_E_OK);
  Bytes out(input.size() + input.size() / 16 + 64 + 3);
  std::vector<unsigned char> work(LZO1X_1_MEM_COMPRESS);
  lzo_uint n = out.size();
  EXPECT_EQ(lzo1x_1_compress(input.data(), input.size(), out.data(), &n, work.data()), LZO_E_OK);
  out.resize(n);
  return out;
}

void AppendLzoFrame(Bytes* page, const Bytes& uncompressed) {
  Bytes block = LzoBlock(uncompressed);
  PutU32BigEndian(page, static_cast<uint32_t>(uncompressed.size()));
  PutU32BigEndian(page, static_cast<uint32_t>(block.size()));
  page->insert(page->end(), block.begin(), block.end());
}

TEST(LzoFramingTest, OurPagesAreHadoopFramesOfLzo1xBlocks) {
  // What Compress writes, taken apart by hand: [u32 BE size][u32 BE compressed size][LZO1X block]
  // per 245,693 input bytes (hadoop-lzo's 256 KiB buffer less LZO1X's worst-case overhead), each
  // block decoded here by liblzo2 itself.
  const size_t kChunk = 262144 - (262144 / 16 + 64 + 3);
  ASSERT_EQ(kChunk, 245693u);
  Bytes input = TextBytes(2 * kChunk + 1000, 30);
  Bytes page;
  ASSERT_TRUE(Compress(CompressionCodec::kLzo, input, kDefaultCompressionLevel, &page).ok());
  ASSERT_EQ(lzo_init(), LZO_E_OK);
  size_t pos = 0, produced = 0, blocks = 0;
  auto u32 = [&page](size_t at) {
    return (uint32_t{page[at]} << 24) | (uint32_t{page[at + 1]} << 16) |
           (uint32_t{page[at + 2]} << 8) | uint32_t{page[at + 3]};
  };
  while (pos < page.size()) {
    ASSERT_LE(pos + 8, page.size());
    const uint32_t size = u32(pos), compressed = u32(pos + 4);
    pos += 8;
    ASSERT_LE(pos + compressed, page.size());
    EXPECT_EQ(size, std::min(kChunk, input.size() - produced));
    Bytes out(size);
    lzo_uint n = out.size();
    ASSERT_EQ(lzo1x_decompress_safe(page.data() + pos, compressed, out.data(), &n, nullptr), LZO_E_OK);
    ASSERT_EQ(n, size);
    EXPECT_TRUE(std::equal(out.begin(), out.end(), input.begin() + static_cast<std::ptrdiff_t>(produced)));
    pos += compressed;
    produced += size;
    ++blocks;
  }
  EXPECT_EQ(blocks, 3u);
  EXPECT_EQ(produced, input.size());
}

TEST(LzoFramingTest, TwoFramesAndAnEmptyOneDecode) {
  Bytes first = TextBytes(4000, 31), second = TextBytes(1234, 32);
  Bytes page;
  AppendLzoFrame(&page, first);
  AppendLzoFrame(&page, {});
  AppendLzoFrame(&page, second);
  Bytes output;
  Status s = DecompressInto(CompressionCodec::kLzo, page, first.size() + second.size(), &output);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(output, Concat(first, second));
}

TEST(LzoFramingTest, BlockSplitIntoSeveralChunks) {
  // BlockCompressorStream given one write larger than its buffer: the block's size once, then one
  // chunk per buffer's worth.
  Bytes a = TextBytes(3000, 33), b = TextBytes(2000, 34), c = TextBytes(10, 35);
  Bytes page;
  PutU32BigEndian(&page, static_cast<uint32_t>(a.size() + b.size() + c.size()));
  for (const Bytes* part : {&a, &b, &c}) {
    Bytes block = LzoBlock(*part);
    PutU32BigEndian(&page, static_cast<uint32_t>(block.size()));
    page = Concat(page, block);
  }
  Bytes output;
  Status s = DecompressInto(CompressionCodec::kLzo, page, a.size() + b.size() + c.size(), &output);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(output, Concat(Concat(a, b), c));
}

TEST(LzoFramingTest, BareBlockDecodesThroughTheFallback) {
  Bytes input = TextBytes(7000, 36);
  Bytes output;
  Status s = DecompressInto(CompressionCodec::kLzo, LzoBlock(input), input.size(), &output);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(output, input);
  EXPECT_TRUE(DecompressInto(CompressionCodec::kLzo, LzoBlock(input), input.size() - 1, &output)
                  .IsCorruption());
}

TEST(LzoFramingTest, FramesThatDoNotAddUpAreCorruption) {
  Bytes first = TextBytes(4000, 37), second = TextBytes(1000, 38);
  Bytes page;
  AppendLzoFrame(&page, first);
  AppendLzoFrame(&page, second);
  Bytes output;
  EXPECT_TRUE(DecompressInto(CompressionCodec::kLzo, page, 4999, &output).IsCorruption());
  EXPECT_TRUE(DecompressInto(CompressionCodec::kLzo, page, 5001, &output).IsCorruption());
  Bytes lying = page;
  lying[3] = static_cast<uint8_t>(lying[3] + 1);  // first frame says 4001 bytes
  Status s = DecompressInto(CompressionCodec::kLzo, lying, 5000, &output);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("LZO page is invalid"), std::string::npos) << s.ToString();
  Bytes huge = page;
  huge[0] = 0xFF;  // first frame says ~4 GB
  EXPECT_TRUE(DecompressInto(CompressionCodec::kLzo, huge, 5000, &output).IsCorruption());
  Bytes chunk_overrun = page;
  chunk_overrun[4] = 0x7F;  // compressed size past the end of the page
  EXPECT_TRUE(DecompressInto(CompressionCodec::kLzo, chunk_overrun, 5000, &output).IsCorruption());
}

TEST(LzoFramingTest, TruncatedOrFlippedFramedPagesNeverCrash) {
  Bytes first = TextBytes(1500, 39), second = TextBytes(700, 40);
  Bytes page;
  AppendLzoFrame(&page, first);
  AppendLzoFrame(&page, second);
  const size_t size = first.size() + second.size();
  Bytes output;
  for (size_t keep = 0; keep < page.size(); ++keep) {
    Bytes truncated(page.begin(), page.begin() + static_cast<std::ptrdiff_t>(keep));
    Status s = DecompressInto(CompressionCodec::kLzo, truncated, size, &output);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString() << " kept " << keep;
  }
  for (size_t bit = 0; bit < page.size() * 8; bit += 3) {
    Bytes flipped = page;
    flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    Status s = DecompressInto(CompressionCodec::kLzo, flipped, size, &output);
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    }
  }
}

// --- ZSTD --------------------------------------------------------------------------------------

// A frame written by the streaming API with the content size left out of the header.
Bytes ZstdFrameWithoutContentSize(const Bytes& input) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  EXPECT_FALSE(ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0)));
  EXPECT_FALSE(ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)));
  Bytes out(ZSTD_compressBound(input.size()));
  size_t n = ZSTD_compress2(cctx, out.data(), out.size(), input.data(), input.size());
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  ZSTD_freeCCtx(cctx);
  return out;
}

TEST(ZstdFramingTest, FrameWithoutContentSize) {
  Bytes input = TextBytes(20000, 16);
  Bytes frame = ZstdFrameWithoutContentSize(input);
  ASSERT_EQ(ZSTD_getFrameContentSize(frame.data(), frame.size()), ZSTD_CONTENTSIZE_UNKNOWN);
  Bytes output;
  Status s = DecompressInto(CompressionCodec::kZstd, frame, input.size(), &output);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(output, input);
  EXPECT_TRUE(
      DecompressInto(CompressionCodec::kZstd, frame, input.size() - 1, &output).IsCorruption());
  EXPECT_TRUE(
      DecompressInto(CompressionCodec::kZstd, frame, input.size() + 1, &output).IsCorruption());
  // Its checksum catches a flipped content bit even where the block still decodes.
  Bytes corrupt = frame;
  corrupt[corrupt.size() - 1] ^= 0x10;
  EXPECT_TRUE(
      DecompressInto(CompressionCodec::kZstd, corrupt, input.size(), &output).IsCorruption());
}

TEST(ZstdFramingTest, SeveralFramesAndASkippableFrame) {
  Bytes a = TextBytes(3000, 17), b = TextBytes(4000, 18);
  Bytes fa(ZSTD_compressBound(a.size())), fb(ZSTD_compressBound(b.size()));
  fa.resize(ZSTD_compress(fa.data(), fa.size(), a.data(), a.size(), 3));
  fb = ZstdFrameWithoutContentSize(b);
  // A skippable frame: magic 0x184D2A50 little endian, 4-byte size, payload.
  Bytes skippable = {0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 'x', 'y', 'z'};
  Bytes page = Concat(Concat(fa, skippable), fb);
  Bytes output;
  Status s = DecompressInto(CompressionCodec::kZstd, page, a.size() + b.size(), &output);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(output, Concat(a, b));
}

// --- SNAPPY ------------------------------------------------------------------------------------

TEST(SnappyFramingTest, LengthPrefixMustMatchTheHeader) {
  Bytes input = TextBytes(1000, 19);
  std::string compressed;
  snappy::Compress(reinterpret_cast<const char*>(input.data()), input.size(), &compressed);
  Bytes block(compressed.begin(), compressed.end());
  Bytes output;
  ASSERT_TRUE(DecompressInto(CompressionCodec::kSnappy, block, 1000, &output).ok());
  EXPECT_EQ(output, input);
  Status s = DecompressInto(CompressionCodec::kSnappy, block, 1001, &output);
  EXPECT_EQ(s.message(), "SNAPPY page decompressed to 1000 bytes but the page header says 1001");
  // A prefix that lies about the size (1000 = E8 07; claim 1001 = E9 07) cannot overrun the buffer.
  Bytes lying = block;
  ASSERT_EQ(lying[0], 0xE8);
  lying[0] = 0xE9;
  EXPECT_TRUE(DecompressInto(CompressionCodec::kSnappy, lying, 1001, &output).IsCorruption());
  // An overlong varint prefix.
  Bytes bad_prefix = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01};
  EXPECT_TRUE(DecompressInto(CompressionCodec::kSnappy, bad_prefix, 10, &output).IsCorruption());
}

// --- BROTLI ------------------------------------------------------------------------------------

TEST(BrotliFramingTest, ConcatenatedStreamsAreNotOneStream) {
  // Brotli has no member concatenation: bytes after the end of the stream are an error.
  Bytes a = TextBytes(1000, 20);
  Bytes fa;
  ASSERT_TRUE(Compress(CompressionCodec::kBrotli, a, kDefaultCompressionLevel, &fa).ok());
  Bytes output;
  EXPECT_TRUE(
      DecompressInto(CompressionCodec::kBrotli, Concat(fa, fa), 2000, &output).IsCorruption());
}

}  // namespace
}  // namespace pq
