// The `parquet` virtual table module.
#pragma once

#include <memory>

#include "ext/source_types.h"
#include "ext/sqlite_api.h"
#include "format/crypto/decryption_config.h"
#include "format/remote/remote_access.h"

namespace pq::ext {

// Registers the `parquet` module on `db`, and parquet_scan_stats(TABLE) (scan_stats.h) which reports
// on its tables. `keys` is the connection's key registry (parquet_add_key, key_functions.h): tables
// find the keys their encrypted files name there. Every table lists its columns' Parquet types in
// `source_types`, which parquet_export reads (source_types.h). `remote` is its remote settings
// (parquet_secret, remote_options.h), beneath each table's own options.
int RegisterParquetModule(sqlite3* db, std::shared_ptr<const crypto::KeyRegistry> keys,
                          std::shared_ptr<SourceTypeRegistry> source_types,
                          std::shared_ptr<const remote::SettingsRegistry> remote);

}  // namespace pq::ext
