// Reading the Bloom filter of an encrypted column chunk: at bloom_filter_offset, a header module
// then a bitset module, both under the chunk's key (column_decryptor.h). Shared by pruning
// (scan_plan.cc) and parquet_bloom_probe (ext/index_functions.cc).
#pragma once

#include <cstdint>
#include <optional>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/crypto/column_decryptor.h"
#include "format/file/file_reader.h"
#include "format/metadata/metadata.h"
#include "format/util/status.h"

namespace pq {

// The filter of the chunk `meta` describes (bloom_filter_offset set), decrypted with `decryptor`.
// nullopt when bloom_filter_length claims more bytes than any filter may take (not read). Errors
// have no file, row group or column context (the caller adds it): Corruption for bad offsets,
// lengths and sizes, Crypto when a module fails authentication, NotSupported for a filter of an
// algorithm, hash or compression this reader does not know. Adds the bytes read to *bytes_read.
Result<std::optional<SplitBlockBloomFilter>> ReadEncryptedBloomFilter(
    const RandomAccessFile& file, const ColumnMetaData& meta,
    const crypto::ColumnDecryptor& decryptor, int64_t* bytes_read);

}  // namespace pq
