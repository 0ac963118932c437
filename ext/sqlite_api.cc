#include "ext/sqlite_api.h"

#include <atomic>
#include <cctype>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "ext/options.h"
#include "format/predicate/sql_number.h"

namespace pq::ext {

int ToSqliteCode(const Status& s) {
  if (s.ok()) return SQLITE_OK;
  if (s.code() == StatusCode::kInterrupted) return SQLITE_INTERRUPT;
  return SQLITE_ERROR;
}

char* SqliteStrdup(const std::string& s) {
  char* p = static_cast<char*>(sqlite3_malloc64(s.size() + 1));
  if (p) std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

int SetVtabError(sqlite3_vtab* vtab, const Status& s) {
  if (s.ok()) return SQLITE_OK;
  sqlite3_free(vtab->zErrMsg);
  vtab->zErrMsg = SqliteStrdup(s.message());
  return ToSqliteCode(s);
}

void SetFunctionError(sqlite3_context* ctx, const Status& s) {
  sqlite3_result_error(ctx, s.message().c_str(), static_cast<int>(s.message().size()));
  if (s.code() == StatusCode::kInterrupted) sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
}

namespace {
std::atomic<bool> numeric_text_ends_at_nul{false};  // ProbeNumericAffinity
std::atomic<bool> json_strings_end_at_nul{true};    // ProbeJsonStrings

// The integer a one-row query on `db` gives, or nullopt when it cannot run.
std::optional<int> ProbeInt(sqlite3* db, const char* sql) {
  sqlite3_stmt* stmt = nullptr;
  std::optional<int> result;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) {
    result = sqlite3_column_int(stmt, 0);
  }
  sqlite3_finalize(stmt);
  return result;
}

}  // namespace

void ProbeJsonStrings(sqlite3* db) {
  // length() of a TEXT stops at a NUL; of the same bytes as a BLOB it does not.
  const std::optional<int> bytes = ProbeInt(db, "SELECT length(CAST('{\"a\":\"A\\u0000B\"}' ->> '$.a' AS BLOB))");
  json_strings_end_at_nul.store(bytes != 3, std::memory_order_relaxed);
}

bool JsonStringsEndAtNul() { return json_strings_end_at_nul.load(std::memory_order_relaxed); }

void ProbeNumericAffinity(sqlite3* db) {
  // The CAST gives the left side INTEGER affinity, which the comparison applies to the right side.
  if (const std::optional<int> equal = ProbeInt(db, "SELECT CAST(12 AS INTEGER) = '12' || char(0) || 'x'")) {
    numeric_text_ends_at_nul.store(*equal == 1, std::memory_order_relaxed);
  }
}

NumericValue NumericAffinityOf(sqlite3_value* v) {
  NumericValue n;
  n.type = sqlite3_value_type(v);
  switch (n.type) {
    case SQLITE_INTEGER: n.i = sqlite3_value_int64(v); break;
    case SQLITE_FLOAT: n.d = sqlite3_value_double(v); break;
    case SQLITE_TEXT: {
      const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(v));
      const int size = sqlite3_value_bytes(v);
      if (text == nullptr) break;  // out of memory converting it: left as TEXT
      std::string_view s(text, static_cast<size_t>(size));
      if (const size_t nul = s.find('\0'); nul != std::string_view::npos) {
        if (!numeric_text_ends_at_nul.load(std::memory_order_relaxed)) break;
        s = s.substr(0, nul);
      }
      const SqlNumber number = ParseSqlNumber(s);
      if (number.kind == SqlNumberKind::kInteger) {
        n.type = SQLITE_INTEGER;
        n.i = number.i;
      } else if (number.kind != SqlNumberKind::kNotNumeric) {
        n.type = SQLITE_FLOAT;
        n.d = sqlite3_value_double(v);
      }
      break;
    }
    default: break;
  }
  return n;
}

namespace {

// The next token of `sql` at `pos` for BeingCreated: a word (letters, digits, '_', '$', bytes past
// ASCII), a quoted name ("x", [x], `x`, 'x') without its quotes, or one other character; spaces
// and comments are skipped. Empty at the end.
std::string NextSqlToken(std::string_view sql, size_t& pos) {
  for (;;) {
    while (pos < sql.size() && std::isspace(static_cast<unsigned char>(sql[pos]))) ++pos;
    if (sql.substr(pos, 2) == "--") {
      const size_t end = sql.find('\n', pos);
      pos = end == std::string_view::npos ? sql.size() : end + 1;
    } else if (sql.substr(pos, 2) == "/*") {
      const size_t end = sql.find("*/", pos + 2);
      pos = end == std::string_view::npos ? sql.size() : end + 2;
    } else {
      break;
    }
  }
  if (pos >= sql.size()) return "";
  const char c = sql[pos];
  if (c == '"' || c == '[' || c == '`' || c == '\'') {
    const char close = c == '[' ? ']' : c;
    std::string out;
    for (++pos; pos < sql.size(); ++pos) {
      if (sql[pos] != close) {
        out.push_back(sql[pos]);
      } else if (close != ']' && pos + 1 < sql.size() && sql[pos + 1] == close) {
        out.push_back(close);  // a doubled quote
        ++pos;
      } else {
        ++pos;
        break;
      }
    }
    return out;
  }
  auto is_word = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$' ||
           static_cast<unsigned char>(ch) >= 0x80;
  };
  if (!is_word(c)) return std::string(1, sql[pos++]);
  const size_t start = pos;
  while (pos < sql.size() && is_word(sql[pos])) ++pos;
  return std::string(sql.substr(start, pos - start));
}

}  // namespace

bool BeingCreated(sqlite3* db, const char* schema, const char* table) {
  const std::string want = LowerAscii(table ? table : "");
  const std::string want_schema = LowerAscii(schema ? schema : "");
  for (sqlite3_stmt* st = sqlite3_next_stmt(db, nullptr); st != nullptr; st = sqlite3_next_stmt(db, st)) {
    const char* text = sqlite3_sql(st);
    if (!sqlite3_stmt_busy(st) || text == nullptr) continue;
    const std::string_view sql(text);
    size_t pos = 0;
    auto word = [&]() { return LowerAscii(NextSqlToken(sql, pos)); };
    if (word() != "create") continue;
    std::string w = word();
    bool temp = false;
    if (w == "temp" || w == "temporary") {
      temp = true;
      w = word();
    }
    if (w != "virtual" || word() != "table") continue;
    size_t before = pos;
    if (word() == "if") {
      if (word() != "not" || word() != "exists") continue;
    } else {
      pos = before;
    }
    std::string name = NextSqlToken(sql, pos);
    std::string in_schema = temp ? "temp" : "";
    before = pos;
    if (NextSqlToken(sql, pos) == ".") {
      in_schema = LowerAscii(name);
      name = NextSqlToken(sql, pos);
    } else {
      pos = before;
    }
    if (LowerAscii(name) != want) continue;
    if (!in_schema.empty() && in_schema != want_schema) continue;
    return true;
  }
  return false;
}

}  // namespace pq::ext
