// The writer's encoding trial (column_writer.h): per column chunk, the first values decide between
// the dictionary, PLAIN and DELTA_BINARY_PACKED by their compressed size. Each test writes a file,
// checks what the chunk metadata says was chosen, and reads every value back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/writer/column_writer.h"
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

// Writes one OPTIONAL leaf of `type` holding `d` (n records, `batch` at a time) and reads it back;
// returns the file.
std::shared_ptr<const FileReader> WriteAndCheck(const std::string& name, PhysicalType type,
                                                const LeafData& d, int64_t n,
                                                const WriterOptions& o, int64_t batch = 7000) {
  const std::string path = TempPath(name);
  auto w = FileWriter::Open(path, {Root(1), Leaf("c", type, Repetition::kOptional)}, o);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  if (!w.ok()) return nullptr;
  EXPECT_TRUE(WriteTable(w->get(), {d}, n, batch).ok());
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

TEST(EncodingTrialTest, AllDistinctCompressibleStringsArePlain) {
  // Every name distinct: the trial's second half adds only new entries, so the chunk's dictionary
  // is projected to hold every value, and its indices come on top of what PLAIN costs.
  std::vector<int> order(100'000);
  for (int i = 0; i < 100'000; ++i) order[static_cast<size_t>(i)] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937_64(11));
  const LeafData d = Column(100'000, [&](int64_t i) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "name_%07d", order[static_cast<size_t>(i)]);
    return std::string(buf);
  });
  auto file = WriteAndCheck("names", PhysicalType::kByteArray, d, 100'000, Zstd());
  ASSERT_TRUE(file);
  for (const RowGroup& rg : file->metadata().row_groups) {
    const ColumnMetaData& m = *rg.columns[0].meta_data;
    EXPECT_FALSE(HasDictionaryPage(m));
    EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kPlain});
  }
}

// n rows of 'name_NNNNN' drawn uniformly from `domain` names (seeded), every 10th NULL.
LeafData UniformNames(int64_t n, int domain, uint64_t seed) {
  std::mt19937_64 rng(seed);
  return Column(n, [&](int64_t) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "name_%05d", static_cast<int>(rng() % static_cast<uint64_t>(domain)));
    return std::string(buf);
  });
}

TEST(EncodingTrialTest, ModerateCardinalityStringsGetTheDictionaryOverAWholeRowGroup) {
  // 100,000 names in a row group of 1,000,000 rows: the trial's 16,384 values see almost only new
  // entries, but over the row group every entry is used about nine times. The projection sees
  // that, and the whole chunk is dictionary-encoded (no fallback: 100,000 entries fit 2 MiB).
  const LeafData d = UniformNames(1'000'000, 100'000, 21);
  WriterOptions o = Zstd();
  o.row_group_rows = 1'000'000;
  auto file = WriteAndCheck("moderate", PhysicalType::kByteArray, d, 1'000'000, o);
  ASSERT_TRUE(file);
  ASSERT_EQ(file->num_row_groups(), 1);
  const ColumnMetaData& m = *file->metadata().row_groups[0].columns[0].meta_data;
  EXPECT_TRUE(HasDictionaryPage(m));
  EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kRleDictionary});
}

TEST(EncodingTrialTest, TheSameNamesInSmallRowGroupsArePlain) {
  // The same domain in row groups of 20,000 rows: each entry would be used about once per chunk,
  // so the dictionary's indices are pure overhead.
  const LeafData d = UniformNames(60'000, 100'000, 21);
  WriterOptions o = Zstd();
  o.row_group_rows = 20'000;
  auto file = WriteAndCheck("moderate-small", PhysicalType::kByteArray, d, 60'000, o);
  ASSERT_TRUE(file);
  for (const RowGroup& rg : file->metadata().row_groups) {
    const ColumnMetaData& m = *rg.columns[0].meta_data;
    EXPECT_FALSE(HasDictionaryPage(m));
    EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kPlain});
  }
}

TEST(EncodingTrialTest, AProjectedDictionaryOverTheLimitIsNotStarted) {
  // As the moderate-cardinality test, with a dictionary limit that 100,000 entries do not fit:
  // no dictionary (rather than one that falls back part way through the chunk).
  const LeafData d = UniformNames(200'000, 100'000, 23);
  WriterOptions o = Zstd();
  o.row_group_rows = 1'000'000;
  o.dictionary_page_bytes = 512 << 10;
  auto file = WriteAndCheck("moderate-limit", PhysicalType::kByteArray, d, 200'000, o);
  ASSERT_TRUE(file);
  const ColumnMetaData& m = *file->metadata().row_groups[0].columns[0].meta_data;
  EXPECT_FALSE(HasDictionaryPage(m));
  EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kPlain});
}

// The trial's measurements of `n` values drawn uniformly from `domain` (seeded), with the costs
// of an entry and of an index given per value.
DictionaryTrial SimulatedTrial(int64_t n, uint64_t domain, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::set<uint64_t> seen;
  DictionaryTrial t;
  t.values = n;
  for (int64_t i = 0; i < n; ++i) {
    const bool added = seen.insert(rng() % domain).second;
    if (added && i >= n / 2) ++t.second_half_new;
  }
  t.entries = static_cast<int64_t>(seen.size());
  t.plain_bytes = t.entries * 14;
  t.entries_cost = t.entries * 4;
  t.index_cost = n * 2;
  return t;
}

TEST(DictionaryProjectionTest, ProjectsTheDistinctCountOfUniformValues) {
  for (uint64_t domain : {20'000u, 100'000u, 300'000u}) {
    const DictionaryTrial t = SimulatedTrial(16'384, domain, domain);
    const double chunk = 1'000'000;
    const double expected = static_cast<double>(domain) * (1 - std::exp(-chunk / domain));
    const DictionaryProjection p = ProjectDictionary(t, chunk);
    EXPECT_NEAR(p.entries, expected, 0.12 * expected) << "domain " << domain;
    EXPECT_DOUBLE_EQ(p.page_bytes, p.entries * 14);
  }
}

TEST(DictionaryProjectionTest, AllNewEntriesProjectOneEntryPerValue) {
  DictionaryTrial t;
  t.values = 1000;
  t.entries = 1000;
  t.second_half_new = 500;
  t.plain_bytes = 8000;
  t.entries_cost = 8000;
  t.index_cost = 1250;  // 10 bits each
  const DictionaryProjection p = ProjectDictionary(t, 100'000);
  EXPECT_DOUBLE_EQ(p.entries, 100'000);
  EXPECT_DOUBLE_EQ(p.page_bytes, 800'000);
  // Entries at 8 bytes, indices at 17 bits (the width of 100,000 entries) instead of 10.
  EXPECT_DOUBLE_EQ(p.cost, 800'000 + 100'000 * 1.25 * 17 / 10);
  // Against PLAIN at 8 bytes a value: far over the tolerance.
  EXPECT_FALSE(KeepDictionary(t, 8000, 100'000, int64_t{4} << 20));
  // Indices 0, 1, 2, ... that compress to nearly nothing: within the tolerance, but every entry is
  // used once, so the dictionary would have to be smaller than PLAIN, and it is not.
  t.index_cost = 10;
  EXPECT_FALSE(KeepDictionary(t, 8000, 100'000, int64_t{4} << 20));
  EXPECT_TRUE(KeepDictionary(t, 8100, 100'000, int64_t{4} << 20));
}

TEST(DictionaryProjectionTest, AStoppedDictionaryKeepsItsEntries) {
  DictionaryTrial t;
  t.values = 16'384;
  t.entries = 3000;
  t.second_half_new = 0;
  t.plain_bytes = 24'000;
  t.entries_cost = 24'000;
  t.index_cost = 16'384 * 12 / 8;
  const DictionaryProjection p = ProjectDictionary(t, 1'000'000);
  EXPECT_DOUBLE_EQ(p.entries, 3000);
  EXPECT_DOUBLE_EQ(p.cost, 24'000 + 1'000'000 * 1.5);
  // PLAIN at 8 bytes a value: the dictionary wins...
  EXPECT_TRUE(KeepDictionary(t, 16'384 * 8, 1'000'000, int64_t{1} << 20));
  // ... unless its page does not fit the limit.
  EXPECT_FALSE(KeepDictionary(t, 16'384 * 8, 1'000'000, 20'000));
  // Within the tolerance: kept although a little larger; past it: not.
  const double value_per = p.cost / 1'000'000;
  EXPECT_TRUE(KeepDictionary(t, static_cast<int64_t>(16'384 * value_per / 1.2), 1'000'000,
                             int64_t{1} << 20));
  EXPECT_FALSE(KeepDictionary(t, static_cast<int64_t>(16'384 * value_per / 1.3), 1'000'000,
                              int64_t{1} << 20));
}

TEST(DictionaryProjectionTest, LowCardinalityIsKeptWhateverTheSizes) {
  DictionaryTrial t;
  t.values = 16'384;
  t.entries = 20;
  t.second_half_new = 0;
  t.plain_bytes = 200;
  t.entries_cost = 200;
  t.index_cost = 100'000;  // absurdly large: still kept
  EXPECT_TRUE(KeepDictionary(t, 10, 1'000'000, int64_t{1} << 20));
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

// n rows of 'name_NNNNN': row i holds name (i * 16807) mod cycle, so the first `cycle` rows are
// all distinct and every later row repeats one of them (every 10th row NULL).
LeafData CycledNames(int64_t n, int64_t cycle) {
  return Column(n, [cycle](int64_t i) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "name_%05d", static_cast<int>(i * 16807 % cycle));
    return std::string(buf);
  });
}

TEST(DictionaryWatchTest, ACycleLongerThanTheTrialSwitchesTheRestOfTheChunkToADictionary) {
  // The trial's 16,384 values are all distinct (the cycle is 30,000 rows), so it writes PLAIN; the
  // watch sees the repeats from row 30,000 on and writes the rest of the chunk as a dictionary.
  const int64_t n = 300'000;
  const LeafData d = CycledNames(n, 30'000);
  WriterOptions o = Zstd();
  o.codec = CompressionCodec::kSnappy;
  o.row_group_rows = n;
  auto file = WriteAndCheck("cycle", PhysicalType::kByteArray, d, n, o);  // reads every value back
  ASSERT_TRUE(file);
  ASSERT_EQ(file->num_row_groups(), 1);
  const ColumnMetaData& m = *file->metadata().row_groups[0].columns[0].meta_data;
  EXPECT_TRUE(HasDictionaryPage(m));
  EXPECT_EQ(DataEncodings(m), (std::set<Encoding>{Encoding::kPlain, Encoding::kRleDictionary}));
  int64_t plain_pages = 0, dictionary_pages = 0;
  for (const PageEncodingStats& s : *m.encoding_stats) {
    if (s.page_type == PageType::kDictionaryPage) continue;
    (s.encoding == Encoding::kPlain ? plain_pages : dictionary_pages) += s.count;
  }
  // Pages of 20,000 rows: the switch comes within the second cycle, and most pages are indices.
  EXPECT_GE(plain_pages, 2);
  EXPECT_LE(plain_pages, 4);
  EXPECT_EQ(plain_pages + dictionary_pages, 15);
  // Some values never went through the dictionary: no distinct count is claimed.
  EXPECT_FALSE(m.statistics && m.statistics->distinct_count);

  // The same values without a dictionary: the switch saved more than a third.
  WriterOptions plain = o;
  plain.dictionary = false;
  auto plain_file = WriteAndCheck("cycle-plain", PhysicalType::kByteArray, d, n, plain);
  ASSERT_TRUE(plain_file);
  const ColumnMetaData& pm = *plain_file->metadata().row_groups[0].columns[0].meta_data;
  EXPECT_EQ(DataEncodings(pm), std::set<Encoding>{Encoding::kPlain});
  EXPECT_LT(m.total_compressed_size * 3, pm.total_compressed_size * 2)
      << m.total_compressed_size << " vs " << pm.total_compressed_size;
}

TEST(DictionaryWatchTest, AllDistinctValuesAreNeverSwitched) {
  // 300,000 distinct names in one chunk: the watch sees only new values and ends when they could no
  // longer fit a dictionary page (smaller here, so that it ends within the chunk).
  std::vector<int> order(300'000);
  for (int i = 0; i < 300'000; ++i) order[static_cast<size_t>(i)] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937_64(3));
  const LeafData d = Column(300'000, [&](int64_t i) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "name_%07d", order[static_cast<size_t>(i)]);
    return std::string(buf);
  });
  for (const int64_t limit : {int64_t{2} << 20, int64_t{512} << 10}) {
    WriterOptions o = Zstd();
    o.codec = CompressionCodec::kSnappy;
    o.row_group_rows = 300'000;
    o.dictionary_page_bytes = limit;
    auto file = WriteAndCheck("distinct", PhysicalType::kByteArray, d, 300'000, o);
    ASSERT_TRUE(file);
    const ColumnMetaData& m = *file->metadata().row_groups[0].columns[0].meta_data;
    EXPECT_FALSE(HasDictionaryPage(m)) << limit;
    EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kPlain}) << limit;
  }
}

TEST(DictionaryWatchTest, TheDistinctCountsNoiseIsNoSignOfRepeats) {
  // All-distinct doubles in a 1M-row chunk (the bench's value column, (i * 69069 mod 1000003) / 100,
  // and random doubles): the estimated counts of the watch fall short of all-new by a percent or so
  // now and then, which once switched the column to a dictionary that overflowed 14 pages later.
  const int64_t n = 1'000'000;
  std::mt19937_64 rng(11);
  for (const bool random : {false, true}) {
    LeafData d;
    for (int64_t i = 1; i <= n; ++i) {
      d.def.push_back(1);
      d.f64.push_back(random ? std::ldexp(static_cast<double>(rng() >> 11), -40)
                             : static_cast<double>(i * 69069 % 1000003) / 100.0);
    }
    WriterOptions o = Zstd();
    o.row_group_rows = n;
    // In batches of 8,192 rows and pages of 128 KiB, parquet_export's, as the bench's file was
    // written.
    o.page_bytes = 128 << 10;
    auto file =
        WriteAndCheck(random ? "random-doubles" : "bench-doubles", PhysicalType::kDouble, d, n, o, 8192);
    ASSERT_TRUE(file);
    const ColumnMetaData& m = *file->metadata().row_groups[0].columns[0].meta_data;
    EXPECT_FALSE(HasDictionaryPage(m)) << random;
    EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kPlain}) << random;
  }
}

TEST(DictionaryWatchTest, ValuesThatCostLessThanAnIndexAreNotWatched) {
  // Sorted integers: DELTA_BINARY_PACKED takes a few bits a value, less than any index would, so the
  // cycle of repeats that follows (the same 30,000 values again) never brings a dictionary.
  const LeafData d = Column(300'000, [](int64_t i) { return int64_t{1'000'000} + i % 30'000; });
  WriterOptions o = Zstd();
  o.row_group_rows = 300'000;
  auto file = WriteAndCheck("sorted-cycle", PhysicalType::kInt64, d, 300'000, o);
  ASSERT_TRUE(file);
  const ColumnMetaData& m = *file->metadata().row_groups[0].columns[0].meta_data;
  EXPECT_FALSE(HasDictionaryPage(m));
  EXPECT_EQ(DataEncodings(m), std::set<Encoding>{Encoding::kDeltaBinaryPacked});
}

TEST(DictionaryWatchTest, SwitchesOnlyWhenTheRestCostsLessAsADictionary) {
  // 100,000 values of 14 bytes written so far (PLAIN, stored at 7 bytes a value), 20,000 distinct
  // among them, none new in the latest 25,000; 900,000 values to come.
  DictionaryWatch w;
  w.values = 100'000;
  w.entries = 20'000;
  w.window_values = 25'000;
  w.window_new = 0;
  w.written_values = 100'000;
  w.written_plain = 1'400'000;
  w.written_stored = 700'000;
  // 20,000 entries (280,000 bytes, 140,000 stored) + 900,000 indices of 15 bits against 6.3 MB.
  EXPECT_TRUE(SwitchToDictionary(w, 1'000'000, int64_t{2} << 20));
  // The page would not fit the limit.
  EXPECT_FALSE(SwitchToDictionary(w, 1'000'000, 200'000));
  // Nothing left of the chunk.
  EXPECT_FALSE(SwitchToDictionary(w, 100'000, int64_t{2} << 20));
  // Still only new values lately: no sign of repeats.
  DictionaryWatch fresh = w;
  fresh.window_new = 25'000;
  EXPECT_FALSE(SwitchToDictionary(fresh, 1'000'000, int64_t{2} << 20));
  // Values stored at 1.5 bytes: 15-bit indices alone cost more.
  DictionaryWatch cheap = w;
  cheap.written_stored = 150'000;
  EXPECT_FALSE(SwitchToDictionary(cheap, 1'000'000, int64_t{2} << 20));
  // What the watch saw of the bench's all-distinct doubles at its first page end: 7,819 of 8,191
  // values new by the estimates, short of all-new by less than the estimates' noise.
  DictionaryWatch noisy = w;
  noisy.values = 16'382;
  noisy.entries = 16'050;
  noisy.window_values = 8'191;
  noisy.window_new = 7'819;
  noisy.written_values = 16'382;
  noisy.written_plain = 131'056;
  noisy.written_stored = 118'000;
  EXPECT_FALSE(SwitchToDictionary(noisy, 1'000'000, int64_t{2} << 20));
  // Growth that projects far more entries than fit: new values at 60% lately, from 100,000 in.
  DictionaryWatch growing = w;
  growing.entries = 90'000;
  growing.window_new = 15'000;
  EXPECT_FALSE(SwitchToDictionary(growing, 1'000'000, int64_t{2} << 20));
}

}  // namespace
}  // namespace pq
