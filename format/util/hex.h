// Hexadecimal digits: the one place that reads and writes them (JSON \u escapes, UUID text, %XX in
// hive folder names, hex keys).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pq {

inline constexpr char kLowerHexDigits[] = "0123456789abcdef";
inline constexpr char kUpperHexDigits[] = "0123456789ABCDEF";

// The value of a hex digit of either case, -1 for any other character.
inline int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The bytes spelled by pairs of hex digits (either case); nullopt for an odd length or another
// character.
std::optional<std::string> DecodeHex(std::string_view text);

}  // namespace pq
