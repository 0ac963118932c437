#include "format/value/decimal.h"

#include <cassert>
#include <charconv>
#include <cstring>
#include <limits>
#include <system_error>

#include "format/util/digits.h"

namespace pq {
namespace {

// Decimal digits of the largest accepted magnitude, 2^(8 * kMaxDecimalBytes), plus slack.
constexpr size_t kMaxDigits = kMaxDecimalBytes * 8 * 30103 / 100000 + 16;

// Powers of ten exactly representable as doubles.
constexpr double kExactPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
constexpr int kMaxExactPow10 = 22;
constexpr uint64_t kMaxExactInteger = uint64_t{1} << 53;

// The sign and the magnitude's digits (no leading zeros, "0" for zero) of an unscaled value.
struct DecimalDigits {
  bool negative = false;
  std::string_view digits;
};

// Writes `digits` (times 10^-scale, sign in front) in the text form of decimal.h.
void AppendScaled(const DecimalDigits& v, int32_t scale, std::string* out) {
  const bool is_zero = v.digits == "0";
  if (v.negative && !is_zero) out->push_back('-');
  if (scale <= 0) {
    out->append(v.digits);
    if (!is_zero) out->append(static_cast<size_t>(-static_cast<int64_t>(scale)), '0');
    return;
  }
  const size_t fraction_digits = static_cast<size_t>(scale);
  if (v.digits.size() > fraction_digits) {
    const size_t integer_digits = v.digits.size() - fraction_digits;
    out->append(v.digits.substr(0, integer_digits));
    out->push_back('.');
    out->append(v.digits.substr(integer_digits));
  } else {
    out->append("0.");
    out->append(fraction_digits - v.digits.size(), '0');
    out->append(v.digits);
  }
}

// The nearest double to digits * 10^-scale, by the locale-independent, correctly rounding
// from_chars.
double DigitsToDouble(const DecimalDigits& v, int32_t scale) {
  char text[kMaxDigits + 32];
  assert(v.digits.size() <= kMaxDigits);
  char* p = text;
  std::memcpy(p, v.digits.data(), v.digits.size());
  p += v.digits.size();
  *p++ = 'e';
  p = std::to_chars(p, text + sizeof(text), -static_cast<int64_t>(scale)).ptr;
  double magnitude = 0;
  const auto r = std::from_chars(text, p, magnitude);
  if (r.ec == std::errc::result_out_of_range) {
    // Overflow when the value is at least 1 (more integer digits than the scale removes), else
    // underflow to zero.
    const bool at_least_one = static_cast<int64_t>(v.digits.size()) > scale;
    magnitude = at_least_one ? std::numeric_limits<double>::infinity() : 0.0;
  }
  return v.negative ? -magnitude : magnitude;
}

// The double for sign and a 64-bit magnitude: one correctly rounded IEEE operation on exact
// operands when possible (Clinger's fast path), else through the text.
double MagnitudeToDouble(bool negative, uint64_t magnitude, int32_t scale) {
  double result;
  if (scale == 0) {
    result = static_cast<double>(magnitude);  // the conversion itself rounds correctly
  } else if (magnitude <= kMaxExactInteger && scale > 0 && scale <= kMaxExactPow10) {
    result = static_cast<double>(magnitude) / kExactPow10[scale];
  } else if (magnitude <= kMaxExactInteger && scale < 0 && -scale <= kMaxExactPow10) {
    result = static_cast<double>(magnitude) * kExactPow10[-scale];
  } else {
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof(digits), magnitude);
    return DigitsToDouble({negative, std::string_view(digits, r.ptr - digits)}, scale);
  }
  return negative ? -result : result;
}

// The magnitude of a big-endian two's complement integer, as big-endian bytes without leading zeros
// (empty for zero), written to `out` (room for kMaxDecimalBytes + 1). False above the limit.
bool TwosComplementMagnitude(std::string_view big_endian, bool* negative, uint8_t* out,
                             size_t* out_len) {
  const auto* p = reinterpret_cast<const uint8_t*>(big_endian.data());
  size_t n = big_endian.size();
  *negative = n > 0 && (p[0] & 0x80) != 0;
  // Drop sign-extension bytes: a leading 0x00 (0xFF) is redundant when the next byte's top bit is
  // 0 (1). This bounds the work by the value's size, not the input's.
  const uint8_t sign_byte = *negative ? 0xff : 0x00;
  while (n > 1 && p[0] == sign_byte && (p[1] & 0x80) == (sign_byte & 0x80)) {
    ++p;
    --n;
  }
  if (n > kMaxDecimalBytes) return false;
  if (n > 0) std::memcpy(out, p, n);  // an empty value may have a null pointer
  if (*negative) {
    // Two's complement negation: invert, then add one from the least significant byte up.
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(~out[i]);
    for (size_t i = n; i-- > 0;) {
      if (++out[i] != 0) break;
    }
    // The most negative value of n bytes (0x80 00..) negates to itself, which read unsigned is its
    // magnitude; no byte is lost.
  }
  size_t skip = 0;
  while (skip < n && out[skip] == 0) ++skip;
  std::memmove(out, out + skip, n - skip);
  *out_len = n - skip;
  return true;
}

// Decimal digits of a big-endian magnitude of any accepted length, into `digits` (room for
// kMaxDigits). Repeatedly divides a base-2^32 number by 10^9, collecting 9 digits per pass.
std::string_view MagnitudeDigits(const uint8_t* magnitude, size_t len, char* digits) {
  if (len == 0) {
    digits[0] = '0';
    return std::string_view(digits, 1);
  }
  uint32_t limbs[kMaxDecimalBytes / 4 + 1];
  size_t num_limbs = (len + 3) / 4;
  // The first limb takes the len % 4 leading bytes (or 4).
  size_t byte = 0;
  for (size_t i = 0; i < num_limbs; ++i) {
    const size_t take = i == 0 && len % 4 != 0 ? len % 4 : 4;
    uint32_t limb = 0;
    for (size_t k = 0; k < take; ++k) limb = (limb << 8) | magnitude[byte++];
    limbs[i] = limb;
  }
  constexpr uint32_t kChunk = 1000000000;
  uint32_t chunks[kMaxDigits / 9 + 2];  // least significant first
  size_t num_chunks = 0;
  size_t first = 0;  // limbs[first..num_limbs) is the remaining quotient
  while (first < num_limbs) {
    uint64_t remainder = 0;
    for (size_t i = first; i < num_limbs; ++i) {
      const uint64_t current = (remainder << 32) | limbs[i];
      limbs[i] = static_cast<uint32_t>(current / kChunk);
      remainder = current % kChunk;
    }
    chunks[num_chunks++] = static_cast<uint32_t>(remainder);
    while (first < num_limbs && limbs[first] == 0) ++first;
  }
  // Most significant chunk without padding, every other one as exactly 9 digits.
  char* p = std::to_chars(digits, digits + 16, chunks[num_chunks - 1]).ptr;
  for (size_t i = num_chunks - 1; i-- > 0;) {
    uint32_t c = chunks[i];
    for (int k = 8; k >= 0; --k) {
      p[k] = static_cast<char>('0' + c % 10);
      c /= 10;
    }
    p += 9;
  }
  return std::string_view(digits, p - digits);
}

// Sign and digits of big-endian two's complement bytes; false above kMaxDecimalBytes.
bool BytesToDigits(std::string_view big_endian, DecimalDigits* v, char* digit_buffer) {
  uint8_t magnitude[kMaxDecimalBytes + 1];
  size_t len;
  if (!TwosComplementMagnitude(big_endian, &v->negative, magnitude, &len)) return false;
  v->digits = MagnitudeDigits(magnitude, len, digit_buffer);
  return true;
}

uint64_t Magnitude(int64_t v) {
  const uint64_t u = static_cast<uint64_t>(v);
  return v < 0 ? 0 - u : u;
}

// Decimal digits of v (1 for 0).
size_t DecimalDigitCount(uint64_t v) {
  static constexpr uint64_t kPow10[] = {1,
                                        10,
                                        100,
                                        1'000,
                                        10'000,
                                        100'000,
                                        1'000'000,
                                        10'000'000,
                                        100'000'000,
                                        1'000'000'000,
                                        10'000'000'000,
                                        100'000'000'000,
                                        1'000'000'000'000,
                                        10'000'000'000'000,
                                        100'000'000'000'000,
                                        1'000'000'000'000'000,
                                        10'000'000'000'000'000,
                                        100'000'000'000'000'000,
                                        1'000'000'000'000'000'000,
                                        10'000'000'000'000'000'000u};
  // floor(log10(2) * bits) is the count or one less.
  const int bits = 64 - __builtin_clzll(v | 1);
  const auto guess = static_cast<size_t>(bits * 1233 >> 12);  // digits - 1 or digits
  return guess + 1 - (guess > 0 && v < kPow10[guess] ? 1 : 0);
}

}  // namespace

void AppendDecimalText(int64_t unscaled, int32_t scale, std::string* out) {
  const size_t at = out->size();
  out->resize(at + DecimalTextRoom(scale));
  char* end = WriteDecimalText(unscaled, scale, out->data() + at);
  out->resize(static_cast<size_t>(end - out->data()));
}

char* WriteDecimalText(int64_t unscaled, int32_t scale, char* out) {
  // AppendScaled's text, written in place: the sign, then the digits around the point.
  uint64_t magnitude = Magnitude(unscaled);
  if (unscaled < 0) *out++ = '-';  // never zero
  if (scale <= 0) {
    out = std::to_chars(out, out + 21, magnitude).ptr;
    if (magnitude != 0) {
      const auto zeros = static_cast<size_t>(-static_cast<int64_t>(scale));
      std::memset(out, '0', zeros);
      out += zeros;
    }
    return out;
  }
  // Written from the end, two digits at a time: the fraction (zeros in front of short values), the
  // point, then the integer part ("0" when the digits are no more than the fraction's).
  const auto fraction = static_cast<size_t>(scale);
  const size_t digits = DecimalDigitCount(magnitude);
  const size_t integer = digits > fraction ? digits - fraction : 1;
  char* const end = out + integer + 1 + fraction;
  char* p = end;
  size_t left = fraction;
  for (; left >= 2; left -= 2) {
    const auto pair = static_cast<size_t>(magnitude % 100) * 2;
    magnitude /= 100;
    *--p = kDigitPairs[pair + 1];
    *--p = kDigitPairs[pair];
  }
  if (left == 1) {
    *--p = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  }
  *--p = '.';
  while (magnitude >= 100) {
    const auto pair = static_cast<size_t>(magnitude % 100) * 2;
    magnitude /= 100;
    *--p = kDigitPairs[pair + 1];
    *--p = kDigitPairs[pair];
  }
  if (magnitude >= 10) {
    const auto pair = static_cast<size_t>(magnitude) * 2;
    *--p = kDigitPairs[pair + 1];
    *--p = kDigitPairs[pair];
  } else if (p > out) {
    *--p = static_cast<char>('0' + magnitude);
  }
  assert(p == out);
  return end;
}

bool AppendDecimalText(std::string_view big_endian, int32_t scale, std::string* out) {
  char digits[kMaxDigits];
  DecimalDigits v;
  if (!BytesToDigits(big_endian, &v, digits)) return false;
  AppendScaled(v, scale, out);
  return true;
}

double DecimalToDouble(int64_t unscaled, int32_t scale) {
  return MagnitudeToDouble(unscaled < 0, Magnitude(unscaled), scale);
}

bool DecimalToDouble(std::string_view big_endian, int32_t scale, double* out) {
  // Up to 8 bytes: a 64-bit magnitude, no digit conversion.
  if (big_endian.size() <= 8) {
    uint64_t bits = 0;
    for (char c : big_endian) bits = (bits << 8) | static_cast<uint8_t>(c);
    int64_t value = 0;
    if (!big_endian.empty()) {
      const unsigned shift = 64 - 8 * static_cast<unsigned>(big_endian.size());
      // Sign-extend from the top bit of the first byte.
      value = static_cast<int64_t>(bits << shift) >> shift;
    }
    *out = DecimalToDouble(value, scale);
    return true;
  }
  char digits[kMaxDigits];
  DecimalDigits v;
  if (!BytesToDigits(big_endian, &v, digits)) return false;
  *out = DigitsToDouble(v, scale);
  return true;
}

bool ReadDecimalText(std::string_view text, DecimalText* out) {
  *out = DecimalText();
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) out->negative = text[i++] == '-';
  bool any_digit = false, point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      any_digit = true;
      if (point) ++out->fraction_digits;
      if (!(out->digits.empty() && c == '0')) out->digits.push_back(c);
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!any_digit) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    const size_t start = i;
    int64_t exact = 0;  // the exponent as written, until it passes 100000
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      const int d = text[i] - '0';
      if (exact > 100000) {
        out->long_exponent = true;
      } else {
        exact = exact * 10 + d;
      }
      if (out->exponent < 100000) out->exponent = out->exponent * 10 + d;  // saturates: no overflow
    }
    if (i == start) return false;
    if (negative) out->exponent = -out->exponent;
  }
  return i == text.size();
}

UnscaleFailure UnscaleDecimal(DecimalText d, int32_t scale, int max_digits, Int128* out) {
  *out = 0;
  std::string& digits = d.digits;
  if (digits.empty()) return UnscaleFailure::kNone;
  // value = digits * 10^(exponent - fraction_digits); unscaled = value * 10^scale.
  int64_t shift = d.exponent - d.fraction_digits + scale;
  if (shift < 0) {
    // The digits dropped must be zeros.
    const uint64_t drop = static_cast<uint64_t>(-shift);
    const size_t keep = drop >= digits.size() ? 0 : digits.size() - static_cast<size_t>(drop);
    if (digits.find_first_not_of('0', keep) != std::string::npos) return UnscaleFailure::kFractionDigits;
    digits.resize(keep);
    shift = 0;
  }
  if (digits.empty()) return UnscaleFailure::kNone;
  if (static_cast<int64_t>(digits.size()) + shift > max_digits) return UnscaleFailure::kTooManyDigits;
  Int128 v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  for (int64_t k = 0; k < shift; ++k) v *= 10;
  *out = d.negative ? -v : v;
  return UnscaleFailure::kNone;
}

}  // namespace pq
