// Base64, the standard alphabet of RFC 4648 section 4 (A-Z a-z 0-9 + /): the one encoder (BLOBs in
// the JSON of nested values) and the one decoder (binary values and keys given as text).
#pragma once

#include <string>
#include <string_view>

namespace pq {

// Appends the base64 of `bytes`, with '=' padding.
void AppendBase64(std::string_view bytes, std::string* out);

// Appends the bytes `text` encodes, with or without '=' padding; padding, when present, must
// complete the last group of four, and the bits a last character leaves over must be zero (the
// canonical encoding). False, with *out as it was, for anything else.
bool DecodeBase64(std::string_view text, std::string* out);

}  // namespace pq
