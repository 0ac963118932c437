// parquet_page_index(path) and parquet_bloom_probe(path, column, value): two eponymous-only table
// functions that show, per page and per row group, the page index and the Bloom filters a scan
// prunes with. They read those structures through the same ChunkIndexReader the scans use, so what
// they show cannot disagree with what pruning does, and they hold one chunk's index or one row
// group's filter at a time. Like the footer functions (metadata_functions.h) they open the file in
// each call and are SQLITE_VTAB_DIRECTONLY because they read files. Their columns, the values a
// probe accepts and their errors are documented in docs/functions.md.
#pragma once

#include <memory>

#include "ext/sqlite_api.h"
#include "format/crypto/decryption_config.h"
#include "format/remote/remote_access.h"

namespace pq::ext {

// Registers parquet_page_index and parquet_bloom_probe on `db`; they open encrypted files with the
// connection's `keys` (parquet_add_key; may be null) and reach http(s):// and s3:// files with its
// `remote` settings (parquet_secret; may be null). Returns SQLITE_OK or the first failing
// sqlite3_create_module_v2 code.
int RegisterIndexFunctions(sqlite3* db, std::shared_ptr<const crypto::KeyRegistry> keys,
                           std::shared_ptr<const remote::SettingsRegistry> remote);

}  // namespace pq::ext
