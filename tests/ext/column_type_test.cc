// The type names of the export and the writable table (ext/column_type.h), without SQLite: every
// row of the type table, SQLite's affinity rules for other names, the errors for bad arguments and
// bad nested types, names read back by ParseColumnType, and the schema elements a type becomes.
#include "ext/column_type.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pq::ext {
namespace {

ColumnType Parse(const std::string& name) {
  Result<ColumnType> t = ParseColumnType(name);
  EXPECT_TRUE(t.ok()) << name << ": " << t.status().message();
  return t.ok() ? *t : ColumnType();
}

std::string ErrorOf(const std::string& name) {
  Result<ColumnType> t = ParseColumnType(name);
  EXPECT_FALSE(t.ok()) << name << " parsed as " << (t.ok() ? ColumnTypeName(*t) : "");
  return t.ok() ? "" : t.status().message();
}

TEST(ColumnTypeTest, TableNamesAndTheirPhysicalTypes) {
  struct Row {
    const char* name;
    ColumnKind kind;
    PhysicalType physical;
    int bit_width;
    bool is_signed;
  };
  const std::vector<Row> rows = {
      {"BOOLEAN", ColumnKind::kBoolean, PhysicalType::kBoolean, 64, true},
      {"bool", ColumnKind::kBoolean, PhysicalType::kBoolean, 64, true},
      {"TINYINT", ColumnKind::kInteger, PhysicalType::kInt32, 8, true},
      {"int2", ColumnKind::kInteger, PhysicalType::kInt32, 16, true},
      {"MEDIUMINT", ColumnKind::kInteger, PhysicalType::kInt32, 32, true},
      {"INT32", ColumnKind::kInteger, PhysicalType::kInt32, 32, true},
      {"integer", ColumnKind::kInteger, PhysicalType::kInt64, 64, true},
      {"LONG", ColumnKind::kInteger, PhysicalType::kInt64, 64, true},
      {"UTINYINT", ColumnKind::kInteger, PhysicalType::kInt32, 8, false},
      {"USMALLINT", ColumnKind::kInteger, PhysicalType::kInt32, 16, false},
      {"UINTEGER", ColumnKind::kInteger, PhysicalType::kInt32, 32, false},
      {"UBIGINT", ColumnKind::kInteger, PhysicalType::kInt64, 64, false},
      {"double  precision", ColumnKind::kDouble, PhysicalType::kDouble, 64, true},
      {"FLOAT8", ColumnKind::kDouble, PhysicalType::kDouble, 64, true},
      {"VARCHAR(20)", ColumnKind::kString, PhysicalType::kByteArray, 64, true},
      {"CLOB", ColumnKind::kString, PhysicalType::kByteArray, 64, true},
      {"BYTEA", ColumnKind::kBlob, PhysicalType::kByteArray, 64, true},
      {"JSON", ColumnKind::kJson, PhysicalType::kByteArray, 64, true},
      {"DATE", ColumnKind::kDate, PhysicalType::kInt32, 64, true},
      {"UUID", ColumnKind::kUuid, PhysicalType::kFixedLenByteArray, 64, true},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.name);
    const ColumnType t = Parse(r.name);
    EXPECT_EQ(t.kind, r.kind);
    EXPECT_EQ(t.physical_type(), r.physical);
    if (t.kind == ColumnKind::kInteger) {
      EXPECT_EQ(t.bit_width, r.bit_width);
      EXPECT_EQ(t.is_signed, r.is_signed);
    }
    EXPECT_FALSE(t.strict);
  }
  EXPECT_EQ(Parse("UUID").type_length(), 16);
}

TEST(ColumnTypeTest, TimeUnits) {
  EXPECT_EQ(Parse("TIME").unit, TimeUnit::kMicros);
  EXPECT_EQ(Parse("TIME").physical_type(), PhysicalType::kInt64);
  EXPECT_EQ(Parse("time(millis)").unit, TimeUnit::kMillis);
  EXPECT_EQ(Parse("TIME(MILLIS)").physical_type(), PhysicalType::kInt32);  // TIME(MILLIS) is INT32
  EXPECT_EQ(Parse("TIME(9)").unit, TimeUnit::kNanos);
  EXPECT_EQ(Parse("TIMESTAMP").unit, TimeUnit::kMicros);
  EXPECT_EQ(Parse("TIMESTAMP(NS)").unit, TimeUnit::kNanos);
  EXPECT_EQ(Parse("TIMESTAMP_MS").unit, TimeUnit::kMillis);
  EXPECT_EQ(Parse("DATETIME").kind, ColumnKind::kTimestamp);
  EXPECT_EQ(Parse("timestamp with time zone").kind, ColumnKind::kTimestamp);
  EXPECT_EQ(Parse("TIMESTAMPTZ").physical_type(), PhysicalType::kInt64);
  EXPECT_EQ(ErrorOf("TIME(HOURS)"), "type TIME takes one unit: MILLIS, MICROS or NANOS");
  EXPECT_EQ(ErrorOf("TIMESTAMP(MILLIS, MICROS)"),
            "type TIMESTAMP takes one unit: MILLIS, MICROS or NANOS");
}

TEST(ColumnTypeTest, DecimalPrecisionPicksThePhysicalType) {
  const ColumnType small = Parse("DECIMAL(9, 2)");
  EXPECT_EQ(small.kind, ColumnKind::kDecimal);
  EXPECT_EQ(small.precision, 9);
  EXPECT_EQ(small.scale, 2);
  EXPECT_EQ(small.physical_type(), PhysicalType::kInt32);
  EXPECT_EQ(Parse("NUMERIC(18)").physical_type(), PhysicalType::kInt64);
  EXPECT_EQ(Parse("NUMERIC(18)").scale, 0);
  const ColumnType wide = Parse("decimal(38,10)");
  EXPECT_EQ(wide.physical_type(), PhysicalType::kFixedLenByteArray);
  EXPECT_EQ(wide.type_length(), 16);  // the fewest bytes holding 38 digits
  EXPECT_EQ(Parse("DECIMAL(19,0)").type_length(), 9);
  // Without precision, DECIMAL and NUMERIC have no type of their own: inferred from the values.
  EXPECT_EQ(Parse("DECIMAL").kind, ColumnKind::kInfer);
  EXPECT_EQ(Parse("NUMERIC").kind, ColumnKind::kInfer);

  EXPECT_EQ(ErrorOf("DECIMAL(40,2)"),
            "type 'DECIMAL(40,2)': the precision must be between 1 and 38");
  EXPECT_EQ(ErrorOf("DECIMAL(5,6)"),
            "type 'DECIMAL(5,6)': the scale must be between 0 and the precision");
  EXPECT_EQ(ErrorOf("DECIMAL(x)"), "type 'DECIMAL(x)' must be DECIMAL(precision[, scale])");
  EXPECT_EQ(ErrorOf("DECIMAL(1,2,3)"), "type 'DECIMAL(1,2,3)' must be DECIMAL(precision[, scale])");
  EXPECT_EQ(ErrorOf(" DECIMAL(5 "), "type 'DECIMAL(5' has an unclosed '('");
}

TEST(ColumnTypeTest, OtherNamesFollowSqliteAffinity) {
  EXPECT_EQ(Parse("POINT INTEGRAL").kind, ColumnKind::kInteger);  // contains INT
  EXPECT_EQ(Parse("POINT INTEGRAL").bit_width, 64);
  EXPECT_EQ(Parse("NATIONAL CHARACTER VARYING").kind, ColumnKind::kString);
  EXPECT_EQ(Parse("MYTEXT").kind, ColumnKind::kString);
  EXPECT_EQ(Parse("BLOBBY").kind, ColumnKind::kBlob);
  EXPECT_EQ(Parse("FLOATING").kind, ColumnKind::kDouble);
  EXPECT_EQ(Parse("DOUBLED").kind, ColumnKind::kDouble);
  EXPECT_EQ(Parse("").kind, ColumnKind::kInfer);
  EXPECT_EQ(Parse("ANY").kind, ColumnKind::kInfer);
  EXPECT_EQ(Parse("FOO").kind, ColumnKind::kInfer);
}

TEST(ColumnTypeTest, NestedTypes) {
  const ColumnType list = Parse("list<struct<a INTEGER, \"b c\" LIST<TEXT>>>");
  ASSERT_EQ(list.kind, ColumnKind::kList);
  ASSERT_EQ(list.children.size(), 1u);
  const ColumnType& element = list.children[0];
  ASSERT_EQ(element.kind, ColumnKind::kStruct);
  EXPECT_EQ(element.field_names, (std::vector<std::string>{"a", "b c"}));
  EXPECT_EQ(element.children[1].kind, ColumnKind::kList);
  EXPECT_EQ(element.children[1].children[0].kind, ColumnKind::kString);
  EXPECT_EQ(LeafCount(list), 2);
  EXPECT_TRUE(list.is_nested());
  EXPECT_EQ(list.physical_type(), PhysicalType::kByteArray);

  const ColumnType map = Parse("MAP<TEXT, LIST<REAL>>");
  ASSERT_EQ(map.kind, ColumnKind::kMap);
  EXPECT_EQ(map.children[0].kind, ColumnKind::kString);
  EXPECT_EQ(map.children[1].children[0].kind, ColumnKind::kDouble);
  EXPECT_EQ(LeafCount(map), 2);

  // Quoted field names in each of SQL's three quotings, a doubled quote inside.
  const ColumnType s = Parse("STRUCT<[x y] INT, `z` DECIMAL(12, 2), \"q\"\"r\" UUID>");
  EXPECT_EQ(s.field_names, (std::vector<std::string>{"x y", "z", "q\"r"}));
  EXPECT_EQ(s.children[1].precision, 12);
  EXPECT_EQ(LeafCount(s), 3);
}

TEST(ColumnTypeTest, NestedTypeErrors) {
  EXPECT_EQ(ErrorOf("LIST<FOO>"), "type 'LIST<FOO>': unknown type 'FOO'");
  EXPECT_EQ(ErrorOf("MAP<JSON, TEXT>"),
            "type 'MAP<JSON, TEXT>': a MAP key must be a primitive type other than JSON, not JSON");
  EXPECT_EQ(ErrorOf("MAP<LIST<TEXT>, TEXT>"),
            "type 'MAP<LIST<TEXT>, TEXT>': a MAP key must be a primitive type other than JSON, not "
            "LIST<TEXT>");
  EXPECT_EQ(ErrorOf("STRUCT<a INT, A TEXT>"),
            "type 'STRUCT<a INT, A TEXT>': field 'A' is given twice");
  EXPECT_EQ(ErrorOf("LIST<TEXT"), "type 'LIST<TEXT': expected '>' at the end");
  EXPECT_EQ(ErrorOf("LIST<>"), "type 'LIST<>': a type is missing");
  EXPECT_EQ(ErrorOf("LIST<TEXT> x"), "type 'LIST<TEXT> x': unexpected 'x'");
  EXPECT_EQ(ErrorOf("LIST<ARRAY<INT>>"),
            "type 'LIST<ARRAY<INT>>': unknown type 'ARRAY<' (nested types are LIST, MAP, STRUCT, "
            "VARIANT)");
  EXPECT_EQ(ErrorOf("STRUCT<\"a INT>"), "type 'STRUCT<\"a INT>': unclosed quote in a field name");
  EXPECT_EQ(
      ErrorOf("LIST<DECIMAL(50,1)>"),
      "type 'LIST<DECIMAL(50,1)>': type 'DECIMAL(50,1)': the precision must be between 1 and 38");
  std::string deep;
  for (int i = 0; i < 70; ++i) deep += "LIST<";
  deep += "INT";
  for (int i = 0; i < 70; ++i) deep += ">";
  EXPECT_NE(ErrorOf(deep).find("nested more than 64 deep"), std::string::npos);
}

TEST(ColumnTypeTest, NamesReadBack) {
  for (const char* name : {"BOOLEAN",
                           "TINYINT",
                           "SMALLINT",
                           "INT32",
                           "INTEGER",
                           "UTINYINT",
                           "USMALLINT",
                           "UINTEGER",
                           "UBIGINT",
                           "REAL",
                           "TEXT",
                           "BLOB",
                           "JSON",
                           "DATE",
                           "TIME(MILLIS)",
                           "TIME(NANOS)",
                           "TIMESTAMP(MICROS)",
                           "DECIMAL(12,2)",
                           "UUID",
                           "LIST<INTEGER>",
                           "MAP<TEXT, LIST<INTEGER>>",
                           "STRUCT<a INTEGER, \"b c\" TEXT>"}) {
    SCOPED_TRACE(name);
    const ColumnType t = Parse(name);
    EXPECT_EQ(ColumnTypeName(t), name);
    EXPECT_EQ(ColumnTypeName(Parse(ColumnTypeName(t))), name);
  }
  EXPECT_EQ(ColumnTypeName(Parse("bigint")), "INTEGER");
  EXPECT_EQ(ColumnTypeName(Parse("TIMESTAMP_NS")), "TIMESTAMP(NANOS)");
  EXPECT_EQ(ColumnTypeName(Parse("DECIMAL(7)")), "DECIMAL(7,0)");
  // As a column type of CREATE TABLE: nested names become SQL strings.
  EXPECT_EQ(DeclaredTypeText(Parse("DECIMAL(12,2)")), "DECIMAL(12,2)");
  EXPECT_EQ(DeclaredTypeText(Parse("STRUCT<\"it's\" TEXT>")), "'STRUCT<\"it''s\" TEXT>'");
}

TEST(ColumnTypeTest, SchemaElementsOfAPrimitive) {
  const SchemaElement e = ToSchemaElement("price", Parse("DECIMAL(20,4)"));
  EXPECT_EQ(e.name, "price");
  EXPECT_EQ(e.repetition_type, Repetition::kOptional);
  EXPECT_EQ(e.type, PhysicalType::kFixedLenByteArray);
  EXPECT_EQ(e.type_length, 9);
  ASSERT_TRUE(e.logical_type.has_value());
  EXPECT_EQ(e.logical_type->kind, LogicalType::Kind::kDecimal);
  EXPECT_EQ(e.logical_type->decimal_precision, 20);
  EXPECT_EQ(e.logical_type->decimal_scale, 4);

  const SchemaElement u8 = ToSchemaElement("b", Parse("UTINYINT"));
  ASSERT_TRUE(u8.logical_type.has_value());
  EXPECT_EQ(u8.logical_type->kind, LogicalType::Kind::kInteger);
  EXPECT_EQ(u8.logical_type->bit_width, 8);
  EXPECT_FALSE(u8.logical_type->is_signed);
  EXPECT_FALSE(ToSchemaElement("i", Parse("INTEGER")).logical_type.has_value());

  const SchemaElement ts = ToSchemaElement("t", Parse("TIMESTAMP(MILLIS)"));
  EXPECT_TRUE(ts.logical_type->is_adjusted_to_utc);
  EXPECT_EQ(ts.logical_type->unit, TimeUnit::kMillis);
  EXPECT_FALSE(ToSchemaElement("t", Parse("TIME")).logical_type->is_adjusted_to_utc);
}

TEST(ColumnTypeTest, SchemaElementsOfNestedTypes) {
  std::vector<SchemaElement> out;
  AppendSchemaElements("m", Parse("MAP<TEXT, LIST<REAL>>"), &out);
  std::vector<std::string> names;
  for (const SchemaElement& e : out) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"m", "key_value", "key", "value", "list", "element"}));
  EXPECT_EQ(out[0].logical_type->kind, LogicalType::Kind::kMap);
  EXPECT_EQ(out[1].repetition_type, Repetition::kRepeated);
  EXPECT_EQ(out[1].num_children, 2);
  EXPECT_EQ(out[2].repetition_type, Repetition::kRequired);  // the key
  EXPECT_EQ(out[3].logical_type->kind, LogicalType::Kind::kList);
  EXPECT_EQ(out[4].repetition_type, Repetition::kRepeated);
  EXPECT_EQ(out[5].type, PhysicalType::kDouble);
  EXPECT_EQ(out[5].repetition_type, Repetition::kOptional);

  out.clear();
  AppendSchemaElements("s", Parse("STRUCT<a INT, b TEXT>"), &out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].num_children, 2);
  EXPECT_FALSE(out[0].logical_type.has_value());
  EXPECT_EQ(out[1].name, "a");
  EXPECT_EQ(out[2].logical_type->kind, LogicalType::Kind::kString);
}

// The types of the writer's later additions: every name, read back, and its schema element.
TEST(ColumnTypeTest, OtherLogicalTypes) {
  for (const char* name :
       {"FLOAT4", "FLOAT16", "ENUM", "BSON", "INTERVAL", "UNKNOWN", "TIMETZ(MICROS)",
        "TIMESTAMP_NTZ(NANOS)", "GEOMETRY", "GEOMETRY('srid:5070')",
        "GEOGRAPHY('OGC:CRS84', KARNEY)", "GEOGRAPHY(VINCENTY)", "VARIANT",
        "VARIANT<STRUCT<a INTEGER, b LIST<TEXT>, c VARIANT>>"}) {
    SCOPED_TRACE(name);
    const ColumnType t = Parse(name);
    EXPECT_EQ(ColumnTypeName(t), name);
    EXPECT_EQ(ColumnTypeName(Parse(ColumnTypeName(t))), name);
  }
  EXPECT_EQ(ColumnTypeName(Parse("time with time zone")), "TIMETZ(MICROS)");
  EXPECT_EQ(ColumnTypeName(Parse("TIMESTAMP WITHOUT TIME ZONE")), "TIMESTAMP_NTZ(MICROS)");
  EXPECT_EQ(ColumnTypeName(Parse("half")), "FLOAT16");
  // The CRS keeps its case, commas, parentheses and quotes.
  EXPECT_EQ(*Parse("geometry('a, (B)''c')").crs, "a, (B)'c");
  EXPECT_EQ(DeclaredTypeText(Parse("GEOMETRY('x')")), "'GEOMETRY(''x'')'");

  const SchemaElement f16 = ToSchemaElement("h", Parse("FLOAT16"));
  EXPECT_EQ(f16.type, PhysicalType::kFixedLenByteArray);
  EXPECT_EQ(f16.type_length, 2);
  EXPECT_EQ(f16.logical_type->kind, LogicalType::Kind::kFloat16);
  const SchemaElement iv = ToSchemaElement("i", Parse("INTERVAL"));
  EXPECT_EQ(iv.type_length, 12);
  EXPECT_FALSE(iv.logical_type.has_value());
  EXPECT_EQ(iv.converted_type, ConvertedType::kInterval);
  EXPECT_EQ(ToSchemaElement("f", Parse("FLOAT4")).type, PhysicalType::kFloat);
  EXPECT_TRUE(ToSchemaElement("t", Parse("TIMETZ")).logical_type->is_adjusted_to_utc);
  EXPECT_FALSE(ToSchemaElement("t", Parse("TIMESTAMP_NTZ")).logical_type->is_adjusted_to_utc);
  const SchemaElement g = ToSchemaElement("g", Parse("GEOGRAPHY('x', ANDOYER)"));
  EXPECT_EQ(g.logical_type->kind, LogicalType::Kind::kGeography);
  EXPECT_EQ(*g.logical_type->crs, "x");
  EXPECT_EQ(*g.logical_type->algorithm, EdgeInterpolationAlgorithm::kAndoyer);

  EXPECT_NE(ErrorOf("GEOMETRY('x', KARNEY)").find("GEOMETRY takes a CRS only"), std::string::npos);
  EXPECT_NE(ErrorOf("GEOGRAPHY('x'").find("expected ('crs')"), std::string::npos);
  EXPECT_NE(ErrorOf("LIST<GEOMETRY>").find("can only be the type of a column"), std::string::npos);
  EXPECT_NE(ErrorOf("VARIANT<UBIGINT>").find("not a type a Variant value can be shredded as"),
            std::string::npos);
  EXPECT_NE(ErrorOf("VARIANT<TIME(MILLIS)>").find("TIME(MICROS)"), std::string::npos);
  EXPECT_NE(ErrorOf("VARIANT<STRUCT<a VARIANT<INTEGER>>>").find("its own type"), std::string::npos);
}

// VARIANT: the group, its metadata and value, and the typed_value of a shredding, field by field.
TEST(ColumnTypeTest, SchemaElementsOfVariants) {
  std::vector<SchemaElement> out;
  AppendSchemaElements("v", Parse("VARIANT"), &out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].logical_type->kind, LogicalType::Kind::kVariant);
  EXPECT_EQ(out[0].logical_type->variant_specification_version, 1);
  EXPECT_EQ(out[1].name, "metadata");
  EXPECT_EQ(out[1].repetition_type, Repetition::kRequired);
  EXPECT_EQ(out[2].name, "value");
  EXPECT_EQ(out[2].repetition_type, Repetition::kRequired);
  EXPECT_EQ(LeafCount(Parse("VARIANT")), 2);

  out.clear();
  const ColumnType shredded = Parse("VARIANT<STRUCT<a INTEGER, b LIST<TEXT>, c VARIANT>>");
  AppendSchemaElements("v", shredded, &out);
  std::vector<std::string> names;
  for (const SchemaElement& e : out) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"v", "metadata", "value", "typed_value", "a", "value",
                                             "typed_value", "b", "value", "typed_value", "list",
                                             "element", "value", "typed_value", "c", "value"}));
  EXPECT_EQ(out[2].repetition_type, Repetition::kOptional);  // value beside a typed_value
  EXPECT_EQ(out[4].repetition_type, Repetition::kRequired);  // a field group
  EXPECT_EQ(out[6].type, PhysicalType::kInt64);
  EXPECT_EQ(out[9].logical_type->kind, LogicalType::Kind::kList);
  EXPECT_EQ(out[11].repetition_type, Repetition::kRequired);  // the element group
  EXPECT_EQ(out[14].num_children, 1);                         // c: value only
  int leaves = 0;
  for (const SchemaElement& e : out) leaves += e.type.has_value();
  EXPECT_EQ(LeafCount(shredded), leaves);
}

}  // namespace
}  // namespace pq::ext
