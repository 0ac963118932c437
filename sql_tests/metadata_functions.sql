# File-inspection functions: parquet_file_metadata, parquet_schema, parquet_metadata and
# parquet_kv_metadata show a file's footer as rows, with DuckDB's names for the same things.
# Expected rows were checked against DuckDB's functions of the same names and, for fields DuckDB does
# not show (page-index offsets, encoding stats, keys without values, unknown logical types), against
# the footer bytes decoded by hand.

# --------------------------------------------------------------------------------------------------
# parquet_file_metadata: one row per file. footer_size is the length stored before the final PAR1.

query
SELECT created_by, num_rows, num_row_groups, format_version, encryption_algorithm,
       footer_signing_key_metadata, file_size_bytes, footer_size, column_orders
FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');
----
impala version 1.3.0-INTERNAL (build 8a48ddb1eff84592b3fc06bc6f51ec120e1fffc9)|8|1|1|NULL|NULL|1851|730|NULL

# file_name is the path as given; the hidden argument column `path` holds it too.
query
SELECT file_name, path FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');
----
$TESTDATA/parquet-testing/data/alltypes_plain.parquet|$TESTDATA/parquet-testing/data/alltypes_plain.parquet

query
SELECT num_rows, num_row_groups, format_version, column_orders
FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/column_chunk_key_value_metadata.parquet');
----
0|1|2|["TYPE_ORDER","TYPE_ORDER"]

# A plaintext footer of an encrypted file: the algorithm and the footer key's metadata ('kf').
query
SELECT num_rows, encryption_algorithm, footer_signing_key_metadata, typeof(footer_signing_key_metadata)
FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/encrypt_columns_plaintext_footer.parquet.encrypted');
----
50|AES_GCM_V1|kf|text

# --------------------------------------------------------------------------------------------------
# parquet_schema: one row per schema element, the root first; column_id is the element's index.

query
SELECT column_id, name, type, type_length, repetition_type, num_children, converted_type, logical_type,
       max_definition_level, max_repetition_level, path_in_schema
FROM parquet_schema('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');
----
0|schema|NULL|NULL|NULL|11|NULL|NULL|0|0|NULL
1|id|INT32|NULL|OPTIONAL|NULL|NULL|NULL|1|0|id
2|bool_col|BOOLEAN|NULL|OPTIONAL|NULL|NULL|NULL|1|0|bool_col
3|tinyint_col|INT32|NULL|OPTIONAL|NULL|NULL|NULL|1|0|tinyint_col
4|smallint_col|INT32|NULL|OPTIONAL|NULL|NULL|NULL|1|0|smallint_col
5|int_col|INT32|NULL|OPTIONAL|NULL|NULL|NULL|1|0|int_col
6|bigint_col|INT64|NULL|OPTIONAL|NULL|NULL|NULL|1|0|bigint_col
7|float_col|FLOAT|NULL|OPTIONAL|NULL|NULL|NULL|1|0|float_col
8|double_col|DOUBLE|NULL|OPTIONAL|NULL|NULL|NULL|1|0|double_col
9|date_string_col|BYTE_ARRAY|NULL|OPTIONAL|NULL|NULL|NULL|1|0|date_string_col
10|string_col|BYTE_ARRAY|NULL|OPTIONAL|NULL|NULL|NULL|1|0|string_col
11|timestamp_col|INT96|NULL|OPTIONAL|NULL|NULL|NULL|1|0|timestamp_col

# Nested lists: levels grow with each optional and repeated ancestor.
query
SELECT column_id, name, repetition_type, num_children, converted_type, type, max_definition_level,
       max_repetition_level, path_in_schema
FROM parquet_schema('$TESTDATA/parquet-testing/data/nested_lists.snappy.parquet');
----
0|spark_schema|NULL|2|NULL|NULL|0|0|NULL
1|a|OPTIONAL|1|LIST|NULL|1|0|a
2|list|REPEATED|1|NULL|NULL|2|1|a.list
3|element|OPTIONAL|1|LIST|NULL|3|1|a.list.element
4|list|REPEATED|1|NULL|NULL|4|2|a.list.element.list
5|element|OPTIONAL|1|LIST|NULL|5|2|a.list.element.list.element
6|list|REPEATED|1|NULL|NULL|6|3|a.list.element.list.element.list
7|element|OPTIONAL|NULL|UTF8|BYTE_ARRAY|7|3|a.list.element.list.element.list.element
8|b|REQUIRED|NULL|NULL|INT32|0|0|b

# Legacy DECIMAL annotation: converted type, scale and precision, no LogicalType.
query
SELECT name, type, converted_type, scale, precision, logical_type
FROM parquet_schema('$TESTDATA/parquet-testing/data/int32_decimal.parquet');
----
spark_schema|NULL|NULL|NULL|NULL|NULL
value|INT32|DECIMAL|2|4|NULL

# logical_type is the element's LogicalType as stored, in the Thrift definition's words.
query
SELECT name, type_length, logical_type
FROM parquet_schema('$TESTDATA/parquet-testing/data/float16_nonzeros_and_nans.parquet') WHERE column_id > 0;
----
x|2|Float16Type()

query
SELECT logical_type FROM parquet_schema('$TESTDATA/parquet-testing/shredded_variant/case-020.parquet')
WHERE path_in_schema = 'var.typed_value';
----
TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))

query
SELECT logical_type FROM parquet_schema('$TESTDATA/parquet-testing/shredded_variant/case-033.parquet')
WHERE path_in_schema = 'var.typed_value';
----
TimestampType(isAdjustedToUTC=1, unit=TimeUnit(NANOS=NanoSeconds()))

query
SELECT logical_type FROM parquet_schema('$TESTDATA/parquet-testing/shredded_variant/case-024.parquet')
WHERE path_in_schema = 'var.typed_value';
----
DecimalType(scale=4, precision=9)

query
SELECT logical_type FROM parquet_schema('$TESTDATA/parquet-testing/data/concatenated_gzip_members.parquet')
WHERE column_id = 1;
----
IntType(bitWidth=64, isSigned=0)

query
SELECT name, logical_type FROM parquet_schema('$TESTDATA/parquet-testing/shredded_variant/case-001.parquet')
WHERE name = 'var';
----
var|VariantType(specification_version=1)

query
SELECT name, logical_type FROM parquet_schema('$TESTDATA/parquet-testing/data/null_list.parquet')
WHERE name = 'item';
----
item|NullType()

# A LogicalType alternative no reader knows (field id 2555) is named, not hidden.
query
SELECT name, logical_type FROM parquet_schema('$TESTDATA/parquet-testing/data/unknown-logical-type.parquet')
WHERE column_id > 0;
----
column with known type|StringType()
column with unknown type|UnknownLogicalType(field_id=2555)

# GEOMETRY and GEOGRAPHY show their CRS and edge algorithm; an absent optional field is <null>.
query
SELECT logical_type FROM parquet_schema('$TESTDATA/parquet-testing/data/geospatial/crs-srid.parquet')
WHERE name = 'geometry';
----
GeometryType(crs=srid:5070)

query
SELECT logical_type FROM parquet_schema('$TESTDATA/parquet-testing/data/geospatial/crs-default.parquet')
WHERE name = 'geometry';
----
GeometryType(crs=<null>)

query
SELECT logical_type FROM parquet_schema('$TESTDATA/parquet-testing/data/geospatial/crs-geography.parquet')
WHERE name = 'geography';
----
GeographyType(crs=<null>, algorithm=<null>)

# --------------------------------------------------------------------------------------------------
# parquet_metadata: one row per column chunk (row group x leaf column).

query
SELECT row_group_id, row_group_num_rows, row_group_num_columns, row_group_bytes, column_id,
       path_in_schema, type, num_values, compression, encodings, index_page_offset,
       dictionary_page_offset, data_page_offset, total_compressed_size, total_uncompressed_size
FROM parquet_metadata('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');
----
0|8|11|671|0|id|INT32|8|UNCOMPRESSED|RLE, PLAIN_DICTIONARY, PLAIN|NULL|4|49|73|73
0|8|11|671|1|bool_col|BOOLEAN|8|UNCOMPRESSED|RLE, PLAIN_DICTIONARY, PLAIN|NULL|NULL|109|24|24
0|8|11|671|2|tinyint_col|INT32|8|UNCOMPRESSED|RLE, PLAIN_DICTIONARY, PLAIN|NULL|168|189|47|47
0|8|11|671|3|smallint_col|INT32|8|UNCOMPRESSED|RLE, PLAIN_DICTIONARY, PLAIN|NULL|256|277|47|47
0|8|11|671|4|int_col|INT32|8|UNCOMPRESSED|RLE, PLAIN_DICTIONARY, PLAIN|NULL|345|366|47|47
0|8|11|671|5|bigint_col|INT64|8|UNCOMPRESSED|RLE, PLAIN_DICTIONARY, PLAIN|NULL|429|458|55|55
0|8|11|671|6|float_col|FLOAT|8|UNCOMPRESSED|RLE, PLAIN_DICTIONARY, PLAIN|NULL|524|545|47|47
0|8|11|671|7|double_col|DOUBLE|8|UNCOMPRESSED|RLE, PLAIN_DICTIONARY, PLAIN|NULL|610|639|55|55
0|8|11|671|8|date_string_col|BYTE_ARRAY|8|UNCOMPRESSED|RLE, PLAIN_DICTIONARY, PLAIN|NULL|705|766|88|88
0|8|11|671|9|string_col|BYTE_ARRAY|8|UNCOMPRESSED|RLE, PLAIN_DICTIONARY, PLAIN|NULL|840|863|49|49
0|8|11|671|10|timestamp_col|INT96|8|UNCOMPRESSED|RLE, PLAIN_DICTIONARY, PLAIN|NULL|929|1040|139|139

# No statistics, no Bloom filter, no page index in this old file.
query
SELECT count(*), count(stats_min_value), count(stats_null_count), sum(has_bloom_filter),
       sum(has_page_index), count(key_value_metadata), count(row_group_compressed_bytes)
FROM parquet_metadata('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');
----
11|0|0|0|0|0|0

# Statistics are typed like the column's values in a parquet table: integers and booleans INTEGER,
# floats REAL (a FLOAT widened to double), strings TEXT.
query
SELECT column_id, path_in_schema, stats_min_value, stats_max_value, typeof(stats_max_value),
       stats_null_count
FROM parquet_metadata('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet');
----
0|id|0|7299|integer|0
1|bool_col|0|1|integer|0
2|tinyint_col|0|9|integer|0
3|smallint_col|0|9|integer|0
4|int_col|0|9|integer|0
5|bigint_col|0|90|integer|0
6|float_col|0.0|9.899999618530273|real|0
7|double_col|0.0|90.89999999999999|real|0
8|date_string_col|01/01/09|12/31/10|text|0
9|string_col|0|9|text|0
10|timestamp_col|NULL|NULL|null|0
11|year|2009|2010|integer|0
12|month|1|12|integer|0

# Binary without annotation (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) is a BLOB, as in the table.
query
SELECT stats_min_value, stats_max_value, typeof(stats_min_value)
FROM parquet_metadata('$TESTDATA/parquet-testing/data/binary.parquet');
----
x'00'|x'0b'|blob

query
SELECT type, stats_min_value, stats_max_value
FROM parquet_metadata('$TESTDATA/parquet-testing/data/fixed_length_byte_array.parquet');
----
FIXED_LEN_BYTE_ARRAY|x'00000001'|x'000003e8'

# The deprecated min/max fields, where the writer set them.
query
SELECT path_in_schema, stats_min, stats_max FROM parquet_metadata('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet')
WHERE column_id IN (0, 7, 8);
----
id|0|7299
double_col|0.0|90.89999999999999
date_string_col|NULL|NULL

# The page index: every chunk of this file has a ColumnIndex and an OffsetIndex.
query
SELECT column_id, column_index_offset, column_index_length, offset_index_offset, offset_index_length,
       has_page_index, has_bloom_filter
FROM parquet_metadata('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet') WHERE column_id < 3;
----
0|323583|3919|394311|3503|1|0
1|327502|507|397814|823|1|0
2|328009|3919|398637|3251|1|0

# A Bloom filter (offset only; the writer did not store its length), page index, encoding stats.
query
SELECT file_offset, path_in_schema, type, logical_type, stats_min_value, stats_max_value,
       stats_null_count, encodings, bloom_filter_offset, bloom_filter_length, has_bloom_filter,
       column_index_offset, column_index_length, offset_index_offset, offset_index_length,
       has_page_index, encoding_stats, compression
FROM parquet_metadata('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet');
----
4|String|BYTE_ARRAY|StringType()|Hello|today|0|BIT_PACKED, RLE, PLAIN|192|NULL|1|156|25|181|11|1|[{"page_type":"DATA_PAGE","encoding":"PLAIN","count":1}]|GZIP

# The same with bloom_filter_length, and statistics marked exact.
query
SELECT bloom_filter_offset, bloom_filter_length, has_bloom_filter, min_is_exact, max_is_exact,
       row_group_compressed_bytes, encodings
FROM parquet_metadata('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_with_length.parquet');
----
253|2064|1|1|1|199|PLAIN, RLE, RLE_DICTIONARY

# Column-chunk key/value metadata as a JSON object; a key stored without a value maps to null.
query
SELECT column_id, key_value_metadata, dictionary_page_offset, data_page_offset, encoding_stats
FROM parquet_metadata('$TESTDATA/parquet-testing/data/column_chunk_key_value_metadata.parquet');
----
0|{"foo":"bar","thisiskeywithoutvalue":null}|4|0|[{"page_type":"DICTIONARY_PAGE","encoding":"PLAIN","count":1}]
1|NULL|97|0|[{"page_type":"DICTIONARY_PAGE","encoding":"PLAIN","count":1}]

query
SELECT json_extract(key_value_metadata, '$.foo'),
       json_type(key_value_metadata, '$.thisiskeywithoutvalue')
FROM parquet_metadata('$TESTDATA/parquet-testing/data/column_chunk_key_value_metadata.parquet')
WHERE column_id = 0;
----
bar|null

# Statistics by logical type, as the column's values read: DECIMAL as REAL up to precision 15
# (int32_decimal is DECIMAL(4,2)) and as exact TEXT beyond (fixed_length_decimal is DECIMAL(25,2)),
# dates, timestamps (nanoseconds kept) and UUIDs as TEXT.
query
SELECT stats_min, stats_max, typeof(stats_min)
FROM parquet_metadata('$TESTDATA/parquet-testing/data/int32_decimal.parquet');
----
1.0|24.0|real

query
SELECT stats_min, stats_max, typeof(stats_min) FROM parquet_metadata('$TESTDATA/parquet-testing/data/fixed_length_decimal.parquet');
----
2.00|24.00|text

query
SELECT type, stats_min_value, logical_type
FROM parquet_metadata('$TESTDATA/parquet-testing/shredded_variant/case-019.parquet')
WHERE path_in_schema = 'var.typed_value';
----
INT32|1957-11-07|DateType()

query
SELECT stats_min_value, stats_max_value
FROM parquet_metadata('$TESTDATA/parquet-testing/shredded_variant/case-033.parquet')
WHERE path_in_schema = 'var.typed_value';
----
2024-11-07 12:33:54.123456789|2024-11-07 12:33:54.123456789

query
SELECT stats_min_value, typeof(stats_min_value)
FROM parquet_metadata('$TESTDATA/parquet-testing/shredded_variant/case-037.parquet')
WHERE path_in_schema = 'var.typed_value';
----
f24f9b64-81fa-49d1-b74e-8c09a6e31c56|text

query
SELECT stats_min_value, typeof(stats_min_value)
FROM parquet_metadata('$TESTDATA/parquet-testing/shredded_variant/case-024.parquet')
WHERE path_in_schema = 'var.typed_value';
----
12345.6789|real

query
SELECT stats_min_value, stats_max_value
FROM parquet_metadata('$TESTDATA/parquet-testing/data/float16_nonzeros_and_nans.parquet');
----
-2.0|2.0

# A NaN statistic is the text 'NaN' (a NULL would read as "no statistic").
query
SELECT stats_min, stats_max, typeof(stats_max), stats_min_value, stats_max_value
FROM parquet_metadata('$TESTDATA/parquet-testing/data/nan_in_stats.parquet');
----
1.0|NaN|text|1.0|NaN

# Geospatial statistics: the bounding box (absent Z/M bounds are null) and the geometry types.
query
SELECT row_group_id, geo_bbox, geo_types
FROM parquet_metadata('$TESTDATA/parquet-testing/data/geospatial/geospatial.parquet')
WHERE path_in_schema = 'geometry' AND row_group_id IN (2, 3, 10, 24);
----
2|NULL|[]
3|{"xmin":30.0,"xmax":40.0,"ymin":10.0,"ymax":20.0,"zmin":null,"zmax":null,"mmin":null,"mmax":null}|["point"]
10|{"xmin":30.0,"xmax":40.0,"ymin":10.0,"ymax":20.0,"zmin":40.0,"zmax":60.0,"mmin":null,"mmax":null}|["point_z"]
24|{"xmin":30.0,"xmax":40.0,"ymin":10.0,"ymax":20.0,"zmin":40.0,"zmax":60.0,"mmin":300.0,"mmax":800.0}|["point_zm"]

query
SELECT path_in_schema, geo_bbox, geo_types
FROM parquet_metadata('$TESTDATA/parquet-testing/data/geospatial/geospatial-with-nan.parquet');
----
group|NULL|NULL
wkt|NULL|NULL
geometry|{"xmin":10.0,"xmax":130.0,"ymin":20.0,"ymax":140.0,"zmin":30.0,"zmax":150.0,"mmin":40.0,"mmax":160.0}|["point_zm","linestring_zm"]

query
SELECT json_extract(geo_bbox, '$.xmax'), json_array_length(geo_types)
FROM parquet_metadata('$TESTDATA/parquet-testing/data/geospatial/geospatial.parquet')
WHERE path_in_schema = 'geometry' AND row_group_id = 0;
----
40.0|28

# Nested columns: the dotted path of each leaf.
query
SELECT column_id, path_in_schema, type
FROM parquet_metadata('$TESTDATA/parquet-testing/data/nested_lists.snappy.parquet');
----
0|a.list.element.list.element.list.element|BYTE_ARRAY
1|b|INT32

# Many row groups: one row per chunk, in file order.
query
SELECT count(*), count(DISTINCT row_group_id), max(row_group_id), sum(row_group_num_rows) / 3
FROM parquet_metadata('$TESTDATA/parquet-testing/data/geospatial/geospatial.parquet');
----
93|31|30|196

# Joining schema and chunks on the dotted path.
query
SELECT s.name, s.max_definition_level, m.type
FROM parquet_schema('$TESTDATA/parquet-testing/data/nested_lists.snappy.parquet') s
JOIN parquet_metadata('$TESTDATA/parquet-testing/data/nested_lists.snappy.parquet') m
  USING (path_in_schema)
ORDER BY m.column_id;
----
element|7|BYTE_ARRAY
b|0|INT32

# --------------------------------------------------------------------------------------------------
# parquet_kv_metadata: one row per footer key/value pair.

query
SELECT key, value FROM parquet_kv_metadata('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet');
----
parquet.avro.schema|{"type":"record","name":"data","fields":[{"name":"String","type":["null","string"],"doc":"Type inferred from 'Hello'","default":null}]}
writer.model.name|avro

query
SELECT key, typeof(value), length(value)
FROM parquet_kv_metadata('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_with_length.parquet');
----
parquet.avro.schema|text|135
writer.model.name|text|4
ARROW:schema|text|160

query
SELECT count(*) FROM parquet_kv_metadata('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');
----
0

# --------------------------------------------------------------------------------------------------
# Paths from another table: the function runs once per row.

statement ok
CREATE TEMP TABLE files(p TEXT);

statement ok
INSERT INTO files VALUES ('$TESTDATA/parquet-testing/data/alltypes_plain.parquet'),
                         ('$TESTDATA/parquet-testing/data/nested_lists.snappy.parquet');

query
SELECT m.num_rows, m.num_row_groups FROM files f, parquet_file_metadata(f.p) m ORDER BY f.p;
----
8|1
3|1

query
SELECT count(*) FROM files f JOIN parquet_schema s ON s.path = f.p;
----
21

# Two different paths: no row, and no file is opened.
query
SELECT count(*) FROM parquet_schema('$TESTDATA/parquet-testing/data/alltypes_plain.parquet') WHERE path = 'nope';
----
0

# --------------------------------------------------------------------------------------------------
# Errors.

statement error parquet_metadata requires a file path argument
SELECT * FROM parquet_metadata;

statement error parquet_schema requires a file path argument
SELECT * FROM parquet_schema(NULL);

statement error parquet_file_metadata requires a file path argument
SELECT * FROM parquet_file_metadata;

statement error parquet_kv_metadata requires a file path argument
SELECT * FROM parquet_kv_metadata;

statement error cannot open '$TESTDATA/no_such_file.parquet'
SELECT * FROM parquet_metadata('$TESTDATA/no_such_file.parquet');

statement error delta_binary_packed_expect.csv: not a Parquet file
SELECT * FROM parquet_schema('$TESTDATA/parquet-testing/data/delta_binary_packed_expect.csv');

statement error uniform_encryption.parquet.encrypted: the file has an encrypted footer
SELECT * FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/uniform_encryption.parquet.encrypted');

statement error too many arguments on parquet_kv_metadata
SELECT * FROM parquet_kv_metadata('a', 'aad_prefix=b', 'c');

# The optional second argument is OPTIONS, the decryption options of a table (encryption.sql):
# checked before any file is opened, and empty or NULL when there are none.
statement error parquet_kv_metadata: option 'b' is not of the form key=value
SELECT * FROM parquet_kv_metadata('a', 'b');

statement error parquet_schema: unknown parquet_schema option 'decimal'
SELECT * FROM parquet_schema('$TESTDATA/parquet-testing/data/alltypes_plain.parquet', 'decimal=text');

query
SELECT num_rows, options IS NULL FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/alltypes_plain.parquet', NULL)
UNION ALL
SELECT num_rows, options FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/alltypes_plain.parquet', '');
----
8|1
8|(empty)

# Keys given to a plaintext file are not needed and do no harm.
query
SELECT num_rows FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/alltypes_plain.parquet', 'aad_prefix=x, footer_key=0123456789012345');
----
8

# They read files, so they are SQLITE_VTAB_DIRECTONLY: not usable from a view in the database schema
# (a database someone else wrote must not make this connection read files).
statement ok
CREATE VIEW file_rows AS
SELECT num_rows FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');

statement error unsafe use of virtual table "parquet_file_metadata"
SELECT * FROM file_rows;

statement ok
DROP VIEW file_rows;

# Eponymous only: no CREATE VIRTUAL TABLE.
statement error no such module: parquet_metadata
CREATE VIRTUAL TABLE m USING parquet_metadata('x');

# --------------------------------------------------------------------------------------------------
# Globs and comma lists, as a table's SOURCE takes them: one set of rows per file, in the order of
# the paths, file_name telling them apart.
query
SELECT file_name, num_rows FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/alltypes_plain*.parquet');
----
$TESTDATA/parquet-testing/data/alltypes_plain.parquet|8
$TESTDATA/parquet-testing/data/alltypes_plain.snappy.parquet|2

query
SELECT file_name, count(*) FROM parquet_metadata('$TESTDATA/parquet-testing/data/alltypes_plain.snappy.parquet, $TESTDATA/parquet-testing/data/alltypes_plain.parquet') GROUP BY file_name ORDER BY file_name;
----
$TESTDATA/parquet-testing/data/alltypes_plain.parquet|11
$TESTDATA/parquet-testing/data/alltypes_plain.snappy.parquet|11

query
SELECT file_name, count(*) FROM parquet_schema('$TESTDATA/parquet-testing/data/alltypes_plain*.parquet') GROUP BY file_name;
----
$TESTDATA/parquet-testing/data/alltypes_plain.parquet|12
$TESTDATA/parquet-testing/data/alltypes_plain.snappy.parquet|12

query
SELECT count(DISTINCT file_name), count(*) FROM parquet_kv_metadata('$TESTDATA/parquet-testing/data/*.parquet') WHERE key = 'pandas';
----
2|2

query
SELECT file_name, count(*) FROM parquet_page_index('$TESTDATA/parquet-testing/data/alltypes_tiny_pages*.parquet') GROUP BY file_name;
----
$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet|5794
$TESTDATA/parquet-testing/data/alltypes_tiny_pages_plain.parquet|5713

query
SELECT file_name, row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('$TESTDATA/parquet-testing/data/data_index_bloom_encoding_*.parquet', 'String', 'Goodbye');
----
$TESTDATA/parquet-testing/data/data_index_bloom_encoding_stats.parquet|0|1
$TESTDATA/parquet-testing/data/data_index_bloom_encoding_with_length.parquet|0|1

statement error no file matches '$TESTDATA/parquet-testing/data/*.nothing'
SELECT * FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/*.nothing');
