#include "format/bloom/bloom_hash_set.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

namespace pq {
namespace {

TEST(BloomHashSetTest, CountsDistinctHashesThroughGrowthAndKeepsZero) {
  std::mt19937_64 rng(42);
  BloomHashSet set;
  std::set<uint64_t> want;
  EXPECT_TRUE(set.empty());
  // 100,000 hashes drawn from 60,000 (so about a third repeat), in batches of odd sizes, some one
  // at a time; 0 and a hash whose low bits are all zero among them.
  std::vector<uint64_t> pool(60'000);
  for (uint64_t& h : pool) h = rng();
  pool[0] = 0;
  pool[1] = uint64_t{1} << 40;
  std::vector<uint64_t> batch;
  for (int i = 0; i < 100'000; ++i) {
    const uint64_t h = pool[rng() % pool.size()];
    want.insert(h);
    if (i % 7 == 0) {
      set.Insert(h);
    } else {
      batch.push_back(h);
      if (batch.size() == 333) {
        set.InsertMany(batch.data(), static_cast<int64_t>(batch.size()));
        batch.clear();
      }
    }
  }
  set.InsertMany(batch.data(), static_cast<int64_t>(batch.size()));
  set.Insert(0);
  want.insert(0);
  EXPECT_EQ(set.size(), static_cast<int64_t>(want.size()));

  // AddTo inserts exactly these: every one checks, and a filter of the same size filled from the
  // std::set has the same bits.
  SplitBlockBloomFilter from_set(SplitBlockBloomFilter::OptimalNumBytes(set.size(), 0.01));
  SplitBlockBloomFilter expected(from_set.num_bytes());
  set.AddTo(&from_set);
  for (uint64_t h : want) {
    EXPECT_TRUE(from_set.Check(h));
    expected.Insert(h);
  }
  ASSERT_EQ(from_set.bitset().size(), expected.bitset().size());
  EXPECT_TRUE(
      std::equal(from_set.bitset().begin(), from_set.bitset().end(), expected.bitset().begin()));

  set.Clear();
  EXPECT_TRUE(set.empty());
  set.Insert(5);
  set.Insert(5);
  EXPECT_EQ(set.size(), 1);
}

}  // namespace
}  // namespace pq
