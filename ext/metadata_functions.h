// parquet_metadata, parquet_schema, parquet_file_metadata and parquet_kv_metadata: the footer of
// one Parquet file as rows (one per column chunk, schema element, file, key/value pair), named and
// shaped like DuckDB's functions of the same names so queries written for one work on the other.
// Each is an eponymous-only virtual table whose argument is the hidden column `path`; each call
// opens the file and reads its footer (nothing is cached between statements), and errors carry the
// reader's message, which names the file. They are SQLITE_VTAB_DIRECTONLY: they read files, so they
// may not run from a view or trigger that someone else's schema defines. Their columns are
// documented in docs/functions.md; statistics are typed as the table types values
// (metadata_values.h).
#pragma once

#include <memory>

#include "ext/sqlite_api.h"
#include "format/crypto/decryption_config.h"
#include "format/remote/remote_access.h"

namespace pq::ext {

// Registers the four functions on `db`; they open encrypted files with the connection's `keys`
// (parquet_add_key; may be null) and reach http(s):// and s3:// files with its `remote` settings
// (parquet_secret; may be null). Returns SQLITE_OK or the first failing
// sqlite3_create_module_v2 code.
int RegisterMetadataFunctions(sqlite3* db, std::shared_ptr<const crypto::KeyRegistry> keys,
                              std::shared_ptr<const remote::SettingsRegistry> remote);

}  // namespace pq::ext
