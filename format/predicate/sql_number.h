// SqlNumber: SQLite's conversions between text and numbers, as its comparison affinity applies
// them.
//
// Two conversions decide how a literal compares with a column (predicate.h):
//   - numeric affinity turns a TEXT value into a number when the whole text is a decimal number:
//     optional spaces, an optional sign, digits with an optional '.', an optional exponent,
//     optional spaces ('5', ' 5 ', '5.', '.5', '1e5', '-1.5E-3'; not '', '-', '.', '1e', '0x10',
//     '5abc'). A text of digits alone that fits in 64 bits becomes that INTEGER exactly; any other
//     number becomes the REAL SQLite computes for it. Texts that are not numbers stay TEXT.
//   - TEXT affinity turns an INTEGER into its decimal digits and a REAL into the text of SQLite's
//     printf("%!.15g"): 15 significant digits, trailing zeros removed but one digit always kept
//     after the point ('1.0', '0.1', '100.0', '1.0e+20', '1.23456789012346e+17', '1.5e-05').
//
// SQLite computes both with extended precision (long double) up to version 3.42 and with another
// algorithm since; either can differ from the correctly rounded result in rare cases (long digit
// strings, values whose 16th digit sits on a rounding boundary). These functions compute the result
// both ways (SQLite 3.40's steps, and a correctly rounded one) and report kUnsure when the two
// differ or the value is close enough to a boundary that another version could round it the other
// way; callers then keep the row instead of guessing. -0.0 and infinities render differently
// across versions ('0.0' or '-0.0', 'Inf'), so their text is kUnsure too. Nothing here allocates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace pq {

enum class SqlNumberKind : uint8_t {
  kNotNumeric,  // the text stays TEXT
  kInteger,     // the text is this INTEGER
  kReal,        // the text is this REAL
  kUnsure,      // a number, but its exact double depends on the SQLite version
};

struct SqlNumber {
  SqlNumberKind kind = SqlNumberKind::kNotNumeric;
  int64_t i = 0;  // kInteger
  double d = 0;   // kReal
};

// What SQLite's numeric affinity makes of `text` in a comparison (applyNumericAffinity without
// the "try for integer" step, which never changes a comparison: INTEGER and REAL compare exactly).
SqlNumber ParseSqlNumber(std::string_view text);

// Room for any text below.
inline constexpr size_t kSqlNumberTextCapacity = 40;

// The decimal text of an INTEGER, written at `out` (kSqlNumberTextCapacity bytes). Returns its
// length.
size_t FormatSqlInteger(int64_t v, char* out);

// The text SQLite gives a REAL under TEXT affinity, written at `out` (kSqlNumberTextCapacity
// bytes). Returns its length, or 0 when unsure (see above; nothing useful is written then).
size_t FormatSqlReal(double v, char* out);

}  // namespace pq
