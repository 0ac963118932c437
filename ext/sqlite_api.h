// Every ext/ file includes SQLite through this header: the extension calls SQLite through the routine
// table handed to sqlite3_parquet_init (sqlite3ext.h), so the same code works as a loadable module and
// when linked into a program.
#pragma once

#include <sqlite3ext.h>

#include <cstdint>
#include <string>

#include "format/util/status.h"

SQLITE_EXTENSION_INIT3

namespace pq::ext {

// The one place a Status becomes an SQLite error: every failure is SQLITE_ERROR with the Status's
// message (which names file, row group, column and page), except allocation failure (SQLITE_NOMEM)
// and a request stopped by the connection's interrupt (SQLITE_INTERRUPT).
int ToSqliteCode(const Status& s);
// Replaces vtab->zErrMsg with the message; returns ToSqliteCode(s).
int SetVtabError(sqlite3_vtab* vtab, const Status& s);
// Sets the error of a function call.
void SetFunctionError(sqlite3_context* ctx, const Status& s);
// A copy of `s` made with sqlite3_malloc (for *pzErr out-parameters), or null on OOM.
char* SqliteStrdup(const std::string& s);

// What SQLite's numeric affinity makes of a value (sqlite3_value_numeric_type), found without
// changing it: `type` is SQLITE_INTEGER (`i`), SQLITE_FLOAT (`d`), SQLITE_TEXT for a text that is not
// a number, SQLITE_BLOB or SQLITE_NULL. sqlite3_value_numeric_type converts the value it is given, so
// it cannot be used on an argument SQLite may read again, nor on a copy from sqlite3_value_dup, which
// belongs to no connection and on which SQLite 3.53 and later dereference a null connection. A text
// that is a number (ParseSqlNumber) is an INTEGER when its digits alone fit in 64 bits, else the
// REAL sqlite3_value_double reads from it: the conversion numeric affinity applies. A text with a
// NUL byte is read up to it, or is no number, as this SQLite does (ProbeNumericAffinity).
struct NumericValue {
  int type = SQLITE_NULL;
  int64_t i = 0;
  double d = 0;
};
NumericValue NumericAffinityOf(sqlite3_value* v);
// Finds out whether this SQLite's numeric affinity reads a TEXT only up to its first NUL ('12' ||
// char(0) || 'x' is 12: 3.53) or finds no number in such a text (3.40), for NumericAffinityOf (one
// SQLite library serves the process). Called for each connection the module is registered on.
void ProbeNumericAffinity(sqlite3* db);
// Finds out whether this SQLite's `->>` ends a JSON string at its first \u0000 (3.40: '"A\u0000B"'
// gives 'A') or keeps it whole (3.53: three bytes), for JsonStringsEndAtNul. Called with
// ProbeNumericAffinity; a SQLite without JSON functions counts as one that ends them.
void ProbeJsonStrings(sqlite3* db);
bool JsonStringsEndAtNul();

// Whether SQLite is connecting table `schema`.`table` for CREATE VIRTUAL TABLE (xCreate) rather than
// connecting a table that exists (xConnect): the parquet module has one function for both (so that
// SQLite takes it as eponymous), so this looks for the running statement that creates it (the
// CREATE VIRTUAL TABLE statement naming the table; comments, quoting and IF NOT EXISTS read as SQLite
// reads them).
bool BeingCreated(sqlite3* db, const char* schema, const char* table);

// Runs `body` (returning an SQLite code) and turns any escaping C++ exception into an SQLite error, so
// that no exception ever crosses into SQLite. std::bad_alloc becomes SQLITE_NOMEM.
template <typename Fn>
int Guarded(sqlite3_vtab* vtab, Fn&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    if (vtab) SetVtabError(vtab, Status::InvalidArgument(std::string("internal error: ") + e.what()));
    return SQLITE_ERROR;
  } catch (...) {
    return SQLITE_ERROR;
  }
}

// Same for scalar / aggregate function callbacks.
template <typename Fn>
void GuardedFunction(sqlite3_context* ctx, Fn&& body) noexcept {
  try {
    body();
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  } catch (const std::exception& e) {
    sqlite3_result_error(ctx, (std::string("internal error: ") + e.what()).c_str(), -1);
  } catch (...) {
    sqlite3_result_error(ctx, "internal error", -1);
  }
}

}  // namespace pq::ext
