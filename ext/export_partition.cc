#include "ext/export_partition.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "ext/dataset.h"
#include "ext/options.h"
#include "format/remote/remote_url.h"
#include "format/writer/output_file.h"

namespace pq::ext {

namespace {

// As ExportWriter: types are inferred from the first batch of rows.
constexpr size_t kInferRows = 8192;
constexpr size_t kInferBytes = size_t{16} << 20;

// The position of the first '=' outside quotes, or npos.
size_t EqualsOutsideQuotes(std::string_view item) {
  char quote = 0;
  for (size_t i = 0; i < item.size(); ++i) {
    if (quote) {
      if (item[i] == quote) quote = 0;
    } else if (item[i] == '\'' || item[i] == '"') {
      quote = item[i];
    } else if (item[i] == '=') {
      return i;
    }
  }
  return std::string_view::npos;
}

// The file of a partition (its folder below the target; empty: no partitions): "a=1/data_N.parquet".
std::string FileName(const std::string& folder, int n) {
  return (folder.empty() ? "" : folder + "/") + "data_" + std::to_string(n) + ".parquet";
}

// Creates `base`/`relative` and the folders on the way (base exists).
Status MakeFolders(const std::string& base, const std::string& relative) {
  std::string path = base;
  size_t start = 0;
  while (start < relative.size()) {
    size_t slash = relative.find('/', start);
    if (slash == std::string::npos) slash = relative.size();
    path += "/" + relative.substr(start, slash - start);
    if (::mkdir(path.c_str(), 0777) != 0 && errno != EEXIST) {
      return Status::IOError("cannot create the folder '" + relative.substr(0, slash) +
                             "': " + std::strerror(errno));
    }
    start = slash + 1;
  }
  return Status::OK();
}

}  // namespace

Result<PartitionByOption> TakePartitionByOption(std::string_view options_text) {
  PartitionByOption out;
  bool in_list = false;  // items without '=' continue partition_by's list
  for (std::string_view item : SplitList(options_text, "'\"", false)) {
    const size_t eq = EqualsOutsideQuotes(item);
    if (eq == std::string_view::npos) {
      if (in_list) {
        out.columns += "," + std::string(item);
        continue;
      }
    } else {
      in_list = false;
      if (LowerAscii(Dequote(item.substr(0, eq))) == "partition_by") {
        if (out.present)
          return Status::InvalidArgument("option 'partition_by' is given more than once");
        out.present = true;
        out.columns = std::string(TrimSpace(item.substr(eq + 1)));
        in_list = true;
        continue;
      }
    }
    if (!out.other_options.empty()) out.other_options += ", ";
    out.other_options += item;
  }
  return out;
}

Result<std::vector<std::string>> ParsePartitionColumns(std::string_view text) {
  // A whole list in single quotes ('a,b') as well as names quoted one by one ("a b", c).
  text = TrimSpace(text);
  std::string whole;
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') {
    whole = Dequote(text);
    text = whole;
  }
  std::vector<std::string> names;
  for (std::string_view item : SplitList(text, "'\"", false)) {
    std::string name = Dequote(item);
    if (name.empty()) continue;
    names.push_back(std::move(name));
  }
  if (names.empty()) {
    return Status::InvalidArgument(
        "option 'partition_by': expects column names, as in partition_by='year,month'");
  }
  return names;
}

Result<std::string> PartitionValueText(sqlite3_value* v) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
      return std::string(kHiveNullValue);
    case SQLITE_INTEGER:
      return std::to_string(sqlite3_value_int64(v));
    case SQLITE_FLOAT: {
      const double d = sqlite3_value_double(v);
      if (!std::isfinite(d))
        return Status::InvalidArgument("a partition value must be a finite number");
      char buf[64];
      for (int digits = 15; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, d);
        if (std::strtod(buf, nullptr) == d) break;
      }
      std::string text = buf;
      // Keep it a REAL when read back: 2.0, not 2.
      if (text.find_first_of(".e") == std::string::npos) text += ".0";
      return text;
    }
    case SQLITE_TEXT: {
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      std::string text(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v)));
      // The text __HIVE_DEFAULT_PARTITION__ is not NULL: escape a character so the folder reads
      // back as it.
      if (text == kHiveNullValue) return "%5F" + HiveEscape(text.substr(1));
      return HiveEscape(text);
    }
    default:
      return Status::InvalidArgument("a partition value cannot be a BLOB (" + DescribeValue(v) +
                                     ")");
  }
}

// ---------------------------------------------------------------------------------------------------

Result<std::unique_ptr<PartitionedExport>> PartitionedExport::Make(
    std::string folder, std::vector<ExportColumn> columns,
    const std::vector<std::string>& partition_by, const ExportOptions& options) {
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  if (folder.empty()) return Status::InvalidArgument("the output path is empty");
  // Names: present and distinct, as for one file.
  PQ_ASSIGN_OR_RETURN(std::unique_ptr<ExportWriter> names,
                      ExportWriter::Make(folder + "/probe", columns, ExportOptions()));
  names.reset();
  std::unique_ptr<PartitionedExport> e(new PartitionedExport());
  for (const std::string& name : partition_by) {
    int found = -1;
    for (size_t i = 0; i < columns.size(); ++i) {
      if (LowerAscii(columns[i].name) == LowerAscii(name)) found = static_cast<int>(i);
    }
    if (found < 0)
      return Status::InvalidArgument("option 'partition_by': the query has no column named '" +
                                     name + "'");
    if (std::find(e->partition_columns_.begin(), e->partition_columns_.end(), found) !=
        e->partition_columns_.end()) {
      return Status::InvalidArgument("option 'partition_by': column '" + name + "' is given twice");
    }
    e->partition_columns_.push_back(found);
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    const int c = static_cast<int>(i);
    if (std::find(e->partition_columns_.begin(), e->partition_columns_.end(), c) ==
        e->partition_columns_.end()) {
      e->data_columns_.push_back(c);
      e->data_types_.push_back(columns[i]);
    }
  }
  if (e->data_columns_.empty()) {
    return Status::InvalidArgument(
        "option 'partition_by': every column is a partition column; at least one "
        "must be left to store in the files");
  }
  const char* why_folder = partition_by.empty()
                               ? "with file_size_bytes or row_groups_per_file the output is a new "
                                 "folder"
                               : "with partition_by the output is a new folder";
  // The writer options (column names in encoding=, bloom_filter=, sorted_by=) name data columns.
  PQ_ASSIGN_OR_RETURN(std::unique_ptr<ExportWriter> probe,
                      ExportWriter::Make(folder + "/probe", e->data_types_, options));
  probe.reset();

  if (remote::IsRemoteLocation(folder)) {
    // On S3 the files go straight to their keys, each as an upload completed only at Publish.
    remote::RemoteAccess* access = options.remote.get();
    std::unique_ptr<remote::RemoteAccess> defaults;
    if (access == nullptr) {
      defaults = std::make_unique<remote::RemoteAccess>(nullptr, std::vector<remote::Setting>());
      access = defaults.get();
    }
    PQ_ASSIGN_OR_RETURN(bool taken, access->AnyObjectUnder(folder + "/"));
    if (taken) {
      return Status::InvalidArgument("'" + folder + "/' already holds objects; " + why_folder +
                                     " (remove them or choose another path)");
    }
    e->remote_ = true;
    e->target_ = std::move(folder);
    e->columns_ = std::move(columns);
    e->options_ = options;
    if (!partition_by.empty()) e->options_.threads = 1;
    e->types_known_ =
        std::none_of(e->data_types_.begin(), e->data_types_.end(),
                     [](const ExportColumn& c) { return c.type.kind == ColumnKind::kInfer; });
    e->data_values_.resize(e->data_columns_.size());
    return e;
  }
  struct stat st;
  if (::stat(folder.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      return Status::InvalidArgument("'" + folder + "' exists and is not a folder; " + why_folder);
    }
    std::error_code ec;
    const bool empty = std::filesystem::is_empty(folder, ec);
    if (ec || !empty) {
      return Status::InvalidArgument("'" + folder + "' exists and is not empty; " + why_folder +
                                     " (remove it or choose another path)");
    }
  }
  e->temp_folder_ = TemporaryPathBeside(folder);
  if (::mkdir(e->temp_folder_.c_str(), 0777) != 0) {
    e->temp_folder_.clear();
    return Status::IOError("cannot write '" + folder +
                           "': cannot create a folder beside it: " + std::strerror(errno));
  }
  e->target_ = std::move(folder);
  e->columns_ = std::move(columns);
  e->options_ = options;
  // Many partition files are open at once: each writes on the calling thread (threads= is for
  // one file). Without partitions one file is open at a time and keeps threads=.
  if (!partition_by.empty()) e->options_.threads = 1;
  e->types_known_ =
      std::none_of(e->data_types_.begin(), e->data_types_.end(),
                   [](const ExportColumn& c) { return c.type.kind == ColumnKind::kInfer; });
  e->data_values_.resize(e->data_columns_.size());
  return e;
}

PartitionedExport::~PartitionedExport() {
  if (!published_) RemoveTemporary();
  for (sqlite3_value* v : pending_) sqlite3_value_free(v);
}

void PartitionedExport::RemoveTemporary() {
  failed_ = true;
  for (auto& [folder, p] : partitions_) {
    if (p.writer) p.writer->Abort();
    p.writer.reset();
  }
  for (auto& w : finished_) w->Abort();  // S3: their uploads are aborted
  finished_.clear();
  open_files_ = 0;
  if (!temp_folder_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(temp_folder_, ec);
    temp_folder_.clear();
  }
}

Status PartitionedExport::Fail(Status s) {
  RemoveTemporary();
  return s;
}

Status PartitionedExport::AppendRow(sqlite3_value** values) {
  if (failed_ || published_) return Status::InvalidArgument("the partitioned export is closed");
  ++rows_;
  if (types_known_) {
    Status s = Route(values, rows_);
    return s.ok() ? s : Fail(s);
  }
  for (size_t i = 0; i < columns_.size(); ++i) {
    sqlite3_value* v = sqlite3_value_dup(values[i]);
    if (v == nullptr) return Fail(Status::OutOfMemory("out of memory"));
    pending_.push_back(v);
    const int t = sqlite3_value_type(v);
    pending_bytes_ +=
        sizeof(v) +
        (t == SQLITE_TEXT || t == SQLITE_BLOB ? static_cast<size_t>(sqlite3_value_bytes(v)) : 0);
  }
  if (pending_.size() / columns_.size() >= kInferRows || pending_bytes_ >= kInferBytes) {
    Status s = DecideTypes();
    if (!s.ok()) return Fail(s);
  }
  return Status::OK();
}

Status PartitionedExport::DecideTypes() {
  const size_t n = columns_.size();
  const size_t rows = pending_.size() / n;
  for (size_t k = 0; k < data_columns_.size(); ++k) {
    ExportColumn& column = data_types_[k];
    if (column.type.kind != ColumnKind::kInfer) continue;
    const auto c = static_cast<size_t>(data_columns_[k]);
    unsigned classes = 0;
    for (size_t r = 0; r < rows; ++r) {
      sqlite3_value* v = pending_[r * n + c];
      const int t = sqlite3_value_type(v);
      if (t == SQLITE_NULL) continue;
      classes |= 1u << t;
      if (!InferColumnType(classes).ok()) {
        return Status::InvalidArgument(
            "row " + std::to_string(r + 1) + ", column '" + column.name + "': " + DescribeValue(v) +
            " after values of another kind in a column without a declared type; CAST "
            "it or declare the column's type with schema=");
      }
    }
    PQ_ASSIGN_OR_RETURN(column.type, InferColumnType(classes));
  }
  types_known_ = true;
  std::vector<sqlite3_value*> pending = std::move(pending_);
  pending_.clear();
  pending_bytes_ = 0;
  Status s;
  for (size_t r = 0; r < rows && s.ok(); ++r)
    s = Route(&pending[r * n], static_cast<int64_t>(r) + 1);
  for (sqlite3_value* v : pending) sqlite3_value_free(v);
  return s;
}

Status PartitionedExport::Route(sqlite3_value** values, int64_t row) {
  std::string folder;
  for (int c : partition_columns_) {
    sqlite3_value* v = values[c];
    Result<std::string> text = PartitionValueText(v);
    if (!text.ok()) {
      return Status::InvalidArgument("row " + std::to_string(row) + ", partition column '" +
                                     columns_[static_cast<size_t>(c)].name +
                                     "': " + text.status().message());
    }
    if (!folder.empty()) folder += '/';
    folder += HiveEscape(columns_[static_cast<size_t>(c)].name) + "=" + *text;
  }
  Partition& p = partitions_[folder];
  if (!p.writer) PQ_RETURN_IF_ERROR(OpenWriter(folder, &p));
  p.last_used = ++clock_;
  for (size_t k = 0; k < data_columns_.size(); ++k) data_values_[k] = values[data_columns_[k]];
  Status s = p.writer->AppendRow(data_values_.data());
  if (!s.ok()) return s.WithContext("'" + FileName(folder, p.next_file - 1) + "'");
  // A full file (file_size_bytes, row_groups_per_file) ends here; the next rows start another.
  if (p.writer->file_full()) return CloseWriter(folder, &p);
  return Status::OK();
}

Status PartitionedExport::OpenWriter(const std::string& folder, Partition* p) {
  if (open_files_ >= kMaxOpenFiles) {
    // Finish the file used least recently.
    auto oldest = partitions_.end();
    for (auto it = partitions_.begin(); it != partitions_.end(); ++it) {
      if (it->second.writer &&
          (oldest == partitions_.end() || it->second.last_used < oldest->second.last_used)) {
        oldest = it;
      }
    }
    if (oldest != partitions_.end())
      PQ_RETURN_IF_ERROR(CloseWriter(oldest->first, &oldest->second));
  }
  if (!remote_) {
    PQ_RETURN_IF_ERROR(MakeFolders(temp_folder_, folder).WithContext("cannot write '" + target_ + "'"));
  }
  const std::string file = (remote_ ? target_ : temp_folder_) + "/" + FileName(folder, p->next_file);
  PQ_ASSIGN_OR_RETURN(p->writer, ExportWriter::Make(file, data_types_, options_));
  ++p->next_file;
  ++open_files_;
  return Status::OK();
}

Status PartitionedExport::CloseWriter(const std::string& folder, Partition* p) {
  const std::string name = FileName(folder, p->next_file - 1);
  Status s = p->writer->Finish();
  // On S3 the file's upload is completed at Publish, with the others.
  if (s.ok() && !remote_) s = p->writer->Publish();
  if (s.ok()) {
    ExportedFile f;
    f.path = name;
    f.rows = p->writer->rows();
    f.bytes = p->writer->file_bytes();
    f.metadata = p->writer->metadata();
    // The folder's col=value names, in partition_by order.
    size_t start = 0;
    while (start < folder.size()) {
      size_t slash = folder.find('/', start);
      if (slash == std::string::npos) slash = folder.size();
      const std::string part = folder.substr(start, slash - start);
      const size_t eq = part.find('=');
      f.partition.emplace_back(part.substr(0, eq), eq == std::string::npos ? "" : part.substr(eq + 1));
      start = slash + 1;
    }
    files_.push_back(std::move(f));
    if (remote_) finished_.push_back(std::move(p->writer));
  }
  p->writer.reset();
  --open_files_;
  if (!s.ok()) return s.WithContext("'" + name + "'");
  return Status::OK();
}

Status PartitionedExport::Finish() {
  if (failed_ || published_) return Status::InvalidArgument("the partitioned export is closed");
  if (!types_known_) {
    Status s = DecideTypes();
    if (!s.ok()) return Fail(s);
  }
  // No rows: a split export still writes one file, with the columns and no rows, as an export to
  // one file does, so that the folder has a schema to read. (Partitions come from rows: with
  // partition_by there is none to write into.)
  if (rows_ == 0 && partition_columns_.empty()) {
    Status s = OpenWriter("", &partitions_[""]);
    if (!s.ok()) return Fail(s);
  }
  for (auto& [folder, p] : partitions_) {
    if (!p.writer) continue;
    Status s = CloseWriter(folder, &p);
    if (!s.ok()) return Fail(s);
  }
  if (remote_) return Status::OK();
  for (const auto& [folder, p] : partitions_) {
    if (!folder.empty()) SyncFolder(temp_folder_ + "/" + folder);
  }
  SyncFolder(temp_folder_);
  return Status::OK();
}

Status PartitionedExport::Publish() {
  if (failed_ || published_) return Status::InvalidArgument("the partitioned export is closed");
  if (remote_) {
    // Every object appears now; if one cannot, those that did are deleted and the rest aborted.
    for (size_t i = 0; i < finished_.size(); ++i) {
      Status s = finished_[i]->Publish();
      if (!s.ok()) {
        for (size_t j = 0; j < i; ++j) finished_[j]->RemovePublished();
        return Fail(s);
      }
    }
    finished_.clear();
    published_ = true;
    return Status::OK();
  }
  // rename(2) replaces an empty folder, never one with files in it.
  if (::rename(temp_folder_.c_str(), target_.c_str()) != 0) {
    const int e = errno;
    return Fail(Status::IOError("cannot rename the finished folder to '" + target_ +
                                "': " + std::strerror(e)));
  }
  published_ = true;
  temp_folder_.clear();
  SyncFolder(FolderOf(target_));
  return Status::OK();
}

}  // namespace pq::ext
