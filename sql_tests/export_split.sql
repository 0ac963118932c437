# Big exports: parquet_export splits its rows into numbered files of a folder by row groups
# (row_groups_per_file) or by size (file_size_bytes), within each partition too, written all or
# nothing as partition_by is; with return_stats=1 it answers with a JSON summary of what it wrote.

statement ok
CREATE TABLE big AS WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 10000) SELECT value AS id, value % 3 AS part, printf('name %06d', value) AS name, CASE WHEN value % 10 = 0 THEN NULL ELSE value * 0.5 END AS x FROM n;

# Two row groups of 1000 rows per file: 10,000 rows make five files.
query
SELECT parquet_export('$TMPDIR/by_groups', 'SELECT * FROM big ORDER BY id', 'row_group_size=1000, row_groups_per_file=2');
----
10000

statement ok
CREATE VIRTUAL TABLE by_groups USING parquet('$TMPDIR/by_groups/*.parquet');

query
SELECT substr(filename, length('$TMPDIR/by_groups/') + 1), count(*), min(id), max(id) FROM by_groups GROUP BY filename ORDER BY filename;
----
data_0.parquet|2000|1|2000
data_1.parquet|2000|2001|4000
data_2.parquet|2000|4001|6000
data_3.parquet|2000|6001|8000
data_4.parquet|2000|8001|10000

query
SELECT count(*), sum(id), sum(x), count(x) FROM by_groups;
----
10000|50005000|22500000.0|9000

# By size: each file ends with the row group (or the batch of rows) in which it reaches the size,
# so every file but the last holds at least that many bytes and little more.
statement ok
SELECT parquet_export('$TMPDIR/by_size', 'SELECT * FROM big ORDER BY id', 'row_group_size=500, file_size_bytes=20KB, compression=uncompressed');

statement ok
CREATE VIRTUAL TABLE by_size USING parquet('$TMPDIR/by_size/*.parquet');

query
SELECT count(*), sum(id), count(DISTINCT filename) > 3 FROM by_size;
----
10000|50005000|1

# Inside each partition: year=... folders, each with its own numbered files.
query
SELECT parquet_export('$TMPDIR/parts', 'SELECT * FROM big ORDER BY part, id', 'partition_by=part, row_group_size=1000, row_groups_per_file=1');
----
10000

statement ok
CREATE VIRTUAL TABLE parts USING parquet('$TMPDIR/parts/**/*.parquet', hive_partitioning=1);

query
SELECT part, count(*), count(DISTINCT filename) FROM parts GROUP BY part ORDER BY part;
----
0|3333|4
1|3334|4
2|3333|4

query
SELECT substr(filename, length('$TMPDIR/parts/') + 1) FROM parts WHERE part = 1 GROUP BY filename ORDER BY filename;
----
part=1/data_0.parquet
part=1/data_1.parquet
part=1/data_2.parquet
part=1/data_3.parquet

# No rows: one file with the columns and no rows, as an export to one file writes, so that the
# folder has a schema to read (big's columns have no declared type: schema= gives them theirs).
query
SELECT parquet_export('$TMPDIR/none', 'SELECT id, name, x FROM big WHERE id < 0', 'row_groups_per_file=2, schema=''id INTEGER, name TEXT, x REAL''');
----
0

statement ok
CREATE VIRTUAL TABLE none USING parquet('$TMPDIR/none/*.parquet');

query
SELECT count(*), count(DISTINCT filename) FROM none;
----
0|0

query
SELECT name, type FROM pragma_table_info('none');
----
id|INTEGER
name|TEXT
x|REAL

query
SELECT num_rows, num_row_groups FROM parquet_file_metadata('$TMPDIR/none/data_0.parquet');
----
0|0

query
SELECT json_extract(s, '$.rows'), json_extract(s, '$.files[0].path') = '$TMPDIR/none_size/data_0.parquet', json_extract(s, '$.files[0].rows'), json_array_length(s, '$.files') FROM (SELECT parquet_export('$TMPDIR/none_size', 'SELECT * FROM big WHERE 0', 'file_size_bytes=1MB, return_stats=1') AS s);
----
0|1|0|1

# With partition_by no rows make no partition, so the folder is left empty.
query
SELECT parquet_export('$TMPDIR/none_parts', 'SELECT * FROM big WHERE 0', 'partition_by=part, row_groups_per_file=2');
----
0

statement error no file matches
CREATE VIRTUAL TABLE none_parts USING parquet('$TMPDIR/none_parts/**/*.parquet');

# All or nothing: an error after some files were finished leaves no folder. The error names the
# file and its row.
statement error parquet_export: 'data_7.parquet': row 1, column 'id': text 'x' is not an integer
SELECT parquet_export('$TMPDIR/failed', 'SELECT CASE WHEN id = 7001 THEN ''x'' ELSE id END AS id FROM big ORDER BY big.id', 'schema=''id INTEGER'', row_group_size=1000, row_groups_per_file=1');

statement error failed/data_0.parquet
SELECT count(*) FROM parquet_schema('$TMPDIR/failed/data_0.parquet');

# The target must be a new or empty folder.
statement error '$TMPDIR/by_groups' exists and is not empty; with file_size_bytes or row_groups_per_file the output is a new folder
SELECT parquet_export('$TMPDIR/by_groups', 'SELECT * FROM big', 'row_groups_per_file=2');

statement error option 'file_size_bytes': unknown unit 'xb'
SELECT parquet_export('$TMPDIR/nothing', 'SELECT * FROM big', 'file_size_bytes=3xb');

# return_stats=1: the answer is a JSON summary: rows, and per file its path, rows, bytes, row groups,
# partition values and per column the null count and the min and max of its statistics.
query
SELECT json_extract(s, '$.rows'), json_array_length(s, '$.files'), json_extract(s, '$.files[1].path') = '$TMPDIR/stats/data_1.parquet', json_extract(s, '$.files[1].rows'), json_extract(s, '$.files[1].row_groups'), json_extract(s, '$.files[1].columns.id'), json_extract(s, '$.files[1].columns.name'), json_extract(s, '$.files[1].columns.x') FROM (SELECT parquet_export('$TMPDIR/stats', 'SELECT id, name, x FROM big ORDER BY id', 'row_group_size=2500, row_groups_per_file=2, return_stats=1') AS s);
----
10000|2|1|5000|2|{"null_count":0,"min":5001,"max":10000}|{"null_count":0,"min":"name 005001","max":"name 010000"}|{"null_count":500,"min":2500.5,"max":4999.5}

# One file: its path is PATH; its bytes hold its column chunks and the footer.
statement ok
CREATE TABLE one_stats AS SELECT parquet_export('$TMPDIR/one.parquet', 'SELECT part, id FROM big', 'return_stats=1') AS s;

query
SELECT json_extract(s, '$.files[0].path') = '$TMPDIR/one.parquet', json_extract(s, '$.files[0].bytes') > (SELECT sum(total_compressed_size) FROM parquet_metadata('$TMPDIR/one.parquet')), json_extract(s, '$.files[0].columns.part') FROM one_stats;
----
1|1|{"null_count":0,"min":0,"max":2}

# Partitioned: each file names its partition.
query
SELECT json_extract(value, '$.path') LIKE '%/part=2/data_0.parquet', json_extract(value, '$.partition'), json_extract(value, '$.rows') FROM json_each((SELECT parquet_export('$TMPDIR/stats_parts', 'SELECT part, id FROM big ORDER BY part', 'partition_by=part, return_stats=1')), '$.files') ORDER BY key;
----
0|{"part":"0"}|3333
0|{"part":"1"}|3334
1|{"part":"2"}|3333
