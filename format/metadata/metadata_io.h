// Reading and writing the Parquet metadata structs (metadata.h) in the Thrift compact protocol.
//
// The top-level structs a Parquet file stores on their own: the footer (FileMetaData), page
// headers, the page index (ColumnIndex, OffsetIndex), Bloom filter headers, the crypto footer of an
// encrypted file and a column chunk's ColumnMetaData (stored apart, encrypted, when a column has
// its own key). Field ids and requiredness follow parquet.thrift; the wire
// format is
// the Thrift compact protocol specification.
//
// Readers take untrusted bytes and promise never to read outside `data`, to check every container
// size against the bytes left before reserving anything (so memory grows only with bytes actually
// parsed), and to return Corruption (never crash) on any input:
// - fields with ids they do not know are skipped by type, at any nesting (deeper than
//   thrift::CompactReader::kMaxDepth is Corruption); a known id with an unexpected wire type is
//   skipped too, as Thrift does, and a required field skipped that way is then reported missing;
// - a required field that is missing is Corruption naming it: "PageHeader.type missing"; but a
//   GeospatialStatistics bounding box missing a coordinate is dropped (it is optional, and
//   nothing else in the file depends on it);
// - enum values are stored as read, known to metadata.h or not (callers decide what they support);
// - union alternatives they do not know read as: LogicalType kind kNone with unknown_field_id set,
//   ColumnOrder kUnknown, EncryptionAlgorithm kNone, ColumnCryptoMetaData kNone, BloomFilterHeader
//   algorithm/hash/compression 0, and a TimeUnit the number of the unknown alternative (0 if none).
// Each reader parses one struct from the start of `data`; `*consumed` (when not null) gets the
// number of bytes the struct took, so a caller can find the bytes that follow (a page's data after
// its header).
//
// Memory: a few bytes of input may stand for a large struct (a ColumnChunk of three bytes is
// hundreds in memory), so checking sizes against the input is not enough. What a reader builds
// (the struct, each list's elements as its vector grows, string bytes) is counted as it is parsed,
// and a reader whose structures would take more than `max_memory` bytes stops with OutOfMemory
// before allocating more (thrift::CompactReader::ChargeMemory). Callers pass the limit they answer
// to (a table's max_memory, the metadata functions' cap); kDefaultMetadataMemory otherwise.
//
// Writers append the compact encoding to *out: fields in id order, absent optionals (and empty
// optional lists held as plain vectors) omitted. What a writer produces, the reader reads back
// equal.
#pragma once

#include <cstddef>
#include <string>

#include "format/metadata/metadata.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq {

// The memory limit of a reader not given one.
inline constexpr int64_t kDefaultMetadataMemory = int64_t{1} << 30;

Status ReadFileMetaData(ByteSpan data, FileMetaData* out, size_t* consumed = nullptr,
                        int64_t max_memory = kDefaultMetadataMemory);
Status ReadPageHeader(ByteSpan data, PageHeader* out, size_t* consumed);
Status ReadColumnIndex(ByteSpan data, ColumnIndex* out, size_t* consumed = nullptr,
                       int64_t max_memory = kDefaultMetadataMemory);
Status ReadOffsetIndex(ByteSpan data, OffsetIndex* out, size_t* consumed = nullptr,
                       int64_t max_memory = kDefaultMetadataMemory);
Status ReadBloomFilterHeader(ByteSpan data, BloomFilterHeader* out, size_t* consumed);
Status ReadFileCryptoMetaData(ByteSpan data, FileCryptoMetaData* out, size_t* consumed);
Status ReadColumnMetaData(ByteSpan data, ColumnMetaData* out, size_t* consumed = nullptr,
                          int64_t max_memory = kDefaultMetadataMemory);

void WriteFileMetaData(const FileMetaData& in, std::string* out);
void WritePageHeader(const PageHeader& in, std::string* out);
void WriteColumnIndex(const ColumnIndex& in, std::string* out);
void WriteOffsetIndex(const OffsetIndex& in, std::string* out);
void WriteBloomFilterHeader(const BloomFilterHeader& in, std::string* out);
void WriteFileCryptoMetaData(const FileCryptoMetaData& in, std::string* out);
void WriteColumnMetaData(const ColumnMetaData& in, std::string* out);

}  // namespace pq
