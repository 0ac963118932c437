// Legacy ConvertedType annotations for the LogicalTypes a writer sets.
//
// The Parquet type spec: "Parquet writers must always write LogicalType annotations
// where applicable, but must also write the corresponding ConvertedType annotations (if any) to
// maintain compatibility with old readers." The table (the forward-compatibility rows of each
// type):
//   STRING -> UTF8, MAP -> MAP, LIST -> LIST, ENUM -> ENUM, DECIMAL -> DECIMAL (and the element's
//   scale/precision), DATE -> DATE, TIME(MILLIS) -> TIME_MILLIS, TIME(MICROS) -> TIME_MICROS,
//   TIMESTAMP(MILLIS) -> TIMESTAMP_MILLIS, TIMESTAMP(MICROS) -> TIMESTAMP_MICROS (UTC-adjusted or
//   not), INTEGER(bits, signed) -> INT_8..INT_64 / UINT_8..UINT_64, JSON -> JSON.
//   NANOS units, UUID, FLOAT16, UNKNOWN, VARIANT, GEOMETRY, GEOGRAPHY have none. BSON gets none
//   either, against the table's BSON -> BSON: DuckDB refuses every file with that converted type.
#pragma once

#include <optional>
#include <vector>

#include "format/metadata/metadata.h"

namespace pq {

// The ConvertedType that goes with `type`, or nullopt.
std::optional<ConvertedType> ConvertedTypeFor(const LogicalType& type);

// For every element with a logical type and no converted_type, sets the matching converted_type;
// for DECIMAL also scale and precision when absent. Elements that already have a converted_type
// are left alone.
void AddConvertedTypes(std::vector<SchemaElement>* schema);

}  // namespace pq
