// SqlNumber: SQLite's conversions between text and numbers, as its comparison affinity applies them
// (predicate.h): numeric affinity turning a TEXT literal into a number, TEXT affinity turning a
// number into text. SQLite computes both with extended precision up to version 3.42 and with
// another algorithm since, either of which can differ from the correctly rounded result in rare
// cases; so these functions compute the result both ways and report kUnsure when the two differ or
// another version could round the other way, and callers then keep the row instead of guessing.
// Nothing here allocates.
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

// What SQLite's numeric affinity makes of `text` in a comparison (applyNumericAffinity without the
// "try for integer" step, which never changes a comparison: INTEGER and REAL compare exactly). A
// number is the whole text: optional spaces, an optional sign, digits with an optional '.', an
// optional exponent, optional spaces ('5', ' 5 ', '5.', '.5', '1e5', '-1.5E-3'; not '', '-', '.',
// '1e', '0x10', '5abc'). Digits alone that fit in 64 bits are that INTEGER exactly; any other
// number is the REAL SQLite computes for it. A text with a NUL byte is unsure when what comes before
// the NUL is a number: later releases (3.53) read a text only up to its first NUL ('12' || char(0)
// || 'x' is 12), earlier ones (3.40) find no number in it.
SqlNumber ParseSqlNumber(std::string_view text);

// Room for any text below.
inline constexpr size_t kSqlNumberTextCapacity = 40;

// The decimal text of an INTEGER, written at `out` (kSqlNumberTextCapacity bytes). Returns its
// length.
size_t FormatSqlInteger(int64_t v, char* out);

// The text SQLite gives a REAL under TEXT affinity, printf("%!.15g"): 15 significant digits,
// trailing zeros removed but one digit kept after the point ('1.0', '100.0', '1.0e+20',
// '1.5e-05'), written at `out` (kSqlNumberTextCapacity bytes). Returns its length, or 0 when unsure
// (nothing useful is written then); -0.0 and infinities are unsure, as versions render them
// differently ('0.0' or '-0.0', 'Inf').
size_t FormatSqlReal(double v, char* out);

}  // namespace pq
