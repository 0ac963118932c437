# parquet_page_index(path): one row per page of every column chunk that has a page index (OffsetIndex:
# where each data page is and the row it starts at; ColumnIndex: each page's min/max and null count).
# Expected rows were checked against the data read back through the `parquet` table (below: every
# page's row range holds exactly the rows whose min and max the index states) and, for the writer's
# files, against the rows written.

# --------------------------------------------------------------------------------------------------
# alltypes_tiny_pages.parquet: one row group of 7300 rows, pages of about 20 rows, an OffsetIndex on
# every column and a ColumnIndex on all but timestamp_col (INT96).

query
SELECT file_name, path, row_group_id, column_id, path_in_schema, page_number, first_row_index, row_count,
       offset, compressed_page_size, null_page, null_count, min_value, max_value, boundary_order
FROM parquet_page_index('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet') LIMIT 3;
----
$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet|$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet|0|0|id|0|0|21|4|109|0|0|122|142|UNORDERED
$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet|$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet|0|0|id|1|21|21|113|109|0|0|98|145|UNORDERED
$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet|$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet|0|0|id|2|42|21|222|109|0|0|116|185|UNORDERED

# Pages per column; in each chunk the row counts add up to the row group's 7300 rows.
query
SELECT column_id, path_in_schema, count(*), sum(row_count), min(first_row_index), max(first_row_index)
FROM parquet_page_index('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet')
GROUP BY column_id ORDER BY column_id;
----
0|id|325|7300|0|7284
1|bool_col|82|7300|0|7290
2|tinyint_col|325|7300|0|7284
3|smallint_col|325|7300|0|7284
4|int_col|325|7300|0|7284
5|bigint_col|528|7300|0|7297
6|float_col|325|7300|0|7284
7|double_col|528|7300|0|7297
8|date_string_col|974|7300|0|7297
9|string_col|352|7300|0|7290
10|timestamp_col|1055|7300|0|7297
11|year|325|7300|0|7284
12|month|325|7300|0|7284

# Pages are in index order, each starting where the previous one ended; page_number counts from 0.
query
SELECT count(*),
       sum(first_row_index <= prev_first),
       sum(first_row_index != prev_first + prev_count),
       sum(page_number != prev_page + 1)
FROM (SELECT page_number, first_row_index,
             lag(first_row_index) OVER w AS prev_first, lag(row_count) OVER w AS prev_count,
             lag(page_number) OVER w AS prev_page
      FROM parquet_page_index('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet')
      WINDOW w AS (PARTITION BY row_group_id, column_id ORDER BY page_number))
WHERE prev_first IS NOT NULL;
----
5781|0|0|0

# Page offsets increase too, and the pages of a chunk lie back to back.
query
SELECT sum(offset <= prev_offset), sum(offset != prev_offset + prev_size)
FROM (SELECT offset, lag(offset) OVER w AS prev_offset, lag(compressed_page_size) OVER w AS prev_size
      FROM parquet_page_index('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet')
      WINDOW w AS (PARTITION BY row_group_id, column_id ORDER BY page_number))
WHERE prev_offset IS NOT NULL;
----
0|0

# timestamp_col has an OffsetIndex only: the ColumnIndex columns are NULL.
query
SELECT page_number, first_row_index, row_count, null_page, null_count, min_value, max_value, boundary_order
FROM parquet_page_index('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet')
WHERE path_in_schema = 'timestamp_col' LIMIT 2;
----
0|0|7|NULL|NULL|NULL|NULL|NULL
1|7|7|NULL|NULL|NULL|NULL|NULL

# A few pages against the data: the min and max of each page's rows, read through the table (rowid
# is the row's position, and this file has one row group).
statement ok
CREATE VIRTUAL TABLE temp.tiny USING parquet('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet');

query
SELECT page_number, first_row_index, row_count, min_value, max_value, typeof(min_value)
FROM parquet_page_index('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet')
WHERE path_in_schema = 'id' AND page_number IN (0, 1, 100, 324);
----
0|0|21|122|142|integer
1|21|21|98|145|integer
100|2244|27|1223|1261|integer
324|7284|16|6174|6189|integer

query
SELECT min(id), max(id), count(*) FROM tiny WHERE rowid >= 0 AND rowid < 21;
----
122|142|21

query
SELECT min(id), max(id), count(*) FROM tiny WHERE rowid >= 21 AND rowid < 42;
----
98|145|21

query
SELECT min(id), max(id), count(*) FROM tiny WHERE rowid >= 2100 AND rowid < 2121;
----
960|1305|21

query
SELECT min(id), max(id), count(*) FROM tiny WHERE rowid >= 7284 AND rowid < 7300;
----
6174|6189|16

# Bounds are typed like the column's values. The writer stored a zero lower bound of double_col as
# -0.0, as the spec asks for floating-point zeros (the data holds 0.0; -0.0 = 0.0 in SQL).
query
SELECT page_number, first_row_index, row_count, min_value, max_value, typeof(min_value)
FROM parquet_page_index('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet')
WHERE path_in_schema IN ('bigint_col', 'double_col', 'string_col') AND page_number = 3;
----
3|42|14|0|90|integer
3|42|14|-0.0|90.89999999999999|real
3|63|21|0|9|text

query
SELECT min(bigint_col), max(bigint_col) FROM tiny WHERE rowid >= 42 AND rowid < 56;
----
0|90

query
SELECT min(double_col), max(double_col) FROM tiny WHERE rowid >= 42 AND rowid < 56;
----
0.0|90.89999999999999

query
SELECT min(string_col), max(string_col) FROM tiny WHERE rowid >= 63 AND rowid < 84;
----
0|9

# Every page of id, bigint_col and date_string_col: each row is given the page whose row range holds
# it; per page, the rows' count, min and max are the index's row_count, min_value and max_value.
statement ok
CREATE TEMP TABLE pages AS
SELECT path_in_schema AS col, page_number, first_row_index AS first, row_count, min_value, max_value
FROM parquet_page_index('$TESTDATA/parquet-testing/data/alltypes_tiny_pages.parquet')
WHERE path_in_schema IN ('id', 'bigint_col', 'date_string_col');

statement ok
CREATE INDEX temp.pages_first ON pages(col, first);

query
SELECT p.col, count(*), sum(d.n = p.row_count AND d.mn = p.min_value AND d.mx = p.max_value)
FROM pages p JOIN (
  SELECT 'id' AS col, (SELECT page_number FROM pages WHERE col = 'id' AND first <= tiny.rowid
                       ORDER BY first DESC LIMIT 1) AS page, count(*) AS n, min(id) AS mn, max(id) AS mx
  FROM tiny GROUP BY page
  UNION ALL
  SELECT 'bigint_col', (SELECT page_number FROM pages WHERE col = 'bigint_col' AND first <= tiny.rowid
                        ORDER BY first DESC LIMIT 1) AS page, count(*), min(bigint_col), max(bigint_col)
  FROM tiny GROUP BY page
  UNION ALL
  SELECT 'date_string_col', (SELECT page_number FROM pages WHERE col = 'date_string_col'
                             AND first <= tiny.rowid ORDER BY first DESC LIMIT 1) AS page,
         count(*), min(date_string_col), max(date_string_col)
  FROM tiny GROUP BY page) d ON d.col = p.col AND d.page = p.page_number
GROUP BY p.col ORDER BY p.col;
----
bigint_col|528|528
date_string_col|974|974
id|325|325

# --------------------------------------------------------------------------------------------------
# The writer's page index: several row groups, a sorted column (ASCENDING), NULLs, and a chunk of
# NULLs only, whose one page is a null page (min and max NULL: the spec says to ignore them).

statement ok
SELECT parquet_export('$TMPDIR/pages.parquet',
  'WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < 299)
   SELECT x AS id, CASE WHEN x < 150 THEN NULL ELSE x * 10 END AS v,
          CASE WHEN x % 3 = 0 THEN NULL ELSE ''s'' || (x + 1000) END AS s FROM n',
  'row_group_size=150, page_size=256, dictionary=0, encoding_trial=0, schema=''v INTEGER''');

query
SELECT row_group_id, column_id, path_in_schema, page_number, first_row_index, row_count, null_page,
       null_count, min_value, max_value, boundary_order
FROM parquet_page_index('$TMPDIR/pages.parquet');
----
0|0|id|0|0|30|0|0|0|29|ASCENDING
0|0|id|1|30|30|0|0|30|59|ASCENDING
0|0|id|2|60|30|0|0|60|89|ASCENDING
0|0|id|3|90|30|0|0|90|119|ASCENDING
0|0|id|4|120|30|0|0|120|149|ASCENDING
0|1|v|0|0|150|1|150|NULL|NULL|ASCENDING
0|2|s|0|0|41|0|14|s1001|s1040|ASCENDING
0|2|s|1|41|41|0|14|s1041|s1080|ASCENDING
0|2|s|2|82|40|0|13|s1082|s1121|ASCENDING
0|2|s|3|122|28|0|9|s1122|s1149|ASCENDING
1|0|id|0|0|30|0|0|150|179|ASCENDING
1|0|id|1|30|30|0|0|180|209|ASCENDING
1|0|id|2|60|30|0|0|210|239|ASCENDING
1|0|id|3|90|30|0|0|240|269|ASCENDING
1|0|id|4|120|30|0|0|270|299|ASCENDING
1|1|v|0|0|30|0|0|1500|1790|ASCENDING
1|1|v|1|30|30|0|0|1800|2090|ASCENDING
1|1|v|2|60|30|0|0|2100|2390|ASCENDING
1|1|v|3|90|30|0|0|2400|2690|ASCENDING
1|1|v|4|120|30|0|0|2700|2990|ASCENDING
1|2|s|0|0|41|0|14|s1151|s1190|ASCENDING
1|2|s|1|41|41|0|14|s1191|s1230|ASCENDING
1|2|s|2|82|40|0|13|s1232|s1271|ASCENDING
1|2|s|3|122|28|0|9|s1272|s1299|ASCENDING

# NULL counts per chunk agree with the data.
statement ok
CREATE VIRTUAL TABLE temp.pages_t USING parquet('$TMPDIR/pages.parquet');

query
SELECT row_group_id, path_in_schema, sum(null_count)
FROM parquet_page_index('$TMPDIR/pages.parquet') WHERE path_in_schema != 'id'
GROUP BY 1, 2 ORDER BY 1, 2;
----
0|s|50
0|v|150
1|s|50
1|v|0

query
SELECT rowid / 150, count(*) - count(v), count(*) - count(s) FROM pages_t GROUP BY 1 ORDER BY 1;
----
0|150|50
1|0|50

# Without a page index (page_index=0, or an old file) a chunk has no rows.
statement ok
SELECT parquet_export('$TMPDIR/no_index.parquet', 'SELECT 1 AS a', 'page_index=0');

query
SELECT count(*) FROM parquet_page_index('$TMPDIR/no_index.parquet');
----
0

query
SELECT count(*) FROM parquet_page_index('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');
----
0

# int32_with_null_pages.parquet: page 2 holds 100 NULLs and nothing else: a null page, no bounds.
query
SELECT page_number, first_row_index, row_count, null_page, null_count, min_value, max_value, boundary_order
FROM parquet_page_index('$TESTDATA/parquet-testing/data/int32_with_null_pages.parquet');
----
0|0|100|0|8|-2135807632|2144701119|UNORDERED
1|100|100|0|55|-2104090659|1745329571|UNORDERED
2|200|100|1|100|NULL|NULL|UNORDERED
3|300|100|0|52|-2116849709|2077105757|UNORDERED
4|400|100|0|16|-2048691758|2143189382|UNORDERED
5|500|100|0|12|-2017923401|2087827129|UNORDERED
6|600|100|0|5|-2136906554|2125689411|UNORDERED
7|700|100|0|7|-2113313110|2145722375|UNORDERED
8|800|100|0|8|-2046900272|2087168549|UNORDERED
9|900|100|0|12|-1941944785|2078586537|UNORDERED

statement ok
CREATE VIRTUAL TABLE temp.null_pages USING parquet('$TESTDATA/parquet-testing/data/int32_with_null_pages.parquet');

query
SELECT rowid / 100, min(int32_field), max(int32_field), count(*) - count(int32_field)
FROM null_pages GROUP BY 1 ORDER BY 1;
----
0|-2135807632|2144701119|8
1|-2104090659|1745329571|55
2|NULL|NULL|100
3|-2116849709|2077105757|52
4|-2048691758|2143189382|16
5|-2017923401|2087827129|12
6|-2136906554|2125689411|5
7|-2113313110|2145722375|7
8|-2046900272|2087168549|8
9|-1941944785|2078586537|12

# FIXED_LEN_BYTE_ARRAY without annotation: bounds are BLOBs (as the table reads the column);
# the pages are in DESCENDING order.
query
SELECT page_number, first_row_index, row_count, null_count, hex(min_value), hex(max_value), boundary_order
FROM parquet_page_index('$TESTDATA/parquet-testing/data/fixed_length_byte_array.parquet') LIMIT 3;
----
0|0|100|9|00000385|000003E8|DESCENDING
1|100|100|9|00000321|00000384|DESCENDING
2|200|100|19|000002BD|00000320|DESCENDING

statement ok
CREATE VIRTUAL TABLE temp.flba USING parquet('$TESTDATA/parquet-testing/data/fixed_length_byte_array.parquet');

query
SELECT hex(min(flba_field)), hex(max(flba_field)) FROM flba WHERE rowid < 100;
----
00000385|000003E8

# Nested columns: leaves are named by their dotted path, and pages count rows, not values.
query
SELECT column_id, path_in_schema, page_number, first_row_index, row_count, null_page
FROM parquet_page_index('$TESTDATA/parquet-testing/data/map_no_value.parquet');
----
0|my_map.key_value.key|0|0|3|NULL
1|my_map.key_value.value|0|0|3|NULL
2|my_map_no_v.key_value.key|0|0|3|NULL
3|my_list.list.element|0|0|3|NULL

# --------------------------------------------------------------------------------------------------
# Errors

statement error parquet_page_index requires arguments (path)
SELECT * FROM parquet_page_index;

statement error parquet_page_index requires arguments (path)
SELECT * FROM parquet_page_index(NULL);

# The optional second argument is OPTIONS, the decryption options of a table (encryption.sql).
statement error parquet_page_index requires arguments (path)
SELECT * FROM parquet_page_index WHERE options = 'aad_prefix=x';

statement error parquet_page_index: unknown parquet_page_index option 'threads'
SELECT * FROM parquet_page_index('$TMPDIR/pages.parquet', 'threads=2');

statement error too many arguments on parquet_page_index
SELECT * FROM parquet_page_index('$TMPDIR/pages.parquet', '', 3);

query
SELECT count(*) FROM parquet_page_index('$TMPDIR/pages.parquet', '');
----
24

statement error cannot open '$TMPDIR/missing.parquet'
SELECT * FROM parquet_page_index('$TMPDIR/missing.parquet');

statement error no such module: parquet_page_index
CREATE VIRTUAL TABLE temp.x USING parquet_page_index('$TMPDIR/pages.parquet');

# Two different paths: no rows, and no file opened.
query
SELECT count(*) FROM parquet_page_index('$TMPDIR/pages.parquet') WHERE path = 'other.parquet';
----
0

query
SELECT count(*) FROM parquet_page_index('$TMPDIR/pages.parquet') WHERE path = '$TMPDIR/pages.parquet';
----
24

# The path may come from another table: SQLite runs the function once per row.
query
SELECT f.name, count(p.page_number)
FROM (SELECT '$TMPDIR/pages.parquet' AS name UNION ALL SELECT '$TMPDIR/no_index.parquet') AS f
LEFT JOIN parquet_page_index(f.name) AS p GROUP BY f.name ORDER BY f.name;
----
$TMPDIR/no_index.parquet|0
$TMPDIR/pages.parquet|24

# --------------------------------------------------------------------------------------------------
# tests/data/polars_nan_null_page.parquet, written by polars (nodejs-polars 0.26.1, defaults) from
# f DOUBLE = [1.5, NaN, 2.5], i INT32 = [1, 2, 3]: polars marks the page of f as a null page (it
# computed no min/max because of the NaN) while its null count is 0. The page must not be skipped as
# all NULL: every filter on f gives what a native table gives (NaN reads as NULL).

query
SELECT null_page, null_count, row_count FROM parquet_page_index('tests/data/polars_nan_null_page.parquet')
WHERE path_in_schema = 'f';
----
1|0|3

statement ok
CREATE VIRTUAL TABLE temp.polars USING parquet('tests/data/polars_nan_null_page.parquet');

query
SELECT (SELECT count(*) FROM polars WHERE f = 1.5), (SELECT count(*) FROM polars WHERE f > 0),
       (SELECT count(*) FROM polars WHERE f IS NOT NULL), (SELECT count(*) FROM polars WHERE f IS NULL),
       (SELECT group_concat(i) FROM polars WHERE f BETWEEN 2 AND 3), (SELECT count(*) FROM polars WHERE f < 0);
----
1|2|2|1|3|0

# --------------------------------------------------------------------------------------------------
# A page index that contradicts itself or misses a required field is not used; the pages are read as
# if the chunk had none, so results stay those of a native table. Files from JavaScript writers:
# - tests/data/parquetjs_first_rows_zero.parquet: @dsnp/parquetjs 1.8.9, x INT32 = 1, 2, 3, one row
#   per page (pageSize 1). Its OffsetIndex gives every page first_row_index 0 (the spec has them
#   strictly increasing); trusted, pages 0 and 1 held no rows and `x = 1` found nothing, and reads by
#   row position failed ("page holds 1 rows, its OffsetIndex entry says 3").
# - tests/data/parquetjs_first_rows_zero_null.parquet: the same writer, x = 5, NULL, 7; its
#   ColumnIndex also flags the page holding 7 as a null page.
# - tests/data/parquetjs_lite_no_null_pages.parquet: parquetjs-lite 0.8.7, defaults, x = 1, 2, 3:
#   a ColumnIndex without null_pages (a required field); every pushed-down term failed the query.

query
SELECT first_row_index, row_count FROM parquet_page_index('tests/data/parquetjs_first_rows_zero.parquet');
----
0|0
0|0
0|3

statement ok
CREATE VIRTUAL TABLE temp.pjs USING parquet('tests/data/parquetjs_first_rows_zero.parquet');

query
SELECT (SELECT group_concat(rowid) FROM pjs WHERE x = 1), (SELECT group_concat(rowid) FROM pjs WHERE x < 3),
       (SELECT group_concat(rowid) FROM pjs WHERE x >= 2), (SELECT x FROM pjs WHERE rowid = 0),
       (SELECT x FROM pjs WHERE file_row_number = 2), (SELECT x FROM pjs LIMIT 1 OFFSET 1);
----
0|0,1|1,2|1|3|2

statement ok
CREATE VIRTUAL TABLE temp.pjs_null USING parquet('tests/data/parquetjs_first_rows_zero_null.parquet');

query
SELECT (SELECT group_concat(rowid) FROM pjs_null WHERE x IS NOT NULL), (SELECT group_concat(rowid) FROM pjs_null WHERE x = 5),
       (SELECT group_concat(rowid) FROM pjs_null WHERE x = 7), (SELECT group_concat(rowid) FROM pjs_null WHERE x IS NULL),
       (SELECT x FROM pjs_null WHERE rowid = 2);
----
0,2|0|2|1|7

statement error ColumnIndex.null_pages missing
SELECT * FROM parquet_page_index('tests/data/parquetjs_lite_no_null_pages.parquet');

statement ok
CREATE VIRTUAL TABLE temp.pjs_lite USING parquet('tests/data/parquetjs_lite_no_null_pages.parquet');

query
SELECT (SELECT group_concat(rowid) FROM pjs_lite WHERE x = 1), (SELECT group_concat(rowid) FROM pjs_lite WHERE x > 1),
       (SELECT count(*) FROM pjs_lite WHERE x IS NULL);
----
0|1,2|0
