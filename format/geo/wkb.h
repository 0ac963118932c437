// WKB: the Well-Known Binary form of geometries that GEOMETRY and GEOGRAPHY columns hold (OGC
// Simple Feature Access, Part 1, "Well-known Binary Representation for Geometry", in its ISO form
// with XY, XYZ, XYM and XYZM coordinates; the Parquet spec, "Geospatial Definitions").
//
// A geometry is a byte order (0 big endian, 1 little endian), a 32-bit type code in that order
// (the kind 1..7 - POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON,
// GEOMETRYCOLLECTION - plus 1000 for Z, 2000 for M, 3000 for ZM) and its body: a point's
// coordinates; a count of points; a count of rings, each a count of points; or a count of nested
// geometries, each with its own byte order and type code, of the kind the collection names (any
// kind in a GEOMETRYCOLLECTION) and of its dimensions. An empty point has NaN coordinates, by the
// common convention.
//
// ScanWkb reads untrusted bytes: every count is checked against the bytes left before anything is
// read or allocated, nesting is limited (kMaxWkbNesting), and anything else is InvalidArgument
// saying what: trailing bytes, a kind or dimension code it does not know, PostGIS's extended WKB
// (flag bits in the type code), a nested geometry of the wrong kind or dimensions.
//
// WkbWriter writes the little-endian ISO form (wkt.h uses it).
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq::geo {

inline constexpr int kMaxWkbNesting = 64;

enum class GeometryKind : uint32_t {
  kPoint = 1,
  kLineString = 2,
  kPolygon = 3,
  kMultiPoint = 4,
  kMultiLineString = 5,
  kMultiPolygon = 6,
  kGeometryCollection = 7,
};

// Which coordinates follow x and y: the thousands of a type code.
enum class Dimensions : uint32_t { kXY = 0, kXYZ = 1, kXYM = 2, kXYZM = 3 };

inline bool HasZ(Dimensions d) {
  return d == Dimensions::kXYZ || d == Dimensions::kXYZM;
}
inline bool HasM(Dimensions d) {
  return d == Dimensions::kXYM || d == Dimensions::kXYZM;
}
inline int CoordinateCount(Dimensions d) {
  return 2 + HasZ(d) + HasM(d);
}
inline uint32_t TypeCode(GeometryKind kind, Dimensions d) {
  return static_cast<uint32_t>(kind) + 1000 * static_cast<uint32_t>(d);
}

// The smallest and largest non-NaN value seen on each axis: x, y, z, m (the Parquet spec, "Bounding
// Box": null and NaN values are skipped per dimension).
struct CoordinateBounds {
  enum Axis { kX = 0, kY = 1, kZ = 2, kM = 3 };
  double min[4] = {kInf, kInf, kInf, kInf};
  double max[4] = {-kInf, -kInf, -kInf, -kInf};

  void Add(int axis, double v) {
    if (v != v) return;  // NaN
    if (v < min[axis]) min[axis] = v;
    if (v > max[axis]) max[axis] = v;
  }
  // True when the axis had a value.
  bool has(int axis) const { return min[axis] <= max[axis]; }
  void Merge(const CoordinateBounds& other) {
    for (int a = 0; a < 4; ++a) {
      if (other.has(a)) {
        Add(a, other.min[a]);
        Add(a, other.max[a]);
      }
    }
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
};

// Reads the one geometry `wkb` holds (it must end exactly there), adds its coordinates to *bounds
// and returns its type code (TypeCode). InvalidArgument, starting "WKB: ", when it is not such a
// geometry; *bounds may then hold part of it.
Result<uint32_t> ScanWkb(ByteSpan wkb, CoordinateBounds* bounds);

// Little-endian ISO WKB, written piece by piece: a header, then counts and coordinates. A count
// not known in advance is reserved with BeginCount and filled with EndCount.
class WkbWriter {
 public:
  explicit WkbWriter(std::string* out) : out_(out) {}
  void Header(GeometryKind kind, Dimensions d);
  void Count(uint32_t n);
  void Coordinate(double v);
  // Reserves a count; EndCount(position, n) writes n there.
  size_t BeginCount();
  void EndCount(size_t position, uint32_t n);

 private:
  std::string* out_;
};

}  // namespace pq::geo
