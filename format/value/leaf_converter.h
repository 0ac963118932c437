// LeafConverter: decoded Parquet leaf values to the values SQLite receives, and to JSON.
//
// One converter is built per leaf column per table (Make), from the leaf's physical type, its
// resolved logical type (or legacy ConvertedType) and the table's ValueOptions. Make works out once
// which conversion applies, so converting a value is one switch; the common cases (plain integers,
// doubles, strings, blobs) are inline and do nothing but wrap the value.
//
// Mapping (the value-mapping table of docs/reading.md; "declared" is declared_type(), whose SQLite
// affinity keeps the values as they are):
//
//   Parquet                                  SQLite value                               declared
//   BOOLEAN                                  INTEGER 0/1                                INTEGER
//   INT32, INT64, INT(8/16/32/64, signed),   INTEGER                                    INTEGER
//     legacy INT_8..INT_64
//   INT(8/16/32, unsigned), UINT_8..UINT_32  INTEGER: the INT32 read as uint32          INTEGER
//   INT(64, unsigned), UINT_64               INTEGER when <= 2^63-1, else REAL (the     INTEGER
//                                            nearest double to the uint64)
//   FLOAT, DOUBLE, FLOAT16 (FLBA(2))         REAL; NaN is NULL (SQLite stores NaN as    REAL
//                                            NULL), +-Inf stay REAL, -0.0 stays -0.0
//   DECIMAL on INT32/INT64/FLBA/BYTE_ARRAY   REAL nearest the exact value (default);    REAL / TEXT
//                                            exact TEXT with decimal=text (decimal.h)
//   STRING, ENUM, JSON                       TEXT, the bytes as stored (not validated)  TEXT
//   BSON, GEOMETRY, GEOGRAPHY (WKB)          BLOB (binary_as_string does not apply)     BLOB
//   BYTE_ARRAY / FLBA, no annotation         BLOB; TEXT with binary_as_string           BLOB / TEXT
//   UUID (FLBA(16))                          TEXT, lower case                           TEXT
//                                            'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'
//   DATE (INT32)                             TEXT 'YYYY-MM-DD' (temporal.h for years    TEXT
//                                            outside 0..9999)
//   TIME MILLIS (INT32), MICROS/NANOS        TEXT 'HH:MM:SS' + '.fff'/'.ffffff'/        TEXT
//     (INT64), legacy TIME_MILLIS/MICROS     '.fffffffff' when the fraction is not 0
//   TIMESTAMP MILLIS/MICROS/NANOS (INT64),   TEXT 'YYYY-MM-DD HH:MM:SS[.fraction]': the TEXT
//     legacy TIMESTAMP_MILLIS/MICROS         stored instant, read as UTC whether or not
//                                            isAdjustedToUTC (no time zone is applied)
//     with timestamp=integer                 INTEGER, the stored value                  INTEGER
//   INT96                                    TEXT as TIMESTAMP NANOS                    TEXT
//     with timestamp=integer                 INTEGER nanoseconds since the epoch; an    INTEGER
//                                            instant outside int64 (before 1677, after
//                                            2262) is REAL, the nearest double, as UINT64
//   INTERVAL (FLBA(12))                      TEXT '{"months":m,"days":d,"millis":n}'    TEXT
//   UNKNOWN                                  NULL, whatever is stored                   ""
//
// Dates and times are not affected by timestamp=integer. The fraction rules are in temporal.h.
//
// An annotation that does not fit the physical type (DATE on BYTE_ARRAY, UUID on FLBA(8), TIME
// MILLIS on INT64, INT(64) on INT32, FLOAT16 on FLBA(4), any annotation meant for groups on a leaf,
// a logical type this reader does not know) is ignored: the column reads by its physical type, as
// other readers do. Two leniencies beyond the spec: STRING/ENUM/JSON/BSON/GEOMETRY/GEOGRAPHY are
// also accepted on FIXED_LEN_BYTE_ARRAY, and DECIMAL ignores its precision (values are read as
// stored, whatever their size) and accepts any scale with |scale| <= kMaxDecimalScale (decimal.h),
// negative or above the precision. Make refuses (NotSupported) only a DECIMAL scale beyond that
// limit and a TIME/TIMESTAMP unit it does not know.
//
// One value with no sensible SQLite form reads as NULL rather than failing the scan: a byte-array
// DECIMAL longer than kMaxDecimalBytes (over 2466 digits, which no real writer produces; see
// decimal.h).
//
// JSON (AppendJson, for values inside LIST/MAP/struct columns): the same value as a JSON value.
// Integers and decimals are number literals with the exact digits (UINT64 above 2^63-1 included);
// reals are the shortest round-trip text of the same double the column holds (so FLOAT 0.1f is
// 0.10000000149011612), NaN and +-Inf are null (json_writer.h); BOOLEAN is true/false (SQLite's
// json_extract reads them as 1/0); TEXT values (dates, times, timestamps, UUIDs, strings,
// JSON-annotated strings too) are JSON strings; BLOBs are JSON strings of standard base64; INTERVAL
// is the object itself, not a string; UNKNOWN is null.
#pragma once

#include <cassert>
#include <cstdint>
#include <string>
#include <string_view>

#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/schema/schema.h"
#include "format/util/status.h"
#include "format/value/cell.h"
#include "format/value/value_options.h"

namespace pq {

class LeafConverter {
 public:
  // The conversion Make chose. Each kind accepts the value type(s) of the physical types noted.
  enum class Kind : uint8_t {
    kNull,              // UNKNOWN: every value is NULL (any physical type)
    kInteger,           // BOOLEAN, INT32, INT64 as they are
    kUInt32,            // INT32 read as uint32
    kUInt64,            // INT64 read as uint64
    kReal,              // FLOAT, DOUBLE
    kFloat16,           // FLBA(2)
    kDecimalReal,       // INT32, INT64, FLBA, BYTE_ARRAY
    kDecimalText,       // INT32, INT64, FLBA, BYTE_ARRAY
    kText,              // BYTE_ARRAY, FLBA as TEXT
    kBlob,              // BYTE_ARRAY, FLBA as BLOB
    kUuid,              // FLBA(16)
    kDate,              // INT32
    kTime,              // INT32 (MILLIS), INT64 (MICROS, NANOS)
    kTimestampText,     // INT64
    kTimestampInteger,  // INT64
    kInt96Text,         // INT96
    kInt96Integer,      // INT96
    kInterval,          // FLBA(12)
  };

  // `leaf` must be a leaf of a Schema (or filled the same way). Errors: InvalidArgument for a
  // non-leaf, NotSupported as described above.
  static Result<LeafConverter> Make(const SchemaNode& leaf, const ValueOptions& options);

  Kind kind() const { return kind_; }
  PhysicalType physical_type() const { return physical_type_; }
  // kTime / kTimestamp*: the stored unit; kDecimal*: the scale.
  TimeUnit unit() const { return unit_; }
  int32_t decimal_scale() const { return scale_; }

  // "INTEGER", "REAL", "TEXT", "BLOB", or "" (UNKNOWN: always NULL, no affinity).
  std::string_view declared_type() const;

  // One overload per value type of format/encoding/values.h; call the one of the leaf's physical
  // type (BOOLEAN values are uint8_t 0/1). A TEXT result may point into *scratch, valid until the
  // next call with the same scratch; a TEXT or BLOB result may also point into the ByteArray's
  // memory. FIXED_LEN_BYTE_ARRAY values must have the leaf's type_length (the decoder guarantees
  // it).
  Cell Convert(uint8_t boolean, std::string* scratch) const {
    if (kind_ == Kind::kInteger) return Cell::Integer(boolean != 0);
    return ConvertSlow(boolean, scratch);
  }
  Cell Convert(int32_t v, std::string* scratch) const {
    if (kind_ == Kind::kInteger) return Cell::Integer(v);
    return ConvertSlow(v, scratch);
  }
  Cell Convert(int64_t v, std::string* scratch) const {
    if (kind_ == Kind::kInteger) return Cell::Integer(v);
    return ConvertSlow(v, scratch);
  }
  Cell Convert(const Int96& v, std::string* scratch) const;
  Cell Convert(float v, std::string* scratch) const {
    if (kind_ == Kind::kReal) return Cell::Real(v);
    return ConvertSlow(v, scratch);
  }
  Cell Convert(double v, std::string* scratch) const {
    if (kind_ == Kind::kReal) return Cell::Real(v);
    return ConvertSlow(v, scratch);
  }
  Cell Convert(ByteArray v, std::string* scratch) const {
    if (kind_ == Kind::kText) return Cell::Text(v.view());
    if (kind_ == Kind::kBlob) return Cell::Blob(v.view());
    return ConvertSlow(v, scratch);
  }

  // The same value as one JSON value, appended to *out.
  void AppendJson(uint8_t boolean, std::string* out) const;
  void AppendJson(int32_t v, std::string* out) const;
  void AppendJson(int64_t v, std::string* out) const;
  void AppendJson(const Int96& v, std::string* out) const;
  void AppendJson(float v, std::string* out) const;
  void AppendJson(double v, std::string* out) const;
  void AppendJson(ByteArray v, std::string* out) const;

 private:
  LeafConverter() = default;

  Cell ConvertSlow(uint8_t boolean, std::string* scratch) const;
  Cell ConvertSlow(int32_t v, std::string* scratch) const;
  Cell ConvertSlow(int64_t v, std::string* scratch) const;
  Cell ConvertSlow(float v, std::string* scratch) const;
  Cell ConvertSlow(double v, std::string* scratch) const;
  Cell ConvertSlow(ByteArray v, std::string* scratch) const;

  Kind kind_ = Kind::kNull;
  PhysicalType physical_type_ = PhysicalType::kInt32;
  int32_t type_length_ = 0;  // FIXED_LEN_BYTE_ARRAY width
  TimeUnit unit_ = TimeUnit::kMillis;
  int32_t scale_ = 0;
};

}  // namespace pq
