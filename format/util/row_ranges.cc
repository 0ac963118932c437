#include "format/util/row_ranges.h"

#include <algorithm>

namespace pq {

void RowRanges::Add(int64_t begin, int64_t end) {
  if (begin >= end) return;
  // Ranges are usually added in order: then this is an append or a merge with the last range.
  if (ranges_.empty() || begin > ranges_.back().end) {
    ranges_.push_back({begin, end});
    return;
  }
  if (begin >= ranges_.back().begin) {
    ranges_.back().end = std::max(ranges_.back().end, end);
    return;
  }
  // Out of order: find the first range that ends at or after `begin` (it may touch or overlap),
  // then swallow every range that starts at or before `end`.
  auto first = std::lower_bound(ranges_.begin(), ranges_.end(), begin,
                                [](const RowRange& r, int64_t b) { return r.end < b; });
  auto last = first;
  while (last != ranges_.end() && last->begin <= end) {
    begin = std::min(begin, last->begin);
    end = std::max(end, last->end);
    ++last;
  }
  first = ranges_.erase(first, last);
  ranges_.insert(first, RowRange{begin, end});
}

RowRanges RowRanges::Intersect(const RowRanges& other) const {
  RowRanges out;
  size_t i = 0, j = 0;
  while (i < ranges_.size() && j < other.ranges_.size()) {
    const RowRange& a = ranges_[i];
    const RowRange& b = other.ranges_[j];
    const int64_t begin = std::max(a.begin, b.begin);
    const int64_t end = std::min(a.end, b.end);
    if (begin < end) out.ranges_.push_back({begin, end});
    if (a.end < b.end) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

RowRanges RowRanges::Union(const RowRanges& other) const {
  RowRanges out;
  size_t i = 0, j = 0;
  while (i < ranges_.size() || j < other.ranges_.size()) {
    const bool take_mine = j >= other.ranges_.size() ||
                           (i < ranges_.size() && ranges_[i].begin <= other.ranges_[j].begin);
    const RowRange& r = take_mine ? ranges_[i++] : other.ranges_[j++];
    out.Add(r.begin, r.end);  // in order: appends or merges with the last
  }
  return out;
}

RowRanges RowRanges::Points(std::vector<int64_t> points) {
  std::sort(points.begin(), points.end());
  RowRanges s;
  for (int64_t p : points) {
    if (!s.ranges_.empty() && p <= s.ranges_.back().end) {
      s.ranges_.back().end = std::max(s.ranges_.back().end, p + 1);
    } else {
      s.ranges_.push_back({p, p + 1});
    }
  }
  return s;
}

RowRanges RowRanges::Slice(int64_t begin, int64_t end) const {
  RowRanges s;
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), begin,
                             [](int64_t b, const RowRange& r) { return b < r.end; });
  for (; it != ranges_.end() && it->begin < end; ++it) {
    const int64_t b = std::max(it->begin, begin);
    const int64_t e = std::min(it->end, end);
    if (b < e) s.ranges_.push_back({b - begin, e - begin});
  }
  return s;
}

RowRanges RowRanges::DropFirst(int64_t n) const {
  RowRanges s;
  for (const RowRange& r : ranges_) {
    const int64_t len = r.end - r.begin;
    if (n >= len) {
      n -= len;
      continue;
    }
    s.ranges_.push_back({r.begin + n, r.end});
    n = 0;
  }
  return s;
}

RowRanges RowRanges::KeepFirst(int64_t n) const {
  RowRanges s;
  for (const RowRange& r : ranges_) {
    if (n <= 0) break;
    const int64_t len = std::min(r.end - r.begin, n);
    s.ranges_.push_back({r.begin, r.begin + len});
    n -= len;
  }
  return s;
}

int64_t RowRanges::row_count() const {
  int64_t n = 0;
  for (const RowRange& r : ranges_) n += r.end - r.begin;
  return n;
}

}  // namespace pq
