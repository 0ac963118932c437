# parquet_bloom_probe(path, column, value): one row per row group; bloom_filter_excludes is 1 when the
# row group's Bloom filter for the column proves the value absent, 0 when it may be present, NULL when
# the chunk has no Bloom filter. Expected rows were checked against the data (every value the file
# holds is probed and never excluded) and against DuckDB's parquet_bloom_probe
# (tools/bloom_probe_check.mjs, the ctest duckdb_bloom_probe).

# --------------------------------------------------------------------------------------------------
# data_index_bloom_encoding_stats.parquet: one row group, one STRING column with a Bloom filter.

query
SELECT file_name, row_group_id, bloom_filter_excludes, path, column_name, value
FROM parquet_bloom_probe('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet', 'String', 'Hello');
----
$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet|0|0|$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet|String|Hello

query
SELECT row_group_id, bloom_filter_excludes
FROM parquet_bloom_probe('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet', 'String', 'Goodbye');
----
0|1

# Every value of the file, read through the table: none is excluded.
statement ok
CREATE VIRTUAL TABLE temp.stats USING parquet('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet');

query
SELECT count(*), sum(b.bloom_filter_excludes = 0)
FROM stats, parquet_bloom_probe('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet',
                                'String', stats.String) AS b;
----
14|14

# 500 values the file does not hold: the filter excludes all but a few (false positives).
query
WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < 499)
SELECT count(*), sum(b.bloom_filter_excludes = 1) > 490
FROM n, parquet_bloom_probe('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet',
                            'String', 'absent ' || n.x) AS b;
----
500|1

# A prefix or a different case of a value is a different value.
query
SELECT v.s, bloom_filter_excludes
FROM (SELECT 'He' AS s UNION ALL SELECT 'hello' UNION ALL SELECT 'Hello ' UNION ALL SELECT 'dog') AS v,
     parquet_bloom_probe('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet', 'String', v.s);
----
He|1
hello|1
Hello |1
dog|0

# The same file written with bloom_filter_length in the footer.
statement ok
CREATE VIRTUAL TABLE temp.with_length USING parquet('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_with_length.parquet');

query
SELECT count(*), sum(b.bloom_filter_excludes = 0)
FROM with_length, parquet_bloom_probe('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_with_length.parquet',
                                      'String', with_length.String) AS b;
----
14|14

query
SELECT bloom_filter_excludes
FROM parquet_bloom_probe('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_with_length.parquet', 'String', 'Goodbye');
----
1

# Column names match case-insensitively when only one column matches.
query
SELECT bloom_filter_excludes
FROM parquet_bloom_probe('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet', 'string', 'today');
----
0

# No Bloom filter: NULL, one row per row group.
query
SELECT row_group_id, bloom_filter_excludes
FROM parquet_bloom_probe('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet', 'id', 4);
----
0|NULL

# --------------------------------------------------------------------------------------------------
# The writer's Bloom filters, one column of each type, four row groups of 50 rows. Every value of a
# row is probed in the row's row group (never excluded) and in the other row groups (nearly always
# excluded: the values of different row groups differ).

statement ok
CREATE TABLE src(i INTEGER, r REAL, t TEXT, b BLOB, d DATE, ts TIMESTAMP, dec DECIMAL(10,2),
                 big DECIMAL(30,3), small SMALLINT, u UINTEGER, id UUID);

statement ok
WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < 199)
INSERT INTO src SELECT
  CASE WHEN x % 10 = 9 THEN NULL ELSE x * 7919 - 500000 END,
  CASE x WHEN 0 THEN -0.0 ELSE x * 0.25 - 10 END,
  CASE x WHEN 1 THEN '' ELSE 'str' || x END,
  CAST('b' || x AS BLOB),
  date('2020-01-01', '+' || x || ' days'),
  datetime(1600000000 + x * 3601, 'unixepoch'),
  x * 1.25 - 100,
  (x * 1000003) || '.125',
  x - 100,
  3000000000 + x,
  printf('%08x-0000-4000-8000-%012x', x, x * 7)
FROM n;

statement ok
SELECT parquet_export('$TMPDIR/bloom.parquet', 'SELECT * FROM src',
                      'row_group_size=50, bloom_filter=''i,r,t,b,d,ts,dec,big,small,u,id''');

statement ok
CREATE VIRTUAL TABLE temp.w USING parquet('$TMPDIR/bloom.parquet');

query
SELECT path_in_schema, type, logical_type, has_bloom_filter
FROM parquet_metadata('$TMPDIR/bloom.parquet') WHERE row_group_id = 0;
----
i|INT64|NULL|1
r|DOUBLE|NULL|1
t|BYTE_ARRAY|StringType()|1
b|BYTE_ARRAY|NULL|1
d|INT32|DateType()|1
ts|INT64|TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))|1
dec|INT64|DecimalType(scale=2, precision=10)|1
big|FIXED_LEN_BYTE_ARRAY|DecimalType(scale=3, precision=30)|1
small|INT32|IntType(bitWidth=16, isSigned=1)|1
u|INT32|IntType(bitWidth=32, isSigned=0)|1
id|FIXED_LEN_BYTE_ARRAY|UUIDType()|1

# Per column: probes (a NULL value gives no rows), probes of the row's own row group that are not
# excluded (all of them), probes of the other row groups, and how many of those are excluded.
query
SELECT c.name, count(*),
       sum(b.row_group_id = w.rowid / 50 AND b.bloom_filter_excludes = 0),
       sum(b.row_group_id != w.rowid / 50), sum(b.row_group_id != w.rowid / 50 AND b.bloom_filter_excludes)
FROM (SELECT 'i' AS name UNION ALL SELECT 'r' UNION ALL SELECT 't' UNION ALL SELECT 'b'
      UNION ALL SELECT 'd' UNION ALL SELECT 'ts' UNION ALL SELECT 'dec' UNION ALL SELECT 'big'
      UNION ALL SELECT 'small' UNION ALL SELECT 'u' UNION ALL SELECT 'id') AS c,
     w,
     parquet_bloom_probe('$TMPDIR/bloom.parquet', c.name,
       CASE c.name WHEN 'i' THEN w.i WHEN 'r' THEN w.r WHEN 't' THEN w.t WHEN 'b' THEN w.b
                   WHEN 'd' THEN w.d WHEN 'ts' THEN w.ts WHEN 'dec' THEN w.dec WHEN 'big' THEN w.big
                   WHEN 'small' THEN w.small WHEN 'u' THEN w.u ELSE w.id END) AS b
GROUP BY c.name ORDER BY c.name;
----
b|800|200|600|600
big|800|200|600|598
d|800|200|600|599
dec|800|200|600|600
i|720|180|540|537
id|800|200|600|599
r|800|200|600|597
small|800|200|600|600
t|800|200|600|600
ts|800|200|600|599
u|800|200|600|599

# --------------------------------------------------------------------------------------------------
# How a value is turned into the column's type (index_functions.h). Row group 0 holds rows 0..49.

# INTEGER column (INT64): an integer; a REAL with no fraction and TEXT spelling a number count as it.
query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', -492081) WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', -492081.0) WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', '-492081') WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', -492082) WHERE row_group_id = 0;
----
1

# The value column returns the argument as given.
query
SELECT value, typeof(value) FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', '-492081') WHERE row_group_id = 0;
----
-492081|text

# A BLOB is the PLAIN bytes themselves: 8 little-endian bytes of -492081 for INT64.
query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', x'CF7DF8FFFFFFFFFF') WHERE row_group_id = 0;
----
0

statement error parquet_bloom_probe: $TMPDIR/bloom.parquet, column 'i' (INT64): cannot probe for text 'abc': not an integer
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', 'abc');

statement error cannot probe for real 1.5: not an integer
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', 1.5);

statement error column 'i' (INT64): cannot probe for a 4-byte BLOB: a BLOB must have the type's 8 bytes
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', x'00000000');

# SMALLINT (INT32 annotated INT(16)): range-checked against INT32.
query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'small', -99) WHERE row_group_id = 0;
----
0

statement error column 'small' (INT32, IntType(bitWidth=16, isSigned=1)): cannot probe for integer 3000000000: out of range
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'small', 3000000000);

# UINTEGER (INT32 annotated unsigned): values up to 2^32-1, stored as their bits.
query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'u', 3000000001) WHERE row_group_id = 0;
----
0

statement error cannot probe for integer -1: out of range
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'u', -1);

# REAL (DOUBLE): a zero probes both +0.0 and -0.0; an integer is converted.
query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'r', 0.0) WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'r', -9) WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'r', -8.875) WHERE row_group_id = 0;
----
1

# TEXT: the empty string is a value.
query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 't', '') WHERE row_group_id = 0;
----
0

# A number probes a STRING column as SQLite prints it.
query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 't', 42) WHERE row_group_id = 0;
----
1

# BLOB column: a BLOB, or TEXT as its bytes; numbers are refused.
query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'b', 'b7') WHERE row_group_id = 0;
----
0

statement error column 'b' (BYTE_ARRAY): cannot probe for integer 7: a binary column takes TEXT or a BLOB
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'b', 7);

# DATE: ISO text or days since 1970-01-01 (2020-01-08 is day 18269).
query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'd', '2020-01-08') WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'd', 18269) WHERE row_group_id = 0;
----
0

statement error column 'd' (INT32, DateType()): cannot probe for text '2020-01-08 00:00:00'
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'd', '2020-01-08 00:00:00');

# TIMESTAMP (MICROS): ISO text or the stored microseconds.
query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'ts', '2020-09-13 13:26:41') WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'ts', 1600003601000000) WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'ts', '2020-09-13 13:26:41.000001') WHERE row_group_id = 0;
----
1

# DECIMAL(10,2) (INT64) and DECIMAL(30,3) (FIXED_LEN_BYTE_ARRAY): scaled exactly.
query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'dec', -98.75) WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'dec', '-98.750') WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'dec', -100) WHERE row_group_id = 0;
----
0

statement error column 'dec' (INT64, DecimalType(scale=2, precision=10)): cannot probe for text '1.005': has more fraction digits than the scale 2
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'dec', '1.005');

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'big', '3000009.125') WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'big', '3000009.1250e0') WHERE row_group_id = 0;
----
0

# UUID: canonical text in either case.
query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'id', '00000003-0000-4000-8000-000000000015') WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'id', '0000000A-0000-4000-8000-000000000046') WHERE row_group_id = 0;
----
0

query
SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'id', '00000003-0000-4000-8000-00000000001F') WHERE row_group_id = 0;
----
1

statement error cannot probe for text 'not-a-uuid': not a UUID (8-4-4-4-12 hex digits)
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'id', 'not-a-uuid');

# --------------------------------------------------------------------------------------------------
# Errors

statement error parquet_bloom_probe requires arguments (path, column, value)
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i');

statement error parquet_bloom_probe requires arguments (path, column, value)
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', NULL, 1);

# The optional fourth argument is OPTIONS, the decryption options of a table (encryption.sql); the
# three others are still required.
statement error parquet_bloom_probe requires arguments (path, column, value)
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i') WHERE options = '';

statement error parquet_bloom_probe: option 'oops' is not of the form key=value
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', 1, 'oops');

statement error too many arguments on parquet_bloom_probe
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', 1, '', 5);

# A NULL value: no rows, as `value = NULL` matches nothing.
query
SELECT count(*) FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', NULL);
----
0

statement error parquet_bloom_probe: $TMPDIR/bloom.parquet has no column 'nope'
SELECT * FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'nope', 1);

statement error cannot open '$TMPDIR/missing.parquet'
SELECT * FROM parquet_bloom_probe('$TMPDIR/missing.parquet', 'i', 1);

statement error column 'bool_col' (BOOLEAN): cannot probe for integer 1: the format defines no Bloom filter for BOOLEAN columns
SELECT * FROM parquet_bloom_probe('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet', 'bool_col', 1);

# A different path in the WHERE clause: no rows, and no file opened.
query
SELECT count(*) FROM parquet_bloom_probe('$TMPDIR/bloom.parquet', 'i', 1) WHERE path = 'elsewhere.parquet';
----
0

# tests/data/parquetjs_bloom_header.parquet, written by @dsnp/parquetjs 1.8.9 with a Bloom filter on
# s: its BloomFilterHeader leaves the algorithm, hash and compression unions empty (and the writer
# hashes values as their text). Scans do not use such a filter, and the probe says so: NULL, as for
# a chunk without a filter, not an error. The scan itself finds the row.
query
SELECT row_group_id, bloom_filter_excludes IS NULL FROM parquet_bloom_probe('tests/data/parquetjs_bloom_header.parquet', 's', 'a');
----
0|1

statement ok
CREATE VIRTUAL TABLE temp.pjs_bloom USING parquet('tests/data/parquetjs_bloom_header.parquet');

query
SELECT count(*) > 0, (SELECT count(*) FROM pjs_bloom WHERE s = 'a') = (SELECT count(*) FROM pjs_bloom WHERE s || '' = 'a') FROM pjs_bloom;
----
1|1
