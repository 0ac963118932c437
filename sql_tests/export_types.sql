# The writer's other logical types: FLOAT4, FLOAT16, ENUM, BSON, INTERVAL, TIMETZ, TIMESTAMP_NTZ,
# and FIELD_ID. Each file is read back through a parquet table and described by parquet_schema.

statement ok
CREATE TABLE src(f4, f16, e, b, i, t, ts);

statement ok
INSERT INTO src VALUES
  (1.5, 0.1, 'red', x'0500000000', '{"months":1,"days":2,"millis":3}', '10:11:12.5', '2024-03-04 05:06:07.000008'),
  (-2.75e10, 65504, 'green', x'0E00000002610002000000620000', '{"millis":4294967295,"days":0}', '00:00:00', '1969-12-31 23:59:59'),
  (NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ('3', -0.0, 'blue', x'0500000000', '{}', '23:59:59.999999', '2262-04-11');

statement ok
SELECT parquet_export('$TMPDIR/types.parquet', 'SELECT * FROM src', 'schema=''f4 FLOAT4 FIELD_ID 7, f16 FLOAT16, e ENUM, b BSON, i INTERVAL, t TIMETZ, ts TIMESTAMP_NTZ(NANOS) FIELD_ID 9''');

# Each type as the format spells it: FLOAT is 4 bytes, FLOAT16 a 2-byte FIXED_LEN_BYTE_ARRAY,
# INTERVAL a 12-byte one with the converted type alone (the format has no INTERVAL logical type),
# TIME adjusted to UTC and TIMESTAMP not.
query
SELECT name, type, type_length, converted_type, logical_type, field_id FROM parquet_schema('$TMPDIR/types.parquet') WHERE name <> 'schema';
----
f4|FLOAT|NULL|NULL|NULL|7
f16|FIXED_LEN_BYTE_ARRAY|2|NULL|Float16Type()|NULL
e|BYTE_ARRAY|NULL|ENUM|EnumType()|NULL
b|BYTE_ARRAY|NULL|NULL|BsonType()|NULL
i|FIXED_LEN_BYTE_ARRAY|12|INTERVAL|NULL|NULL
t|INT64|NULL|TIME_MICROS|TimeType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))|NULL
ts|INT64|NULL|NULL|TimestampType(isAdjustedToUTC=0, unit=TimeUnit(NANOS=NanoSeconds()))|9

# The values read back as the value-mapping table says: FLOAT and FLOAT16 as the nearest value
# of their type (0.1 is the half 0.0999755859375, -2.75e10 the float -27499999232), ENUM as TEXT,
# BSON as BLOB, INTERVAL as its JSON text, times and timestamps as ISO text with their unit's
# fraction digits.
statement ok
CREATE VIRTUAL TABLE t USING parquet('$TMPDIR/types.parquet');

query
SELECT f4, f16, e, hex(b), i, t, ts FROM t;
----
1.5|0.0999755859375|red|0500000000|{"months":1,"days":2,"millis":3}|10:11:12.500000|2024-03-04 05:06:07.000008000
-27499999232.0|65504.0|green|0E00000002610002000000620000|{"months":0,"days":0,"millis":4294967295}|00:00:00|1969-12-31 23:59:59
NULL|NULL|NULL|(empty)|NULL|NULL|NULL
3.0|-0.0|blue|0500000000|{"months":0,"days":0,"millis":0}|23:59:59.999999|2262-04-11 00:00:00

# Read then written again with the same schema: the same values (INTERVAL from the JSON text the
# table gives, the 12-byte BLOB too).
statement ok
SELECT parquet_export('$TMPDIR/types2.parquet', 'SELECT f4, f16, e, b, i, t, ts FROM t', 'schema=''f4 FLOAT4, f16 FLOAT16, e ENUM, b BSON, i INTERVAL, t TIMETZ, ts TIMESTAMP_NTZ(NANOS)''');

statement ok
CREATE VIRTUAL TABLE t2 USING parquet('$TMPDIR/types2.parquet');

query
SELECT count(*) FROM t JOIN t2 ON t.rowid = t2.rowid WHERE t.f4 IS t2.f4 AND t.f16 IS t2.f16 AND t.e IS t2.e AND t.b IS t2.b AND t.i IS t2.i AND t.t IS t2.t AND t.ts IS t2.ts;
----
4

query
SELECT parquet_export('$TMPDIR/interval_blob.parquet', 'SELECT x''010000000200000003000000'' AS i', 'schema=''i INTERVAL''');
----
1

statement ok
CREATE VIRTUAL TABLE ib USING parquet('$TMPDIR/interval_blob.parquet');

query
SELECT i FROM ib;
----
{"months":1,"days":2,"millis":3}

# Values that do not fit are errors naming the row and the column.
statement error row 1, column 'f': real 1e+300 cannot be stored as FLOAT16 (beyond the range of FLOAT16, 65504)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 1e300 AS f', 'schema=''f FLOAT16''');

statement error row 1, column 'f': real 1e+300 cannot be stored as FLOAT4 (beyond the range of a 4-byte float)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 1e300 AS f', 'schema=''f FLOAT4''');

statement error row 1, column 'b': a 4-byte BLOB cannot be stored as BSON (a BLOB holding one BSON document)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT x''05000000'' AS b', 'schema=''b BSON''');

statement error row 1, column 'i': text '{"months":-1}' is not an INTERVAL object {"months":m,"days":d,"millis":n}
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''{"months":-1}'' AS i', 'schema=''i INTERVAL''');

statement error row 1, column 'i': text '{"days":4294967296}' has days 4294967296, out of range for INTERVAL
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''{"days":4294967296}'' AS i', 'schema=''i INTERVAL''');

# A local timestamp has no time zone: one in the text is an error (a UTC TIMESTAMP converts it).
statement error row 1, column 'ts': text '2024-01-01 10:00+02:00' cannot be stored as TIMESTAMP_NTZ(MICROS)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''2024-01-01 10:00+02:00'' AS ts', 'schema=''ts TIMESTAMP_NTZ''');

# 'Z' is a zone too (UTC), in either case, and so are zones inside a nested column.
statement error row 1, column 'ts': text '2024-01-01 10:00:00Z' cannot be stored as TIMESTAMP_NTZ(MICROS) (text 'YYYY-MM-DD HH:MM:SS[.fraction]' without a time zone
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''2024-01-01 10:00:00Z'' AS ts', 'schema=''ts TIMESTAMP_NTZ''');

statement error row 1, column 'ts': text '2024-01-01T10:00z' cannot be stored as TIMESTAMP_NTZ(MILLIS)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''2024-01-01T10:00z'' AS ts', 'schema=''ts TIMESTAMP_NTZ(MILLIS)''');

statement error row 1, column 'l': $[1]: expected a timestamp string 'YYYY-MM-DD HH:MM:SS[.fraction]' without a time zone, with at most 6 fraction digits, or an integer, found "2024-01-01 10:00Z"
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''["2024-01-01 10:00", "2024-01-01 10:00Z"]'' AS l', 'schema=''l LIST<TIMESTAMP_NTZ>''');

statement error row 1, column 's': $.ts: expected a timestamp string
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''{"ts":"2024-01-01 10:00+02:00"}'' AS s', 'schema=''s STRUCT<ts TIMESTAMP_NTZ>''');

# A UTC TIMESTAMP takes the same texts and converts them; a local one without the zone stores them as written.
statement ok
SELECT parquet_export('$TMPDIR/zones.parquet', 'SELECT ''2024-01-01 10:00Z'' AS utc, ''2024-01-01 10:00'' AS local, ''["2024-01-01 10:00+02:00"]'' AS utcs, ''["2024-01-01 10:00"]'' AS locals', 'schema=''utc TIMESTAMP, local TIMESTAMP_NTZ, utcs LIST<TIMESTAMP>, locals LIST<TIMESTAMP_NTZ>''');

statement ok
CREATE VIRTUAL TABLE zones USING parquet('$TMPDIR/zones.parquet');

query
SELECT utc, local, utcs, locals FROM zones;
----
2024-01-01 10:00:00|2024-01-01 10:00:00|["2024-01-01 08:00:00"]|["2024-01-01 10:00:00"]

statement error option 'schema': columns 'a' and 'b' have the same FIELD_ID 1
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 1 AS a, 2 AS b', 'schema=''a INTEGER FIELD_ID 1, b INTEGER FIELD_ID 1''');

statement error option 'schema': column 'a': FIELD_ID takes an integer from 0 to 2147483647
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 1 AS a', 'schema=''a INTEGER FIELD_ID x''');

# These types stand only as a column's type: the JSON of a nested column has no form for them.
statement error FLOAT16 can only be the type of a column, not inside LIST, MAP or STRUCT
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''[1]'' AS l', 'schema=''l LIST<FLOAT16>''');

# FLOAT4, ENUM, TIMETZ and TIMESTAMP_NTZ nest.
statement ok
SELECT parquet_export('$TMPDIR/nested_types.parquet', 'SELECT ''{"f":0.5,"e":"x","t":"01:02:03","ts":"2024-01-02 03:04:05"}'' AS s', 'schema=''s STRUCT<f FLOAT4, e ENUM, t TIMETZ, ts TIMESTAMP_NTZ>''');

query
SELECT name, type, logical_type FROM parquet_schema('$TMPDIR/nested_types.parquet') WHERE num_children IS NULL;
----
f|FLOAT|NULL
e|BYTE_ARRAY|EnumType()
t|INT64|TimeType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))
ts|INT64|TimestampType(isAdjustedToUTC=0, unit=TimeUnit(MICROS=MicroSeconds()))

statement ok
CREATE VIRTUAL TABLE n USING parquet('$TMPDIR/nested_types.parquet');

query
SELECT s FROM n;
----
{"f":0.5,"e":"x","t":"01:02:03","ts":"2024-01-02 03:04:05"}

# A STRING holds UTF-8: TEXT holding other bytes is an error naming row and column (readers such as
# DuckDB refuse a whole file for one such value); a BLOB column stores any bytes.
statement error row 2, column 't': text
SELECT parquet_export('$TMPDIR/bad_utf8.parquet', 'SELECT ''fine'' AS t UNION ALL SELECT CAST(x''ff41'' AS TEXT)');

statement error it is not UTF-8 text; a BLOB column stores any bytes
SELECT parquet_export('$TMPDIR/bad_utf8.parquet', 'SELECT CAST(x''41c3'' AS TEXT) AS t', 'schema=''t JSON''');

statement error row 1, column 'l': text
SELECT parquet_export('$TMPDIR/bad_utf8.parquet', 'SELECT ''["'' || CAST(x''c3'' AS TEXT) || ''"]'' AS l', 'schema=''l LIST<TEXT>''');

query
SELECT parquet_export('$TMPDIR/bad_utf8.parquet', 'SELECT CAST(x''ff41'' AS TEXT) AS b, ''caf'' || char(233) AS t', 'schema=''b BLOB''');
----
1

statement ok
CREATE VIRTUAL TABLE temp.bad_utf8 USING parquet('$TMPDIR/bad_utf8.parquet');

query
SELECT hex(b), t FROM bad_utf8;
----
FF41|café

# schema= takes types, not column constraints: read as a declared type, 'SMALLINT NOT NULL' would be
# INTEGER by SQLite's affinity rules, and 70000 would go in without a range error.
statement error option 'schema': column 'd': schema= gives a type only, and 'NOT' in 'SMALLINT NOT NULL' is not part of one
SELECT parquet_export('$TMPDIR/constraint.parquet', 'SELECT 70000 AS d', 'schema=''d SMALLINT NOT NULL''');

statement error 'PRIMARY' in 'INTEGER PRIMARY KEY' is not part of one
SELECT parquet_export('$TMPDIR/constraint.parquet', 'SELECT 1 AS d', 'schema=''d INTEGER PRIMARY KEY''');

query
SELECT parquet_export('$TMPDIR/constraint.parquet', 'SELECT ''{"a":1}'' AS d, ''2025-01-01'' AS t', 'schema=''d STRUCT<a INTEGER>, t TIMESTAMP WITHOUT TIME ZONE''');
----
1

# A compound SELECT's column takes the Parquet type of its first arm's source column: a REAL of
# another arm that FLOAT4 or FLOAT16 would round is refused rather than rounded without a word;
# values it holds exactly pass, and schema= keeps them all.
statement ok
SELECT parquet_export('$TMPDIR/narrow_src.parquet', 'SELECT 1.5 AS f, 2.5 AS h', 'schema=''f FLOAT4, h FLOAT16''');

statement ok
CREATE VIRTUAL TABLE temp.narrow_src USING parquet('$TMPDIR/narrow_src.parquet');

statement error row 2, column 'f': real 0.1 cannot be stored as FLOAT4 (the type this column takes from its Parquet source column
SELECT parquet_export('$TMPDIR/narrow_union.parquet', 'SELECT f FROM narrow_src UNION ALL SELECT 0.1');

statement error row 2, column 'h': real 0.1 cannot be stored as FLOAT16
SELECT parquet_export('$TMPDIR/narrow_union.parquet', 'SELECT h FROM narrow_src UNION ALL SELECT 0.1');

query
SELECT parquet_export('$TMPDIR/narrow_union.parquet', 'SELECT f, h FROM narrow_src UNION ALL SELECT 0.25, -0.5');
----
2

statement ok
CREATE VIRTUAL TABLE temp.narrow_union USING parquet('$TMPDIR/narrow_union.parquet');

query
SELECT f, h FROM narrow_union;
----
1.5|2.5
0.25|-0.5

query
SELECT parquet_export('$TMPDIR/narrow_union2.parquet', 'SELECT f FROM narrow_src UNION ALL SELECT 0.1', 'schema=''f REAL''');
----
2

statement ok
CREATE VIRTUAL TABLE temp.narrow_union2 USING parquet('$TMPDIR/narrow_union2.parquet');

query
SELECT f FROM narrow_union2;
----
1.5
0.1
