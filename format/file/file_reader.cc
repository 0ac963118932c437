#include "format/file/file_reader.h"

#include <cstdio>
#include <cstring>

#include "format/crypto/file_decryptor.h"
#include "format/crypto/module_aad.h"
#include "format/metadata/metadata_io.h"

namespace pq {

namespace {
constexpr char kMagic[] = "PAR1";
constexpr char kEncryptedMagic[] = "PARE";
constexpr int64_t kMagicSize = 4;
// The largest dictionary page header an old parquet-mr could have left out of a chunk's size.
constexpr int64_t kOldParquetMrSlack = 100;

// "parquet-mr" with no version, or "parquet-mr version X.Y.Z" below 1.2.9.
bool WrittenByOldParquetMr(const std::optional<std::string>& created_by) {
  if (!created_by) return false;
  const std::string& s = *created_by;
  if (s.rfind("parquet-mr", 0) != 0) return false;
  size_t v = s.find("version ");
  if (v == std::string::npos) return true;
  int major = 0, minor = 0, patch = 0;
  if (std::sscanf(s.c_str() + v + 8, "%d.%d.%d", &major, &minor, &patch) < 2) return true;
  if (major != 1) return major < 1;
  if (minor != 2) return minor < 2;
  return patch < 9;
}
}  // namespace

Result<std::shared_ptr<FileReader>> FileReader::Open(const std::string& path,
                                                     const ReaderOptions& options) {
  PQ_ASSIGN_OR_RETURN(auto file, RandomAccessFile::Open(path, options.remote.get()));
  return Open(std::move(file), options);
}

Result<std::shared_ptr<FileReader>> FileReader::Open(std::unique_ptr<RandomAccessFile> file,
                                                     const ReaderOptions& options) {
  std::shared_ptr<FileReader> reader(new FileReader());
  reader->options_ = options;
  reader->dictionary_cache_ = std::make_unique<DictionaryCache>(options.dictionary_cache_bytes);
  reader->bloom_filter_cache_ = std::make_unique<BloomFilterCache>(options.bloom_filter_cache_bytes);
  // One budget for both kinds of page index.
  reader->offset_index_cache_ = std::make_unique<OffsetIndexCache>(options.page_index_cache_bytes / 2);
  reader->column_index_cache_ = std::make_unique<ColumnIndexCache>(options.page_index_cache_bytes / 2);
  reader->file_ = std::move(file);
  const RandomAccessFile& f = *reader->file_;
  const std::string& path = f.path();
  auto fail = [&path](Status s) { return std::move(s).WithContext(path); };
  if (f.size() < 2 * kMagicSize + 4) {
    return fail(Status::Corruption("not a Parquet file: " + std::to_string(f.size()) +
                                   " bytes is too small"));
  }
  uint8_t tail[8];
  PQ_RETURN_IF_ERROR(f.ReadInto(f.size() - 8, 8, tail));
  const bool encrypted_footer = std::memcmp(tail + 4, kEncryptedMagic, 4) == 0;
  if (!encrypted_footer && std::memcmp(tail + 4, kMagic, 4) != 0) {
    uint8_t head[4];
    PQ_RETURN_IF_ERROR(f.ReadInto(0, 4, head));
    if (std::memcmp(head, kMagic, 4) == 0 || std::memcmp(head, kEncryptedMagic, 4) == 0) {
      return fail(Status::Corruption(
          "no PAR1 magic at the end, though the file starts with one: it is cut short (truncated, or still "
          "being written)"));
    }
    return fail(Status::Corruption("not a Parquet file: no PAR1 magic at the end"));
  }
  const char* magic = encrypted_footer ? kEncryptedMagic : kMagic;
  uint32_t footer_len = LoadLE<uint32_t>(tail);
  if (int64_t{footer_len} > f.size() - 2 * kMagicSize - 4) {
    return fail(Status::Corruption("footer length " + std::to_string(footer_len) +
                                   " does not fit in a file of " + std::to_string(f.size()) +
                                   " bytes"));
  }
  if (int64_t{footer_len} > options.limits.max_footer_size) {
    return fail(Status::OutOfMemory("footer of " + std::to_string(footer_len) +
                                    " bytes is over the limit"));
  }
  // The magic at the start, unless checking it would cost a request of its own (a remote file whose
  // footer came in one request): a remote file that is not Parquet fails at its first page instead.
  uint8_t head[4];
  if (!f.remote()) PQ_RETURN_IF_ERROR(f.ReadInto(0, 4, head));
  if (!f.remote() && std::memcmp(head, magic, 4) != 0) {
    return fail(Status::Corruption(std::string("not a Parquet file: no ") + magic +
                                   " magic at the start"));
  }
  reader->footer_length_ = footer_len;
  PQ_ASSIGN_OR_RETURN(BufferPtr footer, f.ReadAt(f.size() - 8 - footer_len, footer_len));
  const ByteSpan footer_bytes(footer->data(), footer->size());
  static const crypto::DecryptionConfig kNoKeys;
  const crypto::DecryptionConfig& keys = options.decryption ? *options.decryption : kNoKeys;
  int64_t footer_memory = 0;  // what the parsed footer takes
  if (encrypted_footer) {
    // FileCryptoMetaData, then FileMetaData as one module under the footer key.
    std::vector<uint8_t> plain;
    auto decryptor = crypto::FileDecryptor::ForEncryptedFooter(footer_bytes, keys, &plain, path);
    if (!decryptor.ok()) return fail(std::move(decryptor).TakeStatus());
    reader->decryptor_ = std::move(decryptor).value();
    Status s = ReadFileMetaData(ByteSpan(plain.data(), plain.size()), &reader->metadata_, nullptr,
                                MetadataMemoryLimit(options), &footer_memory);
    if (!s.ok()) return fail(OverMetadataLimit(std::move(s), options).WithContext("decrypted footer"));
  } else {
    Status s = ReadFileMetaData(footer_bytes, &reader->metadata_, nullptr, MetadataMemoryLimit(options),
                                &footer_memory);
    if (!s.ok()) return fail(OverMetadataLimit(std::move(s), options).WithContext("footer"));
    if (reader->metadata_.encryption_algorithm) {
      // A plaintext footer followed by its signature: checked when the footer key is known.
      auto decryptor =
          crypto::FileDecryptor::ForPlaintextFooter(footer_bytes, reader->metadata_, keys, path);
      if (!decryptor.ok()) return fail(std::move(decryptor).TakeStatus());
      reader->decryptor_ = std::move(decryptor).value();
    }
  }
  // Kept as long as the file is open, so counted with the footers of the other files opened with
  // these options (a table's): a glob of files that each fit may not hold more than they may together.
  Status charged = reader->footer_charge_.Set(options.metadata_memory, footer_memory, "the parsed footer");
  if (!charged.ok()) return fail(std::move(charged));
  auto schema = Schema::Make(reader->metadata_.schema);
  if (!schema.ok()) return fail(std::move(schema).TakeStatus().WithContext("schema"));
  reader->schema_ = std::move(schema).value();
  const FileMetaData& md = reader->metadata_;
  if (WrittenByOldParquetMr(md.created_by)) reader->chunk_size_slack_ = kOldParquetMrSlack;
  int64_t total_rows = 0;
  for (size_t rg = 0; rg < md.row_groups.size(); ++rg) {
    const RowGroup& g = md.row_groups[rg];
    if (g.columns.size() != static_cast<size_t>(reader->schema_->num_leaves())) {
      return fail(Status::Corruption("row group " + std::to_string(rg) + " has " +
                                     std::to_string(g.columns.size()) + " column chunks, the schema has " +
                                     std::to_string(reader->schema_->num_leaves()) + " leaf columns"));
    }
    if (g.num_rows < 0) {
      return fail(Status::Corruption("row group " + std::to_string(rg) + " has a negative row count"));
    }
    // Row numbers of the file are int64: the row groups' counts must sum within it.
    if (__builtin_add_overflow(total_rows, g.num_rows, &total_rows)) {
      return fail(Status::Corruption("row group " + std::to_string(rg) + " claims " +
                                     std::to_string(g.num_rows) +
                                     " rows: the row groups' counts sum past 2^63-1"));
    }
  }
  reader->DecryptColumnMetadata();
  return reader;
}

void FileReader::DecryptColumnMetadata() {
  for (size_t rg = 0; rg < metadata_.row_groups.size(); ++rg) {
    RowGroup& group = metadata_.row_groups[rg];
    const int64_t rg_ordinal = crypto::RowGroupOrdinal(group, static_cast<int64_t>(rg));
    for (size_t leaf = 0; leaf < group.columns.size(); ++leaf) {
      ColumnChunk& chunk = group.columns[leaf];
      if (!chunk.crypto_metadata) continue;  // a plaintext chunk reads as in any file
      const auto key = std::make_pair(static_cast<int>(rg), static_cast<int>(leaf));
      if (!decryptor_) {
        chunk_failures_[key] = Status::Corruption(
            "column '" + schema_->leaf(static_cast<int>(leaf)).DottedPath() +
            "' is encrypted but the file declares no encryption algorithm");
        continue;
      }
      auto meta = decryptor_->DecryptColumnMetaData(chunk, rg_ordinal, static_cast<int64_t>(leaf));
      if (!meta.ok()) {
        chunk_failures_[key] = std::move(meta).TakeStatus();
        continue;
      }
      chunk.meta_data = std::move(meta).value();
      chunk.encrypted_column_metadata.reset();  // decrypted once; not needed again
    }
  }
}

Result<std::optional<crypto::ColumnDecryptor>> FileReader::ChunkDecryptor(int row_group,
                                                                          int leaf) const {
  const RowGroup& group = metadata_.row_groups[static_cast<size_t>(row_group)];
  const ColumnChunk& chunk = group.columns[static_cast<size_t>(leaf)];
  if (!chunk.crypto_metadata) return std::optional<crypto::ColumnDecryptor>();
  if (auto it = chunk_failures_.find({row_group, leaf}); it != chunk_failures_.end()) {
    return it->second;
  }
  PQ_ASSIGN_OR_RETURN(crypto::ColumnDecryptor d,
                      decryptor_->ForColumn(chunk, crypto::RowGroupOrdinal(group, row_group), leaf,
                                            schema_->leaf(leaf).DottedPath()));
  return std::optional<crypto::ColumnDecryptor>(std::move(d));
}

Result<const ColumnMetaData*> FileReader::ColumnMeta(int row_group, int leaf) const {
  const ColumnChunk& chunk = metadata_.row_groups[row_group].columns[leaf];
  if (chunk.crypto_metadata) {
    if (auto it = chunk_failures_.find({row_group, leaf}); it != chunk_failures_.end()) {
      return it->second;
    }
  }
  if (!chunk.meta_data) return Status::Corruption("column chunk has no metadata");
  return &*chunk.meta_data;
}

}  // namespace pq
