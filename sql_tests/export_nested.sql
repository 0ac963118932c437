# Writing nested columns: LIST<T>, MAP<K, V> and STRUCT<name T, ...> in schema=, given as JSON text.
# Every file written here is read back through a parquet table, which gives nested columns back as
# JSON text: what was written comes back, up to the spelling of numbers and the like.

# A write table with nested columns. The declared types read back as written.
statement ok
CREATE VIRTUAL TABLE temp.w USING parquet('$TMPDIR/w.parquet', schema='id INTEGER, tags LIST<TEXT>, scores MAP<TEXT, LIST<REAL>>, s STRUCT<a INTEGER, b LIST<TEXT>, "c d" DATE>');

query
SELECT name, type FROM pragma_table_info('w');
----
id|INTEGER
tags|LIST<TEXT>
scores|MAP<TEXT, LIST<REAL>>
s|STRUCT<a INTEGER, b LIST<TEXT>, "c d" DATE>

# NULL, an empty list and a list holding a NULL are three different values; so are a NULL struct, a
# struct of NULLs and a struct whose members are missing (missing members are NULL).
statement ok
INSERT INTO w VALUES
  (1, '["a","b",null]', '{"x":[1.5,null],"y":null}', '{"a":1,"b":["p"],"c d":"2024-01-02"}'),
  (2, '[]', '{}', '{}'),
  (3, NULL, NULL, NULL),
  (4, '[null]', '{"z":[]}', '{"b":null}'),
  (5, 'null', '[{"key":"k","value":[-2.25]},{"key":"l"}]', '{"b":[],"a":null}');

statement ok
CREATE VIRTUAL TABLE r USING parquet('$TMPDIR/w.parquet');

query
SELECT id, tags, scores, s, typeof(tags) FROM r ORDER BY id;
----
1|["a","b",null]|{"x":[1.5,null],"y":null}|{"a":1,"b":["p"],"c d":"2024-01-02"}|text
2|[]|{}|{"a":null,"b":null,"c d":null}|text
3|NULL|NULL|NULL|null
4|[null]|{"z":[]}|{"a":null,"b":null,"c d":null}|text
5|NULL|{"k":[-2.25],"l":null}|{"a":null,"b":[],"c d":null}|null

# The standard layouts: a 3-level LIST (list / element), a MAP (key_value / required key /
# optional value), a struct as a plain group; every level but the repeated ones is OPTIONAL.
query
SELECT name, type, repetition_type, num_children, converted_type, logical_type FROM parquet_schema('$TMPDIR/w.parquet');
----
schema|NULL|NULL|4|NULL|NULL
id|INT64|OPTIONAL|NULL|NULL|NULL
tags|NULL|OPTIONAL|1|LIST|ListType()
list|NULL|REPEATED|1|NULL|NULL
element|BYTE_ARRAY|OPTIONAL|NULL|UTF8|StringType()
scores|NULL|OPTIONAL|1|MAP|MapType()
key_value|NULL|REPEATED|2|NULL|NULL
key|BYTE_ARRAY|REQUIRED|NULL|UTF8|StringType()
value|NULL|OPTIONAL|1|LIST|ListType()
list|NULL|REPEATED|1|NULL|NULL
element|DOUBLE|OPTIONAL|NULL|NULL|NULL
s|NULL|OPTIONAL|3|NULL|NULL
a|INT64|OPTIONAL|NULL|NULL|NULL
b|NULL|OPTIONAL|1|LIST|ListType()
list|NULL|REPEATED|1|NULL|NULL
element|BYTE_ARRAY|OPTIONAL|NULL|UTF8|StringType()
c d|INT32|OPTIONAL|NULL|DATE|DateType()

# Each leaf column has its maximum definition and repetition levels: tags.list.element is defined at
# 3 (tags, list, element) and repeated at 1; scores.key_value.value.list.element at 5 and 2.
query
SELECT path_in_schema, max_definition_level, max_repetition_level FROM parquet_schema('$TMPDIR/w.parquet') WHERE type IS NOT NULL;
----
id|1|0
tags.list.element|3|1
scores.key_value.key|2|1
scores.key_value.value.list.element|5|2
s.a|2|0
s.b.list.element|4|1
s.c d|2|0

# ---------------------------------------------------------------------------------------------
# Round trips with parquet_export: JSON made by SQLite's own functions, read back identical.

statement ok
CREATE TABLE nums AS WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 3000) SELECT value FROM n;

statement ok
CREATE TABLE src AS SELECT o.value AS id,
  CASE WHEN o.value % 7 = 0 THEN NULL WHEN o.value % 5 = 0 THEN '[]' ELSE (SELECT json_group_array(json_object('a', CASE WHEN n.value % 3 = 0 THEN NULL ELSE n.value * 1000003 * o.value END, 'b', CASE WHEN n.value % 4 = 0 THEN json('null') ELSE json_array('x' || n.value, NULL, 'y"\' || o.value) END)) FROM nums AS n WHERE n.value <= o.value % 6) END AS ls,
  CASE WHEN o.value % 11 = 0 THEN NULL ELSE json_object('k' || o.value, json_array(o.value / 4.0, NULL), 'other', json_array()) END AS m,
  json_array(o.value % 2 = 0, NULL) AS flags
FROM nums AS o;

query
SELECT parquet_export('$TMPDIR/rt.parquet', 'SELECT * FROM src', 'schema=''ls LIST<STRUCT<a INTEGER, b LIST<TEXT>>>, m MAP<TEXT, LIST<REAL>>, flags LIST<BOOLEAN>'', row_group_size=1000, page_size=2000');
----
3000

statement ok
CREATE VIRTUAL TABLE rt USING parquet('$TMPDIR/rt.parquet');

query
SELECT * FROM rt WHERE id IN (1, 4, 5, 6, 7, 11) ORDER BY id;
----
1|[{"a":1000003,"b":["x1",null,"y\"\\1"]}]|{"k1":[0.25,null],"other":[]}|[false,null]
4|[{"a":4000012,"b":["x1",null,"y\"\\4"]},{"a":8000024,"b":["x2",null,"y\"\\4"]},{"a":null,"b":["x3",null,"y\"\\4"]},{"a":16000048,"b":null}]|{"k4":[1.0,null],"other":[]}|[true,null]
5|[]|{"k5":[1.25,null],"other":[]}|[false,null]
6|[]|{"k6":[1.5,null],"other":[]}|[true,null]
7|NULL|{"k7":[1.75,null],"other":[]}|[false,null]
11|[{"a":11000033,"b":["x1",null,"y\"\\11"]},{"a":22000066,"b":["x2",null,"y\"\\11"]},{"a":null,"b":["x3",null,"y\"\\11"]},{"a":44000132,"b":null},{"a":55000165,"b":["x5",null,"y\"\\11"]}]|NULL|[false,null]

# Every row comes back as the same JSON: identical text for the lists of structs; the map's reals
# are written by the reader as their shortest text with ".0" when integral (SQLite writes 0.25 and
# 1.0 the same way) and the BOOLEAN list holds true/false where SQLite's JSON had 1/0.
query
SELECT count(*), sum(src.ls IS rt.ls), sum(json(src.m) IS json(rt.m)), sum(rt.flags = CASE WHEN src.id % 2 = 0 THEN '[true,null]' ELSE '[false,null]' END) FROM src JOIN rt USING (id);
----
3000|3000|3000|3000

query
SELECT count(*) FROM parquet_metadata('$TMPDIR/rt.parquet') WHERE path_in_schema = 'ls.list.element.b.list.element';
----
3

# ---------------------------------------------------------------------------------------------
# What each type takes inside JSON, and how it reads back: integers from numbers with an integral
# value (3e2); reals with ".0" when integral; strings with only '"', '\' and control characters
# escaped; BOOLEAN from true/false or 1/0; BLOBs as base64 (padding optional); DATE, TIME and
# TIMESTAMP from ISO text (TIMESTAMP also from an integer of units since 1970) back in their
# canonical text; DECIMAL from numbers or text, exactly, back with `scale` digits; UUIDs in lower
# case; a JSON element is stored as its text and reads back as a string holding that text.

query
SELECT parquet_export('$TMPDIR/types.parquet', 'SELECT ''[1, -2, 3e2, null]'' AS i, ''[-128, 127]'' AS tiny, ''[0.5, 1, -0.0, 1e300]'' AS r, ''["é", "tab\tquote\"", "\u00e9\ud83d\ude00"]'' AS t, ''[true, false, 1, 0]'' AS b, ''["AP8=", "AP8", ""]'' AS bl, ''["2024-02-29"]'' AS d, ''["08:15", "23:59:59.5"]'' AS tm, ''["2024-05-06T07:08:09.123Z", 1700000000000000]'' AS ts, ''[12.5, "-0.05", 1e2]'' AS dec, ''["0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"]'' AS u, ''[{"x": [1, 2]}, "s", null, 3]'' AS js', 'schema=''i LIST<INTEGER>, tiny LIST<TINYINT>, r LIST<REAL>, t LIST<TEXT>, b LIST<BOOLEAN>, bl LIST<BLOB>, d LIST<DATE>, tm LIST<TIME>, ts LIST<TIMESTAMP>, dec LIST<DECIMAL(10,2)>, u LIST<UUID>, js LIST<JSON>''');
----
1

statement ok
CREATE VIRTUAL TABLE types USING parquet('$TMPDIR/types.parquet');

query
SELECT * FROM types;
----
[1,-2,300,null]|[-128,127]|[0.5,1.0,-0.0,1e+300]|["é","tab\u0009quote\"","é😀"]|[true,false,true,false]|["AP8=","AP8=",""]|["2024-02-29"]|["08:15:00","23:59:59.500000"]|["2024-05-06 07:08:09.123000","2023-11-14 22:13:20"]|[12.50,-0.05,100.00]|["0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"]|["{\"x\": [1, 2]}","\"s\"",null,"3"]

# Maps: keys are JSON member names, converted to the key type from their text; an array of
# {"key": .., "value": ..} objects is the other spelling. Keys of other types than text read back as
# their text.
query
SELECT parquet_export('$TMPDIR/maps.parquet', 'SELECT ''{"1": "one", "-5": null}'' AS by_int, ''[{"key": 7, "value": "seven"}]'' AS entries, ''{"2024-01-02": [1], "1970-01-01": []}'' AS by_date, ''{"true": 1, "0": 2}'' AS by_bool, ''{"1.5": "x"}'' AS by_dec', 'schema=''by_int MAP<INTEGER, TEXT>, entries MAP<INTEGER, TEXT>, by_date MAP<DATE, LIST<INTEGER>>, by_bool MAP<BOOLEAN, INTEGER>, by_dec MAP<DECIMAL(4,2), TEXT>''');
----
1

statement ok
CREATE VIRTUAL TABLE maps USING parquet('$TMPDIR/maps.parquet');

query
SELECT * FROM maps;
----
{"1":"one","-5":null}|{"7":"seven"}|{"2024-01-02":[1],"1970-01-01":[]}|{"true":1,"false":2}|{"1.50":"x"}

# A declared column type names a nested type too (quoted, since SQLite's grammar has no '<'): no
# schema= needed.
statement ok
CREATE TABLE typed(id INTEGER, pts 'LIST<STRUCT<x REAL, y REAL>>');

statement ok
INSERT INTO typed VALUES (1, '[{"x": 0.5, "y": -1}]'), (2, '[]');

query
SELECT parquet_export('$TMPDIR/typed.parquet', 'SELECT * FROM typed');
----
2

statement ok
CREATE VIRTUAL TABLE typed_r USING parquet('$TMPDIR/typed.parquet');

query
SELECT * FROM typed_r;
----
1|[{"x":0.5,"y":-1.0}]
2|[]

# Deep nesting.
query
SELECT parquet_export('$TMPDIR/deep.parquet', 'SELECT ''[[[{"m": {"k": [[1], [], null]}}]], [], null]'' AS x', 'schema=''x LIST<LIST<LIST<STRUCT<m MAP<TEXT, LIST<LIST<INTEGER>>>>>>>''');
----
1

statement ok
CREATE VIRTUAL TABLE deep USING parquet('$TMPDIR/deep.parquet');

query
SELECT x FROM deep;
----
[[[{"m":{"k":[[1],[],null]}}]],[],null]

# Nested columns are JSON text for SQLite's JSON functions once read back.
query
SELECT j.key, j.value ->> '$.a' FROM rt, json_each(rt.ls) AS j WHERE rt.id = 3;
----
0|3000009
1|6000018
2|NULL

# ---------------------------------------------------------------------------------------------
# Options name a nested column as a whole: encodings and Bloom filters apply to its leaves.

query
SELECT parquet_export('$TMPDIR/opts.parquet', 'SELECT id, ls, m FROM src', 'schema=''ls LIST<STRUCT<a INTEGER, b LIST<TEXT>>>, m MAP<TEXT, LIST<REAL>>'', encoding=''ls:PLAIN'', bloom_filter=''m'', data_page_version=2, compression=zstd');
----
3000

query
SELECT path_in_schema, encodings, has_bloom_filter FROM parquet_metadata('$TMPDIR/opts.parquet') WHERE row_group_id = 0;
----
id|RLE, DELTA_BINARY_PACKED|0
ls.list.element.a|RLE, PLAIN|0
ls.list.element.b.list.element|RLE, PLAIN|0
m.key_value.key|RLE, PLAIN|1
m.key_value.value.list.element|RLE, PLAIN|1

statement ok
CREATE VIRTUAL TABLE o USING parquet('$TMPDIR/opts.parquet');

query
SELECT count(*) FROM src JOIN o USING (id) WHERE src.ls IS o.ls AND json(src.m) IS json(o.m);
----
3000

statement error option 'sorted_by': column 'ls' is LIST<STRUCT<a INTEGER, b LIST<TEXT>>>, which has no sort order
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT id, ls FROM src', 'schema=''ls LIST<STRUCT<a INTEGER, b LIST<TEXT>>>'', sorted_by=ls');

# A sort key after a nested column is declared by its leaf column (here the third).
query
SELECT parquet_export('$TMPDIR/sorted.parquet', 'SELECT ls, id FROM src ORDER BY id', 'schema=''ls LIST<STRUCT<a INTEGER, b LIST<TEXT>>>'', sorted_by=id');
----
3000

# ---------------------------------------------------------------------------------------------
# Values that do not match the declared type are errors naming the row, the column and the place in
# the value ($ is the value, [i] an element, .name a member).

statement error parquet_export: row 2, column 'l': $[1]: expected an integer, found "x"
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''[1]'' AS l UNION ALL SELECT ''[1, "x"]''', 'schema=''l LIST<INTEGER>''');

statement error parquet_export: row 1, column 'l': invalid JSON at offset 4: expected ',' or ']'
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''[1,2'' AS l', 'schema=''l LIST<INTEGER>''');

statement error parquet_export: row 1, column 'l': $: expected a list (a JSON array), found an object
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''{"a": 1}'' AS l', 'schema=''l LIST<INTEGER>''');

statement error parquet_export: row 1, column 'l': integer 5 cannot be stored as LIST<INTEGER>, which takes JSON text
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 5 AS l', 'schema=''l LIST<INTEGER>''');

statement error parquet_export: row 1, column 'l': $[0]: 300 is out of range for an 8-bit signed integer
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''[300]'' AS l', 'schema=''l LIST<TINYINT>''');

statement error parquet_export: row 1, column 's': $: no field named 'c' (fields: a, b)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''{"a": 1, "c": 2}'' AS s', 'schema=''s STRUCT<a INTEGER, b TEXT>''');

statement error parquet_export: row 1, column 's': $.b[0]: expected a string, found 1
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''{"b": [1]}'' AS s', 'schema=''s STRUCT<a INTEGER, b LIST<TEXT>>''');

statement error parquet_export: row 1, column 'm': $: map key "k" appears twice
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''{"k": 1, "k": 2}'' AS m', 'schema=''m MAP<TEXT, INTEGER>''');

statement error parquet_export: row 1, column 'm': $[0].key: a map key cannot be null
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''[{"key": null, "value": 1}]'' AS m', 'schema=''m MAP<TEXT, INTEGER>''');

statement error parquet_export: row 1, column 'm': $.x: expected an integer, found "x"
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''{"x": 1}'' AS m', 'schema=''m MAP<INTEGER, INTEGER>''');

statement error parquet_export: row 1, column 'm': $."a b"[0]: expected a date string 'YYYY-MM-DD', found "2024-02-30"
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''{"a b": ["2024-02-30"]}'' AS m', 'schema=''m MAP<TEXT, LIST<DATE>>''');

statement error parquet_export: row 1, column 'l': $[0]: 1.234 has more than 2 digits after the point, which DECIMAL(5,2) cannot hold without rounding
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''[1.234]'' AS l', 'schema=''l LIST<DECIMAL(5,2)>''');

# Nothing was left behind by the failed exports.
statement error cannot open
CREATE VIRTUAL TABLE r_bad USING parquet('$TMPDIR/bad.parquet');

# Type errors in schema= show at once.
statement error option 'schema': column 'l': type 'LIST<FOO>': unknown type 'FOO'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS l', 'schema=''l LIST<FOO>''');

statement error option 'schema': column 'l': type 'LIST<INTEGER': expected '>' at the end
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS l', 'schema=''l LIST<INTEGER''');

statement error option 'schema': column 'm': type 'MAP<LIST<INTEGER>, TEXT>': a MAP key must be a primitive type other than JSON, not LIST<INTEGER>
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS m', 'schema=''m MAP<LIST<INTEGER>, TEXT>''');

statement error option 'schema': column 'm': type 'MAP<TEXT>': expected ',' at '>'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS m', 'schema=''m MAP<TEXT>''');

statement error option 'schema': column 's': type 'STRUCT<a INTEGER, A TEXT>': field 'A' is given twice
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS s', 'schema=''s STRUCT<a INTEGER, A TEXT>''');

statement error option 'schema': column 's': type 'STRUCT<a>': a type is missing
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS s', 'schema=''s STRUCT<a>''');

statement error option 'schema': column 'l': type 'LIST<ARRAY<INTEGER>>': unknown type 'ARRAY<' (nested types are LIST, MAP, STRUCT, VARIANT)
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS l', 'schema=''l LIST<ARRAY<INTEGER>>''');

statement error option 'schema': column 'l': type 'LIST<DECIMAL(40,2)>': type 'DECIMAL(40,2)': the precision must be between 1 and 38
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS l', 'schema=''l LIST<DECIMAL(40,2)>''');

# ---------------------------------------------------------------------------------------------
# A failing INSERT into a write table takes back its own rows, nested columns included.

statement ok
CREATE VIRTUAL TABLE temp.w2 USING parquet('$TMPDIR/w2.parquet', schema='id INTEGER, l LIST<STRUCT<a INTEGER, b LIST<TEXT>>>');

statement ok
BEGIN;

statement ok
INSERT INTO w2 VALUES (1, '[{"a":1,"b":["x"]}]');

statement error row 3, column 'l': $[0].a: expected an integer, found "no"
INSERT INTO w2 VALUES (2, '[{"a":2,"b":["y","z"]}]'), (3, '[{"a":"no"}]');

statement ok
INSERT INTO w2 VALUES (4, '[null,{"b":[]}]');

statement ok
COMMIT;

statement ok
CREATE VIRTUAL TABLE r2 USING parquet('$TMPDIR/w2.parquet');

query
SELECT * FROM r2;
----
1|[{"a":1,"b":["x"]}]
4|[null,{"a":null,"b":[]}]
