// sqltest: runs a file of SQL statements and expected results against the parquet extension.
//
// Usage:
//   sqltest <extension.so | none> <file.sql>          run the file; exit 1 if any block failed
//   sqltest --print <extension.so | none> <file.sql>  echo the file with the actual results
//
// The runner opens an in-memory SQLite database, loads the extension (entry point
// sqlite3_parquet_init; "none" skips loading so the runner can test itself) and runs the file's
// blocks in order on that one connection. The file format is documented in sql_tests/README.md:
//
//   # a comment
//   statement ok
//   CREATE VIRTUAL TABLE t USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');
//
//   query rowsort
//   SELECT id, bool_col FROM t LIMIT 2;
//   ----
//   0|1
//   1|0
//
//   statement error no such column
//   SELECT nope FROM t;
//
// Every block runs even after a failure; each failure prints file:line, the SQL, and the expected
// and actual outcome. The last line printed is "N passed, M failed". The exit code is 0 only when
// no block failed. In --print mode the file is echoed to stdout with each query's expected rows
// replaced by the actual ones (and each statement's header replaced by its actual outcome), to help
// write tests; the exit code is then 0 unless the file could not be read or the extension could not
// be loaded.
//
// $TESTDATA in a block (SQL, expected rows, error text) becomes tests/data (the test files and the conformance
// files under it, relative to the project root, which is the working directory under ctest); $TMPDIR becomes
// a fresh directory made for this run and removed, with its contents, when the run ends.

#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace pq::sqltest {
namespace {

constexpr std::string_view kTestdataDir = "tests/data";
constexpr std::string_view kSeparator = "----";

// What a block expects. The file's lines are kept so --print mode can echo them.
struct Block {
  enum class Kind { kStatementOk, kStatementError, kQuery, kInvalid };
  Kind kind = Kind::kInvalid;
  size_t header_line = 0;  // index into the file's lines of the block's first line
  size_t sql_begin = 0;    // [sql_begin, sql_end): the SQL lines
  size_t sql_end = 0;
  std::optional<size_t> separator;  // index of the "----" line of a query, if it has one
  size_t end = 0;                   // one past the block's last line (expected rows included)
  std::string error_substring;      // kStatementError: the message must contain this ("" = any)
  bool rowsort = false;             // kQuery: sort actual and expected rows before comparing
  std::string invalid_reason;       // kInvalid: why the block could not be parsed
};

// What running one block's SQL produced.
struct Outcome {
  bool ok = true;                 // prepared and stepped to SQLITE_DONE
  std::string error;              // sqlite3_errmsg when !ok
  bool runner_error = false;      // the block itself is malformed (no SQL, several statements)
  std::vector<std::string> rows;  // each row rendered as its values joined by '|'
};

std::string TrimRight(std::string_view s) {
  size_t n = s.size();
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) --n;
  return std::string(s.substr(0, n));
}

bool IsBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

bool IsComment(std::string_view s) {
  size_t i = s.find_first_not_of(" \t");
  return i != std::string_view::npos && s[i] == '#';
}

std::string ReplaceAll(std::string s, std::string_view from, std::string_view to) {
  if (from.empty()) return s;
  size_t pos = 0;
  while ((pos = s.find(from, pos)) != std::string::npos) {
    s.replace(pos, from.size(), to);
    pos += to.size();
  }
  return s;
}

// Splits the file into blocks. A block starts at a header line and ends at the next blank line (or
// the end of the file); blank lines and '#' comment lines between blocks are skipped.
std::vector<Block> ParseBlocks(const std::vector<std::string>& lines) {
  std::vector<Block> blocks;
  size_t i = 0;
  while (i < lines.size()) {
    if (IsBlank(lines[i]) || IsComment(lines[i])) {
      ++i;
      continue;
    }
    Block b;
    b.header_line = i;
    std::istringstream header(lines[i]);
    std::string word, option;
    header >> word >> option;
    if (word == "statement" && option == "ok") {
      b.kind = Block::Kind::kStatementOk;
      std::string extra;
      if (header >> extra) {
        b.kind = Block::Kind::kInvalid;
        b.invalid_reason = "unexpected text after 'statement ok'";
      }
    } else if (word == "statement" && option == "error") {
      b.kind = Block::Kind::kStatementError;
      std::string rest;
      std::getline(header, rest);
      size_t start = rest.find_first_not_of(" \t");
      b.error_substring = start == std::string::npos ? "" : TrimRight(rest.substr(start));
    } else if (word == "query" && (option.empty() || option == "rowsort" || option == "nosort")) {
      b.kind = Block::Kind::kQuery;
      b.rowsort = option == "rowsort";
      std::string extra;
      if (header >> extra) {
        b.kind = Block::Kind::kInvalid;
        b.invalid_reason = "unexpected text after '" + word + " " + option + "'";
      }
    } else {
      b.invalid_reason = "unknown block header '" + TrimRight(lines[i]) +
                         "' (expected 'statement ok', 'statement error [text]', 'query [rowsort]')";
    }
    ++i;
    b.sql_begin = i;
    while (i < lines.size() && !IsBlank(lines[i]) &&
           !(b.kind == Block::Kind::kQuery && TrimRight(lines[i]) == kSeparator)) {
      ++i;
    }
    b.sql_end = i;
    if (b.kind == Block::Kind::kQuery && i < lines.size() && TrimRight(lines[i]) == kSeparator) {
      b.separator = i;
      ++i;
      while (i < lines.size() && !IsBlank(lines[i])) ++i;
    }
    b.end = i;
    if (b.kind != Block::Kind::kInvalid && b.sql_begin == b.sql_end) {
      b.kind = Block::Kind::kInvalid;
      b.invalid_reason = "block has no SQL";
    }
    blocks.push_back(std::move(b));
  }
  return blocks;
}

// Shortest of %.15g, %.16g, %.17g that reads back as the same double; ".0" is appended when the
// text would otherwise look like an integer, so REAL 1.0 and INTEGER 1 render differently.
std::string RenderReal(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Inf" : "-Inf";
  char buf[64];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string RenderValue(sqlite3_stmt* stmt, int col) {
  switch (sqlite3_column_type(stmt, col)) {
    case SQLITE_NULL:
      return "NULL";
    case SQLITE_INTEGER:
      return std::to_string(sqlite3_column_int64(stmt, col));
    case SQLITE_FLOAT:
      return RenderReal(sqlite3_column_double(stmt, col));
    case SQLITE_BLOB: {
      static constexpr char kHex[] = "0123456789abcdef";
      const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(stmt, col));
      int n = sqlite3_column_bytes(stmt, col);
      std::string s = "x'";
      for (int i = 0; i < n; ++i) {
        s += kHex[p[i] >> 4];
        s += kHex[p[i] & 15];
      }
      return s + "'";
    }
    default: {  // SQLITE_TEXT
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
      int n = sqlite3_column_bytes(stmt, col);
      if (n == 0) return "(empty)";
      std::string s(p, static_cast<size_t>(n));
      return ReplaceAll(ReplaceAll(std::move(s), "\r", "\\r"), "\n", "\\n");
    }
  }
}

// True when sql (the text after a block's first statement) holds another statement, not only
// whitespace and comments. Preparing it has no effect on the database.
bool HoldsStatement(sqlite3* db, const char* sql) {
  if (sql == nullptr || *sql == '\0') return false;
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
  sqlite3_finalize(stmt);
  return rc != SQLITE_OK || stmt != nullptr;
}

// Runs exactly one SQL statement to completion and collects its rendered rows.
Outcome RunSql(sqlite3* db, const std::string& sql) {
  Outcome out;
  sqlite3_stmt* stmt = nullptr;
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, &tail) != SQLITE_OK) {
    out.ok = false;
    out.error = sqlite3_errmsg(db);
    return out;
  }
  if (stmt == nullptr) {
    out.ok = false;
    out.runner_error = true;
    out.error = "block holds no SQL statement";
    return out;
  }
  if (HoldsStatement(db, tail)) {
    sqlite3_finalize(stmt);
    out.ok = false;
    out.runner_error = true;
    out.error =
        "block holds more than one SQL statement (one per block); the rest is: " + TrimRight(tail);
    return out;
  }
  int columns = sqlite3_column_count(stmt);
  // EXPLAIN QUERY PLAN: only the plan's text (its last column); the others are ids and bytecode
  // addresses, which differ between SQLite releases for the same plan.
  const int first_column = sqlite3_stmt_isexplain(stmt) == 2 ? columns - 1 : 0;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    std::string row;
    for (int c = first_column; c < columns; ++c) {
      if (c > first_column) row += '|';
      row += RenderValue(stmt, c);
    }
    out.rows.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) {
    out.ok = false;
    out.error = sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  return out;
}

class Runner {
 public:
  Runner(std::string file, std::vector<std::string> lines, std::string tmpdir, bool print_mode)
      : file_(std::move(file)),
        lines_(std::move(lines)),
        tmpdir_(std::move(tmpdir)),
        print_mode_(print_mode) {}

  // Runs every block on db; returns the number of failed blocks.
  int Run(sqlite3* db) {
    std::vector<Block> blocks = ParseBlocks(lines_);
    size_t echoed = 0;  // --print: lines of the file already echoed
    for (const Block& b : blocks) {
      if (print_mode_) {
        EchoLines(echoed, b.header_line);
        echoed = b.header_line;
      }
      if (b.kind == Block::Kind::kInvalid) {
        Fail(b, b.invalid_reason);
        continue;
      }
      Outcome out = RunSql(db, Substitute(SqlOf(b)));
      if (print_mode_) {
        PrintActual(b, out);
        echoed = b.end;
      } else {
        Check(b, out);
      }
    }
    if (print_mode_) EchoLines(echoed, lines_.size());
    return failed_;
  }

  int passed() const { return passed_; }
  int failed() const { return failed_; }

 private:
  std::string SqlOf(const Block& b) const {
    std::string sql;
    for (size_t i = b.sql_begin; i < b.sql_end; ++i) sql += lines_[i] + "\n";
    return sql;
  }

  std::string Substitute(std::string s) const {
    return ReplaceAll(ReplaceAll(std::move(s), "$TESTDATA", kTestdataDir), "$TMPDIR", tmpdir_);
  }

  // Turns the run's directories back into their placeholders, for --print output.
  std::string Unsubstitute(std::string s) const {
    return ReplaceAll(ReplaceAll(std::move(s), tmpdir_, "$TMPDIR"), kTestdataDir, "$TESTDATA");
  }

  void EchoLines(size_t from, size_t to) const {
    for (size_t i = from; i < to; ++i) std::cout << lines_[i] << "\n";
  }

  void Check(const Block& b, const Outcome& out) {
    if (out.runner_error) return Fail(b, out.error);
    switch (b.kind) {
      case Block::Kind::kStatementOk:
        if (!out.ok) return Fail(b, "expected success, got error: " + out.error);
        break;
      case Block::Kind::kStatementError: {
        if (out.ok) {
          return Fail(b, b.error_substring.empty() ? "expected an error, got success"
                                                   : "expected an error containing '" +
                                                         b.error_substring + "', got success");
        }
        std::string want = Substitute(b.error_substring);
        if (out.error.find(want) == std::string::npos) {
          return Fail(b, "expected an error containing '" + want + "', got error: " + out.error);
        }
        break;
      }
      case Block::Kind::kQuery: {
        if (!b.separator) return Fail(b, "query block has no '----' line before its expected rows");
        if (!out.ok) return Fail(b, "expected rows, got error: " + out.error);
        std::vector<std::string> expected;
        for (size_t i = *b.separator + 1; i < b.end; ++i)
          expected.push_back(Substitute(TrimRight(lines_[i])));
        // Trailing blanks are invisible in the file, so neither side's count.
        std::vector<std::string> actual;
        for (const std::string& r : out.rows) actual.push_back(TrimRight(r));
        if (b.rowsort) {
          std::sort(expected.begin(), expected.end());
          std::sort(actual.begin(), actual.end());
        }
        if (expected != actual) return FailRows(b, expected, actual);
        break;
      }
      case Block::Kind::kInvalid:
        break;
    }
    ++passed_;
  }

  void PrintActual(const Block& b, const Outcome& out) {
    if (out.runner_error) {
      ++failed_;
      std::cout << "# sqltest: " << out.error << "\n";
      EchoLines(b.header_line, b.end);
      return;
    }
    bool as_expected = (b.kind == Block::Kind::kStatementOk && out.ok) ||
                       (b.kind == Block::Kind::kStatementError && !out.ok &&
                        out.error.find(Substitute(b.error_substring)) != std::string::npos);
    if (as_expected) {
      EchoLines(b.header_line, b.end);
      return;
    }
    if (!out.ok) {
      std::cout << "statement error " << Unsubstitute(out.error) << "\n";
      EchoLines(b.sql_begin, b.sql_end);
      return;
    }
    if (b.kind != Block::Kind::kQuery) {
      std::cout << "statement ok\n";
      EchoLines(b.sql_begin, b.sql_end);
      return;
    }
    EchoLines(b.header_line, b.sql_end);
    std::cout << kSeparator << "\n";
    std::vector<std::string> rows = out.rows;
    if (b.rowsort) std::sort(rows.begin(), rows.end());
    for (const std::string& r : rows) std::cout << Unsubstitute(r) << "\n";
  }

  void Fail(const Block& b, const std::string& why) {
    ++failed_;
    std::cerr << file_ << ":" << b.header_line + 1 << ": " << why << "\n";
    PrintSql(b);
  }

  void FailRows(const Block& b, const std::vector<std::string>& expected,
                const std::vector<std::string>& actual) {
    ++failed_;
    std::cerr << file_ << ":" << b.header_line + 1 << ": query results differ"
              << (b.rowsort ? " (rows sorted)" : "") << "\n";
    PrintSql(b);
    size_t first_diff = 0;
    while (first_diff < expected.size() && first_diff < actual.size() &&
           expected[first_diff] == actual[first_diff]) {
      ++first_diff;
    }
    std::cerr << "  first difference at row " << first_diff + 1 << "\n";
    std::cerr << "  expected (" << expected.size() << " rows):\n";
    for (const std::string& r : expected) std::cerr << "    " << r << "\n";
    std::cerr << "  actual (" << actual.size() << " rows):\n";
    for (const std::string& r : actual) std::cerr << "    " << r << "\n";
  }

  void PrintSql(const Block& b) const {
    if (b.sql_begin == b.sql_end) return;
    std::cerr << "  SQL:\n";
    for (size_t i = b.sql_begin; i < b.sql_end; ++i)
      std::cerr << "    " << Substitute(lines_[i]) << "\n";
  }

  std::string file_;
  std::vector<std::string> lines_;
  std::string tmpdir_;
  bool print_mode_;
  int passed_ = 0;
  int failed_ = 0;
};

// A directory that exists for the life of this object, removed with its contents afterwards.
class TempDir {
 public:
  TempDir() {
    std::error_code ec;
    std::filesystem::path base = std::filesystem::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string pattern = (base / "sqltest-XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

int Usage() {
  std::cerr << "usage: sqltest [--print] <extension.so | none> <file.sql>\n";
  return 2;
}

int Main(int argc, char** argv) {
  bool print_mode = false;
  int arg = 1;
  if (arg < argc && std::string_view(argv[arg]) == "--print") {
    print_mode = true;
    ++arg;
  }
  if (argc - arg != 2) return Usage();
  std::string extension = argv[arg];
  std::string file = argv[arg + 1];

  std::ifstream in(file);
  if (!in) {
    std::cerr << "sqltest: cannot read " << file << "\n";
    return 2;
  }
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }

  TempDir tmpdir;
  if (tmpdir.path().empty()) {
    std::cerr << "sqltest: cannot create a temporary directory\n";
    return 2;
  }

  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
    std::cerr << "sqltest: cannot open an in-memory database\n";
    sqlite3_close(db);
    return 2;
  }
  if (extension != "none") {
    sqlite3_enable_load_extension(db, 1);
    char* err = nullptr;
    if (sqlite3_load_extension(db, extension.c_str(), "sqlite3_parquet_init", &err) != SQLITE_OK) {
      std::cerr << "sqltest: cannot load " << extension << ": " << (err ? err : "unknown error")
                << "\n";
      sqlite3_free(err);
      sqlite3_close(db);
      return 2;
    }
    sqlite3_enable_load_extension(db, 0);
  }

  Runner runner(file, std::move(lines), tmpdir.path(), print_mode);
  runner.Run(db);
  if (sqlite3_close(db) != SQLITE_OK) {
    std::cerr << "sqltest: closing the database failed (a statement was left open?)\n";
    return 2;
  }
  if (print_mode) return 0;
  std::cout << runner.passed() << " passed, " << runner.failed() << " failed\n";
  return runner.failed() == 0 ? 0 : 1;
}

}  // namespace
}  // namespace pq::sqltest

int main(int argc, char** argv) {
  return pq::sqltest::Main(argc, argv);
}
