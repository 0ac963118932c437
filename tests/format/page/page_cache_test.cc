// The page cache (page_cache.h; ReaderOptions::page_cache, the table option `page_cache`): the cache
// keeps the most recently used pages within its budget; a page reader keeps the first page a lookup
// loads after a Seek and takes it from the cache on the next lookup, with the same bytes; pages
// walked in order, later pages of a run and pages stored uncompressed are not kept; scans over
// random row ranges return the same rows with and without the cache, also run twice.
#include "format/page/page_cache.h"

#include <gtest/gtest.h>

#include <random>

#include "format/page/page_reader.h"
#include "tests/format/reader/scan_test_util.h"

namespace pq::testing {
namespace {

std::shared_ptr<const CachedPage> PageOf(size_t bytes) {
  auto buffer = std::make_shared<Buffer>(bytes, uint8_t{7});
  auto page = std::make_shared<CachedPage>();
  page->body = ByteSpan(buffer->data(), buffer->size());
  page->owner = std::move(buffer);
  return page;
}

TEST(PageCacheTest, KeepsTheMostRecentlyUsedPagesWithinItsBudget) {
  PageCache cache(350);
  cache.Store(1, 0, PageOf(100));
  cache.Store(1, 100, PageOf(100));
  cache.Store(1, 200, PageOf(100));
  EXPECT_EQ(cache.used_bytes(), 300);
  ASSERT_NE(cache.Find(1, 0), nullptr);  // now the most recently used
  cache.Store(1, 300, PageOf(100));      // evicts offset 100, the least recently used
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(cache.used_bytes(), 300);
  EXPECT_NE(cache.Find(1, 0), nullptr);
  EXPECT_EQ(cache.Find(1, 100), nullptr);
  EXPECT_NE(cache.Find(1, 200), nullptr);
  EXPECT_NE(cache.Find(1, 300), nullptr);
  // Another file's page at the same offset is another entry.
  EXPECT_EQ(cache.Find(2, 0), nullptr);
  EXPECT_EQ(cache.hits(), 4);
}

TEST(PageCacheTest, APageLargerThanTheBudgetIsNotKeptAndAKeptPageStays) {
  PageCache cache(1000);
  cache.Store(1, 0, PageOf(1001));
  EXPECT_EQ(cache.size(), 0u);
  auto first = PageOf(10);
  cache.Store(1, 0, first);
  cache.Store(1, 0, PageOf(20));
  EXPECT_EQ(cache.Find(1, 0), first);
  EXPECT_EQ(cache.used_bytes(), 10);
  // A page handed out outlives its eviction.
  std::shared_ptr<const CachedPage> held = cache.Find(1, 0);
  cache.Store(1, 5, PageOf(1000));
  EXPECT_EQ(cache.Find(1, 0), nullptr);
  EXPECT_EQ(held->body.size(), 10u);
  EXPECT_EQ(held->body[9], 7);
}

std::shared_ptr<const FileReader> OpenWithCache(const std::string& path, std::shared_ptr<PageCache> cache) {
  ReaderOptions o;
  o.page_cache = std::move(cache);
  return OpenForTest(path, o);
}

std::string Bytes(ByteSpan s) { return std::string(reinterpret_cast<const char*>(s.data()), s.size()); }

struct LoadedPage {
  std::string body, rep, def;
  int64_t from_cache = 0;
};

// Data page `page` of (row group 0, leaf), reached by location as a lookup does, optionally followed
// by the `then` pages after it.
LoadedPage Lookup(const FileReader& file, int leaf, size_t page, int then = 0) {
  const ColumnChunk& cc = file.metadata().row_groups[0].columns[static_cast<size_t>(leaf)];
  const OffsetIndex index = ReadOffsetIndexOf(ReadWholeFile(file.path()), cc);
  const PageLocation& loc = index.page_locations.at(page);
  PageReader reader(file.file(), *cc.meta_data, file.options(), "test");
  EXPECT_TRUE(reader.Seek(loc.offset, loc.offset, loc.offset + loc.compressed_page_size, static_cast<int>(page)).ok());
  LoadedPage out;
  Page p;
  for (int i = 0; i <= then; ++i) {
    Result<bool> found = reader.Next(&p);
    EXPECT_TRUE(found.ok() && *found) << found.status().ToString();
    if (i == 0) {
      out.body = Bytes(p.body);
      out.rep = Bytes(p.rep_levels);
      out.def = Bytes(p.def_levels);
    }
  }
  out.from_cache = reader.pages_from_cache();
  return out;
}

TEST(PageReaderCacheTest, ALookupTakesThePageTheLastLookupKept) {
  for (int version : {1, 2}) {
    for (CompressionCodec codec : {CompressionCodec::kSnappy, CompressionCodec::kZstd}) {
      TestFileOptions o;
      o.page_version = version;
      o.codec = codec;
      o.dictionary = false;
      const std::string path = WriteTestFile(o, "lookup_" + std::to_string(version) + "_" +
                                                    std::to_string(static_cast<int>(codec)) + ".parquet")
                                   ->path();
      auto cache = std::make_shared<PageCache>(int64_t{64} << 20);
      auto cached = OpenWithCache(path, cache);
      auto plain = OpenWithCache(path, nullptr);
      ASSERT_TRUE(cached && plain);
      for (int leaf = 0; leaf < 5; ++leaf) {
        const std::string what = "v" + std::to_string(version) + " leaf " + std::to_string(leaf);
        const LoadedPage want = Lookup(*plain, leaf, 3);
        const LoadedPage first = Lookup(*cached, leaf, 3);
        const LoadedPage again = Lookup(*cached, leaf, 3);
        EXPECT_EQ(first.from_cache, 0) << what;
        EXPECT_EQ(again.from_cache, 1) << what;
        EXPECT_EQ(want.body, first.body) << what;
        EXPECT_EQ(want.body, again.body) << what;
        EXPECT_EQ(want.rep, again.rep) << what;
        EXPECT_EQ(want.def, again.def) << what;
        if (version == 2 && leaf == 4) {
          EXPECT_FALSE(again.rep.empty()) << what;  // the LIST's levels
        }
      }
      // The file opened again (another RandomAccessFile) shares nothing with the first one's pages.
      auto reopened = OpenWithCache(path, cache);
      EXPECT_EQ(Lookup(*reopened, 0, 3).from_cache, 0);
    }
  }
}

TEST(PageReaderCacheTest, PagesWalkedInOrderAndLaterPagesOfARunAreNotKept) {
  TestFileOptions o;
  o.codec = CompressionCodec::kZstd;
  const std::string path = WriteTestFile(o, "walk.parquet")->path();
  auto cache = std::make_shared<PageCache>(int64_t{64} << 20);
  auto file = OpenWithCache(path, cache);
  ASSERT_TRUE(file);
  const ColumnMetaData& meta = *file->metadata().row_groups[0].columns[3].meta_data;
  PageReader walk(file->file(), meta, file->options(), "test");
  Page page;
  int pages = 0;
  while (true) {
    Result<bool> more = walk.Next(&page);
    ASSERT_TRUE(more.ok()) << more.status().ToString();
    if (!*more) break;
    ++pages;
  }
  EXPECT_GT(pages, 10);
  EXPECT_EQ(cache->size(), 0u);
  // A lookup of pages 5 to 8 keeps page 5 only.
  EXPECT_EQ(Lookup(*file, 3, 5, 3).from_cache, 0);
  EXPECT_EQ(cache->size(), 1u);
  EXPECT_EQ(Lookup(*file, 3, 5).from_cache, 1);
  EXPECT_EQ(Lookup(*file, 3, 6).from_cache, 0);
  EXPECT_EQ(cache->size(), 2u);
}

TEST(PageReaderCacheTest, PagesStoredUncompressedAreNotKept) {
  TestFileOptions o;
  o.codec = CompressionCodec::kUncompressed;
  const std::string path = WriteTestFile(o, "raw.parquet")->path();
  auto cache = std::make_shared<PageCache>(int64_t{64} << 20);
  auto file = OpenWithCache(path, cache);
  ASSERT_TRUE(file);
  EXPECT_FALSE(Lookup(*file, 3, 2).body.empty());
  EXPECT_EQ(Lookup(*file, 3, 2).from_cache, 0);
  EXPECT_EQ(cache->size(), 0u);
}

TEST(PageReaderCacheTest, ScansOfRandomRowRangesReturnTheSameRowsWithTheCache) {
  for (bool dictionary : {true, false}) {
    TestFileOptions o;
    o.codec = CompressionCodec::kZstd;
    o.dictionary = dictionary;
    const std::string path = WriteTestFile(o, std::string("ranges_") + (dictionary ? "d" : "p") + ".parquet")->path();
    // A cache that holds what the scans read, and one so small that pages are evicted as they run.
    for (int64_t budget : {int64_t{4} << 20, int64_t{16} << 10}) {
      auto cache = std::make_shared<PageCache>(budget);
      auto cached = OpenWithCache(path, cache);
      auto plain = OpenWithCache(path, nullptr);
      ASSERT_TRUE(cached && plain);
      const std::vector<int> fields = AllFields(*plain);
      std::mt19937_64 rng(11);
      for (int round = 0; round < 40; ++round) {
        ScanRequest request;
        request.fields = fields;
        for (int g = 0; g < plain->num_row_groups(); ++g) {
          const int64_t rows = plain->metadata().row_groups[static_cast<size_t>(g)].num_rows;
          RowRanges ranges;
          const int64_t begin = static_cast<int64_t>(rng() % static_cast<uint64_t>(rows));
          ranges.Add(begin, std::min(rows, begin + 1 + static_cast<int64_t>(rng() % 300)));
          request.plan.row_groups.push_back({g, ranges});
        }
        for (int twice = 0; twice < 2; ++twice) {
          auto want = TableScanner::Make(plain, request, ValueOptions{});
          auto got = TableScanner::Make(cached, request, ValueOptions{});
          ASSERT_TRUE(want.ok() && got.ok());
          ExpectSameRows(ReadRest(want->get(), fields.size()), ReadRest(got->get(), fields.size()),
                         "round " + std::to_string(round) + ", budget " + std::to_string(budget));
        }
      }
      EXPECT_LE(cache->used_bytes(), budget);
      if (budget > (int64_t{1} << 20)) {
        // Every scan run the second time finds the first page of each of its runs.
        EXPECT_GE(cache->hits(), 40 * plain->num_row_groups() * 5);
      }
    }
  }
}

}  // namespace
}  // namespace pq::testing
