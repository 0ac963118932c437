// The values shown by the file-inspection functions (metadata_functions.h), computed from the
// parsed footer without any SQLite header, so each rule here can be tested on its own: statistics
// typed as the `parquet` table types the column's values (so they compare with them in SQL),
// logical types as text in the style of parquet.thrift, and the JSON of key/value metadata,
// encoding stats, bounding boxes and column orders. Documented in docs/functions.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/metadata/metadata.h"
#include "format/schema/schema.h"
#include "format/value/cell.h"

namespace pq::ext {

// The statistic `bytes` of `leaf` (PLAIN encoded, the Parquet spec "Statistics") as the value a
// `parquet` table returns for that column with default options, through the table's own
// LeafConverter. Three differences, because a statistic that exists must not look absent: a NaN is
// the TEXT 'NaN' (the table reads NaN as NULL); a statistic of an UNKNOWN column, or one the
// converter turns into NULL, is a BLOB of its bytes; and so is one whose size does not fit its type
// (these functions exist to look at files, odd ones included). TEXT and BLOB cells point into
// `bytes` or into `*scratch` (overwritten), so they live as long as both do.
Cell StatisticValue(const SchemaNode& leaf, std::string_view bytes, std::string* scratch);

// A LogicalType as text in the style of parquet.thrift: "StringType()", "DecimalType(scale=2,
// precision=9)", "TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))",
// "NullType()" (UNKNOWN), "GeographyType(crs=<null>, algorithm=SPHERICAL)"; an absent optional
// field prints as <null>, an alternative this reader does not know as
// "UnknownLogicalType(field_id=N)". nullopt for kind kNone without an unknown field id, i.e. "no
// logical type".
std::optional<std::string> LogicalTypeText(const LogicalType& type);

// "RLE, PLAIN_DICTIONARY, PLAIN": the names in file order, joined by ", " (as DuckDB shows them).
std::string EncodingsText(const std::vector<Encoding>& encodings);

// Key/value metadata as a JSON object text {"key":"value","key2":null} (a key without a value maps
// to null), keys in file order, repeated keys kept. nullopt when the list is empty. Bytes are
// copied as the file holds them (not validated as UTF-8), with JSON escapes for '"', '\' and
// control characters.
std::optional<std::string> KeyValueJson(const std::vector<KeyValue>& pairs);

// PageEncodingStats as a JSON array text:
// [{"page_type":"DATA_PAGE","encoding":"PLAIN","count":1},...].
std::string EncodingStatsJson(const std::vector<PageEncodingStats>& stats);

// A geospatial bounding box as a JSON object with the keys xmin, xmax, ymin, ymax, zmin, zmax,
// mmin, mmax, in that order; absent Z/M bounds and non-finite numbers are null.
std::string BoundingBoxJson(const BoundingBox& box);

// Geospatial type codes (the Parquet type spec, "Geospatial Types") as a JSON
// array of names: 1..7 are point, linestring, polygon, multipoint, multilinestring, multipolygon,
// geometrycollection; +1000 adds "_z", +2000 "_m", +3000 "_zm". Another code stays a JSON number.
std::string GeospatialTypesJson(const std::vector<int32_t>& codes);

// FileMetaData.column_orders as a JSON array of the union's alternative names: "TYPE_ORDER",
// "IEEE_754_TOTAL_ORDER", "INT96_TIMESTAMP_ORDER", or "UNKNOWN" for one this reader does not know.
std::string ColumnOrdersJson(const std::vector<ColumnOrder>& orders);

// "AES_GCM_V1", "AES_GCM_CTR_V1", or nullopt for an alternative this reader does not know.
std::optional<std::string> EncryptionAlgorithmName(const EncryptionAlgorithm& algorithm);

// True when `bytes` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
// U+10FFFF). Decides whether a free-form binary field is shown as TEXT or as a BLOB.
bool IsValidUtf8(std::string_view bytes);

}  // namespace pq::ext
