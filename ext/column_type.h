// ColumnType: the Parquet type of a column written from SQL, parsed from a type name (the declared
// type of a query's column, sqlite3_column_decltype, or an entry of the `schema=` option) and
// turned into the file's SchemaElements. Names are matched ignoring case; a name it does not know
// follows SQLite's affinity rules, and one with no affinity of its own (empty, NUMERIC, DECIMAL
// without precision) is kInfer: the type is decided from the values. No SQLite is involved here;
// the conversion of SQLite values is export_types.h. The names and what each writes are documented
// in docs/writing.md ("Column types").
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
  // kFloat, kFloat16 taken from a query column's Parquet source (not declared): a value the type
  // would round is refused, since it came from elsewhere (another arm of a compound SELECT).
  bool exact = false;
  // kTimestamp taken from a SQLite declared type (DATETIME, TIMESTAMP of a native table's column), not
  // from schema= or a Parquet source: an INTEGER is Unix time in seconds, as SQLite's date and time
  // functions store it, rather than units since 1970.
  bool unix_seconds = false;
  std::vector<ColumnType> children;   // kList, kMap, kStruct
  std::vector<std::string> field_names;  // kStruct, one per child
  std::optional<std::string> crs;        // kGeometry, kGeography: unset means OGC:CRS84
  std::optional<EdgeInterpolationAlgorithm> algorithm;  // kGeography: unset means SPHERICAL

  // LIST, MAP, STRUCT: written from JSON text by the JsonShredder.
  // A type of `kind` with the defaults above; an integer of `bits` and signedness.
  static ColumnType Of(ColumnKind kind) {
    ColumnType t;
    t.kind = kind;
    return t;
  }
  static ColumnType Integer(int bits, bool is_signed) {
    ColumnType t = Of(ColumnKind::kInteger);
    t.bit_width = bits;
    t.is_signed = is_signed;
    return t;
  }

  bool is_nested() const {
    return kind == ColumnKind::kList || kind == ColumnKind::kMap || kind == ColumnKind::kStruct;
  }
  // A group in the file: the nested types and VARIANT.
  bool is_group() const { return is_nested() || kind == ColumnKind::kVariant; }
  // Of a primitive type (for a nested type: BYTE_ARRAY, 0).
  PhysicalType physical_type() const;
  int32_t type_length() const;  // FIXED_LEN_BYTE_ARRAY length, else 0
};

// The type a name means (docs/writing.md). kInfer for a name with no meaning of its own. Nested
// types nest at most 64 levels deep.
// InvalidArgument for a known name with bad arguments: DECIMAL(40,2), DECIMAL(5,6), TIME(HOURS),
// and for a nested type that does not parse or holds a type of no meaning: LIST<FOO>.
Result<ColumnType> ParseColumnType(std::string_view name);
// The name of a type as ParseColumnType reads it back: "INTEGER", "DECIMAL(12,2)",
// "TIMESTAMP(MILLIS)", "MAP<TEXT, LIST<INTEGER>>", "STRUCT<a INTEGER, \"b c\" TEXT>".
std::string ColumnTypeName(const ColumnType& type);
// The type as a column type of CREATE TABLE: ColumnTypeName, made an SQL string ('LIST<INTEGER>',
// 'TIMESTAMP(MICROS)') when SQLite's grammar would not take it as it is: its type names are words
// optionally followed by one or two signed numbers in parentheses. SQLite strips the quotes: the
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
