// RowArray (ext/row_array.h): vectors of a sorted scan's rows behave as std::vector whatever their
// size; blocks of 4 MiB or more sit on 2 MiB boundaries (where transparent huge pages can back them).
#include "ext/row_array.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

namespace pq::ext {
namespace {

TEST(RowArray, SmallAndLargeArraysHoldWhatIsWrittenAcrossGrowthAndMoves) {
  for (const size_t n : {size_t{0}, size_t{1}, size_t{1000}, (size_t{4} << 20) / 8 - 1, size_t{3} << 20}) {
    RowArray<uint64_t> a;
    for (size_t i = 0; i < n; ++i) a.push_back(i * 7);
    RowArray<uint64_t> b(n);  // default-initialized: written before it is read
    for (size_t i = 0; i < n; ++i) b[i] = a[n - 1 - i];
    RowArray<uint64_t> moved = std::move(b);
    RowArray<uint64_t> copied = moved;
    moved.resize(n / 2);
    moved.shrink_to_fit();
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(a[i], i * 7) << n;
      ASSERT_EQ(copied[i], (n - 1 - i) * 7) << n;
      if (i < n / 2) {
        ASSERT_EQ(moved[i], (n - 1 - i) * 7) << n;
      }
    }
    if (n * sizeof(uint64_t) >= (size_t{4} << 20)) {
      EXPECT_EQ(reinterpret_cast<uintptr_t>(copied.data()) % (size_t{2} << 20), 0u) << n;
    }
  }
  RowArray<uint32_t> ids{3, 1, 2};
  EXPECT_EQ(ids, (RowArray<uint32_t>{3, 1, 2}));
}

}  // namespace
}  // namespace pq::ext
