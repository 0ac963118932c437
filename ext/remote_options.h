// Remote sources for the SQL layer: the options that say how http(s):// URLs and s3:// URIs are
// reached, the connection's registry of such settings, and SQLite's interrupt for waiting requests.
//
//   CREATE VIRTUAL TABLE temp.t USING parquet('s3://bucket/sales/**/*.parquet',
//       s3_region='eu-west-1', s3_access_key_id='AKIA...', s3_secret_access_key='...');
//   SELECT parquet_secret('scope=s3://bucket/, s3_access_key_id=AKIA..., s3_secret_access_key=...');
//   CREATE VIRTUAL TABLE t USING parquet('s3://bucket/sales/*.parquet');  -- no secret in the schema
//
// Options (tables, parquet_export, write tables; remote/remote_access.h has the precedence):
//   s3_region, s3_endpoint, s3_access_key_id, s3_secret_access_key, s3_session_token,
//   s3_url_style=path|vhost, s3_use_ssl=0|1, s3_part_size=MIB (multipart parts, default 16),
//   http_retries, http_timeout (seconds), http_retry_wait_ms, http_retry_backoff,
//   http_bearer_token, http_headers='Name: value; ...', http_ca_file=PATH
//
// parquet_secret(OPTIONS) registers settings for this connection: OPTIONS is a `key=value, ...`
// string of the options above plus `scope=PREFIX` (the locations it applies to: those that start
// with PREFIX, such as 's3://bucket/' or 'https://host/'; every location when left out). For one
// location the entry with the longest matching scope applies, and a table's own options win over
// it. Registering a scope again replaces its entry; parquet_secret('scope=PREFIX') with no other
// setting removes it. Returns 1. The settings live in the connection's memory only (the function
// is SQLITE_DIRECTONLY: a view or trigger of a database someone else wrote cannot change them), and
// no message ever shows a secret.
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "ext/options.h"
#include "ext/sqlite_api.h"
#include "format/remote/remote_access.h"
#include "format/util/status.h"

namespace pq::ext {

// Every remote option name, for the known-option lists of tables and parquet_export.
extern const std::vector<std::string_view> kRemoteOptionNames;

// The remote settings among `opts` (names in kRemoteOptionNames), checked: InvalidArgument naming
// the option (and its value, unless it is a secret) for a bad one.
Result<std::vector<remote::Setting>> RemoteSettingsFromOptions(const OptionList& opts);

// A RemoteAccess for a table or call on `db`: the connection's registry, then `settings`; waiting
// requests stop when the connection is interrupted (ConnectionInterrupted).
std::shared_ptr<remote::RemoteAccess> MakeRemoteAccess(sqlite3* db,
                                                       std::shared_ptr<const remote::SettingsRegistry> registry,
                                                       std::vector<remote::Setting> settings);

// Whether sqlite3_interrupt was called on `db` for the statement running now: sqlite3_is_interrupted
// where the SQLite library has it (3.41 and later), else a one-row statement run on the connection,
// which fails with SQLITE_INTERRUPT exactly when the connection is interrupted. Only the thread that
// runs the connection's statement asks; other threads get false.
std::function<bool()> InterruptPoller(sqlite3* db);
// InterruptPoller(db) asked at most every 10 ms (false in between): for loops that would otherwise
// ask it per batch. With a SQLite before 3.41, which answers by running a statement, every 250 ms.
std::function<bool()> PeriodicInterruptPoller(sqlite3* db);

// Registers parquet_secret on `db`, adding to `registry` (the connection's; its tables and
// functions read through it).
int RegisterSecretFunction(sqlite3* db, std::shared_ptr<remote::SettingsRegistry> registry);

}  // namespace pq::ext
