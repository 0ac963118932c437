// parquet_add_key(ID, KEY): registers a key for this connection under a key id, the way
// key-management tools name keys in encrypted Parquet files (their key_metadata: short ids such as
// 'kf', 'kc1'); the same ids name master keys for PKMT1 key material, on reading and writing. Keys
// live only in the connection's memory, never in a database file, and are wiped when replaced and
// when the connection closes. It is SQLITE_DIRECTONLY and not deterministic: it changes the
// connection's state, so a view or trigger in a database someone else wrote must not call it (to
// replace a key with one of theirs). Documented in docs/encryption.md ("Keys by id").
#pragma once

#include <memory>

#include "ext/sqlite_api.h"
#include "format/crypto/decryption_config.h"

namespace pq::ext {

// Registers parquet_add_key on `db`, adding to `registry` (the connection's; the parquet module's
// tables read through the same registry). The function keeps the registry alive.
int RegisterKeyFunctions(sqlite3* db, std::shared_ptr<crypto::KeyRegistry> registry);

}  // namespace pq::ext
