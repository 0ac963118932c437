// FileReader: one open Parquet file, its parsed footer and schema. Open() reads the tail, checks
// the magic, parses FileMetaData and rebuilds the Schema once; every scan of the file (all cursors
// of a table) shares it, reading through a RandomAccessFile that is safe from several threads. An
// encrypted file opens with the keys of ReaderOptions::decryption: the footer is decrypted or its
// signature checked, and every encrypted chunk's real ColumnMetaData is decrypted once, here. A
// chunk that cannot be decrypted keeps its failure, so only reading that column fails; the other
// columns read as usual. No message ever holds key bytes.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/crypto/column_decryptor.h"
#include "format/crypto/decryption_config.h"
#include "format/encoding/values.h"
#include "format/file/chunk_cache.h"
#include "format/file/random_access_file.h"
#include "format/file/reader_options.h"
#include "format/metadata/metadata.h"
#include "format/schema/schema.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"
#include "format/util/task_pool.h"

namespace pq {

namespace crypto {
class FileDecryptor;
}  // namespace crypto

class FileReader {
 public:
  static Result<std::shared_ptr<FileReader>> Open(const std::string& path, const ReaderOptions& options);
  static Result<std::shared_ptr<FileReader>> Open(std::unique_ptr<RandomAccessFile> file,
                                                  const ReaderOptions& options);

  const std::string& path() const { return file_->path(); }
  const FileMetaData& metadata() const { return metadata_; }
  const Schema& schema() const { return *schema_; }
  std::shared_ptr<const Schema> shared_schema() const { return schema_; }
  const RandomAccessFile& file() const { return *file_; }
  const ReaderOptions& options() const { return options_; }
  int64_t footer_length() const { return footer_length_; }
  int num_row_groups() const { return static_cast<int>(metadata_.row_groups.size()); }

  // Bytes a column chunk may run past its total_compressed_size: parquet-mr before 1.2.9 left the
  // dictionary page header out of that size, so chunks of its files are read up to this much
  // longer.
  int64_t chunk_size_slack() const { return chunk_size_slack_; }

  // The ColumnMetaData of (row group, leaf column); Corruption when absent. For an encrypted chunk:
  // its decrypted metadata, or the chunk's failure (Crypto "column 'x' is encrypted and no key was
  // given for it ...", an authentication failure, ...); callers add file, row group and column.
  Result<const ColumnMetaData*> ColumnMeta(int row_group, int leaf) const;

  // True for a file written with modular encryption (either footer mode).
  bool encrypted() const { return decryptor_ != nullptr; }
  // The file's decryptor, or null for a file that is not encrypted.
  const crypto::FileDecryptor* decryptor() const { return decryptor_.get(); }
  // The module decryptor of chunk (row group, leaf) for its pages, page index and Bloom filter:
  // nullopt for a plaintext chunk (also in an encrypted file); the chunk's failure as for
  // ColumnMeta when it cannot be decrypted. Cheap (no cipher work); safe from several threads.
  Result<std::optional<crypto::ColumnDecryptor>> ChunkDecryptor(int row_group, int leaf) const;

  // Dictionary pages already read for pruning (scan_plan.cc); shared by every scan of this file.
  DictionaryCache& dictionary_cache() const { return *dictionary_cache_; }
  // Bloom filters already read for pruning; shared by every scan of this file.
  BloomFilterCache& bloom_filter_cache() const { return *bloom_filter_cache_; }
  // Parsed page indexes by the file range they are stored at; shared by every scan of this file.
  // An entry is what parsing (and decrypting) the stored bytes gave, before any check against the
  // chunk, so users check it as if they had just read it.
  OffsetIndexCache& offset_index_cache() const { return *offset_index_cache_; }
  ColumnIndexCache& column_index_cache() const { return *column_index_cache_; }

 private:
  FileReader() = default;
  // Decrypts the metadata of every encrypted chunk into metadata_ (failures into chunk_failures_).
  void DecryptColumnMetadata();

  std::unique_ptr<RandomAccessFile> file_;
  FileMetaData metadata_;
  std::shared_ptr<const Schema> schema_;
  ReaderOptions options_;
  int64_t footer_length_ = 0;
  int64_t chunk_size_slack_ = 0;
  BudgetCharge footer_charge_;  // metadata_, charged to options_.metadata_memory
  std::unique_ptr<DictionaryCache> dictionary_cache_;
  std::unique_ptr<BloomFilterCache> bloom_filter_cache_;
  std::unique_ptr<OffsetIndexCache> offset_index_cache_;
  std::unique_ptr<ColumnIndexCache> column_index_cache_;
  std::shared_ptr<const crypto::FileDecryptor> decryptor_;  // null: not encrypted
  // Encrypted chunks whose metadata could not be decrypted, by (row group, leaf): their failure.
  std::map<std::pair<int, int>, Status> chunk_failures_;
};

}  // namespace pq
