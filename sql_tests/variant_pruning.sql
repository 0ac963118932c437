# Shredded Variant fields as hidden columns: `"v.a"` holds what `v ->> '$.a'` gives, and its terms
# prune row groups and pages by the typed_value column's statistics, dictionary, Bloom filter and
# page index, but only where no row of the row group keeps the field in the fallback `value`.

# Five row groups of ten rows. `a` is an integer in every row of groups 0, 1 and 4 (4 has rows
# without it and a NULL row); group 2 holds one `a` as a string and group 3 every other kind of
# value, so both keep values in `v.typed_value.a.value`. `w` shreds whole values as integers.
statement ok
CREATE TABLE src(id INTEGER, v TEXT, w TEXT);

statement ok
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 49)
INSERT INTO src SELECT i, json_object('a', i, 'b', 'b' || i, 'o', json_object('x', i * 10)), i FROM n;

statement ok
UPDATE src SET v = CASE id
  WHEN 25 THEN '{"a": "25", "b": "b25"}'
  WHEN 30 THEN '{"b": "b30"}'
  WHEN 31 THEN '{"a": null}'
  WHEN 32 THEN '7'
  WHEN 33 THEN NULL
  WHEN 34 THEN '{"a": 1.5}'
  WHEN 35 THEN '{"a": true}'
  WHEN 37 THEN '{"a": 12345678901234567890}'
  WHEN 38 THEN '{"a": [1]}'
  WHEN 39 THEN '{"a": {"n": 1}}'
  WHEN 45 THEN '{"b": "b45"}'
  WHEN 46 THEN NULL
  ELSE v END, w = CASE id WHEN 22 THEN '"text"' ELSE w END;

statement ok
SELECT parquet_export('$TMPDIR/shredded.parquet', 'SELECT id, v, w FROM src ORDER BY id',
  'schema=''id INTEGER, v VARIANT<STRUCT<a INTEGER, b TEXT, o STRUCT<x INTEGER>>>, w VARIANT<INTEGER>'', row_group_size=10');

statement ok
CREATE VIRTUAL TABLE t USING parquet('$TMPDIR/shredded.parquet');

# The typed_value column of `a` holds 0-19 and 40-49 alone; beside it, `value` holds something in
# row groups 2 and 3 only.
query
SELECT row_group_id, path_in_schema, num_values - stats_null_count, stats_min, stats_max FROM parquet_metadata('$TMPDIR/shredded.parquet') WHERE path_in_schema LIKE 'v.typed_value.a.%' ORDER BY row_group_id, path_in_schema;
----
0|v.typed_value.a.typed_value|10|0|9
0|v.typed_value.a.value|0|NULL|NULL
1|v.typed_value.a.typed_value|10|10|19
1|v.typed_value.a.value|0|NULL|NULL
2|v.typed_value.a.typed_value|9|20|29
2|v.typed_value.a.value|1|NULL|NULL
3|v.typed_value.a.typed_value|1|36|36
3|v.typed_value.a.value|6|NULL|NULL
4|v.typed_value.a.typed_value|8|40|49
4|v.typed_value.a.value|0|NULL|NULL

# One hidden column per shredded primitive: object fields by their path, the whole value as `$`.
# They are declared BLOB, the affinity that converts nothing (`->>` has none), and SELECT * leaves
# them out.
query
SELECT name, type, hidden FROM pragma_table_xinfo('t');
----
id|INTEGER|0
v|TEXT|0
w|TEXT|0
filename|TEXT|1
file_row_number|INTEGER|1
v.a|BLOB|1
v.b|BLOB|1
v.o.x|BLOB|1
w.$|BLOB|1

query
SELECT * FROM t WHERE id = 1;
----
1|{"a":1,"b":"b1","o":{"x":10}}|1

query
SELECT id, v, "v.a", typeof("v.a"), "v.b", "v.o.x", w, "w.$" FROM t WHERE id BETWEEN 20 AND 39 AND id % 5 <> 1 ORDER BY id;
----
20|{"a":20,"b":"b20","o":{"x":200}}|20|integer|b20|200|20|20
22|{"a":22,"b":"b22","o":{"x":220}}|22|integer|b22|220|"text"|text
23|{"a":23,"b":"b23","o":{"x":230}}|23|integer|b23|230|23|23
24|{"a":24,"b":"b24","o":{"x":240}}|24|integer|b24|240|24|24
25|{"a":"25","b":"b25"}|25|text|b25|NULL|25|25
27|{"a":27,"b":"b27","o":{"x":270}}|27|integer|b27|270|27|27
28|{"a":28,"b":"b28","o":{"x":280}}|28|integer|b28|280|28|28
29|{"a":29,"b":"b29","o":{"x":290}}|29|integer|b29|290|29|29
30|{"b":"b30"}|NULL|null|b30|NULL|30|30
32|7|NULL|null|NULL|NULL|32|32
33|NULL|NULL|null|NULL|NULL|33|33
34|{"a":1.5}|1.5|real|NULL|NULL|34|34
35|{"a":true}|1|integer|NULL|NULL|35|35
37|{"a":12345678901234567890}|1.2345678901234567e+19|real|NULL|NULL|37|37
38|{"a":[1]}|[1]|text|NULL|NULL|38|38
39|{"a":{"n":1}}|{"n":1}|text|NULL|NULL|39|39

# Every row and every hidden column gives what `->>` gives on the JSON the table shows, in value
# and type.
statement ok
CREATE TABLE native AS SELECT id, v, w FROM t;

query
SELECT count(*) FROM t JOIN native n USING (id)
 WHERE t."v.a" IS NOT n.v ->> '$.a' OR typeof(t."v.a") <> typeof(n.v ->> '$.a')
    OR t."v.b" IS NOT n.v ->> '$.b' OR typeof(t."v.b") <> typeof(n.v ->> '$.b')
    OR t."v.o.x" IS NOT n.v ->> '$.o.x' OR t."w.$" IS NOT n.w ->> '$' OR typeof(t."w.$") <> typeof(n.w ->> '$');
----
0

# `= 5`: row groups 1 and 4 hold only integers outside 5 and are skipped by their statistics;
# group 0 is read, and so are 2 and 3, whose `value` column could hold anything.
query
SELECT id FROM t WHERE "v.a" = 5;
----
5

query
SELECT json_extract(parquet_scan_stats('t'), '$.row_groups_skipped_by_statistics', '$.row_groups_read');
----
[2,3]

query
SELECT id FROM native WHERE v ->> '$.a' = 5;
----
5

# The string '25' is not the integer 25, with either form.
query
SELECT (SELECT group_concat(id) FROM t WHERE "v.a" = 25), (SELECT group_concat(id) FROM native WHERE v ->> '$.a' = 25),
       (SELECT group_concat(id) FROM t WHERE "v.a" = '25'), (SELECT group_concat(id) FROM native WHERE v ->> '$.a' = '25');
----
NULL|NULL|25|25

query
SELECT id FROM t WHERE "v.a" = 47;
----
47

query
SELECT json_extract(parquet_scan_stats('t'), '$.row_groups_skipped_by_statistics', '$.row_groups_read');
----
[2,3]

# A range: TEXT sorts after every number, so the string, the array and the object match `> 40` as
# they do with `->>`; so does the integer too large for INTEGER, a REAL.
query
SELECT id FROM t WHERE "v.a" > 40 ORDER BY id;
----
25
37
38
39
41
42
43
44
47
48
49

query
SELECT json_extract(parquet_scan_stats('t'), '$.row_groups_skipped_by_statistics', '$.row_groups_read');
----
[2,3]

query
SELECT id FROM native WHERE v ->> '$.a' > 40 ORDER BY id;
----
25
37
38
39
41
42
43
44
47
48
49

# IS NULL: a missing field, a Variant null, a value that is no object and a NULL row; groups 0
# and 1 have no NULL in the typed column and nothing in `value`.
query
SELECT id FROM t WHERE "v.a" IS NULL ORDER BY id;
----
30
31
32
33
45
46

query
SELECT json_extract(parquet_scan_stats('t'), '$.row_groups_skipped_by_statistics', '$.row_groups_read');
----
[2,3]

query
SELECT id FROM native WHERE v ->> '$.a' IS NULL ORDER BY id;
----
30
31
32
33
45
46

# IN: groups 0 and 4 hold 3 and 44, 2 and 3 are read for their `value` (where 25 is a string).
query
SELECT id FROM t WHERE "v.a" IN (3, 44, 25) ORDER BY id;
----
3
44

query
SELECT json_extract(parquet_scan_stats('t'), '$.row_groups_skipped_by_statistics', '$.row_groups_read');
----
[1,4]

# A string field and a field of a nested object: no group keeps them in their own `value`, but
# group 3 has a row whose `v` is no object (`7`, in `v.value` with `v.typed_value` null), and a
# reader rebuilds such a row from `v.value` alone, object or not; so group 3 is read.
query
SELECT id FROM t WHERE "v.b" = 'b7';
----
7

query
SELECT json_extract(parquet_scan_stats('t'), '$.row_groups_skipped_by_statistics', '$.row_groups_read');
----
[3,2]

query
SELECT id FROM t WHERE "v.o.x" = 130;
----
13

query
SELECT json_extract(parquet_scan_stats('t'), '$.row_groups_skipped_by_statistics', '$.row_groups_read');
----
[3,2]

# The same alone: three row groups of integers, the second with a string value instead of an
# object. `= 5` skips the third group only, although its `v.value` holds the field `c` of a
# partially shredded object: every row there is an object, so its `v.typed_value` is never null
# (the definition level histogram of `v.typed_value.a.typed_value` says so).
statement ok
SELECT parquet_export('$TMPDIR/not_object.parquet',
  'SELECT id, CASE WHEN id = 15 THEN ''"fifteen"'' WHEN id = 22 THEN json_object(''a'', id, ''c'', 1) ELSE json_object(''a'', id) END AS v FROM src WHERE id BETWEEN 1 AND 30 ORDER BY id',
  'schema=''id INTEGER, v VARIANT<STRUCT<a INTEGER>>'', row_group_size=10');

statement ok
CREATE VIRTUAL TABLE not_object USING parquet('$TMPDIR/not_object.parquet');

query
SELECT row_group_id, num_values - stats_null_count FROM parquet_metadata('$TMPDIR/not_object.parquet') WHERE path_in_schema = 'v.value';
----
0|0
1|1
2|1

query
SELECT id, v, "v.a" FROM not_object WHERE id BETWEEN 14 AND 16 OR id = 22 OR "v.a" = 5 ORDER BY id;
----
5|{"a":5}|5
14|{"a":14}|14
15|"fifteen"|NULL
16|{"a":16}|16
22|{"a":22,"c":1}|22

query
SELECT id FROM not_object WHERE "v.a" = 5;
----
5

query
SELECT json_extract(parquet_scan_stats('not_object'), '$.row_groups_skipped_by_statistics', '$.row_groups_read');
----
[1,2]

query
SELECT id FROM t WHERE "w.$" = 3;
----
3

query
SELECT json_extract(parquet_scan_stats('t'), '$.row_groups_skipped_by_statistics', '$.row_groups_read');
----
[3,2]

# SQLite checks the term again: the plan passes it to the table (eq on column 5, the first hidden
# column after filename and file_row_number) without omitting it.
query
EXPLAIN QUERY PLAN SELECT id FROM t WHERE "v.a" = 5;
----
SCAN t VIRTUAL TABLE INDEX 1:21,eq5

# A sorted scan hands the hidden columns out too.
query
SELECT id, "v.a", "w.$" FROM t WHERE id >= 44 ORDER BY id DESC;
----
49|49|49
48|48|48
47|47|47
46|NULL|46
45|NULL|45
44|44|44

# Bloom filters and page indexes. Two row groups of even values without dictionaries: 7 lies
# within the first one's statistics, but its Bloom filter rules it out.
statement ok
SELECT parquet_export('$TMPDIR/bloom.parquet', 'SELECT id, json_object(''a'', id * 2) AS v FROM src WHERE id < 20 ORDER BY id',
  'schema=''id INTEGER, v VARIANT<STRUCT<a INTEGER>>'', row_group_size=10, dictionary=0, bloom_filter=v');

statement ok
CREATE VIRTUAL TABLE bloom USING parquet('$TMPDIR/bloom.parquet');

query
SELECT count(*) FROM bloom WHERE "v.a" = 7;
----
0

query
SELECT json_extract(parquet_scan_stats('bloom'), '$.row_groups_skipped_by_statistics', '$.row_groups_skipped_by_bloom_filter', '$.row_groups_read');
----
[1,1,0]

query
SELECT id FROM bloom WHERE "v.a" = 8;
----
4

# One row group in pages of ten rows: the page index leaves one page of five.
statement ok
SELECT parquet_export('$TMPDIR/pages.parquet', 'SELECT id, json_object(''a'', id) AS v FROM src ORDER BY id',
  'schema=''id INTEGER, v VARIANT<STRUCT<a INTEGER>>'', page_rows=10');

statement ok
CREATE VIRTUAL TABLE pages USING parquet('$TMPDIR/pages.parquet');

query
SELECT id FROM pages WHERE "v.a" = 33;
----
33

query
SELECT json_extract(parquet_scan_stats('pages'), '$.pages_considered', '$.pages_skipped_by_page_index', '$.rows_skipped');
----
[5,4,40]

# The hidden columns are declared BLOB: a literal compares with their values as they are, but an
# operand with INTEGER, REAL or NUMERIC affinity (a column of another table, a CAST) makes SQLite
# turn a TEXT value that looks like a number into that number on both sides, so such a term prunes no
# row group of a string field. One row group per row.
statement ok
SELECT parquet_export('$TMPDIR/kinds.parquet', 'SELECT column1 AS id, column2 AS v FROM (VALUES (1, ''{"k": "5"}''), (2, ''{"k": "x"}''), (3, ''{"k": " 7"}''))',
  'schema=''id INTEGER, v VARIANT<STRUCT<k TEXT>>'', row_group_size=1');

statement ok
CREATE VIRTUAL TABLE kinds USING parquet('$TMPDIR/kinds.parquet');

statement ok
CREATE TABLE kinds_n AS SELECT id, "v.k" AS k FROM kinds;

statement ok
CREATE TABLE kind_ints(i INTEGER);

statement ok
INSERT INTO kind_ints VALUES (5), (7);

query
SELECT (SELECT group_concat(n.i || ':' || k.id) FROM kind_ints n CROSS JOIN kinds k WHERE k."v.k" = n.i),
       (SELECT group_concat(n.i || ':' || k.id) FROM kind_ints n CROSS JOIN kinds_n k WHERE k.k = n.i),
       (SELECT group_concat(id) FROM kinds WHERE "v.k" = CAST('5' AS INTEGER)), (SELECT group_concat(id) FROM kinds_n WHERE k = CAST('5' AS INTEGER)),
       (SELECT group_concat(id) FROM kinds WHERE "v.k" = 5), (SELECT group_concat(id) FROM kinds WHERE "v.k" = '5');
----
5:1,7:3|5:1,7:3|1|1|NULL|1

# A string field holding a NUL (\u0000): SQLite 3.40's `->>` ends the string there ('A\u0000B' reads
# as 'A'), later releases keep it whole, while the statistics, dictionary and Bloom filter hold the
# stored bytes. Every term gives the rows its native twin gives (the hidden column's values copied
# into a native table by the same SQLite), and equality still prunes the other row groups. One row
# group per row.
statement ok
SELECT parquet_export('$TMPDIR/nul.parquet', 'SELECT column1 AS id, column2 AS v FROM (VALUES (1, ''{"k": "A\u0000B"}''), (2, ''{"k": "A"}''), (3, ''{"k": "B"}''), (4, ''{"k": "A\u0000"}''), (5, ''{"k": "@"}''))',
  'schema=''id INTEGER, v VARIANT<STRUCT<k TEXT>>'', row_group_size=1');

statement ok
CREATE VIRTUAL TABLE nul USING parquet('$TMPDIR/nul.parquet');

statement ok
CREATE TABLE nul_n AS SELECT id, "v.k" AS k FROM nul;

query
SELECT (SELECT group_concat(id) FROM (SELECT id FROM nul WHERE "v.k" = 'A' ORDER BY id)) IS (SELECT group_concat(id) FROM (SELECT id FROM nul_n WHERE k = 'A' ORDER BY id)),
       (SELECT group_concat(id) FROM (SELECT id FROM nul WHERE "v.k" IS 'A' ORDER BY id)) IS (SELECT group_concat(id) FROM (SELECT id FROM nul_n WHERE k IS 'A' ORDER BY id)),
       (SELECT group_concat(id) FROM (SELECT id FROM nul WHERE "v.k" IN ('A', '@') ORDER BY id)) IS (SELECT group_concat(id) FROM (SELECT id FROM nul_n WHERE k IN ('A', '@') ORDER BY id)),
       (SELECT group_concat(id) FROM (SELECT id FROM nul WHERE "v.k" <= 'A' ORDER BY id)) IS (SELECT group_concat(id) FROM (SELECT id FROM nul_n WHERE k <= 'A' ORDER BY id)),
       (SELECT group_concat(id) FROM (SELECT id FROM nul WHERE "v.k" < 'B' ORDER BY id)) IS (SELECT group_concat(id) FROM (SELECT id FROM nul_n WHERE k < 'B' ORDER BY id)),
       (SELECT group_concat(id) FROM (SELECT id FROM nul WHERE "v.k" > 'A' ORDER BY id)) IS (SELECT group_concat(id) FROM (SELECT id FROM nul_n WHERE k > 'A' ORDER BY id)),
       (SELECT group_concat(id) FROM (SELECT id FROM nul WHERE "v.k" >= 'A' ORDER BY id)) IS (SELECT group_concat(id) FROM (SELECT id FROM nul_n WHERE k >= 'A' ORDER BY id)),
       (SELECT group_concat(id) FROM (SELECT id FROM nul WHERE "v.k" != 'A' ORDER BY id)) IS (SELECT group_concat(id) FROM (SELECT id FROM nul_n WHERE k != 'A' ORDER BY id)),
       (SELECT count(*) FROM nul_n WHERE k = 'A') >= 1;
----
1|1|1|1|1|1|1|1|1

query
SELECT (SELECT group_concat(id) FROM nul WHERE "v.k" = 'B'), json_extract(parquet_scan_stats('nul'), '$.row_groups_read');
----
3|1

# With variant=binary the VARIANT is no JSON, and there are no hidden columns.
statement ok
CREATE VIRTUAL TABLE tb USING parquet('$TMPDIR/shredded.parquet', variant=binary);

query
SELECT count(*) FROM pragma_table_xinfo('tb') WHERE name LIKE 'v.%' OR name LIKE 'w.%';
----
0
