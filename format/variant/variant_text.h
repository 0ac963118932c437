// Variant primitives as JSON text: the one place that decides how each Variant primitive type reads
// in JSON. The binary decoder (variant_decoder.h) and the shredded typed_value columns
// (shredded_leaf.h) both write through these functions, so a value reads the same whether it was
// shredded or not (the Parquet type spec, "Variant Binary Encoding", table "Variant
// primitive types"; "Variant Shredding", table "Shredded Value Types").
//
// Rules (decided for this project; the JSON text reaches SQLite as TEXT):
//   null, boolean               null, true, false
//   int8, int16, int32, int64   integer literals
//   float, double               the shortest text that reads back as the same double (a float is
//                               widened to double first, as FLOAT columns read everywhere else:
//                               1.1f -> 1.100000023841858); an integral value gets ".0"
//                               (json_writer.h). NaN, +Inf and -Inf, which JSON numbers cannot
//                               hold, are the strings "NaN", "Infinity" and "-Infinity".
//   decimal4, decimal8,         exact number literal with exactly `scale` digits after the point
//   decimal16                   (unscaled 1234500 scale 4 -> 123.4500; decimal.h)
//   date                        "YYYY-MM-DD"
//   time (micros)               "HH:MM:SS[.ffffff]"
//   timestamp, timestamp_ntz    "YYYY-MM-DD HH:MM:SS[.ffffff]" (micros) or "[.fffffffff]" (nanos):
//                               the stored instant as is (UTC for the adjusted kinds), no zone
//                               suffix, the fraction only when it is not zero - the project's
//                               TIMESTAMP text (temporal.h)
//   string                      JSON string of the bytes (not validated as UTF-8; json_writer.h)
//   binary                      JSON string of the standard base64 of the bytes
//   uuid                        "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower case
//
// The functions append to *out and never fail: every value of these types has a text.
#pragma once

#include <cstdint>
#include <string>

#include "format/metadata/metadata.h"

namespace pq::variant {

inline constexpr size_t kUuidSize = 16;

// float and double (a float converts exactly to double before the call).
void AppendDoubleJson(double v, std::string* out);
// Days since 1970-01-01.
void AppendDateJson(int64_t days, std::string* out);
// Microseconds since midnight.
void AppendTimeJson(int64_t micros, std::string* out);
// Units since 1970-01-01 00:00:00; unit is kMicros or kNanos.
void AppendTimestampJson(int64_t value, TimeUnit unit, std::string* out);
// 16 bytes, most significant first (the Variant and the Parquet UUID byte order).
void AppendUuidJson(const uint8_t* bytes, std::string* out);

}  // namespace pq::variant
