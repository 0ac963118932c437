// DECIMAL values (the Parquet spec, "DECIMAL": an unscaled integer times 10^-scale, the integer an
// INT32, an INT64 or big-endian two's complement bytes of any length, an empty array being 0) to
// exact text or to the nearest double, and exact decimal text read back (ReadDecimalText,
// UnscaleDecimal: the writer's and the Bloom probe's). Precision is never looked at: values are
// read as stored, and a scale above the precision or negative works too (7 scale -2 -> "700").
// Sizes are capped (kMaxDecimalBytes, kMaxDecimalScale) against quadratic work on hostile bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pq {

// The byte forms accept unscaled values whose minimal two's complement form has at most this many
// bytes (2466 digits; real writers stay under 32) and report false otherwise; a |scale| above
// kMaxDecimalScale is for the caller to refuse (LeafConverter::Make does).
inline constexpr size_t kMaxDecimalBytes = 1024;
inline constexpr int32_t kMaxDecimalScale = 4096;

// Appends the exact text of unscaled * 10^-scale, with exactly `scale` digits after the point and
// at least one before it (12340 scale 2 -> "123.40", -5 scale 2 -> "-0.05"), also a valid JSON
// number. |scale| <= kMaxDecimalScale.
void AppendDecimalText(int64_t unscaled, int32_t scale, std::string* out);
// The same text written at `out`, which has room for DecimalTextRoom(scale) bytes; returns its end.
char* WriteDecimalText(int64_t unscaled, int32_t scale, char* out);
// The longest text of a 64-bit unscaled value at `scale`: sign, 20 digits, point, leading "0." and
// the zeros of the scale.
inline constexpr size_t DecimalTextRoom(int32_t scale) {
  return 24 + static_cast<size_t>(scale < 0 ? -static_cast<int64_t>(scale) : scale);
}
// The same for big-endian two's complement bytes. False (nothing appended) above kMaxDecimalBytes.
bool AppendDecimalText(std::string_view big_endian, int32_t scale, std::string* out);

// The double nearest to unscaled * 10^-scale (round half to even, as strtod gives for the text,
// without the C locale); beyond the double range +-inf, too small +-0. |scale| <= kMaxDecimalScale.
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
