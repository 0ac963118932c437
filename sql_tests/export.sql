# Writing Parquet: parquet_export(PATH, QUERY [, OPTIONS]) and the writable parquet table.
# Every file written here is read back through a parquet table.

# The sqlite3 library has no generate_series: a table of the numbers 1..10000 stands in for it.
statement ok
CREATE TABLE nums AS WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 10000) SELECT value FROM n;

# A source table with every type the writer knows, declared as a user would.
statement ok
CREATE TABLE src(id INTEGER, name TEXT, price REAL, flag BOOLEAN, day DATE, at TIMESTAMP, t TIME, amount DECIMAL(12,2), big DECIMAL(30,4), data BLOB, doc JSON, uid UUID, small SMALLINT, tiny TINYINT, u UINTEGER);

statement ok
INSERT INTO src VALUES
  (1, 'apple', 1.5, 1, '2024-01-31', '2024-01-31 10:20:30.123456', '08:15:00', '12.34', 123.4567, x'00ff', '{"a":1}', '0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0', -32768, 127, 4294967295),
  (2, 'pear', -0.25, 0, '1969-12-31', '1970-01-01T00:00:00Z', '23:59:59.999999', -0.05, '-1', x'', '[1,2]', '00000000-0000-0000-0000-000000000000', 32767, -128, 0),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

query
SELECT parquet_export('$TMPDIR/all.parquet', 'SELECT * FROM src');
----
3

statement ok
CREATE VIRTUAL TABLE r_all USING parquet('$TMPDIR/all.parquet', decimal=text);

query
SELECT * FROM r_all ORDER BY id;
----
1|apple|1.5|1|2024-01-31|2024-01-31 10:20:30.123456|08:15:00|12.34|123.4567|x'00ff'|{"a":1}|0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0|-32768|127|4294967295
2|pear|-0.25|0|1969-12-31|1970-01-01 00:00:00|23:59:59.999999|-0.05|-1.0000|x''|[1,2]|00000000-0000-0000-0000-000000000000|32767|-128|0
3|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL

# The Parquet types each declared type becomes.
query
SELECT name, type, type_length, repetition_type, logical_type FROM parquet_schema('$TMPDIR/all.parquet');
----
schema|NULL|NULL|NULL|NULL
id|INT64|NULL|OPTIONAL|NULL
name|BYTE_ARRAY|NULL|OPTIONAL|StringType()
price|DOUBLE|NULL|OPTIONAL|NULL
flag|BOOLEAN|NULL|OPTIONAL|NULL
day|INT32|NULL|OPTIONAL|DateType()
at|INT64|NULL|OPTIONAL|TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))
t|INT64|NULL|OPTIONAL|TimeType(isAdjustedToUTC=0, unit=TimeUnit(MICROS=MicroSeconds()))
amount|INT64|NULL|OPTIONAL|DecimalType(scale=2, precision=12)
big|FIXED_LEN_BYTE_ARRAY|13|OPTIONAL|DecimalType(scale=4, precision=30)
data|BYTE_ARRAY|NULL|OPTIONAL|NULL
doc|BYTE_ARRAY|NULL|OPTIONAL|JsonType()
uid|FIXED_LEN_BYTE_ARRAY|16|OPTIONAL|UUIDType()
small|INT32|NULL|OPTIONAL|IntType(bitWidth=16, isSigned=1)
tiny|INT32|NULL|OPTIONAL|IntType(bitWidth=8, isSigned=1)
u|INT32|NULL|OPTIONAL|IntType(bitWidth=32, isSigned=0)

# Without declared types (expressions), types come from the values.
query
SELECT parquet_export('$TMPDIR/inferred.parquet', 'SELECT value AS i, value / 2.0 AS r, ''s'' || value AS s, randomblob(2) IS NOT NULL AS b, CASE WHEN value % 2 THEN value ELSE value + 0.5 END AS mixed, NULL AS nada, zeroblob(value % 3) AS z FROM nums WHERE value <= 5');
----
5

query
SELECT name, type, logical_type FROM parquet_schema('$TMPDIR/inferred.parquet');
----
schema|NULL|NULL
i|INT64|NULL
r|DOUBLE|NULL
s|BYTE_ARRAY|StringType()
b|INT64|NULL
mixed|DOUBLE|NULL
nada|INT32|NullType()
z|BYTE_ARRAY|NULL

statement ok
CREATE VIRTUAL TABLE r_inf USING parquet('$TMPDIR/inferred.parquet');

query
SELECT i, r, s, b, mixed, nada, z, typeof(mixed) FROM r_inf;
----
1|0.5|s1|1|1.0|NULL|x'00'|real
2|1.0|s2|1|2.5|NULL|x'0000'|real
3|1.5|s3|1|3.0|NULL|x''|real
4|2.0|s4|1|4.5|NULL|x'00'|real
5|2.5|s5|1|5.0|NULL|x'0000'|real

# UBIGINT takes its whole range: above 2^63-1 SQLite holds such a value only as text (or as a real,
# exact up to 2^64 only in steps), so text digits are read as unsigned. Reading back, UINT64 above
# 2^63-1 is REAL (docs/reading.md, "Value mapping"); DuckDB reads the same file as the unsigned integers.
query
SELECT parquet_export('$TMPDIR/ubig.parquet', 'SELECT column1 AS u FROM (VALUES (''18446744073709551615''), (''9223372036854775808''), (''9223372036854775807''), (0))', 'schema=''u UBIGINT''');
----
4

statement ok
CREATE VIRTUAL TABLE r_ubig USING parquet('$TMPDIR/ubig.parquet');

query
SELECT u, typeof(u) FROM r_ubig;
----
1.8446744073709552e+19|real
9.223372036854776e+18|real
9223372036854775807|integer
0|integer

statement error text '18446744073709551616' is not an integer, as UBIGINT needs
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''18446744073709551616'' AS u', 'schema=''u UBIGINT''');

statement error text '-1' is out of range for UBIGINT
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''-1'' AS u', 'schema=''u UBIGINT''');

# A column of no declared type keeps every value in SQLite, so an integer that the DOUBLE inferred
# from mixed integers and reals would round is refused, not changed: 2^53 and -2^63 are exact, 2^53 + 1
# and 2^63 - 1 are not. Declared REAL, the column rounds it, as SQLite's REAL affinity does.
query
SELECT parquet_export('$TMPDIR/exact.parquet', 'SELECT 0.5 AS m UNION ALL SELECT 9007199254740992 UNION ALL SELECT -9223372036854775808 UNION ALL SELECT -9007199254740994');
----
4

statement ok
CREATE VIRTUAL TABLE r_exact USING parquet('$TMPDIR/exact.parquet');

query
SELECT m, CAST(m AS INTEGER) FROM r_exact;
----
0.5|0
9007199254740992.0|9007199254740992
-9.223372036854776e+18|-9223372036854775808
-9007199254740994.0|-9007199254740994

statement error parquet_export: row 3, column 'm': integer 9007199254740993 cannot be stored exactly as REAL (the column's type was inferred from the first rows
SELECT parquet_export('$TMPDIR/inexact.parquet', 'SELECT 0.5 AS m UNION ALL SELECT 9007199254740992 UNION ALL SELECT 9007199254740993');

statement error integer 9223372036854775807 cannot be stored exactly
SELECT parquet_export('$TMPDIR/inexact.parquet', 'SELECT 0.5 AS m UNION ALL SELECT 9223372036854775807');

query
SELECT parquet_export('$TMPDIR/rounded.parquet', 'SELECT 0.5 AS m UNION ALL SELECT 9007199254740993', 'schema=''m REAL''');
----
2

statement ok
CREATE VIRTUAL TABLE r_rounded USING parquet('$TMPDIR/rounded.parquet');

query
SELECT m, CAST(m AS INTEGER) FROM r_rounded;
----
0.5|0
9007199254740992.0|9007199254740992

# schema= gives types to the columns it names; the others keep theirs.
query
SELECT parquet_export('$TMPDIR/typed.parquet', 'SELECT value AS id, ''2024-02-'' || printf(''%02d'', value) AS d, value * 1.25 AS p, ''-12345678901234567890123456789.12345678'' || value AS big FROM nums WHERE value <= 3', 'schema=''d DATE, p DECIMAL(5,2), big DECIMAL(38,9)''');
----
3

query
SELECT name, type, logical_type FROM parquet_schema('$TMPDIR/typed.parquet');
----
schema|NULL|NULL
id|INT64|NULL
d|INT32|DateType()
p|INT32|DecimalType(scale=2, precision=5)
big|FIXED_LEN_BYTE_ARRAY|DecimalType(scale=9, precision=38)

statement ok
CREATE VIRTUAL TABLE r_typed USING parquet('$TMPDIR/typed.parquet', decimal=text);

query
SELECT * FROM r_typed;
----
1|2024-02-01|1.25|-12345678901234567890123456789.123456781
2|2024-02-02|2.50|-12345678901234567890123456789.123456782
3|2024-02-03|3.75|-12345678901234567890123456789.123456783

# Timestamps: units, integers as units since the epoch, exactness.
query
SELECT parquet_export('$TMPDIR/ts.parquet', 'SELECT ''2024-05-06 07:08:09.123'' AS ms, ''2024-05-06 07:08:09.123456789'' AS ns, 1700000000000000 AS us', 'schema=''ms TIMESTAMP(MILLIS), ns TIMESTAMP(NANOS), us TIMESTAMP''');
----
1

statement ok
CREATE VIRTUAL TABLE r_ts USING parquet('$TMPDIR/ts.parquet');

query
SELECT * FROM r_ts;
----
2024-05-06 07:08:09.123|2024-05-06 07:08:09.123456789|2023-11-14 22:13:20

# A native column declared DATETIME or TIMESTAMP keeps a time in an INTEGER as Unix seconds, as SQLite's
# date and time functions do (datetime(x, 'unixepoch')): exported as that instant. An integer whose
# seconds do not fit the unit is an error; schema= TIMESTAMP takes integers as units again.
statement ok
CREATE TABLE unix_times(id INTEGER, at DATETIME, at_ms TIMESTAMP_MS);

statement ok
INSERT INTO unix_times VALUES (1, 1700000000, 1700000000), (2, 0, -1), (3, -86400, NULL), (4, '2024-05-06 07:08:09', 2);

query
SELECT parquet_export('$TMPDIR/unix_times.parquet', 'SELECT * FROM unix_times');
----
4

statement ok
CREATE VIRTUAL TABLE r_unix_times USING parquet('$TMPDIR/unix_times.parquet');

query
SELECT id, r.at, r.at_ms, r.at = datetime(u.at, 'unixepoch') OR typeof(u.at) = 'text' FROM r_unix_times r JOIN unix_times u USING (id);
----
1|2023-11-14 22:13:20|2023-11-14 22:13:20|1
2|1970-01-01 00:00:00|1969-12-31 23:59:59|1
3|1969-12-31 00:00:00|NULL|1
4|2024-05-06 07:08:09|1970-01-01 00:00:02|1

query
SELECT parquet_export('$TMPDIR/unix_times_units.parquet', 'SELECT at FROM unix_times WHERE id = 1', 'schema=''at TIMESTAMP''');
----
1

statement ok
CREATE VIRTUAL TABLE r_unix_times_units USING parquet('$TMPDIR/unix_times_units.parquet');

query
SELECT at FROM r_unix_times_units;
----
1970-01-01 00:28:20

statement ok
INSERT INTO unix_times VALUES (5, 1700000000000000, NULL);

statement error parquet_export: row 5, column 'at': integer 1700000000000000 cannot be stored as TIMESTAMP(MICROS) (as Unix seconds, which an INTEGER in a column declared so holds, beyond its range)
SELECT parquet_export('$TMPDIR/unix_times_bad.parquet', 'SELECT * FROM unix_times');

statement error row 1, column 'ms': text '2024-05-06 07:08:09.1234' cannot be stored as TIMESTAMP(MILLIS)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''2024-05-06 07:08:09.1234'' AS ms', 'schema=''ms TIMESTAMP(MILLIS)''');

# A time zone after the time of day, as SQLite's date functions take it (Z, +HH:MM, -HH:MM, spaces
# before it), gives the UTC instant: the same as datetime() of the text. Also inside nested values.
query
SELECT parquet_export('$TMPDIR/tz.parquet', 'SELECT column1 AS ts, column1 AS local, json_array(column1) AS arr FROM (VALUES (''2024-01-01 10:00:00+02:00''), (''2024-01-01T10:00:00.5-05:30''), (''2024-01-01 00:30 +01:00''), (''2024-01-01 10:00:00Z''), (''1970-01-01 00:00:00+14:00''))', 'schema=''ts TIMESTAMP, arr LIST<TIMESTAMP(MILLIS)>''');
----
5

statement ok
CREATE VIRTUAL TABLE r_tz USING parquet('$TMPDIR/tz.parquet');

query
SELECT ts, ts = datetime(local, '+0 seconds') OR ts = strftime('%Y-%m-%d %H:%M:%f', local) || '000', arr FROM r_tz;
----
2024-01-01 08:00:00|1|["2024-01-01 08:00:00"]
2024-01-01 15:30:00.500000|1|["2024-01-01 15:30:00.500"]
2023-12-31 23:30:00|1|["2023-12-31 23:30:00"]
2024-01-01 10:00:00|1|["2024-01-01 10:00:00"]
1969-12-31 10:00:00|1|["1969-12-31 10:00:00"]

# A zone SQLite refuses too: hours above 14, a zone after a date alone, two zones.
statement error text '2024-01-01 10:00:00+15:00' cannot be stored as TIMESTAMP(MICROS)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''2024-01-01 10:00:00+15:00'' AS ts', 'schema=''ts TIMESTAMP''');

statement error text '2024-01-01+02:00' cannot be stored
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''2024-01-01+02:00'' AS ts', 'schema=''ts TIMESTAMP''');

statement error text '2024-01-01 10:00Z+02:00' cannot be stored
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''2024-01-01 10:00Z+02:00'' AS ts', 'schema=''ts TIMESTAMP''');

# Values that do not fit their column: an error naming row and column, and no file.
statement error parquet_export: row 2, column 'amount': real 1.234 has more than 2 digits after the point, which DECIMAL(12,2) cannot hold without rounding
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 1.5 AS amount UNION ALL SELECT 1.234', 'schema=''amount DECIMAL(12,2)''');

statement error parquet_export: row 1, column 'amount': integer 1234 has 4 digits, more than the 3 that DECIMAL(3,0) holds
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 1234 AS amount', 'schema=''amount DECIMAL(3)''');

# The precision counts the scale's digits too: DECIMAL(10,2) holds 8 before the point, and the
# message says so (100000000 has 9 digits, fewer than the precision 10).
statement error parquet_export: row 2, column 'amount': integer 100000000 has 9 digits before the point, more than the 8 that DECIMAL(10,2) holds (precision 10 less scale 2)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 99999999.99 AS amount UNION ALL SELECT 100000000', 'schema=''amount DECIMAL(10,2)''');

statement error parquet_export: row 1, column 'amount': text '-123.4' has 3 digits before the point, more than the 2 that DECIMAL(4,2) holds (precision 4 less scale 2)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''-123.4'' AS amount', 'schema=''amount DECIMAL(4,2)''');

statement error row 3, column 'small': integer 40000 is out of range for SMALLINT
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT (value - 1) * 20000 AS small FROM nums WHERE value <= 6', 'schema=''small SMALLINT''');

statement error row 1, column 'flag': integer 2 cannot be stored as BOOLEAN (0 or 1)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 2 AS flag', 'schema=''flag BOOLEAN''');

statement error row 1, column 'd': text '2024-02-30' cannot be stored as DATE (text 'YYYY-MM-DD')
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''2024-02-30'' AS d', 'schema=''d DATE''');

statement error row 1, column 'u': text 'not-a-uuid' cannot be stored as UUID
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''not-a-uuid'' AS u', 'schema=''u UUID''');

statement error row 1, column 'i': text 'abc' is not an integer, as INTEGER needs
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''abc'' AS i', 'schema=''i INTEGER''');

statement error row 4, column 'x': text 'four' after values of another kind in a column without a declared type (numbers)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 3.5 UNION ALL SELECT ''four''');

statement error parquet_export: two columns are named 'A'; give them distinct names with AS
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 1 AS a, 2 AS A');

# A query that fails half way (here at row 500) leaves nothing behind.
statement error the query failed: malformed JSON
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT CASE WHEN value = 500 THEN json(''bad'') ELSE value END AS v FROM nums WHERE value <= 1000');

statement error integer overflow
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT CASE WHEN value = 9000 THEN abs(-9223372036854775808) ELSE value END AS v FROM nums WHERE value <= 10000');

statement error cannot open
CREATE VIRTUAL TABLE r_bad USING parquet('$TMPDIR/bad.parquet');

statement error no file in
CREATE VIRTUAL TABLE r_tmp USING parquet('$TMPDIR/.*');

# An existing file is replaced only by a complete one: a failing export leaves it as it was.
statement error row 3, column 'v': integer 300 is out of range for TINYINT
SELECT parquet_export('$TMPDIR/all.parquet', 'SELECT CASE WHEN value < 3 THEN value ELSE 300 END AS v FROM nums WHERE value <= 5', 'schema=''v TINYINT''');

query
SELECT count(*), sum(id) FROM r_all;
----
3|6

# Bad arguments and options.
statement error parquet_export: unknown parquet_export option 'compresion'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'compresion=zstd');

statement error option 'compression' is given more than once
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'compression=zstd, compression=gzip');

statement error option 'compression': unknown
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'compression=lzop');

statement error option 'compression_level'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'compression=zstd, compression_level=99');

statement error option 'data_page_version' must be between 1 and 2
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'data_page_version=3');

statement error option 'row_group_size' expects an integer, not 'many'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'row_group_size=many');

statement error option 'threads' must be between 1 and 64
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'threads=0');

# threads=N: the batches are encoded on other threads; the same rows come back, and a value that
# does not fit is the same error.
query
SELECT parquet_export('$TMPDIR/threads.parquet', 'SELECT value AS v, ''s'' || (value % 100) AS s FROM nums', 'threads=3, row_group_size=3000, compression=zstd');
----
10000

statement ok
CREATE VIRTUAL TABLE r_threads USING parquet('$TMPDIR/threads.parquet');

query
SELECT count(*), sum(v), count(DISTINCT s) FROM r_threads;
----
10000|50005000|100

statement error row 9001, column 'small': integer 9001 is out of range for TINYINT
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT CASE WHEN value = 9001 THEN 9001 ELSE value % 100 END AS small FROM nums', 'schema=''small TINYINT'', threads=2');

statement error option 'encoding': no column named 'b'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'encoding=''b:PLAIN''');

statement error option 'encoding': unknown encoding 'ZIGZAG'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'encoding=''a:ZIGZAG''');

# A column gets one encoding: named twice (its name matched ignoring case, as against the query's
# columns) is an error rather than the last one winning.
statement error option 'encoding': column 'ID' is given twice
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS id', 'encoding=''id:PLAIN, ID:RLE_DICTIONARY''');

statement error option 'encoding': column 'id' is given twice
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS id', 'encoding=''id:PLAIN, "id":PLAIN''');

statement error option 'bloom_filter': no column named 'b'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'bloom_filter=b');

statement error option 'bloom_fpp': expects a probability between 0 and 1 (exclusive), not '2'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'bloom_filter=a, bloom_fpp=2');

statement error option 'schema': column 'a': unknown type 'WHATEVER'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'schema=''a WHATEVER''');

statement error option 'schema': column 'a': type 'DECIMAL(40,2)': the precision must be between 1 and 38
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'schema=''a DECIMAL(40,2)''');

statement error option 'schema': the query has no column named 'b'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'schema=''b INTEGER''');

statement error option 'sorted_by': no column named 'b'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'sorted_by=b');

statement error the query does not compile
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT FROM nowhere');

statement error the query must be one statement
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1; SELECT 2');

statement error the query must not change the database
SELECT parquet_export('$TMPDIR/x.parquet', 'INSERT INTO src(id) VALUES (9) RETURNING id');

statement error the first argument must be the output path
SELECT parquet_export(NULL, 'SELECT 1');

statement error cannot write '$TMPDIR/no/such/folder/x.parquet'
SELECT parquet_export('$TMPDIR/no/such/folder/x.parquet', 'SELECT 1 AS a');

statement error cannot open
CREATE VIRTUAL TABLE r_x USING parquet('$TMPDIR/x.parquet');

# Every codec, both page versions, dictionary on and off: the same 1000 rows come back.
statement ok
CREATE TABLE many AS SELECT value AS id, 'name-' || (value % 37) AS name, value * 0.5 AS half, CASE WHEN value % 7 = 0 THEN NULL ELSE value % 5 END AS maybe FROM nums WHERE value <= 1000;

query
SELECT count(*), sum(parquet_export('$TMPDIR/c_' || c || '_v' || v || '_d' || d || '.parquet', 'SELECT * FROM many', 'compression=' || c || ', data_page_version=' || v || ', dictionary=' || d || ', page_size=512')) FROM (SELECT column1 AS c FROM (VALUES ('uncompressed'), ('snappy'), ('gzip'), ('zstd'), ('brotli'), ('lz4_raw'), ('lzo'))), (SELECT column1 AS v FROM (VALUES (1), (2))), (SELECT column1 AS d FROM (VALUES (0), (1)));
----
28|28000

statement ok
CREATE VIRTUAL TABLE r_codec USING parquet('$TMPDIR/c_*.parquet');

query
SELECT count(*), count(DISTINCT filename), sum(id), sum(half), count(maybe), sum(maybe), count(DISTINCT name) FROM r_codec;
----
28000|28|14014000|7007000.0|24024|47992|37

query
SELECT DISTINCT compression FROM parquet_metadata('$TMPDIR/c_uncompressed_v1_d0.parquet');
----
UNCOMPRESSED

# LZO pages are written in hadoop-lzo's framing, as parquet-java writes them.
query
SELECT DISTINCT compression FROM parquet_metadata('$TMPDIR/c_lzo_v2_d1.parquet');
----
LZO

# Several row groups: row_group_size=10 on 100 rows.
query
SELECT parquet_export('$TMPDIR/groups.parquet', 'SELECT value AS v FROM nums WHERE value <= 100', 'row_group_size=10');
----
100

query
SELECT num_rows, num_row_groups FROM parquet_file_metadata('$TMPDIR/groups.parquet');
----
100|10

statement ok
CREATE VIRTUAL TABLE r_groups USING parquet('$TMPDIR/groups.parquet');

query
SELECT count(*), sum(v), min(v), max(v) FROM r_groups;
----
100|5050|1|100

# Per-column encodings, Bloom filters, no page index, no checksums, sorting columns, key/value metadata.
query
SELECT parquet_export('$TMPDIR/opts.parquet', 'SELECT value AS id, value * 1.5 AS x, ''k'' || (value % 10) AS k FROM nums WHERE value <= 200 ORDER BY id DESC', 'encoding=''id:DELTA_BINARY_PACKED, x:BYTE_STREAM_SPLIT, k:DELTA_BYTE_ARRAY'', bloom_filter=k, bloom_fpp=0.05, page_index=0, checksums=0, sorted_by=''id desc'', kv_metadata=''origin:sql test, owner:me''');
----
200

query
SELECT path_in_schema, encodings, has_bloom_filter, has_page_index FROM parquet_metadata('$TMPDIR/opts.parquet');
----
id|RLE, DELTA_BINARY_PACKED|0|0
x|RLE, BYTE_STREAM_SPLIT|0|0
k|RLE, DELTA_BYTE_ARRAY|1|0

query
SELECT key, value FROM parquet_kv_metadata('$TMPDIR/opts.parquet');
----
origin|sql test
owner|me

statement ok
CREATE VIRTUAL TABLE r_opts USING parquet('$TMPDIR/opts.parquet');

query
SELECT count(*), sum(id), sum(x), count(DISTINCT k), max(id) FROM r_opts;
----
200|20100|30150.0|10|200

# sorted_by is checked against the rows.
statement error row 2, column 'v': integer 1 breaks the order sorted_by declares
SELECT parquet_export('$TMPDIR/unsorted.parquet', 'SELECT column1 AS v FROM (VALUES (2), (1))', 'sorted_by=v');

# An empty result writes a file with the columns and no rows.
query
SELECT parquet_export('$TMPDIR/empty.parquet', 'SELECT id, name FROM src WHERE 0');
----
0

query
SELECT num_rows FROM parquet_file_metadata('$TMPDIR/empty.parquet');
----
0

# ---------------------------------------------------------------------------------------------
# The writable table: rows are written at COMMIT.
statement ok
CREATE VIRTUAL TABLE out USING parquet('$TMPDIR/out.parquet', schema='id INTEGER, price DECIMAL(12,2), name TEXT', compression=zstd);

# A table created for writing cannot be read (read the file with a read table once written).
statement error parquet tables are append-only
SELECT count(*) FROM out;

statement ok
INSERT INTO out SELECT value, value * 1.25, 'n' || value FROM nums WHERE value <= 10;

statement ok
CREATE VIRTUAL TABLE r_out USING parquet('$TMPDIR/out.parquet', decimal=text);

query
SELECT count(*), sum(id), sum(price) FROM r_out;
----
10|55|68.75

query
SELECT id, price, name FROM r_out WHERE id IN (1, 10);
----
1|1.25|n1
10|12.50|n10

# A table writes its file once.
statement error already written by an earlier transaction
INSERT INTO out VALUES (11, 1, 'x');

statement error parquet tables are append-only
DELETE FROM out;

statement error parquet tables are append-only
UPDATE out SET id = 1;

# Several statements in one transaction make one file; ROLLBACK leaves nothing.
statement ok
CREATE VIRTUAL TABLE out2 USING parquet('$TMPDIR/out2.parquet', schema='id INTEGER, day DATE');

statement ok
BEGIN;

statement ok
INSERT INTO out2 VALUES (1, '2024-01-01');

statement ok
INSERT INTO out2 VALUES (2, '2024-01-02'), (3, NULL);

statement ok
ROLLBACK;

statement error cannot open
CREATE VIRTUAL TABLE r_out2 USING parquet('$TMPDIR/out2.parquet');

statement ok
BEGIN;

statement ok
INSERT INTO out2 VALUES (1, '2024-01-01');

# A failing INSERT inside a transaction takes back only its own rows.
statement error row 3, column 'day': text 'soon' cannot be stored as DATE
INSERT INTO out2 VALUES (2, '2024-01-02'), (3, 'soon');

statement ok
INSERT INTO out2 VALUES (4, '2024-01-04');

statement ok
COMMIT;

statement ok
CREATE VIRTUAL TABLE r_out2 USING parquet('$TMPDIR/out2.parquet');

query
SELECT * FROM r_out2;
----
1|2024-01-01
4|2024-01-04

# A value that does not fit fails the INSERT; in autocommit nothing is written.
statement ok
CREATE VIRTUAL TABLE out3 USING parquet('$TMPDIR/out3.parquet', schema='b BOOLEAN');

statement error row 2, column 'b': integer 5 cannot be stored as BOOLEAN
INSERT INTO out3 VALUES (1), (5);

statement error cannot open
CREATE VIRTUAL TABLE r_out3 USING parquet('$TMPDIR/out3.parquet');

# Write tables check their options and schema at CREATE.
statement error option 'schema': column 'x' has no type
CREATE VIRTUAL TABLE bad1 USING parquet('$TMPDIR/bad1.parquet', schema='x');

statement error unknown parquet table option 'decimal'
CREATE VIRTUAL TABLE bad2 USING parquet('$TMPDIR/bad2.parquet', schema='x INTEGER', decimal=text);

statement error option 'sorted_by': no column named 'y'
CREATE VIRTUAL TABLE bad3 USING parquet('$TMPDIR/bad3.parquet', schema='x INTEGER', sorted_by=y);

statement error the folder '$TMPDIR/no/folder' does not exist
CREATE VIRTUAL TABLE bad4 USING parquet('$TMPDIR/no/folder/bad4.parquet', schema='x INTEGER');

statement error no file in
CREATE VIRTUAL TABLE r_tmp2 USING parquet('$TMPDIR/.*');

# Both write files, so only top-level SQL may use them: not a view, not a trigger.
statement ok
CREATE VIEW export_view AS SELECT parquet_export('$TMPDIR/view.parquet', 'SELECT 1 AS a');

statement error unsafe use of parquet_export()
SELECT * FROM export_view;

statement ok
CREATE TABLE log(x);

statement ok
CREATE VIRTUAL TABLE out4 USING parquet('$TMPDIR/out4.parquet', schema='x INTEGER');

statement ok
CREATE TRIGGER log_to_parquet AFTER INSERT ON log BEGIN INSERT INTO out4 VALUES (new.x); END;

statement error unsafe use of virtual table
INSERT INTO log VALUES (1);

statement error no file in
CREATE VIRTUAL TABLE r_tmp3 USING parquet('$TMPDIR/.*');

# How rows reach the writer. A query is wrapped in a statement that hands each row to the writer in
# one call (the internal aggregate parquet_export_rows); one that cannot be wrapped (not a SELECT, or
# more columns than a function takes) is stepped directly. Either way: the query's rows, in its order.
query
SELECT parquet_export('$TMPDIR/desc.parquet', 'SELECT value AS v, ''s'' || value AS s FROM nums ORDER BY value DESC -- a comment on the last line');
----
10000

statement ok
CREATE VIRTUAL TABLE r_desc USING parquet('$TMPDIR/desc.parquet');

query
SELECT count(*), min(v), max(v), sum(s = 's' || v) FROM (SELECT v, s, row_number() OVER () AS rn FROM r_desc) WHERE v = 10001 - rn;
----
10000|1|10000|10000

query
SELECT parquet_export('$TMPDIR/compound.parquet', 'SELECT 1 AS a UNION ALL SELECT 3 UNION ALL SELECT 2 ORDER BY 1 DESC LIMIT 2;  ');
----
2

statement ok
CREATE VIRTUAL TABLE r_compound USING parquet('$TMPDIR/compound.parquet');

query
SELECT group_concat(a) FROM r_compound;
----
3,2

query
SELECT parquet_export('$TMPDIR/cte.parquet', 'WITH RECURSIVE s(v) AS (SELECT 5 UNION ALL SELECT v - 1 FROM s WHERE v > 1) SELECT v FROM s');
----
5

statement ok
CREATE VIRTUAL TABLE r_cte USING parquet('$TMPDIR/cte.parquet');

query
SELECT group_concat(v) FROM r_cte;
----
5,4,3,2,1

# Not a SELECT: a PRAGMA is stepped directly.
query
SELECT parquet_export('$TMPDIR/pragma.parquet', 'PRAGMA table_info(''src'')');
----
15

statement ok
CREATE VIRTUAL TABLE r_pragma USING parquet('$TMPDIR/pragma.parquet');

query
SELECT cid, name, type FROM r_pragma WHERE cid IN (0, 14);
----
0|id|INTEGER
14|u|UINTEGER

# 200 columns, more than a function takes (127 by default): stepped directly.
query
SELECT parquet_export('$TMPDIR/wide200.parquet', (SELECT 'SELECT ' || group_concat('value + ' || value || ' AS c' || value, ', ') || ' FROM nums WHERE value <= 300 ORDER BY value DESC' FROM nums WHERE value <= 200));
----
300

statement ok
CREATE VIRTUAL TABLE r_wide200 USING parquet('$TMPDIR/wide200.parquet');

query
SELECT count(*), sum(c1), sum(c200), (SELECT c7 FROM r_wide200 LIMIT 1) FROM r_wide200;
----
300|45450|105150|307

# The wrapper's function is parquet_export's own: SQL cannot call it to any effect.
statement error parquet_export_rows is parquet_export's own; call parquet_export
SELECT parquet_export_rows(1, 2);

statement error parquet_export_rows is parquet_export's own; call parquet_export
SELECT parquet_export_rows(value) FROM nums;

# page_rows=N: data pages of N rows at most.
query
SELECT parquet_export('$TMPDIR/page_rows.parquet', 'SELECT value AS v FROM nums WHERE value <= 1000', 'page_rows=300, dictionary=0');
----
1000

query
SELECT group_concat(row_count) FROM (SELECT row_count FROM parquet_page_index('$TMPDIR/page_rows.parquet') ORDER BY page_number);
----
300,300,300,100

statement ok
CREATE VIRTUAL TABLE r_page_rows USING parquet('$TMPDIR/page_rows.parquet');

query
SELECT count(*), sum(v), (SELECT v FROM r_page_rows WHERE v = 777) FROM r_page_rows;
----
1000|500500|777

statement error option 'page_rows' must be between 1 and
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'page_rows=0');

# page_size defaults to 128 KiB: 2,000 distinct values of 100 bytes (about 200 KB) make 2 pages.
query
SELECT parquet_export('$TMPDIR/page_size.parquet', 'SELECT printf(''%0100d'', value) AS s FROM nums WHERE value <= 2000', 'dictionary=0');
----
2000

query
SELECT count(*), sum(row_count) FROM parquet_page_index('$TMPDIR/page_size.parquet');
----
2|2000

query
SELECT parquet_export('$TMPDIR/page_size_1m.parquet', 'SELECT printf(''%0100d'', value) AS s FROM nums WHERE value <= 2000', 'dictionary=0, page_size=1048576');
----
2000

query
SELECT count(*), sum(row_count) FROM parquet_page_index('$TMPDIR/page_size_1m.parquet');
----
1|2000

# ---------------------------------------------------------------------------------------------
# A query column that comes straight from a parquet table keeps the Parquet type it has in the file
# (sqlite3_column_table_name / sqlite3_column_origin_name say which): no schema= needed to read a
# file and write it again. Expressions get their declared or inferred types as before.
statement ok
CREATE VIRTUAL TABLE temp.typed_src USING parquet('$TESTDATA/types.parquet');

query
SELECT parquet_export('$TMPDIR/kept.parquet', 'SELECT id, u8, dec_i64, dec_flba, uuid, d, t, ts_ns, ts_tz, iv, js, f, bool, id + 0 AS expr, CAST(d AS TEXT) AS casted FROM typed_src');
----
3

query
SELECT name, type, logical_type FROM parquet_schema('$TMPDIR/kept.parquet') WHERE name <> 'schema';
----
id|INT32|IntType(bitWidth=32, isSigned=1)
u8|INT32|IntType(bitWidth=8, isSigned=0)
dec_i64|INT64|DecimalType(scale=3, precision=18)
dec_flba|FIXED_LEN_BYTE_ARRAY|DecimalType(scale=10, precision=38)
uuid|FIXED_LEN_BYTE_ARRAY|UUIDType()
d|INT32|DateType()
t|INT64|TimeType(isAdjustedToUTC=0, unit=TimeUnit(MICROS=MicroSeconds()))
ts_ns|INT64|TimestampType(isAdjustedToUTC=0, unit=TimeUnit(NANOS=NanoSeconds()))
ts_tz|INT64|TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))
iv|FIXED_LEN_BYTE_ARRAY|NULL
js|BYTE_ARRAY|JsonType()
f|FLOAT|NULL
bool|BOOLEAN|NULL
expr|INT64|NULL
casted|BYTE_ARRAY|StringType()

# INTERVAL has no logical type; its converted type says it, as in the source.
query
SELECT type_length, converted_type FROM parquet_schema('$TMPDIR/kept.parquet') WHERE name = 'iv';
----
12|INTERVAL

# The values are the same, exactly.
statement ok
CREATE VIRTUAL TABLE temp.kept USING parquet('$TMPDIR/kept.parquet');

query
SELECT count(*) FROM (SELECT id, u8, dec_i64, dec_flba, uuid, d, t, ts_ns, ts_tz, iv, js, f, bool FROM typed_src EXCEPT SELECT id, u8, dec_i64, dec_flba, uuid, d, t, ts_ns, ts_tz, iv, js, f, bool FROM kept);
----
0

# Through a TEMP view, a subquery and a join the columns still come from the table.
statement ok
CREATE TEMP VIEW typed_view AS SELECT ts_tz AS at, dec_flba FROM typed_src;

query
SELECT parquet_export('$TMPDIR/kept2.parquet', 'SELECT v.at, s.d FROM (SELECT * FROM typed_view) v JOIN typed_src s ON s.dec_flba = v.dec_flba');
----
2

query
SELECT name, logical_type FROM parquet_schema('$TMPDIR/kept2.parquet') WHERE name <> 'schema';
----
at|TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))
d|DateType()

# FLOAT16 stays FLOAT16 (two bytes a value), with its values; inside a nested value it would be FLOAT.
query
SELECT parquet_export('$TMPDIR/half.parquet', 'SELECT 1.5 AS h UNION ALL SELECT -65504 UNION ALL SELECT 0.0009765625 UNION ALL SELECT NULL', 'schema=''h FLOAT16''');
----
4

statement ok
CREATE VIRTUAL TABLE temp.half USING parquet('$TMPDIR/half.parquet');

query
SELECT parquet_export('$TMPDIR/half_again.parquet', 'SELECT h FROM half');
----
4

query
SELECT type, type_length, logical_type FROM parquet_schema('$TMPDIR/half_again.parquet') WHERE name = 'h';
----
FIXED_LEN_BYTE_ARRAY|2|Float16Type()

statement ok
CREATE VIRTUAL TABLE temp.half_again USING parquet('$TMPDIR/half_again.parquet');

query
SELECT group_concat(h, ',') FROM half_again;
----
1.5,-65504.0,0.0009765625

# A DECIMAL(38,4) a double cannot hold keeps every digit: it reads as exact TEXT by default, and
# the export writes it as DECIMAL(38,4) again.
query
SELECT parquet_export('$TMPDIR/dec38.parquet', 'SELECT ''549757628845.2392'' AS amount UNION ALL SELECT ''-0.0001''', 'schema=''amount DECIMAL(38,4)''');
----
2

statement ok
CREATE VIRTUAL TABLE temp.dec38 USING parquet('$TMPDIR/dec38.parquet');

query
SELECT amount, typeof(amount) FROM dec38;
----
549757628845.2392|text
-0.0001|text

query
SELECT parquet_export('$TMPDIR/dec38_again.parquet', 'SELECT * FROM dec38');
----
2

statement ok
CREATE VIRTUAL TABLE temp.dec38_again USING parquet('$TMPDIR/dec38_again.parquet');

query
SELECT amount, (SELECT logical_type FROM parquet_schema('$TMPDIR/dec38_again.parquet') WHERE name = 'amount') FROM dec38_again;
----
549757628845.2392|DecimalType(scale=4, precision=38)
-0.0001|DecimalType(scale=4, precision=38)

# Asked for as REAL (decimal=real), the values are doubles, so the column is exported as one: the
# DECIMAL type is kept only where the table reads it exactly.
statement ok
CREATE VIRTUAL TABLE temp.dec38_real USING parquet('$TMPDIR/dec38.parquet', decimal=real);

query
SELECT parquet_export('$TMPDIR/dec38_real.parquet', 'SELECT * FROM dec38_real');
----
2

query
SELECT type, logical_type FROM parquet_schema('$TMPDIR/dec38_real.parquet') WHERE name = 'amount';
----
DOUBLE|NULL
