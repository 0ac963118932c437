// The writer's encoding trial (column_writer.h): per column chunk, the first values decide between
// the dictionary, PLAIN and DELTA_BINARY_PACKED by their compressed size. Each test writes a file,
// checks what the chunk metadata says was chosen, and reads every value back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "format/bloom/split_block_bloom_filter.h"
#include "tests/format/writer/writer_test_util.h"

namespace pq {
namespace {

using namespace pq::testing;  // NOLINT

std::string TempPath(const std::string& name) {
  return "/tmp/pq-trial-" + std::to_string(::getpid()) + "-" + name + ".parquet";
}

std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The data page encodings of a chunk (dictionary page apart).
std::set<Encoding> DataEncodings(const ColumnMetaData& m) {
  std::set<Encoding> out;
  for (const PageEncodingStats& s : *m.encoding_stats) {
    if (s.page_type != PageType::kDictionaryPage) out.insert(s.encoding);
  }
  return out;
}

bool HasDictionaryPage(const ColumnMetaData& m) {
  return m.dictionary_page_offset.has_value();
}

// Writes one OPTIONAL leaf of `type` holding `d` (n records) and reads it back; returns the file.
std::shared_ptr<const FileReader> WriteAndCheck(const std::string& name, PhysicalType type,
                                                const LeafData& d, int64_t n,
                                                const WriterOptions& o) {
  const std::string path = TempPath(name);
  auto w = FileWriter::Open(path, {Root(1), Leaf("c", type, Repetition::kOptional)}, o);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  if (!w.ok()) return nullptr;
  EXPECT_TRUE(WriteTable(w->get(), {d}, n, 7000).ok());
  EXPECT_TRUE((*w)->Close().ok());
  auto file = OpenForTest(path);
  if (file) ExpectSameLeaf(d, ReadLeaf(file, 0), name);
  std::remove(path.c_str());
  return file;
}

WriterOptions Zstd() {
  WriterOptions o;
  o.codec = CompressionCodec::kZstd;
  o.encoding_trial = true;
  o.row_group_rows = 40'000;
  return o;
}

// n rows, every 10th NULL, values from `make(i)`.
template <typename F>
LeafData Column(int64_t n, F make, bool bytes = false) {
  LeafData d;
  for (int64_t i = 0; i < n; ++i) {
    const bool null = i % 10 == 3;
    d.def.push_back(null ? 0 : 1);
    if (null) continue;
    if constexpr (std::is_same_v<decltype(make(i)), std::string>) {
      d.bytes.push_back(make(i));
    } else {
      d.i64.push_back(make(i));
    }
  }
  (void)bytes;
  return d;
}

TEST(EncodingTrialTest, HighCardinalityChunkGetsNoDictionaryPage) {
  std::mt19937_64 rng(7);
  const LeafData d = Column(100'000, [&](int64_t) { return static_cast<int64_t>(rng()); });
  auto file = WriteAndCheck("random", PhysicalType::kInt64, d, 100'000, Zstd());
  ASSERT_TRUE(file);
  ASSERT_EQ(file->num_row_groups(), 3);
  for (const RowGroup& rg : file->metadata().row_groups) {
    const ColumnMetaData& m = *rg.columns[0].meta_data;
    EXPECT_FALSE(HasDictionaryPage(m));
    EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kPlain});
    EXPECT_EQ(std::count(m.encodings.begin(), m.encodings.end(), Encoding::kRleDictionary), 0);
  }
}

TEST(EncodingTrialTest, LowCardinalityChunkKeepsItsDictionary) {
  // 20 short strings: what PLAIN + zstd might store as small, the dictionary stays (each entry is
  // used far more than 16 times in the trial).
  const LeafData d =
      Column(100'000, [](int64_t i) { return std::string("cat_") + std::to_string(i * 7 % 20); });
  auto file = WriteAndCheck("category", PhysicalType::kByteArray, d, 100'000, Zstd());
  ASSERT_TRUE(file);
  for (const RowGroup& rg : file->metadata().row_groups) {
    const ColumnMetaData& m = *rg.columns[0].meta_data;
    EXPECT_TRUE(HasDictionaryPage(m));
    EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kRleDictionary});
    ASSERT_TRUE(m.statistics && m.statistics->distinct_count);
    // Rows i = 3 (mod 10) are NULL, so cat_1 and cat_11 never occur.
    EXPECT_EQ(*m.statistics->distinct_count, 18);
  }
}

TEST(EncodingTrialTest, ManyDistinctCompressibleStringsArePlain) {
  // 30,000 names among 100,000 rows in random order: the dictionary keeps growing through the
  // trial, and PLAIN + zstd is smaller.
  std::mt19937_64 rng(11);
  const LeafData d = Column(100'000, [&](int64_t) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "name_%05d", static_cast<int>(rng() % 30000));
    return std::string(buf);
  });
  auto file = WriteAndCheck("names", PhysicalType::kByteArray, d, 100'000, Zstd());
  ASSERT_TRUE(file);
  const ColumnMetaData& m = *file->metadata().row_groups[0].columns[0].meta_data;
  EXPECT_FALSE(HasDictionaryPage(m));
  EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kPlain});
}

TEST(EncodingTrialTest, MediumCardinalityIncompressibleValuesKeepTheDictionary) {
  // 3,000 random 64-bit values repeated in random order: by the end of the trial the dictionary
  // has stopped growing and its indices cost far less than PLAIN.
  std::mt19937_64 rng(5);
  std::vector<int64_t> pool(3000);
  for (int64_t& v : pool) v = static_cast<int64_t>(rng());
  const LeafData d = Column(100'000, [&](int64_t) { return pool[rng() % pool.size()]; });
  auto file = WriteAndCheck("medium", PhysicalType::kInt64, d, 100'000, Zstd());
  ASSERT_TRUE(file);
  const ColumnMetaData& m = *file->metadata().row_groups[0].columns[0].meta_data;
  EXPECT_TRUE(HasDictionaryPage(m));
  EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kRleDictionary});
}

TEST(EncodingTrialTest, SortedIntegersGetDeltaBinaryPackedAndASmallerFile) {
  const LeafData d =
      Column(100'000, [](int64_t i) { return 1'704'067'200'000'000 + 3'000'000 * i; });
  WriterOptions o = Zstd();
  auto file = WriteAndCheck("sorted", PhysicalType::kInt64, d, 100'000, o);
  ASSERT_TRUE(file);
  int64_t trial_bytes = 0;
  for (const RowGroup& rg : file->metadata().row_groups) {
    const ColumnMetaData& m = *rg.columns[0].meta_data;
    EXPECT_FALSE(HasDictionaryPage(m));
    EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kDeltaBinaryPacked});
    trial_bytes += m.total_compressed_size;
  }
  // Without the trial: dictionary, then PLAIN.
  o.encoding_trial = false;
  auto old = WriteAndCheck("sorted-old", PhysicalType::kInt64, d, 100'000, o);
  ASSERT_TRUE(old);
  int64_t old_bytes = 0;
  for (const RowGroup& rg : old->metadata().row_groups) {
    const ColumnMetaData& m = *rg.columns[0].meta_data;
    EXPECT_TRUE(HasDictionaryPage(m));
    old_bytes += m.total_compressed_size;
  }
  EXPECT_LT(trial_bytes * 20, old_bytes);
}

TEST(EncodingTrialTest, AnEncodingAskedForIsKeptAsAsked) {
  const LeafData d = Column(50'000, [](int64_t i) { return i; });
  WriterOptions o = Zstd();
  o.column_encodings["c"] = Encoding::kPlain;
  auto file = WriteAndCheck("asked-plain", PhysicalType::kInt64, d, 50'000, o);
  ASSERT_TRUE(file);
  const ColumnMetaData& m = *file->metadata().row_groups[0].columns[0].meta_data;
  EXPECT_FALSE(HasDictionaryPage(m));
  EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kPlain});

  // RLE_DICTIONARY asked for: the dictionary even on all-distinct values, PLAIN after the fallback.
  std::mt19937_64 rng(3);
  const LeafData r = Column(50'000, [&](int64_t) { return static_cast<int64_t>(rng()); });
  o.column_encodings["c"] = Encoding::kRleDictionary;
  o.dictionary_page_bytes = 64 << 10;
  auto file2 = WriteAndCheck("asked-dict", PhysicalType::kInt64, r, 50'000, o);
  ASSERT_TRUE(file2);
  const ColumnMetaData& m2 = *file2->metadata().row_groups[0].columns[0].meta_data;
  EXPECT_TRUE(HasDictionaryPage(m2));
  EXPECT_EQ(DataEncodings(m2), (std::set<Encoding>{Encoding::kRleDictionary, Encoding::kPlain}));
}

TEST(EncodingTrialTest, EveryCodecPageVersionAndChunkShapeRoundTrips) {
  // Chunks shorter than the trial, pages ending before it, all-NULL starts, both page versions,
  // every codec: whatever the trial picks reads back, and the Bloom filter holds every value.
  std::mt19937_64 rng(9);
  for (CompressionCodec codec : {CompressionCodec::kUncompressed, CompressionCodec::kSnappy,
                                 CompressionCodec::kZstd, CompressionCodec::kGzip}) {
    for (int version : {1, 2}) {
      for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{90}, int64_t{30'000}}) {
        LeafData d;
        for (int64_t i = 0; i < n; ++i) {
          const bool null = i < 40 || rng() % 4 == 0;  // the first 40 rows NULL
          d.def.push_back(null ? 0 : 1);
          if (!null) d.i64.push_back(i % 3 == 0 ? static_cast<int64_t>(rng() % 50) : i * 7);
        }
        WriterOptions o;
        o.codec = codec;
        o.encoding_trial = true;
        o.data_page_version = version;
        o.page_rows = 37;  // pages end long before the trial does
        o.row_group_rows = 12'000;
        o.bloom_filter_columns = {"c"};
        const std::string what = std::string(CompressionCodecName(codec)) + " v" +
                                 std::to_string(version) + " n=" + std::to_string(n);
        const std::string path = TempPath("shapes");
        auto w = FileWriter::Open(
            path, {Root(1), Leaf("c", PhysicalType::kInt64, Repetition::kOptional)}, o);
        ASSERT_TRUE(w.ok()) << what;
        ASSERT_TRUE(WriteTable(w->get(), {d}, n, 5000).ok()) << what;
        ASSERT_TRUE((*w)->Close().ok()) << what;
        auto file = OpenForTest(path);
        ASSERT_TRUE(file) << what;
        ExpectSameLeaf(d, ReadLeaf(file, 0), what);
        const std::string bytes = ReadFileBytes(path);
        int64_t first = 0;  // the row group's first row
        for (int rg = 0; rg < file->num_row_groups(); ++rg) {
          const ColumnMetaData& m =
              *file->metadata().row_groups[static_cast<size_t>(rg)].columns[0].meta_data;
          ASSERT_TRUE(m.bloom_filter_offset.has_value()) << what;
          auto filter = SplitBlockBloomFilter::Read(
              AsBytes(std::string_view(bytes).substr(static_cast<size_t>(*m.bloom_filter_offset))));
          ASSERT_TRUE(filter.ok()) << what << ": " << filter.status().ToString();
          const int64_t rows = file->metadata().row_groups[static_cast<size_t>(rg)].num_rows;
          int64_t v = 0;
          for (int64_t r = 0; r < first + rows; ++r) {
            if (d.def[static_cast<size_t>(r)] == 0) continue;
            const int64_t value = d.i64[static_cast<size_t>(v++)];
            if (r >= first) {
              EXPECT_TRUE(filter->Check(BloomHash(value))) << what << " row " << r;
            }
          }
          first += rows;
        }
        std::remove(path.c_str());
      }
    }
  }
}

}  // namespace
}  // namespace pq
