// GeospatialStatisticsBuilder: the GeospatialStatistics of a GEOMETRY or GEOGRAPHY column chunk
// (the Parquet spec, "Geospatial Definitions", "Statistics"), from the WKB values written.
//
//   - geospatial_types: the ISO type code of every value (its top-level geometry; an empty
//     geometry counts), each once, in increasing order;
//   - bbox (GEOMETRY only): the smallest and largest x, y, z and m over every coordinate, NaN
//     skipped per axis; z and m only when some value had one; no box at all when x or y never had
//     a value (only empty geometries, or POINT (1 NaN)). X never wraps around (xmin <= xmax).
//     GEOGRAPHY gets no box: its edges are not straight lines, so a box around the vertices need
//     not hold the edges between them (as Arrow's writer, it writes the types alone).
// A chunk with no value (only NULLs) gets no statistics, nor does one holding a value that is not
// WKB (the SQL writer refuses such values before they get here). This matches what DuckDB writes
// for the same values.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "format/geo/wkb.h"
#include "format/metadata/metadata.h"
#include "format/util/byte_reader.h"

namespace pq::geo {

class GeospatialStatisticsBuilder {
 public:
  explicit GeospatialStatisticsBuilder(bool bounding_box) : bounding_box_(bounding_box) {}

  void Update(ByteSpan wkb);
  // What the values so far give; nullopt when there was none or one was not WKB.
  std::optional<GeospatialStatistics> Finish() const;
  // Starts over.
  void Reset();

 private:
  bool bounding_box_;
  bool any_ = false;
  bool invalid_ = false;
  CoordinateBounds bounds_;
  std::vector<int32_t> types_;  // sorted, distinct
};

}  // namespace pq::geo
