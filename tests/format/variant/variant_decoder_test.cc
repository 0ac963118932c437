// Variant binary decoding (format/variant/variant_decoder.h): golden bytes for every primitive,
// objects and arrays in every size layout, the conformance examples of parquet-testing/variant
// against their data_dictionary.json, random round trips, and damaged input (every malformation
// the header lists, truncation at every length, byte flips) giving errors, never crashes.
#include "format/variant/variant_decoder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "format/value/temporal.h"
#include "tests/format/variant/json_text.h"
#include "tests/format/variant/variant_builder.h"
#include "tests/hostile/hostile_files.h"

namespace pq {
namespace {

using testing::Array;
using testing::ContainerSizes;
using testing::FieldBytes;
using testing::FromHex;
using testing::JsonDifference;
using testing::JsonParser;
using testing::JsonValue;
using testing::LittleEndian;
using testing::LongString;
using testing::Metadata;
using testing::Object;
using testing::Primitive;
using testing::RawBytes;
using testing::ShortString;

const std::string kEmptyMetadata = Metadata({});

Result<std::string> Decode(std::string_view metadata, std::string_view value) {
  std::string out;
  Status s = AppendVariantJson(AsBytes(metadata), AsBytes(value), &out);
  if (!s.ok()) return s;
  return out;
}

std::string DecodeOk(std::string_view metadata, std::string_view value) {
  Result<std::string> r = Decode(metadata, value);
  EXPECT_TRUE(r.ok()) << r.status().ToString() << " for " << testing::Hex(value);
  return r.ok() ? *r : "<error>";
}

// Expects an error of `code` whose message contains `text`.
void ExpectError(std::string_view metadata, std::string_view value, StatusCode code,
                 std::string_view text) {
  std::string out = "kept";
  Status s = AppendVariantJson(AsBytes(metadata), AsBytes(value), &out);
  ASSERT_FALSE(s.ok()) << "decoded " << testing::Hex(value) << " as " << out;
  EXPECT_EQ(s.code(), code) << s.ToString();
  EXPECT_NE(s.message().find(text), std::string::npos) << s.ToString();
  EXPECT_EQ(out, "kept");  // on error the output is left as it was
}

// ---------------------------------------------------------------------------------------------
// Primitives

TEST(VariantDecoderTest, PrimitivesGolden) {
  struct Case {
    std::string value;
    std::string json;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const Case cases[] = {
      {Primitive(0), "null"},
      {Primitive(1), "true"},
      {Primitive(2), "false"},
      {FromHex("0c2a"), "42"},
      {FromHex("0cd6"), "-42"},
      {FromHex("10d204"), "1234"},
      {FromHex("100080"), "-32768"},
      {FromHex("1440e20100"), "123456"},
      {Primitive(6, LittleEndian(uint64_t{1} << 63, 8)), "-9223372036854775808"},
      {Primitive(6, RawBytes<int64_t>(1234567890123456789)), "1234567890123456789"},
      {Primitive(7, RawBytes(1.5)), "1.5"},
      {Primitive(7, RawBytes(3.0)), "3.0"},
      {Primitive(7, RawBytes(-0.0)), "-0.0"},
      {Primitive(7, RawBytes(1e300)), "1e+300"},
      {Primitive(7, RawBytes(std::nan(""))), "\"NaN\""},
      {Primitive(7, RawBytes(inf)), "\"Infinity\""},
      {Primitive(7, RawBytes(-inf)), "\"-Infinity\""},
      {Primitive(14, RawBytes(1.1f)), "1.100000023841858"},
      {Primitive(14, RawBytes(2.0f)), "2.0"},
      {Primitive(14, RawBytes(std::nanf(""))), "\"NaN\""},
      {Primitive(14, RawBytes(-std::numeric_limits<float>::infinity())), "\"-Infinity\""},
      // decimal4/8/16: scale byte then the unscaled value, exact text with `scale` digits.
      {Primitive(8, "\x04" + RawBytes<int32_t>(1234500)), "123.4500"},
      {Primitive(8, std::string(1, '\0') + RawBytes<int32_t>(-7)), "-7"},
      {Primitive(9, "\x02" + RawBytes<int64_t>(-5)), "-0.05"},
      {Primitive(9, "\x09" + RawBytes<int64_t>(123456789987654321)), "123456789.987654321"},
      {Primitive(10, std::string("\x00", 1) + LittleEndian(0, 8) + LittleEndian(1, 8)),
       "18446744073709551616"},
      {Primitive(10, "\x03" + std::string(16, '\xff')), "-0.001"},
      {Primitive(10, "\x26" + FromHex("ffffffff3f228a097ac4865aa84c3b4b")),
       "0.99999999999999999999999999999999999999"},
      {Primitive(11, RawBytes<int32_t>(0)), "\"1970-01-01\""},
      {Primitive(11, RawBytes<int32_t>(-1)), "\"1969-12-31\""},
      {Primitive(11, RawBytes<int32_t>(20000)), "\"2024-10-04\""},
      {Primitive(12, RawBytes<int64_t>(0)), "\"1970-01-01 00:00:00\""},
      {Primitive(12, RawBytes<int64_t>(1)), "\"1970-01-01 00:00:00.000001\""},
      {Primitive(13, RawBytes<int64_t>(-1)), "\"1969-12-31 23:59:59.999999\""},
      {Primitive(17, RawBytes<int64_t>(45296789012)), "\"12:34:56.789012\""},
      {Primitive(17, RawBytes<int64_t>(0)), "\"00:00:00\""},
      {Primitive(18, RawBytes<int64_t>(1)), "\"1970-01-01 00:00:00.000000001\""},
      {Primitive(19, RawBytes<int64_t>(1500000000)), "\"1970-01-01 00:00:01.500000000\""},
      {Primitive(15, LittleEndian(3, 4) + FromHex("00ff10")), "\"AP8Q\""},
      {Primitive(15, LittleEndian(0, 4)), "\"\""},
      {LongString("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\""},
      {Primitive(20, FromHex("00112233445566778899aabbccddeeff")),
       "\"00112233-4455-6677-8899-aabbccddeeff\""},
      {ShortString(""), "\"\""},
      {ShortString(std::string(63, 'x')), "\"" + std::string(63, 'x') + "\""},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(DecodeOk(kEmptyMetadata, c.value), c.json) << testing::Hex(c.value);
  }
}

// ---------------------------------------------------------------------------------------------
// Objects and arrays

TEST(VariantDecoderTest, ObjectsAndArraysInEverySizeLayout) {
  const std::string metadata = Metadata({"b", "a", "c"}, 2);
  // Stored sorted by name: a (id 1), b (id 0), c (id 2).
  const std::vector<FieldBytes> fields = {
      {1, FromHex("0c01")}, {0, ShortString("two")}, {2, Array({Primitive(0), FromHex("0c03")})}};
  for (int id_size = 1; id_size <= 4; ++id_size) {
    for (int offset_size = 1; offset_size <= 4; ++offset_size) {
      for (bool large : {false, true}) {
        for (bool reversed : {false, true}) {
          const ContainerSizes z{id_size, offset_size, large, reversed};
          EXPECT_EQ(DecodeOk(metadata, Object(fields, z)), R"({"a":1,"b":"two","c":[null,3]})")
              << id_size << offset_size << large << reversed;
          EXPECT_EQ(DecodeOk(metadata, Array({ShortString("x"), Object(fields, z)}, z)),
                    R"(["x",{"a":1,"b":"two","c":[null,3]}])");
        }
      }
    }
  }
  EXPECT_EQ(DecodeOk(kEmptyMetadata, Object({})), "{}");
  EXPECT_EQ(DecodeOk(kEmptyMetadata, Array({})), "[]");
  EXPECT_EQ(DecodeOk(kEmptyMetadata, Array({}, {1, 4, true})), "[]");
  // Field names are escaped like any string.
  EXPECT_EQ(DecodeOk(Metadata({"q\"\n"}), Object({{0, Primitive(1)}})), R"({"q\"\u000a":true})");
}

TEST(VariantDecoderTest, ManyElementsNeedLargeCountsAndWideOffsets) {
  std::vector<std::string> names;
  std::vector<FieldBytes> fields;
  std::vector<std::string> elements;
  std::string expected_object = "{";
  std::string expected_array = "[";
  for (int i = 0; i < 300; ++i) {
    char name[8];
    std::snprintf(name, sizeof(name), "k%03d", i);
    names.push_back(name);
    fields.push_back({static_cast<uint32_t>(i), Primitive(5, RawBytes<int32_t>(i * 1000))});
    elements.push_back(LongString(std::string(static_cast<size_t>(i % 7), 'z')));
    if (i > 0) {
      expected_object += ",";
      expected_array += ",";
    }
    expected_object += "\"" + std::string(name) + "\":" + std::to_string(i * 1000);
    expected_array += "\"" + std::string(static_cast<size_t>(i % 7), 'z') + "\"";
  }
  expected_object += "}";
  expected_array += "]";
  const std::string metadata = Metadata(names, 2, true);
  EXPECT_EQ(DecodeOk(metadata, Object(fields, {2, 2, true, true})), expected_object);
  EXPECT_EQ(DecodeOk(metadata, Array(elements, {1, 2, true})), expected_array);
}

TEST(VariantDecoderTest, UnsortedUniqueNamesKeepStoredOrder) {
  const std::string metadata = Metadata({"a", "b"});
  EXPECT_EQ(DecodeOk(metadata, Object({{1, Primitive(1)}, {0, Primitive(2)}})),
            R"({"b":true,"a":false})");
}

TEST(VariantDecoderTest, NestingUpToTheCap) {
  std::string value = Primitive(0);
  for (int i = 0; i < kMaxVariantNesting; ++i) value = Array({value}, {1, 4});
  Result<std::string> ok = Decode(kEmptyMetadata, value);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(*ok,
            std::string(kMaxVariantNesting, '[') + "null" + std::string(kMaxVariantNesting, ']'));
  ExpectError(kEmptyMetadata, Array({value}, {1, 4}), StatusCode::kCorruption, "nested more than");
}

// ---------------------------------------------------------------------------------------------
// The conformance examples (parquet-testing/variant)

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string kVariantDir = std::string(PQ_TESTDATA_DIR) + "/parquet-testing/variant/";

// Where data_dictionary.json writes a value in another form than this project's rendering
// (variant_text.h): the JSON expected here, and why it is the same value.
struct Override {
  const char* name;
  const char* json;
  const char* why;
};
const Override kOverrides[] = {
    {"primitive_time", R"("12:33:54.123456")", "dictionary writes 12:33:54:123456"},
    {"primitive_timestamp", R"("2025-04-16 16:34:56.780000")",
     "dictionary writes 2025-04-16 12:34:56.78-04:00: the same instant, printed in UTC"},
    {"primitive_timestampntz", R"("2025-04-16 12:34:56.780000")",
     "dictionary writes 2025-04-16 12:34:56.78; micros print 6 digits"},
    {"primitive_timestamp_nanos", R"("2024-11-07 12:33:54.123456789")",
     "dictionary writes 2024-11-07T12:33:54.123456789+00:00"},
    {"primitive_timestampntz_nanos", R"("2024-11-07 12:33:54.123456789")",
     "dictionary writes 2024-11-07T12:33:54.123456789"},
    {"primitive_decimal16", "12345678912345678.90",
     "dictionary writes the nearest double 1.2345678912345678e+16; scale 2 keeps 2 digits"},
    {"primitive_float", "1234567936.0",
     "dictionary writes 1234567940.0, which is the same float; the float widens to 1234567936"},
};

TEST(VariantDecoderTest, ExamplesMatchTheDataDictionary) {
  std::string dictionary_text = ReadFile(kVariantDir + "data_dictionary.json");
  // The file ends with a trailing comma before its closing brace, which JSON does not allow.
  const size_t last_comma = dictionary_text.rfind(',');
  const size_t close = dictionary_text.rfind('}');
  ASSERT_LT(last_comma, close);
  if (dictionary_text.find_first_not_of(" \n\r\t", last_comma + 1) == close) {
    dictionary_text.erase(last_comma, 1);
  }
  std::optional<JsonValue> dictionary = JsonParser::Parse(dictionary_text);
  ASSERT_TRUE(dictionary.has_value());
  ASSERT_EQ(dictionary->kind, JsonValue::Kind::kObject);
  EXPECT_EQ(dictionary->members.size(), 28u);

  for (const auto& [name, expected_value] : dictionary->members) {
    SCOPED_TRACE(name);
    const std::string metadata = ReadFile(kVariantDir + name + ".metadata");
    const std::string value = ReadFile(kVariantDir + name + ".value");
    const std::string json = DecodeOk(metadata, value);
    std::optional<JsonValue> actual = JsonParser::Parse(json);
    ASSERT_TRUE(actual.has_value()) << json;
    const Override* o = nullptr;
    for (const Override& candidate : kOverrides) {
      if (candidate.name == name) o = &candidate;
    }
    if (o != nullptr) {
      EXPECT_EQ(json, o->json) << o->why;
      // The override is the same value as the dictionary's, where both are numbers.
      if (expected_value.kind == JsonValue::Kind::kNumber) {
        if (name == "primitive_float") {
          EXPECT_EQ(static_cast<float>(actual->AsDouble()),
                    static_cast<float>(expected_value.AsDouble()));
        } else {
          EXPECT_EQ(actual->AsDouble(), expected_value.AsDouble());
        }
      }
      continue;
    }
    EXPECT_EQ(JsonDifference(*actual, expected_value), "") << json;
  }

  // Not in the dictionary: a string too long for a short string.
  const std::string long_json = DecodeOk(ReadFile(kVariantDir + "long_string.metadata"),
                                         ReadFile(kVariantDir + "long_string.value"));
  EXPECT_EQ(long_json.rfind("\"This string is for sure and certainly longer than 64 bytes", 0), 0u)
      << long_json;
}

TEST(VariantDecoderTest, ExampleObjectsKeepTheirStoredOrder) {
  EXPECT_EQ(DecodeOk(ReadFile(kVariantDir + "object_nested.metadata"),
                     ReadFile(kVariantDir + "object_nested.value")),
            R"({"id":1,"observation":{"location":"In the Volcano","time":"12:34:56",)"
            R"("value":{"humidity":456,"temperature":123}},)"
            R"("species":{"name":"lava monster","population":6789}})");
}

// ---------------------------------------------------------------------------------------------
// Random round trips

// Builds a random value and the JSON it must decode to.
class RandomVariant {
 public:
  explicit RandomVariant(uint32_t seed) : rng_(seed) {
    for (int i = 0; i < 40; ++i) names_.push_back("f" + std::to_string(i * 7919 % 1000));
    std::sort(names_.begin(), names_.end());
    names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
    std::shuffle(names_.begin(), names_.end(), rng_);  // dictionary order is not name order
  }
  const std::vector<std::string>& names() const { return names_; }

  void Make(int depth, std::string* value, std::string* json) {
    const int pick = static_cast<int>(rng_() % (depth < 4 ? 10 : 7));
    switch (pick) {
      case 0:
        *value = Primitive(0);
        *json = "null";
        return;
      case 1: {
        const int32_t v = static_cast<int32_t>(rng_());
        *value = Primitive(5, RawBytes(v));
        *json = std::to_string(v);
        return;
      }
      case 2: {
        const int64_t v = static_cast<int64_t>(uint64_t{rng_()} << 32 | rng_());
        *value = Primitive(6, RawBytes(v));
        *json = std::to_string(v);
        return;
      }
      case 3: {
        const std::string s(rng_() % 70, static_cast<char>('a' + rng_() % 26));
        *value = s.size() < 64 && rng_() % 2 ? ShortString(s) : LongString(s);
        *json = "\"" + s + "\"";
        return;
      }
      case 4:
        *value = Primitive(rng_() % 2 ? 1 : 2);
        *json = (*value)[0] == 4 ? "true" : "false";
        return;
      case 5: {
        const int32_t days = static_cast<int32_t>(rng_() % 800000) - 400000;
        *value = Primitive(11, RawBytes(days));
        *json = "\"" + FormatDate(days) + "\"";  // temporal.h has its own tests
        return;
      }
      case 6: {
        const int32_t unscaled = static_cast<int32_t>(rng_() % 2000000) - 1000000;
        *value = Primitive(8, std::string(1, '\x03') + RawBytes(unscaled));
        const int64_t a = unscaled < 0 ? -int64_t{unscaled} : unscaled;
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%s%lld.%03lld", unscaled < 0 ? "-" : "",
                      static_cast<long long>(a / 1000), static_cast<long long>(a % 1000));
        *json = buf;
        return;
      }
      case 7:
      case 8: {
        const size_t n = rng_() % 6;
        std::vector<std::string> values(n);
        *json = "[";
        for (size_t i = 0; i < n; ++i) {
          std::string j;
          Make(depth + 1, &values[i], &j);
          if (i) *json += ",";
          *json += j;
        }
        *json += "]";
        *value = Array(values, Sizes());
        return;
      }
      default: {
        std::vector<size_t> picked;
        for (size_t i = 0; i < names_.size(); ++i) {
          if (rng_() % 8 == 0) picked.push_back(i);
        }
        std::sort(picked.begin(), picked.end(),
                  [&](size_t a, size_t b) { return names_[a] < names_[b]; });
        std::vector<FieldBytes> fields;
        *json = "{";
        for (size_t i = 0; i < picked.size(); ++i) {
          FieldBytes f{static_cast<uint32_t>(picked[i]), ""};
          std::string j;
          Make(depth + 1, &f.value, &j);
          if (i) *json += ",";
          *json += "\"" + names_[picked[i]] + "\":" + j;
          fields.push_back(std::move(f));
        }
        *json += "}";
        *value = Object(fields, Sizes());
        return;
      }
    }
  }

 private:
  ContainerSizes Sizes() {
    ContainerSizes z;
    z.id_size = 1 + static_cast<int>(rng_() % 4);
    z.offset_size = 1 + static_cast<int>(rng_() % 4);
    z.large = rng_() % 3 == 0;
    z.values_reversed = rng_() % 2 == 0;
    return z;
  }

  std::mt19937 rng_;
  std::vector<std::string> names_;
};

TEST(VariantDecoderTest, RandomRoundTrips) {
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    RandomVariant gen(seed);
    std::string value;
    std::string json;
    gen.Make(0, &value, &json);
    const std::string metadata = Metadata(gen.names(), 1 + static_cast<int>(seed % 4));
    const std::string actual = DecodeOk(metadata, value);
    EXPECT_EQ(actual, json) << "seed " << seed;
    EXPECT_TRUE(JsonParser::Parse(actual).has_value()) << actual;
  }
}

// ---------------------------------------------------------------------------------------------
// Malformed input

TEST(VariantDecoderTest, MalformedMetadata) {
  const std::string v = Primitive(0);
  ExpectError("", v, StatusCode::kCorruption, "metadata is empty");
  ExpectError(FromHex("020000"), v, StatusCode::kNotSupported, "metadata version 2");
  ExpectError(FromHex("000000"), v, StatusCode::kNotSupported, "metadata version 0");
  ExpectError(FromHex("01"), v, StatusCode::kCorruption,
              "metadata dictionary size needs 1 byte, 0 bytes left");
  ExpectError(FromHex("c1010000"), v, StatusCode::kCorruption,
              "metadata dictionary size needs 4 bytes, 3 bytes left");
  ExpectError(FromHex("01020001"), v, StatusCode::kCorruption,
              "metadata dictionary offsets needs 3 bytes, 2 bytes left");
  ExpectError(FromHex("01010005") + "abc", v, StatusCode::kCorruption,
              "metadata dictionary strings needs 5 bytes, 3 bytes left");
  // Entries are checked when used: an entry that runs backwards.
  const std::string backwards = FromHex("0102000301") + "abc";
  EXPECT_TRUE(VariantMetadata::Parse(AsBytes(backwards)).ok());
  ExpectError(backwards, Object({{1, Primitive(0)}}), StatusCode::kCorruption,
              "dictionary entry 1 spans bytes [3, 1)");
  // A wide metadata, and its size.
  const std::string wide = Metadata({"alpha", "beta"}, 4) + "trailing";
  Result<VariantMetadata> m = VariantMetadata::Parse(AsBytes(wide));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->dictionary_size(), 2u);
  EXPECT_EQ(m->size(), wide.size() - 8);
  EXPECT_EQ(*m->Key(1), "beta");
  EXPECT_TRUE(m->Key(2).status().IsCorruption());
}

TEST(VariantDecoderTest, MalformedValues) {
  const std::string md = Metadata({"a", "b"});
  ExpectError(md, "", StatusCode::kCorruption, "a value needs 1 byte, 0 bytes left");
  ExpectError(md, Primitive(0) + "x", StatusCode::kCorruption, "1 byte after the end");
  ExpectError(md, Primitive(21), StatusCode::kNotSupported, "primitive type 21");
  ExpectError(md, Primitive(63), StatusCode::kNotSupported, "primitive type 63");
  ExpectError(md, FromHex("0c"), StatusCode::kCorruption, "value needs 2 bytes, 1 byte left");
  ExpectError(md, Primitive(16, FromHex("050000")), StatusCode::kCorruption,
              "string length needs 4 bytes");
  ExpectError(md, Primitive(16, LittleEndian(0xFFFFFFFF, 4) + "ab"), StatusCode::kCorruption,
              "value needs 4294967300 bytes, 7 bytes left");
  ExpectError(md, Primitive(8, "\x27" + RawBytes<int32_t>(1)), StatusCode::kCorruption,
              "decimal scale 39");
  ExpectError(md, ShortString("abc").substr(0, 3), StatusCode::kCorruption, "value needs 4 bytes");
  // Objects.
  ExpectError(md, Object({{2, Primitive(0)}}), StatusCode::kCorruption,
              "field id 2 is outside the metadata dictionary of 2 names");
  ExpectError(md, Object({{0, Primitive(0)}, {0, Primitive(1)}}), StatusCode::kCorruption,
              "field 'a' twice");
  ExpectError(Metadata({"a", "b", "a"}),
              Object({{1, Primitive(0)}, {0, Primitive(1)}, {2, Primitive(0)}}),
              StatusCode::kCorruption, "field 'a' twice");
  ExpectError(md, FromHex("02"), StatusCode::kCorruption, "object needs 1 byte, 0 bytes left");
  ExpectError(md, FromHex("0202000100"), StatusCode::kCorruption,
              "object field ids and offsets needs 5 bytes, 3 bytes left");
  ExpectError(md, FromHex("020100000500"), StatusCode::kCorruption,
              "object field values needs 5 bytes, 1 byte left");
  ExpectError(md, FromHex("0f02"), StatusCode::kCorruption,
              "array offsets needs 12 bytes, 0 bytes left");
  ExpectError(md,
              FromHex("03010002"
                      "0c"),
              StatusCode::kCorruption, "array elements needs 2 bytes, 1 byte left");
  // Children sharing or overlapping bytes: two fields or elements at one offset, a child running
  // into the next, an offset past the end of the children.
  ExpectError(md, FromHex("0202000100000100"), StatusCode::kCorruption,
              "two object fields start at offset 0");
  ExpectError(md,
              FromHex("030300000102"
                      "0000"),
              StatusCode::kCorruption, "two array elements start at offset 0");
  ExpectError(md,
              FromHex("0302000103"
                      "0c0100"),
              StatusCode::kCorruption, "value needs 2 bytes, 1 byte left");
  ExpectError(md,
              FromHex("0302000201"
                      "00"),
              StatusCode::kCorruption,
              "child at offset 2 starts after the end of its container (1)");
}

// Children may not share bytes: otherwise nested aliases make a few bytes decode to an
// exponential amount of text. Each level below points both fields at the one child; every such
// value must fail fast.
TEST(VariantDecoderTest, AliasedChildrenAreRefused) {
  const std::string md = Metadata({"a", "b"});
  std::string value = Primitive(0);
  for (int level = 0; level < 30; ++level) {
    // {"a": X, "b": X}: both offsets 0, the children's bytes X stored once.
    value = FromHex(
                "0202"
                "0001"
                "0000") +
            std::string(1, static_cast<char>(value.size())) + value;
  }
  ExpectError(md, value, StatusCode::kCorruption, "two object fields start at offset 0");
}

// ---------------------------------------------------------------------------------------------
// Damaged bytes: every truncation fails, byte flips never crash (run under the sanitizers).

std::vector<std::pair<std::string, std::string>> AllExamples() {
  std::vector<std::pair<std::string, std::string>> v;
  for (const char* name : {"array_empty",
                           "array_nested",
                           "array_primitive",
                           "long_string",
                           "object_empty",
                           "object_nested",
                           "object_primitive",
                           "primitive_binary",
                           "primitive_boolean_false",
                           "primitive_boolean_true",
                           "primitive_date",
                           "primitive_decimal16",
                           "primitive_decimal4",
                           "primitive_decimal8",
                           "primitive_double",
                           "primitive_float",
                           "primitive_int16",
                           "primitive_int32",
                           "primitive_int64",
                           "primitive_int8",
                           "primitive_null",
                           "primitive_string",
                           "primitive_time",
                           "primitive_timestamp",
                           "primitive_timestamp_nanos",
                           "primitive_timestampntz",
                           "primitive_timestampntz_nanos",
                           "primitive_uuid",
                           "short_string"}) {
    v.emplace_back(ReadFile(kVariantDir + name + ".metadata"),
                   ReadFile(kVariantDir + name + ".value"));
  }
  return v;
}

TEST(VariantDecoderTest, EveryTruncationFails) {
  for (const auto& [metadata, value] : AllExamples()) {
    ASSERT_TRUE(Decode(metadata, value).ok());
    for (size_t n = 0; n < value.size(); ++n) {
      EXPECT_FALSE(Decode(metadata, value.substr(0, n)).ok())
          << testing::Hex(value) << " cut at " << n;
    }
    for (size_t n = 0; n < metadata.size(); ++n) {
      EXPECT_FALSE(Decode(metadata.substr(0, n), value).ok())
          << testing::Hex(metadata) << " cut at " << n;
    }
  }
}

TEST(VariantDecoderTest, ByteFlipsNeverCrash) {
  std::mt19937 rng(20250416);
  int decoded = 0;
  int failed = 0;
  for (const auto& [metadata, value] : AllExamples()) {
    for (int trial = 0; trial < 400; ++trial) {
      std::string m = metadata;
      std::string v = value;
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f) {
        std::string& target = rng() % 4 == 0 ? m : v;
        target[rng() % target.size()] ^= static_cast<char>(1 + rng() % 255);
      }
      Result<std::string> r = Decode(m, v);
      if (r.ok()) {
        ++decoded;
        EXPECT_TRUE(JsonParser::Parse(*r).has_value()) << *r;
      } else {
        ++failed;
      }
    }
  }
  EXPECT_GT(failed, 0);
  EXPECT_GT(decoded, 0);
}

// ReadObjectFields: what the shredding reconstruction merges.
TEST(VariantDecoderTest, ReadObjectFields) {
  const std::string md = Metadata({"b", "a"});
  Result<VariantMetadata> m = VariantMetadata::Parse(AsBytes(md));
  ASSERT_TRUE(m.ok());
  VariantDecoder decoder;
  std::vector<VariantField> fields = {{"kept", {}}};
  const std::string object =
      Object({{1, FromHex("0c05")}, {0, ShortString("x")}}, {2, 3, true, true});
  ASSERT_TRUE(decoder.ReadObjectFields(*m, AsBytes(object), &fields).ok());
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(fields[0].name, "kept");
  EXPECT_EQ(fields[1].name, "a");
  EXPECT_EQ(testing::Hex(AsStringView(fields[1].value)), "0c05");
  EXPECT_EQ(fields[2].name, "b");
  EXPECT_EQ(AsStringView(fields[2].value), ShortString("x"));

  std::string out;
  ASSERT_TRUE(decoder.AppendJson(*m, fields[2].value, &out).ok());
  EXPECT_EQ(out, "\"x\"");

  fields.resize(1);
  EXPECT_TRUE(decoder.ReadObjectFields(*m, AsBytes(Array({})), &fields).IsCorruption());
  EXPECT_TRUE(
      decoder.ReadObjectFields(*m, AsBytes(Object({{0, Primitive(0)}, {0, Primitive(0)}})), &fields)
          .IsCorruption());
  EXPECT_TRUE(
      decoder.ReadObjectFields(*m, AsBytes(Object({{7, Primitive(0)}})), &fields).IsCorruption());
  EXPECT_EQ(fields.size(), 1u);  // nothing appended on error
}

// Objects of a few bytes naming one long key expand a thousandfold (issue "Hostile files",
// finding 5): the output limit stops the text before it passes it, and leaves *out as it was.
TEST(VariantDecoderTest, OutputLimitBoundsTheTextOfRepeatedKeys) {
  const std::string metadata = hostile::VariantMetadataOfKey(std::string(1000, 'k'));
  const std::string value = hostile::VariantArrayOfObjects(1000);  // 6 KB: 1 MB of JSON
  auto parsed = VariantMetadata::Parse(ByteSpan(reinterpret_cast<const uint8_t*>(metadata.data()), metadata.size()));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const ByteSpan v(reinterpret_cast<const uint8_t*>(value.data()), value.size());
  VariantDecoder decoder;
  std::string out = "[";
  decoder.set_output_limit(64 << 10);
  Status s = decoder.AppendJson(*parsed, v, &out);
  EXPECT_EQ(s.code(), StatusCode::kOutOfMemory) << s.ToString();
  EXPECT_EQ(out, "[");
  EXPECT_LE(out.capacity(), size_t{1} << 17);
  decoder.set_output_limit(size_t{4} << 20);
  ASSERT_TRUE(decoder.AppendJson(*parsed, v, &out).ok());
  EXPECT_EQ(out.size(), 1 + 1000 * (1000 + 9) + 1000 + 1);  // [ then {"k...":null} and commas ]
}

}  // namespace
}  // namespace pq
