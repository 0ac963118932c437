// The `parquet` table's cursor (parquet_vtab.cc is the module, parquet_vtab_int.h what the files
// share): xFilter turns the plan's terms and their arguments into a ScanSetup, plans each file of
// the scan's snapshot (OpenFile: filename and partition terms, row positions, OFFSET/LIMIT, then the
// engine's pruning) and hands its rows to SQLite in batches or undecoded windows; a sorted scan
// reads every row into SortedRows first and hands them out in order.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "ext/eponymous_vtab.h"
#include "ext/parquet_vtab_int.h"
#include "ext/remote_options.h"
#include "ext/sorted_scan.h"
#include "format/predicate/scan_plan.h"
#include "format/reader/table_scanner.h"
#include "format/remote/remote_file.h"

namespace pq::ext::parquet_vtab {

namespace {

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
  std::vector<PredicateTerm> shredded_terms;   // field = index in ParquetTable::shredded; prune only
  // Per shredded term: its operand may have numeric affinity (a column of another table, a CAST),
  // which turns the column's TEXT values that look like numbers into numbers: it prunes no string
  // field.
  std::vector<bool> shredded_numeric_operand;
  RowRanges rowids;     // dataset rowids the rowid terms allow
  RowRanges file_rows;  // file row numbers the file_row_number terms allow
  int64_t skip = 0;       // consumed OFFSET: rows still to skip
  int64_t take = -1;      // exact LIMIT: rows still to read; -1 when unbounded
  int64_t batch_rows = kBatchRows;
};

// Bytes charged to a table's MemoryBudget (max_memory) for as long as their holder lives.
class BudgetCharge {
 public:
  BudgetCharge() = default;
  BudgetCharge(const BudgetCharge&) = delete;
  BudgetCharge& operator=(const BudgetCharge&) = delete;
  ~BudgetCharge() {
    if (budget_) budget_->Release(bytes_);
  }
  // Makes the charge `bytes` (to `budget`, replacing an earlier budget); OutOfMemory, with the
  // charge unchanged, when the budget refuses.
  Status Set(const std::shared_ptr<MemoryBudget>& budget, int64_t bytes, std::string_view what) {
    if (budget != budget_) {
      if (budget_) budget_->Release(bytes_);
      budget_ = budget;
      bytes_ = 0;
    }
    if (!budget_) return Status::OK();
    if (bytes > bytes_) PQ_RETURN_IF_ERROR(budget_->Reserve(bytes - bytes_, what));
    if (bytes < bytes_) budget_->Release(bytes_ - bytes);
    bytes_ = bytes;
    return Status::OK();
  }

 private:
  std::shared_ptr<MemoryBudget> budget_;
  int64_t bytes_ = 0;
};

// xColumn charges SQLite's copy of a TEXT or BLOB longer than this to max_memory (HandOver).
constexpr int64_t kChargedHandOver = int64_t{1} << 20;

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
  // array of plain numbers or of byte arrays handed over as TEXT or BLOB (no row map; value_index
  // maps a row to its value slot, -1 for NULL, when the batch has NULLs), kConvert (a column whose
  // values the converter changes: the general path converts the whole batch at its first value,
  // into `converted_values`, and makes it fast), or kSlow. Valid only while fast_ready (a batch is
  // loaded); every other case takes the general path.
  // kCString: converted text that never holds a NUL, each value followed by one
  // (TableScanner::ConvertedColumn::terminated).
  // kRealBits: doubles held as their bits in uint64_t words (a sorted scan's ValueColumn);
  // kSortedKey: a sorted scan's key when it is a TEXT without NUL bytes (values is the SortedRows);
  // kRunKey: a sorted scan's key when every row of the run has the same, run_key.
  enum class FastKind : uint8_t {
    kSlow, kConvert, kInt32, kInt64, kFloat, kDouble, kRealBits, kText, kCString, kBlob, kSortedKey, kRunKey
  };
  struct FastColumn {
    FastKind kind = FastKind::kSlow;
    const void* values = nullptr;
    const int32_t* value_index = nullptr;
  };
  std::vector<FastColumn> fast;
  std::vector<TableScanner::ConvertedStorage> converted_values;  // per table column (kConvert)
  bool fast_ready = false;
  bool eof = true;
  std::string scratch;
  // SQLite's limit on the length of a value (SQLITE_LIMIT_LENGTH) at xFilter, and the length past
  // which xColumn hands a TEXT or BLOB over by the general path, which checks it (HandOver): the
  // smaller of that limit and kChargedHandOver.
  int64_t max_value_bytes = INT64_MAX;
  int64_t checked_value_bytes = kChargedHandOver;
  // Per table column, SQLite's copy of the longest value (of more than kChargedHandOver bytes)
  // handed over: the register it went to keeps a buffer that large, so it stays charged to the
  // table's max_memory for as long as the cursor lives.
  std::vector<pq::BudgetCharge> handed;
  // A sorted scan (IndexPlan::sort_column): xFilter reads every row into `sorted` (ReadSorted),
  // then hands them out in order, a run at a time (LoadSortedRun): the current row is then the
  // (sorted_base + row_in_batch)-th of the order, and batch_rows the run's rows. Only the slow
  // paths (NextBatchOrWrite, ColumnGeneral, Rowid) look at this.
  bool sorting = false;        // reading rows into `sorted`: files are read eagerly (no windows)
  bool sorted_output = false;  // handing out `sorted`'s rows
  std::unique_ptr<SortedRows> sorted;
  int sort_key = -1;                // the table column ordered by
  std::vector<int> sorted_column;   // table column -> column of `sorted`, kSortKey, or -1 (not used: NULL)
  std::vector<int> sorted_sources;  // column of `sorted` -> table column
  int64_t sorted_base = 0;          // the order's row of the run's first row
  Cell run_key;                     // the run's key when SortedRows::RunsOfOneKey()
  const char* run_key_c_string = nullptr;  // the same NUL-terminated (SortedRows::KeyAt), or null
  std::vector<const uint64_t*> sorted_words;  // LoadSortedRun's, per column of `sorted`
  std::vector<CellType> sorted_types;
  BudgetCharge sort_charge;         // `sorted`'s bytes, charged to the table's max_memory
  uint64_t scan_id = 0;      // this cursor's scan, to publish its counters to the table's record
  ScanCounters counters;     // files done, and the planning of the current one
  // Remote files (RandomAccessFile::remote). The requests this scan sent: counted on the calling
  // thread around the cursor's calls that read (ScopedRequestTally), so that another cursor's
  // requests in between are not.
  remote::RequestTally tally;
  // Per file of `data`: true once the scan knows the file still holds the version its footer,
  // page indexes and Bloom filters came from (CheckFiles). Local files are always checked (their
  // stat(2) at xFilter is the check).
  std::vector<uint8_t> checked;
  std::vector<uint64_t> confirmations_at_start;  // per file: RandomAccessFile::confirmations() at xFilter
  size_t checked_below = 0;  // every file before this index is checked
  // Whether the connection was interrupted (sqlite3_interrupt, Ctrl-C in the shell), asked where
  // the scan reads on without returning to SQLite, which would see the interrupt only after it:
  // a sorted scan reads every row in xFilter, and batches or files no row passes go by within one
  // call (CheckInterrupt, ScanRequest::interrupted). Empty without a connection.
  std::function<bool()> interrupted;
};

// Interrupted, naming the table, once the connection was interrupted.
Status CheckInterrupt(const ParquetCursor* c) {
  if (c->interrupted && c->interrupted()) {
    return Status::Interrupted("parquet table '" + c->table->stats->table + "': interrupted");
  }
  return Status::OK();
}

// Copies the cursor's counters to the table's record, unless a later scan has replaced this one.
void PublishCounters(ParquetCursor* c) {
  ScanRecord& record = *c->table->stats;
  if (record.scan_id != c->scan_id) return;
  record.counters = c->counters;
  if (c->scanner) record.counters += c->scanner->stats();
  // Rows SQLite stepped over in windows went to it (produced), though the scanner skipped them.
  record.counters.rows_produced += c->lazy_rows;
  record.counters.rows_skipped -= c->lazy_rows;
  record.counters.requests = c->tally.requests;
  record.counters.bytes_fetched = c->tally.bytes;
}

// Notes, at xFilter, which files this scan must check (remote ones) and where their confirmations
// stand. A file opened again just now (a change was seen) is checked by that opening.
void StartChecks(ParquetCursor* c, const DatasetSnapshot* previous) {
  const DatasetSnapshot& d = *c->data;
  c->checked.assign(d.files.size(), 1);
  c->confirmations_at_start.assign(d.files.size(), 0);
  c->checked_below = 0;
  for (size_t i = 0; i < d.files.size(); ++i) {
    const RandomAccessFile& f = d.files[i].reader->file();
    if (!f.remote()) continue;
    const bool reopened = previous != nullptr && previous != &d && i < previous->files.size() &&
                          previous->files[i].reader != d.files[i].reader;
    c->checked[i] = reopened;
    c->confirmations_at_start[i] = f.confirmations();
  }
}

// Makes sure every file up to `last` (inclusive) is checked: a file that answered a request since
// xFilter was confirmed by the answer (range answers are checked against the version opened);
// the others are asked, together (one HEAD each, in parallel). IOError naming a file that changed:
// the scan fails rather than mix versions, and the next scan reads that file again.
Status CheckFiles(ParquetCursor* c, size_t last) {
  const DatasetSnapshot& d = *c->data;
  last = std::min(last, d.files.size() - 1);
  if (d.files.empty() || c->checked_below > last) return Status::OK();
  std::vector<const RandomAccessFile*> ask;
  std::vector<size_t> asked;
  for (size_t i = c->checked_below; i <= last; ++i) {
    if (c->checked[i]) continue;
    const RandomAccessFile& f = d.files[i].reader->file();
    if (f.confirmations() > c->confirmations_at_start[i]) {
      c->checked[i] = 1;
      continue;
    }
    ask.push_back(&f);
    asked.push_back(i);
  }
  if (!ask.empty()) PQ_RETURN_IF_ERROR(RandomAccessFile::Revalidate(ask));
  for (size_t i : asked) c->checked[i] = 1;
  c->checked_below = last + 1;
  return Status::OK();
}

}  // namespace

int Open(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
  if (IsWriteTable(vtab)) return W().xOpen(vtab, out);
  return Guarded(vtab, [&]() -> int {
    auto cursor = std::make_unique<ParquetCursor>();
    std::memset(&cursor->base, 0, sizeof(cursor->base));
    cursor->table = reinterpret_cast<ParquetTable*>(vtab);
    if (cursor->table->db != nullptr) cursor->interrupted = PeriodicInterruptPoller(cursor->table->db);
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

namespace {

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

// A LIMIT or OFFSET value as SQLite uses it (an integer; SQLite has already refused others).
int64_t CountValue(sqlite3_value* v) {
  const NumericValue n = NumericAffinityOf(v);
  if (n.type == SQLITE_INTEGER) return n.i;
  if (n.type != SQLITE_FLOAT || std::isnan(n.d)) return 0;
  // Saturating, as SQLite converts a REAL to an INTEGER.
  if (n.d <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  if (n.d >= 9223372036854775808.0) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(n.d);
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
      if (NumericAffinityOf(arg).type == SQLITE_TEXT) {
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
  s.rowids = RowRanges::Of(0, d.total_rows);
  s.file_rows = RowRanges::Of(0, d.max_file_rows);
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
      RowRanges allowed;
      bool is_list = false;
      if (term.op == TermOp::kIn) {
        std::vector<int64_t> points;
        PQ_ASSIGN_OR_RETURN(is_list, ForEachInValue(arg, [&](sqlite3_value* v) {
          RowRanges point = PositionsSatisfying(TermOp::kEq, v, domain);
          if (!point.empty()) points.push_back(point.ranges()[0].begin);
        }));
        allowed = RowRanges::Points(std::move(points));
      }
      if (!is_list) allowed = PositionsSatisfying(term.op == TermOp::kIn ? TermOp::kEq : term.op, arg, domain);
      RowRanges& target = rowid ? s.rowids : s.file_rows;
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
    if (t.IsShreddedColumn(term.column)) {
      // The column is declared BLOB, so a literal compares with its values as they are. But an
      // operand with INTEGER, REAL or NUMERIC affinity (a column of another table, a CAST) makes
      // SQLite apply that affinity to both sides: `"v.a" = n.i` matches the TEXT '5' where n.i is 5.
      // A number may have it; so may TEXT that is no literal, though an equality with TEXT is the
      // same either way (a value that looks like a number then equals neither).
      const bool all_text = std::all_of(p.values.begin(), p.values.end(), [](const SqlValue& v) {
        return v.type == CellType::kText || v.type == CellType::kNull;
      });
      const bool equality = p.op == PredicateOp::kEq || p.op == PredicateOp::kIs || p.op == PredicateOp::kIn;
      const bool null_test = p.op == PredicateOp::kIsNull || p.op == PredicateOp::kIsNotNull;
      s.shredded_numeric_operand.push_back(!null_test && (!all_text || (!constant && !equality)));
      p.field = term.column - t.first_shredded_column;
      s.shredded_terms.push_back(std::move(p));
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

// The terms a shredded string field prunes by for `term`, on a SQLite whose `->>` ends a string at its
// first NUL (JsonStringsEndAtNul: 3.40): the hidden column then holds the stored string s cut there,
// t(s), a prefix of s, while the field's statistics, dictionary and Bloom filter hold s. For a TEXT c
// without a NUL, t(s) > c, t(s) >= c and t(s) < c hold only where s does (the term prunes as it is),
// but t(s) = c and t(s) <= c hold also for s = c || NUL || ..., which sorts below c || x'01': `= c`
// (and IS) prunes as c <= s < c || x'01', `<= c` as s < c || x'01', and IN as the range from its least
// value to its greatest. IS NULL and IS NOT NULL prune as they are; other terms, and terms with a
// literal that is no TEXT or holds a NUL, prune nothing.
std::vector<PredicateTerm> TermsForCutStrings(const PredicateTerm& term) {
  using Op = PredicateOp;
  if (term.op == Op::kIsNull || term.op == Op::kIsNotNull) return {term};
  if (term.values.empty()) return {};
  for (const SqlValue& v : term.values) {
    if (v.type != CellType::kText || v.bytes.find('\0') != std::string::npos) return {};
  }
  auto bound = [&term](Op op, std::string text) {
    PredicateTerm b;
    b.field = term.field;
    b.op = op;
    b.values = {SqlValue::Text(std::move(text))};
    return b;
  };
  switch (term.op) {
    case Op::kGt:
    case Op::kGe:
    case Op::kLt:
      return {term};
    case Op::kLe:
      return {bound(Op::kLt, term.values[0].bytes + '\x01')};
    case Op::kEq:
    case Op::kIs:
    case Op::kIn: {
      const auto [least, greatest] = std::minmax_element(
          term.values.begin(), term.values.end(), [](const SqlValue& a, const SqlValue& b) { return a.bytes < b.bytes; });
      return {bound(Op::kGe, least->bytes), bound(Op::kLt, greatest->bytes + '\x01')};
    }
    default:
      return {};
  }
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
  // Terms on shredded Variant fields prune by the file's typed_value column of the field, if it
  // has one whose statistics bound the values; they filter no rows. A file without the VARIANT
  // column has NULL there.
  std::vector<LeafTerm> leaf_terms;
  for (size_t j = 0; j < s.shredded_terms.size(); ++j) {
    const PredicateTerm& term = s.shredded_terms[j];
    const ShreddedColumn& column = t.shredded[static_cast<size_t>(term.field)];
    if (columns.field_of_column[static_cast<size_t>(column.variant_column)] < 0) {
      if (EvaluateTerm(Cell::Null(), term, Affinity::kBlob) == Match::kNo) return skip_file();
      continue;
    }
    std::optional<ShreddedField> shredded = ShreddedFieldIn(dataset_file, column);
    if (!shredded || !shredded->statistics_usable) continue;
    // Strings (BYTE_ARRAY) may turn into numbers under the operand's affinity; integers and
    // booleans stay what they are.
    const bool strings = file->schema().leaf(shredded->typed_leaf).physical_type == PhysicalType::kByteArray;
    if (s.shredded_numeric_operand[j] && strings) continue;
    for (PredicateTerm& pruning : strings && JsonStringsEndAtNul() ? TermsForCutStrings(term)
                                                                   : std::vector<PredicateTerm>{term}) {
      LeafTerm& leaf = leaf_terms.emplace_back();
      leaf.term = std::move(pruning);
      leaf.leaf = shredded->typed_leaf;
      leaf.value_leaf = shredded->value_leaf;
      for (const ShreddedField::Enclosing& e : shredded->enclosing) leaf.enclosing.push_back({e.value_leaf, e.typed_null_level});
      leaf.affinity = Affinity::kBlob;  // declared BLOB: no affinity
    }
  }
  RowRanges wanted = s.rowids.Slice(first, first + rows).Intersect(s.file_rows.Slice(0, rows));
  if (s.skip > 0) {
    int64_t n = wanted.row_count();
    wanted = wanted.DropFirst(s.skip);
    s.skip -= std::min(s.skip, n);
  }
  if (s.take >= 0) {
    wanted = wanted.KeepFirst(s.take);
    s.take -= wanted.row_count();
  }
  if (wanted.empty()) return skip_file();

  // Row groups holding wanted rows, with those rows (row numbers within the row group).
  const std::vector<RowGroup>& groups = file->metadata().row_groups;
  k.row_groups_considered += static_cast<int64_t>(groups.size());
  std::vector<int> candidates;
  std::vector<RowRanges> candidate_rows(groups.size());
  int64_t start = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    RowRanges part = wanted.Slice(start, start + groups[g].num_rows);
    start += groups[g].num_rows;
    if (part.empty()) {
      ++k.row_groups_skipped_by_row_position;
      continue;
    }
    candidates.push_back(static_cast<int>(g));
    candidate_rows[g] = std::move(part);
  }
  ScanPlan plan;
  if (predicate.empty() && leaf_terms.empty()) {
    for (int g : candidates) plan.row_groups.push_back({g, std::move(candidate_rows[static_cast<size_t>(g)])});
  } else {
    ScanCounters prune;
    PQ_ASSIGN_OR_RETURN(ScanPlan pruned, PlanScan(*file, predicate, columns.field_affinity, t.config.values,
                                                  candidates, &prune, leaf_terms));
    k.AddPruning(prune);
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
  request.interrupted = c->interrupted;
  request.max_value_bytes = c->max_value_bytes;
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
    if (b.values && !b.row_map) {
      c->fast[col].kind = !b.text ? F::kBlob : b.terminated ? F::kCString : F::kText;
      c->fast[col].values = b.values;
      c->fast[col].value_index = b.value_index;
      continue;
    }
    if ((*c->converted)[col]) continue;
    if (n.kind == K::kNone && !b.values) {
      c->fast[col].kind = F::kConvert;
      continue;
    }
    if (n.kind == K::kNone || n.row_map) continue;
    ParquetCursor::FastColumn& f = c->fast[col];
    f.values = n.values;
    f.value_index = n.value_index;
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
  PQ_RETURN_IF_ERROR(CheckFiles(c, c->file_index));  // before its values are handed out
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
        PQ_RETURN_IF_ERROR(CheckFiles(c, c->file_index));  // before its rows are handed out
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
      c->counters += c->scanner->stats();
      c->counters.rows_produced += c->lazy_rows;
      c->counters.rows_skipped -= c->lazy_rows;
      c->lazy_rows = 0;
      c->scanner.reset();
      c->fast_ready = false;
      // A file whose windows went by without a column asked for (count(*)) read nothing: checked
      // before the scan leaves it.
      PQ_RETURN_IF_ERROR(CheckFiles(c, c->file_index));
      ++c->file_index;
    }
    if (c->file_index >= d.files.size() || c->setup.no_rows || c->setup.take == 0) {
      // Files skipped whole on their cached statistics are checked before the scan ends.
      if (!d.files.empty()) PQ_RETURN_IF_ERROR(CheckFiles(c, d.files.size() - 1));
      c->eof = true;
      PublishCounters(c);
      return Status::OK();
    }
    PQ_RETURN_IF_ERROR(CheckInterrupt(c));  // files whose rows all go pass here one after another
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
// the plan sort here was at most sort_memory) and charges it to its max_memory. Value columns
// partitioned by key that would pass either limit leave their partitions first (while rows are
// still appended): a few thousand rows of 256 keys take a few MiB there, and 8 bytes a row out of
// them.
Status ChargeSortedRows(ParquetCursor* c) {
  const ParquetTable& t = *c->table;
  const int64_t limit = 2 * t.config.sort_memory;
  auto charge = [&]() -> Status {
    const int64_t bytes = c->sorted->MemoryBytes();
    if (bytes > limit) {
      return Status::OutOfMemory(
          "parquet table '" + t.stats->table + "': ordering its rows by '" +
          t.columns[static_cast<size_t>(c->sort_key)].name + "' (ORDER BY, GROUP BY or DISTINCT) needs more than " +
          std::to_string(limit >> 20) + " MiB, twice the table option sort_memory (" +
          std::to_string(t.config.sort_memory >> 20) +
          " MiB); create the table with a larger sort_memory, or with sort_memory=0 to let SQLite sort");
    }
    return c->sort_charge.Set(t.config.reader.memory, bytes, "holding rows to order them");
  };
  Status s = charge();
  if (!s.ok() && c->sorting && c->sorted->partitioned()) {
    c->sorted->Departition();
    s = charge();
  }
  return s;
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
  if constexpr (std::is_same_v<Target, SortedRows::ValueSink>) {
    if (numbers.row_map == nullptr && numbers.value_index == nullptr) {  // every row, no NULL
      out.AppendNumbers(values, static_cast<size_t>(n), make(T{1}).type == CellType::kReal);
      return;
    }
  }
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
  const TableScanner::BytesColumn bytes = c->scanner->Bytes(slot);
  if (bytes.values != nullptr) {
    // The bytes are the batch's (a dictionary's or a page's), unchanged until the next batch.
    for (int64_t r = 0; r < n; ++r) {
      const int64_t k = ValueSlot(r, bytes.row_map, bytes.value_index);
      if (k < 0) {
        out.Append(Cell::Null());
        continue;
      }
      const ByteArray& v = bytes.values[k];
      const std::string_view view(reinterpret_cast<const char*>(v.ptr), v.len);
      const Cell cell = bytes.text ? Cell::Text(view) : Cell::Blob(view);
      if constexpr (std::is_same_v<Target, KeyColumn>) {
        if (v.ptr != nullptr) {
          out.AppendAtStableAddress(cell);
          continue;
        }
      }
      out.Append(cell);
    }
    return;
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
  for (size_t k = 0; k < c->sorted_sources.size(); ++k) {
    SortedRows::ValueSink values = rows.Values(k);
    AppendColumn(c, c->sorted_sources[k], n, values);
  }
  return ChargeSortedRows(c);
}

// Makes the sorted rows from the i-th of the order on the cursor's batch, as far as every value
// column of numbers of one class holds them at consecutive addresses and, when SortedRows::
// RunsOfOneKey, they have one key (SortedRows::NumberRun): those columns are handed over as a
// batch's arrays are, the key as one value for the run; the rest by SortedColumn.
void LoadSortedRun(ParquetCursor* c, int64_t i) {
  const size_t columns = c->sorted_sources.size();
  c->sorted_words.resize(columns);
  c->sorted_types.resize(columns);
  const size_t run = c->sorted->NumberRun(static_cast<size_t>(i), c->sorted_words.data(), c->sorted_types.data());
  for (size_t k = 0; k < columns; ++k) {
    ParquetCursor::FastColumn& f = c->fast[static_cast<size_t>(c->sorted_sources[k])];
    const uint64_t* words = c->sorted_words[k];
    if (words == nullptr) {
      f = ParquetCursor::FastColumn();
      continue;
    }
    f.kind = c->sorted_types[k] == CellType::kInteger ? ParquetCursor::FastKind::kInt64
                                                       : ParquetCursor::FastKind::kRealBits;
    f.values = words;  // INTEGERs as int64_t: the same words, read as their signed type
  }
  ParquetCursor::FastColumn& key = c->fast[static_cast<size_t>(c->sort_key)];
  if (c->sorted->RunsOfOneKey()) {
    c->run_key = c->sorted->KeyAt(static_cast<size_t>(i), &c->run_key_c_string);
    key = {ParquetCursor::FastKind::kRunKey, nullptr, nullptr};
  } else {
    key = {ParquetCursor::FastKind::kSortedKey, c->sorted.get(), nullptr};
  }
  c->sorted_base = i;
  c->batch_rows = static_cast<int64_t>(run);
  c->row_in_batch = 0;
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
    PQ_RETURN_IF_ERROR(CheckInterrupt(c));
    PQ_RETURN_IF_ERROR(AdvanceToRows(c));
  }
  c->sorting = false;
  c->sorted->Sort(plan.sort_descending);
  PQ_RETURN_IF_ERROR(ChargeSortedRows(c));
  c->sorted_output = true;
  c->fast.assign(static_cast<size_t>(t.num_fields), ParquetCursor::FastColumn());
  c->fast_ready = true;
  c->loaded = true;
  c->sorted_base = 0;
  c->batch_rows = 0;
  c->row_in_batch = 0;
  c->eof = c->sorted->rows() == 0;
  if (!c->eof) LoadSortedRun(c, 0);
  return Status::OK();
}

// xColumn of the hidden column of a shredded Variant field: `json ->> '$.path'`, where `json` is
// the row's value of its VARIANT column, as SQLite's own `->>` gives it (so the two forms cannot
// disagree). A NULL VARIANT gives NULL, as `->>` does.
int ResultShredded(ParquetCursor* c, sqlite3_context* ctx, const ShreddedColumn& column, const Cell& json) {
  if (json.type != CellType::kText) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  ParquetTable& t = *c->table;
  if (t.extract == nullptr) {
    const int rc = sqlite3_prepare_v2(t.db, "SELECT ?1 ->> ?2", -1, &t.extract, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_result_error(ctx, sqlite3_errmsg(t.db), -1);
      return rc;
    }
  }
  sqlite3_stmt* stmt = t.extract;
  sqlite3_bind_text64(stmt, 1, json.bytes.data() ? json.bytes.data() : "", json.bytes.size(), SQLITE_STATIC,
                      SQLITE_UTF8);
  sqlite3_bind_text(stmt, 2, column.json_path.c_str(), static_cast<int>(column.json_path.size()), SQLITE_STATIC);
  int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    sqlite3_result_value(ctx, sqlite3_column_value(stmt, 0));
    rc = SQLITE_OK;
  }
  const int reset = sqlite3_reset(stmt);
  if (rc != SQLITE_OK) {
    rc = reset != SQLITE_OK ? reset : SQLITE_ERROR;
    const std::string message = "column '" + column.name + "': " + sqlite3_errmsg(t.db);
    sqlite3_result_error(ctx, message.c_str(), -1);
  }
  sqlite3_clear_bindings(stmt);
  return rc;
}

bool HandOver(ParquetCursor* c, int col, int64_t bytes, size_t file, int64_t file_row);

// xColumn of a sorted scan's current row.
int SortedColumn(ParquetCursor* c, sqlite3_context* ctx, int col) {
  const ParquetTable& t = *c->table;
  const SortedRows& rows = *c->sorted;
  const auto row = static_cast<size_t>(c->sorted_base + c->row_in_batch);
  if (t.IsShreddedColumn(col)) {
    const ShreddedColumn& column = t.Shredded(col);
    const int k = c->sorted_column[static_cast<size_t>(column.variant_column)];
    if (k == kSortKey) return ResultShredded(c, ctx, column, rows.KeyAt(row));
    if (k >= 0) return ResultShredded(c, ctx, column, rows.ValueAt(static_cast<size_t>(k), row));
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  if (col >= 0 && col < t.num_fields) {
    const int k = c->sorted_column[static_cast<size_t>(col)];
    if (k < 0 && k != kSortKey) {
      sqlite3_result_null(ctx);
      return SQLITE_OK;
    }
    // Keys kept as C strings go by xColumn's kSortedKey unless they are long.
    const Cell cell = k == kSortKey ? rows.KeyAt(row) : rows.ValueAt(static_cast<size_t>(k), row);
    if (cell.type == CellType::kText || cell.type == CellType::kBlob) {
      const RowOrigin origin = rows.OriginAt(static_cast<int64_t>(row));
      const int64_t file_row = origin.rowid - c->data->files[origin.file].first_row;
      if (!HandOver(c, col, static_cast<int64_t>(cell.bytes.size()), origin.file, file_row)) return SQLITE_ERROR;
    }
    ResultCell(ctx, cell);
    return SQLITE_OK;
  }
  const RowOrigin origin = rows.OriginAt(static_cast<int64_t>(row));
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

}  // namespace

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
    const int limit = t->db != nullptr ? sqlite3_limit(t->db, SQLITE_LIMIT_LENGTH, -1) : -1;
    c->max_value_bytes = limit >= 0 ? limit : INT64_MAX;
    c->checked_value_bytes = std::min(c->max_value_bytes, kChargedHandOver);
    c->counters = ScanCounters();
    c->tally = remote::RequestTally();
    remote::ScopedRequestTally tally(&c->tally);
    c->scan_id = t->registry->NextScanId();
    t->stats->scan_id = c->scan_id;
    t->stats->counters = ScanCounters();
    std::optional<IndexPlan> plan = DecodeIndexPlan(idx_str ? idx_str : "");
    if (!plan) return SetVtabError(cur->pVtab, Status::InvalidArgument("internal error: bad plan '" +
                                                                       std::string(idx_str ? idx_str : "") + "'"));
    // Files changed on disk are read again. One that no longer reads or fits is an error; the table
    // keeps its old snapshot and tries again at the next scan. (A remote file is read again once a
    // request showed it changed; the scan checks the others as it goes: StartChecks.)
    std::shared_ptr<const DatasetSnapshot> previous = t->data;
    auto fresh = RefreshSnapshot(t->data, t->file_columns, t->chosen, t->config.reader, t->config.values,
                                 t->config.union_by_name);
    if (!fresh.ok()) return SetVtabError(cur->pVtab, fresh.status());
    t->data = std::move(fresh).value();
    c->data = t->data;
    StartChecks(c, previous.get());
    c->projected_columns.clear();
    auto used = [&plan](int col) { return ((plan->col_used >> std::min(col, 63)) & 1) != 0; };
    // A shredded field's hidden column is computed from its VARIANT column's JSON, so that is read.
    std::vector<bool> read(static_cast<size_t>(t->num_fields));
    for (size_t k = 0; k < t->shredded.size(); ++k) {
      if (!used(t->first_shredded_column + static_cast<int>(k))) continue;
      read[static_cast<size_t>(t->shredded[k].variant_column)] = true;
    }
    for (int f = 0; f < t->num_fields; ++f) {
      if (used(f) || read[static_cast<size_t>(f)]) c->projected_columns.push_back(f);
    }
    Status s = SetUpScan(c, *plan, idx_num, argc, argv);
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

namespace {

// Next's way past the end of a batch (and a write table's Next), out of line so that the common
// step stays a few instructions.
[[gnu::noinline]] int NextBatchOrWrite(sqlite3_vtab_cursor* cur) {
  if (IsWriteTable(cur->pVtab)) return W().xNext(cur);
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  if (c->sorted_output) {  // the last of the sorted rows, or of a run of them
    const int64_t next = c->sorted_base + c->batch_rows;
    if (next >= c->sorted->rows()) {
      c->eof = true;
    } else {
      LoadSortedRun(c, next);
    }
    return SQLITE_OK;
  }
  return Guarded(cur->pVtab, [&]() -> int {
    remote::ScopedRequestTally tally(&c->tally);
    Status s = AdvanceToRows(c);
    if (!s.ok()) {
      c->eof = true;
      return SetVtabError(cur->pVtab, s);
    }
    return SQLITE_OK;
  });
}

}  // namespace

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

namespace {

// Decodes the current window if it is one (LoadWindow); false after an error, set on the table.
bool EnsureLoaded(ParquetCursor* c) {
  if (c->loaded) return true;
  remote::ScopedRequestTally tally(&c->tally);
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
    ResultText(ctx, std::string_view(p, v.len));
  } else {
    sqlite3_result_blob64(ctx, p, v.len, SQLITE_TRANSIENT);
  }
}

// A kConvert column of the loaded batch (RefreshNumbers): converts the batch's values of the column
// once and turns it into a fast column. False when it is not one or its values do not convert
// uniformly (it is then left to the general path for this batch).
bool ConvertForFastPath(ParquetCursor* c, int col, int slot) {
  using F = ParquetCursor::FastKind;
  ParquetCursor::FastColumn& f = c->fast[static_cast<size_t>(col)];
  if (f.kind != F::kConvert) return false;
  if (c->converted_values.size() < c->fast.size()) c->converted_values.resize(c->fast.size());
  const TableScanner::ConvertedColumn v =
      c->scanner->ConvertBatch(slot, &c->converted_values[static_cast<size_t>(col)]);
  switch (v.type) {
    case CellType::kInteger: f.kind = F::kInt64; break;
    case CellType::kReal: f.kind = F::kDouble; break;
    case CellType::kText: f.kind = v.terminated ? F::kCString : F::kText; break;
    case CellType::kBlob: f.kind = F::kBlob; break;
    case CellType::kNull: f.kind = F::kSlow; return false;
  }
  f.values = v.values;
  f.value_index = v.value_index;
  return true;
}

// "path, row group g, column 'c', row r": where row `file_row` of file `file` of the scan is.
std::string ValueContext(const ParquetCursor* c, int col, size_t file, int64_t file_row) {
  const FileReader& reader = *c->data->files[file].reader;
  int row_group = 0;
  int64_t start = 0;
  for (const RowGroup& g : reader.metadata().row_groups) {
    if (file_row < start + g.num_rows) break;
    start += g.num_rows;
    ++row_group;
  }
  return reader.path() + ", row group " + std::to_string(row_group) + ", column '" +
         c->table->columns[static_cast<size_t>(col)].field_name + "', row " + std::to_string(file_row);
}

// Before xColumn hands SQLite a TEXT or BLOB of `bytes` bytes (table column `col`, row `file_row`
// of file `file`), which SQLite copies: one longer than SQLite takes (SQLITE_LIMIT_LENGTH) is an
// error naming where it is, instead of SQLite's bare "string or blob too big", and a long one's
// copy is charged to max_memory before SQLite makes it. False with the error set on the table.
bool HandOver(ParquetCursor* c, int col, int64_t bytes, size_t file, int64_t file_row) {
  if (bytes <= kChargedHandOver && bytes <= c->max_value_bytes) return true;
  Status s;
  if (bytes > c->max_value_bytes) {
    s = Status::InvalidArgument("the value of " + std::to_string(bytes) + " bytes is longer than SQLite's limit of " +
                                std::to_string(c->max_value_bytes) + " bytes (SQLITE_LIMIT_LENGTH)");
  } else {
    if (c->handed.size() <= static_cast<size_t>(col)) c->handed.resize(static_cast<size_t>(col) + 1);
    pq::BudgetCharge& charge = c->handed[static_cast<size_t>(col)];
    if (bytes <= charge.bytes()) return true;
    s = charge.Set(c->table->config.reader.memory, bytes, "a value copied by SQLite");
    if (s.ok()) return true;
  }
  SetVtabError(c->base.pVtab, std::move(s).WithContext(ValueContext(c, col, file, file_row)));
  return false;
}

// Every xColumn but the fast cases of Column: out of line, so that those stay a few instructions.
[[gnu::noinline]] int ColumnGeneral(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col);

}  // namespace

int Column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  if (!IsWriteTable(cur->pVtab) && c->fast_ready && static_cast<size_t>(col) < c->fast.size()) {
    // The common case of a scan: a dense batch of plain numbers.
    const ParquetCursor::FastColumn& f = c->fast[static_cast<size_t>(col)];
    int64_t r = c->row_in_batch;
    if (f.value_index) {
      r = f.value_index[r];
      if (r < 0) {
        sqlite3_result_null(ctx);
        return SQLITE_OK;
      }
    }
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
      case ParquetCursor::FastKind::kRealBits:
        sqlite3_result_double(ctx, std::bit_cast<double>(static_cast<const uint64_t*>(f.values)[r]));
        return SQLITE_OK;
      // A long TEXT or BLOB goes by the general path, which checks it (HandOver).
      case ParquetCursor::FastKind::kText: {
        const ByteArray& v = static_cast<const ByteArray*>(f.values)[r];
        if (v.len > c->checked_value_bytes) break;
        ResultBytes(ctx, v, true);
        return SQLITE_OK;
      }
      case ParquetCursor::FastKind::kCString: {
        const ByteArray& v = static_cast<const ByteArray*>(f.values)[r];
        if (v.len > c->checked_value_bytes) break;
        // Handed over without a length: SQLite then marks the copy NUL-terminated (ResultText).
        sqlite3_result_text(ctx, reinterpret_cast<const char*>(v.ptr), -1, SQLITE_TRANSIENT);
        return SQLITE_OK;
      }
      case ParquetCursor::FastKind::kBlob: {
        const ByteArray& v = static_cast<const ByteArray*>(f.values)[r];
        if (v.len > c->checked_value_bytes) break;
        ResultBytes(ctx, v, false);
        return SQLITE_OK;
      }
      case ParquetCursor::FastKind::kSortedKey: {
        const auto* rows = static_cast<const SortedRows*>(f.values);
        const auto i = static_cast<size_t>(c->sorted_base + r);
        const std::string_view key = rows->CStringAt(i);
        if (static_cast<int64_t>(key.size()) > c->checked_value_bytes) break;
        if (key.data() != nullptr) {
          // Without its length, as kCString's: SQLite's copy is then marked NUL-terminated. With
          // it, every function reading the key as text (length, upper, ...) would reallocate it.
          sqlite3_result_text(ctx, key.data(), -1, SQLITE_TRANSIENT);
        } else {
          const Cell cell = rows->KeyAt(i);
          if (static_cast<int64_t>(cell.bytes.size()) > c->checked_value_bytes) break;
          ResultCell(ctx, cell);  // (nothing here allocates: no need for Guarded)
        }
        return SQLITE_OK;
      }
      case ParquetCursor::FastKind::kRunKey:
        if (static_cast<int64_t>(c->run_key.bytes.size()) > c->checked_value_bytes) break;
        if (c->run_key_c_string != nullptr) {
          sqlite3_result_text(ctx, c->run_key_c_string, -1, SQLITE_TRANSIENT);  // as kSortedKey's
        } else {
          ResultCell(ctx, c->run_key);
        }
        return SQLITE_OK;
      case ParquetCursor::FastKind::kSlow:
      case ParquetCursor::FastKind::kConvert: break;
    }
  }
  return ColumnGeneral(cur, ctx, col);
}

namespace {

int ColumnUnguarded(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col);

// xColumn may decode a batch (EnsureLoaded): an exception there (an allocation the budget did not
// foresee) must not cross into SQLite, which would end the process.
int ColumnGeneral(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
  return Guarded(cur->pVtab, [&]() -> int { return ColumnUnguarded(cur, ctx, col); });
}

int ColumnUnguarded(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
  if (IsWriteTable(cur->pVtab)) return W().xColumn(cur, ctx, col);
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  if (c->sorted_output) return SortedColumn(c, ctx, col);
  ParquetTable* t = c->table;
  // The TEXT or BLOB of table column `col` in the current row, once HandOver agrees.
  auto result_cell = [&](const Cell& cell) {
    if ((cell.type == CellType::kText || cell.type == CellType::kBlob) &&
        !HandOver(c, col, static_cast<int64_t>(cell.bytes.size()), c->file_index, CurrentFileRow(c))) {
      return SQLITE_ERROR;
    }
    ResultCell(ctx, cell);
    return SQLITE_OK;
  };
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
  if (t->IsShreddedColumn(col)) {
    const ShreddedColumn& column = t->Shredded(col);
    const int variant_slot = c->slot_of_column[static_cast<size_t>(column.variant_column)];
    if (variant_slot < 0) {
      sqlite3_result_null(ctx);
      return SQLITE_OK;
    }
    if (!EnsureLoaded(c)) return SQLITE_ERROR;
    return ResultShredded(c, ctx, column, c->scanner->GetCell(variant_slot, c->row_in_batch, &c->scratch));
  }
  int slot = col >= 0 && col < t->num_fields ? c->slot_of_column[static_cast<size_t>(col)] : -1;
  if (slot < 0) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  if (!EnsureLoaded(c)) return SQLITE_ERROR;
  if (c->fast_ready && ConvertForFastPath(c, col, slot)) return Column(cur, ctx, col);
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
    if (!HandOver(c, col, bytes.values[k].len, c->file_index, CurrentFileRow(c))) return SQLITE_ERROR;
    ResultBytes(ctx, bytes.values[k], bytes.text);
    return SQLITE_OK;
  }
  const Cell cell = c->scanner->GetCell(slot, c->row_in_batch, &c->scratch);
  if (cell.type == CellType::kInteger && (*c->converted)[static_cast<size_t>(col)]) {
    // A column widened to REAL (union_by_name) that this file stores as INTEGER.
    sqlite3_result_double(ctx, static_cast<double>(cell.i));
    return SQLITE_OK;
  }
  return result_cell(cell);
}

}  // namespace

int Rowid(sqlite3_vtab_cursor* cur, sqlite_int64* rowid) {
  if (IsWriteTable(cur->pVtab)) return W().xRowid(cur, rowid);
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  if (c->sorted_output) {
    *rowid = c->sorted->OriginAt(c->sorted_base + c->row_in_batch).rowid;
    return SQLITE_OK;
  }
  return Guarded(cur->pVtab, [&]() -> int {
    if (!EnsureLoaded(c)) return SQLITE_ERROR;
    *rowid = c->data->files[c->file_index].first_row + CurrentFileRow(c);
    return SQLITE_OK;
  });
}

}  // namespace pq::ext::parquet_vtab
