// VARIANT groups in the nested record assembler (format/record/json_assembler.h): unshredded and
// shredded Variants rebuilt from levels and bytes, following the examples of
// The Parquet type spec ("Variant Shredding": the measurement, tags and event
// tables), VARIANT inside structs and lists, invalid shreddings, and the typed_value column types
// (format/variant/shredded_leaf.h).
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "format/record/json_assembler.h"
#include "format/variant/shredded_leaf.h"
#include "tests/format/record/schema_text.h"
#include "tests/format/variant/variant_builder.h"

namespace pq {
namespace {

using testing::FromHex;
using testing::LittleEndian;
using testing::Metadata;
using testing::Object;
using testing::Primitive;
using testing::RawBytes;
using testing::SchemaFromText;
using testing::ShortString;
using Rows = std::vector<std::optional<std::string>>;
constexpr std::nullopt_t kSqlNull = std::nullopt;

// One leaf: levels and the bytes of each non-null value (LeafValueBytes form). Empty def/rep mean
// all zero.
struct LeafData {
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  std::vector<std::string> values;
};

// Keeps LeafData alive for the LeafLevels pointing into it.
Result<Rows> Assemble(const std::string& schema_text, const std::vector<LeafData>& leaves,
                      int64_t num_records, bool with_bytes = true) {
  auto schema = SchemaFromText(schema_text);
  if (schema == nullptr) return Status::InvalidArgument("bad schema");
  PQ_ASSIGN_OR_RETURN(auto assembler, NestedJsonAssembler::Make(*schema, *schema->fields()[0]));
  std::vector<LeafLevels> levels;
  for (const LeafData& d : leaves) {
    LeafLevels l;
    l.def_levels = d.def.empty() ? nullptr : d.def.data();
    l.rep_levels = d.rep.empty() ? nullptr : d.rep.data();
    l.num_levels = static_cast<int64_t>(!d.def.empty() ? d.def.size() : d.values.size());
    const std::vector<std::string>* values = &d.values;
    if (with_bytes) {
      l.value_bytes = [values](int64_t k) {
        EXPECT_LT(k, static_cast<int64_t>(values->size()));
        return AsBytes((*values)[static_cast<size_t>(k)]);
      };
    }
    l.append_value_json = [values](int64_t k, std::string* out) {
      out->append((*values)[static_cast<size_t>(k)]);
    };
    levels.push_back(std::move(l));
  }
  JsonColumn out;
  PQ_RETURN_IF_ERROR(assembler->Assemble(levels, num_records, &out));
  Rows rows;
  for (int64_t r = 0; r < out.size(); ++r) {
    if (out.null_at(r)) {
      rows.push_back(kSqlNull);
    } else {
      rows.emplace_back(std::string(out.at(r)));
    }
  }
  return rows;
}

void ExpectRows(const std::string& schema_text, const std::vector<LeafData>& leaves,
                const Rows& expected) {
  Result<Rows> rows = Assemble(schema_text, leaves, static_cast<int64_t>(expected.size()));
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), expected.size());
  for (size_t r = 0; r < expected.size(); ++r) EXPECT_EQ((*rows)[r], expected[r]) << "record " << r;
}

void ExpectError(const std::string& schema_text, const std::vector<LeafData>& leaves,
                 int64_t num_records, StatusCode code, const std::string& text) {
  Result<Rows> rows = Assemble(schema_text, leaves, num_records);
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), code) << rows.status().ToString();
  EXPECT_NE(rows.status().message().find(text), std::string::npos) << rows.status().ToString();
}

Status MakeStatus(const std::string& schema_text) {
  auto schema = SchemaFromText(schema_text);
  if (schema == nullptr) return Status::InvalidArgument("bad schema");
  return NestedJsonAssembler::Make(*schema, *schema->fields()[0]).status();
}

const std::string kEmpty = Metadata({});
std::string Int8(int8_t v) {
  return Primitive(3, RawBytes(v));
}
std::string I64(int64_t v) {
  return RawBytes(v);
}

// ---------------------------------------------------------------------------------------------
// Unshredded

TEST(VariantAssemblyTest, UnshreddedTopLevel) {
  const char* schema =
      "message m { optional group v (VARIANT) { required binary metadata; required binary value; } "
      "}";
  const std::string md = Metadata({"b", "a"});
  ExpectRows(schema,
             {{{1, 0, 1}, {}, {md, kEmpty}},
              {{1, 0, 1}, {}, {Object({{1, Int8(1)}, {0, ShortString("x")}}), Primitive(0)}}},
             {R"({"a":1,"b":"x"})", kSqlNull, "null"});
}

TEST(VariantAssemblyTest, RequiredVariantWithRequiredValue) {
  ExpectRows(
      "message m { required group v (VARIANT) { required binary metadata; required binary value; } "
      "}",
      {{{}, {}, {kEmpty, kEmpty}}, {{}, {}, {Int8(-3), ShortString("hi")}}}, {"-3", "\"hi\""});
}

TEST(VariantAssemblyTest, VariantInsideAStructAndAList) {
  ExpectRows(R"(message m { optional group s {
                  required int32 id;
                  optional group v (VARIANT) { required binary metadata; required binary value; }
                } })",
             {{{1, 1, 0}, {}, {"1", "2"}}, {{2, 1, 0}, {}, {kEmpty}}, {{2, 1, 0}, {}, {Int8(7)}}},
             {R"({"id":1,"v":7})", R"({"id":2,"v":null})", kSqlNull});
  // A list of variants: [7, null, "x"], [], null.
  ExpectRows(R"(message m { optional group l (LIST) { repeated group list {
                  optional group element (VARIANT) { required binary metadata; required binary value; }
                } } })",
             {{{3, 2, 3, 1, 0}, {0, 1, 1, 0, 0}, {kEmpty, kEmpty}},
              {{3, 2, 3, 1, 0}, {0, 1, 1, 0, 0}, {Int8(7), ShortString("x")}}},
             {R"([7,null,"x"])", "[]", kSqlNull});
}

// A repeated VARIANT group is a list of Variants.
TEST(VariantAssemblyTest, RepeatedVariantGroup) {
  ExpectRows(
      "message m { repeated group v (VARIANT) { required binary metadata; required binary value; } "
      "}",
      {{{1, 1, 0}, {0, 1, 0}, {kEmpty, kEmpty}}, {{1, 1, 0}, {0, 1, 0}, {Int8(1), Int8(2)}}},
      {"[1,2]", "[]"});
}

// ---------------------------------------------------------------------------------------------
// Shredded primitives: the measurement example ("Value Shredding").

const char* kMeasurement = R"(message m { optional group measurement (VARIANT) {
    required binary metadata; optional binary value; optional int64 typed_value; } })";

TEST(VariantAssemblyTest, ShreddedPrimitive) {
  // 34, null, "n/a", 100, then both null (missing where a value is required: Variant null), then
  // the group itself null.
  ExpectRows(kMeasurement,
             {{{1, 1, 1, 1, 1, 0}, {}, {kEmpty, kEmpty, kEmpty, kEmpty, kEmpty}},
              {{1, 2, 2, 1, 1, 0}, {}, {Primitive(0), FromHex("0d6e2f61")}},
              {{2, 1, 1, 2, 1, 0}, {}, {I64(34), I64(100)}}},
             {"34", "null", R"("n/a")", "100", "null", kSqlNull});
  ExpectError(kMeasurement, {{{1}, {}, {kEmpty}}, {{2}, {}, {Int8(1)}}, {{2}, {}, {I64(1)}}}, 1,
              StatusCode::kCorruption, "conflicting value and typed_value");
}

// ---------------------------------------------------------------------------------------------
// Shredded objects: the event example ("Objects").

const char* kEvent = R"(message m { optional group event (VARIANT) {
    required binary metadata;
    optional binary value;
    optional group typed_value {
      required group event_type { optional binary value; optional binary typed_value (STRING); }
      required group event_ts { optional binary value; optional int64 typed_value; }
    } } })";

// Leaves in column order: metadata, value, event_type.value, event_type.typed_value,
// event_ts.value, event_ts.typed_value. Levels: event 1, value 2, typed_value 2, fields' value and
// typed_value 3.
TEST(VariantAssemblyTest, ShreddedObjectTableOfTheSpec) {
  const std::string md = Metadata({"event_type", "event_ts", "email", "error_msg", "click"});
  LeafData metadata{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0}, {}, std::vector<std::string>(10, md)};
  LeafData value{
      {1, 2, 2, 2, 2, 1, 1, 1, 2, 1, 0},
      {},
      {Object({{2, ShortString("user@example.com")}}), Object({{3, ShortString("malformed: ...")}}),
       ShortString("malformed: not an object"), Object({{4, ShortString("_button")}}),
       Primitive(0)}};
  LeafData type_value{{2, 2, 2, 1, 2, 3, 2, 2, 1, 1, 0}, {}, {Primitive(0)}};
  LeafData type_typed{{3, 3, 2, 1, 2, 2, 3, 2, 1, 1, 0}, {}, {"noop", "login", "noop"}};
  LeafData ts_value{{2, 2, 2, 1, 2, 2, 3, 2, 1, 1, 0}, {}, {ShortString("2024-10-24")}};
  LeafData ts_typed{
      {3, 3, 2, 1, 3, 3, 2, 2, 1, 1, 0},
      {},
      {I64(1729794114937), I64(1729794146402), I64(1729794240241), I64(1729794954163)}};
  ExpectRows(kEvent, {metadata, value, type_value, type_typed, ts_value, ts_typed},
             {
                 R"({"event_ts":1729794114937,"event_type":"noop"})",  // fully shredded
                 R"({"email":"user@example.com","event_ts":1729794146402,"event_type":"login"})",
                 R"({"error_msg":"malformed: ..."})",  // all shredded fields missing
                 R"("malformed: not an object")",
                 R"({"click":"_button","event_ts":1729794240241})",   // event_type missing
                 R"({"event_ts":1729794954163,"event_type":null})",   // present and null
                 R"({"event_ts":"2024-10-24","event_type":"noop"})",  // not a timestamp
                 "{}",                                                // present but empty
                 "null",                                              // the Variant null
                 "null",  // missing where a value is required: Variant null
                 kSqlNull,
             });
}

TEST(VariantAssemblyTest, ShreddedObjectInvalidCases) {
  const std::string md = Metadata({"event_type", "event_ts"});
  // {"event_type": "login"} in value while event_type is shredded (present, or missing).
  for (int16_t typed_def : {3, 2}) {
    ExpectError(kEvent,
                {{{1}, {}, {md}},
                 {{2}, {}, {Object({{0, ShortString("login")}})}},
                 {{2}, {}, {}},
                 {{typed_def}, {}, {"login"}},
                 {{2}, {}, {}},
                 {{3}, {}, {I64(1)}}},
                1, StatusCode::kCorruption, "field 'event_type' is both shredded and in value");
  }
  // "a" beside a non-null typed_value.
  ExpectError(kEvent,
              {{{1}, {}, {md}},
               {{2}, {}, {ShortString("a")}},
               {{2}, {}, {}},
               {{2}, {}, {}},
               {{2}, {}, {}},
               {{2}, {}, {}}},
              1, StatusCode::kCorruption, "non-object value with shredded fields");
  // A field with both value and typed_value.
  ExpectError(kEvent,
              {{{1}, {}, {md}},
               {{1}, {}, {}},
               {{3}, {}, {ShortString("x")}},
               {{3}, {}, {"login"}},
               {{2}, {}, {}},
               {{2}, {}, {}}},
              1, StatusCode::kCorruption, "conflicting value and typed_value");
  // A residual value that is not a valid object.
  ExpectError(kEvent,
              {{{1}, {}, {md}},
               {{2}, {}, {FromHex("0201")}},
               {{2}, {}, {}},
               {{2}, {}, {}},
               {{2}, {}, {}},
               {{2}, {}, {}}},
              1, StatusCode::kCorruption, "object field ids and offsets needs");
}

// An object in value while the shredded object's typed_value is null: the spec forbids it, yet
// hyparquet-writer writes it; it reads as the object it holds, shredded field names included
// (pruning on the shredded fields allows for such rows: scan_plan.h, LeafTerm).
TEST(VariantAssemblyTest, ObjectInValueBesideNullTypedValue) {
  const std::string md = Metadata({"event_type", "event_ts", "email"});
  ExpectRows(kEvent,
             {{{1}, {}, {md}},
              {{2}, {}, {Object({{2, ShortString("x")}, {0, ShortString("login")}})}},
              {{1}, {}, {}},
              {{1}, {}, {}},
              {{1}, {}, {}},
              {{1}, {}, {}}},
             {R"({"email":"x","event_type":"login"})"});
}

// Residual fields come before, between and after the shredded ones, in name order; a residual
// value whose fields are not stored in name order is merged all the same.
TEST(VariantAssemblyTest, MergedObjectIsSortedByName) {
  const char* schema = R"(message m { optional group v (VARIANT) {
      required binary metadata; optional binary value;
      optional group typed_value {
        required group m { optional binary value; }
        required group d { optional binary value; }
      } } })";
  const std::string md = Metadata({"z", "a", "m", "d", "k"});
  const std::string residual_sorted =
      Object({{1, Int8(1)}, {4, Int8(2)}, {0, Int8(3)}}, {1, 1, false, true});
  const std::string residual_unsorted = Object({{0, Int8(3)}, {1, Int8(1)}, {4, Int8(2)}});
  ExpectRows(schema,
             {{{1, 1}, {}, {md, md}},
              {{2, 2}, {}, {residual_sorted, residual_unsorted}},
              {{3, 3}, {}, {ShortString("M"), ShortString("M")}},
              {{3, 2}, {}, {ShortString("D")}}},
             {R"({"a":1,"d":"D","k":2,"m":"M","z":3})", R"({"a":1,"k":2,"m":"M","z":3})"});
}

TEST(VariantAssemblyTest, NestedShreddedObjectsAndOptionalFieldGroups) {
  // typed_value.c is itself a shredded object; field group d is optional (read leniently).
  const char* schema = R"(message m { optional group v (VARIANT) {
      required binary metadata; optional binary value;
      optional group typed_value {
        required group c { optional binary value;
          optional group typed_value { required group a { optional int32 typed_value; } } }
        optional group d { optional binary value; optional double typed_value; }
      } } })";
  // Levels: v 1, value 2, typed_value 2, c 2, c.value 3, c.typed_value 3, c.typed_value.a 3,
  // a.typed_value 4, d 3, d.value 4, d.typed_value 4.
  // Row 0: {"c":{"a":34},"d":-0.0}; row 1: c is a string, d missing (group null); row 2: c.a
  // missing, d value null.
  ExpectRows(schema,
             {{{1, 1, 1}, {}, {kEmpty, kEmpty, kEmpty}},
              {{1, 1, 1}, {}, {}},
              {{2, 3, 2}, {}, {ShortString("s")}},
              {{4, 2, 3}, {}, {RawBytes<int32_t>(34)}},
              {{3, 2, 4}, {}, {Primitive(0)}},
              {{4, 2, 3}, {}, {RawBytes(-0.0)}}},
             {R"({"c":{"a":34},"d":-0.0})", R"({"c":"s"})", R"({"c":{},"d":null})"});
}

// ---------------------------------------------------------------------------------------------
// Shredded arrays: the tags example ("Arrays").

const char* kTags = R"(message m { optional group tags (VARIANT) {
    required binary metadata;
    optional binary value;
    optional group typed_value (LIST) {
      repeated group list {
        required group element { optional binary value; optional binary typed_value (STRING); }
      } } } })";

// Leaves: metadata (def 1), value (2), element.value (4), element.typed_value (4); typed_value is
// present at 2, holds an element at 3.
TEST(VariantAssemblyTest, ShreddedArrays) {
  // ["comedy","drama"], ["horror",null], null, [], [missing element], null group.
  ExpectRows(kTags,
             {{{1, 1, 1, 1, 1, 0}, {}, std::vector<std::string>(5, kEmpty)},
              {{1, 1, 2, 1, 1, 0}, {}, {Primitive(0)}},
              {{3, 3, 3, 4, 1, 2, 3, 0}, {0, 1, 0, 1, 0, 0, 0, 0}, {Primitive(0)}},
              {{4, 4, 4, 3, 1, 2, 3, 0}, {0, 1, 0, 1, 0, 0, 0, 0}, {"comedy", "drama", "horror"}}},
             {R"(["comedy","drama"])", R"(["horror",null])", "null", "[]", "[null]", kSqlNull});
  // An array typed_value beside a value.
  ExpectError(kTags,
              {{{1}, {}, {kEmpty}}, {{2}, {}, {Primitive(0)}}, {{3}, {0}, {}}, {{4}, {0}, {"x"}}},
              1, StatusCode::kCorruption, "conflicting value and typed_value");
}

// The shapes the builder gives VARIANT groups: roles by name, levels as the assembler reads them.
TEST(VariantAssemblyTest, ShapesOfVariantGroups) {
  auto event_schema = SchemaFromText(kEvent);
  Result<NestedShape> event = BuildNestedShape(*event_schema->fields()[0]);
  ASSERT_TRUE(event.ok()) << event.status().ToString();
  EXPECT_EQ(event->kind, NestedShape::Kind::kVariant);
  EXPECT_EQ(event->def_level, 1);
  EXPECT_EQ(event->num_leaves, 6);
  EXPECT_EQ(event->metadata_child, 0);
  EXPECT_EQ(event->value_child, 1);
  EXPECT_EQ(event->typed_child, 2);
  EXPECT_EQ(event->children[1].def_level, 2);
  const NestedShape& typed = event->children[2];
  EXPECT_EQ(typed.kind, NestedShape::Kind::kStruct);
  EXPECT_EQ(typed.def_level, 2);
  ASSERT_EQ(typed.children.size(), 2u);
  const NestedShape& ts = typed.children[1];
  EXPECT_EQ(ts.kind, NestedShape::Kind::kShredded);
  EXPECT_EQ(ts.node->name, "event_ts");
  EXPECT_FALSE(ts.nullable);
  EXPECT_EQ(ts.def_level, 2);
  EXPECT_EQ(ts.metadata_child, -1);
  EXPECT_EQ(ts.value_child, 0);
  EXPECT_EQ(ts.typed_child, 1);
  EXPECT_EQ(ts.first_leaf, 4);
  EXPECT_EQ(ts.children[1].def_level, 3);

  auto tags_schema = SchemaFromText(kTags);
  Result<NestedShape> tags = BuildNestedShape(*tags_schema->fields()[0]);
  ASSERT_TRUE(tags.ok()) << tags.status().ToString();
  const NestedShape& list = tags->children[static_cast<size_t>(tags->typed_child)];
  EXPECT_EQ(list.kind, NestedShape::Kind::kList);
  EXPECT_EQ(list.def_level, 2);
  EXPECT_EQ(list.element_def_level, 3);
  EXPECT_EQ(list.rep_level, 1);
  EXPECT_EQ(list.element().kind, NestedShape::Kind::kShredded);
  EXPECT_EQ(list.element().def_level, 3);
  EXPECT_EQ(list.element().children[1].def_level, 4);
  EXPECT_EQ(list.element().children[1].rep_level, 1);
  EXPECT_STREQ(NestedShapeKindName(NestedShape::Kind::kShredded), "shredded");
}

// ---------------------------------------------------------------------------------------------
// Errors

TEST(VariantAssemblyTest, InvalidShreddingSchemas) {
  auto code = [](const std::string& fields) {
    return MakeStatus("message m { optional group v (VARIANT) { " + fields + " } }").code();
  };
  EXPECT_EQ(code("required binary metadata; required binary value;"), StatusCode::kOk);
  EXPECT_EQ(code("required binary metadata; optional int64 typed_value;"), StatusCode::kOk);
  EXPECT_EQ(code("required binary value;"), StatusCode::kCorruption);  // no metadata
  EXPECT_EQ(code("required binary metadata;"), StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; required binary value; optional int32 extra;"),
            StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; required binary value; required binary value;"),
            StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; optional int32 value;"), StatusCode::kCorruption);
  EXPECT_EQ(code("required int32 metadata; optional binary value;"), StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; repeated binary value;"), StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; optional int96 typed_value;"), StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; optional fixed_len_byte_array(4) typed_value;"),
            StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; repeated int32 typed_value;"), StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; optional group typed_value (MAP) { repeated group "
                 "key_value { required binary key; optional binary value; } }"),
            StatusCode::kCorruption);
  // Two-level list, a list whose element is not a group, an object field that is a leaf or
  // repeated, two object fields of one name, an unexpected field in a field group.
  EXPECT_EQ(code("required binary metadata; optional group typed_value (LIST) { repeated binary "
                 "element; }"),
            StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; optional group typed_value (LIST) { repeated group "
                 "list { required binary element; } }"),
            StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; optional group typed_value { optional binary a; }"),
            StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; optional group typed_value { repeated group a { "
                 "optional binary value; } }"),
            StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; optional group typed_value { required group a { "
                 "optional binary value; } required group a { optional binary value; } }"),
            StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; optional group typed_value { required group a { "
                 "optional binary value; optional binary metadata; } }"),
            StatusCode::kCorruption);
  EXPECT_EQ(code("required binary metadata; optional group typed_value { required group a { } }"),
            StatusCode::kCorruption);
}

TEST(VariantAssemblyTest, BadMetadataAndBytes) {
  const char* optional_metadata =
      "message m { optional group v (VARIANT) { optional binary metadata; required binary value; } "
      "}";
  ExpectError(optional_metadata, {{{1}, {}, {}}, {{1}, {}, {Primitive(0)}}}, 1,
              StatusCode::kCorruption, "variant metadata is null");
  const char* schema =
      "message m { optional group v (VARIANT) { required binary metadata; required binary value; } "
      "}";
  ExpectError(schema, {{{1}, {}, {FromHex("02")}}, {{1}, {}, {Primitive(0)}}}, 1,
              StatusCode::kNotSupported, "metadata version 2");
  ExpectError(schema, {{{1}, {}, {kEmpty}}, {{1}, {}, {Primitive(40)}}}, 1,
              StatusCode::kNotSupported, "primitive type 40");
  ExpectError(schema, {{{1}, {}, {kEmpty}}, {{1}, {}, {""}}}, 1, StatusCode::kCorruption,
              "column 'v.value', record 0 of the batch: variant: a value needs 1 byte");
  Result<Rows> no_bytes = Assemble(schema, {{{1}, {}, {kEmpty}}, {{1}, {}, {Primitive(0)}}}, 1,
                                   /*with_bytes=*/false);
  EXPECT_TRUE(no_bytes.status().IsInvalidArgument()) << no_bytes.status().ToString();
  // A typed value of the wrong size.
  ExpectError(kMeasurement, {{{1}, {}, {kEmpty}}, {{1}, {}, {}}, {{2}, {}, {"abc"}}}, 1,
              StatusCode::kCorruption, "3 bytes where its type needs 8");
}

// ---------------------------------------------------------------------------------------------
// typed_value column types

SchemaNode Leaf(PhysicalType type, LogicalType::Kind kind = LogicalType::Kind::kNone,
                int32_t type_length = 0) {
  SchemaNode n;
  n.name = "typed_value";
  n.is_leaf = true;
  n.physical_type = type;
  n.type_length = type_length;
  n.logical_type.kind = kind;
  return n;
}

std::string Render(const SchemaNode& leaf, const std::string& raw) {
  Result<ShreddedLeafType> t = ShreddedLeafType::Of(leaf);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  if (!t.ok()) return "<refused>";
  std::string out;
  Status s = t->AppendJson(AsBytes(raw), &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

TEST(ShreddedLeafTypeTest, EveryVariantType) {
  using LK = LogicalType::Kind;
  EXPECT_EQ(Render(Leaf(PhysicalType::kBoolean), "\x01"), "true");
  EXPECT_EQ(Render(Leaf(PhysicalType::kBoolean), std::string(1, '\0')), "false");
  SchemaNode int8 = Leaf(PhysicalType::kInt32, LK::kInteger);
  int8.logical_type.bit_width = 8;
  EXPECT_EQ(Render(int8, RawBytes<int32_t>(-34)), "-34");
  EXPECT_EQ(Render(Leaf(PhysicalType::kInt32), RawBytes<int32_t>(12345)), "12345");
  EXPECT_EQ(Render(Leaf(PhysicalType::kInt64), RawBytes<int64_t>(-9876543210)), "-9876543210");
  EXPECT_EQ(Render(Leaf(PhysicalType::kFloat), RawBytes(10.11f)), "10.109999656677246");
  EXPECT_EQ(Render(Leaf(PhysicalType::kFloat), RawBytes(std::nanf(""))), "\"NaN\"");
  EXPECT_EQ(Render(Leaf(PhysicalType::kDouble), RawBytes(-14.3)), "-14.3");
  EXPECT_EQ(Render(Leaf(PhysicalType::kDouble), RawBytes(-HUGE_VAL)), "\"-Infinity\"");
  SchemaNode dec4 = Leaf(PhysicalType::kInt32, LK::kDecimal);
  dec4.logical_type.decimal_scale = 4;
  EXPECT_EQ(Render(dec4, RawBytes<int32_t>(123456789)), "12345.6789");
  SchemaNode dec8 = Leaf(PhysicalType::kInt64, LK::kDecimal);
  dec8.logical_type.decimal_scale = 9;
  EXPECT_EQ(Render(dec8, RawBytes<int64_t>(-123456789987654321)), "-123456789.987654321");
  SchemaNode dec16 = Leaf(PhysicalType::kByteArray, LK::kDecimal);
  dec16.logical_type.decimal_scale = 2;
  EXPECT_EQ(Render(dec16, FromHex("ff38")), "-2.00");
  SchemaNode flba_dec = Leaf(PhysicalType::kFixedLenByteArray, LK::kDecimal, 16);
  flba_dec.logical_type.decimal_scale = 0;
  EXPECT_EQ(Render(flba_dec, std::string(15, '\0') + "\x07"), "7");
  EXPECT_EQ(Render(Leaf(PhysicalType::kInt32, LK::kDate), RawBytes<int32_t>(-4438)),
            "\"1957-11-07\"");
  SchemaNode time = Leaf(PhysicalType::kInt64, LK::kTime);
  time.logical_type.unit = TimeUnit::kMicros;
  EXPECT_EQ(Render(time, RawBytes<int64_t>(45234123456)), "\"12:33:54.123456\"");
  SchemaNode ts = Leaf(PhysicalType::kInt64, LK::kTimestamp);
  ts.logical_type.unit = TimeUnit::kNanos;
  ts.logical_type.is_adjusted_to_utc = true;
  EXPECT_EQ(Render(ts, RawBytes<int64_t>(1730982834123456789)),
            "\"2024-11-07 12:33:54.123456789\"");
  ts.logical_type.unit = TimeUnit::kMicros;
  EXPECT_EQ(Render(ts, RawBytes<int64_t>(1730982834000000)), "\"2024-11-07 12:33:54\"");
  EXPECT_EQ(Render(Leaf(PhysicalType::kByteArray), FromHex("0a0b0c0d")), "\"CgsMDQ==\"");
  EXPECT_EQ(Render(Leaf(PhysicalType::kByteArray, LK::kString), "ice\"berg"), "\"ice\\\"berg\"");
  EXPECT_EQ(Render(Leaf(PhysicalType::kFixedLenByteArray, LK::kUuid, 16),
                   FromHex("f24f9b6481fa49d1b74e8c09a6e31c56")),
            "\"f24f9b64-81fa-49d1-b74e-8c09a6e31c56\"");
}

TEST(ShreddedLeafTypeTest, RefusesWhatIsNoVariantType) {
  using LK = LogicalType::Kind;
  auto refused = [](const SchemaNode& leaf) {
    return ShreddedLeafType::Of(leaf).status().IsCorruption();
  };
  SchemaNode uint8 = Leaf(PhysicalType::kInt32, LK::kInteger);
  uint8.logical_type.bit_width = 8;
  uint8.logical_type.is_signed = false;
  EXPECT_TRUE(refused(uint8));
  SchemaNode millis = Leaf(PhysicalType::kInt64, LK::kTimestamp);
  millis.logical_type.unit = TimeUnit::kMillis;
  EXPECT_TRUE(refused(millis));
  SchemaNode time_nanos = Leaf(PhysicalType::kInt64, LK::kTime);
  time_nanos.logical_type.unit = TimeUnit::kNanos;
  EXPECT_TRUE(refused(time_nanos));
  SchemaNode scale = Leaf(PhysicalType::kInt64, LK::kDecimal);
  scale.logical_type.decimal_scale = 39;
  EXPECT_TRUE(refused(scale));
  EXPECT_TRUE(refused(Leaf(PhysicalType::kInt96)));
  EXPECT_TRUE(refused(Leaf(PhysicalType::kByteArray, LK::kJson)));
  EXPECT_TRUE(refused(Leaf(PhysicalType::kByteArray, LK::kEnum)));
  EXPECT_TRUE(refused(Leaf(PhysicalType::kFixedLenByteArray, LK::kFloat16, 2)));
  EXPECT_TRUE(refused(Leaf(PhysicalType::kFixedLenByteArray, LK::kUuid, 8)));
  EXPECT_TRUE(refused(Leaf(PhysicalType::kFixedLenByteArray, LK::kNone, 16)));
  EXPECT_TRUE(refused(Leaf(PhysicalType::kInt32, LK::kTime)));
  Result<ShreddedLeafType> r = ShreddedLeafType::Of(uint8);
  EXPECT_NE(r.status().message().find("INT32 INT(8, unsigned), which is not a Variant type"),
            std::string::npos)
      << r.status().ToString();

  // Wrong raw sizes are Corruption, not a read out of range.
  Result<ShreddedLeafType> uuid =
      ShreddedLeafType::Of(Leaf(PhysicalType::kFixedLenByteArray, LK::kUuid, 16));
  ASSERT_TRUE(uuid.ok());
  std::string out;
  EXPECT_TRUE(uuid->AppendJson(AsBytes("short"), &out).IsCorruption());
  Result<ShreddedLeafType> boolean = ShreddedLeafType::Of(Leaf(PhysicalType::kBoolean));
  ASSERT_TRUE(boolean.ok());
  EXPECT_TRUE(boolean->AppendJson(ByteSpan(), &out).IsCorruption());
  EXPECT_EQ(out, "");
}

}  // namespace
}  // namespace pq
