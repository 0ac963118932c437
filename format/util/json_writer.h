// JSON text pieces: strings, numbers, literals and base64, appended to a std::string. Nested
// columns (LIST, MAP, structs, VARIANT) reach SQLite as TEXT holding JSON (RFC 8259), and these
// functions write its leaves, the one home for how each reads: they append only, never allocate
// beyond the output's growth, and never fail, as every input has a JSON rendering.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "format/util/base64.h"  // AppendBase64
#include "format/util/digits.h"

namespace pq {

// '"' and '\' escaped with a backslash, control characters U+0000..U+001F as \u00XX; every other
// byte, >= 0x80 included, copied as is (text from a file is not validated as UTF-8; SQLite's JSON
// functions accept what they are given).
void AppendJsonString(std::string_view text, std::string* out);
// The length of what AppendJsonString writes for `text`, quotes included.
size_t JsonStringLength(std::string_view text);
void AppendJsonInt(int64_t v, std::string* out);
// Writes v's decimal text at p, which has room for kMaxJsonIntChars, and returns its end. Numbers
// below 100 in magnitude (list indices, counts, small codes) are written without a call.
inline constexpr size_t kMaxJsonIntChars = 20;  // "-9223372036854775808"
inline char* WriteJsonInt(int64_t v, char* p) {
  uint64_t u = static_cast<uint64_t>(v);
  if (v < 0) {
    *p++ = '-';
    u = 0 - u;
  }
  if (u < 10) {
    *p = static_cast<char>('0' + u);
    return p + 1;
  }
  if (u < 100) {
    std::memcpy(p, kDigitPairs + 2 * u, 2);
    return p + 2;
  }
  return std::to_chars(p, p + kMaxJsonIntChars, u).ptr;
}
void AppendJsonUInt(uint64_t v, std::string* out);
// The shortest text that reads back as the same double, ".0" on an integral value so it stays a
// real for json_extract (3.0 -> "3.0", 1e300 -> "1e+300"). +-Inf is 9e999 / -9e999, valid JSON
// numbers that overflow to +-Inf in SQLite's JSON functions, the form SQLite itself writes. NaN has
// no JSON form and is null, as a NaN value reads as NULL (docs/reading.md, "Value mapping").
void AppendJsonDouble(double v, std::string* out);
inline void AppendJsonBool(bool v, std::string* out) {
  out->append(v ? "true" : "false");
}
inline void AppendJsonNull(std::string* out) {
  out->append("null");
}

// Standard base64 of `bytes` as a JSON string: the quotes and the base64 text (which needs no
// escaping).
void AppendJsonBase64(std::string_view bytes, std::string* out);

}  // namespace pq
