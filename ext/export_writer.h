// ExportWriter: rows of SQLite values into one Parquet file that appears whole or not at all,
// shared by parquet_export() and the writable `parquet` table. Rows go through one ColumnBuilder
// per column (export_types.h) and reach the engine's FileWriter in batches (8192 rows at most,
// fewer at 16 MiB or when a row group is about to fill), so memory is bounded by one batch plus the
// row group the FileWriter buffers. Row groups end by rows or by the values' bytes before encoding,
// so their boundaries do not depend on threads=, and with threads=N > 1 the file is the same byte
// for byte: the same calls reach the FileWriter in the same order, on other threads. The options
// (ParseExportOptions) are documented in docs/writing.md ("Options"), docs/encryption.md and
// docs/remote.md. An s3:// target is a multipart upload completed by Publish() and aborted
// otherwise (remote/s3_output_file.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ext/export_types.h"
#include "ext/options.h"
#include "ext/sqlite_api.h"
#include "format/crypto/decryption_config.h"
#include "format/remote/remote_access.h"
#include "format/writer/file_writer.h"

namespace pq::ext {

// Every writer option key, `schema` included.
extern const std::vector<std::string_view> kWriterOptionNames;
// kWriterOptionNames and the remote settings (kRemoteOptionNames): what parquet_export and a
// write table accept.
const std::vector<std::string_view>& ExportOptionNames();

struct ExportColumn {
  std::string name;
  ColumnType type;
  std::optional<int32_t> field_id;  // schema='name TYPE FIELD_ID n': the element's field_id
};

struct SortKey {
  std::string column;
  bool descending = false;
};

// Writer options as parsed; column names are resolved when an ExportWriter is made.
struct ExportOptions {
  WriterOptions writer;  // everything but column_encodings, bloom_filter_columns, sorting_columns
  // parquet_export's own (not ParseExportOptions'): a file is full (ExportWriter::file_full) once
  // it holds this many bytes or row groups; 0: no limit.
  int64_t file_size_bytes = 0;
  int64_t row_groups_per_file = 0;
  std::vector<ExportColumn> schema;                         // schema=, in order
  std::vector<std::pair<std::string, Encoding>> encodings;  // encoding=
  std::vector<std::string> bloom_columns;                   // bloom_filter=
  std::vector<SortKey> sorted_by;                           // sorted_by=
  int threads = 1;                                          // threads=
  bool progress = false;  // progress=: rows written, time and rate on stderr (export_progress.h)
  std::vector<remote::Setting> remote_settings;             // s3_... and http_...
  // How s3:// targets are reached: set by the caller from remote_settings and the connection's
  // registry (MakeRemoteAccess); null: default settings.
  std::shared_ptr<remote::RemoteAccess> remote;
};

// A file an export wrote: where (the target, or a path relative to the folder of a folder export),
// its rows, its size, its footer, and for a partitioned export its partition values as their
// folder names give them (col=value).
struct ExportedFile {
  std::string path;
  int64_t rows = 0;
  int64_t bytes = 0;
  FileMetaData metadata;
  std::vector<std::pair<std::string, std::string>> partition;
};

// threads= when not given: the machine's hardware threads, at most 4 (1 when unknown). The file
// does not depend on it; on 2 cores, 2 threads took a 10-million-row export from 7.1 to 4.1 s.
int DefaultExportThreads();

// Parses the writer options of `opts` (the caller checks for keys it does not know). `keys` is the
// connection's key registry (master keys by id; may be null). Errors name the option:
// "option 'compression': unknown codec 'lzop'".
Result<ExportOptions> ParseExportOptions(const OptionList& opts,
                                         std::shared_ptr<const crypto::KeyRegistry> keys = nullptr);

// Parses `schema=` text: "name TYPE, name TYPE(a,b), ..." (names may be quoted), each type
// optionally followed by FIELD_ID n (0 <= n <= 2^31 - 1, distinct): the column's field_id, as
// Iceberg and other table formats match columns by. Every type must be known (ParseColumnType not
// kInfer). InvalidArgument naming the entry.
Result<std::vector<ExportColumn>> ParseSchemaOption(std::string_view text);

// Whether a file can be written at `target`, checked before any row is read: IOError naming the
// target when it is a folder, a FIFO or any other file that is not a regular file, or when its
// folder does not exist, is not a folder or is not writable. (A regular file there is replaced.) An
// s3:// target passes: its upload reports what is wrong.
Status CheckOutputFile(const std::string& target);

// The file targets being written in this process: a write table's from its first row until its
// transaction ends (the file is put in place at COMMIT), parquet_export's while it runs. Two writers
// of one target would each rename their file over it, and the first one's rows would be gone without
// a word: the second is refused. Paths are compared as canonical absolute paths (s3:// as written).
class TargetClaim {
 public:
  enum Writer { kWriteTable, kExport };
  // The claim on `target` for `who`, or an error naming it and its holder.
  static Result<std::unique_ptr<TargetClaim>> Take(const std::string& target, Writer who);
  ~TargetClaim();
  TargetClaim(const TargetClaim&) = delete;
  TargetClaim& operator=(const TargetClaim&) = delete;

 private:
  explicit TargetClaim(std::string key) : key_(std::move(key)) {}
  std::string key_;
};

class ExportWriter {
 public:
  // Checks the columns (at least one, names unique ignoring case) and resolves the column names of
  // the options. Creates nothing on disk yet.
  static Result<std::unique_ptr<ExportWriter>> Make(std::string target,
                                                    std::vector<ExportColumn> columns,
                                                    const ExportOptions& options);
  ~ExportWriter();
  ExportWriter(const ExportWriter&) = delete;
  ExportWriter& operator=(const ExportWriter&) = delete;

  // Appends one row: values[i] for column i. A value that does not fit its column is
  // InvalidArgument "row N, column 'c': <why>" (N counts from 1) and leaves the rows as they were.
  // Columns of type kInfer are decided from the first batch, whose rows are kept as copies until
  // then; a later value that does not fit the inferred type is an error telling to declare the type
  // with schema=. With threads > 1, a failure of the encoding (a value over 4 GiB, a codec error)
  // is reported by the next AppendRow or by Finish.
  Status AppendRow(sqlite3_value** values);
  // Rows appended (and not taken back).
  int64_t rows() const { return rows_; }
  // Rows already handed to the file: TruncateRows cannot go below this.
  int64_t written_rows() const { return written_rows_; }
  // Drops the rows from `rows` on. InvalidArgument when some of them are already written.
  Status TruncateRows(int64_t rows);

  // The file is written to `.<name>.tmp-<pid>-<random hex>` beside the target (names of that form
  // are temporaries of this writer). Abort(), a failure, or destroying a writer not published
  // removes it: the target is then exactly as it was.
  //
  // Take-back points, a stack, as SQLite's savepoints are (the writable table's xSavepoint,
  // xRelease and xRollbackTo). TakeBackTo(k) drops every row appended after point k was pushed,
  // whether still in memory or already in the file, and leaves the writer as it was then.
  // Memory stays as bounded as without points: rows go to the file as usual, and a point becomes a
  // row-group boundary of the file (FileWriter::MarkBoundary) when rows after it are handed to the
  // file, so taking back past it cuts the file back there. Pushing a point hands the rows held in
  // memory to the file first, so that it sits between batches; a point thus ends a row group early
  // only when more than a batch of rows follows it while it is still set.
  Status PushTakeBackPoint();
  // Forgets every point after the first `keep`.
  void PopTakeBackPoints(size_t keep);
  // Drops the rows appended after point `point` (< take_back_points()) was pushed and forgets the
  // points after it. A failure (the file cannot be cut back) leaves the writer failed.
  Status TakeBackTo(size_t point);
  size_t take_back_points() const { return points_.size(); }
  // The rows appended before point `point` (< take_back_points()) was pushed.
  int64_t take_back_point_rows(size_t point) const { return points_[point].rows; }
  // True once a failure made the writer unusable (every later call fails).
  bool failed() const { return failed_; }
  // True once Finish succeeded (the file waits for Publish).
  bool finished() const { return finished_; }

  // Writes what is left, the footer, and fsyncs the temporary. On failure the temporary is removed.
  // With key_material=external, also writes and fsyncs the key material to a temporary beside
  // `_KEY_MATERIAL_FOR_<name>.json`.
  Status Finish();
  // Renames the finished temporary over the target and fsyncs the folder (best effort: some file
  // systems refuse). External key material is renamed into place just before the file, and the
  // material it replaced (kept by a hard link) is put back if the file's rename fails, so both
  // appear or neither; only a crash between the two renames can leave the new material beside the
  // old file, which readers then refuse (its keys do not authenticate).
  Status Publish();
  // Removes the temporary (if any). The writer is unusable afterwards.
  void Abort();
  // Deletes what Publish made appear on S3 (best effort; the cleanup of a partitioned export
  // whose other files could not be completed). Nothing for a local file.
  void RemovePublished();

  // True once the file holds options.file_size_bytes bytes or options.row_groups_per_file row
  // groups: the row group in progress was ended, and the caller should Finish this file and start
  // another. With file_size_bytes each batch's encoding is waited for (threads > 1), so the size is
  // known: the bytes of the row groups written plus those the one in progress holds encoded.
  bool file_full() const { return file_full_; }
  // After Finish(): the footer written and the file's size.
  const FileMetaData& metadata() const { return metadata_; }
  int64_t file_bytes() const { return file_bytes_; }

  const std::string& target() const { return target_; }
  const std::string& temporary_path() const { return temp_path_; }
  const std::vector<ExportColumn>& columns() const { return columns_; }

 private:
  ExportWriter() = default;
  Status Fail(Status s);
  Status DecideInferredTypes();
  Status OpenFile();
  // Writes key_material_ to key_material_temp_ (fsynced).
  Status WriteKeyMaterial();
  // Whether the row keeps the order sorted_by declares after the last row taken.
  Status CheckSortOrder(sqlite3_value** values);
  // The row, taken, is the one the next rows are checked against.
  Status RememberSortValues(sqlite3_value** values);
  // threads > 1: one encoding thread takes the batches in order and, for N > 2, shares each
  // batch's columns with N-2 more workers; at most N batches wait (the calling thread then waits).
  class Pipeline;
  Status Flush();
  // Makes every take-back point at written_rows_ a row-group boundary of the file.
  Status MarkTakeBackBoundaries();
  int64_t BatchLimit() const;

  // Writes one batch (every column's rows in `builders`, which it empties) to the file, then ends
  // the row group when `end_row_group`. On the calling thread (`pipeline` null), or on the
  // encoding thread of `pipeline`, which shares the columns with its workers.
  Status WriteBatch(std::vector<ColumnBuilder>* builders, bool end_row_group, Pipeline* pipeline);
  // Writes the rows of `builder`, column `column`, to the file and empties it; the error names
  // the column.
  Status WriteColumn(ColumnBuilder* builder, size_t column);

  std::string target_;
  std::string temp_path_;
  std::shared_ptr<remote::RemoteAccess> remote_;    // for an s3:// target
  std::shared_ptr<remote::S3OutputFile> object_;    // an s3:// target being written
  std::vector<ExportColumn> columns_;
  WriterOptions options_;
  std::vector<std::pair<int, bool>> sort_keys_;  // column, descending
  std::vector<ColumnBuilder> builders_;          // per column, once the types are known
  std::vector<int> first_leaf_;                  // per column, its first leaf column in the file
  bool types_known_ = false;
  std::vector<sqlite3_value*> pending_;           // row-major copies while inferring types
  size_t pending_bytes_ = 0;                      // about what pending_ holds
  std::vector<sqlite3_value*> last_sort_values_;  // sort key values of the last row
  std::unique_ptr<FileWriter> file_;
  std::string key_material_;       // the external key material file's JSON; empty: none
  std::string key_material_temp_;  // its temporary, once written
  int threads_ = 1;
  std::unique_ptr<Pipeline> pipeline_;  // threads_ > 1, once the file is open
  int64_t file_size_bytes_ = 0;         // ExportOptions::file_size_bytes
  int64_t row_groups_per_file_ = 0;     // ExportOptions::row_groups_per_file
  int64_t row_groups_ = 0;              // row groups ended
  bool file_full_ = false;
  FileMetaData metadata_;               // after Finish
  int64_t file_bytes_ = 0;              // after Finish
  int64_t row_group_rows_ = 0;          // rows handed over in the current row group
  size_t row_group_bytes_ = 0;          // their bytes, as the builders held them
  int64_t rows_ = 0;
  int64_t written_rows_ = 0;
  struct TakeBackPoint {
    int64_t rows = 0;                                // rows_ when it was pushed
    std::vector<sqlite3_value*> sort_values;         // copies of last_sort_values_ then (owned)
    std::optional<FileWriter::Boundary> boundary;    // once rows after it went to the file
  };
  std::vector<TakeBackPoint> points_;  // invariant: each point's rows >= written_rows_ or boundary
  bool finished_ = false;
  bool published_ = false;
  bool failed_ = false;
};

}  // namespace pq::ext
