// LeafConverter: turns the decoded values of one leaf column into the values SQLite receives
// (Convert) and into JSON for values inside LIST/MAP/struct columns (AppendJson). One converter is
// built per leaf per table from the leaf's physical type, its resolved logical type (or legacy
// ConvertedType) and the table's ValueOptions; Make works out once which conversion applies, so
// converting a value is one switch, and the common cases (plain integers, doubles, strings, blobs)
// are inline and only wrap the value. The mapping is the "Value mapping" table of docs/reading.md;
// declared_type() is chosen so that SQLite's column affinity keeps each value as it is.
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

  // `leaf` must be a leaf of a Schema (or filled the same way). An annotation that does not fit the
  // physical type (DATE on BYTE_ARRAY, UUID on FLBA(8), INT(64) on INT32, ...) or that this reader
  // does not know is ignored: the column reads by its physical type, as other readers do. Beyond
  // the spec, STRING/ENUM/JSON/BSON/GEOMETRY/GEOGRAPHY are accepted on FLBA too, and DECIMAL
  // ignores its precision and accepts any |scale| <= kMaxDecimalScale (decimal.h). Errors:
  // InvalidArgument for a non-leaf; NotSupported for a DECIMAL scale beyond that and a
  // TIME/TIMESTAMP unit it does not know.
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
  // it). A value with no sensible SQLite form reads as NULL rather than failing the scan: a
  // byte-array DECIMAL longer than kMaxDecimalBytes (decimal.h). Timestamps are the stored instant
  // read as UTC, isAdjustedToUTC or not (no time zone is applied).
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

  // The TEXT of an INT32 or INT64 value (widened to int64_t) of the kinds that convert such values
  // to text (kDecimalText, kDate, kTime, kTimestampText), written at `out` with room for
  // TextRoom() bytes; returns its end. TextRoom() is 0 for every other kind or physical type (call
  // Convert). The same text as Convert's.
  size_t TextRoom() const;
  char* WriteText(int64_t v, char* out) const;
  // WriteText for a batch of values (int32_t or int64_t, the column's physical type): each value's
  // text at the end of the previous one's, followed by a NUL, and texts[k] set to value k's text.
  // `out` has room for n * (TextRoom() + 1) bytes; returns the end of what was written.
  template <typename T>
  char* WriteTexts(const T* values, size_t n, char* out, ByteArray* texts) const;

  // The same value as one JSON value, appended to *out: integers and decimals with their exact
  // digits, reals as the shortest text of the double the column holds (json_writer.h: NaN is null,
  // +-Inf 9e999/-9e999), BOOLEAN as true/false, TEXT values (dates, times, UUIDs, strings) as
  // strings, BLOBs as base64 strings, INTERVAL as the object itself, UNKNOWN as null.
  void AppendJson(uint8_t boolean, std::string* out) const;
  void AppendJson(int32_t v, std::string* out) const;
  void AppendJson(int64_t v, std::string* out) const;
  void AppendJson(const Int96& v, std::string* out) const;
  void AppendJson(float v, std::string* out) const;
  void AppendJson(double v, std::string* out) const;
  void AppendJson(ByteArray v, std::string* out) const;
  // At least the length of what AppendJson writes for a value of this column whose stored bytes
  // are `stored_bytes` long (the value's own length for a byte array, its width otherwise), so that
  // room for it can be asked of a memory budget before it is written. Exact for BLOBs; 6 bytes a
  // byte for TEXT (the \u00XX escape of a control character).
  size_t MaxJsonLength(size_t stored_bytes) const;

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
