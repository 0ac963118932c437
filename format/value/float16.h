// IEEE 754 half precision (binary16), the FLOAT16 logical type.
//
// FLOAT16 annotates a 2-byte FIXED_LEN_BYTE_ARRAY holding the half in little-endian order
// (the Parquet type spec, "FLOAT16"). Every half is exactly representable as a
// double, so the widening below loses nothing: zeros keep their sign, subnormals stay exact,
// infinities stay infinite and NaNs stay NaN.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace pq {

// The exact double value of the half with bit pattern `bits`.
inline double HalfToDouble(uint16_t bits) {
  const bool negative = (bits & 0x8000u) != 0;
  const uint32_t exponent = (bits >> 10) & 0x1fu;
  const uint32_t mantissa = bits & 0x3ffu;
  double magnitude;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in a double.
    magnitude = static_cast<double>(mantissa) * (1.0 / 16777216.0);
  } else if (exponent == 0x1f) {
    magnitude = mantissa == 0 ? std::numeric_limits<double>::infinity()
                              : std::numeric_limits<double>::quiet_NaN();
  } else {
    // Normal: rebuild the double's bits directly (exponent bias 15 -> 1023, mantissa 10 -> 52
    // bits).
    const uint64_t d_bits = (static_cast<uint64_t>(exponent - 15 + 1023) << 52) |
                            (static_cast<uint64_t>(mantissa) << 42);
    std::memcpy(&magnitude, &d_bits, sizeof(magnitude));
  }
  return negative ? -magnitude : magnitude;
}

// The half stored in two little-endian bytes.
inline double HalfToDouble(const uint8_t* le_bytes) {
  return HalfToDouble(static_cast<uint16_t>(le_bytes[0] | (le_bytes[1] << 8)));
}

// The half nearest to `d` (ties to even), as its bit pattern: magnitudes from 65520 on become
// infinite, those below half the smallest subnormal zero (signs kept); a NaN stays a quiet NaN.
inline uint16_t DoubleToHalf(double d) {
  const uint16_t sign = std::signbit(d) ? 0x8000u : 0;
  if (std::isnan(d)) return sign | 0x7e00u;
  const double a = std::fabs(d);
  if (a >= 65520.0) return sign | 0x7c00u;  // past the largest half (65504) by half a step
  if (a < 6.103515625e-05) {                // below 2^-14: subnormal, steps of 2^-24
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(a * 16777216.0)));
  }
  int e = 0;
  std::frexp(a, &e);                                                   // a = m * 2^e, m in [0.5, 1)
  uint32_t mantissa = static_cast<uint32_t>(std::nearbyint(std::ldexp(a, 11 - e)));  // [1024, 2048]
  int exponent = e - 1 + 15;
  if (mantissa == 2048) {
    mantissa = 1024;
    ++exponent;
  }
  if (exponent >= 31) return sign | 0x7c00u;
  return static_cast<uint16_t>(sign | (exponent << 10) | (mantissa - 1024));
}

}  // namespace pq
