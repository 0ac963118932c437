#include "format/predicate/sql_number.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace pq {
namespace {

// The 15 significant digits of "%.15g" and the decimal exponent of the first one.
constexpr int kSignificantDigits = 15;

bool IsSqlSpace(char c) {
  // sqlite3Isspace: space, \t, \n, \v, \f, \r.
  return c == ' ' || (c >= '\t' && c <= '\r');
}
bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// ---- text to number ----------------------------------------------------------------------------

// The pieces SQLite 3.40's sqlite3AtoF collects while scanning a text (util.c): a significand of at
// most ~18 digits, the decimal exponent adjustment for digits it dropped or that followed the
// point, and the written exponent.
struct DecimalScan {
  bool well_formed = false;   // the whole text is a number
  bool pure_integer = false;  // digits only (no point, no exponent)
  bool negative = false;
  int64_t significand = 0;
  int64_t shift = 0;     // decimal exponent from dropped digits (+) and fraction digits kept (-)
  int64_t exponent = 0;  // as written, capped at 10000, signed
  size_t number_begin = 0, number_end = 0;  // the text without surrounding spaces
};

DecimalScan ScanDecimal(std::string_view t) {
  constexpr int64_t kSaturation = (std::numeric_limits<int64_t>::max() - 9) / 10;
  DecimalScan r;
  size_t i = 0;
  const size_t n = t.size();
  while (i < n && IsSqlSpace(t[i])) ++i;
  r.number_begin = i;
  if (i >= n) return r;
  if (t[i] == '-') {
    r.negative = true;
    ++i;
  } else if (t[i] == '+') {
    ++i;
  }
  int digits = 0;
  int kinds = 1;  // SQLite's eType: 1 for an integer, +1 for a point, +1 for an exponent
  bool exponent_valid = true;
  while (i < n && IsDigit(t[i])) {
    r.significand = r.significand * 10 + (t[i] - '0');
    ++i;
    ++digits;
    if (r.significand >= kSaturation) {
      // Further integer digits only scale the value.
      while (i < n && IsDigit(t[i])) {
        ++i;
        ++r.shift;
      }
    }
  }
  if (i < n && t[i] == '.') {
    ++i;
    ++kinds;
    while (i < n && IsDigit(t[i])) {
      if (r.significand < kSaturation) {
        r.significand = r.significand * 10 + (t[i] - '0');
        --r.shift;
        ++digits;
      }
      ++i;
    }
  }
  if (i < n && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    ++kinds;
    exponent_valid = false;
    int sign = 1;
    if (i < n && t[i] == '-') {
      sign = -1;
      ++i;
    } else if (i < n && t[i] == '+') {
      ++i;
    }
    int e = 0;
    while (i < n && IsDigit(t[i])) {
      e = e < 10000 ? e * 10 + (t[i] - '0') : 10000;
      ++i;
      exponent_valid = true;
    }
    r.exponent = sign * e;
  }
  r.number_end = i;
  while (i < n && IsSqlSpace(t[i])) ++i;
  r.well_formed = i == n && digits > 0 && exponent_valid;
  r.pure_integer = kinds == 1;
  return r;
}

// The double SQLite 3.40 computes from a scan (sqlite3AtoF's do_atof_calc), in extended precision.
double SqliteAtoF(const DecimalScan& scan) {
  int64_t s = scan.significand;
  if (s == 0) return scan.negative ? -0.0 : 0.0;
  int64_t e = scan.exponent + scan.shift;
  const bool negative_exponent = e < 0;
  if (negative_exponent) e = -e;
  // Move what can be moved exactly from the exponent into the significand.
  while (e > 0) {
    if (!negative_exponent) {
      if (s >= std::numeric_limits<int64_t>::max() / 10) break;
      s *= 10;
    } else {
      if (s % 10 != 0) break;
      s /= 10;
    }
    --e;
  }
  if (scan.negative) s = -s;
  if (e == 0) return static_cast<double>(s);
  long double scale = 1.0;
  double result;
  if (e > 307) {
    if (e >= 342) {
      return negative_exponent ? 0.0 * static_cast<double>(s)
                               : std::numeric_limits<double>::infinity() * static_cast<double>(s);
    }
    while (e % 308 != 0) {
      scale *= 1.0e+1;
      e -= 1;
    }
    if (negative_exponent) {
      result = static_cast<double>(s / scale);
      result /= 1.0e+308;
    } else {
      result = static_cast<double>(s * scale);
      result *= 1.0e+308;
    }
    return result;
  }
  while (e % 22 != 0) {
    scale *= 1.0e+1;
    e -= 1;
  }
  while (e > 0) {
    scale *= 1.0e+22;
    e -= 22;
  }
  return static_cast<double>(negative_exponent ? s / scale : s * scale);
}

// The digits-only text (spaces, sign, digits, spaces) as an int64; false when it does not fit.
bool ParseExactInteger(std::string_view digits, bool negative, int64_t* out) {
  uint64_t v = 0;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  for (char c : digits) {
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

bool SameDouble(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

// ---- number to text ----------------------------------------------------------------------------

// 15 significant digits ('0'..'9') and the decimal exponent of the first.
struct Digits {
  char d[kSignificantDigits];
  int exponent = 0;
};

// printf("%!.15g")'s layout of the digits (SQLite's sqlite3_str_vappendf, etGENERIC with the '!'
// flag): exponent form below 1e-4 or from 1e15, else fixed; trailing zeros dropped but one digit
// kept after the point; a signed exponent of at least two digits.
size_t Layout(bool negative, const Digits& g, char* out) {
  char* p = out;
  if (negative) *p++ = '-';
  const int x = g.exponent;
  const bool exponent_form = x < -4 || x > kSignificantDigits - 1;
  char* point = nullptr;
  if (exponent_form) {
    *p++ = g.d[0];
    point = p;
    *p++ = '.';
    for (int i = 1; i < kSignificantDigits; ++i) *p++ = g.d[i];
  } else if (x >= 0) {
    for (int i = 0; i <= x; ++i) *p++ = g.d[i];
    point = p;
    *p++ = '.';
    for (int i = x + 1; i < kSignificantDigits; ++i) *p++ = g.d[i];
  } else {
    *p++ = '0';
    point = p;
    *p++ = '.';
    for (int i = x + 1; i < 0; ++i) *p++ = '0';
    for (int i = 0; i < kSignificantDigits; ++i) *p++ = g.d[i];
  }
  while (p[-1] == '0' && p - 1 > point) --p;
  if (p[-1] == '.') *p++ = '0';
  if (exponent_form) {
    *p++ = 'e';
    int e = x;
    if (e < 0) {
      *p++ = '-';
      e = -e;
    } else {
      *p++ = '+';
    }
    if (e >= 100) {
      *p++ = static_cast<char>('0' + e / 100);
      e %= 100;
    }
    *p++ = static_cast<char>('0' + e / 10);
    *p++ = static_cast<char>('0' + e % 10);
  }
  return static_cast<size_t>(p - out);
}

// The digits SQLite 3.40 produces for a positive finite value: normalize into [1, 10) in extended
// precision, add half a unit of the 15th digit, then peel digits off one by one.
Digits SqliteDigits(double v) {
  long double r = v;
  const double rounder = 5.0e-05 * 1.0e-10;
  int exp = 0;
  long double scale = 1.0;
  while (r >= 1e100 * scale && exp <= 350) {
    scale *= 1e100;
    exp += 100;
  }
  while (r >= 1e10 * scale && exp <= 350) {
    scale *= 1e10;
    exp += 10;
  }
  while (r >= 10.0 * scale && exp <= 350) {
    scale *= 10.0;
    exp++;
  }
  r /= scale;
  while (r < 1e-8) {
    r *= 1.0e8;
    exp -= 8;
  }
  while (r < 1.0) {
    r *= 10.0;
    exp--;
  }
  r += rounder;
  if (r >= 10.0) {
    r *= 0.1;
    exp++;
  }
  Digits g;
  g.exponent = exp;
  for (int i = 0; i < kSignificantDigits; ++i) {
    const int digit = static_cast<int>(r);
    r = (r - digit) * 10.0;
    g.d[i] = static_cast<char>('0' + digit);
  }
  return g;
}

// Correctly rounded digits of a positive finite value, and whether the value lies so close to a
// rounding boundary of the 15th digit (digits 16..20 within 49990..50009) that an algorithm
// accurate to ~19 digits could round it either way.
Digits ExactDigits(double v, bool* near_boundary) {
  char buf[64];
  Digits g;
  auto parse = [&buf](const char* end, char* digits, int count, int* exponent) {
    // "d.ddd...e+XX"
    const char* p = buf;
    digits[0] = *p++;
    ++p;  // '.'
    for (int i = 1; i < count; ++i) digits[i] = *p++;
    ++p;  // 'e'
    std::from_chars(*p == '+' ? p + 1 : p, end, *exponent);
  };
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific,
                         kSignificantDigits - 1);
  parse(r.ptr, g.d, kSignificantDigits, &g.exponent);
  constexpr int kLong = kSignificantDigits + 5;
  char more[kLong];
  int more_exponent = 0;
  r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific, kLong - 1);
  parse(r.ptr, more, kLong, &more_exponent);
  int tail = 0;
  for (int i = kSignificantDigits; i < kLong; ++i) tail = tail * 10 + (more[i] - '0');
  *near_boundary = tail >= 49990 && tail <= 50009;
  return g;
}

}  // namespace

SqlNumber ParseSqlNumber(std::string_view text) {
  SqlNumber out;
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    const SqlNumber before = ParseSqlNumber(text.substr(0, nul));
    if (before.kind != SqlNumberKind::kNotNumeric) out.kind = SqlNumberKind::kUnsure;
    return out;
  }
  const DecimalScan scan = ScanDecimal(text);
  if (!scan.well_formed) return out;
  std::string_view number = text.substr(scan.number_begin, scan.number_end - scan.number_begin);
  if (number[0] == '+' || number[0] == '-') number.remove_prefix(1);
  if (scan.pure_integer && ParseExactInteger(number, scan.negative, &out.i)) {
    out.kind = SqlNumberKind::kInteger;
    return out;
  }
  const double sqlite = SqliteAtoF(scan);
  double exact = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), exact);
  bool agree;
  if (ec == std::errc::result_out_of_range) {
    // Overflow to infinity or underflow to zero: SQLite must say the same.
    agree = std::isinf(sqlite) || sqlite == 0;
    exact = sqlite;
  } else {
    if (scan.negative) exact = -exact;
    agree = ec == std::errc() && end == number.data() + number.size() && SameDouble(sqlite, exact);
  }
  if (!agree) {
    out.kind = SqlNumberKind::kUnsure;
    return out;
  }
  out.kind = SqlNumberKind::kReal;
  out.d = exact;
  return out;
}

size_t FormatSqlInteger(int64_t v, char* out) {
  return static_cast<size_t>(std::to_chars(out, out + kSqlNumberTextCapacity, v).ptr - out);
}

size_t FormatSqlReal(double v, char* out) {
  // NaN is not a value; -0.0 prints as '0.0' or '-0.0' and infinities as 'Inf' or otherwise,
  // depending on the version.
  if (!std::isfinite(v) || (v == 0 && std::signbit(v))) return 0;
  if (v == 0) {
    std::memcpy(out, "0.0", 3);
    return 3;
  }
  const bool negative = v < 0;
  const double magnitude = negative ? -v : v;
  bool near_boundary = false;
  const Digits exact = ExactDigits(magnitude, &near_boundary);
  if (near_boundary) return 0;
  const Digits sqlite = SqliteDigits(magnitude);
  if (std::memcmp(exact.d, sqlite.d, sizeof(exact.d)) != 0 || exact.exponent != sqlite.exponent) {
    return 0;
  }
  return Layout(negative, exact, out);
}

}  // namespace pq
