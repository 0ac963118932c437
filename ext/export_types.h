// The conversion of SQLite values to the column types of the Parquet files written from SQL
// (column_type.h: the types and their names).
//
// Conversion (ColumnBuilder::Append): a value is stored when it means the same thing in the
// column's type, as SQLite's own column affinity would store it; anything else is an error that
// says why, never a silent change:
//   integer columns  INTEGER in range; REAL with no fraction, in range; TEXT spelling an integer
//   DOUBLE           INTEGER, REAL, TEXT spelling a number
//   BOOLEAN          0 or 1 (INTEGER or REAL), TEXT '0' '1' 'true' 'false'
//   STRING, JSON     TEXT; INTEGER and REAL as SQLite prints them
//   BLOB             BLOB; TEXT as its UTF-8 bytes
//   DATE             TEXT 'YYYY-MM-DD'
//   TIME             TEXT 'HH:MM[:SS[.f]]', no more fraction digits than the unit holds (unless
//   zeros) TIMESTAMP        TEXT 'YYYY-MM-DD[ HH:MM[:SS[.f]]]' (or 'T' for ' ', 'Z' at the end),
//   fraction
//                    as for TIME; INTEGER as units since 1970-01-01 00:00:00 UTC
//   DECIMAL(p,s)     INTEGER, REAL (its shortest round-trip decimal text) or TEXT, exactly: more
//                    than s fraction digits (other than trailing zeros) or more than p digits is
//                    an error, nothing is rounded
//   UUID             TEXT 8-4-4-4-12 hex digits (either case), or a 16-byte BLOB
//   FLOAT4           as DOUBLE, then rounded to the nearest 4-byte float (as such a column
//                    holds it); a finite value beyond the float range is an error
//   FLOAT16          the same, to the nearest half (largest finite 65504)
//   ENUM             as STRING
//   BSON             a BLOB that is one BSON document (its int32 length, the bytes, 0x00 last)
//   INTERVAL         TEXT {"months":m,"days":d,"millis":n} as the reader gives it (members in
//                    any order, missing ones 0, each 0..4294967295), or the 12-byte BLOB
//   TIMETZ           as TIME (the time of day in UTC)
//   TIMESTAMP_NTZ    as TIMESTAMP but that a time zone in the text is an error (a local
//                    timestamp has none)
//   GEOMETRY,        a BLOB of ISO WKB (format/geo/wkb.h; checked, stored as given) or TEXT of
//   GEOGRAPHY        WKT (format/geo/wkt.h; stored as little-endian WKB); GEOGRAPHY also needs
//                    every x in [-180, 180] and y in [-90, 90]
//   VARIANT          TEXT holding JSON (format/variant/variant_from_json.h: the text null is the
//                    Variant null, not NULL), or a BLOB holding a Variant's metadata followed by
//                    its value, as a table with variant=binary reads it (copied value for value,
//                    every primitive keeping its type); VARIANT<T> shreds it
//                    (format/writer/variant_shredder.h)
//   LIST, MAP, STRUCT  TEXT holding JSON (format/writer/json_shredder.h says what each type takes:
//                    an array for LIST, an object for STRUCT, an object or an array of
//                    {"key":..,"value":..} for MAP); the JSON text null is NULL
// A column whose type is inferred is strict: it takes only the storage classes it was inferred
// from (INTEGER for INT64; INTEGER and REAL for DOUBLE; TEXT for STRING; BLOB for BLOB), and an
// inferred DOUBLE takes only the integers it holds exactly (a declared REAL rounds the others).
// Every column is OPTIONAL: NULL is always accepted.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ext/column_type.h"
#include "ext/sqlite_api.h"
#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/util/status.h"

namespace pq {
class FileWriter;
class JsonShredder;
}  // namespace pq

namespace pq::ext {
// The type values of these storage classes (SQLITE_INTEGER ... bit set 1 << class) make a column
// without a declared type: INTEGER -> INT64, REAL or INTEGER+REAL -> DOUBLE, TEXT -> STRING,
// BLOB -> BLOB, none (all NULL) -> kNull; strict. InvalidArgument for classes that do not mix.
Result<ColumnType> InferColumnType(unsigned storage_classes);

// A short description of a value for messages: "integer 300", "text 'abc'", "a 3-byte BLOB".
std::string DescribeValue(sqlite3_value* v);

// One column of a batch of rows: definition levels and values of its Parquet physical type; for a
// nested type, the levels and values of each of its leaves (a JsonShredder).
class ColumnBuilder {
 public:
  explicit ColumnBuilder(ColumnType type);
  ~ColumnBuilder();
  ColumnBuilder(ColumnBuilder&&) noexcept;
  ColumnBuilder& operator=(ColumnBuilder&&) noexcept;

  const ColumnType& type() const { return type_; }
  // Appends one value. InvalidArgument saying why it does not fit (the caller adds row and column);
  // the builder is then unchanged.
  Status Append(sqlite3_value* v);
  // Append for the common cases only (a NULL, and those of AppendFast below), without building a
  // Status: true when `v` was stored; false leaves the builder unchanged for Append to handle.
  bool TryAppend(sqlite3_value* v);
  int64_t rows() const;
  // Bytes held by the values (about what they take in memory: an upper bound for a column with
  // NULLs). Cheap: called for every row.
  size_t bytes() const { return nested_bytes_or(def_.size() * row_bytes_ + bytes_.size()); }
  // Drops rows from `rows` on (rows <= this->rows()).
  void Truncate(int64_t rows);
  // Writes every row to leaf `leaf` of `writer` (the first of LeafCount(type()) leaves), then
  // empties the builder.
  Status WriteTo(FileWriter* writer, int leaf);

 private:
  // The common cases (an INTEGER into an integer column, a REAL into DOUBLE, TEXT into STRING, a
  // timestamp in the form 'YYYY-MM-DD HH:MM:SS', a number into DECIMAL(p <= 18)) with no detour:
  // true when `v` (of storage class `cls`, not NULL) was stored, false to take AppendNonNull,
  // which handles every case and gives the errors. Both store the same value.
  bool AppendFast(sqlite3_value* v, int cls);
  Status AppendNonNull(sqlite3_value* v);
  // bytes() of a nested column (the shredder's), else `flat`: keeps bytes() inline, it is called
  // for every value.
  size_t nested_bytes_or(size_t flat) const {
    return nested_ || variant_ ? NestedBytes() : flat;
  }
  size_t NestedBytes() const;
  Status AppendNested(sqlite3_value* v);
  Status AppendVariant(sqlite3_value* v);
  Status AppendGeometry(sqlite3_value* v);
  Status AppendInteger(sqlite3_value* v);
  Status AppendDecimal(sqlite3_value* v);
  void PushInt(int64_t v);  // to i32_ or i64_ by physical type
  void PushBytes(const void* p, size_t n);

  // Which case AppendFast handles for this column type.
  enum class FastPath { kNone, kInt64, kInt32, kDouble, kString, kTimestamp, kDecimal, kBoolean };

  ColumnType type_;
  FastPath fast_ = FastPath::kNone;
  size_t row_bytes_ = 0;                  // def_ entry plus a fixed-width value, per row
  std::vector<int16_t> def_;              // 1 value, 0 NULL, per row
  std::vector<uint8_t> bools_;            // BOOLEAN
  std::vector<int32_t> i32_;              // INT32
  std::vector<int64_t> i64_;              // INT64
  std::vector<float> f32_;                // FLOAT
  std::vector<double> f64_;               // DOUBLE
  std::string bytes_;                     // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY values, back to back
  std::vector<size_t> ends_;              // end offset in bytes_ of each of those values
  std::vector<ByteArray> arrays_;         // scratch for WriteTo
  std::unique_ptr<JsonShredder> nested_;  // nested types
  struct VariantColumn;                   // VARIANT: the encoder and shredder (export_types.cc)
  std::unique_ptr<VariantColumn> variant_;
  Status nested_error_;                   // why nested_/variant_ could not be made (not expected)
};

}  // namespace pq::ext
