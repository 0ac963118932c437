// Secrets stay out of database files.
//
// SQLite stores the text of CREATE VIRTUAL TABLE, module arguments included, in the schema of the
// database the table belongs to, so an option holding a key would be readable by anyone who can
// read the database file (or a copy: .backup, VACUUM INTO). A `parquet` table outside the temp
// database whose options hold a secret is therefore refused at CREATE:
//
//   CREATE VIRTUAL TABLE t USING parquet('x.parquet', footer_key='...');        -- refused
//   CREATE VIRTUAL TABLE temp.t USING parquet('x.parquet', footer_key='...');   -- fine
//   SELECT parquet_add_key('kf', '...');                                         -- fine, then
//   CREATE VIRTUAL TABLE t USING parquet('x.parquet');                           -- fine
//
// Key ids (footer_key_id, column_key_ids, footer_master_key, column_master_keys) are not secrets.
// kSecretOptionNames is the one list of options whose values are secrets (keys, S3 credentials,
// HTTP bearer tokens and headers): add new ones here and the check covers them.
// parquet_add_key (key_functions.h) and parquet_secret (remote_options.h) keep secrets in the
// connection's memory only.
#pragma once

#include <string_view>
#include <vector>

#include "ext/sqlite_api.h"

namespace pq::ext {

extern const std::vector<std::string_view> kSecretOptionNames;

// True when `key` (an option name, any case) names a secret.
bool IsSecretOption(std::string_view key);

// For xCreate, with the module arguments as SQLite passes them (argv[1] the database, argv[2] the
// table, options from argv[4]): SQLITE_OK when the table is in temp or no option holds a secret;
// otherwise SQLITE_ERROR with *err (sqlite3_malloc'ed) naming the option, never its value.
int CheckSecretsNotStored(int argc, const char* const* argv, char** err);

}  // namespace pq::ext
