// parquet_version(): the extension's version and the versions of the libraries it runs with, as one
// JSON object, so a bug report can say exactly what was loaded: "sqlite" is the library the
// extension was loaded into (sqlite3_libversion), the others the compression and crypto libraries
// linked into it (CodecLibraryVersions, OpenSslVersion). Deterministic within a process, innocuous.
// Documented in docs/functions.md.
#pragma once

#include "ext/sqlite_api.h"

namespace pq::ext {

int RegisterVersionFunction(sqlite3* db);

}  // namespace pq::ext
