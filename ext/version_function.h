// parquet_version(): the extension's version and the versions of the libraries it runs with, as one
// JSON object, so a bug report can say exactly what was loaded:
//
//   SELECT parquet_version();
//   -- {"parquet":"0.1.0","sqlite":"3.40.1","zstd":"1.5.4","lz4":"1.9.4","snappy":"1.1.9",
//   --  "zlib":"1.2.13","brotli":"1.0.9","lzo":"2.10",
//   --  "openssl":"3.0.17"}
//   SELECT json_extract(parquet_version(), '$.parquet');   -- 0.1.0
//
// "sqlite" is the library the extension was loaded into (sqlite3_libversion), the others are the
// compression and crypto libraries linked into it (format/codec/codec.h CodecLibraryVersions,
// format/crypto/aes_cipher.h OpenSslVersion). Deterministic within a process, innocuous.
#pragma once

#include "ext/sqlite_api.h"

namespace pq::ext {

int RegisterVersionFunction(sqlite3* db);

}  // namespace pq::ext
