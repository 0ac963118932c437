// WKT: geometries as Well-Known Text (OGC Simple Feature Access, Part 1, "Well-known Text
// Representation for Geometry"), turned into the little-endian ISO WKB that GEOMETRY and GEOGRAPHY
// columns store.
//
//   POINT (30 10)                     POINT Z (1 2 3), POINT M (1 2 4), POINT ZM (1 2 3 4)
//   LINESTRING (30 10, 10 30)         POLYGON ((30 10, 40 40, 20 40, 30 10), (...))
//   MULTIPOINT ((10 40), (40 30))     MULTIPOINT (10 40, 40 30)       MULTILINESTRING ((..), (..))
//   MULTIPOLYGON (((..)), ((..)))     GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (..))
//   POINT EMPTY, LINESTRING Z EMPTY, GEOMETRYCOLLECTION (POINT EMPTY), MULTIPOINT (EMPTY, 1 2)
//
// Keywords in any case; the dimension tag (Z, M, ZM) may also be joined to the kind (POINTZ). Each
// coordinate has exactly the numbers its dimensions say; a nested geometry without a tag takes its
// collection's dimensions, one with a tag must have them. Numbers as C reads them (1, -2.5, 1e3),
// and nan / inf / -inf (any case). An empty point is written with NaN coordinates, as WKB has no
// other way to say it. Errors are InvalidArgument naming the offset: "WKT at offset 9: expected a
// number".
#pragma once

#include <string>
#include <string_view>

#include "format/util/status.h"

namespace pq::geo {

// Appends the WKB of the geometry `text` spells to *out. On error *out is left as it was.
Status WktToWkb(std::string_view text, std::string* out);

}  // namespace pq::geo
