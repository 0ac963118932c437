// PageReader: walks the pages of one column chunk.
//
// Reads the chunk's bytes once, then for each page: parses the PageHeader, checks its sizes against the
// chunk and the configured limits, verifies the CRC-32 when present (and enabled), and decompresses.
// Index pages and page types this reader does not know are skipped. A data page v2 keeps its levels
// uncompressed apart from its values; a v1 page hands out one body holding levels then values.
#pragma once

#include <memory>
#include <string>

#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/reader/file_reader.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq {

struct Page {
  PageHeader header;
  PageType type = PageType::kDataPage;
  int ordinal = 0;             // data pages counted from 0 within the chunk (dictionary excluded)
  int64_t num_values = 0;      // level entries (data pages) or dictionary entries
  Encoding encoding = Encoding::kPlain;
  // v1 data page and dictionary page: the whole decompressed body.
  // v2 data page: the decompressed values only; levels are in rep_levels/def_levels.
  ByteSpan body;
  ByteSpan rep_levels;  // v2 only
  ByteSpan def_levels;  // v2 only
  BufferPtr owner;      // keeps `body` (and the level spans) alive
  BufferPtr owner2;
  const Statistics* statistics() const;
};

class PageReader {
 public:
  // `context` names file, row group and column for error messages. `slack` extends the chunk past
  // total_compressed_size (see FileReader::chunk_size_slack).
  PageReader(const RandomAccessFile& file, const ColumnMetaData& meta, const ReaderOptions& options,
             std::string context, int64_t slack = 0);

  // Reads the next page into *page. Returns false at the end of the chunk.
  Result<bool> Next(Page* page);

  const std::string& context() const { return context_; }
  int64_t bytes_read() const { return bytes_read_; }

 private:
  Status LoadChunk();
  Status Fail(Status s, int page_ordinal) const;

  const RandomAccessFile& file_;
  const ColumnMetaData& meta_;
  const ReaderOptions& options_;
  std::string context_;
  int64_t slack_ = 0;
  BufferPtr chunk_;      // the chunk's compressed bytes
  size_t pos_ = 0;       // next page header in chunk_
  bool loaded_ = false;
  int data_page_ordinal_ = 0;
  int page_index_ = 0;   // all pages, for messages
  int64_t values_seen_ = 0;
  int64_t bytes_read_ = 0;
};

}  // namespace pq
