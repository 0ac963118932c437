// Filtering dictionary-encoded pages by dictionary index (TableScanner, ColumnBatch dictionary-coded
// batches): every term kind on every physical type with a dictionary, with NULLs, NaN, converted
// values (DECIMAL, timestamps, INT96) and chunks whose writer fell back from the dictionary to PLAIN
// part-way, gives exactly the rows of an unfiltered scan that satisfy the filter (ValueSatisfies,
// SQLite's rules), with and without a plan, batch sizes that straddle the fallback, and SkipRows.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "format/predicate/predicate.h"
#include "format/predicate/scan_plan.h"
#include "format/reader/table_scanner.h"
#include "format/util/row_ranges.h"
#include "tests/format/reader/scan_test_util.h"

namespace pq::testing {
namespace {

constexpr int64_t kRows = 9'000;
constexpr int64_t kGroupRows = 4'000;  // row groups of 4000, 4000, 1000

// Fields (one leaf each): 0 i32 INT32 optional, 1 i64 INT64 required (many distinct: falls back),
// 2 f32 FLOAT optional (NaN among them), 3 f64 DOUBLE required, 4 str STRING optional (many distinct:
// falls back), 5 blob BYTE_ARRAY required (BLOB), 6 flba FIXED_LEN_BYTE_ARRAY(3) optional,
// 7 dec INT64 DECIMAL(9,2) required, 8 ts INT64 TIMESTAMP(ms) optional, 9 i96 INT96 optional.
std::vector<SchemaElement> DictSchema() {
  return {Root(10),
          Leaf("i32", PhysicalType::kInt32, Repetition::kOptional),
          Leaf("i64", PhysicalType::kInt64, Repetition::kRequired),
          Leaf("f32", PhysicalType::kFloat, Repetition::kOptional),
          Leaf("f64", PhysicalType::kDouble, Repetition::kRequired),
          Leaf("str", PhysicalType::kByteArray, Repetition::kOptional, Logical(LogicalType::Kind::kString)),
          Leaf("blob", PhysicalType::kByteArray, Repetition::kRequired),
          Leaf("flba", PhysicalType::kFixedLenByteArray, Repetition::kOptional, std::nullopt, 3),
          Leaf("dec", PhysicalType::kInt64, Repetition::kRequired, DecimalType(9, 2)),
          Leaf("ts", PhysicalType::kInt64, Repetition::kOptional, TimestampType(TimeUnit::kMillis, true)),
          Leaf("i96", PhysicalType::kInt96, Repetition::kOptional)};
}

std::vector<LeafData> DictTable(int64_t rows) {
  std::vector<LeafData> d(10);
  auto optional = [&](LeafData& leaf, bool null) {
    leaf.def.push_back(null ? 0 : 1);
    return !null;
  };
  for (int64_t r = 0; r < rows; ++r) {
    if (optional(d[0], r % 6 == 0)) d[0].i32.push_back(static_cast<int32_t>((r * 7) % 50 - 25));
    // Few distinct values at first, then a new one per row: the dictionary outgrows its limit.
    d[1].i64.push_back(r % kGroupRows < 1500 ? (r * 13) % 40 : r * 1000 + 7);
    if (optional(d[2], r % 9 == 4)) {
      const float choices[] = {1.5f, -2.25f, std::numeric_limits<float>::quiet_NaN(), 0.0f, 3.0f, 1e10f};
      d[2].f32.push_back(choices[(r * 5) % 6]);
    }
    d[3].f64.push_back(static_cast<double>(r % 40) * 0.25 - 3);
    if (optional(d[4], r % 5 == 2)) {
      d[4].bytes.push_back(r % kGroupRows < 2000 ? "s" + std::to_string((r * 31) % 60)
                                                 : "long_string_" + std::to_string(r));
    }
    d[5].bytes.push_back(std::string(static_cast<size_t>(r % 4), static_cast<char>('a' + r % 17)));
    if (optional(d[6], r % 4 == 1)) d[6].bytes.push_back(std::string("k") + static_cast<char>('0' + r % 10) + "z");
    d[7].i64.push_back((r % 30) * 125 - 1000);  // -10.00 .. 26.25
    if (optional(d[8], r % 7 == 3)) d[8].i64.push_back(1'700'000'000'000 + (r % 12) * 3'600'000);
    if (optional(d[9], r % 8 == 5)) {
      Int96 v;
      v.value[0] = static_cast<uint32_t>((r % 5) * 1'000'000);
      v.value[2] = static_cast<uint32_t>(2'460'000 + r % 3);
      d[9].i96.push_back(v);
    }
  }
  return d;
}

std::shared_ptr<const FileReader> WriteDictFile(bool page_index, int page_version, const std::string& name) {
  WriterOptions w;
  w.row_group_rows = kGroupRows;
  w.page_rows = 100;
  w.data_page_version = page_version;
  w.dictionary = true;
  w.dictionary_page_bytes = 2'000;
  w.page_index = page_index;
  return WriteAndOpen(DictSchema(), DictTable(kRows), kRows, 500, w, name);
}

// Data pages of leaf `leaf` in row group `group` with a dictionary encoding, and with another one.
std::pair<int, int> DataPageEncodings(const FileReader& file, int group, int leaf) {
  const ColumnMetaData& m =
      *file.metadata().row_groups[static_cast<size_t>(group)].columns[static_cast<size_t>(leaf)].meta_data;
  std::pair<int, int> counts{0, 0};
  EXPECT_TRUE(m.encoding_stats.has_value());
  if (!m.encoding_stats) return counts;
  for (const PageEncodingStats& s : *m.encoding_stats) {
    if (s.page_type == PageType::kDictionaryPage) continue;
    const bool dict = s.encoding == Encoding::kRleDictionary || s.encoding == Encoding::kPlainDictionary;
    (dict ? counts.first : counts.second) += s.count;
  }
  return counts;
}

// A value of field `field` taken from row `row` of the full scan (NULL stays NULL).
SqlValue ValueAt(const std::vector<ScannedRow>& full, int64_t row, int field) {
  return full[static_cast<size_t>(row)].values[static_cast<size_t>(field)];
}

// Filters with every operator on every field, literals taken from the data (so they hit dictionary
// entries), plus literals of other storage classes (affinity conversions), NULL tests and prefixes.
std::vector<Predicate> AllFilters(const std::vector<ScannedRow>& full) {
  using Op = PredicateOp;
  std::vector<Predicate> filters;
  const Op compare[] = {Op::kEq, Op::kNe, Op::kLt, Op::kLe, Op::kGt, Op::kGe, Op::kIs, Op::kIsNot};
  for (int field = 0; field < 10; ++field) {
    for (int64_t row : {int64_t{7}, int64_t{2'500}, int64_t{4'001}}) {
      const SqlValue v = ValueAt(full, row, field);
      if (v.type == CellType::kNull) continue;
      for (Op op : compare) filters.push_back(Predicate{{Term(field, op, {v})}});
    }
    filters.push_back(Predicate{{Term(field, Op::kIn, {ValueAt(full, 1, field), ValueAt(full, 13, field),
                                                       ValueAt(full, 4'002, field), SqlValue::Null()})}});
    filters.push_back(Predicate{{Term(field, Op::kIsNull)}});
    filters.push_back(Predicate{{Term(field, Op::kIsNotNull)}});
    filters.push_back(Predicate{{Term(field, Op::kEq, {SqlValue::Text("3")})}});
    filters.push_back(Predicate{{Term(field, Op::kGt, {SqlValue::Integer(1)})}});
    filters.push_back(Predicate{{Term(field, Op::kLe, {SqlValue::Real(0.5)})}});
    filters.push_back(Predicate{{Term(field, Op::kLt, {SqlValue::Blob("k5")})}});
    filters.push_back(Predicate{{Term(field, Op::kEq, {SqlValue::Text("no such value")})}});
    filters.push_back(Predicate{{Term(field, Op::kPrefix, {SqlValue::Text("s1")})}});
  }
  // Two terms on one field, and terms on several fields.
  filters.push_back(Predicate{{Term(4, Op::kGe, {SqlValue::Text("s2")}), Term(4, Op::kLt, {SqlValue::Text("s4")})}});
  filters.push_back(Predicate{{Term(0, Op::kGt, {SqlValue::Integer(0)}), Term(4, Op::kIsNotNull),
                               Term(2, Op::kNe, {SqlValue::Real(3)})}});
  filters.push_back(Predicate{{Term(1, Op::kLt, {SqlValue::Integer(20)}), Term(7, Op::kGe, {SqlValue::Real(0)})}});
  return filters;
}

class DictionaryFilterTest : public ::testing::TestWithParam<std::pair<bool, int>> {
 protected:
  void SetUp() override {
    file_ = WriteDictFile(GetParam().first, GetParam().second, "dictionary_filter.parquet");
    ASSERT_NE(file_, nullptr);
    ASSERT_EQ(file_->num_row_groups(), 3);
    fields_ = AllFields(*file_);
    full_ = FullScan(file_, fields_);
    ASSERT_EQ(static_cast<int64_t>(full_.size()), kRows);
  }

  std::vector<ScannedRow> Scan(const Predicate& filter, ScanPlan plan, int64_t batch_rows) {
    ScanRequest request;
    request.fields = fields_;
    request.plan = std::move(plan);
    request.filter = &filter;
    request.batch_rows = batch_rows;
    auto scanner = TableScanner::Make(file_, std::move(request), ValueOptions{});
    EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
    if (!scanner.ok()) return {};
    return ReadRest(scanner->get(), fields_.size());
  }

  std::shared_ptr<const FileReader> file_;
  std::vector<int> fields_;
  std::vector<ScannedRow> full_;
};

TEST_P(DictionaryFilterTest, FileHasDictionaryPagesAndFallbacks) {
  for (int g = 0; g < 2; ++g) {
    for (int leaf : {1, 4}) {  // fall back part-way
      auto [dict, other] = DataPageEncodings(*file_, g, leaf);
      EXPECT_GT(dict, 0) << "group " << g << " leaf " << leaf;
      EXPECT_GT(other, 0) << "group " << g << " leaf " << leaf;
    }
    for (int leaf : {0, 2, 3, 5, 6, 7, 8, 9}) {  // dictionary all along
      auto [dict, other] = DataPageEncodings(*file_, g, leaf);
      EXPECT_GT(dict, 0) << "group " << g << " leaf " << leaf;
      EXPECT_EQ(other, 0) << "group " << g << " leaf " << leaf;
    }
  }
}

TEST_P(DictionaryFilterTest, EveryTermOnEveryTypeGivesTheRowsThatSatisfyIt) {
  const std::vector<Predicate> filters = AllFilters(full_);
  ASSERT_GT(filters.size(), 200u);
  auto plan = TableScanner::PlanAllRows(*file_, AllRowGroups(*file_));
  ASSERT_TRUE(plan.ok());
  size_t nonempty = 0;
  // Every filter on the first layout, a third of them on the others (the test is slow under ASan).
  const bool first_layout = GetParam() == std::pair<bool, int>{true, 1};
  for (size_t i = 0; i < filters.size(); ++i) {
    if (!first_layout && i % 3 != 1) continue;
    const std::vector<ScannedRow> want = Filtered(*file_, full_, fields_, filters[i]);
    nonempty += !want.empty() && want.size() < full_.size();
    for (int64_t batch : {int64_t{2048}, int64_t{333}}) {
      if (batch == 333 && i % 3 != 0) continue;  // batches that straddle pages, for a third of them
      ExpectSameRows(want, Scan(filters[i], *plan, batch),
                     "filter " + std::to_string(i) + " batch " + std::to_string(batch));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_GT(nonempty, (first_layout ? filters.size() : filters.size() / 3) / 2);  // the filters do select
}

TEST_P(DictionaryFilterTest, NarrowPlansAndSkipRows) {
  // A plan reading fewer rows than a dictionary holds compares values instead of building a mask;
  // SkipRows drops rows the filter kept without gathering them.
  std::mt19937_64 rng(31);
  const std::vector<Predicate> filters = AllFilters(full_);
  for (int round = 0; round < 40; ++round) {
    const Predicate& filter = filters[rng() % filters.size()];
    ScanPlan plan;
    std::vector<ScannedRow> in_plan;
    for (int g = 0; g < 3; ++g) {
      const int64_t group_rows = std::min(kGroupRows, kRows - g * kGroupRows);
      const int64_t begin = static_cast<int64_t>(rng() % static_cast<uint64_t>(group_rows));
      const int64_t end = std::min(group_rows, begin + 1 + static_cast<int64_t>(rng() % (round % 2 ? 20 : 3000)));
      RowRanges rows;
      rows.Add(begin, end);
      plan.row_groups.push_back({g, rows});
      for (int64_t r = begin; r < end; ++r) in_plan.push_back(full_[static_cast<size_t>(g * kGroupRows + r)]);
    }
    const std::vector<ScannedRow> want = Filtered(*file_, in_plan, fields_, filter);
    const std::string what = "round " + std::to_string(round);
    ExpectSameRows(want, Scan(filter, plan, 500), what);

    ScanRequest request;
    request.fields = fields_;
    request.plan = plan;
    request.filter = &filter;
    request.batch_rows = 256;
    auto scanner = TableScanner::Make(file_, std::move(request), ValueOptions{});
    ASSERT_TRUE(scanner.ok());
    const int64_t skip = static_cast<int64_t>(want.size() / 3);
    auto skipped = (*scanner)->SkipRows(skip);
    ASSERT_TRUE(skipped.ok());
    ASSERT_EQ(*skipped, skip);
    const std::vector<ScannedRow> rest(want.begin() + skip, want.end());
    ExpectSameRows(rest, ReadRest(scanner->get(), fields_.size()), what + " after SkipRows");
  }
}

TEST_P(DictionaryFilterTest, NumbersOfADictionaryFilterFieldHoldTheSurvivors) {
  // A filter field's batch is handed out through Numbers as well as GetCell: the survivors' values
  // must be there after the dictionary-coded filtering.
  Predicate filter{{Term(0, PredicateOp::kIn, {SqlValue::Integer(-4), SqlValue::Integer(10)}),
                    Term(3, PredicateOp::kGt, {SqlValue::Real(4.5)})}};
  ScanRequest request;
  request.fields = fields_;
  request.plan = *TableScanner::PlanAllRows(*file_, AllRowGroups(*file_));
  request.filter = &filter;
  auto scanner = TableScanner::Make(file_, std::move(request), ValueOptions{});
  ASSERT_TRUE(scanner.ok());
  const std::vector<ScannedRow> want = Filtered(*file_, full_, fields_, filter);
  ASSERT_FALSE(want.empty());
  size_t seen = 0;
  while (true) {
    auto n = (*scanner)->NextBatch();
    ASSERT_TRUE(n.ok());
    if (*n == 0) break;
    const TableScanner::NumberColumn i32 = (*scanner)->Numbers(0);
    const TableScanner::NumberColumn f64 = (*scanner)->Numbers(3);
    ASSERT_EQ(i32.kind, TableScanner::NumberColumn::Kind::kInt32);
    ASSERT_EQ(f64.kind, TableScanner::NumberColumn::Kind::kDouble);
    for (int64_t r = 0; r < *n; ++r, ++seen) {
      ASSERT_LT(seen, want.size());
      int64_t d = i32.row_map ? i32.row_map[r] : r;
      int64_t k = i32.value_index ? i32.value_index[d] : d;
      ASSERT_GE(k, 0);
      EXPECT_EQ(static_cast<const int32_t*>(i32.values)[k], want[seen].values[0].i);
      d = f64.row_map ? f64.row_map[r] : r;
      EXPECT_EQ(static_cast<const double*>(f64.values)[d], want[seen].values[3].d);
    }
  }
  EXPECT_EQ(seen, want.size());
}

// A chunk the writer switched to a dictionary part-way (column_writer.h, the watch): PLAIN pages
// first, then RLE_DICTIONARY pages. Field 0 'name' cycles through 20,000 names (the encoding trial
// sees only distinct ones), field 1 'payload' is 200 bytes a row.
std::shared_ptr<const FileReader> WriteSwitchedFile() {
  constexpr int64_t kSwitchRows = 120'000;
  std::vector<SchemaElement> schema = {
      Root(2), Leaf("name", PhysicalType::kByteArray, Repetition::kOptional, Logical(LogicalType::Kind::kString)),
      Leaf("payload", PhysicalType::kByteArray, Repetition::kRequired, Logical(LogicalType::Kind::kString))};
  std::vector<LeafData> d(2);
  std::mt19937_64 rng(17);
  for (int64_t r = 0; r < kSwitchRows; ++r) {
    const bool null = r % 10 == 3;
    d[0].def.push_back(null ? 0 : 1);
    if (!null) d[0].bytes.push_back("name_" + std::to_string(r * 16807 % 20'000));
    std::string payload(200, ' ');
    for (char& c : payload) c = static_cast<char>('a' + rng() % 26);  // little for snappy to take
    d[1].bytes.push_back(std::move(payload));
  }
  WriterOptions w;
  w.codec = CompressionCodec::kSnappy;
  w.encoding_trial = true;
  w.row_group_rows = kSwitchRows;
  w.page_rows = 5'000;
  return WriteAndOpen(schema, d, kSwitchRows, 7'000, w, "switched.parquet");
}

TEST(SwitchedDictionaryTest, PlainPagesThenDictionaryPagesFilterAsTheRowsSay) {
  auto file = WriteSwitchedFile();
  ASSERT_NE(file, nullptr);
  auto [dict, other] = DataPageEncodings(*file, 0, 0);
  EXPECT_GT(dict, 0);
  EXPECT_GT(other, 0);
  const std::vector<int> fields = {0, 1};
  const std::vector<ScannedRow> full = FullScan(file, fields);
  ASSERT_EQ(full.size(), 120'000u);
  using Op = PredicateOp;
  // A name of the PLAIN pages (row 7) that recurs in the dictionary pages, one that does not exist,
  // a list, a range, NULLs.
  const SqlValue early = ValueAt(full, 7, 0);
  const std::vector<Predicate> filters = {
      Predicate{{Term(0, Op::kEq, {early})}},
      Predicate{{Term(0, Op::kEq, {SqlValue::Text("name_none")})}},
      Predicate{{Term(0, Op::kIn, {early, ValueAt(full, 90'001, 0), SqlValue::Null()})}},
      Predicate{{Term(0, Op::kGe, {SqlValue::Text("name_19990")})}},
      Predicate{{Term(0, Op::kIsNull)}},
      Predicate{{Term(0, Op::kNe, {early})}}};
  for (size_t i = 0; i < filters.size(); ++i) {
    const std::vector<ScannedRow> want = Filtered(*file, full, fields, filters[i]);
    if (i == 0) {
      EXPECT_EQ(want.size(), 6u);  // every 20,000 rows, none of them NULL
    }
    for (int64_t batch : {int64_t{2048}, int64_t{777}}) {
      ExpectSameRows(want, ScanWithFilter(file, fields, filters[i], batch),
                     "filter " + std::to_string(i) + " batch " + std::to_string(batch));
    }
  }
}

TEST(SwitchedDictionaryTest, TheFewRowsAFilterKeepsReadAFewPagesOfTheOtherColumn) {
  // The payload of the six rows an equality keeps: a few of its 24 pages of 5,000 rows (about 1 MB
  // each) are read, not the whole chunk.
  auto file = WriteSwitchedFile();
  ASSERT_NE(file, nullptr);
  const ScanCounters none = [&] {
    ScanRequest request;
    request.fields = {0};
    request.plan = *TableScanner::PlanAllRows(*file, AllRowGroups(*file));
    Predicate filter{{Term(0, PredicateOp::kEq, {SqlValue::Text("name_7")})}};
    request.filter = &filter;
    auto scanner = TableScanner::Make(file, std::move(request), ValueOptions{});
    EXPECT_TRUE(scanner.ok());
    ReadRest(scanner->get(), 1);
    return (*scanner)->stats();
  }();
  Predicate filter{{Term(0, PredicateOp::kEq, {SqlValue::Text("name_7")})}};
  ScanRequest request;
  request.fields = {0, 1};
  request.plan = *TableScanner::PlanAllRows(*file, AllRowGroups(*file));
  request.filter = &filter;
  auto scanner = TableScanner::Make(file, std::move(request), ValueOptions{});
  ASSERT_TRUE(scanner.ok());
  EXPECT_EQ(ReadRest(scanner->get(), 2).size(), 6u);
  const ScanCounters s = (*scanner)->stats();
  const ColumnMetaData& payload = *file->metadata().row_groups[0].columns[1].meta_data;
  const int64_t payload_read = s.bytes_read - none.bytes_read;
  EXPECT_GT(payload_read, 0);
  EXPECT_LT(payload_read * 3, payload.total_compressed_size)
      << payload_read << " of " << payload.total_compressed_size;
}

INSTANTIATE_TEST_SUITE_P(Layouts, DictionaryFilterTest,
                         ::testing::Values(std::pair<bool, int>{true, 1}, std::pair<bool, int>{false, 1},
                                           std::pair<bool, int>{true, 2}),
                         [](const auto& param_info) {
                           return std::string(param_info.param.first ? "Index" : "NoIndex") + "V" +
                                  std::to_string(param_info.param.second);
                         });

}  // namespace
}  // namespace pq::testing
