// VariantShredder (format/writer/variant_shredder.h): the spec's own shredding examples checked
// column by column ("Variant Shredding": the measurement series, the event objects, the tags
// arrays), which values go to typed_value and which stay in value, and round trips through the
// FileWriter and the reader's Variant reconstruction giving back the JSON of every Variant written.
#include "format/writer/variant_shredder.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "format/variant/variant_encoder.h"
#include "format/variant/variant_from_json.h"
#include "tests/format/writer/writer_test_util.h"

namespace pq {
namespace {

using namespace pq::testing;  // NOLINT
using Kind = LogicalType::Kind;
using Elements = std::vector<SchemaElement>;

// A Variant group "v": metadata, value and (optional) typed_value elements.
Elements VariantColumn(const Elements& typed = {}) {
  LogicalType variant = Logical(Kind::kVariant);
  variant.variant_specification_version = 1;
  Elements e = {Group("v", Repetition::kOptional, typed.empty() ? 2 : 3, variant),
                Leaf("metadata", PhysicalType::kByteArray, Repetition::kRequired),
                Leaf("value", PhysicalType::kByteArray,
                     typed.empty() ? Repetition::kRequired : Repetition::kOptional)};
  e.insert(e.end(), typed.begin(), typed.end());
  return e;
}

Elements TypedLeaf(PhysicalType type, std::optional<LogicalType> logical = std::nullopt,
                   int32_t length = 0) {
  return {Leaf("typed_value", type, Repetition::kOptional, logical, length)};
}

// required group <name> { optional binary value; <typed> }
Elements FieldGroup(const std::string& name, const Elements& typed) {
  Elements e = {Group(name, Repetition::kRequired, typed.empty() ? 1 : 2),
                Leaf("value", PhysicalType::kByteArray, Repetition::kOptional)};
  e.insert(e.end(), typed.begin(), typed.end());
  return e;
}

Elements TypedObject(const std::vector<std::pair<std::string, Elements>>& fields) {
  Elements e = {Group("typed_value", Repetition::kOptional, static_cast<int>(fields.size()))};
  for (const auto& [name, typed] : fields) {
    const Elements f = FieldGroup(name, typed);
    e.insert(e.end(), f.begin(), f.end());
  }
  return e;
}

Elements TypedList(const Elements& element_typed) {
  Elements e = {Group("typed_value", Repetition::kOptional, 1, Logical(Kind::kList)),
                Group("list", Repetition::kRepeated, 1)};
  const Elements element = FieldGroup("element", element_typed);
  e.insert(e.end(), element.begin(), element.end());
  return e;
}

Elements Str() {
  return TypedLeaf(PhysicalType::kByteArray, Logical(Kind::kString));
}

struct Built {
  std::string metadata, value;
};

Built Encode(const std::function<void(VariantEncoder*)>& add) {
  VariantEncoder e;
  e.Reset();
  add(&e);
  std::string_view m, v;
  Status s = e.Finish(&m, &v);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return {std::string(m), std::string(v)};
}

Built FromJson(std::string_view json) {
  return Encode([json](VariantEncoder* e) { EXPECT_TRUE(AddJsonToVariant(json, e).ok()) << json; });
}

std::string JsonOf(const Built& b) {
  std::string out;
  EXPECT_TRUE(AppendVariantJson(AsBytes(b.metadata), AsBytes(b.value), &out).ok());
  return out;
}

std::unique_ptr<VariantShredder> Make(const Elements& column) {
  auto made = VariantShredder::Make(column);
  EXPECT_TRUE(made.ok()) << made.status().ToString();
  return made.ok() ? std::move(made).value() : nullptr;
}

void Append(VariantShredder* s, const Built& b) {
  Status st = s->Append(AsBytes(b.metadata), AsBytes(b.value));
  EXPECT_TRUE(st.ok()) << st.ToString();
}

// The leaf named by its dotted path below "v".
const ShreddedLeaf& LeafAt(const VariantShredder& s, const std::string& path) {
  for (int i = 0; i < s.num_leaves(); ++i) {
    if (s.leaf(i).node->DottedPath() == "v." + path) return s.leaf(i);
  }
  ADD_FAILURE() << "no leaf " << path;
  return s.leaf(0);
}

std::vector<std::string> Bytes(const ShreddedLeaf& l) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < l.num_values(); ++i) out.emplace_back(l.byte_value(i));
  return out;
}

// The spec's measurement series 34, null, "n/a", 100 under an INT64 typed_value.
TEST(VariantShredderTest, PrimitiveSeriesAsInTheSpec) {
  auto s = Make(VariantColumn(TypedLeaf(PhysicalType::kInt64)));
  ASSERT_TRUE(s);
  for (const char* json : {"34", "null", "\"n/a\"", "100"}) Append(s.get(), FromJson(json));
  const ShreddedLeaf& value = LeafAt(*s, "value");
  const ShreddedLeaf& typed = LeafAt(*s, "typed_value");
  EXPECT_EQ(value.def_levels, (std::vector<int16_t>{1, 2, 2, 1}));
  EXPECT_EQ(Bytes(value), (std::vector<std::string>{std::string(1, '\0'), "\x0dn/a"}));
  EXPECT_EQ(typed.def_levels, (std::vector<int16_t>{2, 1, 1, 2}));
  EXPECT_EQ(typed.int64s, (std::vector<int64_t>{34, 100}));
  // Every record has its metadata (the empty dictionary).
  EXPECT_EQ(LeafAt(*s, "metadata").def_levels, (std::vector<int16_t>{1, 1, 1, 1}));
}

// The spec's event objects: event_type (STRING) and event_ts (TIMESTAMP(true, MICROS)) shredded.
TEST(VariantShredderTest, EventObjectsAsInTheSpec) {
  auto s = Make(VariantColumn(TypedObject(
      {{"event_type", Str()},
       {"event_ts", TypedLeaf(PhysicalType::kInt64, TimestampType(TimeUnit::kMicros, true))}})));
  ASSERT_TRUE(s);
  auto event = [](std::optional<std::string> type, std::optional<int64_t> ts,
                  const std::vector<std::pair<std::string, std::string>>& more = {}) {
    return Encode([&](VariantEncoder* e) {
      e->BeginObject();
      if (type) {
        EXPECT_TRUE(e->Key("event_type").ok());
        if (*type == "<null>") {
          e->AddNull();
        } else {
          EXPECT_TRUE(e->AddString(*type).ok());
        }
      }
      if (ts) {
        EXPECT_TRUE(e->Key("event_ts").ok());
        e->AddTimestamp(*ts, TimeUnit::kMicros, true);
      }
      for (const auto& [k, v] : more) {
        EXPECT_TRUE(e->Key(k).ok());
        EXPECT_TRUE(e->AddString(v).ok());
      }
      EXPECT_TRUE(e->EndObject().ok());
    });
  };
  std::vector<Built> rows = {
      event("noop", 1729794114937),                                          // fully shredded
      event("login", 1729794146402, {{"email", "user@example.com"}}),        // partially
      event(std::nullopt, std::nullopt, {{"error_msg", "malformed: ..."}}),  // fields missing
      FromJson("\"malformed: not an object\""),                              // not an object
      event(std::nullopt, 1729794240241, {{"click", "_button"}}),            // type missing
      event("<null>", 1729794954163),                                        // type is null
      Encode([](VariantEncoder* e) {  // event_ts not a timestamp
        e->BeginObject();
        EXPECT_TRUE(e->Key("event_type").ok());
        EXPECT_TRUE(e->AddString("noop").ok());
        EXPECT_TRUE(e->Key("event_ts").ok());
        EXPECT_TRUE(e->AddString("2024-10-24").ok());
        EXPECT_TRUE(e->EndObject().ok());
      }),
      FromJson("{}"),    // empty object
      FromJson("null"),  // the Variant null
  };
  for (const Built& b : rows) Append(s.get(), b);
  ASSERT_TRUE(s->AppendNull().ok());  // missing
  // value: null unless something is left over (def 2 = present).
  const ShreddedLeaf& value = LeafAt(*s, "value");
  EXPECT_EQ(value.def_levels, (std::vector<int16_t>{1, 2, 2, 2, 2, 1, 1, 1, 2, 0}));
  const ShreddedLeaf& typed_type = LeafAt(*s, "typed_value.event_type.typed_value");
  const ShreddedLeaf& value_type = LeafAt(*s, "typed_value.event_type.value");
  const ShreddedLeaf& typed_ts = LeafAt(*s, "typed_value.event_ts.typed_value");
  const ShreddedLeaf& value_ts = LeafAt(*s, "typed_value.event_ts.value");
  // Levels: 0 the column null, 1 typed_value null, 2 the field missing, 3 present.
  EXPECT_EQ(typed_type.def_levels, (std::vector<int16_t>{3, 3, 2, 1, 2, 2, 3, 2, 1, 0}));
  EXPECT_EQ(Bytes(typed_type), (std::vector<std::string>{"noop", "login", "noop"}));
  EXPECT_EQ(value_type.def_levels, (std::vector<int16_t>{2, 2, 2, 1, 2, 3, 2, 2, 1, 0}));
  EXPECT_EQ(Bytes(value_type), (std::vector<std::string>{std::string(1, '\0')}));
  EXPECT_EQ(typed_ts.int64s,
            (std::vector<int64_t>{1729794114937, 1729794146402, 1729794240241, 1729794954163}));
  EXPECT_EQ(value_ts.def_levels, (std::vector<int16_t>{2, 2, 2, 1, 2, 2, 3, 2, 1, 0}));
  // The partially shredded row keeps only its other field, as an object.
  const Built login = event("login", 1729794146402, {{"email", "user@example.com"}});
  std::string residual_json;
  ASSERT_TRUE(
      AppendVariantJson(AsBytes(login.metadata), AsBytes(Bytes(value)[0]), &residual_json).ok());
  EXPECT_EQ(residual_json, R"({"email":"user@example.com"})");
}

// The spec's tags arrays under a LIST of STRING elements.
TEST(VariantShredderTest, TagsArraysAsInTheSpec) {
  auto s = Make(VariantColumn(TypedList(Str())));
  ASSERT_TRUE(s);
  for (const char* json : {R"(["comedy", "drama"])", R"(["horror", null])",
                           R"(["comedy", "drama", "romance"])", "null", "[]"}) {
    Append(s.get(), FromJson(json));
  }
  const ShreddedLeaf& element_typed = LeafAt(*s, "typed_value.list.element.typed_value");
  const ShreddedLeaf& element_value = LeafAt(*s, "typed_value.list.element.value");
  EXPECT_EQ(Bytes(element_typed),
            (std::vector<std::string>{"comedy", "drama", "horror", "comedy", "drama", "romance"}));
  EXPECT_EQ(element_typed.rep_levels, (std::vector<int16_t>{0, 1, 0, 1, 0, 1, 1, 0, 0}));
  EXPECT_EQ(element_typed.def_levels, (std::vector<int16_t>{4, 4, 4, 3, 4, 4, 4, 1, 2}));
  EXPECT_EQ(Bytes(element_value), (std::vector<std::string>{std::string(1, '\0')}));
  EXPECT_EQ(Bytes(LeafAt(*s, "value")), (std::vector<std::string>{std::string(1, '\0')}));
}

// Which primitives a typed_value takes, and that the others stay whole in value.
TEST(VariantShredderTest, PrimitivesMatchTheirColumnType) {
  struct Case {
    Elements typed;
    Built in;
    bool shredded;
  };
  const std::vector<Case> cases = {
      {TypedLeaf(PhysicalType::kInt64), FromJson("1"), true},  // int8 into INT64
      {TypedLeaf(PhysicalType::kInt32, IntType(8, true)), FromJson("127"), true},
      {TypedLeaf(PhysicalType::kInt32, IntType(8, true)), FromJson("300"), false},
      {TypedLeaf(PhysicalType::kInt32), FromJson("9999999999"), false},
      {TypedLeaf(PhysicalType::kInt64), FromJson("1.5"), false},
      {TypedLeaf(PhysicalType::kDouble), FromJson("1e0"), true},
      {TypedLeaf(PhysicalType::kDouble), FromJson("1"), false},
      {TypedLeaf(PhysicalType::kInt32, DecimalType(4, 2)), FromJson("12.34"), true},
      {TypedLeaf(PhysicalType::kInt32, DecimalType(4, 2)), FromJson("123.45"), false},
      {TypedLeaf(PhysicalType::kInt32, DecimalType(4, 2)), FromJson("1.5"), false},  // scale 1
      {TypedLeaf(PhysicalType::kFixedLenByteArray, DecimalType(30, 2), 13),
       FromJson("-1234567890123456789012.34"), true},
      {TypedLeaf(PhysicalType::kBoolean), FromJson("false"), true},
      {TypedLeaf(PhysicalType::kBoolean), FromJson("0"), false},
      {Str(), FromJson("\"" + std::string(100, 'x') + "\""), true},  // a long string
      {Str(), FromJson("[]"), false},
      {TypedLeaf(PhysicalType::kInt32, Logical(Kind::kDate)),
       Encode([](VariantEncoder* e) { e->AddDate(19000); }), true},
      {TypedLeaf(PhysicalType::kInt64, TimestampType(TimeUnit::kNanos, false)),
       Encode([](VariantEncoder* e) { e->AddTimestamp(5, TimeUnit::kNanos, false); }), true},
      {TypedLeaf(PhysicalType::kInt64, TimestampType(TimeUnit::kNanos, false)),
       Encode([](VariantEncoder* e) { e->AddTimestamp(5, TimeUnit::kNanos, true); }), false},
      {TypedLeaf(PhysicalType::kByteArray),
       Encode([](VariantEncoder* e) { e->AddBinary(std::string("\0\1", 2)); }), true},
      {TypedLeaf(PhysicalType::kFixedLenByteArray, Logical(Kind::kUuid), 16),
       Encode([](VariantEncoder* e) {
         const uint8_t u[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
         e->AddUuid(u);
       }),
       true},
      {TypedLeaf(PhysicalType::kFloat), FromJson("1.0"), false},
  };
  int n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE("case " + std::to_string(n++) + ": " + JsonOf(c.in));
    auto s = Make(VariantColumn(c.typed));
    ASSERT_TRUE(s);
    Append(s.get(), c.in);
    EXPECT_EQ(LeafAt(*s, "typed_value").def_levels[0], c.shredded ? 2 : 1);
    EXPECT_EQ(LeafAt(*s, "value").def_levels[0], c.shredded ? 1 : 2);
    if (!c.shredded) {
      EXPECT_EQ(Bytes(LeafAt(*s, "value"))[0], c.in.value);
    }
  }
}

TEST(VariantShredderTest, RefusesSchemasItCannotWrite) {
  EXPECT_FALSE(VariantShredder::Make(TypedLeaf(PhysicalType::kInt64)).ok());  // not VARIANT
  // A typed_value of a type the Variant spec does not list (unsigned).
  EXPECT_FALSE(
      VariantShredder::Make(VariantColumn(TypedLeaf(PhysicalType::kInt32, IntType(32, false))))
          .ok());
  Elements no_metadata = VariantColumn();
  no_metadata[0].num_children = 1;
  no_metadata.erase(no_metadata.begin() + 1);
  EXPECT_FALSE(VariantShredder::Make(no_metadata).ok());
  // value required beside a typed_value.
  Elements required_value = VariantColumn(TypedLeaf(PhysicalType::kInt64));
  required_value[2].repetition_type = Repetition::kRequired;
  EXPECT_FALSE(VariantShredder::Make(required_value).ok());
}

// Records written through the FileWriter and read back by the reader's reconstruction give the
// JSON of each Variant written, shredded or not.
TEST(VariantShredderTest, RoundTripsThroughTheReader) {
  const std::vector<std::string> inputs = {
      R"({"a": 1, "b": "x", "c": [1.5, 2e0, "no"], "d": {"e": 7, "f": true}})",
      R"({"a": "not an int", "z": null})",
      R"({"b": "only b"})",
      R"([1, 2, 3])",
      R"("a string")",
      R"({})",
      R"({"c": [], "d": {"e": 300}})",
      R"({"c": [null, 1e0, [2]], "d": "not an object"})",
      R"(null)",
      R"(12.50)",
      R"({"a": 9223372036854775807, "d": {"g": [1, {"h": 2}]}})",
  };
  const std::vector<Elements> columns = {
      VariantColumn(),
      VariantColumn(TypedLeaf(PhysicalType::kInt64)),
      VariantColumn(TypedObject(
          {{"a", TypedLeaf(PhysicalType::kInt64)},
           {"b", Str()},
           {"c", TypedList(TypedLeaf(PhysicalType::kDouble))},
           {"d", TypedObject({{"e", TypedLeaf(PhysicalType::kInt32, IntType(8, true))}})}})),
      VariantColumn(TypedList(TypedLeaf(PhysicalType::kInt64))),
  };
  int n = 0;
  for (const Elements& column : columns) {
    SCOPED_TRACE("column " + std::to_string(n));
    auto s = Make(column);
    ASSERT_TRUE(s);
    JsonRecords expected;
    for (const std::string& json : inputs) {
      const Built b = FromJson(json);
      Append(s.get(), b);
      expected.push_back(JsonOf(b));
    }
    ASSERT_TRUE(s->AppendNull().ok());
    expected.push_back(std::nullopt);
    Elements schema = {Root(1)};
    schema.insert(schema.end(), column.begin(), column.end());
    const std::string path = TempPath(std::to_string(n++) + ".parquet");
    auto w = FileWriter::Open(path, schema);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    ASSERT_TRUE(s->WriteTo(w->get(), 0).ok());
    ASSERT_TRUE((*w)->Close().ok());
    EXPECT_EQ(ReadBackJson(path), expected);
  }
}

TEST(VariantShredderTest, TruncateAndFailedRecordsLeaveWholeRecords) {
  auto s = Make(VariantColumn(TypedObject({{"a", TypedLeaf(PhysicalType::kInt64)}})));
  ASSERT_TRUE(s);
  Append(s.get(), FromJson(R"({"a": 1})"));
  Append(s.get(), FromJson(R"({"a": 2, "b": 3})"));
  // A value that does not decode is refused and leaves nothing behind.
  const Built bad = {std::string("\x01\x00\x00", 3), std::string("\x02\x05", 2)};
  EXPECT_TRUE(s->Append(AsBytes(bad.metadata), AsBytes(bad.value)).IsInvalidArgument());
  EXPECT_EQ(s->rows(), 2);
  for (int i = 0; i < s->num_leaves(); ++i) EXPECT_EQ(s->leaf(i).num_levels(), 2);
  s->Truncate(1);
  EXPECT_EQ(s->rows(), 1);
  EXPECT_EQ(LeafAt(*s, "typed_value.a.typed_value").int64s, (std::vector<int64_t>{1}));
  EXPECT_EQ(LeafAt(*s, "value").num_values(), 0);
}

}  // namespace
}  // namespace pq
