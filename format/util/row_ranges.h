// RowRanges: the rows of one row group a scan still has to read, as sorted, disjoint, non-adjacent
// half-open intervals of row numbers within the row group. Pruning layers produce them (a page
// index turns "pages that may match" into their row spans); the scanner skips everything outside
// them.
#pragma once

#include <cstdint>
#include <vector>

namespace pq {

struct RowRange {
  int64_t begin = 0;  // first row (inclusive), within the row group
  int64_t end = 0;    // one past the last row
};

class RowRanges {
 public:
  RowRanges() = default;
  static RowRanges All(int64_t num_rows) {
    RowRanges r;
    if (num_rows > 0) r.ranges_.push_back({0, num_rows});
    return r;
  }
  // Adds [begin, end); ranges may be added in any order and may overlap (merged here).
  void Add(int64_t begin, int64_t end);
  RowRanges Intersect(const RowRanges& other) const;
  RowRanges Union(const RowRanges& other) const;
  int64_t row_count() const;
  bool empty() const { return ranges_.empty(); }
  const std::vector<RowRange>& ranges() const { return ranges_; }

 private:
  std::vector<RowRange> ranges_;
};

}  // namespace pq
