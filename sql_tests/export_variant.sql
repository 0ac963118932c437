# Writing VARIANT columns: from JSON text, from Variant binaries read with variant=binary (every
# value keeping its Variant type), unshredded or shredded as VARIANT<T>.

statement ok
CREATE TABLE docs(id INTEGER, doc TEXT);

statement ok
INSERT INTO docs VALUES
  (1, '{"a": 1, "b": "x", "c": [1.50, 2e0, null], "d": {"e": true}}'),
  (2, '{"a": "not a number", "z": 12345678901234567890}'),
  (3, '[1, 2, 3]'),
  (4, '"just text"'),
  (5, 'null'),
  (6, NULL),
  (7, '{}'),
  (8, '{"b": "only b", "a": -7}');

statement ok
SELECT parquet_export('$TMPDIR/v.parquet', 'SELECT id, doc FROM docs', 'schema=''doc VARIANT''');

# The standard layout: a group annotated VARIANT holding the metadata and value binaries.
query
SELECT name, type, repetition_type, num_children, logical_type FROM parquet_schema('$TMPDIR/v.parquet') WHERE name <> 'schema';
----
id|INT64|OPTIONAL|NULL|NULL
doc|NULL|OPTIONAL|2|VariantType(specification_version=1)
metadata|BYTE_ARRAY|REQUIRED|NULL|NULL
value|BYTE_ARRAY|REQUIRED|NULL|NULL

# Read back as JSON: objects with their fields sorted by name (as Variant objects store them),
# fractions as the decimals they were written as (1.50 keeps its digits), numbers with an exponent
# as doubles, the JSON text null as the Variant null and SQL NULL as NULL.
statement ok
CREATE VIRTUAL TABLE v USING parquet('$TMPDIR/v.parquet');

query
SELECT id, doc, typeof(doc) FROM v ORDER BY id;
----
1|{"a":1,"b":"x","c":[1.50,2.0,null],"d":{"e":true}}|text
2|{"a":"not a number","z":12345678901234567890}|text
3|[1,2,3]|text
4|"just text"|text
5|null|text
6|NULL|null
7|{}|text
8|{"a":-7,"b":"only b"}|text

# Shredded: the fields named by the STRUCT go to typed_value columns of their types; the rest, and
# values of other types, stay in value. Reading back gives the same JSON.
statement ok
SELECT parquet_export('$TMPDIR/vs.parquet', 'SELECT id, doc FROM docs', 'schema=''doc VARIANT<STRUCT<a INTEGER, b TEXT, c LIST<REAL>>>''');

query
SELECT path_in_schema, type, repetition_type, logical_type FROM parquet_schema('$TMPDIR/vs.parquet') WHERE path_in_schema LIKE 'doc%';
----
doc|NULL|OPTIONAL|VariantType(specification_version=1)
doc.metadata|BYTE_ARRAY|REQUIRED|NULL
doc.value|BYTE_ARRAY|OPTIONAL|NULL
doc.typed_value|NULL|OPTIONAL|NULL
doc.typed_value.a|NULL|REQUIRED|NULL
doc.typed_value.a.value|BYTE_ARRAY|OPTIONAL|NULL
doc.typed_value.a.typed_value|INT64|OPTIONAL|NULL
doc.typed_value.b|NULL|REQUIRED|NULL
doc.typed_value.b.value|BYTE_ARRAY|OPTIONAL|NULL
doc.typed_value.b.typed_value|BYTE_ARRAY|OPTIONAL|StringType()
doc.typed_value.c|NULL|REQUIRED|NULL
doc.typed_value.c.value|BYTE_ARRAY|OPTIONAL|NULL
doc.typed_value.c.typed_value|NULL|OPTIONAL|ListType()
doc.typed_value.c.typed_value.list|NULL|REPEATED|NULL
doc.typed_value.c.typed_value.list.element|NULL|REQUIRED|NULL
doc.typed_value.c.typed_value.list.element.value|BYTE_ARRAY|OPTIONAL|NULL
doc.typed_value.c.typed_value.list.element.typed_value|DOUBLE|OPTIONAL|NULL

statement ok
CREATE VIRTUAL TABLE vs USING parquet('$TMPDIR/vs.parquet');

query
SELECT count(*) FROM v JOIN vs USING (id) WHERE v.doc IS vs.doc;
----
8

# The shredded field's statistics are those of its typed column: a, where an integer, 1 to -7.
query
SELECT stats_min_value, stats_max_value, stats_null_count FROM parquet_metadata('$TMPDIR/vs.parquet') WHERE path_in_schema = 'doc.typed_value.a.typed_value';
----
-7|1|6

# Losslessly from one file to another: read with variant=binary, each value is a BLOB of the
# Variant's metadata then its value, which a VARIANT column stores as it is. This conformance file
# holds a DATE in its Variant (shredded); copied as binary it stays a DATE, while copied as JSON
# text it becomes the string "2024-11-07" (the same JSON, another Variant).
statement ok
CREATE VIRTUAL TABLE vb USING parquet('$TESTDATA/parquet-testing/shredded_variant/case-018.parquet', variant=binary);

statement ok
CREATE VIRTUAL TABLE vj USING parquet('$TESTDATA/parquet-testing/shredded_variant/case-018.parquet');

query
SELECT typeof(vb.var), vj.var FROM vb JOIN vj USING (id);
----
blob|"2024-11-07"

statement ok
SELECT parquet_export('$TMPDIR/copied.parquet', 'SELECT id, var FROM vb', 'schema=''var VARIANT''');

statement ok
SELECT parquet_export('$TMPDIR/copied_json.parquet', 'SELECT id, var FROM vj', 'schema=''var VARIANT''');

statement ok
CREATE VIRTUAL TABLE copied USING parquet('$TMPDIR/copied.parquet', variant=binary);

statement ok
CREATE VIRTUAL TABLE copied_json USING parquet('$TMPDIR/copied_json.parquet', variant=binary);

# Byte for byte the Variant read (metadata 11 00 00: version 1, sorted, no names; then the date
# primitive: header 11 << 2 = 2C, 20034 days as a little-endian int32), for the binary copy only.
query
SELECT hex(vb.var), vb.var = c.var, vb.var = j.var FROM vb JOIN copied c USING (id) JOIN copied_json j USING (id);
----
1100002C424E0000|1|0

# A BLOB that is not a Variant, and JSON that is not valid, are errors naming the row.
statement error row 1, column 'v': a 3-byte BLOB: is not a Variant (metadata then value)
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT x''010203'' AS v', 'schema=''v VARIANT''');

statement error row 2, column 'v': text '{"a":1,"a":2}': variant: the object has the field 'a' twice
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''1'' AS v UNION ALL SELECT ''{"a":1,"a":2}''', 'schema=''v VARIANT''');

statement error row 1, column 'v': text '[1,': invalid JSON at offset 3
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''[1,'' AS v', 'schema=''v VARIANT''');

# Shredding types are those of the spec's Shredded Value Types table.
statement error MAP<TEXT, INTEGER> is not a type a Variant value can be shredded as
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 1 AS v', 'schema=''v VARIANT<MAP<TEXT, INTEGER>>''');

statement error VARIANT can only be the type of a column, not inside LIST, MAP or STRUCT
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 1 AS v', 'schema=''v LIST<VARIANT>''');
