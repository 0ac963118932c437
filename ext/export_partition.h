// PartitionedExport: parquet_export(PATH, QUERY, 'partition_by=col1,col2') writes a
// hive-partitioned folder instead of one file.
//
//   SELECT parquet_export('sales', 'SELECT * FROM sales', 'partition_by=year,month');
//   -> sales/year=2024/month=1/data_0.parquet, sales/year=2024/month=2/data_0.parquet, ...
//   CREATE VIRTUAL TABLE s USING parquet('sales/**/*.parquet', hive_partitioning=1);
//
// Each row goes to PATH/col1=v1/col2=v2/data_N.parquet; the partition columns are not stored in the
// files (their values are in the folder names), the other columns are, with the writer options
// (export_writer.h) applying to every file. Folder names are what dataset.h reads back: integers in
// decimal, reals as their shortest round-trip text (with a ".0" or an exponent, so they read back
// as REAL), text through HiveEscape (URL encoding of '/', '=', '%', control bytes and a few more),
// NULL as __HIVE_DEFAULT_PARTITION__. A BLOB or a non-finite REAL partition value is an error. Two
// things do not read back as written: the empty text (read as NULL, like the NULL folder), and
// types (a partition column's type is inferred from its folder names when read: TEXT '7' reads as
// 7).
//
// Column types are decided once for all files (the first 8192 rows, as ExportWriter does for one),
// so every file of the folder has the same columns and reads back without union_by_name.
//
// At most kMaxOpenFiles files are open at once: when a row needs one more, the file used least
// recently is finished, and the next row of its partition starts data_<N+1>.parquet there. Memory
// is up to that many writers' buffers (a batch and a row group each: keep row_group_size modest
// when there are many partitions).
//
// Files split by size (parquet_export's file_size_bytes=, row_groups_per_file=; ExportWriter's
// file_full): a file that is full is finished at the end of a row group and the partition's next
// rows go to data_<N+1>.parquet. The same class writes a folder of such files without partitions
// (partition_by empty): PATH/data_0.parquet, PATH/data_1.parquet, ...
//
// Atomic like a single-file export: everything is written under a temporary folder
// `.<name>.tmp-<pid>-<random hex>` beside PATH, which is renamed to PATH once every file is
// complete and synced. PATH must not exist, or be an empty folder. Any error, or destroying the
// export before Publish(), removes the temporary folder and everything in it. On S3 (PATH
// s3://bucket/prefix: no object may be under prefix/ yet) each file is an upload to its final key
// (export_writer.h), all completed at Publish(); any error before then aborts them all (no object,
// no parts), and a completion that fails deletes the objects completed before it.
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

// The folder-name text of a partition value (rules above); InvalidArgument for a BLOB or a
// non-finite REAL.
Result<std::string> PartitionValueText(sqlite3_value* v);

class PartitionedExport {
 public:
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
  // Finishes every open file (each is fsynced).
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
