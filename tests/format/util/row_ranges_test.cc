// RowRanges (util/row_ranges.h), the one row-selection type: building from spans and points,
// intersecting, slicing a dataset's positions into a file's (or a file's into a row group's), and
// OFFSET / LIMIT as DropFirst / KeepFirst.
#include "format/util/row_ranges.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace pq {
namespace {

using Spans = std::vector<std::pair<int64_t, int64_t>>;

Spans SpansOf(const RowRanges& r) {
  Spans out;
  for (const RowRange& x : r.ranges()) out.emplace_back(x.begin, x.end);
  return out;
}

TEST(RowRangesTest, SpansAndPoints) {
  EXPECT_EQ(SpansOf(RowRanges::Of(3, 7)), (Spans{{3, 7}}));
  EXPECT_TRUE(RowRanges::Of(7, 3).empty());
  EXPECT_EQ(SpansOf(RowRanges::All(5)), (Spans{{0, 5}}));
  EXPECT_TRUE(RowRanges::All(0).empty());
  // Any order, repeats, neighbours merged.
  EXPECT_EQ(SpansOf(RowRanges::Points({9, 2, 3, 3, 4, 7})), (Spans{{2, 5}, {7, 8}, {9, 10}}));
  EXPECT_EQ(RowRanges::Points({9, 2, 3, 3, 4, 7}).row_count(), 5);
}

TEST(RowRangesTest, IntersectAndUnion) {
  RowRanges a = RowRanges::Points({1, 2, 3, 10, 11});
  RowRanges b = RowRanges::Of(2, 11);
  EXPECT_EQ(SpansOf(a.Intersect(b)), (Spans{{2, 4}, {10, 11}}));
  EXPECT_EQ(SpansOf(a.Union(RowRanges::Of(4, 10))), (Spans{{1, 12}}));
}

TEST(RowRangesTest, SliceShiftsDown) {
  RowRanges r = RowRanges::Points({0, 5, 6, 7, 20});
  EXPECT_EQ(SpansOf(r.Slice(5, 10)), (Spans{{0, 3}}));
  EXPECT_EQ(SpansOf(r.Slice(6, 21)), (Spans{{0, 2}, {14, 15}}));
  EXPECT_TRUE(r.Slice(8, 20).empty());
}

TEST(RowRangesTest, DropAndKeepFirst) {
  RowRanges r = RowRanges::Points({1, 2, 3, 7, 8});
  EXPECT_EQ(SpansOf(r.DropFirst(2)), (Spans{{3, 4}, {7, 9}}));
  EXPECT_EQ(SpansOf(r.DropFirst(3)), (Spans{{7, 9}}));
  EXPECT_TRUE(r.DropFirst(5).empty());
  EXPECT_EQ(SpansOf(r.KeepFirst(4)), (Spans{{1, 4}, {7, 8}}));
  EXPECT_TRUE(r.KeepFirst(0).empty());
  EXPECT_EQ(SpansOf(r.KeepFirst(99)), SpansOf(r));
}

}  // namespace
}  // namespace pq
