// Dataset: the files behind one `parquet` table, and what the table needs to know about them that
// no single file says: which files SOURCE names (paths, globs with `**`), how their columns line up
// (the same in every file, or the union by name), the values of their hive partition folders, and
// whether a file changed on disk since its footer was read, so that one replaced or truncated is
// noticed before it is read again. The rules users see are documented in docs/reading.md ("Several
// files (datasets)").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/file/file_reader.h"
#include "format/predicate/predicate.h"
#include "format/util/status.h"
#include "format/value/value_options.h"

namespace pq::remote {
class RemoteAccess;
}  // namespace pq::remote

namespace pq::ext {

// ---- Listing
// -------------------------------------------------------------------------------------

// True when `s` has a glob character (`*`, `?`, `[`).
bool HasGlobChars(std::string_view s);

// The regular files matching `pattern` (docs/reading.md), sorted; empty when none. IOError when a
// folder on the way cannot be read (other than one that does not exist).
Result<std::vector<std::string>> ExpandGlob(const std::string& pattern);

// SOURCE as a sorted (per comma-separated part), de-duplicated list of files. A part that names an
// existing file is taken as it is, even if it has glob characters; a glob that matches nothing is
// an IOError naming it. An http(s):// URL is one file as written (a comma in it must be written
// %2C); an s3:// URI whose key has glob characters is listed through `remote` (ListObjectsV2; null:
// default settings), with the rules of local globs (remote/key_glob.h).
Result<std::vector<std::string>> ExpandSource(const std::string& source, remote::RemoteAccess* remote = nullptr);

// ---- Hive partitions
// ------------------------------------------------------------------------------

// The folder name that stands for NULL.
inline constexpr std::string_view kHiveNullValue = "__HIVE_DEFAULT_PARTITION__";

// One `key=value` folder of a path, decoded. `value` is nullopt for NULL.
struct HiveSegment {
  std::string key;
  std::optional<std::string> value;
};

// The `key=value` folder segments of `path` (not its last segment, the file name), in path order;
// for a URL, of its path (not its query string). InvalidArgument when a key appears twice (ignoring
// case).
Result<std::vector<HiveSegment>> ParseHivePath(std::string_view path);

// %XX decoding; a '%' not followed by two hex digits stays as it is.
std::string HiveUnescape(std::string_view text);
// The text of a key or value as a folder name part that HiveUnescape reads back: '%', '/', '=',
// control bytes and the characters that mean something to globs or shells ("#'*:?[\]^{}) become
// %XX.
std::string HiveEscape(std::string_view text);

// The partition columns of a dataset: names, types and every file's values.
struct PartitionColumn {
  std::string name;           // as spelled in the first file's path
  std::string declared_type;  // INTEGER, REAL, DATE or TEXT
  Affinity affinity = Affinity::kText;
};
struct HivePartitions {
  std::vector<PartitionColumn> columns;
  std::vector<std::vector<SqlValue>> values;  // [file][column]
};

// The partition columns of `paths` (docs/reading.md). InvalidArgument naming two files when they do
// not have the same keys.
Result<HivePartitions> InferHivePartitions(const std::vector<std::string>& paths);

// ---- Columns
// --------------------------------------------------------------------------------------

// One column of the table that comes from the files' fields.
struct DatasetColumn {
  std::string name;           // SQL column name (made distinct, see UnifyColumns)
  std::string field_name;     // the files' field name (the first file's spelling)
  std::string declared_type;  // TableScanner::DeclaredType; "" for a column that is always NULL
  Affinity affinity = Affinity::kBlob;
  bool flat = true;  // one leaf, not repeated, in every file: terms on it are pushed down
};

// How one file's fields map onto the table's columns.
struct FileColumns {
  std::vector<int> field_of_column;  // per table column: the file's field, or -1 (reads NULL)
  // Per table column: the file stores it with another type than the column's (INTEGER widened to
  // REAL). Its values are converted on the way out, and terms on it are not pushed into this file.
  std::vector<bool> converted;
  std::vector<Affinity> field_affinity;  // per file field: the affinity pruning uses for it
};

struct DatasetSchema {
  std::vector<DatasetColumn> columns;
  std::vector<FileColumns> files;  // one per file, in order
};

// The table's columns for `files` and each file's mapping (docs/reading.md). Without union_by_name
// a file that does not match the first is an InvalidArgument naming both and suggesting
// union_by_name=1. Without union_by_name, a name that differs only in case from an earlier one gets
// a `_2` (`_3`...) suffix; with it, such names are one column, and a file holding two of them is an
// error.
Result<DatasetSchema> UnifyColumns(const std::vector<std::shared_ptr<const FileReader>>& files,
                                   const ValueOptions& values, bool union_by_name);

// How `file` maps onto existing `columns` (a file re-read after it changed): InvalidArgument
// saying why when it does not fit them as the files the table was made from did.
Result<FileColumns> FitColumns(const FileReader& file, const std::vector<DatasetColumn>& columns,
                               const ValueOptions& values, bool union_by_name);

// The columns of `columns` that `names` choose (the table option columns=), in that order: indices
// into `columns`. A name is a file's column name as the file spells it, else ignoring case where
// that is one column, else the column's SQL name (`m_2`); a name in `also` (the partition keys,
// always columns) is passed over. InvalidArgument for a name no column has, one that is two
// columns' ignoring case, a column named twice, or no column named.
Result<std::vector<size_t>> ChooseColumns(const std::vector<std::string>& names,
                                          const std::vector<DatasetColumn>& columns,
                                          const std::vector<std::string>& also);
// `file`'s mapping onto the chosen columns only.
FileColumns ChosenFileColumns(const FileColumns& file, const std::vector<size_t>& chosen);

// ---- Opening

// A file of the table, opened with `options` and checked for what the table answers from its footer
// alone: its row groups' counts must fit their column chunks (format/column/row_counts.h), or a
// count(*) would answer (or walk) rows no scan can read.
Result<std::shared_ptr<const FileReader>> OpenTableFile(const std::string& path,
                                                        const ReaderOptions& options);

// ---- Snapshots
// ----------------------------------------------------------------------------------------

// One file of the dataset, as the table last read it.
struct DatasetFile {
  std::shared_ptr<const FileReader> reader;  // its footer; scanners share it
  FileColumns columns;                       // its fields as table columns
  int64_t first_row = 0;                     // dataset rowid of its first row
  int64_t rows = 0;                          // from its row groups
};

// The files as one scan sees them. A reload (RefreshSnapshot) makes a new snapshot; a cursor keeps
// the one its scan started with.
struct DatasetSnapshot {
  std::vector<DatasetFile> files;
  int64_t total_rows = 0;
  int64_t max_file_rows = 0;  // rows of the largest file: file_row_number is below it
};

// Sums the row counts; sets each file's first_row. Rowids are int64: counts that sum past it are
// Corruption naming the file where they do.
Status CountRows(DatasetSnapshot* d);

// The snapshot of files just opened (OpenTableFile), with their mappings onto the table's columns
// (UnifyColumns's DatasetSchema::files, one per reader, in order); CountRows's error.
Result<std::shared_ptr<const DatasetSnapshot>> MakeSnapshot(std::vector<std::shared_ptr<const FileReader>> readers,
                                                            std::vector<FileColumns> columns);

// Opens again every file of `data` that changed since its footer was read
// (RandomAccessFile::Unchanged), with `options` (OpenTableFile), and fits it to `columns`
// (FitColumns), then to the `chosen` of them (ChooseColumns; empty: all): `data` itself when no file
// changed, else a new snapshot. A file that cannot be read any more, or whose columns no longer fit
// the table, is an error naming it.
Result<std::shared_ptr<const DatasetSnapshot>> RefreshSnapshot(std::shared_ptr<const DatasetSnapshot> data,
                                                               const std::vector<DatasetColumn>& columns,
                                                               const std::vector<size_t>& chosen,
                                                               const ReaderOptions& options,
                                                               const ValueOptions& values, bool union_by_name);

}  // namespace pq::ext
