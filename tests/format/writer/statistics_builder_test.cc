#include "format/writer/statistics_builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "format/writer/page_index_builder.h"

namespace pq {
namespace {

template <typename T>
std::string Plain(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}

ByteArray BA(const std::string& s) {
  return ByteArray{reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())};
}

template <typename T>
ValueStatistics Build(SortOrder order, const std::vector<T>& values, int64_t nulls = 0) {
  StatisticsBuilder<T> b(order);
  // In two batches, so bounds carry across Update calls.
  const int64_t half = static_cast<int64_t>(values.size()) / 2;
  b.Update(values.data(), half);
  b.Update(values.data() + half, static_cast<int64_t>(values.size()) - half);
  b.AddNulls(nulls);
  return b.Take();
}

ValueStatistics BuildBytes(SortOrder order, const std::vector<std::string>& values) {
  std::vector<ByteArray> arrays;
  for (const auto& s : values) arrays.push_back(BA(s));
  return Build(order, arrays);
}

TEST(StatisticsBuilderTest, SignedAndUnsignedIntegers) {
  std::vector<int32_t> v = {5, -3, 7, 0, -1, 2};
  ValueStatistics s = Build(SortOrder::kSignedInt, v, 4);
  EXPECT_TRUE(s.has_min_max);
  EXPECT_EQ(s.min, Plain<int32_t>(-3));
  EXPECT_EQ(s.max, Plain<int32_t>(7));
  EXPECT_EQ(s.null_count, 4);
  EXPECT_EQ(s.value_count, 6);
  // UINT_32: -1 is 0xFFFFFFFF, the largest; 0 the smallest.
  ValueStatistics u = Build(SortOrder::kUnsignedInt, v);
  EXPECT_EQ(u.min, Plain<int32_t>(0));
  EXPECT_EQ(u.max, Plain<int32_t>(-1));
  std::vector<int64_t> w = {INT64_MIN, 3, INT64_MAX, -1};
  EXPECT_EQ(Build(SortOrder::kSignedInt, w).min, Plain<int64_t>(INT64_MIN));
  EXPECT_EQ(Build(SortOrder::kSignedInt, w).max, Plain<int64_t>(INT64_MAX));
  EXPECT_EQ(Build(SortOrder::kUnsignedInt, w).min, Plain<int64_t>(3));
  EXPECT_EQ(Build(SortOrder::kUnsignedInt, w).max, Plain<int64_t>(-1));
}

TEST(StatisticsBuilderTest, RandomIntegersAgreeWithSorting) {
  std::mt19937_64 rng(99);
  for (int round = 0; round < 50; ++round) {
    std::vector<int64_t> v(1 + rng() % 300);
    for (auto& x : v) x = static_cast<int64_t>(rng());
    ValueStatistics s = Build(SortOrder::kSignedInt, v);
    EXPECT_EQ(s.min, Plain(*std::min_element(v.begin(), v.end())));
    EXPECT_EQ(s.max, Plain(*std::max_element(v.begin(), v.end())));
    std::vector<uint64_t> u(v.begin(), v.end());
    ValueStatistics us = Build(SortOrder::kUnsignedInt, v);
    EXPECT_EQ(us.min, Plain(*std::min_element(u.begin(), u.end())));
    EXPECT_EQ(us.max, Plain(*std::max_element(u.begin(), u.end())));
  }
}

TEST(StatisticsBuilderTest, FloatsLeaveNaNOutAndNormalizeZeros) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ValueStatistics s = Build(SortOrder::kFloat, std::vector<double>{nan, 2.5, -1.5, nan, 1.0});
  EXPECT_EQ(s.nan_count, 2);
  EXPECT_EQ(s.min, Plain(-1.5));
  EXPECT_EQ(s.max, Plain(2.5));
  // A zero min is written as -0.0, a zero max as +0.0, whichever zero was seen.
  ValueStatistics z = Build(SortOrder::kFloat, std::vector<double>{0.0, 0.0, 3.0});
  EXPECT_EQ(z.min, Plain(-0.0));
  ValueStatistics z2 = Build(SortOrder::kFloat, std::vector<float>{-0.0f, -2.0f});
  EXPECT_EQ(z2.max, Plain(0.0f));
  EXPECT_EQ(z2.min, Plain(-2.0f));
  ValueStatistics z3 = Build(SortOrder::kFloat, std::vector<float>{0.0f, -0.0f});
  EXPECT_EQ(z3.min, Plain(-0.0f));
  EXPECT_EQ(z3.max, Plain(0.0f));
  // Only NaNs: no bounds, but counted.
  ValueStatistics n = Build(SortOrder::kFloat, std::vector<float>{std::nanf(""), std::nanf("")});
  EXPECT_FALSE(n.has_min_max);
  EXPECT_EQ(n.nan_count, 2);
  EXPECT_EQ(n.value_count, 2);
  // Infinities are ordinary bounds.
  const double inf = std::numeric_limits<double>::infinity();
  ValueStatistics i = Build(SortOrder::kFloat, std::vector<double>{inf, -inf, nan});
  EXPECT_EQ(i.min, Plain(-inf));
  EXPECT_EQ(i.max, Plain(inf));
}

TEST(StatisticsBuilderTest, BooleansAndInt96) {
  ValueStatistics b = Build(SortOrder::kBoolean, std::vector<uint8_t>{1, 1, 1});
  EXPECT_EQ(b.min, std::string(1, '\1'));
  EXPECT_EQ(b.max, std::string(1, '\1'));
  ValueStatistics b2 = Build(SortOrder::kBoolean, std::vector<uint8_t>{1, 0});
  EXPECT_EQ(b2.min, std::string(1, '\0'));
  EXPECT_EQ(b2.max, std::string(1, '\1'));
  ValueStatistics i96 = Build(SortOrder::kNone, std::vector<Int96>(3));
  EXPECT_FALSE(i96.has_min_max);
  EXPECT_EQ(i96.value_count, 3);
}

TEST(StatisticsBuilderTest, ByteArraysCompareUnsignedAndDecimalsSigned) {
  ValueStatistics s = BuildBytes(SortOrder::kUnsignedBytes, {"b", "\xff", "a", "", "ab"});
  EXPECT_EQ(s.min, "");
  EXPECT_EQ(s.max, "\xff");
  // Big-endian two's complement: 0xff = -1 < 0x00 = 0 < 0x7f; 0x0100 = 256 > 0x7f; 0xff00 = -256.
  ValueStatistics d =
      BuildBytes(SortOrder::kSignedDecimalBytes,
                 {std::string("\x7f"), std::string("\xff"), std::string("\x01\x00", 2),
                  std::string("\xff\x00", 2), std::string("\x00", 1)});
  EXPECT_EQ(d.min, std::string("\xff\x00", 2));
  EXPECT_EQ(d.max, std::string("\x01\x00", 2));
}

TEST(StatisticsBuilderTest, Float16ByValue) {
  // Halves: 0x3c00 = 1.0, 0xc000 = -2.0, 0x7e00 = NaN, 0x0000 = +0, 0x8000 = -0.
  auto half = [](uint16_t bits) {
    return std::string{static_cast<char>(bits & 0xff), static_cast<char>(bits >> 8)};
  };
  ValueStatistics s = BuildBytes(SortOrder::kFloat16, {half(0x3c00), half(0xc000), half(0x7e00)});
  EXPECT_EQ(s.min, half(0xc000));
  EXPECT_EQ(s.max, half(0x3c00));
  EXPECT_EQ(s.nan_count, 1);
  ValueStatistics z = BuildBytes(SortOrder::kFloat16, {half(0x0000), half(0x0000)});
  EXPECT_EQ(z.min, half(0x8000));
  EXPECT_EQ(z.max, half(0x0000));
}

TEST(StatisticsBuilderTest, CompareStatValuesByOrder) {
  EXPECT_LT(CompareStatValues(SortOrder::kSignedInt, PhysicalType::kInt32, Plain<int32_t>(-1),
                              Plain<int32_t>(1)),
            0);
  EXPECT_GT(CompareStatValues(SortOrder::kUnsignedInt, PhysicalType::kInt32, Plain<int32_t>(-1),
                              Plain<int32_t>(1)),
            0);
  EXPECT_LT(CompareStatValues(SortOrder::kSignedInt, PhysicalType::kInt64, Plain<int64_t>(-5),
                              Plain<int64_t>(4)),
            0);
  EXPECT_EQ(CompareStatValues(SortOrder::kFloat, PhysicalType::kDouble, Plain(-0.0), Plain(0.0)),
            0);
  EXPECT_LT(CompareStatValues(SortOrder::kFloat, PhysicalType::kFloat, Plain(-2.0f), Plain(1.0f)),
            0);
  EXPECT_LT(CompareStatValues(SortOrder::kUnsignedBytes, PhysicalType::kByteArray, "a", "\x80"), 0);
  EXPECT_LT(CompareStatValues(SortOrder::kUnsignedBytes, PhysicalType::kByteArray, "ab", "abc"), 0);
  EXPECT_LT(
      CompareStatValues(SortOrder::kSignedDecimalBytes, PhysicalType::kByteArray, "\x80", "\x01"),
      0);
  EXPECT_EQ(CompareStatValues(SortOrder::kSignedDecimalBytes, PhysicalType::kByteArray,
                              std::string("\xff\xff", 2), "\xff"),
            0);
  EXPECT_EQ(CompareStatValues(SortOrder::kSignedDecimalBytes, PhysicalType::kByteArray,
                              std::string("\x00\x05", 2), "\x05"),
            0);
  EXPECT_LT(
      CompareStatValues(SortOrder::kBoolean, PhysicalType::kBoolean, std::string(1, '\0'), "\1"),
      0);
  // Short values never read past their end.
  EXPECT_NE(CompareStatValues(SortOrder::kSignedInt, PhysicalType::kInt64, "ab", "abc"), 0);
}

TEST(StatisticsBuilderTest, MergeKeepsTheOuterBounds) {
  ValueStatistics a = Build(SortOrder::kSignedInt, std::vector<int32_t>{3, 9}, 1);
  ValueStatistics b = Build(SortOrder::kSignedInt, std::vector<int32_t>{-4, 5}, 2);
  ValueStatistics none;
  none.null_count = 7;
  ValueStatistics m;
  m.Merge(none, SortOrder::kSignedInt, PhysicalType::kInt32);
  EXPECT_FALSE(m.has_min_max);
  m.Merge(a, SortOrder::kSignedInt, PhysicalType::kInt32);
  m.Merge(b, SortOrder::kSignedInt, PhysicalType::kInt32);
  EXPECT_EQ(m.min, Plain<int32_t>(-4));
  EXPECT_EQ(m.max, Plain<int32_t>(9));
  EXPECT_EQ(m.null_count, 10);
  EXPECT_EQ(m.value_count, 4);
}

TEST(StatisticsTruncationTest, BinaryPrefixAndIncrement) {
  EXPECT_EQ(TruncateMin("abcdef", 4, false), "abcd");
  EXPECT_EQ(TruncateMin("abc", 4, false), "abc");
  EXPECT_EQ(TruncateMax("abcdef", 4, false), std::optional<std::string>("abce"));
  EXPECT_EQ(TruncateMax("abc", 4, false), std::optional<std::string>("abc"));
  EXPECT_EQ(TruncateMax(std::string("ab\xff\xff"
                                    "cd"),
                        4, false),
            std::optional<std::string>("ac"));
  EXPECT_EQ(TruncateMax(std::string("\xff\xff\xff\xff\x01"), 4, false), std::nullopt);
}

TEST(StatisticsTruncationTest, Utf8CutsAndIncrementsWholeCharacters) {
  // "aé€😀" = 61 | c3 a9 | e2 82 ac | f0 9f 98 80 (10 bytes).
  const std::string s = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
  EXPECT_EQ(TruncateMin(s, 2, true), "a");  // not half of é
  EXPECT_EQ(TruncateMin(s, 3, true), "a\xc3\xa9");
  EXPECT_EQ(TruncateMin(s, 5, true), "a\xc3\xa9");  // not 2/3 of €
  EXPECT_EQ(TruncateMax(s, 2, true), std::optional<std::string>("b"));
  EXPECT_EQ(TruncateMax(s, 4, true), std::optional<std::string>("a\xc3\xaa"));  // é -> ê
  EXPECT_EQ(TruncateMax(s, 6, true), std::optional<std::string>("a\xc3\xa9\xe2\x82\xad"));
  // U+007F + 1 = U+0080 takes two bytes; U+D7FF + 1 skips the surrogates to U+E000.
  EXPECT_EQ(TruncateMax("\x7f\x7f", 1, true), std::optional<std::string>("\xc2\x80"));
  EXPECT_EQ(TruncateMax("\xed\x9f\xbf"
                        "zz",
                        3, true),
            std::optional<std::string>("\xee\x80\x80"));
  // U+10FFFF cannot be incremented: the character before it is.
  const std::string max_cp = "\xf4\x8f\xbf\xbf";
  EXPECT_EQ(TruncateMax("a" + max_cp + "zz", 5, true), std::optional<std::string>("b"));
  EXPECT_EQ(TruncateMax(max_cp + max_cp + "z", 8, true), std::nullopt);
  // Every result is a bound of the value, for many random UTF-8 strings.
  std::mt19937 rng(5);
  const std::vector<std::string> pieces = {"a",
                                           "z",
                                           "\x7f",
                                           "\xc3\xa9",
                                           "\xdf\xbf",
                                           "\xe2\x82\xac",
                                           "\xef\xbf\xbf",
                                           "\xf0\x9f\x98\x80",
                                           "\xf4\x8f\xbf\xbf"};
  for (int round = 0; round < 2000; ++round) {
    std::string v;
    const size_t n = rng() % 12;
    for (size_t i = 0; i < n; ++i) v += pieces[rng() % pieces.size()];
    const size_t limit = 1 + rng() % 10;
    const std::string lo = TruncateMin(v, limit, true);
    EXPECT_LE(lo.size(), limit);
    EXPECT_LE(lo, v);
    std::optional<std::string> hi = TruncateMax(v, limit, true);
    if (hi) {
      EXPECT_LE(hi->size(), limit + 3);
      EXPECT_GE(*hi, v);  // std::string compares bytes as unsigned char
    }
  }
}

TEST(StatisticsTruncationTest, ThriftStatisticsFlagsTruncationAndLegacyFields) {
  StatisticsFormat f;
  f.order = SortOrder::kUnsignedBytes;
  f.type = PhysicalType::kByteArray;
  f.truncate_bytes = 4;
  ValueStatistics s;
  s.null_count = 2;
  s.value_count = 5;
  s.has_min_max = true;
  s.min = "abcdef";
  s.max = "xyz";
  Statistics t = ToThriftStatistics(s, f);
  EXPECT_EQ(t.null_count, 2);
  EXPECT_EQ(t.min_value, "abcd");
  EXPECT_EQ(t.is_min_value_exact, false);
  EXPECT_EQ(t.max_value, "xyz");
  EXPECT_EQ(t.is_max_value_exact, true);
  EXPECT_FALSE(t.min.has_value());  // byte arrays: no legacy fields
  EXPECT_FALSE(t.nan_count.has_value());
  // A max that cannot be incremented is left out.
  s.max = "\xff\xff\xff\xff\xff";
  t = ToThriftStatistics(s, f);
  EXPECT_FALSE(t.max_value.has_value());
  EXPECT_TRUE(t.min_value.has_value());
  // Signed integers get the legacy fields too; unsigned do not.
  StatisticsFormat i;
  i.order = SortOrder::kSignedInt;
  i.type = PhysicalType::kInt32;
  ValueStatistics is = Build(SortOrder::kSignedInt, std::vector<int32_t>{1, 2});
  t = ToThriftStatistics(is, i);
  EXPECT_EQ(t.min, Plain<int32_t>(1));
  EXPECT_EQ(t.max, Plain<int32_t>(2));
  EXPECT_EQ(t.min_value, t.min);
  i.order = SortOrder::kUnsignedInt;
  t = ToThriftStatistics(is, i);
  EXPECT_FALSE(t.min.has_value());
  EXPECT_TRUE(t.min_value.has_value());
  // Floating columns always state their NaN count; no order -> no bounds.
  StatisticsFormat d;
  d.order = SortOrder::kFloat;
  d.type = PhysicalType::kDouble;
  d.floating = true;
  t = ToThriftStatistics(Build(SortOrder::kFloat, std::vector<double>{std::nan("")}), d);
  EXPECT_EQ(t.nan_count, 1);
  EXPECT_FALSE(t.min_value.has_value());
  d.order = SortOrder::kNone;
  t = ToThriftStatistics(Build(SortOrder::kFloat, std::vector<double>{1.0}), d);
  EXPECT_FALSE(t.min_value.has_value());
  EXPECT_EQ(t.null_count, 0);
}

ValueStatistics PageOf(std::vector<int32_t> v, int64_t nulls = 0) {
  return Build(SortOrder::kSignedInt, v, nulls);
}

StatisticsFormat IntFormat() {
  StatisticsFormat f;
  f.order = SortOrder::kSignedInt;
  f.type = PhysicalType::kInt32;
  return f;
}

TEST(ColumnIndexBuilderTest, BoundaryOrderSkipsNullPages) {
  ColumnIndexBuilder asc(IntFormat(), 1, 0);
  asc.AddPage(PageOf({1, 3}), {0, 2}, {});
  asc.AddPage(PageOf({}, 4), {4, 0}, {});
  asc.AddPage(PageOf({3, 8}, 1), {1, 2}, {});
  std::optional<ColumnIndex> ci = asc.Finish();
  ASSERT_TRUE(ci);
  EXPECT_EQ(ci->boundary_order, BoundaryOrder::kAscending);
  EXPECT_EQ(ci->null_pages, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(ci->min_values[1], "");
  EXPECT_EQ(ci->max_values[1], "");
  EXPECT_EQ(ci->min_values[2], Plain<int32_t>(3));
  EXPECT_EQ(*ci->null_counts, (std::vector<int64_t>{0, 4, 1}));
  EXPECT_EQ(ci->definition_level_histograms, (std::vector<int64_t>{0, 2, 4, 0, 1, 2}));
  EXPECT_TRUE(ci->repetition_level_histograms.empty());
  EXPECT_FALSE(ci->nan_counts.has_value());

  ColumnIndexBuilder desc(IntFormat(), 0, 0);
  desc.AddPage(PageOf({9, 7}), {}, {});
  desc.AddPage(PageOf({7, 7}), {}, {});
  desc.AddPage(PageOf({-2, 0}), {}, {});
  EXPECT_EQ(desc.Finish()->boundary_order, BoundaryOrder::kDescending);

  ColumnIndexBuilder mixed(IntFormat(), 0, 0);
  mixed.AddPage(PageOf({1, 5}), {}, {});
  mixed.AddPage(PageOf({2, 4}), {}, {});  // min up, max down
  EXPECT_EQ(mixed.Finish()->boundary_order, BoundaryOrder::kUnordered);

  ColumnIndexBuilder one(IntFormat(), 0, 0);
  one.AddPage(PageOf({1}), {}, {});
  EXPECT_EQ(one.Finish()->boundary_order, BoundaryOrder::kAscending);
}

TEST(ColumnIndexBuilderTest, NoIndexWithoutOrderOrForAllNaNPages) {
  StatisticsFormat none;
  none.order = SortOrder::kNone;
  none.type = PhysicalType::kInt96;
  ColumnIndexBuilder b(none, 0, 0);
  b.AddPage(Build(SortOrder::kNone, std::vector<Int96>(2)), {}, {});
  EXPECT_FALSE(b.Finish().has_value());

  StatisticsFormat d;
  d.order = SortOrder::kFloat;
  d.type = PhysicalType::kDouble;
  d.floating = true;
  ColumnIndexBuilder ok(d, 1, 0);
  ok.AddPage(Build(SortOrder::kFloat, std::vector<double>{1.0, std::nan("")}), {0, 2}, {});
  ok.AddPage(Build(SortOrder::kFloat, std::vector<double>{}, 3), {3, 0}, {});  // all null: fine
  std::optional<ColumnIndex> ci = ok.Finish();
  ASSERT_TRUE(ci);
  EXPECT_EQ(*ci->nan_counts, (std::vector<int64_t>{1, 0}));
  ok.AddPage(Build(SortOrder::kFloat, std::vector<double>{std::nan(""), std::nan("")}), {0, 2}, {});
  EXPECT_FALSE(ok.Finish().has_value());
}

TEST(ColumnIndexBuilderTest, TruncatesByteArrayBoundsButKeepsAnUnincrementableMax) {
  StatisticsFormat f;
  f.order = SortOrder::kUnsignedBytes;
  f.type = PhysicalType::kByteArray;
  f.truncate_bytes = 3;
  ColumnIndexBuilder b(f, 0, 0);
  b.AddPage(BuildBytes(SortOrder::kUnsignedBytes, {"apple", "banana"}), {}, {});
  b.AddPage(BuildBytes(SortOrder::kUnsignedBytes, {"cherry", "\xff\xff\xff\xff"}), {}, {});
  std::optional<ColumnIndex> ci = b.Finish();
  ASSERT_TRUE(ci);
  EXPECT_EQ(ci->min_values, (std::vector<std::string>{"app", "che"}));
  EXPECT_EQ(ci->max_values, (std::vector<std::string>{"bao", "\xff\xff\xff\xff"}));
  EXPECT_EQ(ci->boundary_order, BoundaryOrder::kAscending);
}

TEST(OffsetIndexBuilderTest, ShiftMovesEveryPage) {
  OffsetIndexBuilder b;
  b.AddPage(0, 100, 0, 40);
  b.AddPage(100, 50, 10, 7);
  b.Shift(4);
  ASSERT_EQ(b.index().page_locations.size(), 2u);
  EXPECT_EQ(b.index().page_locations[0].offset, 4);
  EXPECT_EQ(b.index().page_locations[1].offset, 104);
  EXPECT_EQ(b.index().page_locations[1].compressed_page_size, 50);
  EXPECT_EQ(b.index().page_locations[1].first_row_index, 10);
  EXPECT_EQ(b.index().unencoded_byte_array_data_bytes, (std::vector<int64_t>{40, 7}));
}

}  // namespace
}  // namespace pq

namespace pq {
namespace {

SchemaElement El(const std::string& name, std::optional<PhysicalType> type,
                 std::optional<LogicalType> logical = std::nullopt,
                 std::optional<ConvertedType> converted = std::nullopt, int32_t type_length = 0) {
  SchemaElement e;
  e.name = name;
  e.type = type;
  e.repetition_type = Repetition::kOptional;
  e.logical_type = logical;
  e.converted_type = converted;
  if (type_length > 0) e.type_length = type_length;
  return e;
}

LogicalType Lt(LogicalType::Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

TEST(SortOrderTest, EachTypeGetsItsOrder) {
  using K = LogicalType::Kind;
  LogicalType u16 = Lt(K::kInteger);
  u16.bit_width = 16;
  u16.is_signed = false;
  LogicalType i8 = Lt(K::kInteger);
  i8.bit_width = 8;
  struct Case {
    SchemaElement element;
    SortOrder order;
    bool utf8;
  };
  const std::vector<Case> cases = {
      {El("bool", PhysicalType::kBoolean), SortOrder::kBoolean, false},
      {El("i32", PhysicalType::kInt32), SortOrder::kSignedInt, false},
      {El("i8", PhysicalType::kInt32, i8), SortOrder::kSignedInt, false},
      {El("u16", PhysicalType::kInt32, u16), SortOrder::kUnsignedInt, false},
      {El("u64_legacy", PhysicalType::kInt64, std::nullopt, ConvertedType::kUint64),
       SortOrder::kUnsignedInt, false},
      {El("date", PhysicalType::kInt32, Lt(K::kDate)), SortOrder::kSignedInt, false},
      {El("i96", PhysicalType::kInt96), SortOrder::kNone, false},
      {El("f", PhysicalType::kFloat), SortOrder::kFloat, false},
      {El("d", PhysicalType::kDouble), SortOrder::kFloat, false},
      {El("bin", PhysicalType::kByteArray), SortOrder::kUnsignedBytes, false},
      {El("str", PhysicalType::kByteArray, Lt(K::kString)), SortOrder::kUnsignedBytes, true},
      {El("utf8_legacy", PhysicalType::kByteArray, std::nullopt, ConvertedType::kUtf8),
       SortOrder::kUnsignedBytes, true},
      {El("json", PhysicalType::kByteArray, Lt(K::kJson)), SortOrder::kUnsignedBytes, true},
      {El("bson", PhysicalType::kByteArray, Lt(K::kBson)), SortOrder::kUnsignedBytes, false},
      {El("uuid", PhysicalType::kFixedLenByteArray, Lt(K::kUuid), std::nullopt, 16),
       SortOrder::kUnsignedBytes, false},
      {El("half", PhysicalType::kFixedLenByteArray, Lt(K::kFloat16), std::nullopt, 2),
       SortOrder::kFloat16, false},
      {El("dec_flba", PhysicalType::kFixedLenByteArray, std::nullopt, ConvertedType::kDecimal, 8),
       SortOrder::kSignedDecimalBytes, false},
      {El("interval", PhysicalType::kFixedLenByteArray, std::nullopt, ConvertedType::kInterval, 12),
       SortOrder::kNone, false},
      {El("geo", PhysicalType::kByteArray, Lt(K::kGeometry)), SortOrder::kNone, false},
      {El("null", PhysicalType::kInt32, Lt(K::kUnknown)), SortOrder::kNone, false},
  };
  std::vector<SchemaElement> elements;
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<int32_t>(cases.size());
  elements.push_back(root);
  for (const Case& c : cases) {
    elements.push_back(c.element);
    if (c.element.converted_type == ConvertedType::kDecimal) {
      elements.back().precision = 10;
      elements.back().scale = 2;
    }
  }
  auto schema = Schema::Make(elements);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  for (size_t i = 0; i < cases.size(); ++i) {
    const SchemaNode& leaf = (*schema)->leaf(static_cast<int>(i));
    EXPECT_EQ(ColumnSortOrder(leaf), cases[i].order) << leaf.name;
    EXPECT_EQ(StatisticsAreUtf8(leaf), cases[i].utf8) << leaf.name;
  }
}

}  // namespace
}  // namespace pq
