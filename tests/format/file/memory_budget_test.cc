// MemoryBudget (memory_budget.h) through real scans: every buffer a scan's page readers hold is
// charged while held and returned when freed; a scan that would pass the limit fails with an error
// that says so, and the charges it made are returned too.
#include <gtest/gtest.h>

#include "format/file/memory_budget.h"
#include "tests/format/reader/scan_test_util.h"

namespace pq::testing {
namespace {

std::shared_ptr<const FileReader> OpenWithBudget(const std::string& path, std::shared_ptr<MemoryBudget> budget) {
  ReaderOptions options;
  options.memory = std::move(budget);
  auto file = FileReader::Open(path, options);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  return file.ok() ? std::move(file).value() : nullptr;
}

TEST(MemoryBudgetTest, ScansChargeWhatTheyHoldAndReturnIt) {
  for (CompressionCodec codec : {CompressionCodec::kUncompressed, CompressionCodec::kSnappy}) {
    TestFileOptions o;
    o.codec = codec;
    auto written = WriteTestFile(o, "budget.parquet");
    ASSERT_TRUE(written);
    auto budget = std::make_shared<MemoryBudget>(0);  // no limit: count only
    auto file = OpenWithBudget(written->path(), budget);
    ASSERT_TRUE(file);
    const std::vector<ScannedRow> want = FullScan(written, AllFields(*written));
    {
      auto scanner = TableScanner::Make(file, AllFields(*file), AllRowGroups(*file), ValueOptions{});
      ASSERT_TRUE(scanner.ok());
      auto n = (*scanner)->NextBatch();
      ASSERT_TRUE(n.ok());
      EXPECT_GT(budget->used(), 0);  // a batch in hand: its pages are held
      std::vector<ScannedRow> rows = ReadRest(scanner->get(), AllFields(*file).size());
      EXPECT_EQ(static_cast<int64_t>(rows.size()) + *n, static_cast<int64_t>(want.size()));
    }
    EXPECT_EQ(budget->used(), 0) << "every charge is returned when the scan ends";
    EXPECT_GT(budget->peak(), 0);
    // Nothing like the whole file at once: one row group's chunks at most.
    EXPECT_LT(budget->peak(), 4 * file->file().size());
  }
}

TEST(MemoryBudgetTest, AScanOverTheLimitFailsAndReturnsItsCharges) {
  TestFileOptions o;
  o.codec = CompressionCodec::kSnappy;
  o.page_rows = 5000;
  auto written = WriteTestFile(o, "budget_small.parquet");
  ASSERT_TRUE(written);
  auto budget = std::make_shared<MemoryBudget>(4096);
  auto file = OpenWithBudget(written->path(), budget);
  ASSERT_TRUE(file);
  {
    auto scanner = TableScanner::Make(file, AllFields(*file), AllRowGroups(*file), ValueOptions{});
    ASSERT_TRUE(scanner.ok());
    Result<int64_t> n = (*scanner)->NextBatch();
    ASSERT_FALSE(n.ok());
    EXPECT_EQ(n.status().code(), StatusCode::kOutOfMemory);
    EXPECT_NE(n.status().message().find("over its limit of 4096"), std::string::npos) << n.status().ToString();
    EXPECT_NE(n.status().message().find("max_memory"), std::string::npos);
    EXPECT_NE(n.status().message().find("budget_small.parquet"), std::string::npos) << "names the file";
  }
  EXPECT_EQ(budget->used(), 0);
  // The same file under a budget that holds it reads every row.
  auto roomy = std::make_shared<MemoryBudget>(int64_t{64} << 20);
  auto again = OpenWithBudget(written->path(), roomy);
  ASSERT_TRUE(again);
  EXPECT_EQ(FullScan(again, AllFields(*again)).size(), FullScan(written, AllFields(*written)).size());
  EXPECT_EQ(roomy->used(), 0);
}

TEST(MemoryBudgetTest, ReserveAndRelease) {
  MemoryBudget b(100);
  EXPECT_TRUE(b.Reserve(60, "a").ok());
  EXPECT_EQ(b.Reserve(41, "b").code(), StatusCode::kOutOfMemory);
  EXPECT_EQ(b.used(), 60);
  EXPECT_TRUE(b.Reserve(40, "c").ok());
  b.Release(100);
  EXPECT_EQ(b.used(), 0);
  EXPECT_EQ(b.peak(), 100);
  auto shared = std::make_shared<MemoryBudget>(0);
  ASSERT_TRUE(shared->Reserve(3, "x").ok());
  BufferPtr charged = ChargedBuffer(std::make_shared<Buffer>(3), shared);
  BufferPtr copy = charged;
  charged.reset();
  EXPECT_EQ(shared->used(), 3);
  copy.reset();
  EXPECT_EQ(shared->used(), 0);
}

}  // namespace
}  // namespace pq::testing
