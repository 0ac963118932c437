# How timestamps compare with ISO literals. A timestamp reads as TEXT 'YYYY-MM-DD HH:MM:SS[.fraction]'
# (UTC for adjusted ones) in a column declared TEXT, so a comparison with a literal is a comparison of
# text, exactly as on a native table holding the same text: '2025-01-01T05:00:00' (with a T) is not
# equal to the stored '2025-01-01 05:00:00', and sorts after every time of that day. Pushdown prunes on
# the stored integers but keeps these answers. Each query below counts the rows of the parquet table
# and of a native TEXT table with the same values; both numbers must agree.

# 1000 timestamps five minutes apart from 2024-12-31 00:00, in row groups of 50 rows and pages of 10.
statement ok
CREATE TABLE src AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999) SELECT i, datetime('2024-12-31 00:00:00', '+' || (i * 5) || ' minutes') AS ts FROM n;

query
SELECT parquet_export('$TMPDIR/ts.parquet', 'SELECT i, ts FROM src', 'schema=''ts TIMESTAMP'', row_group_size=50, page_rows=10');
----
1000

statement ok
CREATE VIRTUAL TABLE temp.p USING parquet('$TMPDIR/ts.parquet');

query
SELECT name, type FROM pragma_table_info('p');
----
i|INTEGER
ts|TEXT

statement ok
CREATE TABLE n(i INTEGER, ts TEXT);

statement ok
INSERT INTO n SELECT i, ts FROM src;

query
SELECT logical_type FROM parquet_schema('$TMPDIR/ts.parquet') WHERE name = 'ts';
----
TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))

# With a T: never equal to a stored timestamp; '<' takes every time of 2025-01-01 (' ' < 'T').
query
SELECT (SELECT count(*) FROM p WHERE ts = '2025-01-01T05:00:00'), (SELECT count(*) FROM n WHERE ts = '2025-01-01T05:00:00');
----
0|0

query
SELECT (SELECT count(*) FROM p WHERE ts < '2025-01-01T05:00:00'), (SELECT count(*) FROM n WHERE ts < '2025-01-01T05:00:00');
----
576|576

query
SELECT (SELECT count(*) FROM p WHERE ts > '2025-01-01T05:00:00'), (SELECT count(*) FROM n WHERE ts > '2025-01-01T05:00:00');
----
424|424

query
SELECT (SELECT count(*) FROM p WHERE ts BETWEEN '2025-01-01T05:00:00' AND '2025-01-02'), (SELECT count(*) FROM n WHERE ts BETWEEN '2025-01-01T05:00:00' AND '2025-01-02');
----
0|0

query
SELECT (SELECT count(*) FROM p WHERE ts IN ('2025-01-01T05:00:00', '2025-01-01 05:05:00')), (SELECT count(*) FROM n WHERE ts IN ('2025-01-01T05:00:00', '2025-01-01 05:05:00'));
----
1|1

query
SELECT (SELECT count(*) FROM p WHERE ts LIKE '2025-01-01T%'), (SELECT count(*) FROM n WHERE ts LIKE '2025-01-01T%');
----
0|0

# With a space, as stored: equal where the text is equal. A fraction of zeros, a 'Z' or an offset
# make other text, which compares as text too ('Z' > every digit).
query
SELECT (SELECT count(*) FROM p WHERE ts = '2025-01-01 05:00:00'), (SELECT count(*) FROM n WHERE ts = '2025-01-01 05:00:00');
----
1|1

query
SELECT (SELECT count(*) FROM p WHERE ts = '2025-01-01 05:00:00.000'), (SELECT count(*) FROM n WHERE ts = '2025-01-01 05:00:00.000');
----
0|0

query
SELECT (SELECT count(*) FROM p WHERE ts >= '2025-01-01 05:00:00Z'), (SELECT count(*) FROM n WHERE ts >= '2025-01-01 05:00:00Z');
----
651|651

query
SELECT (SELECT count(*) FROM p WHERE ts <= '2025-01-01 05:00:00Z'), (SELECT count(*) FROM n WHERE ts <= '2025-01-01 05:00:00Z');
----
349|349

query
SELECT (SELECT count(*) FROM p WHERE ts >= '2025-01-01 05:00:00+01:00'), (SELECT count(*) FROM n WHERE ts >= '2025-01-01 05:00:00+01:00');
----
651|651

query
SELECT (SELECT count(*) FROM p WHERE ts < '2025-01-01 05'), (SELECT count(*) FROM n WHERE ts < '2025-01-01 05');
----
348|348

# A date alone compares as a prefix: '2025-01-01' sorts before every time of that day.
query
SELECT (SELECT count(*) FROM p WHERE ts >= '2025-01-01' AND ts < '2025-01-02'), (SELECT count(*) FROM n WHERE ts >= '2025-01-01' AND ts < '2025-01-02');
----
288|288

# datetime() turns any ISO spelling (T, Z, offsets) into the stored form: the way to compare by time.
query
SELECT (SELECT count(*) FROM p WHERE ts = datetime('2025-01-01T05:00:00')), (SELECT count(*) FROM n WHERE ts = datetime('2025-01-01T05:00:00'));
----
1|1

query
SELECT (SELECT count(*) FROM p WHERE ts = datetime('2025-01-01T06:00:00+01:00')), (SELECT count(*) FROM n WHERE ts = datetime('2025-01-01T06:00:00+01:00'));
----
1|1

query
SELECT (SELECT count(*) FROM p WHERE datetime(ts) >= datetime('2025-01-01T05:00:00Z')), (SELECT count(*) FROM n WHERE datetime(ts) >= datetime('2025-01-01T05:00:00Z'));
----
652|652

# A number compares with the TEXT column as text, as on the native table (timestamp=integer reads the
# stored microseconds instead).
query
SELECT (SELECT count(*) FROM p WHERE ts > 1735707600), (SELECT count(*) FROM n WHERE ts > 1735707600);
----
1000|1000

statement ok
CREATE VIRTUAL TABLE temp.pi USING parquet('$TMPDIR/ts.parquet', timestamp=integer);

query
SELECT count(*) FROM pi WHERE ts >= 1735707600000000;
----
652
