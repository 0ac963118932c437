// FileReader: one open Parquet file, its parsed footer and schema.
//
// Open() reads the tail, checks the magic, parses FileMetaData and rebuilds the Schema once; every scan
// of the file (all cursors of a table) shares the same FileReader. Reads go through RandomAccessFile,
// which is safe to use from several threads at once (pread).
//
// Open files. A dataset may have more files than the process may hold descriptors (often 1024), so
// RandomAccessFile keeps at most MaxOpenFiles() descriptors open across the process (by default a
// quarter of the process's descriptor limit, between 16 and 512): opening one more closes the least
// recently read one, which opens its path again at its next read and checks that it is still the
// same file (device, inode, size and modification time); a file replaced in between is an IOError
// naming it, never bytes of another file. An open that finds the process out of descriptors closes
// half of those held here and tries once more.
//
// Encrypted files (the Parquet spec "Parquet Modular Encryption"; format/crypto/) open with the keys
// of ReaderOptions::decryption:
//   - an encrypted footer ("PARE") is decrypted with the footer key (error without it);
//   - a plaintext footer ("PAR1" with encryption_algorithm) is parsed as usual and its signature
//     checked when the footer key is known (a mismatch is an error; without the key the file still
//     opens, unverified);
//   - every encrypted column chunk's real ColumnMetaData is decrypted once, here, and replaces the
//     chunk's meta_data in metadata() (a plaintext footer holds only a copy without statistics).
//     A chunk that cannot be decrypted (no key for it, wrong key) keeps its failure: Open succeeds,
//     the plaintext columns and the columns whose keys were given read as usual, and ColumnMeta /
//     ChunkDecryptor of that chunk return the failure, so only reading that column fails.
// The column and page layers decrypt pages, page indexes and Bloom filters with ChunkDecryptor().
// No message ever holds key bytes.
#pragma once

#include <atomic>
#include <concepts>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/crypto/column_decryptor.h"
#include "format/crypto/decryption_config.h"
#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/reader/memory_budget.h"
#include "format/schema/schema.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"
#include "format/util/task_pool.h"

namespace pq {

namespace crypto {
class FileDecryptor;
}  // namespace crypto
class PageCache;

class RandomAccessFile {
 public:
  static Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path);
  // A file held in memory under a display name (tests, fuzzing).
  static std::unique_ptr<RandomAccessFile> FromBytes(std::string name, std::string bytes);
  ~RandomAccessFile();
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  // Reads exactly `length` bytes at `offset`; Corruption if the range is outside the file.
  Result<BufferPtr> ReadAt(int64_t offset, int64_t length) const;
  Status ReadInto(int64_t offset, int64_t length, uint8_t* out) const;
  int64_t size() const { return size_; }
  int64_t mtime_ns() const { return mtime_ns_; }
  const std::string& path() const { return path_; }
  // A number no other RandomAccessFile of the process has or had (keys of PageCache).
  uint64_t id() const { return id_; }
  // Whether this file holds a descriptor now (false for a file held in memory).
  bool descriptor_open() const;

  // The most descriptors all RandomAccessFiles of the process hold at once (at least 1).
  static void SetMaxOpenFiles(size_t n);
  static size_t MaxOpenFiles();
  static size_t OpenDescriptors();

 private:
  friend class OpenFileList;
  RandomAccessFile(int fd, std::string path, int64_t size, int64_t mtime_ns, uint64_t device,
                   uint64_t inode)
      : fd_(fd), path_(std::move(path)), size_(size), mtime_ns_(mtime_ns), device_(device), inode_(inode),
        id_(next_id_.fetch_add(1, std::memory_order_relaxed)) {}
  // Opens path_ again (fd_ closed by the open-file list) and checks it is the same file. Holds mu_.
  Status Reopen() const;

  mutable std::mutex mu_;  // fd_: reads, reopening, and closing by the open-file list
  mutable int fd_;         // -1: held in memory, or closed until the next read
  std::string memory_;     // the bytes of a file held in memory
  bool in_memory_ = false;
  std::string path_;
  int64_t size_;
  int64_t mtime_ns_;
  uint64_t device_ = 0;
  uint64_t inode_ = 0;
  uint64_t id_;
  static inline std::atomic<uint64_t> next_id_{1};
};

// Limits that keep a malicious file from making the reader allocate or loop without bound.
struct ReaderLimits {
  int64_t max_footer_size = int64_t{256} << 20;  // FileMetaData bytes
  int64_t max_page_size = int64_t{1} << 30;      // compressed or uncompressed bytes of one page
  int64_t max_dictionary_size = int64_t{1} << 30;
  // What a parsed footer may take in memory when ReaderOptions::memory sets no limit (the
  // metadata functions); with a limit, that limit (MetadataMemoryLimit).
  int64_t max_metadata_memory = int64_t{256} << 20;
};

struct ReaderOptions {
  bool verify_checksums = true;
  ReaderLimits limits;
  // Bytes of decompressed dictionary pages a file keeps for pruning (DictionaryCache); 0 keeps none.
  int64_t dictionary_cache_bytes = int64_t{64} << 20;
  // Bytes of Bloom filters a file keeps for pruning (BloomFilterCache); 0 keeps none.
  int64_t bloom_filter_cache_bytes = int64_t{64} << 20;
  // Bytes of parsed page indexes (column and offset indexes) a file keeps; 0 keeps none.
  int64_t page_index_cache_bytes = int64_t{16} << 20;
  // What the page readers of every scan over files opened with these options may hold at once
  // (column chunk bytes read, decrypted and decompressed pages); null: no cap.
  std::shared_ptr<MemoryBudget> memory;
  // Keys for encrypted files (format/crypto/decryption_config.h: footer key, column keys by path,
  // AAD prefix, a retriever by key id). Null: no keys, which still reads plaintext files and the
  // plaintext columns of a file with a plaintext footer.
  std::shared_ptr<const crypto::DecryptionConfig> decryption;
  // Workers that check, decrypt and decompress each column's next page while the current one is
  // decoded (page/page_reader.h, "Reading ahead"); null: every page is loaded when it is reached.
  std::shared_ptr<TaskPool> task_pool;
  // Decompressed pages kept for lookups that land on them again (page/page_cache.h says which
  // pages go in); shared by the files opened with these options. Null: none kept.
  std::shared_ptr<PageCache> page_cache;
};

// The most a file's footer may take in memory once parsed: the limit of options.memory when it
// has one (kMinMetadataMemory at least, so that a table with a tiny max_memory still opens its
// files), else options.limits.max_metadata_memory. A page index may take a quarter of it, and at
// most kMaxPageIndexMemory (PageIndexMemoryLimit). Footers and page indexes are not charged to
// the budget (they are held per file, not per scan); these limits bound each of them instead.
inline constexpr int64_t kMaxPageIndexMemory = int64_t{64} << 20;
inline constexpr int64_t kMinMetadataMemory = int64_t{16} << 20;
int64_t MetadataMemoryLimit(const ReaderOptions& options);
int64_t PageIndexMemoryLimit(const ReaderOptions& options);
// `s` (a parser's OutOfMemory over one of those limits) with the setting that limits it named.
Status OverMetadataLimit(Status s, const ReaderOptions& options);

// A decompressed dictionary page: what the dictionary pruning layer needs to test its entries.
struct CachedDictionary {
  BufferPtr owner;        // these two keep `body` alive (as Page::owner and Page::owner2)
  BufferPtr owner2;
  ByteSpan body;          // the PLAIN-encoded entries
  int64_t num_values = 0;
};

// What pruning and lookups have already read from one file, up to a byte budget: decompressed
// dictionary pages and Bloom filters by (row group, leaf column), parsed page indexes by their file
// offset. A join that scans the same file once per outer row, or a query run again, reads and
// decompresses each of them once, not once per scan. Thread-safe; entries are immutable once
// stored, and entries past the budget are simply not kept.
template <typename T, typename Key = std::pair<int, int>>
class ChunkCache {
 public:
  explicit ChunkCache(int64_t budget_bytes) : budget_(budget_bytes) {}
  std::shared_ptr<const T> Find(const Key& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second;
  }
  std::shared_ptr<const T> Find(int row_group, int leaf) const
    requires std::same_as<Key, std::pair<int, int>>
  {
    return Find(Key{row_group, leaf});
  }
  // Keeps `entry` (which holds `bytes` bytes) when it fits in what is left of the budget.
  void Store(const Key& key, std::shared_ptr<const T> entry, int64_t bytes) {
    if (entry == nullptr) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (bytes > budget_ - used_) return;
    if (entries_.emplace(key, std::move(entry)).second) used_ += bytes;
  }
  void Store(int row_group, int leaf, std::shared_ptr<const T> entry, int64_t bytes)
    requires std::same_as<Key, std::pair<int, int>>
  {
    Store(Key{row_group, leaf}, std::move(entry), bytes);
  }

 private:
  mutable std::mutex mu_;
  int64_t budget_;
  int64_t used_ = 0;
  std::map<Key, std::shared_ptr<const T>> entries_;
};
using DictionaryCache = ChunkCache<CachedDictionary>;
using BloomFilterCache = ChunkCache<SplitBlockBloomFilter>;
// Keyed by (offset, length) of the stored index.
using OffsetIndexCache = ChunkCache<OffsetIndex, std::pair<int64_t, int64_t>>;
using ColumnIndexCache = ChunkCache<ColumnIndex, std::pair<int64_t, int64_t>>;

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
  // dictionary page header out of that size, so chunks of its files are read up to this much longer.
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
  std::unique_ptr<DictionaryCache> dictionary_cache_;
  std::unique_ptr<BloomFilterCache> bloom_filter_cache_;
  std::unique_ptr<OffsetIndexCache> offset_index_cache_;
  std::unique_ptr<ColumnIndexCache> column_index_cache_;
  std::shared_ptr<const crypto::FileDecryptor> decryptor_;  // null: not encrypted
  // Encrypted chunks whose metadata could not be decrypted, by (row group, leaf): their failure.
  std::map<std::pair<int, int>, Status> chunk_failures_;
};

}  // namespace pq
