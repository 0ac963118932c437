# The Parquet-to-SQLite value mapping (docs/reading.md, "Value mapping"), one type at a time.
# tests/data/types.parquet was written by DuckDB (tools/make_fixtures.mjs) from known literals:
# row 1 holds typical values, row 2 edge values, row 3 NULL in every column.

statement ok
CREATE VIRTUAL TABLE t USING parquet('tests/data/types.parquet');

# Declared types carry the affinity of the values.
query
SELECT name, type FROM pragma_table_xinfo('t') ORDER BY cid;
----
id|INTEGER
u8|INTEGER
u16|INTEGER
u32|INTEGER
u64|INTEGER
i8|INTEGER
i16|INTEGER
dec_i32|REAL
dec_i64|TEXT
dec_flba|TEXT
uuid|TEXT
d|TEXT
t|TEXT
ts_ms|TEXT
ts_us|TEXT
ts_ns|TEXT
ts_tz|TEXT
iv|TEXT
mood|TEXT
js|TEXT
s|TEXT
b|BLOB
f|REAL
dbl|REAL
bool|INTEGER
filename|TEXT
file_row_number|INTEGER

# Unsigned integers: UINT8/16/32 are INTEGER; UINT64 is INTEGER up to 2^63-1 and REAL above.
query
SELECT u8, u16, u32, u64, typeof(u64) FROM t ORDER BY id;
----
255|65535|4294967295|1.8446744073709552e+19|real
0|0|0|9223372036854775807|integer
NULL|NULL|NULL|NULL|null

# Signed small integers.
query
SELECT i8, i16, typeof(i8) FROM t WHERE id < 3 ORDER BY id;
----
-128|-32768|integer
127|32767|integer

# DECIMAL on INT32, INT64 and FIXED_LEN_BYTE_ARRAY. By default no value changes silently: REAL
# where a double holds every value of the type exactly (precision up to 15: dec_i32 is
# DECIMAL(4,2)), exact TEXT beyond (dec_i64 is DECIMAL(18,3), dec_flba DECIMAL(38,10)).
query
SELECT dec_i32, dec_i64, dec_flba, typeof(dec_i32), typeof(dec_i64), typeof(dec_flba) FROM t WHERE id < 3 ORDER BY id;
----
12.34|-123456789012.345|12345678901234567890.1234567890|real|text|text
-0.05|0.000|-0.0000000001|real|text|text

# decimal=real and decimal=text force one mapping for every DECIMAL column.
statement ok
CREATE VIRTUAL TABLE temp.t_real USING parquet('tests/data/types.parquet', decimal=real);

query
SELECT dec_i32, dec_i64, dec_flba, typeof(dec_flba) FROM t_real WHERE id < 3 ORDER BY id;
----
12.34|-123456789012.345|1.2345678901234567e+19|real
-0.05|0.0|-1e-10|real

statement ok
CREATE VIRTUAL TABLE temp.t_text USING parquet('tests/data/types.parquet', decimal=text);

query
SELECT dec_i32, typeof(dec_i32), (SELECT type FROM pragma_table_info('t_text') WHERE name = 'dec_i32') FROM t_text WHERE id < 3 ORDER BY id;
----
12.34|text|TEXT
-0.05|text|TEXT

# UUID, DATE, TIME, TIMESTAMP in each unit (the fraction has the unit's digits, none when zero).
query
SELECT uuid, d, t, ts_ms, ts_us, ts_ns, ts_tz FROM t WHERE id < 3 ORDER BY id;
----
6ba7b810-9dad-11d1-80b4-00c04fd430c8|2024-02-29|13:45:30.123456|2024-02-29 13:45:30.123|2024-02-29 13:45:30.123456|2024-02-29 13:45:30.123456789|2024-02-29 13:45:30.500000
00000000-0000-0000-0000-000000000000|1969-12-31|00:00:00|1969-12-31 23:59:59.999|1970-01-01 00:00:00|1900-01-01 00:00:00.000000001|2000-01-01 00:00:00

# Date text works with SQLite's date functions and ISO comparisons.
query
SELECT date(ts_us, '+1 day'), strftime('%Y', d), ts_ms < '2024-03-01' FROM t WHERE id = 1;
----
2024-03-01|2024|1

# INTERVAL is JSON text; ENUM and JSON are TEXT.
query
SELECT iv, json_extract(iv, '$.months'), mood, js, json_extract(js, '$.a[1]') FROM t WHERE id < 3 ORDER BY id;
----
{"months":14,"days":3,"millis":4000}|14|happy|{"a": [1, 2]}|2
{"months":0,"days":0,"millis":0}|0|sad|[]|NULL

# STRING is TEXT (UTF-8 kept), unannotated BYTE_ARRAY is BLOB.
query
SELECT s, typeof(s), b, typeof(b) FROM t WHERE id < 3 ORDER BY id;
----
héllo|text|x'00ff'|blob
(empty)|text|x''|blob

# FLOAT and DOUBLE are REAL; NaN reads as NULL, infinities stay REAL. BOOLEAN is 0/1.
query
SELECT f, dbl, bool, typeof(f), typeof(bool) FROM t ORDER BY id;
----
1.5|2.25|1|real|integer
NULL|-Inf|0|null|integer
NULL|NULL|NULL|null|null

# Row 3 is NULL in every column.
query
SELECT count(*) FROM t WHERE id = 3 AND coalesce(u8, u16, u32, u64, i8, i16, dec_i32, dec_i64, dec_flba, uuid, d, t, ts_ms, ts_us, ts_ns, ts_tz, iv, mood, js, s, b, f, dbl, bool) IS NULL;
----
1

# decimal=text gives the exact decimal, keeping the scale's digits.
statement ok
CREATE VIRTUAL TABLE t_dec USING parquet('tests/data/types.parquet', decimal=text);

query
SELECT dec_i32, dec_i64, dec_flba, typeof(dec_flba) FROM t_dec WHERE id < 3 ORDER BY id;
----
12.34|-123456789012.345|12345678901234567890.1234567890|text
-0.05|0.000|-0.0000000001|text

query
SELECT type FROM pragma_table_xinfo('t_dec') WHERE name = 'dec_i64';
----
TEXT

# timestamp=integer gives the stored integer of TIMESTAMP columns (in the column's unit); dates and
# times stay text.
statement ok
CREATE VIRTUAL TABLE t_int USING parquet('tests/data/types.parquet', timestamp=integer);

query
SELECT ts_ms, ts_us, ts_ns, ts_tz, typeof(ts_us), d, t FROM t_int WHERE id < 3 ORDER BY id;
----
1709214330123|1709214330123456|1709214330123456789|1709214330500000|integer|2024-02-29|13:45:30.123456
-1|0|-2208988799999999999|946684800000000|integer|1969-12-31|00:00:00

# INT96 timestamps (alltypes_plain) read as text, and as nanoseconds since 1970 with timestamp=integer.
statement ok
CREATE VIRTUAL TABLE plain USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');

query
SELECT id, timestamp_col, typeof(timestamp_col) FROM plain ORDER BY id LIMIT 2;
----
0|2009-01-01 00:00:00|text
1|2009-01-01 00:01:00|text

statement ok
CREATE VIRTUAL TABLE plain_int USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet', timestamp=integer);

query
SELECT id, timestamp_col FROM plain_int ORDER BY id LIMIT 2;
----
0|1230768000000000000
1|1230768060000000000

# Unannotated BYTE_ARRAY is BLOB; binary_as_string=1 makes it TEXT.
query
SELECT string_col, typeof(string_col) FROM plain ORDER BY id LIMIT 1;
----
x'30'|blob

statement ok
CREATE VIRTUAL TABLE plain_str USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet', binary_as_string=1);

query
SELECT string_col, date_string_col, typeof(string_col) FROM plain_str ORDER BY id LIMIT 1;
----
0|01/01/09|text

query
SELECT type FROM pragma_table_xinfo('plain_str') WHERE name = 'string_col';
----
TEXT

# FLOAT16 reads as REAL: zeros keep their sign, NaN is NULL.
statement ok
CREATE VIRTUAL TABLE f16 USING parquet('$TESTDATA/parquet-testing/data/float16_zeros_and_nans.parquet');

query
SELECT x, typeof(x) FROM f16;
----
NULL|null
0.0|real
NULL|null

# DECIMAL on BYTE_ARRAY (byte_array_decimal: 1.00 to 24.00).
statement ok
CREATE VIRTUAL TABLE bad USING parquet('$TESTDATA/parquet-testing/data/byte_array_decimal.parquet', decimal=text);

query
SELECT value FROM bad LIMIT 3;
----
1.00
2.00
3.00

# A logical type this reader does not know is read by its physical type.
statement ok
CREATE VIRTUAL TABLE unk USING parquet('$TESTDATA/parquet-testing/data/unknown-logical-type.parquet');

query
SELECT "column with known type", "column with unknown type", typeof("column with unknown type") FROM unk;
----
known string 1|x'756e6b6e6f776e20737472696e672031'|blob
known string 2|x'756e6b6e6f776e20737472696e672032'|blob
known string 3|x'756e6b6e6f776e20737472696e672033'|blob

# GEOMETRY is BLOB holding WKB: POINT (30 10) is byte order 1, type 1, then x and y as doubles.
statement ok
CREATE VIRTUAL TABLE geo USING parquet('$TESTDATA/parquet-testing/data/geospatial/geospatial.parquet');

query
SELECT wkt, geometry, typeof(geometry) FROM geo LIMIT 1;
----
POINT (30 10)|x'01010000000000000000003e400000000000002440'|blob

# TEXT with a NUL byte inside keeps every byte, short or long, through a plain column, a
# dictionary column, a nullable one and a converted one (a short text is handed to SQLite
# NUL-terminated, which only a text without a NUL inside can be).
statement ok
CREATE TABLE nul_n(id INTEGER, s TEXT, d TEXT, m TEXT);

statement ok
INSERT INTO nul_n WITH RECURSIVE r(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM r WHERE id < 40)
SELECT id,
       CASE id % 4 WHEN 0 THEN CAST(x'610062' AS TEXT) WHEN 1 THEN 'plain ' || id WHEN 2 THEN ''
                   ELSE CAST(zeroblob(300) AS TEXT) || id END,
       CASE id % 2 WHEN 0 THEN CAST(x'00' AS TEXT) ELSE 'x' END,
       CASE WHEN id % 3 = 0 THEN NULL ELSE CAST(x'6d006d' AS TEXT) || id END
FROM r;

query
SELECT parquet_export('$TMPDIR/nul_text.parquet', 'SELECT * FROM nul_n');
----
40

statement ok
CREATE VIRTUAL TABLE nul_p USING parquet('$TMPDIR/nul_text.parquet');

query
SELECT (SELECT group_concat(hex(s) || ':' || length(CAST(s AS BLOB)) || ':' || hex(d) || ':' || ifnull(hex(m), 'null'), ',') FROM nul_p) IS
       (SELECT group_concat(hex(s) || ':' || length(CAST(s AS BLOB)) || ':' || hex(d) || ':' || ifnull(hex(m), 'null'), ',') FROM nul_n);
----
1

query
SELECT (SELECT sum(length(s)) || sum(length(d)) || sum(length(m)) || typeof(min(s)) FROM nul_p) IS
       (SELECT sum(length(s)) || sum(length(d)) || sum(length(m)) || typeof(min(s)) FROM nul_n);
----
1

# A NUL at every position of texts up to 32 bytes long (a short text goes to SQLite as a C string
# only when it holds no NUL): each comes back whole.
statement ok
CREATE TABLE nul_at(id INTEGER, s TEXT);

statement ok
INSERT INTO nul_at WITH RECURSIVE r(id) AS (SELECT 0 UNION ALL SELECT id + 1 FROM r WHERE id < 32 * 33)
SELECT id, CAST(substr(CAST('abcdefghijklmnopqrstuvwxyz012345' AS BLOB), 1, id % 33) ||
               CASE WHEN id / 33 < id % 33 THEN x'00' ELSE x'' END ||
               substr(CAST('ABCDEFGHIJKLMNOPQRSTUVWXYZ' AS BLOB), 1, id / 33) AS TEXT)
FROM r;

query
SELECT parquet_export('$TMPDIR/nul_at.parquet', 'SELECT * FROM nul_at');
----
1057

statement ok
CREATE VIRTUAL TABLE nul_at_p USING parquet('$TMPDIR/nul_at.parquet');

# A dictionary without a NUL in its entries hands its values over as C strings, one with a NUL
# (here the second row group's) as they are: both come back whole.
statement ok
CREATE TABLE nul_dict(id INTEGER, s TEXT);

statement ok
INSERT INTO nul_dict WITH RECURSIVE r(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM r WHERE id < 60)
SELECT id, CASE WHEN id <= 30 THEN 'e' || (id % 3) WHEN id % 2 = 0 THEN CAST(x'650066' AS TEXT) ELSE 'e' || (id % 3) END
FROM r;

query
SELECT parquet_export('$TMPDIR/nul_dict.parquet', 'SELECT * FROM nul_dict ORDER BY id', 'row_group_size=30');
----
60

statement ok
CREATE VIRTUAL TABLE nul_dict_p USING parquet('$TMPDIR/nul_dict.parquet');

query
SELECT group_concat(DISTINCT encodings) FROM parquet_metadata('$TMPDIR/nul_dict.parquet') WHERE path_in_schema = 's';
----
PLAIN, RLE, RLE_DICTIONARY

query
SELECT (SELECT group_concat(id || ':' || hex(s) || ':' || length(s) || ':' || length(CAST(s AS BLOB)), ',') FROM nul_dict_p) IS
       (SELECT group_concat(id || ':' || hex(s) || ':' || length(s) || ':' || length(CAST(s AS BLOB)), ',') FROM nul_dict);
----
1

query
SELECT count(*), sum(s = CAST(x'650066' AS TEXT)), sum(s = 'e1') FROM nul_dict_p;
----
60|15|15

query
SELECT count(*), sum(instr(CAST(s AS BLOB), x'00') > 0) FROM nul_at_p;
----
1057|528

query
SELECT (SELECT group_concat(hex(s) || ':' || length(s), ',') FROM nul_at_p) IS
       (SELECT group_concat(hex(s) || ':' || length(s), ',') FROM nul_at);
----
1

# The same texts PLAIN-encoded (no dictionary), whose values reach SQLite one by one.
query
SELECT parquet_export('$TMPDIR/nul_at_plain.parquet', 'SELECT * FROM nul_at', 'dictionary=0, encoding_trial=0');
----
1057

query
SELECT encodings FROM parquet_metadata('$TMPDIR/nul_at_plain.parquet') WHERE path_in_schema = 's';
----
RLE, PLAIN

statement ok
CREATE VIRTUAL TABLE nul_at_plain USING parquet('$TMPDIR/nul_at_plain.parquet');

query
SELECT (SELECT group_concat(hex(s) || ':' || length(s), ',') FROM nul_at_plain) IS
       (SELECT group_concat(hex(s) || ':' || length(s), ',') FROM nul_at),
       (SELECT sum(length(s)) FROM nul_at_plain) = (SELECT sum(length(s)) FROM nul_at);
----
1|1
