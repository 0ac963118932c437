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

# The keys a table takes may instead be given to a file function in its optional last argument,
# OPTIONS ('key=value, ...', as parquet_export's options): footer_key, column_keys, master_keys,
# aad_prefix. Here the file that does not store its AAD prefix, with every key and the prefix.
query
SELECT path_in_schema, stats_min, stats_max FROM parquet_metadata('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted', 'footer_key=0123456789012345, column_keys=''double_field:1234567890123450, float_field:1234567890123451'', aad_prefix=tester') WHERE path_in_schema IN ('int64_field', 'double_field');
----
int64_field|0|99000000000000
double_field|-0.0|54.4444439

# Without the prefix the footer cannot be read; a key given in OPTIONS is never shown by a message.
statement error the file was encrypted with an AAD prefix that it does not store: give it (aad_prefix)
SELECT count(*) FROM parquet_metadata('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted', 'footer_key=0123456789012345');

statement error parquet_metadata: option 'footer_key': key of 7 characters is neither 32/48/64 hex digits
SELECT count(*) FROM parquet_metadata('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted', 'footer_key=tooshrt, aad_prefix=tester');

# Keys wrapped by master keys: PKMT1 key material, as the key tools of parquet-java, Spark and Arrow
# write it. external_key_material_java keeps its material in
# _KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json beside it: its data keys are
# double-wrapped by the master keys kf (footer), kc1 (column integers) and kc2 (column strings),
# whose values are the keys above. It holds 100 rows: integers 0..99, strings 'a0', 'b1', ... 'j99'.
# No master key is registered yet: the error names the first one needed and its KMS instance.
statement error cannot unwrap the footer key: master key 'kf' (KMS instance 'DEFAULT') is not registered: register it by its id (parquet_add_key) or give it (master_keys)
CREATE VIRTUAL TABLE temp.kms0 USING parquet('$TESTDATA/parquet-testing/data/external_key_material_java.parquet.encrypted');

# Master keys may be options of a temp table: master_keys='id:KEY, ...'. Without kc1, only the
# column under it fails, naming it.
statement ok
CREATE VIRTUAL TABLE temp.kms1 USING parquet('$TESTDATA/parquet-testing/data/external_key_material_java.parquet.encrypted', master_keys='kf:0123456789012345, kc2:1234567890123451');

query
SELECT count(*), min(strings), max(strings) FROM kms1;
----
100|a0|j99

statement error column 'integers' is encrypted with a key that cannot be unwrapped: master key 'kc1' (KMS instance 'DEFAULT') is not registered
SELECT sum(integers) FROM kms1;

# A wrong master key does not authenticate the key it wraps.
statement error authentication failed for a key wrapped by master key 'kf' (KMS instance 'DEFAULT') (wrong master key, or the key material was altered)
CREATE VIRTUAL TABLE temp.kms2 USING parquet('$TESTDATA/parquet-testing/data/external_key_material_java.parquet.encrypted', master_keys='kf:1234567890123450');

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

# An encrypted footer keeps its algorithm and footer key's metadata in FileCryptoMetaData, not in the
# FileMetaData it encrypts: they are shown as for a plaintext footer (the key id 'kf').
query
SELECT encryption_algorithm, footer_signing_key_metadata, typeof(footer_signing_key_metadata) FROM parquet_file_metadata('$TESTDATA/parquet-testing/data/uniform_encryption.parquet.encrypted');
----
AES_GCM_V1|kf|text

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

# The same ids are master keys: with kf, kc1 and kc2 registered, the file with external key
# material opens like any other (no key in the table's options, so it may live in any database).
statement ok
CREATE VIRTUAL TABLE kms USING parquet('$TESTDATA/parquet-testing/data/external_key_material_java.parquet.encrypted');

query
SELECT count(*), sum(integers), sum(strings = char(97 + integers % 10) || integers), min(strings), max(strings) FROM kms;
----
100|4950|100|a0|j99

query
SELECT count(*) FROM kms WHERE integers > 1000;
----
0

query
SELECT json_extract(parquet_scan_stats('kms'), '$.row_groups_skipped_by_statistics');
----
1

query
SELECT path_in_schema, stats_min, stats_max FROM parquet_metadata('$TESTDATA/parquet-testing/data/external_key_material_java.parquet.encrypted');
----
integers|0|99
strings|NULL|NULL

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

# parquet_file_metadata shows the encrypted footer's algorithm; without a footer key id the file
# stores no key metadata.
query
SELECT encryption_algorithm, footer_signing_key_metadata FROM parquet_file_metadata('$TMPDIR/uniform.parquet', 'footer_key=0123456789012345');
----
AES_GCM_V1|NULL

query
SELECT parquet_export('$TMPDIR/uniform_ctr.parquet', 'SELECT value AS id FROM nums', 'footer_key=0123456789012345, footer_key_id=kctr, encryption_algorithm=ctr');
----
3000

query
SELECT encryption_algorithm, footer_signing_key_metadata FROM parquet_file_metadata('$TMPDIR/uniform_ctr.parquet', 'footer_key=0123456789012345');
----
AES_GCM_CTR_V1|kctr

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

# --------------------------------------------------------------------------------------------------
# Writing with master keys (kf, kc1, kc2 registered above): footer_master_key and column_master_keys
# name them; every file gets fresh random data keys, wrapped as PKMT1 key material, double wrapping
# (data keys under a per-file key-encryption key per master key) by default. key_material=external
# writes _KEY_MATERIAL_FOR_<file name>.json beside the file. Every mode reads back with the master
# keys alone.
query
SELECT count(*), sum(parquet_export('$TMPDIR/mk_w' || w || '_' || m || '_' || c || '.parquet', 'SELECT value AS id, ''s'' || value AS s, value * 0.5 AS h FROM nums', 'row_group_size=1000, footer_master_key=kf, double_wrapping=' || w || ', key_material=' || m || CASE c WHEN 'cols' THEN ', column_master_keys=''s:kc1, h:kc2''' ELSE '' END)) FROM (SELECT column1 AS w FROM (VALUES (0), (1))), (SELECT column1 AS m FROM (VALUES ('internal'), ('external'))), (SELECT column1 AS c FROM (VALUES ('all'), ('cols')));
----
8|24000

statement ok
CREATE VIRTUAL TABLE temp.mk USING parquet('$TMPDIR/mk_*.parquet');

query
SELECT count(*), count(DISTINCT filename), sum(id), sum(s = 's' || id), sum(h * 2 = id) FROM mk;
----
24000|8|36012000|24000|24000

query
SELECT count(*) FROM mk WHERE id > 2990;
----
80

# data_key_length=192|256 draws longer data keys (128 bits by default, as the key tools).
query
SELECT parquet_export('$TMPDIR/mk256.parquet', 'SELECT value AS id FROM nums', 'footer_master_key=kf, data_key_length=256');
----
3000

statement ok
CREATE VIRTUAL TABLE temp.mk256 USING parquet('$TMPDIR/mk256.parquet');

query
SELECT count(*), sum(id) FROM mk256;
----
3000|4501500

statement error option 'data_key_length'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'footer_master_key=kf, data_key_length=512');

# A wrong master key, and a missing one, are named; options are checked.
statement error authentication failed for a key wrapped by master key 'kf'
CREATE VIRTUAL TABLE temp.mk_wrong USING parquet('$TMPDIR/mk_w1_external_all.parquet', master_keys='kf:abcdefghijklmnop');

statement error master key 'nokey' (KMS instance 'DEFAULT') is not registered
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'footer_master_key=nokey');

statement error option 'footer_master_key': cannot be given with footer_key
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'footer_key=0123456789012345, footer_master_key=kf');

statement error option 'column_keys': cannot be given with footer_master_key
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'footer_master_key=kf, column_keys=''a:0123456789012345''');

statement error option 'double_wrapping': needs footer_master_key
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'footer_key=0123456789012345, double_wrapping=0');

statement error option 'key_material'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'footer_master_key=kf, key_material=elsewhere');

statement error column_keys: no column named 'b'
SELECT parquet_export('$TMPDIR/x.parquet', 'SELECT 1 AS a', 'footer_master_key=kf, column_master_keys=''b:kc1''');

# A write table with master keys holds no secret, so it may live in any database; the file appears
# (with its external key material) when the transaction commits.
statement ok
CREATE VIRTUAL TABLE wmk USING parquet('$TMPDIR/wmk.parquet', schema='a INTEGER, b TEXT', footer_master_key=kf, column_master_keys='b:kc1', key_material=external, plaintext_footer=1);

statement ok
INSERT INTO wmk VALUES (1, 'one'), (2, 'two');

statement ok
CREATE VIRTUAL TABLE rwmk USING parquet('$TMPDIR/wmk.parquet');

query
SELECT a, b FROM rwmk ORDER BY a;
----
1|one
2|two

# --------------------------------------------------------------------------------------------------
# Secrets never land in a database file. SQLite keeps a table's options in its database's schema,
# so a table outside temp whose options hold a key (footer_key, column_keys, master_keys) is refused;
# in temp it is fine, and with the keys registered (parquet_add_key, this connection's memory only)
# no option needs to hold one.
statement error parquet table 'sec': option 'footer_key' holds a secret, and SQLite keeps a table's options in its database's schema, where anyone who can read the database file would find it: register keys with parquet_add_key and leave them out of the options, or create the table in temp (CREATE VIRTUAL TABLE temp.sec USING parquet(...))
CREATE VIRTUAL TABLE sec USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted', footer_key='0123456789012345');

statement ok
ATTACH '$TMPDIR/secrets.db' AS disk;

statement error option 'column_keys' holds a secret
CREATE VIRTUAL TABLE disk.sec USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted', column_keys='double_field:1234567890123450');

statement error option 'master_keys' holds a secret
CREATE VIRTUAL TABLE disk.sec USING parquet('$TESTDATA/parquet-testing/data/external_key_material_java.parquet.encrypted', MASTER_KEYS='kf:0123456789012345');

statement error option 'footer_key' holds a secret
CREATE VIRTUAL TABLE disk.wsec USING parquet('$TMPDIR/wsec.parquet', schema='a INTEGER', footer_key='0123456789012345');

# A quoted option name is the same option (as the option list reads it), so the same secret.
statement error option 'footer_key' holds a secret
CREATE VIRTUAL TABLE disk.wsec USING parquet('$TMPDIR/wsec.parquet', schema='a INTEGER', "footer_key"='0123456789012345');

statement error option 'column_keys' holds a secret
CREATE VIRTUAL TABLE disk.sec USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted', [Column_Keys]='double_field:1234567890123450');

statement error option 'footer_key' holds a secret
CREATE VIRTUAL TABLE disk.sec USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted', `footer_key`='0123456789012345');

statement error option 's3_secret_access_key' holds a secret
CREATE VIRTUAL TABLE disk.s3sec USING parquet('s3://bucket/key.parquet', 'S3_Secret_Access_Key'='abc');

statement ok
CREATE VIRTUAL TABLE temp.sec USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted', footer_key='0123456789012345');

statement ok
CREATE VIRTUAL TABLE disk.sec2 USING parquet('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted');

query
SELECT count(*), round(sum(double_field), 4) FROM disk.sec2;
----
50|1361.1111

query
SELECT count(*), sum(instr(sql, '0123456789012345') > 0) FROM disk.sqlite_schema;
----
1|0

statement ok
DETACH disk;

# --------------------------------------------------------------------------------------------------
# The file functions' OPTIONS argument. A file that does not store its AAD prefix cannot be opened
# without it, and a function's only way to be given it is its optional last argument: OPTIONS, a
# 'key=value, ...' string as parquet_export's options, taking the decryption options of a table
# (footer_key, column_keys, master_keys, aad_prefix). The key comes from the registry here (kf).
query
SELECT parquet_add_key('kf', '0123456789012345'), parquet_export('$TMPDIR/fn_aad.parquet', 'SELECT 1 AS a', 'footer_key=0123456789012345, footer_key_id=kf, aad_prefix=myprefix, store_aad_prefix=0, bloom_filter=a, kv_metadata=''origin:fn_aad''');
----
1|1

statement error $TMPDIR/fn_aad.parquet: the file was encrypted with an AAD prefix that it does not store: give it (aad_prefix)
SELECT * FROM parquet_metadata('$TMPDIR/fn_aad.parquet');

statement error $TMPDIR/fn_aad.parquet: the file was encrypted with an AAD prefix that it does not store: give it (aad_prefix)
SELECT * FROM parquet_schema('$TMPDIR/fn_aad.parquet');

statement error $TMPDIR/fn_aad.parquet: the file was encrypted with an AAD prefix that it does not store: give it (aad_prefix)
SELECT * FROM parquet_file_metadata('$TMPDIR/fn_aad.parquet');

statement error $TMPDIR/fn_aad.parquet: the file was encrypted with an AAD prefix that it does not store: give it (aad_prefix)
SELECT * FROM parquet_kv_metadata('$TMPDIR/fn_aad.parquet');

statement error $TMPDIR/fn_aad.parquet: the file was encrypted with an AAD prefix that it does not store: give it (aad_prefix)
SELECT * FROM parquet_page_index('$TMPDIR/fn_aad.parquet');

statement error $TMPDIR/fn_aad.parquet: the file was encrypted with an AAD prefix that it does not store: give it (aad_prefix)
SELECT * FROM parquet_bloom_probe('$TMPDIR/fn_aad.parquet', 'a', 1);

# With it, each opens the file; the hidden column `options` holds the argument.
query
SELECT file_name, num_rows, num_row_groups, options FROM parquet_file_metadata('$TMPDIR/fn_aad.parquet', 'aad_prefix=myprefix');
----
$TMPDIR/fn_aad.parquet|1|1|aad_prefix=myprefix

query
SELECT column_id, name, type FROM parquet_schema('$TMPDIR/fn_aad.parquet', 'aad_prefix=myprefix');
----
0|schema|NULL
1|a|INT64

query
SELECT row_group_num_rows, path_in_schema, num_values, stats_min_value, stats_max_value, has_bloom_filter FROM parquet_metadata('$TMPDIR/fn_aad.parquet', 'aad_prefix=myprefix');
----
1|a|1|1|1|1

query
SELECT key, value FROM parquet_kv_metadata('$TMPDIR/fn_aad.parquet', 'aad_prefix=myprefix');
----
origin|fn_aad

query
SELECT row_group_id, path_in_schema, page_number, row_count, min_value, max_value, options FROM parquet_page_index('$TMPDIR/fn_aad.parquet', 'aad_prefix=myprefix');
----
0|a|0|1|1|1|aad_prefix=myprefix

query
SELECT row_group_id, bloom_filter_excludes, options FROM parquet_bloom_probe('$TMPDIR/fn_aad.parquet', 'a', 1, 'aad_prefix=myprefix');
----
0|0|aad_prefix=myprefix

query
SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('$TMPDIR/fn_aad.parquet', 'a', 2, 'aad_prefix=myprefix');
----
0|1

# A wrong prefix does not authenticate.
statement error $TMPDIR/fn_aad.parquet: authentication failed for footer (wrong key, wrong AAD prefix, or the file was altered)
SELECT * FROM parquet_metadata('$TMPDIR/fn_aad.parquet', 'aad_prefix=otherprefix');

statement error $TMPDIR/fn_aad.parquet: authentication failed for footer (wrong key, wrong AAD prefix, or the file was altered)
SELECT * FROM parquet_schema('$TMPDIR/fn_aad.parquet', 'aad_prefix=otherprefix');

statement error $TMPDIR/fn_aad.parquet: authentication failed for footer (wrong key, wrong AAD prefix, or the file was altered)
SELECT * FROM parquet_file_metadata('$TMPDIR/fn_aad.parquet', 'aad_prefix=otherprefix');

statement error $TMPDIR/fn_aad.parquet: authentication failed for footer (wrong key, wrong AAD prefix, or the file was altered)
SELECT * FROM parquet_kv_metadata('$TMPDIR/fn_aad.parquet', 'aad_prefix=otherprefix');

statement error $TMPDIR/fn_aad.parquet: authentication failed for footer (wrong key, wrong AAD prefix, or the file was altered)
SELECT * FROM parquet_page_index('$TMPDIR/fn_aad.parquet', 'aad_prefix=otherprefix');

statement error $TMPDIR/fn_aad.parquet: authentication failed for footer (wrong key, wrong AAD prefix, or the file was altered)
SELECT * FROM parquet_bloom_probe('$TMPDIR/fn_aad.parquet', 'a', 1, 'aad_prefix=otherprefix');

# An option a table does not take for its keys is an error naming it (not its value).
statement error parquet_metadata: unknown parquet_metadata option 'aad_prefx'
SELECT * FROM parquet_metadata('$TMPDIR/fn_aad.parquet', 'aad_prefx=myprefix');

statement error parquet_schema: unknown parquet_schema option 'aad_prefx'
SELECT * FROM parquet_schema('$TMPDIR/fn_aad.parquet', 'aad_prefx=myprefix');

statement error parquet_file_metadata: unknown parquet_file_metadata option 'aad_prefx'
SELECT * FROM parquet_file_metadata('$TMPDIR/fn_aad.parquet', 'aad_prefx=myprefix');

statement error parquet_kv_metadata: unknown parquet_kv_metadata option 'aad_prefx'
SELECT * FROM parquet_kv_metadata('$TMPDIR/fn_aad.parquet', 'aad_prefx=myprefix');

statement error parquet_page_index: unknown parquet_page_index option 'aad_prefx'
SELECT * FROM parquet_page_index('$TMPDIR/fn_aad.parquet', 'aad_prefx=myprefix');

statement error parquet_bloom_probe: unknown parquet_bloom_probe option 'aad_prefx'
SELECT * FROM parquet_bloom_probe('$TMPDIR/fn_aad.parquet', 'a', 1, 'aad_prefx=myprefix');

# A table's options that are not about keys are not the functions'.
statement error parquet_metadata: unknown parquet_metadata option 'binary_as_string'
SELECT * FROM parquet_metadata('$TMPDIR/fn_aad.parquet', 'aad_prefix=myprefix, binary_as_string=1');

# Explicit keys in OPTIONS win over the registry, as a table's do.
statement error $TMPDIR/fn_aad.parquet: authentication failed for footer
SELECT * FROM parquet_file_metadata('$TMPDIR/fn_aad.parquet', 'footer_key=abcdefghijklmnop, aad_prefix=myprefix');

query
SELECT num_rows FROM parquet_file_metadata('$TMPDIR/fn_aad.parquet', 'footer_key=0123456789012345, aad_prefix=myprefix');
----
1

# NULL options are none; the options may come from another table, as the path may; two different
# options give no rows (no file opened), as two different paths do.
statement error give it (aad_prefix)
SELECT * FROM parquet_file_metadata('$TMPDIR/fn_aad.parquet', NULL);

query
SELECT f.o, m.num_rows FROM (SELECT 'aad_prefix=myprefix' AS o) f, parquet_file_metadata('$TMPDIR/fn_aad.parquet', f.o) m;
----
aad_prefix=myprefix|1

query
SELECT f.o, p.row_group_id, p.bloom_filter_excludes FROM (SELECT 'aad_prefix=myprefix' AS o) f, parquet_bloom_probe('$TMPDIR/fn_aad.parquet', 'a', 1, f.o) p;
----
aad_prefix=myprefix|0|0

query
SELECT count(*) FROM parquet_schema('$TMPDIR/fn_aad.parquet', 'aad_prefix=myprefix') WHERE options = 'aad_prefix=otherprefix';
----
0

query
SELECT count(*) FROM parquet_page_index('$TMPDIR/fn_aad.parquet', 'aad_prefix=myprefix') WHERE options = 'aad_prefix=otherprefix';
----
0

query
SELECT count(*) FROM parquet_bloom_probe('$TMPDIR/fn_aad.parquet', 'a', 1, 'aad_prefix=myprefix') WHERE options = 'aad_prefix=myprefix';
----
1

# The conformance file that does not store its prefix ('tester'), with kf, kc1 and kc2 registered.
statement error give it (aad_prefix)
SELECT count(*) FROM parquet_metadata('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted');

query
SELECT row_group_num_rows, path_in_schema, stats_min, stats_max FROM parquet_metadata('$TESTDATA/parquet-testing/data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted', 'aad_prefix=tester') WHERE path_in_schema IN ('int64_field', 'double_field', 'float_field');
----
50|int64_field|0|99000000000000
50|float_field|-0.0|53.900001525878906
50|double_field|-0.0|54.4444439
