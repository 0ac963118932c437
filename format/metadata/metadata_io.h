// Reading and writing the Parquet metadata structs (metadata.h) in the Thrift compact protocol: the
// structures a file stores on their own (the footer FileMetaData, page headers, the page index,
// Bloom filter headers, the crypto footer and a column's separately stored ColumnMetaData), with
// field ids and requiredness as parquet.thrift gives them. Readers take untrusted bytes: they never
// read outside `data`, check every size against the bytes left and count what they build against a
// memory limit before allocating, and return Corruption or OutOfMemory, never crash, on any input.
// What a writer produces, the reader reads back equal.
#pragma once

#include <cstddef>
#include <string>

#include "format/metadata/metadata.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq {

// Each reader parses one struct from the start of `data`; `*consumed` (when not null) gets the
// bytes it took, so a caller finds what follows (a page's data after its header). Fields with ids
// they do not know are skipped by type at any nesting (deeper than thrift::CompactReader::kMaxDepth
// is Corruption); a known id with an unexpected wire type is skipped too, as Thrift does. A missing
// required field is Corruption naming it ("PageHeader.type missing"), but a GeospatialStatistics
// bounding box missing a coordinate is dropped (it is optional and nothing depends on it). Enum
// values are stored as read, known or not (callers decide what they support); unknown union
// alternatives read as LogicalType kNone with unknown_field_id set, ColumnOrder kUnknown,
// EncryptionAlgorithm kNone, ColumnCryptoMetaData kNone, BloomFilterHeader algorithm/hash/
// compression 0, a TimeUnit the number of the unknown alternative (0 if none).
//
// A few bytes may stand for a large struct (a three-byte ColumnChunk is hundreds in memory), so
// checking sizes against the input is not enough: what a reader builds is counted as it is parsed,
// and past `max_memory` it stops with OutOfMemory (thrift::CompactReader::ChargeMemory). Callers
// pass the limit they answer to (a table's max_memory, the metadata functions' cap).
// ReadFileMetaData also gives what it counted (*memory_used, when not null), for a caller that
// keeps many footers and bounds them together.
//
// The memory limit of a reader not given one.
inline constexpr int64_t kDefaultMetadataMemory = int64_t{1} << 30;

Status ReadFileMetaData(ByteSpan data, FileMetaData* out, size_t* consumed = nullptr,
                        int64_t max_memory = kDefaultMetadataMemory, int64_t* memory_used = nullptr);
Status ReadPageHeader(ByteSpan data, PageHeader* out, size_t* consumed);
Status ReadColumnIndex(ByteSpan data, ColumnIndex* out, size_t* consumed = nullptr,
                       int64_t max_memory = kDefaultMetadataMemory);
Status ReadOffsetIndex(ByteSpan data, OffsetIndex* out, size_t* consumed = nullptr,
                       int64_t max_memory = kDefaultMetadataMemory);
Status ReadBloomFilterHeader(ByteSpan data, BloomFilterHeader* out, size_t* consumed);
Status ReadFileCryptoMetaData(ByteSpan data, FileCryptoMetaData* out, size_t* consumed);
Status ReadColumnMetaData(ByteSpan data, ColumnMetaData* out, size_t* consumed = nullptr,
                          int64_t max_memory = kDefaultMetadataMemory);

// Writers append the compact encoding to *out: fields in id order, absent optionals (and empty
// optional lists held as plain vectors) omitted.
void WriteFileMetaData(const FileMetaData& in, std::string* out);
void WritePageHeader(const PageHeader& in, std::string* out);
void WriteColumnIndex(const ColumnIndex& in, std::string* out);
void WriteOffsetIndex(const OffsetIndex& in, std::string* out);
void WriteBloomFilterHeader(const BloomFilterHeader& in, std::string* out);
void WriteFileCryptoMetaData(const FileCryptoMetaData& in, std::string* out);
void WriteColumnMetaData(const ColumnMetaData& in, std::string* out);

}  // namespace pq
