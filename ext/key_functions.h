// parquet_add_key(ID, KEY): registers a decryption key for this connection under a key id, the
// way key-management tools name keys in encrypted Parquet files (the Parquet spec "Parquet Modular
// Encryption": key_metadata of the footer and of each encrypted column; parquet-mr and Arrow in
// "explicit key" mode store short ids such as 'kf', 'kc1').
//
//   SELECT parquet_add_key('kf',  '0123456789012345');        -- footer key
//   SELECT parquet_add_key('kc1', 'hex:31323334353637383930313233343530');
//   CREATE VIRTUAL TABLE t USING parquet('encrypted.parquet');   -- no keys in the schema
//
// Every `parquet` table of the connection opened afterwards finds the keys its files name in this
// registry (explicit footer_key= / column_keys= options win, encryption_options.h). The same ids
// name master keys: a file whose key metadata is PKMT1 key material (parquet-java's and Arrow's
// key tools, single or double wrapping, internal or external material) opens when the master keys
// it names are registered, and parquet_export / write tables wrap fresh keys with them
// (footer_master_key=, column_master_keys=). Keys live only in the connection's memory, never in a
// database file; they are wiped when replaced and when the connection closes.
//
// ID is TEXT or BLOB (its bytes are the key metadata as the file stores it). KEY is key text (hex,
// base64, 16/24/32 characters, or "hex:"/"base64:"/"text:" forms; decryption_config.h) or a BLOB
// of 16, 24 or 32 key bytes. Returns 1. A NULL ID or KEY returns NULL and registers nothing. A
// malformed key is an error; no message ever shows a key.
//
// Registered SQLITE_UTF8 | SQLITE_DIRECTONLY, not deterministic: it changes the connection's state,
// so a view or trigger in a database someone else wrote must not be able to call it (to replace a
// key with one of theirs, or to fill the registry behind the user's back).
#pragma once

#include <memory>

#include "ext/sqlite_api.h"
#include "format/crypto/decryption_config.h"

namespace pq::ext {

// Registers parquet_add_key on `db`, adding to `registry` (the connection's; the parquet module's
// tables read through the same registry). The function keeps the registry alive.
int RegisterKeyFunctions(sqlite3* db, std::shared_ptr<crypto::KeyRegistry> registry);

}  // namespace pq::ext
