// PartitionedExport: parquet_export into a folder instead of one file: hive partitions
// (partition_by=col1,col2: each row to PATH/col1=v1/col2=v2/data_N.parquet, the partition columns
// only in the folder names, written so that dataset.h reads them back) and files split by size
// (file_size_bytes=, row_groups_per_file=: data_0.parquet, data_1.parquet, ...), or both. Column
// types are decided once for all files, so every file has the same columns. It is atomic like a
// single-file export: everything goes under a temporary folder renamed to PATH once every file is
// complete and synced, and any error removes it. On S3 (PATH s3://bucket/prefix, with no object
// under it yet) each file is an upload to its final key, all completed at Publish() and all aborted
// on an error. Documented in docs/writing.md ("Partitions") and docs/remote.md.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ext/export_writer.h"
#include "ext/sqlite_api.h"

namespace pq::ext {

// parquet_export's options text split into partition_by and the rest (the writer's options).
// `partition_by=a,b` may be written unquoted: items after it without '=' continue its list.
struct PartitionByOption {
  bool present = false;
  std::string columns;        // the list as written ("a,b" or "a, \"b c\"")
  std::string other_options;  // the remaining options text
};
Result<PartitionByOption> TakePartitionByOption(std::string_view options_text);

// The column names of a partition_by list (names may be quoted). InvalidArgument for an empty list.
Result<std::vector<std::string>> ParsePartitionColumns(std::string_view text);

// The folder-name text of a partition value: integers in decimal, reals as their shortest
// round-trip text (with a ".0" or an exponent, so they read back as REAL), text through HiveEscape,
// NULL as __HIVE_DEFAULT_PARTITION__. InvalidArgument for a BLOB or a non-finite REAL.
Result<std::string> PartitionValueText(sqlite3_value* v);

class PartitionedExport {
 public:
  // Files open at once: when a row needs one more, the least recently used is finished and its
  // partition's next row starts data_<N+1>.parquet. Memory is up to that many writers' buffers.
  static constexpr size_t kMaxOpenFiles = 64;

  // Resolves `partition_by` (names of `columns`, ignoring case; each once; not every column) and
  // checks that `folder` does not exist or is an empty folder. Creates the temporary folder.
  // An empty `partition_by`: no partitions, the files directly in `folder`.
  static Result<std::unique_ptr<PartitionedExport>> Make(
      std::string folder, std::vector<ExportColumn> columns,
      const std::vector<std::string>& partition_by, const ExportOptions& options);
  ~PartitionedExport();
  PartitionedExport(const PartitionedExport&) = delete;
  PartitionedExport& operator=(const PartitionedExport&) = delete;

  // One row of the query: values[i] for column i. Errors name the partition file and its row.
  Status AppendRow(sqlite3_value** values);
  // Finishes every open file (each is fsynced). Without partitions and rows, writes data_0.parquet
  // with the columns and no rows first.
  Status Finish();
  // Renames the temporary folder to the target and fsyncs the folder holding it.
  Status Publish();
  int64_t rows() const { return rows_; }
  // The files finished so far (all of them after Finish), in the order they were finished; paths
  // relative to the folder.
  const std::vector<ExportedFile>& files() const { return files_; }

 private:
  struct Partition {
    std::unique_ptr<ExportWriter> writer;  // open file, or null
    int next_file = 0;                     // N of the next data_N.parquet
    uint64_t last_used = 0;                // for closing the least recently used file
  };

  PartitionedExport() = default;
  Status Fail(Status s);
  Status DecideTypes();
  Status Route(sqlite3_value** values, int64_t row);  // row: the query's row number, for messages
  Status OpenWriter(const std::string& folder, Partition* p);
  Status CloseWriter(const std::string& folder, Partition* p);
  void RemoveTemporary();

  std::string target_;
  std::string temp_folder_;
  bool remote_ = false;  // an s3:// folder
  std::vector<std::unique_ptr<ExportWriter>> finished_;  // S3: files uploaded, completed at Publish
  std::vector<ExportColumn> columns_;     // the query's columns
  std::vector<int> partition_columns_;    // indexes into columns_, in partition_by order
  std::vector<int> data_columns_;         // the others, in query order
  std::vector<ExportColumn> data_types_;  // the data columns with their types (once decided)
  ExportOptions options_;
  bool types_known_ = false;
  std::vector<sqlite3_value*> pending_;  // row-major copies of whole rows while types are inferred
  size_t pending_bytes_ = 0;
  std::map<std::string, Partition> partitions_;  // by folder below the target ("a=1/b=x")
  size_t open_files_ = 0;
  uint64_t clock_ = 0;
  std::vector<sqlite3_value*> data_values_;  // scratch: one row's data columns
  int64_t rows_ = 0;
  std::vector<ExportedFile> files_;
  bool failed_ = false;
  bool published_ = false;
};

}  // namespace pq::ext
