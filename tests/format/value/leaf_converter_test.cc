#include "format/value/leaf_converter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "format/schema/schema.h"
#include "format/util/json_writer.h"
#include "format/value/decimal.h"
#include "format/value/temporal.h"

namespace pq {
namespace {

using Kind = LeafConverter::Kind;
using LK = LogicalType::Kind;

SchemaNode Leaf(PhysicalType physical, LogicalType logical = {}, int32_t type_length = 0) {
  SchemaNode node;
  node.name = "c";
  node.is_leaf = true;
  node.physical_type = physical;
  node.type_length = type_length;
  node.logical_type = logical;
  return node;
}

SchemaNode LegacyLeaf(PhysicalType physical, ConvertedType converted, int32_t type_length = 0) {
  SchemaNode node = Leaf(physical, {}, type_length);
  node.converted_type = converted;
  return node;
}

LogicalType Logical(LK kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}
LogicalType Integer(int bits, bool is_signed) {
  LogicalType t = Logical(LK::kInteger);
  t.bit_width = static_cast<int8_t>(bits);
  t.is_signed = is_signed;
  return t;
}
LogicalType Decimal(int precision, int scale) {
  LogicalType t = Logical(LK::kDecimal);
  t.decimal_precision = precision;
  t.decimal_scale = scale;
  return t;
}
LogicalType Temporal(LK kind, TimeUnit unit, bool utc = true) {
  LogicalType t = Logical(kind);
  t.unit = unit;
  t.is_adjusted_to_utc = utc;
  return t;
}

LeafConverter Make(const SchemaNode& node, ValueOptions options = {}) {
  auto c = LeafConverter::Make(node, options);
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  return *std::move(c);
}

ByteArray Bytes(const std::string& s) {
  return ByteArray{reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())};
}

std::string Hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

Int96 MakeInt96(int64_t nanos_of_day, int32_t julian_day) {
  Int96 v;
  v.value[0] = static_cast<uint32_t>(static_cast<uint64_t>(nanos_of_day));
  v.value[1] = static_cast<uint32_t>(static_cast<uint64_t>(nanos_of_day) >> 32);
  v.value[2] = static_cast<uint32_t>(julian_day);
  return v;
}

template <typename T>
std::string Json(const LeafConverter& c, T v) {
  std::string out;
  c.AppendJson(v, &out);
  return out;
}

// Assertions on cells.
void ExpectInteger(const Cell& c, int64_t v) {
  EXPECT_EQ(c.type, CellType::kInteger);
  EXPECT_EQ(c.i, v);
}
void ExpectReal(const Cell& c, double v) {
  EXPECT_EQ(c.type, CellType::kReal);
  EXPECT_EQ(c.d, v);
}
void ExpectText(const Cell& c, std::string_view v) {
  EXPECT_EQ(c.type, CellType::kText);
  EXPECT_EQ(c.bytes, v);
}
void ExpectBlob(const Cell& c, std::string_view v) {
  EXPECT_EQ(c.type, CellType::kBlob);
  EXPECT_EQ(c.bytes, v);
}
void ExpectNull(const Cell& c) {
  EXPECT_EQ(c.type, CellType::kNull);
}

class LeafConverterTest : public ::testing::Test {
 protected:
  std::string scratch_;
};

TEST_F(LeafConverterTest, Boolean) {
  auto c = Make(Leaf(PhysicalType::kBoolean));
  EXPECT_EQ(c.declared_type(), "INTEGER");
  ExpectInteger(c.Convert(uint8_t{1}, &scratch_), 1);
  ExpectInteger(c.Convert(uint8_t{0}, &scratch_), 0);
  EXPECT_EQ(Json(c, uint8_t{1}), "true");
  EXPECT_EQ(Json(c, uint8_t{0}), "false");
}

TEST_F(LeafConverterTest, PlainAndSignedIntegers) {
  for (const SchemaNode& node :
       {Leaf(PhysicalType::kInt32), Leaf(PhysicalType::kInt32, Integer(8, true)),
        Leaf(PhysicalType::kInt32, Integer(16, true)),
        Leaf(PhysicalType::kInt32, Integer(32, true)),
        LegacyLeaf(PhysicalType::kInt32, ConvertedType::kInt8),
        LegacyLeaf(PhysicalType::kInt32, ConvertedType::kInt16),
        LegacyLeaf(PhysicalType::kInt32, ConvertedType::kInt32)}) {
    auto c = Make(node);
    EXPECT_EQ(c.kind(), Kind::kInteger);
    EXPECT_EQ(c.declared_type(), "INTEGER");
    ExpectInteger(c.Convert(int32_t{-7}, &scratch_), -7);
    ExpectInteger(c.Convert(std::numeric_limits<int32_t>::min(), &scratch_), INT32_MIN);
    EXPECT_EQ(Json(c, int32_t{-7}), "-7");
  }
  for (const SchemaNode& node :
       {Leaf(PhysicalType::kInt64), Leaf(PhysicalType::kInt64, Integer(64, true)),
        LegacyLeaf(PhysicalType::kInt64, ConvertedType::kInt64)}) {
    auto c = Make(node);
    EXPECT_EQ(c.declared_type(), "INTEGER");
    ExpectInteger(c.Convert(std::numeric_limits<int64_t>::min(), &scratch_), INT64_MIN);
    EXPECT_EQ(Json(c, std::numeric_limits<int64_t>::max()), "9223372036854775807");
  }
}

TEST_F(LeafConverterTest, UnsignedIntegersUpTo32Bits) {
  for (const SchemaNode& node : {Leaf(PhysicalType::kInt32, Integer(8, false)),
                                 Leaf(PhysicalType::kInt32, Integer(16, false)),
                                 Leaf(PhysicalType::kInt32, Integer(32, false)),
                                 LegacyLeaf(PhysicalType::kInt32, ConvertedType::kUint8),
                                 LegacyLeaf(PhysicalType::kInt32, ConvertedType::kUint16),
                                 LegacyLeaf(PhysicalType::kInt32, ConvertedType::kUint32)}) {
    auto c = Make(node);
    EXPECT_EQ(c.kind(), Kind::kUInt32);
    EXPECT_EQ(c.declared_type(), "INTEGER");
    ExpectInteger(c.Convert(int32_t{200}, &scratch_), 200);
    ExpectInteger(c.Convert(int32_t{-1}, &scratch_), 4294967295);
    EXPECT_EQ(Json(c, int32_t{-1}), "4294967295");
  }
}

TEST_F(LeafConverterTest, Uint64AboveInt64MaxIsReal) {
  for (const SchemaNode& node : {Leaf(PhysicalType::kInt64, Integer(64, false)),
                                 LegacyLeaf(PhysicalType::kInt64, ConvertedType::kUint64)}) {
    auto c = Make(node);
    EXPECT_EQ(c.declared_type(), "INTEGER");
    ExpectInteger(c.Convert(int64_t{5}, &scratch_), 5);
    ExpectInteger(c.Convert(std::numeric_limits<int64_t>::max(), &scratch_), INT64_MAX);
    ExpectReal(c.Convert(int64_t{-1}, &scratch_), 18446744073709551615.0);
    ExpectReal(c.Convert(std::numeric_limits<int64_t>::min(), &scratch_), 9223372036854775808.0);
    EXPECT_EQ(Json(c, int64_t{-1}), "18446744073709551615");
    EXPECT_EQ(Json(c, std::numeric_limits<int64_t>::min()), "9223372036854775808");
  }
}

TEST_F(LeafConverterTest, FloatsAndDoubles) {
  auto f = Make(Leaf(PhysicalType::kFloat));
  auto d = Make(Leaf(PhysicalType::kDouble));
  EXPECT_EQ(f.declared_type(), "REAL");
  EXPECT_EQ(d.declared_type(), "REAL");
  ExpectReal(f.Convert(1.5f, &scratch_), 1.5);
  ExpectReal(f.Convert(0.1f, &scratch_), static_cast<double>(0.1f));
  ExpectReal(d.Convert(0.1, &scratch_), 0.1);
  ExpectNull(f.Convert(std::numeric_limits<float>::quiet_NaN(), &scratch_));
  ExpectNull(d.Convert(std::numeric_limits<double>::quiet_NaN(), &scratch_));
  ExpectReal(d.Convert(-INFINITY, &scratch_), -INFINITY);
  ExpectReal(f.Convert(INFINITY, &scratch_), INFINITY);
  const Cell negative_zero = d.Convert(-0.0, &scratch_);
  ExpectReal(negative_zero, 0.0);
  EXPECT_TRUE(std::signbit(negative_zero.d));
  EXPECT_EQ(Json(d, 2.0), "2.0");
  EXPECT_EQ(Json(d, 0.1), "0.1");
  EXPECT_EQ(Json(d, std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(Json(d, INFINITY), "9e999");  // SQLite's JSON functions read it as Inf
  EXPECT_EQ(Json(f, 0.5f), "0.5");
  EXPECT_EQ(Json(f, -INFINITY), "-9e999");
}

TEST_F(LeafConverterTest, Float16) {
  auto c = Make(Leaf(PhysicalType::kFixedLenByteArray, Logical(LK::kFloat16), 2));
  EXPECT_EQ(c.kind(), Kind::kFloat16);
  EXPECT_EQ(c.declared_type(), "REAL");
  ExpectReal(c.Convert(Bytes(Hex("003c")), &scratch_), 1.0);
  ExpectReal(c.Convert(Bytes(Hex("0000")), &scratch_), 0.0);
  const Cell negative_zero = c.Convert(Bytes(Hex("0080")), &scratch_);
  ExpectReal(negative_zero, 0.0);
  EXPECT_TRUE(std::signbit(negative_zero.d));
  ExpectReal(c.Convert(Bytes(Hex("ff7b")), &scratch_), 65504.0);
  ExpectReal(c.Convert(Bytes(Hex("0100")), &scratch_), std::ldexp(1.0, -24));
  ExpectReal(c.Convert(Bytes(Hex("007c")), &scratch_), INFINITY);
  ExpectReal(c.Convert(Bytes(Hex("00fc")), &scratch_), -INFINITY);
  ExpectNull(c.Convert(Bytes(Hex("007e")), &scratch_));
  EXPECT_EQ(Json(c, Bytes(Hex("0038"))), "0.5");
  EXPECT_EQ(Json(c, Bytes(Hex("007e"))), "null");
  EXPECT_EQ(Json(c, Bytes(Hex("007c"))), "9e999");
  EXPECT_EQ(Json(c, Bytes(Hex("00fc"))), "-9e999");
}

TEST_F(LeafConverterTest, DecimalOnInt32AndInt64) {
  auto real32 = Make(Leaf(PhysicalType::kInt32, Decimal(9, 2)));
  EXPECT_EQ(real32.declared_type(), "REAL");
  ExpectReal(real32.Convert(int32_t{12340}, &scratch_), 123.4);
  ExpectReal(real32.Convert(int32_t{-5}, &scratch_), -0.05);
  EXPECT_EQ(Json(real32, int32_t{12340}), "123.40");
  ValueOptions text;
  text.decimal = ValueOptions::Decimal::kText;
  auto text32 = Make(Leaf(PhysicalType::kInt32, Decimal(9, 2)), text);
  EXPECT_EQ(text32.declared_type(), "TEXT");
  ExpectText(text32.Convert(int32_t{12340}, &scratch_), "123.40");
  ExpectText(text32.Convert(int32_t{-5}, &scratch_), "-0.05");
  EXPECT_EQ(Json(text32, int32_t{-5}), "-0.05");  // a JSON number in both modes
  auto text64 = Make(Leaf(PhysicalType::kInt64, Decimal(18, 0)), text);
  ExpectText(text64.Convert(int64_t{0}, &scratch_), "0");
  ExpectText(text64.Convert(std::numeric_limits<int64_t>::min(), &scratch_),
             "-9223372036854775808");
  // By default a precision above 15 reads as exact TEXT (a double cannot hold every such value);
  // decimal=real asks for the REAL.
  auto auto64 = Make(Leaf(PhysicalType::kInt64, Decimal(18, 4)));
  EXPECT_EQ(auto64.declared_type(), "TEXT");
  ExpectText(auto64.Convert(int64_t{-123456789}, &scratch_), "-12345.6789");
  ValueOptions real;
  real.decimal = ValueOptions::Decimal::kReal;
  auto real64 = Make(Leaf(PhysicalType::kInt64, Decimal(18, 4)), real);
  ExpectReal(real64.Convert(int64_t{-123456789}, &scratch_), -12345.6789);
  EXPECT_EQ(Json(real64, int64_t{-123456789}), "-12345.6789");
}

TEST_F(LeafConverterTest, DecimalOnByteArrays) {
  ValueOptions text;
  text.decimal = ValueOptions::Decimal::kText;
  ValueOptions real;
  real.decimal = ValueOptions::Decimal::kReal;
  const std::string v16 = Hex("f6b64f090ffdccec3bb66faf21c70cb2");
  EXPECT_EQ(Make(Leaf(PhysicalType::kFixedLenByteArray, Decimal(38, 10), 16)).declared_type(),
            "TEXT");  // the default above precision 15
  auto flba = Make(Leaf(PhysicalType::kFixedLenByteArray, Decimal(38, 10), 16), real);
  EXPECT_EQ(flba.declared_type(), "REAL");
  ExpectReal(flba.Convert(Bytes(v16), &scratch_), -1.2345678901234569e+27);
  EXPECT_EQ(Json(flba, Bytes(v16)), "-1234567890123456789012345678.9012345678");
  auto flba_text = Make(Leaf(PhysicalType::kFixedLenByteArray, Decimal(38, 10), 16), text);
  ExpectText(flba_text.Convert(Bytes(v16), &scratch_), "-1234567890123456789012345678.9012345678");
  auto ba = Make(Leaf(PhysicalType::kByteArray, Decimal(10, 2)), text);
  ExpectText(ba.Convert(Bytes(""), &scratch_), "0.00");  // empty BYTE_ARRAY is zero
  ExpectText(ba.Convert(Bytes(Hex("fb")), &scratch_), "-0.05");
  ExpectText(ba.Convert(Bytes(Hex("3034")), &scratch_), "123.40");
  auto ba_real = Make(Leaf(PhysicalType::kByteArray, Decimal(10, 2)));
  ExpectReal(ba_real.Convert(Bytes(""), &scratch_), 0.0);
  ExpectReal(ba_real.Convert(Bytes(Hex("3034")), &scratch_), 123.4);
  // A value beyond kMaxDecimalBytes reads as NULL (null in JSON) in both modes.
  const std::string huge = Hex("01") + std::string(2000, '\0');
  ExpectNull(ba.Convert(Bytes(huge), &scratch_));
  ExpectNull(ba_real.Convert(Bytes(huge), &scratch_));
  EXPECT_EQ(Json(ba, Bytes(huge)), "null");
}

// The decoder may hand out an empty value as {nullptr, 0}.
TEST_F(LeafConverterTest, EmptyValuesWithNullPointer) {
  const ByteArray empty{nullptr, 0};
  ValueOptions text;
  text.decimal = ValueOptions::Decimal::kText;
  ExpectText(Make(Leaf(PhysicalType::kByteArray, Decimal(5, 2)), text).Convert(empty, &scratch_),
             "0.00");
  ExpectReal(Make(Leaf(PhysicalType::kByteArray, Decimal(5, 2))).Convert(empty, &scratch_), 0.0);
  auto s = Make(Leaf(PhysicalType::kByteArray, Logical(LK::kString)));
  ExpectText(s.Convert(empty, &scratch_), "");
  EXPECT_EQ(Json(s, empty), "\"\"");
  auto b = Make(Leaf(PhysicalType::kByteArray));
  ExpectBlob(b.Convert(empty, &scratch_), "");
  EXPECT_EQ(Json(b, empty), "\"\"");
}

TEST_F(LeafConverterTest, DecimalScaleLeniencyAndLimits) {
  ValueOptions text;
  text.decimal = ValueOptions::Decimal::kText;
  // Scale above precision and negative scale are read mathematically.
  ExpectText(Make(Leaf(PhysicalType::kInt32, Decimal(3, 5)), text).Convert(int32_t{123}, &scratch_),
             "0.00123");
  ExpectText(Make(Leaf(PhysicalType::kInt32, Decimal(3, -2)), text).Convert(int32_t{7}, &scratch_),
             "700");
  // Precision beyond the physical type's capacity is fine.
  // (By default as TEXT, the declared precision being above 15.)
  ExpectText(Make(Leaf(PhysicalType::kInt32, Decimal(30, 0))).Convert(int32_t{7}, &scratch_), "7");
  auto too_big = LeafConverter::Make(Leaf(PhysicalType::kInt64, Decimal(18, 5000)), {});
  ASSERT_FALSE(too_big.ok());
  EXPECT_TRUE(too_big.status().IsNotSupported());
  EXPECT_FALSE(LeafConverter::Make(Leaf(PhysicalType::kInt64, Decimal(18, -5000)), {}).ok());
}

TEST_F(LeafConverterTest, StringsEnumsAndJsonAreText) {
  for (const SchemaNode& node : {Leaf(PhysicalType::kByteArray, Logical(LK::kString)),
                                 Leaf(PhysicalType::kByteArray, Logical(LK::kEnum)),
                                 Leaf(PhysicalType::kByteArray, Logical(LK::kJson)),
                                 LegacyLeaf(PhysicalType::kByteArray, ConvertedType::kUtf8),
                                 LegacyLeaf(PhysicalType::kByteArray, ConvertedType::kEnum),
                                 LegacyLeaf(PhysicalType::kByteArray, ConvertedType::kJson),
                                 Leaf(PhysicalType::kFixedLenByteArray, Logical(LK::kString), 3)}) {
    auto c = Make(node);
    EXPECT_EQ(c.declared_type(), "TEXT");
    const std::string value = "h\xc3\xa9\"";
    const Cell cell = c.Convert(Bytes(value), &scratch_);
    ExpectText(cell, value);
    EXPECT_EQ(cell.bytes.data(), value.data());  // no copy
    EXPECT_EQ(Json(c, Bytes(value)), "\"h\xc3\xa9\\\"\"");
  }
}

TEST_F(LeafConverterTest, BinaryIsBlobUnlessBinaryAsString) {
  const std::string value("\x00\xff", 2);
  for (PhysicalType p : {PhysicalType::kByteArray, PhysicalType::kFixedLenByteArray}) {
    auto blob = Make(Leaf(p, {}, 2));
    EXPECT_EQ(blob.declared_type(), "BLOB");
    ExpectBlob(blob.Convert(Bytes(value), &scratch_), value);
    EXPECT_EQ(Json(blob, Bytes(value)), "\"AP8=\"");
    ValueOptions as_string;
    as_string.binary_as_string = true;
    auto text = Make(Leaf(p, {}, 2), as_string);
    EXPECT_EQ(text.declared_type(), "TEXT");
    ExpectText(text.Convert(Bytes("ab"), &scratch_), "ab");
    EXPECT_EQ(Json(text, Bytes("ab")), "\"ab\"");
  }
}

TEST_F(LeafConverterTest, BsonAndGeospatialStayBlob) {
  ValueOptions as_string;
  as_string.binary_as_string = true;
  for (const SchemaNode& node : {Leaf(PhysicalType::kByteArray, Logical(LK::kBson)),
                                 LegacyLeaf(PhysicalType::kByteArray, ConvertedType::kBson),
                                 Leaf(PhysicalType::kByteArray, Logical(LK::kGeometry)),
                                 Leaf(PhysicalType::kByteArray, Logical(LK::kGeography))}) {
    for (const ValueOptions& options : {ValueOptions{}, as_string}) {
      auto c = Make(node, options);
      EXPECT_EQ(c.declared_type(), "BLOB");
      ExpectBlob(c.Convert(Bytes("\x01\x02"), &scratch_), "\x01\x02");
      EXPECT_EQ(Json(c, Bytes("foobar")), "\"Zm9vYmFy\"");
    }
  }
}

TEST_F(LeafConverterTest, Uuid) {
  auto c = Make(Leaf(PhysicalType::kFixedLenByteArray, Logical(LK::kUuid), 16));
  EXPECT_EQ(c.declared_type(), "TEXT");
  // The spec's example.
  ExpectText(c.Convert(Bytes(Hex("00112233445566778899aabbccddeeff")), &scratch_),
             "00112233-4455-6677-8899-aabbccddeeff");
  ExpectText(c.Convert(Bytes(Hex("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF")), &scratch_),
             "ffffffff-ffff-ffff-ffff-ffffffffffff");
  EXPECT_EQ(Json(c, Bytes(Hex("00112233445566778899aabbccddeeff"))),
            "\"00112233-4455-6677-8899-aabbccddeeff\"");
}

TEST_F(LeafConverterTest, Date) {
  for (const SchemaNode& node : {Leaf(PhysicalType::kInt32, Logical(LK::kDate)),
                                 LegacyLeaf(PhysicalType::kInt32, ConvertedType::kDate)}) {
    auto c = Make(node);
    EXPECT_EQ(c.declared_type(), "TEXT");
    ExpectText(c.Convert(int32_t{0}, &scratch_), "1970-01-01");
    ExpectText(c.Convert(int32_t{11016}, &scratch_), "2000-02-29");
    ExpectText(c.Convert(int32_t{-1}, &scratch_), "1969-12-31");
    ExpectText(c.Convert(int32_t{2932896}, &scratch_), "9999-12-31");
    ExpectText(c.Convert(int32_t{-719529}, &scratch_), "-0001-12-31");
    EXPECT_EQ(Json(c, int32_t{11016}), "\"2000-02-29\"");
  }
  // timestamp=integer does not touch dates.
  ValueOptions integer;
  integer.timestamp = ValueOptions::Timestamp::kInteger;
  auto c = Make(Leaf(PhysicalType::kInt32, Logical(LK::kDate)), integer);
  EXPECT_EQ(c.declared_type(), "TEXT");
  ExpectText(c.Convert(int32_t{1}, &scratch_), "1970-01-02");
}

TEST_F(LeafConverterTest, TimeOfEachUnit) {
  ValueOptions integer;
  integer.timestamp = ValueOptions::Timestamp::kInteger;
  for (const ValueOptions& options : {ValueOptions{}, integer}) {
    auto millis = Make(Leaf(PhysicalType::kInt32, Temporal(LK::kTime, TimeUnit::kMillis)), options);
    EXPECT_EQ(millis.declared_type(), "TEXT");
    ExpectText(millis.Convert(int32_t{45296789}, &scratch_), "12:34:56.789");
    ExpectText(millis.Convert(int32_t{45296000}, &scratch_), "12:34:56");
    auto legacy_millis =
        Make(LegacyLeaf(PhysicalType::kInt32, ConvertedType::kTimeMillis), options);
    ExpectText(legacy_millis.Convert(int32_t{1}, &scratch_), "00:00:00.001");
    auto micros =
        Make(Leaf(PhysicalType::kInt64, Temporal(LK::kTime, TimeUnit::kMicros, false)), options);
    ExpectText(micros.Convert(int64_t{45296000001}, &scratch_), "12:34:56.000001");
    auto legacy_micros =
        Make(LegacyLeaf(PhysicalType::kInt64, ConvertedType::kTimeMicros), options);
    ExpectText(legacy_micros.Convert(int64_t{0}, &scratch_), "00:00:00");
    auto nanos = Make(Leaf(PhysicalType::kInt64, Temporal(LK::kTime, TimeUnit::kNanos)), options);
    ExpectText(nanos.Convert(int64_t{86399999999999}, &scratch_), "23:59:59.999999999");
    EXPECT_EQ(Json(nanos, int64_t{1}), "\"00:00:00.000000001\"");
    EXPECT_EQ(Json(millis, int32_t{-1}), "\"-00:00:00.001\"");
  }
}

TEST_F(LeafConverterTest, TimestampText) {
  for (bool utc : {true, false}) {
    auto ms = Make(Leaf(PhysicalType::kInt64, Temporal(LK::kTimestamp, TimeUnit::kMillis, utc)));
    EXPECT_EQ(ms.declared_type(), "TEXT");
    ExpectText(ms.Convert(int64_t{172800000}, &scratch_), "1970-01-03 00:00:00");
    ExpectText(ms.Convert(int64_t{-1}, &scratch_), "1969-12-31 23:59:59.999");
    auto us = Make(Leaf(PhysicalType::kInt64, Temporal(LK::kTimestamp, TimeUnit::kMicros, utc)));
    ExpectText(us.Convert(int64_t{1700000000000001}, &scratch_), "2023-11-14 22:13:20.000001");
    auto ns = Make(Leaf(PhysicalType::kInt64, Temporal(LK::kTimestamp, TimeUnit::kNanos, utc)));
    ExpectText(ns.Convert(int64_t{-1}, &scratch_), "1969-12-31 23:59:59.999999999");
    EXPECT_EQ(Json(ns, int64_t{0}), "\"1970-01-01 00:00:00\"");
  }
  auto legacy_ms = Make(LegacyLeaf(PhysicalType::kInt64, ConvertedType::kTimestampMillis));
  ExpectText(legacy_ms.Convert(int64_t{1500}, &scratch_), "1970-01-01 00:00:01.500");
  auto legacy_us = Make(LegacyLeaf(PhysicalType::kInt64, ConvertedType::kTimestampMicros));
  ExpectText(legacy_us.Convert(int64_t{1500}, &scratch_), "1970-01-01 00:00:00.001500");
}

TEST_F(LeafConverterTest, TimestampInteger) {
  ValueOptions integer;
  integer.timestamp = ValueOptions::Timestamp::kInteger;
  auto c = Make(Leaf(PhysicalType::kInt64, Temporal(LK::kTimestamp, TimeUnit::kMicros)), integer);
  EXPECT_EQ(c.kind(), Kind::kTimestampInteger);
  EXPECT_EQ(c.declared_type(), "INTEGER");
  EXPECT_EQ(c.unit(), TimeUnit::kMicros);
  ExpectInteger(c.Convert(int64_t{-123}, &scratch_), -123);
  EXPECT_EQ(Json(c, int64_t{-123}), "-123");
}

TEST_F(LeafConverterTest, Int96) {
  auto text = Make(Leaf(PhysicalType::kInt96));
  EXPECT_EQ(text.declared_type(), "TEXT");
  ExpectText(text.Convert(MakeInt96(0, 2440588), &scratch_), "1970-01-01 00:00:00");
  ExpectText(text.Convert(MakeInt96(45296789000000, 2458850), &scratch_),
             "2020-01-01 12:34:56.789000000");
  EXPECT_EQ(Json(text, MakeInt96(1, 2440588)), "\"1970-01-01 00:00:00.000000001\"");
  ValueOptions integer;
  integer.timestamp = ValueOptions::Timestamp::kInteger;
  auto nanos = Make(Leaf(PhysicalType::kInt96), integer);
  EXPECT_EQ(nanos.declared_type(), "INTEGER");
  ExpectInteger(nanos.Convert(MakeInt96(45296789000000, 2458850), &scratch_), 1577882096789000000);
  ExpectInteger(nanos.Convert(MakeInt96(kNanosPerDay - 1, 2440587), &scratch_), -1);
  // Outside int64 nanoseconds: REAL.
  ExpectReal(nanos.Convert(MakeInt96(0, 0), &scratch_), -2440588.0 * 86400e9);
  EXPECT_EQ(Json(nanos, MakeInt96(0, 2440589)), "86400000000000");
  EXPECT_EQ(Json(nanos, MakeInt96(0, 0)), "-2.108668032e+20");
}

TEST_F(LeafConverterTest, Interval) {
  auto c = Make(LegacyLeaf(PhysicalType::kFixedLenByteArray, ConvertedType::kInterval, 12));
  EXPECT_EQ(c.declared_type(), "TEXT");
  ExpectText(c.Convert(Bytes(Hex("010000000200000003000000")), &scratch_),
             "{\"months\":1,\"days\":2,\"millis\":3}");
  ExpectText(c.Convert(Bytes(Hex("ffffffff0000000000010000")), &scratch_),
             "{\"months\":4294967295,\"days\":0,\"millis\":256}");
  EXPECT_EQ(Json(c, Bytes(Hex("010000000200000003000000"))),
            "{\"months\":1,\"days\":2,\"millis\":3}");
  // INTERVAL not on FLBA(12): by physical type.
  EXPECT_EQ(Make(LegacyLeaf(PhysicalType::kFixedLenByteArray, ConvertedType::kInterval, 8)).kind(),
            Kind::kBlob);
}

TEST_F(LeafConverterTest, UnknownIsAlwaysNull) {
  const LogicalType unknown = Logical(LK::kUnknown);
  for (PhysicalType p : {PhysicalType::kBoolean, PhysicalType::kInt32, PhysicalType::kInt64,
                         PhysicalType::kInt96, PhysicalType::kFloat, PhysicalType::kDouble,
                         PhysicalType::kByteArray, PhysicalType::kFixedLenByteArray}) {
    auto c = Make(Leaf(p, unknown, 4));
    EXPECT_EQ(c.kind(), Kind::kNull);
    EXPECT_EQ(c.declared_type(), "");
  }
  auto c = Make(Leaf(PhysicalType::kInt64, unknown));
  ExpectNull(c.Convert(int64_t{5}, &scratch_));
  EXPECT_EQ(Json(c, int64_t{5}), "null");
  auto b = Make(Leaf(PhysicalType::kByteArray, unknown));
  ExpectNull(b.Convert(Bytes("x"), &scratch_));
  EXPECT_EQ(Json(b, Bytes("x")), "null");
  auto d = Make(Leaf(PhysicalType::kDouble, unknown));
  ExpectNull(d.Convert(1.0, &scratch_));
  auto i96 = Make(Leaf(PhysicalType::kInt96, unknown));
  ExpectNull(i96.Convert(MakeInt96(0, 2440588), &scratch_));
  auto boolean = Make(Leaf(PhysicalType::kBoolean, unknown));
  ExpectNull(boolean.Convert(uint8_t{1}, &scratch_));
  EXPECT_EQ(Json(boolean, uint8_t{1}), "null");
}

TEST_F(LeafConverterTest, AnnotationsThatDoNotFitReadByPhysicalType) {
  struct Case {
    SchemaNode node;
    Kind expected;
  };
  const std::vector<Case> cases = {
      {Leaf(PhysicalType::kByteArray, Logical(LK::kDate)), Kind::kBlob},
      {Leaf(PhysicalType::kInt64, Logical(LK::kDate)), Kind::kInteger},
      {Leaf(PhysicalType::kFixedLenByteArray, Logical(LK::kUuid), 8), Kind::kBlob},
      {Leaf(PhysicalType::kByteArray, Logical(LK::kUuid)), Kind::kBlob},
      {Leaf(PhysicalType::kFixedLenByteArray, Logical(LK::kFloat16), 4), Kind::kBlob},
      {Leaf(PhysicalType::kInt64, Temporal(LK::kTime, TimeUnit::kMillis)), Kind::kInteger},
      {Leaf(PhysicalType::kInt32, Temporal(LK::kTime, TimeUnit::kMicros)), Kind::kInteger},
      {Leaf(PhysicalType::kInt32, Temporal(LK::kTimestamp, TimeUnit::kMillis)), Kind::kInteger},
      {Leaf(PhysicalType::kInt96, Temporal(LK::kTimestamp, TimeUnit::kNanos)), Kind::kInt96Text},
      {Leaf(PhysicalType::kInt32, Integer(64, true)), Kind::kInteger},
      {Leaf(PhysicalType::kInt64, Integer(32, false)), Kind::kInteger},
      {Leaf(PhysicalType::kInt32, Integer(12, false)), Kind::kInteger},
      {Leaf(PhysicalType::kInt32, Logical(LK::kString)), Kind::kInteger},
      {Leaf(PhysicalType::kDouble, Decimal(10, 2)), Kind::kReal},
      {Leaf(PhysicalType::kBoolean, Decimal(10, 2)), Kind::kInteger},
      {Leaf(PhysicalType::kByteArray, Logical(LK::kList)), Kind::kBlob},
      {Leaf(PhysicalType::kByteArray, Logical(LK::kMap)), Kind::kBlob},
      {Leaf(PhysicalType::kByteArray, Logical(LK::kVariant)), Kind::kBlob},
      {LegacyLeaf(PhysicalType::kByteArray, ConvertedType::kList), Kind::kBlob},
      {LegacyLeaf(PhysicalType::kInt64, ConvertedType::kDate), Kind::kInteger},
      // A decimal known only from ConvertedType has no scale here (Schema resolves it): physical.
      {LegacyLeaf(PhysicalType::kInt32, ConvertedType::kDecimal), Kind::kInteger},
  };
  for (const Case& c : cases) {
    auto converter = LeafConverter::Make(c.node, {});
    ASSERT_TRUE(converter.ok()) << converter.status().ToString();
    EXPECT_EQ(converter->kind(), c.expected) << static_cast<int>(c.node.logical_type.kind);
  }
  // A UUID annotation on FLBA(8) reads the 8 bytes as a blob, safely.
  auto c = Make(Leaf(PhysicalType::kFixedLenByteArray, Logical(LK::kUuid), 8));
  ExpectBlob(c.Convert(Bytes("12345678"), &scratch_), "12345678");
}

TEST_F(LeafConverterTest, MakeRefusals) {
  SchemaNode group;
  group.name = "g";
  group.is_leaf = false;
  auto r = LeafConverter::Make(group, {});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalidArgument());
  LogicalType bad_unit = Temporal(LK::kTimestamp, static_cast<TimeUnit>(7));
  r = LeafConverter::Make(Leaf(PhysicalType::kInt64, bad_unit), {});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsNotSupported());
  EXPECT_NE(r.status().message().find("column 'c'"), std::string::npos) << r.status().message();
  bad_unit.kind = LK::kTime;
  EXPECT_FALSE(LeafConverter::Make(Leaf(PhysicalType::kInt64, bad_unit), {}).ok());
}

TEST_F(LeafConverterTest, ScratchIsReusedAndResultsPointIntoIt) {
  auto c = Make(Leaf(PhysicalType::kInt32, Logical(LK::kDate)));
  const Cell first = c.Convert(int32_t{0}, &scratch_);
  ExpectText(first, "1970-01-01");
  EXPECT_EQ(first.bytes.data(), scratch_.data());
  const char* buffer = scratch_.data();
  const Cell second = c.Convert(int32_t{11016}, &scratch_);
  ExpectText(second, "2000-02-29");
  EXPECT_EQ(scratch_.data(), buffer);  // no reallocation on the second call
  // Decimal text after a longer date text keeps only its own bytes.
  ValueOptions text;
  text.decimal = ValueOptions::Decimal::kText;
  auto d = Make(Leaf(PhysicalType::kInt32, Decimal(3, 1)), text);
  ExpectText(d.Convert(int32_t{5}, &scratch_), "0.5");
}

// With Schema resolving legacy annotations (the usual path), the converters agree.
TEST_F(LeafConverterTest, ThroughSchemaMake) {
  std::vector<SchemaElement> elements(4);
  elements[0].name = "schema";
  elements[0].num_children = 3;
  elements[1].name = "price";
  elements[1].type = PhysicalType::kFixedLenByteArray;
  elements[1].type_length = 16;
  elements[1].repetition_type = Repetition::kOptional;
  elements[1].converted_type = ConvertedType::kDecimal;
  elements[1].precision = 38;
  elements[1].scale = 2;
  elements[2].name = "ts";
  elements[2].type = PhysicalType::kInt64;
  elements[2].repetition_type = Repetition::kRequired;
  elements[2].converted_type = ConvertedType::kTimestampMicros;
  elements[3].name = "name";
  elements[3].type = PhysicalType::kByteArray;
  elements[3].repetition_type = Repetition::kRequired;
  elements[3].converted_type = ConvertedType::kUtf8;
  auto schema = Schema::Make(elements);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  ValueOptions text;
  text.decimal = ValueOptions::Decimal::kText;
  auto price = Make((*schema)->leaf(0), text);
  ExpectText(price.Convert(Bytes(Hex("000000000000000000000000000004d2")), &scratch_), "12.34");
  auto ts = Make((*schema)->leaf(1));
  ExpectText(ts.Convert(int64_t{1}, &scratch_), "1970-01-01 00:00:00.000001");
  EXPECT_EQ(Make((*schema)->leaf(2)).declared_type(), "TEXT");
}

}  // namespace
}  // namespace pq

namespace pq {
namespace {

// Every conversion over random values of its physical type: no crash, no sanitizer report, and the
// JSON form of a TEXT cell is that text as a JSON string (when it is not INTERVAL's object).
TEST_F(LeafConverterTest, RandomValuesThroughEveryConversion) {
  std::mt19937_64 rng(11);
  ValueOptions text_options;
  text_options.decimal = ValueOptions::Decimal::kText;
  text_options.timestamp = ValueOptions::Timestamp::kInteger;
  text_options.binary_as_string = true;
  const std::vector<SchemaNode> nodes = {
      Leaf(PhysicalType::kBoolean),
      Leaf(PhysicalType::kInt32),
      Leaf(PhysicalType::kInt32, Integer(8, false)),
      Leaf(PhysicalType::kInt64, Integer(64, false)),
      Leaf(PhysicalType::kInt32, Decimal(9, 3)),
      Leaf(PhysicalType::kInt64, Decimal(18, 30)),
      Leaf(PhysicalType::kInt32, Logical(LK::kDate)),
      Leaf(PhysicalType::kInt32, Temporal(LK::kTime, TimeUnit::kMillis)),
      Leaf(PhysicalType::kInt64, Temporal(LK::kTime, TimeUnit::kNanos)),
      Leaf(PhysicalType::kInt64, Temporal(LK::kTimestamp, TimeUnit::kMillis)),
      Leaf(PhysicalType::kInt64, Temporal(LK::kTimestamp, TimeUnit::kNanos)),
      Leaf(PhysicalType::kInt96),
      Leaf(PhysicalType::kFloat),
      Leaf(PhysicalType::kDouble),
      Leaf(PhysicalType::kByteArray),
      Leaf(PhysicalType::kByteArray, Logical(LK::kString)),
      Leaf(PhysicalType::kByteArray, Decimal(40, 7)),
      Leaf(PhysicalType::kFixedLenByteArray, Decimal(38, 2), 16),
      Leaf(PhysicalType::kFixedLenByteArray, Logical(LK::kUuid), 16),
      Leaf(PhysicalType::kFixedLenByteArray, Logical(LK::kFloat16), 2),
      LegacyLeaf(PhysicalType::kFixedLenByteArray, ConvertedType::kInterval, 12),
  };
  for (const SchemaNode& node : nodes) {
    for (const ValueOptions& options : {ValueOptions{}, text_options}) {
      const LeafConverter c = Make(node, options);
      for (int i = 0; i < 2000; ++i) {
        const uint64_t bits = rng();
        Cell cell;
        std::string json;
        switch (node.physical_type) {
          case PhysicalType::kBoolean:
            cell = c.Convert(static_cast<uint8_t>(bits & 1), &scratch_);
            c.AppendJson(static_cast<uint8_t>(bits & 1), &json);
            break;
          case PhysicalType::kInt32:
            cell = c.Convert(static_cast<int32_t>(bits), &scratch_);
            c.AppendJson(static_cast<int32_t>(bits), &json);
            break;
          case PhysicalType::kInt64:
            cell = c.Convert(static_cast<int64_t>(bits), &scratch_);
            c.AppendJson(static_cast<int64_t>(bits), &json);
            break;
          case PhysicalType::kInt96: {
            Int96 v;
            v.value[0] = static_cast<uint32_t>(bits);
            v.value[1] = static_cast<uint32_t>(bits >> 32);
            v.value[2] = static_cast<uint32_t>(rng());
            cell = c.Convert(v, &scratch_);
            c.AppendJson(v, &json);
            break;
          }
          case PhysicalType::kFloat: {
            float f;
            const uint32_t b = static_cast<uint32_t>(bits);
            std::memcpy(&f, &b, sizeof(f));
            cell = c.Convert(f, &scratch_);
            c.AppendJson(f, &json);
            break;
          }
          case PhysicalType::kDouble: {
            double d;
            std::memcpy(&d, &bits, sizeof(d));
            cell = c.Convert(d, &scratch_);
            c.AppendJson(d, &json);
            break;
          }
          case PhysicalType::kByteArray:
          case PhysicalType::kFixedLenByteArray: {
            const size_t n = node.physical_type == PhysicalType::kFixedLenByteArray
                                 ? static_cast<size_t>(node.type_length)
                                 : bits % 40;
            std::string bytes(n, '\0');
            for (char& ch : bytes) ch = static_cast<char>(rng());
            cell = c.Convert(Bytes(bytes), &scratch_);
            c.AppendJson(Bytes(bytes), &json);
            if (cell.type == CellType::kText && c.kind() != Kind::kInterval) {
              std::string expected;
              AppendJsonString(cell.bytes, &expected);
              if (c.kind() == Kind::kDecimalText) expected = std::string(cell.bytes);
              EXPECT_EQ(json, expected);
            }
            break;
          }
        }
        ASSERT_FALSE(json.empty());
        if (cell.type == CellType::kReal) {
          ASSERT_FALSE(std::isnan(cell.d));
        }
        if (c.kind() == Kind::kNull) {
          ASSERT_EQ(cell.type, CellType::kNull);
        }
      }
    }
  }
}

TEST(WriteDecimalTextTest, WritesWhatTheByteArrayPathWritesForTheSameValue) {
  // The byte-array path (BytesToDigits, AppendScaled) is a separate implementation of the same text.
  std::mt19937_64 rng(9);
  std::vector<int64_t> values = {0, 1, -1, 9, -9, 10, 99, 100, -100, 12340, -5,
                                 std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
  for (int i = 0; i < 2000; ++i) values.push_back(static_cast<int64_t>(rng()) >> (rng() % 64));
  for (int32_t scale = -12; scale <= 40; ++scale) {
    for (int64_t v : values) {
      std::string big_endian(8, '\0');
      for (int b = 0; b < 8; ++b) big_endian[7 - b] = static_cast<char>(static_cast<uint64_t>(v) >> (8 * b));
      std::string want;
      ASSERT_TRUE(AppendDecimalText(big_endian, scale, &want));
      std::string got(DecimalTextRoom(scale), '#');
      got.resize(static_cast<size_t>(WriteDecimalText(v, scale, got.data()) - got.data()));
      ASSERT_EQ(got, want) << v << " scale " << scale;
    }
  }
}

TEST(LeafConverterWriteTextTest, WritesConvertsTextForEveryKindThatHasRoom) {
  ValueOptions text;
  text.decimal = ValueOptions::Decimal::kText;
  struct Case {
    SchemaNode leaf;
    bool has_room;
  };
  const std::vector<Case> cases = {
      {Leaf(PhysicalType::kInt32, Decimal(9, 2)), true},
      {Leaf(PhysicalType::kInt64, Decimal(18, 0)), true},
      {Leaf(PhysicalType::kInt64, Decimal(18, 17)), true},
      {Leaf(PhysicalType::kInt32, Logical(LK::kDate)), true},
      {Leaf(PhysicalType::kInt32, Temporal(LK::kTime, TimeUnit::kMillis)), true},
      {Leaf(PhysicalType::kInt64, Temporal(LK::kTime, TimeUnit::kNanos)), true},
      {Leaf(PhysicalType::kInt64, Temporal(LK::kTimestamp, TimeUnit::kMillis)), true},
      {Leaf(PhysicalType::kInt64, Temporal(LK::kTimestamp, TimeUnit::kMicros)), true},
      {Leaf(PhysicalType::kInt64, Temporal(LK::kTimestamp, TimeUnit::kNanos)), true},
      {Leaf(PhysicalType::kInt64), false},
      {Leaf(PhysicalType::kDouble), false},
      {Leaf(PhysicalType::kFixedLenByteArray, Decimal(20, 2), 9), false},
  };
  std::mt19937_64 rng(3);
  std::string scratch;
  for (const Case& c : cases) {
    const LeafConverter conv = Make(c.leaf, text);
    ASSERT_EQ(conv.TextRoom() > 0, c.has_room) << static_cast<int>(conv.kind());
    if (!c.has_room) continue;
    for (int i = 0; i < 500; ++i) {
      int64_t v = static_cast<int64_t>(rng()) >> (rng() % 64);
      if (c.leaf.physical_type == PhysicalType::kInt32) v = static_cast<int32_t>(v);
      const Cell cell = c.leaf.physical_type == PhysicalType::kInt32
                            ? conv.Convert(static_cast<int32_t>(v), &scratch)
                            : conv.Convert(v, &scratch);
      ASSERT_EQ(cell.type, CellType::kText);
      std::string got(conv.TextRoom(), '#');
      got.resize(static_cast<size_t>(conv.WriteText(v, got.data()) - got.data()));
      ASSERT_EQ(got, cell.bytes) << v;
    }
  }
}

}  // namespace
}  // namespace pq
