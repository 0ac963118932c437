# Filtering by dictionary index: a scan with a WHERE term on a dictionary-encoded column evaluates
# the term once per dictionary entry and keeps rows by their index, gathering only the surviving
# rows' values. That changes speed, never results: every answer here is checked against a native
# SQLite table holding the same rows, for every operator on every kind of column, with NULLs, and
# on a column whose writer falls back from the dictionary to PLAIN part-way through its chunk (its
# dictionary passes 1 MiB), so batches of dictionary pages, of PLAIN pages and of both are filtered.

# ---------------------------------------------------------------------------------------------
# The data: 15,000 rows in row groups of 8,000. `s` is distinct 1 KB text for its first 12,000 rows
# (the first group's dictionary grows past the writer's limit of a few MiB and the chunk goes on in
# PLAIN), then a few repeated values; `c` few text values;
# `i` small integers; `r` reals; `b` blobs. Every column but `id` has NULLs.

statement ok
CREATE TABLE n(id INTEGER, s TEXT, c TEXT, i INTEGER, r REAL, b BLOB);

statement ok
INSERT INTO n WITH RECURSIVE k(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM k WHERE id < 15000)
SELECT id,
       CASE WHEN id % 7 = 0 THEN NULL WHEN id <= 12000 THEN printf('%.1000c', 'x') || printf('%06d', id) ELSE 'tail_' || (id % 5) END,
       CASE WHEN id % 5 = 0 THEN NULL ELSE 'c' || (id % 13) END,
       CASE WHEN id % 11 = 0 THEN NULL ELSE id % 17 - 8 END,
       CASE WHEN id % 6 = 0 THEN NULL ELSE (id % 23) * 0.5 - 3 END,
       CASE WHEN id % 9 = 0 THEN NULL ELSE CAST(id % 4 AS BLOB) END
FROM k;

# No encoding trial: every column starts with a dictionary.
query
SELECT parquet_export('$TMPDIR/dict.parquet', 'SELECT * FROM n ORDER BY id', 'row_group_size=8000, encoding_trial=0');
----
15000

statement ok
CREATE VIRTUAL TABLE p USING parquet('$TMPDIR/dict.parquet');

query
SELECT count(*) FROM (SELECT * FROM p EXCEPT SELECT * FROM n);
----
0

# In the first row group `s` has dictionary pages and then PLAIN pages; the others dictionary pages only.
query
SELECT path_in_schema, encoding_stats LIKE '%"DATA_PAGE","encoding":"RLE_DICTIONARY"%', encoding_stats LIKE '%"DATA_PAGE","encoding":"PLAIN"%'
FROM parquet_metadata('$TMPDIR/dict.parquet') WHERE row_group_id = 0 AND path_in_schema != 'id' ORDER BY column_id;
----
s|1|1
c|1|0
i|1|0
r|1|0
b|1|0

# Literals of every storage class, some hitting dictionary entries, some between them, some in the
# PLAIN part of `s`.
statement ok
CREATE TABLE lits(v);

statement ok
INSERT INTO lits VALUES (printf('%.1000c', 'x') || '000043'), (printf('%.1000c', 'x') || '011999'), ('tail_3'), ('c7'), (3), ('3'),
  (2.5), (x'33'), (NULL);

# ---------------------------------------------------------------------------------------------
# Every operator on every column against every literal: the pairs on p and on n, and the pairs only
# on one side (0 and 0).

# column = value
query
WITH a AS (SELECT 's', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s = +l.v UNION ALL SELECT 'c', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.c = +l.v UNION ALL SELECT 'i', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i = +l.v UNION ALL SELECT 'r', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r = +l.v UNION ALL SELECT 'b', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b = +l.v),
     b AS (SELECT 's', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s = +l.v UNION ALL SELECT 'c', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.c = +l.v UNION ALL SELECT 'i', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i = +l.v UNION ALL SELECT 'r', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r = +l.v UNION ALL SELECT 'b', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b = +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
8006|8006|0|0

# column != value
query
WITH a AS (SELECT 's', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s != +l.v UNION ALL SELECT 'c', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.c != +l.v UNION ALL SELECT 'i', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i != +l.v UNION ALL SELECT 'r', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r != +l.v UNION ALL SELECT 'b', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b != +l.v),
     b AS (SELECT 's', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s != +l.v UNION ALL SELECT 'c', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.c != +l.v UNION ALL SELECT 'i', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i != +l.v UNION ALL SELECT 'r', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r != +l.v UNION ALL SELECT 'b', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b != +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
506626|506626|0|0

# column < value
query
WITH a AS (SELECT 's', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s < +l.v UNION ALL SELECT 'c', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.c < +l.v UNION ALL SELECT 'i', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i < +l.v UNION ALL SELECT 'r', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r < +l.v UNION ALL SELECT 'b', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b < +l.v),
     b AS (SELECT 's', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s < +l.v UNION ALL SELECT 'c', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.c < +l.v UNION ALL SELECT 'i', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i < +l.v UNION ALL SELECT 'r', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r < +l.v UNION ALL SELECT 'b', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b < +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
273289|273289|0|0

# column <= value
query
WITH a AS (SELECT 's', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s <= +l.v UNION ALL SELECT 'c', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.c <= +l.v UNION ALL SELECT 'i', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i <= +l.v UNION ALL SELECT 'r', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r <= +l.v UNION ALL SELECT 'b', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b <= +l.v),
     b AS (SELECT 's', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s <= +l.v UNION ALL SELECT 'c', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.c <= +l.v UNION ALL SELECT 'i', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i <= +l.v UNION ALL SELECT 'r', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r <= +l.v UNION ALL SELECT 'b', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b <= +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
281295|281295|0|0

# column > value
query
WITH a AS (SELECT 's', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s > +l.v UNION ALL SELECT 'c', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.c > +l.v UNION ALL SELECT 'i', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i > +l.v UNION ALL SELECT 'r', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r > +l.v UNION ALL SELECT 'b', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b > +l.v),
     b AS (SELECT 's', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s > +l.v UNION ALL SELECT 'c', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.c > +l.v UNION ALL SELECT 'i', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i > +l.v UNION ALL SELECT 'r', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r > +l.v UNION ALL SELECT 'b', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b > +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
233337|233337|0|0

# column >= value
query
WITH a AS (SELECT 's', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s >= +l.v UNION ALL SELECT 'c', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.c >= +l.v UNION ALL SELECT 'i', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i >= +l.v UNION ALL SELECT 'r', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r >= +l.v UNION ALL SELECT 'b', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b >= +l.v),
     b AS (SELECT 's', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s >= +l.v UNION ALL SELECT 'c', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.c >= +l.v UNION ALL SELECT 'i', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i >= +l.v UNION ALL SELECT 'r', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r >= +l.v UNION ALL SELECT 'b', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b >= +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
241343|241343|0|0

# column IS value
query
WITH a AS (SELECT 's', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s IS +l.v UNION ALL SELECT 'c', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.c IS +l.v UNION ALL SELECT 'i', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i IS +l.v UNION ALL SELECT 'r', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r IS +l.v UNION ALL SELECT 'b', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b IS +l.v),
     b AS (SELECT 's', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s IS +l.v UNION ALL SELECT 'c', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.c IS +l.v UNION ALL SELECT 'i', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i IS +l.v UNION ALL SELECT 'r', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r IS +l.v UNION ALL SELECT 'b', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b IS +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
18677|18677|0|0

# column IS NOT value
query
WITH a AS (SELECT 's', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s IS NOT +l.v UNION ALL SELECT 'c', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.c IS NOT +l.v UNION ALL SELECT 'i', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i IS NOT +l.v UNION ALL SELECT 'r', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r IS NOT +l.v UNION ALL SELECT 'b', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b IS NOT +l.v),
     b AS (SELECT 's', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s IS NOT +l.v UNION ALL SELECT 'c', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.c IS NOT +l.v UNION ALL SELECT 'i', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i IS NOT +l.v UNION ALL SELECT 'r', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r IS NOT +l.v UNION ALL SELECT 'b', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b IS NOT +l.v)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
656323|656323|0|0

# column IN (value, two others)
query
WITH a AS (SELECT 's', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.s IN (+l.v, printf('%.1000c', 'x') || '000044', 5) UNION ALL SELECT 'c', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.c IN (+l.v, printf('%.1000c', 'x') || '000044', 5) UNION ALL SELECT 'i', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.i IN (+l.v, printf('%.1000c', 'x') || '000044', 5) UNION ALL SELECT 'r', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.r IN (+l.v, printf('%.1000c', 'x') || '000044', 5) UNION ALL SELECT 'b', l.rowid, p.id FROM lits l CROSS JOIN p WHERE p.b IN (+l.v, printf('%.1000c', 'x') || '000044', 5)),
     b AS (SELECT 's', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.s IN (+l.v, printf('%.1000c', 'x') || '000044', 5) UNION ALL SELECT 'c', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.c IN (+l.v, printf('%.1000c', 'x') || '000044', 5) UNION ALL SELECT 'i', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.i IN (+l.v, printf('%.1000c', 'x') || '000044', 5) UNION ALL SELECT 'r', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.r IN (+l.v, printf('%.1000c', 'x') || '000044', 5) UNION ALL SELECT 'b', l.rowid, n.id FROM lits l CROSS JOIN n WHERE n.b IN (+l.v, printf('%.1000c', 'x') || '000044', 5))
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)), (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a));
----
20129|20129|0|0

# ---------------------------------------------------------------------------------------------
# Single queries as a user writes them: the same rows on both sides.

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE s = printf('%.1000c', 'x') || '000043'), count(*) = (SELECT count(*) FROM n WHERE s = printf('%.1000c', 'x') || '000043') FROM p WHERE s = printf('%.1000c', 'x') || '000043';
----
1|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE s = printf('%.1000c', 'x') || '011999'), count(*) = (SELECT count(*) FROM n WHERE s = printf('%.1000c', 'x') || '011999') FROM p WHERE s = printf('%.1000c', 'x') || '011999';
----
1|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE s = 'tail_3'), count(*) = (SELECT count(*) FROM n WHERE s = 'tail_3') FROM p WHERE s = 'tail_3';
----
515|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE s >= printf('%.1000c', 'x') || '011000' AND s < printf('%.1000c', 'x') || '011100'), count(*) = (SELECT count(*) FROM n WHERE s >= printf('%.1000c', 'x') || '011000' AND s < printf('%.1000c', 'x') || '011100') FROM p WHERE s >= printf('%.1000c', 'x') || '011000' AND s < printf('%.1000c', 'x') || '011100';
----
86|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE s IN (printf('%.1000c', 'x') || '000001', printf('%.1000c', 'x') || '007000', 'tail_1', 'nope')), count(*) = (SELECT count(*) FROM n WHERE s IN (printf('%.1000c', 'x') || '000001', printf('%.1000c', 'x') || '007000', 'tail_1', 'nope')) FROM p WHERE s IN (printf('%.1000c', 'x') || '000001', printf('%.1000c', 'x') || '007000', 'tail_1', 'nope');
----
516|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE s IS NULL), count(*) = (SELECT count(*) FROM n WHERE s IS NULL) FROM p WHERE s IS NULL;
----
2142|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE s != 'tail_2'), count(*) = (SELECT count(*) FROM n WHERE s != 'tail_2') FROM p WHERE s != 'tail_2';
----
12344|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE c = 'c7'), count(*) = (SELECT count(*) FROM n WHERE c = 'c7') FROM p WHERE c = 'c7';
----
923|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE c IN ('c1', 'c12')), count(*) = (SELECT count(*) FROM n WHERE c IN ('c1', 'c12')) FROM p WHERE c IN ('c1', 'c12');
----
1845|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE c > 'c5'), count(*) = (SELECT count(*) FROM n WHERE c > 'c5') FROM p WHERE c > 'c5';
----
3693|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE c IS NULL AND i = 3), count(*) = (SELECT count(*) FROM n WHERE c IS NULL AND i = 3) FROM p WHERE c IS NULL AND i = 3;
----
160|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE i IN (1, 2)), count(*) = (SELECT count(*) FROM n WHERE i IN (1, 2)) FROM p WHERE i IN (1, 2);
----
1604|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE i = -8), count(*) = (SELECT count(*) FROM n WHERE i = -8) FROM p WHERE i = -8;
----
802|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE i < 0 AND c = 'c3'), count(*) = (SELECT count(*) FROM n WHERE i < 0 AND c = 'c3') FROM p WHERE i < 0 AND c = 'c3';
----
396|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE i IS NOT NULL AND r > 4), count(*) = (SELECT count(*) FROM n WHERE i IS NOT NULL AND r > 4) FROM p WHERE i IS NOT NULL AND r > 4;
----
3952|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE r = 2.5), count(*) = (SELECT count(*) FROM n WHERE r = 2.5) FROM p WHERE r = 2.5;
----
544|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE r <= -2), count(*) = (SELECT count(*) FROM n WHERE r <= -2) FROM p WHERE r <= -2;
----
1632|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE b = x'33'), count(*) = (SELECT count(*) FROM n WHERE b = x'33') FROM p WHERE b = x'33';
----
3334|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE b > x'31'), count(*) = (SELECT count(*) FROM n WHERE b > x'31') FROM p WHERE b > x'31';
----
6667|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE substr(s, 1001) LIKE '00004%'), count(*) = (SELECT count(*) FROM n WHERE substr(s, 1001) LIKE '00004%') FROM p WHERE substr(s, 1001) LIKE '00004%';
----
8|1|1

query
SELECT count(*), coalesce(sum(id), 0) = (SELECT coalesce(sum(id), 0) FROM n WHERE s = printf('%.1000c', 'x') || '000043' AND c = 'c4'), count(*) = (SELECT count(*) FROM n WHERE s = printf('%.1000c', 'x') || '000043' AND c = 'c4') FROM p WHERE s = printf('%.1000c', 'x') || '000043' AND c = 'c4';
----
1|1|1

