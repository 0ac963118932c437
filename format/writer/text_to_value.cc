#include "format/writer/text_to_value.h"

#include <charconv>
#include <cstdint>
#include <string>

namespace pq {

namespace {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// 10^n as a 128-bit integer, 0 <= n <= 38.
Int128 Pow10(int n) {
  Int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

int64_t UnscaledDecimal::ToInt64() const {
  uint64_t v = 0;
  for (int i = 8; i < 16; ++i) v = v << 8 | big_endian[i];
  return static_cast<int64_t>(v);
}

int32_t DecimalByteWidth(int precision) {
  const Int128 max = Pow10(precision) - 1;
  for (int32_t n = 1; n < 16; ++n) {
    if (max < (Int128{1} << (8 * n - 1))) return n;
  }
  return 16;
}

Status ParseDecimalText(std::string_view s, int precision, int scale, UnscaledDecimal* out) {
  const std::string_view text = Trim(s);
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  std::string digits;  // significant digits, leading zeros dropped
  int64_t frac_digits = 0;
  bool any_digit = false, point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      any_digit = true;
      if (point) ++frac_digits;
      if (!(digits.empty() && c == '0')) digits.push_back(c);
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  int64_t exponent = 0;
  if (any_digit && i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exp_negative = text[i++] == '-';
    bool exp_digit = false;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      exp_digit = true;
      if (exponent < 100000) exponent = exponent * 10 + (text[i] - '0');  // saturates: no overflow
    }
    if (!exp_digit) any_digit = false;
    if (exp_negative) exponent = -exponent;
  }
  if (!any_digit || i != text.size()) return Status::InvalidArgument("is not a number");
  *out = UnscaledDecimal{};
  if (digits.empty()) return Status::OK();
  const std::string type =
      "DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
  // value = digits * 10^(exponent - frac_digits); unscaled = value * 10^scale.
  int64_t shift = exponent - frac_digits + scale;
  if (shift < 0) {
    // The digits dropped must be zeros.
    const uint64_t drop = static_cast<uint64_t>(-shift);
    const size_t keep = drop >= digits.size() ? 0 : digits.size() - static_cast<size_t>(drop);
    if (digits.find_first_not_of('0', keep) != std::string::npos) {
      return Status::InvalidArgument("has more than " + std::to_string(scale) +
                                     " digits after the point, which " + type +
                                     " cannot hold without rounding");
    }
    digits.resize(keep);
    shift = 0;
  }
  if (digits.empty()) return Status::OK();
  const int64_t total = static_cast<int64_t>(digits.size()) + shift;
  if (total > precision) {
    return Status::InvalidArgument("has more than " + std::to_string(precision) +
                                   " digits, too many for " + type);
  }
  Int128 v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  v *= Pow10(static_cast<int>(shift));
  if (negative) v = -v;
  auto u = static_cast<UInt128>(v);
  for (int k = 15; k >= 0; --k) {
    out->big_endian[k] = static_cast<uint8_t>(u & 0xFF);
    u >>= 8;
  }
  return Status::OK();
}

bool ParseUuidText(std::string_view s, uint8_t out[16]) {
  if (s.size() != 36) return false;
  int n = 0;
  for (size_t i = 0; i < s.size();) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-') return false;
      ++i;
      continue;
    }
    const int hi = HexValue(s[i]), lo = HexValue(s[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[n++] = static_cast<uint8_t>(hi << 4 | lo);
    i += 2;
  }
  return n == 16;
}

bool DecodeBase64(std::string_view text, std::string* out) {
  size_t n = text.size();
  size_t padding = 0;
  while (padding < 2 && n > 0 && text[n - 1] == '=') {
    --n;
    ++padding;
  }
  if (padding > 0 && text.size() % 4 != 0) return false;  // padding only completes a quantum
  if (n % 4 == 1) return false;                           // 6 bits cannot end a byte
  if (padding > 0 && (n % 4) + padding != 4) return false;
  const size_t start = out->size();
  out->reserve(start + n / 4 * 3 + 2);
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; ++i) {
    const int v = Base64Value(text[i]);
    if (v < 0) {
      out->resize(start);
      return false;
    }
    acc = (acc << 6 | static_cast<uint32_t>(v)) & 0xFFFFFF;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  // What is left of the last character must be zero bits (the canonical encoding).
  if (bits > 0 && (acc & ((1u << bits) - 1)) != 0) {
    out->resize(start);
    return false;
  }
  return true;
}

Status ParseIntervalText(std::string_view text, uint8_t out[12]) {
  const Status not_interval = Status::InvalidArgument(
      "is not an INTERVAL object {\"months\":m,\"days\":d,\"millis\":n}");
  static constexpr std::string_view kNames[3] = {"months", "days", "millis"};
  uint64_t parts[3] = {0, 0, 0};
  bool seen[3] = {false, false, false};
  size_t i = 0;
  auto space = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
      ++i;
  };
  auto take = [&](char c) {
    space();
    if (i >= text.size() || text[i] != c) return false;
    ++i;
    return true;
  };
  if (!take('{')) return not_interval;
  if (!take('}')) {
    do {
      space();
      int which = -1;
      for (int k = 0; k < 3; ++k) {
        const std::string quoted = "\"" + std::string(kNames[k]) + "\"";
        if (text.substr(i, quoted.size()) == quoted) {
          which = k;
          i += quoted.size();
        }
      }
      if (which < 0 || seen[which] || !take(':')) return not_interval;
      seen[which] = true;
      space();
      const size_t start = i;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
      if (i == start || i - start > 12) return not_interval;
      auto [p, ec] = std::from_chars(text.data() + start, text.data() + i, parts[which]);
      if (ec != std::errc() || p != text.data() + i) return not_interval;
      if (parts[which] > UINT32_MAX) {
        return Status::InvalidArgument("has " + std::string(kNames[which]) + " " +
                                       std::to_string(parts[which]) +
                                       ", out of range for INTERVAL");
      }
    } while (take(','));
    if (!take('}')) return not_interval;
  }
  space();
  if (i != text.size()) return not_interval;
  for (int k = 0; k < 3; ++k) {
    const auto v = static_cast<uint32_t>(parts[k]);
    for (int b = 0; b < 4; ++b) out[4 * k + b] = static_cast<uint8_t>(v >> (8 * b));
  }
  return Status::OK();
}

}  // namespace pq
