# Pushdown: WHERE terms, rowid/file_row_number ranges and LIMIT/OFFSET handed to the engine.
# Pushdown changes speed, never results: every answer here is checked against a native SQLite table
# holding the same rows with the same declared types, and parquet_scan_stats('t') shows what the
# engine skipped (docs/pushdown.md).

# ---------------------------------------------------------------------------------------------
# The data: 100 rows with NULLs, mixed-case text, text that starts with digits or looks like a
# number, integral and fractional reals and blobs. Exported in row groups of 16 rows and tiny pages, with Bloom filters,
# so every pruning layer gets a say; `n` is the same rows in a native table.

statement ok
CREATE TABLE n(id INTEGER, i INTEGER, r REAL, s TEXT, b BLOB);

statement ok
INSERT INTO n WITH RECURSIVE k(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM k WHERE id < 100)
SELECT id,
       CASE WHEN id % 10 = 0 THEN NULL ELSE id % 17 - 3 END,
       CASE WHEN id % 9 = 0 THEN NULL ELSE (id % 13) * 0.5 - 1 END,
       CASE WHEN id % 8 = 0 THEN NULL
            WHEN id % 25 = 0 THEN (id / 25) || '.5'
            WHEN id % 13 = 0 THEN ' ' || (id % 4)
            WHEN id % 5 = 0 THEN (id % 3) || '-' || id
            WHEN id % 2 = 1 THEN lower(char(65 + id % 4)) || 'x' || (id % 7)
            ELSE char(65 + id % 4) || 'x' || (id % 7) END,
       CASE WHEN id % 11 = 0 THEN NULL ELSE CAST(id % 6 AS BLOB) END
FROM k;

query
SELECT parquet_export('$TMPDIR/mixed.parquet', 'SELECT * FROM n ORDER BY id', 'row_group_size=16, page_size=64, bloom_filter=''i,s''');
----
100

statement ok
CREATE VIRTUAL TABLE p USING parquet('$TMPDIR/mixed.parquet');

# Same declared types, so the same affinities on both sides.
query
SELECT name, type FROM pragma_table_info('p');
----
id|INTEGER
i|INTEGER
r|REAL
s|TEXT
b|BLOB

query
SELECT count(*) FROM (SELECT * FROM p EXCEPT SELECT * FROM n);
----
0

# Values of every storage class, including ones of the "wrong" type for a column. A term against
# `lits.v` (no declared type: BLOB affinity) compares as against a column of another table; against
# `+lits.v` (the unary + drops the affinity) as against a literal or parameter. `litn.v` has NUMERIC
# affinity: compared with a TEXT column it turns that column's number-like values into numbers.
statement ok
CREATE TABLE lits(v);

statement ok
INSERT INTO lits VALUES (3), ('3'), (' 3 '), (3.0), ('3.0'), (3.5), (-1), ('-1'), (0), (NULL),
  (9223372036854775807), (-9223372036854775808), (1e300), (-1e300), ('abc'), (''), ('Ax1'), ('ax1'),
  ('Bx2'), ('1-55'), ('2-'), (x'33'), (x'34'), (x''), (4.5), ('4.5'), ('0x3'), (2.0), (13), (12.999), (40),
  (39.5), ('41'), (99), (100), ('$TMPDIR/m1.parquet'), ('$TMPDIR/m%'), ('%m2.parquet');

statement ok
CREATE TABLE litn(v NUMERIC);

statement ok
INSERT INTO litn VALUES ('2024-01-01'), ('abc'), (' '), ('+'), (''), ('9z'), ('1-55'), (3), ('4.5'), ('Ax1'), ('1.5x');

# ---------------------------------------------------------------------------------------------
# Every operator on every column against every value: p (pushed down) and n (native) must give the
# same pairs. Each answer is: the pairs on p, the pairs only on p, the pairs only on n. CROSS JOIN
# keeps the values outside, so each term reaches xBestIndex and xFilter gets the value.

# column = value, value from a column (l.v) and as a literal (+l.v)
query
WITH a AS (SELECT 'id', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id = l.v UNION ALL SELECT 'i', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i = l.v UNION ALL SELECT 'r', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r = l.v UNION ALL SELECT 's', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s = l.v UNION ALL SELECT 'b', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b = l.v UNION ALL SELECT 'id', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id = +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i = +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r = +l.v UNION ALL SELECT 's', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s = +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b = +l.v),
     b AS (SELECT 'id', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id = l.v UNION ALL SELECT 'i', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i = l.v UNION ALL SELECT 'r', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r = l.v UNION ALL SELECT 's', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s = l.v UNION ALL SELECT 'b', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b = l.v UNION ALL SELECT 'id', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id = +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i = +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r = +l.v UNION ALL SELECT 's', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s = +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b = +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
354|0|0

# column != value, value from a column (l.v) and as a literal (+l.v)
query
WITH a AS (SELECT 'id', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id != l.v UNION ALL SELECT 'i', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i != l.v UNION ALL SELECT 'r', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r != l.v UNION ALL SELECT 's', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s != l.v UNION ALL SELECT 'b', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b != l.v UNION ALL SELECT 'id', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id != +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i != +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r != +l.v UNION ALL SELECT 's', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s != +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b != +l.v),
     b AS (SELECT 'id', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id != l.v UNION ALL SELECT 'i', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i != l.v UNION ALL SELECT 'r', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r != l.v UNION ALL SELECT 's', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s != l.v UNION ALL SELECT 'b', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b != l.v UNION ALL SELECT 'id', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id != +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i != +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r != +l.v UNION ALL SELECT 's', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s != +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b != +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
33538|0|0

# column < value, value from a column (l.v) and as a literal (+l.v)
query
WITH a AS (SELECT 'id', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id < l.v UNION ALL SELECT 'i', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i < l.v UNION ALL SELECT 'r', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r < l.v UNION ALL SELECT 's', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s < l.v UNION ALL SELECT 'b', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b < l.v UNION ALL SELECT 'id', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id < +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i < +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r < +l.v UNION ALL SELECT 's', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s < +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b < +l.v),
     b AS (SELECT 'id', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id < l.v UNION ALL SELECT 'i', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i < l.v UNION ALL SELECT 'r', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r < l.v UNION ALL SELECT 's', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s < l.v UNION ALL SELECT 'b', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b < l.v UNION ALL SELECT 'id', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id < +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i < +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r < +l.v UNION ALL SELECT 's', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s < +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b < +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
15660|0|0

# column <= value, value from a column (l.v) and as a literal (+l.v)
query
WITH a AS (SELECT 'id', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id <= l.v UNION ALL SELECT 'i', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i <= l.v UNION ALL SELECT 'r', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r <= l.v UNION ALL SELECT 's', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s <= l.v UNION ALL SELECT 'b', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b <= l.v UNION ALL SELECT 'id', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id <= +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i <= +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r <= +l.v UNION ALL SELECT 's', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s <= +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b <= +l.v),
     b AS (SELECT 'id', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id <= l.v UNION ALL SELECT 'i', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i <= l.v UNION ALL SELECT 'r', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r <= l.v UNION ALL SELECT 's', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s <= l.v UNION ALL SELECT 'b', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b <= l.v UNION ALL SELECT 'id', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id <= +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i <= +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r <= +l.v UNION ALL SELECT 's', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s <= +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b <= +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
16014|0|0

# column > value, value from a column (l.v) and as a literal (+l.v)
query
WITH a AS (SELECT 'id', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id > l.v UNION ALL SELECT 'i', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i > l.v UNION ALL SELECT 'r', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r > l.v UNION ALL SELECT 's', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s > l.v UNION ALL SELECT 'b', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b > l.v UNION ALL SELECT 'id', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id > +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i > +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r > +l.v UNION ALL SELECT 's', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s > +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b > +l.v),
     b AS (SELECT 'id', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id > l.v UNION ALL SELECT 'i', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i > l.v UNION ALL SELECT 'r', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r > l.v UNION ALL SELECT 's', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s > l.v UNION ALL SELECT 'b', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b > l.v UNION ALL SELECT 'id', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id > +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i > +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r > +l.v UNION ALL SELECT 's', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s > +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b > +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
17878|0|0

# column >= value, value from a column (l.v) and as a literal (+l.v)
query
WITH a AS (SELECT 'id', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id >= l.v UNION ALL SELECT 'i', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i >= l.v UNION ALL SELECT 'r', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r >= l.v UNION ALL SELECT 's', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s >= l.v UNION ALL SELECT 'b', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b >= l.v UNION ALL SELECT 'id', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id >= +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i >= +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r >= +l.v UNION ALL SELECT 's', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s >= +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b >= +l.v),
     b AS (SELECT 'id', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id >= l.v UNION ALL SELECT 'i', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i >= l.v UNION ALL SELECT 'r', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r >= l.v UNION ALL SELECT 's', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s >= l.v UNION ALL SELECT 'b', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b >= l.v UNION ALL SELECT 'id', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id >= +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i >= +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r >= +l.v UNION ALL SELECT 's', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s >= +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b >= +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
18232|0|0

# column IS value, value from a column (l.v) and as a literal (+l.v)
query
WITH a AS (SELECT 'id', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id IS l.v UNION ALL SELECT 'i', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i IS l.v UNION ALL SELECT 'r', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r IS l.v UNION ALL SELECT 's', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s IS l.v UNION ALL SELECT 'b', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b IS l.v UNION ALL SELECT 'id', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id IS +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i IS +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r IS +l.v UNION ALL SELECT 's', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s IS +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b IS +l.v),
     b AS (SELECT 'id', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id IS l.v UNION ALL SELECT 'i', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i IS l.v UNION ALL SELECT 'r', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r IS l.v UNION ALL SELECT 's', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s IS l.v UNION ALL SELECT 'b', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b IS l.v UNION ALL SELECT 'id', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id IS +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i IS +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r IS +l.v UNION ALL SELECT 's', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s IS +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b IS +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
438|0|0

# column IS NOT value, value from a column (l.v) and as a literal (+l.v)
query
WITH a AS (SELECT 'id', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id IS NOT l.v UNION ALL SELECT 'i', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i IS NOT l.v UNION ALL SELECT 'r', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r IS NOT l.v UNION ALL SELECT 's', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s IS NOT l.v UNION ALL SELECT 'b', 'l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b IS NOT l.v UNION ALL SELECT 'id', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.id IS NOT +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i IS NOT +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r IS NOT +l.v UNION ALL SELECT 's', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s IS NOT +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b IS NOT +l.v),
     b AS (SELECT 'id', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id IS NOT l.v UNION ALL SELECT 'i', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i IS NOT l.v UNION ALL SELECT 'r', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r IS NOT l.v UNION ALL SELECT 's', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s IS NOT l.v UNION ALL SELECT 'b', 'l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b IS NOT l.v UNION ALL SELECT 'id', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.id IS NOT +l.v UNION ALL SELECT 'i', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i IS NOT +l.v UNION ALL SELECT 'r', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r IS NOT +l.v UNION ALL SELECT 's', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s IS NOT +l.v UNION ALL SELECT 'b', '+l.v', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b IS NOT +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
37562|0|0

# TEXT column against a NUMERIC column: number-like text compares as a number
query
WITH a AS (SELECT '=', l.rowid, p.id FROM litn l CROSS JOIN p WHERE p.s = l.v UNION ALL SELECT '<', l.rowid, p.id FROM litn l CROSS JOIN p WHERE p.s < l.v UNION ALL SELECT '<=', l.rowid, p.id FROM litn l CROSS JOIN p WHERE p.s <= l.v UNION ALL SELECT '>', l.rowid, p.id FROM litn l CROSS JOIN p WHERE p.s > l.v UNION ALL SELECT '>=', l.rowid, p.id FROM litn l CROSS JOIN p WHERE p.s >= l.v UNION ALL SELECT '!=', l.rowid, p.id FROM litn l CROSS JOIN p WHERE p.s != l.v),
     b AS (SELECT '=', l.rowid, n.id FROM litn l CROSS JOIN n WHERE n.s = l.v UNION ALL SELECT '<', l.rowid, n.id FROM litn l CROSS JOIN n WHERE n.s < l.v UNION ALL SELECT '<=', l.rowid, n.id FROM litn l CROSS JOIN n WHERE n.s <= l.v UNION ALL SELECT '>', l.rowid, n.id FROM litn l CROSS JOIN n WHERE n.s > l.v UNION ALL SELECT '>=', l.rowid, n.id FROM litn l CROSS JOIN n WHERE n.s >= l.v UNION ALL SELECT '!=', l.rowid, n.id FROM litn l CROSS JOIN n WHERE n.s != l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
2904|0|0

# IN (every value), the list holding a NULL
query
WITH a AS (SELECT 'id', p.id FROM p WHERE p.id IN (SELECT v FROM lits) UNION ALL SELECT 'i', p.id FROM p WHERE p.i IN (SELECT v FROM lits) UNION ALL SELECT 'r', p.id FROM p WHERE p.r IN (SELECT v FROM lits) UNION ALL SELECT 's', p.id FROM p WHERE p.s IN (SELECT v FROM lits) UNION ALL SELECT 'b', p.id FROM p WHERE p.b IN (SELECT v FROM lits)),
     b AS (SELECT 'id', n.id FROM n WHERE n.id IN (SELECT v FROM lits) UNION ALL SELECT 'i', n.id FROM n WHERE n.i IN (SELECT v FROM lits) UNION ALL SELECT 'r', n.id FROM n WHERE n.r IN (SELECT v FROM lits) UNION ALL SELECT 's', n.id FROM n WHERE n.s IN (SELECT v FROM lits) UNION ALL SELECT 'b', n.id FROM n WHERE n.b IN (SELECT v FROM lits))
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
106|0|0

# IN (the values of one storage class), one class at a time
query
WITH a AS (SELECT 'id', t.t, p.id FROM (SELECT DISTINCT typeof(v) AS t FROM lits) t CROSS JOIN p WHERE p.id IN (SELECT v FROM lits WHERE typeof(v) = t.t) UNION ALL SELECT 'i', t.t, p.id FROM (SELECT DISTINCT typeof(v) AS t FROM lits) t CROSS JOIN p WHERE p.i IN (SELECT v FROM lits WHERE typeof(v) = t.t) UNION ALL SELECT 'r', t.t, p.id FROM (SELECT DISTINCT typeof(v) AS t FROM lits) t CROSS JOIN p WHERE p.r IN (SELECT v FROM lits WHERE typeof(v) = t.t) UNION ALL SELECT 's', t.t, p.id FROM (SELECT DISTINCT typeof(v) AS t FROM lits) t CROSS JOIN p WHERE p.s IN (SELECT v FROM lits WHERE typeof(v) = t.t) UNION ALL SELECT 'b', t.t, p.id FROM (SELECT DISTINCT typeof(v) AS t FROM lits) t CROSS JOIN p WHERE p.b IN (SELECT v FROM lits WHERE typeof(v) = t.t)),
     b AS (SELECT 'id', t.t, n.id FROM (SELECT DISTINCT typeof(v) AS t FROM lits) t CROSS JOIN n WHERE n.id IN (SELECT v FROM lits WHERE typeof(v) = t.t) UNION ALL SELECT 'i', t.t, n.id FROM (SELECT DISTINCT typeof(v) AS t FROM lits) t CROSS JOIN n WHERE n.i IN (SELECT v FROM lits WHERE typeof(v) = t.t) UNION ALL SELECT 'r', t.t, n.id FROM (SELECT DISTINCT typeof(v) AS t FROM lits) t CROSS JOIN n WHERE n.r IN (SELECT v FROM lits WHERE typeof(v) = t.t) UNION ALL SELECT 's', t.t, n.id FROM (SELECT DISTINCT typeof(v) AS t FROM lits) t CROSS JOIN n WHERE n.s IN (SELECT v FROM lits WHERE typeof(v) = t.t) UNION ALL SELECT 'b', t.t, n.id FROM (SELECT DISTINCT typeof(v) AS t FROM lits) t CROSS JOIN n WHERE n.b IN (SELECT v FROM lits WHERE typeof(v) = t.t))
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
150|0|0

# IS NULL and IS NOT NULL
query
WITH a AS (SELECT 'id', 'null', p.id FROM p WHERE p.id IS NULL UNION ALL SELECT 'id', 'not null', p.id FROM p WHERE p.id IS NOT NULL UNION ALL SELECT 'i', 'null', p.id FROM p WHERE p.i IS NULL UNION ALL SELECT 'i', 'not null', p.id FROM p WHERE p.i IS NOT NULL UNION ALL SELECT 'r', 'null', p.id FROM p WHERE p.r IS NULL UNION ALL SELECT 'r', 'not null', p.id FROM p WHERE p.r IS NOT NULL UNION ALL SELECT 's', 'null', p.id FROM p WHERE p.s IS NULL UNION ALL SELECT 's', 'not null', p.id FROM p WHERE p.s IS NOT NULL UNION ALL SELECT 'b', 'null', p.id FROM p WHERE p.b IS NULL UNION ALL SELECT 'b', 'not null', p.id FROM p WHERE p.b IS NOT NULL),
     b AS (SELECT 'id', 'null', n.id FROM n WHERE n.id IS NULL UNION ALL SELECT 'id', 'not null', n.id FROM n WHERE n.id IS NOT NULL UNION ALL SELECT 'i', 'null', n.id FROM n WHERE n.i IS NULL UNION ALL SELECT 'i', 'not null', n.id FROM n WHERE n.i IS NOT NULL UNION ALL SELECT 'r', 'null', n.id FROM n WHERE n.r IS NULL UNION ALL SELECT 'r', 'not null', n.id FROM n WHERE n.r IS NOT NULL UNION ALL SELECT 's', 'null', n.id FROM n WHERE n.s IS NULL UNION ALL SELECT 's', 'not null', n.id FROM n WHERE n.s IS NOT NULL UNION ALL SELECT 'b', 'null', n.id FROM n WHERE n.b IS NULL UNION ALL SELECT 'b', 'not null', n.id FROM n WHERE n.b IS NOT NULL)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
500|0|0

# BETWEEN two literals (both bounds pushed)
query
WITH a AS (SELECT 'i', x.rowid, y.rowid, p.id FROM (SELECT rowid, v FROM lits WHERE rowid % 3 = 0) x CROSS JOIN (SELECT rowid, v FROM lits WHERE rowid % 3 = 0) y CROSS JOIN p WHERE p.i BETWEEN +x.v AND +y.v UNION ALL SELECT 'r', x.rowid, y.rowid, p.id FROM (SELECT rowid, v FROM lits WHERE rowid % 3 = 0) x CROSS JOIN (SELECT rowid, v FROM lits WHERE rowid % 3 = 0) y CROSS JOIN p WHERE p.r BETWEEN +x.v AND +y.v UNION ALL SELECT 's', x.rowid, y.rowid, p.id FROM (SELECT rowid, v FROM lits WHERE rowid % 3 = 0) x CROSS JOIN (SELECT rowid, v FROM lits WHERE rowid % 3 = 0) y CROSS JOIN p WHERE p.s BETWEEN +x.v AND +y.v),
     b AS (SELECT 'i', x.rowid, y.rowid, n.id FROM (SELECT rowid, v FROM lits WHERE rowid % 3 = 0) x CROSS JOIN (SELECT rowid, v FROM lits WHERE rowid % 3 = 0) y CROSS JOIN n WHERE n.i BETWEEN +x.v AND +y.v UNION ALL SELECT 'r', x.rowid, y.rowid, n.id FROM (SELECT rowid, v FROM lits WHERE rowid % 3 = 0) x CROSS JOIN (SELECT rowid, v FROM lits WHERE rowid % 3 = 0) y CROSS JOIN n WHERE n.r BETWEEN +x.v AND +y.v UNION ALL SELECT 's', x.rowid, y.rowid, n.id FROM (SELECT rowid, v FROM lits WHERE rowid % 3 = 0) x CROSS JOIN (SELECT rowid, v FROM lits WHERE rowid % 3 = 0) y CROSS JOIN n WHERE n.s BETWEEN +x.v AND +y.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
6148|0|0

# LIKE and GLOB patterns: literal prefixes with and without letters (a LIKE prefix is pushed only up
# to its first letter, as LIKE folds ASCII case), wildcards first, and patterns that are not TEXT.
statement ok
CREATE TABLE pats(v);

statement ok
INSERT INTO pats VALUES ('ax%'), ('AX%'), ('Ax1'), ('a_1'), ('%x1'), ('1-%'), ('2-5%'), ('1-55'), ('[a]x*'), ('a*'), ('A*'),
  ('?x?'), ('*'), ('%'), (''), (NULL), (1), (x'31'), ('3%'), ('3*');


# column LIKE pattern
query
WITH a AS (SELECT 'id', l.rowid, p.id FROM pats l CROSS JOIN p WHERE p.id LIKE l.v UNION ALL SELECT 'i', l.rowid, p.id FROM pats l CROSS JOIN p WHERE p.i LIKE l.v UNION ALL SELECT 'r', l.rowid, p.id FROM pats l CROSS JOIN p WHERE p.r LIKE l.v UNION ALL SELECT 's', l.rowid, p.id FROM pats l CROSS JOIN p WHERE p.s LIKE l.v UNION ALL SELECT 'b', l.rowid, p.id FROM pats l CROSS JOIN p WHERE p.b LIKE l.v),
     b AS (SELECT 'id', l.rowid, n.id FROM pats l CROSS JOIN n WHERE n.id LIKE l.v UNION ALL SELECT 'i', l.rowid, n.id FROM pats l CROSS JOIN n WHERE n.i LIKE l.v UNION ALL SELECT 'r', l.rowid, n.id FROM pats l CROSS JOIN n WHERE n.r LIKE l.v UNION ALL SELECT 's', l.rowid, n.id FROM pats l CROSS JOIN n WHERE n.s LIKE l.v UNION ALL SELECT 'b', l.rowid, n.id FROM pats l CROSS JOIN n WHERE n.b LIKE l.v)
SELECT (SELECT count(*) FROM a) = (SELECT count(*) FROM b), (SELECT count(*) FROM a) > 400, (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
1|1|0|0

# column GLOB pattern
query
WITH a AS (SELECT 'id', l.rowid, p.id FROM pats l CROSS JOIN p WHERE p.id GLOB l.v UNION ALL SELECT 'i', l.rowid, p.id FROM pats l CROSS JOIN p WHERE p.i GLOB l.v UNION ALL SELECT 'r', l.rowid, p.id FROM pats l CROSS JOIN p WHERE p.r GLOB l.v UNION ALL SELECT 's', l.rowid, p.id FROM pats l CROSS JOIN p WHERE p.s GLOB l.v UNION ALL SELECT 'b', l.rowid, p.id FROM pats l CROSS JOIN p WHERE p.b GLOB l.v),
     b AS (SELECT 'id', l.rowid, n.id FROM pats l CROSS JOIN n WHERE n.id GLOB l.v UNION ALL SELECT 'i', l.rowid, n.id FROM pats l CROSS JOIN n WHERE n.i GLOB l.v UNION ALL SELECT 'r', l.rowid, n.id FROM pats l CROSS JOIN n WHERE n.r GLOB l.v UNION ALL SELECT 's', l.rowid, n.id FROM pats l CROSS JOIN n WHERE n.s GLOB l.v UNION ALL SELECT 'b', l.rowid, n.id FROM pats l CROSS JOIN n WHERE n.b GLOB l.v)
SELECT (SELECT count(*) FROM a) = (SELECT count(*) FROM b), (SELECT count(*) FROM a) > 400, (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
1|1|0|0

# ---------------------------------------------------------------------------------------------
# The same rules spelled out with literals in the query; each answer shows p, then n.

# An INTEGER column takes a TEXT literal that looks like a number as that number; a REAL literal
# compares by value.
query
SELECT (SELECT group_concat(id) FROM p WHERE i = '12'), (SELECT group_concat(id) FROM n WHERE i = '12');
----
15,32,49,66,83|15,32,49,66,83

query
SELECT (SELECT group_concat(id) FROM p WHERE i = 12.0 AND id < 60), (SELECT group_concat(id) FROM n WHERE i = 12.0 AND id < 60);
----
15,32,49|15,32,49

query
SELECT (SELECT count(*) FROM p WHERE i = 12.5 OR i = ' 12x'), (SELECT count(*) FROM n WHERE i = 12.5 OR i = ' 12x');
----
0|0

# A TEXT column takes a number literal as its text: `s >= 2 AND s < 3` is `s >= '2' AND s < '3'`.
query
SELECT (SELECT group_concat(s) FROM p WHERE s >= 2 AND s < 3), (SELECT group_concat(s) FROM n WHERE s >= 2 AND s < 3);
----
2-5,2-20,2-35,2.5,2-95|2-5,2-20,2-35,2.5,2-95

# A BLOB column compares without conversion: x'33' is the blob of "3"; the text '3' is no blob.
query
SELECT (SELECT group_concat(id) FROM p WHERE b = x'33'), (SELECT group_concat(id) FROM n WHERE b = x'33');
----
3,9,15,21,27,39,45,51,57,63,69,75,81,87,93|3,9,15,21,27,39,45,51,57,63,69,75,81,87,93

query
SELECT (SELECT count(*) FROM p WHERE b = '3'), (SELECT count(*) FROM n WHERE b = '3');
----
0|0

# NULL: `= NULL` and `IN (NULL)` match nothing, and NOT IN with a NULL in the list matches nothing
# either; IS / IS NOT and IS NULL / IS NOT NULL see NULLs.
query
SELECT (SELECT count(*) FROM p WHERE i = NULL), (SELECT count(*) FROM p WHERE i IN (NULL)), (SELECT count(*) FROM p WHERE i NOT IN (NULL, 13));
----
0|0|0

query
SELECT (SELECT group_concat(id) FROM p WHERE i IN (NULL, 13, -3)), (SELECT group_concat(id) FROM n WHERE i IN (NULL, 13, -3));
----
16,17,33,34,51,67,68,84,85|16,17,33,34,51,67,68,84,85

query
SELECT (SELECT count(*) FROM p WHERE i IS NULL), (SELECT count(*) FROM p WHERE i IS NOT NULL AND r IS NULL AND s IS NOT NULL), (SELECT count(*) FROM p WHERE i IS 13), (SELECT count(*) FROM p WHERE i IS NOT 13), (SELECT count(*) FROM p WHERE i IS NOT NULL);
----
10|9|4|96|90

query
SELECT (SELECT count(*) FROM n WHERE i IS NULL), (SELECT count(*) FROM n WHERE i IS NOT NULL AND r IS NULL AND s IS NOT NULL), (SELECT count(*) FROM n WHERE i IS 13), (SELECT count(*) FROM n WHERE i IS NOT 13), (SELECT count(*) FROM n WHERE i IS NOT NULL);
----
10|9|4|96|90

# Collations other than BINARY stay with SQLite (the engine compares bytes).
query
SELECT (SELECT group_concat(id) FROM p WHERE s = 'AX1' COLLATE NOCASE), (SELECT group_concat(id) FROM n WHERE s = 'AX1' COLLATE NOCASE);
----
36,92|36,92

# LIKE folds ASCII case ('AX%' matches 'ax1'; only the prefix before the first letter is pushed);
# GLOB does not.
query
SELECT (SELECT count(*) FROM p WHERE s LIKE 'AX%'), (SELECT count(*) FROM n WHERE s LIKE 'AX%'), (SELECT count(*) FROM p WHERE s GLOB 'AX*'), (SELECT count(*) FROM p WHERE s GLOB 'Ax*'), (SELECT count(*) FROM n WHERE s GLOB 'Ax*');
----
9|9|0|9|9

# Text that is not valid UTF-8 (SQLite stores what it is given, and so do other writers): SQLite's
# LIKE and GLOB decode it to U+FFFD and other code points, so a pattern character beyond ASCII may
# match bytes other than its own; such a character ends the pushed prefix. One row group per value,
# each with its min/max, so a wrong prefix would skip rows. The patterns are built at run time: SQLite
# 3.40 turns a literal one into a range on the column as well (its LIKE optimization, which newer
# versions skip for U+FFFD), and then gives the same rows here as on a native table with an index.
query
SELECT parquet_export('$TMPDIR/bad_utf8.parquet', 'SELECT column1 AS b FROM (VALUES (x''fffe''), (x''616263''), (x''c3''), (x''efbfbd41''), (x''c38041''))', 'row_group_size=1');
----
5

# (This writer keeps such bytes out of STRING columns; other writers' files may hold them. Binary
# read as TEXT is the same text to SQLite, with the same statistics.)
statement ok
CREATE VIRTUAL TABLE badutf8 USING parquet('$TMPDIR/bad_utf8.parquet', binary_as_string=1);

statement ok
CREATE TABLE badutf8_n AS SELECT rowid AS id, b FROM badutf8;

query
SELECT (SELECT group_concat(rowid) FROM badutf8 WHERE b GLOB char(65533) || '*'), (SELECT group_concat(id) FROM badutf8_n WHERE b GLOB char(65533) || '*'),
       (SELECT group_concat(rowid) FROM badutf8 WHERE b GLOB char(65533) || 'A'), (SELECT group_concat(id) FROM badutf8_n WHERE b GLOB char(65533) || 'A'),
       (SELECT group_concat(rowid) FROM badutf8 WHERE b LIKE char(65533) || '%'), (SELECT group_concat(id) FROM badutf8_n WHERE b LIKE char(65533) || '%'),
       (SELECT group_concat(rowid) FROM badutf8 WHERE b GLOB 'ab*'), (SELECT group_concat(id) FROM badutf8_n WHERE b GLOB 'ab*');
----
0,2,3|0,2,3|3|3|0,2,3|0,2,3|1|1

# A GLOB (or a case-sensitive LIKE) with a literal pattern whose prefix is no number: SQLite also
# hands the table the range `r >= 'I' AND r < 'J'` (its LIKE optimization), which it never checks
# itself and which holds for TEXT values only. A REAL reads as text like 'Inf' or '1.0e+300' there,
# so on a column that is not TEXT the range is left unused. One row group per value.
query
SELECT parquet_export('$TMPDIR/glob_reals.parquet', 'SELECT column1 AS r FROM (VALUES (9e999), (-9e999), (1e300), (1.5), (NULL))', 'row_group_size=1');
----
5

statement ok
CREATE VIRTUAL TABLE glob_reals USING parquet('$TMPDIR/glob_reals.parquet');

statement ok
CREATE TABLE glob_reals_n AS SELECT rowid AS id, r FROM glob_reals;

query
SELECT (SELECT group_concat(rowid) FROM glob_reals WHERE r GLOB 'I*'), (SELECT group_concat(id) FROM glob_reals_n WHERE r GLOB 'I*'),
       (SELECT group_concat(rowid) FROM glob_reals WHERE r GLOB '-Inf'), (SELECT group_concat(id) FROM glob_reals_n WHERE r GLOB '-Inf'),
       (SELECT group_concat(rowid) FROM glob_reals WHERE r GLOB '1.0e*'), (SELECT group_concat(id) FROM glob_reals_n WHERE r GLOB '1.0e*');
----
0|0|1|1|2|2

# The range stays unused; one of numbers (SQLite makes none from such a prefix) prunes as ever.
query
EXPLAIN QUERY PLAN SELECT r FROM glob_reals WHERE r GLOB 'I*';
----
SCAN glob_reals VIRTUAL TABLE INDEX 0:1

query
EXPLAIN QUERY PLAN SELECT r FROM glob_reals WHERE r >= '1' AND r < '2';
----
SCAN glob_reals VIRTUAL TABLE INDEX 3:1,ge0,lt0

statement ok
PRAGMA case_sensitive_like = 1;

# (With ESCAPE the LIKE is no term of the table's, but SQLite still makes the range.)
query
SELECT (SELECT group_concat(rowid) FROM glob_reals WHERE r LIKE 'Inf'), (SELECT group_concat(id) FROM glob_reals_n WHERE r LIKE 'Inf'),
       (SELECT group_concat(rowid) FROM glob_reals WHERE r LIKE 'I%' ESCAPE '!'), (SELECT group_concat(id) FROM glob_reals_n WHERE r LIKE 'I%' ESCAPE '!');
----
0|0|0|0

statement ok
PRAGMA case_sensitive_like = 0;

# NaN reads as NULL (SQLite has no NaN); a file whose statistics hold NaN still answers right.
statement ok
CREATE VIRTUAL TABLE nan USING parquet('$TESTDATA/parquet-testing/data/nan_in_stats.parquet');

query
SELECT (SELECT group_concat(x) FROM nan WHERE x > 0.5), (SELECT group_concat(x) FROM nan WHERE x < 2), (SELECT group_concat(rowid) FROM nan WHERE x IS NULL), (SELECT count(*) FROM nan WHERE x >= 'a' OR x != 1.0);
----
1.0|1.0|1|0

statement ok
CREATE VIRTUAL TABLE fnan USING parquet('$TESTDATA/parquet-testing/data/float16_nonzeros_and_nans.parquet');

query
SELECT rowid, x FROM fnan WHERE x >= -1;
----
1|1.0
4|0.0
5|-1.0
6|-0.0
7|2.0

query
SELECT rowid FROM fnan WHERE x IS NULL;
----
0
3

# ---------------------------------------------------------------------------------------------
# Rowid and file_row_number: exact row ranges (SQLite does not check them again). The native
# table `nr` has the same rows under an INTEGER PRIMARY KEY (the rowid) equal to the position.

statement ok
CREATE TABLE nr(rid INTEGER PRIMARY KEY, id INTEGER);

statement ok
INSERT INTO nr SELECT id - 1, id FROM n;

# The same rows in two files (ids 1..40 and 41..100): rowid runs on across files, file_row_number
# restarts in each. `nm` is the native twin with both positions and the file's name.
query
SELECT parquet_export('$TMPDIR/m1.parquet', 'SELECT * FROM n WHERE id <= 40 ORDER BY id', 'row_group_size=16') + parquet_export('$TMPDIR/m2.parquet', 'SELECT * FROM n WHERE id > 40 ORDER BY id', 'row_group_size=16');
----
100

statement ok
CREATE VIRTUAL TABLE pm USING parquet('$TMPDIR/m1.parquet, $TMPDIR/m2.parquet');

statement ok
CREATE TABLE nm(rid INTEGER PRIMARY KEY, frn INTEGER, fname TEXT, id INTEGER);

statement ok
INSERT INTO nm SELECT id - 1, CASE WHEN id <= 40 THEN id - 1 ELSE id - 41 END, CASE WHEN id <= 40 THEN '$TMPDIR/m1.parquet' ELSE '$TMPDIR/m2.parquet' END, id FROM n;

# rowid OP value, and rowid IN (every value)
query
WITH a AS (SELECT '=', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.rowid = l.v UNION ALL SELECT '<', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.rowid < l.v UNION ALL SELECT '<=', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.rowid <= l.v UNION ALL SELECT '>', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.rowid > l.v UNION ALL SELECT '>=', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.rowid >= l.v UNION ALL SELECT 'IS', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.rowid IS l.v UNION ALL SELECT 'IN', 0, p.id FROM p WHERE p.rowid IN (SELECT v FROM lits)),
     b AS (SELECT '=', l.rowid, nr.id FROM lits l CROSS JOIN nr WHERE nr.rid = l.v UNION ALL SELECT '<', l.rowid, nr.id FROM lits l CROSS JOIN nr WHERE nr.rid < l.v UNION ALL SELECT '<=', l.rowid, nr.id FROM lits l CROSS JOIN nr WHERE nr.rid <= l.v UNION ALL SELECT '>', l.rowid, nr.id FROM lits l CROSS JOIN nr WHERE nr.rid > l.v UNION ALL SELECT '>=', l.rowid, nr.id FROM lits l CROSS JOIN nr WHERE nr.rid >= l.v UNION ALL SELECT 'IS', l.rowid, nr.id FROM lits l CROSS JOIN nr WHERE nr.rid IS l.v UNION ALL SELECT 'IN', 0, nr.id FROM nr WHERE nr.rid IN (SELECT v FROM lits))
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
7429|0|0

# rowid on two files: the position in the dataset
query
WITH a AS (SELECT '=', l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.rowid = l.v UNION ALL SELECT '<', l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.rowid < l.v UNION ALL SELECT '<=', l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.rowid <= l.v UNION ALL SELECT '>', l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.rowid > l.v UNION ALL SELECT '>=', l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.rowid >= l.v UNION ALL SELECT 'IS', l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.rowid IS l.v UNION ALL SELECT 'IN', 0, pm.id FROM pm WHERE pm.rowid IN (SELECT v FROM lits)),
     b AS (SELECT '=', l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.rid = l.v UNION ALL SELECT '<', l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.rid < l.v UNION ALL SELECT '<=', l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.rid <= l.v UNION ALL SELECT '>', l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.rid > l.v UNION ALL SELECT '>=', l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.rid >= l.v UNION ALL SELECT 'IS', l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.rid IS l.v UNION ALL SELECT 'IN', 0, nm.id FROM nm WHERE nm.rid IN (SELECT v FROM lits))
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
7429|0|0

# file_row_number on two files: the position in each file
query
WITH a AS (SELECT '=', l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.file_row_number = l.v UNION ALL SELECT '<', l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.file_row_number < l.v UNION ALL SELECT '<=', l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.file_row_number <= l.v UNION ALL SELECT '>', l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.file_row_number > l.v UNION ALL SELECT '>=', l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.file_row_number >= l.v UNION ALL SELECT 'IS', l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.file_row_number IS l.v UNION ALL SELECT 'IN', 0, pm.id FROM pm WHERE pm.file_row_number IN (SELECT v FROM lits)),
     b AS (SELECT '=', l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.frn = l.v UNION ALL SELECT '<', l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.frn < l.v UNION ALL SELECT '<=', l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.frn <= l.v UNION ALL SELECT '>', l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.frn > l.v UNION ALL SELECT '>=', l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.frn >= l.v UNION ALL SELECT 'IS', l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.frn IS l.v UNION ALL SELECT 'IN', 0, nm.id FROM nm WHERE nm.frn IN (SELECT v FROM lits))
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
7446|0|0

# A TEXT holding a NUL byte: under numeric affinity SQLite 3.53 reads it up to the NUL ('3' ||
# char(0) || 'x' equals the INTEGER 3), 3.40 finds no number in it. Each pair is the table against
# its native twin (1: the same rows) on either release: the engine leaves such a literal to SQLite,
# and rowid and file_row_number, which SQLite does not check again, read it as this SQLite does.
query
SELECT (SELECT group_concat(id) FROM p WHERE i = '3' || char(0) || 'x') IS (SELECT group_concat(id) FROM n WHERE i = '3' || char(0) || 'x'),
       (SELECT group_concat(id) FROM p WHERE i < ' 3 ' || char(0)) IS (SELECT group_concat(id) FROM n WHERE i < ' 3 ' || char(0)),
       (SELECT group_concat(id) FROM p WHERE r IN ('0.5' || char(0), 7)) IS (SELECT group_concat(id) FROM n WHERE r IN ('0.5' || char(0), 7)),
       (SELECT group_concat(id) FROM p WHERE rowid = '7' || char(0) || 'x') IS (SELECT group_concat(id) FROM nr WHERE rid = '7' || char(0) || 'x'),
       (SELECT group_concat(id) FROM p WHERE rowid < '7' || char(0)) IS (SELECT group_concat(id) FROM nr WHERE rid < '7' || char(0)),
       (SELECT group_concat(id) FROM pm WHERE file_row_number IN ('2' || char(0), 5)) IS (SELECT group_concat(id) FROM nm WHERE frn IN ('2' || char(0), 5));
----
1|1|1|1|1|1

# Ranges from several terms are intersected; IN lists on positions are exact too.
query
SELECT rowid, file_row_number, id FROM pm WHERE rowid BETWEEN 37 AND 43 AND file_row_number IN (0, 1, 38, '39', 2.0, 2.5) ORDER BY rowid;
----
38|38|39
39|39|40
40|0|41
41|1|42
42|2|43

query
SELECT count(*) FROM pm WHERE rowid > 50 AND rowid < 50;
----
0

# filename prunes whole files (=, IN, LIKE/GLOB prefix); SQLite still checks the term.
query
SELECT min(id), max(id), count(*) FROM pm WHERE filename = '$TMPDIR/m2.parquet';
----
41|100|60

query
SELECT json_extract(parquet_scan_stats('pm'), '$.files_considered', '$.files_skipped');
----
[2,1]

query
SELECT count(*) FROM pm WHERE filename IN ('$TMPDIR/m1.parquet', 'nope');
----
40

query
SELECT count(*) FROM pm WHERE filename GLOB '$TMPDIR/m1*';
----
40

query
SELECT json_extract(parquet_scan_stats('pm'), '$.files_skipped', '$.rows_skipped');
----
[1,60]

query
SELECT count(*) FROM pm WHERE filename LIKE '%M2.PARQUET';
----
60

query
WITH a AS (SELECT l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.filename = l.v UNION ALL SELECT l.rowid, pm.id FROM lits l CROSS JOIN pm WHERE pm.filename LIKE l.v),
     b AS (SELECT l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.fname = l.v UNION ALL SELECT l.rowid, nm.id FROM lits l CROSS JOIN nm WHERE nm.fname LIKE l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
240|0|0

# ---------------------------------------------------------------------------------------------
# LIMIT and OFFSET. Rows come out in rowid order, so each query is compared with the native table
# read in id order.

query
SELECT id FROM p LIMIT 5 OFFSET 37;
----
38
39
40
41
42

query
SELECT (SELECT group_concat(id) FROM (SELECT id FROM p WHERE i = 3 LIMIT 2 OFFSET 1)), (SELECT group_concat(id) FROM (SELECT id FROM n WHERE i = 3 ORDER BY id LIMIT 2 OFFSET 1));
----
23,57|23,57

query
SELECT (SELECT group_concat(id) FROM (SELECT id FROM pm WHERE rowid > 10 AND file_row_number > 5 LIMIT 4 OFFSET 28)), (SELECT group_concat(id) FROM (SELECT id FROM nm WHERE rid > 10 AND frn > 5 ORDER BY rid LIMIT 4 OFFSET 28));
----
40,47,48,49|40,47,48,49

# A term xBestIndex never sees (a column against another column of the same table): the OFFSET
# must stay with SQLite, which filters first.
query
SELECT (SELECT group_concat(id) FROM (SELECT id FROM p WHERE r > i LIMIT 3 OFFSET 2)), (SELECT group_concat(id) FROM (SELECT id FROM n WHERE r > i ORDER BY id LIMIT 3 OFFSET 2));
----
3,17,19|3,17,19

query
SELECT (SELECT group_concat(id) FROM (SELECT id FROM p WHERE rowid < 50 AND r > i LIMIT 3 OFFSET 2)), (SELECT group_concat(id) FROM (SELECT id FROM n WHERE id <= 50 AND r > i ORDER BY id LIMIT 3 OFFSET 2));
----
3,17,19|3,17,19

# An ORDER BY that is not the rowid: SQLite sorts first, then skips.
query
SELECT (SELECT group_concat(id) FROM (SELECT id FROM p WHERE rowid >= 10 ORDER BY id DESC LIMIT 3 OFFSET 2)), (SELECT group_concat(id) FROM (SELECT id FROM n WHERE id >= 11 ORDER BY id DESC LIMIT 3 OFFSET 2));
----
98,97,96|98,97,96

query
SELECT group_concat(id) FROM (SELECT id FROM pm ORDER BY rowid LIMIT 3 OFFSET 38);
----
39,40,41

query
SELECT group_concat(id) FROM (SELECT id FROM pm WHERE rowid IN (1, 50, 3, 70, 99) LIMIT 2 OFFSET 1);
----
4,51

query
SELECT count(*) FROM (SELECT id FROM p LIMIT 0);
----
0

query
SELECT count(*) FROM (SELECT id FROM p LIMIT -1 OFFSET 95);
----
5

query
SELECT count(*) FROM (SELECT id FROM p LIMIT 10 OFFSET 1000);
----
0

# Other shapes that carry a LIMIT/OFFSET: a window function, an OFFSET expression, a correlated
# subquery (one xFilter per outer row), a flattened subquery, DISTINCT, a rowid IN subquery.
query
SELECT group_concat(id || ':' || k) FROM (SELECT id, row_number() OVER () AS k FROM p WHERE rowid > 5 LIMIT 3 OFFSET 2);
----
9:3,10:4,11:5

query
SELECT group_concat(id) FROM (SELECT id FROM p WHERE rowid > 5 LIMIT 3 OFFSET 2 * 2);
----
11,12,13

query
SELECT group_concat(v) FROM (SELECT (SELECT id FROM p WHERE rowid > n.id LIMIT 1 OFFSET 2) AS v FROM n WHERE n.id < 4);
----
5,6,7

query
SELECT group_concat(id) FROM (SELECT * FROM (SELECT id FROM p WHERE rowid >= 50) LIMIT 2 OFFSET 3);
----
54,55

query
SELECT (SELECT group_concat(v) FROM (SELECT DISTINCT i AS v FROM p WHERE rowid >= 50 ORDER BY v LIMIT 2 OFFSET 3)), (SELECT group_concat(v) FROM (SELECT DISTINCT i AS v FROM n WHERE id > 50 ORDER BY v LIMIT 2 OFFSET 3));
----
-1,0|-1,0

# Without ORDER BY the order of DISTINCT values is the plan's (SQLite 3.53 takes the table's sorted
# scan for it, 3.40 its own B-tree), and so which values LIMIT/OFFSET keep; how many is fixed.
query
SELECT (SELECT count(*) FROM (SELECT DISTINCT i FROM p WHERE rowid >= 50 LIMIT 2 OFFSET 3)), (SELECT count(*) FROM (SELECT DISTINCT i FROM p WHERE rowid >= 50 LIMIT 20 OFFSET 3)), (SELECT count(*) FROM (SELECT DISTINCT i FROM n WHERE id > 50 LIMIT 20 OFFSET 3));
----
2|15|15

query
SELECT group_concat(id) FROM (SELECT id FROM p WHERE rowid IN (SELECT id FROM n WHERE i = 3) LIMIT 2 OFFSET 1);
----
24,58

# In a compound SELECT the OFFSET belongs to the whole compound.
query
SELECT group_concat(id) FROM (SELECT id FROM p WHERE rowid < 3 UNION ALL SELECT id FROM pm WHERE rowid >= 97 LIMIT 4 OFFSET 1);
----
2,3,98,99

# ---------------------------------------------------------------------------------------------
# What pruning did: parquet_scan_stats(TABLE) describes the last scan of TABLE. Each check below
# fails if its layer stopped working.

statement error parquet_scan_stats: no parquet table named 'nope'
SELECT parquet_scan_stats('nope');

statement ok
CREATE VIRTUAL TABLE fresh USING parquet('$TMPDIR/mixed.parquet');

# NULL until the table is scanned.
query
SELECT parquet_scan_stats('fresh') IS NULL, parquet_scan_stats('main.fresh') IS NULL;
----
1|1

# count(*) reads no column: its rows go to SQLite without a single column chunk being opened.
query
SELECT count(*) FROM fresh;
----
100

query
SELECT parquet_scan_stats('fresh');
----
{"files_considered":1,"files_skipped":0,"row_groups_considered":7,"row_groups_skipped_by_row_position":0,"row_groups_skipped_by_statistics":0,"row_groups_skipped_by_dictionary":0,"row_groups_skipped_by_bloom_filter":0,"row_groups_skipped_by_page_index":0,"row_groups_read":0,"pages_considered":0,"pages_skipped_by_page_index":0,"pages_read":0,"pages_skipped":0,"pages_from_cache":0,"pages_read_ahead":0,"rows_considered":100,"rows_skipped":0,"rows_filtered":0,"rows_produced":100,"bytes_read":0,"values_decoded":0,"requests":0,"bytes_fetched":0}

# A dropped table is gone from the registry.
statement ok
DROP TABLE fresh;

statement error parquet_scan_stats: no parquet table named 'fresh'
SELECT parquet_scan_stats('fresh');

# Row-group statistics: a sorted column in 10 row groups of 10000 rows; a range inside one row
# group skips the other nine without reading them. (encoding_trial=0 keeps the values PLAIN, so
# that page_size=4096 cuts the pages the page-index blocks below count; the trial would store the
# sorted id as DELTA_BINARY_PACKED, a few bytes a page.)
statement ok
CREATE TABLE nums AS WITH RECURSIVE k(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM k WHERE value < 100000) SELECT value FROM k;

query
SELECT parquet_export('$TMPDIR/sorted.parquet', 'SELECT value AS id, value % 7 AS m, (value % 7) * 2 AS d FROM nums ORDER BY value', 'row_group_size=10000, page_size=4096, encoding_trial=0');
----
100000

statement ok
CREATE VIRTUAL TABLE sorted USING parquet('$TMPDIR/sorted.parquet');

query
SELECT count(*), min(id), max(id) FROM sorted WHERE id BETWEEN 25000 AND 25010;
----
11|25000|25010

query
SELECT json_extract(parquet_scan_stats('sorted'), '$.row_groups_considered', '$.row_groups_skipped_by_statistics', '$.row_groups_read');
----
[10,9,1]

# The page index our writer made prunes inside that row group: of the id column's 5 pages (2,500
# rows each at page_size=4096), the ColumnIndex keeps the one holding 25000..25010; the other
# projected columns are read only for the 11 surviving rows (late materialization: 2,492 id values
# decoded, then 11 of m and of d).
query
SELECT sum(m), sum(d) FROM sorted WHERE id BETWEEN 25000 AND 25010;
----
39|78

query
SELECT json_extract(parquet_scan_stats('sorted'), '$.row_groups_read', '$.pages_skipped_by_page_index', '$.pages_read', '$.rows_skipped', '$.values_decoded');
----
[1,4,3,97508,2514]

# Row positions: rowid >= n reads from row n on; rows before it are never decoded: its row group
# is the only one read, and only from the page holding row n.
query
SELECT id FROM sorted WHERE rowid >= 55000 LIMIT 5;
----
55001
55002
55003
55004
55005

# (A SQLite that offers LIMIT with the rowid term, 3.53 for one, also skips the row groups after it.)
query
SELECT json_extract(s, '$.row_groups_skipped_by_row_position') >= 5, json_extract(s, '$.row_groups_read'), json_extract(s, '$.pages_read') FROM (SELECT parquet_scan_stats('sorted') AS s);
----
1|1|1

# LIMIT with OFFSET. When the SQLite library offers LIMIT/OFFSET only with every WHERE term (see
# docs/pushdown.md), the engine skips the OFFSET rows itself and decodes the 5 rows alone; 3.40 also
# offers them with terms it hides from the table, so there SQLite skips them. Either way no row
# before row n is decoded: SQLite steps over the OFFSET rows without asking for a column, and the
# table hands out rows it has not decoded until a column is asked for, then skips to that row by
# row groups and pages. Only row group 5 is opened, from the page holding row 55000 (on 3.40 a
# batch of 2,048 rows reaches into the next page).
query
SELECT id FROM sorted LIMIT 5 OFFSET 55000;
----
55001
55002
55003
55004
55005

query
SELECT json_extract(s, '$.row_groups_read'), json_extract(s, '$.pages_read') <= 2, json_extract(s, '$.pages_read') + json_extract(s, '$.pages_skipped'), json_extract(s, '$.values_decoded') <= 2048 FROM (SELECT parquet_scan_stats('sorted') AS s);
----
1|1|5|1

# LIMIT sizes the batches: LIMIT 5 decodes a small batch, not 2048 values.
query
SELECT id FROM sorted LIMIT 5;
----
1
2
3
4
5

query
SELECT json_extract(parquet_scan_stats('sorted'), '$.values_decoded') <= 64;
----
1

# Page index: alltypes_tiny_pages has pages of about 20 rows. Its id column is not sorted, so the
# ColumnIndex leaves 7 of its 325 id pages that may hold 1234; the other column is then read only
# for the row that passed (late materialization): one page.
statement ok
CREATE VIRTUAL TABLE tiny USING parquet('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet');

query
SELECT id, int_col FROM tiny WHERE id = 1234;
----
1234|4

query
SELECT json_extract(parquet_scan_stats('tiny'), '$.pages_considered', '$.pages_skipped_by_page_index', '$.pages_read', '$.rows_produced');
----
[325,318,8,1]

# A rowid is one row: one page of each projected column.
query
SELECT rowid, id, int_col FROM tiny WHERE rowid = 1234;
----
1234|431|1

query
SELECT json_extract(parquet_scan_stats('tiny'), '$.pages_read', '$.rows_skipped', '$.values_decoded');
----
[2,7299,2]

# Dictionary: d holds 0, 2, ..., 12 in fully dictionary-encoded chunks; 5 lies within every row
# group's min/max but is in no dictionary.
query
SELECT count(*) FROM sorted WHERE d = 5;
----
0

query
SELECT json_extract(parquet_scan_stats('sorted'), '$.row_groups_skipped_by_statistics', '$.row_groups_skipped_by_dictionary', '$.pages_read');
----
[0,10,0]

# Bloom filter: 'b' lies between the chunk's min 'Hello' and max 'today', the chunk is not
# dictionary-encoded, and the Bloom filter says 'b' is absent.
statement ok
CREATE VIRTUAL TABLE bloom USING parquet('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet');

query
SELECT count(*) FROM bloom WHERE String = 'b';
----
0

query
SELECT json_extract(parquet_scan_stats('bloom'), '$.row_groups_skipped_by_statistics', '$.row_groups_skipped_by_dictionary', '$.row_groups_skipped_by_bloom_filter', '$.pages_read');
----
[0,0,1,0]

query
SELECT String FROM bloom WHERE String IN ('b', 'doing ', 'zzz');
----
doing 

# Late materialization: rows failing `m = 3` are decoded for the filter and dropped in the engine.
query
SELECT count(*) FROM sorted WHERE m = 3;
----
14286

query
SELECT json_extract(parquet_scan_stats('sorted'), '$.rows_filtered', '$.rows_produced');
----
[85714,14286]

# Position terms and value terms together.
query
SELECT rowid, id FROM pm WHERE rowid IN (2, 77) AND i IS NOT NULL;
----
2|3
77|78

# The plan as EXPLAIN QUERY PLAN shows it: idxNum (bit k: argument k is a literal), then idxStr
# (docs/pushdown.md): columns 0, 1 and 3 decoded; i = literal, s LIKE literal, rowid < literal.
query
EXPLAIN QUERY PLAN SELECT id, i FROM p WHERE i = 5 AND s LIKE 'a%' AND rowid < 50;
----
SCAN p VIRTUAL TABLE INDEX 7:b,eq1,lt-1,like3

# Each table has its own record, found by name and schema. Every xFilter call is a new scan: after
# a join, the record shows the inner table's last lookup (here rowid = 39, the outer table's last row).
statement ok
CREATE VIRTUAL TABLE temp.p USING parquet('$TMPDIR/m1.parquet');

query
SELECT count(*) FROM main.p WHERE rowid < 10;
----
10

query
SELECT parquet_scan_stats('temp.p') IS NULL, json_extract(parquet_scan_stats('main.p'), '$.rows_produced'), parquet_scan_stats('p') IS NULL;
----
1|10|1

query
SELECT count(*) FROM temp.p AS a, temp.p AS b WHERE b.rowid = a.rowid;
----
40

query
SELECT json_extract(parquet_scan_stats('temp.p'), '$.rows_considered', '$.rows_skipped', '$.rows_produced');
----
[40,39,1]

# A renamed table is found under its new name once a statement opens it again.
statement ok
ALTER TABLE main.p RENAME TO p_renamed;

statement error no parquet table named 'main.p' is open on this connection
SELECT parquet_scan_stats('main.p');

query
SELECT count(*) FROM p_renamed WHERE rowid >= 90;
----
10

query
SELECT json_extract(parquet_scan_stats('p_renamed'), '$.rows_produced');
----
10

# Text equality on PLAIN strings of one length: values that share the literal's last 8 bytes but
# not its start are not matches (30 values end in '00000001', 3 of them are 'b_00000001'); a
# literal shorter than 8 bytes, and one a byte shorter than the values, work too.
statement ok
CREATE TABLE eqs AS WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 2999)
SELECT i, char(97 + i % 26) || printf('_%08d', i % 100) AS s, char(97 + i % 26) || (i % 7) AS t FROM k;

query
SELECT parquet_export('$TMPDIR/eqs.parquet', 'SELECT * FROM eqs', 'encoding=''s:PLAIN, t:PLAIN''');
----
3000

statement ok
CREATE VIRTUAL TABLE eqs_p USING parquet('$TMPDIR/eqs.parquet');

query
SELECT group_concat(i) FROM eqs_p WHERE s = 'b_00000001';
----
1,1301,2601

# The engine's own filter kept just those (SQLite checks text equality again).
query
SELECT json_extract(parquet_scan_stats('eqs_p'), '$.rows_produced');
----
3

query
SELECT (SELECT count(*) FROM eqs_p WHERE t = 'b3'), (SELECT count(*) FROM eqs WHERE t = 'b3'),
       (SELECT count(*) FROM eqs_p WHERE s = 'b_0000001'), (SELECT count(*) FROM eqs_p WHERE s = 'z_00000099');
----
16|16|0|2
