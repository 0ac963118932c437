// The `parquet` virtual table module.
#pragma once

#include "ext/sqlite_api.h"

namespace pq::ext {

// Registers the `parquet` module on `db`.
int RegisterParquetModule(sqlite3* db);

}  // namespace pq::ext
