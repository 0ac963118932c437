#!/usr/bin/env bash
# Peak memory of a full scan of a file with many row groups (`make bench-memory`): memory must stay
# bounded by the row groups in flight, not grow with the file.
set -euo pipefail
cd "$(dirname "$0")/.."
ext="${1:-build/parquet}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for rows in 1000000 10000000; do
  node bench/make_many_row_groups.mjs "$dir/f.parquet" "$rows" 100000
  size=$(stat -c %s "$dir/f.parquet")
  out=$( { /usr/bin/time -f "%M %e" sqlite3 -cmd ".load $ext" :memory: \
      "CREATE VIRTUAL TABLE temp.t USING parquet('$dir/f.parquet'); SELECT count(*), sum(id), sum(v), max(name), sum(d) FROM t;" >/dev/null; } 2>&1 )
  read -r kb secs <<<"$out"
  echo "rows=$rows row_groups=$((rows / 100000)) file_bytes=$size full_scan_peak_rss_kb=$kb seconds=$secs"
done
