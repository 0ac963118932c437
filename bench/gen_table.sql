-- The benchmark table: a deterministic table of @ROWS@ rows and ten columns, written once into a native
-- SQLite database by the sqlite3 shell (bench/run.mjs substitutes @ROWS@). Row i (1-based) is:
--   id        i                                         sorted integer
--   ts        2024-01-01 00:00:00 + 3*i seconds         sorted timestamp (ISO text, whole seconds)
--   hc        i * 2654435761 mod 1000000007             unsorted, high cardinality (all distinct)
--   category  'cat_NN', 20 values                       from a second multiplicative hash
--   name      'name_NNNNN', 100,000 values              from a third hash
--   value     (i * 69069 mod 1000003) / 100.0           double
--   small     i * 31 mod 201 - 100                      small integer, -100..100
--   price     (i * 40503 mod 10000000) / 100.0          DECIMAL(12,2), 0.00..99999.99
--   flag      i mod 3 = 0                               boolean
--   maybe     NULL for even i, else 'm_NNN'             half-NULL string
-- The declared types are what parquet_export turns into Parquet types (docs/writing.md). The table
-- has no index and no primary key: every filter on the native table is a full scan.
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA page_size = 4096;
CREATE TABLE t(
  id INTEGER,
  ts TIMESTAMP,
  hc INTEGER,
  category TEXT,
  name TEXT,
  value REAL,
  small SMALLINT,
  price DECIMAL(12,2),
  flag BOOLEAN,
  maybe TEXT
);
INSERT INTO t
SELECT value,
       datetime(1704067200 + 3 * value, 'unixepoch'),
       value * 2654435761 % 1000000007,
       printf('cat_%02d', value * 48271 % 2147483647 % 20),
       printf('name_%05d', value * 16807 % 2147483629 % 100000),
       (value * 69069 % 1000003) / 100.0,
       value * 31 % 201 - 100,
       (value * 40503 % 10000000) / 100.0,
       value % 3 = 0,
       CASE WHEN value % 2 = 0 THEN NULL ELSE printf('m_%03d', value % 1000) END
FROM generate_series(1, @ROWS@);
