// RowRanges: a selection of rows, as sorted, disjoint, non-adjacent half-open intervals of row
// numbers: the one row-selection type. Pruning produces the rows of a row group a scan still has to
// read (a page index turns "pages that may match" into their rows), the column reader and the table
// scan read those and skip the rest, and the SQLite table turns terms on rowid and file_row_number,
// OFFSET and LIMIT into positions of the dataset and of each file with it.
#pragma once

#include <cstdint>
#include <vector>

namespace pq {

struct RowRange {
  int64_t begin = 0;  // first row (inclusive)
  int64_t end = 0;    // one past the last row
};

class RowRanges {
 public:
  RowRanges() = default;
  static RowRanges All(int64_t num_rows) { return Of(0, num_rows); }
  // [begin, end); empty when end <= begin.
  static RowRanges Of(int64_t begin, int64_t end) {
    RowRanges r;
    if (begin < end) r.ranges_.push_back({begin, end});
    return r;
  }
  // The given rows, in any order, repeats allowed.
  static RowRanges Points(std::vector<int64_t> points);
  // Adds [begin, end); ranges may be added in any order and may overlap (merged here).
  void Add(int64_t begin, int64_t end);
  RowRanges Intersect(const RowRanges& other) const;
  RowRanges Union(const RowRanges& other) const;
  // The rows in [begin, end), shifted down by `begin`.
  RowRanges Slice(int64_t begin, int64_t end) const;
  // Without the first n rows / only the first n rows.
  RowRanges DropFirst(int64_t n) const;
  RowRanges KeepFirst(int64_t n) const;
  int64_t row_count() const;
  bool empty() const { return ranges_.empty(); }
  const std::vector<RowRange>& ranges() const { return ranges_; }

 private:
  std::vector<RowRange> ranges_;
};

}  // namespace pq
