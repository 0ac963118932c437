// Fuzz target: the Thrift compact-protocol readers of every footer-level structure, and the schema
// built from a FileMetaData that parses. Input: arbitrary bytes (seeds: conformance footers).
#include <cstddef>
#include <cstdint>

#include "format/metadata/metadata_io.h"
#include "format/schema/schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const pq::ByteSpan bytes(data, size);
  pq::FileMetaData metadata;
  if (pq::ReadFileMetaData(bytes, &metadata).ok()) {
    (void)pq::Schema::Make(metadata.schema);
  }
  size_t consumed = 0;
  pq::PageHeader page;
  (void)pq::ReadPageHeader(bytes, &page, &consumed);
  pq::ColumnIndex column_index;
  (void)pq::ReadColumnIndex(bytes, &column_index);
  pq::OffsetIndex offset_index;
  (void)pq::ReadOffsetIndex(bytes, &offset_index);
  pq::BloomFilterHeader bloom;
  (void)pq::ReadBloomFilterHeader(bytes, &bloom, &consumed);
  pq::FileCryptoMetaData crypto;
  (void)pq::ReadFileCryptoMetaData(bytes, &crypto, &consumed);
  pq::ColumnMetaData column;
  (void)pq::ReadColumnMetaData(bytes, &column);
  return 0;
}
