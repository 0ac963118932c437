#include "ext/dataset.h"

#include <dirent.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ext/options.h"
#include "format/column/row_counts.h"
#include "format/util/hex.h"
#include "format/reader/table_scanner.h"
#include "format/remote/key_glob.h"
#include "format/remote/remote_access.h"
#include "format/remote/remote_url.h"

namespace pq::ext {

namespace {

bool StatPath(const std::string& path, struct stat* st) {
  return ::stat(path.c_str(), st) == 0;
}

// ---- Listing
// ----------------------------------------------------------------------------------------

// Folder levels a `**` may descend; deeper trees are an error rather than a deep recursion.
constexpr int kMaxGlobDepth = 256;

// One expansion of a glob: the pattern's segments and what has been found.
class GlobWalk {
 public:
  explicit GlobWalk(std::vector<std::string> segments) : segments_(std::move(segments)) {}

  // Matches segments_[i...] under the folder `prefix` ("" for the current folder, else ending in
  // '/'), `depth` folders below where the walk started.
  Status Match(const std::string& prefix, size_t i, int depth) {
    if (depth > kMaxGlobDepth) {
      return Status::IOError("folders under '" + prefix + "' are nested more than " +
                             std::to_string(kMaxGlobDepth) + " levels deep");
    }
    const std::string& segment = segments_[i];
    const bool last = i + 1 == segments_.size();
    if (segment == "**") {
      // Zero levels, then one more level for every sub-folder (the segment stays the same). A
      // folder is walked once per segment, however it is reached (symbolic links may loop).
      struct stat st;
      if (!StatPath(prefix.empty() ? "." : prefix, &st) || !S_ISDIR(st.st_mode))
        return Status::OK();
      if (!walked_.insert({st.st_dev, st.st_ino, i}).second) return Status::OK();
      PQ_RETURN_IF_ERROR(Match(prefix, i + 1, depth));
      std::vector<std::string> names;
      PQ_RETURN_IF_ERROR(List(prefix, &names));
      for (const std::string& name : names) {
        if (name[0] == '.') continue;
        const std::string path = prefix + name;
        if (!StatPath(path, &st) || !S_ISDIR(st.st_mode)) continue;
        PQ_RETURN_IF_ERROR(Match(path + "/", i, depth + 1));
      }
      return Status::OK();
    }
    if (!HasGlobChars(segment)) {
      if (!last) return Match(prefix + segment + "/", i + 1, depth);
      AddIfFile(prefix + segment);
      return Status::OK();
    }
    std::vector<std::string> names;
    PQ_RETURN_IF_ERROR(List(prefix, &names));
    for (const std::string& name : names) {
      if (::fnmatch(segment.c_str(), name.c_str(), FNM_PERIOD) != 0) continue;
      if (last) {
        ++names_matched_;
        AddIfFile(prefix + name);
      } else if (name != "." && name != "..") {
        struct stat st;
        if (StatPath(prefix + name, &st) && S_ISDIR(st.st_mode)) {
          PQ_RETURN_IF_ERROR(Match(prefix + name + "/", i + 1, depth));
        }
      }
    }
    return Status::OK();
  }

  std::vector<std::string> TakeFiles() {
    std::sort(files_.begin(), files_.end());
    files_.erase(std::unique(files_.begin(), files_.end()), files_.end());
    return std::move(files_);
  }
  // Names the last segment matched, files or not.
  int64_t names_matched() const { return names_matched_; }

 private:
  void AddIfFile(const std::string& path) {
    struct stat st;
    if (StatPath(path, &st) && S_ISREG(st.st_mode)) files_.push_back(path);
  }

  // The entries of folder `prefix`. A folder that does not exist (or is not one) has none.
  static Status List(const std::string& prefix, std::vector<std::string>* names) {
    const std::string folder = prefix.empty() ? "." : prefix;
    DIR* dir = ::opendir(folder.c_str());
    if (dir == nullptr) {
      if (errno == ENOENT || errno == ENOTDIR) return Status::OK();
      return Status::IOError("cannot list the folder '" + folder + "': " + std::strerror(errno));
    }
    while (const struct dirent* e = ::readdir(dir)) names->emplace_back(e->d_name);
    ::closedir(dir);
    std::sort(names->begin(), names->end());
    return Status::OK();
  }

  std::vector<std::string> segments_;
  std::vector<std::string> files_;
  std::set<std::tuple<dev_t, ino_t, size_t>> walked_;  // folders `**` entered, per segment
  int64_t names_matched_ = 0;
};

Result<std::vector<std::string>> Expand(const std::string& pattern, int64_t* names_matched) {
  std::string prefix = !pattern.empty() && pattern[0] == '/' ? "/" : "";
  std::vector<std::string> segments;
  size_t start = 0;
  while (start <= pattern.size()) {
    size_t slash = pattern.find('/', start);
    if (slash == std::string::npos) slash = pattern.size();
    std::string segment = pattern.substr(start, slash - start);
    // "a//b" is "a/b"; "**/**" is "**".
    if (!segment.empty() && !(segment == "**" && !segments.empty() && segments.back() == "**")) {
      segments.push_back(std::move(segment));
    }
    start = slash + 1;
  }
  // A trailing `**` means every file below.
  if (!segments.empty() && segments.back() == "**") segments.push_back("*");
  if (segments.empty()) return std::vector<std::string>();
  GlobWalk walk(std::move(segments));
  PQ_RETURN_IF_ERROR(walk.Match(prefix, 0, 0));
  *names_matched = walk.names_matched();
  return walk.TakeFiles();
}

// ---- Hive partitions
// --------------------------------------------------------------------------------

bool IsDecimalInteger(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  const char* begin = s.data();
  const char* end = s.data() + s.size();
  if (*begin == '+') return false;
  auto [p, ec] = std::from_chars(begin, end, *out);
  return ec == std::errc() && p == end;
}

bool IsDecimalNumber(std::string_view s, double* out) {
  // Digits, one point, an exponent: no "inf", "nan" or hexadecimal, which from_chars would take.
  if (s.empty()) return false;
  bool digit = false;
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digit = true;
    } else if (c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E') {
      return false;
    }
  }
  if (!digit || s[0] == '+') return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size() && std::isfinite(*out);
}

bool IsIsoDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  const int year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  const int month = (s[5] - '0') * 10 + (s[6] - '0');
  const int day = (s[8] - '0') * 10 + (s[9] - '0');
  if (month < 1 || month > 12 || day < 1) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

std::string KeyList(const std::vector<HiveSegment>& segments) {
  std::string out = "(";
  for (size_t i = 0; i < segments.size(); ++i) out += (i ? ", " : "") + segments[i].key;
  return out + ")";
}

// ---- Columns
// ----------------------------------------------------------------------------------------

std::string Quoted(const std::string& s) {
  return "'" + s + "'";
}

std::string TypeName(const std::string& declared_type) {
  return declared_type.empty() ? "(always NULL)" : declared_type;
}

Result<std::string> FieldType(const FileReader& file, int field, const ValueOptions& values) {
  auto type = TableScanner::DeclaredType(file.schema(), field, values);
  if (!type.ok()) return type.status().WithContext(file.path());
  return *type;
}

bool FieldIsFlat(const FileReader& file, int field) {
  const SchemaNode& node = *file.schema().fields()[static_cast<size_t>(field)];
  return node.is_leaf && !node.is_repeated();
}

// A field's name as an SQL column name: SQL text ends at a NUL byte, so each becomes '_'.
std::string SqlColumnName(const std::string& field_name) {
  std::string name = field_name;
  std::replace(name.begin(), name.end(), '\0', '_');
  return name;
}

// Column names made distinct ignoring case, as SQLite compares them: a name taken already gets the
// first free suffix `_2`, `_3`... In time linear in the names: each name's next suffix to try is
// kept, and names only ever become taken.
class DistinctNames {
 public:
  std::string Add(const std::string& wanted) {
    std::string name = wanted;
    if (taken_.count(LowerAscii(name)) != 0) {
      int& k = next_suffix_.try_emplace(LowerAscii(wanted), 2).first->second;
      do {
        name = wanted + "_" + std::to_string(k++);
      } while (taken_.count(LowerAscii(name)) != 0);
    }
    taken_.insert(LowerAscii(name));
    return name;
  }

 private:
  std::unordered_set<std::string> taken_;                // lower-case names given
  std::unordered_map<std::string, int> next_suffix_;     // by lower-case wanted name
};

}  // namespace

// ---- Listing
// ------------------------------------------------------------------------------------------

bool HasGlobChars(std::string_view s) {
  return s.find_first_of("*?[") != std::string_view::npos;
}

Result<std::vector<std::string>> ExpandGlob(const std::string& pattern) {
  int64_t names_matched = 0;
  return Expand(pattern, &names_matched);
}

Result<std::vector<std::string>> ExpandSource(const std::string& source, remote::RemoteAccess* remote) {
  struct stat st;
  std::vector<std::string> parts;
  if (source.find(',') == std::string::npos || (!remote::IsRemoteLocation(source) && StatPath(source, &st))) {
    parts.push_back(source);
  } else {
    size_t start = 0;
    while (start <= source.size()) {
      size_t comma = source.find(',', start);
      if (comma == std::string::npos) comma = source.size();
      std::string p = source.substr(start, comma - start);
      while (!p.empty() && p.front() == ' ') p.erase(p.begin());
      while (!p.empty() && p.back() == ' ') p.pop_back();
      if (!p.empty()) parts.push_back(p);
      start = comma + 1;
    }
  }
  std::vector<std::string> files;
  std::set<std::string> seen;
  auto add = [&](const std::string& f) {
    if (seen.insert(f).second) files.push_back(f);
  };
  std::unique_ptr<remote::RemoteAccess> defaults;
  for (const std::string& p : parts) {
    if (remote::IsRemoteLocation(p)) {
      // A URL is one file whatever it holds ('*' and '?' are ordinary there); an s3:// key with
      // glob characters is listed.
      PQ_ASSIGN_OR_RETURN(remote::RemoteUrl url, remote::ParseRemoteUrl(p));
      if (url.scheme != remote::UrlScheme::kS3 || !remote::HasGlobChars(url.key)) {
        add(p);
        continue;
      }
      if (remote == nullptr) {
        defaults = std::make_unique<remote::RemoteAccess>(nullptr, std::vector<remote::Setting>());
        remote = defaults.get();
      }
      PQ_ASSIGN_OR_RETURN(std::vector<std::string> matched, remote->ListGlob(p));
      if (matched.empty()) return Status::IOError("no file matches '" + p + "'");
      for (const std::string& f : matched) add(f);
      continue;
    }
    if (!HasGlobChars(p) || StatPath(p, &st)) {
      add(p);
      continue;
    }
    int64_t names_matched = 0;
    PQ_ASSIGN_OR_RETURN(std::vector<std::string> matched, Expand(p, &names_matched));
    if (matched.empty() && names_matched == 0)
      return Status::IOError("no file matches '" + p + "'");
    for (const std::string& f : matched) add(f);
  }
  if (files.empty()) return Status::IOError("no file in '" + remote::DisplayUrl(source) + "'");
  return files;
}

// ---- Hive partitions
// ----------------------------------------------------------------------------------

std::string HiveUnescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && HexDigitValue(text[i + 1]) >= 0 &&
        HexDigitValue(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexDigitValue(text[i + 1]) * 16 + HexDigitValue(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string HiveEscape(std::string_view text) {
  static constexpr std::string_view kSpecial = "\"#%'*/:=?[\\]^{}";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7f || kSpecial.find(c) != std::string_view::npos) {
      out.push_back('%');
      out.push_back(kUpperHexDigits[b >> 4]);
      out.push_back(kUpperHexDigits[b & 15]);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

Result<std::vector<HiveSegment>> ParseHivePath(std::string_view location) {
  // A URL's folders are those of its path: not its query string or fragment.
  const std::string display = remote::IsRemoteLocation(location) ? remote::DisplayUrl(location) : std::string();
  const std::string_view path = display.empty() ? location : std::string_view(display);
  std::vector<HiveSegment> segments;
  const size_t last_slash = path.rfind('/');
  if (last_slash == std::string_view::npos) return segments;
  std::string_view folders = path.substr(0, last_slash);
  size_t start = 0;
  while (start <= folders.size()) {
    size_t slash = folders.find('/', start);
    if (slash == std::string_view::npos) slash = folders.size();
    std::string_view segment = folders.substr(start, slash - start);
    start = slash + 1;
    const size_t eq = segment.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    HiveSegment s;
    s.key = HiveUnescape(segment.substr(0, eq));
    std::string_view raw = segment.substr(eq + 1);
    if (!raw.empty() && raw != kHiveNullValue) s.value = HiveUnescape(raw);
    for (const HiveSegment& other : segments) {
      if (LowerAscii(other.key) == LowerAscii(s.key)) {
        return Status::InvalidArgument("hive_partitioning: '" + std::string(path) +
                                       "' has the partition key '" + s.key + "' twice");
      }
    }
    segments.push_back(std::move(s));
  }
  return segments;
}

Result<HivePartitions> InferHivePartitions(const std::vector<std::string>& paths) {
  HivePartitions out;
  if (paths.empty()) return out;
  std::vector<std::vector<HiveSegment>> parsed;
  for (const std::string& p : paths) {
    PQ_ASSIGN_OR_RETURN(std::vector<HiveSegment> s, ParseHivePath(p));
    parsed.push_back(std::move(s));
  }
  const std::vector<HiveSegment>& first = parsed[0];
  // values[file][column], in the first file's key order.
  std::vector<std::vector<const std::optional<std::string>*>> raw(paths.size());
  for (size_t f = 0; f < paths.size(); ++f) {
    const std::vector<HiveSegment>& mine = parsed[f];
    bool same = mine.size() == first.size();
    for (size_t k = 0; same && k < first.size(); ++k) {
      const HiveSegment* match = nullptr;
      for (const HiveSegment& s : mine) {
        if (LowerAscii(s.key) == LowerAscii(first[k].key)) match = &s;
      }
      if (match == nullptr) {
        same = false;
      } else {
        raw[f].push_back(&match->value);
      }
    }
    if (!same) {
      return Status::InvalidArgument(
          "hive_partitioning: '" + paths[f] + "' has the partition keys " + KeyList(mine) +
          " but '" + paths[0] + "' has " + KeyList(first) + "; every file must have the same keys");
    }
  }
  out.values.assign(paths.size(), std::vector<SqlValue>(first.size()));
  for (size_t k = 0; k < first.size(); ++k) {
    bool all_integer = true, all_number = true, all_date = true;
    for (size_t f = 0; f < paths.size(); ++f) {
      const std::optional<std::string>& v = *raw[f][k];
      if (!v) continue;
      int64_t i = 0;
      double d = 0;
      all_integer = all_integer && IsDecimalInteger(*v, &i);
      all_number = all_number && IsDecimalNumber(*v, &d);
      all_date = all_date && IsIsoDate(*v);
    }
    PartitionColumn column;
    column.name = first[k].key;
    column.declared_type = all_integer  ? "INTEGER"
                           : all_number ? "REAL"
                           : all_date   ? "DATE"
                                        : "TEXT";
    column.affinity = AffinityOfDeclaredType(column.declared_type);
    for (size_t f = 0; f < paths.size(); ++f) {
      const std::optional<std::string>& v = *raw[f][k];
      SqlValue value;
      if (!v) {
        value = SqlValue::Null();
      } else if (all_integer) {
        int64_t i = 0;
        IsDecimalInteger(*v, &i);
        value = SqlValue::Integer(i);
      } else if (all_number) {
        double d = 0;
        IsDecimalNumber(*v, &d);
        value = SqlValue::Real(d);
      } else {
        value = SqlValue::Text(*v);
      }
      out.values[f][k] = std::move(value);
    }
    out.columns.push_back(std::move(column));
  }
  return out;
}

// ---- Columns
// ------------------------------------------------------------------------------------------

Result<FileColumns> FitColumns(const FileReader& file, const std::vector<DatasetColumn>& columns,
                               const ValueOptions& values, bool union_by_name) {
  const auto& fields = file.schema().fields();
  FileColumns fit;
  fit.field_of_column.assign(columns.size(), -1);
  fit.converted.assign(columns.size(), false);
  fit.field_affinity.assign(fields.size(), Affinity::kBlob);
  if (!union_by_name) {
    if (fields.size() != columns.size()) {
      return Status::InvalidArgument("it has " + std::to_string(fields.size()) + " columns, not " +
                                     std::to_string(columns.size()));
    }
    for (size_t c = 0; c < columns.size(); ++c) {
      PQ_ASSIGN_OR_RETURN(std::string type, FieldType(file, static_cast<int>(c), values));
      if (fields[c]->name != columns[c].field_name || type != columns[c].declared_type ||
          (columns[c].flat && !FieldIsFlat(file, static_cast<int>(c)))) {
        return Status::InvalidArgument("column " + std::to_string(c + 1) + " is " +
                                       Quoted(fields[c]->name) + " " + TypeName(type) +
                                       " there, not " + Quoted(columns[c].field_name) + " " +
                                       TypeName(columns[c].declared_type));
      }
      fit.field_of_column[c] = static_cast<int>(c);
      fit.field_affinity[c] = columns[c].affinity;
    }
    return fit;
  }
  std::vector<int> field_named(columns.size(), -1);  // per column: the file's field of that name
  std::unordered_map<std::string, size_t> column_named;  // by lower-case field name
  for (size_t c = 0; c < columns.size(); ++c) column_named.emplace(LowerAscii(columns[c].field_name), c);
  for (size_t f = 0; f < fields.size(); ++f) {
    const std::string lower = LowerAscii(fields[f]->name);
    PQ_ASSIGN_OR_RETURN(std::string type, FieldType(file, static_cast<int>(f), values));
    fit.field_affinity[f] = AffinityOfDeclaredType(type);
    const auto named = column_named.find(lower);
    const size_t c = named == column_named.end() ? columns.size() : named->second;
    if (c == columns.size()) {
      return Status::InvalidArgument("it has a column " + Quoted(fields[f]->name) +
                                     " the table does not have");
    }
    if (field_named[c] >= 0) {
      return Status::InvalidArgument(
          "it has two columns named " + Quoted(fields[static_cast<size_t>(field_named[c])]->name) +
          " and " + Quoted(fields[f]->name) + " (union_by_name matches names ignoring case)");
    }
    field_named[c] = static_cast<int>(f);
    const DatasetColumn& column = columns[c];
    if (column.flat && !FieldIsFlat(file, static_cast<int>(f))) {
      return Status::InvalidArgument("its column " + Quoted(fields[f]->name) + " is nested, not " +
                                     TypeName(column.declared_type));
    }
    if (type.empty()) continue;  // always NULL: read as a missing column
    if (type == column.declared_type) {
      fit.field_of_column[c] = static_cast<int>(f);
      fit.field_affinity[f] = column.affinity;
    } else if (type == "INTEGER" && column.declared_type == "REAL") {
      fit.field_of_column[c] = static_cast<int>(f);
      fit.converted[c] = true;
    } else {
      return Status::InvalidArgument("its column " + Quoted(fields[f]->name) + " is " + type +
                                     ", not " + TypeName(column.declared_type));
    }
  }
  return fit;
}

Result<DatasetSchema> UnifyColumns(const std::vector<std::shared_ptr<const FileReader>>& files,
                                   const ValueOptions& values, bool union_by_name) {
  DatasetSchema out;
  if (files.empty()) return out;
  if (!union_by_name) {
    // The first file defines the columns.
    const FileReader& first = *files[0];
    DistinctNames names;
    for (size_t f = 0; f < first.schema().fields().size(); ++f) {
      DatasetColumn c;
      c.field_name = first.schema().fields()[f]->name;
      PQ_ASSIGN_OR_RETURN(c.declared_type, FieldType(first, static_cast<int>(f), values));
      c.affinity = AffinityOfDeclaredType(c.declared_type);
      // SQLite column names are case-insensitive: make duplicates distinct.
      c.name = names.Add(SqlColumnName(c.field_name));
      out.columns.push_back(std::move(c));
    }
    for (const auto& file : files) {
      for (size_t f = 0; f < out.columns.size() && f < file->schema().fields().size(); ++f) {
        out.columns[f].flat = out.columns[f].flat && FieldIsFlat(*file, static_cast<int>(f));
      }
    }
    for (const auto& file : files) {
      auto fit = FitColumns(*file, out.columns, values, false);
      if (!fit.ok()) {
        return Status::InvalidArgument(
            "'" + file->path() + "' does not have the same columns as '" + first.path() + "' (" +
            fit.status().message() + "); with union_by_name=1 columns are matched by name");
      }
      out.files.push_back(std::move(fit).value());
    }
    return out;
  }
  // The union: first-seen order and spelling; the file that decided each column's type.
  std::vector<size_t> type_from;
  std::unordered_map<std::string, size_t> column_named;  // by lower-case field name
  for (size_t i = 0; i < files.size(); ++i) {
    const FileReader& file = *files[i];
    const auto& fields = file.schema().fields();
    std::unordered_map<std::string, size_t> field_named;  // this file's, by lower-case name
    for (size_t f = 0; f < fields.size(); ++f) {
      const std::string& name = fields[f]->name;
      const std::string lower = LowerAscii(name);
      if (auto [twin, added] = field_named.emplace(lower, f); !added) {
        return Status::InvalidArgument("union_by_name: '" + file.path() + "' has two columns named " +
                                       Quoted(fields[twin->second]->name) + " and " + Quoted(name) +
                                       " (names are matched ignoring case)");
      }
      PQ_ASSIGN_OR_RETURN(std::string type, FieldType(file, static_cast<int>(f), values));
      const bool flat = FieldIsFlat(file, static_cast<int>(f));
      const auto named = column_named.find(lower);
      const size_t c = named == column_named.end() ? out.columns.size() : named->second;
      if (c == out.columns.size()) {
        column_named.emplace(lower, c);
        DatasetColumn column;
        column.field_name = name;
        column.name = SqlColumnName(name);
        column.declared_type = type;
        column.flat = flat;
        out.columns.push_back(std::move(column));
        type_from.push_back(i);
        continue;
      }
      DatasetColumn& column = out.columns[c];
      column.flat = column.flat && flat;
      if (type.empty() || type == column.declared_type) continue;
      if (column.declared_type.empty() || (column.declared_type == "INTEGER" && type == "REAL")) {
        column.declared_type = type;
        type_from[c] = i;
        continue;
      }
      if (column.declared_type == "REAL" && type == "INTEGER") continue;
      return Status::InvalidArgument("union_by_name: column " + Quoted(column.field_name) + " is " +
                                     column.declared_type + " in '" + files[type_from[c]]->path() +
                                     "' but " + type + " in '" + file.path() +
                                     "'; only INTEGER and REAL combine (as REAL)");
    }
  }
  DistinctNames names;  // distinct already, unless two differ only where one holds a NUL byte
  for (DatasetColumn& c : out.columns) {
    c.affinity = AffinityOfDeclaredType(c.declared_type);
    c.name = names.Add(c.name);
  }
  for (const auto& file : files) {
    auto fit = FitColumns(*file, out.columns, values, true);
    if (!fit.ok()) return fit.status().WithContext(file->path());
    out.files.push_back(std::move(fit).value());
  }
  return out;
}

Result<std::vector<size_t>> ChooseColumns(const std::vector<std::string>& names,
                                          const std::vector<DatasetColumn>& columns,
                                          const std::vector<std::string>& also) {
  std::vector<size_t> chosen;
  for (const std::string& name : names) {
    const std::string lower = LowerAscii(name);
    if (std::any_of(also.begin(), also.end(), [&](const std::string& a) { return LowerAscii(a) == lower; })) {
      continue;
    }
    std::vector<size_t> exact, folded, sql;
    for (size_t c = 0; c < columns.size(); ++c) {
      if (columns[c].field_name == name) exact.push_back(c);
      if (LowerAscii(columns[c].field_name) == lower) folded.push_back(c);
      if (LowerAscii(columns[c].name) == lower) sql.push_back(c);
    }
    const std::vector<size_t>& found = !exact.empty() ? exact : !folded.empty() ? folded : sql;
    if (found.empty()) {
      return Status::InvalidArgument("option 'columns': the files have no column " + Quoted(name) +
                                     " (parquet_schema lists them)");
    }
    if (found.size() > 1) {
      return Status::InvalidArgument("option 'columns': " + Quoted(name) + " is " + Quoted(columns[found[0]].field_name) +
                                     " and " + Quoted(columns[found[1]].field_name) +
                                     " ignoring case: write it as the file does, or as the table names it (" +
                                     Quoted(columns[found[1]].name) + ")");
    }
    if (std::find(chosen.begin(), chosen.end(), found[0]) != chosen.end()) {
      return Status::InvalidArgument("option 'columns' names " + Quoted(columns[found[0]].field_name) + " twice");
    }
    chosen.push_back(found[0]);
  }
  if (chosen.empty()) return Status::InvalidArgument("option 'columns' names no column of the files: columns='a, b, ...'");
  return chosen;
}

FileColumns ChosenFileColumns(const FileColumns& file, const std::vector<size_t>& chosen) {
  FileColumns kept;
  kept.field_affinity = file.field_affinity;
  for (size_t c : chosen) {
    kept.field_of_column.push_back(file.field_of_column[c]);
    kept.converted.push_back(file.converted[c]);
  }
  return kept;
}

// ---- Opening
// ------------------------------------------------------------------------------------------

Result<std::shared_ptr<const FileReader>> OpenTableFile(const std::string& path,
                                                        const ReaderOptions& options) {
  PQ_ASSIGN_OR_RETURN(std::shared_ptr<FileReader> reader, FileReader::Open(path, options));
  PQ_RETURN_IF_ERROR(CheckRowCounts(*reader));
  return std::shared_ptr<const FileReader>(std::move(reader));
}

// ---- Snapshots
// ----------------------------------------------------------------------------------------

Status CountRows(DatasetSnapshot* d) {
  d->total_rows = 0;
  d->max_file_rows = 0;
  for (DatasetFile& f : d->files) {
    // Row groups are the truth: some writers leave FileMetaData.num_rows at 0. Their sum within a
    // file was checked when it was opened (FileReader::Open).
    f.rows = 0;
    for (const RowGroup& rg : f.reader->metadata().row_groups) f.rows += rg.num_rows;
    f.first_row = d->total_rows;
    if (__builtin_add_overflow(d->total_rows, f.rows, &d->total_rows)) {
      return Status::Corruption("'" + f.reader->path() + "' has " + std::to_string(f.rows) +
                                " rows: the files' row counts sum past 2^63-1");
    }
    d->max_file_rows = std::max(d->max_file_rows, f.rows);
  }
  return Status::OK();
}

Result<std::shared_ptr<const DatasetSnapshot>> MakeSnapshot(std::vector<std::shared_ptr<const FileReader>> readers,
                                                            std::vector<FileColumns> columns) {
  auto data = std::make_shared<DatasetSnapshot>();
  for (size_t i = 0; i < readers.size(); ++i) {
    DatasetFile file;
    file.reader = std::move(readers[i]);
    file.columns = std::move(columns[i]);
    data->files.push_back(std::move(file));
  }
  PQ_RETURN_IF_ERROR(CountRows(data.get()));
  return std::shared_ptr<const DatasetSnapshot>(std::move(data));
}

Result<std::shared_ptr<const DatasetSnapshot>> RefreshSnapshot(std::shared_ptr<const DatasetSnapshot> data,
                                                               const std::vector<DatasetColumn>& columns,
                                                               const std::vector<size_t>& chosen,
                                                               const ReaderOptions& options,
                                                               const ValueOptions& values, bool union_by_name) {
  std::shared_ptr<DatasetSnapshot> fresh;
  for (size_t i = 0; i < data->files.size(); ++i) {
    const DatasetFile& file = data->files[i];
    const std::string& path = file.reader->path();
    if (file.reader->file().Unchanged()) continue;
    auto reader = OpenTableFile(file.reader->file().location(), options);
    if (!reader.ok()) {
      return Status::IOError("'" + path + "' changed since the table was created and cannot be read: " +
                             reader.status().message());
    }
    auto fit = FitColumns(**reader, columns, values, union_by_name);
    if (!fit.ok()) {
      return Status::InvalidArgument("'" + path + "' changed since the table was created and no longer fits it: " +
                                     fit.status().message() + "; create the table again");
    }
    if (!fresh) fresh = std::make_shared<DatasetSnapshot>(*data);
    DatasetFile& replaced = fresh->files[i];
    replaced.reader = std::move(reader).value();
    replaced.columns = chosen.empty() ? std::move(fit).value() : ChosenFileColumns(*fit, chosen);
  }
  if (!fresh) return data;
  PQ_RETURN_IF_ERROR(CountRows(fresh.get()));
  return std::shared_ptr<const DatasetSnapshot>(std::move(fresh));
}

}  // namespace pq::ext
