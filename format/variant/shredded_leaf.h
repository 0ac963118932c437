// ShreddedLeafType: how a primitive `typed_value` column of a shredded VARIANT reads as JSON (the
// Parquet spec, "Variant Shredding", table "Shredded Value Types"). Such a value must read exactly
// as the same value stored in Variant binary form, so its text comes from the same functions
// (variant_text.h), never from the table's value options (decimal=, timestamp=, binary_as_string do
// not apply inside a Variant).
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

  // The type of `leaf`, a typed_value column: BOOLEAN; INT32/INT64 (signed INT(8..64)); FLOAT,
  // DOUBLE; DECIMAL on INT32, INT64 (decimal4/8), BYTE_ARRAY or FLBA (decimal16); DATE;
  // TIME(MICROS); TIMESTAMP(MICROS/NANOS); BYTE_ARRAY plain (binary) or STRING; FLBA(16) UUID.
  // Corruption (an invalid shredding) for any other column: unsigned integers, INT96, FLOAT16, TIME
  // or TIMESTAMP in MILLIS, JSON, ENUM, INTERVAL, ... Leniencies: TIME(MICROS) is also accepted
  // with isAdjustedToUTC=true, and a DECIMAL is read by its physical type whatever its precision.
  static Result<ShreddedLeafType> Of(const SchemaNode& leaf);

  Kind kind() const { return kind_; }

  // Appends the JSON text of one value of the column. `raw` is the value's bytes: BOOLEAN one byte
  // (0 or 1), INT32/FLOAT four and INT64/DOUBLE eight little-endian bytes, byte arrays as stored.
  // Corruption when raw has the wrong size for the type (a UUID not 16 bytes, ...).
  Status AppendJson(ByteSpan raw, std::string* out) const;
  // Adds the value as the Variant primitive it stands for (the list at Of above; an INT(8) or
  // INT(16) column gives int8 or int16, a timestamp keeps its unit and UTC flag, a decimal on bytes
  // is a decimal16) to `encoder`. Errors as AppendJson's.
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
