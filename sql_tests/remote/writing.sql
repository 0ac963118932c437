# Writing to S3: parquet_export and write tables with s3:// targets, partition_by folders, and the
# pruning of what was written, read back over S3. Run by tests/tools/remote_sqltest.mjs (ctest
# sql_remote_writing): the S3 server's bucket `out` starts empty, and after the run the driver checks
# that no multipart upload was left pending in any bucket.

statement ok
CREATE TABLE src(id INTEGER, grp TEXT, payload TEXT);

statement ok
INSERT INTO src WITH RECURSIVE n(value) AS (SELECT 0 UNION ALL SELECT value + 1 FROM n WHERE value < 199999) SELECT value, 'g' || (value % 3), printf('%08d-%s', value * 7919 % 100003, hex(value * 2654435761)) FROM n;

# A file of less than one part is one PutObject; the object appears whole.
query
SELECT parquet_export('s3://out/small.parquet', 'SELECT * FROM src WHERE id < 1000');
----
1000

# A table's footer is cached, and every scan checks the object is still the version it was read
# from: count(*) reads no data, so it asks with one HEAD (a scan that reads data needs none: its
# range answers carry the version).
statement ok
CREATE VIRTUAL TABLE temp.small USING parquet('s3://out/small.parquet');

query
SELECT count(*) FROM small;
----
1000

query
SELECT json_extract(parquet_scan_stats('small'), '$.requests');
----
1

# Replaced: that HEAD finds another version, so the count is an error naming the object, never the
# cached footer's count, and the scan after it reads the new object.
query
SELECT parquet_export('s3://out/small.parquet', 'SELECT * FROM src WHERE id < 1500');
----
1500

statement error s3://out/small.parquet changed since its footer was read (ETag
SELECT count(*) FROM small;

query
SELECT count(*) FROM small;
----
1500

# A larger file goes up as a multipart upload (parts of s3_part_size MiB).
query
SELECT parquet_export('s3://out/big.parquet', 'SELECT * FROM src ORDER BY id', 'compression=uncompressed, row_group_size=20000, page_rows=1000, s3_part_size=1');
----
200000

statement ok
CREATE VIRTUAL TABLE temp.big USING parquet('s3://out/big.parquet');

query
SELECT count(*), sum(id), count(DISTINCT grp) FROM big;
----
200000|19999900000|3

query
SELECT count(*) FROM (SELECT * FROM big EXCEPT SELECT * FROM src);
----
0

query
SELECT json_extract(value, '$.compressed_size') > 2 * 1048576 FROM (SELECT json_object('compressed_size', sum(total_compressed_size)) AS value FROM parquet_metadata('s3://out/big.parquet'));
----
1

# A point query on the sorted id: statistics keep one row group of ten, its page index keeps one
# page of twenty. The page indexes came with the footer (the 256 KiB tail read when the table was
# created), so the scan sends two requests: the kept page of id (the filter column), then, once a
# row survived, the kept pages of grp and payload together. No HEAD: the answers confirm the object
# is still the version opened.
query
SELECT id, grp, payload FROM big WHERE id = 123456;
----
123456|g0|00018736-333237373036303231333130303136

query
SELECT json_extract(s, '$.row_groups_read'), json_extract(s, '$.pages_read'), json_extract(s, '$.requests'), json_extract(s, '$.bytes_fetched') < 100000 FROM (SELECT parquet_scan_stats('big') AS s);
----
1|3|2|1

# Only the id: one request, its kept page.
query
SELECT id FROM big WHERE id = 123456;
----
123456

query
SELECT json_extract(s, '$.requests'), json_extract(s, '$.pages_read') FROM (SELECT parquet_scan_stats('big') AS s);
----
1|1

# A one-column scan fetches about that column's bytes, not the file.
statement ok
SELECT sum(id) FROM big;

query
SELECT json_extract(parquet_scan_stats('big'), '$.bytes_fetched') < 1.1 * (SELECT sum(total_compressed_size) FROM parquet_metadata('s3://out/big.parquet') WHERE path_in_schema = 'id');
----
1

# Offset indexes past the footer's 256 KiB tail (pages of 10 rows: 20,000 of them per column). Every
# column reader loads its chunk's OffsetIndex (to check the pages it walks), so a one-column scan
# fetches that column's indexes for all its row groups in one request, without the ColumnIndexes
# (only a filter uses them), then one request per row group for the data: 11 requests, not two per
# row group.
query
SELECT parquet_export('s3://out/paged.parquet', 'SELECT id, payload FROM src ORDER BY id', 'compression=uncompressed, row_group_size=20000, page_rows=10');
----
200000

query
SELECT (SELECT file_size_bytes FROM parquet_file_metadata('s3://out/paged.parquet')) - min(offset_index_offset) > 262144 FROM parquet_metadata('s3://out/paged.parquet');
----
1

statement ok
CREATE VIRTUAL TABLE temp.paged USING parquet('s3://out/paged.parquet');

query
SELECT sum(id) FROM paged;
----
19999900000

query
SELECT json_extract(s, '$.row_groups_read'), json_extract(s, '$.requests') FROM (SELECT parquet_scan_stats('paged') AS s);
----
10|11

# partition_by writes key=value folders under the prefix; the files appear when all are written.
query
SELECT parquet_export('s3://out/parts', 'SELECT * FROM src WHERE id < 3000', 'partition_by=grp');
----
3000

statement ok
CREATE VIRTUAL TABLE temp.parts USING parquet('s3://out/parts/**/*.parquet', hive_partitioning=1);

query
SELECT grp, count(*), min(filename) FROM parts GROUP BY grp ORDER BY grp;
----
g0|1000|s3://out/parts/grp=g0/data_0.parquet
g1|1000|s3://out/parts/grp=g1/data_0.parquet
g2|1000|s3://out/parts/grp=g2/data_0.parquet

# Partition pruning needs no request to the files it skips.
query
SELECT count(*) FROM parts WHERE grp = 'g1';
----
1000

query
SELECT json_extract(s, '$.files_skipped') FROM (SELECT parquet_scan_stats('parts') AS s);
----
2

statement error 's3://out/parts/' already holds objects
SELECT parquet_export('s3://out/parts', 'SELECT * FROM src WHERE id < 10', 'partition_by=grp');

# A failing upload (the server answers every part of out/fail/ with 500) aborts it: an error naming
# the object, and no object.
statement error s3://out/fail/x.parquet
SELECT parquet_export('s3://out/fail/x.parquet', 'SELECT * FROM src', 'compression=uncompressed, s3_part_size=1, http_retries=1, http_retry_wait_ms=10');

statement error HTTP 404
SELECT count(*) FROM parquet_metadata('s3://out/fail/x.parquet');

# http(s) URLs cannot be written.
statement error only s3:// locations can be written
SELECT parquet_export('$HTTP/x.parquet', 'SELECT 1 AS a');

# A write table on S3: the object appears at COMMIT, and not at all after ROLLBACK.
statement ok
CREATE VIRTUAL TABLE temp.w USING parquet('s3://out/table.parquet', schema='id INTEGER, grp TEXT');

statement ok
BEGIN;

statement ok
INSERT INTO w SELECT id, grp FROM src WHERE id < 10;

statement ok
ROLLBACK;

statement error HTTP 404
SELECT count(*) FROM parquet_metadata('s3://out/table.parquet');

statement ok
INSERT INTO w SELECT id, grp FROM src WHERE id < 10;

query
SELECT sum(num_rows) FROM parquet_file_metadata('s3://out/table.parquet');
----
10

# It replaces only the object it found at CREATE (one HEAD request): an export to its key since then
# stays, and the INSERT is an error. A table created over that object replaces it.
statement ok
CREATE VIRTUAL TABLE temp.w_changed USING parquet('s3://out/changed.parquet', schema='id INTEGER');

query
SELECT parquet_export('s3://out/changed.parquet', 'SELECT 100 AS other');
----
1

statement error 's3://out/changed.parquet' changed after this table was created (something else wrote it
INSERT INTO w_changed VALUES (1);

query
SELECT name FROM parquet_schema('s3://out/changed.parquet') WHERE column_id > 0;
----
other

statement ok
CREATE VIRTUAL TABLE temp.w_over USING parquet('s3://out/changed.parquet', schema='id INTEGER');

statement ok
INSERT INTO w_over VALUES (7);

query
SELECT name, (SELECT sum(num_rows) FROM parquet_file_metadata('s3://out/changed.parquet')) FROM parquet_schema('s3://out/changed.parquet') WHERE column_id > 0;
----
id|1

# Exported with options from a connection's registry instead of the environment.
statement ok
SELECT parquet_secret('scope=s3://out/, s3_access_key_id=AKIDREMOTETEST, s3_secret_access_key=remote-test-secret, s3_region=eu-test-1');

query
SELECT parquet_export('s3://out/registry.parquet', 'SELECT 42 AS answer');
----
1

query
SELECT * FROM parquet_schema('s3://out/registry.parquet') WHERE name = 'answer';
----
s3://out/registry.parquet|answer|INT64|NULL|OPTIONAL|NULL|NULL|NULL|NULL|NULL|NULL|1|1|0|answer
