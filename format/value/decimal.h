// DECIMAL values: an unscaled integer times 10^-scale, to exact text or to the nearest double, and
// exact decimal text read back (ReadDecimalText, UnscaleDecimal: the writer's and the Bloom probe's).
//
// The unscaled integer is an INT32, an INT64, or the big-endian two's complement bytes of a
// FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY of any length, the most significant byte first; an empty byte
// array is 0 (the Parquet type spec, "DECIMAL").
//
// Text: the exact value with exactly `scale` digits after the point and at least one before it:
// unscaled 12340 scale 2 -> "123.40", -5 scale 2 -> "-0.05", 0 scale 0 -> "0", 0 scale 2 -> "0.00".
// The text is also a valid JSON number. The spec requires 0 <= scale <= precision; this code does
// not need that: a scale above the precision just means more leading zeros, a negative scale
// multiplies by a power of ten (7 scale -2 -> "700"). Precision is never looked at: values are read
// as stored.
//
// Double: the double nearest to the exact decimal value (round half to even), as strtod would give
// for the text, without depending on the C locale. Values beyond the double range become +-inf,
// values too small become +-0.
//
// Limits, against quadratic work on hostile bytes: the byte forms accept unscaled values whose
// minimal two's complement form has at most kMaxDecimalBytes bytes (2466 digits; real writers stay
// under 32 bytes) and report false otherwise; a |scale| above kMaxDecimalScale is for the caller to
// refuse (LeafConverter::Make does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pq {

inline constexpr size_t kMaxDecimalBytes = 1024;
inline constexpr int32_t kMaxDecimalScale = 4096;

// Appends the exact text of unscaled * 10^-scale. |scale| <= kMaxDecimalScale.
void AppendDecimalText(int64_t unscaled, int32_t scale, std::string* out);
// The same for big-endian two's complement bytes. False (nothing appended) above kMaxDecimalBytes.
bool AppendDecimalText(std::string_view big_endian, int32_t scale, std::string* out);

// The double nearest to unscaled * 10^-scale. |scale| <= kMaxDecimalScale.
double DecimalToDouble(int64_t unscaled, int32_t scale);
// The same for big-endian two's complement bytes. False (*out untouched) above kMaxDecimalBytes.
bool DecimalToDouble(std::string_view big_endian, int32_t scale, double* out);

__extension__ typedef __int128 Int128;

// Exact decimal text: [sign] digits [. [digits]] [(e|E) [sign] digits], or [sign] . digits, with
// nothing around it. Its value is digits * 10^(exponent - fraction_digits).
struct DecimalText {
  bool negative = false;
  std::string digits;           // the significant digits, leading zeros dropped ("" for zero)
  int64_t fraction_digits = 0;  // digits written after the point
  int64_t exponent = 0;         // stops growing once its magnitude reaches 100000
  bool long_exponent = false;   // a digit of the exponent came after its magnitude passed 100000
};

// Reads `text` as above; false when it is not such a number.
bool ReadDecimalText(std::string_view text, DecimalText* out);

// Why UnscaleDecimal failed.
enum class UnscaleFailure { kNone, kFractionDigits, kTooManyDigits };

// The unscaled integer of `d` at `scale`: kFractionDigits when a digit other than zero lies beyond
// the scale (nothing is rounded), kTooManyDigits when it needs more than `max_digits` (at most 38).
UnscaleFailure UnscaleDecimal(DecimalText d, int32_t scale, int max_digits, Int128* out);

}  // namespace pq
