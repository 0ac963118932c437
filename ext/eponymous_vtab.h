// The frame of the file-reading table-valued functions (metadata_functions.h, index_functions.h):
// eponymous-only, read-only virtual tables whose arguments are hidden columns, each described by a
// `Function` record that the module receives as its client data. What they share is here: the vtab
// that remembers its Function, xConnect / xDisconnect, xOpen / xClose of a cursor type, the module
// table, the result setters their xColumn callbacks use, and StatusToVtab for their errors. Every
// such table is SQLITE_VTAB_DIRECTONLY (ConnectFunctionVtab says why).
#pragma once

#include <memory>
#include <new>
#include <string_view>

#include "ext/encryption_options.h"
#include "ext/options.h"
#include "ext/remote_options.h"
#include "ext/sqlite_api.h"
#include "format/crypto/decryption_config.h"
#include "format/file/file_reader.h"
#include "format/value/cell.h"

namespace pq::ext {

// What a function's module gets as client data on one connection: the Function, the connection's
// keys (parquet_add_key), with which the functions open encrypted files, and its remote settings
// (parquet_secret), with which they reach http(s):// and s3:// files.
template <typename Function>
struct FunctionClient {
  const Function* function;
  std::shared_ptr<const crypto::KeyRegistry> keys;
  std::shared_ptr<const remote::SettingsRegistry> remote;
};

// sqlite3_create_module_v2 of `module` for `function` on `db`, with the connection's `keys` and
// remote settings.
template <typename Function>
int CreateFunctionModule(sqlite3* db, const sqlite3_module* module, const Function& function,
                         std::shared_ptr<const crypto::KeyRegistry> keys,
                         std::shared_ptr<const remote::SettingsRegistry> remote) {
  FunctionClient<Function>* client = nullptr;
  try {
    client = new FunctionClient<Function>{&function, std::move(keys), std::move(remote)};
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
  // SQLite calls the destructor when the module goes, and also when registering it fails.
  return sqlite3_create_module_v2(db, function.name, module, client, [](void* p) {
    delete static_cast<FunctionClient<Function>*>(p);
  });
}

// The sqlite3_vtab of a table-valued function: which Function it is.
template <typename Function>
struct FunctionVtab {
  sqlite3_vtab base;                       // must come first: SQLite sees only this
  const FunctionClient<Function>* client;  // which function this table is, and the keys
  sqlite3* db;                             // the connection (its interrupt stops remote requests)
};

template <typename Function>
const Function& FunctionOf(sqlite3_vtab* vtab) {
  return *reinterpret_cast<FunctionVtab<Function>*>(vtab)->client->function;
}

// The options of a call's OPTIONS argument (`key=value, ...`, parsed as parquet_export's options
// string): the decryption options a `parquet` table takes (kDecryptionOptionNames: footer_key,
// column_keys, aad_prefix, master_keys). InvalidArgument naming an unknown option, or saying what
// is malformed; no message shows an option's value.
Result<OptionList> ParseFunctionOptions(std::string_view function_name, std::string_view text);

// The ReaderOptions of one call: decryption with the keys of `opts` (ParseFunctionOptions; none:
// an empty list) before those of the connection's registry, which finds keys by the key ids the
// file names (an encrypted file whose keys were neither given nor registered fails to open, saying
// which id); and the connection's remote settings. Without options it is what every call got before
// OPTIONS existed. InvalidArgument naming the function and the malformed option (never its value).
template <typename Function>
Result<ReaderOptions> ReaderOptionsOf(sqlite3_vtab* vtab, const OptionList& opts) {
  const auto* v = reinterpret_cast<FunctionVtab<Function>*>(vtab);
  ReaderOptions options;
  auto decryption = DecryptionFromOptions(opts, v->client->keys);
  if (!decryption.ok()) return decryption.status().WithContext(v->client->function->name);
  options.decryption = std::move(decryption).value();
  options.remote = MakeRemoteAccess(v->db, v->client->remote, {});
  return options;
}

// The ReaderOptions of a call whose OPTIONS argument is `text` (none: not given, or NULL):
// ParseFunctionOptions, then ReaderOptionsOf.
template <typename Function>
Result<ReaderOptions> CallReaderOptions(sqlite3_vtab* vtab, const std::optional<std::string>& text) {
  PQ_ASSIGN_OR_RETURN(OptionList opts, ParseFunctionOptions(FunctionOf<Function>(vtab).name, text.value_or("")));
  return ReaderOptionsOf<Function>(vtab, opts);
}

// The text of a call's argument `v`, or nullopt when it is NULL. Throws std::bad_alloc when SQLite
// cannot convert it (the callbacks are guarded).
std::optional<std::string> ArgumentText(sqlite3_value* v);

// xConnect: declares the table `aux` (a const FunctionClient*) describes with its Function's
// `declaration` and makes it DIRECTONLY.
template <typename Function>
int ConnectFunctionVtab(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out,
                        char**) {
  *out = nullptr;
  const auto* client = static_cast<const FunctionClient<Function>*>(aux);
  int rc = sqlite3_declare_vtab(db, client->function->declaration);
  if (rc != SQLITE_OK) return rc;
  // These functions read any file the process can read. DIRECTONLY keeps them out of views and
  // triggers, so a database file someone else wrote cannot make this connection read files by
  // having it run their schema (the same reasoning as SQLite's csv and fileio extensions). They are
  // deliberately not SQLITE_VTAB_INNOCUOUS.
  sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
  try {
    auto vtab = std::make_unique<FunctionVtab<Function>>();  // value-initialized: `base` all zero
    vtab->client = client;
    vtab->db = db;
    *out = &vtab.release()->base;
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
}

template <typename Function>
int DisconnectFunctionVtab(sqlite3_vtab* vtab) {
  std::unique_ptr<FunctionVtab<Function>> owned(reinterpret_cast<FunctionVtab<Function>*>(vtab));
  sqlite3_free(vtab->zErrMsg);
  return SQLITE_OK;
}

// xOpen: a value-initialized Cursor, a struct whose first member is `sqlite3_vtab_cursor base`.
template <typename Cursor>
int OpenFunctionCursor(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = nullptr;
  try {
    auto cursor = std::make_unique<Cursor>();  // value-initialized: `base` is all zero
    *out = &cursor.release()->base;
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
}

template <typename Cursor>
int CloseFunctionCursor(sqlite3_vtab_cursor* cursor) {
  std::unique_ptr<Cursor> owned(reinterpret_cast<Cursor*>(cursor));
  return SQLITE_OK;
}

// The module of a table-valued function over Function and Cursor. Eponymous-only (xCreate and
// xDestroy null): the function exists in every schema without CREATE VIRTUAL TABLE, and CREATE
// VIRTUAL TABLE ... USING it is refused. No xUpdate and the rest: read-only, no transactions.
//
// Use:
//   struct MyFunction { const char* name; const char* declaration; ... };
//   struct MyCursor { sqlite3_vtab_cursor base; ... };  // `base` first
//   constexpr sqlite3_module kModule = EponymousModule<MyFunction, MyCursor>(
//       MyBestIndex, MyFilter, MyNext, MyEof, MyColumn, MyRowid);
//   CreateFunctionModule(db, &kModule, f, keys);
//   ... FunctionOf<MyFunction>(vtab), ReaderOptionsOf<MyFunction>(vtab, opts) in the callbacks.
template <typename Function, typename Cursor>
constexpr sqlite3_module EponymousModule(int (*best_index)(sqlite3_vtab*, sqlite3_index_info*),
                                         int (*filter)(sqlite3_vtab_cursor*, int, const char*, int,
                                                       sqlite3_value**),
                                         int (*next)(sqlite3_vtab_cursor*),
                                         int (*eof)(sqlite3_vtab_cursor*),
                                         int (*column)(sqlite3_vtab_cursor*, sqlite3_context*, int),
                                         int (*rowid)(sqlite3_vtab_cursor*, sqlite3_int64*)) {
  sqlite3_module module{};
  module.iVersion = 0;
  module.xCreate = nullptr;
  module.xConnect = ConnectFunctionVtab<Function>;
  module.xBestIndex = best_index;
  module.xDisconnect = DisconnectFunctionVtab<Function>;
  module.xDestroy = nullptr;
  module.xOpen = OpenFunctionCursor<Cursor>;
  module.xClose = CloseFunctionCursor<Cursor>;
  module.xFilter = filter;
  module.xNext = next;
  module.xEof = eof;
  module.xColumn = column;
  module.xRowid = rowid;
  return module;
}

// SQLITE_OK when `s` is OK, else SetVtabError(vtab, s).
inline int StatusToVtab(sqlite3_vtab* vtab, const Status& s) {
  return s.ok() ? SQLITE_OK : SetVtabError(vtab, s);
}

// Result setters: each copies what it is given (SQLITE_TRANSIENT).
void ResultText(sqlite3_context* ctx, std::string_view text);
void ResultBlob(sqlite3_context* ctx, std::string_view bytes);
// A Cell as the SQLite value of its type; kNull leaves the result NULL.
void ResultCell(sqlite3_context* ctx, const Cell& cell);

}  // namespace pq::ext
