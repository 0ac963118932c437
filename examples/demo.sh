#!/usr/bin/env bash
# `make demo`: runs a few real queries through the stock sqlite3 shell over examples/trips.parquet, which
# the extension itself writes first (examples/make_sample.sql, parquet_export) when it is missing or
# older than that script.
set -euo pipefail
cd "$(dirname "$0")/.."
ext="${1:-build/parquet}"
sample=examples/trips.parquet
if [ ! -f "$sample" ] || [ examples/make_sample.sql -nt "$sample" ]; then
  sqlite3 -bail -cmd ".load $ext" :memory: < examples/make_sample.sql
fi
run() {
  echo
  echo "sqlite> $1"
  sqlite3 -cmd ".load $ext" -cmd ".mode box" :memory: \
    "CREATE VIRTUAL TABLE temp.trips USING parquet('$sample'); $1"
}
run "SELECT * FROM trips LIMIT 5;"
run "SELECT vendor, count(*) AS trips, round(avg(fare), 2) AS avg_fare FROM trips GROUP BY vendor ORDER BY vendor;"
run "SELECT date(pickup) AS day, count(*) FROM trips GROUP BY day ORDER BY day LIMIT 3;"
run "SELECT tag, count(*), round(sum(distance), 1) AS km FROM trips GROUP BY tag ORDER BY tag;"
run "SELECT name, type, logical_type FROM parquet_schema('$sample');"
run "SELECT row_group_id, path_in_schema, compression, stats_min_value, stats_max_value FROM parquet_metadata('$sample') WHERE path_in_schema IN ('pickup', 'fare');"
