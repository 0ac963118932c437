# Writing GEOMETRY and GEOGRAPHY columns: WKB BLOBs kept as given, WKT text turned into WKB, and the
# GeospatialStatistics of every column chunk (bounding box with Z and M where present, geometry
# types), as the spec's "Geospatial Definitions" and the conformance files show them.

statement ok
CREATE TABLE shapes(rg INTEGER, geom);

statement ok
INSERT INTO shapes VALUES
  (0, 'POINT (30 10)'),
  (0, 'LINESTRING Z (30 10 40, 10 30 40, 40 40 80)'),
  (0, NULL),
  (0, 'POLYGON M ((30 10 300, 40 40 1600, 20 40 800, 10 20 200, 30 10 300))'),
  (1, 'POINT EMPTY'),
  (1, 'MULTIPOINT ZM EMPTY'),
  (1, NULL),
  (1, 'POINT EMPTY'),
  (2, NULL),
  (2, NULL),
  (2, NULL),
  (2, NULL),
  (3, 'LINESTRING ZM (1 2 NaN 4, 5 6 NaN 8)'),
  (3, x'0101000000000000000000f03f0000000000000040');

statement ok
SELECT parquet_export('$TMPDIR/geo.parquet', 'SELECT rg, geom FROM shapes WHERE rg < 3 ORDER BY rowid', 'schema=''geom GEOMETRY'', row_group_size=4');

query
SELECT name, type, logical_type FROM parquet_schema('$TMPDIR/geo.parquet') WHERE name = 'geom';
----
geom|BYTE_ARRAY|GeometryType(crs=<null>)

# Per row group: the box skips NaN per axis and leaves out Z or M that no value has; only empty
# geometries give no box but their types; only NULLs give no statistics at all. No min/max: the
# spec gives GEOMETRY no sort order.
query
SELECT row_group_id, stats_null_count, stats_min_value, stats_max_value, geo_bbox, geo_types FROM parquet_metadata('$TMPDIR/geo.parquet') WHERE path_in_schema = 'geom';
----
0|1|NULL|NULL|{"xmin":10.0,"xmax":40.0,"ymin":10.0,"ymax":40.0,"zmin":40.0,"zmax":80.0,"mmin":200.0,"mmax":1600.0}|["point","linestring_z","polygon_m"]
1|1|NULL|NULL|NULL|["point","multipoint_zm"]
2|4|NULL|NULL|NULL|NULL

statement ok
SELECT parquet_export('$TMPDIR/geo3.parquet', 'SELECT geom FROM shapes WHERE rg = 3', 'schema=''geom GEOMETRY''');

query
SELECT geo_bbox, geo_types FROM parquet_metadata('$TMPDIR/geo3.parquet');
----
{"xmin":1.0,"xmax":5.0,"ymin":2.0,"ymax":6.0,"zmin":null,"zmax":null,"mmin":4.0,"mmax":8.0}|["point","linestring_zm"]

# Read back: WKB BLOBs, the WKT ones as little-endian ISO WKB, the BLOB as it was given.
statement ok
CREATE VIRTUAL TABLE g USING parquet('$TMPDIR/geo.parquet');

query
SELECT rg, hex(geom) FROM g ORDER BY rowid LIMIT 2;
----
0|01010000000000000000003E400000000000002440
0|01EA030000030000000000000000003E400000000000002440000000000000444000000000000024400000000000003E400000000000004440000000000000444000000000000044400000000000005440

statement ok
CREATE VIRTUAL TABLE g3 USING parquet('$TMPDIR/geo3.parquet');

query
SELECT hex(geom) FROM g3 ORDER BY rowid DESC LIMIT 1;
----
0101000000000000000000F03F0000000000000040

# The conformance file's WKT column, written again as GEOMETRY: the same WKB as its geometry column
# and the same statistics per row group.
statement ok
CREATE VIRTUAL TABLE conf USING parquet('$TESTDATA/parquet-testing/data/geospatial/geospatial.parquet');

statement ok
SELECT parquet_export('$TMPDIR/from_wkt.parquet', 'SELECT wkt AS geometry FROM conf', 'schema=''geometry GEOMETRY'', row_group_size=28');

statement ok
CREATE VIRTUAL TABLE from_wkt USING parquet('$TMPDIR/from_wkt.parquet');

query
SELECT count(*), sum(a.geometry IS b.geometry) FROM conf a JOIN from_wkt b ON a.rowid = b.rowid;
----
196|196

query
SELECT a.geo_bbox IS b.geo_bbox, a.geo_types IS b.geo_types FROM parquet_metadata('$TESTDATA/parquet-testing/data/geospatial/geospatial.parquet') a JOIN parquet_metadata('$TMPDIR/from_wkt.parquet') b ON a.row_group_id = b.row_group_id AND a.path_in_schema = 'geometry' AND b.path_in_schema = 'geometry' WHERE a.row_group_id < 2;
----
1|1
1|1

# GEOGRAPHY: its CRS and edge interpolation algorithm in the logical type; its statistics hold the
# geometry types alone (a box around the vertices need not hold the curved edges between them).
statement ok
SELECT parquet_export('$TMPDIR/geog.parquet', 'SELECT ''POINT (-120 45)'' AS g UNION ALL SELECT ''LINESTRING (0 0, 179 89)''', 'schema=''g GEOGRAPHY(''''OGC:CRS84'''', VINCENTY)''');

query
SELECT logical_type FROM parquet_schema('$TMPDIR/geog.parquet') WHERE name = 'g';
----
GeographyType(crs=OGC:CRS84, algorithm=VINCENTY)

query
SELECT geo_bbox, geo_types FROM parquet_metadata('$TMPDIR/geog.parquet');
----
NULL|["point","linestring"]

statement ok
SELECT parquet_export('$TMPDIR/crs.parquet', 'SELECT ''POINT (1 2)'' AS g', 'schema=''g GEOMETRY(''''srid:5070'''')''');

query
SELECT logical_type FROM parquet_schema('$TMPDIR/crs.parquet') WHERE name = 'g';
----
GeometryType(crs=srid:5070)

# Errors name the row, the column and what is wrong.
statement error row 1, column 'g': text 'POINT (1)' is not WKT at offset 8: expected a number
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''POINT (1)'' AS g', 'schema=''g GEOMETRY''');

statement error row 1, column 'g': a 5-byte BLOB is not WKB: unknown geometry type code 8
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT x''0108000000'' AS g', 'schema=''g GEOMETRY''');

statement error row 1, column 'g': text 'POINT (200 10)' has coordinates outside x in [-180, 180], y in [-90, 90], which GEOGRAPHY needs
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT ''POINT (200 10)'' AS g', 'schema=''g GEOGRAPHY''');

statement error unknown edge interpolation algorithm 'GREAT_CIRCLE'
SELECT parquet_export('$TMPDIR/bad.parquet', 'SELECT 1 AS g', 'schema=''g GEOGRAPHY(GREAT_CIRCLE)''');

# The page index of a GEOMETRY column: its pages in the OffsetIndex, no ColumnIndex (no bounds the
# spec would let readers use); the other columns have both.
query
SELECT path_in_schema, column_index_offset IS NOT NULL, offset_index_offset IS NOT NULL FROM parquet_metadata('$TMPDIR/geo.parquet') WHERE row_group_id = 0;
----
rg|1|1
geom|0|1
