#include "format/writer/json_shredder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "format/record/json_assembler.h"
#include "format/value/decimal.h"
#include "format/util/json_writer.h"
#include "format/value/leaf_converter.h"
#include "tests/format/writer/writer_test_util.h"

namespace pq {
namespace {

using namespace pq::testing;  // NOLINT
using Kind = LogicalType::Kind;
using Elements = std::vector<SchemaElement>;

// ---------------------------------------------------------------------------------------------
// Fields as SchemaElements, in the forms the SQL export writes.

Elements Prim(PhysicalType type, std::optional<LogicalType> logical = std::nullopt,
              int32_t type_length = 0) {
  return {Leaf("x", type, Repetition::kOptional, logical, type_length)};
}

Elements Named(Elements e, const std::string& name, Repetition rep = Repetition::kOptional) {
  e[0].name = name;
  e[0].repetition_type = rep;
  return e;
}

Elements ListOf(const Elements& element) {
  Elements e = {Group("x", Repetition::kOptional, 1, Logical(Kind::kList)),
                Group("list", Repetition::kRepeated, 1)};
  for (const SchemaElement& x : Named(element, "element")) e.push_back(x);
  return e;
}

Elements MapOf(const Elements& key, const Elements& value) {
  Elements e = {Group("x", Repetition::kOptional, 1, Logical(Kind::kMap)),
                Group("key_value", Repetition::kRepeated, 2)};
  for (const SchemaElement& x : Named(key, "key", Repetition::kRequired)) e.push_back(x);
  for (const SchemaElement& x : Named(value, "value")) e.push_back(x);
  return e;
}

Elements StructOf(const std::vector<std::pair<std::string, Elements>>& fields) {
  Elements e = {Group("x", Repetition::kOptional, static_cast<int>(fields.size()))};
  for (const auto& [name, f] : fields) {
    for (const SchemaElement& x : Named(f, name)) e.push_back(x);
  }
  return e;
}

Elements Int64() {
  return Prim(PhysicalType::kInt64);
}
Elements Str() {
  return Prim(PhysicalType::kByteArray, Logical(Kind::kString));
}
Elements Dbl() {
  return Prim(PhysicalType::kDouble);
}

std::unique_ptr<JsonShredder> MakeShredder(const Elements& field) {
  auto made = JsonShredder::Make(field);
  EXPECT_TRUE(made.ok()) << made.status().ToString();
  return made.ok() ? std::move(made).value() : nullptr;
}

void AppendAll(JsonShredder* s, const JsonRecords& records) {
  for (const auto& r : records) {
    Status st = r ? s->Append(*r) : s->AppendNull();
    ASSERT_TRUE(st.ok()) << (r ? *r : "NULL") << ": " << st.ToString();
  }
}

// ---------------------------------------------------------------------------------------------
// Levels.

TEST(JsonShredderTest, ListLevelsTellNullEmptyAndNullElementApart) {
  // x (LIST) optional: def 1; list repeated: def 2, rep 1; element optional: def 3.
  auto s = MakeShredder(ListOf(Int64()));
  ASSERT_TRUE(s);
  AppendAll(s.get(), {"[1, 2, null]", "[]", "null", std::nullopt, "[null]", " [ 3 ] "});
  const ShreddedLeaf& l = s->leaf(0);
  EXPECT_EQ(l.def_levels, (std::vector<int16_t>{3, 3, 2, 1, 0, 0, 2, 3}));
  EXPECT_EQ(l.rep_levels, (std::vector<int16_t>{0, 1, 1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(l.int64s, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(s->rows(), 6);
}

TEST(JsonShredderTest, StructsAndListsInsideLists) {
  // LIST<STRUCT<a INT64, b LIST<STRING>>>: x 1, list 2 (rep 1), element 3, a 4, b 4, b.list 5
  // (rep 2), b.element 6.
  auto s = MakeShredder(ListOf(StructOf({{"a", Int64()}, {"b", ListOf(Str())}})));
  ASSERT_TRUE(s);
  ASSERT_EQ(s->num_leaves(), 2);
  AppendAll(s.get(), {R"([{"a":1,"b":["x","y"]},{"b":[],"a":2},null])", R"([{"b":null}])",
                      R"([{}, {"b":[null,"z"]}])"});
  const ShreddedLeaf& a = s->leaf(0);
  const ShreddedLeaf& b = s->leaf(1);
  EXPECT_EQ(a.def_levels, (std::vector<int16_t>{4, 4, 2, 3, 3, 3}));
  EXPECT_EQ(a.rep_levels, (std::vector<int16_t>{0, 1, 1, 0, 0, 1}));
  EXPECT_EQ(a.int64s, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(b.def_levels, (std::vector<int16_t>{6, 6, 4, 2, 3, 3, 5, 6}));
  EXPECT_EQ(b.rep_levels, (std::vector<int16_t>{0, 2, 1, 1, 0, 0, 1, 2}));
  ASSERT_EQ(b.num_values(), 3);
  EXPECT_EQ(b.byte_value(0), "x");
  EXPECT_EQ(b.byte_value(1), "y");
  EXPECT_EQ(b.byte_value(2), "z");
  EXPECT_EQ(b.node->DottedPath(), "x.list.element.b.list.element");
}

TEST(JsonShredderTest, MapsAsObjectsOrEntryArrays) {
  // MAP<INT32, DOUBLE>: x 1, key_value 2 (rep 1), key 2 (required), value 3.
  auto s = MakeShredder(MapOf(Prim(PhysicalType::kInt32), Dbl()));
  ASSERT_TRUE(s);
  AppendAll(s.get(), {R"({"1": 1.5, "-2": null})", R"([{"key": 3, "value": 2}, {"key": 4}])", "{}",
                      "[]", "null"});
  const ShreddedLeaf& key = s->leaf(0);
  const ShreddedLeaf& value = s->leaf(1);
  EXPECT_EQ(key.def_levels, (std::vector<int16_t>{2, 2, 2, 2, 1, 1, 0}));
  EXPECT_EQ(key.rep_levels, (std::vector<int16_t>{0, 1, 0, 1, 0, 0, 0}));
  EXPECT_EQ(key.int32s, (std::vector<int32_t>{1, -2, 3, 4}));
  EXPECT_EQ(value.def_levels, (std::vector<int16_t>{3, 2, 3, 2, 1, 1, 0}));
  EXPECT_EQ(value.rep_levels, key.rep_levels);
  EXPECT_EQ(value.doubles, (std::vector<double>{1.5, 2.0}));
}

TEST(JsonShredderTest, MapKeysConvertFromMemberNames) {
  auto bools = MakeShredder(MapOf(Prim(PhysicalType::kBoolean), Int64()));
  ASSERT_TRUE(bools);
  AppendAll(bools.get(), {R"({"true": 1, "0": 2})"});
  EXPECT_EQ(bools->leaf(0).booleans, (std::vector<uint8_t>{1, 0}));

  auto dates = MakeShredder(MapOf(Prim(PhysicalType::kInt32, Logical(Kind::kDate)), Int64()));
  ASSERT_TRUE(dates);
  AppendAll(dates.get(), {R"({"1970-01-02": 1})"});
  EXPECT_EQ(dates->leaf(0).int32s, (std::vector<int32_t>{1}));

  auto ts = MakeShredder(
      MapOf(Prim(PhysicalType::kInt64, TimestampType(TimeUnit::kMillis, true)), Int64()));
  ASSERT_TRUE(ts);
  AppendAll(ts.get(), {R"({"1970-01-01 00:00:01": 1, "5": 2})"});
  EXPECT_EQ(ts->leaf(0).int64s, (std::vector<int64_t>{1000, 5}));

  auto dec = MakeShredder(MapOf(Prim(PhysicalType::kInt64, DecimalType(10, 2)), Int64()));
  ASSERT_TRUE(dec);
  AppendAll(dec.get(), {R"({"1.5": 1, "-0.25": 2})"});
  EXPECT_EQ(dec->leaf(0).int64s, (std::vector<int64_t>{150, -25}));
}

TEST(JsonShredderTest, LeafValuesOfEveryType) {
  auto s = MakeShredder(StructOf({
      {"b", Prim(PhysicalType::kBoolean)},
      {"i8", Prim(PhysicalType::kInt32, IntType(8, true))},
      {"u32", Prim(PhysicalType::kInt32, IntType(32, false))},
      {"u64", Prim(PhysicalType::kInt64, IntType(64, false))},
      {"f", Prim(PhysicalType::kFloat)},
      {"d", Dbl()},
      {"s", Str()},
      {"j", Prim(PhysicalType::kByteArray, Logical(Kind::kJson))},
      {"bin", Prim(PhysicalType::kByteArray)},
      {"fixed", Prim(PhysicalType::kFixedLenByteArray, std::nullopt, 3)},
      {"day", Prim(PhysicalType::kInt32, Logical(Kind::kDate))},
      {"t", Prim(PhysicalType::kInt32,
                 [] {
                   LogicalType t = Logical(Kind::kTime);
                   t.unit = TimeUnit::kMillis;
                   return t;
                 }())},
      {"ts", Prim(PhysicalType::kInt64, TimestampType(TimeUnit::kMicros, true))},
      {"d32", Prim(PhysicalType::kInt32, DecimalType(9, 3))},
      {"d128", Prim(PhysicalType::kFixedLenByteArray, DecimalType(30, 4), 13)},
      {"u", Prim(PhysicalType::kFixedLenByteArray, Logical(Kind::kUuid), 16)},
  }));
  ASSERT_TRUE(s);
  AppendAll(s.get(), {R"({"b": true, "i8": -128, "u32": 4294967295, "u64": 18446744073709551615,
      "f": 0.5, "d": -1.25e2, "s": "a\"\\\n\u00e9\ud83d\ude00", "j": {"k": [1, 2]},
      "bin": "AP8=", "fixed": "YWJj", "day": "2024-01-31", "t": "12:00:00.5",
      "ts": "1970-01-01T00:00:01.000002Z", "d32": "-1.5", "d128": -12345678901234567890.1234,
      "u": "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"})",
                      R"({"b": 0, "i8": 127, "u32": 0, "u64": 1e3, "ts": 7, "d32": 2e-3})"});
  auto leaf = [&](int i) -> const ShreddedLeaf& { return s->leaf(i); };
  EXPECT_EQ(leaf(0).booleans, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(leaf(1).int32s, (std::vector<int32_t>{-128, 127}));
  EXPECT_EQ(leaf(2).int32s, (std::vector<int32_t>{-1, 0}));  // 4294967295 as INT32 bits
  EXPECT_EQ(leaf(3).int64s, (std::vector<int64_t>{-1, 1000}));
  EXPECT_EQ(leaf(4).floats, (std::vector<float>{0.5f}));
  EXPECT_EQ(leaf(5).doubles, (std::vector<double>{-125.0}));
  EXPECT_EQ(leaf(6).byte_value(0), "a\"\\\n\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(leaf(7).byte_value(0), R"({"k": [1, 2]})");
  EXPECT_EQ(leaf(8).byte_value(0), std::string("\x00\xff", 2));
  EXPECT_EQ(leaf(9).byte_value(0), "abc");
  EXPECT_EQ(leaf(10).int32s, (std::vector<int32_t>{19753}));
  EXPECT_EQ(leaf(11).int32s, (std::vector<int32_t>{43200500}));
  EXPECT_EQ(leaf(12).int64s, (std::vector<int64_t>{1000002, 7}));
  EXPECT_EQ(leaf(13).int32s, (std::vector<int32_t>{-1500, 2}));
  // 13 bytes of big-endian two's complement.
  ASSERT_EQ(leaf(14).byte_value(0).size(), 13u);
  std::string d128;
  ASSERT_TRUE(AppendDecimalText(leaf(14).byte_value(0), 4, &d128));
  EXPECT_EQ(d128, "-12345678901234567890.1234");
  EXPECT_EQ(leaf(15).byte_value(0),
            std::string("\x0f\x1e\x2d\x3c\x4b\x5a\x69\x78\x87\x96\xa5\xb4\xc3\xd2\xe1\xf0", 16));
  // Missing members are null at the struct's level (1).
  EXPECT_EQ(leaf(6).def_levels, (std::vector<int16_t>{2, 1}));
}

// ---------------------------------------------------------------------------------------------
// Errors.

struct ErrorCase {
  Elements field;
  std::string json;
  std::string message;  // the whole message
};

TEST(JsonShredderTest, MismatchesAndBadJsonSayWhere) {
  const Elements ints = ListOf(Int64());
  const Elements tiny = ListOf(Prim(PhysicalType::kInt32, IntType(8, true)));
  const Elements st = StructOf({{"a", Int64()}, {"b", ListOf(Str())}});
  const Elements text_map = MapOf(Str(), ListOf(Int64()));
  const Elements int_map = MapOf(Prim(PhysicalType::kInt64), Int64());
  const std::vector<ErrorCase> cases = {
      {ints, R"(["x"])", R"($[0]: expected an integer, found "x")"},
      {ints, "[1, 1.5]", "$[1]: expected an integer, found 1.5"},
      {ints, "[[1]]", "$[0]: expected an integer, found an array"},
      {ints, R"({"a":1})", "$: expected a list (a JSON array), found an object"},
      {ints, "5", "$: expected a list (a JSON array), found 5"},
      {ints, R"("[1]")", R"($: expected a list (a JSON array), found "[1]")"},
      {ints, "[1,", "invalid JSON at offset 3: expected a value"},
      {ints, "[1 2]", "invalid JSON at offset 3: expected ',' or ']'"},
      {ints, "[1] x", "invalid JSON at offset 4: text after the value"},
      {ints, "", "invalid JSON at offset 0: expected a value"},
      {ints, "[01]", "invalid JSON at offset 2: expected ',' or ']'"},
      {ints, "[-]", "invalid JSON at offset 1: malformed number"},
      {ints, "[nul]", "invalid JSON at offset 1: unexpected character"},
      {ints, "[92233720368547758070]",
       "$[0]: 92233720368547758070 is out of range for a 64-bit signed integer"},
      {tiny, "[127, 128]", "$[1]: 128 is out of range for an 8-bit signed integer"},
      {tiny, "[-129]", "$[0]: -129 is out of range for an 8-bit signed integer"},
      {st, R"({"c": 1})", "$: no field named 'c' (fields: a, b)"},
      {st, R"({"a": 1, "a": 2})", "$.a: field given twice"},
      {st, R"({"b": [1]})", "$.b[0]: expected a string, found 1"},
      {st, "[]", "$: expected a struct (a JSON object), found an array"},
      {text_map, R"({"k": [1], "k": []})", R"($: map key "k" appears twice)"},
      {text_map, R"({"a b": [1, "x"]})", R"($."a b"[1]: expected an integer, found "x")"},
      {text_map, R"([{"key": null, "value": []}])", "$[0].key: a map key cannot be null"},
      {text_map, R"([{"value": []}])", R"($[0]: a map entry without a "key")"},
      {text_map, R"([{"key": "a", "other": 2}])",
       R"($[0].other: a map entry has only "key" and "value", not "other")"},
      {text_map, R"([["a", 1]])",
       R"($[0]: expected a map entry {"key":..,"value":..}, found an array)"},
      {int_map, R"({"x": 1})", R"($.x: expected an integer, found "x")"},
      {int_map, R"({"1": 1, "1.0": 2})", R"($: map key "1.0" appears twice)"},
      {ListOf(Str()), R"(["\ud800"])",
       "invalid JSON at offset 8: unpaired surrogate in a \\u escape"},
      {ListOf(Str()), "[\"a\tb\"]", "invalid JSON at offset 3: control character in a string"},
      {ListOf(Str()), R"(["a\qb"])", "invalid JSON at offset 4: bad escape in a string"},
      {ListOf(Str()), R"(["abc)", "invalid JSON at offset 5: unterminated string"},
      {ListOf(Prim(PhysicalType::kInt32, Logical(Kind::kDate))), R"(["2024-02-30"])",
       R"($[0]: expected a date string 'YYYY-MM-DD', found "2024-02-30")"},
      {ListOf(Prim(PhysicalType::kInt64, DecimalType(5, 2))), "[1.234]",
       "$[0]: 1.234 has more than 2 digits after the point, which DECIMAL(5,2) cannot hold "
       "without rounding"},
      {ListOf(Prim(PhysicalType::kInt64, DecimalType(5, 2))), R"(["1000"])",
       R"($[0]: "1000" has 4 digits before the point, more than the 3 that DECIMAL(5,2) holds )"
       "(precision 5 less scale 2)"},
      {ListOf(Prim(PhysicalType::kByteArray)), R"(["not base64!"])",
       R"($[0]: expected a base64 string, found "not base64!")"},
      {ListOf(Prim(PhysicalType::kBoolean)), "[2]", "$[0]: expected true or false, found 2"},
      {ListOf(Prim(PhysicalType::kFloat)), "[1e300]", "$[0]: 1e300 is out of range for FLOAT"},
      {ListOf(Prim(PhysicalType::kFloat)), "[-3.5e38]", "$[0]: -3.5e38 is out of range for FLOAT"},
      {ListOf(Prim(PhysicalType::kFixedLenByteArray, Logical(Kind::kUuid), 16)), R"(["x"])",
       R"($[0]: expected a UUID string 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx', found "x")"},
      {ListOf(Prim(PhysicalType::kByteArray, Logical(Kind::kJson))), "[[1,]]",
       "invalid JSON at offset 4: expected a value"},
      {Named(ListOf(Int64()), "x", Repetition::kRequired), "null",
       "$: null where a value is required"},
  };
  for (const ErrorCase& c : cases) {
    auto s = MakeShredder(c.field);
    ASSERT_TRUE(s);
    Status result = s->Append(c.json);
    EXPECT_TRUE(result.IsInvalidArgument()) << c.json;
    EXPECT_EQ(result.message(), c.message) << c.json;
  }
}

TEST(JsonShredderTest, LongValuesAreCutInMessages) {
  auto s = MakeShredder(ListOf(Int64()));
  ASSERT_TRUE(s);
  Status st = s->Append("[\"" + std::string(100, 'a') + "\"]");
  EXPECT_EQ(st.message(), "$[0]: expected an integer, found \"" + std::string(36, 'a') + "...");
}

TEST(JsonShredderTest, AFailedAppendLeavesNoTrace) {
  const Elements field = ListOf(StructOf({{"a", Int64()}, {"b", ListOf(Str())}}));
  auto s = MakeShredder(field);
  auto expected = MakeShredder(field);
  ASSERT_TRUE(s && expected);
  AppendAll(s.get(), {R"([{"a":1,"b":["x"]}])"});
  AppendAll(expected.get(), {R"([{"a":1,"b":["x"]}])", R"([{"a":3}])"});
  // Fails after values went to both leaves.
  EXPECT_FALSE(s->Append(R"([{"a":2,"b":["y","z"]},{"a":"no"}])").ok());
  EXPECT_FALSE(s->Append(R"([{"a":2,"b":["y"]}, 7])").ok());
  EXPECT_EQ(s->rows(), 1);
  AppendAll(s.get(), {R"([{"a":3}])"});
  for (int i = 0; i < s->num_leaves(); ++i) {
    EXPECT_EQ(s->leaf(i).def_levels, expected->leaf(i).def_levels);
    EXPECT_EQ(s->leaf(i).rep_levels, expected->leaf(i).rep_levels);
    EXPECT_EQ(s->leaf(i).int64s, expected->leaf(i).int64s);
    EXPECT_EQ(s->leaf(i).bytes, expected->leaf(i).bytes);
    EXPECT_EQ(s->leaf(i).ends, expected->leaf(i).ends);
  }
}

TEST(JsonShredderTest, TruncateDropsWholeRecords) {
  const Elements field = MapOf(Str(), ListOf(Int64()));
  const JsonRecords records = {R"({"a":[1,2],"b":[]})", std::nullopt, R"({"c":[3]})", "{}",
                               R"({"d":[null,4],"e":null})"};
  for (int64_t keep = 0; keep <= 5; ++keep) {
    auto s = MakeShredder(field);
    auto expected = MakeShredder(field);
    ASSERT_TRUE(s && expected);
    AppendAll(s.get(), records);
    AppendAll(expected.get(), JsonRecords(records.begin(), records.begin() + keep));
    s->Truncate(keep);
    EXPECT_EQ(s->rows(), keep);
    for (int i = 0; i < s->num_leaves(); ++i) {
      EXPECT_EQ(s->leaf(i).def_levels, expected->leaf(i).def_levels) << keep;
      EXPECT_EQ(s->leaf(i).rep_levels, expected->leaf(i).rep_levels) << keep;
      EXPECT_EQ(s->leaf(i).int64s, expected->leaf(i).int64s) << keep;
      EXPECT_EQ(s->leaf(i).bytes, expected->leaf(i).bytes) << keep;
      EXPECT_EQ(s->leaf(i).ends, expected->leaf(i).ends) << keep;
    }
  }
}

TEST(JsonShredderTest, UnsupportedFormsAreRefusedAtMake) {
  // A 2-level list, a repeated top-level field, INT96, a JSON map key, an optional map key, a
  // VARIANT group.
  Elements two_level = {Group("x", Repetition::kOptional, 1, Logical(Kind::kList)),
                        Leaf("element", PhysicalType::kInt32, Repetition::kRepeated)};
  Elements repeated = {Leaf("x", PhysicalType::kInt32, Repetition::kRepeated)};
  Elements int96 = ListOf(Prim(PhysicalType::kInt96));
  Elements json_key = MapOf(Prim(PhysicalType::kByteArray, Logical(Kind::kJson)), Int64());
  Elements optional_key = MapOf(Str(), Int64());
  optional_key[2].repetition_type = Repetition::kOptional;
  Elements variant = {Group("x", Repetition::kOptional, 2, Logical(Kind::kVariant)),
                      Leaf("metadata", PhysicalType::kByteArray, Repetition::kRequired),
                      Leaf("value", PhysicalType::kByteArray, Repetition::kRequired)};
  for (const Elements& e : {two_level, repeated, int96, json_key, optional_key, variant}) {
    auto made = JsonShredder::Make(e);
    EXPECT_TRUE(made.status().IsNotSupported()) << e[0].name << " " << made.status().ToString();
  }
  EXPECT_TRUE(JsonShredder::Make({}).status().IsInvalidArgument());
  // Two fields, not one.
  EXPECT_FALSE(JsonShredder::Make({Leaf("a", PhysicalType::kInt32, Repetition::kOptional),
                                   Leaf("b", PhysicalType::kInt32, Repetition::kOptional)})
                   .ok());
  // A required field cannot take a null record.
  auto req = MakeShredder(Named(ListOf(Int64()), "x", Repetition::kRequired));
  ASSERT_TRUE(req);
  EXPECT_TRUE(req->AppendNull().IsInvalidArgument());
}

// ---------------------------------------------------------------------------------------------
// Round trips: shredded, written by the FileWriter, read back and assembled by the reader.

// Writes `records` as field "c" in batches of `batch` records and reads them back.
JsonRecords RoundTrip(const Elements& field, const JsonRecords& records, const std::string& path,
                      WriterOptions options = {}, int64_t batch = 1000) {
  auto s = MakeShredder(Named(field, "c"));
  if (!s) return {};
  Elements schema = {Root(1)};
  for (const SchemaElement& e : Named(field, "c")) schema.push_back(e);
  auto w = FileWriter::Open(path, schema, options);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  if (!w.ok()) return {};
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    Status st = r ? s->Append(*r) : s->AppendNull();
    EXPECT_TRUE(st.ok()) << st.ToString();
    if (s->rows() == batch || i + 1 == records.size()) {
      st = s->WriteTo(w->get(), 0);
      EXPECT_TRUE(st.ok()) << st.ToString();
      st = (*w)->EndBatch();
      EXPECT_TRUE(st.ok()) << st.ToString();
    }
  }
  Status st = (*w)->Close();
  EXPECT_TRUE(st.ok()) << st.ToString();
  return ReadBackJson(path);
}

TEST(JsonShredderTest, ReadsBackAsTheReaderWritesJson) {
  struct Case {
    Elements field;
    JsonRecords in;
    JsonRecords out;  // as the reader renders them
  };
  const std::vector<Case> cases = {
      {ListOf(Int64()),
       {"[1, 2, null]", "[]", "null", std::nullopt, "[null]", "[ -5e2 ]"},
       {"[1,2,null]", "[]", std::nullopt, std::nullopt, "[null]", "[-500]"}},
      {ListOf(ListOf(Dbl())),
       {"[[1.5], [], null, [2, -0.0]]", "[[]]"},
       {"[[1.5],[],null,[2.0,-0.0]]", "[[]]"}},
      // A number beyond the largest double is an infinity, as SQLite reads it; the reader writes
      // infinities as 9e999 / -9e999. Below the smallest subnormal is zero.
      {ListOf(Dbl()),
       {"[9e999, -9e999, 1e400, -1E+400, 1e-400, -1e-400]"},
       {"[9e999,-9e999,9e999,-9e999,0.0,-0.0]"}},
      {ListOf(Prim(PhysicalType::kFloat)), {"[9e999, -1e400, 1.5]"}, {"[9e999,-9e999,1.5]"}},
      {StructOf({{"a", Int64()}, {"b", ListOf(Str())}}),
       {R"({"b": ["x\u0041\/", "\"q\""], "a": 7})", "{}", R"({"a": null, "b": []})"},
       {R"({"a":7,"b":["xA/","\"q\""]})", R"({"a":null,"b":null})", R"({"a":null,"b":[]})"}},
      {MapOf(Str(), ListOf(Prim(PhysicalType::kInt32, IntType(16, true)))),
       {R"({"k1": [1, null], "k2": null})", "{}", R"([{"key": "z", "value": [3]}])"},
       {R"({"k1":[1,null],"k2":null})", "{}", R"({"z":[3]})"}},
      {MapOf(Prim(PhysicalType::kInt64), Str()),
       {R"({"1": "one", "-5": null})", R"([{"key": 7, "value": "seven"}])"},
       {R"({"1":"one","-5":null})", R"({"7":"seven"})"}},
      {ListOf(StructOf({{"d", Prim(PhysicalType::kInt32, Logical(Kind::kDate))},
                        {"ts", Prim(PhysicalType::kInt64, TimestampType(TimeUnit::kMillis, true))},
                        {"m", Prim(PhysicalType::kInt64, DecimalType(12, 2))},
                        {"u", Prim(PhysicalType::kFixedLenByteArray, Logical(Kind::kUuid), 16)},
                        {"bin", Prim(PhysicalType::kByteArray)},
                        {"flag", Prim(PhysicalType::kBoolean)},
                        {"j", Prim(PhysicalType::kByteArray, Logical(Kind::kJson))}})),
       {R"([{"d": "2024-02-29", "ts": "2024-02-29T12:34:56.789Z", "m": 12.5,
            "u": "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0", "bin": "AP8", "flag": 1,
            "j": {"a": [1, 2]}}])"},
       {R"([{"d":"2024-02-29","ts":"2024-02-29 12:34:56.789","m":12.50,)"
        R"("u":"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0","bin":"AP8=","flag":true,)"
        R"("j":"{\"a\": [1, 2]}"}])"}},
  };
  int n = 0;
  for (const Case& c : cases) {
    const JsonRecords got = RoundTrip(c.field, c.in, TempPath(std::to_string(n++) + ".parquet"));
    EXPECT_EQ(got, c.out) << "case " << n - 1;
  }
}

// Random nested values in the reader's own rendering must come back byte for byte, whatever the
// pages, row groups and batches.
std::string RandomText(std::mt19937_64& rng) {
  static const char* kPieces[] = {"a", "b", "z", "0", " ", "\"", "\\", "\n", "\xc3\xa9", "/"};
  std::string s;
  const size_t n = rng() % 6;
  for (size_t i = 0; i < n; ++i) s += kPieces[rng() % 10];
  return s;
}

std::string RandomRecord(std::mt19937_64& rng) {
  // LIST<STRUCT<a INT64, b LIST<STRING>, m MAP<STRING, DOUBLE>>>
  std::string out;
  auto chance = [&rng](int percent) { return static_cast<int>(rng() % 100) < percent; };
  out += '[';
  const int elements = static_cast<int>(rng() % 4);
  for (int e = 0; e < elements; ++e) {
    if (e) out += ',';
    if (chance(15)) {
      out += "null";
      continue;
    }
    out += "{\"a\":";
    if (chance(20)) {
      out += "null";
    } else {
      AppendJsonInt(static_cast<int64_t>(rng()) >> (rng() % 64), &out);
    }
    out += ",\"b\":";
    if (chance(20)) {
      out += "null";
    } else {
      out += '[';
      const int n = static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i) {
        if (i) out += ',';
        if (chance(10)) {
          out += "null";
        } else {
          AppendJsonString(RandomText(rng), &out);
        }
      }
      out += ']';
    }
    out += ",\"m\":";
    if (chance(20)) {
      out += "null";
    } else {
      out += '{';
      const int n = static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i) {
        if (i) out += ',';
        AppendJsonString("k" + std::to_string(i) + RandomText(rng), &out);
        out += ':';
        if (chance(10)) {
          out += "null";
        } else {
          AppendJsonDouble(static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000) / 8,
                           &out);
        }
      }
      out += '}';
    }
    out += '}';
  }
  out += ']';
  return out;
}

TEST(JsonShredderTest, RandomNestedRecordsRoundTripExactly) {
  const Elements field =
      ListOf(StructOf({{"a", Int64()}, {"b", ListOf(Str())}, {"m", MapOf(Str(), Dbl())}}));
  std::mt19937_64 rng(20240611);
  JsonRecords records;
  for (int i = 0; i < 3000; ++i) {
    if (rng() % 10 == 0) {
      records.push_back(std::nullopt);
    } else {
      records.push_back(RandomRecord(rng));
    }
  }
  struct Config {
    int version;
    bool dictionary;
    int64_t page_bytes;
    int64_t row_group_rows;
    int64_t batch;
  };
  const std::vector<Config> configs = {
      {1, true, int64_t{1} << 20, 1'000'000, 1000},
      {2, false, 300, 777, 64},
      {1, false, 100, 50, 7},
      {2, true, 2000, 3000, 3000},
  };
  int n = 0;
  for (const Config& c : configs) {
    WriterOptions options;
    options.data_page_version = c.version;
    options.dictionary = c.dictionary;
    options.page_bytes = c.page_bytes;
    options.row_group_rows = c.row_group_rows;
    const JsonRecords got =
        RoundTrip(field, records, TempPath(std::to_string(n++) + ".parquet"), options, c.batch);
    ASSERT_EQ(got.size(), records.size()) << "config " << n - 1;
    for (size_t i = 0; i < records.size(); ++i) {
      ASSERT_EQ(got[i], records[i]) << "config " << n - 1 << ", record " << i;
    }
  }
}

}  // namespace
}  // namespace pq
