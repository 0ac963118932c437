// Scan statistics for SQL: what the last scan of each `parquet` table did, and the function that
// shows it.
//
//   SELECT count(*) FROM t WHERE id = 42;
//   SELECT parquet_scan_stats('t');          -- JSON object, one key per ScanCounters field
//   SELECT json_extract(parquet_scan_stats('t'), '$.row_groups_skipped_by_statistics');
//
// A scan is one xFilter call: the counters restart at every xFilter on the table and grow while the
// scan reads. Each connection has one ScanStatsRegistry, shared by the `parquet` module (every table
// adds itself when it connects and removes itself when it disconnects or is dropped, so nothing
// points at a table that is gone) and by the parquet_scan_stats function. The registry lives as
// long as the last of them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ext/sqlite_api.h"
#include "format/predicate/scan_counters.h"

namespace pq::ext {

// The JSON object for `c`: {"files_considered":0,...}, keys in the order of the struct.
std::string ScanCountersJson(const ScanCounters& c);

// One table of the connection and the counters of its last scan.
struct ScanRecord {
  std::string schema;       // "main", "temp", or an attached database's name
  std::string table;        // the name the table was created with
  uint64_t scan_id = 0;     // the scan whose counters these are; 0 before the first scan
  ScanCounters counters;
};

// The `parquet` tables of one connection, by name. Not thread-safe: SQLite calls a connection's
// virtual tables and functions from one thread at a time.
class ScanStatsRegistry {
 public:
  // Adds a table; the record stays valid for as long as the caller holds it.
  std::shared_ptr<ScanRecord> Add(std::string schema, std::string table);
  // Removes the record Add returned (a no-op for one already removed).
  void Remove(const ScanRecord* record);
  // The table named `name`: "t" or "schema.t", both case-insensitive. A bare name is looked up the
  // way SQLite resolves one: temp first, then main, then attached databases. Null when none.
  const ScanRecord* Find(std::string_view name) const;
  // A fresh scan id (never 0).
  uint64_t NextScanId() { return ++last_scan_id_; }

 private:
  std::vector<std::shared_ptr<ScanRecord>> records_;  // in connect order
  uint64_t last_scan_id_ = 0;
};

// Registers parquet_scan_stats(TABLE) on `db`: the JSON counters of the last scan of TABLE on this
// connection; NULL when the table has not been scanned yet; an error when no `parquet` table of
// that name is open on the connection (SQLite opens a table of a database's schema when a statement
// first uses it, and again after a schema change such as ALTER TABLE ... RENAME).
int RegisterScanStatsFunction(sqlite3* db, std::shared_ptr<ScanStatsRegistry> registry);

}  // namespace pq::ext
