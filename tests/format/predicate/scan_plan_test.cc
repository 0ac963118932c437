// PlanScan over files written with the project's writer (known values, statistics, dictionaries,
// Bloom filters, page indexes) and over conformance files. Every plan is checked for soundness
// against the rows that really satisfy the predicate (ValueSatisfies on every row's table value),
// and each layer for pruning exactly what it should.
#include "format/predicate/scan_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "format/metadata/metadata_io.h"
#include "format/value/temporal.h"
#include "tests/format/writer/writer_test_util.h"

namespace pq {
namespace {

using namespace pq::testing;  // NOLINT
using LKind = LogicalType::Kind;

const std::string kData = std::string(PQ_TESTDATA_DIR) + "/parquet-testing/data/";

// ---- the test table -----------------------------------------------------------------------------

constexpr int64_t kRows = 3000;
constexpr int64_t kRowGroupRows = 1000;
constexpr int64_t kPageRows = 100;

// Fields, in schema order.
enum Field { kId, kGrp, kName, kCat, kScore, kTs, kTags, kNumFields };

const char* const kFruits[] = {"apple", "banana", "cherry", "date"};

std::string NameOf(int64_t id) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "name-%05lld", static_cast<long long>((id * 7919) % kRows));
  return buf;
}

// What the table shows for each row and field (the values SQLite would see).
struct Table {
  std::vector<SchemaElement> schema;
  std::vector<LeafData> leaves;
  std::vector<std::vector<SqlValue>> cells;  // [field][row]
  std::vector<Affinity> affinity;
};

Table MakeTable() {
  Table t;
  LogicalType list = Logical(LKind::kList);
  t.schema = {
      Root(kNumFields),
      Leaf("id", PhysicalType::kInt64, Repetition::kRequired),
      Leaf("grp", PhysicalType::kInt32, Repetition::kOptional),
      Leaf("name", PhysicalType::kByteArray, Repetition::kRequired, Logical(LKind::kString)),
      Leaf("cat", PhysicalType::kByteArray, Repetition::kOptional, Logical(LKind::kString)),
      Leaf("score", PhysicalType::kDouble, Repetition::kOptional),
      Leaf("ts", PhysicalType::kInt64, Repetition::kRequired,
           TimestampType(TimeUnit::kMicros, true)),
      Group("tags", Repetition::kOptional, 1, list),
      Group("list", Repetition::kRepeated, 1),
      Leaf("element", PhysicalType::kInt32, Repetition::kRequired)};
  t.affinity = {Affinity::kInteger, Affinity::kInteger, Affinity::kText, Affinity::kText,
                Affinity::kReal,    Affinity::kText,    Affinity::kText};
  t.leaves.resize(7);
  t.cells.resize(kNumFields);
  LeafData &id = t.leaves[0], &grp = t.leaves[1], &name = t.leaves[2], &cat = t.leaves[3],
           &score = t.leaves[4], &ts = t.leaves[5], &tags = t.leaves[6];
  for (int64_t r = 0; r < kRows; ++r) {
    id.i64.push_back(r);
    t.cells[kId].push_back(SqlValue::Integer(r));

    if (r % 13 == 0) {
      grp.def.push_back(0);
      t.cells[kGrp].push_back(SqlValue::Null());
    } else {
      grp.def.push_back(1);
      grp.i32.push_back(static_cast<int32_t>(r / 250));
      t.cells[kGrp].push_back(SqlValue::Integer(r / 250));
    }

    name.bytes.push_back(NameOf(r));
    t.cells[kName].push_back(SqlValue::Text(NameOf(r)));

    // Row group 0 holds apple and cherry, row group 1 banana and date, row group 2 all four.
    const int64_t rg = r / kRowGroupRows;
    const char* fruit = rg == 0   ? kFruits[(r % 2) * 2]
                        : rg == 1 ? kFruits[1 + (r % 2) * 2]
                                  : kFruits[r % 4];
    if (r % 9 == 4) {
      cat.def.push_back(0);
      t.cells[kCat].push_back(SqlValue::Null());
    } else {
      cat.def.push_back(1);
      cat.bytes.push_back(fruit);
      t.cells[kCat].push_back(SqlValue::Text(fruit));
    }

    if (r % 17 == 0) {
      score.def.push_back(0);
      t.cells[kScore].push_back(SqlValue::Null());
    } else {
      score.def.push_back(1);
      const double v = r % 11 == 5 ? std::nan("") : static_cast<double>(r) * 0.5 - 100;
      score.f64.push_back(v);
      t.cells[kScore].push_back(SqlValue::Real(v));  // NaN is NULL
    }

    ts.i64.push_back(r * 1000000);
    t.cells[kTs].push_back(SqlValue::Text(FormatTimestamp(r * 1000000, TimeUnit::kMicros)));

    tags.rep.push_back(0);
    tags.def.push_back(2);
    tags.i32.push_back(static_cast<int32_t>(r));
    t.cells[kTags].push_back(SqlValue::Text("[" + std::to_string(r) + "]"));
  }
  return t;
}

const Table& TheTable() {
  static const Table t = MakeTable();
  return t;
}

struct FileVariant {
  bool page_index = true;
  bool bloom = true;  // on name
  bool dictionary = true;
  // Variant "v2": data page v2, Bloom filters on more columns, and name dictionary-encoded with
  // a dictionary so small that every chunk falls back to PLAIN after a few pages.
  bool v2 = false;
  // Bloom filters on these columns instead (with every column dictionary-encoded), when not empty.
  std::vector<std::string> bloom_columns;
};

std::string WriteTestFile(const FileVariant& v, const std::string& name) {
  const Table& t = TheTable();
  WriterOptions o;
  o.codec = CompressionCodec::kSnappy;
  o.row_group_rows = kRowGroupRows;
  o.page_rows = kPageRows;
  o.page_index = v.page_index;
  o.dictionary = v.dictionary;
  o.column_encodings["name"] = Encoding::kPlain;  // no dictionary: the Bloom filter decides
  if (v.bloom) o.bloom_filter_columns = {"name"};
  if (v.v2) {
    o.data_page_version = 2;
    o.column_encodings.clear();
    o.dictionary_page_bytes = 200;
    o.bloom_filter_columns = {"id", "grp", "cat", "ts"};
  }
  if (!v.bloom_columns.empty()) {
    o.column_encodings.clear();
    o.bloom_filter_columns = v.bloom_columns;
  }
  // TempPath (writer_test_util.h) names files after the running test; these are shared by a
  // suite, so they get a name of their own.
  std::string dir = ::testing::TempDir();
  if (!dir.empty() && dir.back() != '/') dir += '/';
  const std::string path = dir + "pq_predicate_" + std::to_string(::getpid()) + "_" + name;
  ::unlink(path.c_str());
  auto w = FileWriter::Open(path, t.schema, o);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  if (!w.ok()) return path;
  Status s = WriteTable(w->get(), t.leaves, kRows, 250);
  EXPECT_TRUE(s.ok()) << s.ToString();
  s = (*w)->Close();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return path;
}

PredicateTerm Term(int field, PredicateOp op, std::vector<SqlValue> values = {}) {
  PredicateTerm t;
  t.field = field;
  t.op = op;
  t.values = std::move(values);
  return t;
}

// The plan as (row group, [begin, end)...) for comparisons.
using Spans = std::vector<std::tuple<int, int64_t, int64_t>>;
Spans SpansOf(const ScanPlan& plan) {
  Spans out;
  for (const RowGroupPlan& g : plan.row_groups) {
    for (const RowRange& r : g.rows.ranges()) out.emplace_back(g.row_group, r.begin, r.end);
  }
  return out;
}

class ScanPlanTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    full_path_ = new std::string(WriteTestFile({}, "full.parquet"));
    stats_only_path_ = new std::string(WriteTestFile({false, false, false}, "stats_only.parquet"));
    v2_path_ = new std::string(WriteTestFile({true, false, true, true}, "v2.parquet"));
  }
  static void TearDownTestSuite() {
    for (std::string** p : {&full_path_, &stats_only_path_, &v2_path_}) {
      std::remove((*p)->c_str());
      delete *p;
      *p = nullptr;
    }
  }

  static std::shared_ptr<const FileReader> Open(const std::string& path) {
    return OpenForTest(path);
  }

  // Plans, and checks that every row satisfying all terms is in the plan.
  static ScanPlan PlanChecked(const FileReader& file, const Predicate& p, ScanCounters* stats,
                              const std::vector<int>& row_groups = {}, ValueOptions options = {}) {
    const Table& t = TheTable();
    auto plan = PlanScan(file, p, t.affinity, options, row_groups, stats);
    EXPECT_TRUE(plan.ok()) << plan.status().ToString();
    if (!plan.ok()) return {};
    std::vector<RowRanges> kept(static_cast<size_t>(file.num_row_groups()));
    for (const RowGroupPlan& g : plan->row_groups) {
      EXPECT_FALSE(g.rows.empty());
      kept[static_cast<size_t>(g.row_group)] = g.rows;
    }
    for (int64_t r = 0; r < kRows; ++r) {
      const int rg = static_cast<int>(r / kRowGroupRows);
      if (!row_groups.empty() &&
          std::find(row_groups.begin(), row_groups.end(), rg) == row_groups.end()) {
        continue;
      }
      bool all = true;
      for (const PredicateTerm& term : p.terms) {
        all = all && ValueSatisfies(t.cells[static_cast<size_t>(term.field)][r].AsCell(), term,
                                    t.affinity[static_cast<size_t>(term.field)]);
      }
      if (!all) continue;
      RowRanges row;
      row.Add(r % kRowGroupRows, r % kRowGroupRows + 1);
      EXPECT_FALSE(kept[static_cast<size_t>(rg)].Intersect(row).empty())
          << "row " << r << " satisfies the predicate but the plan drops it";
    }
    return *plan;
  }

  static std::string* full_path_;
  static std::string* stats_only_path_;
  static std::string* v2_path_;
};
std::string* ScanPlanTest::full_path_ = nullptr;
std::string* ScanPlanTest::stats_only_path_ = nullptr;
std::string* ScanPlanTest::v2_path_ = nullptr;

TEST_F(ScanPlanTest, EmptyPredicateReadsEverything) {
  auto file = Open(*full_path_);
  ASSERT_TRUE(file);
  ScanCounters stats;
  const ScanPlan plan = PlanChecked(*file, {}, &stats);
  EXPECT_EQ(SpansOf(plan), (Spans{{0, 0, 1000}, {1, 0, 1000}, {2, 0, 1000}}));
  EXPECT_EQ(stats.files_considered, 1);
  EXPECT_EQ(stats.files_skipped, 0);
  EXPECT_EQ(stats.row_groups_considered, 3);
  EXPECT_EQ(stats.rows_considered, 3000);
  EXPECT_EQ(stats.rows_skipped, 0);
  EXPECT_EQ(stats.bytes_read, 0);
}

TEST_F(ScanPlanTest, WithoutPageIndexRowGroupStatisticsThenPageHeaders) {
  // This file has no page index, dictionary or Bloom filter; its data page headers carry
  // statistics (the writer puts them there when there is no page index).
  auto file = Open(*stats_only_path_);
  ASSERT_TRUE(file);
  ASSERT_FALSE(file->metadata().row_groups[0].columns[0].column_index_offset.has_value());
  ScanCounters stats;
  ScanPlan plan =
      PlanChecked(*file, {{Term(kId, PredicateOp::kEq, {SqlValue::Integer(1500)})}}, &stats);
  EXPECT_EQ(SpansOf(plan), (Spans{{1, 500, 600}}));
  EXPECT_EQ(stats.row_groups_skipped_by_statistics, 2);
  EXPECT_EQ(stats.pages_considered, 10);
  EXPECT_EQ(stats.pages_skipped_by_page_index, 9);
  EXPECT_EQ(stats.rows_skipped, 2900);
  EXPECT_GT(stats.bytes_read, 0);  // the headers of row group 1
  EXPECT_LT(stats.bytes_read, 10 * 1024);
  // The literal as text, compared the way SQLite compares it with an INTEGER column.
  plan = PlanChecked(*file, {{Term(kId, PredicateOp::kEq, {SqlValue::Text(" 1500 ")})}}, &stats);
  EXPECT_EQ(SpansOf(plan), (Spans{{1, 500, 600}}));
  // Text that stays text is above every number: id < 'abc' is true everywhere, id > 'abc' nowhere.
  plan = PlanChecked(*file, {{Term(kId, PredicateOp::kLt, {SqlValue::Text("abc")})}}, &stats);
  EXPECT_EQ(SpansOf(plan), (Spans{{0, 0, 1000}, {1, 0, 1000}, {2, 0, 1000}}));
  ScanCounters none;
  plan = PlanChecked(*file, {{Term(kId, PredicateOp::kGt, {SqlValue::Text("abc")})}}, &none);
  EXPECT_TRUE(plan.row_groups.empty());
  EXPECT_EQ(none.row_groups_skipped_by_statistics, 3);
  EXPECT_EQ(none.files_skipped, 1);
  // Timestamps as text bounds.
  plan = PlanChecked(
      *file, {{Term(kTs, PredicateOp::kGe, {SqlValue::Text("1970-01-01 00:40:00")})}}, &stats);
  EXPECT_EQ(SpansOf(plan), (Spans{{2, 400, 1000}}));
  // NULL tests: id has no NULLs; grp and score have some in every page.
  plan = PlanChecked(*file, {{Term(kId, PredicateOp::kIsNull)}}, &stats);
  EXPECT_TRUE(plan.row_groups.empty());
  plan = PlanChecked(*file, {{Term(kScore, PredicateOp::kIsNull)}}, &stats);
  EXPECT_EQ(plan.row_groups.size(), 3u);
  // Two terms: both must hold.
  plan = PlanChecked(*file,
                     {{Term(kId, PredicateOp::kGe, {SqlValue::Integer(500)}),
                       Term(kGrp, PredicateOp::kLt, {SqlValue::Integer(4)})}},
                     &stats);
  EXPECT_EQ(SpansOf(plan), (Spans{{0, 500, 1000}}));
}

TEST_F(ScanPlanTest, TermsThatCannotBeUsedNeverPrune) {
  auto file = Open(*full_path_);
  ASSERT_TRUE(file);
  ScanCounters stats;
  // A nested field (a LIST shown as JSON text): no pruning even for a value no row has.
  ScanPlan plan = PlanChecked(
      *file, {{Term(kTags, PredicateOp::kEq, {SqlValue::Text("no such list")})}}, &stats);
  EXPECT_EQ(plan.row_groups.size(), 3u);
  EXPECT_EQ(stats.rows_skipped, 0);
  EXPECT_EQ(stats.bytes_read, 0);
}

TEST_F(ScanPlanTest, PageIndexNarrowsToPages) {
  auto file = Open(*full_path_);
  ASSERT_TRUE(file);
  ScanCounters stats;
  ScanPlan plan =
      PlanChecked(*file, {{Term(kId, PredicateOp::kEq, {SqlValue::Integer(1500)})}}, &stats);
  EXPECT_EQ(SpansOf(plan), (Spans{{1, 500, 600}}));
  EXPECT_EQ(stats.row_groups_skipped_by_statistics, 2);
  EXPECT_EQ(stats.pages_considered, 10);
  EXPECT_EQ(stats.pages_skipped_by_page_index, 9);
  EXPECT_EQ(stats.rows_skipped, 2900);
  EXPECT_GT(stats.bytes_read, 0);

  // Terms on several columns intersect: id in [150, 420) and grp = 1 (ids 250..499).
  stats = {};
  plan = PlanChecked(*file,
                     {{Term(kId, PredicateOp::kGe, {SqlValue::Integer(150)}),
                       Term(kId, PredicateOp::kLt, {SqlValue::Integer(420)}),
                       Term(kGrp, PredicateOp::kEq, {SqlValue::Integer(1)})}},
                     &stats);
  EXPECT_EQ(SpansOf(plan), (Spans{{0, 200, 500}}));

  // Text bounds of timestamps per page.
  plan = PlanChecked(
      *file, {{Term(kTs, PredicateOp::kEq, {SqlValue::Text("1970-01-01 00:25:00")})}}, &stats);
  EXPECT_EQ(SpansOf(plan), (Spans{{1, 500, 600}}));
  // BETWEEN across a page boundary, and a prefix.
  plan = PlanChecked(*file,
                     {{Term(kId, PredicateOp::kGe, {SqlValue::Real(2150.5)}),
                       Term(kId, PredicateOp::kLe, {SqlValue::Text("2230")})}},
                     &stats);
  EXPECT_EQ(SpansOf(plan), (Spans{{2, 100, 300}}));
  plan = PlanChecked(
      *file, {{Term(kTs, PredicateOp::kPrefix, {SqlValue::Text("1970-01-01 00:0")})}}, &stats);
  EXPECT_EQ(SpansOf(plan), (Spans{{0, 0, 600}}));

  // Restricting the row groups.
  stats = {};
  plan =
      PlanChecked(*file, {{Term(kId, PredicateOp::kNe, {SqlValue::Integer(-1)})}}, &stats, {2, 0});
  EXPECT_EQ(SpansOf(plan), (Spans{{0, 0, 1000}, {2, 0, 1000}}));
  EXPECT_EQ(stats.row_groups_considered, 2);
}

TEST_F(ScanPlanTest, DictionarySkipsChunksWithoutTheValue) {
  auto file = Open(*full_path_);
  ASSERT_TRUE(file);
  ScanCounters stats;
  // 'banana' lies between row group 0's min ('apple') and max ('cherry') but is not in its
  // dictionary.
  ScanPlan plan =
      PlanChecked(*file, {{Term(kCat, PredicateOp::kEq, {SqlValue::Text("banana")})}}, &stats);
  EXPECT_EQ(plan.row_groups.size(), 2u);
  EXPECT_EQ(plan.row_groups[0].row_group, 1);
  EXPECT_EQ(stats.row_groups_skipped_by_statistics, 0);
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 1);
  EXPECT_GT(stats.bytes_read, 0);
  // IN and IS work the same way; NULL list entries are ignored.
  stats = {};
  plan = PlanChecked(*file,
                     {{Term(kCat, PredicateOp::kIn,
                            {SqlValue::Null(), SqlValue::Text("banana"), SqlValue::Text("blue")})}},
                     &stats);
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 1);
  stats = {};
  plan = PlanChecked(*file, {{Term(kCat, PredicateOp::kIs, {SqlValue::Text("banana")})}}, &stats);
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 1);
  // 'cherry' is inside row group 1's bounds ('banana'..'date') but not in its dictionary.
  stats = {};
  plan = PlanChecked(*file, {{Term(kCat, PredicateOp::kEq, {SqlValue::Text("cherry")})}}, &stats);
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 1);
  EXPECT_EQ(plan.row_groups.size(), 2u);
  EXPECT_EQ(plan.row_groups[1].row_group, 2);
  // != is not a dictionary question.
  stats = {};
  plan = PlanChecked(*file, {{Term(kCat, PredicateOp::kNe, {SqlValue::Text("apple")})}}, &stats);
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 0);
  EXPECT_EQ(plan.row_groups.size(), 3u);
  // Integers: grp's dictionary in row group 0 holds 0..3; 2.5 is inside the bounds but absent.
  stats = {};
  plan = PlanChecked(*file, {{Term(kGrp, PredicateOp::kEq, {SqlValue::Real(2.5)})}}, &stats);
  EXPECT_TRUE(plan.row_groups.empty());
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 1);
}

TEST_F(ScanPlanTest, BloomFilterSkipsChunksWithoutTheValue) {
  auto file = Open(*full_path_);
  ASSERT_TRUE(file);
  ScanCounters stats;
  // Between existing names, so statistics and page bounds keep it; only the filter knows.
  ScanPlan plan = PlanChecked(
      *file, {{Term(kName, PredicateOp::kEq, {SqlValue::Text("name-01234x")})}}, &stats);
  EXPECT_TRUE(plan.row_groups.empty());
  EXPECT_EQ(stats.row_groups_skipped_by_statistics, 0);
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 0);
  EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, 3);
  EXPECT_GT(stats.bytes_read, 0);
  // A name that exists: its row group stays (and its row, checked by PlanChecked).
  int64_t row = -1;
  for (int64_t r = 0; r < kRows; ++r) {
    if (NameOf(r) == "name-01234") row = r;
  }
  ASSERT_GE(row, 0);
  stats = {};
  plan =
      PlanChecked(*file, {{Term(kName, PredicateOp::kEq, {SqlValue::Text("name-01234")})}}, &stats);
  ASSERT_FALSE(plan.row_groups.empty());
  EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, 2);
  EXPECT_EQ(plan.row_groups[0].row_group, row / kRowGroupRows);
  // IN: all absent prunes; one present keeps.
  stats = {};
  plan = PlanChecked(*file,
                     {{Term(kName, PredicateOp::kIn,
                            {SqlValue::Text("name-00001x"), SqlValue::Text("name-02000x")})}},
                     &stats);
  EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, 3);
  stats = {};
  plan = PlanChecked(*file,
                     {{Term(kName, PredicateOp::kIn,
                            {SqlValue::Text("name-00001x"), SqlValue::Text("name-01234")})}},
                     &stats);
  EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, 2);
}

TEST_F(ScanPlanTest, DictionaryIsNotUsedOnceAChunkFellBackToPlain) {
  auto file = Open(*v2_path_);
  ASSERT_TRUE(file);
  const ColumnMetaData& name = *file->metadata().row_groups[0].columns[kName].meta_data;
  ASSERT_TRUE(name.dictionary_page_offset.has_value());
  bool plain_pages = false;
  for (const PageEncodingStats& e : *name.encoding_stats) {
    plain_pages |= e.page_type == PageType::kDataPageV2 && e.encoding == Encoding::kPlain;
  }
  ASSERT_TRUE(plain_pages);
  // Every name: those in the dictionary and those written after the fallback.
  ScanCounters stats;
  for (int64_t r = 0; r < kRows; r += 97) {
    PlanChecked(*file, {{Term(kName, PredicateOp::kEq, {SqlValue::Text(NameOf(r))})}}, &stats);
  }
  PlanChecked(*file, {{Term(kName, PredicateOp::kEq, {SqlValue::Text("name-01234x")})}}, &stats);
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 0);
  // The fully dictionary-encoded cat column still prunes; Bloom filters on id and ts answer
  // for values inside the bounds.
  stats = {};
  PlanChecked(*file, {{Term(kCat, PredicateOp::kEq, {SqlValue::Text("banana")})}}, &stats);
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 1);
  // A timestamp literal in the column's own text form hashes as the stored INT64.
  stats = {};
  ScanPlan plan = PlanChecked(
      *file, {{Term(kTs, PredicateOp::kEq, {SqlValue::Text("1970-01-01 00:00:01.500000")})}},
      &stats);
  EXPECT_TRUE(plan.row_groups.empty());
  EXPECT_EQ(stats.row_groups_skipped_by_statistics, 2);
  EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, 1);
  stats = {};
  plan = PlanChecked(*file,
                     {{Term(kTs, PredicateOp::kIn,
                            {SqlValue::Text("1970-01-01 00:00:01.500000"),
                             SqlValue::Text("1970-01-01 00:00:02")})}},
                     &stats);
  // 00:00:02 is row 2: the first page of row group 0 stays.
  ASSERT_EQ(plan.row_groups.size(), 1u);
  EXPECT_EQ(plan.row_groups[0].row_group, 0);
  EXPECT_EQ(plan.row_groups[0].rows.ranges().size(), 1u);
  EXPECT_EQ(plan.row_groups[0].rows.ranges()[0].begin, 0);
  EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, 0);
}

// Where a chunk has both, the layer with fewer bytes to read goes first: name and id have 1,000
// distinct values per row group (their dictionaries are larger than their Bloom filters), cat has
// four (its dictionary is a few bytes). Dictionaries read once stay in the file's DictionaryCache.
TEST(ScanPlanLayerOrderTest, CheaperOfBloomFilterAndDictionaryFirstAndDictionariesCached) {
  const std::string path = WriteTestFile({true, true, true, false, {"id", "name", "cat"}},
                                         "bloom_and_dictionary.parquet");
  auto file = OpenForTest(path);
  ASSERT_TRUE(file);
  int64_t name_blooms = 0;
  for (const RowGroup& rg : file->metadata().row_groups) {
    const ColumnMetaData& name = *rg.columns[kName].meta_data;
    ASSERT_TRUE(name.dictionary_page_offset && name.bloom_filter_offset && name.bloom_filter_length);
    ASSERT_LT(*name.bloom_filter_length, name.data_page_offset - *name.dictionary_page_offset);
    name_blooms += *name.bloom_filter_length;
  }
  const Table& t = TheTable();
  // A name inside every row group's bounds but in none: only the Bloom filters are read.
  ScanCounters stats;
  auto plan = PlanScan(*file, {{Term(kName, PredicateOp::kEq, {SqlValue::Text("name-01234x")})}},
                       t.affinity, {}, {}, &stats);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_TRUE(plan->row_groups.empty());
  EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, 3);
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 0);
  EXPECT_EQ(stats.bytes_read, name_blooms);  // no dictionary was read
  // cat in row group 0: the dictionary is the cheaper question, and answers.
  const ColumnMetaData& cat = *file->metadata().row_groups[0].columns[kCat].meta_data;
  ASSERT_TRUE(cat.dictionary_page_offset && cat.bloom_filter_length);
  ASSERT_GE(*cat.bloom_filter_length, cat.data_page_offset - *cat.dictionary_page_offset);
  stats = {};
  plan = PlanScan(*file, {{Term(kCat, PredicateOp::kEq, {SqlValue::Text("banana")})}}, t.affinity,
                  {}, {0}, &stats);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 1);
  EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, 0);
  const int64_t first_bytes = stats.bytes_read;
  EXPECT_GT(first_bytes, 0);
  // The same question again: the dictionary comes from the cache, nothing is read.
  stats = {};
  plan = PlanScan(*file, {{Term(kCat, PredicateOp::kEq, {SqlValue::Text("banana")})}}, t.affinity,
                  {}, {0}, &stats);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 1);
  EXPECT_EQ(stats.bytes_read, 0);
  // id: an absent value (1500.5 has no Bloom hash on an INTEGER column, so the dictionary decides);
  // once id's dictionary is cached it costs nothing and goes first.
  const ColumnMetaData& id = *file->metadata().row_groups[1].columns[kId].meta_data;
  ASSERT_TRUE(id.bloom_filter_length);
  // 1500 is present: neither layer prunes row group 1, so both are asked; the page index is read
  // too. The second time, neither the dictionary nor the Bloom filter nor the page index is read
  // again.
  int64_t bytes[2] = {0, 0};
  for (int pass = 0; pass < 2; ++pass) {
    stats = {};
    plan = PlanScan(*file, {{Term(kId, PredicateOp::kEq, {SqlValue::Integer(1500)})}}, t.affinity,
                    {}, {1}, &stats);
    ASSERT_TRUE(plan.ok());
    ASSERT_EQ(plan->row_groups.size(), 1u);
    bytes[pass] = stats.bytes_read;
  }
  const ColumnChunk& id_chunk = file->metadata().row_groups[1].columns[kId];
  ASSERT_TRUE(id_chunk.column_index_length && id_chunk.offset_index_length);
  EXPECT_EQ(bytes[1], 0);
  EXPECT_GE(bytes[0], id.data_page_offset - *id.dictionary_page_offset + *id.bloom_filter_length +
                          *id_chunk.column_index_length + *id_chunk.offset_index_length);
  stats = {};
  plan = PlanScan(*file, {{Term(kId, PredicateOp::kEq, {SqlValue::Real(1500.5)})}}, t.affinity, {},
                  {1}, &stats);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(stats.row_groups_skipped_by_dictionary, 1);
  EXPECT_EQ(stats.bytes_read, 0);
  // A cache of no bytes keeps nothing.
  ReaderOptions options;
  options.dictionary_cache_bytes = 0;
  auto uncached = FileReader::Open(path, options);
  ASSERT_TRUE(uncached.ok());
  for (int pass = 0; pass < 2; ++pass) {
    stats = {};
    plan = PlanScan(**uncached, {{Term(kCat, PredicateOp::kEq, {SqlValue::Text("banana")})}},
                    t.affinity, {}, {0}, &stats);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(stats.bytes_read, first_bytes);
  }
  // Bloom filters are cached the same way: the absent name is settled by them alone, read once.
  for (int64_t cache_bytes : {int64_t{64} << 20, int64_t{0}}) {
    SCOPED_TRACE(cache_bytes);
    ReaderOptions bloom_options;
    bloom_options.bloom_filter_cache_bytes = cache_bytes;
    auto reader = FileReader::Open(path, bloom_options);
    ASSERT_TRUE(reader.ok());
    for (int pass = 0; pass < 2; ++pass) {
      stats = {};
      plan = PlanScan(**reader, {{Term(kName, PredicateOp::kEq, {SqlValue::Text("name-01234x")})}},
                      t.affinity, {}, {}, &stats);
      ASSERT_TRUE(plan.ok());
      EXPECT_TRUE(plan->row_groups.empty());
      EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, 3);
      EXPECT_EQ(stats.bytes_read, pass == 1 && cache_bytes > 0 ? 0 : name_blooms);
    }
  }
  // Page indexes too: with page_index_cache_bytes=0 (and the other caches on) the second pass over
  // id = 1500 reads the column and offset indexes again, and nothing else.
  ReaderOptions index_options;
  index_options.page_index_cache_bytes = 0;
  auto no_index_cache = FileReader::Open(path, index_options);
  ASSERT_TRUE(no_index_cache.ok());
  for (int pass = 0; pass < 2; ++pass) {
    stats = {};
    plan = PlanScan(**no_index_cache, {{Term(kId, PredicateOp::kEq, {SqlValue::Integer(1500)})}},
                    t.affinity, {}, {1}, &stats);
    ASSERT_TRUE(plan.ok());
    if (pass == 1) {
      EXPECT_EQ(stats.bytes_read, *id_chunk.column_index_length + *id_chunk.offset_index_length);
    }
  }
  std::remove(path.c_str());
}

// Random predicates: whatever the plan, no satisfying row is ever dropped, and the layers do
// prune a good share of the time.
TEST_F(ScanPlanTest, RandomPredicatesNeverDropASatisfyingRow) {
  const Table& t = TheTable();
  std::mt19937_64 rng(2024);
  const PredicateOp ops[] = {PredicateOp::kEq,        PredicateOp::kNe,    PredicateOp::kLt,
                             PredicateOp::kLe,        PredicateOp::kGt,    PredicateOp::kGe,
                             PredicateOp::kIs,        PredicateOp::kIsNot, PredicateOp::kIsNull,
                             PredicateOp::kIsNotNull, PredicateOp::kIn,    PredicateOp::kPrefix};
  // A literal near the values of a field: one of its values, as is or in another form.
  auto literal = [&](int field) {
    const SqlValue& v = t.cells[static_cast<size_t>(field)][rng() % kRows];
    switch (rng() % 8) {
      case 0:
        return SqlValue::Null();
      case 1:
        if (v.type == CellType::kInteger) return SqlValue::Text(" " + std::to_string(v.i));
        if (v.type == CellType::kReal) return SqlValue::Real(v.d + 0.25);
        return v;
      case 2:
        if (v.type == CellType::kText) return SqlValue::Text(v.bytes + "x");
        if (v.type == CellType::kInteger) return SqlValue::Real(static_cast<double>(v.i) + 0.5);
        return v;
      case 3:
        if (v.type == CellType::kText && !v.bytes.empty()) {
          return SqlValue::Text(v.bytes.substr(0, rng() % v.bytes.size()));
        }
        return SqlValue::Integer(static_cast<int64_t>(rng() % 4000) - 500);
      default:
        return v;
    }
  };
  for (const std::string* path : {full_path_, stats_only_path_, v2_path_}) {
    auto file = Open(*path);
    ASSERT_TRUE(file);
    ScanCounters stats;
    int pruned_plans = 0;
    for (int round = 0; round < 300; ++round) {
      Predicate p;
      const int n = 1 + static_cast<int>(rng() % 3);
      for (int k = 0; k < n; ++k) {
        const int field = static_cast<int>(rng() % kNumFields);
        PredicateTerm term = Term(field, ops[rng() % std::size(ops)]);
        const int values = term.op == PredicateOp::kIn ? static_cast<int>(rng() % 4)
                           : term.op == PredicateOp::kIsNull || term.op == PredicateOp::kIsNotNull
                               ? 0
                               : 1;
        for (int i = 0; i < values; ++i) term.values.push_back(literal(field));
        p.terms.push_back(std::move(term));
      }
      const int64_t before = stats.rows_skipped;
      PlanChecked(*file, p, &stats);
      if (::testing::Test::HasFailure()) {
        ADD_FAILURE() << "round " << round;
        return;
      }
      pruned_plans += stats.rows_skipped > before;
    }
    EXPECT_GT(pruned_plans, 60) << *path;
  }
}

// ---- corrupt metadata ---------------------------------------------------------------------------

// The file with footer edits applied, held in memory.
std::shared_ptr<const FileReader> WithFooterEdit(const std::string& path,
                                                 const std::function<void(FileMetaData*)>& edit) {
  const std::string bytes = ReadWholeFile(path);
  const uint32_t footer_len =
      LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(bytes.data() + bytes.size() - 8));
  const size_t footer_begin = bytes.size() - 8 - footer_len;
  FileMetaData md;
  Status s =
      ReadFileMetaData(AsBytes(std::string_view(bytes).substr(footer_begin, footer_len)), &md);
  EXPECT_TRUE(s.ok()) << s.ToString();
  edit(&md);
  std::string out = bytes.substr(0, footer_begin);
  std::string footer;
  WriteFileMetaData(md, &footer);
  out += footer;
  const uint32_t len = static_cast<uint32_t>(footer.size());
  out.append(reinterpret_cast<const char*>(&len), 4);
  out += "PAR1";
  auto r = FileReader::Open(RandomAccessFile::FromBytes("edited.parquet", std::move(out)),
                            ReaderOptions{});
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::shared_ptr<const FileReader>(*r) : nullptr;
}

// A page index is an optional aid: one out of the file, that does not parse or contradicts itself
// is not used, and the row group is planned as if the chunk had none (all its rows, nothing skipped by
// the page index). Writers do leave such indexes (@dsnp/parquetjs: every first_row_index 0;
// parquetjs-lite: no null_pages), and the data itself reads fine.
TEST_F(ScanPlanTest, UnusablePageIndexesAreNotUsed) {
  const Table& t = TheTable();
  struct Case {
    const char* what;
    std::function<void(FileMetaData*)> edit;
  };
  const std::vector<Case> cases = {
      {"column index outside the file",
       [](FileMetaData* m) { m->row_groups[0].columns[0].column_index_offset = int64_t{1} << 40; }},
      {"column index length over the cap",
       [](FileMetaData* m) { m->row_groups[0].columns[0].column_index_length = 1 << 30; }},
      {"column index that does not parse",
       [](FileMetaData* m) {
         auto& c = m->row_groups[0].columns[0];
         c.column_index_offset = 0;  // "PAR1" and page bytes
         c.column_index_length = 16;
       }},
      {"offset index of another page count",
       [](FileMetaData* m) {
         auto& c = m->row_groups[0].columns[0];
         auto& other = m->row_groups[2].columns[0];
         c.offset_index_offset = other.offset_index_offset;
         c.offset_index_length = other.offset_index_length;
         c.offset_index_length = *c.offset_index_length - 1;  // truncated
       }},
  };
  const PredicateTerm id_eq = Term(kId, PredicateOp::kEq, {SqlValue::Integer(1)});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    auto file = WithFooterEdit(*full_path_, c.edit);
    ASSERT_TRUE(file);
    Predicate p;
    p.terms.push_back(id_eq);
    ScanCounters stats;
    auto plan = PlanScan(*file, p, t.affinity, {}, {}, &stats);
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    ASSERT_FALSE(plan->row_groups.empty());
    EXPECT_EQ(plan->row_groups[0].row_group, 0);
    EXPECT_EQ(plan->row_groups[0].rows.row_count(), file->metadata().row_groups[0].num_rows);
    EXPECT_EQ(stats.pages_skipped_by_page_index, 0);
  }
}

// A Bloom filter is optional, like the page index: one that is outside the file or does not parse
// is not used (it prunes nothing, and the plan keeps every row group), never an error.
TEST_F(ScanPlanTest, CorruptBloomFiltersAreNotUsed) {
  const Table& t = TheTable();
  struct Case {
    const char* what;
    int field;
    std::function<void(FileMetaData*)> edit;
    PredicateTerm term;
  };
  const PredicateTerm name_eq = Term(kName, PredicateOp::kEq, {SqlValue::Text("name-00001")});
  const std::vector<Case> cases = {
      {"Bloom filter outside the file", kName,
       [](FileMetaData* m) {
         auto& md = *m->row_groups[0].columns[2].meta_data;
         md.bloom_filter_offset = int64_t{1} << 40;
       },
       name_eq},
      {"Bloom filter without a length, at bytes that are no header", kName,
       [](FileMetaData* m) {
         auto& md = *m->row_groups[0].columns[2].meta_data;
         md.bloom_filter_offset = 4;
         md.bloom_filter_length.reset();
       },
       name_eq},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    auto file = WithFooterEdit(*full_path_, c.edit);
    ASSERT_TRUE(file);
    Predicate p;
    p.terms.push_back(c.term);
    ScanCounters stats;
    auto plan = PlanScan(*file, p, t.affinity, {}, {}, &stats);
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    ASSERT_FALSE(plan->row_groups.empty());
    EXPECT_EQ(plan->row_groups[0].row_group, 0) << "row group 0 holds the value";
    EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, 0);
  }
  // A term on a field the file does not have is the caller's error.
  auto file = Open(*full_path_);
  Predicate p;
  p.terms.push_back(Term(99, PredicateOp::kIsNull));
  EXPECT_TRUE(PlanScan(*file, p, t.affinity, {}, {}, nullptr).status().IsInvalidArgument());
  EXPECT_TRUE(PlanScan(*file, {}, t.affinity, {}, {7}, nullptr).status().IsInvalidArgument());
}

// The parquetjs family hashes values as their JavaScript text, not their PLAIN encoding: its Bloom
// filters are never probed, whatever their headers say (BloomFiltersUsable).
TEST_F(ScanPlanTest, BloomFiltersOfTheParquetjsFamilyAreNotUsed) {
  const Table& t = TheTable();
  for (const char* created_by : {"@dsnp/parquetjs", "parquetjs 1.2", "parquet-cpp-arrow version 21.0.0"}) {
    SCOPED_TRACE(created_by);
    auto file = WithFooterEdit(*full_path_, [&](FileMetaData* m) { m->created_by = created_by; });
    ASSERT_TRUE(file);
    Predicate p;
    p.terms.push_back(Term(kName, PredicateOp::kEq, {SqlValue::Text("name-01234x")}));
    ScanCounters stats;
    auto plan = PlanScan(*file, p, t.affinity, {}, {}, &stats);
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    const bool usable = std::string(created_by).find("parquetjs") == std::string::npos;
    EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, usable ? 3 : 0);
    EXPECT_EQ(plan->row_groups.empty(), usable);
  }
}

// ---- conformance files -------------------------------------------------------------------------

TEST(ScanPlanConformanceTest, TinyPagesPointQueryKeepsOnlyPagesWhoseBoundsHoldTheValue) {
  // 7300 rows in 325 pages; id is not sorted, so a few pages besides the one holding 1234 have
  // bounds around it. The plan must be exactly those pages.
  auto file = OpenForTest(kData + "alltypes_tiny_pages.parquet");
  ASSERT_TRUE(file);
  ASSERT_EQ(file->schema().fields()[0]->name, "id");
  const int fields = static_cast<int>(file->schema().fields().size());
  std::vector<Affinity> affinity(static_cast<size_t>(fields), Affinity::kBlob);
  affinity[0] = Affinity::kInteger;
  const LeafData ids = ReadLeaf(file, 0);
  int64_t row = -1;
  for (size_t i = 0; i < ids.i32.size(); ++i) {
    if (ids.i32[i] == 1234) row = static_cast<int64_t>(i);
  }
  ASSERT_GE(row, 0);
  const std::string bytes = ReadWholeFile(kData + "alltypes_tiny_pages.parquet");
  const ColumnChunk& chunk = file->metadata().row_groups[0].columns[0];
  const OffsetIndex oi = ReadOffsetIndexOf(bytes, chunk);
  const ColumnIndex ci = ReadColumnIndexOf(bytes, chunk);
  const size_t pages = oi.page_locations.size();
  ASSERT_GT(pages, 300u);
  ASSERT_EQ(ci.min_values.size(), pages);
  RowRanges want;
  int kept_pages = 0;
  bool holds_row = false;
  for (size_t i = 0; i < pages; ++i) {
    const int64_t begin = oi.page_locations[i].first_row_index;
    const int64_t end = i + 1 < pages ? oi.page_locations[i + 1].first_row_index
                                      : file->metadata().row_groups[0].num_rows;
    const int32_t lo = LoadLE<int32_t>(reinterpret_cast<const uint8_t*>(ci.min_values[i].data()));
    const int32_t hi = LoadLE<int32_t>(reinterpret_cast<const uint8_t*>(ci.max_values[i].data()));
    if (lo <= 1234 && 1234 <= hi) {
      want.Add(begin, end);
      ++kept_pages;
      holds_row |= begin <= row && row < end;
    }
  }
  EXPECT_TRUE(holds_row);
  EXPECT_LT(kept_pages, 10);
  Predicate p;
  p.terms.push_back(Term(0, PredicateOp::kEq, {SqlValue::Integer(1234)}));
  ScanCounters stats;
  auto plan = PlanScan(*file, p, affinity, {}, {}, &stats);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->row_groups.size(), 1u);
  EXPECT_EQ(SpansOf(*plan), SpansOf(ScanPlan{{RowGroupPlan{0, want}}}));
  EXPECT_EQ(stats.pages_considered, static_cast<int64_t>(pages));
  EXPECT_EQ(stats.pages_skipped_by_page_index, static_cast<int64_t>(pages) - kept_pages);
  EXPECT_EQ(stats.rows_skipped, 7300 - want.row_count());
}

TEST(ScanPlanConformanceTest, NullPagesAreSkippedByIsNotNullOnly) {
  auto file = OpenForTest(kData + "int32_with_null_pages.parquet");
  ASSERT_TRUE(file);
  const std::string bytes = ReadWholeFile(kData + "int32_with_null_pages.parquet");
  const ColumnChunk& chunk = file->metadata().row_groups[0].columns[0];
  const ColumnIndex ci = ReadColumnIndexOf(bytes, chunk);
  const OffsetIndex oi = ReadOffsetIndexOf(bytes, chunk);
  ASSERT_EQ(ci.null_pages.size(), oi.page_locations.size());
  RowRanges non_null;
  int null_pages = 0;
  for (size_t i = 0; i < ci.null_pages.size(); ++i) {
    const int64_t begin = oi.page_locations[i].first_row_index;
    const int64_t end = i + 1 < ci.null_pages.size() ? oi.page_locations[i + 1].first_row_index
                                                     : file->metadata().row_groups[0].num_rows;
    if (ci.null_pages[i]) {
      ++null_pages;
    } else {
      non_null.Add(begin, end);
    }
  }
  ASSERT_EQ(null_pages, 1);
  const std::vector<Affinity> affinity = {Affinity::kInteger};
  Predicate p;
  p.terms.push_back(Term(0, PredicateOp::kIsNotNull));
  ScanCounters stats;
  auto plan = PlanScan(*file, p, affinity, {}, {}, &stats);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(SpansOf(*plan), SpansOf(ScanPlan{{RowGroupPlan{0, non_null}}}));
  EXPECT_EQ(stats.pages_skipped_by_page_index, 1);
  // IS NULL keeps the null page (and pages with some NULLs); a comparison skips the null page too.
  p.terms[0] = Term(0, PredicateOp::kIsNull);
  plan = PlanScan(*file, p, affinity, {}, {}, nullptr);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->row_groups.size(), 1u);
  EXPECT_GT(plan->row_groups[0].rows.row_count(), 0);
  p.terms[0] = Term(0, PredicateOp::kNe, {SqlValue::Integer(-12345)});
  stats = {};
  plan = PlanScan(*file, p, affinity, {}, {}, &stats);
  ASSERT_TRUE(plan.ok());
  EXPECT_GE(stats.pages_skipped_by_page_index, 1);
}

TEST(ScanPlanConformanceTest, BloomFilterOfAStringColumn) {
  for (const char* name : {"data_index_bloom_encoding_stats.parquet",
                           "data_index_bloom_encoding_with_length.parquet"}) {
    SCOPED_TRACE(name);
    auto file = OpenForTest(kData + name);
    ASSERT_TRUE(file);
    const std::vector<Affinity> affinity = {Affinity::kText};
    // The column holds 14 phrases from 'Hello' to 'today'; 'cat' sorts between them.
    for (const auto& [value, present] : std::vector<std::pair<const char*, bool>>{
             {"cat", false}, {"dog", true}, {"jumps", true}, {"jump", false}, {"Hello", true}}) {
      SCOPED_TRACE(value);
      Predicate p;
      p.terms.push_back(Term(0, PredicateOp::kEq, {SqlValue::Text(value)}));
      ScanCounters stats;
      auto plan = PlanScan(*file, p, affinity, {}, {}, &stats);
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      EXPECT_EQ(plan->row_groups.size(), present ? 1u : 0u);
      EXPECT_EQ(stats.row_groups_skipped_by_statistics, 0);
      EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, present ? 0 : 1);
      // The first question reads the Bloom filter; later ones find it in the file's cache.
      if (std::string(value) == "cat") {
        EXPECT_GT(stats.bytes_read, 0);
      }
    }
  }
}

}  // namespace
}  // namespace pq
