# The writable parquet table (created with schema=): it takes every type parquet_export takes, with
# the same spellings, at the top level and nested; and a statement that fails inside a transaction
# leaves the transaction as it was before the statement, as it would on a native table.

# The sqlite3 library has no generate_series: a table of the numbers 1..50000 stands in for it.
statement ok
CREATE TABLE nums AS WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 50000) SELECT value FROM n;

# ---------------------------------------------------------------------------------------------
# Types. Time types with a unit, the UTC flag, FLOAT4 and nested types, declared as in schema= of
# parquet_export.
statement ok
CREATE VIRTUAL TABLE temp.w USING parquet('$TMPDIR/times.parquet', schema='id INTEGER, ts TIMESTAMP, ms TIMESTAMP(MILLIS), t TIME(MILLIS), d DATETIME, local TIMESTAMP_NTZ(MICROS), tz TIMETZ(NANOS), f FLOAT4, tsl LIST<TIMESTAMP(NANOS)>, n NUMERIC(20, 3)');

statement ok
INSERT INTO w VALUES (1, '2025-01-01 05:00:00', '2025-01-01T05:00:00.123Z', '12:34:56.789', '2025-01-01 05:00:00+02:00', '2025-01-01 05:00:00.000001', '23:59:59.999999999', 1.5, '["2025-01-01 00:00:00.000000001"]', '12345678901234567.891'), (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

statement ok
CREATE VIRTUAL TABLE temp.r USING parquet('$TMPDIR/times.parquet');

query
SELECT * FROM r;
----
1|2025-01-01 05:00:00|2025-01-01 05:00:00.123|12:34:56.789|2025-01-01 03:00:00|2025-01-01 05:00:00.000001|23:59:59.999999999|1.5|["2025-01-01 00:00:00.000000001"]|12345678901234567.891
2|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL

query
SELECT name, type, logical_type FROM parquet_schema('$TMPDIR/times.parquet') WHERE name NOT IN ('schema', 'list');
----
id|INT64|NULL
ts|INT64|TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))
ms|INT64|TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MILLIS=MilliSeconds()))
t|INT32|TimeType(isAdjustedToUTC=0, unit=TimeUnit(MILLIS=MilliSeconds()))
d|INT64|TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))
local|INT64|TimestampType(isAdjustedToUTC=0, unit=TimeUnit(MICROS=MicroSeconds()))
tz|INT64|TimeType(isAdjustedToUTC=1, unit=TimeUnit(NANOS=NanoSeconds()))
f|FLOAT|NULL
tsl|NULL|ListType()
element|INT64|TimestampType(isAdjustedToUTC=1, unit=TimeUnit(NANOS=NanoSeconds()))
n|FIXED_LEN_BYTE_ARRAY|DecimalType(scale=3, precision=20)

# The declared types read back as the type names.
query
SELECT name, type FROM pragma_table_info('w');
----
id|INTEGER
ts|TIMESTAMP(MICROS)
ms|TIMESTAMP(MILLIS)
t|TIME(MILLIS)
d|TIMESTAMP(MICROS)
local|TIMESTAMP_NTZ(MICROS)
tz|TIMETZ(NANOS)
f|FLOAT4
tsl|LIST<TIMESTAMP(NANOS)>
n|DECIMAL(20,3)

# INTERVAL: the JSON object the reader gives, back to the same object; a value that is not one is
# refused naming the row and column, and the transaction goes on without it.
statement ok
CREATE VIRTUAL TABLE temp.wi USING parquet('$TMPDIR/intervals.parquet', schema='span INTERVAL');

statement ok
BEGIN;

statement ok
INSERT INTO wi VALUES ('{"months":14,"days":3,"millis":4000}'), (NULL);

statement error row 3, column 'span'
INSERT INTO wi VALUES ('{"months":-1,"days":0,"millis":0}');

statement ok
INSERT INTO wi VALUES ('{"days":1,"months":0,"millis":4294967295}');

statement ok
COMMIT;

statement ok
CREATE VIRTUAL TABLE temp.ri USING parquet('$TMPDIR/intervals.parquet');

query
SELECT span FROM ri;
----
{"months":14,"days":3,"millis":4000}
NULL
{"months":0,"days":1,"millis":4294967295}

query
SELECT name, type_length, converted_type FROM parquet_schema('$TMPDIR/intervals.parquet') WHERE type IS NOT NULL;
----
span|12|INTERVAL

# ---------------------------------------------------------------------------------------------
# Failed statements in a transaction. The same statements run on a native table whose CHECK stands
# for SMALLINT's range: both must end with the same rows.
statement ok
CREATE TABLE native(id INTEGER, v INTEGER CHECK (v BETWEEN -32768 AND 32767));

# Small row groups, so that rows of the failing statements already lie in finished row groups of the
# temporary file when they are taken back.
statement ok
CREATE VIRTUAL TABLE temp.tx USING parquet('$TMPDIR/tx.parquet', schema='id INTEGER, v SMALLINT', row_group_size=1000);

statement ok
BEGIN;

statement ok
INSERT INTO tx SELECT value, 1 FROM nums WHERE value <= 100;

statement ok
INSERT INTO native SELECT value, 1 FROM nums WHERE value <= 100;

# One row that does not fit: it was never taken, the 100 rows before it stay.
statement error row 101, column 'v': integer 99999 is out of range for SMALLINT
INSERT INTO tx VALUES (1, 99999);

statement error CHECK constraint failed
INSERT INTO native VALUES (1, 99999);

statement ok
INSERT INTO tx VALUES (2, 2);

statement ok
INSERT INTO native VALUES (2, 2);

# A statement that fails after 32,767 of its rows went to the temporary file: all of them go.
statement error column 'v': integer 32768 is out of range for SMALLINT
INSERT INTO tx SELECT 1000 + value, value FROM nums WHERE value <= 40000;

statement error CHECK constraint failed
INSERT INTO native SELECT 1000 + value, value FROM nums WHERE value <= 40000;

statement ok
INSERT INTO tx SELECT 100000 + value, -value FROM nums WHERE value <= 20000;

statement ok
INSERT INTO native SELECT 100000 + value, -value FROM nums WHERE value <= 20000;

# ROLLBACK TO a savepoint takes back what came after it, whatever its size.
statement ok
SAVEPOINT a;

statement ok
INSERT INTO tx SELECT 200000 + value, 7 FROM nums WHERE value <= 15000;

statement ok
INSERT INTO native SELECT 200000 + value, 7 FROM nums WHERE value <= 15000;

statement ok
INSERT INTO tx VALUES (5, 5), (6, 6);

statement ok
INSERT INTO native VALUES (5, 5), (6, 6);

statement ok
ROLLBACK TO a;

statement ok
INSERT INTO tx VALUES (3, 3);

statement ok
INSERT INTO native VALUES (3, 3);

statement ok
RELEASE a;

statement ok
COMMIT;

statement ok
CREATE VIRTUAL TABLE temp.r_tx USING parquet('$TMPDIR/tx.parquet');

query
SELECT count(*), sum(id), sum(v) FROM r_tx;
----
20102|2200015055|-200009895

query
SELECT count(*), sum(id), sum(v) FROM native;
----
20102|2200015055|-200009895

query
SELECT count(*) FROM (SELECT id, v FROM r_tx EXCEPT SELECT id, v FROM native);
----
0

# The file holds the rows in the order they were inserted.
query
SELECT count(*) FROM r_tx JOIN native ON native.rowid = r_tx.rowid + 1 WHERE native.id IS NOT r_tx.id OR native.v IS NOT r_tx.v;
----
0

# A failure in autocommit mode leaves no file.
statement ok
CREATE VIRTUAL TABLE temp.auto USING parquet('$TMPDIR/auto.parquet', schema='v SMALLINT');

statement error integer 32768 is out of range for SMALLINT
INSERT INTO auto SELECT value FROM nums;

statement error cannot open
CREATE VIRTUAL TABLE temp.r_auto USING parquet('$TMPDIR/auto.parquet');

# TEXT that is not UTF-8 cannot go into a STRING column: the INSERT fails, the table goes on.
statement ok
CREATE VIRTUAL TABLE temp.utf8_out USING parquet('$TMPDIR/utf8_out.parquet', schema='t TEXT');

statement error row 1, column 't': text
INSERT INTO utf8_out VALUES (CAST(x'80' AS TEXT));

statement ok
INSERT INTO utf8_out VALUES ('ok');

statement ok
CREATE VIRTUAL TABLE temp.utf8_back USING parquet('$TMPDIR/utf8_out.parquet');

query
SELECT group_concat(t) FROM utf8_back;
----
ok

# Two write tables on one file: the second cannot start writing while the first holds the file (each
# would put its own file in place at COMMIT, and the rows of one would be lost). The first commits.
statement ok
CREATE VIRTUAL TABLE temp.same1 USING parquet('$TMPDIR/same.parquet', schema='id INTEGER');

statement ok
CREATE VIRTUAL TABLE temp.same2 USING parquet('$TMPDIR/./same.parquet', schema='id INTEGER');

statement ok
BEGIN;

statement ok
INSERT INTO same1 VALUES (1), (2);

statement error cannot write '$TMPDIR/./same.parquet': another parquet write table is writing it
INSERT INTO same2 VALUES (3);

# Nor can parquet_export write the file meanwhile: the COMMIT would replace its file.
statement error parquet_export: cannot write '$TMPDIR/same.parquet': a parquet write table is writing it, in this or another transaction not committed yet, and its COMMIT would replace the file
SELECT parquet_export('$TMPDIR/same.parquet', 'SELECT 100 AS other');

statement ok
COMMIT;

statement ok
CREATE VIRTUAL TABLE temp.same_back USING parquet('$TMPDIR/same.parquet');

query
SELECT group_concat(id) FROM same_back;
----
1,2

# What putting the file in place needs is checked before COMMIT succeeds: here the target became a
# folder (a partitioned export) after the rows went in, so COMMIT fails and rolls back, leaving no
# temporary.
statement ok
CREATE VIRTUAL TABLE temp.late_dir USING parquet('$TMPDIR/late.parquet', schema='id INTEGER');

statement ok
BEGIN;

statement ok
INSERT INTO late_dir VALUES (1), (2);

statement ok
SELECT parquet_export('$TMPDIR/late.parquet', 'SELECT 1 AS a, 2 AS b', 'partition_by=a');

statement error cannot write '$TMPDIR/late.parquet': it is a folder
COMMIT;

query
SELECT count(*), sum(num_rows) FROM parquet_file_metadata('$TMPDIR/late.parquet/a=1/*.parquet');
----
1|1

# sorted_by: a row refused for one of its values was not taken, so it does not set the order the
# next rows are checked against (the file holds 1, then 3 may follow).
statement ok
CREATE VIRTUAL TABLE temp.sorted_out USING parquet('$TMPDIR/sorted_refused.parquet', schema='k INTEGER, v SMALLINT', sorted_by='k');

statement ok
BEGIN;

statement ok
INSERT INTO sorted_out VALUES (1, 1);

statement error row 2, column 'v': integer 99999 is out of range for SMALLINT
INSERT INTO sorted_out VALUES (5, 99999);

statement ok
INSERT INTO sorted_out VALUES (3, 3);

statement error row 5, column 'k': integer 2 breaks the order sorted_by declares
INSERT INTO sorted_out VALUES (4, 4), (10, 10), (2, 2);

statement ok
INSERT INTO sorted_out VALUES (6, 6);

statement ok
COMMIT;

statement ok
CREATE VIRTUAL TABLE temp.sorted_back USING parquet('$TMPDIR/sorted_refused.parquet');

query
SELECT group_concat(k) FROM sorted_back;
----
1,3,6
