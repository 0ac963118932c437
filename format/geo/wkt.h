// WKT: geometries as Well-Known Text (OGC Simple Feature Access, Part 1, "Well-known Text
// Representation for Geometry"), turned into the little-endian ISO WKB that GEOMETRY and GEOGRAPHY
// columns store, so users can write geometries as text. The forms accepted are documented in
// docs/writing.md ("GEOMETRY and GEOGRAPHY").
#pragma once

#include <string>
#include <string_view>

#include "format/util/status.h"

namespace pq::geo {

// Appends the WKB of the geometry `text` spells to *out: POINT, LINESTRING, POLYGON, MULTIPOINT
// (with or without parentheses around its points), MULTILINESTRING, MULTIPOLYGON,
// GEOMETRYCOLLECTION, EMPTY anywhere a geometry goes; keywords in any case, the dimension tag (Z,
// M, ZM) also joined to the kind (POINTZ). Each coordinate has exactly the numbers its dimensions
// say; a nested geometry without a tag takes its collection's dimensions. Numbers as C reads them,
// and nan / inf / -inf. An empty point is written with NaN coordinates, as WKB has no other way to
// say it. InvalidArgument naming the offset ("WKT at offset 9: expected a number"); *out is then
// left as it was.
Status WktToWkb(std::string_view text, std::string* out);

}  // namespace pq::geo
