#include "format/value/uuid_text.h"

#include "format/util/hex.h"

namespace pq {

char* WriteUuidText(const uint8_t* bytes, char* out) {
  for (size_t i = 0; i < kUuidBytes; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) *out++ = '-';
    *out++ = kLowerHexDigits[bytes[i] >> 4];
    *out++ = kLowerHexDigits[bytes[i] & 0xF];
  }
  return out;
}

bool ParseUuidText(std::string_view s, uint8_t out[16]) {
  if (s.size() != kUuidTextLength) return false;
  int n = 0;
  for (size_t i = 0; i < s.size();) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-') return false;
      ++i;
      continue;
    }
    const int hi = HexDigitValue(s[i]), lo = HexDigitValue(s[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[n++] = static_cast<uint8_t>(hi << 4 | lo);
    i += 2;
  }
  return n == 16;
}

}  // namespace pq
