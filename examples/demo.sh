#!/usr/bin/env bash
# `make demo`: runs a few real queries through the stock sqlite3 shell over examples/trips.parquet
# (made by examples/make_sample.mjs on first run).
set -euo pipefail
cd "$(dirname "$0")/.."
ext="${1:-build/parquet}"
sample=examples/trips.parquet
if [ ! -f "$sample" ]; then
  node examples/make_sample.mjs
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
run "SELECT name, type, logical_type FROM parquet_schema('$sample');"
