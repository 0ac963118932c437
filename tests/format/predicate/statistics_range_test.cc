// Statistics to ValueRange: which stored bounds are trusted, and what they become in the table's
// value model. Each case builds a one-leaf schema and hand-made Statistics.
#include "format/predicate/statistics_range.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/predicate/bloom_literal.h"
#include "tests/format/writer/writer_test_util.h"

namespace pq {
namespace {

using namespace pq::testing;  // NOLINT
using LKind = LogicalType::Kind;

template <typename T>
std::string Plain(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

// One leaf in a file with (or without) column orders.
struct OneLeaf {
  FileMetaData metadata;
  std::shared_ptr<const Schema> schema;
  const SchemaNode& leaf() const { return schema->leaf(0); }
};

OneLeaf MakeLeaf(SchemaElement e,
                 std::optional<ColumnOrder::Kind> order = ColumnOrder::Kind::kTypeDefinedOrder) {
  OneLeaf o;
  e.repetition_type = Repetition::kOptional;
  o.metadata.schema = {Root(1), e};
  if (order) o.metadata.column_orders = std::vector<ColumnOrder>{ColumnOrder{*order}};
  auto s = Schema::Make(o.metadata.schema);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  o.schema = *s;
  return o;
}

Statistics MinMax(std::string min, std::string max, std::optional<int64_t> nulls = 0) {
  Statistics s;
  s.min_value = std::move(min);
  s.max_value = std::move(max);
  s.null_count = nulls;
  return s;
}

ValueRange RangeOf(const OneLeaf& o, const Statistics& s, ValueOptions options = {},
                   int64_t num_values = 100) {
  return StatisticsToValueRange(o.metadata, o.leaf(), options, s, num_values);
}

void ExpectBounds(const ValueRange& r, const SqlValue& min, const SqlValue& max) {
  ASSERT_TRUE(r.has_bounds);
  EXPECT_EQ(r.min.type, min.type);
  EXPECT_EQ(r.max.type, max.type);
  EXPECT_EQ(CompareSql(r.min.AsCell(), min.AsCell()), 0) << r.min.bytes;
  EXPECT_EQ(CompareSql(r.max.AsCell(), max.AsCell()), 0) << r.max.bytes;
}

TEST(StatisticsRangeTest, SignedIntegers) {
  const OneLeaf o = MakeLeaf(Leaf("x", PhysicalType::kInt32, Repetition::kOptional));
  const ValueRange r = RangeOf(o, MinMax(Plain<int32_t>(-5), Plain<int32_t>(70), 3));
  ExpectBounds(r, SqlValue::Integer(-5), SqlValue::Integer(70));
  EXPECT_EQ(r.null_count, 3);
  EXPECT_EQ(r.num_values, 100);
  // Wrong widths are not bounds.
  EXPECT_FALSE(RangeOf(o, MinMax(Plain<int64_t>(1), Plain<int32_t>(2))).has_bounds);
  // A missing side, or min above max, gives no bounds.
  Statistics half;
  half.min_value = Plain<int32_t>(1);
  EXPECT_FALSE(RangeOf(o, half).has_bounds);
  EXPECT_FALSE(RangeOf(o, MinMax(Plain<int32_t>(9), Plain<int32_t>(2))).has_bounds);
  // Unknown null count.
  EXPECT_EQ(RangeOf(o, MinMax(Plain<int32_t>(1), Plain<int32_t>(2), std::nullopt)).null_count, -1);
}

TEST(StatisticsRangeTest, ColumnOrdersDecideWhetherMinValueIsTrusted) {
  const SchemaElement str =
      Leaf("s", PhysicalType::kByteArray, Repetition::kOptional, Logical(LKind::kString));
  const SchemaElement i64 = Leaf("i", PhysicalType::kInt64, Repetition::kOptional);
  const Statistics s = MinMax("apple", "pear");
  const Statistics n = MinMax(Plain<int64_t>(1), Plain<int64_t>(9));
  ExpectBounds(RangeOf(MakeLeaf(str), s), SqlValue::Text("apple"), SqlValue::Text("pear"));
  // No column_orders: byte arrays have no defined order then; signed integers keep theirs.
  EXPECT_FALSE(RangeOf(MakeLeaf(str, std::nullopt), s).has_bounds);
  ExpectBounds(RangeOf(MakeLeaf(i64, std::nullopt), n), SqlValue::Integer(1), SqlValue::Integer(9));
  // An order this reader does not know, or IEEE 754 total order on an integer: none.
  EXPECT_FALSE(RangeOf(MakeLeaf(i64, ColumnOrder::Kind::kUnknown), n).has_bounds);
  EXPECT_FALSE(RangeOf(MakeLeaf(i64, ColumnOrder::Kind::kIeee754TotalOrder), n).has_bounds);
  ExpectBounds(RangeOf(MakeLeaf(Leaf("d", PhysicalType::kDouble, Repetition::kOptional),
                                ColumnOrder::Kind::kIeee754TotalOrder),
                       MinMax(Plain<double>(-1.5), Plain<double>(2.0))),
               SqlValue::Real(-1.5), SqlValue::Real(2.0));
}

TEST(StatisticsRangeTest, DeprecatedMinMaxOnlyWhereTheirSignedOrderIsRight) {
  Statistics legacy;
  legacy.min = Plain<int32_t>(3);
  legacy.max = Plain<int32_t>(8);
  legacy.null_count = 0;
  ExpectBounds(RangeOf(MakeLeaf(Leaf("i", PhysicalType::kInt32, Repetition::kOptional)), legacy),
               SqlValue::Integer(3), SqlValue::Integer(8));
  // Unsigned integers, strings and decimals: never.
  EXPECT_FALSE(
      RangeOf(MakeLeaf(Leaf("u", PhysicalType::kInt32, Repetition::kOptional, IntType(32, false))),
              legacy)
          .has_bounds);
  Statistics text;
  text.min = "a";
  text.max = "b";
  EXPECT_FALSE(RangeOf(MakeLeaf(Leaf("s", PhysicalType::kByteArray, Repetition::kOptional,
                                     Logical(LKind::kString))),
                       text)
                   .has_bounds);
  EXPECT_FALSE(
      RangeOf(MakeLeaf(Leaf("d", PhysicalType::kInt32, Repetition::kOptional, DecimalType(9, 2))),
              legacy)
          .has_bounds);
  // When min_value/max_value are there, the old fields are ignored even if they disagree.
  Statistics both = MinMax(Plain<int32_t>(4), Plain<int32_t>(5));
  both.min = Plain<int32_t>(-100);
  both.max = Plain<int32_t>(100);
  ExpectBounds(RangeOf(MakeLeaf(Leaf("i", PhysicalType::kInt32, Repetition::kOptional)), both),
               SqlValue::Integer(4), SqlValue::Integer(5));
}

TEST(StatisticsRangeTest, UnsignedIntegersReadAsTheTableShowsThem) {
  const OneLeaf u32 =
      MakeLeaf(Leaf("u", PhysicalType::kInt32, Repetition::kOptional, IntType(32, false)));
  ExpectBounds(RangeOf(u32, MinMax(Plain<uint32_t>(7), Plain<uint32_t>(3000000000u))),
               SqlValue::Integer(7), SqlValue::Integer(3000000000LL));
  const OneLeaf u64 =
      MakeLeaf(Leaf("u", PhysicalType::kInt64, Repetition::kOptional, IntType(64, false)));
  ExpectBounds(RangeOf(u64, MinMax(Plain<uint64_t>(1), Plain<uint64_t>(~uint64_t{0}))),
               SqlValue::Integer(1), SqlValue::Real(18446744073709551615.0));
}

TEST(StatisticsRangeTest, FloatingPointNanRules) {
  const OneLeaf f = MakeLeaf(Leaf("f", PhysicalType::kFloat, Repetition::kOptional));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Statistics s = MinMax(Plain<float>(-0.0f), Plain<float>(2.5f), 4);
  ValueRange r = RangeOf(f, s);
  ExpectBounds(r, SqlValue::Real(0.0), SqlValue::Real(2.5));
  EXPECT_EQ(r.null_count, -1);  // NaNs read as NULL and are not counted without nan_count
  s.nan_count = 6;
  EXPECT_EQ(RangeOf(f, s).null_count, 10);
  EXPECT_FALSE(RangeOf(f, MinMax(Plain<float>(nan), Plain<float>(2.5f))).has_bounds);
  EXPECT_FALSE(RangeOf(f, MinMax(Plain<float>(1.0f), Plain<float>(nan))).has_bounds);
  // FLOAT16.
  const OneLeaf h = MakeLeaf(Leaf("h", PhysicalType::kFixedLenByteArray, Repetition::kOptional,
                                  Logical(LKind::kFloat16), 2));
  ExpectBounds(RangeOf(h, MinMax(std::string("\x00\xbc", 2), std::string("\x00\x3c", 2))),
               SqlValue::Real(-1.0), SqlValue::Real(1.0));
  EXPECT_FALSE(
      RangeOf(h, MinMax(std::string("\x00\x7e", 2), std::string("\x00\x3c", 2))).has_bounds);
  EXPECT_FALSE(RangeOf(h, MinMax(std::string("\x00", 1), std::string("\x00\x3c", 2))).has_bounds);
}

TEST(StatisticsRangeTest, TextAndBlobs) {
  const OneLeaf raw = MakeLeaf(Leaf("b", PhysicalType::kByteArray, Repetition::kOptional));
  const Statistics s = MinMax("ab", "b\xff");
  ExpectBounds(RangeOf(raw, s), SqlValue::Blob("ab"), SqlValue::Blob("b\xff"));
  ValueOptions as_string;
  as_string.binary_as_string = true;
  ExpectBounds(RangeOf(raw, s, as_string), SqlValue::Text("ab"), SqlValue::Text("b\xff"));
  // Truncated bounds are still bounds.
  Statistics truncated = MinMax("abc", "abd");
  truncated.is_max_value_exact = false;
  truncated.is_min_value_exact = false;
  EXPECT_TRUE(RangeOf(raw, truncated).has_bounds);
  // GEOMETRY has no order.
  EXPECT_FALSE(RangeOf(MakeLeaf(Leaf("g", PhysicalType::kByteArray, Repetition::kOptional,
                                     Logical(LKind::kGeometry))),
                       s)
                   .has_bounds);
  // UUID: lower-case text, only from full 16-byte bounds.
  const OneLeaf uuid = MakeLeaf(Leaf("u", PhysicalType::kFixedLenByteArray, Repetition::kOptional,
                                     Logical(LKind::kUuid), 16));
  ExpectBounds(RangeOf(uuid, MinMax(std::string(16, '\0'), std::string(16, '\xab'))),
               SqlValue::Text("00000000-0000-0000-0000-000000000000"),
               SqlValue::Text("abababab-abab-abab-abab-abababababab"));
  EXPECT_FALSE(RangeOf(uuid, MinMax(std::string(15, '\0'), std::string(16, '\xab'))).has_bounds);
}

TEST(StatisticsRangeTest, DecimalsAsRealOnlyAndExact) {
  const OneLeaf d =
      MakeLeaf(Leaf("d", PhysicalType::kInt64, Repetition::kOptional, DecimalType(18, 2)));
  const Statistics s = MinMax(Plain<int64_t>(-150), Plain<int64_t>(12345));
  ValueOptions real;
  real.decimal = ValueOptions::Decimal::kReal;
  ExpectBounds(RangeOf(d, s, real), SqlValue::Real(-1.5), SqlValue::Real(123.45));
  ValueOptions text;
  text.decimal = ValueOptions::Decimal::kText;
  EXPECT_FALSE(RangeOf(d, s, text).has_bounds);
  // By default a precision above 15 reads as TEXT, so no bounds; up to 15, as REAL.
  EXPECT_FALSE(RangeOf(d, s).has_bounds);
  const OneLeaf d15 =
      MakeLeaf(Leaf("d", PhysicalType::kInt64, Repetition::kOptional, DecimalType(15, 2)));
  ExpectBounds(RangeOf(d15, s), SqlValue::Real(-1.5), SqlValue::Real(123.45));
  // Byte-array decimals: bounds from full-width values; the NULL count is not trusted (values
  // too long to convert read as NULL).
  const OneLeaf b =
      MakeLeaf(Leaf("b", PhysicalType::kByteArray, Repetition::kOptional, DecimalType(30, 1)));
  const ValueRange r = RangeOf(b, MinMax(std::string("\xff", 1), std::string("\x01\x00", 2)), real);
  ExpectBounds(r, SqlValue::Real(-0.1), SqlValue::Real(25.6));
  EXPECT_EQ(r.null_count, -1);
  Statistics inexact = MinMax(std::string("\xff", 1), std::string("\x01\x00", 2));
  inexact.is_max_value_exact = false;
  EXPECT_FALSE(RangeOf(b, inexact, real).has_bounds);
}

TEST(StatisticsRangeTest, TemporalTextOnlyWhereTextOrderIsTimeOrder) {
  const OneLeaf date =
      MakeLeaf(Leaf("d", PhysicalType::kInt32, Repetition::kOptional, Logical(LKind::kDate)));
  ExpectBounds(RangeOf(date, MinMax(Plain<int32_t>(0), Plain<int32_t>(19000))),
               SqlValue::Text("1970-01-01"), SqlValue::Text("2022-01-08"));
  // Year 10000 and year -1 print outside the four-digit form.
  EXPECT_FALSE(RangeOf(date, MinMax(Plain<int32_t>(0), Plain<int32_t>(2932897))).has_bounds);
  EXPECT_FALSE(RangeOf(date, MinMax(Plain<int32_t>(-719529), Plain<int32_t>(0))).has_bounds);
  const OneLeaf ts = MakeLeaf(Leaf("t", PhysicalType::kInt64, Repetition::kOptional,
                                   TimestampType(TimeUnit::kMicros, true)));
  const Statistics s = MinMax(Plain<int64_t>(0), Plain<int64_t>(1500000));
  ExpectBounds(RangeOf(ts, s), SqlValue::Text("1970-01-01 00:00:00"),
               SqlValue::Text("1970-01-01 00:00:01.500000"));
  ValueOptions integer;
  integer.timestamp = ValueOptions::Timestamp::kInteger;
  ExpectBounds(RangeOf(ts, s, integer), SqlValue::Integer(0), SqlValue::Integer(1500000));
  LogicalType time = Logical(LKind::kTime);
  time.unit = TimeUnit::kMillis;
  const OneLeaf t = MakeLeaf(Leaf("t", PhysicalType::kInt32, Repetition::kOptional, time));
  ExpectBounds(RangeOf(t, MinMax(Plain<int32_t>(1000), Plain<int32_t>(90000000))),
               SqlValue::Text("00:00:01"), SqlValue::Text("25:00:00"));
  EXPECT_FALSE(RangeOf(t, MinMax(Plain<int32_t>(-1), Plain<int32_t>(5))).has_bounds);
  // INT96: no order at all.
  const OneLeaf i96 = MakeLeaf(Leaf("t", PhysicalType::kInt96, Repetition::kOptional));
  EXPECT_FALSE(RangeOf(i96, MinMax(std::string(12, '\0'), std::string(12, '\1'))).has_bounds);
}

TEST(StatisticsRangeTest, UnknownTypeReadsAllNull) {
  const OneLeaf u =
      MakeLeaf(Leaf("u", PhysicalType::kInt32, Repetition::kOptional, Logical(LKind::kUnknown)));
  const ValueRange r = RangeOf(u, MinMax(Plain<int32_t>(1), Plain<int32_t>(2), 0), {}, 40);
  EXPECT_FALSE(r.has_bounds);
  EXPECT_EQ(r.null_count, 40);
}

TEST(StatisticsRangeTest, ColumnIndexPages) {
  const OneLeaf o = MakeLeaf(Leaf("x", PhysicalType::kInt64, Repetition::kOptional));
  auto mapper = StatisticsRangeMapper::Make(o.metadata, o.leaf(), {});
  ASSERT_TRUE(mapper.ok());
  ColumnIndex ci;
  ci.null_pages = {false, true};
  ci.min_values = {Plain<int64_t>(10), ""};
  ci.max_values = {Plain<int64_t>(20), ""};
  ci.null_counts = std::vector<int64_t>{2, 30};
  ValueRange p0 = mapper->FromColumnIndex(ci, 0, 30);
  ExpectBounds(p0, SqlValue::Integer(10), SqlValue::Integer(20));
  EXPECT_EQ(p0.null_count, 2);
  ValueRange p1 = mapper->FromColumnIndex(ci, 1, 30);
  EXPECT_FALSE(p1.has_bounds);
  EXPECT_EQ(p1.null_count, 30);
  EXPECT_EQ(p1.num_values, 30);
}

// polars marks a page whose min/max it did not compute (one holding a NaN) as a null page, with a
// null count of 0: the contradiction makes the entry say nothing (no bounds, nulls unknown), so no
// predicate can skip the page. Without null counts, or with one that agrees, a null page is all
// NULL. tests/data/polars_nan_null_page.parquet is such a file (sql_tests/page_index.sql).
TEST(StatisticsRangeTest, NullPageContradictedByItsNullCountSaysNothing) {
  const OneLeaf o = MakeLeaf(Leaf("f", PhysicalType::kDouble, Repetition::kOptional));
  auto mapper = StatisticsRangeMapper::Make(o.metadata, o.leaf(), {});
  ASSERT_TRUE(mapper.ok());
  ColumnIndex ci;
  ci.null_pages = {true, true, true};
  ci.min_values = {"", "", ""};
  ci.max_values = {"", "", ""};
  ci.null_counts = std::vector<int64_t>{0, 3, 2};
  const ValueRange contradicted = mapper->FromColumnIndex(ci, 0, 3);
  EXPECT_FALSE(contradicted.has_bounds);
  EXPECT_EQ(contradicted.null_count, -1);
  EXPECT_EQ(contradicted.num_values, 3);
  EXPECT_EQ(mapper->FromColumnIndex(ci, 1, 3).null_count, 3);
  EXPECT_EQ(mapper->FromColumnIndex(ci, 2, 3).null_count, -1);  // 2 of 3 rows NULL: not a null page
  ci.null_counts.reset();
  EXPECT_EQ(mapper->FromColumnIndex(ci, 0, 3).null_count, 3);
}

// More nulls than values (polars writes a dictionary chunk's null count into every page, and their
// sum as the chunk's) says nothing; as many as the values is all NULL.
TEST(StatisticsRangeTest, NullCountAboveTheValuesIsUnknown) {
  const OneLeaf o = MakeLeaf(Leaf("s", PhysicalType::kInt64, Repetition::kOptional));
  EXPECT_EQ(RangeOf(o, MinMax(Plain<int64_t>(1), Plain<int64_t>(2), 501), {}, 500).null_count, -1);
  EXPECT_EQ(RangeOf(o, MinMax(Plain<int64_t>(1), Plain<int64_t>(2), 500), {}, 500).null_count, 500);
  auto mapper = StatisticsRangeMapper::Make(o.metadata, o.leaf(), {});
  ASSERT_TRUE(mapper.ok());
  ColumnIndex ci;
  ci.null_pages = {false};
  ci.min_values = {Plain<int64_t>(1)};
  ci.max_values = {Plain<int64_t>(2)};
  ci.null_counts = std::vector<int64_t>{501};
  EXPECT_EQ(mapper->FromColumnIndex(ci, 0, 100).null_count, -1);
  ExpectBounds(mapper->FromColumnIndex(ci, 0, 100), SqlValue::Integer(1), SqlValue::Integer(2));
}

// polars leaves the pages holding a NaN out of a float chunk's min/max: no float bounds from it;
// other columns of its files keep theirs.
TEST(StatisticsRangeTest, FloatBoundsFromPolarsAreNotUsed) {
  OneLeaf f = MakeLeaf(Leaf("f", PhysicalType::kDouble, Repetition::kOptional));
  OneLeaf i = MakeLeaf(Leaf("i", PhysicalType::kInt64, Repetition::kOptional));
  const Statistics fs = MinMax(Plain<double>(-1.5), Plain<double>(2.5));
  const Statistics is = MinMax(Plain<int64_t>(1), Plain<int64_t>(2));
  EXPECT_TRUE(RangeOf(f, fs).has_bounds);
  f.metadata.created_by = "Polars";
  i.metadata.created_by = "Polars";
  EXPECT_FALSE(RangeOf(f, fs).has_bounds);
  EXPECT_TRUE(RangeOf(i, is).has_bounds);
  f.metadata.created_by = "parquet-cpp-arrow version 21.0.0";
  EXPECT_TRUE(RangeOf(f, fs).has_bounds);
}

TEST(StatisticsRangeTest, ConformanceFileWithANanMaximum) {
  // nan_in_stats.parquet: an old writer stored NaN as the maximum; those bounds are not used.
  auto file =
      OpenForTest(std::string(PQ_TESTDATA_DIR) + "/parquet-testing/data/nan_in_stats.parquet");
  ASSERT_TRUE(file);
  const ColumnMetaData& m = *file->metadata().row_groups[0].columns[0].meta_data;
  ASSERT_TRUE(m.statistics.has_value());
  const ValueRange r = StatisticsToValueRange(file->metadata(), file->schema().leaf(0), {},
                                              *m.statistics, m.num_values);
  EXPECT_FALSE(r.has_bounds);
  EXPECT_EQ(r.num_values, m.num_values);
}

// ---- Bloom filter literals ----------------------------------------------------------------------

LeafConverter ConverterOf(const OneLeaf& o, ValueOptions options = {}) {
  auto c = LeafConverter::Make(o.leaf(), options);
  EXPECT_TRUE(c.ok());
  return *c;
}

TEST(BloomLiteralTest, LiteralsHashAsTheStoredValue) {
  const auto I = Affinity::kInteger, T = Affinity::kText, B = Affinity::kBlob;
  const LeafConverter i32 =
      ConverterOf(MakeLeaf(Leaf("i", PhysicalType::kInt32, Repetition::kOptional)));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Integer(42), i32, I), BloomHash(int32_t{42}));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Text(" 42 "), i32, I), BloomHash(int32_t{42}));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Real(42.0), i32, I), BloomHash(int32_t{42}));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Text("4.2e1"), i32, I), BloomHash(int32_t{42}));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Integer(int64_t{1} << 40), i32, I));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Real(4.5), i32, I));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Null(), i32, I));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Integer(42), i32, T));  // not the column's affinity
  const LeafConverter i64 =
      ConverterOf(MakeLeaf(Leaf("i", PhysicalType::kInt64, Repetition::kOptional)));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Integer(-7), i64, I), BloomHash(int64_t{-7}));
  const LeafConverter u32 = ConverterOf(
      MakeLeaf(Leaf("u", PhysicalType::kInt32, Repetition::kOptional, IntType(32, false))));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Integer(4000000000LL), u32, I),
            BloomHash(static_cast<int32_t>(static_cast<uint32_t>(4000000000u))));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Integer(-1), u32, I));
  const LeafConverter str = ConverterOf(MakeLeaf(
      Leaf("s", PhysicalType::kByteArray, Repetition::kOptional, Logical(LKind::kString))));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Text("hello"), str, T), BloomHash(AsBytes("hello")));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Integer(12), str, T), BloomHash(AsBytes("12")));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Real(1e20), str, T), BloomHash(AsBytes("1.0e+20")));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Blob("hello"), str, T));
  const LeafConverter blob =
      ConverterOf(MakeLeaf(Leaf("b", PhysicalType::kByteArray, Repetition::kOptional)));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Blob("\x01"), blob, B), BloomHash(AsBytes("\x01")));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Text("\x01"), blob, B));
  const LeafConverter date = ConverterOf(
      MakeLeaf(Leaf("d", PhysicalType::kInt32, Repetition::kOptional, Logical(LKind::kDate))));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Text("1970-01-02"), date, T), BloomHash(int32_t{1}));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Text("1970-1-2"), date, T));
  const LeafConverter ts = ConverterOf(MakeLeaf(Leaf(
      "t", PhysicalType::kInt64, Repetition::kOptional, TimestampType(TimeUnit::kMillis, true))));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Text("1970-01-01 00:00:01.500"), ts, T),
            BloomHash(int64_t{1500}));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Text("1970-01-01 00:00:01.5"), ts, T));
  const LeafConverter uuid = ConverterOf(MakeLeaf(Leaf(
      "u", PhysicalType::kFixedLenByteArray, Repetition::kOptional, Logical(LKind::kUuid), 16)));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Text("00112233-4455-6677-8899-aabbccddeeff"), uuid, T),
            BloomHash(AsBytes(std::string_view(
                "\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16))));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Text("00112233-4455-6677-8899-AABBCCDDEEFF"), uuid, T));
  const LeafConverter dbl =
      ConverterOf(MakeLeaf(Leaf("d", PhysicalType::kDouble, Repetition::kOptional)));
  // DOUBLE: the literal's bit pattern, integers and numeric text taken as REAL; not zero (-0.0
  // equals 0.0 but hashes apart).
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Real(1.5), dbl, Affinity::kReal), BloomHash(1.5));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Integer(3), dbl, Affinity::kReal), BloomHash(3.0));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Text("2.25"), dbl, Affinity::kReal), BloomHash(2.25));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Real(0.0), dbl, Affinity::kReal));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Real(-0.0), dbl, Affinity::kReal));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Text("abc"), dbl, Affinity::kReal));
  // FLOAT: only literals a float holds exactly.
  const LeafConverter flt =
      ConverterOf(MakeLeaf(Leaf("f", PhysicalType::kFloat, Repetition::kOptional)));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Real(1.5), flt, Affinity::kReal), BloomHash(1.5f));
  EXPECT_FALSE(BloomHashOfLiteral(SqlValue::Real(1.1), flt, Affinity::kReal));
  EXPECT_EQ(BloomHashOfLiteral(SqlValue::Real(static_cast<double>(1.1f)), flt, Affinity::kReal),
            BloomHash(1.1f));
}

TEST(BloomLiteralTest, ProbesTheConformanceFilter) {
  // bloom_filter.xxhash.bin holds "hello", "parquet", "bloom", "filter" (testdata README).
  const std::string bytes =
      ReadWholeFile(std::string(PQ_TESTDATA_DIR) + "/parquet-testing/data/bloom_filter.xxhash.bin");
  auto filter = SplitBlockBloomFilter::Read(AsBytes(bytes));
  ASSERT_TRUE(filter.ok()) << filter.status().ToString();
  const LeafConverter str = ConverterOf(MakeLeaf(
      Leaf("s", PhysicalType::kByteArray, Repetition::kOptional, Logical(LKind::kString))));
  for (const char* s : {"hello", "parquet", "bloom", "filter"}) {
    auto h = BloomHashOfLiteral(SqlValue::Text(s), str, Affinity::kText);
    ASSERT_TRUE(h);
    EXPECT_TRUE(filter->Check(*h)) << s;
  }
  int present = 0;
  for (int i = 0; i < 200; ++i) {
    present += filter->Check(
        *BloomHashOfLiteral(SqlValue::Text("absent" + std::to_string(i)), str, Affinity::kText));
  }
  EXPECT_LT(present, 4);
}

}  // namespace
}  // namespace pq
