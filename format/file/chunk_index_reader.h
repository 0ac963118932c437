// ChunkIndexReader: the structures stored beside a column chunk that describe it without its pages,
// its Bloom filter and its page index (ColumnIndex and OffsetIndex), plain or encrypted under the
// chunk's key (the Parquet spec "Parquet Modular Encryption": a header module then a bitset module
// for a Bloom filter, one module per index). Pruning (predicate/scan_plan.cc), the column reader
// (its OffsetIndex) and the metadata functions (parquet_page_index, parquet_bloom_probe) all read
// them here, so bounds checks, size caps, decryption, the FileReader's caches and the errors are
// the same for each. Every offset and length comes from the footer and is checked against the file
// before anything is allocated. Errors name the structure but not the file, row group or column:
// the caller adds those.
//
// Remote files (RandomAccessFile::remote: every read a round trip): the first page index read of a
// row group reads the page indexes of all its chunks in one ReadRanges call and keeps them parsed
// in the caches (PrefetchPageIndexes), so the other columns of the row group find theirs there;
// PrefetchBloomFilters does the same for one column's Bloom filters over several row groups.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/crypto/column_decryptor.h"
#include "format/file/file_reader.h"
#include "format/metadata/metadata.h"
#include "format/util/status.h"

namespace pq {

// Whether the Bloom filters of a file whose footer says `created_by` may be probed at all. Not those
// of the parquetjs family (created_by containing "parquetjs", as @dsnp/parquetjs writes it): it
// hashes every value as its JavaScript text (the INT32 5 as "5", a binary value decoded as UTF-8),
// not its PLAIN encoding, so its filters would drop rows that hold the value. Its headers leave the
// hash unset so far, which the reader refuses anyway; this keeps a header that names XXHASH from
// making such filters trusted.
bool BloomFiltersUsable(const std::optional<std::string>& created_by);

// A chunk's page index as stored. Either part may be missing (null); when both are there they
// describe the same number of pages.
struct ChunkPageIndex {
  std::shared_ptr<const OffsetIndex> offsets;
  std::shared_ptr<const ColumnIndex> columns;
  size_t num_pages = 0;  // entries of either part
};

class ChunkIndexReader {
 public:
  // Chunk (row_group, leaf) of `file`; `decryptor` is its FileReader::ChunkDecryptor (nullopt for a
  // plaintext chunk). The bytes read from the file are added to *bytes_read (may be null).
  ChunkIndexReader(const FileReader& file, int row_group, int leaf,
                   std::optional<crypto::ColumnDecryptor> decryptor, int64_t* bytes_read);

  // The Bloom filter of the chunk whose metadata is `meta`: null when there is none this reader
  // uses (none stored, one of a writer whose filters are not trusted, one larger than any filter may
  // be, one of an algorithm, hash or compression not known here). Read with bloom_filter_length when
  // the footer gives it, else its header first (a short probe, then up to 4 KiB when the header is
  // longer), then the bitset it announces. A filter whose offset, length, header or size does not
  // fit is not used either (null): it is optional, and so is one the table's budget
  // (ReaderOptions::memory) has no room for: it is charged there while it is read and held. IOError
  // for a failed read, Crypto when a module fails authentication. Kept in the file's
  // BloomFilterCache while the budget's holders take at most a quarter of it.
  Result<std::shared_ptr<const SplitBlockBloomFilter>> ReadBloomFilter(const ColumnMetaData& meta) const;

  // The chunk's OffsetIndex / ColumnIndex: null when the footer points to none. Read with the length
  // the footer gives, else (no length) from 64 KiB up to limits.max_footer_size, more each time the
  // parse runs out of bytes. Corruption for an offset outside the file, a length that is not positive
  // or runs past its end, a structure that does not parse (or a ColumnIndex whose lists differ in
  // length); NotSupported over limits.max_footer_size; OutOfMemory when, parsed, it would take more
  // than PageIndexMemoryLimit (naming the setting); Crypto when a module fails authentication.
  // A structure read with a known length is kept in the file's OffsetIndexCache / ColumnIndexCache.
  Result<std::shared_ptr<const OffsetIndex>> ReadOffsetIndex() const;
  Result<std::shared_ptr<const ColumnIndex>> ReadColumnIndex() const;
  // Both, with one RandomAccessFile::ReadRanges call when both lengths are known and neither is
  // cached; Corruption when they describe different numbers of pages.
  Result<ChunkPageIndex> ReadPageIndex() const;

  // Reads the page indexes (both parts, stored with their lengths) of every chunk of `row_groups`
  // not cached yet in one ReadRanges call and keeps them in the file's caches. A chunk whose index
  // does not parse is left out (its reader reports it when it reads it). Bytes read are added to
  // *bytes_read (may be null). Only IOError and interrupts are errors.
  static Status PrefetchPageIndexes(const FileReader& file, std::span<const int> row_groups, int64_t* bytes_read);
  // The same for the OffsetIndex alone, of leaf columns `leaves` (all when empty) in `row_groups`:
  // what a column reader needs to read a chunk (by page locations, or checking the pages it walks),
  // without the ColumnIndex that only a filter uses.
  static Status PrefetchOffsetIndexes(const FileReader& file, std::span<const int> row_groups,
                                      std::span<const int> leaves, int64_t* bytes_read);
  // The same for the Bloom filters (stored with their lengths) of leaf column `leaf` in `row_groups`.
  static Status PrefetchBloomFilters(const FileReader& file, int leaf, std::span<const int> row_groups,
                                     int64_t* bytes_read);

 private:
  template <typename T>
  Result<std::shared_ptr<const T>> ReadIndex(const char* what, const std::optional<int64_t>& offset,
                                             const std::optional<int32_t>& length, ChunkCache<T, std::pair<int64_t, int64_t>>& cache,
                                             BufferPtr stored) const;
  Result<BufferPtr> Read(int64_t offset, int64_t length) const;
  // Both charge what they hold to *charge before reading the bitset (OutOfMemory when refused).
  Result<std::optional<SplitBlockBloomFilter>> ReadPlainBloomFilter(const ColumnMetaData& meta,
                                                                    BudgetCharge* charge) const;
  Result<std::optional<SplitBlockBloomFilter>> ReadEncryptedBloomFilter(const ColumnMetaData& meta,
                                                                        BudgetCharge* charge) const;

  // Bytes read ahead (the Prefetch functions): Read serves from them.
  std::vector<std::pair<int64_t, BufferPtr>> held_;
  const FileReader& file_;
  const ColumnChunk& chunk_;
  int row_group_;
  int leaf_;
  std::optional<crypto::ColumnDecryptor> decryptor_;
  int64_t* bytes_read_;
};

}  // namespace pq
