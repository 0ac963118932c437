#include "format/predicate/predicate.h"

#include <algorithm>
#include <cstring>

#include "format/predicate/sql_number.h"

namespace pq {
namespace {

// ---- storage classes and order -----------------------------------------------------------------

bool IsNumeric(CellType t) {
  return t == CellType::kInteger || t == CellType::kReal;
}
bool IsNumericAffinity(Affinity a) {
  return a == Affinity::kInteger || a == Affinity::kReal;
}

// NULL < numbers < TEXT < BLOB.
int ClassRank(CellType t) {
  switch (t) {
    case CellType::kNull:
      return 0;
    case CellType::kInteger:
    case CellType::kReal:
      return 1;
    case CellType::kText:
      return 2;
    case CellType::kBlob:
      return 3;
  }
  return 0;
}

// An INTEGER against a REAL, exactly (sqlite3IntFloatCompare): no rounding of the integer.
int CompareIntReal(int64_t i, double r) {
  if (r < -9223372036854775808.0) return 1;
  if (r >= 9223372036854775808.0) return -1;
  const int64_t t = static_cast<int64_t>(r);  // r truncated; in range here
  if (i != t) return i < t ? -1 : 1;
  // i is r without its fraction; (double)i is exact (|r| < 2^53, or r is itself an integer).
  const double s = static_cast<double>(i);
  return s < r ? -1 : s > r ? 1 : 0;
}

int CompareBytes(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c < 0 ? -1 : 1;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

// ---- affinity ----------------------------------------------------------------------------------

// A comparison operand once affinity is applied. The cell may point into `text`, so an Operand is
// never copied.
struct Operand {
  explicit Operand(const Cell& c) : cell(c) {}
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;

  Cell cell;
  bool unsure = false;
  char text[kSqlNumberTextCapacity];

  // Numeric affinity: a TEXT that is a number becomes that number.
  void ToNumeric() {
    if (cell.type != CellType::kText) return;
    const SqlNumber n = ParseSqlNumber(cell.bytes);
    switch (n.kind) {
      case SqlNumberKind::kNotNumeric:
        break;
      case SqlNumberKind::kInteger:
        cell = Cell::Integer(n.i);
        break;
      case SqlNumberKind::kReal:
        cell = Cell::Real(n.d);
        break;
      case SqlNumberKind::kUnsure:
        unsure = true;
        break;
    }
  }
  // TEXT affinity: a number becomes its text.
  void ToText() {
    size_t n = 0;
    if (cell.type == CellType::kInteger) {
      n = FormatSqlInteger(cell.i, text);
    } else if (cell.type == CellType::kReal) {
      n = FormatSqlReal(cell.d, text);
      if (n == 0) {
        unsure = true;
        return;
      }
    } else {
      return;
    }
    cell = Cell::Text(std::string_view(text, n));
  }
};

// Applies the comparison affinity to both sides of `a OP b` (neither NULL), as SQLite's comparison
// opcodes do (vdbe.c, OP_Lt and friends): numeric affinity converts each TEXT side that is a
// number; TEXT affinity, when at least one side is TEXT, converts each number to text; BLOB
// affinity converts nothing.
void ApplyComparisonAffinity(Operand* a, Operand* b, Affinity affinity) {
  if (IsNumericAffinity(affinity)) {
    a->ToNumeric();
    b->ToNumeric();
  } else if (affinity == Affinity::kText &&
             (a->cell.type == CellType::kText || b->cell.type == CellType::kText)) {
    a->ToText();
    b->ToText();
  }
}

// SQLite's `value OP literal` for a comparison operator, both sides not NULL.
Match CompareOp(const Cell& value, const Cell& literal, PredicateOp op, Affinity affinity) {
  Operand a(value), b(literal);
  ApplyComparisonAffinity(&a, &b, affinity);
  if (a.unsure || b.unsure) return Match::kUnsure;
  const int c = CompareSql(a.cell, b.cell);
  bool r = false;
  switch (op) {
    case PredicateOp::kEq:
    case PredicateOp::kIs:
    case PredicateOp::kIn:
      r = c == 0;
      break;
    case PredicateOp::kNe:
    case PredicateOp::kIsNot:
      r = c != 0;
      break;
    case PredicateOp::kLt:
      r = c < 0;
      break;
    case PredicateOp::kLe:
      r = c <= 0;
      break;
    case PredicateOp::kGt:
      r = c > 0;
      break;
    case PredicateOp::kGe:
      r = c >= 0;
      break;
    default:
      return Match::kUnsure;
  }
  return r ? Match::kYes : Match::kNo;
}

Match FromBool(bool b) {
  return b ? Match::kYes : Match::kNo;
}

// A prefix of ASCII characters other than NUL. LIKE and GLOB compare characters decoded from UTF-8
// leniently (overlong and broken sequences decode to something), so only for such a prefix is
// "the value's bytes start with it" exactly their answer: no sequence but the ASCII byte itself
// decodes to an ASCII character.
bool IsPlainAscii(std::string_view p) {
  for (char c : p) {
    if (c == '\0' || static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// `value LIKE/GLOB prefix...` as far as the prefix decides: LIKE and GLOB read the value as text
// (numbers as SQLite renders them) up to its first NUL byte.
Match PrefixMatch(const Cell& value, const SqlValue& prefix) {
  if (value.type == CellType::kNull) return Match::kNo;
  // Whether LIKE and GLOB match BLOBs at all is a compile-time option of SQLite
  // (SQLITE_LIKE_DOESNT_MATCH_BLOBS, set by some distributions). A REAL's text is 15 significant
  // digits in 3.40 ('0.333333333333333'), up to 17 in later releases ('0.33333333333333332'), by
  // rules that changed between them (FormatSqlReal gives 3.40's).
  if (prefix.type != CellType::kText || value.type == CellType::kBlob ||
      value.type == CellType::kReal) {
    return Match::kUnsure;
  }
  const std::string_view p = prefix.bytes;
  if (!IsPlainAscii(p)) return Match::kUnsure;
  Operand v(value);
  v.ToText();
  if (v.unsure) return Match::kUnsure;
  return FromBool(v.cell.bytes.substr(0, p.size()) == p);
}

bool HasLiteral(const PredicateTerm& term) {
  return !term.values.empty();
}

}  // namespace

// ---- SqlValue ----------------------------------------------------------------------------------

SqlValue SqlValue::Real(double v) {
  if (v != v) return Null();
  return {CellType::kReal, 0, v, {}};
}

SqlValue SqlValue::FromCell(const Cell& c) {
  switch (c.type) {
    case CellType::kNull:
      return Null();
    case CellType::kInteger:
      return Integer(c.i);
    case CellType::kReal:
      return Real(c.d);
    case CellType::kText:
      return Text(std::string(c.bytes));
    case CellType::kBlob:
      return Blob(std::string(c.bytes));
  }
  return Null();
}

Cell SqlValue::AsCell() const {
  switch (type) {
    case CellType::kNull:
      return Cell::Null();
    case CellType::kInteger:
      return Cell::Integer(i);
    case CellType::kReal:
      return Cell::Real(d);
    case CellType::kText:
      return Cell::Text(bytes);
    case CellType::kBlob:
      return Cell::Blob(bytes);
  }
  return Cell::Null();
}

// ---- affinity ----------------------------------------------------------------------------------

Affinity AffinityOfDeclaredType(std::string_view declared_type) {
  // https://sqlite.org/datatype3.html, "Determination Of Column Affinity", rules in order.
  std::string upper(declared_type);
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  auto has = [&upper](const char* s) { return upper.find(s) != std::string::npos; };
  if (has("INT")) return Affinity::kInteger;
  if (has("CHAR") || has("CLOB") || has("TEXT")) return Affinity::kText;
  if (has("BLOB") || upper.empty()) return Affinity::kBlob;
  // REAL, FLOA, DOUB, and NUMERIC (any other name): numeric; they compare the same way.
  return Affinity::kReal;
}

SqlValue ApplyAffinity(const SqlValue& literal, Affinity affinity, bool* exact) {
  *exact = true;
  if (IsNumericAffinity(affinity) && literal.type == CellType::kText) {
    const SqlNumber n = ParseSqlNumber(literal.bytes);
    switch (n.kind) {
      case SqlNumberKind::kNotNumeric:
        return literal;
      case SqlNumberKind::kInteger:
        return SqlValue::Integer(n.i);
      case SqlNumberKind::kReal:
        break;
      case SqlNumberKind::kUnsure:
        *exact = false;
        return literal;
    }
    // For INTEGER affinity a REAL that is an exact integer is that INTEGER (as SQLite stores it;
    // the two compare equal either way).
    if (affinity == Affinity::kInteger && n.d >= -9223372036854775808.0 &&
        n.d < 9223372036854775808.0 && static_cast<double>(static_cast<int64_t>(n.d)) == n.d) {
      return SqlValue::Integer(static_cast<int64_t>(n.d));
    }
    return SqlValue::Real(n.d);
  }
  if (affinity == Affinity::kText && IsNumeric(literal.type)) {
    Operand o(literal.AsCell());
    o.ToText();
    if (o.unsure) {
      *exact = false;
      return literal;
    }
    return SqlValue::Text(std::string(o.cell.bytes));
  }
  return literal;
}

SqlValue ApplyAffinity(const SqlValue& literal, Affinity affinity) {
  bool exact;
  return ApplyAffinity(literal, affinity, &exact);
}

int CompareSql(const Cell& a, const Cell& b) {
  const int ra = ClassRank(a.type), rb = ClassRank(b.type);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (a.type) {
    case CellType::kNull:
      return 0;
    case CellType::kInteger:
      if (b.type == CellType::kInteger) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
      return CompareIntReal(a.i, b.d);
    case CellType::kReal:
      if (b.type == CellType::kInteger) return -CompareIntReal(b.i, a.d);
      return a.d < b.d ? -1 : a.d > b.d ? 1 : 0;
    case CellType::kText:
    case CellType::kBlob:
      return CompareBytes(a.bytes, b.bytes);
  }
  return 0;
}

// ---- one value ---------------------------------------------------------------------------------

Match EvaluateTerm(const Cell& value, const PredicateTerm& term, Affinity affinity) {
  const bool value_null = value.type == CellType::kNull;
  switch (term.op) {
    case PredicateOp::kIsNull:
      return FromBool(value_null);
    case PredicateOp::kIsNotNull:
      return FromBool(!value_null);
    case PredicateOp::kIn: {
      if (value_null) return Match::kNo;
      bool unsure = false;
      for (const SqlValue& v : term.values) {
        if (v.type == CellType::kNull) continue;
        const Match m = CompareOp(value, v.AsCell(), PredicateOp::kEq, affinity);
        if (m == Match::kYes) return Match::kYes;
        unsure |= m == Match::kUnsure;
      }
      return unsure ? Match::kUnsure : Match::kNo;
    }
    case PredicateOp::kPrefix:
      if (!HasLiteral(term)) return Match::kUnsure;
      return PrefixMatch(value, term.values[0]);
    case PredicateOp::kIs:
    case PredicateOp::kIsNot: {
      if (!HasLiteral(term)) return Match::kUnsure;
      const Cell literal = term.values[0].AsCell();
      const bool literal_null = literal.type == CellType::kNull;
      if (value_null || literal_null) {
        const bool same = value_null && literal_null;
        return FromBool(term.op == PredicateOp::kIs ? same : !same);
      }
      return CompareOp(value, literal, term.op, affinity);
    }
    default: {  // =, !=, <, <=, >, >=
      if (!HasLiteral(term)) return Match::kUnsure;
      const Cell literal = term.values[0].AsCell();
      if (value_null || literal.type == CellType::kNull) return Match::kNo;
      return CompareOp(value, literal, term.op, affinity);
    }
  }
}

bool ValueSatisfies(const Cell& value, const PredicateTerm& term, Affinity affinity) {
  return EvaluateTerm(value, term, affinity) != Match::kNo;
}

// ---- a range of values -------------------------------------------------------------------------

namespace {

bool AllNull(const ValueRange& r) {
  return r.num_values >= 0 && r.null_count >= 0 && r.null_count >= r.num_values;
}
bool MayHaveNull(const ValueRange& r) {
  return r.null_count != 0 && r.num_values != 0;
}

// Bounds that order every value of the range the way comparisons see it: under numeric affinity
// the values must be numbers (a TEXT value would itself be converted), under TEXT affinity TEXT.
bool UsableBounds(const ValueRange& r, Affinity affinity) {
  if (!r.has_bounds) return false;
  const CellType lo = r.min.type, hi = r.max.type;
  if (lo == CellType::kNull || hi == CellType::kNull) return false;
  if (IsNumericAffinity(affinity) && !(IsNumeric(lo) && IsNumeric(hi))) return false;
  if (affinity == Affinity::kText && !(lo == CellType::kText && hi == CellType::kText)) {
    return false;
  }
  return CompareSql(r.min.AsCell(), r.max.AsCell()) <= 0;
}

// May a non-NULL value in the range compare with `literal` (not NULL) as `op` says?
// Returns true when unsure.
bool RangeMayCompare(const ValueRange& r, bool bounds, const SqlValue& literal, PredicateOp op,
                     Affinity affinity) {
  if (AllNull(r)) return false;
  if (!bounds) return true;
  // Every value in the range already has the column's natural type, so only the literal converts.
  Operand lit(literal.AsCell());
  if (IsNumericAffinity(affinity)) {
    lit.ToNumeric();
  } else if (affinity == Affinity::kText) {
    lit.ToText();
  }
  if (lit.unsure) return true;
  const int lo = CompareSql(r.min.AsCell(), lit.cell);
  const int hi = CompareSql(r.max.AsCell(), lit.cell);
  switch (op) {
    case PredicateOp::kEq:
    case PredicateOp::kIs:
    case PredicateOp::kIn:
      return lo <= 0 && hi >= 0;
    case PredicateOp::kNe:
    case PredicateOp::kIsNot:
      return !(lo == 0 && hi == 0);
    case PredicateOp::kLt:
      return lo < 0;
    case PredicateOp::kLe:
      return lo <= 0;
    case PredicateOp::kGt:
      return hi > 0;
    case PredicateOp::kGe:
      return hi >= 0;
    default:
      return true;
  }
}

bool StartsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

}  // namespace

bool RangeMaySatisfy(const ValueRange& range, const PredicateTerm& term, Affinity affinity) {
  const bool bounds = UsableBounds(range, affinity);
  switch (term.op) {
    case PredicateOp::kIsNull:
      return MayHaveNull(range);
    case PredicateOp::kIsNotNull:
      return !AllNull(range);
    case PredicateOp::kIn:
      for (const SqlValue& v : term.values) {
        if (v.type == CellType::kNull) continue;
        if (RangeMayCompare(range, bounds, v, PredicateOp::kEq, affinity)) return true;
      }
      return false;
    case PredicateOp::kPrefix: {
      if (!HasLiteral(term)) return true;
      if (AllNull(range)) return false;
      const SqlValue& p = term.values[0];
      // Values of one byte-string class ordered by bytes: those starting with p lie in
      // [p, p + 0xff 0xff ...], so the range misses them when max < p or min is above all of them.
      if (!bounds || p.type != CellType::kText || !IsPlainAscii(p.bytes) ||
          range.min.type != range.max.type ||
          (range.min.type != CellType::kText && range.min.type != CellType::kBlob)) {
        return true;
      }
      if (CompareBytes(range.max.bytes, p.bytes) < 0) return false;
      if (!StartsWith(range.min.bytes, p.bytes) && CompareBytes(range.min.bytes, p.bytes) > 0) {
        return false;
      }
      return true;
    }
    case PredicateOp::kIs:
    case PredicateOp::kIsNot: {
      if (!HasLiteral(term)) return true;
      const SqlValue& literal = term.values[0];
      if (literal.type == CellType::kNull) {
        return term.op == PredicateOp::kIs ? MayHaveNull(range) : !AllNull(range);
      }
      // NULL IS NOT literal is true.
      if (term.op == PredicateOp::kIsNot && MayHaveNull(range)) return true;
      return RangeMayCompare(range, bounds, literal, term.op, affinity);
    }
    default: {
      if (!HasLiteral(term)) return true;
      const SqlValue& literal = term.values[0];
      if (literal.type == CellType::kNull) return false;
      return RangeMayCompare(range, bounds, literal, term.op, affinity);
    }
  }
}

// ---- TermMatcher -------------------------------------------------------------------------------

TermMatcher::TermMatcher(PredicateTerm term, Affinity affinity)
    : term_(std::move(term)), affinity_(affinity) {
  switch (term_.op) {
    case PredicateOp::kEq:
    case PredicateOp::kNe:
    case PredicateOp::kLt:
    case PredicateOp::kLe:
    case PredicateOp::kGt:
    case PredicateOp::kGe:
    case PredicateOp::kIn:
      break;
    default:
      return;  // NULL tests, IS, prefix: EvaluateTerm is already cheap
  }
  for (const SqlValue& v : term_.values) {
    if (v.type == CellType::kNull) {
      if (term_.op == PredicateOp::kIn) continue;
      return;  // a comparison with NULL: EvaluateTerm answers at once
    }
    bool exact = true;
    SqlValue c = ApplyAffinity(v, affinity_, &exact);
    if (!exact) return;
    converted_.push_back(std::move(c));
  }
  if (converted_.empty() && term_.op != PredicateOp::kIn) return;
  if (term_.op == PredicateOp::kIn) {
    std::sort(converted_.begin(), converted_.end(), [](const SqlValue& a, const SqlValue& b) {
      return CompareSql(a.AsCell(), b.AsCell()) < 0;
    });
  }
  prepared_ = true;
}

bool TermMatcher::MatchesNatural(const Cell& value) const {
  if (term_.op == PredicateOp::kIn) {
    auto it = std::lower_bound(
        converted_.begin(), converted_.end(), value,
        [](const SqlValue& a, const Cell& v) { return CompareSql(a.AsCell(), v) < 0; });
    return it != converted_.end() && CompareSql(it->AsCell(), value) == 0;
  }
  const int c = CompareSql(value, converted_[0].AsCell());
  switch (term_.op) {
    case PredicateOp::kEq:
      return c == 0;
    case PredicateOp::kNe:
      return c != 0;
    case PredicateOp::kLt:
      return c < 0;
    case PredicateOp::kLe:
      return c <= 0;
    case PredicateOp::kGt:
      return c > 0;
    default:
      return c >= 0;
  }
}

const std::vector<SqlValue>* TermMatcher::NaturalLiterals(CellType natural) const {
  if (!prepared_) return nullptr;
  // The column's affinity must leave a value of class `natural` as it is (as Matches assumes).
  const bool natural_for_affinity = IsNumericAffinity(affinity_)   ? IsNumeric(natural)
                                    : affinity_ == Affinity::kText ? natural == CellType::kText
                                                                   : true;
  if (!natural_for_affinity) return nullptr;
  for (const SqlValue& v : converted_) {
    if (v.type != natural) return nullptr;
  }
  return &converted_;
}

bool TermMatcher::Matches(const Cell& value) const {
  if (prepared_) {
    if (value.type == CellType::kNull) return false;
    // A value of the column's natural type compares with the converted literals as they are.
    const bool natural = IsNumericAffinity(affinity_)   ? IsNumeric(value.type)
                         : affinity_ == Affinity::kText ? value.type == CellType::kText
                                                        : true;
    if (natural) return MatchesNatural(value);
  }
  return ValueSatisfies(value, term_, affinity_);
}

}  // namespace pq
