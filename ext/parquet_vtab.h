// The `parquet` virtual table module.
#pragma once

#include "ext/sqlite_api.h"

namespace pq::ext {

// Registers the `parquet` module on `db`, and parquet_scan_stats(TABLE) (scan_stats.h) which reports
// on its tables.
int RegisterParquetModule(sqlite3* db);

}  // namespace pq::ext
