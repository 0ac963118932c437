#include "format/writer/text_to_value.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <string>
#include <utility>

#include "format/value/decimal.h"

namespace pq {

namespace {

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

}  // namespace

int64_t UnscaledDecimal::ToInt64() const {
  uint64_t v = 0;
  for (int i = 8; i < 16; ++i) v = v << 8 | big_endian[i];
  return static_cast<int64_t>(v);
}

int32_t DecimalByteWidth(int precision) {
  static const std::array<int32_t, 39> kWidths = [] {
    std::array<int32_t, 39> w{};
    for (int p = 0; p <= 38; ++p) {
      const Int128 max = Pow10(p) - 1;
      w[static_cast<size_t>(p)] = 16;
      for (int32_t n = 1; n < 16; ++n) {
        if (max < (Int128{1} << (8 * n - 1))) {
          w[static_cast<size_t>(p)] = n;
          break;
        }
      }
    }
    return w;
  }();
  return kWidths[static_cast<size_t>(std::clamp(precision, 0, 38))];
}

namespace {

// The common form of a decimal, [sign] digits [. digits] with no more digits after the point than
// the scale and no more than `precision` in all once scaled, read straight into the unscaled
// integer. False for anything else (an exponent, more fraction digits, too many digits, not a
// number), which ParseDecimalText then reads the general way, with its errors.
bool ReadPlainDecimal(std::string_view s, int precision, int scale, Int128* out) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  // The significant digits gather in 64 bits, 18 at a time, then join the 128-bit value.
  constexpr uint64_t kChunk = 1000000000000000000ULL;  // 10^18
  Int128 v = 0;
  uint64_t chunk = 0, chunk_scale = 1;
  int digits = 0, fraction = 0;
  bool point = false, any = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      any = true;
      if (point && ++fraction > scale) return false;
      if (digits > 0 || c != '0') {
        if (++digits > precision) return false;
        chunk = chunk * 10 + static_cast<uint64_t>(c - '0');
        chunk_scale *= 10;
        if (chunk_scale == kChunk) {
          v = v * static_cast<Int128>(kChunk) + static_cast<Int128>(chunk);
          chunk = 0;
          chunk_scale = 1;
        }
      }
    } else if (c == '.' && !point) {
      point = true;
    } else {
      return false;
    }
  }
  v = v * static_cast<Int128>(chunk_scale) + static_cast<Int128>(chunk);
  if (!any || (v != 0 && digits + (scale - fraction) > precision)) return false;
  for (int k = fraction; k < scale; ++k) v *= 10;
  *out = negative ? -v : v;
  return true;
}

}  // namespace

Status ParseDecimalText(std::string_view s, int precision, int scale, UnscaledDecimal* out) {
  *out = UnscaledDecimal{};
  Int128 v = 0;
  s = Trim(s);
  if (!ReadPlainDecimal(s, precision, scale, &v)) {
    DecimalText d;
    if (!ReadDecimalText(s, &d)) return Status::InvalidArgument("is not a number");
    const UnscaleFailure failure = UnscaleDecimal(std::move(d), scale, precision, &v);
    if (failure != UnscaleFailure::kNone) {
      const std::string type = "DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
      if (failure == UnscaleFailure::kFractionDigits) {
        return Status::InvalidArgument("has more than " + std::to_string(scale) +
                                       " digits after the point, which " + type +
                                       " cannot hold without rounding");
      }
      return Status::InvalidArgument("has more than " + std::to_string(precision) +
                                     " digits, too many for " + type);
    }
  }
  auto u = static_cast<UInt128>(v);
  for (int k = 15; k >= 0; --k) {
    out->big_endian[k] = static_cast<uint8_t>(u & 0xFF);
    u >>= 8;
  }
  return Status::OK();
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
