// Variant encoding (format/variant/variant_encoder.h, variant_from_json.h): golden bytes for the
// layouts the encoder chooses, JSON text in and the decoder's JSON out, the number rules (integer
// widths, decimals keeping their scale, doubles), copies of hand-built Variants keeping every
// primitive byte for byte, and the errors.
#include "format/variant/variant_encoder.h"

#include <gtest/gtest.h>

#include <string>

#include "format/variant/variant_from_json.h"
#include "tests/format/variant/variant_builder.h"

namespace pq {
namespace {

using testing::Array;
using testing::FieldBytes;
using testing::Hex;
using testing::LittleEndian;
using testing::LongString;
using testing::Metadata;
using testing::Object;
using testing::Primitive;
using testing::RawBytes;
using testing::ShortString;

struct Encoded {
  std::string metadata;
  std::string value;
};

Encoded FromJson(std::string_view json) {
  VariantEncoder e;
  e.Reset();
  Status s = AddJsonToVariant(json, &e);
  EXPECT_TRUE(s.ok()) << json << ": " << s.ToString();
  std::string_view m, v;
  s = e.Finish(&m, &v);
  EXPECT_TRUE(s.ok()) << json << ": " << s.ToString();
  return {std::string(m), std::string(v)};
}

std::string ToJson(const Encoded& e) {
  std::string out;
  Status s = AppendVariantJson(AsBytes(e.metadata), AsBytes(e.value), &out);
  EXPECT_TRUE(s.ok()) << s.ToString() << " for " << Hex(e.value);
  return out;
}

std::string RoundTrip(std::string_view json) {
  return ToJson(FromJson(json));
}

Status JsonError(std::string_view json) {
  VariantEncoder e;
  e.Reset();
  Status s = AddJsonToVariant(json, &e);
  if (s.ok()) {
    std::string_view m, v;
    s = e.Finish(&m, &v);
  }
  return s;
}

TEST(VariantEncoderTest, PrimitivesFromJson) {
  EXPECT_EQ(FromJson("null").value, Primitive(0));
  EXPECT_EQ(FromJson("true").value, Primitive(1));
  EXPECT_EQ(FromJson("false").value, Primitive(2));
  // The empty dictionary: version 1, sorted, one-byte offsets, no names.
  EXPECT_EQ(Hex(FromJson("1").metadata), "110000");
  EXPECT_EQ(FromJson("1").value, Primitive(3, "\x01"));
  EXPECT_EQ(FromJson("-129").value, Primitive(4, LittleEndian(static_cast<uint16_t>(-129), 2)));
  EXPECT_EQ(FromJson("70000").value, Primitive(5, RawBytes<int32_t>(70000)));
  EXPECT_EQ(FromJson("-9223372036854775808").value, Primitive(6, RawBytes<int64_t>(INT64_MIN)));
  // Past int64: decimal16 of scale 0.
  EXPECT_EQ(FromJson("9223372036854775808").value[0], static_cast<char>(10 << 2));
  EXPECT_EQ(RoundTrip("9223372036854775808"), "9223372036854775808");
  // Fractions are decimals of the scale written, by digit count.
  EXPECT_EQ(FromJson("1.50").value, Primitive(8, std::string("\x02", 1) + RawBytes<int32_t>(150)));
  EXPECT_EQ(FromJson("-12345678901.5").value,
            Primitive(9, std::string("\x01", 1) + RawBytes<int64_t>(-123456789015)));
  EXPECT_EQ(FromJson("0.000001").value,
            Primitive(8, std::string("\x06", 1) + RawBytes<int32_t>(1)));
  EXPECT_EQ(RoundTrip("1.50"), "1.50");
  EXPECT_EQ(RoundTrip("-0.05"), "-0.05");
  EXPECT_EQ(RoundTrip("12345678901234567890123456789012345678"),
            "12345678901234567890123456789012345678");
  EXPECT_EQ(RoundTrip("-1234567890123456789012345678901234567.8"),
            "-1234567890123456789012345678901234567.8");
  // 39 digits, an exponent, -0.0: doubles.
  EXPECT_EQ(FromJson("123456789012345678901234567890123456789").value[0],
            static_cast<char>(7 << 2));
  EXPECT_EQ(FromJson("1e3").value, Primitive(7, RawBytes<double>(1000.0)));
  EXPECT_EQ(FromJson("-0.0").value, Primitive(7, RawBytes<double>(-0.0)));
  EXPECT_EQ(RoundTrip("2.5E-1"), "0.25");
  EXPECT_EQ(RoundTrip("1e400"), "\"Infinity\"");
  EXPECT_EQ(RoundTrip("-1e400"), "\"-Infinity\"");
  EXPECT_EQ(RoundTrip("1e-400"), "0.0");
  // Strings: short under 64 bytes, long from 64.
  EXPECT_EQ(FromJson("\"ab\"").value, ShortString("ab"));
  const std::string long_text(64, 'x');
  EXPECT_EQ(FromJson("\"" + long_text + "\"").value, LongString(long_text));
  EXPECT_EQ(FromJson(R"("a\"\\\/\b\f\n\r\t\u00e9\ud83c\udf89")").value,
            ShortString("a\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x8e\x89"));
}

TEST(VariantEncoderTest, ObjectsSortFieldsByName) {
  // Names in the order first seen; ids listed in name order, values in the order written.
  const Encoded e = FromJson(R"({"b": 1, "a": {"c": true, "b": null}})");
  EXPECT_EQ(e.metadata, Metadata({"b", "a", "c"}));  // not sorted: flag clear
  // Object() writes values in the order given: the expected bytes are built by hand.
  std::string expected;
  expected.push_back(static_cast<char>(2));  // object, 1-byte ids and offsets, small
  expected.push_back(2);                     // two fields
  expected += std::string("\x01\x00", 2);    // ids: a (1), b (0)
  const std::string b_value = Primitive(3, "\x01");
  // a's value was written second, after b's.
  std::string inner_expected;
  inner_expected.push_back(static_cast<char>(2));
  inner_expected.push_back(2);
  inner_expected += std::string("\x00\x02", 2);      // ids: b (0), c (2)
  inner_expected += std::string("\x01\x00\x02", 3);  // offsets: b's null after c's true
  inner_expected += Primitive(1) + Primitive(0);
  expected += static_cast<char>(b_value.size());  // offset of a
  expected += '\0';                               // offset of b
  expected += static_cast<char>(b_value.size() + inner_expected.size());
  expected += b_value + inner_expected;
  EXPECT_EQ(Hex(e.value), Hex(expected));
  EXPECT_EQ(ToJson(e), R"({"a":{"b":null,"c":true},"b":1})");
  // Sorted names set the flag.
  EXPECT_EQ(FromJson(R"({"a": 1, "b": 2})").metadata[0], static_cast<char>(0x11));
}

TEST(VariantEncoderTest, WideLayouts) {
  // 300 elements: a 4-byte count; 300 small strings: 2-byte offsets.
  std::string json = "[";
  for (int i = 0; i < 300; ++i) json += (i ? ",\"x" : "\"x") + std::to_string(i) + "\"";
  json += "]";
  const Encoded e = FromJson(json);
  EXPECT_EQ(static_cast<uint8_t>(e.value[0]), 3 | ((4 | 1) << 2));
  EXPECT_EQ(RoundTrip(json), json);
  // 300 distinct field names: 2-byte ids.
  std::string object = "{";
  for (int i = 0; i < 300; ++i)
    object += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
  object += "}";
  const Encoded o = FromJson(object);
  EXPECT_EQ(static_cast<uint8_t>(o.value[0]), 2 | ((0x10 | (1 << 2) | 1) << 2));
  EXPECT_EQ(RoundTrip("{\"k0\":0,\"k1\":1}"), "{\"k0\":0,\"k1\":1}");
  EXPECT_EQ(RoundTrip(R"([[],{},[{"a":[1,{"b":[]}]}]])"), R"([[],{},[{"a":[1,{"b":[]}]}]])");
}

TEST(VariantEncoderTest, JsonErrors) {
  auto has = [](Status s, std::string_view text) {
    return !s.ok() && s.message().find(text) != std::string::npos;
  };
  EXPECT_TRUE(has(JsonError(R"({"a": 1, "a": 2})"), "the field 'a' twice"))
      << JsonError(R"({"a": 1, "a": 2})").ToString();
  EXPECT_TRUE(has(JsonError("[1, 2"), "offset 5: expected ',' or ']'"));
  EXPECT_TRUE(has(JsonError("{\"a\" 1}"), "expected ':'"));
  EXPECT_TRUE(has(JsonError("01"), "text after the value"));
  EXPECT_TRUE(has(JsonError("1."), "digits after '.'"));
  EXPECT_TRUE(has(JsonError("nul"), "expected a value"));
  EXPECT_TRUE(has(JsonError("\"\\ud800\""), "lone surrogate"));
  EXPECT_TRUE(has(JsonError("\"\xff\""), "not valid UTF-8"));
  EXPECT_TRUE(has(JsonError("{\"\xc0\x80\": 1}"), "not valid UTF-8"));
  EXPECT_TRUE(has(JsonError("\"a\x01\""), "control character"));
  EXPECT_TRUE(has(JsonError(""), "expected a value"));
  EXPECT_TRUE(has(JsonError("1 2"), "text after the value"));
  EXPECT_TRUE(has(JsonError(std::string(300, '[') + std::string(300, ']')), "nested more than"));
  EXPECT_TRUE(JsonError(std::string(256, '[') + std::string(256, ']')).ok());
}

TEST(VariantEncoderTest, MisuseIsAnError) {
  VariantEncoder e;
  std::string_view m, v;
  e.Reset();
  EXPECT_FALSE(e.Finish(&m, &v).ok());  // no value
  e.Reset();
  e.AddNull();
  e.AddNull();
  EXPECT_FALSE(e.Finish(&m, &v).ok());  // two values
  e.Reset();
  e.BeginObject();
  e.AddNull();  // no key
  EXPECT_FALSE(e.EndObject().ok());
  e.Reset();
  e.BeginArray();
  EXPECT_FALSE(e.Finish(&m, &v).ok());  // open
  EXPECT_FALSE(e.Key("a").ok());        // a key in an array
  e.Reset();
  e.AddBoolean(true);
  ASSERT_TRUE(e.Finish(&m, &v).ok());
  EXPECT_EQ(std::string(v), Primitive(1));
}

// A Variant with every primitive type, in a layout the encoder would not choose (unsorted
// 4-byte-offset metadata, 2-byte ids, values in reverse order), copied: every primitive keeps its
// bytes, the JSON reads the same.
TEST(VariantEncoderTest, AddVariantKeepsEveryPrimitive) {
  const std::vector<std::string> primitives = {
      Primitive(0),
      Primitive(1),
      Primitive(2),
      Primitive(3, "\x85"),
      Primitive(4, RawBytes<int16_t>(-300)),
      Primitive(5, RawBytes<int32_t>(1 << 20)),
      Primitive(6, RawBytes<int64_t>(int64_t{1} << 40)),
      Primitive(7, RawBytes<double>(1.25)),
      Primitive(8, std::string("\x02", 1) + RawBytes<int32_t>(12345)),
      Primitive(9, std::string("\x04", 1) + RawBytes<int64_t>(-123456789012)),
      Primitive(10, std::string("\x26", 1) + std::string(15, '\x01') + std::string(1, '\x7f')),
      Primitive(11, RawBytes<int32_t>(19723)),
      Primitive(12, RawBytes<int64_t>(1704067200123456)),
      Primitive(13, RawBytes<int64_t>(-1)),
      Primitive(14, RawBytes<float>(1.5f)),
      Primitive(15, LittleEndian(3, 4) + std::string("\x00\xff\x10", 3)),
      LongString("short text in a long string"),
      Primitive(17, RawBytes<int64_t>(3723000001)),
      Primitive(18, RawBytes<int64_t>(1704067200123456789)),
      Primitive(19, RawBytes<int64_t>(-1704067200123456789)),
      Primitive(
          20, std::string("\x12\x34\x56\x78\x9a\xbc\xde\xf0\x01\x23\x45\x67\x89\xab\xcd\xef", 16)),
      ShortString("short"),
  };
  std::vector<std::string> names;
  std::vector<FieldBytes> fields;
  for (size_t i = 0; i < primitives.size(); ++i) {
    names.push_back("f" + std::to_string(100 - i));  // f100, f99, ...: stored out of order
  }
  std::vector<size_t> by_name(primitives.size());
  for (size_t i = 0; i < by_name.size(); ++i) by_name[i] = i;
  std::sort(by_name.begin(), by_name.end(),
            [&](size_t a, size_t b) { return names[a] < names[b]; });
  for (size_t i : by_name) fields.push_back({static_cast<uint32_t>(i), primitives[i]});
  testing::ContainerSizes z;
  z.id_size = 2;
  z.values_reversed = true;
  const std::string object = Object(fields, z);
  const std::string value = Array({object, Array(primitives)});
  const std::string metadata = Metadata(names, 4);

  std::string expected_json;
  ASSERT_TRUE(AppendVariantJson(AsBytes(metadata), AsBytes(value), &expected_json).ok());
  Result<VariantMetadata> parsed = VariantMetadata::Parse(AsBytes(metadata));
  ASSERT_TRUE(parsed.ok());
  VariantEncoder e;
  e.Reset();
  ASSERT_TRUE(e.AddVariant(*parsed, AsBytes(value)).ok());
  std::string_view m, v;
  ASSERT_TRUE(e.Finish(&m, &v).ok());
  std::string copied_json;
  ASSERT_TRUE(AppendVariantJson(AsBytes(m), AsBytes(v), &copied_json).ok());
  EXPECT_EQ(copied_json, expected_json);
  // The array of primitives, copied verbatim, ends the value.
  const std::string primitives_array = Array(primitives);
  EXPECT_EQ(Hex(v.substr(v.size() - primitives_array.size())), Hex(primitives_array));
  // One-byte offsets now, names in the order met (sorted object first: f100 < f79 < ...).
  EXPECT_EQ(static_cast<uint8_t>(m[0]) >> 6, 0);
}

TEST(VariantEncoderTest, AddVariantChecksWhatItCopies) {
  const std::string metadata = Metadata({"a"});
  Result<VariantMetadata> parsed = VariantMetadata::Parse(AsBytes(metadata));
  ASSERT_TRUE(parsed.ok());
  VariantEncoder e;
  auto copy = [&](const std::string& value) {
    e.Reset();
    return e.AddVariant(*parsed, AsBytes(value));
  };
  EXPECT_TRUE(copy(Primitive(3, "\x01") + "x").IsCorruption());  // trailing byte
  EXPECT_TRUE(copy(Primitive(8, std::string("\x27", 1) + RawBytes<int32_t>(1))).IsCorruption());
  EXPECT_TRUE(copy(ShortString("\xff")).IsCorruption());                             // not UTF-8
  EXPECT_TRUE(copy(Object({{0, Primitive(0)}, {0, Primitive(0)}})).IsCorruption());  // twice
  EXPECT_TRUE(copy(Object({{5, Primitive(0)}})).IsCorruption());                     // unknown id
  EXPECT_EQ(copy(Primitive(63)).code(), StatusCode::kNotSupported);
  std::string deep = Primitive(0);
  for (int i = 0; i < 300; ++i) deep = Array({deep});
  EXPECT_TRUE(copy(deep).IsCorruption());
}

}  // namespace
}  // namespace pq
