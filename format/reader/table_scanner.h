// TableScanner: reads chosen top-level fields of a file row by row, in batches.
//
// A flat field is one leaf column: its values are converted per cell on request (LeafConverter), so
// rows that are never asked for cost only their decoding. A nested field (group, LIST, MAP, repeated)
// reads every leaf under it and is assembled into JSON text per row (NestedJsonAssembler).
// Row groups are read one after another; memory is one batch of each projected column plus the
// column chunks in flight.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "format/column/column_batch.h"
#include "format/column/column_reader.h"
#include "format/reader/file_reader.h"
#include "format/record/json_assembler.h"
#include "format/value/leaf_converter.h"

namespace pq {

struct ScanStats {
  int64_t row_groups_read = 0;
  int64_t pages_read = 0;
  int64_t bytes_read = 0;
  int64_t values_decoded = 0;
  int64_t rows_produced = 0;
};

class TableScanner {
 public:
  // `fields` are indexes into schema().fields(); `row_groups` the row groups to read, in order.
  static Result<std::unique_ptr<TableScanner>> Make(std::shared_ptr<const FileReader> file,
                                                    std::vector<int> fields,
                                                    std::vector<int> row_groups,
                                                    const ValueOptions& value_options,
                                                    int64_t batch_rows = 2048);
  ~TableScanner();

  // Reads the next batch. Returns its row count; 0 at the end.
  Result<int64_t> NextBatch();
  // Skips up to n rows from the current position without decoding values where possible; the next
  // NextBatch() starts after them. Returns how many rows were skipped.
  Result<int64_t> SkipRows(int64_t n);

  // File-wide row number of row 0 of the current batch.
  int64_t batch_first_row() const { return batch_first_row_; }
  int64_t batch_size() const { return batch_rows_read_; }
  // The cell of field slot `slot` (position in `fields`) for row `row` of the current batch. Text may
  // point into *scratch or into the batch; valid until the next call or the next batch.
  Cell GetCell(int slot, int64_t row, std::string* scratch) const;

  // SQLite declared type of a top-level field under these options ("INTEGER", "TEXT", ...).
  static Result<std::string> DeclaredType(const Schema& schema, int field, const ValueOptions& opts);

  const ScanStats& stats() const { return stats_; }

 private:
  struct FieldState;
  TableScanner() = default;
  Status OpenRowGroup(int row_group);
  void CloseRowGroup();

  std::shared_ptr<const FileReader> file_;
  std::vector<int> row_groups_;
  size_t next_row_group_ = 0;
  int current_row_group_ = -1;
  int64_t row_group_rows_left_ = 0;
  int64_t row_group_first_row_ = 0;
  int64_t next_row_ = 0;  // file row number of the next row to read
  int64_t batch_first_row_ = 0;
  int64_t batch_rows_read_ = 0;
  int64_t batch_rows_ = 2048;
  ValueOptions value_options_;
  std::vector<std::unique_ptr<FieldState>> fields_;
  std::vector<int64_t> row_group_starts_;
  ScanStats stats_;
};

}  // namespace pq
