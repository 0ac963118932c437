// FileWriter: writes one Parquet file, row group by row group, a column at a time: Open writes the
// magic, WriteColumn takes the same records for every leaf, EndBatch ends a row group once it is
// full (MarkBoundary ends it early, for a caller that may cut the file back there with TruncateTo),
// Close writes the Bloom filters, page indexes and footer after the row groups (the Parquet spec,
// "File Layout") and fsyncs. Only the row group in progress is held, as encoded, compressed pages
// (about row_group_bytes plus one batch); of the rest, only the metadata. The file is written where
// asked: making it appear atomically is the caller's business (ext/export_writer.h). Values are the
// types of values.h; statistics, the page index and encodings are statistics_builder.h,
// page_index_builder.h and column_writer.h. Every leaf declares ColumnOrder TYPE_ORDER.
#pragma once

#include <cstdint>
#include <map>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/codec/codec.h"
#include "format/crypto/file_encryptor.h"
#include "format/metadata/metadata.h"
#include "format/schema/schema.h"
#include "format/util/status.h"
#include "format/writer/output_file.h"

namespace pq {

class ColumnChunkWriter;

struct WriterOptions {
  CompressionCodec codec = CompressionCodec::kSnappy;
  int compression_level = kDefaultCompressionLevel;  // see codec.h for ranges and defaults
  // A row group ends at EndBatch() once it holds this many rows or this many buffered bytes.
  int64_t row_group_rows = 1'000'000;
  int64_t row_group_bytes = int64_t{128} << 20;
  // A data page ends (on a record boundary) at this many encoded bytes or records. 20,000 rows
  // keeps a point query (page index) down to about 160 KB of 8-byte values per column; larger pages
  // compress a little better (65,536 rows: 10% smaller on the bench table) but cost every lookup.
  int64_t page_bytes = int64_t{1} << 20;
  int64_t page_rows = 20'000;
  int data_page_version = 1;  // 1 or 2
  // Dictionary encoding for every column but BOOLEAN, falling back to the column's value encoding
  // once the dictionary's PLAIN size passes dictionary_page_bytes. 2 MiB holds 100,000 strings of
  // up to 16 bytes (a moderate-cardinality column of a 1M-row group); our reader takes dictionary
  // pages up to ReaderLimits::max_dictionary_size (1 GiB).
  bool dictionary = true;
  int64_t dictionary_page_bytes = int64_t{2} << 20;
  // The encoding trial (column_writer.h), per column chunk, for every column not named in
  // column_encodings: the first values are encoded each candidate way and compressed, and the
  // chunk keeps the smallest of PLAIN and DELTA_BINARY_PACKED (INT32/INT64), or the dictionary
  // (when `dictionary`; one that loses is never built) when its cost projected over row_group_rows
  // rows is within the margin column_writer.h states. Off: the dictionary while it stays under
  // dictionary_page_bytes, PLAIN after it. Off by default here; parquet_export turns it on
  // (ext/export_writer.h): on sorted or evenly spaced integers and on high-cardinality columns it
  // gives smaller files for less work.
  bool encoding_trial = false;
  // Per column (dotted path of a leaf, or of a group: all leaves under it): the value encoding.
  // RLE_DICTIONARY / PLAIN_DICTIONARY mean "dictionary, PLAIN after the fallback" even with
  // `dictionary` off; any other encoding turns the dictionary off for that column. Either way the
  // column has no encoding trial.
  std::map<std::string, Encoding> column_encodings;
  bool page_index = true;  // ColumnIndex + OffsetIndex
  // Statistics in data page headers too. Written anyway when page_index is off, so readers without
  // a page index can still prune pages.
  bool page_header_statistics = false;
  bool checksums = true;  // CRC-32 of every page
  // Columns (dotted paths, as column_encodings) that get a Bloom filter per chunk, sized from the
  // chunk's exact distinct count for bloom_filter_fpp, at most bloom_filter_max_bytes (the default
  // holds a full default row group of distinct values at 1%).
  std::vector<std::string> bloom_filter_columns;
  double bloom_filter_fpp = 0.01;
  int64_t bloom_filter_max_bytes = int64_t{2} << 20;
  // Finished filters waiting for Close(), to be written together before the page indexes; past
  // this many bytes they are written out after the current row group instead (also a standard
  // place). Every ColumnChunk states where its filter and indexes are.
  int64_t bloom_filter_buffer_bytes = int64_t{64} << 20;
  // Written to every row group as given (column_idx = leaf index). The caller guarantees the order.
  std::vector<SortingColumn> sorting_columns;
  std::vector<KeyValue> key_value_metadata;
  std::string created_by;                  // empty: DefaultCreatedBy()
  int64_t statistics_truncate_bytes = 64;  // BYTE_ARRAY min/max longer than this are truncated
  // Null: a plaintext file. Otherwise the algorithm, footer key, footer mode, AAD prefix and
  // per-column keys (crypto/file_encryptor.h). A column_keys entry may name a leaf or a group (all
  // leaves under it); one that names no column is InvalidArgument. The file then starts and ends
  // with "PARE" (encrypted footer) or "PAR1" (signed plaintext footer); encrypted columns (all,
  // under the footer key, when column_keys is empty) have their pages, headers, page index and
  // Bloom filter written as modules under their key, the others as in a plaintext file. The file id
  // and every nonce are fresh random bytes. With key_wrapping, the keys are fresh keys of this file
  // stored wrapped by master keys as PKMT1 key material (crypto/key_wrapper.h).
  std::shared_ptr<const crypto::EncryptionConfig> encryption;
};

// "sqlite-parquet version <PQ_VERSION> (build <PQ_BUILD_ID or 'dev'>)", the format parquet.thrift
// asks for in FileMetaData.created_by.
std::string DefaultCreatedBy();

class FileWriter {
 public:
  // Creates (or truncates) `path` and writes the leading magic. `schema` is the footer's list of
  // SchemaElements, root first, depth first; ConvertedTypes are added where a LogicalType has one
  // (AddConvertedTypes). InvalidArgument for a schema that is not one tree or has no leaf, or an
  // option that is out of range, names no column, or does not suit the column's type (encoding,
  // Bloom filter on BOOLEAN); IOError when the file cannot be created.
  static Result<std::unique_ptr<FileWriter>> Open(const std::string& path,
                                                  std::vector<SchemaElement> schema,
                                                  WriterOptions options = {});
  // The same into the OutputFile `make_output` returns (called once the schema and options are
  // checked; an S3 object, for one): `path` names it in messages.
  using OutputMaker = std::function<Result<std::unique_ptr<OutputFile>>()>;
  static Result<std::unique_ptr<FileWriter>> Open(const std::string& path, const OutputMaker& make_output,
                                                  std::vector<SchemaElement> schema, WriterOptions options = {});
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  const Schema& schema() const { return *schema_; }
  const WriterOptions& options() const { return options_; }
  const std::string& path() const { return path_; }
  // The key material file's JSON when the keys are wrapped with external storage; else empty. The
  // caller must store it as `_KEY_MATERIAL_FOR_<file name>.json` beside the file it publishes
  // (crypto::KeyMaterialPathFor), or the file cannot be decrypted.
  const std::string& external_key_material() const { return external_key_material_; }

  // Appends whole records to leaf column `leaf` of the current row group (see
  // TypedColumnChunkWriter::Write for the levels and values it takes and checks). InvalidArgument
  // for a wrong leaf or value type, or bad levels; those leave the file as it was.
  template <typename T>
  Status WriteColumn(int leaf, int64_t num_levels, const int16_t* def_levels,
                     const int16_t* rep_levels, const T* values, int64_t num_values);

  // Makes the current row group's column writers, as the first WriteColumn of a row group does.
  // Once it succeeded, WriteColumn calls for distinct leaves may run on different threads at the
  // same time (with no other call on this writer meanwhile): each leaf's chunk is its own.
  Status StartRowGroup();

  // Records the current row group holds in leaf column 0.
  int64_t row_group_rows() const;
  // Records that still fit in the current row group by its row limit.
  int64_t row_group_rows_left() const { return options_.row_group_rows - row_group_rows(); }
  // Encoded bytes the current row group holds.
  int64_t buffered_bytes() const;

  // Call when every column received the same records. Ends the row group when it holds
  // row_group_rows rows or row_group_bytes bytes. InvalidArgument when the columns disagree on
  // their record counts.
  Status EndBatch();
  // Ends the current row group now (nothing happens when it is empty). InvalidArgument when the
  // columns disagree on their record counts.
  Status EndRowGroup();

  // A place the file can be cut back to: the end of a row group, with the Bloom filters of every
  // row group before it written out (so that none of theirs lies after it).
  struct Boundary {
    size_t row_groups = 0;  // row groups before it
    int64_t position = 0;   // file offset
  };
  // Ends the current row group (EndRowGroup), writes the pending Bloom filters, and returns the
  // place the file has reached.
  Result<Boundary> MarkBoundary();
  // Takes back everything written after `boundary` (a place MarkBoundary returned since the file
  // was opened, not past the file's end): the row groups after it with their page indexes and
  // Bloom filters, the rows of the current row group, and the file's bytes past it. The writer is
  // then as it was when MarkBoundary returned, and goes on writing row group
  // `boundary.row_groups`.
  Status TruncateTo(const Boundary& boundary);

  // Ends the last row group, writes Bloom filters, page indexes and the footer, fsyncs and closes.
  // On failure the file is deleted. Once closed, every call but metadata() fails.
  Status Close();
  // Closes and deletes the file. Safe to call at any time, more than once.
  void Abort();

  // The footer as written (complete after Close()); for an encrypted file, the FileMetaData before
  // encryption: every chunk with its full meta_data, no crypto fields.
  const FileMetaData& metadata() const { return metadata_; }
  // Rows in the row groups ended so far.
  int64_t num_rows() const { return metadata_.num_rows; }
  // Bytes the file holds so far: the row groups ended (and Bloom filters written between them);
  // after Close(), the whole file.
  int64_t bytes_written() const;

 private:
  struct ColumnState;
  struct PendingIndexes;
  struct PendingBloom;

  FileWriter() = default;
  Status CheckOpen() const;
  Status EnsureWriters();
  Status CheckAligned() const;
  Status FinishRowGroup();
  Status WritePendingBlooms();
  Status WriteTail();
  Status Fail(Status s);
  // The encryptor of chunk (row group, leaf), or nullopt when the chunk is written in plaintext.
  Result<std::optional<crypto::ColumnEncryptor>> ColumnEncryptorFor(size_t row_group,
                                                                    size_t leaf) const;
  // The footer (crypto footer, length, magic) of an encrypted file.
  Status AppendEncryptedFooter(std::string* out) const;

  std::string path_;
  std::string external_key_material_;
  WriterOptions options_;
  std::vector<SchemaElement> elements_;
  std::shared_ptr<const Schema> schema_;
  std::vector<ColumnState> columns_;                         // per leaf
  std::vector<std::unique_ptr<ColumnChunkWriter>> writers_;  // the current row group, per leaf
  std::unique_ptr<OutputFile> file_;
  std::unique_ptr<crypto::FileEncryptor> encryptor_;  // null: a plaintext file
  FileMetaData metadata_;
  std::vector<PendingIndexes> indexes_;  // per row group
  std::vector<PendingBloom> blooms_;
  int64_t pending_bloom_bytes_ = 0;
  Status failure_;  // sticky: a failure after which the file cannot be completed
  bool closed_ = false;
  bool aborted_ = false;
};

}  // namespace pq
