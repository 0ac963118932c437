# The runner's own test: no extension is loaded ("none"), only SQLite itself.
# Every block here must pass; ctest checks the closing line "N passed, 0 failed".

statement ok
CREATE TABLE t(id INTEGER, name TEXT, price REAL, data BLOB);

# Multi-line SQL: lines up to the blank line form one statement.
statement ok
INSERT INTO t VALUES
  (1, 'one', 1.0, x'00ff'),
  (2, '', 0.1, x''),
  (3, NULL, -2.5, NULL),
  (4, 'line1
line2', 1e300, x'0A1b');

# Values: NULL, integers, reals (shortest round-trip, always with '.' or 'e'), text, blobs.
query
SELECT id, name, price, data FROM t ORDER BY id;
----
1|one|1.0|x'00ff'
2|(empty)|0.1|x''
3|NULL|-2.5|NULL
4|line1\nline2|1e+300|x'0a1b'

query
SELECT 1.0/3, 100.0, -0.0, 123456789012345678, -9223372036854775808, 0.1 + 0.2, 5e-324;
----
0.3333333333333333|100.0|-0.0|123456789012345678|-9223372036854775808|0.30000000000000004|4.94065645841247e-324

# A query with no rows.
query
SELECT * FROM t WHERE id > 100;
----

# rowsort: rows are compared after sorting both sides as text.
query rowsort
SELECT id, name FROM t WHERE id < 3 ORDER BY id DESC;
----
1|one
2|(empty)

# Without rowsort, order matters.
query
SELECT id FROM t WHERE id < 3 ORDER BY id DESC;
----
2
1

statement error no such table: missing
SELECT * FROM missing;

# An empty substring accepts any error.
statement error
SELECT nope FROM t;

# Errors raised while stepping (not while preparing) are errors too.
statement error integer overflow
SELECT sum(x) FROM (SELECT 9223372036854775807 AS x UNION ALL SELECT 1);

# $TESTDATA is the test-data directory relative to the project root.
query
SELECT '$TESTDATA/parquet-testing';
----
tests/data/parquet-testing

# $TMPDIR is a directory that exists for this run: a database file can be made in it.
statement ok
ATTACH '$TMPDIR/scratch.db' AS scratch;

statement ok
CREATE TABLE scratch.kept AS SELECT 42 AS answer;

query
SELECT answer FROM scratch.kept;
----
42

statement ok
DETACH scratch;

# A statement that returns rows is fine under "statement ok"; its rows are ignored.
statement ok
SELECT * FROM t;

# SQL comments are part of the statement.
query
-- a leading SQL comment
SELECT count(*) FROM t; -- and a trailing one
----
4

# EXPLAIN QUERY PLAN rows are compared by their text alone: the ids and addresses beside it differ
# between SQLite releases.
query
EXPLAIN QUERY PLAN SELECT * FROM t ORDER BY 1;
----
SCAN t
USE TEMP B-TREE FOR ORDER BY
