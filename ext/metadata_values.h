// The values shown by the file-inspection functions (metadata_functions.h), computed from the
// parsed footer without any SQLite header, so each rule here can be tested on its own.
//
// Statistics (Statistics.min/max/min_value/max_value, the Parquet spec "Statistics") are PLAIN
// encoded values of the column's physical type. They are shown as the value a `parquet` table
// returns for that column with default options, converted by the table's own LeafConverter
// (format/value/leaf_converter.h, docs/reading.md "Value mapping"), so they compare with the column's
// values in SQL: INTEGER for booleans (0/1) and integers (UINT64 above 2^63-1 as REAL), REAL for
// FLOAT, DOUBLE, FLOAT16 and DECIMAL, TEXT for strings, dates, times, timestamps (INT96 too), UUIDs
// and intervals, BLOB for unannotated binary, BSON and geospatial columns. Three differences,
// because a statistic that exists must not look absent:
// - a NaN statistic is the TEXT 'NaN' (the table reads NaN as NULL);
// - a statistic of an UNKNOWN-typed column, or one the converter turns into NULL, is a BLOB of its
//   bytes;
// - a statistic whose size does not fit its type (an INT32 statistic that is not 4 bytes, a
//   FIXED_LEN_BYTE_ARRAY one that is not type_length bytes) is a BLOB of its bytes, not an error:
//   these functions exist to look at files, odd ones included.
//
// Logical types are shown as text in the style of the Thrift definition (parquet.thrift):
// "StringType()", "DecimalType(scale=2, precision=9)", "IntType(bitWidth=8, isSigned=1)",
// "TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))", "NullType()" (the
// UNKNOWN type), "GeometryType(crs=srid:5070)", "GeographyType(crs=<null>, algorithm=SPHERICAL)",
// "VariantType(specification_version=1)". An optional field that is absent prints as <null>. An
// alternative this reader does not know prints as "UnknownLogicalType(field_id=N)".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/metadata/metadata.h"
#include "format/schema/schema.h"
#include "format/value/cell.h"

namespace pq::ext {

// The statistic `bytes` of `leaf` as described above. TEXT and BLOB cells point into `bytes` or
// into `*scratch` (overwritten), so they live as long as both do.
Cell StatisticValue(const SchemaNode& leaf, std::string_view bytes, std::string* scratch);

// A LogicalType as text (see above). nullopt for kind kNone without an unknown field id, i.e. "no
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
