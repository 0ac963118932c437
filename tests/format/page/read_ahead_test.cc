// Reading ahead (page_reader.h; ReaderOptions::task_pool, the table option `threads`): pages a
// worker loaded are the pages the calling thread would have loaded, a page no worker started is
// loaded by the reader itself, a lookup of one page reads nothing ahead, errors are the same with and
// without workers, and a reader destroyed with a page in flight waits for it. A scan reads the next
// row group's chunks on a worker (table_scanner.h) only when it will need them and has the memory,
// and lets them go with their charge when it stops early or skips them. Also TaskPool itself.
#include "format/util/task_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "format/file/memory_budget.h"
#include "format/page/page_reader.h"
#include "tests/format/reader/scan_test_util.h"

namespace pq::testing {
namespace {

TEST(TaskPoolTest, RunsEveryTaskQueuedBeforeItIsDestroyed) {
  std::atomic<int> ran{0};
  {
    TaskPool pool(3);
    EXPECT_EQ(pool.workers(), 3);
    for (int i = 0; i < 1000; ++i) pool.Submit([&ran] { ran.fetch_add(1); });
  }
  EXPECT_EQ(ran.load(), 1000);
}

TEST(TaskPoolTest, ThreadsStartWithTheFirstTask) {
  std::atomic<int> ran{0};
  {
    TaskPool pool(2);
    EXPECT_EQ(pool.started(), 0);
    pool.Submit([&ran] { ran.fetch_add(1); });
    EXPECT_EQ(pool.started(), 2);
    pool.Submit([&ran] { ran.fetch_add(1); });
    EXPECT_EQ(pool.started(), 2);
  }
  EXPECT_EQ(ran.load(), 2);
  TaskPool unused(4);  // destroyed without ever starting a thread
  EXPECT_EQ(unused.started(), 0);
}

TEST(TaskPoolTest, AtLeastOneWorker) {
  std::atomic<int> ran{0};
  {
    TaskPool pool(0);
    EXPECT_EQ(pool.workers(), 1);
    pool.Submit([&ran] { ran.fetch_add(1); });
  }
  EXPECT_EQ(ran.load(), 1);
}

TEST(TaskPoolTest, AnIdleWorkerStillRunsWhatComesLater) {
  // Tasks submitted while the worker watches, while it dozes, and once it sleeps until woken: each
  // runs on the worker, and the pool goes away promptly with its worker in any of those states.
  for (auto gap : {std::chrono::microseconds(0), kDozeSlice / 2, kDozeFor / 2, kDozeFor * 5}) {
    const auto begin = std::chrono::steady_clock::now();
    {
      TaskPool pool(1);
      for (int i = 0; i < 4; ++i) {
        std::atomic<bool> ran{false};
        std::thread::id where;
        pool.Submit([&] {
          where = std::this_thread::get_id();
          ran.store(true, std::memory_order_release);
        });
        const auto submitted = std::chrono::steady_clock::now();
        while (!ran.load(std::memory_order_acquire)) {
          ASSERT_LT(std::chrono::steady_clock::now() - submitted, std::chrono::seconds(10))
              << "a task submitted after " << gap.count() << " us idle never ran";
          std::this_thread::yield();
        }
        EXPECT_NE(where, std::this_thread::get_id());
        std::this_thread::sleep_for(gap);
      }
    }
    // The last gap left the worker dozing or asleep; destroying the pool wakes it at once.
    EXPECT_LT(std::chrono::steady_clock::now() - begin, gap * 4 + std::chrono::seconds(2));
  }
}

TEST(TaskPoolTest, AWorkerWhoseTasksComeFarApartSleepsRatherThanDozes) {
  // Tasks further apart than kDozeWhenWithin: the worker dozes through the first wait (it does not
  // know yet), then sleeps until woken, so that its slices do not cost the submitting thread.
  const auto gap = kDozeFor * 3;
  TaskPool pool(1);
  for (int i = 0; i < 8; ++i) {
    std::atomic<bool> ran{false};
    pool.Submit([&] { ran.store(true, std::memory_order_release); });
    while (!ran.load(std::memory_order_acquire)) std::this_thread::yield();
    std::this_thread::sleep_for(gap);
  }
  // Dozing between each of the 8 tasks would take 7 x kDozeFor / kDozeSlice slices.
  EXPECT_LE(pool.doze_slices(), kDozeFor / kDozeSlice + 1);
  EXPECT_GT(pool.doze_slices(), 0);
}

std::shared_ptr<const FileReader> OpenWith(const std::string& path, std::shared_ptr<TaskPool> pool) {
  ReaderOptions o;
  o.task_pool = std::move(pool);
  return OpenForTest(path, o);
}

std::string WriteFile(const TestFileOptions& o, const std::string& name) {
  auto file = WriteTestFile(o, name);
  return file ? file->path() : std::string();
}

// Every page of every chunk, walked in order: body bytes, with the number of pages read ahead.
struct WalkedChunk {
  std::vector<std::string> bodies;
  int64_t read_ahead = 0;
  Status status;
};

WalkedChunk WalkChunk(const FileReader& file, int group, int leaf) {
  WalkedChunk out;
  const ColumnMetaData& meta =
      *file.metadata().row_groups[static_cast<size_t>(group)].columns[static_cast<size_t>(leaf)].meta_data;
  PageReader reader(file.file(), meta, file.options(), "test");
  Page page;
  while (true) {
    Result<bool> more = reader.Next(&page);
    if (!more.ok()) {
      out.status = std::move(more).TakeStatus();
      break;
    }
    if (!*more) break;
    out.bodies.emplace_back(reinterpret_cast<const char*>(page.body.data()), page.body.size());
  }
  out.read_ahead = reader.pages_read_ahead();
  return out;
}

TEST(ReadAheadTest, PagesLoadedByWorkersAreThePagesLoadedInline) {
  auto pool = std::make_shared<TaskPool>(2);
  for (int version : {1, 2}) {
    for (CompressionCodec codec : {CompressionCodec::kSnappy, CompressionCodec::kZstd,
                                   CompressionCodec::kUncompressed}) {
      TestFileOptions o;
      o.page_version = version;
      o.codec = codec;
      o.rows = 5'000;
      o.row_group_rows = 2'500;
      o.page_rows = 100;
      const std::string path = WriteFile(o, "walk_" + std::to_string(version) + "_" +
                                                std::to_string(static_cast<int>(codec)) + ".parquet");
      auto inline_file = OpenWith(path, nullptr);
      auto ahead_file = OpenWith(path, pool);
      ASSERT_TRUE(inline_file && ahead_file);
      for (int g = 0; g < inline_file->num_row_groups(); ++g) {
        for (int leaf = 0; leaf < 5; ++leaf) {
          const WalkedChunk want = WalkChunk(*inline_file, g, leaf);
          const WalkedChunk got = WalkChunk(*ahead_file, g, leaf);
          ASSERT_TRUE(want.status.ok()) << want.status.ToString();
          ASSERT_TRUE(got.status.ok()) << got.status.ToString();
          EXPECT_EQ(want.read_ahead, 0);
          ASSERT_GE(got.bodies.size(), 10u);
          // The first two pages are loaded inline; from the third on, each is handed to the pool
          // (and loaded by a worker, or by the reader when it gets there first).
          EXPECT_EQ(got.read_ahead, static_cast<int64_t>(got.bodies.size()) - 2)
              << "v" << version << " leaf " << leaf;
          EXPECT_EQ(want.bodies, got.bodies) << "v" << version << " leaf " << leaf;
        }
      }
    }
  }
}

// A pool whose only worker is held busy until Release(): tasks queue behind it.
class BusyPool {
 public:
  BusyPool() : pool_(std::make_shared<TaskPool>(1)) {
    pool_->Submit([this] {
      std::unique_lock<std::mutex> lock(mu_);
      busy_ = true;
      released_.notify_all();
      released_.wait(lock, [this] { return free_; });
    });
    // Returns once the worker holds the task (else the queue would still hold it for RunOne).
    std::unique_lock<std::mutex> lock(mu_);
    released_.wait(lock, [this] { return busy_; });
  }
  ~BusyPool() { Release(); }
  void Release() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      free_ = true;
    }
    released_.notify_all();
  }
  bool released() {
    std::lock_guard<std::mutex> lock(mu_);
    return free_;
  }
  const std::shared_ptr<TaskPool>& pool() const { return pool_; }

 private:
  std::mutex mu_;
  std::condition_variable released_;
  bool busy_ = false;
  bool free_ = false;
  std::shared_ptr<TaskPool> pool_;
};

TEST(TaskPoolTest, RunOneRunsTheOldestQueuedTaskOnTheCallingThread) {
  BusyPool busy;
  std::vector<int> order;
  std::vector<std::thread::id> threads;
  for (int i = 0; i < 3; ++i) {
    busy.pool()->Submit([&, i] {
      order.push_back(i);
      threads.push_back(std::this_thread::get_id());
    });
  }
  EXPECT_TRUE(busy.pool()->RunOne());
  EXPECT_TRUE(busy.pool()->RunOne());
  EXPECT_TRUE(busy.pool()->RunOne());
  EXPECT_FALSE(busy.pool()->RunOne());  // nothing left
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
  for (const std::thread::id& t : threads) EXPECT_EQ(t, std::this_thread::get_id());
}

TEST(ReadAheadTest, PagesNoWorkerStartedAreLoadedByTheReaderItself) {
  // The worker is busy elsewhere for the whole walk: the reader must not wait for it, but load each
  // page it handed over itself. (Waiting would hold the walk until the watchdog frees the worker.)
  TestFileOptions o;
  o.codec = CompressionCodec::kZstd;
  o.page_rows = 50;
  const std::string path = WriteFile(o, "busy.parquet");
  BusyPool busy;
  std::atomic<bool> walked{false};
  std::thread watchdog([&] {
    for (int i = 0; i < 500 && !walked.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    busy.Release();
  });
  auto inline_file = OpenWith(path, nullptr);
  auto busy_file = OpenWith(path, busy.pool());
  ASSERT_TRUE(inline_file && busy_file);
  std::vector<WalkedChunk> want, got;
  for (int leaf = 0; leaf < 5; ++leaf) {
    want.push_back(WalkChunk(*inline_file, 0, leaf));
    got.push_back(WalkChunk(*busy_file, 0, leaf));
  }
  EXPECT_FALSE(busy.released()) << "the walk waited for the worker";
  walked.store(true);
  watchdog.join();
  for (int leaf = 0; leaf < 5; ++leaf) {
    ASSERT_TRUE(got[static_cast<size_t>(leaf)].status.ok()) << got[static_cast<size_t>(leaf)].status.ToString();
    ASSERT_GE(got[static_cast<size_t>(leaf)].bodies.size(), 10u);
    // Every page from the third was handed over, and the reader loaded it.
    EXPECT_EQ(got[static_cast<size_t>(leaf)].read_ahead,
              static_cast<int64_t>(got[static_cast<size_t>(leaf)].bodies.size()) - 2)
        << "leaf " << leaf;
    EXPECT_EQ(want[static_cast<size_t>(leaf)].bodies, got[static_cast<size_t>(leaf)].bodies) << "leaf " << leaf;
  }
  // The readers are gone; the worker now finds their queued pages taken and touches nothing.
}

TEST(ReadAheadTest, ScansReturnTheSameRowsWithWorkers) {
  auto pool = std::make_shared<TaskPool>(1);
  for (bool page_index : {true, false}) {
    for (bool dictionary : {true, false}) {
      TestFileOptions o;
      o.page_index = page_index;
      o.dictionary = dictionary;
      o.codec = CompressionCodec::kZstd;
      const std::string path = WriteFile(o, std::string("scan_") + (page_index ? "i" : "n") +
                                                (dictionary ? "d" : "p") + ".parquet");
      auto inline_file = OpenWith(path, nullptr);
      auto ahead_file = OpenWith(path, pool);
      ASSERT_TRUE(inline_file && ahead_file);
      const std::vector<int> fields = AllFields(*inline_file);
      const std::vector<ScannedRow> want = FullScan(inline_file, fields);
      ASSERT_EQ(want.size(), static_cast<size_t>(o.rows));
      ExpectSameRows(want, FullScan(ahead_file, fields), Describe(o));
    }
  }
}

TEST(ReadAheadTest, ALookupOfOnePageReadsNothingAhead) {
  TestFileOptions o;
  o.codec = CompressionCodec::kZstd;
  const std::string path = WriteFile(o, "lookup.parquet");
  auto pool = std::make_shared<TaskPool>(1);
  auto file = OpenWith(path, pool);
  ASSERT_TRUE(file);
  const ColumnChunk& cc = file->metadata().row_groups[0].columns[3];
  const OffsetIndex index = ReadOffsetIndexOf(ReadWholeFile(path), cc);
  ASSERT_GE(index.page_locations.size(), 3u);
  const PageLocation& loc = index.page_locations[1];
  PageReader reader(file->file(), *cc.meta_data, file->options(), "test");
  ASSERT_TRUE(reader.Seek(loc.offset, loc.offset, loc.offset + loc.compressed_page_size, 1).ok());
  Page page;
  Result<bool> found = reader.Next(&page);
  ASSERT_TRUE(found.ok() && *found) << found.status().ToString();
  EXPECT_EQ(reader.pages_read_ahead(), 0);
  EXPECT_EQ(pool->started(), 0);  // nor starts a thread
  // The whole chunk in memory and a walk from its first page: the third page on is handed to the
  // pool (which starts its thread), and loaded by the worker unless the walk got there first.
  PageReader walk(file->file(), *cc.meta_data, file->options(), "test");
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(walk.Next(&page).ok());
  EXPECT_EQ(walk.pages_read_ahead(), 1);
  EXPECT_EQ(pool->started(), 1);
}

// The file at `path` with the last byte of data page `page` of row group 0, leaf `leaf` flipped.
std::string CorruptPage(const std::string& path, int leaf, size_t page, const std::string& name) {
  std::string bytes = ReadWholeFile(path);
  auto file = OpenWith(path, nullptr);
  const ColumnChunk& cc = file->metadata().row_groups[0].columns[static_cast<size_t>(leaf)];
  const OffsetIndex index = ReadOffsetIndexOf(bytes, cc);
  const PageLocation loc = index.page_locations.at(page);
  bytes[static_cast<size_t>(loc.offset + loc.compressed_page_size - 1)] ^= 0x5A;
  const std::string out = TempPath(name);
  std::ofstream(out, std::ios::binary) << bytes;
  return out;
}

TEST(ReadAheadTest, AFailedPageGivesTheSameErrorWithWorkers) {
  TestFileOptions o;
  o.codec = CompressionCodec::kZstd;
  const std::string path = WriteFile(o, "good.parquet");
  const std::string bad = CorruptPage(path, 3, 7, "bad.parquet");
  auto pool = std::make_shared<TaskPool>(1);
  for (bool verify : {true, false}) {
    std::string messages[2];
    for (int with_pool = 0; with_pool < 2; ++with_pool) {
      ReaderOptions ro;
      ro.verify_checksums = verify;
      if (with_pool) ro.task_pool = pool;
      auto file = FileReader::Open(bad, ro);
      ASSERT_TRUE(file.ok());
      std::shared_ptr<const FileReader> shared(*file);
      const WalkedChunk walked = WalkChunk(*shared, 0, 3);
      auto scanner = TableScanner::Make(shared, AllFields(*shared), {0}, ValueOptions{});
      ASSERT_TRUE(scanner.ok());
      Status scan_status;
      while (true) {
        auto n = (*scanner)->NextBatch();
        if (!n.ok()) {
          scan_status = std::move(n).TakeStatus();
          break;
        }
        if (*n == 0) break;
      }
      if (verify) {
        // A CRC mismatch, found by whichever thread loaded the page.
        EXPECT_EQ(walked.status.code(), StatusCode::kChecksum) << walked.status.ToString();
        EXPECT_EQ(scan_status.code(), StatusCode::kChecksum) << scan_status.ToString();
      }
      messages[with_pool] = walked.status.ToString() + " | " + scan_status.ToString();
    }
    EXPECT_EQ(messages[0], messages[1]) << "verify_checksums=" << verify;
  }
}

TEST(ReadAheadTest, AReaderDestroyedWithAPageInFlightWaitsForIt) {
  TestFileOptions o;
  o.codec = CompressionCodec::kZstd;
  o.page_rows = 50;
  const std::string path = WriteFile(o, "inflight.parquet");
  auto pool = std::make_shared<TaskPool>(1);
  auto file = OpenWith(path, pool);
  ASSERT_TRUE(file);
  const ColumnMetaData& meta = *file->metadata().row_groups[0].columns[2].meta_data;
  for (int round = 0; round < 200; ++round) {
    PageReader reader(file->file(), meta, file->options(), "test");
    Page page;
    for (int i = 0; i < 2 + round % 3; ++i) ASSERT_TRUE(reader.Next(&page).ok());
    // Leaves scope with the next page handed to the worker and maybe not done.
  }
  // Scanners dropped after their first batch, the table's pool still running.
  for (int round = 0; round < 20; ++round) {
    auto scanner = TableScanner::Make(file, AllFields(*file), AllRowGroups(*file), ValueOptions{});
    ASSERT_TRUE(scanner.ok());
    ASSERT_TRUE((*scanner)->NextBatch().ok());
  }
}

// A file in memory that records which thread read which bytes.
class ThreadRecordingFile final : public RandomAccessFile {
 public:
  explicit ThreadRecordingFile(std::string bytes)
      : RandomAccessFile("recorded.parquet", static_cast<int64_t>(bytes.size())), bytes_(std::move(bytes)) {}
  bool Unchanged() const override { return true; }
  struct Read {
    int64_t offset = 0;
    int64_t length = 0;
    std::thread::id thread;
  };
  std::vector<Read> reads() const {
    std::lock_guard<std::mutex> lock(mu_);
    return reads_;
  }

 protected:
  Status ReadBytes(int64_t offset, int64_t length, uint8_t* out) const override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      reads_.push_back({offset, length, std::this_thread::get_id()});
    }
    if (length > 0) std::memcpy(out, bytes_.data() + offset, static_cast<size_t>(length));
    return Status::OK();
  }

 private:
  std::string bytes_;
  mutable std::mutex mu_;
  mutable std::vector<Read> reads_;
};

struct Recorded {
  std::shared_ptr<const FileReader> reader;
  const ThreadRecordingFile* file = nullptr;
};

Recorded OpenRecorded(const std::string& path, std::shared_ptr<TaskPool> pool,
                      std::shared_ptr<MemoryBudget> memory = nullptr) {
  ReaderOptions options;
  options.task_pool = std::move(pool);
  options.memory = std::move(memory);
  auto file = std::make_unique<ThreadRecordingFile>(ReadWholeFile(path));
  const ThreadRecordingFile* raw = file.get();
  auto r = FileReader::Open(std::move(file), options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return {r.ok() ? *r : nullptr, raw};
}

// Row groups (by index) whose column chunk bytes a thread other than this one read.
std::set<int> GroupsReadElsewhere(const Recorded& r) {
  std::set<int> groups;
  const auto& row_groups = r.reader->metadata().row_groups;
  for (const ThreadRecordingFile::Read& read : r.file->reads()) {
    if (read.thread == std::this_thread::get_id()) continue;
    for (size_t g = 0; g < row_groups.size(); ++g) {
      for (const ColumnChunk& c : row_groups[g].columns) {
        const ColumnMetaData& m = *c.meta_data;
        const int64_t begin = std::min(m.dictionary_page_offset.value_or(m.data_page_offset), m.data_page_offset);
        if (read.offset >= begin && read.offset < begin + m.total_compressed_size) groups.insert(static_cast<int>(g));
      }
    }
  }
  return groups;
}

// A zstd test file of several row groups, opened without workers, and its rows.
struct GroupsFile {
  std::string path;
  std::shared_ptr<const FileReader> inline_file;
  std::vector<int> fields;
  std::vector<ScannedRow> rows;
};

GroupsFile WriteGroupsFile(int64_t rows, int64_t row_group_rows, const std::string& name) {
  TestFileOptions o;
  o.codec = CompressionCodec::kZstd;
  o.rows = rows;
  o.row_group_rows = row_group_rows;
  GroupsFile g;
  g.path = WriteFile(o, name);
  g.inline_file = OpenWith(g.path, nullptr);
  if (g.inline_file == nullptr) return g;
  g.fields = AllFields(*g.inline_file);
  g.rows = FullScan(g.inline_file, g.fields);
  return g;
}

TEST(ReadAheadTest, AScanReadsTheNextRowGroupOnAWorker) {
  // Four row groups of 20,000 rows: ten batches each.
  const GroupsFile file = WriteGroupsFile(80'000, 20'000, "groups.parquet");
  ASSERT_TRUE(file.inline_file);
  const std::vector<int>& fields = file.fields;
  const std::vector<ScannedRow>& want = file.rows;
  ASSERT_EQ(want.size(), 80'000u);

  auto memory = std::make_shared<MemoryBudget>(0);  // no limit: counts what is held
  Recorded ahead = OpenRecorded(file.path, std::make_shared<TaskPool>(1), memory);
  ASSERT_TRUE(ahead.reader);
  ExpectSameRows(want, FullScan(ahead.reader, fields), "threads");
  // Row group 0 is read by the scan itself when it opens; later ones by the worker meanwhile (each
  // one the worker took up before the scan got there: the scan reads those it did not itself).
  const std::set<int> elsewhere = GroupsReadElsewhere(ahead);
  EXPECT_FALSE(elsewhere.empty());
  EXPECT_EQ(elsewhere.count(0), 0u);
  EXPECT_EQ(memory->used(), 0) << "what was read ahead stays charged";

  // Scans that stop after a few batches: the row group read ahead is let go, and its charge.
  for (int round = 0; round < 20; ++round) {
    auto scanner = TableScanner::Make(ahead.reader, fields, AllRowGroups(*ahead.reader), ValueOptions{});
    ASSERT_TRUE(scanner.ok());
    for (int batch = 0; batch <= round % 4 + 1; ++batch) ASSERT_TRUE((*scanner)->NextBatch().ok());
  }

  // Skipping rows across row groups: the row group read ahead is skipped with them.
  {
    auto scanner = TableScanner::Make(ahead.reader, fields, AllRowGroups(*ahead.reader), ValueOptions{});
    ASSERT_TRUE(scanner.ok());
    ASSERT_TRUE((*scanner)->NextBatch().ok());
    auto skipped = (*scanner)->SkipRows(45'000);
    ASSERT_TRUE(skipped.ok());
    std::vector<ScannedRow> rest = ReadRest(scanner->get(), fields.size());
    ASSERT_FALSE(rest.empty());
    const std::vector<ScannedRow> tail(want.end() - static_cast<std::ptrdiff_t>(rest.size()), want.end());
    ExpectSameRows(tail, rest, "after SkipRows");
  }
  // With the file let go, nothing it or its scans read stays charged.
  ahead.reader.reset();
  EXPECT_EQ(memory->used(), 0);
}

TEST(ReadAheadTest, NoRowGroupIsReadAheadWhenItMayNotBeNeeded) {
  const GroupsFile file = WriteGroupsFile(40'000, 10'000, "groups_filtered.parquet");
  ASSERT_TRUE(file.inline_file);
  const std::vector<int>& fields = file.fields;
  auto pool = std::make_shared<TaskPool>(1);

  // A scan stopped within its first batch (a LIMIT) reads nothing ahead.
  {
    Recorded r = OpenRecorded(file.path, pool);
    ASSERT_TRUE(r.reader);
    auto scanner = TableScanner::Make(r.reader, fields, AllRowGroups(*r.reader), ValueOptions{});
    ASSERT_TRUE(scanner.ok());
    auto n = (*scanner)->NextBatch();
    ASSERT_TRUE(n.ok() && *n > 0);
    scanner->reset();
    EXPECT_EQ(GroupsReadElsewhere(r), std::set<int>{});
  }
  // A filter may leave a row group's other columns unread.
  {
    Recorded r = OpenRecorded(file.path, pool);
    ASSERT_TRUE(r.reader);
    Predicate filter{{PredicateTerm{0, PredicateOp::kGe, {SqlValue::Integer(0)}}}};
    ExpectSameRows(Filtered(*file.inline_file, file.rows, fields, filter), ScanWithFilter(r.reader, fields, filter),
                   "filter");
    EXPECT_EQ(GroupsReadElsewhere(r), std::set<int>{});
  }
  // A memory limit under which the next row group's chunks would be more than a sixteenth of it:
  // the scan reads for itself (and fits: the limit is well above what it holds).
  {
    int64_t group_bytes = 0;
    for (const RowGroup& g : file.inline_file->metadata().row_groups) {
      int64_t bytes = 0;
      for (const ColumnChunk& c : g.columns) bytes += c.meta_data->total_compressed_size;
      group_bytes = std::max(group_bytes, bytes);
    }
    Recorded r = OpenRecorded(file.path, pool, std::make_shared<MemoryBudget>(group_bytes * 15));
    ASSERT_TRUE(r.reader);
    ExpectSameRows(file.rows, FullScan(r.reader, fields), "tight budget");
    EXPECT_EQ(GroupsReadElsewhere(r), std::set<int>{});
  }
}

// Three STRING leaves: 0 "req" required, 1 "opt" optional (every sixth row NULL), 2 "nul" optional
// (every sixth row NULL) whose row 250 holds a NUL byte. Row r's text is "v<r>" and r % 7 'x's.
std::vector<SchemaElement> TextSchema() {
  return {Root(3), Leaf("req", PhysicalType::kByteArray, Repetition::kRequired, Logical(LogicalType::Kind::kString)),
          Leaf("opt", PhysicalType::kByteArray, Repetition::kOptional, Logical(LogicalType::Kind::kString)),
          Leaf("nul", PhysicalType::kByteArray, Repetition::kOptional, Logical(LogicalType::Kind::kString))};
}

std::vector<LeafData> TextTable(int64_t rows) {
  std::vector<LeafData> d(3);
  for (int64_t r = 0; r < rows; ++r) {
    const std::string text = "v" + std::to_string(r) + std::string(static_cast<size_t>(r % 7), 'x');
    d[0].bytes.push_back(text);
    for (size_t leaf : {size_t{1}, size_t{2}}) {
      d[leaf].def.push_back(r % 6 == 0 ? 0 : 1);
      if (r % 6 != 0) d[leaf].bytes.push_back(leaf == 2 && r == 250 ? std::string("a\0b", 3) : text);
    }
  }
  return d;
}

std::shared_ptr<const FileReader> WriteTextFile(int version, CompressionCodec codec, int64_t rows,
                                                const std::string& name) {
  WriterOptions w;
  w.codec = codec;
  w.dictionary = false;
  w.data_page_version = version;
  w.page_rows = 50;
  w.row_group_rows = rows;
  return WriteAndOpen(TextSchema(), TextTable(rows), rows, rows, w, name);
}

// The values of a loaded data page of a flat leaf: the body, past a v1 page's definition levels
// (RLE, after their 4-byte length) when the leaf has them.
ByteSpan ValuesOf(const Page& page, bool def_levels) {
  if (page.type != PageType::kDataPage || !def_levels) return page.body;
  uint32_t length = 0;
  std::memcpy(&length, page.body.data(), 4);
  return page.body.subspan(4 + length);
}

// PLAIN BYTE_ARRAY values as C strings, made apart from the reader: each value's bytes and a NUL.
// *nul: some value holds a NUL byte.
std::string CStringsOf(ByteSpan values, bool* nul) {
  std::string out;
  *nul = false;
  size_t pos = 0;
  while (pos + 4 <= values.size()) {
    uint32_t length = 0;
    std::memcpy(&length, values.data() + pos, 4);
    const std::string value(reinterpret_cast<const char*>(values.data()) + pos + 4, length);
    *nul = *nul || value.find('\0') != std::string::npos;
    out += value;
    out += '\0';
    pos += 4 + length;
  }
  EXPECT_EQ(pos, values.size());
  return out;
}

TEST(ReadAheadTest, AWorkerCopiesPlainTextPagesAsCStrings) {
  auto pool = std::make_shared<TaskPool>(1);
  for (int version : {1, 2}) {
    for (CompressionCodec codec : {CompressionCodec::kZstd, CompressionCodec::kUncompressed}) {
      const std::string what = "v" + std::to_string(version) + " codec " + std::to_string(static_cast<int>(codec));
      auto written = WriteTextFile(version, codec, 1'000, "cstrings_" + std::to_string(version) + "_" +
                                                              std::to_string(static_cast<int>(codec)) + ".parquet");
      ASSERT_TRUE(written);
      ReaderOptions o;
      o.task_pool = pool;
      o.memory = std::make_shared<MemoryBudget>(0);  // no limit: counts what is held
      auto file = OpenForTest(written->path(), o);
      ASSERT_TRUE(file);
      for (int leaf = 0; leaf < 3; ++leaf) {
        for (bool on : {true, false}) {
          const ColumnMetaData& meta = *file->metadata().row_groups[0].columns[static_cast<size_t>(leaf)].meta_data;
          PageReader reader(file->file(), meta, file->options(), "test");
          reader.set_c_strings(on, false, leaf > 0);
          int pages = 0;
          int with_nul = 0;
          Page page;
          while (true) {
            Result<bool> found = reader.NextHeader(&page);
            ASSERT_TRUE(found.ok()) << found.status().ToString();
            if (!*found) break;
            // Pages handed to the pool are loaded here or by the worker, by the same task.
            while (pool->RunOne()) {
            }
            ASSERT_TRUE(reader.LoadBody(&page).ok());
            ASSERT_EQ(page.encoding, Encoding::kPlain);
            const ByteSpan values = ValuesOf(page, leaf > 0);
            bool nul = false;
            const std::string want = CStringsOf(values, &nul);
            with_nul += nul;
            // The first two pages are loaded inline (no read-ahead yet); so is every page without `on`.
            if (!on || pages < 2 || nul) {
              EXPECT_TRUE(page.c_strings.empty()) << what << " leaf " << leaf << " page " << pages;
            } else {
              EXPECT_EQ(page.c_strings_of, values.data()) << what << " leaf " << leaf << " page " << pages;
              EXPECT_EQ(std::string(reinterpret_cast<const char*>(page.c_strings.data()), page.c_strings.size()),
                        want)
                  << what << " leaf " << leaf << " page " << pages;
            }
            ++pages;
          }
          EXPECT_EQ(pages, 20) << what;
          EXPECT_EQ(with_nul, leaf == 2 ? 1 : 0) << what;
        }
      }
      file.reset();
      EXPECT_EQ(o.memory->used(), 0) << what << ": C strings stay charged";
    }
  }
}

TEST(ReadAheadTest, NoCStringsTakeRoomAScanNearItsMemoryLimitMayNeed) {
  // Uncompressed: a page's body is a slice of the chunk's bytes, which the reader holds throughout.
  auto written = WriteTextFile(1, CompressionCodec::kUncompressed, 1'000, "cstrings_budget.parquet");
  ASSERT_TRUE(written);
  auto pool = std::make_shared<TaskPool>(1);
  // Walks leaf 0 under `memory`, running every page handed over; pages with C strings, or -1 when
  // the walk failed.
  auto walk = [&](const std::shared_ptr<MemoryBudget>& memory) {
    ReaderOptions o;
    o.task_pool = pool;
    o.memory = memory;
    auto file = OpenForTest(written->path(), o);
    EXPECT_TRUE(file);
    if (!file) return -1;
    PageReader reader(file->file(), *file->metadata().row_groups[0].columns[0].meta_data, file->options(), "test");
    reader.set_c_strings(true, false, false);
    int with = 0;
    Page page;
    while (true) {
      Result<bool> found = reader.NextHeader(&page);
      if (!found.ok()) return -1;
      if (!*found) break;
      while (pool->RunOne()) {
      }
      if (!reader.LoadBody(&page).ok()) return -1;
      with += !page.c_strings.empty();
    }
    return with;
  };
  auto counted = std::make_shared<MemoryBudget>(0);
  EXPECT_EQ(walk(counted), 18);  // every page from the third
  auto plain = std::make_shared<MemoryBudget>(0);
  {
    ReaderOptions o;
    o.memory = plain;
    auto file = OpenForTest(written->path(), o);
    ASSERT_TRUE(file);
    WalkChunk(*file, 0, 0);
  }
  // The reader holds the chunk's bytes throughout: under a limit below twice those, a copy would
  // always take the table past half of it, so none is made, and the walk (which needs less than
  // the limit) reads as before.
  const int64_t chunk = OpenForTest(written->path())->metadata().row_groups[0].columns[0].meta_data->total_compressed_size;
  ASSERT_LT(plain->peak() + 1024, 2 * chunk - 2) << "the walk needs more than the limit";
  EXPECT_EQ(walk(std::make_shared<MemoryBudget>(2 * chunk - 2)), 0);
  EXPECT_EQ(walk(std::make_shared<MemoryBudget>(counted->peak() * 4)), 18);
}

TEST(ReadAheadTest, AScanHandsOnAWorkersCStringsAsTheValues) {
  auto written = WriteTextFile(1, CompressionCodec::kZstd, 1'000, "cstrings_scan.parquet");
  ASSERT_TRUE(written);
  auto inline_file = OpenWith(written->path(), nullptr);
  auto ahead_file = OpenWith(written->path(), std::make_shared<TaskPool>(1));
  ASSERT_TRUE(inline_file && ahead_file);
  const std::vector<int> fields = AllFields(*inline_file);
  const std::vector<ScannedRow> want = FullScan(inline_file, fields);
  ASSERT_EQ(want.size(), 1'000u);
  ASSERT_EQ(want[250].values[2].bytes, std::string("a\0b", 3));
  ExpectSameRows(want, FullScan(ahead_file, fields), "threads");

  // A page a batch, the calling thread slower than the worker: batches of C strings, but never one
  // holding the page with the NUL.
  ScanRequest request;
  request.fields = fields;
  auto plan = TableScanner::PlanAllRows(*ahead_file, AllRowGroups(*ahead_file));
  ASSERT_TRUE(plan.ok());
  request.plan = *plan;
  request.batch_rows = 50;
  auto scanner = TableScanner::Make(ahead_file, std::move(request), ValueOptions{});
  ASSERT_TRUE(scanner.ok());
  int terminated[3] = {0, 0, 0};
  int64_t row = 0;
  while (true) {
    auto n = (*scanner)->NextBatch();
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    if (*n == 0) break;
    for (int slot = 0; slot < 3; ++slot) {
      const TableScanner::BytesColumn b = (*scanner)->Bytes(slot);
      ASSERT_NE(b.values, nullptr);
      if (!b.terminated) continue;
      ++terminated[slot];
      for (int64_t r = 0; r < *n; ++r) {
        const int32_t k = b.value_index ? b.value_index[r] : static_cast<int32_t>(r);
        const SqlValue& v = want[static_cast<size_t>(row + r)].values[static_cast<size_t>(slot)];
        if (k < 0) {
          EXPECT_EQ(v.type, CellType::kNull);
          continue;
        }
        const ByteArray& value = b.values[k];
        ASSERT_EQ(std::string(reinterpret_cast<const char*>(value.ptr), value.len), v.bytes) << "row " << row + r;
        EXPECT_EQ(value.ptr[value.len], 0) << "row " << row + r;
        EXPECT_EQ(std::strlen(reinterpret_cast<const char*>(value.ptr)), value.len) << "row " << row + r;
      }
    }
    row += *n;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(row, 1'000);
  EXPECT_GT(terminated[0], 0);
  EXPECT_GT(terminated[1], 0);
  EXPECT_GT(terminated[2], 0);
}

}  // namespace
}  // namespace pq::testing
