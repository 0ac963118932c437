// Secrets stay out of database files. SQLite stores the text of CREATE VIRTUAL TABLE, module
// arguments included, in the schema of the table's database, so an option holding a key would be
// readable by anyone who can read that file (or a copy: .backup, VACUUM INTO). A `parquet` table
// outside the temp database whose options hold a secret is therefore refused at CREATE; keys
// registered with parquet_add_key (key_functions.h) stay in the connection's memory, and key ids
// are not secrets. kSecretOptionNames is the one list of options whose values are secrets (keys,
// S3 credentials, HTTP bearer tokens and headers); parquet_secret (remote_options.h) keeps secrets
// in the connection's memory only.
#pragma once

#include <string_view>
#include <vector>

#include "ext/sqlite_api.h"

namespace pq::ext {

// The one list of options whose values are secrets: add new ones here (S3 credentials such as
// s3_secret_access_key, s3_session_token) and the check covers them.
extern const std::vector<std::string_view> kSecretOptionNames;

// True when `key` (an option name, any case) names a secret.
bool IsSecretOption(std::string_view key);

// For xCreate, with the module arguments as SQLite passes them (argv[1] the database, argv[2] the
// table, options from argv[4]): SQLITE_OK when the table is in temp or no option holds a secret;
// otherwise SQLITE_ERROR with *err (sqlite3_malloc'ed) naming the option, never its value.
int CheckSecretsNotStored(int argc, const char* const* argv, char** err);

}  // namespace pq::ext
