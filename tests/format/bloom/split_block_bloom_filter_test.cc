#include "format/bloom/split_block_bloom_filter.h"

#include <gtest/gtest.h>

#include <cmath>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "format/column/column_reader.h"
#include "format/file/file_reader.h"
#include "format/metadata/metadata_io.h"

namespace pq {
namespace {

const std::string kData = std::string(PQ_TESTDATA_DIR) + "/parquet-testing/data/";

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

uint64_t HashOf(std::string_view s) {
  return BloomHash(AsBytes(s));
}

std::vector<uint32_t> Words(const SplitBlockBloomFilter& f) {
  std::vector<uint32_t> w(static_cast<size_t>(f.num_bytes() / 4));
  std::memcpy(w.data(), f.bitset().data(), w.size() * 4);
  return w;
}

TEST(BloomHashTest, Xxh64WithSeedZeroOfThePlainBytes) {
  // XXH64(seed 0) of the UTF-8 bytes, as other Parquet implementations compute them.
  EXPECT_EQ(HashOf("bloom"), 0x50c8fb9e62dbc53cULL);
  EXPECT_EQ(HashOf("filter"), 0x2a5736cdfcd7a9a1ULL);
  // A BYTE_ARRAY hashes its bytes without the length prefix; fixed-width values their LE bytes.
  const std::string s = "filter";
  EXPECT_EQ(BloomHash(ByteArray{reinterpret_cast<const uint8_t*>(s.data()), 6}), HashOf("filter"));
  const int32_t i32 = 0x04030201;
  EXPECT_EQ(BloomHash(i32), HashOf(std::string("\x01\x02\x03\x04", 4)));
  const int64_t i64 = 0x0807060504030201LL;
  EXPECT_EQ(BloomHash(i64), HashOf(std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8)));
  EXPECT_EQ(BloomHash(1.0), HashOf(std::string("\x00\x00\x00\x00\x00\x00\xf0\x3f", 8)));
  EXPECT_EQ(BloomHash(1.0f), HashOf(std::string("\x00\x00\x80\x3f", 4)));
  Int96 i96;
  i96.value[0] = 1, i96.value[1] = 2, i96.value[2] = 3;
  EXPECT_EQ(BloomHash(i96), HashOf(std::string("\x01\0\0\0\x02\0\0\0\x03\0\0\0", 12)));
  // Zeros of different sign are different bit patterns.
  EXPECT_NE(BloomHash(0.0), BloomHash(-0.0));
}

TEST(SplitBlockBloomFilterTest, MaskSetsOneBitPerWordFromTheSalt) {
  SplitBlockBloomFilter f(32);
  ASSERT_EQ(f.num_blocks(), 1);
  // Key 1: bit (SALT[i] >> 27) of word i (the Parquet spec, "Bloom Filter", mask()).
  f.Insert(1);
  const std::vector<uint32_t> expected = {1u << 8,  1u << 8, 1u << 17, 1u << 20,
                                          1u << 14, 1u << 5, 1u << 19, 1u << 11};
  EXPECT_EQ(Words(f), expected);
  EXPECT_TRUE(f.Check(1));
  // Key 0: 0 * salt = 0, bit 0 of every word.
  f.Insert(0);
  for (uint32_t w : Words(f)) EXPECT_TRUE(w & 1u);
  EXPECT_TRUE(f.Check(0));
}

TEST(SplitBlockBloomFilterTest, UpperHashBitsPickTheBlock) {
  SplitBlockBloomFilter f(4 * 32);
  ASSERT_EQ(f.num_blocks(), 4);
  // (h >> 32) * 4 >> 32: 0xFFFFFFFF -> block 3, 0x40000000 -> block 1, 0x3FFFFFFF -> block 0.
  f.Insert(0xFFFFFFFF00000000ULL);
  f.Insert(0x4000000000000000ULL);
  std::vector<uint32_t> w = Words(f);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(w[static_cast<size_t>(i)], 0u);       // block 0 untouched
    EXPECT_EQ(w[static_cast<size_t>(8 + i)], 1u);   // block 1: key 0 -> bit 0
    EXPECT_EQ(w[static_cast<size_t>(16 + i)], 0u);  // block 2 untouched
    EXPECT_EQ(w[static_cast<size_t>(24 + i)], 1u);  // block 3
  }
  EXPECT_FALSE(f.Check(0x3FFFFFFF00000000ULL));
}

TEST(SplitBlockBloomFilterTest, MatchesTheParquetTestingFilterBitForBit) {
  // bloom_filter.xxhash.bin: parquet-mr's 1024-byte filter holding "hello", "parquet", "bloom",
  // "filter", stored as header then bitset.
  const std::string file = ReadWholeFile(kData + "bloom_filter.xxhash.bin");
  ASSERT_EQ(file.size(), 1040u);
  size_t consumed = 0;
  auto read = SplitBlockBloomFilter::Read(AsBytes(file), &consumed);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(consumed, file.size());
  EXPECT_EQ(read->num_bytes(), 1024);
  EXPECT_EQ(read->num_blocks(), 32);
  for (const char* s : {"hello", "parquet", "bloom", "filter"})
    EXPECT_TRUE(read->Check(HashOf(s))) << s;
  int false_positives = 0;
  for (int i = 0; i < 1000; ++i)
    false_positives += read->Check(HashOf("absent-" + std::to_string(i)));
  EXPECT_LT(false_positives, 5);

  // Inserting the same four strings into an empty filter of that size gives the same bits, and
  // serializing it gives the same file.
  SplitBlockBloomFilter mine(1024);
  for (const char* s : {"hello", "parquet", "bloom", "filter"}) mine.Insert(HashOf(s));
  EXPECT_EQ(Words(mine), Words(*read));
  std::string serialized;
  mine.Serialize(&serialized);
  EXPECT_EQ(serialized, file);
}

TEST(SplitBlockBloomFilterTest, EveryValueOfAColumnWithAStoredFilterProbesTrue) {
  for (const char* name : {"data_index_bloom_encoding_stats.parquet",
                           "data_index_bloom_encoding_with_length.parquet"}) {
    SCOPED_TRACE(name);
    auto file = FileReader::Open(kData + name, ReaderOptions{});
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    std::shared_ptr<const FileReader> reader = *file;
    ASSERT_EQ(reader->schema().num_leaves(), 1);
    int values_checked = 0;
    for (int rg = 0; rg < reader->num_row_groups(); ++rg) {
      auto meta = reader->ColumnMeta(rg, 0);
      ASSERT_TRUE(meta.ok());
      ASSERT_TRUE((*meta)->bloom_filter_offset.has_value());
      const int64_t offset = *(*meta)->bloom_filter_offset;
      const int64_t length = (*meta)->bloom_filter_length.value_or(reader->file().size() - offset);
      auto bytes = reader->file().ReadAt(offset, length);
      ASSERT_TRUE(bytes.ok());
      size_t consumed = 0;
      auto filter = SplitBlockBloomFilter::Read(ByteSpan(**bytes), &consumed);
      ASSERT_TRUE(filter.ok()) << filter.status().ToString();
      if ((*meta)->bloom_filter_length) {
        EXPECT_EQ(static_cast<int64_t>(consumed), length);
      }

      auto column = ColumnChunkReader::Make(reader, rg, 0);
      ASSERT_TRUE(column.ok()) << column.status().ToString();
      ColumnBatch batch;
      auto n = (*column)->ReadRecords(1 << 20, &batch);
      ASSERT_TRUE(n.ok()) << n.status().ToString();
      ASSERT_GT(batch.num_values, 0);
      for (size_t i = 0; i < batch.bytes.size(); ++i) {
        EXPECT_TRUE(filter->Check(BloomHash(batch.bytes[i]))) << batch.bytes[i].view();
        ++values_checked;
      }
      int false_positives = 0;
      for (int i = 0; i < 1000; ++i)
        false_positives += filter->Check(HashOf("not-in-the-column-" + std::to_string(i)));
      EXPECT_LT(false_positives, 100);
    }
    EXPECT_GT(values_checked, 0);
  }
}

TEST(SplitBlockBloomFilterTest, FalsePositiveModelMatchesTheSpecsTable) {
  // "Sizing an SBBF": bits of space per insert -> false positive probability.
  const struct {
    double bits_per_value;
    double fpp;
  } table[] = {{6.0, 0.10}, {10.5, 0.01}, {16.9, 0.001}, {26.4, 0.0001}, {41.0, 0.00001}};
  for (const auto& row : table) {
    const int64_t blocks = 100'000;
    const auto ndv = static_cast<int64_t>(static_cast<double>(blocks) * 256 / row.bits_per_value);
    const double p = SplitBlockBloomFilter::FalsePositiveProbability(ndv, blocks);
    EXPECT_NEAR(p / row.fpp, 1.0, 0.05) << row.bits_per_value;
  }
  // The spec's example: 1024 blocks, 26,214 values, about 1.26%.
  EXPECT_NEAR(SplitBlockBloomFilter::FalsePositiveProbability(26214, 1024), 0.0126, 0.0002);
  EXPECT_EQ(SplitBlockBloomFilter::FalsePositiveProbability(0, 1), 0.0);
  // More values, or fewer blocks, never lower it.
  EXPECT_LT(SplitBlockBloomFilter::FalsePositiveProbability(1000, 500),
            SplitBlockBloomFilter::FalsePositiveProbability(1001, 500));
  EXPECT_LT(SplitBlockBloomFilter::FalsePositiveProbability(1000, 501),
            SplitBlockBloomFilter::FalsePositiveProbability(1000, 500));
}

TEST(SplitBlockBloomFilterTest, OptimalSizeIsTheFewestBlocksThatMeetTheProbability) {
  EXPECT_EQ(SplitBlockBloomFilter::OptimalNumBytes(0, 0.01), 32);
  EXPECT_EQ(SplitBlockBloomFilter::OptimalNumBytes(1, 0.01), 32);
  for (int64_t ndv : {2, 10, 1000, 26214, 100'000, 1'000'000}) {
    for (double fpp : {0.2, 0.05, 0.01, 0.001}) {
      const int64_t bytes = SplitBlockBloomFilter::OptimalNumBytes(ndv, fpp);
      ASSERT_EQ(bytes % 32, 0) << ndv << " " << fpp;
      const int64_t blocks = bytes / 32;
      EXPECT_LE(SplitBlockBloomFilter::FalsePositiveProbability(ndv, blocks), fpp)
          << ndv << " " << fpp;
      if (blocks > 1) {
        EXPECT_GT(SplitBlockBloomFilter::FalsePositiveProbability(ndv, blocks - 1), fpp)
            << ndv << " " << fpp;
      }
    }
  }
  // 1% takes about 10.5 bits per value (the spec's table): 1M values in about 1.3 MB, not the
  // 2 MiB a power of two would round up to.
  const int64_t million = SplitBlockBloomFilter::OptimalNumBytes(1'000'000, 0.01);
  EXPECT_GT(million, 1'300'000);
  EXPECT_LT(million, 1'340'000);
  // The cap, rounded down to whole blocks.
  EXPECT_EQ(SplitBlockBloomFilter::OptimalNumBytes(1'000'000, 0.01, 1 << 20), 1 << 20);
  EXPECT_EQ(SplitBlockBloomFilter::OptimalNumBytes(1'000'000, 0.01, (1 << 20) + 40),
            (1 << 20) + 32);
  // Never more than 128 MiB, never less than one block.
  EXPECT_EQ(SplitBlockBloomFilter::OptimalNumBytes(int64_t{1} << 40, 0.001),
            SplitBlockBloomFilter::kMaxBytes);
  EXPECT_EQ(SplitBlockBloomFilter::OptimalNumBytes(1000, 0.01, 1), 32);
  // Lower probabilities never need fewer bytes.
  for (int64_t ndv : {10, 1000, 100000}) {
    int64_t prev = 0;
    for (double fpp : {0.5, 0.1, 0.01, 0.001, 0.0001}) {
      const int64_t n = SplitBlockBloomFilter::OptimalNumBytes(ndv, fpp);
      EXPECT_GE(n, prev);
      prev = n;
    }
  }
  // The constructor rounds up to whole blocks within the limits.
  EXPECT_EQ(SplitBlockBloomFilter(33).num_bytes(), 64);
  EXPECT_EQ(SplitBlockBloomFilter(96).num_bytes(), 96);
  EXPECT_EQ(SplitBlockBloomFilter(0).num_bytes(), 32);
}

TEST(SplitBlockBloomFilterTest, MeasuredFalsePositiveRateMeetsTheTarget) {
  // A filter sized exactly (not a power of two) for n values: probing a million absent hashes
  // finds the rate the model promises, which is at most the one asked for.
  std::mt19937_64 rng(20240611);
  for (double fpp : {0.01, 0.05}) {
    for (int64_t ndv : {20'000, 77'777}) {
      const int64_t bytes = SplitBlockBloomFilter::OptimalNumBytes(ndv, fpp);
      SplitBlockBloomFilter f(bytes);
      ASSERT_EQ(f.num_bytes(), bytes);
      std::vector<uint64_t> inserted(static_cast<size_t>(ndv));
      for (auto& h : inserted) h = rng();
      f.InsertMany(inserted.data(), ndv);
      for (uint64_t h : inserted) ASSERT_TRUE(f.Check(h));
      int64_t false_positives = 0;
      const int64_t probes = 1'000'000;
      for (int64_t i = 0; i < probes; ++i) false_positives += f.Check(rng());
      const double rate = static_cast<double>(false_positives) / static_cast<double>(probes);
      const double model = SplitBlockBloomFilter::FalsePositiveProbability(ndv, bytes / 32);
      EXPECT_LE(model, fpp);
      // Four standard deviations of a binomial count around the model.
      const double sigma = std::sqrt(model * (1 - model) / static_cast<double>(probes));
      EXPECT_NEAR(rate, model, 4 * sigma) << ndv << " " << fpp;
      EXPECT_LT(rate, fpp + 4 * sigma) << ndv << " " << fpp;
    }
  }
}

std::string Header(int32_t num_bytes, int16_t algorithm = 1, int16_t hash = 1,
                   int16_t compression = 1) {
  BloomFilterHeader h;
  h.num_bytes = num_bytes;
  h.algorithm = algorithm;
  h.hash = hash;
  h.compression = compression;
  std::string out;
  WriteBloomFilterHeader(h, &out);
  return out;
}

TEST(SplitBlockBloomFilterTest, ReadRefusesBadFilters) {
  const std::string bits(64, '\x5a');
  // Fine: exactly the bytes needed, and with more after them.
  for (const std::string& tail : {bits, bits + "extra"}) {
    size_t consumed = 0;
    auto f = SplitBlockBloomFilter::Read(AsBytes(Header(64) + tail), &consumed);
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    EXPECT_EQ(consumed, Header(64).size() + 64);
    EXPECT_EQ(AsStringView(f->bitset()), bits);
  }
  // A bitset cut short.
  auto cut = SplitBlockBloomFilter::Read(AsBytes(Header(64) + bits.substr(0, 63)));
  EXPECT_TRUE(cut.status().IsCorruption()) << cut.status().ToString();
  // Sizes that are not whole blocks.
  for (int32_t n : {0, -32, 48, 31}) {
    auto f = SplitBlockBloomFilter::Read(AsBytes(Header(n) + bits));
    EXPECT_TRUE(f.status().IsCorruption()) << n << ": " << f.status().ToString();
  }
  // Alternatives this reader does not know.
  EXPECT_TRUE(SplitBlockBloomFilter::Read(AsBytes(Header(32, 2) + bits)).status().IsNotSupported());
  EXPECT_TRUE(
      SplitBlockBloomFilter::Read(AsBytes(Header(32, 1, 0) + bits)).status().IsNotSupported());
  EXPECT_TRUE(
      SplitBlockBloomFilter::Read(AsBytes(Header(32, 1, 1, 3) + bits)).status().IsNotSupported());
  // Over the caller's limit (the bitset is never allocated).
  EXPECT_TRUE(SplitBlockBloomFilter::Read(AsBytes(Header(64) + bits), nullptr, 32)
                  .status()
                  .IsNotSupported());
  EXPECT_TRUE(SplitBlockBloomFilter::Read(AsBytes(Header(INT32_MAX & ~31) + bits))
                  .status()
                  .IsNotSupported());
  // A truncated header.
  const std::string h = Header(64);
  for (size_t n = 0; n < h.size(); ++n) {
    EXPECT_FALSE(SplitBlockBloomFilter::Read(AsBytes(h.substr(0, n))).ok()) << n;
  }
}

TEST(SplitBlockBloomFilterTest, SerializeReadRoundTrip) {
  std::mt19937_64 rng(7);
  for (int64_t bytes : {32, 256, 4096, 65536}) {
    SplitBlockBloomFilter f(bytes);
    std::vector<uint64_t> hashes(500);
    for (auto& h : hashes) h = rng();
    f.InsertMany(hashes.data(), static_cast<int64_t>(hashes.size()));
    std::string s;
    f.Serialize(&s);
    size_t consumed = 0;
    auto back = SplitBlockBloomFilter::Read(AsBytes(s), &consumed);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(consumed, s.size());
    EXPECT_EQ(Words(*back), Words(f));
    for (uint64_t h : hashes) EXPECT_TRUE(back->Check(h));
  }
}

}  // namespace
}  // namespace pq
