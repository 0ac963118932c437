// TableScanner with a ScanPlan, SkipRows and a filter: whatever is skipped or filtered, the rows that
// come out are exactly the rows of a plain full scan at the same positions (values, NULLs, nested
// JSON, row numbers), and the statistics show that skipped rows were not decoded (pages passed,
// bytes not read). Files are written by the project's writer with 100-row pages, in every page
// layout the reader distinguishes: v1/v2 pages, dictionary/plain, with and without page index.
#include <gtest/gtest.h>

#include <random>

#include "format/predicate/predicate.h"
#include "format/predicate/scan_plan.h"
#include "format/reader/table_scanner.h"
#include "format/util/row_ranges.h"
#include "tests/format/reader/scan_test_util.h"

namespace pq::testing {
namespace {

constexpr int64_t kRows = 25'000;          // row groups of 10000, 10000, 5000
constexpr int64_t kGroupRows = 10'000;
constexpr int kLeaves = 5;

int64_t GroupStart(int g) { return g * kGroupRows; }
int64_t GroupRows(int g) { return std::min(kGroupRows, kRows - GroupStart(g)); }

std::unique_ptr<TableScanner> MakeScanner(const std::shared_ptr<const FileReader>& file,
                                          ScanRequest request) {
  auto s = TableScanner::Make(file, std::move(request), ValueOptions{});
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? std::move(s).value() : nullptr;
}

ScanRequest Request(std::vector<int> fields, ScanPlan plan, int64_t batch_rows = 2048) {
  ScanRequest r;
  r.fields = std::move(fields);
  r.plan = std::move(plan);
  r.batch_rows = batch_rows;
  return r;
}

ScanPlan OneRange(int group, int64_t begin, int64_t end) {
  ScanPlan plan;
  RowRanges rows;
  rows.Add(begin, end);
  plan.row_groups.push_back({group, rows});
  return plan;
}

ScanPlan AllRows(const FileReader& file) {
  auto plan = TableScanner::PlanAllRows(file, AllRowGroups(file));
  EXPECT_TRUE(plan.ok());
  return plan.ok() ? *plan : ScanPlan{};
}

// The rows of `full` (a full scan of every row) that `plan` keeps, in plan order.
std::vector<ScannedRow> RowsOfPlan(const std::vector<ScannedRow>& full, const ScanPlan& plan) {
  std::vector<ScannedRow> rows;
  for (const RowGroupPlan& g : plan.row_groups) {
    for (const RowRange& r : g.rows.ranges()) {
      for (int64_t i = r.begin; i < std::min(r.end, GroupRows(g.row_group)); ++i) {
        rows.push_back(full[static_cast<size_t>(GroupStart(g.row_group) + i)]);
      }
    }
  }
  return rows;
}

ScanPlan RandomPlan(std::mt19937_64& rng, int num_groups) {
  ScanPlan plan;
  for (int g = 0; g < num_groups; ++g) {
    if (rng() % 4 == 0) continue;
    RowRanges rows;
    const int n = 1 + static_cast<int>(rng() % 5);
    for (int k = 0; k < n; ++k) {
      const int64_t begin = static_cast<int64_t>(rng() % static_cast<uint64_t>(GroupRows(g)));
      const int64_t len = 1 + static_cast<int64_t>(rng() % (rng() % 2 ? 50 : 900));
      rows.Add(begin, std::min(begin + len, GroupRows(g)));
    }
    plan.row_groups.push_back({g, rows});
  }
  return plan;
}

int64_t PlanGroupRows(const ScanPlan& plan) {
  int64_t n = 0;
  for (const RowGroupPlan& g : plan.row_groups) n += GroupRows(g.row_group);
  return n;
}

void ExpectRowAccounting(const ScanCounters& s, int64_t group_rows, const std::string& what) {
  EXPECT_EQ(s.rows_produced + s.rows_skipped + s.rows_filtered, group_rows) << what;
}

class ScanPlanTest : public ::testing::TestWithParam<TestFileOptions> {
 protected:
  void SetUp() override {
    file_ = WriteTestFile(GetParam(), "table.parquet");
    ASSERT_NE(file_, nullptr);
    ASSERT_EQ(file_->num_row_groups(), 3);
    fields_ = AllFields(*file_);
    full_ = FullScan(file_, fields_);
    ASSERT_EQ(static_cast<int64_t>(full_.size()), kRows);
    for (int64_t r = 0; r < kRows; ++r) ASSERT_EQ(full_[static_cast<size_t>(r)].row, r);
  }
  std::shared_ptr<const FileReader> file_;
  std::vector<int> fields_;
  std::vector<ScannedRow> full_;
};

TEST_P(ScanPlanTest, FullScanValues) {
  // Spot checks of the reference itself against the table that was written.
  const ScannedRow& r = full_[7707];
  EXPECT_EQ(r.values[0].i, 7707);
  EXPECT_EQ(r.values[1].type, CellType::kNull);  // 7707 % 7 == 0
  EXPECT_EQ(r.values[2].bytes, "name11");
  EXPECT_EQ(r.values[3].d, 3853.5);
  EXPECT_EQ(full_[7708].values[1].i, (7708 * 37) % 1000 - 500);
  EXPECT_EQ(full_[7710].values[2].type, CellType::kNull);
  EXPECT_EQ(full_[22].values[4].type, CellType::kNull);  // null list
  EXPECT_EQ(full_[23].values[4].bytes, "[]");
  EXPECT_EQ(full_[26].values[4].bytes, "[260,null,262]");  // 26 % 4 + 1 = 3 elements, (26+1) % 9 == 0
}

TEST_P(ScanPlanTest, RandomRangesGiveTheFullScanRows) {
  std::mt19937_64 rng(20240611);
  for (int trial = 0; trial < 10; ++trial) {
    const ScanPlan plan = RandomPlan(rng, 3);
    const int64_t batch = 1 + static_cast<int64_t>(rng() % 3000);
    auto scanner = MakeScanner(file_, Request(fields_, plan, batch));
    ASSERT_NE(scanner, nullptr);
    const std::string what = "trial " + std::to_string(trial);
    ExpectSameRows(RowsOfPlan(full_, plan), ReadRest(scanner.get(), fields_.size()), what);
    ExpectRowAccounting(scanner->stats(), PlanGroupRows(plan), what);
  }
  // A projection in another order, the nested field first.
  const std::vector<int> fields = {4, 2, 0};
  for (int trial = 0; trial < 4; ++trial) {
    const ScanPlan plan = RandomPlan(rng, 3);
    auto scanner = MakeScanner(file_, Request(fields, plan, 500));
    ASSERT_NE(scanner, nullptr);
    std::vector<ScannedRow> want = RowsOfPlan(full_, plan);
    for (ScannedRow& r : want) r.values = {r.values[4], r.values[2], r.values[0]};
    ExpectSameRows(want, ReadRest(scanner.get(), fields.size()), "projection trial " + std::to_string(trial));
  }
}

TEST_P(ScanPlanTest, RangesAtPageAndGroupEdges) {
  const std::vector<std::pair<int64_t, int64_t>> edges = {
      {0, 1}, {99, 101}, {100, 200}, {9999, 10000}, {0, 10000}, {4321, 4322}, {5000, 5100}};
  for (auto [b, e] : edges) {
    for (int g : {0, 2}) {
      if (e > GroupRows(g)) continue;
      const ScanPlan plan = OneRange(g, b, e);
      auto scanner = MakeScanner(file_, Request(fields_, plan, 64));
      ASSERT_NE(scanner, nullptr);
      ExpectSameRows(RowsOfPlan(full_, plan), ReadRest(scanner.get(), fields_.size()),
                     "group " + std::to_string(g) + " [" + std::to_string(b) + ", " + std::to_string(e) + ")");
    }
  }
  // A range past the row group's end is cut at the end.
  ScanPlan plan = OneRange(2, 4990, 7000);
  auto scanner = MakeScanner(file_, Request(fields_, plan));
  ASSERT_NE(scanner, nullptr);
  ExpectSameRows(RowsOfPlan(full_, plan), ReadRest(scanner.get(), fields_.size()), "cut");
}

TEST_P(ScanPlanTest, OneRangeDecodesAboutOnePagePerColumn) {
  const bool indexed = GetParam().page_index;
  const std::vector<int> flat = {0, 1, 2, 3};
  // The whole first row group, for comparison.
  auto whole = MakeScanner(file_, Request(flat, OneRange(0, 0, kGroupRows)));
  ASSERT_NE(whole, nullptr);
  ReadRest(whole.get(), flat.size());
  const ScanCounters all = whole->stats();
  EXPECT_EQ(all.pages_read, 4 * 100);

  // Rows [5000, 5100) are page 50 of every column.
  auto flat_rows = [&](int64_t begin, int64_t end) {
    std::vector<ScannedRow> rows = RowsOfPlan(full_, OneRange(0, begin, end));
    for (ScannedRow& r : rows) r.values.resize(flat.size());
    return rows;
  };
  auto one = MakeScanner(file_, Request(flat, OneRange(0, 5000, 5100)));
  ASSERT_NE(one, nullptr);
  ExpectSameRows(flat_rows(5000, 5100), ReadRest(one.get(), flat.size()), "page 50");
  const ScanCounters s = one->stats();
  EXPECT_EQ(s.pages_read, 4);
  EXPECT_EQ(s.pages_skipped, indexed ? 4 * 99 : 4 * 50);  // by index: all others; by header: those before
  EXPECT_LE(s.values_decoded, 400);
  EXPECT_GE(s.values_decoded, 300);
  EXPECT_EQ(s.rows_produced, 100);
  EXPECT_EQ(s.rows_skipped, kGroupRows - 100);
  if (indexed) {
    // Four pages, four OffsetIndexes and the dictionaries: apart from the dictionaries (id and dbl
    // are unique: theirs hold every value), a small part of the chunks.
    const int64_t dict = DictionaryBytes(*file_, 0, flat);
    EXPECT_LT((s.bytes_read - dict) * 10, all.bytes_read - dict) << s.bytes_read << " of " << all.bytes_read;
  } else {
    EXPECT_EQ(s.bytes_read, all.bytes_read);  // the chunks are read, their pages not decoded
  }

  // Rows [5050, 5150) straddle pages 50 and 51.
  auto two = MakeScanner(file_, Request(flat, OneRange(0, 5050, 5150)));
  ASSERT_NE(two, nullptr);
  ExpectSameRows(flat_rows(5050, 5150), ReadRest(two.get(), flat.size()), "pages 50-51");
  EXPECT_EQ(two->stats().pages_read, 8);

  // The LIST column: by index one page; without, its levels are walked to the range (values are
  // skipped, not decoded).
  auto nested = MakeScanner(file_, Request({4}, OneRange(0, 5000, 5100)));
  ASSERT_NE(nested, nullptr);
  std::vector<ScannedRow> want = RowsOfPlan(full_, OneRange(0, 5000, 5100));
  for (ScannedRow& r : want) r.values = {r.values[4]};
  ExpectSameRows(want, ReadRest(nested.get(), 1), "nested");
  // Without the index the reader also starts page 51 to see whether row 5099 goes on there.
  EXPECT_EQ(nested->stats().pages_read, indexed ? 1 : 52);
  EXPECT_LE(nested->stats().values_decoded, 400);
}

TEST_P(ScanPlanTest, SkipRowsGivesTheFullScanRows) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 8; ++trial) {
    const int64_t k = static_cast<int64_t>(rng() % (kRows + 500));
    auto scanner = MakeScanner(file_, Request(fields_, AllRows(*file_), 1 + static_cast<int64_t>(rng() % 2500)));
    ASSERT_NE(scanner, nullptr);
    auto skipped = scanner->SkipRows(k);
    ASSERT_TRUE(skipped.ok()) << skipped.status().ToString();
    EXPECT_EQ(*skipped, std::min(k, kRows));
    std::vector<ScannedRow> want(full_.begin() + std::min(k, kRows), full_.end());
    ExpectSameRows(want, ReadRest(scanner.get(), fields_.size()), "skip " + std::to_string(k));
    ExpectRowAccounting(scanner->stats(), kRows, "skip " + std::to_string(k));
  }
  // Between batches: read one, skip, read one, skip, ... and compare every row read.
  for (int trial = 0; trial < 4; ++trial) {
    const int64_t batch = 1 + static_cast<int64_t>(rng() % 1500);
    auto scanner = MakeScanner(file_, Request(fields_, AllRows(*file_), batch));
    ASSERT_NE(scanner, nullptr);
    int64_t next = 0;
    std::string scratch;
    while (true) {
      auto n = scanner->NextBatch();
      ASSERT_TRUE(n.ok()) << n.status().ToString();
      if (*n == 0) break;
      for (int64_t r = 0; r < *n; ++r) {
        ASSERT_EQ(scanner->RowNumber(r), next + r);
        for (size_t f = 0; f < fields_.size(); ++f) {
          SqlValue v = SqlValue::FromCell(scanner->GetCell(static_cast<int>(f), r, &scratch));
          ASSERT_TRUE(SameValue(v, full_[static_cast<size_t>(next + r)].values[f]))
              << "row " << next + r << " slot " << f;
        }
      }
      next += *n;
      const int64_t k = static_cast<int64_t>(rng() % 4000);
      auto skipped = scanner->SkipRows(k);
      ASSERT_TRUE(skipped.ok()) << skipped.status().ToString();
      EXPECT_EQ(*skipped, std::min(k, kRows - next));
      next += *skipped;
    }
    EXPECT_EQ(next, kRows);
  }
  // With a plan, SkipRows counts the plan's rows.
  const ScanPlan plan = RandomPlan(rng, 3);
  const std::vector<ScannedRow> planned = RowsOfPlan(full_, plan);
  for (int64_t k : {int64_t{0}, int64_t{1}, static_cast<int64_t>(planned.size()) / 2,
                    static_cast<int64_t>(planned.size())}) {
    auto scanner = MakeScanner(file_, Request(fields_, plan, 300));
    ASSERT_NE(scanner, nullptr);
    ASSERT_EQ(*scanner->SkipRows(k), k);
    std::vector<ScannedRow> want(planned.begin() + k, planned.end());
    ExpectSameRows(want, ReadRest(scanner.get(), fields_.size()), "plan skip " + std::to_string(k));
  }
}

TEST_P(ScanPlanTest, SkipRowsPassesRowGroupsAndPages) {
  const std::vector<int> flat = {0, 1, 2, 3};
  // 20000 rows are the first two row groups: neither is opened.
  auto scanner = MakeScanner(file_, Request(flat, AllRows(*file_)));
  ASSERT_NE(scanner, nullptr);
  ASSERT_EQ(*scanner->SkipRows(20'000), 20'000);
  std::vector<ScannedRow> rest = ReadRest(scanner.get(), flat.size());
  ASSERT_EQ(rest.size(), 5000u);
  EXPECT_EQ(rest.front().row, 20'000);
  EXPECT_EQ(scanner->stats().row_groups_read, 1);
  EXPECT_EQ(scanner->stats().rows_skipped, 20'000);

  // 15000 rows: the second row group is opened at row 5000, its first 50 pages are not decoded.
  scanner = MakeScanner(file_, Request(flat, AllRows(*file_)));
  ASSERT_EQ(*scanner->SkipRows(15'000), 15'000);
  rest = ReadRest(scanner.get(), flat.size());
  ASSERT_EQ(rest.size(), 10'000u);
  EXPECT_EQ(rest.front().row, 15'000);
  const ScanCounters& s = scanner->stats();
  EXPECT_EQ(s.row_groups_read, 2);
  EXPECT_EQ(s.pages_read, 4 * (50 + 50));
  EXPECT_LE(s.values_decoded, 4 * 10'000);
}

TEST_P(ScanPlanTest, FilterGivesTheFullScanRowsThatSatisfyIt) {
  std::vector<Predicate> filters(10);
  filters[0].terms = {Term(1, PredicateOp::kGt, {SqlValue::Integer(400)})};
  filters[1].terms = {Term(2, PredicateOp::kEq, {SqlValue::Text("name3")}), Term(1, PredicateOp::kIsNotNull)};
  filters[2].terms = {Term(0, PredicateOp::kIn, {SqlValue::Integer(5), SqlValue::Integer(777),
                                                 SqlValue::Integer(12345), SqlValue::Integer(24999)})};
  filters[3].terms = {Term(0, PredicateOp::kLt, {SqlValue::Integer(0)})};
  filters[4].terms = {Term(3, PredicateOp::kGe, {SqlValue::Real(0)})};
  filters[5].terms = {Term(4, PredicateOp::kIsNull)};
  filters[6].terms = {Term(0, PredicateOp::kEq, {SqlValue::Text(" 5000 ")})};  // INTEGER affinity
  filters[7].terms = {Term(2, PredicateOp::kPrefix, {SqlValue::Text("name1")}), Term(3, PredicateOp::kLt, {SqlValue::Integer(3000)})};
  filters[8].terms = {Term(1, PredicateOp::kIsNull), Term(4, PredicateOp::kEq, {SqlValue::Text("[]")})};
  filters[9].terms = {Term(1, PredicateOp::kNe, {SqlValue::Integer(3)}), Term(0, PredicateOp::kGe, {SqlValue::Integer(9990)}),
                      Term(0, PredicateOp::kLt, {SqlValue::Integer(10010)})};
  // Every operator on raw values of each plain kind (the batch path without Cells): TEXT with
  // NULLs, optional INT32, required INT64 and DOUBLE; IN lists of one kind; and a mixed IN list,
  // which takes the general path.
  using Op = PredicateOp;
  for (Op op : {Op::kEq, Op::kNe, Op::kLt, Op::kLe, Op::kGt, Op::kGe}) {
    filters.push_back(Predicate{{Term(2, op, {SqlValue::Text("name12")})}});
    filters.push_back(Predicate{{Term(2, op, {SqlValue::Text("name")})}});
    filters.push_back(Predicate{{Term(1, op, {SqlValue::Integer(-17)})}});
    filters.push_back(Predicate{{Term(0, op, {SqlValue::Integer(4321)})}});
    filters.push_back(Predicate{{Term(3, op, {SqlValue::Real(1234.5)})}});
  }
  filters.push_back(Predicate{{Term(2, Op::kIn, {SqlValue::Text("name3"), SqlValue::Text("name11"), SqlValue::Text("x")})}});
  filters.push_back(Predicate{{Term(3, Op::kIn, {SqlValue::Real(0.5), SqlValue::Real(100), SqlValue::Real(-1)})}});
  filters.push_back(Predicate{{Term(1, Op::kIn, {SqlValue::Integer(-500), SqlValue::Integer(7), SqlValue::Null()})}});
  filters.push_back(Predicate{{Term(0, Op::kIn, {SqlValue::Integer(3), SqlValue::Real(4.0), SqlValue::Text("5")})}});
  std::mt19937_64 rng(5);
  for (size_t i = 0; i < filters.size(); ++i) {
    for (int with_plan = 0; with_plan < 2; ++with_plan) {
      const ScanPlan plan = with_plan ? RandomPlan(rng, 3) : AllRows(*file_);
      const int64_t batch = with_plan ? 1 + static_cast<int64_t>(rng() % 1000) : 2048;
      ScanRequest request = Request(fields_, plan, batch);
      request.filter = &filters[i];
      auto scanner = MakeScanner(file_, std::move(request));
      ASSERT_NE(scanner, nullptr);
      const std::string what = "filter " + std::to_string(i) + (with_plan ? " with plan" : "");
      const std::vector<ScannedRow> want = Filtered(*file_, RowsOfPlan(full_, plan), fields_, filters[i]);
      if (i == 3) {
        EXPECT_TRUE(want.empty());
      }
      if (i == 4) {
        EXPECT_EQ(want.size(), RowsOfPlan(full_, plan).size());
      }
      ExpectSameRows(want, ReadRest(scanner.get(), fields_.size()), what);
      const ScanCounters& s = scanner->stats();
      EXPECT_EQ(s.rows_produced, static_cast<int64_t>(want.size())) << what;
      ExpectRowAccounting(s, PlanGroupRows(plan), what);
    }
  }
}

TEST_P(ScanPlanTest, FilterTermsOnFieldsNotReadAreIgnored) {
  Predicate filter;
  filter.terms = {Term(1, PredicateOp::kEq, {SqlValue::Integer(-1000)})};  // would match nothing
  ScanRequest request = Request({0, 3}, AllRows(*file_));
  request.filter = &filter;
  auto scanner = MakeScanner(file_, std::move(request));
  ASSERT_NE(scanner, nullptr);
  EXPECT_EQ(ReadRest(scanner.get(), 2).size(), static_cast<size_t>(kRows));
}

TEST_P(ScanPlanTest, FilterWithSkipRows) {
  Predicate filter;
  filter.terms = {Term(1, PredicateOp::kGt, {SqlValue::Integer(0)})};
  const std::vector<ScannedRow> want_all = Filtered(*file_, full_, fields_, filter);
  for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{3000}, static_cast<int64_t>(want_all.size()) - 1,
                    static_cast<int64_t>(want_all.size()) + 5}) {
    ScanRequest request = Request(fields_, AllRows(*file_), 700);
    request.filter = &filter;
    auto scanner = MakeScanner(file_, std::move(request));
    ASSERT_NE(scanner, nullptr);
    auto skipped = scanner->SkipRows(k);
    ASSERT_TRUE(skipped.ok());
    const int64_t expect = std::min<int64_t>(k, static_cast<int64_t>(want_all.size()));
    EXPECT_EQ(*skipped, expect);
    std::vector<ScannedRow> want(want_all.begin() + expect, want_all.end());
    ExpectSameRows(want, ReadRest(scanner.get(), fields_.size()), "filtered skip " + std::to_string(k));
    ExpectRowAccounting(scanner->stats(), kRows, "filtered skip " + std::to_string(k));
  }
}

TEST_P(ScanPlanTest, LateMaterializationDecodesOtherFieldsOnlyForSurvivors) {
  Predicate filter;
  filter.terms = {Term(0, PredicateOp::kEq, {SqlValue::Integer(5000)})};
  ScanRequest request = Request({0, 1, 2, 3}, AllRows(*file_));
  request.filter = &filter;
  auto scanner = MakeScanner(file_, std::move(request));
  ASSERT_NE(scanner, nullptr);
  std::vector<ScannedRow> rows = ReadRest(scanner.get(), 4);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].row, 5000);
  const ScanCounters& s = scanner->stats();
  // id is decoded everywhere; the other three columns only read row 5000 (NULL in opt_i32 and name).
  EXPECT_LE(s.values_decoded, kRows + 3);
  EXPECT_EQ(s.pages_read, 250 + 3);
  EXPECT_EQ(s.rows_filtered, kRows - 1);
  EXPECT_EQ(s.rows_skipped, 0);
}

TEST_P(ScanPlanTest, RejectedBatchesDoNotEndTheScan) {
  Predicate filter;
  filter.terms = {Term(0, PredicateOp::kGe, {SqlValue::Integer(kRows - 2)})};
  ScanRequest request = Request(fields_, AllRows(*file_), 10);
  request.filter = &filter;
  auto scanner = MakeScanner(file_, std::move(request));
  ASSERT_NE(scanner, nullptr);
  auto n = scanner->NextBatch();
  ASSERT_TRUE(n.ok());
  ASSERT_EQ(*n, 2);
  EXPECT_EQ(scanner->RowNumber(0), kRows - 2);
  EXPECT_EQ(scanner->RowNumber(1), kRows - 1);
  std::string scratch;
  EXPECT_EQ(scanner->GetCell(3, 1, &scratch).d, (kRows - 1) * 0.5);
  n = scanner->NextBatch();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 0);
}

TEST_P(ScanPlanTest, BadRequests) {
  ScanPlan plan;
  plan.row_groups.push_back({3, RowRanges::All(10)});
  EXPECT_FALSE(TableScanner::Make(file_, Request(fields_, plan), ValueOptions{}).ok());
  EXPECT_FALSE(TableScanner::Make(file_, Request({5}, AllRows(*file_)), ValueOptions{}).ok());
  EXPECT_FALSE(TableScanner::Make(file_, fields_, {0, 7}, ValueOptions{}).ok());
  // An empty plan reads nothing.
  auto scanner = MakeScanner(file_, Request(fields_, ScanPlan{}));
  ASSERT_NE(scanner, nullptr);
  EXPECT_EQ(*scanner->NextBatch(), 0);
  EXPECT_EQ(*scanner->SkipRows(10), 0);
}

std::vector<TestFileOptions> Layouts() {
  std::vector<TestFileOptions> v;
  for (int version : {1, 2}) {
    for (bool dictionary : {true, false}) {
      for (bool index : {true, false}) {
        TestFileOptions o;
        o.page_version = version;
        o.dictionary = dictionary;
        o.page_index = index;
        o.codec = (version == 2 && !dictionary) ? CompressionCodec::kUncompressed : CompressionCodec::kSnappy;
        v.push_back(o);
      }
    }
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Layouts, ScanPlanTest, ::testing::ValuesIn(Layouts()),
                         [](const ::testing::TestParamInfo<TestFileOptions>& param) {
                           std::string name = Describe(param.param);
                           for (char& c : name) {
                             if (c == ' ' || c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace pq::testing
