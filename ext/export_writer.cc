#include "ext/export_writer.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "ext/encryption_options.h"
#include "ext/options.h"
#include "ext/remote_options.h"
#include "format/codec/codec.h"
#include "format/crypto/key_material.h"
#include "format/remote/remote_url.h"
#include "format/writer/s3_output_file_adapter.h"
#include "format/util/task_pool.h"
#include "format/writer/output_file.h"

namespace pq::ext {

const std::vector<std::string_view> kWriterOptionNames = {
    "compression", "compression_level", "row_group_size", "row_group_bytes", "page_size", "page_rows",
    "data_page_version", "dictionary", "encoding", "bloom_filter", "bloom_fpp", "page_index",
    "checksums", "sorted_by", "kv_metadata", "schema", "encoding_trial", "threads", "progress",
    // kEncryptionOptionNames (encryption_options.h)
    "footer_key", "column_keys", "encryption_algorithm", "plaintext_footer", "aad_prefix",
    "store_aad_prefix", "footer_key_id", "column_key_ids", "footer_master_key",
    "column_master_keys", "double_wrapping", "key_material", "data_key_length", "master_keys"};

const std::vector<std::string_view>& ExportOptionNames() {
  // Built on first use: the remote names live in another file's list.
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v = kWriterOptionNames;
    v.insert(v.end(), kRemoteOptionNames.begin(), kRemoteOptionNames.end());
    return v;
  }();
  return names;
}

namespace {

constexpr int64_t kBatchRows = 8192;
constexpr size_t kBatchBytes = size_t{16} << 20;
constexpr int64_t kMaxExportThreads = 64;
// page_size= when not given: 128 KiB rather than the engine's 1 MiB. A lookup decompresses whole
// pages, and wide columns (text, doubles) reach 1 MiB only after far more rows than narrow ones. On
// the benchmark's 10-million-row table: a cold point lookup 0.58 -> 0.45 ms, full scans the same,
// the file 50.1 -> 57.4 MB (DuckDB's own: 114 MB).
constexpr int64_t kDefaultExportPageBytes = int64_t{128} << 10;

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// The items of a list of columns or types (SplitList, with backquotes and brackets), as strings: the
// text may be a temporary.
std::vector<std::string> ListItems(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view item : SplitList(text, "\"'`", true)) out.emplace_back(item);
  return out;
}

// Splits "name rest" where name may be quoted ("a b" or [a b] or `a b`).
std::pair<std::string, std::string> SplitName(std::string_view item) {
  item = TrimSpace(item);
  if (!item.empty() && (item.front() == '"' || item.front() == '`' || item.front() == '[')) {
    const char close = item.front() == '[' ? ']' : item.front();
    size_t i = 1;
    while (i < item.size()) {
      if (item[i] == close) {
        if (close != ']' && i + 1 < item.size() && item[i + 1] == close) {
          i += 2;
          continue;
        }
        break;
      }
      ++i;
    }
    const size_t end = std::min(i + 1, item.size());
    return {Dequote(item.substr(0, end)), std::string(TrimSpace(item.substr(end)))};
  }
  size_t i = 0;
  while (i < item.size() && !std::isspace(static_cast<unsigned char>(item[i]))) ++i;
  return {std::string(item.substr(0, i)), std::string(TrimSpace(item.substr(i)))};
}

Status OptionError(std::string_view key, const std::string& why) {
  return Status::InvalidArgument("option '" + std::string(key) + "': " + why);
}

Result<Encoding> ParseEncodingName(std::string_view name) {
  const std::string n = Upper(TrimSpace(name));
  if (n == "PLAIN") return Encoding::kPlain;
  if (n == "RLE_DICTIONARY" || n == "DICTIONARY") return Encoding::kRleDictionary;
  if (n == "PLAIN_DICTIONARY") return Encoding::kPlainDictionary;
  if (n == "RLE") return Encoding::kRle;
  if (n == "DELTA_BINARY_PACKED") return Encoding::kDeltaBinaryPacked;
  if (n == "DELTA_LENGTH_BYTE_ARRAY") return Encoding::kDeltaLengthByteArray;
  if (n == "DELTA_BYTE_ARRAY") return Encoding::kDeltaByteArray;
  if (n == "BYTE_STREAM_SPLIT") return Encoding::kByteStreamSplit;
  return Status::InvalidArgument("unknown encoding '" + std::string(TrimSpace(name)) + "'");
}

// SQLite's ORDER BY order of two values (BINARY collation): NULL < numbers < text < blob.
int CompareValues(sqlite3_value* a, sqlite3_value* b) {
  auto rank = [](int t) {
    return t == SQLITE_NULL ? 0 : t == SQLITE_TEXT ? 2 : t == SQLITE_BLOB ? 3 : 1;
  };
  const int ta = sqlite3_value_type(a), tb = sqlite3_value_type(b);
  if (rank(ta) != rank(tb)) return rank(ta) < rank(tb) ? -1 : 1;
  switch (rank(ta)) {
    case 0:
      return 0;
    case 1: {
      if (ta == SQLITE_INTEGER && tb == SQLITE_INTEGER) {
        const int64_t x = sqlite3_value_int64(a), y = sqlite3_value_int64(b);
        return x < y ? -1 : x > y;
      }
      const double x = sqlite3_value_double(a), y = sqlite3_value_double(b);
      if (x < y) return -1;
      if (x > y) return 1;
      if (ta == tb) return 0;
      // An integer and a double that compare equal as doubles: compare exactly.
      const int64_t i = ta == SQLITE_INTEGER ? sqlite3_value_int64(a) : sqlite3_value_int64(b);
      const double d = ta == SQLITE_INTEGER ? y : x;
      if (d >= 9223372036854775808.0) return ta == SQLITE_INTEGER ? -1 : 1;
      const int64_t di = static_cast<int64_t>(d);
      const int c = i < di ? -1 : i > di;
      return ta == SQLITE_INTEGER ? c : -c;
    }
    default: {
      const int na = sqlite3_value_bytes(a), nb = sqlite3_value_bytes(b);
      const void* pa = ta == SQLITE_TEXT ? static_cast<const void*>(sqlite3_value_text(a))
                                         : sqlite3_value_blob(a);
      const void* pb = tb == SQLITE_TEXT ? static_cast<const void*>(sqlite3_value_text(b))
                                         : sqlite3_value_blob(b);
      const int c = std::memcmp(pa, pb, static_cast<size_t>(std::min(na, nb)));
      if (c != 0) return c < 0 ? -1 : 1;
      return na < nb ? -1 : na > nb;
    }
  }
}

}  // namespace

namespace {

std::mutex& ClaimsMutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, TargetClaim::Writer>& Claims() {
  static auto* held = new std::map<std::string, TargetClaim::Writer>();  // never destroyed: no exit order
  return *held;
}

}  // namespace

Result<std::unique_ptr<TargetClaim>> TargetClaim::Take(const std::string& target, Writer who) {
  std::string key = target;
  if (!remote::IsRemoteLocation(target)) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(target, ec), ec);
    if (!ec) key = p.string();
  }
  std::lock_guard<std::mutex> lock(ClaimsMutex());
  auto [it, taken] = Claims().emplace(key, who);
  if (!taken) {
    const std::string cannot = "cannot write '" + target + "': ";
    if (it->second == kExport) return Status::InvalidArgument(cannot + "parquet_export is writing it now");
    if (who == kWriteTable) {
      return Status::InvalidArgument(cannot +
                                     "another parquet write table is writing it, in this or another "
                                     "transaction not committed yet; insert into one table only");
    }
    return Status::InvalidArgument(cannot +
                                   "a parquet write table is writing it, in this or another transaction not "
                                   "committed yet, and its COMMIT would replace the file; export to another "
                                   "file, or end that transaction first");
  }
  return std::unique_ptr<TargetClaim>(new TargetClaim(std::move(key)));
}

TargetClaim::~TargetClaim() {
  std::lock_guard<std::mutex> lock(ClaimsMutex());
  Claims().erase(key_);
}

Status CheckOutputFile(const std::string& target) {
  if (target.empty()) return Status::InvalidArgument("the output path is empty");
  if (remote::IsRemoteLocation(target)) return Status::OK();  // its upload says what is wrong
  auto cannot = [&target](const std::string& why) {
    return Status::IOError("cannot write '" + target + "': " + why);
  };
  struct stat st;
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return cannot("it is a folder");
    if (S_ISFIFO(st.st_mode)) return cannot("it is a FIFO (named pipe), not a regular file");
    if (!S_ISREG(st.st_mode)) return cannot("it is not a regular file");
  }
  const std::string folder = FolderOf(target);
  if (::stat(folder.c_str(), &st) != 0) {
    return cannot(errno == ENOENT ? "the folder '" + folder + "' does not exist"
                                  : "the folder '" + folder + "': " + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) return cannot("'" + folder + "' is not a folder");
  if (::access(folder.c_str(), W_OK) != 0) {
    return cannot("the folder '" + folder + "' is not writable");
  }
  return Status::OK();
}

namespace {

// The first word of a column constraint (NOT NULL, PRIMARY KEY, DEFAULT, ...) in a type's text
// outside its brackets, if any.
std::optional<std::string> ConstraintWord(std::string_view type_text) {
  static const char* const kWords[] = {"NOT",     "NULL",    "PRIMARY",    "UNIQUE",     "DEFAULT",
                                       "CHECK",   "COLLATE", "REFERENCES", "CONSTRAINT", "GENERATED"};
  int depth = 0;
  std::string word;
  auto finish = [&]() -> std::optional<std::string> {
    std::string upper = Upper(word);
    word.clear();
    for (const char* w : kWords) {
      if (upper == w) return upper;
    }
    return std::nullopt;
  };
  for (char c : type_text) {
    if (c == '(' || c == '<') ++depth;
    if (c == ')' || c == '>') --depth;
    if (depth == 0 && (std::isalpha(static_cast<unsigned char>(c)) || c == '_')) {
      word.push_back(c);
    } else if (!word.empty()) {
      if (auto w = finish()) return w;
    }
  }
  if (!word.empty()) return finish();
  return std::nullopt;
}

}  // namespace

Result<std::vector<ExportColumn>> ParseSchemaOption(std::string_view text) {
  std::vector<ExportColumn> columns;
  for (const std::string& item : ListItems(text)) {
    auto [name, type_text] = SplitName(item);
    // A trailing "FIELD_ID n".
    std::optional<int32_t> field_id;
    {
      const std::string upper = Upper(type_text);
      const size_t at = upper.rfind("FIELD_ID");
      if (at != std::string::npos && at > 0 &&
          std::isspace(static_cast<unsigned char>(upper[at - 1])) &&
          upper.find_first_of("'\"", at) == std::string::npos) {
        const std::string_view number = TrimSpace(std::string_view(type_text).substr(at + 8));
        int64_t id = -1;
        auto [p, ec] = std::from_chars(number.data(), number.data() + number.size(), id);
        if (number.empty() || ec != std::errc() || p != number.data() + number.size() || id < 0 ||
            id > INT32_MAX) {
          return OptionError("schema", "column '" + name +
                                           "': FIELD_ID takes an integer from 0 to 2147483647");
        }
        field_id = static_cast<int32_t>(id);
        type_text = std::string(TrimSpace(std::string_view(type_text).substr(0, at)));
      }
    }
    if (name.empty()) return OptionError("schema", "an entry has no column name");
    if (type_text.empty()) {
      return OptionError("schema",
                         "column '" + name + "' has no type (as in schema='" + name + " INTEGER')");
    }
    if (std::optional<std::string> word = ConstraintWord(type_text)) {
      // Read as a declared type, 'SMALLINT NOT NULL' would be INTEGER by SQLite's affinity rules.
      return OptionError("schema", "column '" + name + "': schema= gives a type only, and '" + *word +
                                       "' in '" + type_text + "' is not part of one");
    }
    Result<ColumnType> type = ParseColumnType(type_text);
    if (!type.ok())
      return OptionError("schema", "column '" + name + "': " + type.status().message());
    if (type->kind == ColumnKind::kInfer) {
      return OptionError("schema",
                         "column '" + name + "': unknown type '" + type_text +
                             "' (use INTEGER, REAL, TEXT, BLOB, BOOLEAN, DATE, TIME, TIMESTAMP, "
                             "DECIMAL(p,s), UUID, JSON, ...)");
    }
    for (const ExportColumn& c : columns) {
      if (LowerAscii(c.name) == LowerAscii(name))
        return OptionError("schema", "column '" + name + "' is given twice");
      if (field_id && c.field_id == field_id) {
        return OptionError("schema", "columns '" + c.name + "' and '" + name +
                                         "' have the same FIELD_ID " + std::to_string(*field_id));
      }
    }
    columns.push_back({name, *type, field_id});
  }
  if (columns.empty()) return OptionError("schema", "no columns");
  return columns;
}

int DefaultExportThreads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(std::min(n, 4u));
}

Result<ExportOptions> ParseExportOptions(const OptionList& opts,
                                         std::shared_ptr<const crypto::KeyRegistry> keys) {
  ExportOptions o;
  PQ_ASSIGN_OR_RETURN(o.remote_settings, RemoteSettingsFromOptions(opts));
  WriterOptions& w = o.writer;
  w.codec = CompressionCodec::kSnappy;
  if (opts.Has("compression")) {
    Result<CompressionCodec> codec = ParseCodecName(opts.GetString("compression", ""));
    if (!codec.ok()) return OptionError("compression", codec.status().message());
    w.codec = *codec;
  }
  if (opts.Has("compression_level")) {
    PQ_ASSIGN_OR_RETURN(int64_t level, opts.GetInt("compression_level", 0, -1000000, 1000000));
    Result<int> valid = ValidateCompressionLevel(w.codec, static_cast<int>(level));
    if (!valid.ok()) return OptionError("compression_level", valid.status().message());
    w.compression_level = static_cast<int>(level);
  }
  constexpr int64_t kMaxInt = int64_t{1} << 62;
  PQ_ASSIGN_OR_RETURN(w.row_group_rows,
                      opts.GetInt("row_group_size", w.row_group_rows, 1, kMaxInt));
  PQ_ASSIGN_OR_RETURN(w.row_group_bytes,
                      opts.GetInt("row_group_bytes", w.row_group_bytes, 1, kMaxInt));
  PQ_ASSIGN_OR_RETURN(w.page_bytes,
                      opts.GetInt("page_size", kDefaultExportPageBytes, 1, int64_t{1} << 30));
  PQ_ASSIGN_OR_RETURN(w.page_rows, opts.GetInt("page_rows", w.page_rows, 1, kMaxInt));
  PQ_ASSIGN_OR_RETURN(int64_t version, opts.GetInt("data_page_version", 1, 1, 2));
  w.data_page_version = static_cast<int>(version);
  PQ_ASSIGN_OR_RETURN(w.dictionary, opts.GetBool("dictionary", true));
  PQ_ASSIGN_OR_RETURN(w.encoding_trial, opts.GetBool("encoding_trial", true));
  PQ_ASSIGN_OR_RETURN(w.page_index, opts.GetBool("page_index", true));
  PQ_ASSIGN_OR_RETURN(w.checksums, opts.GetBool("checksums", true));
  PQ_ASSIGN_OR_RETURN(int64_t threads,
                      opts.GetInt("threads", DefaultExportThreads(), 1, kMaxExportThreads));
  o.threads = static_cast<int>(threads);
  PQ_ASSIGN_OR_RETURN(o.progress, opts.GetBool("progress", false));
  if (opts.Has("bloom_fpp")) {
    const std::string text(TrimSpace(opts.GetString("bloom_fpp", "")));
    double fpp = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), fpp);
    if (ec != std::errc() || p != text.data() + text.size() || !(fpp > 0 && fpp < 1)) {
      return OptionError("bloom_fpp",
                         "expects a probability between 0 and 1 (exclusive), not '" + text + "'");
    }
    w.bloom_filter_fpp = fpp;
  }
  for (const std::string& item : ListItems(opts.GetString("encoding", ""))) {
    const size_t colon = item.rfind(':');
    if (colon == std::string::npos) {
      return OptionError("encoding", "'" + item + "' is not of the form column:ENCODING");
    }
    const std::string column = Dequote(item.substr(0, colon));
    Result<Encoding> enc = ParseEncodingName(item.substr(colon + 1));
    if (!enc.ok()) return OptionError("encoding", enc.status().message());
    // Names are matched to columns ignoring case (ExportWriter::Make): two that match alike would
    // give one column two encodings, the last one silently winning.
    for (const auto& [other, e] : o.encodings) {
      if (LowerAscii(other) == LowerAscii(column))
        return OptionError("encoding", "column '" + column + "' is given twice");
    }
    o.encodings.emplace_back(column, *enc);
  }
  for (const std::string& item : ListItems(opts.GetString("bloom_filter", ""))) {
    o.bloom_columns.push_back(Dequote(item));
  }
  for (const std::string& item : ListItems(opts.GetString("sorted_by", ""))) {
    auto [name, rest] = SplitName(item);
    const std::string dir = Upper(rest);
    if (!dir.empty() && dir != "ASC" && dir != "DESC") {
      return OptionError("sorted_by", "'" + item + "' is not of the form column [ASC|DESC]");
    }
    o.sorted_by.push_back({name, dir == "DESC"});
  }
  for (const std::string& item : ListItems(opts.GetString("kv_metadata", ""))) {
    const size_t colon = item.find(':');
    KeyValue kv;
    kv.key = std::string(TrimSpace(std::string_view(item).substr(0, colon)));
    if (colon != std::string::npos)
      kv.value = std::string(TrimSpace(std::string_view(item).substr(colon + 1)));
    if (kv.key.empty()) return OptionError("kv_metadata", "'" + item + "' has an empty key");
    w.key_value_metadata.push_back(std::move(kv));
  }
  if (opts.Has("schema")) {
    PQ_ASSIGN_OR_RETURN(o.schema, ParseSchemaOption(opts.GetString("schema", "")));
  }
  PQ_ASSIGN_OR_RETURN(w.encryption, EncryptionFromOptions(opts, std::move(keys)));
  return o;
}

// ---------------------------------------------------------------------------------------------
// ExportWriter::Pipeline (threads > 1)

// The encoding thread and its queue of batches. The calling thread Submits batches (the builders of
// every column) in order; the encoding thread runs ExportWriter::WriteBatch on each in that order,
// sharing a batch's columns with the pool's workers when there is a pool, and hands the emptied
// builders back for reuse. The first failure stops the encoding: later batches are dropped and
// every later Submit or Drain returns that failure.
class ExportWriter::Pipeline {
 public:
  // `threads` in all, the calling one included (at least 2).
  Pipeline(ExportWriter* writer, int threads)
      : writer_(writer), max_queued_(static_cast<size_t>(threads)) {
    if (threads > 2) pool_ = std::make_unique<TaskPool>(threads - 2);
    thread_ = std::thread([this] { Run(); });
  }
  // Drops what is queued, waits for the batch in progress, and stops the threads.
  ~Pipeline() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
      queue_.clear();
    }
    wake_.notify_all();
    thread_.join();
    pool_.reset();
  }
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // Queues a batch, waiting while max_queued_ batches wait already. The failure of an earlier
  // batch, if any.
  Status Submit(std::vector<ColumnBuilder> batch, bool end_row_group) {
    std::unique_lock<std::mutex> lock(mu_);
    room_.wait(lock, [this] { return queue_.size() < max_queued_ || !failure_.ok(); });
    if (!failure_.ok()) return failure_;
    queue_.push_back(Job{std::move(batch), end_row_group});
    lock.unlock();
    wake_.notify_one();
    return Status::OK();
  }

  // Waits until every batch queued is written. The first failure, if any.
  Status Drain() {
    std::unique_lock<std::mutex> lock(mu_);
    room_.wait(lock, [this] { return (queue_.empty() && !busy_) || !failure_.ok(); });
    return failure_;
  }

  // Emptied builders of an earlier batch, to fill again; empty when there are none yet.
  std::vector<ColumnBuilder> TakeSpare() {
    std::lock_guard<std::mutex> lock(mu_);
    if (spares_.empty()) return {};
    std::vector<ColumnBuilder> out = std::move(spares_.back());
    spares_.pop_back();
    return out;
  }

  // Writes the columns of `builders` to the file, each column on whichever thread takes it first:
  // the encoding thread and the pool's workers. The first failure in column order.
  Status WriteColumns(std::vector<ColumnBuilder>* builders) {
    const size_t n = builders->size();
    std::vector<Status> results(n);
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) {
        results[i] = writer_->WriteColumn(&(*builders)[i], i);
      }
    };
    // Every helper task works until no column is left unclaimed, then says so under the lock:
    // once none is running, every column is written and nothing touches the state above.
    std::mutex mu;
    std::condition_variable all_done;
    int running = std::min<int>(pool_->workers(), static_cast<int>(n) - 1);
    for (int h = running; h > 0; --h) {
      pool_->Submit([&] {
        work();
        std::lock_guard<std::mutex> lock(mu);
        if (--running == 0) all_done.notify_all();
      });
    }
    work();
    {
      std::unique_lock<std::mutex> lock(mu);
      all_done.wait(lock, [&] { return running <= 0; });
    }
    for (Status& s : results) {
      if (!s.ok()) return s;
    }
    return Status::OK();
  }

  bool has_pool() const { return pool_ != nullptr; }

 private:
  struct Job {
    std::vector<ColumnBuilder> batch;
    bool end_row_group = false;
  };

  void Run() {
    while (true) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;
        job = std::move(queue_.front());
        queue_.pop_front();
        busy_ = true;
      }
      room_.notify_all();
      Status s = writer_->WriteBatch(&job.batch, job.end_row_group, this);
      {
        std::lock_guard<std::mutex> lock(mu_);
        busy_ = false;
        if (!s.ok() && failure_.ok()) {
          failure_ = std::move(s);
          queue_.clear();
        }
        if (failure_.ok()) spares_.push_back(std::move(job.batch));
      }
      room_.notify_all();
    }
  }

  ExportWriter* writer_;
  const size_t max_queued_;
  std::unique_ptr<TaskPool> pool_;  // threads > 2: workers that share a batch's columns
  std::mutex mu_;
  std::condition_variable wake_;  // the encoding thread: a job or stopping
  std::condition_variable room_;  // the calling thread: room in the queue, idle, or a failure
  std::deque<Job> queue_;
  std::vector<std::vector<ColumnBuilder>> spares_;
  bool busy_ = false;
  bool stopping_ = false;
  Status failure_;
  std::thread thread_;
};

// ---------------------------------------------------------------------------------------------
// ExportWriter

Result<std::unique_ptr<ExportWriter>> ExportWriter::Make(std::string target,
                                                         std::vector<ExportColumn> columns,
                                                         const ExportOptions& options) {
  if (target.empty()) return Status::InvalidArgument("the output path is empty");
  if (columns.empty()) return Status::InvalidArgument("there are no columns to write");
  auto find = [&columns](std::string_view option, const std::string& name) -> Result<int> {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (LowerAscii(columns[i].name) == LowerAscii(name)) return static_cast<int>(i);
    }
    return OptionError(option, "no column named '" + name + "'");
  };
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name.empty()) {
      return Status::InvalidArgument("column " + std::to_string(i + 1) +
                                     " has no name; name it with AS");
    }
    for (size_t j = 0; j < i; ++j) {
      if (LowerAscii(columns[i].name) == LowerAscii(columns[j].name)) {
        return Status::InvalidArgument("two columns are named '" + columns[i].name +
                                       "'; give them distinct names with AS");
      }
    }
  }
  if (remote::IsRemoteLocation(target)) {
    PQ_ASSIGN_OR_RETURN(remote::RemoteUrl url, remote::ParseRemoteUrl(target));
    if (url.scheme != remote::UrlScheme::kS3) {
      return Status::InvalidArgument("cannot write '" + remote::DisplayUrl(target) +
                                     "': only s3:// locations can be written, not http(s) URLs");
    }
  }
  std::unique_ptr<ExportWriter> w(new ExportWriter());
  w->target_ = std::move(target);
  w->remote_ = options.remote;
  w->options_ = options.writer;
  for (const auto& [name, enc] : options.encodings) {
    PQ_ASSIGN_OR_RETURN(int i, find("encoding", name));
    w->options_.column_encodings[columns[static_cast<size_t>(i)].name] = enc;
  }
  for (const std::string& name : options.bloom_columns) {
    PQ_ASSIGN_OR_RETURN(int i, find("bloom_filter", name));
    w->options_.bloom_filter_columns.push_back(columns[static_cast<size_t>(i)].name);
  }
  int leaves = 0;
  for (const ExportColumn& c : columns) {
    w->first_leaf_.push_back(leaves);
    leaves += LeafCount(c.type);
  }
  for (const SortKey& key : options.sorted_by) {
    PQ_ASSIGN_OR_RETURN(int i, find("sorted_by", key.column));
    const ExportColumn& c = columns[static_cast<size_t>(i)];
    if (c.type.is_group() || c.type.kind == ColumnKind::kGeometry ||
        c.type.kind == ColumnKind::kGeography || c.type.kind == ColumnKind::kInterval) {
      return OptionError("sorted_by", "column '" + c.name + "' is " + ColumnTypeName(c.type) +
                                          ", which has no sort order");
    }
    SortingColumn sc;
    sc.column_idx = w->first_leaf_[static_cast<size_t>(i)];
    sc.descending = key.descending;
    sc.nulls_first = !key.descending;  // SQLite: NULL is the smallest value
    w->options_.sorting_columns.push_back(sc);
    w->sort_keys_.emplace_back(i, key.descending);
  }
  w->threads_ = options.threads;
  w->file_size_bytes_ = options.file_size_bytes;
  w->row_groups_per_file_ = options.row_groups_per_file;
  w->columns_ = std::move(columns);
  w->types_known_ = std::none_of(w->columns_.begin(), w->columns_.end(), [](const ExportColumn& c) {
    return c.type.kind == ColumnKind::kInfer;
  });
  if (w->types_known_) {
    for (const ExportColumn& c : w->columns_) w->builders_.emplace_back(c.type);
  }
  return w;
}

namespace {

void FreeValues(std::vector<sqlite3_value*>* values) {
  for (sqlite3_value* v : *values) sqlite3_value_free(v);
  values->clear();
}

// Copies of `values`; OutOfMemory (and nothing kept) when a copy fails.
Result<std::vector<sqlite3_value*>> CopyValues(const std::vector<sqlite3_value*>& values) {
  std::vector<sqlite3_value*> copies;
  for (sqlite3_value* v : values) {
    sqlite3_value* c = sqlite3_value_dup(v);
    if (c == nullptr) {
      FreeValues(&copies);
      return Status::OutOfMemory("out of memory");
    }
    copies.push_back(c);
  }
  return copies;
}

}  // namespace

ExportWriter::~ExportWriter() {
  if (!published_) Abort();
  for (sqlite3_value* v : pending_) sqlite3_value_free(v);
  for (sqlite3_value* v : last_sort_values_) sqlite3_value_free(v);
  PopTakeBackPoints(0);
}

Status ExportWriter::PushTakeBackPoint() {
  if (failed_ || finished_) return Status::InvalidArgument("the Parquet writer is closed");
  // The point goes between batches: what memory holds goes to the file first.
  if (rows_ > written_rows_) PQ_RETURN_IF_ERROR(Flush());
  TakeBackPoint p;
  p.rows = rows_;
  PQ_ASSIGN_OR_RETURN(p.sort_values, CopyValues(last_sort_values_));
  points_.push_back(std::move(p));
  return Status::OK();
}

void ExportWriter::PopTakeBackPoints(size_t keep) {
  while (points_.size() > keep) {
    FreeValues(&points_.back().sort_values);
    points_.pop_back();
  }
}

Status ExportWriter::MarkTakeBackBoundaries() {
  for (TakeBackPoint& p : points_) {
    if (p.boundary || p.rows != written_rows_) continue;
    if (pipeline_) PQ_RETURN_IF_ERROR(pipeline_->Drain());
    PQ_ASSIGN_OR_RETURN(p.boundary, file_->MarkBoundary());
    row_group_rows_ = 0;
    row_group_bytes_ = 0;
  }
  return Status::OK();
}

Status ExportWriter::TakeBackTo(size_t point) {
  if (failed_ || finished_) return Status::InvalidArgument("the Parquet writer is closed");
  if (point >= points_.size()) return Status::InvalidArgument("no such take-back point");
  TakeBackPoint& p = points_[point];
  if (p.rows < written_rows_) {
    // The rows went to the file: cut it back to the boundary the point became.
    if (!p.boundary) {
      return Fail(Status::InvalidArgument("internal: rows after a take-back point reached the file without a "
                                   "row-group boundary"));
    }
    if (pipeline_) {
      Status drained = pipeline_->Drain();
      if (!drained.ok()) return Fail(drained);
    }
    Status s = file_->TruncateTo(*p.boundary);
    if (!s.ok()) return Fail(s);
    for (ColumnBuilder& b : builders_) b.Truncate(0);
    FreeValues(&pending_);
    pending_bytes_ = 0;
    rows_ = written_rows_ = p.rows;
    row_group_rows_ = 0;
    row_group_bytes_ = 0;
  } else {
    PQ_RETURN_IF_ERROR(TruncateRows(p.rows));
  }
  // The sort order goes on from the last row kept.
  PQ_ASSIGN_OR_RETURN(std::vector<sqlite3_value*> sort_values, CopyValues(p.sort_values));
  FreeValues(&last_sort_values_);
  last_sort_values_ = std::move(sort_values);
  PopTakeBackPoints(point + 1);
  return Status::OK();
}

void ExportWriter::Abort() {
  failed_ = true;
  pipeline_.reset();  // stops the encoding before the file goes
  if (file_) {
    file_->Abort();  // removes the file unless it was closed
    file_.reset();
  }
  if (finished_ && !published_ && !temp_path_.empty()) {
    (void)::unlink(temp_path_.c_str());
    finished_ = false;
  }
  if (object_ && !published_) object_->Remove();  // aborts the upload: no object, no parts
  if (!published_ && !key_material_temp_.empty()) {
    (void)::unlink(key_material_temp_.c_str());
    key_material_temp_.clear();
  }
}

void ExportWriter::RemovePublished() {
  if (object_) object_->DeleteCommitted();
}

Status ExportWriter::Fail(Status s) {
  Abort();
  return s;
}

int64_t ExportWriter::BatchLimit() const {
  const int64_t left = options_.row_group_rows - row_group_rows_;
  return std::max<int64_t>(1, std::min(kBatchRows, left));
}

Status ExportWriter::CheckSortOrder(sqlite3_value** values) {
  if (!last_sort_values_.empty()) {
    for (size_t k = 0; k < sort_keys_.size(); ++k) {
      const auto [col, desc] = sort_keys_[k];
      int c = CompareValues(last_sort_values_[k], values[col]);
      if (desc) c = -c;
      if (c < 0) break;
      if (c > 0) {
        return Status::InvalidArgument("row " + std::to_string(rows_ + 1) + ", column '" +
                                       columns_[static_cast<size_t>(col)].name +
                                       "': " + DescribeValue(values[col]) +
                                       " breaks the order sorted_by declares");
      }
    }
  }
  return Status::OK();
}

Status ExportWriter::RememberSortValues(sqlite3_value** values) {
  std::vector<sqlite3_value*> copies;
  for (const auto& [col, desc] : sort_keys_) {
    sqlite3_value* v = sqlite3_value_dup(values[col]);
    if (!v) {
      for (sqlite3_value* c : copies) sqlite3_value_free(c);
      return Status::OutOfMemory("out of memory");
    }
    copies.push_back(v);
  }
  for (sqlite3_value* v : last_sort_values_) sqlite3_value_free(v);
  last_sort_values_ = std::move(copies);
  return Status::OK();
}

Status ExportWriter::AppendRow(sqlite3_value** values) {
  if (failed_ || finished_) return Status::InvalidArgument("the Parquet writer is closed");
  if (!sort_keys_.empty()) PQ_RETURN_IF_ERROR(CheckSortOrder(values));
  const size_t n = columns_.size();
  if (!types_known_) {
    for (size_t i = 0; i < n; ++i) {
      sqlite3_value* v = sqlite3_value_dup(values[i]);
      if (!v) {
        for (size_t k = 0; k < i; ++k) {
          sqlite3_value_free(pending_.back());
          pending_.pop_back();
        }
        return Status::OutOfMemory("out of memory");
      }
      pending_.push_back(v);
      const int t = sqlite3_value_type(v);
      pending_bytes_ +=
          sizeof(sqlite3_value*) +
          (t == SQLITE_TEXT || t == SQLITE_BLOB ? static_cast<size_t>(sqlite3_value_bytes(v)) : 0);
    }
    if (!sort_keys_.empty()) {
      Status remembered = RememberSortValues(values);
      if (!remembered.ok()) {
        for (size_t k = 0; k < n; ++k) {
          sqlite3_value* v = pending_.back();
          const int t = sqlite3_value_type(v);
          pending_bytes_ -=
              sizeof(sqlite3_value*) +
              (t == SQLITE_TEXT || t == SQLITE_BLOB ? static_cast<size_t>(sqlite3_value_bytes(v)) : 0);
          sqlite3_value_free(v);
          pending_.pop_back();
        }
        return remembered;
      }
    }
    ++rows_;
    if (rows_ - written_rows_ >= BatchLimit() || pending_bytes_ >= kBatchBytes) return Flush();
    return Status::OK();
  }
  for (size_t i = 0; i < n; ++i) {
    if (builders_[i].TryAppend(values[i])) continue;
    Status s = builders_[i].Append(values[i]);
    if (!s.ok()) {
      for (size_t k = 0; k < i; ++k) builders_[k].Truncate(builders_[k].rows() - 1);
      return Status::InvalidArgument("row " + std::to_string(rows_ + 1) + ", column '" +
                                     columns_[i].name + "': " + s.message());
    }
  }
  // Only a row that was taken sets the order the next rows are checked against.
  if (!sort_keys_.empty()) {
    Status remembered = RememberSortValues(values);
    if (!remembered.ok()) {
      for (ColumnBuilder& b : builders_) b.Truncate(b.rows() - 1);
      return remembered;
    }
  }
  ++rows_;
  if (rows_ - written_rows_ >= BatchLimit()) return Flush();
  size_t bytes = 0;
  for (const ColumnBuilder& b : builders_) bytes += b.bytes();
  if (bytes >= kBatchBytes) return Flush();
  return Status::OK();
}

Status ExportWriter::TruncateRows(int64_t rows) {
  if (rows >= rows_) return Status::OK();
  if (rows < written_rows_) {
    return Status::InvalidArgument("cannot take back rows already written to the Parquet file");
  }
  const int64_t keep = rows - written_rows_;
  if (!types_known_) {
    const size_t keep_values = static_cast<size_t>(keep) * columns_.size();
    for (size_t i = keep_values; i < pending_.size(); ++i) sqlite3_value_free(pending_[i]);
    pending_.resize(keep_values);
    pending_bytes_ = 0;
    for (sqlite3_value* v : pending_) {
      const int t = sqlite3_value_type(v);
      pending_bytes_ +=
          sizeof(sqlite3_value*) +
          (t == SQLITE_TEXT || t == SQLITE_BLOB ? static_cast<size_t>(sqlite3_value_bytes(v)) : 0);
    }
  } else {
    for (ColumnBuilder& b : builders_) b.Truncate(keep);
  }
  rows_ = rows;
  // The last row's sort key is gone; the next row is checked against nothing.
  for (sqlite3_value* v : last_sort_values_) sqlite3_value_free(v);
  last_sort_values_.clear();
  return Status::OK();
}

Status ExportWriter::DecideInferredTypes() {
  const size_t n = columns_.size();
  const size_t pending_rows = n == 0 ? 0 : pending_.size() / n;
  for (size_t c = 0; c < n; ++c) {
    if (columns_[c].type.kind != ColumnKind::kInfer) continue;
    unsigned classes = 0;
    for (size_t r = 0; r < pending_rows; ++r) {
      const int t = sqlite3_value_type(pending_[r * n + c]);
      if (t == SQLITE_NULL) continue;
      const unsigned before = classes;
      classes |= 1u << t;
      if (!InferColumnType(classes).ok()) {
        // Name the first row whose value does not mix with those above it.
        return Status::InvalidArgument(
            "row " + std::to_string(written_rows_ + static_cast<int64_t>(r) + 1) + ", column '" +
            columns_[c].name + "': " + DescribeValue(pending_[r * n + c]) +
            " after values of another kind in a column without a declared type (" +
            (before == (1u << SQLITE_TEXT)   ? "TEXT"
             : before == (1u << SQLITE_BLOB) ? "BLOB"
                                             : "numbers") +
            "); CAST it or declare the column's type with schema=");
      }
    }
    PQ_ASSIGN_OR_RETURN(columns_[c].type, InferColumnType(classes));
  }
  for (const ExportColumn& c : columns_) builders_.emplace_back(c.type);
  types_known_ = true;
  // Convert the rows kept so far.
  for (size_t r = 0; r < pending_rows; ++r) {
    for (size_t c = 0; c < n; ++c) {
      Status s = builders_[c].Append(pending_[r * n + c]);
      if (!s.ok()) {
        return Status::InvalidArgument("row " +
                                       std::to_string(written_rows_ + static_cast<int64_t>(r) + 1) +
                                       ", column '" + columns_[c].name + "': " + s.message());
      }
    }
  }
  for (sqlite3_value* v : pending_) sqlite3_value_free(v);
  pending_.clear();
  pending_bytes_ = 0;
  return Status::OK();
}

Status ExportWriter::OpenFile() {
  std::vector<SchemaElement> schema;
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<int32_t>(columns_.size());
  schema.push_back(root);
  for (const ExportColumn& c : columns_) {
    const size_t at = schema.size();
    AppendSchemaElements(c.name, c.type, &schema);
    schema[at].field_id = c.field_id;
  }
  if (remote::IsRemoteLocation(target_)) {
    if (!remote_) remote_ = std::make_shared<remote::RemoteAccess>(nullptr, std::vector<remote::Setting>());
    PQ_ASSIGN_OR_RETURN(std::unique_ptr<remote::S3OutputFile> object, remote_->CreateOutput(target_));
    object_ = std::move(object);
  } else {
    temp_path_ = TemporaryPathBeside(target_);
  }
  Result<std::unique_ptr<FileWriter>> file =
      object_ ? FileWriter::Open(
                    target_, [this]() -> Result<std::unique_ptr<OutputFile>> { return S3OutputFileAdapter(object_); },
                    std::move(schema), options_)
              : FileWriter::Open(temp_path_, std::move(schema), options_);
  if (!file.ok()) {
    if (file.status().code() == StatusCode::kIOError) {
      return Status::IOError("cannot write '" + target_ + "': " + file.status().message());
    }
    return file.status();
  }
  file_ = std::move(file).value();
  key_material_ = file_->external_key_material();
  return Status::OK();
}

Status ExportWriter::WriteKeyMaterial() {
  if (object_) {
    return Status::InvalidArgument("cannot write '" + target_ +
                                   "': external key material (key_material=external) is written beside a "
                                   "local file only; use key_material=internal for s3:// targets");
  }
  const std::string target = crypto::KeyMaterialPathFor(target_);
  key_material_temp_ = TemporaryPathBeside(target);
  Result<std::unique_ptr<OutputFile>> out = OutputFile::Create(key_material_temp_);
  if (!out.ok()) {
    key_material_temp_.clear();
    return Status::IOError("cannot write '" + target + "': " + out.status().message());
  }
  Status s = (*out)->Append(AsBytes(key_material_));
  if (s.ok()) s = (*out)->Close();  // fsyncs
  if (!s.ok()) {
    (*out)->Remove();
    key_material_temp_.clear();
    return s;
  }
  return Status::OK();
}

Status ExportWriter::WriteColumn(ColumnBuilder* builder, size_t column) {
  Status s = builder->WriteTo(file_.get(), first_leaf_[column]);
  if (!s.ok()) return s.WithContext("column '" + columns_[column].name + "'");
  return Status::OK();
}

Status ExportWriter::WriteBatch(std::vector<ColumnBuilder>* builders, bool end_row_group,
                                Pipeline* pipeline) {
  if (pipeline != nullptr && pipeline->has_pool()) {
    // The column writers exist before the columns go to several threads.
    PQ_RETURN_IF_ERROR(file_->StartRowGroup());
    PQ_RETURN_IF_ERROR(pipeline->WriteColumns(builders));
  } else {
    for (size_t i = 0; i < builders->size(); ++i) {
      PQ_RETURN_IF_ERROR(WriteColumn(&(*builders)[i], i));
    }
  }
  return end_row_group ? file_->EndRowGroup() : Status::OK();
}

Status ExportWriter::Flush() {
  if (!types_known_) {
    Status s = DecideInferredTypes();
    if (!s.ok()) return Fail(s);
  }
  if (!file_) {
    Status s = OpenFile();
    if (!s.ok()) return Fail(s);
    if (threads_ > 1) pipeline_ = std::make_unique<Pipeline>(this, threads_);
  }
  const int64_t batch = rows_ - written_rows_;
  if (batch == 0) return Status::OK();
  if (!points_.empty()) {
    Status s = MarkTakeBackBoundaries();
    if (!s.ok()) return Fail(s);
  }
  // The row group ends by the rows and bytes the builders hold: known here, before encoding, so
  // that the batches are the same whether they are encoded here or on the pipeline.
  size_t bytes = 0;
  for (const ColumnBuilder& b : builders_) bytes += b.bytes();
  row_group_rows_ += batch;
  row_group_bytes_ += bytes;
  const bool end_row_group =
      row_group_rows_ >= options_.row_group_rows ||
      row_group_bytes_ >= static_cast<size_t>(std::max<int64_t>(options_.row_group_bytes, 0));
  if (end_row_group) {
    row_group_rows_ = 0;
    row_group_bytes_ = 0;
  }
  Status s;
  if (pipeline_) {
    std::vector<ColumnBuilder> next = pipeline_->TakeSpare();
    if (next.empty()) {
      for (const ExportColumn& c : columns_) next.emplace_back(c.type);
    }
    next.swap(builders_);
    s = pipeline_->Submit(std::move(next), end_row_group);
  } else {
    s = WriteBatch(&builders_, end_row_group, nullptr);
  }
  if (!s.ok()) return Fail(s);
  written_rows_ = rows_;
  if (end_row_group) ++row_groups_;
  if (row_groups_per_file_ > 0 && row_groups_ >= row_groups_per_file_) file_full_ = true;
  if (file_size_bytes_ > 0 && !file_full_) {
    // The file's size so far: the batch must be encoded to know it. Past the limit, the row group
    // in progress ends here and the file is full.
    if (pipeline_) {
      s = pipeline_->Drain();
      if (!s.ok()) return Fail(s);
    }
    if (file_->bytes_written() + file_->buffered_bytes() >= file_size_bytes_) {
      if (!end_row_group) {
        s = file_->EndRowGroup();
        if (!s.ok()) return Fail(s);
        row_group_rows_ = 0;
        row_group_bytes_ = 0;
        ++row_groups_;
      }
      file_full_ = true;
    }
  }
  return Status::OK();
}

Status ExportWriter::Finish() {
  if (failed_ || finished_) return Status::InvalidArgument("the Parquet writer is closed");
  PQ_RETURN_IF_ERROR(Flush());
  if (pipeline_) {
    Status drained = pipeline_->Drain();
    pipeline_.reset();
    if (!drained.ok()) return Fail(drained);
  }
  Status s = file_->Close();
  if (s.ok()) {
    metadata_ = file_->metadata();
    file_bytes_ = file_->bytes_written();
  }
  file_.reset();
  if (!s.ok()) return Fail(s);  // Close removed the file
  finished_ = true;
  if (!key_material_.empty()) {
    s = WriteKeyMaterial();
    if (!s.ok()) return Fail(s);  // removes the finished file too
  }
  return Status::OK();
}

Status ExportWriter::Publish() {
  if (!finished_ || published_) return Status::InvalidArgument("the Parquet file is not finished");
  if (object_) {
    Status s = object_->Commit();
    if (!s.ok()) {
      Abort();
      return s;
    }
    published_ = true;
    return Status::OK();
  }
  // With external key material, the material file goes into place first, and back out (the one it
  // replaced restored) when the Parquet file cannot follow: both appear, or neither.
  const std::string material = key_material_temp_.empty() ? "" : crypto::KeyMaterialPathFor(target_);
  std::string backup;
  if (!material.empty()) {
    backup = TemporaryPathBeside(material);
    if (::link(material.c_str(), backup.c_str()) != 0) backup.clear();  // none to keep (or no links)
    if (::rename(key_material_temp_.c_str(), material.c_str()) != 0) {
      const int e = errno;
      if (!backup.empty()) (void)::unlink(backup.c_str());
      Abort();
      return Status::IOError("cannot rename the key material to '" + material +
                             "': " + std::strerror(e));
    }
    key_material_temp_.clear();
  }
  if (::rename(temp_path_.c_str(), target_.c_str()) != 0) {
    const int e = errno;
    if (!material.empty()) {
      if (backup.empty()) {
        (void)::unlink(material.c_str());
      } else {
        (void)::rename(backup.c_str(), material.c_str());
      }
    }
    Abort();
    return Status::IOError("cannot rename the finished file to '" + target_ +
                           "': " + std::strerror(e));
  }
  if (!backup.empty()) (void)::unlink(backup.c_str());
  published_ = true;
  SyncFolder(FolderOf(target_));
  return Status::OK();
}

}  // namespace pq::ext
