// The `parquet` table's planner (parquet_vtab.cc is the module, parquet_vtab_int.h what the files share).
//
// Pushdown (docs/pushdown.md). xBestIndex takes the WHERE terms the engine
// can use and xFilter turns them into a pq::Predicate, row positions and a LIMIT/OFFSET:
//   - terms on a top-level, non-nested column (=, <, <=, >, >=, !=, IS, IS NOT, IS NULL,
//     IS NOT NULL, IN, and LIKE/GLOB with a literal prefix on a TEXT column) prune files, row
//     groups and pages (format/predicate/scan_plan.h) and filter rows in the engine. SQLite checks
//     them again (omit=0), so the engine may keep rows that fail, never drop rows that pass. Only
//     BINARY-collated comparisons are taken: the engine compares bytes.
//   - terms on the hidden column of a shredded Variant field (`"v.a"`, shredded_columns.h; the
//     same operators but LIKE/GLOB) prune row groups and pages by the typed_value column where the
//     spec allows (scan_plan.h, LeafTerm), but filter no rows; SQLite checks them (omit=0).
//   - terms on rowid and file_row_number (=, <, <=, >, >=, IS, IN) select row ranges exactly, and
//     SQLite does not check them again (omit=1).
//   - terms on `filename` (=, IS, IN, LIKE/GLOB prefix) skip whole files; SQLite checks them again.
//   - terms on partition columns (every operator above, LIKE/GLOB prefixes whatever the column's
//     type) are evaluated against each file's partition value and skip whole files before anything
//     past the footer is read; SQLite checks them again.
//   - with union_by_name, a term on a column a file does not have is evaluated against NULL (the
//     value every row of that file has there): when NULL fails it, the file is skipped. A term on a
//     column the file stores as INTEGER while the table widened it to REAL is not used in that
//     file (its values are converted to REAL on the way out; SQLite checks the term).
//   - LIMIT sizes the first batches (a hint). OFFSET is consumed (the engine skips the rows without
//     decoding them, omit=1) only when every other term is consumed exactly and nothing reorders
//     the rows; otherwise it is left to SQLite.
// Values compare as SQLite compares them with the column's affinity (predicate.h), so a query on
// this table returns what it returns on a native table holding the same values.
//
// Ordering. Rows come out in rowid order, so `ORDER BY rowid` is consumed. An ORDER BY on one
// top-level, non-nested column of the files (ASC or DESC, optionally followed by rowid ASC), which
// is also how SQLite hands over `GROUP BY col` and `DISTINCT col ORDER BY col`, is consumed by a
// sorted scan when the rows are estimated to fit sort_memory (EstimateSortBytes) and no small
// LIMIT makes SQLite's own sorter the cheaper one: xFilter runs the whole scan (every pushed-down
// term still prunes and filters) into SortedRows (sorted_scan.h), which orders the rows by the
// column as SQLite would (BINARY: the only collation SQLite offers an ORDER BY under here, since
// the columns declare none), and the cursor hands them out in that order. LIMIT and OFFSET are then
// left to SQLite. The held rows are charged to max_memory; more than twice sort_memory is an error.
#include "ext/parquet_vtab.h"

#include <sys/stat.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "ext/parquet_vtab_int.h"
#include "format/predicate/sql_number.h"

namespace pq::ext::parquet_vtab {

// The positions p in [0, end) for which `p OP literal` holds, as SQLite compares an INTEGER column
// with a value: numeric affinity is applied to the literal first ('5' and 5.0 are 5); a number that
// is not integral falls between positions; TEXT and BLOB sort after every number; NULL matches
// nothing. `op` is one of =, IS, <, <=, >, >=.
RowRanges PositionsSatisfying(TermOp op, sqlite3_value* literal, int64_t end) {
  const NumericValue v = NumericAffinityOf(literal);
  auto span = [end](int64_t b, int64_t e) { return RowRanges::Of(std::max<int64_t>(b, 0), std::min(e, end)); };
  switch (v.type) {
    case SQLITE_NULL:
      return {};
    case SQLITE_INTEGER: {
      // Clamping to [-1, end] keeps every comparison's outcome over [0, end) and rules out overflow.
      int64_t i = std::clamp<int64_t>(v.i, -1, end);
      switch (op) {
        case TermOp::kEq:
        case TermOp::kIs: return span(i, i + 1);
        case TermOp::kLt: return span(0, i);
        case TermOp::kLe: return span(0, i + 1);
        case TermOp::kGt: return span(i + 1, end);
        default: return span(i, end);  // kGe
      }
    }
    case SQLITE_FLOAT: {
      // Same clamping; end is far below 2^53, so the bounds are exact doubles.
      double d = std::clamp(v.d, -2.0, static_cast<double>(end) + 2);
      auto floor = static_cast<int64_t>(std::floor(d));
      auto ceil = static_cast<int64_t>(std::ceil(d));
      switch (op) {
        case TermOp::kEq:
        case TermOp::kIs: return floor == ceil ? span(floor, floor + 1) : RowRanges();
        case TermOp::kLt: return span(0, ceil);
        case TermOp::kLe: return span(0, floor + 1);
        case TermOp::kGt: return span(floor + 1, end);
        default: return span(ceil, end);  // kGe
      }
    }
    default:  // TEXT or BLOB: greater than any number
      return op == TermOp::kLt || op == TermOp::kLe ? span(0, end) : RowRanges();
  }
}

// A literal from SQLite as an engine value, in the storage class SQLite gives.
SqlValue ToSqlValue(sqlite3_value* v) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER: return SqlValue::Integer(sqlite3_value_int64(v));
    case SQLITE_FLOAT: return SqlValue::Real(sqlite3_value_double(v));
    case SQLITE_TEXT: {
      const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      return SqlValue::Text(std::string(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v))));
    }
    case SQLITE_BLOB: {
      const auto* p = static_cast<const char*>(sqlite3_value_blob(v));
      return SqlValue::Blob(std::string(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v))));
    }
    default: return SqlValue::Null();
  }
}

// The bytes every value matching a LIKE or GLOB `pattern` starts with, when they can be compared
// byte for byte. GLOB is case-sensitive: its prefix runs to the first `*`, `?` or `[`. LIKE folds
// the case of ASCII letters (and an application may install a LIKE that folds more, such as ICU's),
// so its prefix runs to the first `%` or `_` and stops before the first letter. Both stop before
// the first non-ASCII byte: SQLite matches characters it decodes from the value, and decodes bytes
// that are not valid UTF-8 to U+FFFD (or to a code point of their own), so a non-ASCII pattern
// character may match bytes other than its own. Both functions see the pattern only up to a NUL.
// Empty when nothing is certain.
std::string PatternPrefix(TermOp op, std::string_view pattern) {
  size_t n = 0;
  for (; n < pattern.size(); ++n) {
    auto ch = static_cast<unsigned char>(pattern[n]);
    if (ch == 0 || ch >= 0x80) break;
    if (op == TermOp::kGlob) {
      if (ch == '*' || ch == '?' || ch == '[') break;
    } else if (ch == '%' || ch == '_' || std::isalpha(ch)) {
      break;
    }
  }
  return std::string(pattern.substr(0, n));
}

PredicateOp ToPredicateOp(TermOp op) {
  switch (op) {
    case TermOp::kEq: return PredicateOp::kEq;
    case TermOp::kNe: return PredicateOp::kNe;
    case TermOp::kLt: return PredicateOp::kLt;
    case TermOp::kLe: return PredicateOp::kLe;
    case TermOp::kGt: return PredicateOp::kGt;
    case TermOp::kGe: return PredicateOp::kGe;
    case TermOp::kIs: return PredicateOp::kIs;
    case TermOp::kIsNot: return PredicateOp::kIsNot;
    case TermOp::kIsNull: return PredicateOp::kIsNull;
    case TermOp::kIsNotNull: return PredicateOp::kIsNotNull;
    case TermOp::kIn: return PredicateOp::kIn;
    default: return PredicateOp::kPrefix;  // kLike, kGlob
  }
}

namespace {

struct TermCode {
  TermOp op;
  std::string_view name;
  bool has_column;
};

constexpr TermCode kTermCodes[] = {
    {TermOp::kEq, "eq", true},         {TermOp::kNe, "ne", true},
    {TermOp::kLt, "lt", true},         {TermOp::kLe, "le", true},
    {TermOp::kGt, "gt", true},         {TermOp::kGe, "ge", true},
    {TermOp::kIs, "is", true},         {TermOp::kIsNot, "isnot", true},
    {TermOp::kIsNull, "null", true},   {TermOp::kIsNotNull, "notnull", true},
    {TermOp::kIn, "in", true},         {TermOp::kLike, "like", true},
    {TermOp::kGlob, "glob", true},     {TermOp::kLimit, "limit", false},
    {TermOp::kOffset, "offset", false}, {TermOp::kTake, "take", false},
    {TermOp::kSkip, "skip", false},
};

const TermCode& CodeOf(TermOp op) {
  for (const TermCode& c : kTermCodes) {
    if (c.op == op) return c;
  }
  return kTermCodes[0];
}

}  // namespace

std::string EncodeIndexPlan(const IndexPlan& plan) {
  char hex[24];
  std::snprintf(hex, sizeof(hex), "%llx", static_cast<unsigned long long>(plan.col_used));
  std::string out = hex;
  if (plan.sort_column >= 0) out += (plan.sort_descending ? ":d" : ":a") + std::to_string(plan.sort_column);
  for (const FilterTerm& t : plan.terms) {
    const TermCode& code = CodeOf(t.op);
    out += ',';
    out += code.name;
    if (code.has_column) out += std::to_string(t.column);
  }
  return out;
}

std::optional<IndexPlan> DecodeIndexPlan(std::string_view s) {
  IndexPlan plan;
  size_t comma = s.find(',');
  std::string_view head = s.substr(0, comma);
  const size_t colon = head.find(':');
  std::string hex(head.substr(0, colon));
  char* end = nullptr;
  plan.col_used = std::strtoull(hex.c_str(), &end, 16);
  if (hex.empty() || *end != '\0') return std::nullopt;
  if (colon != std::string_view::npos) {
    std::string_view sort = head.substr(colon + 1);
    if (sort.size() < 2 || (sort[0] != 'a' && sort[0] != 'd')) return std::nullopt;
    plan.sort_descending = sort[0] == 'd';
    std::string digits(sort.substr(1));
    plan.sort_column = static_cast<int>(std::strtol(digits.c_str(), &end, 10));
    if (*end != '\0' || plan.sort_column < 0) return std::nullopt;
  }
  while (comma != std::string_view::npos) {
    size_t start = comma + 1;
    comma = s.find(',', start);
    std::string_view item = s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    size_t letters = 0;
    while (letters < item.size() && std::islower(static_cast<unsigned char>(item[letters]))) ++letters;
    const TermCode* code = nullptr;
    for (const TermCode& c : kTermCodes) {
      if (c.name == item.substr(0, letters)) code = &c;
    }
    if (code == nullptr) return std::nullopt;
    FilterTerm term;
    term.op = code->op;
    std::string digits(item.substr(letters));
    if (code->has_column) {
      term.column = static_cast<int>(std::strtol(digits.c_str(), &end, 10));
      if (digits.empty() || *end != '\0') return std::nullopt;
    } else if (!digits.empty()) {
      return std::nullopt;
    }
    plan.terms.push_back(term);
  }
  return plan;
}

namespace {

// How xBestIndex uses one usable constraint: its idxStr term, whether the engine applies it exactly
// (so SQLite may omit its own check), and what it is expected to leave.
struct PushedTerm {
  FilterTerm term;
  bool exact = false;
  bool unique = false;  // at most one row passes (rowid = value)
  bool constant = false;  // the right operand is a constant of the statement (known when planning)
  double selectivity = 1;  // fraction of rows that pass
  // Fraction of rows still decoded: rowid, file_row_number and filename terms select exactly what
  // passes; a value term prunes (statistics, dictionary, Bloom filter, page index) only as far as
  // the data is clustered, so less than it selects.
  double scanned = 1;
  bool on_value = false;  // a term on a field (not rowid, file_row_number or filename)
};

bool IsBinaryCollation(sqlite3_index_info* info, int i) {
  const char* coll = sqlite3_vtab_collation(info, i);
  return coll == nullptr || sqlite3_stricmp(coll, "BINARY") == 0;
}

// The fraction of the rows in files whose partition value may satisfy `col OP rhs` (rhs is ignored
// for IS NULL / IS NOT NULL), for the planner.
double PartitionSelectivity(const ParquetTable& t, int col, TermOp op, sqlite3_value* rhs) {
  PredicateTerm term;
  term.op = ToPredicateOp(op);
  if (op == TermOp::kLike || op == TermOp::kGlob) {
    if (sqlite3_value_type(rhs) != SQLITE_TEXT) return 0.5;
    std::string prefix = PatternPrefix(op, ToSqlValue(rhs).bytes);
    if (prefix.empty()) return 0.5;
    term.values.push_back(SqlValue::Text(std::move(prefix)));
  } else if (op != TermOp::kIsNull && op != TermOp::kIsNotNull) {
    term.values.push_back(ToSqlValue(rhs));
  }
  const size_t k = static_cast<size_t>(col - t.first_partition_column);
  const Affinity affinity = t.partitions[k].affinity;
  const DatasetSnapshot& d = *t.data;
  int64_t rows = 0;
  for (size_t i = 0; i < d.files.size(); ++i) {
    if (EvaluateTerm(t.partition_values[i][k].AsCell(), term, affinity) != Match::kNo) rows += d.files[i].rows;
  }
  return std::max<double>(1, static_cast<double>(rows)) / std::max<double>(1, static_cast<double>(d.total_rows));
}

// Whether `col >= 'abc'` or `col < 'abd'` may be a bound SQLite's LIKE optimization made from a GLOB
// or a case-sensitive LIKE on the column: for `col GLOB 'abc*'` it also offers `col >= 'abc'` and
// `col < 'abd'`, terms it never checks itself, which select the pattern's rows only when every value
// is TEXT. It makes them for a prefix that is no number, but a REAL's text may start with one ('Inf'
// for 'I*', '1.0e+300' for '1.0e*'). So on a column whose values may be other than TEXT such a term
// is not used when the column has a LIKE or GLOB term, or the term has its partner bound (a LIKE with
// ESCAPE is no LIKE term to the table); SQLite checks it then.
bool MayBeLikeBound(const ParquetTable& t, sqlite3_index_info* info, int i) {
  const auto& con = info->aConstraint[i];
  const int col = con.iColumn;
  if (con.op != SQLITE_INDEX_CONSTRAINT_GE && con.op != SQLITE_INDEX_CONSTRAINT_LT) return false;
  if ((col >= 0 && col < t.num_fields && t.columns[static_cast<size_t>(col)].affinity == Affinity::kText) ||
      (t.IsPartitionColumn(col) && t.Partition(col).affinity == Affinity::kText)) {
    return false;
  }
  // The bound's text: the prefix for >=, the prefix with its last byte one higher for <. SQLite
  // makes no bounds from a prefix that reads as a number ('12', '1.'), nor from one whose successor
  // does, so `i >= '5' AND i < '6'` prunes.
  auto text_of = [info](int k) -> std::optional<std::string> {
    sqlite3_value* v = nullptr;
    const bool text = sqlite3_vtab_rhs_value(info, k, &v) == SQLITE_OK && v != nullptr &&
                      sqlite3_value_type(v) == SQLITE_TEXT && sqlite3_value_bytes(v) > 0;
    if (!text) return std::nullopt;
    std::string bytes = ToSqlValue(v).bytes;
    if (ParseSqlNumber(bytes).kind != SqlNumberKind::kNotNumeric) return std::nullopt;
    return bytes;
  };
  const std::optional<std::string> bound = text_of(i);
  if (!bound) return false;
  const bool ge = con.op == SQLITE_INDEX_CONSTRAINT_GE;
  for (int k = 0; k < info->nConstraint; ++k) {
    const auto& other = info->aConstraint[k];
    if (other.iColumn != col) continue;
    if (other.op == SQLITE_INDEX_CONSTRAINT_LIKE || other.op == SQLITE_INDEX_CONSTRAINT_GLOB) return true;
    if (other.op != (ge ? SQLITE_INDEX_CONSTRAINT_LT : SQLITE_INDEX_CONSTRAINT_GE)) continue;
    const std::optional<std::string> other_bound = text_of(k);
    if (!other_bound) continue;
    const std::string& lower = ge ? *bound : *other_bound;
    const std::string& upper = ge ? *other_bound : *bound;
    const size_t n = lower.size() - 1;
    if (upper.size() == lower.size() && lower.compare(0, n, upper, 0, n) == 0 && lower[n] != '\xff' &&
        static_cast<char>(lower[n] + 1) == upper[n]) {
      return true;
    }
  }
  return false;
}

std::optional<PushedTerm> PushConstraint(const ParquetTable& t, sqlite3_index_info* info, int i) {
  const auto& con = info->aConstraint[i];
  const int col = con.iColumn;
  const bool position = col == -1 || col == t.file_row_number_column;
  const bool filename = col == t.filename_column;
  const bool partition = t.IsPartitionColumn(col);
  // A shredded Variant field prunes like a column (its pattern terms stay with SQLite: its values
  // are not all TEXT).
  const bool shredded = t.IsShreddedColumn(col);
  const bool field = (col >= 0 && col < t.num_fields && t.columns[static_cast<size_t>(col)].flat) || shredded;
  // Nested (JSON) columns stay with SQLite.
  if (!position && !filename && !partition && !field) return std::nullopt;
  if ((partition || field) && MayBeLikeBound(t, info, i)) return std::nullopt;

  PushedTerm p;
  p.term.column = col;
  bool in_list = false;
  switch (con.op) {
    case SQLITE_INDEX_CONSTRAINT_EQ:
      in_list = sqlite3_vtab_in(info, i, -1) != 0;
      p.term.op = in_list ? TermOp::kIn : TermOp::kEq;
      break;
    case SQLITE_INDEX_CONSTRAINT_LT: p.term.op = TermOp::kLt; break;
    case SQLITE_INDEX_CONSTRAINT_LE: p.term.op = TermOp::kLe; break;
    case SQLITE_INDEX_CONSTRAINT_GT: p.term.op = TermOp::kGt; break;
    case SQLITE_INDEX_CONSTRAINT_GE: p.term.op = TermOp::kGe; break;
    case SQLITE_INDEX_CONSTRAINT_NE: p.term.op = TermOp::kNe; break;
    case SQLITE_INDEX_CONSTRAINT_IS: p.term.op = TermOp::kIs; break;
    case SQLITE_INDEX_CONSTRAINT_ISNOT: p.term.op = TermOp::kIsNot; break;
    case SQLITE_INDEX_CONSTRAINT_ISNULL: p.term.op = TermOp::kIsNull; break;
    case SQLITE_INDEX_CONSTRAINT_ISNOTNULL: p.term.op = TermOp::kIsNotNull; break;
    case SQLITE_INDEX_CONSTRAINT_LIKE: p.term.op = TermOp::kLike; break;
    case SQLITE_INDEX_CONSTRAINT_GLOB: p.term.op = TermOp::kGlob; break;
    default: return std::nullopt;
  }
  const TermOp op = p.term.op;
  const bool pattern = op == TermOp::kLike || op == TermOp::kGlob;
  const DatasetSnapshot& d = *t.data;
  const double n = std::max<double>(1, static_cast<double>(d.total_rows));
  const double files = static_cast<double>(d.files.size());

  if (position) {
    // Integers compare the same under every collation; numbers sort before any TEXT literal.
    if (op != TermOp::kEq && op != TermOp::kIs && op != TermOp::kIn && op != TermOp::kLt &&
        op != TermOp::kLe && op != TermOp::kGt && op != TermOp::kGe) {
      return std::nullopt;
    }
    p.exact = true;
    const bool rowid = col == -1;
    const double per_value = rowid ? 1 : files;  // a file_row_number exists once per file
    sqlite3_value* rhs = nullptr;
    if (op == TermOp::kIn) {
      p.selectivity = std::min(1.0, 10 * per_value / n);
    } else if (sqlite3_vtab_rhs_value(info, i, &rhs) == SQLITE_OK && rhs != nullptr) {
      int64_t domain = rowid ? d.total_rows : d.max_file_rows;
      double rows = static_cast<double>(PositionsSatisfying(op, rhs, domain).row_count()) * per_value;
      p.selectivity = std::min(1.0, std::max(rows, 1.0) / n);
    } else {
      p.selectivity = op == TermOp::kEq || op == TermOp::kIs ? std::min(1.0, per_value / n) : 0.05;
    }
    p.unique = rowid && (op == TermOp::kEq || op == TermOp::kIs);
  } else if (filename) {
    if (op == TermOp::kEq || op == TermOp::kIs || op == TermOp::kIn) {
      if (!IsBinaryCollation(info, i)) return std::nullopt;
      p.selectivity = std::min(1.0, (op == TermOp::kIn ? 3 : 1) / std::max(files, 1.0));
    } else if (pattern) {
      p.selectivity = 0.5;
    } else {
      return std::nullopt;
    }
  } else if (partition) {
    // Each file's one value is tested exactly as SQLite would (LIKE/GLOB prefixes included, which
    // read numbers as their text), so any affinity will do; comparisons only under BINARY.
    if (!pattern && op != TermOp::kIsNull && op != TermOp::kIsNotNull && !IsBinaryCollation(info, i)) {
      return std::nullopt;
    }
    sqlite3_value* rhs = nullptr;
    const bool known = op == TermOp::kIsNull || op == TermOp::kIsNotNull ||
                       (op != TermOp::kIn && sqlite3_vtab_rhs_value(info, i, &rhs) == SQLITE_OK && rhs != nullptr);
    if (known) {
      p.selectivity = PartitionSelectivity(t, col, op, rhs);
    } else {
      p.selectivity = op == TermOp::kEq || op == TermOp::kIs ? 0.1 : op == TermOp::kIn ? 0.2 : 0.5;
    }
  } else {
    if (pattern) {
      // LIKE and GLOB read any value as text (123 LIKE '12%'): a prefix test is right only when
      // every value of the column is TEXT.
      if (shredded || t.columns[static_cast<size_t>(col)].affinity != Affinity::kText) return std::nullopt;
    } else if (op != TermOp::kIsNull && op != TermOp::kIsNotNull && !IsBinaryCollation(info, i)) {
      return std::nullopt;  // the engine compares bytes: `x = 'a' COLLATE NOCASE` stays with SQLite
    }
    switch (op) {
      case TermOp::kEq:
      case TermOp::kIs: p.selectivity = 0.1, p.scanned = 0.25; break;
      case TermOp::kIn: p.selectivity = 0.2, p.scanned = 0.25; break;
      case TermOp::kIsNull: p.selectivity = 0.1, p.scanned = 0.5; break;
      case TermOp::kNe:
      case TermOp::kIsNot:
      case TermOp::kIsNotNull: p.selectivity = 0.9; break;
      case TermOp::kLike:
      case TermOp::kGlob: p.selectivity = 0.25, p.scanned = 0.5; break;
      default: p.selectivity = 0.5, p.scanned = 0.5; break;  // a range bound
    }
  }
  p.on_value = field;
  if (!p.on_value) p.scanned = p.selectivity;
  if (in_list) sqlite3_vtab_in(info, i, 1);  // the whole list in one xFilter call
  sqlite3_value* rhs = nullptr;
  p.constant = !in_list && sqlite3_vtab_rhs_value(info, i, &rhs) == SQLITE_OK && rhs != nullptr;
  return p;
}

// Whether table column `col` is used: bit 63 of colUsed stands for every column from 63 on.
bool ColumnUsed(uint64_t col_used, int col) { return ((col_used >> std::min(col, 63)) & 1) != 0; }

// What SortedRows is expected to hold for a sorted scan by `key` decoding the used columns of
// every row (the filters are not counted: an upper bound of sorts), from the files' metadata. Per
// row: its place in the order and the key's id; per used column but the key, an 8-byte word and a
// tag byte; for TEXT and BLOB columns their bytes: the column chunks' unencoded byte array size,
// or their uncompressed size, or a guess from the statistics' bounds, whichever is largest (a
// dictionary-encoded chunk is much smaller than its values). The key's distinct values are held
// once: in a dictionary-encoded chunk no more than its size; in another one they may be as many
// as its rows, each with a hash slot and an entry besides its bytes (kBytesPerDistinctKey), and
// every row's key id grows from one byte to four once there are more than 256.
constexpr double kBytesPerDistinctKey = 64;  // value word, hash, slots at half load, ids; doubling

double EstimateSortBytes(const ParquetTable& t, uint64_t col_used, int key) {
  const DatasetSnapshot& d = *t.data;
  double bytes = static_cast<double>(d.total_rows) * 8;
  // The distinct keys of a chunk of `rows` rows: no more than its rows, nor, dictionary-encoded,
  // than entries of 4 bytes or more its unencoded size holds.
  auto distinct_keys = [](const ColumnMetaData& meta, int64_t rows, bool dictionary) {
    const double n = static_cast<double>(rows);
    return dictionary ? std::min(n, static_cast<double>(meta.total_uncompressed_size) / 4) : n;
  };
  auto is_dictionary = [](const ColumnMetaData& meta) {
    return std::any_of(meta.encodings.begin(), meta.encodings.end(), [](Encoding e) {
      return e == Encoding::kRleDictionary || e == Encoding::kPlainDictionary;
    });
  };
  for (int col = 0; col < t.num_fields; ++col) {
    if (!ColumnUsed(col_used, col) && col != key) continue;
    const DatasetColumn& column = t.columns[static_cast<size_t>(col)];
    const bool text = column.affinity == Affinity::kText || column.affinity == Affinity::kBlob;
    for (const DatasetFile& file : d.files) {
      const auto rows = static_cast<double>(file.rows);
      if (col != key) bytes += rows * 9;
      const int field = file.columns.field_of_column[static_cast<size_t>(col)];
      if (field < 0 || (!text && col != key)) continue;
      const Schema& schema = file.reader->schema();
      const auto [first_leaf, leaves] = schema.LeafRange(*schema.fields()[static_cast<size_t>(field)]);
      if (!text) {  // a key of numbers: its distinct values and the rows' wide ids
        for (const RowGroup& rg : file.reader->metadata().row_groups) {
          if (static_cast<size_t>(first_leaf) >= rg.columns.size() || !rg.columns[static_cast<size_t>(first_leaf)].meta_data) {
            bytes += static_cast<double>(rg.num_rows) * (4 + kBytesPerDistinctKey);
            continue;
          }
          const ColumnMetaData& meta = *rg.columns[static_cast<size_t>(first_leaf)].meta_data;
          bytes += static_cast<double>(rg.num_rows) * 4 +
                   distinct_keys(meta, rg.num_rows, is_dictionary(meta)) * kBytesPerDistinctKey;
        }
        continue;
      }
      double payload = 0;
      for (const RowGroup& rg : file.reader->metadata().row_groups) {
        for (int leaf = first_leaf; leaf < first_leaf + leaves && static_cast<size_t>(leaf) < rg.columns.size(); ++leaf) {
          const std::optional<ColumnMetaData>& meta = rg.columns[static_cast<size_t>(leaf)].meta_data;
          if (!meta) continue;
          const bool dictionary = is_dictionary(*meta);
          double chunk = static_cast<double>(meta->total_uncompressed_size);
          if (col == key && dictionary && column.flat) {
            payload += chunk;  // the key's distinct values: no more than the dictionary holds
            continue;
          }
          if (meta->size_statistics && meta->size_statistics->unencoded_byte_array_data_bytes) {
            chunk = std::max(chunk, static_cast<double>(*meta->size_statistics->unencoded_byte_array_data_bytes));
          }
          if (meta->statistics && meta->statistics->min_value && meta->statistics->max_value) {
            const double mean = static_cast<double>(meta->statistics->min_value->size() +
                                                    meta->statistics->max_value->size()) / 2;
            chunk = std::max(chunk, mean * static_cast<double>(rg.num_rows));
          }
          // Numbers shown as TEXT (dates, timestamps, decimals): a few dozen bytes each; nested
          // values as JSON: about twice their stored size.
          if (meta->type != PhysicalType::kByteArray && meta->type != PhysicalType::kFixedLenByteArray) {
            chunk = std::max(chunk, 32.0 * static_cast<double>(rg.num_rows));
          }
          if (!column.flat) chunk *= 2;
          payload += chunk;
          if (col == key) bytes += static_cast<double>(rg.num_rows) * (4 + kBytesPerDistinctKey);  // maybe as many keys as rows
        }
      }
      bytes += payload;
    }
  }
  return bytes;
}

// The column whose order a sorted scan (SortedRows) gives the query: the ORDER BY (GROUP BY and
// DISTINCT show up here as an ORDER BY too) is one top-level column of the files' fields, not
// nested, optionally followed by rowid ascending (the sort keeps scan order, which is rowid order,
// among equal keys). SQLite offers an ORDER BY only when its collation is the column's, and the
// table declares no collation: BINARY, which SortedRows compares by. -1 when the ORDER BY is not
// such a column, the estimated memory passes the table's sort_memory, or a LIMIT makes SQLite's
// own sorter cheaper (it keeps only LIMIT + OFFSET rows; the sort here holds all of them), or the
// order would not be used (DISTINCT alone).
int SortColumnFor(const ParquetTable& t, sqlite3_index_info* info, int limit, int offset) {
  if (t.config.sort_memory <= 0 || info->nOrderBy < 1 || info->nOrderBy > 2) return -1;
  // A DISTINCT without ORDER BY: SQLite keeps its own b-tree for it whatever the order.
  if (sqlite3_vtab_distinct(info) == 2) return -1;
  const int col = info->aOrderBy[0].iColumn;
  if (col < 0 || col >= t.num_fields || !t.columns[static_cast<size_t>(col)].flat) return -1;
  if (info->nOrderBy == 2 && (info->aOrderBy[1].iColumn != -1 || info->aOrderBy[1].desc)) return -1;
  // An ORDER BY on the only column the query reads, without GROUP BY or DISTINCT, is how SQLite
  // asks for min(col) or max(col): it stops at the first row, so ordering every row first would
  // cost far more than the plain scan it falls back to. (A bare `SELECT col ... ORDER BY col` then
  // uses SQLite's sorter.)
  const sqlite3_uint64 only_col = col < 63 ? sqlite3_uint64{1} << col : sqlite3_uint64{1} << 63;
  if (info->nOrderBy == 1 && sqlite3_vtab_distinct(info) == 0 && info->colUsed == only_col) return -1;
  const double total = static_cast<double>(t.data->total_rows);
  if (limit >= 0) {
    sqlite3_value* v = nullptr;
    double wanted = total;  // a LIMIT known only when the statement runs: any size
    if (sqlite3_vtab_rhs_value(info, limit, &v) == SQLITE_OK && v != nullptr) {
      const sqlite3_int64 n = sqlite3_value_int64(v);
      wanted = n < 0 ? total : static_cast<double>(n);  // a negative LIMIT is none
      v = nullptr;
      if (offset >= 0 && sqlite3_vtab_rhs_value(info, offset, &v) == SQLITE_OK && v != nullptr) {
        wanted += static_cast<double>(std::max<sqlite3_int64>(0, sqlite3_value_int64(v)));
      }
    }
    if (wanted * 16 < total) return -1;
  }
  if (EstimateSortBytes(t, info->colUsed, col) > static_cast<double>(t.config.sort_memory)) return -1;
  return col;
}

}  // namespace

// xBestIndex. Bit k of idxNum (k < 31) is set when argv[k] is a constant of the statement (a literal:
// sqlite3_vtab_rhs_value knew it when planning; see TextTermFor). idxStr tells xFilter what to decode
// and what each argv[k] is:
//
//   idxStr = COLUSED [ ":" ("a" | "d") K ] { "," OP [C] }
//
// COLUSED is sqlite3_index_info.colUsed in hexadecimal: the columns to decode (bit 63 stands for
// column 63 and later). ":aK" / ":dK" asks for a sorted scan: rows ordered by column K ascending /
// descending (the ORDER BY is consumed; never with take/skip). Then one OP per xFilter argument, in argv order. C is a column number:
// 0..N-1 the columns from the files' fields, then the P partition columns (hive_partitioning),
// N+P `filename`, N+P+1 `file_row_number`, then the hidden columns of shredded Variant fields,
// -1 rowid. "Positions" are rowid and file_row_number.
//
//   OP       | argv[k]                   | meaning                                 | omit
//   ---------+---------------------------+-----------------------------------------+-----------------
//   eq  C    | literal                   | C = literal                             | 1 on positions
//   ne  C    | literal                   | C != literal                            | 0
//   lt le gt ge C | literal              | C < / <= / > / >= literal               | 1 on positions
//   is  C    | literal                   | C IS literal                            | 1 on positions
//   isnot C  | literal                   | C IS NOT literal                        | 0
//   null C   | (NULL, ignored)           | C IS NULL                               | 0
//   notnull C| (NULL, ignored)           | C IS NOT NULL                           | 0
//   in  C    | IN list handle            | C IN (...), whole list (sqlite3_vtab_in)| 1 on positions
//   like C   | pattern                   | C LIKE pattern: its literal prefix      | 0
//   glob C   | pattern                   | C GLOB pattern: its literal prefix      | 0
//   limit    | LIMIT                     | SQLite's LIMIT; sizes batches           | 0
//   offset   | OFFSET                    | SQLite's OFFSET; sizes batches          | 0
//   take     | LIMIT                     | the engine stops after LIMIT rows       | 0 (SQLite
//            |                           |                                         | counts anyway)
//   skip     | OFFSET                    | the engine skips OFFSET rows undecoded  | 1
//
// Example: "3,eq0,lt-1,limit": decode columns 0 and 1; argv[0] is the literal of `col0 = ?`,
// argv[1] that of `rowid < ?`, argv[2] the LIMIT. "take"/"skip" replace "limit"/"offset" only when
// every other constraint is a position term the engine applies exactly (there is nothing left for
// SQLite to check, so the engine's rows are the query's rows) and the rows come out in the order
// the query wants; otherwise skipping rows here would drop rows before SQLite filters or sorts.
int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  if (IsWriteTable(vtab)) return W().xBestIndex(vtab, info);
  return Guarded(vtab, [&]() -> int {
    auto* table = reinterpret_cast<ParquetTable*>(vtab);
    IndexPlan plan;
    plan.col_used = info->colUsed;
    info->idxNum = 0;
    int argc = 0;
    int limit = -1, offset = -1;
    // Whether everything SQLite would check is applied exactly here. SQLite gives the IN flag only
    // for the first 32 constraints; beyond that an IN could be one xFilter call per value.
    bool all_exact = info->nConstraint <= 32;
    double selectivity = 1, exact_scanned = 1, value_scanned = 1;
    bool unique = false;
    for (int i = 0; i < info->nConstraint; ++i) {
      const auto& con = info->aConstraint[i];
      if (con.op == SQLITE_INDEX_CONSTRAINT_LIMIT || con.op == SQLITE_INDEX_CONSTRAINT_OFFSET) {
        if (con.usable) (con.op == SQLITE_INDEX_CONSTRAINT_LIMIT ? limit : offset) = i;
        continue;
      }
      std::optional<PushedTerm> pushed;
      if (con.usable) pushed = PushConstraint(*table, info, i);
      if (!pushed) {
        all_exact = false;
        continue;
      }
      info->aConstraintUsage[i].argvIndex = ++argc;
      info->aConstraintUsage[i].omit = pushed->exact;
      if (pushed->constant && argc <= 31) info->idxNum |= 1 << (argc - 1);
      all_exact = all_exact && pushed->exact;
      selectivity *= pushed->selectivity;
      // Selections by row position and file multiply; pruning by several value terms is counted
      // once, by the strongest: the data may not be clustered on the others.
      if (pushed->on_value) {
        value_scanned = std::min(value_scanned, pushed->scanned);
      } else {
        exact_scanned *= pushed->scanned;
      }
      unique = unique || pushed->unique;
      plan.terms.push_back(pushed->term);
    }
    // Rows come out in rowid order; or, by a sorted scan, in the order of one column.
    const bool rowid_order = info->nOrderBy == 1 && info->aOrderBy[0].iColumn == -1 && !info->aOrderBy[0].desc;
    if (rowid_order) {
      info->orderByConsumed = 1;
    } else if ((plan.sort_column = SortColumnFor(*table, info, limit, offset)) >= 0) {
      plan.sort_descending = info->aOrderBy[0].desc != 0;
      info->orderByConsumed = 1;
    }
    // LIMIT and OFFSET apply to rows in scan order: never to a sorted scan's rows.
    const bool exact = all_exact && (info->nOrderBy == 0 || rowid_order) && table->limit_offset_exact;
    if (limit >= 0) {
      info->aConstraintUsage[limit].argvIndex = ++argc;
      plan.terms.push_back({exact ? TermOp::kTake : TermOp::kLimit, 0});
    }
    if (offset >= 0 && limit >= 0) {
      info->aConstraintUsage[offset].argvIndex = ++argc;
      info->aConstraintUsage[offset].omit = exact;
      plan.terms.push_back({exact ? TermOp::kSkip : TermOp::kOffset, 0});
    }

    int used = 0;
    for (int i = 0; i < 64; ++i) used += (info->colUsed >> i) & 1;
    const double total = static_cast<double>(table->data->total_rows);
    const double rows = std::max(1.0, total * selectivity);
    const double scanned = total * exact_scanned * value_scanned;
    info->idxStr = SqliteStrdup(EncodeIndexPlan(plan));
    if (info->idxStr == nullptr) return SQLITE_NOMEM;
    info->needToFreeIdxStr = 1;
    info->estimatedRows = static_cast<sqlite3_int64>(rows);
    // Cost grows with the rows whose filter columns are decoded and the rows returned in full: a
    // rowid lookup is cheapest, then equality on a column, then a range, then a full scan. Every
    // scan (each xFilter, so each lookup of a nested-loop join) also pays for at least one page per
    // column and its dictionary, about a thousand values each; and a lookup by value still decodes
    // a good part of the column. Joins then scan this table once on the outside rather than probe
    // it once per outer row, unless the probe is by rowid.
    info->estimatedCost = 1000.0 * (1 + used) + scanned + rows * used;
    if (plan.sort_column >= 0) info->estimatedCost += rows;  // holding the rows and ordering them
    if (unique) info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    return SQLITE_OK;
  });
}

}  // namespace pq::ext::parquet_vtab
