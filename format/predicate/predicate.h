// Predicate: the WHERE-clause terms a scan can use, in SQLite's value model but with no SQLite
// types. The SQLite layer turns each usable constraint into a PredicateTerm on one top-level field,
// the literal exactly as SQLite handed it over, and the engine answers two questions with SQLite's
// own comparison rules (affinity applied to the literal, then NULL < numbers < TEXT < BLOB): may a
// set of stored values (a row group, a page, a dictionary, a Bloom filter) hold a match (pruning: a
// "no" must be certain, "maybe" is always safe), and does this one value match (rows the engine
// rejects never reach SQLite). Query results must equal SQLite's for the same data in a native
// table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/value/cell.h"

namespace pq {

// One SQL value, owning its bytes (a literal from the query, or a converted statistic).
struct SqlValue {
  CellType type = CellType::kNull;
  int64_t i = 0;      // kInteger
  double d = 0;       // kReal (never NaN)
  std::string bytes;  // kText / kBlob

  static SqlValue Null() { return {}; }
  static SqlValue Integer(int64_t v) { return {CellType::kInteger, v, 0, {}}; }
  static SqlValue Real(double v);  // NaN becomes NULL
  static SqlValue Text(std::string v) { return {CellType::kText, 0, 0, std::move(v)}; }
  static SqlValue Blob(std::string v) { return {CellType::kBlob, 0, 0, std::move(v)}; }
  static SqlValue FromCell(const Cell& c);
  Cell AsCell() const;  // points into this value
};

// The affinity of a column's declared type, as SQLite derives it (only the four the table uses).
// Comparisons follow https://sqlite.org/datatype3.html, "Comparison Expressions": the literal has
// no affinity, so the column's is applied to it: an INTEGER/REAL column turns TEXT that looks like
// a number into that number (' 42 ' is 42, '4.2e1' 42.0, 'abc' stays TEXT); a TEXT column turns an
// INTEGER or REAL into its text ('42', '4.5', '1.0e+20' as SQLite prints reals); BLOB changes
// nothing. Then NULL < numbers (INTEGER and REAL by exact value) < TEXT (memcmp, BINARY collation
// only) < BLOB (memcmp); a comparison with NULL is never true except for IS / IS NOT.
enum class Affinity : uint8_t { kInteger, kReal, kText, kBlob };
Affinity AffinityOfDeclaredType(std::string_view declared_type);

// clang-format off
enum class PredicateOp : uint8_t {
  kEq, kNe, kLt, kLe, kGt, kGe,  // `col OP literal`; false when either side is NULL
  kIs, kIsNot,                   // NULL-aware equality
  kIsNull, kIsNotNull,           // no literal
  kIn,                           // `col IN (values...)`: any equal; NULLs in the list never match
  // A LIKE/GLOB with a literal prefix (the SQLite layer keeps the LIKE for SQLite to check, and
  // hands over a prefix only when the match is case-sensitive or the prefix has no letters): true
  // for values whose text, as LIKE reads them (numbers as SQLite renders them), starts with the
  // bytes. A BLOB, or a prefix with a NUL or a non-ASCII byte (LIKE decodes UTF-8 leniently), is
  // never ruled out.
  kPrefix,                       // TEXT value starting with values[0].bytes
};
// clang-format on

struct PredicateTerm {
  int field = -1;  // index into Schema::fields() (a top-level field)
  PredicateOp op = PredicateOp::kEq;
  // One for comparisons/IS/prefix, the list for kIn, none for NULL tests.
  std::vector<SqlValue> values;
};

struct Predicate {
  std::vector<PredicateTerm> terms;  // all must hold
  bool empty() const { return terms.empty(); }
};

// The literal as SQLite compares it against a column of `affinity` (the rules above).
SqlValue ApplyAffinity(const SqlValue& literal, Affinity affinity);

// SQLite's ordering of two values (BINARY collation): <0, 0, >0. NULL sorts first.
int CompareSql(const Cell& a, const Cell& b);

// Whether `value` (a value the table returns for the term's field) satisfies the term, exactly as
// SQLite would decide `value OP literal` for a column of `affinity`.
bool ValueSatisfies(const Cell& value, const PredicateTerm& term, Affinity affinity);

// What is known about a set of stored values of one field (a row group, a page): bounds in the
// table's value model. `min`/`max` are inclusive bounds of every non-null value (not necessarily
// present); has_bounds is false when they are unknown or cannot be trusted (sort order, NaN rules,
// conversions that do not keep order). Counts of -1 are unknown.
struct ValueRange {
  bool has_bounds = false;
  SqlValue min, max;
  int64_t null_count = -1;  // values the table returns as NULL (Parquet nulls, NaN for floats)
  int64_t num_values = -1;  // all values, NULL included
};

// False only when no value within `range` can satisfy `term` (for a column of `affinity`).
bool RangeMaySatisfy(const ValueRange& range, const PredicateTerm& term, Affinity affinity);

// ---- Additions beyond the first contract (same rules as above) ---------------------------------

// A three-valued answer: kUnsure when SQLite's answer depends on its version (a REAL rendered as
// text, or a long numeric text parsed, near a rounding boundary; see sql_number.h). ValueSatisfies
// is EvaluateTerm(...) != kNo.
enum class Match : uint8_t { kNo, kYes, kUnsure };
Match EvaluateTerm(const Cell& value, const PredicateTerm& term, Affinity affinity);

// ApplyAffinity that also says whether the result is certain (*exact false: the version-dependent
// case above; the value returned is then SQLite 3.40's guess, or the literal unchanged).
SqlValue ApplyAffinity(const SqlValue& literal, Affinity affinity, bool* exact);

// One term prepared for testing many values (late materialization): the literals are converted
// once, IN lists sorted for binary search. Matches(v) == ValueSatisfies(v, term, affinity).
class TermMatcher {
 public:
  TermMatcher(PredicateTerm term, Affinity affinity);
  bool Matches(const Cell& value) const;
  const PredicateTerm& term() const { return term_; }

  // For testing a batch of raw values without building Cells: when the term is a comparison
  // (kEq..kGe) or an IN list whose converted literals all have storage class `natural` (the class
  // every non-NULL value of the column has: kInteger, kReal, kText or kBlob), those literals (IN:
  // sorted, possibly none); otherwise null. A non-NULL value v of that class then satisfies the
  // term exactly when `v OP literal` holds under CompareSql's order (IN: v equals one of them);
  // NULL never does.
  const std::vector<SqlValue>* NaturalLiterals(CellType natural) const;

 private:
  bool MatchesNatural(const Cell& value) const;

  PredicateTerm term_;
  Affinity affinity_;
  // The literals as they compare with a value of the column's natural type (INTEGER/REAL for
  // numeric affinity, TEXT for TEXT affinity, anything for BLOB), NULLs dropped, kIn sorted.
  std::vector<SqlValue> converted_;
  bool prepared_ = false;  // false: every value goes through EvaluateTerm
};

}  // namespace pq
