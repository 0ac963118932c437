// The `parquet` virtual table: query Parquet files with SQL.
//
//   .load ./build/parquet
//   CREATE VIRTUAL TABLE temp.t USING parquet('data/trips.parquet', decimal=text);
//   SELECT vendor, count(*) FROM t WHERE fare > 10 GROUP BY vendor;
//   SELECT parquet_scan_stats('t');   -- what pruning did in that scan (scan_stats.h)
//
// SOURCE is a path, a glob (`*`, `?`, `[...]`, and `**` for any number of folder levels) or several
// of those separated by commas (dataset.h). By default every file must have the same top-level
// fields; with union_by_name=1 the columns are the union of the files' fields, matched by name.
// Columns: one per top-level field, named as in the file and declared with a type whose affinity
// matches the values (ValueOptions), then with hive_partitioning=1 one per `key=value` folder of
// the files' paths (partition columns), then the hidden columns `filename` and `file_row_number`.
// The rowid is the row's position in the whole dataset.
//
// Options (module arguments after SOURCE, each key=value; unknown or repeated keys are errors):
//   binary_as_string=0|1     unannotated BYTE_ARRAY as TEXT instead of BLOB
//   decimal=real|text        DECIMAL as REAL (default) or exact TEXT
//   timestamp=text|integer   TIMESTAMP/INT96 as ISO text (default) or the stored integer
//   verify_checksums=0|1     check page CRC-32s when present (default 1)
//   max_memory=MIB           what the table's scans may hold at once in column chunk bytes and
//                            decompressed pages (default 4096); more is an error, not an allocation
//   footer_key=KEY, column_keys='col:KEY,...', aad_prefix=TEXT
//                            keys of encrypted files (encryption_options.h); keys registered with
//                            parquet_add_key(id, key) are found by the key ids the files name
//   union_by_name=0|1        columns matched by name across files (default 0)
//   hive_partitioning=0|1    columns from `key=value` folders (default 0)
//   sort_memory=MIB          ORDER BY / GROUP BY on one column done here when the rows are estimated
//                            to take at most this (default 256; 0: always by SQLite); see Ordering
//   threads=N                1: everything on the calling thread. N > 1: N-1 worker threads of
//                            the table check, decrypt and decompress each column's next page while
//                            the current one is decoded (page_reader.h, "Reading ahead"); they
//                            start with the first scan that reads ahead. Default: 2 on a machine
//                            of 2 or more hardware threads, else 1 (DefaultScanThreads)
//   page_cache=MIB           decompressed pages kept for lookups that land on them again, such as a
//                            join probing the table once per outer row (page_cache.h; default 32, at
//                            most a quarter of max_memory, which they count against; 0: none)
//
// Footers are read once, when the table is created. Each scan (xFilter) first compares every file's
// size, modification time and inode with the file on disk; a file that changed is opened again and
// used when its columns still fit the table, and is an error naming it otherwise. A scan keeps the
// set of files it started with (DatasetSnapshot), so a reload never changes a scan in progress.
//
// Pushdown (README, "Pushdown"). xBestIndex takes the WHERE terms the engine
// can use and xFilter turns them into a pq::Predicate, row positions and a LIMIT/OFFSET:
//   - terms on a top-level, non-nested column (=, <, <=, >, >=, !=, IS, IS NOT, IS NULL,
//     IS NOT NULL, IN, and LIKE/GLOB with a literal prefix on a TEXT column) prune files, row
//     groups and pages (format/predicate/scan_plan.h) and filter rows in the engine. SQLite checks
//     them again (omit=0), so the engine may keep rows that fail, never drop rows that pass. Only
//     BINARY-collated comparisons are taken: the engine compares bytes.
//   - terms on rowid and file_row_number (=, <, <=, >, >=, IS, IN) select row ranges exactly, and
//     SQLite does not check them again (omit=1).
//   - terms on `filename` (=, IS, IN, LIKE/GLOB prefix) skip whole files; SQLite checks them again.
//   - terms on partition columns (every operator above, LIKE/GLOB prefixes whatever the column's
//     type) are evaluated against each file's partition value and skip whole files before anything
//     past the footer is read; SQLite checks them again.
//   - with union_by_name, a term on a column a file does not have is evaluated against NULL (the
//     value every row of that file has there): when NULL fails it, the file is skipped. A term on a
//     column the file stores as INTEGER while the table widened it to REAL is not used in that
//     file (its values are converted to REAL on the way out; SQLite checks the term).
//   - LIMIT sizes the first batches (a hint). OFFSET is consumed (the engine skips the rows without
//     decoding them, omit=1) only when every other term is consumed exactly and nothing reorders
//     the rows; otherwise it is left to SQLite.
// Values compare as SQLite compares them with the column's affinity (predicate.h), so a query on
// this table returns what it returns on a native table holding the same values.
//
// Ordering. Rows come out in rowid order, so `ORDER BY rowid` is consumed. An ORDER BY on one
// top-level, non-nested column of the files (ASC or DESC, optionally followed by rowid ASC), which
// is also how SQLite hands over `GROUP BY col` and `DISTINCT col ORDER BY col`, is consumed by a
// sorted scan when the rows are estimated to fit sort_memory (EstimateSortBytes) and no small
// LIMIT makes SQLite's own sorter the cheaper one: xFilter runs the whole scan (every pushed-down
// term still prunes and filters) into SortedRows (sorted_scan.h), which orders the rows by the
// column as SQLite would (BINARY: the only collation SQLite offers an ORDER BY under here, since
// the columns declare none), and the cursor hands them out in that order. LIMIT and OFFSET are then
// left to SQLite. The held rows are charged to max_memory; more than twice sort_memory is an error.
#include "ext/parquet_vtab.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "ext/dataset.h"
#include "ext/encryption_options.h"
#include "ext/eponymous_vtab.h"
#include "ext/export.h"
#include "ext/options.h"
#include "ext/scan_stats.h"
#include "ext/sorted_scan.h"
#include "format/predicate/predicate.h"
#include "format/predicate/row_ranges.h"
#include "format/page/page_cache.h"
#include "format/predicate/scan_plan.h"
#include "format/reader/file_reader.h"
#include "format/reader/table_scanner.h"

namespace pq::ext {

namespace {

// The options this module accepts; the rest are refused by name.
const std::vector<std::string_view> kTableOptions = {"binary_as_string", "decimal",       "timestamp",
                                                      "verify_checksums", "union_by_name", "hive_partitioning",
                                                      // kDecryptionOptionNames (encryption_options.h)
                                                      "footer_key", "column_keys", "aad_prefix", "max_memory",
                                                      "sort_memory", "threads", "page_cache"};

constexpr int64_t kDefaultMaxMemoryMiB = 4096;
constexpr int64_t kDefaultSortMemoryMiB = 256;
constexpr int64_t kMaxThreads = 64;

// threads= when not given. One worker: reading ahead goes one page per column, and on 2 cores one
// worker took sum(value) over 10 million rows from 455 to 385 ms (bench/results). It starts only
// when a scan reads ahead, so tables used for lookups never start it.
int64_t DefaultScanThreads() { return std::thread::hardware_concurrency() >= 2 ? 2 : 1; }
constexpr int64_t kDefaultPageCacheMiB = 32;

struct TableConfig {
  ReaderOptions reader;
  ValueOptions values;
  bool union_by_name = false;
  bool hive_partitioning = false;
  // ORDER BY / GROUP BY on one column is done here (SortedRows) when the rows are estimated to take
  // at most this many bytes; 0: never, SQLite sorts.
  int64_t sort_memory = kDefaultSortMemoryMiB << 20;
};

Result<TableConfig> ParseTableOptions(const OptionList& opts,
                                      std::shared_ptr<const crypto::KeyRegistry> keys) {
  PQ_RETURN_IF_ERROR(opts.CheckKnown(kTableOptions, "parquet table"));
  TableConfig c;
  PQ_ASSIGN_OR_RETURN(c.values.binary_as_string, opts.GetBool("binary_as_string", false));
  PQ_ASSIGN_OR_RETURN(std::string dec, opts.GetChoice("decimal", "real", {"real", "text"}));
  c.values.decimal = dec == "text" ? ValueOptions::Decimal::kText : ValueOptions::Decimal::kReal;
  PQ_ASSIGN_OR_RETURN(std::string ts, opts.GetChoice("timestamp", "text", {"text", "integer"}));
  c.values.timestamp = ts == "integer" ? ValueOptions::Timestamp::kInteger : ValueOptions::Timestamp::kText;
  PQ_ASSIGN_OR_RETURN(c.reader.verify_checksums, opts.GetBool("verify_checksums", true));
  // What the table's scans may hold at once in page buffers (MemoryBudget), in MiB.
  PQ_ASSIGN_OR_RETURN(int64_t max_memory_mib, opts.GetInt("max_memory", kDefaultMaxMemoryMiB, 1, int64_t{1} << 24));
  c.reader.memory = std::make_shared<MemoryBudget>(max_memory_mib << 20);
  PQ_ASSIGN_OR_RETURN(c.union_by_name, opts.GetBool("union_by_name", false));
  PQ_ASSIGN_OR_RETURN(c.hive_partitioning, opts.GetBool("hive_partitioning", false));
  PQ_ASSIGN_OR_RETURN(int64_t sort_memory_mib, opts.GetInt("sort_memory", kDefaultSortMemoryMiB, 0, int64_t{1} << 24));
  c.sort_memory = sort_memory_mib << 20;
  PQ_ASSIGN_OR_RETURN(c.reader.decryption, DecryptionFromOptions(opts, std::move(keys)));
  // threads=N: the calling thread plus N-1 workers that decompress pages ahead of the scan.
  PQ_ASSIGN_OR_RETURN(int64_t threads, opts.GetInt("threads", DefaultScanThreads(), 1, kMaxThreads));
  if (threads > 1) c.reader.task_pool = std::make_shared<TaskPool>(static_cast<int>(threads - 1));
  // The cached pages stay charged to max_memory, so they may take at most a quarter of it.
  PQ_ASSIGN_OR_RETURN(int64_t page_cache_mib, opts.GetInt("page_cache", kDefaultPageCacheMiB, 0, int64_t{1} << 24));
  const int64_t page_cache_bytes = std::min(page_cache_mib << 20, (max_memory_mib << 20) / 4);
  if (page_cache_bytes > 0) c.reader.page_cache = std::make_shared<PageCache>(page_cache_bytes);
  return c;
}

bool FileExists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

std::string QuoteIdentifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  return out + "\"";
}

// ---------------------------------------------------------------------------------------------------
// Row positions. Terms on rowid (the position in the dataset) and file_row_number (the position in
// the file) are turned into sets of positions here, exactly as SQLite would evaluate them, so the
// scan can read just those rows and SQLite need not check them again.

// Positions as sorted, disjoint, non-adjacent half-open intervals.
class PositionSet {
 public:
  PositionSet() = default;
  // [begin, end); empty when end <= begin.
  static PositionSet Span(int64_t begin, int64_t end) {
    PositionSet s;
    if (begin < end) s.spans_.push_back({begin, end});
    return s;
  }
  // The given positions, in any order, repeats allowed.
  static PositionSet Points(std::vector<int64_t> points) {
    std::sort(points.begin(), points.end());
    PositionSet s;
    for (int64_t p : points) {
      if (!s.spans_.empty() && p <= s.spans_.back().end) {
        s.spans_.back().end = std::max(s.spans_.back().end, p + 1);
      } else {
        s.spans_.push_back({p, p + 1});
      }
    }
    return s;
  }

  PositionSet Intersect(const PositionSet& other) const {
    PositionSet s;
    size_t i = 0, j = 0;
    while (i < spans_.size() && j < other.spans_.size()) {
      const RowRange& a = spans_[i];
      const RowRange& b = other.spans_[j];
      int64_t begin = std::max(a.begin, b.begin);
      int64_t end = std::min(a.end, b.end);
      if (begin < end) s.spans_.push_back({begin, end});
      if (a.end < b.end) {
        ++i;
      } else {
        ++j;
      }
    }
    return s;
  }
  // The positions in [begin, end), shifted down by `begin`.
  PositionSet Slice(int64_t begin, int64_t end) const {
    PositionSet s;
    auto it = std::upper_bound(spans_.begin(), spans_.end(), begin,
                               [](int64_t b, const RowRange& r) { return b < r.end; });
    for (; it != spans_.end() && it->begin < end; ++it) {
      int64_t b = std::max(it->begin, begin);
      int64_t e = std::min(it->end, end);
      if (b < e) s.spans_.push_back({b - begin, e - begin});
    }
    return s;
  }
  // Without the first n positions.
  PositionSet DropFirst(int64_t n) const {
    PositionSet s;
    for (const RowRange& r : spans_) {
      int64_t len = r.end - r.begin;
      if (n >= len) {
        n -= len;
        continue;
      }
      s.spans_.push_back({r.begin + n, r.end});
      n = 0;
    }
    return s;
  }
  // Only the first n positions.
  PositionSet KeepFirst(int64_t n) const {
    PositionSet s;
    for (const RowRange& r : spans_) {
      if (n <= 0) break;
      int64_t len = std::min(r.end - r.begin, n);
      s.spans_.push_back({r.begin, r.begin + len});
      n -= len;
    }
    return s;
  }
  int64_t count() const {
    int64_t n = 0;
    for (const RowRange& r : spans_) n += r.end - r.begin;
    return n;
  }
  bool empty() const { return spans_.empty(); }
  const std::vector<RowRange>& spans() const { return spans_; }

 private:
  std::vector<RowRange> spans_;
};

// What one xFilter argument is (see the idxStr table at BestIndex).
enum class TermOp : uint8_t {
  kEq, kNe, kLt, kLe, kGt, kGe, kIs, kIsNot, kIsNull, kIsNotNull,
  kIn,                 // an IN list handle, read with sqlite3_vtab_in_first/next
  kLike, kGlob,        // the pattern
  kLimit, kOffset,     // LIMIT / OFFSET that SQLite applies; used to size batches
  kTake, kSkip,        // LIMIT / OFFSET the engine applies exactly
};

// An sqlite3_value copy, freed on scope exit.
struct ValueCopy {
  explicit ValueCopy(const sqlite3_value* v) : value(sqlite3_value_dup(v)) {
    if (value == nullptr) throw std::bad_alloc();  // Guarded() turns it into SQLITE_NOMEM
  }
  ~ValueCopy() { sqlite3_value_free(value); }
  ValueCopy(const ValueCopy&) = delete;
  ValueCopy& operator=(const ValueCopy&) = delete;
  sqlite3_value* value;
};

// The positions p in [0, end) for which `p OP literal` holds, as SQLite compares an INTEGER column
// with a value: numeric affinity is applied to the literal first ('5' and 5.0 are 5); a number that
// is not integral falls between positions; TEXT and BLOB sort after every number; NULL matches
// nothing. `op` is one of =, IS, <, <=, >, >=.
PositionSet PositionsSatisfying(TermOp op, const sqlite3_value* literal, int64_t end) {
  ValueCopy v(literal);
  auto span = [end](int64_t b, int64_t e) { return PositionSet::Span(std::max<int64_t>(b, 0), std::min(e, end)); };
  switch (sqlite3_value_numeric_type(v.value)) {
    case SQLITE_NULL:
      return {};
    case SQLITE_INTEGER: {
      // Clamping to [-1, end] keeps every comparison's outcome over [0, end) and rules out overflow.
      int64_t i = std::clamp<int64_t>(sqlite3_value_int64(v.value), -1, end);
      switch (op) {
        case TermOp::kEq:
        case TermOp::kIs: return span(i, i + 1);
        case TermOp::kLt: return span(0, i);
        case TermOp::kLe: return span(0, i + 1);
        case TermOp::kGt: return span(i + 1, end);
        default: return span(i, end);  // kGe
      }
    }
    case SQLITE_FLOAT: {
      // Same clamping; end is far below 2^53, so the bounds are exact doubles.
      double d = std::clamp(sqlite3_value_double(v.value), -2.0, static_cast<double>(end) + 2);
      auto floor = static_cast<int64_t>(std::floor(d));
      auto ceil = static_cast<int64_t>(std::ceil(d));
      switch (op) {
        case TermOp::kEq:
        case TermOp::kIs: return floor == ceil ? span(floor, floor + 1) : PositionSet();
        case TermOp::kLt: return span(0, ceil);
        case TermOp::kLe: return span(0, floor + 1);
        case TermOp::kGt: return span(floor + 1, end);
        default: return span(ceil, end);  // kGe
      }
    }
    default:  // TEXT or BLOB: greater than any number
      return op == TermOp::kLt || op == TermOp::kLe ? span(0, end) : PositionSet();
  }
}

// Calls fn(value) for each value of an IN list handle (xFilter argument of an `in` term). Returns
// false when `list` is not such a handle (SQLite chose one-at-a-time processing: it is one value).
template <typename Fn>
Result<bool> ForEachInValue(sqlite3_value* list, Fn&& fn) {
  sqlite3_value* v = nullptr;
  int rc = sqlite3_vtab_in_first(list, &v);
  if (rc != SQLITE_OK && rc != SQLITE_DONE) {
    if (rc == SQLITE_NOMEM) return Status::OutOfMemory("reading an IN list");
    return false;
  }
  for (; rc == SQLITE_OK && v != nullptr; rc = sqlite3_vtab_in_next(list, &v)) fn(v);
  if (rc != SQLITE_OK && rc != SQLITE_DONE) {
    return Status::InvalidArgument(std::string("cannot read an IN list: ") + sqlite3_errstr(rc));
  }
  return true;
}

// A literal from SQLite as an engine value, in the storage class SQLite gives.
SqlValue ToSqlValue(sqlite3_value* v) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER: return SqlValue::Integer(sqlite3_value_int64(v));
    case SQLITE_FLOAT: return SqlValue::Real(sqlite3_value_double(v));
    case SQLITE_TEXT: {
      const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      return SqlValue::Text(std::string(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v))));
    }
    case SQLITE_BLOB: {
      const auto* p = static_cast<const char*>(sqlite3_value_blob(v));
      return SqlValue::Blob(std::string(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v))));
    }
    default: return SqlValue::Null();
  }
}

// The bytes every value matching a LIKE or GLOB `pattern` starts with, when they can be compared
// byte for byte. GLOB is case-sensitive: its prefix runs to the first `*`, `?` or `[`. LIKE folds
// the case of ASCII letters (and an application may install a LIKE that folds more, such as ICU's),
// so its prefix runs to the first `%` or `_` and stops before the first letter. Both stop before
// the first non-ASCII byte: SQLite matches characters it decodes from the value, and decodes bytes
// that are not valid UTF-8 to U+FFFD (or to a code point of their own), so a non-ASCII pattern
// character may match bytes other than its own. Both functions see the pattern only up to a NUL.
// Empty when nothing is certain.
std::string PatternPrefix(TermOp op, std::string_view pattern) {
  size_t n = 0;
  for (; n < pattern.size(); ++n) {
    auto ch = static_cast<unsigned char>(pattern[n]);
    if (ch == 0 || ch >= 0x80) break;
    if (op == TermOp::kGlob) {
      if (ch == '*' || ch == '?' || ch == '[') break;
    } else if (ch == '%' || ch == '_' || std::isalpha(ch)) {
      break;
    }
  }
  return std::string(pattern.substr(0, n));
}

// ---------------------------------------------------------------------------------------------------
// The plan xBestIndex hands to xFilter through idxStr (the table at BestIndex).

struct FilterTerm {
  TermOp op = TermOp::kEq;
  int column = 0;  // -1 rowid; unused for LIMIT/OFFSET
};

struct IndexPlan {
  uint64_t col_used = ~uint64_t{0};  // sqlite3_index_info.colUsed
  int sort_column = -1;              // rows handed out ordered by this column (SortedRows); -1: scan order
  bool sort_descending = false;     // ... descending (ORDER BY col DESC)
  std::vector<FilterTerm> terms;     // one per xFilter argument, in argv order
};

struct TermCode {
  TermOp op;
  std::string_view name;
  bool has_column;
};

constexpr TermCode kTermCodes[] = {
    {TermOp::kEq, "eq", true},         {TermOp::kNe, "ne", true},
    {TermOp::kLt, "lt", true},         {TermOp::kLe, "le", true},
    {TermOp::kGt, "gt", true},         {TermOp::kGe, "ge", true},
    {TermOp::kIs, "is", true},         {TermOp::kIsNot, "isnot", true},
    {TermOp::kIsNull, "null", true},   {TermOp::kIsNotNull, "notnull", true},
    {TermOp::kIn, "in", true},         {TermOp::kLike, "like", true},
    {TermOp::kGlob, "glob", true},     {TermOp::kLimit, "limit", false},
    {TermOp::kOffset, "offset", false}, {TermOp::kTake, "take", false},
    {TermOp::kSkip, "skip", false},
};

const TermCode& CodeOf(TermOp op) {
  for (const TermCode& c : kTermCodes) {
    if (c.op == op) return c;
  }
  return kTermCodes[0];
}

std::string EncodeIndexPlan(const IndexPlan& plan) {
  char hex[24];
  std::snprintf(hex, sizeof(hex), "%llx", static_cast<unsigned long long>(plan.col_used));
  std::string out = hex;
  if (plan.sort_column >= 0) out += (plan.sort_descending ? ":d" : ":a") + std::to_string(plan.sort_column);
  for (const FilterTerm& t : plan.terms) {
    const TermCode& code = CodeOf(t.op);
    out += ',';
    out += code.name;
    if (code.has_column) out += std::to_string(t.column);
  }
  return out;
}

std::optional<IndexPlan> DecodeIndexPlan(std::string_view s) {
  IndexPlan plan;
  size_t comma = s.find(',');
  std::string_view head = s.substr(0, comma);
  const size_t colon = head.find(':');
  std::string hex(head.substr(0, colon));
  char* end = nullptr;
  plan.col_used = std::strtoull(hex.c_str(), &end, 16);
  if (hex.empty() || *end != '\0') return std::nullopt;
  if (colon != std::string_view::npos) {
    std::string_view sort = head.substr(colon + 1);
    if (sort.size() < 2 || (sort[0] != 'a' && sort[0] != 'd')) return std::nullopt;
    plan.sort_descending = sort[0] == 'd';
    std::string digits(sort.substr(1));
    plan.sort_column = static_cast<int>(std::strtol(digits.c_str(), &end, 10));
    if (*end != '\0' || plan.sort_column < 0) return std::nullopt;
  }
  while (comma != std::string_view::npos) {
    size_t start = comma + 1;
    comma = s.find(',', start);
    std::string_view item = s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    size_t letters = 0;
    while (letters < item.size() && std::islower(static_cast<unsigned char>(item[letters]))) ++letters;
    const TermCode* code = nullptr;
    for (const TermCode& c : kTermCodes) {
      if (c.name == item.substr(0, letters)) code = &c;
    }
    if (code == nullptr) return std::nullopt;
    FilterTerm term;
    term.op = code->op;
    std::string digits(item.substr(letters));
    if (code->has_column) {
      term.column = static_cast<int>(std::strtol(digits.c_str(), &end, 10));
      if (digits.empty() || *end != '\0') return std::nullopt;
    } else if (!digits.empty()) {
      return std::nullopt;
    }
    plan.terms.push_back(term);
  }
  return plan;
}

// ---------------------------------------------------------------------------------------------------
// The table and its cursor.

// What the `parquet` module keeps per connection; every table's Connect gets it as `aux`.
struct ModuleState {
  std::shared_ptr<ScanStatsRegistry> registry;  // the connection's tables, for parquet_scan_stats
  bool limit_offset_exact = false;  // LimitOffsetCanBeApplied: this SQLite offers LIMIT/OFFSET safely
  std::shared_ptr<const crypto::KeyRegistry> keys;  // parquet_add_key's registry (key_functions.h)
};

// One file of the dataset, as the table last read it.
struct DatasetFile {
  std::shared_ptr<const FileReader> reader;  // its footer; scanners share it
  FileStamp stamp;                           // what the footer was read from (change detection)
  FileColumns columns;                       // its fields as table columns
  int64_t first_row = 0;                     // dataset rowid of its first row
  int64_t rows = 0;                          // from its row groups
};

// The files as one scan sees them. A reload (RefreshFiles) makes a new snapshot; a cursor keeps the
// one its scan started with.
struct DatasetSnapshot {
  std::vector<DatasetFile> files;
  int64_t total_rows = 0;
  int64_t max_file_rows = 0;  // rows of the largest file: file_row_number is below it
};

// Sums the row counts; sets each file's first_row. Rowids are int64: counts that sum past it are an
// error naming the file where they do (each file's own row groups were summed when it was opened).
Status CountRows(DatasetSnapshot* d) {
  d->total_rows = 0;
  d->max_file_rows = 0;
  for (DatasetFile& f : d->files) {
    // Row groups are the truth: some writers leave FileMetaData.num_rows at 0.
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

struct ParquetTable {
  sqlite3_vtab base;  // must come first
  bool is_write_table = false;  // same place as in the writable table (export.h)
  std::shared_ptr<const DatasetSnapshot> data;  // the files, footers read once (again when one changes)
  std::vector<DatasetColumn> columns;  // the columns from the files' fields: SQL columns 0..num_fields-1
  int num_fields = 0;
  std::vector<PartitionColumn> partitions;  // hive partition columns: SQL columns num_fields...
  std::vector<std::vector<SqlValue>> partition_values;  // [file][partition column]
  int first_partition_column = 0;  // == num_fields
  int filename_column = 0;         // hidden `filename`
  int file_row_number_column = 0;  // hidden `file_row_number`
  TableConfig config;
  std::shared_ptr<ScanStatsRegistry> registry;  // the connection's tables, for parquet_scan_stats
  std::shared_ptr<ScanRecord> stats;            // this table's entry there
  bool limit_offset_exact = false;              // ModuleState::limit_offset_exact

  ~ParquetTable() {
    if (registry && stats) registry->Remove(stats.get());
  }
  bool IsPartitionColumn(int col) const { return col >= first_partition_column && col < filename_column; }
  const PartitionColumn& Partition(int col) const {
    return partitions[static_cast<size_t>(col - first_partition_column)];
  }
};

// Opens again every file that changed on disk since its footer was read (FileUnchanged), and makes
// the table use a new snapshot when any did. A file that cannot be read any more, or whose columns
// no longer fit the table, is an error naming it; the table keeps its old snapshot and tries again
// at the next scan.
Status RefreshFiles(ParquetTable* t) {
  std::shared_ptr<DatasetSnapshot> fresh;
  for (size_t i = 0; i < t->data->files.size(); ++i) {
    const DatasetFile& file = t->data->files[i];
    const std::string& path = file.reader->path();
    if (FileUnchanged(path, file.stamp)) continue;
    auto reader = OpenTableFile(path, t->config.reader);
    if (!reader.ok()) {
      return Status::IOError("'" + path + "' changed since the table was created and cannot be read: " +
                             reader.status().message());
    }
    auto fit = FitColumns(**reader, t->columns, t->config.values, t->config.union_by_name);
    if (!fit.ok()) {
      return Status::InvalidArgument("'" + path + "' changed since the table was created and no longer fits it: " +
                                     fit.status().message() + "; create the table again");
    }
    if (!fresh) fresh = std::make_shared<DatasetSnapshot>(*t->data);
    DatasetFile& replaced = fresh->files[i];
    replaced.stamp = StampOf(**reader);
    replaced.reader = std::move(reader).value();
    replaced.columns = std::move(fit).value();
  }
  if (fresh) {
    PQ_RETURN_IF_ERROR(CountRows(fresh.get()));
    t->data = std::move(fresh);
  }
  return Status::OK();
}

// Batches: rows decoded per column at a time. A LIMIT makes them smaller, down to kMinHintBatchRows
// (fewer values decoded for LIMIT 10; not so small that a selective filter SQLite applies after us
// costs one batch per row).
constexpr int64_t kBatchRows = 2048;
constexpr int64_t kMinHintBatchRows = 64;

// What xFilter derived from the constraints for the whole scan.
struct ScanSetup {
  bool no_rows = false;  // a term no row can satisfy, such as `x = NULL`
  Predicate predicate;   // terms on flat columns (field = table column): pruning, and the engine's filter
  std::vector<PredicateTerm> filename_terms;  // kEq/kIs/kIn/kPrefix with TEXT values, on the path
  std::vector<PredicateTerm> partition_terms;  // field = partition column index (0 = the first)
  PositionSet rowids;     // dataset rowids the rowid terms allow
  PositionSet file_rows;  // file row numbers the file_row_number terms allow
  int64_t skip = 0;       // consumed OFFSET: rows still to skip
  int64_t take = -1;      // exact LIMIT: rows still to read; -1 when unbounded
  int64_t batch_rows = kBatchRows;
};

// SortedRows holds at most this many rows (its row numbers are 32-bit).
constexpr int64_t kMaxSortedRows = UINT32_MAX;
// ParquetCursor::sorted_column for the sort key.
constexpr int kSortKey = -2;

struct ParquetCursor {
  sqlite3_vtab_cursor base;  // must come first
  ParquetTable* table = nullptr;
  std::shared_ptr<const DatasetSnapshot> data;  // the files of this scan
  std::vector<int> projected_columns;  // table columns (from fields) the statement uses
  ScanSetup setup;                     // from xFilter
  size_t file_index = 0;
  // Of the file being read:
  std::unique_ptr<TableScanner> scanner;  // null between files
  std::vector<int> slot_of_column;        // table column -> slot in scanner, -1: NULL
  const std::vector<bool>* converted = nullptr;  // FileColumns::converted: INTEGER values read as REAL
  Predicate file_predicate;               // the scan's predicate in this file's field numbers
  // The current rows: a batch the scanner decoded, or (loaded == false) a window of rows not yet
  // decoded. A file without a filter hands SQLite windows: xNext only counts rows, and the rows
  // SQLite steps over without asking for a column (an OFFSET it applies itself, count(*)) are
  // skipped by the scanner (SkipRows: by whole row groups and pages) when a column is first asked
  // for, so they are never decoded.
  int64_t row_in_batch = 0;
  int64_t batch_rows = 0;
  bool loaded = true;
  bool lazy = false;           // the current file has no filter: windows are used
  int64_t rows_left = 0;       // lazy: rows of the file's plan after the current batch or window
  int64_t deferred_skip = 0;   // lazy: rows of windows passed over, not yet skipped in the scanner
  int64_t lazy_rows = 0;       // rows stepped over in windows (counted as produced, not decoded)
  // Per scanner slot, the current batch's plain numbers (TableScanner::Numbers): xColumn hands
  // those to SQLite straight from the batch.
  std::vector<TableScanner::NumberColumn> numbers;
  // The same for byte arrays handed over as TEXT or BLOB (TableScanner::Bytes).
  std::vector<TableScanner::BytesColumn> bytes;
  // Per table column, how xColumn hands the current batch's value over without any lookup: a dense
  // array of plain numbers or of byte arrays handed over as TEXT or BLOB (no NULL in the batch, no
  // row map, no conversion), or kSlow. Valid only while fast_ready (a batch is loaded); every other
  // case takes the general path.
  enum class FastKind : uint8_t { kSlow, kInt32, kInt64, kFloat, kDouble, kText, kBlob };
  struct FastColumn {
    FastKind kind = FastKind::kSlow;
    const void* values = nullptr;
  };
  std::vector<FastColumn> fast;
  bool fast_ready = false;
  bool eof = true;
  std::string scratch;
  // A sorted scan (IndexPlan::sort_column): xFilter reads every row into `sorted` (ReadSorted),
  // then hands them out in order: batch_rows is then their count and row_in_batch the position in
  // the order. Only the slow paths (NextBatchOrWrite, ColumnGeneral, Rowid) look at this.
  bool sorting = false;        // reading rows into `sorted`: files are read eagerly (no windows)
  bool sorted_output = false;  // handing out `sorted`'s rows
  std::unique_ptr<SortedRows> sorted;
  int sort_key = -1;                // the table column ordered by
  std::vector<int> sorted_column;   // table column -> column of `sorted`, kSortKey, or -1 (not used: NULL)
  std::vector<int> sorted_sources;  // column of `sorted` -> table column
  BudgetCharge sort_charge;         // `sorted`'s bytes, charged to the table's max_memory
  uint64_t scan_id = 0;      // this cursor's scan, to publish its counters to the table's record
  ScanCounters counters;     // files done, and the planning of the current one
};

void AddScanStats(const ScanStats& s, ScanCounters* c) {
  c->row_groups_read += s.row_groups_read;
  c->pages_read += s.pages_read;
  c->pages_skipped += s.pages_skipped;
  c->pages_from_cache += s.pages_from_cache;
  c->pages_read_ahead += s.pages_read_ahead;
  c->bytes_read += s.bytes_read;
  c->values_decoded += s.values_decoded;
  c->rows_produced += s.rows_produced;
  c->rows_skipped += s.rows_skipped;
  c->rows_filtered += s.rows_filtered;
}

// Copies the cursor's counters to the table's record, unless a later scan has replaced this one.
void PublishCounters(ParquetCursor* c) {
  ScanRecord& record = *c->table->stats;
  if (record.scan_id != c->scan_id) return;
  record.counters = c->counters;
  if (c->scanner) AddScanStats(c->scanner->stats(), &record.counters);
  // Rows SQLite stepped over in windows went to it (produced), though the scanner skipped them.
  record.counters.rows_produced += c->lazy_rows;
  record.counters.rows_skipped -= c->lazy_rows;
}

bool SameNameIgnoringCase(const std::string& a, const std::string& b) { return LowerAscii(a) == LowerAscii(b); }

// Module arguments: argv[0] module, argv[1] database, argv[2] table, argv[3] SOURCE, argv[4..] options.
// `aux` is the connection's ModuleState (RegisterParquetModule).
int Connect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** err) {
  return Guarded(nullptr, [&]() -> int {
    auto fail = [err](const Status& s) {
      *err = SqliteStrdup(s.message());
      return SQLITE_ERROR;
    };
    if (argc < 4) {
      return fail(Status::InvalidArgument("parquet: a file path is required, as in "
                                          "USING parquet('file.parquet')"));
    }
    std::string source = Dequote(argv[3]);
    if (source.find('=') != std::string::npos && !FileExists(source) &&
        source.find('/') == std::string::npos && argv[3][0] != '\'' && argv[3][0] != '"') {
      return fail(Status::InvalidArgument("parquet: the first argument must be the file path"));
    }
    OptionList opts;
    for (int i = 4; i < argc; ++i) {
      Status s = opts.Add(argv[i]);
      if (!s.ok()) return fail(s);
    }
    // With schema=, the table is created for writing (ext/export.cc).
    if (IsWriteTableOptions(opts)) return ConnectWriteTable(db, source, opts, out, err);
    auto config = ParseTableOptions(opts, static_cast<const ModuleState*>(aux)->keys);
    if (!config.ok()) return fail(config.status());
    auto paths = ExpandSource(source);
    if (!paths.ok()) return fail(paths.status());

    auto table = std::make_unique<ParquetTable>();
    std::memset(&table->base, 0, sizeof(table->base));
    table->config = *config;
    if (table->config.hive_partitioning) {
      auto hive = InferHivePartitions(*paths);
      if (!hive.ok()) return fail(hive.status());
      table->partitions = std::move(hive->columns);
      table->partition_values = std::move(hive->values);
    } else {
      table->partition_values.resize(paths->size());
    }
    std::vector<std::shared_ptr<const FileReader>> readers;
    for (const std::string& path : *paths) {
      auto reader = OpenTableFile(path, table->config.reader);
      if (!reader.ok()) return fail(reader.status());
      readers.push_back(std::move(reader).value());
    }
    auto schema = UnifyColumns(readers, table->config.values, table->config.union_by_name);
    if (!schema.ok()) return fail(schema.status());
    auto data = std::make_shared<DatasetSnapshot>();
    for (size_t i = 0; i < readers.size(); ++i) {
      DatasetFile file;
      file.stamp = StampOf(*readers[i]);
      file.reader = std::move(readers[i]);
      file.columns = std::move(schema->files[i]);
      data->files.push_back(std::move(file));
    }
    Status counted = CountRows(data.get());
    if (!counted.ok()) return fail(counted);
    table->data = std::move(data);
    table->columns = std::move(schema->columns);

    // Partition keys name columns of their own.
    for (const PartitionColumn& p : table->partitions) {
      for (const DatasetColumn& c : table->columns) {
        if (SameNameIgnoringCase(p.name, c.name) || SameNameIgnoringCase(p.name, c.field_name)) {
          return fail(Status::InvalidArgument("hive_partitioning: the partition key '" + p.name +
                                              "' is also a column in the files ('" + c.field_name + "')"));
        }
      }
      if (SameNameIgnoringCase(p.name, "filename") || SameNameIgnoringCase(p.name, "file_row_number")) {
        return fail(Status::InvalidArgument("hive_partitioning: the partition key '" + p.name +
                                            "' is the name of a hidden column"));
      }
    }
    std::string sql = "CREATE TABLE x(";
    for (const DatasetColumn& c : table->columns) {
      sql += QuoteIdentifier(c.name) + (c.declared_type.empty() ? "" : " " + c.declared_type) + ", ";
    }
    for (const PartitionColumn& p : table->partitions) sql += QuoteIdentifier(p.name) + " " + p.declared_type + ", ";
    table->num_fields = static_cast<int>(table->columns.size());
    table->first_partition_column = table->num_fields;
    table->filename_column = table->num_fields + static_cast<int>(table->partitions.size());
    table->file_row_number_column = table->filename_column + 1;
    sql += "filename TEXT HIDDEN, file_row_number INTEGER HIDDEN)";
    int rc = sqlite3_declare_vtab(db, sql.c_str());
    if (rc != SQLITE_OK) {
      return fail(Status::InvalidArgument(std::string("cannot declare the table: ") + sqlite3_errmsg(db)));
    }
    // The table reads files named in its arguments: a schema someone else wrote (a trigger or view in
    // an untrusted database) must not be able to make this connection read files.
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    const auto* state = static_cast<const ModuleState*>(aux);
    table->registry = state->registry;
    table->stats = table->registry->Add(argv[1], argv[2]);
    table->limit_offset_exact = state->limit_offset_exact;
    *out = &table.release()->base;
    return SQLITE_OK;
  });
}

// True for a table created for writing; its callbacks live in WriteTableModule().
bool IsWriteTable(sqlite3_vtab* vtab) { return reinterpret_cast<ParquetTable*>(vtab)->is_write_table; }
const sqlite3_module& W() { return WriteTableModule(); }

int Disconnect(sqlite3_vtab* vtab) {
  if (IsWriteTable(vtab)) return W().xDisconnect(vtab);
  delete reinterpret_cast<ParquetTable*>(vtab);
  return SQLITE_OK;
}

int Destroy(sqlite3_vtab* vtab) {
  if (IsWriteTable(vtab)) return W().xDestroy(vtab);
  return Disconnect(vtab);  // DROP TABLE forgets the table; it never deletes data files
}

// How xBestIndex uses one usable constraint: its idxStr term, whether the engine applies it exactly
// (so SQLite may omit its own check), and what it is expected to leave.
struct PushedTerm {
  FilterTerm term;
  bool exact = false;
  bool unique = false;  // at most one row passes (rowid = value)
  bool constant = false;  // the right operand is a constant of the statement (known when planning)
  double selectivity = 1;  // fraction of rows that pass
  // Fraction of rows still decoded: rowid, file_row_number and filename terms select exactly what
  // passes; a value term prunes (statistics, dictionary, Bloom filter, page index) only as far as
  // the data is clustered, so less than it selects.
  double scanned = 1;
  bool on_value = false;  // a term on a field (not rowid, file_row_number or filename)
};

bool IsBinaryCollation(sqlite3_index_info* info, int i) {
  const char* coll = sqlite3_vtab_collation(info, i);
  return coll == nullptr || sqlite3_stricmp(coll, "BINARY") == 0;
}

PredicateOp ToPredicateOp(TermOp op);

// The fraction of the rows in files whose partition value may satisfy `col OP rhs` (rhs is ignored
// for IS NULL / IS NOT NULL), for the planner.
double PartitionSelectivity(const ParquetTable& t, int col, TermOp op, sqlite3_value* rhs) {
  PredicateTerm term;
  term.op = ToPredicateOp(op);
  if (op == TermOp::kLike || op == TermOp::kGlob) {
    if (sqlite3_value_type(rhs) != SQLITE_TEXT) return 0.5;
    std::string prefix = PatternPrefix(op, ToSqlValue(rhs).bytes);
    if (prefix.empty()) return 0.5;
    term.values.push_back(SqlValue::Text(std::move(prefix)));
  } else if (op != TermOp::kIsNull && op != TermOp::kIsNotNull) {
    term.values.push_back(ToSqlValue(rhs));
  }
  const size_t k = static_cast<size_t>(col - t.first_partition_column);
  const Affinity affinity = t.partitions[k].affinity;
  const DatasetSnapshot& d = *t.data;
  int64_t rows = 0;
  for (size_t i = 0; i < d.files.size(); ++i) {
    if (EvaluateTerm(t.partition_values[i][k].AsCell(), term, affinity) != Match::kNo) rows += d.files[i].rows;
  }
  return std::max<double>(1, static_cast<double>(rows)) / std::max<double>(1, static_cast<double>(d.total_rows));
}

std::optional<PushedTerm> PushConstraint(const ParquetTable& t, sqlite3_index_info* info, int i) {
  const auto& con = info->aConstraint[i];
  const int col = con.iColumn;
  const bool position = col == -1 || col == t.file_row_number_column;
  const bool filename = col == t.filename_column;
  const bool partition = t.IsPartitionColumn(col);
  const bool field = col >= 0 && col < t.num_fields && t.columns[static_cast<size_t>(col)].flat;
  // Nested (JSON) columns stay with SQLite.
  if (!position && !filename && !partition && !field) return std::nullopt;

  PushedTerm p;
  p.term.column = col;
  bool in_list = false;
  switch (con.op) {
    case SQLITE_INDEX_CONSTRAINT_EQ:
      in_list = sqlite3_vtab_in(info, i, -1) != 0;
      p.term.op = in_list ? TermOp::kIn : TermOp::kEq;
      break;
    case SQLITE_INDEX_CONSTRAINT_LT: p.term.op = TermOp::kLt; break;
    case SQLITE_INDEX_CONSTRAINT_LE: p.term.op = TermOp::kLe; break;
    case SQLITE_INDEX_CONSTRAINT_GT: p.term.op = TermOp::kGt; break;
    case SQLITE_INDEX_CONSTRAINT_GE: p.term.op = TermOp::kGe; break;
    case SQLITE_INDEX_CONSTRAINT_NE: p.term.op = TermOp::kNe; break;
    case SQLITE_INDEX_CONSTRAINT_IS: p.term.op = TermOp::kIs; break;
    case SQLITE_INDEX_CONSTRAINT_ISNOT: p.term.op = TermOp::kIsNot; break;
    case SQLITE_INDEX_CONSTRAINT_ISNULL: p.term.op = TermOp::kIsNull; break;
    case SQLITE_INDEX_CONSTRAINT_ISNOTNULL: p.term.op = TermOp::kIsNotNull; break;
    case SQLITE_INDEX_CONSTRAINT_LIKE: p.term.op = TermOp::kLike; break;
    case SQLITE_INDEX_CONSTRAINT_GLOB: p.term.op = TermOp::kGlob; break;
    default: return std::nullopt;
  }
  const TermOp op = p.term.op;
  const bool pattern = op == TermOp::kLike || op == TermOp::kGlob;
  const DatasetSnapshot& d = *t.data;
  const double n = std::max<double>(1, static_cast<double>(d.total_rows));
  const double files = static_cast<double>(d.files.size());

  if (position) {
    // Integers compare the same under every collation; numbers sort before any TEXT literal.
    if (op != TermOp::kEq && op != TermOp::kIs && op != TermOp::kIn && op != TermOp::kLt &&
        op != TermOp::kLe && op != TermOp::kGt && op != TermOp::kGe) {
      return std::nullopt;
    }
    p.exact = true;
    const bool rowid = col == -1;
    const double per_value = rowid ? 1 : files;  // a file_row_number exists once per file
    sqlite3_value* rhs = nullptr;
    if (op == TermOp::kIn) {
      p.selectivity = std::min(1.0, 10 * per_value / n);
    } else if (sqlite3_vtab_rhs_value(info, i, &rhs) == SQLITE_OK && rhs != nullptr) {
      int64_t domain = rowid ? d.total_rows : d.max_file_rows;
      double rows = static_cast<double>(PositionsSatisfying(op, rhs, domain).count()) * per_value;
      p.selectivity = std::min(1.0, std::max(rows, 1.0) / n);
    } else {
      p.selectivity = op == TermOp::kEq || op == TermOp::kIs ? std::min(1.0, per_value / n) : 0.05;
    }
    p.unique = rowid && (op == TermOp::kEq || op == TermOp::kIs);
  } else if (filename) {
    if (op == TermOp::kEq || op == TermOp::kIs || op == TermOp::kIn) {
      if (!IsBinaryCollation(info, i)) return std::nullopt;
      p.selectivity = std::min(1.0, (op == TermOp::kIn ? 3 : 1) / std::max(files, 1.0));
    } else if (pattern) {
      p.selectivity = 0.5;
    } else {
      return std::nullopt;
    }
  } else if (partition) {
    // Each file's one value is tested exactly as SQLite would (LIKE/GLOB prefixes included, which
    // read numbers as their text), so any affinity will do; comparisons only under BINARY.
    if (!pattern && op != TermOp::kIsNull && op != TermOp::kIsNotNull && !IsBinaryCollation(info, i)) {
      return std::nullopt;
    }
    sqlite3_value* rhs = nullptr;
    const bool known = op == TermOp::kIsNull || op == TermOp::kIsNotNull ||
                       (op != TermOp::kIn && sqlite3_vtab_rhs_value(info, i, &rhs) == SQLITE_OK && rhs != nullptr);
    if (known) {
      p.selectivity = PartitionSelectivity(t, col, op, rhs);
    } else {
      p.selectivity = op == TermOp::kEq || op == TermOp::kIs ? 0.1 : op == TermOp::kIn ? 0.2 : 0.5;
    }
  } else {
    if (pattern) {
      // LIKE and GLOB read any value as text (123 LIKE '12%'): a prefix test is right only when
      // every value of the column is TEXT.
      if (t.columns[static_cast<size_t>(col)].affinity != Affinity::kText) return std::nullopt;
    } else if (op != TermOp::kIsNull && op != TermOp::kIsNotNull && !IsBinaryCollation(info, i)) {
      return std::nullopt;  // the engine compares bytes: `x = 'a' COLLATE NOCASE` stays with SQLite
    }
    switch (op) {
      case TermOp::kEq:
      case TermOp::kIs: p.selectivity = 0.1, p.scanned = 0.25; break;
      case TermOp::kIn: p.selectivity = 0.2, p.scanned = 0.25; break;
      case TermOp::kIsNull: p.selectivity = 0.1, p.scanned = 0.5; break;
      case TermOp::kNe:
      case TermOp::kIsNot:
      case TermOp::kIsNotNull: p.selectivity = 0.9; break;
      case TermOp::kLike:
      case TermOp::kGlob: p.selectivity = 0.25, p.scanned = 0.5; break;
      default: p.selectivity = 0.5, p.scanned = 0.5; break;  // a range bound
    }
  }
  p.on_value = field;
  if (!p.on_value) p.scanned = p.selectivity;
  if (in_list) sqlite3_vtab_in(info, i, 1);  // the whole list in one xFilter call
  sqlite3_value* rhs = nullptr;
  p.constant = !in_list && sqlite3_vtab_rhs_value(info, i, &rhs) == SQLITE_OK && rhs != nullptr;
  return p;
}

// Whether table column `col` is used: bit 63 of colUsed stands for every column from 63 on.
bool ColumnUsed(uint64_t col_used, int col) { return ((col_used >> std::min(col, 63)) & 1) != 0; }

// What SortedRows is expected to hold for a sorted scan by `key` decoding the used columns of
// every row (the filters are not counted: an upper bound of sorts), from the files' metadata. Per
// row: its place in the order and the key's id; per used column but the key, an 8-byte word and a
// tag byte; for TEXT and BLOB columns their bytes: the column chunks' unencoded byte array size,
// or their uncompressed size, or a guess from the statistics' bounds, whichever is largest (a
// dictionary-encoded chunk is much smaller than its values). The key's distinct values are held
// once: in a dictionary-encoded chunk no more than its size; in another one they may be as many
// as its rows, each with a hash slot and an entry besides its bytes.
double EstimateSortBytes(const ParquetTable& t, uint64_t col_used, int key) {
  const DatasetSnapshot& d = *t.data;
  double bytes = static_cast<double>(d.total_rows) * 8;
  for (int col = 0; col < t.num_fields; ++col) {
    if (!ColumnUsed(col_used, col) && col != key) continue;
    const DatasetColumn& column = t.columns[static_cast<size_t>(col)];
    const bool text = column.affinity == Affinity::kText || column.affinity == Affinity::kBlob;
    for (const DatasetFile& file : d.files) {
      const auto rows = static_cast<double>(file.rows);
      if (col != key) bytes += rows * 9;
      const int field = file.columns.field_of_column[static_cast<size_t>(col)];
      if (field < 0 || !text) continue;
      const Schema& schema = file.reader->schema();
      const auto [first_leaf, leaves] = schema.LeafRange(*schema.fields()[static_cast<size_t>(field)]);
      double payload = 0;
      for (const RowGroup& rg : file.reader->metadata().row_groups) {
        for (int leaf = first_leaf; leaf < first_leaf + leaves && static_cast<size_t>(leaf) < rg.columns.size(); ++leaf) {
          const std::optional<ColumnMetaData>& meta = rg.columns[static_cast<size_t>(leaf)].meta_data;
          if (!meta) continue;
          const bool dictionary = std::any_of(meta->encodings.begin(), meta->encodings.end(), [](Encoding e) {
            return e == Encoding::kRleDictionary || e == Encoding::kPlainDictionary;
          });
          double chunk = static_cast<double>(meta->total_uncompressed_size);
          if (col == key && dictionary && column.flat) {
            payload += chunk;  // the key's distinct values: no more than the dictionary holds
            continue;
          }
          if (meta->size_statistics && meta->size_statistics->unencoded_byte_array_data_bytes) {
            chunk = std::max(chunk, static_cast<double>(*meta->size_statistics->unencoded_byte_array_data_bytes));
          }
          if (meta->statistics && meta->statistics->min_value && meta->statistics->max_value) {
            const double mean = static_cast<double>(meta->statistics->min_value->size() +
                                                    meta->statistics->max_value->size()) / 2;
            chunk = std::max(chunk, mean * static_cast<double>(rg.num_rows));
          }
          // Numbers shown as TEXT (dates, timestamps, decimals): a few dozen bytes each; nested
          // values as JSON: about twice their stored size.
          if (meta->type != PhysicalType::kByteArray && meta->type != PhysicalType::kFixedLenByteArray) {
            chunk = std::max(chunk, 32.0 * static_cast<double>(rg.num_rows));
          }
          if (!column.flat) chunk *= 2;
          payload += chunk;
          if (col == key) bytes += static_cast<double>(rg.num_rows) * 24;  // maybe as many keys as rows
        }
      }
      bytes += payload;
    }
  }
  return bytes;
}

// The column whose order a sorted scan (SortedRows) gives the query: the ORDER BY (GROUP BY and
// DISTINCT show up here as an ORDER BY too) is one top-level column of the files' fields, not
// nested, optionally followed by rowid ascending (the sort keeps scan order, which is rowid order,
// among equal keys). SQLite offers an ORDER BY only when its collation is the column's, and the
// table declares no collation: BINARY, which SortedRows compares by. -1 when the ORDER BY is not
// such a column, the estimated memory passes the table's sort_memory, or a LIMIT makes SQLite's
// own sorter cheaper (it keeps only LIMIT + OFFSET rows; the sort here holds all of them), or the
// order would not be used (DISTINCT alone).
int SortColumnFor(const ParquetTable& t, sqlite3_index_info* info, int limit, int offset) {
  if (t.config.sort_memory <= 0 || info->nOrderBy < 1 || info->nOrderBy > 2) return -1;
  // A DISTINCT without ORDER BY: SQLite keeps its own b-tree for it whatever the order.
  if (sqlite3_vtab_distinct(info) == 2) return -1;
  const int col = info->aOrderBy[0].iColumn;
  if (col < 0 || col >= t.num_fields || !t.columns[static_cast<size_t>(col)].flat) return -1;
  if (info->nOrderBy == 2 && (info->aOrderBy[1].iColumn != -1 || info->aOrderBy[1].desc)) return -1;
  const double total = static_cast<double>(t.data->total_rows);
  if (limit >= 0) {
    sqlite3_value* v = nullptr;
    double wanted = total;  // a LIMIT known only when the statement runs: any size
    if (sqlite3_vtab_rhs_value(info, limit, &v) == SQLITE_OK && v != nullptr) {
      const sqlite3_int64 n = sqlite3_value_int64(v);
      wanted = n < 0 ? total : static_cast<double>(n);  // a negative LIMIT is none
      v = nullptr;
      if (offset >= 0 && sqlite3_vtab_rhs_value(info, offset, &v) == SQLITE_OK && v != nullptr) {
        wanted += static_cast<double>(std::max<sqlite3_int64>(0, sqlite3_value_int64(v)));
      }
    }
    if (wanted * 16 < total) return -1;
  }
  if (EstimateSortBytes(t, info->colUsed, col) > static_cast<double>(t.config.sort_memory)) return -1;
  return col;
}

// xBestIndex. Bit k of idxNum (k < 31) is set when argv[k] is a constant of the statement (a literal:
// sqlite3_vtab_rhs_value knew it when planning; see TextTermFor). idxStr tells xFilter what to decode
// and what each argv[k] is:
//
//   idxStr = COLUSED [ ":" ("a" | "d") K ] { "," OP [C] }
//
// COLUSED is sqlite3_index_info.colUsed in hexadecimal: the columns to decode (bit 63 stands for
// column 63 and later). ":aK" / ":dK" asks for a sorted scan: rows ordered by column K ascending /
// descending (the ORDER BY is consumed; never with take/skip). Then one OP per xFilter argument, in argv order. C is a column number:
// 0..N-1 the columns from the files' fields, then the P partition columns (hive_partitioning),
// N+P `filename`, N+P+1 `file_row_number`, -1 rowid. "Positions" are rowid and file_row_number.
//
//   OP       | argv[k]                   | meaning                                 | omit
//   ---------+---------------------------+-----------------------------------------+-----------------
//   eq  C    | literal                   | C = literal                             | 1 on positions
//   ne  C    | literal                   | C != literal                            | 0
//   lt le gt ge C | literal              | C < / <= / > / >= literal               | 1 on positions
//   is  C    | literal                   | C IS literal                            | 1 on positions
//   isnot C  | literal                   | C IS NOT literal                        | 0
//   null C   | (NULL, ignored)           | C IS NULL                               | 0
//   notnull C| (NULL, ignored)           | C IS NOT NULL                           | 0
//   in  C    | IN list handle            | C IN (...), whole list (sqlite3_vtab_in)| 1 on positions
//   like C   | pattern                   | C LIKE pattern: its literal prefix      | 0
//   glob C   | pattern                   | C GLOB pattern: its literal prefix      | 0
//   limit    | LIMIT                     | SQLite's LIMIT; sizes batches           | 0
//   offset   | OFFSET                    | SQLite's OFFSET; sizes batches          | 0
//   take     | LIMIT                     | the engine stops after LIMIT rows       | 0 (SQLite
//            |                           |                                         | counts anyway)
//   skip     | OFFSET                    | the engine skips OFFSET rows undecoded  | 1
//
// Example: "3,eq0,lt-1,limit": decode columns 0 and 1; argv[0] is the literal of `col0 = ?`,
// argv[1] that of `rowid < ?`, argv[2] the LIMIT. "take"/"skip" replace "limit"/"offset" only when
// every other constraint is a position term the engine applies exactly (there is nothing left for
// SQLite to check, so the engine's rows are the query's rows) and the rows come out in the order
// the query wants; otherwise skipping rows here would drop rows before SQLite filters or sorts.
int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  if (IsWriteTable(vtab)) return W().xBestIndex(vtab, info);
  return Guarded(vtab, [&]() -> int {
    auto* table = reinterpret_cast<ParquetTable*>(vtab);
    IndexPlan plan;
    plan.col_used = info->colUsed;
    info->idxNum = 0;
    int argc = 0;
    int limit = -1, offset = -1;
    // Whether everything SQLite would check is applied exactly here. SQLite gives the IN flag only
    // for the first 32 constraints; beyond that an IN could be one xFilter call per value.
    bool all_exact = info->nConstraint <= 32;
    double selectivity = 1, exact_scanned = 1, value_scanned = 1;
    bool unique = false;
    for (int i = 0; i < info->nConstraint; ++i) {
      const auto& con = info->aConstraint[i];
      if (con.op == SQLITE_INDEX_CONSTRAINT_LIMIT || con.op == SQLITE_INDEX_CONSTRAINT_OFFSET) {
        if (con.usable) (con.op == SQLITE_INDEX_CONSTRAINT_LIMIT ? limit : offset) = i;
        continue;
      }
      std::optional<PushedTerm> pushed;
      if (con.usable) pushed = PushConstraint(*table, info, i);
      if (!pushed) {
        all_exact = false;
        continue;
      }
      info->aConstraintUsage[i].argvIndex = ++argc;
      info->aConstraintUsage[i].omit = pushed->exact;
      if (pushed->constant && argc <= 31) info->idxNum |= 1 << (argc - 1);
      all_exact = all_exact && pushed->exact;
      selectivity *= pushed->selectivity;
      // Selections by row position and file multiply; pruning by several value terms is counted
      // once, by the strongest: the data may not be clustered on the others.
      if (pushed->on_value) {
        value_scanned = std::min(value_scanned, pushed->scanned);
      } else {
        exact_scanned *= pushed->scanned;
      }
      unique = unique || pushed->unique;
      plan.terms.push_back(pushed->term);
    }
    // Rows come out in rowid order; or, by a sorted scan, in the order of one column.
    const bool rowid_order = info->nOrderBy == 1 && info->aOrderBy[0].iColumn == -1 && !info->aOrderBy[0].desc;
    if (rowid_order) {
      info->orderByConsumed = 1;
    } else if ((plan.sort_column = SortColumnFor(*table, info, limit, offset)) >= 0) {
      plan.sort_descending = info->aOrderBy[0].desc != 0;
      info->orderByConsumed = 1;
    }
    // LIMIT and OFFSET apply to rows in scan order: never to a sorted scan's rows.
    const bool exact = all_exact && (info->nOrderBy == 0 || rowid_order) && table->limit_offset_exact;
    if (limit >= 0) {
      info->aConstraintUsage[limit].argvIndex = ++argc;
      plan.terms.push_back({exact ? TermOp::kTake : TermOp::kLimit, 0});
    }
    if (offset >= 0 && limit >= 0) {
      info->aConstraintUsage[offset].argvIndex = ++argc;
      info->aConstraintUsage[offset].omit = exact;
      plan.terms.push_back({exact ? TermOp::kSkip : TermOp::kOffset, 0});
    }

    int used = 0;
    for (int i = 0; i < 64; ++i) used += (info->colUsed >> i) & 1;
    const double total = static_cast<double>(table->data->total_rows);
    const double rows = std::max(1.0, total * selectivity);
    const double scanned = total * exact_scanned * value_scanned;
    info->idxStr = SqliteStrdup(EncodeIndexPlan(plan));
    if (info->idxStr == nullptr) return SQLITE_NOMEM;
    info->needToFreeIdxStr = 1;
    info->estimatedRows = static_cast<sqlite3_int64>(rows);
    // Cost grows with the rows whose filter columns are decoded and the rows returned in full: a
    // rowid lookup is cheapest, then equality on a column, then a range, then a full scan. Every
    // scan (each xFilter, so each lookup of a nested-loop join) also pays for at least one page per
    // column and its dictionary, about a thousand values each; and a lookup by value still decodes
    // a good part of the column. Joins then scan this table once on the outside rather than probe
    // it once per outer row, unless the probe is by rowid.
    info->estimatedCost = 1000.0 * (1 + used) + scanned + rows * used;
    if (plan.sort_column >= 0) info->estimatedCost += rows;  // holding the rows and ordering them
    if (unique) info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    return SQLITE_OK;
  });
}

int Open(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
  if (IsWriteTable(vtab)) return W().xOpen(vtab, out);
  return Guarded(vtab, [&]() -> int {
    auto cursor = std::make_unique<ParquetCursor>();
    std::memset(&cursor->base, 0, sizeof(cursor->base));
    cursor->table = reinterpret_cast<ParquetTable*>(vtab);
    *out = &cursor.release()->base;
    return SQLITE_OK;
  });
}

int Close(sqlite3_vtab_cursor* cur) {
  if (IsWriteTable(cur->pVtab)) return W().xClose(cur);
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  PublishCounters(c);  // a scan SQLite stopped early (LIMIT) still shows what it read
  delete c;
  return SQLITE_OK;
}

// True when a file's path satisfies a `filename` term (TEXT values only; see SetUpScan).
bool PathSatisfies(std::string_view path, const PredicateTerm& term) {
  switch (term.op) {
    case PredicateOp::kEq:
    case PredicateOp::kIs: return path == term.values[0].bytes;
    case PredicateOp::kIn:
      return std::any_of(term.values.begin(), term.values.end(),
                         [&](const SqlValue& v) { return path == v.bytes; });
    case PredicateOp::kPrefix: return path.substr(0, term.values[0].bytes.size()) == term.values[0].bytes;
    default: return true;
  }
}

PredicateOp ToPredicateOp(TermOp op) {
  switch (op) {
    case TermOp::kEq: return PredicateOp::kEq;
    case TermOp::kNe: return PredicateOp::kNe;
    case TermOp::kLt: return PredicateOp::kLt;
    case TermOp::kLe: return PredicateOp::kLe;
    case TermOp::kGt: return PredicateOp::kGt;
    case TermOp::kGe: return PredicateOp::kGe;
    case TermOp::kIs: return PredicateOp::kIs;
    case TermOp::kIsNot: return PredicateOp::kIsNot;
    case TermOp::kIsNull: return PredicateOp::kIsNull;
    case TermOp::kIsNotNull: return PredicateOp::kIsNotNull;
    case TermOp::kIn: return PredicateOp::kIn;
    default: return PredicateOp::kPrefix;  // kLike, kGlob
  }
}

// A LIMIT or OFFSET value as SQLite uses it (an integer; SQLite has already refused others).
int64_t CountValue(sqlite3_value* v) {
  ValueCopy copy(v);
  int type = sqlite3_value_numeric_type(copy.value);
  return type == SQLITE_INTEGER || type == SQLITE_FLOAT ? sqlite3_value_int64(copy.value) : 0;
}

// Makes a term on a TEXT column safe to push whatever the affinity of its right operand, which the
// table cannot see (https://sqlite.org/datatype3.html, "Type Conversions Prior To Comparison"): a
// literal or a parameter has none, so it is compared as TEXT (the engine's rule); a column of another
// table keeps its own: with BLOB affinity the integer 3 stays an integer, below every TEXT value;
// with INTEGER/REAL/NUMERIC affinity the TEXT column's values that look like numbers become
// numbers. So:
//   - a literal that is not TEXT (or an IN list holding one) leaves the term to SQLite;
//   - =, !=, IS, IS NOT, IN, >, >= and prefixes with TEXT literals hold under every affinity, or keep
//     more rows than SQLite will (numbers sort before TEXT);
//   - `x < T` / `x <= T`, when T is not known to be a literal (`constant`), could be true for a value
//     that looks like a number and sorts after T as text. Such values start with a byte below ':'
//     (space, sign, '.', digit), so the term becomes `x < ':'` when T does too and T itself does not
//     look like a number (a number-like T cannot come from a numeric column, which stores it as a
//     number); both outcomes imply it.
// `arg` is the xFilter argument (its storage class as SQLite hands it over). Returns false to drop
// the term.
bool TextTermFor(PredicateTerm* p, sqlite3_value* arg, bool constant) {
  for (const SqlValue& v : p->values) {
    if (v.type != CellType::kText && v.type != CellType::kNull) return false;
  }
  if ((p->op == PredicateOp::kLt || p->op == PredicateOp::kLe) && !constant) {
    const std::string& bound = p->values[0].bytes;
    bool sorts_after_numbers = !bound.empty() && static_cast<unsigned char>(bound[0]) >= ':';
    if (!sorts_after_numbers) {
      ValueCopy copy(arg);
      if (sqlite3_value_numeric_type(copy.value) == SQLITE_TEXT) {
        p->op = PredicateOp::kLt;
        p->values[0] = SqlValue::Text(":");
      }
    }
  }
  return true;
}

// Builds the cursor's ScanSetup from the plan's terms and their xFilter arguments (idxNum bit k:
// argv[k] is a constant of the statement).
Status SetUpScan(ParquetCursor* c, const IndexPlan& plan, int idx_num, int argc, sqlite3_value** argv) {
  const ParquetTable& t = *c->table;
  const DatasetSnapshot& d = *c->data;
  ScanSetup& s = c->setup;
  s = ScanSetup();
  s.rowids = PositionSet::Span(0, d.total_rows);
  s.file_rows = PositionSet::Span(0, d.max_file_rows);
  int64_t limit = -1, offset = 0;
  if (static_cast<size_t>(argc) != plan.terms.size()) {
    return Status::InvalidArgument("internal error: xFilter has " + std::to_string(argc) + " arguments for " +
                                   std::to_string(plan.terms.size()) + " terms");
  }
  for (size_t k = 0; k < plan.terms.size(); ++k) {
    const FilterTerm& term = plan.terms[k];
    sqlite3_value* arg = argv[k];
    switch (term.op) {
      case TermOp::kLimit:
      case TermOp::kTake: {
        limit = CountValue(arg);
        if (term.op == TermOp::kTake) s.take = limit < 0 ? -1 : limit;
        continue;
      }
      case TermOp::kOffset: offset = std::max<int64_t>(0, CountValue(arg)); continue;
      case TermOp::kSkip: s.skip = std::max<int64_t>(0, CountValue(arg)); continue;
      default: break;
    }
    // Position terms: exact sets of positions.
    if (term.column == -1 || term.column == t.file_row_number_column) {
      const bool rowid = term.column == -1;
      const int64_t domain = rowid ? d.total_rows : d.max_file_rows;
      PositionSet allowed;
      bool is_list = false;
      if (term.op == TermOp::kIn) {
        std::vector<int64_t> points;
        PQ_ASSIGN_OR_RETURN(is_list, ForEachInValue(arg, [&](sqlite3_value* v) {
          PositionSet point = PositionsSatisfying(TermOp::kEq, v, domain);
          if (!point.empty()) points.push_back(point.spans()[0].begin);
        }));
        allowed = PositionSet::Points(std::move(points));
      }
      if (!is_list) allowed = PositionsSatisfying(term.op == TermOp::kIn ? TermOp::kEq : term.op, arg, domain);
      PositionSet& target = rowid ? s.rowids : s.file_rows;
      target = target.Intersect(allowed);
      continue;
    }
    PredicateTerm p;
    p.field = term.column;
    p.op = ToPredicateOp(term.op);
    switch (term.op) {
      case TermOp::kIsNull:
      case TermOp::kIsNotNull: break;
      case TermOp::kLike:
      case TermOp::kGlob: {
        if (sqlite3_value_type(arg) != SQLITE_TEXT) continue;  // a NULL or number pattern: SQLite decides
        std::string prefix = PatternPrefix(term.op, ToSqlValue(arg).bytes);
        if (prefix.empty()) continue;
        p.values.push_back(SqlValue::Text(std::move(prefix)));
        break;
      }
      case TermOp::kIn: {
        PQ_ASSIGN_OR_RETURN(bool is_list, ForEachInValue(arg, [&](sqlite3_value* v) {
          if (sqlite3_value_type(v) != SQLITE_NULL) p.values.push_back(ToSqlValue(v));  // NULL never matches
        }));
        if (!is_list) {
          p.op = PredicateOp::kEq;
          p.values.push_back(ToSqlValue(arg));
        }
        break;
      }
      default: p.values.push_back(ToSqlValue(arg)); break;
    }
    // A comparison with NULL is never true (`x = NULL`, `x IN (NULL)`); IS and IS NOT handle NULL.
    const bool null_aware = p.op == PredicateOp::kIs || p.op == PredicateOp::kIsNot ||
                            p.op == PredicateOp::kIsNull || p.op == PredicateOp::kIsNotNull;
    if (!null_aware && (p.values.empty() || p.values[0].type == CellType::kNull)) {
      s.no_rows = true;
      continue;
    }
    if (term.column == t.filename_column) {
      // Paths are TEXT; only TEXT literals are compared here (others would need TEXT affinity
      // applied: SQLite checks those). `filename IS NULL` matches no file.
      bool text = std::all_of(p.values.begin(), p.values.end(),
                              [](const SqlValue& v) { return v.type == CellType::kText; });
      if (p.op == PredicateOp::kIs && p.values[0].type == CellType::kNull) s.no_rows = true;
      if (text && (p.op == PredicateOp::kEq || p.op == PredicateOp::kIs || p.op == PredicateOp::kIn ||
                   p.op == PredicateOp::kPrefix)) {
        s.filename_terms.push_back(std::move(p));
      }
      continue;
    }
    const bool constant = k < 31 && ((idx_num >> k) & 1) != 0;
    if (t.IsPartitionColumn(term.column)) {
      if (t.Partition(term.column).affinity == Affinity::kText && !TextTermFor(&p, arg, constant)) continue;
      p.field = term.column - t.first_partition_column;
      s.partition_terms.push_back(std::move(p));
      continue;
    }
    if (term.column < 0 || term.column >= t.num_fields) {
      return Status::InvalidArgument("internal error: no column " + std::to_string(term.column));
    }
    if (t.columns[static_cast<size_t>(term.column)].affinity == Affinity::kText && !TextTermFor(&p, arg, constant)) {
      continue;
    }
    s.predicate.terms.push_back(std::move(p));
  }
  if (s.rowids.empty() || s.file_rows.empty()) s.no_rows = true;
  if (limit >= 0) {
    // Enough rows for LIMIT (+ an OFFSET SQLite applies) in the first batch, at least the minimum.
    int64_t want = limit + offset;
    if (want < limit) want = kBatchRows;  // overflow
    s.batch_rows = std::clamp<int64_t>(want, kMinHintBatchRows, kBatchRows);
  }
  return Status::OK();
}

void AddPruneStats(const PruneStats& p, ScanCounters* c) {
  c->row_groups_skipped_by_statistics += p.row_groups_skipped_by_statistics;
  c->row_groups_skipped_by_dictionary += p.row_groups_skipped_by_dictionary;
  c->row_groups_skipped_by_bloom_filter += p.row_groups_skipped_by_bloom_filter;
  c->row_groups_skipped_by_page_index += p.row_groups_skipped_by_page_index;
  c->pages_considered += p.pages_considered;
  c->pages_skipped_by_page_index += p.pages_skipped_by_page_index;
  c->bytes_read += p.bytes_read;
}

RowRanges ToRowRanges(const PositionSet& s) {
  RowRanges r;
  for (const RowRange& span : s.spans()) r.Add(span.begin, span.end);
  return r;
}

// Plans the scan of file c->file_index: `filename` and partition terms, terms on columns the file
// does not have, row positions, OFFSET/LIMIT, then the engine's pruning (PlanScan). Sets c->scanner,
// or leaves it null when nothing in the file is read. Nothing past the footer is read for a file
// skipped before PlanScan; PlanScan itself reads only what its layers need (dictionaries, Bloom
// filters, page indexes) for row groups the statistics kept.
Status OpenFile(ParquetCursor* c) {
  const ParquetTable& t = *c->table;
  ScanSetup& s = c->setup;
  ScanCounters& k = c->counters;
  const size_t i = c->file_index;
  const DatasetFile& dataset_file = c->data->files[i];
  const std::shared_ptr<const FileReader>& file = dataset_file.reader;
  const FileColumns& columns = dataset_file.columns;
  const int64_t first = dataset_file.first_row;
  const int64_t rows = dataset_file.rows;
  ++k.files_considered;
  k.rows_considered += rows;
  auto skip_file = [&] {
    ++k.files_skipped;
    k.rows_skipped += rows;
    return Status::OK();
  };
  for (const PredicateTerm& term : s.filename_terms) {
    if (!PathSatisfies(file->path(), term)) return skip_file();
  }
  for (const PredicateTerm& term : s.partition_terms) {
    const SqlValue& value = t.partition_values[i][static_cast<size_t>(term.field)];
    if (EvaluateTerm(value.AsCell(), term, t.partitions[static_cast<size_t>(term.field)].affinity) == Match::kNo) {
      return skip_file();
    }
  }
  // The predicate in this file's field numbers. A column the file does not have is NULL in every row.
  Predicate predicate;
  for (const PredicateTerm& term : s.predicate.terms) {
    const auto col = static_cast<size_t>(term.field);
    const int field = columns.field_of_column[col];
    if (field < 0) {
      if (EvaluateTerm(Cell::Null(), term, t.columns[col].affinity) == Match::kNo) return skip_file();
      continue;
    }
    if (columns.converted[col]) continue;  // stored as INTEGER, compared as REAL: left to SQLite
    PredicateTerm mapped = term;
    mapped.field = field;
    predicate.terms.push_back(std::move(mapped));
  }
  PositionSet wanted = s.rowids.Slice(first, first + rows).Intersect(s.file_rows.Slice(0, rows));
  if (s.skip > 0) {
    int64_t n = wanted.count();
    wanted = wanted.DropFirst(s.skip);
    s.skip -= std::min(s.skip, n);
  }
  if (s.take >= 0) {
    wanted = wanted.KeepFirst(s.take);
    s.take -= wanted.count();
  }
  if (wanted.empty()) return skip_file();

  // Row groups holding wanted rows, with those rows (row numbers within the row group).
  const std::vector<RowGroup>& groups = file->metadata().row_groups;
  k.row_groups_considered += static_cast<int64_t>(groups.size());
  std::vector<int> candidates;
  std::vector<RowRanges> candidate_rows(groups.size());
  int64_t start = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    PositionSet part = wanted.Slice(start, start + groups[g].num_rows);
    start += groups[g].num_rows;
    if (part.empty()) {
      ++k.row_groups_skipped_by_row_position;
      continue;
    }
    candidates.push_back(static_cast<int>(g));
    candidate_rows[g] = ToRowRanges(part);
  }
  ScanPlan plan;
  if (predicate.empty()) {
    for (int g : candidates) plan.row_groups.push_back({g, std::move(candidate_rows[static_cast<size_t>(g)])});
  } else {
    PruneStats prune;
    PQ_ASSIGN_OR_RETURN(ScanPlan pruned, PlanScan(*file, predicate, columns.field_affinity, t.config.values,
                                                  candidates, &prune));
    AddPruneStats(prune, &k);
    for (RowGroupPlan& g : pruned.row_groups) {
      RowRanges kept = g.rows.Intersect(candidate_rows[static_cast<size_t>(g.row_group)]);
      if (kept.empty()) {
        ++k.row_groups_skipped_by_page_index;  // its remaining pages hold none of the wanted rows
        continue;
      }
      plan.row_groups.push_back({g.row_group, std::move(kept)});
    }
  }
  // Rows of row groups left out are skipped here; the scanner counts the rows it passes over
  // inside the row groups it reads.
  int64_t planned_group_rows = 0;
  for (const RowGroupPlan& g : plan.row_groups) planned_group_rows += groups[static_cast<size_t>(g.row_group)].num_rows;
  k.rows_skipped += rows - planned_group_rows;
  if (plan.row_groups.empty()) {
    ++k.files_skipped;
    return Status::OK();
  }
  // The columns the statement uses that this file has, as scanner slots.
  ScanRequest request;
  c->slot_of_column.assign(static_cast<size_t>(t.num_fields), -1);
  for (int col : c->projected_columns) {
    const int field = columns.field_of_column[static_cast<size_t>(col)];
    if (field < 0) continue;
    c->slot_of_column[static_cast<size_t>(col)] = static_cast<int>(request.fields.size());
    request.fields.push_back(field);
  }
  c->converted = &columns.converted;
  request.plan = std::move(plan);
  request.affinity = columns.field_affinity;
  request.batch_rows = s.batch_rows;
  c->lazy = predicate.empty() && !c->sorting;
  c->rows_left = 0;
  c->deferred_skip = 0;
  if (c->lazy) {
    for (const RowGroupPlan& g : request.plan.row_groups) c->rows_left += g.rows.row_count();
  } else if (!predicate.empty()) {
    c->file_predicate = std::move(predicate);
    request.filter = &c->file_predicate;
  }
  PQ_ASSIGN_OR_RETURN(c->scanner, TableScanner::Make(file, std::move(request), t.config.values));
  return Status::OK();
}

// Takes the current batch's plain numbers from the scanner (after every NextBatch).
void RefreshNumbers(ParquetCursor* c) {
  using K = TableScanner::NumberColumn::Kind;
  using F = ParquetCursor::FastKind;
  c->numbers.resize(c->slot_of_column.size());
  c->bytes.resize(c->slot_of_column.size());
  c->fast.assign(c->slot_of_column.size(), ParquetCursor::FastColumn());
  for (size_t col = 0; col < c->slot_of_column.size(); ++col) {
    const int slot = c->slot_of_column[col];
    if (slot < 0) continue;
    if (c->numbers.size() <= static_cast<size_t>(slot)) c->numbers.resize(static_cast<size_t>(slot) + 1);
    if (c->bytes.size() <= static_cast<size_t>(slot)) c->bytes.resize(static_cast<size_t>(slot) + 1);
    const TableScanner::NumberColumn n = c->scanner->Numbers(slot);
    c->numbers[static_cast<size_t>(slot)] = n;
    const TableScanner::BytesColumn b =
        n.kind == K::kNone ? c->scanner->Bytes(slot) : TableScanner::BytesColumn();
    c->bytes[static_cast<size_t>(slot)] = b;
    if (b.values && !b.row_map && !b.value_index) {
      c->fast[col].kind = b.text ? F::kText : F::kBlob;
      c->fast[col].values = b.values;
      continue;
    }
    if (n.kind == K::kNone || n.row_map || n.value_index || (*c->converted)[col]) continue;
    ParquetCursor::FastColumn& f = c->fast[col];
    f.values = n.values;
    switch (n.kind) {
      case K::kInt32: f.kind = F::kInt32; break;
      case K::kInt64: f.kind = F::kInt64; break;
      case K::kFloat: f.kind = F::kFloat; break;
      case K::kDouble: f.kind = F::kDouble; break;
      case K::kNone: break;
    }
  }
  c->fast_ready = true;
}

// Turns the current window into a decoded batch starting at its row row_in_batch: the rows before
// it (and of earlier windows) are skipped in the scanner, not decoded.
Status LoadWindow(ParquetCursor* c) {
  const int64_t at = c->row_in_batch;
  const int64_t skip = c->deferred_skip + at;
  if (skip > 0) {
    PQ_ASSIGN_OR_RETURN(int64_t skipped, c->scanner->SkipRows(skip));
    if (skipped != skip) {
      return Status::Corruption("the file ended " + std::to_string(skip - skipped) +
                                " rows before its row groups say")
          .WithContext(c->data->files[c->file_index].reader->path());
    }
  }
  c->deferred_skip = 0;
  c->lazy_rows += at;
  PQ_ASSIGN_OR_RETURN(int64_t n, c->scanner->NextBatch());
  const int64_t window_left = c->batch_rows - at;
  if (n <= 0 || n > window_left + c->rows_left) {
    return Status::Corruption("the file holds fewer rows than its row groups say")
        .WithContext(c->data->files[c->file_index].reader->path());
  }
  // The batch covers the window's remaining rows and possibly rows after it.
  c->rows_left -= n - window_left;
  c->batch_rows = n;
  c->row_in_batch = 0;
  c->loaded = true;
  RefreshNumbers(c);
  return Status::OK();
}

// The next window of a lazy file; false when its rows are all handed out.
bool NextWindow(ParquetCursor* c) {
  if (!c->loaded) {
    c->deferred_skip += c->batch_rows;  // nobody asked for a column of the window just passed
    c->lazy_rows += c->batch_rows;
    c->loaded = true;
  }
  c->batch_rows = 0;
  c->row_in_batch = 0;
  const int64_t n = std::min(c->rows_left, c->setup.batch_rows);
  if (n <= 0) return false;
  c->rows_left -= n;
  c->batch_rows = n;
  c->row_in_batch = 0;
  c->loaded = false;
  c->fast_ready = false;
  return true;
}

// Reads on from the current file, opening the next ones as needed, until a batch has rows; sets
// eof at the end of the scan.
Status AdvanceToRows(ParquetCursor* c) {
  const DatasetSnapshot& d = *c->data;
  while (true) {
    if (c->scanner && c->lazy) {
      if (NextWindow(c)) {
        PublishCounters(c);
        return Status::OK();
      }
    } else if (c->scanner) {
      PQ_ASSIGN_OR_RETURN(int64_t n, c->scanner->NextBatch());
      if (n > 0) {
        c->batch_rows = n;
        c->row_in_batch = 0;
        c->loaded = true;
        RefreshNumbers(c);
        PublishCounters(c);
        return Status::OK();
      }
    }
    if (c->scanner) {
      if (c->lazy) {
        // Rows of the file's last windows are skipped now, and the scanner runs to its end, so
        // that its counters include them and the rows after the plan's last range.
        if (c->deferred_skip > 0) {
          PQ_ASSIGN_OR_RETURN(int64_t skipped, c->scanner->SkipRows(c->deferred_skip));
          (void)skipped;
          c->deferred_skip = 0;
        }
        PQ_ASSIGN_OR_RETURN(int64_t more, c->scanner->NextBatch());
        if (more != 0) {
          return Status::Corruption("the file holds more rows than its row groups say")
              .WithContext(c->data->files[c->file_index].reader->path());
        }
      }
      AddScanStats(c->scanner->stats(), &c->counters);
      c->counters.rows_produced += c->lazy_rows;
      c->counters.rows_skipped -= c->lazy_rows;
      c->lazy_rows = 0;
      c->scanner.reset();
      c->fast_ready = false;
      ++c->file_index;
    }
    if (c->file_index >= d.files.size() || c->setup.no_rows || c->setup.take == 0) {
      c->eof = true;
      PublishCounters(c);
      return Status::OK();
    }
    PQ_RETURN_IF_ERROR(OpenFile(c));
    if (!c->scanner) ++c->file_index;
  }
}

// Hands a partition value to SQLite.
void ResultValue(sqlite3_context* ctx, const SqlValue& v) { ResultCell(ctx, v.AsCell()); }

// ---------------------------------------------------------------------------------------------------
// Sorted scans (IndexPlan::sort_column): every row the scan yields is read into SortedRows, which
// orders them by the key; the cursor then hands them out in that order.

// Forgets a sorted scan's rows and their memory charge.
void ClearSorted(ParquetCursor* c) {
  c->sorting = false;
  c->sorted_output = false;
  c->sorted.reset();
  (void)c->sort_charge.Set(nullptr, 0, "");
}

// Checks what the sorted rows hold against twice the table's sort_memory (the estimate that let
// the plan sort here was at most sort_memory) and charges it to its max_memory.
Status ChargeSortedRows(ParquetCursor* c) {
  const ParquetTable& t = *c->table;
  const int64_t bytes = c->sorted->MemoryBytes();
  const int64_t limit = 2 * t.config.sort_memory;
  if (bytes > limit) {
    return Status::OutOfMemory(
        "parquet table '" + t.stats->table + "': ordering its rows by '" +
        t.columns[static_cast<size_t>(c->sort_key)].name + "' (ORDER BY, GROUP BY or DISTINCT) needs more than " +
        std::to_string(limit >> 20) + " MiB, twice the table option sort_memory (" +
        std::to_string(t.config.sort_memory >> 20) +
        " MiB); create the table with a larger sort_memory, or with sort_memory=0 to let SQLite sort");
  }
  return c->sort_charge.Set(t.config.reader.memory, bytes, "holding rows to order them");
}

// The value slot of batch row r of a column the scanner hands over as an array (TableScanner::
// NumberColumn, BytesColumn): through the row map and the value index, each when not null; -1 for
// NULL.
inline int64_t ValueSlot(int64_t r, const int32_t* row_map, const int32_t* value_index) {
  if (row_map) r = row_map[r];
  return value_index ? value_index[r] : r;
}

// Appends the current batch's values of table column `col` to `out` (a KeyColumn or ValueColumn),
// exactly as xColumn would hand them over.
template <typename T, typename MakeCell, typename Target>
void AppendNumbers(const TableScanner::NumberColumn& numbers, const T* values, int64_t n, MakeCell make, Target& out) {
  for (int64_t r = 0; r < n; ++r) {
    const int64_t k = ValueSlot(r, numbers.row_map, numbers.value_index);
    out.Append(k < 0 ? Cell::Null() : make(values[k]));
  }
}

template <typename Target>
void AppendColumn(ParquetCursor* c, int col, int64_t n, Target& out) {
  const int slot = c->slot_of_column[static_cast<size_t>(col)];
  if (slot < 0) {
    for (int64_t r = 0; r < n; ++r) out.Append(Cell::Null());
    return;
  }
  const bool as_real = (*c->converted)[static_cast<size_t>(col)];  // INTEGER widened to REAL
  const TableScanner::NumberColumn numbers = c->scanner->Numbers(slot);
  using K = TableScanner::NumberColumn::Kind;
  auto integer = [as_real](auto v) {
    return as_real ? Cell::Real(static_cast<double>(v)) : Cell::Integer(static_cast<int64_t>(v));
  };
  auto real = [](auto v) { return Cell::Real(static_cast<double>(v)); };  // NaN is NULL
  switch (numbers.kind) {
    case K::kInt32: return AppendNumbers(numbers, static_cast<const int32_t*>(numbers.values), n, integer, out);
    case K::kInt64: return AppendNumbers(numbers, static_cast<const int64_t*>(numbers.values), n, integer, out);
    case K::kFloat: return AppendNumbers(numbers, static_cast<const float*>(numbers.values), n, real, out);
    case K::kDouble: return AppendNumbers(numbers, static_cast<const double*>(numbers.values), n, real, out);
    case K::kNone: break;
  }
  for (int64_t r = 0; r < n; ++r) {
    Cell cell = c->scanner->GetCell(slot, r, &c->scratch);
    if (as_real && cell.type == CellType::kInteger) cell = Cell::Real(static_cast<double>(cell.i));
    if constexpr (std::is_same_v<Target, KeyColumn>) {
      // GetCell's bytes are in the batch (stable until the next one) unless they are in scratch.
      const char* p = cell.bytes.data();
      const bool in_scratch = p >= c->scratch.data() && p <= c->scratch.data() + c->scratch.size();
      if ((cell.type == CellType::kText || cell.type == CellType::kBlob) && !in_scratch && p != nullptr) {
        out.AppendAtStableAddress(cell);
        continue;
      }
    }
    out.Append(cell);
  }
}

// Appends the current batch to c->sorted.
Status AppendBatch(ParquetCursor* c) {
  SortedRows& rows = *c->sorted;
  const int64_t n = c->batch_rows;
  if (n > kMaxSortedRows - rows.rows()) {
    return Status::OutOfMemory("parquet table '" + c->table->stats->table + "': more than " +
                               std::to_string(kMaxSortedRows) +
                               " rows to order; create the table with sort_memory=0 to let SQLite sort");
  }
  const size_t file = c->file_index;
  const int64_t first = c->data->files[file].first_row;
  // Row numbers increase within a batch: when the last is n - 1 after the first, they are all
  // consecutive (a batch without filtered-out rows).
  if (c->scanner->RowNumber(n - 1) - c->scanner->RowNumber(0) == n - 1) {
    rows.AddOrigins(file, first + c->scanner->RowNumber(0), n);
  } else {
    for (int64_t r = 0; r < n; ++r) rows.AddOrigin(file, first + c->scanner->RowNumber(r));
  }
  rows.key().ForgetAddresses();  // a new batch: the last one's memory may be reused
  AppendColumn(c, c->sort_key, n, rows.key());
  for (size_t k = 0; k < c->sorted_sources.size(); ++k) AppendColumn(c, c->sorted_sources[k], n, rows.column(k));
  return ChargeSortedRows(c);
}

// Runs the whole scan into c->sorted (filters, pruning and counters as for any scan), orders the
// rows and makes the cursor hand them out.
Status ReadSorted(ParquetCursor* c, const IndexPlan& plan) {
  const ParquetTable& t = *c->table;
  if (plan.sort_column >= t.num_fields) {
    return Status::InvalidArgument("internal error: no column " + std::to_string(plan.sort_column) + " to order by");
  }
  c->sort_key = plan.sort_column;
  c->setup.batch_rows = kBatchRows;  // every row is read: a LIMIT is SQLite's, after the order
  c->sorted_column.assign(static_cast<size_t>(t.num_fields), -1);
  c->sorted_sources.clear();
  for (int col : c->projected_columns) {
    if (col == c->sort_key) continue;
    c->sorted_column[static_cast<size_t>(col)] = static_cast<int>(c->sorted_sources.size());
    c->sorted_sources.push_back(col);
  }
  c->sorted_column[static_cast<size_t>(c->sort_key)] = kSortKey;
  c->sorted = std::make_unique<SortedRows>();
  // Room for every row of the dataset: no column grows (copying) on the way. The plan's estimate
  // counted at least this much for every column, within sort_memory; pages never written are
  // never touched.
  c->sorted->Reset(c->sorted_sources.size(),
                   static_cast<size_t>(std::min<int64_t>(c->data->total_rows, kMaxSortedRows)));
  c->sorting = true;
  c->eof = false;
  PQ_RETURN_IF_ERROR(AdvanceToRows(c));
  while (!c->eof) {
    PQ_RETURN_IF_ERROR(AppendBatch(c));
    PQ_RETURN_IF_ERROR(AdvanceToRows(c));
  }
  c->sorting = false;
  c->sorted->Sort(plan.sort_descending);
  PQ_RETURN_IF_ERROR(ChargeSortedRows(c));
  c->sorted_output = true;
  c->fast_ready = false;
  c->loaded = true;
  c->batch_rows = c->sorted->rows();
  c->row_in_batch = 0;
  c->eof = c->batch_rows == 0;
  return Status::OK();
}

// xColumn of a sorted scan's current row.
int SortedColumn(ParquetCursor* c, sqlite3_context* ctx, int col) {
  const ParquetTable& t = *c->table;
  const SortedRows& rows = *c->sorted;
  const auto row = static_cast<size_t>(c->row_in_batch);
  if (col >= 0 && col < t.num_fields) {
    const int k = c->sorted_column[static_cast<size_t>(col)];
    if (k == kSortKey) {
      ResultCell(ctx, rows.key().Get(row));
    } else if (k >= 0) {
      ResultCell(ctx, rows.column(static_cast<size_t>(k)).Get(row));
    } else {
      sqlite3_result_null(ctx);
    }
    return SQLITE_OK;
  }
  const RowOrigin origin = rows.OriginAt(c->row_in_batch);
  const DatasetFile& file = c->data->files[origin.file];
  if (col == t.filename_column) {
    const std::string& p = file.reader->path();
    sqlite3_result_text(ctx, p.data(), static_cast<int>(p.size()), SQLITE_TRANSIENT);
  } else if (col == t.file_row_number_column) {
    sqlite3_result_int64(ctx, origin.rowid - file.first_row);
  } else if (t.IsPartitionColumn(col)) {
    ResultValue(ctx, t.partition_values[origin.file][static_cast<size_t>(col - t.first_partition_column)]);
  } else {
    sqlite3_result_null(ctx);
  }
  return SQLITE_OK;
}

int Filter(sqlite3_vtab_cursor* cur, int idx_num, const char* idx_str, int argc, sqlite3_value** argv) {
  if (IsWriteTable(cur->pVtab)) return W().xFilter(cur, idx_num, idx_str, argc, argv);
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  return Guarded(cur->pVtab, [&]() -> int {
    ParquetTable* t = c->table;
    c->scanner.reset();
    c->fast_ready = false;
    c->file_index = 0;
    c->eof = true;
    c->batch_rows = 0;
    c->row_in_batch = 0;
    c->loaded = true;
    c->lazy = false;
    c->rows_left = 0;
    c->deferred_skip = 0;
    c->lazy_rows = 0;
    ClearSorted(c);
    c->counters = ScanCounters();
    c->scan_id = t->registry->NextScanId();
    t->stats->scan_id = c->scan_id;
    t->stats->counters = ScanCounters();
    std::optional<IndexPlan> plan = DecodeIndexPlan(idx_str ? idx_str : "");
    if (!plan) return SetVtabError(cur->pVtab, Status::InvalidArgument("internal error: bad plan '" +
                                                                       std::string(idx_str ? idx_str : "") + "'"));
    Status s = RefreshFiles(t);
    if (!s.ok()) return SetVtabError(cur->pVtab, s);
    c->data = t->data;
    c->projected_columns.clear();
    for (int f = 0; f < t->num_fields; ++f) {
      bool used = f >= 63 ? (plan->col_used >> 63) & 1 : (plan->col_used >> f) & 1;
      if (used) c->projected_columns.push_back(f);
    }
    s = SetUpScan(c, *plan, idx_num, argc, argv);
    if (s.ok() && plan->sort_column >= 0) {
      s = ReadSorted(c, *plan);
    } else if (s.ok()) {
      c->eof = false;
      s = AdvanceToRows(c);
    }
    if (!s.ok()) {
      c->eof = true;
      c->scanner.reset();
      c->fast_ready = false;
      ClearSorted(c);
      return SetVtabError(cur->pVtab, s);
    }
    return SQLITE_OK;
  });
}

// Next's way past the end of a batch (and a write table's Next), out of line so that the common
// step stays a few instructions.
[[gnu::noinline]] int NextBatchOrWrite(sqlite3_vtab_cursor* cur) {
  if (IsWriteTable(cur->pVtab)) return W().xNext(cur);
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  if (c->sorted_output) {  // the last of the sorted rows
    c->eof = true;
    return SQLITE_OK;
  }
  return Guarded(cur->pVtab, [&]() -> int {
    Status s = AdvanceToRows(c);
    if (!s.ok()) {
      c->eof = true;
      return SetVtabError(cur->pVtab, s);
    }
    return SQLITE_OK;
  });
}

int Next(sqlite3_vtab_cursor* cur) {
  if (!IsWriteTable(cur->pVtab)) {
    auto* c = reinterpret_cast<ParquetCursor*>(cur);
    if (++c->row_in_batch < c->batch_rows) return SQLITE_OK;
  }
  return NextBatchOrWrite(cur);
}

int Eof(sqlite3_vtab_cursor* cur) {
  if (IsWriteTable(cur->pVtab)) return W().xEof(cur);
  return reinterpret_cast<ParquetCursor*>(cur)->eof;
}

// Decodes the current window if it is one (LoadWindow); false after an error, set on the table.
bool EnsureLoaded(ParquetCursor* c) {
  if (c->loaded) return true;
  Status s = LoadWindow(c);
  if (s.ok()) return true;
  SetVtabError(c->base.pVtab, s);
  return false;
}

int64_t CurrentFileRow(const ParquetCursor* c) { return c->scanner->RowNumber(c->row_in_batch); }

// A byte array as TEXT or BLOB (copied by SQLite: the batch's memory changes with the next batch).
// An empty value keeps its class: SQLite would read a null pointer as NULL.
inline void ResultBytes(sqlite3_context* ctx, const ByteArray& v, bool text) {
  const char* p = v.ptr ? reinterpret_cast<const char*>(v.ptr) : "";
  if (text) {
    sqlite3_result_text64(ctx, p, v.len, SQLITE_TRANSIENT, SQLITE_UTF8);
  } else {
    sqlite3_result_blob64(ctx, p, v.len, SQLITE_TRANSIENT);
  }
}

// Every xColumn but the fast cases of Column: out of line, so that those stay a few instructions.
[[gnu::noinline]] int ColumnGeneral(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col);

int Column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  if (!IsWriteTable(cur->pVtab) && c->fast_ready && static_cast<size_t>(col) < c->fast.size()) {
    // The common case of a scan: a dense batch of plain numbers.
    const ParquetCursor::FastColumn& f = c->fast[static_cast<size_t>(col)];
    const int64_t r = c->row_in_batch;
    switch (f.kind) {
      case ParquetCursor::FastKind::kInt32:
        sqlite3_result_int64(ctx, static_cast<const int32_t*>(f.values)[r]);
        return SQLITE_OK;
      case ParquetCursor::FastKind::kInt64:
        sqlite3_result_int64(ctx, static_cast<const int64_t*>(f.values)[r]);
        return SQLITE_OK;
      case ParquetCursor::FastKind::kFloat:
        sqlite3_result_double(ctx, static_cast<const float*>(f.values)[r]);
        return SQLITE_OK;
      case ParquetCursor::FastKind::kDouble:
        sqlite3_result_double(ctx, static_cast<const double*>(f.values)[r]);
        return SQLITE_OK;
      case ParquetCursor::FastKind::kText:
        ResultBytes(ctx, static_cast<const ByteArray*>(f.values)[r], true);
        return SQLITE_OK;
      case ParquetCursor::FastKind::kBlob:
        ResultBytes(ctx, static_cast<const ByteArray*>(f.values)[r], false);
        return SQLITE_OK;
      case ParquetCursor::FastKind::kSlow: break;
    }
  }
  return ColumnGeneral(cur, ctx, col);
}

int ColumnGeneral(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
  if (IsWriteTable(cur->pVtab)) return W().xColumn(cur, ctx, col);
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  if (c->sorted_output) return SortedColumn(c, ctx, col);
  ParquetTable* t = c->table;
  if (col == t->filename_column) {
    const std::string& p = c->data->files[c->file_index].reader->path();
    sqlite3_result_text(ctx, p.data(), static_cast<int>(p.size()), SQLITE_TRANSIENT);
    return SQLITE_OK;
  }
  if (col == t->file_row_number_column) {
    if (!EnsureLoaded(c)) return SQLITE_ERROR;
    sqlite3_result_int64(ctx, CurrentFileRow(c));
    return SQLITE_OK;
  }
  if (t->IsPartitionColumn(col)) {
    ResultValue(ctx, t->partition_values[c->file_index][static_cast<size_t>(col - t->first_partition_column)]);
    return SQLITE_OK;
  }
  int slot = col >= 0 && col < t->num_fields ? c->slot_of_column[static_cast<size_t>(col)] : -1;
  if (slot < 0) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  if (!EnsureLoaded(c)) return SQLITE_ERROR;
  const TableScanner::NumberColumn& numbers = c->numbers[static_cast<size_t>(slot)];
  if (numbers.kind != TableScanner::NumberColumn::Kind::kNone) {
    // Plain numbers straight from the batch (the common case of a full scan).
    const int64_t k = ValueSlot(c->row_in_batch, numbers.row_map, numbers.value_index);
    if (k < 0) {
      sqlite3_result_null(ctx);
      return SQLITE_OK;
    }
    using K = TableScanner::NumberColumn::Kind;
    const bool as_real = (*c->converted)[static_cast<size_t>(col)];  // INTEGER widened to REAL
    switch (numbers.kind) {
      case K::kInt32: {
        const int32_t v = static_cast<const int32_t*>(numbers.values)[k];
        if (as_real) sqlite3_result_double(ctx, v); else sqlite3_result_int64(ctx, v);
        break;
      }
      case K::kInt64: {
        const int64_t v = static_cast<const int64_t*>(numbers.values)[k];
        if (as_real) sqlite3_result_double(ctx, static_cast<double>(v)); else sqlite3_result_int64(ctx, v);
        break;
      }
      case K::kFloat: sqlite3_result_double(ctx, static_cast<const float*>(numbers.values)[k]); break;
      case K::kDouble: sqlite3_result_double(ctx, static_cast<const double*>(numbers.values)[k]); break;
      case K::kNone: break;
    }
    return SQLITE_OK;
  }
  const TableScanner::BytesColumn& bytes = c->bytes[static_cast<size_t>(slot)];
  if (bytes.values) {
    const int64_t k = ValueSlot(c->row_in_batch, bytes.row_map, bytes.value_index);
    if (k < 0) {
      sqlite3_result_null(ctx);
      return SQLITE_OK;
    }
    ResultBytes(ctx, bytes.values[k], bytes.text);
    return SQLITE_OK;
  }
  const Cell cell = c->scanner->GetCell(slot, c->row_in_batch, &c->scratch);
  if (cell.type == CellType::kInteger && (*c->converted)[static_cast<size_t>(col)]) {
    // A column widened to REAL (union_by_name) that this file stores as INTEGER.
    sqlite3_result_double(ctx, static_cast<double>(cell.i));
  } else {
    ResultCell(ctx, cell);
  }
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* cur, sqlite_int64* rowid) {
  if (IsWriteTable(cur->pVtab)) return W().xRowid(cur, rowid);
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  if (c->sorted_output) {
    *rowid = c->sorted->OriginAt(c->row_in_batch).rowid;
    return SQLITE_OK;
  }
  if (!EnsureLoaded(c)) return SQLITE_ERROR;
  *rowid = c->data->files[c->file_index].first_row + CurrentFileRow(c);
  return SQLITE_OK;
}

// The callbacks only a writable table has; a read table refuses changes (read-only).
int Update(sqlite3_vtab* vtab, int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
  if (IsWriteTable(vtab)) return W().xUpdate(vtab, argc, argv, rowid);
  SetVtabError(vtab, Status::InvalidArgument("parquet table is read-only; create it with schema=... to write"));
  return SQLITE_READONLY;
}
int Begin(sqlite3_vtab* vtab) { return IsWriteTable(vtab) && W().xBegin ? W().xBegin(vtab) : SQLITE_OK; }
int Sync(sqlite3_vtab* vtab) { return IsWriteTable(vtab) && W().xSync ? W().xSync(vtab) : SQLITE_OK; }
int Commit(sqlite3_vtab* vtab) { return IsWriteTable(vtab) && W().xCommit ? W().xCommit(vtab) : SQLITE_OK; }
int Rollback(sqlite3_vtab* vtab) {
  return IsWriteTable(vtab) && W().xRollback ? W().xRollback(vtab) : SQLITE_OK;
}

int SavepointF(sqlite3_vtab* v, int i) { return IsWriteTable(v) ? W().xSavepoint(v, i) : SQLITE_OK; }
int ReleaseF(sqlite3_vtab* v, int i) { return IsWriteTable(v) ? W().xRelease(v, i) : SQLITE_OK; }
int RollbackToF(sqlite3_vtab* v, int i) { return IsWriteTable(v) ? W().xRollbackTo(v, i) : SQLITE_OK; }
sqlite3_module kParquetModule = {
    /* iVersion */ 3,
    /* xCreate */ Connect,
    /* xConnect */ Connect,
    /* xBestIndex */ BestIndex,
    /* xDisconnect */ Disconnect,
    /* xDestroy */ Destroy,
    /* xOpen */ Open,
    /* xClose */ Close,
    /* xFilter */ Filter,
    /* xNext */ Next,
    /* xEof */ Eof,
    /* xColumn */ Column,
    /* xRowid */ Rowid,
    /* xUpdate */ Update,
    /* xBegin */ Begin,
    /* xSync */ Sync,
    /* xCommit */ Commit,
    /* xRollback */ Rollback,
    /* xFindFunction */ nullptr,
    /* xRename */ nullptr,
    /* xSavepoint */ SavepointF,
    /* xRelease */ ReleaseF,
    /* xRollbackTo */ RollbackToF,
    /* xShadowName */ nullptr,
};

// ---------------------------------------------------------------------------------------------------
// Whether this SQLite library's LIMIT/OFFSET constraints can be applied here.
//
// SQLite offers LIMIT and OFFSET to xBestIndex only when every WHERE term is offered too, so a table
// that applies every offered term exactly may apply OFFSET (and LIMIT) itself. Some releases (3.40
// among them) break that rule for a term comparing a column with an expression on the same table
// (`a = b`): xBestIndex never sees the term, yet it is offered LIMIT and OFFSET, and skipping
// OFFSET rows here would drop rows before SQLite filters them; they also offer a compound SELECT's
// OFFSET to each of its arms. So once per connection a probe table plans such queries and reports
// whether LIMIT/OFFSET came along.

struct LimitProbeTable {
  sqlite3_vtab base;  // must come first
  bool* offered = nullptr;  // set when xBestIndex sees LIMIT or OFFSET
};

int ProbeConnect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  return Guarded(nullptr, [&]() -> int {
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(a, b)");
    if (rc != SQLITE_OK) return rc;
    auto table = std::make_unique<LimitProbeTable>();
    std::memset(&table->base, 0, sizeof(table->base));
    table->offered = static_cast<bool*>(aux);
    *out = &table.release()->base;
    return SQLITE_OK;
  });
}
int ProbeDisconnect(sqlite3_vtab* vtab) {
  delete reinterpret_cast<LimitProbeTable*>(vtab);
  return SQLITE_OK;
}
int ProbeBestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  for (int i = 0; i < info->nConstraint; ++i) {
    int op = info->aConstraint[i].op;
    if (op == SQLITE_INDEX_CONSTRAINT_LIMIT || op == SQLITE_INDEX_CONSTRAINT_OFFSET) {
      *reinterpret_cast<LimitProbeTable*>(vtab)->offered = true;
    }
  }
  info->estimatedCost = 1;
  return SQLITE_OK;
}
// The probe's statement is only prepared, never run.
int ProbeOpen(sqlite3_vtab*, sqlite3_vtab_cursor**) { return SQLITE_ERROR; }
int ProbeClose(sqlite3_vtab_cursor*) { return SQLITE_OK; }
int ProbeFilter(sqlite3_vtab_cursor*, int, const char*, int, sqlite3_value**) { return SQLITE_ERROR; }
int ProbeNext(sqlite3_vtab_cursor*) { return SQLITE_ERROR; }
int ProbeEof(sqlite3_vtab_cursor*) { return 1; }
int ProbeColumn(sqlite3_vtab_cursor*, sqlite3_context*, int) { return SQLITE_ERROR; }
int ProbeRowid(sqlite3_vtab_cursor*, sqlite_int64*) { return SQLITE_ERROR; }

bool LimitOffsetCanBeApplied(sqlite3* db) {
  static const sqlite3_module kProbe = {
      /* iVersion */ 0,           /* xCreate */ nullptr,  /* xConnect */ ProbeConnect,
      /* xBestIndex */ ProbeBestIndex, /* xDisconnect */ ProbeDisconnect, /* xDestroy */ ProbeDisconnect,
      /* xOpen */ ProbeOpen,      /* xClose */ ProbeClose, /* xFilter */ ProbeFilter,
      /* xNext */ ProbeNext,      /* xEof */ ProbeEof,     /* xColumn */ ProbeColumn,
      /* xRowid */ ProbeRowid,
  };
  const char* name = "parquet_limit_offset_probe";
  // Neither query may offer LIMIT or OFFSET: the first has a term xBestIndex does not see, and in
  // the second the OFFSET belongs to the whole compound, not to each arm.
  const char* queries[] = {
      "SELECT a FROM parquet_limit_offset_probe WHERE a = b LIMIT 1 OFFSET 1",
      "SELECT a FROM parquet_limit_offset_probe UNION ALL SELECT a FROM parquet_limit_offset_probe LIMIT 1 OFFSET 1",
  };
  bool offered = false;
  if (sqlite3_create_module_v2(db, name, &kProbe, &offered, nullptr) != SQLITE_OK) return false;
  bool ok = true;
  for (const char* sql : queries) {
    sqlite3_stmt* stmt = nullptr;
    ok = ok && sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK;
    sqlite3_finalize(stmt);
  }
  sqlite3_create_module_v2(db, name, nullptr, nullptr, nullptr);  // removes the probe module
  return ok && !offered;
}

}  // namespace

int RegisterParquetModule(sqlite3* db, std::shared_ptr<const crypto::KeyRegistry> keys) {
  // One state per connection, handed to every table it connects (Connect's aux).
  auto state = std::make_unique<ModuleState>();
  state->keys = std::move(keys);
  state->registry = std::make_shared<ScanStatsRegistry>();
  state->limit_offset_exact = LimitOffsetCanBeApplied(db);
  std::shared_ptr<ScanStatsRegistry> registry = state->registry;
  // On failure sqlite3_create_module_v2 calls the destructor itself.
  int rc = sqlite3_create_module_v2(db, "parquet", &kParquetModule, state.release(),
                                    [](void* p) { std::unique_ptr<ModuleState>(static_cast<ModuleState*>(p)); });
  if (rc != SQLITE_OK) return rc;
  return RegisterScanStatsFunction(db, std::move(registry));
}

}  // namespace pq::ext
