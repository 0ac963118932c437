// IEEE 754 half precision (binary16), the FLOAT16 logical type.
//
// FLOAT16 annotates a 2-byte FIXED_LEN_BYTE_ARRAY holding the half in little-endian order
// (the Parquet type spec, "FLOAT16"). Every half is exactly representable as a
// double, so the widening below loses nothing: zeros keep their sign, subnormals stay exact,
// infinities stay infinite and NaNs stay NaN.
#pragma once

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

}  // namespace pq
