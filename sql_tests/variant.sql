# VARIANT columns read as JSON text, whether stored as Variant binary or shredded into typed
# columns (the files of parquet-testing/shredded_variant; each has an `id` and a VARIANT `var`).
# Primitives follow the Variant rendering rules of format/variant/variant_text.h: exact decimals,
# timestamps as 'YYYY-MM-DD HH:MM:SS[.fraction]' (UTC, no zone), binary as base64, UUIDs in lower case.

# An unshredded object (binary metadata + value only).
statement ok
CREATE VIRTUAL TABLE plain USING parquet('$TESTDATA/parquet-testing/shredded_variant/case-082.parquet');

query
SELECT id, typeof(var), var FROM plain;
----
1|text|{"a":null,"d":"iceberg"}

# Shredded columns rebuilt: a shredded array, a shredded int32, a partially shredded object and a
# second array, one row each.
statement ok
CREATE VIRTUAL TABLE mixed USING parquet('$TESTDATA/parquet-testing/shredded_variant/case-045.parquet');

query
SELECT id, var FROM mixed ORDER BY id;
----
0|["comedy","drama"]
1|34
2|{"a":null,"d":"iceberg"}
3|["action","horror"]

# The JSON works with SQLite's JSON functions.
query
SELECT id, json_type(var), json_extract(var, '$[1]') FROM mixed WHERE json_type(var) = 'array' ORDER BY id;
----
0|array|drama
3|array|horror

# Shredded objects nested in shredded objects; a null VARIANT is NULL, a Variant null inside is null.
statement ok
CREATE VIRTUAL TABLE records USING parquet('$TESTDATA/parquet-testing/shredded_variant/case-083.parquet');

query
SELECT id, var, var IS NULL, json_extract(var, '$.c.b') FROM records ORDER BY id;
----
0|NULL|1|NULL
1|{"c":{"b":"iceberg"}}|0|iceberg
2|{"c":8,"d":-0.0}|0|NULL
3|{"c":{"a":34,"b":""},"d":0.0}|0|(empty)

# Shredded primitives keep the Variant rendering, whatever the table options say.
statement ok
CREATE VIRTUAL TABLE dec4 USING parquet('$TESTDATA/parquet-testing/shredded_variant/case-024.parquet', decimal=real);

query
SELECT var FROM dec4;
----
12345.6789

statement ok
CREATE VIRTUAL TABLE ts USING parquet('$TESTDATA/parquet-testing/shredded_variant/case-033.parquet', timestamp=integer);

query
SELECT var, json_extract(var, '$') FROM ts;
----
"2024-11-07 12:33:54.123456789"|2024-11-07 12:33:54.123456789

statement ok
CREATE VIRTUAL TABLE bin USING parquet('$TESTDATA/parquet-testing/shredded_variant/case-030.parquet', binary_as_string=1);

query
SELECT var FROM bin;
----
"CgsMDQ=="

statement ok
CREATE VIRTUAL TABLE uuid USING parquet('$TESTDATA/parquet-testing/shredded_variant/case-037.parquet');

query
SELECT var FROM uuid;
----
"f24f9b64-81fa-49d1-b74e-8c09a6e31c56"

# Invalid shreddings are errors: a value beside a shredded primitive, a non-object value beside
# shredded fields, a field of the value that is also shredded.
statement ok
CREATE VIRTUAL TABLE conflict USING parquet('$TESTDATA/parquet-testing/shredded_variant/case-042.parquet');

statement error conflicting value and typed_value
SELECT var FROM conflict;

statement ok
CREATE VIRTUAL TABLE not_object USING parquet('$TESTDATA/parquet-testing/shredded_variant/case-087.parquet');

statement error non-object value with shredded fields
SELECT var FROM not_object;

statement ok
CREATE VIRTUAL TABLE both USING parquet('$TESTDATA/parquet-testing/shredded_variant/case-043-INVALID.parquet');

statement error field 'b' is both shredded and in value
SELECT var FROM both;

# Other columns of such a file still read.
query
SELECT id FROM both;
----
1
