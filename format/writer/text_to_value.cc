#include "format/writer/text_to_value.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
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

// Eight ASCII characters read as a little-endian word: whether all are digits.
bool EightDigits(uint64_t w) {
  // A digit is 0x30..0x39: high nibble 3, and adding 6 keeps it 3 (no byte carries: each is < 0x40).
  constexpr uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ULL, kThrees = 0x3030303030303030ULL;
  return (w & kHigh) == kThrees && ((w + 0x0606060606060606ULL) & kHigh) == kThrees;
}

// The value of eight digits read as a little-endian word (the first digit in the lowest byte):
// pairs, then fours, then the eight, each step one multiply over every lane at once.
uint64_t EightDigitsValue(uint64_t w) {
  w -= 0x3030303030303030ULL;
  w = w * 10 + (w >> 8);  // each 16-bit lane's low byte: the lane's two digits
  return (((w & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
          (((w >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >>
         32;
}

// Four ASCII characters read as a little-endian word: whether all are digits, and their value.
bool FourDigits(uint32_t w) {
  constexpr uint32_t kHigh = 0xF0F0F0F0U, kThrees = 0x30303030U;
  return (w & kHigh) == kThrees && ((w + 0x06060606U) & kHigh) == kThrees;
}

uint32_t FourDigitsValue(uint32_t w) {
  w -= 0x30303030U;
  w = w * 10 + (w >> 8);  // each 16-bit lane's low byte: the lane's two digits
  return (w & 0xFF) * 100 + ((w >> 16) & 0xFF);
}

// The digits of a decimal read so far: the value (unsigned, so that more than 38 digits wrap and
// are then refused rather than overflow), and the zeros before the first other digit, which add
// nothing to it.
struct DigitRun {
  UInt128 value = 0;
  int leading = 0;
  bool nonzero = false;

  // Leading zeros among the `n` digits of a little-endian word `w` (n = 8 or 4).
  void CountLeading(uint64_t w, int n) {
    if (nonzero) return;
    const uint64_t x = (w ^ 0x3030303030303030ULL) & (n == 8 ? ~uint64_t{0} : 0xFFFFFFFFULL);
    if (x == 0) {
      leading += n;
    } else {
      leading += __builtin_ctzll(x) / 8;
      nonzero = true;
    }
  }

  // Reads the digits from p on (eight, then four, then one at a time); returns how many.
  int Read(const char*& p, const char* end) {
    const char* start = p;
    while (end - p >= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      if (!EightDigits(w)) break;
      CountLeading(w, 8);
      value = value * 100000000U + EightDigitsValue(w);
      p += 8;
    }
    if (end - p >= 4) {
      uint32_t w;
      std::memcpy(&w, p, 4);
      if (FourDigits(w)) {
        CountLeading(w, 4);
        value = value * 10000U + FourDigitsValue(w);
        p += 4;
      }
    }
    for (; p < end && *p >= '0' && *p <= '9'; ++p) {
      if (!nonzero) {
        if (*p == '0') {
          ++leading;
        } else {
          nonzero = true;
        }
      }
      value = value * 10U + static_cast<unsigned>(*p - '0');
    }
    return static_cast<int>(p - start);
  }
};

// The common form of a decimal, [sign] digits [. digits] with no more digits after the point than
// the scale and no more than `precision` in all once scaled, read straight into the unscaled
// integer, eight digits at a time where it can. False for anything else (an exponent, more
// fraction digits, too many digits, not a number), which ParseDecimalText then reads the general
// way, with its errors.
bool ReadPlainDecimal(std::string_view s, int precision, int scale, Int128* out) {
  const char* p = s.data();
  const char* const end = p + s.size();
  bool negative = false;
  if (p < end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  DigitRun run;
  int digits = run.Read(p, end);
  int fraction = 0;
  if (p < end && *p == '.') {
    ++p;
    fraction = run.Read(p, end);
    digits += fraction;
  }
  const int significant = digits - run.leading;
  if (p != end || digits == 0 || fraction > scale || significant > precision) return false;
  if (run.value != 0 && significant + (scale - fraction) > precision) return false;
  UInt128 v = run.value;
  for (int k = fraction; k < scale; ++k) v *= 10U;
  *out = negative ? -static_cast<Int128>(v) : static_cast<Int128>(v);
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
    // The digits before the point, for the message: with the scale's after them, they need more
    // digits than the precision when the value is too large.
    const int64_t whole_digits = static_cast<int64_t>(d.digits.size()) + d.exponent - d.fraction_digits;
    const bool long_exponent = d.long_exponent;
    const UnscaleFailure failure = UnscaleDecimal(std::move(d), scale, precision, &v);
    if (failure != UnscaleFailure::kNone) {
      const std::string type = "DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
      if (failure == UnscaleFailure::kFractionDigits) {
        return Status::InvalidArgument("has more than " + std::to_string(scale) +
                                       " digits after the point, which " + type +
                                       " cannot hold without rounding");
      }
      // Say it as the digits before the point against the precision less the scale: 100000000 has
      // 9 digits, fewer than DECIMAL(10,2)'s precision, and does not fit for its scale.
      return Status::InvalidArgument(
          "has " + std::string(long_exponent ? "more than " : "") + std::to_string(whole_digits) +
          (whole_digits == 1 ? " digit" : " digits") + (scale > 0 ? " before the point" : "") +
          ", more than the " + std::to_string(precision - scale) + " that " + type + " holds" +
          (scale > 0 ? " (precision " + std::to_string(precision) + " less scale " +
                           std::to_string(scale) + ")"
                     : ""));
    }
  }
  // Two's complement, most significant byte first: each 64-bit half byte-swapped.
  const auto u = static_cast<UInt128>(v);
  const uint64_t high = __builtin_bswap64(static_cast<uint64_t>(u >> 64));
  const uint64_t low = __builtin_bswap64(static_cast<uint64_t>(u));
  std::memcpy(out->big_endian, &high, 8);
  std::memcpy(out->big_endian + 8, &low, 8);
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
