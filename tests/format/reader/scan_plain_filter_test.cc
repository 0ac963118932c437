// Filtering plain (not dictionary-coded) numbers in TableScanner: the branch-free loops over INT32,
// INT64, FLOAT and DOUBLE values (with and without NULLs in a batch, NaN among the floats, the first
// term of a batch and later ones, IN lists) keep exactly the rows of an unfiltered scan that
// satisfy the filter by SQLite's rules (ValueSatisfies), for every comparison operator, literals of
// every storage class, and batch sizes that are and are not multiples of the 64-value blocks.
// Columns are DELTA_BINARY_PACKED (integers) and PLAIN (floats), so no dictionary is involved.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "format/predicate/predicate.h"
#include "format/reader/table_scanner.h"
#include "tests/format/reader/scan_test_util.h"

namespace pq::testing {
namespace {

constexpr int64_t kRows = 7'000;

// Fields (one leaf each): 0 i32 INT32 optional (NULLs everywhere), 1 i64 INT64 required, 2 o64 INT64
// optional without a NULL in its first 3000 rows (pages and batches with no NULL, then some),
// 3 f32 FLOAT optional (NaN and NULLs), 4 f64 DOUBLE required (NaN among them), 5 w64 INT64
// required, values spread over the whole range (so that DELTA sums wrap).
std::vector<SchemaElement> PlainSchema() {
  return {Root(6),
          Leaf("i32", PhysicalType::kInt32, Repetition::kOptional),
          Leaf("i64", PhysicalType::kInt64, Repetition::kRequired),
          Leaf("o64", PhysicalType::kInt64, Repetition::kOptional),
          Leaf("f32", PhysicalType::kFloat, Repetition::kOptional),
          Leaf("f64", PhysicalType::kDouble, Repetition::kRequired),
          Leaf("w64", PhysicalType::kInt64, Repetition::kRequired)};
}

std::vector<LeafData> PlainTable(int64_t rows) {
  std::mt19937_64 rng(2024);
  std::vector<LeafData> d(6);
  auto present = [&](LeafData& leaf, bool null) {
    leaf.def.push_back(null ? 0 : 1);
    return !null;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int64_t r = 0; r < rows; ++r) {
    if (present(d[0], rng() % 5 == 0)) d[0].i32.push_back(static_cast<int32_t>(rng() % 61) - 30);
    d[1].i64.push_back(static_cast<int64_t>(rng() % 1000) * 1'000'000'007 - 500'000'000'000);
    if (present(d[2], r >= 3'000 && rng() % 3 == 0)) d[2].i64.push_back(static_cast<int64_t>(rng() % 200));
    if (present(d[3], rng() % 7 == 0)) {
      d[3].f32.push_back(rng() % 11 == 0 ? std::numeric_limits<float>::quiet_NaN()
                                         : static_cast<float>(rng() % 40) * 0.5f - 10.0f);
    }
    d[4].f64.push_back(rng() % 13 == 0 ? nan : static_cast<double>(rng() % 100) * 0.25);
    d[5].i64.push_back(r % 97 == 0 ? std::numeric_limits<int64_t>::min() + static_cast<int64_t>(r)
                                   : static_cast<int64_t>(rng()));
  }
  return d;
}

std::shared_ptr<const FileReader> WritePlainFile(int page_version, const std::string& name) {
  WriterOptions w;
  w.row_group_rows = 5'000;
  w.page_rows = 1'000;
  w.data_page_version = page_version;
  w.dictionary = false;
  for (const char* column : {"i32", "i64", "o64", "w64"}) w.column_encodings[column] = Encoding::kDeltaBinaryPacked;
  for (const char* column : {"f32", "f64"}) w.column_encodings[column] = Encoding::kPlain;
  return WriteAndOpen(PlainSchema(), PlainTable(kRows), kRows, 700, w, name);
}

class ScanPlainFilterTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    file_ = WritePlainFile(GetParam(), "scan_plain_filter.parquet");
    ASSERT_NE(file_, nullptr);
    fields_ = AllFields(*file_);
    full_ = FullScan(file_, fields_);
    ASSERT_EQ(static_cast<int64_t>(full_.size()), kRows);
  }

  std::vector<ScannedRow> Scan(const Predicate& filter, int64_t batch_rows) {
    return ScanWithFilter(file_, fields_, filter, batch_rows);
  }

  SqlValue ValueAt(int64_t row, int field) const {
    return full_[static_cast<size_t>(row)].values[static_cast<size_t>(field)];
  }

  std::shared_ptr<const FileReader> file_;
  std::vector<int> fields_;
  std::vector<ScannedRow> full_;
};

TEST_P(ScanPlainFilterTest, IntegerColumnsAreDeltaEncodedAndFloatsPlain) {
  for (int g = 0; g < file_->num_row_groups(); ++g) {
    for (int leaf = 0; leaf < 6; ++leaf) {
      const ColumnMetaData& m =
          *file_->metadata().row_groups[static_cast<size_t>(g)].columns[static_cast<size_t>(leaf)].meta_data;
      const Encoding want = leaf == 3 || leaf == 4 ? Encoding::kPlain : Encoding::kDeltaBinaryPacked;
      EXPECT_NE(std::find(m.encodings.begin(), m.encodings.end(), want), m.encodings.end()) << leaf;
      EXPECT_EQ(std::find(m.encodings.begin(), m.encodings.end(), Encoding::kRleDictionary), m.encodings.end());
    }
  }
}

// A filter that no row passes and nothing prunes (3.3 lies within every page's range of f64, whose
// values are quarters) takes NextBatch and SkipRows through the whole file in one call: they ask the
// request's `interrupted` after each batch, and stop with Interrupted when it says so.
TEST_P(ScanPlainFilterTest, BatchesNoRowPassesAskTheInterrupt) {
  const Predicate filter{{Term(4, PredicateOp::kEq, {SqlValue::Real(3.3)})}};
  ASSERT_TRUE(Filtered(*file_, full_, fields_, filter).empty());
  int asked = 0;
  int stop_at = 0;  // 0: never
  auto scan = [&]() {
    ScanRequest request;
    request.fields = fields_;
    auto plan = TableScanner::PlanAllRows(*file_, AllRowGroups(*file_));
    EXPECT_TRUE(plan.ok());
    request.plan = *plan;
    request.filter = &filter;
    request.batch_rows = 100;
    request.interrupted = [&] { return ++asked == stop_at; };
    auto scanner = TableScanner::Make(file_, std::move(request), ValueOptions{});
    EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
    return std::move(*scanner);
  };
  // Never interrupted: no row, and a question per batch (5,000 + 2,000 rows: 70 batches of 100).
  std::unique_ptr<TableScanner> s = scan();
  Result<int64_t> n = s->NextBatch();
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(*n, 0);
  EXPECT_EQ(asked, 70);
  // Interrupted at the third question: NextBatch stops there.
  asked = 0;
  stop_at = 3;
  s = scan();
  n = s->NextBatch();
  EXPECT_EQ(n.status().code(), StatusCode::kInterrupted) << n.status().ToString();
  EXPECT_NE(n.status().message().find("interrupted"), std::string::npos);
  EXPECT_EQ(asked, 3);
  // SkipRows the same.
  asked = 0;
  s = scan();
  n = s->SkipRows(10);
  EXPECT_EQ(n.status().code(), StatusCode::kInterrupted) << n.status().ToString();
  EXPECT_EQ(asked, 3);
}

TEST_P(ScanPlainFilterTest, EveryOperatorOnEveryNumberTypeMatchesTheReference) {
  using Op = PredicateOp;
  std::vector<Predicate> filters;
  for (int field = 0; field < 6; ++field) {
    for (int64_t row : {int64_t{3}, int64_t{1'234}, int64_t{4'999}, int64_t{6'500}}) {
      const SqlValue v = ValueAt(row, field);
      if (v.type == CellType::kNull) continue;
      for (Op op : {Op::kEq, Op::kNe, Op::kLt, Op::kLe, Op::kGt, Op::kGe}) {
        filters.push_back(Predicate{{Term(field, op, {v})}});
      }
    }
    filters.push_back(Predicate{{Term(field, Op::kIn, {ValueAt(10, field), ValueAt(20, field),
                                                       ValueAt(5'000, field), SqlValue::Integer(3)})}});
    // Literals of the other numeric class and of text: affinity conversions, or no fast path.
    filters.push_back(Predicate{{Term(field, Op::kEq, {SqlValue::Real(5.0)})}});
    filters.push_back(Predicate{{Term(field, Op::kLt, {SqlValue::Real(2.5)})}});
    filters.push_back(Predicate{{Term(field, Op::kGe, {SqlValue::Integer(-3)})}});
    filters.push_back(Predicate{{Term(field, Op::kNe, {SqlValue::Integer(0)})}});
    filters.push_back(Predicate{{Term(field, Op::kGt, {SqlValue::Text("7")})}});
    filters.push_back(Predicate{{Term(field, Op::kEq, {SqlValue::Integer(123'456'789'012)})}});  // no row
  }
  // Several terms: the later ones filter rows that are no longer dense.
  filters.push_back(Predicate{{Term(0, Op::kGt, {SqlValue::Integer(0)}), Term(3, Op::kLe, {SqlValue::Real(1.0)})}});
  filters.push_back(Predicate{{Term(2, Op::kLt, {SqlValue::Integer(100)}), Term(1, Op::kGe, {SqlValue::Integer(0)}),
                               Term(4, Op::kNe, {SqlValue::Real(3.0)})}});
  filters.push_back(Predicate{{Term(1, Op::kNe, {SqlValue::Integer(1)}), Term(0, Op::kEq, {SqlValue::Integer(7)})}});
  filters.push_back(Predicate{{Term(5, Op::kLt, {SqlValue::Integer(0)}), Term(2, Op::kIn, {SqlValue::Integer(5), SqlValue::Integer(150)})}});

  size_t selective = 0;
  for (size_t i = 0; i < filters.size(); ++i) {
    const std::vector<ScannedRow> want = Filtered(*file_, full_, fields_, filters[i]);
    selective += !want.empty() && want.size() < full_.size();
    for (int64_t batch : {int64_t{2048}, int64_t{64}, int64_t{333}, int64_t{1}}) {
      if (batch == 64 && i % 2 != 0) continue;   // half of the filters
      if (batch == 1 && i % 25 != 0) continue;   // slow: one filter in 25
      ExpectSameRows(want, Scan(filters[i], batch),
                     "filter " + std::to_string(i) + " batch " + std::to_string(batch));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_GT(selective, filters.size() / 2);  // the filters do select
}

INSTANTIATE_TEST_SUITE_P(PageVersions, ScanPlainFilterTest, ::testing::Values(1, 2));

}  // namespace
}  // namespace pq::testing
