-- Writes examples/trips.parquet, the demo's sample, with the extension's own writer (parquet_export):
-- 100,000 taxi-like trips with a timestamp, a decimal fare, a vendor string and a few more columns.
--   sqlite3 -cmd '.load build/parquet' :memory: < examples/make_sample.sql
-- The rows come from generate_series (built into the sqlite3 shell); columns computed by expressions
-- have no declared type, so schema= gives the ones that are not plain integers, reals or text.
SELECT 'wrote examples/trips.parquet: ' || parquet_export('examples/trips.parquet', '
  SELECT value - 1 AS trip_id,
         CASE value % 3 WHEN 0 THEN ''acme'' WHEN 1 THEN ''blue'' ELSE ''cab co'' END AS vendor,
         datetime(1735689600 + (value - 1) * 37, ''unixepoch'') AS pickup,
         printf(''%d.%02d'', ((value - 1) * 7919 % 5000 + 250) / 100, ((value - 1) * 7919 % 5000 + 250) % 100) AS fare,
         ((value - 1) * 104729 % 2000) / 100.0 AS distance,
         1 + (value - 1) * 13 % 4 AS passengers,
         CASE WHEN value % 10 = 1 THEN ''airport'' WHEN value % 7 = 1 THEN ''night'' END AS tag
  FROM generate_series(1, 100000)',
  'compression=zstd, sorted_by=trip_id,
   schema=''pickup TIMESTAMP, fare DECIMAL(8,2), passengers SMALLINT, tag TEXT''') || ' rows';
