// BufferPool: released buffers come back (same memory, no fresh allocation), the pool stays within
// its limits, and sizes outside the pooled range are plain allocations.
#include "format/file/buffer_pool.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace pq {
namespace {

TEST(BufferPoolTest, AReleasedBufferIsHandedOutAgain) {
  const size_t n = 300 * 1000;
  const uint8_t* first = nullptr;
  {
    std::shared_ptr<Buffer> b = AcquirePooledBuffer(n);
    ASSERT_GE(b->size(), n);
    std::memset(b->data(), 0xAB, n);
    first = b->data();
  }
  EXPECT_GE(PooledBufferCount(), 1u);
  // A request no larger gets the same memory, contents unchanged (the caller overwrites them).
  std::shared_ptr<Buffer> again = AcquirePooledBuffer(n - 1000);
  EXPECT_EQ(again->data(), first);
  EXPECT_EQ(again->data()[0], 0xAB);
  // A larger one cannot use it.
  std::shared_ptr<Buffer> larger = AcquirePooledBuffer(n * 2);
  EXPECT_NE(larger->data(), first);
  EXPECT_GE(larger->size(), n * 2);
}

TEST(BufferPoolTest, StaysWithinItsLimits) {
  std::vector<std::shared_ptr<Buffer>> held;
  for (int i = 0; i < 40; ++i) held.push_back(AcquirePooledBuffer((size_t{1} << 20) + static_cast<size_t>(i) * 70000));
  held.clear();  // all 40 released at once
  EXPECT_LE(PooledBufferCount(), BufferPoolLimits::kMaxKeptBuffers);
  EXPECT_LE(PooledBufferBytes(), BufferPoolLimits::kMaxKeptBytes);
  // The largest ones were kept: a request for the largest size is served from the pool.
  const size_t before = PooledBufferCount();
  std::shared_ptr<Buffer> big = AcquirePooledBuffer((size_t{1} << 20) + 39 * 70000);
  EXPECT_EQ(PooledBufferCount(), before - 1);
}

TEST(BufferPoolTest, SmallAndHugeRequestsAreNotPooled) {
  const size_t count = PooledBufferCount();
  { auto small = AcquirePooledBuffer(100); EXPECT_EQ(small->size(), 100u); }
  { auto huge = AcquirePooledBuffer(BufferPoolLimits::kMaxPooledBytes + 1); EXPECT_EQ(huge->size(), BufferPoolLimits::kMaxPooledBytes + 1); }
  EXPECT_EQ(PooledBufferCount(), count);
}

TEST(BufferPoolTest, ExactBuffersHaveTheSizeAskedAndKeepTheirMemory) {
  // Larger than what the other tests leave in the pool, so that this buffer is the one taken.
  const size_t n = size_t{12} << 20;
  const uint8_t* first = nullptr;
  {
    std::shared_ptr<Buffer> b = AcquireExactPooledBuffer(n);
    EXPECT_EQ(b->size(), n);
    std::memset(b->data(), 0xCD, n);
    first = b->data();
  }
  // A smaller exact request reuses the memory, sized down without touching it.
  {
    std::shared_ptr<Buffer> smaller = AcquireExactPooledBuffer(n / 2);
    EXPECT_EQ(smaller->size(), n / 2);
    EXPECT_EQ(smaller->data(), first);
    EXPECT_EQ(smaller->data()[n / 2 - 1], 0xCD);
  }
  // The buffer went back at half its size but with all its capacity: a full-size request of
  // either kind still fits in it.
  {
    std::shared_ptr<Buffer> exact = AcquireExactPooledBuffer(n);
    EXPECT_EQ(exact->size(), n);
    EXPECT_EQ(exact->data(), first);
  }
  std::shared_ptr<Buffer> any = AcquirePooledBuffer(n);
  EXPECT_GE(any->size(), n);
  EXPECT_EQ(any->data(), first);
  auto small = AcquireExactPooledBuffer(10);
  EXPECT_EQ(small->size(), 10u);
}

}  // namespace
}  // namespace pq
