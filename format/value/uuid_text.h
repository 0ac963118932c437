// UUID text: the 16 bytes of a UUID as 8-4-4-4-12 hex digits (RFC 9562), the one place that reads
// and writes it. The table shows a UUID in lower case; text of either case reads back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace pq {

inline constexpr size_t kUuidBytes = 16;
inline constexpr size_t kUuidTextLength = 36;

// Writes the text of `bytes` (lower case) at `out` (kUuidTextLength chars); returns its end.
char* WriteUuidText(const uint8_t* bytes, char* out);

// The 16 bytes of canonical UUID text, 8-4-4-4-12 hex digits of either case. False for anything
// else (no braces, no white space).
bool ParseUuidText(std::string_view text, uint8_t out[16]);

}  // namespace pq
