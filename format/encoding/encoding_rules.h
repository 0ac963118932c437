// Which value encoding may be used with which physical type: the one table both MakeDecoder and
// MakeEncoder consult, so the reader and the writer refuse exactly the same pairs (the Parquet
// spec, "Encodings"; docs/format-notes.md for BYTE_STREAM_SPLIT on integers).
#pragma once

#include <cstdint>
#include <string>

#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/util/status.h"

namespace pq::encoding {

// "PLAIN", "RLE_DICTIONARY", ...; unknown values print as their number. (Kept here so the encoding
// layer does not depend on the metadata library.)
std::string EncodingLabel(Encoding e);
// "INT32", "FIXED_LEN_BYTE_ARRAY", ...
std::string PhysicalTypeLabel(PhysicalType t);

// OK when `encoding` may encode values of `type`: PLAIN all eight physical types; RLE BOOLEAN (the
// values of a data page; levels and dictionary indices have their own decoders);
// DELTA_BINARY_PACKED INT32, INT64; DELTA_LENGTH_BYTE_ARRAY BYTE_ARRAY; DELTA_BYTE_ARRAY
// BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY; BYTE_STREAM_SPLIT FLOAT, DOUBLE, INT32, INT64,
// FIXED_LEN_BYTE_ARRAY. Everything else is NotSupported, "encoding X is not valid for physical type
// Y": the dictionary encodings (indices go through DictionaryIndexDecoder / DictionaryEncoder),
// BIT_PACKED (levels only), ALP (preview) and unknown values. NotSupported rather than Corruption
// because the refusal also covers encodings that are legal Parquet but not for values, or not
// implemented.
Status CheckValueEncoding(PhysicalType type, Encoding encoding);

// True when T is the in-memory value type of `type` (values.h).
template <typename T>
bool IsValueTypeOf(PhysicalType type);

// Checks that T matches `type` (InvalidArgument: a programming error) and that a
// FIXED_LEN_BYTE_ARRAY width is positive (Corruption: the width comes from the file's schema).
template <typename T>
Status CheckValueType(PhysicalType type, int32_t type_length);

}  // namespace pq::encoding
