// The differential test (issue "Results never change"): a query on the `parquet` table must return
// exactly what the same query returns on a native SQLite table that holds the same values under
// the same declared column types (docs/pushdown.md). Pushdown may change
// speed, never results; this test is the guard.
//
// Setup, from a fixed seed: rows covering every column type the table maps (INTEGER with 64-bit
// extremes, REAL with -0.0, +-inf and NaN, TEXT with empty and numeric-looking strings, BLOB,
// BOOLEAN, DATE, TIMESTAMP, DECIMAL, and NULLs), clustered in some files so that statistics and
// the page index can actually prune. They are written as several Parquet files: three by SQL
// `parquet_export` (small row groups and pages, dictionary on and off, data page v1 and v2) and
// one by the engine's FileWriter, which alone can store NaN (SQLite has no NaN: the table reads
// NaN as NULL, and the native table holds NULL). One `parquet` table reads all four files; the
// native table `nat` gets the same rows, under the declared types PRAGMA table_info reports for
// the `parquet` table, with the same rowids and the same filename and file_row_number values
// (ordinary columns there).
//
// Then thousands of generated queries run on both, the table name the only difference, and the
// results must be equal: as sequences when the query has an ORDER BY, as multisets otherwise; a
// LIMIT without ORDER BY must give that many rows of the full result (SQLite may run an OR of
// indexable terms as one scan per term, so which rows come first is the plan's business); an
// error on one side must be an error on the other, with the same message. Sums are taken over a
// subquery ordered by rowid, since their rounding (and integer overflow on the way) depends on the
// order. Values compare with their storage class (the REAL 1.0 differs from the INTEGER 1) and
// REALs bit for bit but for the sign of zero (see kZeroSignNote). The queries use every operator
// the table may push down (=, <, <=, >, >=, !=, <>, IS, IS NOT, IS NULL, IS NOT NULL, IN lists with
// NULLs and mixed types, NOT IN, BETWEEN, LIKE (also with ESCAPE) and GLOB with prefixes,
// comparisons and IN under COLLATE NOCASE / RTRIM / BINARY), literals of the wrong type
// ('42' on INTEGER, 42 on TEXT, 4.0 on INTEGER, x'00' on TEXT), AND/OR/NOT combinations,
// constraints on rowid and the hidden columns, LIMIT and OFFSET with and without ORDER BY, joins
// of the table with itself and with the native table, subqueries, and count/sum/min/max/total
// aggregates, with and without GROUP BY. ORDER BY one column (alone, or then rowid), GROUP BY one
// column with and without ORDER BY on it, and DISTINCT with ORDER BY are what the table orders
// itself (sorted scans): a query ordered by one column alone compares its first values in order and
// the rows of each run of equal first values as multisets (ties may come in any order).
//
// A mismatch prints the seed, the query and both results. The default run (fixed seed, 4000
// queries, 1200 in the sanitizer build) is part of test_ext; a longer one: PQ_DIFF_QUERIES=100000
// PQ_DIFF_SEED=7 build/test_ext --gtest_filter='Differential*' (or `make difftest`).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "format/file/file_reader.h"
#include "format/value/temporal.h"
#include "format/writer/file_writer.h"
#include "tests/ext/sqlite_test_util.h"
#include "tests/hostile/mutator.h"

namespace pq::testing {
namespace {

namespace fs = std::filesystem;

// A native REAL column stores -0.0 as 0.0 (SQLite keeps integral REALs as integers on disk), so it
// returns 0.0 where the `parquet` table returns the -0.0 the file holds. SQL cannot tell them apart
// (-0.0 = 0.0, and printing shows 0.0 for both), so results compare zeros without their sign.
constexpr const char* kZeroSignNote = "zeros compare without their sign";

// Queries of the default run: about 20 s in the sanitizer build (a debug build, where each scan of
// the small test files costs milliseconds), a few seconds in a normal one.
#ifdef PQ_SANITIZE
constexpr uint64_t kDefaultQueries = 1200;
#else
constexpr uint64_t kDefaultQueries = 4000;
#endif

uint64_t EnvNumber(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  return std::strtoull(v, nullptr, 10);
}

// -------------------------------------------------------------------------------------------------
// Values

enum class Kind { kNull, kInt, kReal, kText, kBlob };

struct Val {
  Kind kind = Kind::kNull;
  int64_t i = 0;
  double d = 0;
  std::string s;  // TEXT or BLOB bytes

  static Val Null() { return {}; }
  static Val Int(int64_t v) { return {Kind::kInt, v, 0, {}}; }
  static Val Real(double v) { return {Kind::kReal, 0, v, {}}; }
  static Val Text(std::string v) { return {Kind::kText, 0, 0, std::move(v)}; }
  static Val Blob(std::string v) { return {Kind::kBlob, 0, 0, std::move(v)}; }
};

std::string Hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

// The shortest text that reads back as `d`, always with a '.' or an exponent.
std::string RealText(double d) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  std::string s(buf, end);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

// `v` as an SQL literal of its own storage class.
std::string Literal(const Val& v) {
  switch (v.kind) {
    case Kind::kNull:
      return "NULL";
    case Kind::kInt:
      // INT64_MIN has no literal of its own: the parser reads -9223372036854775808 as an integer.
      return std::to_string(v.i);
    case Kind::kReal:
      if (std::isinf(v.d)) return v.d > 0 ? "9e999" : "-9e999";
      if (v.d == 0) return std::signbit(v.d) ? "-0.0" : "0.0";
      return RealText(v.d);
    case Kind::kText: {
      std::string out = "'";
      for (char c : v.s) {
        out.push_back(c);
        if (c == '\'') out.push_back('\'');
      }
      return out + "'";
    }
    case Kind::kBlob:
      return "x'" + Hex(v.s) + "'";
  }
  return "NULL";
}

// One result value with its storage class: "i:42", "r:0.5", "t:abc", "b:00ff", "NULL".
std::string ResultText(sqlite3_stmt* stmt, int col) {
  switch (sqlite3_column_type(stmt, col)) {
    case SQLITE_NULL:
      return "NULL";
    case SQLITE_INTEGER:
      return "i:" + std::to_string(sqlite3_column_int64(stmt, col));
    case SQLITE_FLOAT: {
      double d = sqlite3_column_double(stmt, col);
      if (d == 0) d = 0;  // kZeroSignNote
      return "r:" + RealText(d);
    }
    case SQLITE_BLOB: {
      const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, col));
      return "b:" +
             Hex(std::string(p ? p : "", static_cast<size_t>(sqlite3_column_bytes(stmt, col))));
    }
    default: {
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
      return "t:" + std::string(p ? p : "", static_cast<size_t>(sqlite3_column_bytes(stmt, col)));
    }
  }
}

// A query's result. Rows are compared by a 64-bit hash of their values (with storage classes):
// turning thousands of rows into text per query would cost more than the queries themselves in the
// sanitizer build. Text (`text`) is made only to show a mismatch.
struct Outcome {
  bool ok = false;
  std::string error;
  std::vector<uint64_t> hashes;   // one per row
  std::vector<std::string> text;  // one per row, when asked for: values joined by " | "
  // The same of each row's first value alone (the key of a query ordered by its first value).
  std::vector<uint64_t> first_hashes;
  std::vector<std::string> first_text;
};

// FNV-1a, then a final mix so that the per-column structure spreads over all bits.
struct RowHasher {
  uint64_t h = 1469598103934665603ULL;
  void Add(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t k = 0; k < n; ++k) h = (h ^ p[k]) * 1099511628211ULL;
  }
  void AddValue(int type, const void* data, size_t n) {
    const uint64_t header = (static_cast<uint64_t>(type) << 56) ^ n;
    Add(&header, sizeof header);
    Add(data, n);
  }
  uint64_t Finish() const {
    uint64_t x = h;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
  }
};

Outcome RunQuery(sqlite3* db, const std::string& sql, bool with_text = false) {
  Outcome out;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    out.error = sqlite3_errmsg(db);
    return out;
  }
  const int n = sqlite3_column_count(stmt);
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    RowHasher hasher;
    for (int c = 0; c < n; ++c) {
      if (c == 1) out.first_hashes.push_back(hasher.Finish());
      const int type = sqlite3_column_type(stmt, c);
      switch (type) {
        case SQLITE_NULL:
          hasher.AddValue(type, nullptr, 0);
          break;
        case SQLITE_INTEGER: {
          const int64_t v = sqlite3_column_int64(stmt, c);
          hasher.AddValue(type, &v, sizeof v);
          break;
        }
        case SQLITE_FLOAT: {
          double v = sqlite3_column_double(stmt, c);
          if (v == 0) v = 0;  // kZeroSignNote
          hasher.AddValue(type, &v, sizeof v);
          break;
        }
        default: {  // TEXT, BLOB: the bytes as stored (blob() first, then bytes())
          const void* p = type == SQLITE_BLOB
                              ? sqlite3_column_blob(stmt, c)
                              : static_cast<const void*>(sqlite3_column_text(stmt, c));
          hasher.AddValue(type, p, static_cast<size_t>(sqlite3_column_bytes(stmt, c)));
          break;
        }
      }
    }
    out.hashes.push_back(hasher.Finish());
    if (n == 1) out.first_hashes.push_back(out.hashes.back());
    if (with_text) {
      out.first_text.push_back(n > 0 ? ResultText(stmt, 0) : "");
      std::string row;
      for (int c = 0; c < n; ++c) {
        if (c > 0) row += " | ";
        row += ResultText(stmt, c);
      }
      out.text.push_back(std::move(row));
    }
  }
  if (rc == SQLITE_DONE) {
    out.ok = true;
  } else {
    out.error = sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  return out;
}

std::string Describe(const Outcome& o, size_t max_rows = 25) {
  if (!o.ok) return "  error: " + o.error + "\n";
  std::string s = "  " + std::to_string(o.text.size()) + " rows\n";
  for (size_t k = 0; k < o.text.size() && k < max_rows; ++k) s += "    " + o.text[k] + "\n";
  if (o.text.size() > max_rows) s += "    ...\n";
  return s;
}

// -------------------------------------------------------------------------------------------------
// Random choices

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  int64_t Between(int64_t lo, int64_t hi) {  // inclusive
    return std::uniform_int_distribution<int64_t>(lo, hi)(engine_);
  }
  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(engine_) < p; }
  double Real(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(engine_);
  }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(Between(0, static_cast<int64_t>(v.size()) - 1))];
  }
  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
};

// -------------------------------------------------------------------------------------------------
// The data

// The columns, in table order: name, the type parquet_export writes (schema=), the SQLite storage
// class of its values.
struct ColumnSpec {
  const char* name;
  const char* export_type;
  Kind kind;
};

const std::vector<ColumnSpec> kColumns = {
    {"seq", "INTEGER", Kind::kInt},
    {"i", "INTEGER", Kind::kInt},
    {"r", "REAL", Kind::kReal},
    {"t", "TEXT", Kind::kText},
    {"b", "BLOB", Kind::kBlob},
    {"bo", "BOOLEAN", Kind::kInt},
    {"d", "DATE", Kind::kText},
    {"ts", "TIMESTAMP", Kind::kText},
    {"dec", "DECIMAL(12,2)", Kind::kReal},
};
enum ColumnIndex { kSeq, kI, kR, kT, kB, kBo, kD, kTs, kDec, kNumColumns };

// One row: the values as SQLite holds them, and the stored forms FileWriter needs.
struct Row {
  Val v[kNumColumns];
  bool nan = false;    // r is NaN in the file (NULL in SQLite)
  int32_t days = 0;    // d
  int64_t micros = 0;  // ts
  int64_t cents = 0;   // dec
};

const std::vector<std::string> kWords = {"",
                                         "a",
                                         "A",
                                         "app",
                                         "apple",
                                         "Apple",
                                         "APPLE",
                                         "apricot",
                                         "b",
                                         "banana",
                                         "ba%",
                                         "a_c",
                                         "a%c",
                                         "x y",
                                         "42",
                                         "-7",
                                         "3.5",
                                         "1e3",
                                         " 12",
                                         "007",
                                         "0",
                                         "NULL",
                                         "\xc3\xa4",
                                         "\xc3\xa4"
                                         "b",
                                         "zzz",
                                         "[abc]",
                                         "*",
                                         "a*",
                                         "A1",
                                         "apple pie",
                                         "apple ",
                                         "APPLE  ",
                                         "Banana",
                                         "cherry",
                                         "10",
                                         "9",
                                         "-0"};

const std::vector<std::string> kBlobs = {
    "", std::string(1, '\0'), std::string(2, '\0'), "\x01", "\xff", "apple", "42", "a", "\x00\xff"};

Row MakeRow(Rng& rng, int64_t position, bool nan_file) {
  Row row;
  // seq: clustered (grows with the position), so ranges on it prune row groups and pages.
  row.v[kSeq] = rng.Chance(0.03) ? Val::Null() : Val::Int(position * 3 + rng.Between(0, 2));
  // i: small values with many duplicates, wider ones, and the extremes.
  static const std::vector<int64_t> kExtremes = {std::numeric_limits<int64_t>::min(),
                                                 std::numeric_limits<int64_t>::min() + 1,
                                                 std::numeric_limits<int64_t>::max(),
                                                 std::numeric_limits<int64_t>::max() - 1,
                                                 int64_t{1} << 53,
                                                 (int64_t{1} << 53) + 1,
                                                 -(int64_t{1} << 53),
                                                 int64_t{1} << 31,
                                                 -(int64_t{1} << 31) - 1,
                                                 0,
                                                 42,
                                                 -1};
  const double pick = rng.Real(0, 1);
  if (pick < 0.5) {
    row.v[kI] = Val::Int(rng.Between(-20, 20));
  } else if (pick < 0.7) {
    row.v[kI] = Val::Int(rng.Between(-100000, 100000));
  } else if (pick < 0.85) {
    row.v[kI] = Val::Int(rng.Pick(kExtremes));
  } else {
    row.v[kI] = Val::Null();
  }
  // r: halves, random doubles, specials, integral values.
  static const std::vector<double> kSpecial = {0.0,
                                               -0.0,
                                               std::numeric_limits<double>::infinity(),
                                               -std::numeric_limits<double>::infinity(),
                                               1e308,
                                               -1e308,
                                               5e-324,
                                               9007199254740992.0,
                                               9007199254740994.0,
                                               1e-10,
                                               42.0,
                                               -1.0,
                                               0.5,
                                               9.3e18,
                                               -9.3e18};
  const double rpick = rng.Real(0, 1);
  if (nan_file && rpick < 0.3) {
    row.nan = true;
    row.v[kR] = Val::Null();
  } else if (rpick < 0.4) {
    row.v[kR] = Val::Real(static_cast<double>(rng.Between(-40, 40)) / 2);
  } else if (rpick < 0.55) {
    row.v[kR] = Val::Real(rng.Real(-1e6, 1e6));
  } else if (rpick < 0.7) {
    row.v[kR] = Val::Real(rng.Pick(kSpecial));
  } else if (rpick < 0.85) {
    row.v[kR] = Val::Real(static_cast<double>(rng.Between(-20, 20)));
  } else {
    row.v[kR] = Val::Null();
  }
  // t: a vocabulary of prefixes, cases, LIKE/GLOB metacharacters and numeric-looking text.
  const double tpick = rng.Real(0, 1);
  if (tpick < 0.7) {
    row.v[kT] = Val::Text(rng.Pick(kWords));
  } else if (tpick < 0.85) {
    std::string s;
    for (int64_t k = rng.Between(1, 6); k > 0; --k)
      s.push_back(static_cast<char>('a' + rng.Between(0, 5)));
    row.v[kT] = Val::Text(s);
  } else {
    row.v[kT] = Val::Null();
  }
  // b
  if (rng.Chance(0.2)) {
    row.v[kB] = Val::Null();
  } else if (rng.Chance(0.7)) {
    row.v[kB] = Val::Blob(rng.Pick(kBlobs));
  } else {
    std::string s;
    for (int64_t k = rng.Between(1, 5); k > 0; --k)
      s.push_back(static_cast<char>(rng.Between(0, 255)));
    row.v[kB] = Val::Blob(s);
  }
  // bo
  row.v[kBo] = rng.Chance(0.1) ? Val::Null() : Val::Int(rng.Between(0, 1));
  // d: days around the epoch and the present, and a few far ones.
  static const std::vector<int32_t> kDays = {0,     -1,      11016 /* 2000-02-29 */,
                                             20088, -719162, 2932896};
  if (rng.Chance(0.1)) {
    row.v[kD] = Val::Null();
  } else {
    row.days = rng.Chance(0.1) ? rng.Pick(kDays) : static_cast<int32_t>(rng.Between(-1000, 30000));
    row.v[kD] = Val::Text(FormatDate(row.days));
  }
  // ts: microseconds, half of them whole seconds.
  if (rng.Chance(0.1)) {
    row.v[kTs] = Val::Null();
  } else {
    row.micros = rng.Between(-1'000'000'000'000'000, 4'000'000'000'000'000);
    if (rng.Chance(0.5)) row.micros -= row.micros % 1'000'000;
    row.v[kTs] = Val::Text(FormatTimestamp(row.micros, TimeUnit::kMicros));
  }
  // dec: DECIMAL(12,2) as cents; SQLite holds the nearest double (what the table returns).
  if (rng.Chance(0.1)) {
    row.v[kDec] = Val::Null();
  } else {
    row.cents =
        rng.Chance(0.8) ? rng.Between(-5000, 5000) : rng.Between(-999'999'999'999, 999'999'999'999);
    row.v[kDec] = Val::Real(static_cast<double>(row.cents) / 100.0);
  }
  return row;
}

// Values of each column in the data, for literals that hit rows.
using Pools = std::vector<std::vector<Val>>;

// -------------------------------------------------------------------------------------------------
// Queries. A query is written once with {T} (and {U} for a second table) where the table name
// goes; the `parquet` side reads pq, the native side nat.

std::string Substitute(std::string sql, const std::string& t, const std::string& u) {
  for (size_t p; (p = sql.find("{T}")) != std::string::npos;) sql.replace(p, 3, t);
  for (size_t p; (p = sql.find("{U}")) != std::string::npos;) sql.replace(p, 3, u);
  return sql;
}

class QueryGenerator {
 public:
  QueryGenerator(Rng& rng, const Pools& pools, int64_t num_rows, std::vector<std::string> files)
      : rng_(rng), pools_(pools), num_rows_(num_rows), files_(std::move(files)) {}

  struct Query {
    std::string sql;       // with {T} / {U}
    bool ordered = false;  // rows compare as a sequence
    // Rows ordered by their first value only (`ORDER BY col` with `col` first): the first values
    // compare as a sequence, and the rows of each run of equal first values as multisets (but for
    // the first and last runs of a query with LIMIT: which of the tied rows make it is the plan's).
    bool ordered_by_first = false;
    bool has_limit = false;
    // A LIMIT without ORDER BY picks any `limit` rows after skipping `offset`: SQLite may run an OR
    // of indexable terms as one scan per term, so the order is the plan's. Then `full` is the query
    // without LIMIT, and the result must be that many rows of the full result.
    std::string full;
    int64_t limit = -1;
    int64_t offset = 0;
  };

  Query Next() {
    const double kind = rng_.Real(0, 1);
    if (kind < 0.05) return Join();
    if (kind < 0.08) return Subquery();
    if (kind < 0.25) return Aggregate();
    return Select();
  }

 private:
  // A literal for a column: a value of the column (usually one that exists), or one of another
  // storage class that SQLite's affinity may or may not turn into the column's.
  std::string LiteralFor(int col) {
    const double p = rng_.Real(0, 1);
    if (col < 0) {  // rowid, file_row_number
      if (p < 0.85) return std::to_string(rng_.Between(-3, num_rows_ + 3));
      if (p < 0.9) return "'" + std::to_string(rng_.Between(0, num_rows_)) + "'";
      if (p < 0.95) return std::to_string(rng_.Between(0, num_rows_)) + ".5";
      return rng_.Pick(
          std::vector<std::string>{"NULL", "9223372036854775807", "-9e999", "1e19", "x'00'", "''"});
    }
    const std::vector<Val>& pool = pools_[static_cast<size_t>(col)];
    const Val& v = rng_.Pick(pool);
    if (p < 0.6 || v.kind == Kind::kNull) return Literal(v);
    if (p < 0.85) {
      // The same value in another storage class.
      switch (v.kind) {
        case Kind::kInt:
          return rng_.Chance(0.5) ? "'" + std::to_string(v.i) + "'"
                                  : RealText(static_cast<double>(v.i));
        case Kind::kReal:
          return rng_.Chance(0.5) ? "'" + RealText(v.d) + "'"
                                  : (v.d == std::trunc(v.d) && std::fabs(v.d) < 1e15
                                         ? std::to_string(static_cast<int64_t>(v.d))
                                         : Literal(v));
        case Kind::kText: {
          if (rng_.Chance(0.3)) return "x'" + Hex(v.s) + "'";
          // Numeric-looking text as a number.
          char* end = nullptr;
          const double d = std::strtod(v.s.c_str(), &end);
          if (!v.s.empty() && end && *end == '\0') {
            return rng_.Chance(0.5) ? RealText(d) : std::to_string(static_cast<int64_t>(d));
          }
          return Literal(v);
        }
        case Kind::kBlob:
          return "'" + v.s + "'" == "''" ? "''" : Literal(Val::Text(v.s));
        default:
          return Literal(v);
      }
    }
    // Boundaries and other classes.
    static const std::vector<std::string> kOdd = {"NULL",
                                                  "0",
                                                  "-1",
                                                  "42",
                                                  "'42'",
                                                  "4.0",
                                                  "42.0",
                                                  "'4.0'",
                                                  "x'00'",
                                                  "x''",
                                                  "''",
                                                  "'a'",
                                                  "9223372036854775807",
                                                  "-9223372036854775808",
                                                  "9.3e18",
                                                  "-9.3e18",
                                                  "9e999",
                                                  "-9e999",
                                                  "1e308",
                                                  "-0.0",
                                                  "0.5",
                                                  "'2000-02-29'",
                                                  "'2000-02-29 00:00:00'",
                                                  "'1970'",
                                                  "20000101",
                                                  "'apple'",
                                                  "'Apple'",
                                                  "x'6170706c65'",
                                                  "'1e3'",
                                                  "' 12'",
                                                  "12"};
    return rng_.Pick(kOdd);
  }

  std::string ColumnName(int col) {
    if (col == -1) return "rowid";
    if (col == -2) return "file_row_number";
    return kColumns[static_cast<size_t>(col)].name;
  }

  // A column index, or -1 (rowid) / -2 (file_row_number) / -3 (filename).
  int PickColumn() {
    const double p = rng_.Real(0, 1);
    if (p < 0.12) return -1;
    if (p < 0.15) return -2;
    if (p < 0.17) return -3;
    return static_cast<int>(rng_.Between(0, kNumColumns - 1));
  }

  std::string Predicate(const std::string& prefix) {
    const int col = PickColumn();
    if (col == -3) {  // filename
      const std::string name = prefix + "filename";
      switch (rng_.Between(0, 3)) {
        case 0:
          return name + " = '" + rng_.Pick(files_) + "'";
        case 1:
          return name + " LIKE '%part" + std::to_string(rng_.Between(0, 3)) + "%'";
        case 2:
          return name + " != '" + rng_.Pick(files_) + "'";
        default:
          return name + " IN ('" + rng_.Pick(files_) + "', '" + rng_.Pick(files_) + "')";
      }
    }
    const std::string c = prefix + ColumnName(col);
    const double p = rng_.Real(0, 1);
    static const std::vector<std::string> kOps = {
        "=", "<", "<=", ">", ">=", "!=", "<>", "==", "IS", "IS NOT"};
    if (p < 0.45) {
      const std::string& op = rng_.Pick(kOps);
      if (rng_.Chance(0.15) && op.substr(0, 2) != "IS") return LiteralFor(col) + " " + op + " " + c;
      if (rng_.Chance(0.12)) {
        // A collation on either side decides the comparison (NOCASE, RTRIM): the table may only
        // take a BINARY comparison as its own.
        const std::string coll = rng_.Pick(
            std::vector<std::string>{" COLLATE NOCASE", " COLLATE RTRIM", " COLLATE BINARY"});
        return rng_.Chance(0.5) ? c + coll + " " + op + " " + LiteralFor(col)
                                : c + " " + op + " " + LiteralFor(col) + coll;
      }
      return c + " " + op + " " + LiteralFor(col);
    }
    if (p < 0.55)
      return c +
             rng_.Pick(std::vector<std::string>{" IS NULL", " IS NOT NULL", " NOTNULL", " ISNULL"});
    if (p < 0.7) {
      std::string list;
      for (int64_t k = rng_.Between(1, 5); k > 0; --k) {
        if (!list.empty()) list += ", ";
        list += rng_.Chance(0.1) ? "NULL" : LiteralFor(col);
      }
      const std::string lhs = rng_.Chance(0.1) ? c + " COLLATE NOCASE" : c;
      return lhs + (rng_.Chance(0.25) ? " NOT IN (" : " IN (") + list + ")";
    }
    if (p < 0.8) {
      return c + (rng_.Chance(0.2) ? " NOT BETWEEN " : " BETWEEN ") + LiteralFor(col) + " AND " +
             LiteralFor(col);
    }
    if (p < 0.9) {
      // LIKE / GLOB with a prefix (from a value of the column when it has text).
      std::string prefix_text;
      if (col >= 0) {
        const Val& v = rng_.Pick(pools_[static_cast<size_t>(col)]);
        if (v.kind == Kind::kText || v.kind == Kind::kBlob) {
          prefix_text = v.s.substr(0, static_cast<size_t>(rng_.Between(0, 3)));
        } else if (v.kind == Kind::kInt) {
          prefix_text = std::to_string(v.i).substr(0, 2);
        } else if (v.kind == Kind::kReal) {
          prefix_text = RealText(v.d).substr(0, 2);
        }
      } else {
        prefix_text = std::to_string(rng_.Between(0, num_rows_)).substr(0, 1);
      }
      std::string escaped;
      for (char ch : prefix_text) {
        escaped.push_back(ch);
        if (ch == '\'') escaped.push_back('\'');
      }
      const bool glob = rng_.Chance(0.35);
      std::string tail = glob ? rng_.Pick(std::vector<std::string>{"*", "?*", "", "[a-c]*"})
                              : rng_.Pick(std::vector<std::string>{"%", "_%", "", "%e"});
      const std::string op = glob ? " GLOB '" : (rng_.Chance(0.15) ? " NOT LIKE '" : " LIKE '");
      if (!glob && rng_.Chance(0.15)) {
        // An ESCAPE clause: the pattern's '!_' is a literal underscore.
        return c + op + escaped + "!_" + tail + "' ESCAPE '!'";
      }
      return c + op + escaped + tail + "'";
    }
    if (p < 0.95) {
      // Two columns, or an expression: not a constraint the table can take.
      const std::string other =
          prefix + ColumnName(static_cast<int>(rng_.Between(-1, kNumColumns - 1)));
      return rng_.Chance(0.5) ? c + " " + rng_.Pick(kOps) + " " + other
                              : c + " + 0 " + rng_.Pick(std::vector<std::string>{"=", "<", ">="}) +
                                    " " + LiteralFor(col);
    }
    // rowid ranges, the common LIMIT/OFFSET companions.
    const int64_t lo = rng_.Between(-2, num_rows_);
    return prefix + "rowid BETWEEN " + std::to_string(lo) + " AND " +
           std::to_string(lo + rng_.Between(0, num_rows_ / 2));
  }

  std::string Where(const std::string& prefix, int depth) {
    const double p = rng_.Real(0, 1);
    if (depth < 3 && p < 0.25) {
      return "(" + Where(prefix, depth + 1) + " AND " + Where(prefix, depth + 1) + ")";
    }
    if (depth < 3 && p < 0.4) {
      return "(" + Where(prefix, depth + 1) + " OR " + Where(prefix, depth + 1) + ")";
    }
    if (depth < 3 && p < 0.45) return "NOT (" + Where(prefix, depth + 1) + ")";
    return Predicate(prefix);
  }

  std::string Projection() {
    if (rng_.Chance(0.1)) {
      return "rowid, seq, i, r, t, b, bo, d, ts, dec, filename, file_row_number";
    }
    std::string cols = "rowid";
    for (int c = 0; c < kNumColumns; ++c) {
      if (rng_.Chance(0.25)) cols += std::string(", ") + kColumns[static_cast<size_t>(c)].name;
    }
    if (rng_.Chance(0.1)) cols += ", typeof(i), typeof(r)";
    return cols;
  }

  Query Select() {
    std::string sql = "SELECT " + Projection() + " FROM {T}";
    if (rng_.Chance(0.9)) sql += " WHERE " + Where("", 0);
    const double p = rng_.Real(0, 1);
    bool ordered = false;
    if (p < 0.3) {
      sql += rng_.Chance(0.75) ? " ORDER BY rowid" : " ORDER BY rowid DESC";
      ordered = true;
    } else if (p < 0.4) {
      sql += std::string(" ORDER BY ") +
             rng_.Pick(std::vector<std::string>{"i", "r", "t", "d", "dec", "b"}) +
             (rng_.Chance(0.3) ? " DESC" : "") + ", rowid";
      ordered = true;
    }
    Query query;
    if (p >= 0.4 && p < 0.55) {
      // ORDER BY one column alone (the table may order the rows itself, ties in any order): the
      // column comes first in the result.
      const std::string col = rng_.Pick(
          std::vector<std::string>{"i", "r", "t", "d", "dec", "b", "bo", "ts", "seq"});
      sql = "SELECT " + col + ", " + sql.substr(7) + " ORDER BY " + col +
            (rng_.Chance(0.4) ? " DESC" : rng_.Chance(0.2) ? " ASC" : "");
      query.ordered_by_first = true;
      ordered = true;
    }
    query.ordered = ordered && !query.ordered_by_first;
    if (rng_.Chance(0.35)) {
      const int64_t limit = rng_.Between(0, 40);
      const int64_t offset = rng_.Chance(0.6) ? rng_.Between(0, num_rows_ + 10) : 0;
      query.has_limit = true;
      if (!ordered) {
        query.full = sql;
        query.limit = limit;
        query.offset = offset;
      }
      sql += " LIMIT " + std::to_string(limit);
      if (offset > 0 || rng_.Chance(0.2)) sql += " OFFSET " + std::to_string(offset);
    }
    query.sql = sql;
    return query;
  }

  Query Aggregate() {
    // {aggregate, the column it reads}
    static const std::vector<std::pair<std::string, std::string>> kAggregates = {
        {"count(*)", ""},        {"count(i)", "i"},      {"count(DISTINCT t)", "t"},
        {"min(i)", "i"},         {"max(i)", "i"},        {"sum(i)", "i"},
        {"total(i)", "i"},       {"min(r)", "r"},        {"max(r)", "r"},
        {"sum(seq)", "seq"},     {"min(t)", "t"},        {"max(t)", "t"},
        {"min(b)", "b"},         {"max(b)", "b"},        {"min(d)", "d"},
        {"max(ts)", "ts"},       {"sum(bo)", "bo"},      {"min(dec)", "dec"},
        {"max(dec)", "dec"},     {"total(dec)", "dec"},  {"avg(seq)", "seq"},
        {"max(rowid)", "rowid"}, {"min(rowid)", "rowid"}};
    std::string select;
    std::set<std::string> read;  // columns the aggregates and the grouping read
    for (int64_t k = rng_.Between(1, 4); k > 0; --k) {
      const auto& [aggregate, column] = rng_.Pick(kAggregates);
      if (!select.empty()) select += ", ";
      select += aggregate;
      if (!column.empty() && column != "rowid") read.insert(column);
    }
    std::string group;
    if (rng_.Chance(0.35)) {
      group = rng_.Pick(std::vector<std::string>{"bo", "t", "i", "d", "b", "filename", "r"});
      select = group + ", " + select;
      read.insert(group);
    }
    const std::string where = rng_.Chance(0.85) ? " WHERE " + Where("", 0) : "";
    std::string sql;
    if (select.find("sum(") != std::string::npos || select.find("total(") != std::string::npos ||
        select.find("avg(") != std::string::npos) {
      // Sums depend on the order of the rows (rounding, and whether an integer sum overflows on
      // the way): a subquery ordered by rowid fixes it (SQLite does not flatten an ordered
      // subquery into an aggregate), and the WHERE clause still reaches the table.
      std::string columns = "rowid";
      for (const std::string& c : read) columns += ", " + c;
      sql = "SELECT " + select + " FROM (SELECT " + columns + " FROM {T}" + where +
            " ORDER BY rowid)";
    } else {
      sql = "SELECT " + select + " FROM {T}" + where;
    }
    Query query;
    if (!group.empty()) {
      sql += " GROUP BY " + group;
      // Groups in the order of their key (each key once: rows compare in order).
      if (rng_.Chance(0.4)) {
        sql += " ORDER BY " + group + (rng_.Chance(0.4) ? " DESC" : "");
        query.ordered = true;
      }
    }
    if (rng_.Chance(0.15)) {
      const std::string col = rng_.Pick(std::vector<std::string>{"t", "i", "bo", "d"});
      query.sql = "SELECT DISTINCT " + col + " FROM {T} WHERE " + Where("", 0);
      query.ordered = rng_.Chance(0.5);
      if (query.ordered) query.sql += " ORDER BY " + col + (rng_.Chance(0.4) ? " DESC" : "");
      return query;
    }
    query.sql = sql;
    return query;
  }

  Query Join() {
    const double p = rng_.Real(0, 1);
    const int64_t lo = rng_.Between(0, num_rows_);
    // Few outer rows: each is a scan of the inner table.
    const std::string outer =
        "a.rowid BETWEEN " + std::to_string(lo) + " AND " + std::to_string(lo + rng_.Between(0, 1));
    if (p < 0.4) {
      // The table with itself on a value column: each outer row makes the inner scan take a
      // constraint whose value comes from the outer row. CROSS JOIN keeps `a` outside, whatever
      // the estimates say (the other order scans the table once per row).
      const std::string col = rng_.Pick(std::vector<std::string>{"i", "t", "r", "d", "bo", "seq"});
      std::string sql = "SELECT a.rowid, b.rowid, b." + col + " FROM {T} a CROSS JOIN {T} b ON a." +
                        col + " = b." + col + " WHERE " + outer;
      if (rng_.Chance(0.6)) sql += " AND " + Where("b.", 1);
      return {sql};
    }
    if (p < 0.7) {
      // The table with the native one (which is nat on both sides), the table scanned once.
      std::string sql = "SELECT a.rowid, a.i, n.t FROM {T} a CROSS JOIN {U} n ON " +
                        rng_.Pick(std::vector<std::string>{"a.rowid = n.rowid", "a.i = n.i",
                                                           "a.t = n.t AND a.rowid < n.rowid"}) +
                        " WHERE " + Where("a.", 1) + " AND n.rowid < " + std::to_string(lo + 50);
      if (rng_.Chance(0.5)) sql += " AND " + outer;
      return {sql};
    }
    // The native table outside, the table inside: its constraint values come from native rows.
    std::string sql =
        "SELECT n.rowid, a.rowid FROM {U} n CROSS JOIN {T} a ON a.rowid = n.rowid + " +
        std::to_string(rng_.Between(-2, 2)) + " WHERE n.rowid BETWEEN " + std::to_string(lo) +
        " AND " + std::to_string(lo + 2) + " AND " + Where("a.", 1);
    return {sql};
  }

  Query Subquery() {
    const std::string col = rng_.Pick(std::vector<std::string>{"i", "t", "seq", "d"});
    return {"SELECT rowid, " + col + " FROM {T} WHERE " + col + " IN (SELECT " + col +
            " FROM {T} WHERE " + Where("", 1) + ") AND " + Where("", 2)};
  }

  Rng& rng_;
  const Pools& pools_;
  int64_t num_rows_;
  std::vector<std::string> files_;
};

// -------------------------------------------------------------------------------------------------
// The fixture

class DifferentialTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(db_.load_error(), "");
    char tmpl[] = "/tmp/pq-differential-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Exec(const std::string& sql) { ASSERT_EQ(db_.Exec(sql), "") << sql; }

  // Builds the files, the `parquet` table pq and the native table nat from `seed`.
  void Build(uint64_t seed);
  // Writes the rows of file `file` with FileWriter, NaN included, in the schema of `like`.
  void WriteWithFileWriter(const std::string& path, const std::string& like, int file);

  TestDb db_;
  std::string dir_;
  std::vector<std::vector<Row>> rows_;  // per file
  std::vector<std::string> files_;
  Pools pools_;
  int64_t num_rows_ = 0;
};

void DifferentialTest::Build(uint64_t seed) {
  Rng rng(seed);
  // Per file: rows and writer options. File 0 is sorted by i and file 2 by t, so that min/max
  // statistics and the page index have something to prune; file 3 is written by FileWriter (NaN).
  // Small enough for thousands of queries in the sanitizer build, large enough for several row
  // groups per file and several pages per row group.
  const std::vector<int> counts = {100, 110, 60, 50};
  const std::vector<std::string> options = {
      "row_group_size=50, page_size=128",
      "row_group_size=55, page_size=128, dictionary=0, data_page_version=2, compression=zstd",
      "row_group_size=30, page_size=160, compression=uncompressed",
  };
  pools_.assign(kNumColumns, {});
  for (size_t f = 0; f < counts.size(); ++f) {
    std::vector<Row> rows;
    for (int k = 0; k < counts[f]; ++k) rows.push_back(MakeRow(rng, num_rows_ + k, f == 3));
    auto by = [](int col) {
      return [col](const Row& a, const Row& b) {
        const Val& x = a.v[col];
        const Val& y = b.v[col];
        if (x.kind != y.kind) return x.kind < y.kind;
        return x.kind == Kind::kInt ? x.i < y.i : x.s < y.s;
      };
    };
    if (f == 0) std::stable_sort(rows.begin(), rows.end(), by(kI));
    if (f == 2) std::stable_sort(rows.begin(), rows.end(), by(kT));
    for (const Row& row : rows) {
      for (int c = 0; c < kNumColumns; ++c) pools_[c].push_back(row.v[c]);
    }
    num_rows_ += counts[f];
    rows_.push_back(std::move(rows));
    files_.push_back(dir_ + "/part" + std::to_string(f) + ".parquet");
  }

  // src: the rows exactly as generated (no declared types, so nothing is converted), with the file
  // and the row's position in it.
  std::string columns;
  for (const ColumnSpec& c : kColumns) columns += std::string(", ") + c.name;
  Exec("CREATE TABLE src(file, file_row" + columns + ")");
  sqlite3_stmt* insert = nullptr;
  const std::string sql = "INSERT INTO src VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  ASSERT_EQ(sqlite3_prepare_v2(db_.db(), sql.c_str(), -1, &insert, nullptr), SQLITE_OK);
  for (size_t f = 0; f < rows_.size(); ++f) {
    for (size_t k = 0; k < rows_[f].size(); ++k) {
      sqlite3_bind_int64(insert, 1, static_cast<int64_t>(f));
      sqlite3_bind_int64(insert, 2, static_cast<int64_t>(k));
      for (int c = 0; c < kNumColumns; ++c) {
        const Val& v = rows_[f][k].v[c];
        switch (v.kind) {
          case Kind::kNull:
            sqlite3_bind_null(insert, c + 3);
            break;
          case Kind::kInt:
            sqlite3_bind_int64(insert, c + 3, v.i);
            break;
          case Kind::kReal:
            sqlite3_bind_double(insert, c + 3, v.d);
            break;
          case Kind::kText:
            sqlite3_bind_text(insert, c + 3, v.s.data(), static_cast<int>(v.s.size()),
                              SQLITE_TRANSIENT);
            break;
          case Kind::kBlob:
            sqlite3_bind_blob(insert, c + 3, v.s.data(), static_cast<int>(v.s.size()),
                              SQLITE_TRANSIENT);
            break;
        }
      }
      ASSERT_EQ(sqlite3_step(insert), SQLITE_DONE) << sqlite3_errmsg(db_.db());
      sqlite3_reset(insert);
    }
  }
  sqlite3_finalize(insert);

  // The files: three through SQL, one through FileWriter with the first one's schema.
  std::string schema;
  for (const ColumnSpec& c : kColumns) {
    schema += std::string(schema.empty() ? "" : ", ") + c.name + " " + c.export_type;
  }
  for (size_t f = 0; f < options.size(); ++f) {
    const std::string q = "SELECT parquet_export('" + files_[f] + "', 'SELECT" + columns.substr(1) +
                          " FROM src WHERE file = " + std::to_string(f) + " ORDER BY file_row', '" +
                          options[f] + ", schema=''" + schema + "''')";
    QueryResult r = db_.Query(q);
    ASSERT_TRUE(r.ok) << q << ": " << r.error;
  }
  WriteWithFileWriter(files_[3], files_[0], 3);
  if (HasFatalFailure()) return;

  std::string list;
  for (const std::string& f : files_) list += (list.empty() ? "" : ",") + f;
  Exec("CREATE VIRTUAL TABLE temp.pq USING parquet('" + list + "')");

  // nat: the declared types of pq's columns, then filename and file_row_number as plain columns.
  QueryResult info = db_.Query("SELECT name, type FROM pragma_table_info('pq')");
  ASSERT_TRUE(info.ok) << info.error;
  ASSERT_EQ(info.rows.size(), kColumns.size());
  std::string nat = "CREATE TABLE nat(";
  for (size_t c = 0; c < info.rows.size(); ++c) {
    ASSERT_EQ(*info.rows[c][0], kColumns[c].name);
    nat += *info.rows[c][0] + " " + *info.rows[c][1] + ", ";
  }
  Exec(nat + "filename TEXT, file_row_number INTEGER)");
  // Same rowids as pq: pq's rowid of each (file, row) comes from a scan of its hidden columns.
  Exec(
      "CREATE TEMP TABLE ids AS SELECT rowid AS id, filename AS name, file_row_number AS n FROM "
      "pq");
  std::string files_values;
  for (size_t f = 0; f < files_.size(); ++f) {
    files_values += (f ? ", (" : "(") + std::to_string(f) + ", '" + files_[f] + "')";
  }
  Exec("CREATE TEMP TABLE file_names(file, name)");
  Exec("INSERT INTO file_names VALUES " + files_values);
  Exec("INSERT INTO nat(rowid" + columns + ", filename, file_row_number) SELECT ids.id" + columns +
       ", ids.name, ids.n FROM src JOIN file_names f ON f.file = src.file JOIN ids ON ids.name = "
       "f.name AND ids.n = src.file_row");
  QueryResult count = db_.Query("SELECT count(*) FROM nat");
  ASSERT_TRUE(count.ok);
  ASSERT_EQ(*count.rows[0][0], std::to_string(num_rows_)) << "rows of pq that nat could not match";
}

void DifferentialTest::WriteWithFileWriter(const std::string& path, const std::string& like,
                                           int file) {
  auto model = FileReader::Open(like, ReaderOptions{});
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const FileMetaData& md = (*model)->metadata();
  WriterOptions options;
  options.row_group_rows = 25;
  options.page_bytes = 128;
  options.dictionary = false;
  auto writer = FileWriter::Open(path, md.schema, options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  FileWriter& w = **writer;
  const std::vector<Row>& rows = rows_[static_cast<size_t>(file)];
  ASSERT_EQ(w.schema().num_leaves(), kNumColumns);
  const int64_t n = static_cast<int64_t>(rows.size());
  // All in one batch per column; EndBatch ends row groups by row count... so write in row-group
  // sized batches.
  for (int64_t start = 0; start < n; start += options.row_group_rows) {
    const int64_t end = std::min(n, start + options.row_group_rows);
    for (int c = 0; c < kNumColumns; ++c) {
      std::vector<int16_t> def;
      std::vector<int64_t> i64;
      std::vector<int32_t> i32;
      std::vector<double> f64;
      std::vector<uint8_t> bools;
      std::vector<ByteArray> bytes;
      for (int64_t k = start; k < end; ++k) {
        const Row& row = rows[static_cast<size_t>(k)];
        const Val& v = row.v[c];
        const bool present = v.kind != Kind::kNull || (c == kR && row.nan);
        def.push_back(present ? 1 : 0);
        if (!present) continue;
        switch (c) {
          case kSeq:
          case kI:
            i64.push_back(v.i);
            break;
          case kR:
            f64.push_back(row.nan ? std::numeric_limits<double>::quiet_NaN() : v.d);
            break;
          case kT:
          case kB:
            bytes.push_back(ByteArray{reinterpret_cast<const uint8_t*>(v.s.data()),
                                      static_cast<uint32_t>(v.s.size())});
            break;
          case kBo:
            bools.push_back(static_cast<uint8_t>(v.i));
            break;
          case kD:
            i32.push_back(row.days);
            break;
          case kTs:
            i64.push_back(row.micros);
            break;
          case kDec:
            i64.push_back(row.cents);
            break;
        }
      }
      const int64_t levels = static_cast<int64_t>(def.size());
      Status s;
      switch (w.schema().leaf(c).physical_type) {
        case PhysicalType::kInt64:
          s = w.WriteColumn<int64_t>(c, levels, def.data(), nullptr, i64.data(),
                                     static_cast<int64_t>(i64.size()));
          break;
        case PhysicalType::kInt32:
          s = w.WriteColumn<int32_t>(c, levels, def.data(), nullptr, i32.data(),
                                     static_cast<int64_t>(i32.size()));
          break;
        case PhysicalType::kDouble:
          s = w.WriteColumn<double>(c, levels, def.data(), nullptr, f64.data(),
                                    static_cast<int64_t>(f64.size()));
          break;
        case PhysicalType::kBoolean:
          s = w.WriteColumn<uint8_t>(c, levels, def.data(), nullptr, bools.data(),
                                     static_cast<int64_t>(bools.size()));
          break;
        case PhysicalType::kByteArray:
          s = w.WriteColumn<ByteArray>(c, levels, def.data(), nullptr, bytes.data(),
                                       static_cast<int64_t>(bytes.size()));
          break;
        default:
          FAIL() << "unexpected physical type of column " << kColumns[static_cast<size_t>(c)].name;
      }
      ASSERT_TRUE(s.ok()) << kColumns[static_cast<size_t>(c)].name << ": " << s.ToString();
    }
    Status s = w.EndBatch();
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  Status s = w.Close();
  ASSERT_TRUE(s.ok()) << s.ToString();
}

// Whether the results agree under `query`'s rule (`a` from the parquet table, `b` from the native
// one; both sorted unless the query is ordered). Sets *rule to the rule's description.
template <typename T>
bool Agree(const QueryGenerator::Query& query, const Outcome& a, const Outcome& b,
           std::vector<T> rows_a, std::vector<T> rows_b, const std::vector<T>& first_a,
           const std::vector<T>& first_b, std::string* rule) {
  *rule = query.ordered ? "rows compared in order" : "rows compared as multisets";
  if (a.ok != b.ok) return false;
  if (!a.ok) return a.error == b.error;
  if (query.ordered_by_first) {
    *rule = "ordered by the first value: those compare in order, the rows of each run of equal "
            "first values as multisets";
    if (rows_a.size() != rows_b.size() || first_a != first_b || first_a.size() != rows_a.size()) return false;
    for (size_t begin = 0, end; begin < rows_a.size(); begin = end) {
      end = begin + 1;
      while (end < rows_a.size() && first_a[end] == first_a[begin]) ++end;
      if (query.has_limit && (begin == 0 || end == rows_a.size())) continue;
      std::sort(rows_a.begin() + static_cast<std::ptrdiff_t>(begin), rows_a.begin() + static_cast<std::ptrdiff_t>(end));
      std::sort(rows_b.begin() + static_cast<std::ptrdiff_t>(begin), rows_b.begin() + static_cast<std::ptrdiff_t>(end));
      if (!std::equal(rows_a.begin() + static_cast<std::ptrdiff_t>(begin), rows_a.begin() + static_cast<std::ptrdiff_t>(end),
                      rows_b.begin() + static_cast<std::ptrdiff_t>(begin))) {
        return false;
      }
    }
    return true;
  }
  if (!query.ordered) {
    std::sort(rows_a.begin(), rows_a.end());
    std::sort(rows_b.begin(), rows_b.end());
  }
  if (query.limit < 0) return rows_a == rows_b;
  // Any `limit` rows of the full result after `offset` of them.
  const int64_t full = static_cast<int64_t>(rows_b.size());
  const int64_t expected = std::min(query.limit, std::max<int64_t>(0, full - query.offset));
  *rule = "LIMIT without ORDER BY: the parquet table must return " + std::to_string(expected) +
          " rows of the native table's full result (the query without LIMIT, shown below)";
  return static_cast<int64_t>(rows_a.size()) == expected &&
         std::includes(rows_b.begin(), rows_b.end(), rows_a.begin(), rows_a.end());
}

// Runs `query` on both sides; returns "" or a description of the difference.
std::string Compare(sqlite3* db, const QueryGenerator::Query& query) {
  const std::string ours = Substitute(query.sql, "pq", "nat");
  const std::string native = Substitute(query.limit >= 0 ? query.full : query.sql, "nat", "nat");
  std::string rule;
  {
    const Outcome a = RunQuery(db, ours);
    const Outcome b = RunQuery(db, native);
    if (Agree(query, a, b, a.hashes, b.hashes, a.first_hashes, b.first_hashes, &rule)) return "";
  }
  // A difference: run both again with text, to show it (and to check it with the text itself).
  const Outcome a = RunQuery(db, ours, true);
  const Outcome b = RunQuery(db, native, true);
  const bool text_agrees = Agree(query, a, b, a.text, b.text, a.first_text, b.first_text, &rule);
  std::string out = "query (parquet table pq): " + ours + "\nquery (native table nat): " + native +
                    "\n" + rule + (text_agrees ? " (their text agrees: a hash collision?)" : "") +
                    "\nparquet table:\n" + Describe(a) + "native table:\n" + Describe(b);
  if (a.ok && b.ok && !query.ordered && !query.ordered_by_first) {
    std::vector<std::string> ta = a.text, tb = b.text, only_a, only_b;
    std::sort(ta.begin(), ta.end());
    std::sort(tb.begin(), tb.end());
    std::set_difference(ta.begin(), ta.end(), tb.begin(), tb.end(), std::back_inserter(only_a));
    std::set_difference(tb.begin(), tb.end(), ta.begin(), ta.end(), std::back_inserter(only_b));
    out += "only in the parquet table (" + std::to_string(only_a.size()) + "):\n";
    for (size_t k = 0; k < only_a.size() && k < 10; ++k) out += "    " + only_a[k] + "\n";
    if (query.limit < 0) {
      out += "only in the native table (" + std::to_string(only_b.size()) + "):\n";
      for (size_t k = 0; k < only_b.size() && k < 10; ++k) out += "    " + only_b[k] + "\n";
    }
  }
  return out;
}

std::string Compare(sqlite3* db, const std::string& sql, bool ordered) {
  QueryGenerator::Query query;
  query.sql = sql;
  query.ordered = ordered;
  return Compare(db, query);
}

// The rows of both tables, every column, are the same: what every other comparison builds on.
TEST_F(DifferentialTest, TablesHoldTheSameRows) {
  Build(1);
  if (HasFatalFailure()) return;
  const std::string all =
      "SELECT rowid, seq, i, r, t, b, bo, d, ts, dec, filename, file_row_number, typeof(r), "
      "typeof(dec) FROM {T} ORDER BY rowid";
  EXPECT_EQ(Compare(db_.db(), all, true), "");
  // The files hold what the test thinks: NaN in the last file, -0.0, several row groups per file.
  QueryResult r = db_.Query("SELECT count(*) FROM nat WHERE r IS NULL AND filename LIKE '%part3%'");
  ASSERT_TRUE(r.ok);
  EXPECT_GT(std::stoll(*r.rows[0][0]), 8);
  for (const std::string& f : files_) {
    QueryResult groups = db_.Query("SELECT num_row_groups FROM parquet_file_metadata('" + f + "')");
    ASSERT_TRUE(groups.ok) << groups.error;
    EXPECT_GE(std::stoll(*groups.rows[0][0]), 2) << f;
  }
  QueryResult nan = db_.Query("SELECT stats_null_count, nan_count FROM parquet_metadata('" +
                              files_[3] + "') WHERE path_in_schema = 'r'");
  ASSERT_TRUE(nan.ok) << nan.error;
}

// The comparison itself must see a difference: a query that differs between the two sides only by
// table name cannot be equal once one side is changed.
TEST_F(DifferentialTest, ComparisonSeesDifferences) {
  Build(1);
  if (HasFatalFailure()) return;
  EXPECT_NE(Compare(db_.db(), "SELECT i FROM {T} WHERE rowid < 10 AND '{T}' = 'pq'", false), "");
  EXPECT_NE(Compare(db_.db(),
                    "SELECT rowid FROM {T} WHERE rowid < 5 ORDER BY "
                    "CASE WHEN '{T}' = 'pq' THEN -rowid ELSE rowid END",
                    true),
            "");
  EXPECT_NE(Compare(db_.db(),
                    "SELECT 1.0 FROM {T} WHERE '{T}' = 'pq' UNION ALL "
                    "SELECT 1 FROM {T} WHERE '{T}' = 'nat'",
                    false),
            "");
  EXPECT_EQ(Compare(db_.db(), "SELECT i FROM {T} WHERE rowid < 10", false), "");
  // LIMIT without ORDER BY: rows outside the full result, or too few of them, are seen.
  QueryGenerator::Query limited;
  limited.sql = "SELECT rowid FROM {T} LIMIT 3";
  limited.full = "SELECT rowid FROM {T} WHERE rowid > 5";
  limited.limit = 3;
  EXPECT_NE(Compare(db_.db(), limited), "");
  limited.sql = "SELECT rowid FROM {T} WHERE rowid > 5 LIMIT 2";
  EXPECT_NE(Compare(db_.db(), limited), "");
  limited.sql = "SELECT rowid FROM {T} WHERE rowid > 5 ORDER BY rowid DESC LIMIT 3";
  EXPECT_EQ(Compare(db_.db(), limited), "");
  // Ordered by the first value only: ties in another order agree, first values out of order or
  // another row in a run do not.
  QueryGenerator::Query by_first;
  by_first.ordered_by_first = true;
  by_first.sql = "SELECT bo, rowid FROM {T} WHERE rowid < 60 ORDER BY bo, "
                 "CASE WHEN '{T}' = 'pq' THEN -rowid ELSE rowid END";
  EXPECT_EQ(Compare(db_.db(), by_first), "");
  by_first.sql = "SELECT bo, rowid FROM {T} WHERE rowid < 60 ORDER BY "
                 "CASE WHEN '{T}' = 'pq' THEN -bo ELSE bo END";
  EXPECT_NE(Compare(db_.db(), by_first), "");
  by_first.sql = "SELECT bo, CASE WHEN '{T}' = 'pq' AND rowid = 7 THEN -1 ELSE rowid END "
                 "FROM {T} WHERE rowid < 60 ORDER BY bo";
  EXPECT_NE(Compare(db_.db(), by_first), "");
}

TEST_F(DifferentialTest, GeneratedQueriesAgree) {
  const uint64_t seed = EnvNumber("PQ_DIFF_SEED", 20251122);
  const uint64_t num_queries = EnvNumber("PQ_DIFF_QUERIES", kDefaultQueries);
  Build(seed);
  if (HasFatalFailure()) return;
  Rng rng(seed ^ 0x9e3779b97f4a7c15ULL);
  QueryGenerator generator(rng, pools_, num_rows_, files_);
  int mismatches = 0;
  uint64_t errors = 0;
  uint64_t nonempty = 0;
  for (uint64_t q = 0; q < num_queries && mismatches < 5; ++q) {
    const QueryGenerator::Query query = generator.Next();
    const std::string diff = Compare(db_.db(), query);
    if (!diff.empty()) {
      ++mismatches;
      ADD_FAILURE() << "mismatch at query " << q << " (PQ_DIFF_SEED=" << seed << ", "
                    << kZeroSignNote << ")\n"
                    << diff;
    }
    if (q < 200) {  // what the queries exercise, from a sample
      Outcome o = RunQuery(db_.db(), Substitute(query.sql, "nat", "nat"));
      if (!o.ok) ++errors;
      if (o.ok && !o.hashes.empty()) ++nonempty;
    }
  }
  // A generator whose queries all fail or all return nothing would test little.
  EXPECT_GT(nonempty, 100u) << "too few generated queries return rows";
  EXPECT_LT(errors, 20u) << "too many generated queries fail";
}

// Files whose structures contradict each other (issue "Hostile files"): an OffsetIndex that leaves
// out a page, or whose rows are off by one; two dictionary pages; a Bloom filter header that does
// not parse; and mutants of valid files (tests/hostile/mutator.h) without statistics lies. On each,
// every term on the first column is run pushed down (`c = v`, `c > v`, `c IN (v, w)`) and as `+c`,
// which the table cannot see and so reads every row: when the `+c` form succeeds, the pushed-down
// form must succeed with the same rows. (When it fails, the full scan met the contradiction, and a
// plan that reads only other pages may still answer: the engine refuses at the point where the
// contradiction is, and reads only pages that agree with the index.)
TEST(DifferentialLyingFilesTest, PushedDownAndPlusFormsAgree) {
  TestDb db;
  ASSERT_EQ(db.load_error(), "");
  const fs::path dir = fs::temp_directory_path() / ("pq_lying_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<std::string> files;
  for (const hostile::HostileCase& c : hostile::HostileCases()) {
    if (c.finding != 10 && c.id.rfind("offset-index-first-gone", 0) != 0 && c.id.rfind("bloom-", 0) != 0) continue;
    const std::vector<std::string> bytes = c.files();
    if (std::find(files.begin(), files.end(), bytes[0]) == files.end()) files.push_back(bytes[0]);
  }
#ifdef PQ_SANITIZE
  const uint64_t mutants = 40;
#else
  const uint64_t mutants = 200;
#endif
  for (uint64_t seed = 1; seed <= mutants; ++seed) {
    hostile::RandomChooser chooser(seed ^ 0x5bd1e995);
    bool lies = false;
    std::string bytes = hostile::MutantFile(chooser, &lies);
    if (!lies) files.push_back(std::move(bytes));
  }
  int compared = 0, answered = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string path = (dir / ("f" + std::to_string(i) + ".parquet")).string();
    std::ofstream(path, std::ios::binary).write(files[i].data(), static_cast<std::streamsize>(files[i].size()));
    if (!db.Exec("DROP TABLE IF EXISTS temp.lying").empty()) continue;
    if (!db.Exec("CREATE VIRTUAL TABLE temp.lying USING parquet('" + path + "')").empty()) continue;
    const QueryResult columns = db.Query("SELECT name FROM pragma_table_info('lying') LIMIT 1");
    if (!columns.ok || columns.rows.empty() || !columns.rows[0][0]) continue;
    const std::string col = "\"" + *columns.rows[0][0] + "\"";
    const QueryResult values = db.Query("SELECT DISTINCT quote(" + col + ") FROM lying WHERE " + col +
                                        " IS NOT NULL LIMIT 3");
    if (!values.ok) continue;
    ++answered;
    std::vector<std::string> literals;
    for (const SqlRow& row : values.rows) literals.push_back(*row[0]);
    literals.push_back("5");
    for (size_t k = 0; k < literals.size(); ++k) {
      const std::string& v = literals[k];
      const std::string& w = literals[(k + 1) % literals.size()];
      for (const std::string& term : {col + " = " + v, col + " > " + v, col + " IN (" + v + ", " + w + ")"}) {
        const std::string pushed = "SELECT rowid, * FROM lying WHERE " + term + " ORDER BY rowid";
        const std::string plus = "SELECT rowid, * FROM lying WHERE +" + term + " ORDER BY rowid";
        const QueryResult a = db.Query(plus);
        if (!a.ok) continue;
        const QueryResult b = db.Query(pushed);
        ++compared;
        EXPECT_TRUE(b.ok) << "file " << i << ": " << pushed << " failed (" << b.error << ") where " << plus
                          << " gave " << a.rows.size() << " rows";
        EXPECT_EQ(a.rows, b.rows) << "file " << i << ": " << pushed;
      }
    }
  }
  EXPECT_GT(answered, 10) << "too few of the files could be read at all";
  EXPECT_GT(compared, 100);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pq::testing
