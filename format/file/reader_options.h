// ReaderOptions: how the files of a table (or any other reader) are opened and read: limits against
// malicious files, the byte budgets of what a file keeps for pruning (chunk_cache.h), the memory cap
// of page buffers, keys for encrypted files, read-ahead workers and the page cache.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "format/crypto/decryption_config.h"
#include "format/file/memory_budget.h"
#include "format/util/status.h"
#include "format/util/task_pool.h"

namespace pq {

class PageCache;  // page/page_cache.h: the page layer's, carried here for the files that share it
namespace remote {
class RemoteAccess;  // remote/remote_access.h
}  // namespace remote

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
  // What the parsed footers of all files opened with these options may take together (a table's
  // files): each FileReader charges its footer here for as long as it is open. Null: no bound on
  // the sum, only on each footer (MetadataMemoryLimit).
  std::shared_ptr<MemoryBudget> metadata_memory;
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
  // How http(s):// and s3:// paths are reached (clients, credentials, retries); null: default
  // settings (the AWS environment and files, no interrupt).
  std::shared_ptr<remote::RemoteAccess> remote;
};

// The most a file's footer may take in memory once parsed: the limit of options.memory when it
// has one (kMinMetadataMemory at least, so that a table with a tiny max_memory still opens its
// files), else options.limits.max_metadata_memory. A page index may take a quarter of it, and at
// most kMaxPageIndexMemory (PageIndexMemoryLimit). Footers are held per file, not per scan: they
// are not charged to `memory` but to `metadata_memory`, which bounds the footers of a table's files
// together; page indexes are bounded one by one, and charged to `memory` by the column readers
// that hold them.
inline constexpr int64_t kMaxPageIndexMemory = int64_t{64} << 20;
inline constexpr int64_t kMinMetadataMemory = int64_t{16} << 20;

inline int64_t MetadataMemoryLimit(const ReaderOptions& options) {
  if (options.memory && options.memory->limit() > 0) {
    return std::max(options.memory->limit(), kMinMetadataMemory);
  }
  return options.limits.max_metadata_memory;
}

inline int64_t PageIndexMemoryLimit(const ReaderOptions& options) {
  return std::min(kMaxPageIndexMemory, MetadataMemoryLimit(options) / 4);
}

// `s` (a parser's OutOfMemory over one of those limits) with the setting that limits it named.
inline Status OverMetadataLimit(Status s, const ReaderOptions& options) {
  if (s.code() != StatusCode::kOutOfMemory) return s;
  const std::string setting =
      options.memory && options.memory->limit() > 0
          ? options.memory->setting()
          : "the limit of " + std::to_string(options.limits.max_metadata_memory >> 20) +
                " MiB for a file's metadata outside a table";
  return Status(s.code(), s.message() + " (" + setting + ")");
}

}  // namespace pq
