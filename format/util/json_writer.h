// JSON text pieces: strings, numbers, literals and base64, appended to a std::string.
//
// Nested columns (LIST, MAP, structs, VARIANT) reach SQLite as TEXT holding JSON (RFC 8259); these
// functions write the leaves of that JSON. They append only, never allocate beyond the output
// string's growth, and never fail: every input has a JSON rendering.
//
// Rules:
// - Strings: '"' and '\' are escaped with a backslash, control characters U+0000..U+001F as \u00XX.
//   Every other byte, including bytes >= 0x80, is copied as is (text from a file is not validated
//   as UTF-8; SQLite's JSON functions accept what they are given).
// - Doubles: the shortest text that reads back as the same double; an integral value gets ".0"
//   so it stays a real for SQLite's json_extract (3.0 -> "3.0", 1e300 -> "1e+300"). +-Inf is
//   written as 9e999 / -9e999: valid JSON numbers that overflow to +-Inf in SQLite's JSON functions
//   (and in most JSON readers), the form SQLite itself writes. NaN has no JSON form and is written
//   as null, as a NaN value reads as NULL (docs/reading.md, "Value mapping").
// - Base64: the standard alphabet of RFC 4648 section 4 with '=' padding, as a JSON string.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "format/util/base64.h"  // AppendBase64

namespace pq {

void AppendJsonString(std::string_view text, std::string* out);
void AppendJsonInt(int64_t v, std::string* out);
void AppendJsonUInt(uint64_t v, std::string* out);
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
