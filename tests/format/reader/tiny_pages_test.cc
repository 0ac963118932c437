// alltypes_tiny_pages*.parquet (parquet-testing): 7300 rows in many tiny pages, with a page index.
// A one-row range reads one page per column and gives the full scan's row; random ranges, SkipRows
// and a filter agree with the full scan too.
#include <gtest/gtest.h>

#include <random>

#include "format/predicate/scan_plan.h"
#include "format/reader/table_scanner.h"
#include "format/util/row_ranges.h"
#include "tests/format/reader/scan_test_util.h"

namespace pq::testing {
namespace {

std::shared_ptr<const FileReader> OpenTestData(const std::string& name) {
  return OpenForTest(std::string(PQ_TESTDATA_DIR) + "/parquet-testing/data/" + name);
}

// File row number of each row group's first row.
std::vector<int64_t> GroupStarts(const FileReader& file) {
  std::vector<int64_t> starts;
  int64_t n = 0;
  for (const RowGroup& g : file.metadata().row_groups) {
    starts.push_back(n);
    n += g.num_rows;
  }
  return starts;
}

class TinyPagesTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TinyPagesTest, OneRowReadsOnePagePerColumn) {
  auto file = OpenTestData(GetParam());
  ASSERT_NE(file, nullptr);
  const std::vector<int> fields = AllFields(*file);
  const std::vector<ScannedRow> full = FullScan(file, fields);
  ASSERT_EQ(static_cast<int64_t>(full.size()), file->metadata().num_rows);
  const std::vector<int64_t> starts = GroupStarts(*file);
  const int leaves = file->schema().num_leaves();
  ASSERT_EQ(leaves, static_cast<int>(fields.size()));  // every field is a flat column

  auto whole = TableScanner::Make(file, fields, AllRowGroups(*file), ValueOptions{});
  ASSERT_TRUE(whole.ok());
  ReadRest(whole->get(), fields.size());
  const ScanCounters all = (*whole)->stats();

  const int64_t dict = DictionaryBytes(*file, 0, fields);
  int64_t index = 0;
  for (const ColumnChunk& c : file->metadata().row_groups[0].columns) index += c.offset_index_length.value_or(0);
  ASSERT_EQ(file->num_row_groups(), 1);
  std::mt19937_64 rng(17);
  std::vector<int64_t> picks = {0, static_cast<int64_t>(full.size()) - 1, 1234};
  for (int i = 0; i < 5; ++i) picks.push_back(static_cast<int64_t>(rng() % full.size()));
  for (int64_t row : picks) {
    int group = static_cast<int>(std::upper_bound(starts.begin(), starts.end(), row) - starts.begin()) - 1;
    ScanRequest request;
    request.fields = fields;
    RowRanges rows;
    rows.Add(row - starts[static_cast<size_t>(group)], row - starts[static_cast<size_t>(group)] + 1);
    request.plan.row_groups.push_back({group, rows});
    auto scanner = TableScanner::Make(file, std::move(request), ValueOptions{});
    ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
    ExpectSameRows({full[static_cast<size_t>(row)]}, ReadRest(scanner->get(), fields.size()),
                   "row " + std::to_string(row));
    const ScanCounters& s = (*scanner)->stats();
    EXPECT_EQ(s.pages_read, leaves) << "row " << row;
    EXPECT_GT(s.pages_skipped, 0);
    EXPECT_LT(s.values_decoded, 2 * leaves);
    // Apart from the dictionaries and the OffsetIndexes (needed whatever the row; pages here are
    // so small that the index of a column is a quarter of its size), one page per column.
    EXPECT_LT((s.bytes_read - dict - index) * 100, all.bytes_read - dict) << "row " << row;
  }
}

TEST_P(TinyPagesTest, RangesSkipsAndFiltersAgreeWithTheFullScan) {
  auto file = OpenTestData(GetParam());
  ASSERT_NE(file, nullptr);
  const std::vector<int> fields = AllFields(*file);
  const std::vector<ScannedRow> full = FullScan(file, fields);
  const std::vector<int64_t> starts = GroupStarts(*file);
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 6; ++trial) {
    ScanRequest request;
    request.fields = fields;
    request.batch_rows = 1 + static_cast<int64_t>(rng() % 1000);
    std::vector<ScannedRow> want;
    for (int g = 0; g < file->num_row_groups(); ++g) {
      const int64_t n = file->metadata().row_groups[static_cast<size_t>(g)].num_rows;
      RowRanges rows;
      for (int k = 0; k < 4; ++k) {
        const int64_t b = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
        rows.Add(b, std::min(n, b + 1 + static_cast<int64_t>(rng() % 300)));
      }
      request.plan.row_groups.push_back({g, rows});
      for (const RowRange& r : rows.ranges()) {
        for (int64_t i = r.begin; i < r.end; ++i) want.push_back(full[static_cast<size_t>(starts[static_cast<size_t>(g)] + i)]);
      }
    }
    const int64_t skip = static_cast<int64_t>(rng() % 200);
    auto scanner = TableScanner::Make(file, std::move(request), ValueOptions{});
    ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
    auto skipped = (*scanner)->SkipRows(skip);
    ASSERT_TRUE(skipped.ok());
    ASSERT_EQ(*skipped, std::min<int64_t>(skip, static_cast<int64_t>(want.size())));
    want.erase(want.begin(), want.begin() + *skipped);
    ExpectSameRows(want, ReadRest(scanner->get(), fields.size()), "trial " + std::to_string(trial));
  }
  // id BETWEEN 1000 AND 1100 (field 0 is id), with every field read.
  Predicate filter;
  PredicateTerm ge, le;
  ge.field = le.field = 0;
  ge.op = PredicateOp::kGe;
  ge.values = {SqlValue::Integer(1000)};
  le.op = PredicateOp::kLe;
  le.values = {SqlValue::Integer(1100)};
  filter.terms = {ge, le};
  std::vector<ScannedRow> want;
  for (const ScannedRow& r : full) {
    if (r.values[0].i >= 1000 && r.values[0].i <= 1100) want.push_back(r);
  }
  EXPECT_EQ(want.size(), 101u);
  ExpectSameRows(want, ScanWithFilter(file, fields, filter), "filter");
}

INSTANTIATE_TEST_SUITE_P(Files, TinyPagesTest,
                         ::testing::Values("alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet"),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           return param.param.find("plain") != std::string::npos ? std::string("plain")
                                                                                 : std::string("dictionary");
                         });

}  // namespace
}  // namespace pq::testing
