// ColumnChunkReader: values and levels of one leaf column in one row group. It knows nothing of
// nesting: it hands out whole records' worth of definition levels, repetition levels and non-null
// values (ColumnBatch), and record assembly happens above it. Pages are pulled from a PageReader
// one at a time, so memory is the chunk's compressed bytes in flight plus one page. Skipping is by
// whole pages wherever their row counts are known, so skipped rows cost neither a decompression nor
// a decode. An encrypted chunk is read the same way, decrypted on the way (page/page_reader.h).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "format/column/column_batch.h"
#include "format/file/file_reader.h"
#include "format/schema/schema.h"
#include "format/util/row_ranges.h"
#include "format/util/status.h"

namespace pq {

class ColumnChunkReader {
 public:
  // The reader keeps `file` alive. Fails, naming file, row group and column, when the chunk cannot
  // be decrypted (no key for it, wrong key).
  static Result<std::unique_ptr<ColumnChunkReader>> Make(std::shared_ptr<const FileReader> file,
                                                         int row_group, int leaf);
  virtual ~ColumnChunkReader() = default;

  // Appends up to `max_records` whole records to *batch. Returns how many were appended: fewer than
  // asked only at the end of the chunk.
  virtual Result<int64_t> ReadRecords(int64_t max_records, ColumnBatch* batch) = 0;
  // Skips up to `n` records without materializing them. Returns how many were skipped: fewer only
  // at the end of the chunk. With the chunk's OffsetIndex (the Parquet spec, "Page Index"), for
  // every column, the reader jumps to the page holding the next row it needs and the pages it
  // passes are never read; the index is loaded when PlanReads names fewer rows than the chunk has,
  // or when the first call is a SkipRecords. Without it, a flat column passes a page whose header
  // says it holds no more rows than are left to skip (its dictionary is decoded only when a page
  // uses it); nested columns skip record by record through their levels. Only the page that
  // straddles the first row wanted is decoded. An OffsetIndex that fails authentication is an
  // error, not a reason to fall back to the headers.
  virtual Result<int64_t> SkipRecords(int64_t n) = 0;
  // Says which records the caller will read (sorted, disjoint spans within the row group); every
  // other record will be skipped. Call before the first read or skip, at most once. When the spans
  // leave rows out and the chunk has a usable OffsetIndex, only the pages holding the spans' rows
  // are read from the file, neighbouring ones in one read. Reading outside the spans stays correct.
  // An OffsetIndex that contradicts the chunk (offsets outside it or out of order, rows not
  // starting at 0 or going backwards) is ignored and pages are found by their headers instead.
  virtual Status PlanReads(std::span<const RowRange> rows) = 0;

  // The file ranges this reader will read for the rows PlanReads named (all rows without a call),
  // before it has read anything: the chunk, or with the OffsetIndex the runs of pages holding those
  // rows and the dictionary page before them. For a caller that reads the ranges of several readers
  // at once (remote files, RandomAccessFile::remote) and hands each its bytes with Provide.
  virtual Result<std::vector<ByteRange>> PlannedRanges() = 0;
  // File bytes [offset, offset + bytes->size()) read for this reader: reads inside them use them.
  void Provide(int64_t offset, BufferPtr bytes);

  // With `keep` (off by default) and a flat column, ReadRecords leaves the values of
  // dictionary-encoded pages as dictionary indices (ColumnBatch::dictionary), for a batch that
  // holds only such values so far. A page of another encoding (a writer that fell back to PLAIN
  // part-way through the chunk) first gathers the values the batch holds and then appends its own
  // as usual, so a batch is either wholly dictionary-coded or not at all. The dictionary stays
  // valid while this reader lives.
  void set_keep_dictionary_indices(bool keep) { keep_dictionary_indices_ = keep; }

  // With `on` (off by default) and a BYTE_ARRAY column, values of PLAIN pages a worker read ahead
  // (ReaderOptions::task_pool) come as C strings (ColumnBatch::c_strings) where the page holds no
  // NUL byte: the worker copies them so (PageReader::set_c_strings). For a scan that hands the
  // values on as text. Call before the first read.
  void set_c_strings(bool on);

  // For a batch kept as dictionary indices that only a filter reads, a filter at most one entry
  // of the dictionary can satisfy and NULL cannot: `target` is that entry (-1: none), `other` one
  // the filter rejects. Asked once per dictionary with a dictionary-coded batch of it (a nullopt
  // answer: decode as usual); with an answer, the indices are probed instead of decoded
  // (DictionaryIndexDecoder::Probe): each becomes `target` or `other`, and the batch counts the
  // targets (ColumnBatch::probe_found). Values gathered from such a batch are the filter's answer
  // only: read them for rows that satisfy it.
  struct DictionaryProbe {
    int64_t target = -1;
    uint32_t other = 0;
  };
  using DictionaryProbeFn = std::function<std::optional<DictionaryProbe>(const ColumnBatch&)>;
  void set_dictionary_probe(DictionaryProbeFn probe) { probe_ = std::move(probe); }

  const SchemaNode& leaf() const { return *leaf_; }
  // Bytes read from the file (pages, and the OffsetIndex when used).
  int64_t bytes_read() const;
  int64_t values_decoded() const { return values_decoded_; }
  // Data pages whose body was read (CRC, decompression, levels).
  int64_t pages_read() const { return pages_read_; }
  // Data pages passed over without reading their body; with an OffsetIndex, also the pages after
  // the last one read (counted from the index, whether or not the scan went on to them).
  virtual int64_t pages_skipped() const = 0;
  // Pages the page cache supplied already decompressed (page/page_cache.h), and pages a worker
  // loaded ahead (ReaderOptions::task_pool).
  int64_t pages_from_cache() const;
  int64_t pages_read_ahead() const;
  // Records read or skipped so far (the position in the row group).
  int64_t position() const { return position_; }

 protected:
  // The bytes this reader object takes (charged to the table's max_memory by Make).
  virtual int64_t footprint() const = 0;
  // The budget of the file's ReaderOptions (max_memory), which may be null.
  const std::shared_ptr<MemoryBudget>& budget() const { return file_->options().memory; }

  ColumnChunkReader(std::shared_ptr<const FileReader> file, const SchemaNode* leaf)
      : file_(std::move(file)), leaf_(leaf) {}
  std::shared_ptr<const FileReader> file_;
  const SchemaNode* leaf_;
  class PageReader* page_reader_ = nullptr;  // owned by the typed implementation
  int64_t extra_bytes_read_ = 0;  // the OffsetIndex, a dictionary read apart
  int64_t values_decoded_ = 0;
  int64_t pages_read_ = 0;
  int64_t position_ = 0;
  bool keep_dictionary_indices_ = false;
  DictionaryProbeFn probe_;
  const void* probe_dictionary_ = nullptr;  // the dictionary probe_answer_ is for
  std::optional<DictionaryProbe> probe_answer_;
  BudgetCharge footprint_charge_;
};

// "file.parquet, row group 1, column 'a.b'" for messages.
std::string ColumnContext(const FileReader& file, int row_group, const SchemaNode& leaf);

}  // namespace pq
