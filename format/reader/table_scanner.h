// TableScanner: reads chosen top-level fields of a file row by row, in batches, only the row groups
// and row ranges of a ScanPlan (predicate/scan_plan.h), all projected columns row-aligned. A flat
// field is one leaf column whose values are converted per cell on request (LeafConverter), so rows
// never asked for cost only their decoding; a nested field is assembled into JSON text per row
// (NestedJsonAssembler). Rows outside the ranges are passed by whole pages where the column reader
// can, so a narrow range decodes about one page per column; memory is one batch of each projected
// column plus the column chunks in flight. Of a remote file, the byte ranges each row group needs
// are read in one RandomAccessFile::ReadRanges call (the filter's fields first).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "format/column/column_batch.h"
#include "format/column/column_reader.h"
#include "format/file/file_reader.h"
#include "format/file/memory_budget.h"
#include "format/predicate/predicate.h"
#include "format/predicate/scan_plan.h"
#include "format/record/json_assembler.h"
#include "format/value/leaf_converter.h"

namespace pq {

// Everything a scan reads. `fields` are indexes into schema().fields() and give the slots of
// GetCell in order. The filter is copied; only its terms on fields in `fields` are applied, the
// others ignored. `affinity[f]` is the affinity of top-level field f's declared type (as PlanScan
// takes it); when it is shorter, the affinity comes from DeclaredType.
struct ScanRequest {
  std::vector<int> fields;
  ScanPlan plan;
  // Late materialization: each batch first decodes the fields the filter's terms name and keeps
  // the rows where every term holds (TermMatcher: SQLite's comparison); the other fields are then
  // read not at all when no row survived, only the survivors' runs when they are few, else the
  // whole batch, of which only surviving rows are converted. The caller sees only surviving rows
  // (RowNumber gives each one's file-wide number). Dictionary-encoded pages of a filter field are
  // filtered by their indices, each term evaluated once per dictionary entry (Term::mask).
  const Predicate* filter = nullptr;
  std::vector<Affinity> affinity;
  int64_t batch_rows = 2048;
  // Asked whenever a batch no row passed leaves NextBatch or SkipRows reading on rather than
  // returning (a filter that matches nothing can take them through the whole file): true ends the
  // scan with Interrupted. May be empty.
  std::function<bool()> interrupted;
  // The longest value the caller takes (SQLite's SQLITE_LIMIT_LENGTH): a nested field's JSON (or
  // Variant binary) that passes it fails the batch as soon as it does, naming the row, instead of
  // being built whole. 0: no limit.
  int64_t max_value_bytes = 0;
};

class TableScanner {
 public:
  // Reads the plan's row groups in its order, only the rows of its ranges. InvalidArgument for a
  // field or row group that does not exist, or ranges that are not sorted and disjoint; ranges
  // past a row group's end are cut at its end.
  static Result<std::unique_ptr<TableScanner>> Make(std::shared_ptr<const FileReader> file,
                                                    ScanRequest request,
                                                    const ValueOptions& value_options);
  // Every row of `row_groups` (in that order), no filter.
  static Result<std::unique_ptr<TableScanner>> Make(std::shared_ptr<const FileReader> file,
                                                    std::vector<int> fields,
                                                    std::vector<int> row_groups,
                                                    const ValueOptions& value_options,
                                                    int64_t batch_rows = 2048);
  // The plan that reads every row of `row_groups` (InvalidArgument for one that does not exist).
  static Result<ScanPlan> PlanAllRows(const FileReader& file, const std::vector<int>& row_groups);
  ~TableScanner();

  // Reads the next batch. Returns its row count: at least 1, or 0 only at the end of the scan.
  Result<int64_t> NextBatch();
  // Skips the next n rows the scan would return (rows within the plan's ranges that pass the
  // filter); the next NextBatch() starts after them. Without a filter nothing is decoded: whole row
  // groups go by their row counts and the column readers later pass the rows by whole pages. With
  // one, the filter's fields are decoded to find the rows that pass, the other fields are not.
  // Returns how many rows were skipped: fewer than n only at the end of the scan.
  Result<int64_t> SkipRows(int64_t n);

  int64_t batch_size() const { return batch_size_; }
  // File-wide row number of row `row` of the current batch (0 is the file's first row).
  int64_t RowNumber(int64_t row) const;
  // File-wide row number of row 0 of the current batch.
  int64_t batch_first_row() const { return batch_first_row_; }
  // The cell of field slot `slot` (position in `fields`) for row `row` of the current batch. Text
  // may point into *scratch or into the batch; valid until the next call or the next batch.
  Cell GetCell(int slot, int64_t row, std::string* scratch) const;

  // The current batch's values of a flat field whose cells are plain numbers (INT32, INT64 read as
  // INTEGER without conversion; FLOAT, DOUBLE as REAL), for callers that hand many values on
  // without building a Cell for each: the cell of batch row r is NULL when value_index says -1,
  // else values[k] with k = value_index[row_map[r]] (each step only when its array is not null).
  // kind is kNone for every other field. Valid until the next batch.
  struct NumberColumn {
    enum class Kind : uint8_t { kNone, kInt32, kInt64, kFloat, kDouble };
    Kind kind = Kind::kNone;
    const void* values = nullptr;
    const int32_t* value_index = nullptr;  // decoded row -> value slot, -1 for NULL; null: no NULL in the batch
    const int32_t* row_map = nullptr;      // batch row -> decoded row; null: the same
  };
  NumberColumn Numbers(int slot) const;
  // The same for a flat field of BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY values its converter hands over
  // unchanged (TEXT, or BLOB): the cell of batch row r is values[k] as TEXT when `text`, else as
  // BLOB, with k and NULLs as for NumberColumn. values is null for every other field.
  // `terminated`: every value is followed by a NUL byte and holds none (a C string).
  struct BytesColumn {
    bool text = false;
    bool terminated = false;
    const ByteArray* values = nullptr;
    const int32_t* value_index = nullptr;
    const int32_t* row_map = nullptr;
  };
  BytesColumn Bytes(int slot) const;

  // The current batch's values of a field whose converter changes them (timestamps and dates as
  // text, decimals, BOOLEAN, unsigned integers, ...) converted once for the whole batch into
  // `storage`, or of a nested field as its JSON (or Variant BLOB) per row, so that a caller handing
  // every row on pays one conversion per value and no per-row dispatch. Every value must convert
  // to one storage class: type is kNull (nothing converted) for a batch that is still
  // dictionary-coded or reaches its rows through a row map, one whose values convert to mixed
  // classes (a NaN read as NULL, an overlong decimal), and a field Numbers or Bytes already hands
  // over. NULLs and value slots are as for NumberColumn. Valid until the next batch or the next
  // call with the same storage.
  struct ConvertedStorage {
    std::vector<int64_t> integers;
    std::vector<double> reals;
    std::vector<ByteArray> bytes;
    std::vector<int32_t> index;  // nested fields with a NULL in the batch: row -> row, or -1
    std::vector<size_t> ends;  // end of each value's bytes in `arena`, while converting
    std::string arena;
    std::string scratch;
    // The arena, charged to the table's memory budget: a DECIMAL of a large scale writes thousands
    // of bytes a value, for each row of the batch. When the budget refuses, the column is not
    // converted (its values go to SQLite one at a time, through GetCell).
    BudgetCharge charge;
  };
  struct ConvertedColumn {
    CellType type = CellType::kNull;  // kNull: not converted
    const void* values = nullptr;     // int64_t (kInteger), double (kReal), ByteArray (kText, kBlob)
    const int32_t* value_index = nullptr;
    // kText of a kind that never holds a NUL byte (decimals, dates, times, timestamps, UUIDs,
    // intervals), each value followed by one: C strings, to hand over as such.
    bool terminated = false;
  };
  ConvertedColumn ConvertBatch(int slot, ConvertedStorage* storage) const;

  // SQLite declared type of a top-level field under these options ("INTEGER", "TEXT", ...).
  static Result<std::string> DeclaredType(const Schema& schema, int field, const ValueOptions& opts);

  // Counters so far, the row group being read included.
  const ScanCounters& stats() const;

 private:
  struct FieldState;
  struct Term {
    int slot = 0;
    TermMatcher matcher;  // the term, its literals converted once
    bool null_matches = false;  // whether a NULL satisfies the term (IS NULL)
    // For dictionary-coded batches (ColumnBatch::dictionary) of the open row group: the term's
    // answer for each entry of the chunk's dictionary (1: satisfies it), built the first time a
    // batch of that dictionary is filtered, so each row costs one lookup by its index.
    const void* mask_dictionary = nullptr;  // the dictionary `mask` is for; null: none yet
    std::vector<uint8_t> mask;
    int64_t mask_matches = 0;  // entries set in `mask`
    int64_t mask_only = -1;    // the one entry set when mask_matches is 1 (an equality), else -1
  };
  // One row group of the plan: its rows to read as sorted, disjoint, non-empty spans.
  struct GroupPlan {
    int row_group = -1;
    std::vector<RowRange> spans;
  };

  TableScanner() = default;
  // Closes the current row group and opens the next one of the plan; false when none is left.
  Result<bool> OpenNextGroup();
  // Reads the planned ranges of the open row group's readers of `which` fields in one call and
  // hands each reader its bytes (remote files; see above).
  enum class FieldSet { kAll, kFilter, kOthers };
  Status FetchTogether(FieldSet which);
  // Remote files: reads the OffsetIndexes of the projected columns for the plan's row groups from
  // groups_[from] on, up to a byte budget, in one call (each column reader loads its chunk's index,
  // to read by page locations or to check the pages it walks: one round trip per row group else).
  Status PrefetchOffsetIndexes(size_t from);
  void CloseGroup();
  // Reading the next row group ahead (ReaderOptions::task_pool, the table option `threads`): once a
  // row group has handed out its second batch (a scan that a LIMIT stops within one batch reads
  // nothing ahead), a worker reads the column chunks of the next one the plan reads, so that opening
  // it finds its bytes in memory instead of waiting for the file. Only for local files,
  // scans without a filter (a filter may leave a row group's other columns unread) and row groups
  // read whole; at most kMaxPrefetchBytes and a sixteenth of the table's memory limit, charged to
  // its memory budget, and only while the scan holds less than a quarter of that limit. A read that
  // fails is done again by the column readers themselves, so errors are the same either way.
  struct GroupPrefetch;
  static constexpr int64_t kMaxPrefetchBytes = int64_t{64} << 20;
  void PrefetchNextGroup();
  // Hands the open row group's readers what was read ahead for them, waiting for a read under way;
  // drops a read ahead for another row group (the scan skipped it).
  void TakePrefetch();
  // Cancels or waits for the read ahead, and returns its memory.
  static void DropPrefetch(GroupPrefetch& p);
  // Waits until a read ahead some worker started is done.
  static void AwaitPrefetch(GroupPrefetch& p);
  // Lets go of what a read ahead holds and returns its charge.
  static void ReleasePrefetch(GroupPrefetch& p);
  // Decodes the next batch's filter fields and selects its rows (pending_); false at the end.
  Result<bool> FillBatch();
  // Filters sel[0..n) by `t` on its field's dictionary-coded batch through the term's dictionary
  // mask (built on first use); -1 when the dictionary is too large for that to pay (it then gathers
  // the batch's values instead).
  int64_t FilterByDictionary(Term& t, ColumnBatch& b, int32_t* sel, size_t n, bool dense);
  // Builds t's mask for b's dictionary unless it has one; false when the dictionary is too large
  // for that to pay.
  bool EnsureDictionaryMask(Term& t, const FieldState& f, const ColumnBatch& b);
  // The answer to the column reader's dictionary probe of the field `t` alone reads (see
  // ColumnChunkReader::set_dictionary_probe): t's one matching entry, when it has at most one.
  std::optional<ColumnChunkReader::DictionaryProbe> DictionaryProbeFor(Term& t, const FieldState& f,
                                                                       const ColumnBatch& b);
  // Reads the other fields for the pending batch's surviving rows and makes it the current batch.
  Status Materialize();
  // Reads rows `spans` (row group rows, sorted, at or after the field's position) of field `f`
  // into its batches, replacing what they held, and assembles JSON for a nested field.
  Status ReadField(FieldState& f, std::span<const RowRange> spans);
  int64_t PendingRows() const;

  std::shared_ptr<const FileReader> file_;
  ValueOptions value_options_;
  int64_t batch_rows_ = 2048;
  std::function<bool()> interrupted_;  // ScanRequest::interrupted
  int64_t max_value_bytes_ = 0;        // ScanRequest::max_value_bytes
  // Interrupted when interrupted_ says so.
  Status CheckInterrupt() const;
  std::vector<std::unique_ptr<FieldState>> fields_;
  std::vector<Term> terms_;  // the filter, terms on fields in `fields` only
  std::vector<int64_t> row_group_starts_;  // file row number of each row group's first row

  // Where the scan stands.
  std::vector<GroupPlan> groups_;
  size_t next_group_ = 0;       // next entry of groups_ to open
  const GroupPlan* group_ = nullptr;  // the open row group, or null
  int64_t group_rows_ = 0;      // its row count
  int64_t group_planned_rows_ = 0;  // its rows the plan reads
  size_t span_ = 0;             // its span being read
  bool others_fetched_ = true;  // remote: the non-filter fields' ranges were read (FetchTogether)
  size_t offsets_prefetched_ = 0;  // remote: groups_[0, this) had their OffsetIndexes prefetched
  int64_t pos_ = 0;             // rows of it before this one are read or skipped

  // The batch being built or handed out. Decoded rows are the rows of the segments, in order.
  std::vector<RowRange> segments_;      // row group rows decoded for the batch
  std::vector<int64_t> segment_first_; // decoded row index of each segment's first row
  int64_t decoded_ = 0;
  PodVector<int32_t> selection_;       // decoded rows that passed the filter, increasing
  bool selected_all_ = true;           // every decoded row passed (selection_ unused)
  size_t selection_begin_ = 0;         // selection_ entries SkipRows consumed
  bool pending_ = false;               // filled but not yet handed out
  std::vector<RowRange> runs_;          // surviving rows as row group spans, for Materialize
  int64_t batch_size_ = 0;
  int64_t batch_first_row_ = 0;
  const int32_t* batch_selection_ = nullptr;  // batch row -> decoded row; null: the same
  int64_t batch_group_first_row_ = 0;  // file row number of the batch's row group's row 0
  std::string filter_scratch_;

  std::shared_ptr<GroupPrefetch> prefetch_;  // the next row group's chunks, being read ahead
  int64_t group_batches_ = 0;                // batches NextBatch handed out from the open row group

  ScanCounters stats_;  // closed row groups, and rows
  mutable ScanCounters live_stats_;
};

}  // namespace pq
