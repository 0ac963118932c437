// DistinctCounter (distinct_counter.h): the estimate of distinct hashes is within a few percent at
// every scale, repeats do not count, and Reset starts over.
#include "format/writer/distinct_counter.h"

#include <gtest/gtest.h>

#include <random>

#include "format/util/mix_hash.h"

namespace pq {
namespace {

TEST(DistinctCounterTest, EstimatesTheDistinctCountWithinAFewPercent) {
  for (const uint64_t distinct : {1u, 10u, 1'000u, 20'000u, 100'000u, 1'000'000u}) {
    DistinctCounter c;
    std::mt19937_64 rng(distinct);
    // Each value three times on average, in random order.
    for (uint64_t i = 0; i < 3 * distinct; ++i) c.Add(MixHash64(rng() % distinct));
    // Draws with replacement: the values actually drawn.
    const double expected = distinct * (1 - std::exp(-3.0));
    EXPECT_NEAR(c.Estimate(), expected, 0.05 * expected + 1) << distinct;
  }
}

TEST(DistinctCounterTest, RepeatsDoNotCountAndResetStartsOver) {
  DistinctCounter c;
  EXPECT_EQ(c.Estimate(), 0);
  for (int round = 0; round < 50; ++round) {
    for (uint64_t v = 0; v < 5'000; ++v) c.Add(MixHash64(v));
  }
  EXPECT_NEAR(c.Estimate(), 5'000, 250);
  c.Reset();
  EXPECT_EQ(c.Estimate(), 0);
  for (uint64_t v = 0; v < 200; ++v) c.Add(MixHash64(v + 1'000'000));
  EXPECT_NEAR(c.Estimate(), 200, 10);
}

}  // namespace
}  // namespace pq
