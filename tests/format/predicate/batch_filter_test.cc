// FilterByMask (batch_filter.h): every way it is called (rows already selected or all of them, with
// or without NULLs, one matching entry or several) keeps exactly the rows whose entry is set in the
// mask, in order, as a row-by-row lookup does.
#include "format/predicate/batch_filter.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace pq {
namespace {

// Rows r of sel whose value (idx[vi[r]] or idx[r]) is set in mask; NULL rows when null_matches.
std::vector<int32_t> Expected(const std::vector<int32_t>& sel, const std::vector<uint32_t>& idx,
                              const std::vector<int32_t>* vi, const std::vector<uint8_t>& mask,
                              bool null_matches) {
  std::vector<int32_t> out;
  for (int32_t r : sel) {
    const int32_t k = vi ? (*vi)[static_cast<size_t>(r)] : r;
    if (k < 0 ? null_matches : mask[idx[static_cast<size_t>(k)]] != 0) out.push_back(r);
  }
  return out;
}

TEST(FilterByMaskTest, EveryPathKeepsTheRowsARowByRowLookupKeeps) {
  std::mt19937 rng(5);
  for (int round = 0; round < 200; ++round) {
    const size_t n = rng() % 300;  // below, at and past blocks of sixteen
    const uint32_t entries = 1 + rng() % 40;
    const bool with_nulls = round % 2 == 1;
    const bool null_matches = round % 4 == 3;
    // Values: mostly one entry off the target, the target now and then (also at a block's end).
    std::vector<int32_t> vi;
    std::vector<uint32_t> idx;
    for (size_t r = 0; r < n; ++r) {
      if (with_nulls && rng() % 5 == 0) {
        vi.push_back(-1);
        continue;
      }
      vi.push_back(static_cast<int32_t>(idx.size()));
      idx.push_back(rng() % 7 == 0 ? 0 : rng() % entries);
    }
    const std::vector<int32_t>* vip = with_nulls ? &vi : nullptr;
    if (!with_nulls) idx.resize(n);
    // One entry set (the equality's `only`) and several.
    for (const bool single : {true, false}) {
      std::vector<uint8_t> mask(entries, 0);
      int64_t only = -1;
      if (single) {
        only = 0;
        mask[0] = 1;
      } else {
        for (auto& m : mask) m = rng() % 3 == 0;
      }
      std::vector<int32_t> all(n);
      for (size_t i = 0; i < n; ++i) all[i] = static_cast<int32_t>(i);
      std::vector<int32_t> some;
      for (size_t i = 0; i < n; ++i) {
        if (rng() % 2) some.push_back(static_cast<int32_t>(i));
      }
      for (const bool dense : {true, false}) {
        std::vector<int32_t> sel = dense ? std::vector<int32_t>(n, -7) : some;
        const std::vector<int32_t> want =
            Expected(dense ? all : some, idx, vip, mask, null_matches);
        const size_t kept = FilterByMask(sel.data(), sel.size(), idx.data(), vip ? vi.data() : nullptr,
                                         mask.data(), null_matches, dense, only);
        ASSERT_EQ(kept, want.size()) << "round " << round << " single " << single << " dense " << dense;
        sel.resize(kept);
        EXPECT_EQ(sel, want) << "round " << round << " single " << single << " dense " << dense;
      }
    }
  }
}

TEST(FilterByMaskTest, TheOneEntryIsFoundInEveryPositionOfABlock) {
  for (size_t at = 0; at < 40; ++at) {
    std::vector<uint32_t> idx(40, 3);
    idx[at] = 9;
    std::vector<uint8_t> mask(10, 0);
    mask[9] = 1;
    std::vector<int32_t> sel(40, -1);
    ASSERT_EQ(FilterByMask(sel.data(), 40, idx.data(), nullptr, mask.data(), false, true, 9), 1u);
    EXPECT_EQ(sel[0], static_cast<int32_t>(at));
  }
}

}  // namespace
}  // namespace pq
