// Variant primitives as JSON text: the one place that decides how each Variant primitive type reads
// in JSON. The binary decoder (variant_decoder.h) and the shredded typed_value columns
// (shredded_leaf.h) both write through these functions, so a value reads the same whether it was
// shredded or not. The forms are the project's text for each type (temporal.h for dates and times,
// lower-case UUIDs, base64 for binary, decimals with exactly `scale` digits) and are documented in
// docs/reading.md; the functions append to *out and never fail: every value has a text.
#pragma once

#include <cstdint>
#include <string>

#include "format/metadata/metadata.h"

namespace pq::variant {

inline constexpr size_t kUuidSize = 16;

// float and double (a float converts exactly to double before the call, as FLOAT columns read
// everywhere else: 1.1f -> 1.100000023841858): the shortest text that reads back as the same
// double, ".0" on an integral value (json_writer.h). NaN, +Inf and -Inf, which JSON numbers cannot
// hold, are the strings "NaN", "Infinity" and "-Infinity".
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
