// Column types of the Parquet files written from SQL: the type names the export and the writable
// table read (no SQLite involved; the conversion of SQLite values is export_types.h).
//
// A column's type comes from a type name: the declared type of a query's column
// (sqlite3_column_decltype) or an entry of the `schema=` option. Names are matched
// case-insensitively:
//
//   BOOLEAN, BOOL                                   BOOLEAN
//   TINYINT INT1 / SMALLINT INT2 / INT4 INT32 MEDIUMINT   INT32 annotated INT(8/16/32, signed)
//   INTEGER INT BIGINT INT8 INT64 LONG              INT64
//   UTINYINT / USMALLINT / UINTEGER / UBIGINT       INT32 / INT32 / INT32 / INT64, INT(n, unsigned)
//   REAL DOUBLE [PRECISION] FLOAT FLOAT8 FLOAT64    DOUBLE
//   FLOAT4 FLOAT32                                  FLOAT (4 bytes)
//   FLOAT16 HALF                                    FIXED_LEN_BYTE_ARRAY(2) FLOAT16
//   TEXT VARCHAR(n) CHAR(n) CLOB STRING ...         BYTE_ARRAY STRING
//   BLOB BYTEA BINARY VARBINARY                     BYTE_ARRAY
//   JSON                                            BYTE_ARRAY JSON
//   ENUM / BSON                                     BYTE_ARRAY ENUM / BSON
//   INTERVAL                                        FIXED_LEN_BYTE_ARRAY(12) INTERVAL (a converted
//                                                   type only: the format has no logical type)
//   DATE                                            INT32 DATE
//   TIME[(MILLIS|MICROS|NANOS)]                     INT64 TIME (INT32 for MILLIS; default MICROS;
//                                                   not adjusted to UTC)
//   TIMETZ[(unit)], TIME WITH TIME ZONE             the same, adjusted to UTC
//   TIMESTAMP[(MILLIS|MICROS|NANOS)] DATETIME TIMESTAMPTZ TIMESTAMP_MS TIMESTAMP_NS
//                                                   INT64 TIMESTAMP (default MICROS, adjusted to
//                                                   UTC)
//   TIMESTAMP_NTZ[(unit)], TIMESTAMP WITHOUT TIME ZONE
//                                                   INT64 TIMESTAMP not adjusted to UTC (local)
//   DECIMAL(p[,s]) NUMERIC(p[,s]), 1 <= p <= 38     INT32 (p <= 9), INT64 (p <= 18), else
//                                                   FIXED_LEN_BYTE_ARRAY of the fewest bytes for p
//   UUID                                            FIXED_LEN_BYTE_ARRAY(16) UUID
//   UNKNOWN                                         INT32 UNKNOWN: a column that is always NULL
//   GEOMETRY[('crs')]                               BYTE_ARRAY GEOMETRY (crs unset: OGC:CRS84)
//   GEOGRAPHY[('crs')[, ALGORITHM]]                 BYTE_ARRAY GEOGRAPHY; ALGORITHM one of
//                                                   SPHERICAL (the default), VINCENTY, THOMAS,
//                                                   ANDOYER, KARNEY
//   VARIANT                                         a group (VARIANT): required binary metadata,
//                                                   required binary value
//   VARIANT<T>                                      the same, shredded (variant_shredder.h): value
//                                                   optional, typed_value of T, where T is BOOLEAN,
//                                                   TINYINT, SMALLINT, INT32, INTEGER, FLOAT4,
//                                                   REAL, DECIMAL(p,s), DATE, TIME(MICROS),
//                                                   TIMESTAMP[_NTZ](MICROS|NANOS), TEXT, BLOB,
//                                                   UUID, LIST<T>, STRUCT<name T, ...>, or VARIANT
//                                                   (a field or element kept whole)
//   LIST<T>                                         a group (LIST) of the 3-level form: repeated
//                                                   group list, optional element
//   MAP<K, V>                                       a group (MAP): repeated group key_value,
//                                                   required key, optional value
//   STRUCT<name T, ...>                             a group, one optional field per entry
// Nested types nest (LIST<STRUCT<a INTEGER, b LIST<TEXT>>>, MAP<TEXT, LIST<REAL>>); their element,
// value and field types are any type of this table but FLOAT16, BSON, INTERVAL, GEOMETRY,
// GEOGRAPHY and VARIANT (an unknown one is an error, no inference), a MAP key any but JSON and the
// nested ones; field names are distinct (ignoring case) and may be
// quoted ("a b", `a b`, [a b]). Nesting is limited to 64 levels.
// Any other name follows SQLite's affinity rules (contains INT: INT64; CHAR/CLOB/TEXT: STRING;
// BLOB: BLOB; REAL/FLOA/DOUB: DOUBLE); a name with no affinity of its own (empty, NUMERIC, DECIMAL
// without precision, ANY ...) leaves the type to be inferred from the values (kInfer).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/util/status.h"

namespace pq::ext {


enum class ColumnKind {
  kInfer,  // not known yet: decided from the values
  kNull,   // UNKNOWN, or inferred from values that were all NULL: INT32 annotated UNKNOWN
  kBoolean,
  kInteger,  // bit_width, is_signed
  kDouble,
  kString,
  kBlob,
  kJson,
  kDate,
  kTime,       // unit
  kTimestamp,  // unit
  kDecimal,    // precision, scale
  kUuid,
  kFloat,      // 4-byte FLOAT
  kFloat16,    // FIXED_LEN_BYTE_ARRAY(2) FLOAT16
  kEnum,
  kBson,
  kInterval,   // FIXED_LEN_BYTE_ARRAY(12), converted type INTERVAL
  kGeometry,   // crs
  kGeography,  // crs, algorithm
  kVariant,    // children: none (unshredded) or the type its values are shredded as
  kList,    // children: the element
  kMap,     // children: key, value
  kStruct,  // children: the fields, named by field_names
};

struct ColumnType {
  ColumnKind kind = ColumnKind::kInfer;
  int bit_width = 64;                 // kInteger: 8, 16, 32 or 64
  bool is_signed = true;              // kInteger
  TimeUnit unit = TimeUnit::kMicros;  // kTime, kTimestamp
  bool adjusted_to_utc = false;       // kTime, kTimestamp (ParseColumnType: TIMESTAMP true)
  int precision = 0;                  // kDecimal: 1..38
  int scale = 0;                      // kDecimal: 0..precision
  bool strict = false;                // inferred from values: only their storage classes accepted
  std::vector<ColumnType> children;   // kList, kMap, kStruct
  std::vector<std::string> field_names;  // kStruct, one per child
  std::optional<std::string> crs;        // kGeometry, kGeography: unset means OGC:CRS84
  std::optional<EdgeInterpolationAlgorithm> algorithm;  // kGeography: unset means SPHERICAL

  // LIST, MAP, STRUCT: written from JSON text by the JsonShredder.
  bool is_nested() const {
    return kind == ColumnKind::kList || kind == ColumnKind::kMap || kind == ColumnKind::kStruct;
  }
  // A group in the file: the nested types and VARIANT.
  bool is_group() const { return is_nested() || kind == ColumnKind::kVariant; }
  // Of a primitive type (for a nested type: BYTE_ARRAY, 0).
  PhysicalType physical_type() const;
  int32_t type_length() const;  // FIXED_LEN_BYTE_ARRAY length, else 0
};

// The type a name means (table above). kInfer for a name with no meaning of its own.
// InvalidArgument for a known name with bad arguments: DECIMAL(40,2), DECIMAL(5,6), TIME(HOURS),
// and for a nested type that does not parse or holds a type of no meaning: LIST<FOO>.
Result<ColumnType> ParseColumnType(std::string_view name);
// The name of a type as ParseColumnType reads it back: "INTEGER", "DECIMAL(12,2)",
// "TIMESTAMP(MILLIS)", "MAP<TEXT, LIST<INTEGER>>", "STRUCT<a INTEGER, \"b c\" TEXT>".
std::string ColumnTypeName(const ColumnType& type);
// The type as a column type of CREATE TABLE: ColumnTypeName, made an SQL string ('LIST<INTEGER>')
// when SQLite's grammar would not take it as it is (nested types). SQLite strips the quotes: the
// declared type reads back as the name.
std::string DeclaredTypeText(const ColumnType& type);
// The leaf SchemaElement of an OPTIONAL column with this name and primitive type (not kInfer).
SchemaElement ToSchemaElement(const std::string& name, const ColumnType& type);
// The SchemaElements of an OPTIONAL column with this name and type, depth first, appended to *out:
// one leaf for a primitive type, the group and everything under it for a nested type.
void AppendSchemaElements(const std::string& name, const ColumnType& type,
                          std::vector<SchemaElement>* out);
// Leaf columns of a column of this type (1 for a primitive type).
int LeafCount(const ColumnType& type);

}  // namespace pq::ext
