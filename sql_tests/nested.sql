# Nested columns (LIST, MAP, structs, repeated fields) read as JSON text.
# tests/data/nested.parquet was written by DuckDB (tools/make_fixtures.mjs) from these literals:
#   (1, [1, 2, NULL], ['a', 'b'], {'x': 1, 'y': 'one'}, MAP {'k1': 10, 'k2': NULL}, [[1], [], NULL, [2, 3]],
#    [{'p': 1, 'q': [true, false]}], MAP {1: 'int key'}),
#   (2, [], NULL, {'x': NULL, 'y': NULL}, MAP {}, NULL, [], NULL),
#   (3, NULL, [NULL], NULL, NULL, [[]], [NULL, {'p': NULL, 'q': NULL}], MAP {-5: NULL})

statement ok
CREATE VIRTUAL TABLE n USING parquet('tests/data/nested.parquet');

query
SELECT * FROM n ORDER BY id;
----
1|[1,2,null]|["a","b"]|{"x":1,"y":"one"}|{"k1":10,"k2":null}|[[1],[],null,[2,3]]|[{"p":1,"q":[true,false]}]|{"1":"int key"}
2|[]|NULL|{"x":null,"y":null}|{}|NULL|[]|NULL
3|NULL|[null]|NULL|NULL|[[]]|[null,{"p":null,"q":null}]|{"-5":null}

# Nested columns are TEXT holding JSON: json_extract and json_each work on them.
query
SELECT typeof(ints), json_extract(ints, '$[1]'), json_extract(st, '$.y'), json_extract(mp, '$.k1') FROM n WHERE id = 1;
----
text|2|one|10

query
SELECT n.id, j.value FROM n, json_each(n.lol) AS j ORDER BY n.id, j.key;
----
1|[1]
1|[]
1|NULL
1|[2,3]
3|[]

# Legacy two-level list of lists (old_list_structure: one value [[1, 2], [3, 4]]).
statement ok
CREATE VIRTUAL TABLE old USING parquet('$TESTDATA/parquet-testing/data/old_list_structure.parquet');

query
SELECT * FROM old;
----
[[1,2],[3,4]]

# Unannotated repeated group inside a struct (repeated_no_annotation).
statement ok
CREATE VIRTUAL TABLE rep USING parquet('$TESTDATA/parquet-testing/data/repeated_no_annotation.parquet');

query
SELECT id, phoneNumbers FROM rep ORDER BY id;
----
1|NULL
2|NULL
3|{"phone":[]}
4|{"phone":[{"number":5555555555,"kind":null}]}
5|{"phone":[{"number":1111111111,"kind":"home"}]}
6|{"phone":[{"number":1111111111,"kind":"home"},{"number":2222222222,"kind":null},{"number":3333333333,"kind":"mobile"}]}

# Maps with all-null values, a map whose key_value group has no value field, and a list: the README of
# the conformance data gives keys 1,2,3 / 4,5,6 / 7,8,9 and the same numbers in the list.
statement ok
CREATE VIRTUAL TABLE mnv USING parquet('$TESTDATA/parquet-testing/data/map_no_value.parquet');

query
SELECT * FROM mnv;
----
{"1":null,"2":null,"3":null}|{"1":null,"2":null,"3":null}|[1,2,3]
{"4":null,"5":null,"6":null}|{"4":null,"5":null,"6":null}|[4,5,6]
{"7":null,"8":null,"9":null}|{"7":null,"8":null,"9":null}|[7,8,9]

# A map whose key is not marked required (a Presto quirk) still reads.
statement ok
CREATE VIRTUAL TABLE imap USING parquet('$TESTDATA/parquet-testing/data/incorrect_map_schema.parquet');

query
SELECT * FROM imap;
----
{"parent":"another","name":"report"}

# Lists of lists with nulls (nested_lists.snappy).
statement ok
CREATE VIRTUAL TABLE nl USING parquet('$TESTDATA/parquet-testing/data/nested_lists.snappy.parquet');

query
SELECT * FROM nl;
----
[[["a","b"],["c"]],[null,["d"]]]|1
[[["a","b"],["c","d"]],[null,["e"]]]|1
[[["a","b"],["c","d"],["e"]],[null,["f"]]]|1

# --------------------------------------------------------------------------------------------------
# tests/data/duckdb_v2.parquet: 1000 rows DuckDB wrote with PARQUET_VERSION V2 (tools/make_fixtures.mjs).
# Its INT32 columns are delta-encoded with 33-bit miniblocks (DuckDB computes the deltas in 64 bits);
# a NULL fixed-size ARRAY (INTEGER[2]) is stored as one level entry per array position, the extra
# entries continuing a list that is not open; lists hold infinities and NaN. The extension reads all of
# it as DuckDB does (the duckdb_compare test checks every row; the totals below are DuckDB's): infinities
# inside JSON are 9e999 / -9e999, which SQLite's JSON functions read as Inf / -Inf; NaN is null.

statement ok
CREATE VIRTUAL TABLE v2 USING parquet('tests/data/duckdb_v2.parquet');

query
SELECT id, i32, u32, arr, arrs, dbls FROM v2 WHERE id < 5 ORDER BY id;
----
0|-2147483648|0|[0,0]|[null,[0,null]]|[9e999,-0.5,-9e999]
1|2147483646|2654435761|NULL|[[1,2],[2,null]]|[null]
2|-2147483646|1013904226|[2,-2]|[[2,3],[4,null]]|[0.25]
3|2147483644|3668339987|[3,-3]|NULL|[0.375]
4|-2147483644|2027808452|[4,-4]|[[4,5],[8,null]]|[9e999,-0.5,-9e999]

query
SELECT count(*), count(arr), count(arrs), min(i32), max(i32), max(u32),
       sum(json_array_length(arrs)), sum(json_extract(dbls, '$[0]') = 9e999), sum(json_extract(dbls, '$[2]') < 0)
FROM v2;
----
1000|800|857|-2147483648|2147483646|4293012843|1714|250|250

# A batch of LIST rows with NULL lists among them hands each row's JSON or NULL over as a native
# table holds it (the whole batch's JSON is handed over from one array, NULLs through an index).
statement ok
CREATE TABLE nl_n(id INTEGER, l TEXT);

statement ok
INSERT INTO nl_n WITH RECURSIVE r(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM r WHERE id < 5000)
SELECT id, CASE WHEN id % 7 = 0 THEN NULL WHEN id % 5 = 0 THEN '[]' ELSE json_array(id, id % 3) END FROM r;

query
SELECT parquet_export('$TMPDIR/null_lists.parquet', 'SELECT * FROM nl_n', 'schema=''id INTEGER, l LIST<INTEGER>''');
----
5000

statement ok
CREATE VIRTUAL TABLE nl_p USING parquet('$TMPDIR/null_lists.parquet');

query
SELECT (SELECT group_concat(id || ':' || ifnull(l, 'null') || ':' || typeof(l), ',') FROM nl_p) IS
       (SELECT group_concat(id || ':' || ifnull(l, 'null') || ':' || typeof(l), ',') FROM nl_n),
       (SELECT count(*) FROM nl_p WHERE l IS NULL), (SELECT sum(length(l)) FROM nl_p) = (SELECT sum(length(l)) FROM nl_n);
----
1|714|1
