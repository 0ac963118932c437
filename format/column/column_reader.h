// ColumnChunkReader: values and levels of one leaf column in one row group.
//
// It knows nothing of nesting: it hands out whole records' worth of definition levels, repetition
// levels and non-null values (ColumnBatch); record assembly happens above it. Pages are pulled from a
// PageReader one at a time, so memory is one chunk's compressed bytes plus one page.
#pragma once

#include <memory>
#include <string>

#include "format/column/column_batch.h"
#include "format/reader/file_reader.h"
#include "format/schema/schema.h"
#include "format/util/status.h"

namespace pq {

class ColumnChunkReader {
 public:
  // The reader keeps `file` alive.
  static Result<std::unique_ptr<ColumnChunkReader>> Make(std::shared_ptr<const FileReader> file,
                                                         int row_group, int leaf);
  virtual ~ColumnChunkReader() = default;

  // Appends up to `max_records` whole records to *batch. Returns how many were appended: fewer than
  // asked only at the end of the chunk.
  virtual Result<int64_t> ReadRecords(int64_t max_records, ColumnBatch* batch) = 0;
  // Skips up to `n` records without materializing them. Returns how many were skipped.
  virtual Result<int64_t> SkipRecords(int64_t n) = 0;

  const SchemaNode& leaf() const { return *leaf_; }
  int64_t bytes_read() const;
  int64_t values_decoded() const { return values_decoded_; }
  int64_t pages_read() const { return pages_read_; }

 protected:
  ColumnChunkReader(std::shared_ptr<const FileReader> file, const SchemaNode* leaf)
      : file_(std::move(file)), leaf_(leaf) {}
  std::shared_ptr<const FileReader> file_;
  const SchemaNode* leaf_;
  class PageReader* page_reader_ = nullptr;  // owned by the typed implementation
  int64_t values_decoded_ = 0;
  int64_t pages_read_ = 0;
};

// "file.parquet, row group 1, column 'a.b'" for messages.
std::string ColumnContext(const FileReader& file, int row_group, const SchemaNode& leaf);

}  // namespace pq
