# Creating parquet tables: sources, options, hidden columns, and the errors a user can meet.

# Options are checked by name, value and count.
statement error unknown parquet table option 'decimals'
CREATE VIRTUAL TABLE t USING parquet('tests/data/types.parquet', decimals=text);

statement error option 'decimal' is given more than once
CREATE VIRTUAL TABLE t USING parquet('tests/data/types.parquet', decimal=text, decimal=real);

statement error option 'decimal' must be one of real, text, not 'exact'
CREATE VIRTUAL TABLE t USING parquet('tests/data/types.parquet', decimal=exact);

statement error option 'verify_checksums' expects a boolean (0/1), not 'maybe'
CREATE VIRTUAL TABLE t USING parquet('tests/data/types.parquet', verify_checksums=maybe);

statement error option 'binary_as_string' is not of the form key=value
CREATE VIRTUAL TABLE t USING parquet('tests/data/types.parquet', binary_as_string);

# An option quoted as a whole reaches the module with its quotes: the error says so (naming the option,
# never a value), rather than calling a known option unknown.
statement error option 'binary_as_string' is written inside quotes: write each option as key=value, not in quotes as a whole
CREATE VIRTUAL TABLE t USING parquet('tests/data/types.parquet', 'binary_as_string=1');

statement error option 'decimal' is written inside quotes
CREATE VIRTUAL TABLE t USING parquet('tests/data/types.parquet', "decimal=text");

statement error an option is written inside quotes
CREATE VIRTUAL TABLE t USING parquet('tests/data/types.parquet', 'not a name=1');

statement error a file path is required
CREATE VIRTUAL TABLE t USING parquet;

# parquet(...) is not a table-valued function (DuckDB's read_parquet is): the error says what to do.
statement error parquet(...) is not a table-valued function; create a table over the files first, then query it: CREATE VIRTUAL TABLE temp.t USING parquet('file.parquet'); SELECT count(*) FROM t;
SELECT count(*) FROM parquet('tests/data/types.parquet');

# Files that are missing, empty, not Parquet, or a folder.
statement error cannot open 'tests/data/missing.parquet': No such file or directory
CREATE VIRTUAL TABLE t USING parquet('tests/data/missing.parquet');

statement error not a Parquet file
CREATE VIRTUAL TABLE t USING parquet('README.md');

statement error 'tests/data' is a directory, not a Parquet file (its files are read with a glob: 'tests/data/*.parquet')
CREATE VIRTUAL TABLE t USING parquet('tests/data');

# A second path as an option, and a writer option on a read table: the errors say what is meant.
statement error an option is not of the form key=value: it looks like a second path, and several files go in the first argument, comma-separated
CREATE VIRTUAL TABLE t USING parquet('tests/data/types.parquet', 'tests/data/types.parquet');

statement error unknown parquet table option 'compression' (a writer option: a write table, created with schema=, takes it, and parquet_export)
CREATE VIRTUAL TABLE t USING parquet('tests/data/types.parquet', compression=zstd);

statement error no file matches 'tests/data/*.nothing'
CREATE VIRTUAL TABLE t USING parquet('tests/data/*.nothing');

# Hidden columns: filename and file_row_number; rowid is the position in the dataset.
statement ok
CREATE VIRTUAL TABLE p USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');

query
SELECT rowid, file_row_number, id, filename = '$TESTDATA/parquet-testing/data/alltypes_plain.parquet' FROM p LIMIT 3;
----
0|0|4|1
1|1|5|1
2|2|6|1

query
SELECT count(*) FROM pragma_table_info('p');
----
11

# A file whose columns are named like the hidden columns opens, and its columns read under their
# names; the hidden columns step aside: '_' goes before their names until they are free.
query
SELECT parquet_export('$TMPDIR/named_like_hidden.parquet', 'SELECT ''a.csv'' AS filename, 7 AS file_row_number, 1 AS _filename UNION ALL SELECT ''b.csv'', 8, 2');
----
2

statement ok
CREATE VIRTUAL TABLE temp.nh USING parquet('$TMPDIR/named_like_hidden.parquet');

query
SELECT filename, file_row_number, _filename, __filename = '$TMPDIR/named_like_hidden.parquet', _file_row_number FROM nh;
----
a.csv|7|1|1|0
b.csv|8|2|1|1

query
SELECT name, hidden FROM pragma_table_xinfo('nh');
----
filename|0
file_row_number|0
_filename|0
__filename|1
_file_row_number|1

# Pushdown on the renamed hidden columns works as on the default ones.
query
SELECT filename FROM nh WHERE _file_row_number = 1;
----
b.csv

# filename=NAME and file_row_number=NAME name them (DuckDB's read_parquet has filename= too; true
# or 1 there means the default name).
statement ok
CREATE VIRTUAL TABLE temp.nh2 USING parquet('$TMPDIR/named_like_hidden.parquet', filename=source_file, file_row_number='row in file');

query
SELECT filename, source_file = '$TMPDIR/named_like_hidden.parquet', "row in file" FROM nh2;
----
a.csv|1|0
b.csv|1|1

statement ok
CREATE VIRTUAL TABLE temp.p2 USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet', filename=true);

query
SELECT count(filename) FROM p2;
----
8

statement error option 'filename': 'file_row_number' is already a column of the table
CREATE VIRTUAL TABLE temp.nh3 USING parquet('$TMPDIR/named_like_hidden.parquet', filename=file_row_number);

statement error option 'file_row_number': 'SRC' is already a column of the table
CREATE VIRTUAL TABLE temp.nh3 USING parquet('$TMPDIR/named_like_hidden.parquet', filename=src, file_row_number=SRC);

statement error option 'filename' names the hidden column, which is always there: filename=NAME
CREATE VIRTUAL TABLE temp.nh3 USING parquet('$TMPDIR/named_like_hidden.parquet', filename=0);

# An empty name is a mistake, not the default.
statement error option 'file_row_number' is empty: give the hidden column's name (file_row_number=NAME), or leave the option out for the name 'file_row_number'
CREATE VIRTUAL TABLE temp.nh3 USING parquet('$TMPDIR/named_like_hidden.parquet', file_row_number='');

statement error option 'filename' is empty
CREATE VIRTUAL TABLE temp.nh3 USING parquet('$TMPDIR/named_like_hidden.parquet', filename= );

# Several files in one table: a comma list, and a glob; rowid continues across files.
statement ok
CREATE VIRTUAL TABLE two USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet, $TESTDATA/parquet-testing/data/alltypes_plain.snappy.parquet');

query
SELECT count(*), count(DISTINCT filename), max(rowid) FROM two;
----
10|2|9

query
SELECT rowid, file_row_number, id FROM two WHERE rowid >= 7;
----
7|7|1
8|0|6
9|1|7

statement ok
CREATE VIRTUAL TABLE globbed USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain*.parquet');

query
SELECT count(*), count(DISTINCT filename) FROM globbed;
----
10|2

# Files with different columns cannot share a table.
statement error does not have the same columns
CREATE VIRTUAL TABLE mixed USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet, $TESTDATA/parquet-testing/data/nulls.snappy.parquet');

# Read-only: the table cannot be modified, and DROP TABLE leaves the file in place.
statement error parquet table is read-only
DELETE FROM p;

# The error of an INSERT says that a write table makes a new file, replacing an existing one whole.
statement error parquet table is read-only, and Parquet files cannot be appended to: to write rows, create a write table (schema=...) for a new file; over an existing file it replaces the whole file at COMMIT
INSERT INTO p SELECT * FROM p LIMIT 1;

statement ok
DROP TABLE p;

statement ok
CREATE VIRTUAL TABLE p USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');

query
SELECT count(*) FROM p;
----
8

# SQLITE_VTAB_DIRECTONLY: views and triggers cannot read parquet tables, so a database file written
# by someone else cannot make this connection read files.
statement ok
CREATE VIEW v AS SELECT id FROM p;

statement error unsafe use of virtual table "p"
SELECT * FROM v;

# A TEMP view belongs to this connection, not to a database file, so it may read parquet tables:
# those of any schema, as SQLite lets a TEMP view name them.
statement ok
CREATE TEMP VIEW tv AS SELECT id FROM p WHERE id > 3;

query
SELECT count(*), min(id) FROM tv;
----
4|4

statement ok
CREATE VIRTUAL TABLE temp.tp USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');

statement ok
CREATE TEMP VIEW tv2 AS SELECT a.id FROM tp AS a JOIN p AS b ON a.id = b.id;

query
SELECT count(*) FROM tv2;
----
8

# A view in the main schema cannot name a temp table (SQLite resolves it in its own schema).
statement ok
CREATE VIEW v2 AS SELECT id FROM tp;

statement error no such table: main.tp
SELECT * FROM v2;

# Self-joins: several cursors on one table at once.
query
SELECT count(*) FROM p AS a JOIN p AS b ON a.id = b.id;
----
8

# Checksums: verified by default, the error names the column and page; verify_checksums=0 reads.
statement ok
CREATE VIRTUAL TABLE bad_crc USING parquet('$TESTDATA/parquet-testing/data/datapage_v1-corrupt-checksum.parquet');

statement error $TESTDATA/parquet-testing/data/datapage_v1-corrupt-checksum.parquet, row group 0, column 'a', page 0: page checksum mismatch
SELECT a FROM bad_crc;

statement ok
CREATE VIRTUAL TABLE bad_crc_ok USING parquet('$TESTDATA/parquet-testing/data/datapage_v1-corrupt-checksum.parquet', verify_checksums=0);

query
SELECT count(a), count(b) FROM bad_crc_ok;
----
5120|5120

# max_memory caps what the table's scans hold at once in column chunk bytes and decompressed pages
# (MiB, default 4096): a scan that needs more fails with an error saying so instead of allocating it.
query
SELECT parquet_export('$TMPDIR/wide_chunk.parquet', 'WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 300000) SELECT i * 2654435761 % 1000000007 AS hc FROM k', 'compression=uncompressed, dictionary=0');
----
300000

statement ok
CREATE VIRTUAL TABLE temp.tight USING parquet('$TMPDIR/wide_chunk.parquet', max_memory=1);

statement error over its limit of 1048576 (table option max_memory, in MiB)
SELECT sum(hc) FROM tight;

statement ok
CREATE VIRTUAL TABLE temp.roomy USING parquet('$TMPDIR/wide_chunk.parquet', max_memory=16);

query
SELECT count(*), count(DISTINCT hc) = count(*) FROM roomy;
----
300000|1

statement error option 'max_memory'
CREATE VIRTUAL TABLE temp.bad_mm USING parquet('$TMPDIR/wide_chunk.parquet', max_memory=0);

# threads=N: N-1 workers per table decompress each column's next page while the current one is
# decoded. The answers are the same as with threads=1, on a file of many small zstd
# pages with NULLs, dictionaries and a page index, for full scans, filters, page-index lookups and
# LIMIT/OFFSET; an encrypted file is read ahead too.
statement ok
CREATE TABLE tn AS WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 60000)
SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE 'v' || (i % 97) END AS s, i * 0.25 AS d,
       i * 2654435761 % 1000000007 AS hc FROM k;

query
SELECT parquet_export('$TMPDIR/threads.parquet', 'SELECT * FROM tn', 'compression=zstd, page_size=2048, row_group_size=25000');
----
60000

statement ok
CREATE VIRTUAL TABLE th1 USING parquet('$TMPDIR/threads.parquet', threads=1);

statement ok
CREATE VIRTUAL TABLE th4 USING parquet('$TMPDIR/threads.parquet', threads=4);

query
SELECT count(*), count(s), sum(id), sum(d), sum(hc), max(s) FROM th4;
----
60000|51429|1800030000|450007500.0|30000426592217|v96

query
SELECT count(*) FROM (SELECT * FROM th4 EXCEPT SELECT * FROM tn);
----
0

query
SELECT count(*) FROM (SELECT * FROM tn EXCEPT SELECT * FROM th4);
----
0

query
SELECT (SELECT group_concat(id) FROM th4 WHERE s = 'v5') = (SELECT group_concat(id) FROM th1 WHERE s = 'v5'),
       (SELECT count(*) FROM th4 WHERE s = 'v5');
----
1|531

query
SELECT id, s, d FROM th4 WHERE id IN (3, 25001, 59999) ORDER BY id;
----
3|v3|0.75
25001|v72|6250.25
59999|v53|14999.75

query
SELECT group_concat(id) FROM (SELECT id FROM th4 LIMIT 5 OFFSET 41000);
----
41001,41002,41003,41004,41005

query
SELECT parquet_export('$TMPDIR/threads_enc.parquet', 'SELECT * FROM tn', 'compression=zstd, page_size=2048, footer_key=00112233445566778899aabbccddeeff');
----
60000

statement ok
CREATE VIRTUAL TABLE temp.th_enc USING parquet('$TMPDIR/threads_enc.parquet', threads=2, footer_key='00112233445566778899aabbccddeeff');

query
SELECT count(*), count(s), sum(id), sum(hc) FROM th_enc;
----
60000|51429|1800030000|30000426592217

statement error option 'threads'
CREATE VIRTUAL TABLE th0 USING parquet('$TMPDIR/threads.parquet', threads=0);

statement error option 'threads'
CREATE VIRTUAL TABLE th65 USING parquet('$TMPDIR/threads.parquet', threads=65);

# page_cache=MIB: decompressed pages kept for lookups that land on them again. A join probes the
# table once per outer row through the page index; its answers are those of the native table with
# the cache (default), with a cache so small that pages are evicted as the join runs, and without
# one, also for the encrypted file and run twice.
statement ok
CREATE TABLE probes AS WITH RECURSIVE k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < 1500)
SELECT (j * 7919) % 60000 + 1 AS id FROM k;

statement ok
CREATE VIRTUAL TABLE pc_default USING parquet('$TMPDIR/threads.parquet');

statement ok
CREATE VIRTUAL TABLE pc_tiny USING parquet('$TMPDIR/threads.parquet', page_cache=1, max_memory=4);

statement ok
CREATE VIRTUAL TABLE pc_none USING parquet('$TMPDIR/threads.parquet', page_cache=0);

statement ok
CREATE VIRTUAL TABLE temp.pc_enc USING parquet('$TMPDIR/threads_enc.parquet', footer_key='00112233445566778899aabbccddeeff');

query
SELECT count(*), sum(t.hc), sum(t.d), count(t.s), group_concat(t.s, '') = (SELECT group_concat(n.s, '') FROM probes p JOIN tn n ON n.id = p.id)
FROM probes p JOIN pc_default t ON t.id = p.id;
----
1500|750771801095|11253937.5|1285|1

query
SELECT (SELECT sum(t.hc) FROM probes p JOIN pc_default t ON t.id = p.id),
       (SELECT sum(t.hc) FROM probes p JOIN pc_tiny t ON t.id = p.id),
       (SELECT sum(t.hc) FROM probes p JOIN pc_tiny t ON t.id = p.id),
       (SELECT sum(t.hc) FROM probes p JOIN pc_none t ON t.id = p.id),
       (SELECT sum(t.hc) FROM probes p JOIN pc_enc t ON t.id = p.id),
       (SELECT sum(t.hc) FROM probes p JOIN pc_enc t ON t.id = p.id),
       (SELECT sum(n.hc) FROM probes p JOIN tn n ON n.id = p.id);
----
750771801095|750771801095|750771801095|750771801095|750771801095|750771801095|750771801095

query
SELECT count(*) FROM (SELECT t.* FROM probes p JOIN pc_tiny t ON t.id = p.id EXCEPT SELECT n.* FROM probes p JOIN tn n ON n.id = p.id);
----
0

# parquet_scan_stats says where pages came from: a point query run again finds its pages (one per
# column, from the page index) in the cache; without a cache it reads them again; a full scan with
# threads=4 has pages loaded ahead, and one with threads=1 none.
statement ok
CREATE VIRTUAL TABLE pc_stats USING parquet('$TMPDIR/threads.parquet');

statement ok
SELECT * FROM pc_stats WHERE id = 12345;

query
SELECT json_extract(parquet_scan_stats('pc_stats'), '$.pages_from_cache');
----
0

statement ok
SELECT * FROM pc_stats WHERE id = 12345;

query
SELECT json_extract(s, '$.pages_from_cache'), json_extract(s, '$.pages_read') FROM (SELECT parquet_scan_stats('pc_stats') AS s);
----
4|4

statement ok
SELECT * FROM pc_none WHERE id = 12345;

statement ok
SELECT * FROM pc_none WHERE id = 12345;

query
SELECT json_extract(s, '$.pages_from_cache'), json_extract(s, '$.pages_read') FROM (SELECT parquet_scan_stats('pc_none') AS s);
----
0|4

statement ok
SELECT sum(hc) FROM th4;

query
SELECT json_extract(s, '$.pages_read_ahead') > json_extract(s, '$.pages_read') / 2, json_extract(s, '$.pages_from_cache') FROM (SELECT parquet_scan_stats('th4') AS s);
----
1|0

statement ok
SELECT sum(hc) FROM th1;

query
SELECT json_extract(parquet_scan_stats('th1'), '$.pages_read_ahead');
----
0

statement error option 'page_cache'
CREATE VIRTUAL TABLE pc_bad USING parquet('$TMPDIR/threads.parquet', page_cache=-1);
