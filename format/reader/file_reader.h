// FileReader: one open Parquet file, its parsed footer and schema.
//
// Open() reads the tail, checks the magic, parses FileMetaData and rebuilds the Schema once; every scan
// of the file (all cursors of a table) shares the same FileReader. Reads go through RandomAccessFile,
// which is safe to use from several threads at once (pread).
#pragma once

#include <memory>
#include <string>

#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/schema/schema.h"
#include "format/util/status.h"

namespace pq {

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

 private:
  RandomAccessFile(int fd, std::string path, int64_t size, int64_t mtime_ns)
      : fd_(fd), path_(std::move(path)), size_(size), mtime_ns_(mtime_ns) {}
  int fd_;              // -1 for a file held in memory
  std::string memory_;  // the bytes of a file held in memory
  std::string path_;
  int64_t size_;
  int64_t mtime_ns_;
};

// Limits that keep a malicious file from making the reader allocate or loop without bound.
struct ReaderLimits {
  int64_t max_footer_size = int64_t{256} << 20;  // FileMetaData bytes
  int64_t max_page_size = int64_t{1} << 30;      // compressed or uncompressed bytes of one page
  int64_t max_dictionary_size = int64_t{1} << 30;
};

struct ReaderOptions {
  bool verify_checksums = true;
  ReaderLimits limits;
};

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

  // The ColumnMetaData of (row group, leaf column); Corruption when absent (encrypted files aside).
  Result<const ColumnMetaData*> ColumnMeta(int row_group, int leaf) const;

 private:
  FileReader() = default;
  std::unique_ptr<RandomAccessFile> file_;
  FileMetaData metadata_;
  std::shared_ptr<const Schema> schema_;
  ReaderOptions options_;
  int64_t footer_length_ = 0;
  int64_t chunk_size_slack_ = 0;
};

}  // namespace pq
