// ShreddedLeafType: how a primitive `typed_value` column of a shredded VARIANT reads as JSON.
//
// A shredded Variant stores values of one primitive type in a typed Parquet column
// (the Parquet type spec, "Variant Shredding", table "Shredded Value Types"). Such a
// value must read exactly as the same value stored in Variant binary form, so its text comes from
// the same functions (variant_text.h), never from the table's value options (decimal=,
// timestamp=, binary_as_string do not apply inside a Variant).
//
//   Parquet column                           Variant type     JSON
//   BOOLEAN                                  boolean          true / false
//   INT32, INT(8/16/32, signed)              int8/16/32       integer
//   INT64, INT(64, signed)                   int64            integer
//   FLOAT / DOUBLE                           float / double   number (NaN, Infinity as strings)
//   INT32 / INT64 DECIMAL(P, S)              decimal4 / 8     exact, S digits after the point
//   BYTE_ARRAY / FLBA DECIMAL(P, S)          decimal16        exact (big-endian two's complement)
//   INT32 DATE                               date             "YYYY-MM-DD"
//   INT64 TIME(MICROS)                       time             "HH:MM:SS[.ffffff]"
//   INT64 TIMESTAMP(MICROS / NANOS)          timestamp(ntz)   "YYYY-MM-DD HH:MM:SS[.f...]"
//   BYTE_ARRAY                               binary           base64 string
//   BYTE_ARRAY STRING                        string           string
//   FLBA(16) UUID                            uuid             "xxxxxxxx-xxxx-..."
//
// Any other column (unsigned integers, INT96, FLOAT16, TIME or TIMESTAMP in MILLIS, JSON, ENUM,
// INTERVAL, ...) is not a Variant type: Of() refuses it as Corruption (an invalid shredding).
// Leniencies: the spec's TIME(false, MICROS) is also accepted with isAdjustedToUTC=true, and a
// DECIMAL is read by its physical type whatever its precision.
#pragma once

#include <cstdint>
#include <string>

#include "format/schema/schema.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq {

class VariantEncoder;

class ShreddedLeafType {
 public:
  enum class Kind : uint8_t {
    kBoolean,
    kInt32,
    kInt64,
    kFloat,
    kDouble,
    kDecimal32,     // INT32 DECIMAL
    kDecimal64,     // INT64 DECIMAL
    kDecimalBytes,  // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY DECIMAL
    kDate,
    kTime,
    kTimestamp,
    kBinary,
    kString,
    kUuid,
  };

  // The type of `leaf`, a typed_value column. Corruption for a column that holds no Variant type.
  static Result<ShreddedLeafType> Of(const SchemaNode& leaf);

  Kind kind() const { return kind_; }

  // Appends the JSON text of one value of the column. `raw` is the value's bytes: BOOLEAN one byte
  // (0 or 1), INT32/FLOAT four and INT64/DOUBLE eight little-endian bytes, byte arrays as stored.
  // Corruption when raw has the wrong size for the type (a UUID not 16 bytes, ...).
  Status AppendJson(ByteSpan raw, std::string* out) const;
  // Adds the value as the Variant primitive it stands for (the table above; an INT(8) or INT(16)
  // column gives int8 or int16, a timestamp keeps its unit and UTC flag, a decimal on bytes is a
  // decimal16) to `encoder`. Errors as AppendJson's.
  Status AddToVariant(ByteSpan raw, VariantEncoder* encoder) const;

 private:
  ShreddedLeafType() = default;
  Status CheckSize(ByteSpan raw) const;
  Kind kind_ = Kind::kBoolean;
  int bit_width_ = 32;                 // kInt32: 8, 16 or 32
  int32_t scale_ = 0;                  // decimals
  TimeUnit unit_ = TimeUnit::kMicros;  // timestamps
  bool adjusted_to_utc_ = true;        // timestamps
};

}  // namespace pq
