// Round trips, size checks and corrupt inputs for every codec, through the public API of codec.h.
#include "format/codec/codec.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <thread>
#include <vector>

namespace pq {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes out(n);
  for (auto& b : out) b = static_cast<uint8_t>(rng());
  return out;
}

// Text-like data: words from a small vocabulary, so every codec finds matches.
Bytes CompressibleBytes(size_t n, uint32_t seed) {
  static const char* kWords[] = {"parquet ",         "column ",    "page ",   "row group ",
                                 "dictionary ",      "0123456789", "snappy ", "zstd ",
                                 "\x00\x00\x00\x00", "value "};
  std::mt19937 rng(seed);
  Bytes out;
  out.reserve(n);
  while (out.size() < n) {
    std::string w = kWords[rng() % 10];
    if (w.empty()) w.assign(4, '\0');
    for (char c : w) {
      if (out.size() == n) break;
      out.push_back(static_cast<uint8_t>(c));
    }
  }
  return out;
}

// Half random, half runs: exercises literal and match paths in one buffer.
Bytes MixedBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes out(n);
  size_t i = 0;
  while (i < n) {
    size_t run = 1 + rng() % 300;
    bool repeat = rng() % 2 == 0;
    uint8_t v = static_cast<uint8_t>(rng());
    for (size_t k = 0; k < run && i < n; ++k, ++i)
      out[i] = repeat ? v : static_cast<uint8_t>(rng());
  }
  return out;
}

Bytes MustCompress(CompressionCodec codec, const Bytes& input,
                   int level = kDefaultCompressionLevel) {
  Bytes out;
  Status s = Compress(codec, input, level, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

constexpr CompressionCodec kWritable[] = {
    CompressionCodec::kUncompressed, CompressionCodec::kSnappy, CompressionCodec::kGzip,
    CompressionCodec::kBrotli,       CompressionCodec::kZstd,   CompressionCodec::kLz4Raw,
    CompressionCodec::kLzo,
};

// Every codec that decodes (LZ4 through the bare-block fallback reads LZ4_RAW output).
constexpr CompressionCodec kReadable[] = {
    CompressionCodec::kUncompressed, CompressionCodec::kSnappy, CompressionCodec::kGzip,
    CompressionCodec::kBrotli,       CompressionCodec::kLz4,    CompressionCodec::kZstd,
    CompressionCodec::kLz4Raw,       CompressionCodec::kLzo,
};

// The writable codec whose output `codec` decodes.
CompressionCodec WriterFor(CompressionCodec codec) {
  return codec == CompressionCodec::kLz4 ? CompressionCodec::kLz4Raw : codec;
}

std::string Name(CompressionCodec c) {
  return std::to_string(static_cast<int>(c));
}

std::string CodecParamName(const ::testing::TestParamInfo<CompressionCodec>& p) {
  return "codec" + Name(p.param);
}

class CodecTest : public ::testing::TestWithParam<CompressionCodec> {};

TEST_P(CodecTest, RoundTripsManyShapesAndSizes) {
  const CompressionCodec codec = GetParam();
  std::vector<Bytes> inputs = {Bytes{},
                               Bytes{0x42},
                               Bytes{0, 0},
                               RandomBytes(7, 1),
                               RandomBytes(1000, 2),
                               CompressibleBytes(100000, 3),
                               MixedBytes(65537, 4),
                               Bytes(70000, 0xAB)};
  for (const Bytes& input : inputs) {
    Bytes compressed = MustCompress(codec, input);
    Bytes output(input.size(), 0xEE);
    Status s = Decompress(codec, compressed, output);
    ASSERT_TRUE(s.ok()) << s.ToString() << " size " << input.size();
    EXPECT_EQ(output, input) << "size " << input.size();
  }
}

TEST_P(CodecTest, CompressibleDataShrinks) {
  const CompressionCodec codec = GetParam();
  Bytes input = CompressibleBytes(100000, 5);
  Bytes compressed = MustCompress(codec, input);
  if (codec == CompressionCodec::kUncompressed) {
    EXPECT_EQ(compressed, input);
  } else {
    EXPECT_LT(compressed.size(), input.size() / 2);
  }
}

TEST_P(CodecTest, RoundTripsFiveMegabytes) {
  const CompressionCodec codec = GetParam();
  Bytes input = MixedBytes(5 * 1024 * 1024, 6);
  Bytes compressed = MustCompress(codec, input);
  Bytes output(input.size());
  ASSERT_TRUE(Decompress(codec, compressed, output).ok());
  EXPECT_EQ(output, input);
}

TEST_P(CodecTest, RoundTripsAtEveryLevelOfItsRange) {
  const CompressionCodec codec = GetParam();
  Bytes input = MixedBytes(20000, 7);
  Result<int> def = ValidateCompressionLevel(codec, kDefaultCompressionLevel);
  ASSERT_TRUE(def.ok());
  std::vector<int> levels = {kDefaultCompressionLevel};
  if (codec == CompressionCodec::kGzip) {
    for (int l = 1; l <= 9; ++l) levels.push_back(l);
  } else if (codec == CompressionCodec::kZstd) {
    for (int l = 1; l <= 22; ++l) levels.push_back(l);
  } else if (codec == CompressionCodec::kBrotli) {
    for (int l = 0; l <= 11; ++l) levels.push_back(l);
  }
  for (int level : levels) {
    Bytes compressed = MustCompress(codec, input, level);
    Bytes output(input.size());
    Status s = Decompress(codec, compressed, output);
    ASSERT_TRUE(s.ok()) << s.ToString() << " level " << level;
    EXPECT_EQ(output, input) << "level " << level;
  }
}

TEST_P(CodecTest, CompressReplacesTheOutputVector) {
  const CompressionCodec codec = GetParam();
  Bytes input = CompressibleBytes(5000, 9);
  Bytes expected = MustCompress(codec, input);
  Bytes out(100000, 0x77);
  ASSERT_TRUE(Compress(codec, input, kDefaultCompressionLevel, &out).ok());
  EXPECT_EQ(out, expected);
}

TEST_P(CodecTest, WrongOutputSizeIsCorruption) {
  const CompressionCodec codec = GetParam();
  for (const Bytes& input : {CompressibleBytes(10000, 10), RandomBytes(3000, 11), Bytes{9}}) {
    Bytes compressed = MustCompress(codec, input);
    for (size_t size : {size_t{0}, input.size() - 1, input.size() + 1, input.size() * 2 + 100}) {
      if (size == input.size()) continue;
      Bytes output(size);
      Status s = Decompress(codec, compressed, output);
      EXPECT_TRUE(s.IsCorruption())
          << s.ToString() << " input " << input.size() << " output " << size;
    }
  }
}

TEST_P(CodecTest, ConcurrentThreadsDecompressIndependently) {
  const CompressionCodec codec = GetParam();
  constexpr int kThreads = 4;
  std::vector<Bytes> inputs, compressed;
  for (int t = 0; t < kThreads; ++t) {
    inputs.push_back(
        MixedBytes(50000 + static_cast<size_t>(t) * 1000, 100 + static_cast<uint32_t>(t)));
    compressed.push_back(MustCompress(codec, inputs.back()));
  }
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        Bytes out(inputs[t].size());
        if (!Decompress(codec, compressed[t], out).ok() || out != inputs[t]) ++failures[t];
        // A failure in between must not poison the thread's reused context.
        Bytes wrong(inputs[t].size() + 1);
        if (Decompress(codec, compressed[t], wrong).ok()) ++failures[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

INSTANTIATE_TEST_SUITE_P(Writable, CodecTest, ::testing::ValuesIn(kWritable), CodecParamName);

class ReadableCodecTest : public ::testing::TestWithParam<CompressionCodec> {};

TEST_P(ReadableCodecTest, EmptyInputIsOkOnlyForEmptyOutput) {
  Bytes none;
  EXPECT_TRUE(Decompress(GetParam(), ByteSpan{}, std::span<uint8_t>{}).ok());
  Bytes output(10);
  Status s = Decompress(GetParam(), ByteSpan{}, output);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

TEST_P(ReadableCodecTest, EveryTruncationIsAnError) {
  const CompressionCodec codec = GetParam();
  for (const Bytes& input : {CompressibleBytes(4000, 20), RandomBytes(600, 21)}) {
    Bytes compressed = MustCompress(WriterFor(codec), input);
    Bytes output(input.size());
    for (size_t keep = 0; keep < compressed.size(); ++keep) {
      Status s = Decompress(codec, ByteSpan(compressed).first(keep), output);
      EXPECT_TRUE(s.IsCorruption())
          << s.ToString() << " kept " << keep << " of " << compressed.size();
    }
  }
}

TEST_P(ReadableCodecTest, BitFlipsNeverCrash) {
  // Codecs without a checksum may decode a flipped byte to different data of the right size; what
  // matters is that no flip reads or writes out of bounds (run under the sanitizers).
  const CompressionCodec codec = GetParam();
  Bytes input = MixedBytes(3000, 22);
  Bytes compressed = MustCompress(WriterFor(codec), input);
  std::mt19937 rng(23);
  int errors = 0;
  for (size_t pos = 0; pos < compressed.size(); ++pos) {
    for (int flip = 0; flip < 3; ++flip) {
      Bytes corrupt = compressed;
      corrupt[pos] ^= static_cast<uint8_t>(1u << (rng() % 8));
      Bytes output(input.size());
      Status s = Decompress(codec, corrupt, output);
      if (!s.ok()) {
        ++errors;
        EXPECT_TRUE(s.IsCorruption()) << s.ToString();
      }
    }
  }
  if (codec != CompressionCodec::kUncompressed) {
    EXPECT_GT(errors, 0);
  }
}

TEST_P(ReadableCodecTest, RandomGarbageNeverCrashes) {
  const CompressionCodec codec = GetParam();
  std::mt19937 rng(24);
  for (int i = 0; i < 300; ++i) {
    Bytes garbage = RandomBytes(1 + rng() % 200, static_cast<uint32_t>(i));
    Bytes output(rng() % 400);
    Status s = Decompress(codec, garbage, output);
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    }
  }
}

TEST_P(ReadableCodecTest, TrailingBytesAreAnError) {
  const CompressionCodec codec = GetParam();
  Bytes input = CompressibleBytes(5000, 25);
  Bytes compressed = MustCompress(WriterFor(codec), input);
  compressed.push_back(0x5A);
  Bytes output(input.size());
  Status s = Decompress(codec, compressed, output);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

INSTANTIATE_TEST_SUITE_P(Readable, ReadableCodecTest, ::testing::ValuesIn(kReadable),
                         CodecParamName);

TEST(CodecErrorsTest, LzoTakesNoLevel) {
  EXPECT_TRUE(CodecSupportsWrite(CompressionCodec::kLzo));
  EXPECT_EQ(*ValidateCompressionLevel(CompressionCodec::kLzo, kDefaultCompressionLevel), 0);
  EXPECT_TRUE(ValidateCompressionLevel(CompressionCodec::kLzo, 1).status().IsInvalidArgument());
}

TEST(CodecErrorsTest, UnknownCodecNumbersAreNotSupported) {
  for (int32_t n : {-1, 8, 42, INT32_MAX}) {
    auto codec = static_cast<CompressionCodec>(n);
    Bytes output(1);
    Status s = Decompress(codec, Bytes{1}, output);
    EXPECT_TRUE(s.IsNotSupported()) << n;
    EXPECT_EQ(s.message(), "unknown compression codec " + std::to_string(n));
    EXPECT_FALSE(CodecSupportsWrite(codec));
    EXPECT_TRUE(
        ValidateCompressionLevel(codec, kDefaultCompressionLevel).status().IsNotSupported());
  }
}

TEST(CodecErrorsTest, HadoopLz4IsReadOnly) {
  EXPECT_FALSE(CodecSupportsWrite(CompressionCodec::kLz4));
  Bytes out;
  Status s = Compress(CompressionCodec::kLz4, Bytes{1, 2}, kDefaultCompressionLevel, &out);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.message().find("LZ4_RAW"), std::string::npos) << s.message();
}

TEST(CodecErrorsTest, WritableCodecs) {
  for (CompressionCodec c : kWritable) EXPECT_TRUE(CodecSupportsWrite(c)) << Name(c);
}

TEST(CodecErrorsTest, UncompressedSizeMustMatch) {
  Bytes input = {1, 2, 3, 4};
  Bytes small(3), large(5), exact(4);
  EXPECT_TRUE(Decompress(CompressionCodec::kUncompressed, input, small).IsCorruption());
  EXPECT_TRUE(Decompress(CompressionCodec::kUncompressed, input, large).IsCorruption());
  ASSERT_TRUE(Decompress(CompressionCodec::kUncompressed, input, exact).ok());
  EXPECT_EQ(exact, input);
}

TEST(CodecErrorsTest, MessagesNameTheCodecAndSizes) {
  Bytes input = CompressibleBytes(1000, 30);
  Bytes compressed = MustCompress(CompressionCodec::kZstd, input);
  Bytes output(999);
  Status s = Decompress(CompressionCodec::kZstd, compressed, output);
  EXPECT_EQ(s.message(), "ZSTD page decompresses to more than the 999 bytes the page header says");
  Bytes larger(1001);
  s = Decompress(CompressionCodec::kZstd, compressed, larger);
  EXPECT_EQ(s.message(), "ZSTD page decompressed to 1000 bytes but the page header says 1001");
  s = Decompress(CompressionCodec::kGzip, ByteSpan{}, larger);
  EXPECT_EQ(s.message(), "GZIP page is empty but the page header says 1001 bytes");
}

TEST(CodecLevelTest, HigherLevelsDoNotCompressWorse) {
  Bytes input = CompressibleBytes(200000, 8);
  struct Levels {
    CompressionCodec codec;
    int low, high;
  };
  for (Levels l : {Levels{CompressionCodec::kGzip, 1, 9}, Levels{CompressionCodec::kZstd, 1, 19},
                   Levels{CompressionCodec::kBrotli, 0, 11}}) {
    EXPECT_LT(MustCompress(l.codec, input, l.high).size(),
              MustCompress(l.codec, input, l.low).size())
        << Name(l.codec);
  }
}

TEST(CodecLevelTest, DefaultsAndRanges) {
  EXPECT_EQ(*ValidateCompressionLevel(CompressionCodec::kGzip, kDefaultCompressionLevel), 6);
  EXPECT_EQ(*ValidateCompressionLevel(CompressionCodec::kZstd, kDefaultCompressionLevel), 3);
  EXPECT_EQ(*ValidateCompressionLevel(CompressionCodec::kBrotli, kDefaultCompressionLevel), 4);
  for (CompressionCodec c :
       {CompressionCodec::kUncompressed, CompressionCodec::kSnappy, CompressionCodec::kLz4Raw}) {
    EXPECT_EQ(*ValidateCompressionLevel(c, kDefaultCompressionLevel), 0);
    for (int level : {0, 1, 5, -1}) {
      Result<int> r = ValidateCompressionLevel(c, level);
      EXPECT_TRUE(r.status().IsInvalidArgument()) << Name(c) << " level " << level;
    }
  }
  struct Range {
    CompressionCodec codec;
    int min, max;
  };
  for (Range r : {Range{CompressionCodec::kGzip, 1, 9}, Range{CompressionCodec::kZstd, 1, 22},
                  Range{CompressionCodec::kBrotli, 0, 11}}) {
    for (int level = r.min; level <= r.max; ++level) {
      Result<int> v = ValidateCompressionLevel(r.codec, level);
      ASSERT_TRUE(v.ok()) << Name(r.codec) << " " << level;
      EXPECT_EQ(*v, level);
    }
    for (int level : {r.min - 1, r.max + 1, -100, 1000, INT32_MAX, INT32_MIN + 1}) {
      EXPECT_TRUE(ValidateCompressionLevel(r.codec, level).status().IsInvalidArgument())
          << Name(r.codec) << " " << level;
      Bytes out;
      EXPECT_TRUE(Compress(r.codec, Bytes{1, 2, 3}, level, &out).IsInvalidArgument());
    }
  }
  EXPECT_EQ(ValidateCompressionLevel(CompressionCodec::kZstd, 23).status().message(),
            "ZSTD compression level must be between 1 and 22, got 23");
  EXPECT_EQ(ValidateCompressionLevel(CompressionCodec::kSnappy, 3).status().message(),
            "SNAPPY does not take a compression level (got 3)");
  EXPECT_TRUE(ValidateCompressionLevel(CompressionCodec::kLz4, kDefaultCompressionLevel)
                  .status()
                  .IsNotSupported());
}

TEST(CodecNameTest, ParsesWriterOptionValues) {
  struct Case {
    const char* text;
    CompressionCodec codec;
  };
  for (Case c :
       {Case{"uncompressed", CompressionCodec::kUncompressed},
        Case{"NONE", CompressionCodec::kUncompressed}, Case{"snappy", CompressionCodec::kSnappy},
        Case{"SNAPPY", CompressionCodec::kSnappy}, Case{"gzip", CompressionCodec::kGzip},
        Case{"GZip", CompressionCodec::kGzip}, Case{"zstd", CompressionCodec::kZstd},
        Case{"Zstd", CompressionCodec::kZstd}, Case{"brotli", CompressionCodec::kBrotli},
        Case{"lz4_raw", CompressionCodec::kLz4Raw}, Case{"LZ4_RAW", CompressionCodec::kLz4Raw},
        Case{"lz4", CompressionCodec::kLz4Raw}, Case{"lzo", CompressionCodec::kLzo},
        Case{"LZO", CompressionCodec::kLzo}}) {
    Result<CompressionCodec> r = ParseCodecName(c.text);
    ASSERT_TRUE(r.ok()) << c.text;
    EXPECT_EQ(*r, c.codec) << c.text;
  }
  for (const char* bad : {"", "lzo1x", "zlib", "gz", "snappy ", " zstd", "lz4raw"}) {
    Result<CompressionCodec> r = ParseCodecName(bad);
    EXPECT_TRUE(r.status().IsInvalidArgument()) << bad;
  }
  EXPECT_EQ(
      ParseCodecName("lzop").status().message(),
      "unknown compression 'lzop' (expected uncompressed, snappy, gzip, brotli, zstd, lz4_raw or lzo)");
  // A string_view with an embedded NUL is not "zstd".
  EXPECT_FALSE(ParseCodecName(std::string_view("zstd\0", 5)).ok());
}

}  // namespace
}  // namespace pq
