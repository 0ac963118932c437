# Encrypted Parquet (Parquet Modular Encryption): reading with keys given as table options or
# registered by key id with parquet_add_key, and writing encrypted files with parquet_export.
# The conformance files hold 50 rows; their keys (tests/data/parquet-testing/README.md): footer key
# 0123456789012345 (key id kf), double_field 1234567890123450 (kc1), float_field
# 1234567890123451 (kc2).

# Keys as table options. A temp table: module arguments of a table in a persistent database are
# stored in its schema, keys included.
statement ok
CREATE VIRTUAL TABLE temp.enc USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted', footer_key='0123456789012345', column_keys='double_field:1234567890123450,float_field:1234567890123451');

query
SELECT rowid, boolean_field, int32_field, double_field, float_field, typeof(ba_field) FROM enc WHERE rowid < 3;
----
0|1|00:00:00|0.0|0.0|blob
1|0|00:00:00.001|1.1111111|1.100000023841858|null
2|1|00:00:00.002|2.2222222|2.200000047683716|blob

# Statistics of an encrypted column (in its encrypted metadata) prune.
query
SELECT count(*) FROM enc WHERE double_field > 1000;
----
0

query
SELECT json_extract(parquet_scan_stats('enc'), '$.row_groups_skipped_by_statistics');
----
1

# Without the footer key an encrypted footer cannot be read; the message names the key id.
statement error the file has an encrypted footer and its key was not given (key id 'kf')
CREATE VIRTUAL TABLE temp.nokey USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted');

# A wrong key fails authentication; no message ever shows a key.
statement error authentication failed for footer (wrong key, wrong AAD prefix, or the file was altered)
CREATE VIRTUAL TABLE temp.wrong USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted', footer_key='abcdefghijklmnop');

statement error option 'footer_key': key of 7 characters is neither 32/48/64 hex digits
CREATE VIRTUAL TABLE temp.bad USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted', footer_key='tooshrt');

# A column whose key is missing: the other columns read, that one names itself when read.
statement ok
CREATE VIRTUAL TABLE temp.partial USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted', footer_key='0123456789012345', column_keys='float_field:1234567890123451');

query
SELECT count(*), sum(boolean_field), max(float_field) FROM partial;
----
50|25|53.900001525878906

statement error column 'double_field' is encrypted and no key was given for it (key id 'kc1')
SELECT double_field FROM partial;

# A plaintext footer (PAR1, signed) opens without keys: plaintext columns read, encrypted ones do not.
statement ok
CREATE VIRTUAL TABLE temp.pf USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_plaintext_footer.parquet.encrypted');

query
SELECT count(*), sum(boolean_field) FROM pf;
----
50|25

statement error column 'float_field' is encrypted and no key was given for it (key id 'kc2')
SELECT sum(float_field) FROM pf;

# An AAD prefix the file does not store must be given.
statement error the file was encrypted with an AAD prefix that it does not store: give it (aad_prefix)
CREATE VIRTUAL TABLE temp.noaad USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted', footer_key='0123456789012345', column_keys='double_field:1234567890123450,float_field:1234567890123451');

statement ok
CREATE VIRTUAL TABLE temp.aad USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted', footer_key='0123456789012345', column_keys='double_field:1234567890123450,float_field:1234567890123451', aad_prefix='tester');

query
SELECT count(*), round(sum(double_field), 4) FROM aad;
----
50|1361.1111

# The file functions read encrypted files with the keys registered by id (below); before any is,
# an encrypted footer is the same error naming its key id. A plaintext footer reads without keys,
# and the encrypted columns' statistics (in their encrypted metadata) are then NULL.
statement error the file has an encrypted footer and its key was not given (key id 'kf')
SELECT count(*) FROM parquet_metadata('$TESTDATA/parquet-testing/data/uniform_encryption.parquet.encrypted');

statement error the file has an encrypted footer and its key was not given (key id 'kf')
SELECT count(*) FROM parquet_page_index('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted');

statement error the file has an encrypted footer and its key was not given (key id 'kf')
SELECT count(*) FROM parquet_bloom_probe('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted', 'double_field', 0.5);

query
SELECT path_in_schema, stats_min, stats_max FROM parquet_metadata('$TESTDATA/parquet-testing/data/encrypt_columns_plaintext_footer.parquet.encrypted') WHERE path_in_schema IN ('int64_field', 'double_field');
----
int64_field|0|99000000000000
double_field|NULL|NULL

# Keys by id: parquet_add_key(ID, KEY) returns 1; tables opened afterwards find the keys their files
# name. KEY may be text, hex:/base64: text, or a BLOB of key bytes.
query
SELECT parquet_add_key('kf', '0123456789012345'), parquet_add_key('kc1', 'hex:31323334353637383930313233343530'), parquet_add_key('kc2', CAST('1234567890123451' AS BLOB));
----
1|1|1

# So do the file functions.
query
SELECT path_in_schema, stats_min, stats_max FROM parquet_metadata('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted') WHERE path_in_schema IN ('int64_field', 'double_field');
----
int64_field|0|99000000000000
double_field|-0.0|54.4444439

query
SELECT num_rows, num_row_groups FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/uniform_encryption.parquet.encrypted');
----
50|1

query
SELECT count(*) FROM parquet_schema('$TESTDATA/parquet-testing/data/uniform_encryption.parquet.encrypted');
----
9

query
SELECT path_in_schema, sum(row_count), min(min_value), max(max_value) FROM parquet_page_index('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted') WHERE path_in_schema = 'double_field';
----
double_field|50|-0.0|54.4444439

# parquet_bloom_probe decrypts the Bloom filters of encrypted columns: no stored value is ever
# excluded, and values that are not stored mostly are.
statement ok
CREATE VIRTUAL TABLE temp.bloom_enc USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted');

query
SELECT count(*), sum((SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted', 'double_field', d.double_field))), sum((SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted', 'float_field', d.float_field))) FROM bloom_enc AS d;
----
2000|0|0

query
SELECT sum((SELECT bloom_filter_excludes FROM parquet_bloom_probe('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted', 'double_field', d.double_field + 0.25))) > 1900 FROM bloom_enc AS d;
----
1

# A plaintext column of that file has no Bloom filter.
query
SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted', 'int32_field', 3);
----
0|NULL

statement ok
CREATE VIRTUAL TABLE temp.uniform USING parquet('$TESTDATA/parquet-testing/data/uniform_encryption.parquet.encrypted');

statement ok
CREATE VIRTUAL TABLE temp.byid USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted');

# Every mode gives the same rows.
query
SELECT count(*) FROM enc, byid, uniform, aad WHERE enc.rowid = byid.rowid AND enc.rowid = uniform.rowid AND enc.rowid = aad.rowid AND enc.double_field IS byid.double_field AND enc.float_field IS uniform.float_field AND enc.ba_field IS aad.ba_field AND enc.int64_field IS uniform.int64_field AND enc.flba_field IS byid.flba_field;
----
50

query
SELECT parquet_add_key(NULL, '0123456789012345');
----
NULL

statement error parquet_add_key: key of 5 characters
SELECT parquet_add_key('k', 'short');

# Key-management material (keys wrapped by a key service) cannot be unwrapped here.
statement error key-management key material, which this engine cannot unwrap
CREATE VIRTUAL TABLE temp.kms USING parquet('$TESTDATA/parquet-testing/data/external_key_material_java.parquet.encrypted');

# parquet_add_key is SQLITE_DIRECTONLY: a view or trigger of the schema cannot call it.
statement ok
CREATE VIEW add_key_view AS SELECT parquet_add_key('kx', '0123456789012345');

statement error unsafe use of parquet_add_key()
SELECT * FROM add_key_view;

# --------------------------------------------------------------------------------------------------
# Writing: parquet_export(PATH, QUERY, 'footer_key=..., ...') encrypts; so does the writable table.

statement ok
CREATE TABLE nums AS WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 3000) SELECT value FROM n;

# Every column and the footer under the footer key (AES_GCM_V1).
query
SELECT parquet_export('$TMPDIR/uniform.parquet', 'SELECT value AS id, ''n'' || (value % 10) AS name FROM nums', 'row_group_size=1000, footer_key=0123456789012345');
----
3000

statement ok
CREATE VIRTUAL TABLE temp.ru USING parquet('$TMPDIR/uniform.parquet', footer_key='0123456789012345');

query
SELECT count(*), sum(id), count(DISTINCT name) FROM ru;
----
3000|4501500|10

query
SELECT count(*) FROM ru WHERE id > 2500;
----
500

query
SELECT json_extract(parquet_scan_stats('ru'), '$.row_groups_skipped_by_statistics');
----
2

# One column under its own key, a plaintext footer, AES_GCM_CTR_V1: readers without keys read the
# other column.
query
SELECT parquet_export('$TMPDIR/columns.parquet', 'SELECT value AS id, ''n'' || (value % 10) AS name FROM nums', 'footer_key=0123456789012345, column_keys=''name:1234567890123450'', plaintext_footer=1, encryption_algorithm=ctr');
----
3000

statement ok
CREATE VIRTUAL TABLE temp.rc USING parquet('$TMPDIR/columns.parquet');

query
SELECT sum(id) FROM rc;
----
4501500

statement error column 'name' is encrypted and no key was given for it
SELECT name FROM rc;

statement ok
CREATE VIRTUAL TABLE temp.rck USING parquet('$TMPDIR/columns.parquet', footer_key='0123456789012345', column_keys='name:1234567890123450');

query
SELECT name, count(*) FROM rck GROUP BY name ORDER BY name LIMIT 2;
----
n0|300
n1|300

# An AAD prefix kept out of the file: readers must give it.
query
SELECT parquet_export('$TMPDIR/aad.parquet', 'SELECT value FROM nums', 'footer_key=0123456789012345, aad_prefix=nums-v1, store_aad_prefix=0');
----
3000

statement error give it (aad_prefix)
CREATE VIRTUAL TABLE temp.ra USING parquet('$TMPDIR/aad.parquet', footer_key='0123456789012345');

statement ok
CREATE VIRTUAL TABLE temp.ra2 USING parquet('$TMPDIR/aad.parquet', footer_key='0123456789012345', aad_prefix='nums-v1');

query
SELECT sum(value) FROM ra2;
----
4501500

statement error option 'column_keys': needs footer_key
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'column_keys=''a:1234567890123450''');

statement error column_keys: no column named 'b'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'footer_key=0123456789012345, column_keys=''b:1234567890123450''');

# Key ids: footer_key_id and column_key_ids store the ids, and the file then opens with the keys
# registered under them, as the conformance files do; the messages name the missing ids.
query
SELECT parquet_export('$TMPDIR/ids.parquet', 'SELECT value AS a, ''s'' || value AS b FROM nums WHERE value <= 100', 'footer_key=00112233445566778899aabbccddeeff, footer_key_id=out-footer, column_keys=''b:ffeeddccbbaa99887766554433221100'', column_key_ids=''b:out-b''');
----
100

statement error the file has an encrypted footer and its key was not given (key id 'out-footer')
CREATE VIRTUAL TABLE temp.ids0 USING parquet('$TMPDIR/ids.parquet');

query
SELECT parquet_add_key('out-footer', 'hex:00112233445566778899aabbccddeeff');
----
1

statement ok
CREATE VIRTUAL TABLE temp.ids1 USING parquet('$TMPDIR/ids.parquet');

query
SELECT count(*), sum(a) FROM ids1;
----
100|5050

statement error column 'b' is encrypted and no key was given for it (key id 'out-b')
SELECT max(b) FROM ids1;

query
SELECT parquet_add_key('out-b', 'hex:ffeeddccbbaa99887766554433221100');
----
1

statement ok
CREATE VIRTUAL TABLE temp.ids2 USING parquet('$TMPDIR/ids.parquet');

query
SELECT count(*), sum(a), max(b), sum(b = 's' || a) FROM ids2;
----
100|5050|s99|100

statement error option 'column_key_ids': column 'a' is not given a key in column_keys
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a, 2 AS b', 'footer_key=0123456789012345, column_keys=''b:1234567890123450'', column_key_ids=''a:id''');

statement error option 'footer_key_id': needs footer_key
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'footer_key_id=kf');

statement error option 'footer_key_id': is empty
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'footer_key=0123456789012345, footer_key_id=''''');

# The writable table takes the same options.
statement ok
CREATE VIRTUAL TABLE temp.w USING parquet('$TMPDIR/w.parquet', schema='a INTEGER, b TEXT', footer_key='0123456789012345');

statement ok
INSERT INTO w VALUES (1, 'one'), (2, 'two');

statement ok
CREATE VIRTUAL TABLE temp.wr USING parquet('$TMPDIR/w.parquet', footer_key='0123456789012345');

query
SELECT a, b FROM wr ORDER BY a;
----
1|one
2|two

# Pruning on encrypted files, with the right keys. The conformance file with Bloom filters on its
# two encrypted columns (double_field holds 0.5, 1.5, ... 1999.5): 1000 lies inside the column's
# bounds but is absent, and the decrypted Bloom filter excludes the row group before any page is
# read; 1000.5 is present and found.
statement ok
CREATE VIRTUAL TABLE temp.bf USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted', footer_key='0123456789012345', column_keys='double_field:1234567890123450,float_field:1234567890123451');

query
SELECT count(*) FROM bf WHERE double_field = 1000;
----
0

query
SELECT json_extract(parquet_scan_stats('bf'), '$.row_groups_skipped_by_statistics', '$.row_groups_skipped_by_bloom_filter', '$.pages_read');
----
[0,1,0]

query
SELECT count(*) FROM bf WHERE double_field = 1000.5;
----
1

query
SELECT json_extract(parquet_scan_stats('bf'), '$.row_groups_skipped_by_bloom_filter', '$.rows_produced');
----
[0,1]

# A file we encrypt (footer key, and its own key for hc), with statistics, page index and a Bloom
# filter on hc: a point query on the sorted id skips 3 of 4 row groups by statistics and all but
# one page of the fourth by the decrypted page index; an absent hc inside every row group's bounds
# is excluded by the decrypted Bloom filters, reading no page.
query
SELECT parquet_export('$TMPDIR/enc_sorted.parquet', 'WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 20000) SELECT i AS id, i * 2654435761 % 1000000007 AS hc FROM k', 'footer_key=abcdefghijklmnop, column_keys=''hc:0123456789abcdef'', row_group_size=5000, page_size=2048, bloom_filter=hc, encoding_trial=0');
----
20000

statement ok
CREATE VIRTUAL TABLE temp.es USING parquet('$TMPDIR/enc_sorted.parquet', footer_key='abcdefghijklmnop', column_keys='hc:0123456789abcdef');

query
SELECT id, hc FROM es WHERE id = 12345;
----
12345|9240162

query
SELECT json_extract(parquet_scan_stats('es'), '$.row_groups_skipped_by_statistics', '$.pages_skipped_by_page_index', '$.pages_read');
----
[3,3,2]

query
SELECT count(*) FROM es WHERE hc = 500000001;
----
0

query
SELECT json_extract(parquet_scan_stats('es'), '$.row_groups_skipped_by_statistics', '$.row_groups_skipped_by_bloom_filter', '$.pages_read');
----
[0,4,0]

# Without hc's key the file still opens and id reads; hc fails, naming the column.
statement ok
CREATE VIRTUAL TABLE temp.es_nokey USING parquet('$TMPDIR/enc_sorted.parquet', footer_key='abcdefghijklmnop');

query
SELECT count(*), max(id) FROM es_nokey;
----
20000|20000

statement error column 'hc' is encrypted and no key was given for it
SELECT max(hc) FROM es_nokey;
