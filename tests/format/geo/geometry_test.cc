// WKB scanning, WKT parsing and geospatial statistics (format/geo/): the conformance files of
// parquet-testing/data/geospatial, whose `wkt` column must parse to the exact WKB of their
// `geometry` column and whose row groups' GeospatialStatistics the builder must reproduce from
// those values; golden bytes; every kind, dimension, empty form and NaN rule; and damaged WKB
// giving errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "format/column/column_reader.h"
#include "format/geo/geospatial_statistics_builder.h"
#include "format/geo/wkb.h"
#include "format/geo/wkt.h"
#include "format/file/file_reader.h"

namespace pq::geo {
namespace {

std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (unsigned char c : bytes) {
    s.push_back(kHex[c >> 4]);
    s.push_back(kHex[c & 0xF]);
  }
  return s;
}

std::string Wkb(std::string_view wkt) {
  std::string out;
  Status s = WktToWkb(wkt, &out);
  EXPECT_TRUE(s.ok()) << wkt << ": " << s.ToString();
  return out;
}

Result<uint32_t> Scan(std::string_view wkb, CoordinateBounds* bounds = nullptr) {
  CoordinateBounds local;
  return ScanWkb(AsBytes(wkb), bounds ? bounds : &local);
}

std::optional<GeospatialStatistics> StatsOf(const std::vector<std::string>& wkts,
                                            bool bbox = true) {
  GeospatialStatisticsBuilder b(bbox);
  for (const std::string& w : wkts) {
    const std::string wkb = Wkb(w);
    b.Update(AsBytes(wkb));
  }
  return b.Finish();
}

TEST(WktTest, GoldenBytes) {
  // As DuckDB and Arrow write them: byte order 1, type code, coordinates, all little endian.
  EXPECT_EQ(Hex(Wkb("POINT (1 2)")), "0101000000000000000000f03f0000000000000040");
  EXPECT_EQ(Hex(Wkb("point z(1 2 3)")),
            "01e9030000000000000000f03f00000000000000400000000000000840");
  EXPECT_EQ(Hex(Wkb("LINESTRING EMPTY")), "010200000000000000");
  // An empty point: NaN coordinates.
  EXPECT_EQ(Hex(Wkb("POINT EMPTY")), "0101000000000000000000f87f000000000000f87f");
  EXPECT_EQ(Wkb("MULTIPOINT (1 2, 3 4)"), Wkb("MULTIPOINT ((1 2), (3 4))"));
  EXPECT_EQ(Wkb("POINTZM (1 2 3 4)"), Wkb("POINT ZM (1 2 3 4)"));
  EXPECT_EQ(Wkb("GEOMETRYCOLLECTION Z (POINT (1 2 3))"),
            Wkb("GEOMETRYCOLLECTION Z (POINT Z (1 2 3))"));
}

TEST(WktTest, Errors) {
  for (const char* bad : {"", "POINT", "POINT (1)", "POINT (1 2 3)", "POINT Z (1 2)",
                          "POINTY (1 2)", "LINESTRING (1 2, 3)", "POLYGON (1 2)", "POINT (1 2) x",
                          "CIRCLE (1 2)", "GEOMETRYCOLLECTION Z (POINT M (1 2 3))",
                          "MULTIPOINT (1 2,)", "POINT (a b)", "POINT (1 2"}) {
    std::string out = "kept";
    Status s = WktToWkb(bad, &out);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad;
    EXPECT_EQ(out, "kept") << bad;
  }
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "GEOMETRYCOLLECTION (";
  deep += "POINT (1 2)" + std::string(100, ')');
  std::string out;
  EXPECT_TRUE(WktToWkb(deep, &out).IsInvalidArgument());
}

TEST(WkbTest, TypeCodesAndBounds) {
  CoordinateBounds b;
  ASSERT_EQ(*Scan(Wkb("LINESTRING ZM (1 2 NaN 4, 5 6 NaN 8)"), &b), 3002u);
  EXPECT_EQ(b.min[0], 1);
  EXPECT_EQ(b.max[1], 6);
  EXPECT_FALSE(b.has(CoordinateBounds::kZ));  // only NaN
  EXPECT_EQ(b.min[3], 4);
  EXPECT_EQ(b.max[3], 8);
  EXPECT_EQ(*Scan(Wkb("MULTIPOLYGON M (((0 0 1, 1 0 1, 0 1 1, 0 0 1)), EMPTY)")), 2006u);
  EXPECT_EQ(*Scan(Wkb("GEOMETRYCOLLECTION (MULTIPOINT (EMPTY, 1 2), GEOMETRYCOLLECTION EMPTY)")),
            7u);
  // Big endian, nested geometries with their own byte order.
  const std::string be_point = std::string("\x00\x00\x00\x00\x01", 5) +
                               std::string("\x3f\xf0\0\0\0\0\0\0", 8) +
                               std::string("\x40\0\0\0\0\0\0\0", 8);
  CoordinateBounds bb;
  ASSERT_EQ(*Scan(be_point, &bb), 1u);
  EXPECT_EQ(bb.min[0], 1.0);
  EXPECT_EQ(bb.min[1], 2.0);
  const std::string multi = std::string("\x01\x04\x00\x00\x00\x01\x00\x00\x00", 9) + be_point;
  EXPECT_EQ(*Scan(multi), 4u);
}

TEST(WkbTest, DamagedInputIsAnError) {
  const std::string good =
      Wkb("GEOMETRYCOLLECTION Z (POINT Z (1 2 3), POLYGON Z ((0 0 0, 1 0 0, 0 1 0, 0 0 0)))");
  ASSERT_TRUE(Scan(good).ok());
  for (size_t n = 0; n < good.size(); ++n) {
    EXPECT_TRUE(Scan(good.substr(0, n)).status().IsInvalidArgument() ||
                !Scan(good.substr(0, n)).ok())
        << n;
  }
  EXPECT_FALSE(Scan(good + "x").ok());                                               // trailing
  EXPECT_FALSE(Scan(std::string("\x02\x01\0\0\0", 5) + std::string(16, 0)).ok());    // byte order
  EXPECT_FALSE(Scan(std::string("\x01\x08\0\0\0", 5)).ok());                         // kind 8
  EXPECT_FALSE(Scan(std::string("\x01\xb9\x0f\0\0", 5) + std::string(16, 0)).ok());  // 4001
  // PostGIS's EWKB: POINT with the Z flag.
  EXPECT_FALSE(Scan(std::string("\x01\x01\0\0\x80", 5) + std::string(24, 0)).ok());
  // A MULTIPOINT holding a LINESTRING; a Z collection holding an XY point.
  EXPECT_FALSE(Scan(std::string("\x01\x04\0\0\0\x01\0\0\0", 9) + Wkb("LINESTRING EMPTY")).ok());
  EXPECT_FALSE(Scan(std::string("\x01\xef\x03\0\0\x01\0\0\0", 9) + Wkb("POINT (1 2)")).ok());
  // A count far beyond the bytes: refused before anything is read.
  EXPECT_FALSE(Scan(std::string("\x01\x02\0\0\0\xff\xff\xff\xff", 9)).ok());
}

TEST(GeospatialStatisticsTest, RulesAsDuckDBWritesThem) {
  EXPECT_FALSE(GeospatialStatisticsBuilder(true).Finish().has_value());  // no value
  // Only empties: the types, no box.
  auto empties = StatsOf({"POINT EMPTY", "LINESTRING EMPTY", "POLYGON Z EMPTY"});
  ASSERT_TRUE(empties);
  EXPECT_FALSE(empties->bbox);
  EXPECT_EQ(empties->geospatial_types, (std::vector<int32_t>{1, 2, 1003}));
  // POINT (1 NaN): x without y, no box.
  auto nan = StatsOf({"POINT (1 NaN)"});
  ASSERT_TRUE(nan);
  EXPECT_FALSE(nan->bbox);
  // Z omitted when only NaN; M kept.
  auto zm = StatsOf({"LINESTRING ZM (1 2 NaN 4, 5 6 NaN 8)", "POINT (0 10)", "POINT (0 10)"});
  ASSERT_TRUE(zm && zm->bbox);
  EXPECT_EQ(zm->bbox->xmin, 0);
  EXPECT_EQ(zm->bbox->ymax, 10);
  EXPECT_FALSE(zm->bbox->zmin);
  EXPECT_EQ(*zm->bbox->mmin, 4);
  EXPECT_EQ(zm->geospatial_types, (std::vector<int32_t>{1, 3002}));
  // GEOGRAPHY: the types alone.
  auto geography = StatsOf({"POINT (1 2)"}, false);
  ASSERT_TRUE(geography);
  EXPECT_FALSE(geography->bbox);
  EXPECT_EQ(geography->geospatial_types, (std::vector<int32_t>{1}));
  // A value that is not WKB: no statistics.
  GeospatialStatisticsBuilder bad(true);
  bad.Update(AsBytes(std::string_view("xyz")));
  EXPECT_FALSE(bad.Finish());
}

// Each row group's values of `leaf` (nullopt: NULL).
std::vector<std::vector<std::optional<std::string>>> ReadByRowGroup(
    const std::shared_ptr<const FileReader>& file, int leaf) {
  std::vector<std::vector<std::optional<std::string>>> out;
  for (int rg = 0; rg < file->num_row_groups(); ++rg) {
    auto reader = ColumnChunkReader::Make(file, rg, leaf);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return out;
    ColumnBatch batch;
    auto n = (*reader)->ReadRecords(INT64_MAX / 2, &batch);
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    std::vector<std::optional<std::string>> values;
    size_t k = 0;
    for (int16_t d : batch.def_levels) {
      values.push_back(d == 1 ? std::optional<std::string>(std::string(batch.bytes[k++].view()))
                              : std::nullopt);
    }
    out.push_back(std::move(values));
  }
  return out;
}

// The conformance files: every `wkt` value parses to the `geometry` value's exact bytes, and the
// builder gives each row group's statistics as the file holds them.
TEST(GeospatialConformanceTest, WktAndStatisticsMatchTheFiles) {
  for (const char* name : {"geospatial.parquet", "geospatial-with-nan.parquet",
                           "crs-default.parquet", "crs-srid.parquet", "crs-projjson.parquet",
                           "crs-arbitrary-value.parquet", "crs-geography.parquet"}) {
    SCOPED_TRACE(name);
    auto opened = FileReader::Open(
        std::string(PQ_TESTDATA_DIR) + "/parquet-testing/data/geospatial/" + name, ReaderOptions{});
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    std::shared_ptr<const FileReader> file = *opened;
    const Schema& schema = file->schema();
    int wkt_leaf = -1, geo_leaf = -1;
    for (int i = 0; i < schema.num_leaves(); ++i) {
      const LogicalType::Kind k = schema.leaf(i).logical_type.kind;
      if (schema.leaf(i).name == "wkt") wkt_leaf = i;
      if (k == LogicalType::Kind::kGeometry || k == LogicalType::Kind::kGeography) geo_leaf = i;
    }
    ASSERT_GE(wkt_leaf, 0);
    ASSERT_GE(geo_leaf, 0);
    const bool geography = schema.leaf(geo_leaf).logical_type.kind == LogicalType::Kind::kGeography;
    const auto wkts = ReadByRowGroup(file, wkt_leaf);
    const auto wkbs = ReadByRowGroup(file, geo_leaf);
    ASSERT_EQ(wkts.size(), wkbs.size());
    int compared = 0;
    for (size_t rg = 0; rg < wkts.size(); ++rg) {
      GeospatialStatisticsBuilder builder(!geography);
      for (size_t r = 0; r < wkts[rg].size(); ++r) {
        ASSERT_EQ(wkts[rg][r].has_value(), wkbs[rg][r].has_value()) << rg << "/" << r;
        if (!wkts[rg][r]) continue;
        EXPECT_EQ(Hex(Wkb(*wkts[rg][r])), Hex(*wkbs[rg][r])) << *wkts[rg][r];
        builder.Update(AsBytes(*wkbs[rg][r]));
        ++compared;
      }
      const ColumnMetaData& meta =
          *file->metadata().row_groups[rg].columns[static_cast<size_t>(geo_leaf)].meta_data;
      const std::optional<GeospatialStatistics> built = builder.Finish();
      if (geography) {
        // Arrow writes no statistics for GEOGRAPHY; ours hold the types alone.
        EXPECT_FALSE(meta.geospatial_statistics);
        continue;
      }
      if (!built) {
        // A row group of NULLs: Arrow writes an empty type list, DuckDB and this writer nothing.
        ASSERT_TRUE(meta.geospatial_statistics);
        EXPECT_TRUE(meta.geospatial_statistics->geospatial_types.empty());
        EXPECT_FALSE(meta.geospatial_statistics->bbox);
        continue;
      }
      ASSERT_TRUE(meta.geospatial_statistics) << rg;
      const GeospatialStatistics& want = *meta.geospatial_statistics;
      EXPECT_EQ(built->geospatial_types, want.geospatial_types) << rg;
      ASSERT_EQ(built->bbox.has_value(), want.bbox.has_value()) << rg;
      if (want.bbox) {
        const BoundingBox &a = *built->bbox, &b = *want.bbox;
        EXPECT_EQ(a.xmin, b.xmin);
        EXPECT_EQ(a.xmax, b.xmax);
        EXPECT_EQ(a.ymin, b.ymin);
        EXPECT_EQ(a.ymax, b.ymax);
        EXPECT_EQ(a.zmin, b.zmin) << rg;
        EXPECT_EQ(a.zmax, b.zmax) << rg;
        EXPECT_EQ(a.mmin, b.mmin) << rg;
        EXPECT_EQ(a.mmax, b.mmax) << rg;
      }
    }
    EXPECT_GT(compared, 0);
  }
}

}  // namespace
}  // namespace pq::geo
