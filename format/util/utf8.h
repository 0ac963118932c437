// UTF-8: encoding a code point (AppendUtf8) and checking well-formedness (IsValidUtf8).
//
// AppendUtf8's caller has checked the code point (at most 0x10FFFF, not a surrogate). One home for
// the encoder: the XML reader's character references and the Variant JSON reader use it; the
// copies in writer/statistics_builder.cc and writer/json_shredder.cc are to move here. Where text
// must be UTF-8 by a format's rules (Variant strings and field names), the writer checks it with
// IsValidUtf8 rather than storing bytes that readers may refuse.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pq {

inline void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// True when `s` is well-formed UTF-8: no overlong forms, no surrogates (U+D800..U+DFFF), nothing
// above U+10FFFF, no truncated sequence.
bool IsValidUtf8(std::string_view s);

}  // namespace pq
