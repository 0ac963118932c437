// Text spellings of values to the physical values a writer stores: exact DECIMALs, UUIDs, base64.
//
// Used wherever values reach the writer as text: the SQL export's conversions (ext/export_types.h)
// and the JSON values of nested columns (json_shredder.h). Nothing here rounds: a spelling that
// does not denote exactly one value of the type is refused. Failures are InvalidArgument whose
// message reads after a description of the value ("text '1.234'" + " has more than 2 digits after
// ...").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "format/util/base64.h"  // DecodeBase64, which the shredder and the export use with these
#include "format/util/status.h"
#include "format/value/uuid_text.h"  // ParseUuidText, which the shredder and the export use with these

namespace pq {

// The unscaled integer of a DECIMAL as 16 bytes of big-endian two's complement (the
// FIXED_LEN_BYTE_ARRAY form of the Parquet type spec "DECIMAL", at its widest).
struct UnscaledDecimal {
  uint8_t big_endian[16] = {};

  // The value as an int64; exact when the precision is at most 18.
  int64_t ToInt64() const;
  // The last `width` bytes (1..16): the FIXED_LEN_BYTE_ARRAY(width) form, exact when `width` is at
  // least DecimalByteWidth(precision).
  std::string_view Bytes(int32_t width) const {
    return {reinterpret_cast<const char*>(big_endian) + (16 - width), static_cast<size_t>(width)};
  }
};

// The fewest bytes of two's complement that hold every unscaled value of `precision` digits
// (1..38).
int32_t DecimalByteWidth(int precision);

// Exact decimal text to the unscaled integer of DECIMAL(precision, scale), 1 <= precision <= 38,
// 0 <= scale <= precision. The text is [sign] digits [. [digits]] [e|E [sign] digits], or
// [sign] . digits, with white space around it ignored. Errors (messages as they follow a
// description of the value):
//   "is not a number"
//   "has more than S digits after the point, which DECIMAL(P,S) cannot hold without rounding"
//     (trailing zeros beyond the scale are fine: 1.500 fits DECIMAL(5,2))
//   "has more than P digits, too many for DECIMAL(P,S)"
Status ParseDecimalText(std::string_view text, int precision, int scale, UnscaledDecimal* out);

// INTERVAL text as the reader writes it, {"months":m,"days":d,"millis":n} (members in any order,
// each at most once, a missing one 0, white space around tokens allowed), to the 12 bytes of the
// FIXED_LEN_BYTE_ARRAY(12) (the Parquet type spec, "INTERVAL": three little-endian unsigned 32-bit
// integers). Errors (after a description of the value): "is not an INTERVAL object
// {"months":m,"days":d,"millis":n}", "has months 4294967296, out of range for INTERVAL".
Status ParseIntervalText(std::string_view text, uint8_t out[12]);

}  // namespace pq
