# Sorted scans: for `ORDER BY col`, `GROUP BY col` and `DISTINCT col` on one column of the files,
# the table reads the rows into memory and hands them out in that column's order, so SQLite needs
# no sorter (no `USE TEMP B-TREE` in the plan). The plan's text ends in `:a<column>` (ascending) or
# `:d<column>` (descending) when it does. Only when the rows are estimated to fit the table option
# sort_memory (MiB, default 256; 0 turns this off), and not for a small LIMIT, where SQLite's sorter
# keeps only LIMIT + OFFSET rows. Results are always those of a native table: NULLs first, numbers
# by value, TEXT and BLOB by their bytes.

# ---------------------------------------------------------------------------------------------
# The data: 300 rows with NULLs and few distinct values in k, r, t and b, many in u; exported in
# row groups of 64 rows. `n` is the same rows in a native table (id is the row's position + 1).

statement ok
CREATE TABLE n(id INTEGER, k INTEGER, r REAL, t TEXT, b BLOB, u TEXT);

statement ok
INSERT INTO n WITH RECURSIVE s(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM s WHERE id < 300)
SELECT id,
       CASE WHEN id % 7 = 0 THEN NULL ELSE id % 5 END,
       CASE WHEN id % 11 = 0 THEN NULL ELSE (id % 4) * 0.5 - 0.5 END,
       CASE id % 6 WHEN 0 THEN NULL WHEN 1 THEN '' WHEN 2 THEN 'b' WHEN 3 THEN 'B' WHEN 4 THEN 'a' || (id % 4) ELSE 'é' END,
       CASE WHEN id % 9 = 0 THEN NULL ELSE CAST(char(65 + id % 3) AS BLOB) END,
       'u' || (id * 7919 % 300)
FROM s;

query
SELECT parquet_export('$TMPDIR/rows.parquet', 'SELECT * FROM n ORDER BY id', 'row_group_size=64');
----
300

statement ok
CREATE VIRTUAL TABLE p USING parquet('$TMPDIR/rows.parquet');

# ---------------------------------------------------------------------------------------------
# Plans. GROUP BY, ORDER BY (ASC or DESC), DISTINCT and ORDER BY col, rowid are done by the table.

query
EXPLAIN QUERY PLAN SELECT t, count(*) FROM p GROUP BY t;
----
SCAN p VIRTUAL TABLE INDEX 0:8:a3

query
EXPLAIN QUERY PLAN SELECT k, count(*), sum(r) FROM p GROUP BY k ORDER BY k;
----
SCAN p VIRTUAL TABLE INDEX 0:6:a1

query
EXPLAIN QUERY PLAN SELECT * FROM p ORDER BY r DESC;
----
SCAN p VIRTUAL TABLE INDEX 0:3f:d2

query
EXPLAIN QUERY PLAN SELECT DISTINCT b FROM p WHERE k > 1 ORDER BY b;
----
SCAN p VIRTUAL TABLE INDEX 1:12:a4,gt1

query
EXPLAIN QUERY PLAN SELECT id FROM p ORDER BY u, rowid;
----
SCAN p VIRTUAL TABLE INDEX 0:21:a5

# Left to SQLite: a second key other than rowid, an expression, another collation, a hidden column,
# a small LIMIT (300 rows, LIMIT 5), and DISTINCT without ORDER BY (SQLite keeps its own b-tree
# for that whatever the order).
query
EXPLAIN QUERY PLAN SELECT id FROM p ORDER BY k, id;
----
SCAN p VIRTUAL TABLE INDEX 0:3
USE TEMP B-TREE FOR ORDER BY

query
EXPLAIN QUERY PLAN SELECT id FROM p ORDER BY k + 0;
----
SCAN p VIRTUAL TABLE INDEX 0:3
USE TEMP B-TREE FOR ORDER BY

query
EXPLAIN QUERY PLAN SELECT t, count(*) FROM p GROUP BY t COLLATE NOCASE;
----
SCAN p VIRTUAL TABLE INDEX 0:8
USE TEMP B-TREE FOR GROUP BY

query
EXPLAIN QUERY PLAN SELECT filename, count(*) FROM p GROUP BY filename;
----
SCAN p VIRTUAL TABLE INDEX 0:40
USE TEMP B-TREE FOR GROUP BY

query
EXPLAIN QUERY PLAN SELECT DISTINCT b FROM p;
----
SCAN p VIRTUAL TABLE INDEX 0:10
USE TEMP B-TREE FOR DISTINCT

query
EXPLAIN QUERY PLAN SELECT id FROM p ORDER BY k LIMIT 5;
----
SCAN p VIRTUAL TABLE INDEX 0:3,limit
USE TEMP B-TREE FOR ORDER BY

# min(col) or max(col) of one column: SQLite asks for that column's order and stops at the first
# row, so the table leaves it to a plain scan rather than ordering every row first (a bare
# `SELECT col ... ORDER BY col`, which reads the same way, then takes SQLite's sorter).
query
EXPLAIN QUERY PLAN SELECT max(u) FROM p;
----
SEARCH p VIRTUAL TABLE INDEX 0:20

query
SELECT (SELECT max(u) FROM p) IS (SELECT max(u) FROM n), (SELECT min(t) FROM p) IS (SELECT min(t) FROM n),
       (SELECT max(r) FROM p) IS (SELECT max(r) FROM n), (SELECT min(k) FROM p WHERE k > 1) IS (SELECT min(k) FROM n WHERE k > 1);
----
1|1|1|1

# A LIMIT that is a good part of the rows: sorted here, SQLite stops after LIMIT rows.
query
EXPLAIN QUERY PLAN SELECT id FROM p ORDER BY k LIMIT 100;
----
SCAN p VIRTUAL TABLE INDEX 0:3:a1,limit

# ---------------------------------------------------------------------------------------------
# Results: the same as the native table's. Groups, in order:

query
SELECT k, count(*), sum(r), min(u) FROM p GROUP BY k;
----
NULL|42|10.0|u122
0|52|11.0|u0
1|52|11.5|u104
2|51|10.5|u103
3|52|12.0|u102
4|51|12.5|u1

query
SELECT k, count(*), sum(r), min(u) FROM n GROUP BY k;
----
NULL|42|10.0|u122
0|52|11.0|u0
1|52|11.5|u104
2|51|10.5|u103
3|52|12.0|u102
4|51|12.5|u1

query
SELECT t, count(*) FROM p GROUP BY t ORDER BY t DESC;
----
é|50
b|50
a2|25
a0|25
B|50
(empty)|50
NULL|50

query
SELECT t, count(*) FROM n GROUP BY t ORDER BY t DESC;
----
é|50
b|50
a2|25
a0|25
B|50
(empty)|50
NULL|50

query
SELECT r, count(*) FROM p GROUP BY r;
----
NULL|27
-0.5|69
0.0|68
0.5|68
1.0|68

query
SELECT r, count(*) FROM n GROUP BY r;
----
NULL|27
-0.5|69
0.0|68
0.5|68
1.0|68

query
SELECT DISTINCT b FROM p ORDER BY b DESC;
----
x'43'
x'42'
x'41'
NULL

# Every row, in order, on both tables: ties keep rowid order here, so the native table is ordered
# by (key, id) to compare.
query
SELECT (SELECT group_concat(id) FROM (SELECT id FROM p ORDER BY t, rowid)) IS
       (SELECT group_concat(id) FROM (SELECT id FROM n ORDER BY t, id));
----
1

query
SELECT (SELECT group_concat(id) FROM (SELECT id FROM p ORDER BY r DESC, rowid)) IS
       (SELECT group_concat(id) FROM (SELECT id FROM n ORDER BY r DESC, id));
----
1

query
SELECT (SELECT group_concat(quote(u) || quote(b) || id) FROM (SELECT * FROM p ORDER BY u)) IS
       (SELECT group_concat(quote(u) || quote(b) || id) FROM (SELECT * FROM n ORDER BY u));
----
1

# WHERE terms still prune and filter; LIMIT and OFFSET apply after the order.
query
SELECT id, k, t FROM p WHERE k >= 3 AND t IN ('b', 'B') ORDER BY t, rowid LIMIT 4 OFFSET 3;
----
39|4|B
69|4|B
93|3|B
99|4|B

query
SELECT id, k, t FROM n WHERE k >= 3 AND t IN ('b', 'B') ORDER BY t, id LIMIT 4 OFFSET 3;
----
39|4|B
69|4|B
93|3|B
99|4|B

query
SELECT k, count(*), group_concat(DISTINCT typeof(r)) FROM p WHERE u > 'u2' GROUP BY k ORDER BY k DESC;
----
4|31|real,null
3|32|real,null
2|32|real,null
1|32|real,null
0|32|real,null
NULL|28|real,null

query
SELECT k, count(*), group_concat(DISTINCT typeof(r)) FROM n WHERE u > 'u2' GROUP BY k ORDER BY k DESC;
----
4|31|real,null
3|32|real,null
2|32|real,null
1|32|real,null
0|32|real,null
NULL|28|real,null

# rowid, file_row_number and filename of each row are those of a scan in file order.
query
SELECT (SELECT group_concat(rowid || '/' || file_row_number || '/' || (filename LIKE '%rows.parquet')) FROM (SELECT rowid, file_row_number, filename FROM p ORDER BY b, rowid)) IS
       (SELECT group_concat(rowid || '/' || file_row_number || '/' || (filename LIKE '%rows.parquet')) FROM (SELECT rowid, file_row_number, filename FROM p ORDER BY +b, rowid));
----
1

# The counters are those of the scan: every row read once.
query
SELECT json_extract(parquet_scan_stats('p'), '$.rows_produced');
----
300

# ---------------------------------------------------------------------------------------------
# sort_memory: 0 leaves every sort to SQLite; the results are the same.
statement ok
CREATE VIRTUAL TABLE p0 USING parquet('$TMPDIR/rows.parquet', sort_memory=0);

query
EXPLAIN QUERY PLAN SELECT t, count(*) FROM p0 GROUP BY t;
----
SCAN p0 VIRTUAL TABLE INDEX 0:8
USE TEMP B-TREE FOR GROUP BY

query
SELECT (SELECT group_concat(t || ':' || c) FROM (SELECT t, count(*) AS c FROM p0 GROUP BY t)) IS
       (SELECT group_concat(t || ':' || c) FROM (SELECT t, count(*) AS c FROM p GROUP BY t));
----
1

statement error sort_memory
CREATE VIRTUAL TABLE bad USING parquet('$TMPDIR/rows.parquet', sort_memory=-1);

# Rows estimated to take more than sort_memory are sorted by SQLite: 400000 rows of 3 columns take
# more than 1 MiB.
statement ok
CREATE TABLE big AS WITH RECURSIVE s(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM s WHERE id < 400000)
SELECT id, id % 20 AS g, 'name_' || id AS name FROM s;

query
SELECT parquet_export('$TMPDIR/big.parquet', 'SELECT * FROM big');
----
400000

statement ok
CREATE VIRTUAL TABLE big1 USING parquet('$TMPDIR/big.parquet', sort_memory=1);

query
EXPLAIN QUERY PLAN SELECT g, count(*), max(name) FROM big1 GROUP BY g;
----
SCAN big1 VIRTUAL TABLE INDEX 0:6
USE TEMP B-TREE FOR GROUP BY

statement ok
CREATE VIRTUAL TABLE big64 USING parquet('$TMPDIR/big.parquet', sort_memory=64);

query
EXPLAIN QUERY PLAN SELECT g, count(*), max(name) FROM big64 GROUP BY g;
----
SCAN big64 VIRTUAL TABLE INDEX 0:6:a1

query
SELECT (SELECT group_concat(g || ':' || c || ':' || m) FROM (SELECT g, count(*) AS c, max(name) AS m FROM big64 GROUP BY g ORDER BY g DESC)) IS
       (SELECT group_concat(g || ':' || c || ':' || m) FROM (SELECT g, count(*) AS c, max(name) AS m FROM big GROUP BY g ORDER BY g DESC));
----
1

# The rows held count against the table's max_memory (MiB) too: over it, the scan fails. (Row
# groups of 10000 rows: their pages fit in 1 MiB, 400000 rows to order do not.)
query
SELECT parquet_export('$TMPDIR/big_groups.parquet', 'SELECT * FROM big', 'row_group_size=10000');
----
400000

statement ok
CREATE VIRTUAL TABLE tight USING parquet('$TMPDIR/big_groups.parquet', max_memory=1);

statement error holding rows to order them
SELECT g, count(*), max(name) FROM tight GROUP BY g;

# ---------------------------------------------------------------------------------------------
# A dataset of several files with hive partitions: rowid, file_row_number, filename and the
# partition columns of each row are those of a scan in file order.
statement ok
CREATE TABLE sales(id INTEGER, amount REAL, year INTEGER);

statement ok
INSERT INTO sales SELECT id, id % 13 * 1.5, 2021 + id % 3 FROM (SELECT id FROM n);

query
SELECT parquet_export('$TMPDIR/sales', 'SELECT * FROM sales', 'partition_by=year');
----
300

statement ok
CREATE VIRTUAL TABLE s USING parquet('$TMPDIR/sales/**/*.parquet', hive_partitioning=1);

query
EXPLAIN QUERY PLAN SELECT * FROM s ORDER BY amount, rowid;
----
SCAN s VIRTUAL TABLE INDEX 0:7:a1

query
SELECT (SELECT group_concat((id || '/' || amount || '/' || year || '/' || rowid || '/' || file_row_number || '/' || substr(filename, -20))) FROM (SELECT *, rowid, file_row_number, filename FROM s ORDER BY amount, rowid)) IS
       (SELECT group_concat((id || '/' || amount || '/' || year || '/' || rowid || '/' || file_row_number || '/' || substr(filename, -20))) FROM (SELECT *, rowid, file_row_number, filename FROM s ORDER BY +amount, rowid));
----
1

query
SELECT amount, count(*), min(id), max(year) FROM s WHERE year > 2021 GROUP BY amount ORDER BY amount DESC LIMIT 3;
----
18.0|15|25|2023
16.5|15|11|2023
15.0|16|10|2023

# ---------------------------------------------------------------------------------------------
# The estimate comes from the footers: the values' unencoded size (size statistics), the chunks'
# uncompressed size, the statistics' bounds. Lists of 60 equal strings take a few bytes in the file
# but kilobytes of JSON text each: 2000 of them are estimated at more than 1 MiB, so SQLite sorts.
# (Should the rows take more than twice sort_memory after all, the query fails with an error
# naming the table and the option, rather than hold them.)
statement ok
CREATE VIRTUAL TABLE temp.lw USING parquet('$TMPDIR/lists.parquet', schema='g INTEGER, tags LIST<TEXT>');

statement ok
INSERT INTO lw SELECT id % 5, (SELECT json_group_array(printf('%050d', 7)) FROM (SELECT id FROM n LIMIT 60)) FROM big LIMIT 2000;

statement ok
DROP TABLE lw;

statement ok
CREATE VIRTUAL TABLE lists USING parquet('$TMPDIR/lists.parquet', sort_memory=1);

query
EXPLAIN QUERY PLAN SELECT g, count(*), max(tags) FROM lists GROUP BY g;
----
SCAN lists VIRTUAL TABLE INDEX 0:3
USE TEMP B-TREE FOR GROUP BY

query
SELECT g, count(*), length(max(tags)) FROM lists GROUP BY g;
----
0|400|3181
1|400|3181
2|400|3181
3|400|3181
4|400|3181

statement ok
CREATE VIRTUAL TABLE lists16 USING parquet('$TMPDIR/lists.parquet', sort_memory=16);

query
EXPLAIN QUERY PLAN SELECT g, count(*), max(tags) FROM lists16 GROUP BY g;
----
SCAN lists16 VIRTUAL TABLE INDEX 0:3:a0

query
SELECT g, count(*), length(max(tags)) FROM lists16 GROUP BY g;
----
0|400|3181
1|400|3181
2|400|3181
3|400|3181
4|400|3181

# ---------------------------------------------------------------------------------------------
# How the ordered rows are handed over: columns of numbers without NULLs straight from their
# arrays, the key as a C string when it is a TEXT without a NUL byte; keys with a NUL inside, BLOB
# keys, keys SQLite finds equal across classes (1 and 1.0) and value columns with NULLs the general
# way. Every form gives the native table's rows, in its order.

statement ok
CREATE TABLE hand(id INTEGER, g TEXT, gb BLOB, gn, i INTEGER, x REAL, xn REAL);

statement ok
INSERT INTO hand WITH RECURSIVE s(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM s WHERE id < 3000)
SELECT id,
       CASE id % 5 WHEN 0 THEN 'k' || char(0) || 'z' WHEN 1 THEN 'k' WHEN 2 THEN 'kz' WHEN 3 THEN '' ELSE 'é' || (id % 3) END,
       CAST(char(65 + id % 4) || char(0) AS BLOB),
       CASE id % 4 WHEN 0 THEN 1 WHEN 1 THEN 1.0 WHEN 2 THEN 'one' ELSE 2.5 END,
       id * 7 - 9000,
       (id % 13) * 0.25 - 1,
       CASE WHEN id % 17 = 0 THEN NULL ELSE id * 0.5 END
FROM s;

query
SELECT parquet_export('$TMPDIR/hand.parquet', 'SELECT id, g, gb, CAST(gn AS TEXT) AS gt, i, x, xn FROM hand ORDER BY id', 'row_group_size=500');
----
3000

statement ok
CREATE TABLE handn AS SELECT id, g, gb, CAST(gn AS TEXT) AS gt, i, x, xn FROM hand;

statement ok
CREATE VIRTUAL TABLE hp USING parquet('$TMPDIR/hand.parquet');

query
EXPLAIN QUERY PLAN SELECT g, count(*), sum(i), sum(x), sum(xn) FROM hp GROUP BY g;
----
SCAN hp VIRTUAL TABLE INDEX 0:72:a1

query
SELECT (SELECT group_concat(hex(g) || ':' || c || ':' || si || ':' || sx || ':' || ifnull(sn, 'N'), ',')
        FROM (SELECT g, count(*) AS c, sum(i) AS si, sum(x) AS sx, sum(xn) AS sn FROM hp GROUP BY g)) IS
       (SELECT group_concat(hex(g) || ':' || c || ':' || si || ':' || sx || ':' || ifnull(sn, 'N'), ',')
        FROM (SELECT g, count(*) AS c, sum(i) AS si, sum(x) AS sx, sum(xn) AS sn FROM handn GROUP BY g));
----
1

query
SELECT (SELECT group_concat(id || typeof(g) || length(g) || hex(g) || typeof(i) || i || typeof(x) || x || ifnull(xn, 'N'), ',')
        FROM (SELECT id, g, i, x, xn FROM hp ORDER BY g DESC, rowid)) IS
       (SELECT group_concat(id || typeof(g) || length(g) || hex(g) || typeof(i) || i || typeof(x) || x || ifnull(xn, 'N'), ',')
        FROM (SELECT id, g, i, x, xn FROM handn ORDER BY g DESC, id));
----
1

query
SELECT (SELECT group_concat(hex(gb) || ':' || c || ':' || si, ',') FROM (SELECT gb, count(*) AS c, sum(i) AS si FROM hp GROUP BY gb)) IS
       (SELECT group_concat(hex(gb) || ':' || c || ':' || si, ',') FROM (SELECT gb, count(*) AS c, sum(i) AS si FROM handn GROUP BY gb));
----
1

query
SELECT (SELECT group_concat(id || ':' || gt, ',') FROM (SELECT id, gt FROM hp ORDER BY gt, rowid)) IS
       (SELECT group_concat(id || ':' || gt, ',') FROM (SELECT id, gt FROM handn ORDER BY gt, id));
----
1

query
SELECT hex(g), length(g), count(*) FROM hp WHERE g < 'l' GROUP BY g;
----
(empty)|0|600
6B|1|600
6B007A|1|600
6B7A|2|600

# With at most 256 distinct keys, columns of numbers are kept partitioned by key as they are read
# (each key's values in blocks of up to 16,384) and handed out a block at a time, the key once per
# block: an INTEGER key, a REAL key, a TEXT key of more than 30 bytes, DESC, ORDER BY key, rowid,
# and a column whose first NULL comes after 50,000 rows (the partitions then end).

statement ok
CREATE TABLE part(id INTEGER, ki INTEGER, kr REAL, kt TEXT, i INTEGER, x REAL, late REAL);

statement ok
INSERT INTO part WITH RECURSIVE s(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM s WHERE id < 60000)
SELECT id, (id * 7919) % 12 - 3, ((id * 104729) % 9) * 0.75,
       printf('a key of more than thirty bytes, number %d', (id * 31) % 7),
       id * 3 - 70000, (id % 101) * 0.125, CASE WHEN id > 50000 AND id % 3 = 0 THEN NULL ELSE id * 0.5 END
FROM s;

query
SELECT parquet_export('$TMPDIR/part.parquet', 'SELECT * FROM part ORDER BY id', 'row_group_size=7000');
----
60000

statement ok
CREATE VIRTUAL TABLE pp USING parquet('$TMPDIR/part.parquet');

query
EXPLAIN QUERY PLAN SELECT ki, count(*), sum(i), sum(x) FROM pp GROUP BY ki;
----
SCAN pp VIRTUAL TABLE INDEX 0:32:a1

query
SELECT (SELECT group_concat(ki || ':' || c || ':' || si || ':' || sx || ':' || mi || ':' || mx, ',')
        FROM (SELECT ki, count(*) AS c, sum(i) AS si, sum(x) AS sx, min(id) AS mi, max(id) AS mx FROM pp GROUP BY ki)) IS
       (SELECT group_concat(ki || ':' || c || ':' || si || ':' || sx || ':' || mi || ':' || mx, ',')
        FROM (SELECT ki, count(*) AS c, sum(i) AS si, sum(x) AS sx, min(id) AS mi, max(id) AS mx FROM part GROUP BY ki));
----
1

query
SELECT (SELECT group_concat(kr || ':' || c || ':' || si || ':' || sl, ',')
        FROM (SELECT kr, count(*) AS c, sum(i) AS si, total(late) AS sl FROM pp GROUP BY kr ORDER BY kr DESC)) IS
       (SELECT group_concat(kr || ':' || c || ':' || si || ':' || sl, ',')
        FROM (SELECT kr, count(*) AS c, sum(i) AS si, total(late) AS sl FROM part GROUP BY kr ORDER BY kr DESC));
----
1

query
SELECT (SELECT group_concat(kt || ':' || length(kt) || ':' || c || ':' || sx, ',')
        FROM (SELECT kt, count(*) AS c, sum(x) AS sx FROM pp GROUP BY kt)) IS
       (SELECT group_concat(kt || ':' || length(kt) || ':' || c || ':' || sx, ',')
        FROM (SELECT kt, count(*) AS c, sum(x) AS sx FROM part GROUP BY kt));
----
1

query
SELECT (SELECT group_concat(id || ':' || ki || ':' || i || ':' || x || ':' || ifnull(late, 'N') || ':' || rowid, ',')
        FROM (SELECT rowid, id, ki, i, x, late FROM pp ORDER BY ki DESC, rowid)) IS
       (SELECT group_concat(id || ':' || ki || ':' || i || ':' || x || ':' || ifnull(late, 'N') || ':' || (id - 1), ',')
        FROM (SELECT id, ki, i, x, late FROM part ORDER BY ki DESC, id));
----
1

query
SELECT (SELECT group_concat(id || ':' || kt, ',') FROM (SELECT id, kt FROM pp WHERE i % 5 <> 0 ORDER BY kt, rowid)) IS
       (SELECT group_concat(id || ':' || kt, ',') FROM (SELECT id, kt FROM part WHERE i % 5 <> 0 ORDER BY kt, id));
----
1

# The estimate counts a key of numbers with as many distinct values as rows (each a hash entry and
# a slot besides its value, every row's id four bytes): 60,000 of them need about 5 MiB, more than
# twice sort_memory=1, so SQLite sorts them, and the rows come back, rather than the table
# accepting the order and failing for want of memory.
statement ok
CREATE TABLE distinct_n(i INTEGER, k INTEGER);

statement ok
INSERT INTO distinct_n WITH RECURSIVE c(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM c WHERE v < 60000)
SELECT (v * 40503) % 65537 * 7 - 3000, v FROM c;

query
SELECT parquet_export('$TMPDIR/distinct.parquet', 'SELECT * FROM distinct_n', 'row_group_size=30000');
----
60000

statement ok
CREATE VIRTUAL TABLE distinct_p USING parquet('$TMPDIR/distinct.parquet', sort_memory=1);

query
EXPLAIN QUERY PLAN SELECT i, count(*), max(k) FROM distinct_p GROUP BY i;
----
SCAN distinct_p VIRTUAL TABLE INDEX 0:3
USE TEMP B-TREE FOR GROUP BY

query
SELECT (SELECT group_concat(i || ':' || k, ',') FROM (SELECT i, k FROM distinct_p ORDER BY i)) IS
       (SELECT group_concat(i || ':' || k, ',') FROM (SELECT i, k FROM distinct_n ORDER BY i)),
       (SELECT count(*) FROM (SELECT i, count(*), max(k) FROM distinct_p GROUP BY i));
----
1|60000

# With room, the table orders them itself.
statement ok
CREATE VIRTUAL TABLE distinct_room USING parquet('$TMPDIR/distinct.parquet', sort_memory=16);

query
EXPLAIN QUERY PLAN SELECT i, k FROM distinct_room ORDER BY i;
----
SCAN distinct_room VIRTUAL TABLE INDEX 0:3:a0

query
SELECT (SELECT group_concat(i || ':' || k, ',') FROM (SELECT i, k FROM distinct_room ORDER BY i)) IS
       (SELECT group_concat(i || ':' || k, ',') FROM (SELECT i, k FROM distinct_n ORDER BY i));
----
1
