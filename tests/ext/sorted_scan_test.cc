// SortedRows (ext/sorted_scan.h): values come back exactly as appended (storage class and bytes),
// the order is SQLite's (CompareSql) with ties in append order, ascending and descending, for few
// and for many distinct keys, and row origins survive the reordering.
#include "ext/sorted_scan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "format/predicate/predicate.h"

namespace pq::ext {
namespace {

// An owned value, to keep the bytes of TEXT and BLOB cells alive.
struct Owned {
  CellType type = CellType::kNull;
  int64_t i = 0;
  double d = 0;
  std::string bytes;
  Cell AsCell() const {
    switch (type) {
      case CellType::kNull: return Cell::Null();
      case CellType::kInteger: return Cell::Integer(i);
      case CellType::kReal: return Cell::Real(d);
      case CellType::kText: return Cell::Text(bytes);
      case CellType::kBlob: return Cell::Blob(bytes);
    }
    return Cell::Null();
  }
};

std::vector<uint32_t> KeysOf(const KeyColumn& k) {
  std::vector<uint32_t> out;
  for (size_t r = 0; r < k.size(); ++r) out.push_back(k.KeyOfRow(r));
  return out;
}

bool SameValue(const Cell& a, const Cell& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case CellType::kNull: return true;
    case CellType::kInteger: return a.i == b.i;
    case CellType::kReal: return std::signbit(a.d) == std::signbit(b.d) && a.d == b.d;
    default: return a.bytes == b.bytes;
  }
}

// Values of every class, with ties across classes (1 and 1.0, -0.0 and 0.0), common prefixes,
// empty TEXT and BLOB; `distinct` bounds how many different values there are.
std::vector<Owned> RandomValues(std::mt19937_64& rng, size_t n, int distinct) {
  std::vector<Owned> out(n);
  std::uniform_int_distribution<int> pick(0, distinct - 1);
  for (Owned& v : out) {
    const int k = pick(rng);
    switch (k % 7) {
      case 0: v.type = CellType::kNull; break;
      case 1: v.type = CellType::kInteger, v.i = k / 7 - distinct / 20; break;
      case 2: v.type = CellType::kReal, v.d = (k / 7 - distinct / 20) * 0.5; break;  // 1.0 ties with 1
      case 3: v.type = CellType::kReal, v.d = (k / 7) % 2 ? -0.0 : 0.0; break;
      case 4: v.type = CellType::kText, v.bytes = "ab" + std::string(static_cast<size_t>(k % 5), 'x') + std::to_string(k / 7); break;
      case 5: v.type = CellType::kText, v.bytes = k % 2 ? "" : "\xc3\xa9" + std::to_string(k); break;
      default: v.type = CellType::kBlob, v.bytes = std::string(static_cast<size_t>(k % 4), '\0') + std::to_string(k); break;
    }
  }
  if (distinct > 2) {
    out[0] = {CellType::kInteger, std::numeric_limits<int64_t>::min(), 0, {}};
    out[1 % n] = {CellType::kReal, 0, -std::numeric_limits<double>::infinity(), {}};
  }
  return out;
}

// Row r's value in a column of numbers of two classes and NULLs (tagged, not bytes).
Cell MixedNumber(size_t r) {
  if (r % 3 == 0) return Cell::Null();
  return r % 3 == 1 ? Cell::Integer(static_cast<int64_t>(r)) : Cell::Real(static_cast<double>(r) + 0.5);
}

// Appends `keys` as the key and their positions as an INTEGER value column; sorts; checks the
// order against a stable sort by CompareSql, and that every value came back. With at most
// kScatterRanks ranks the columns of numbers are scattered to their places, the others gathered.
void CheckSort(const std::vector<Owned>& keys, bool descending) {
  SortedRows rows;
  rows.Reset(3, keys.size() / 2);
  for (size_t r = 0; r < keys.size(); ++r) {
    rows.key().Append(keys[r].AsCell());
    rows.Values(0).Append(Cell::Integer(static_cast<int64_t>(r)));
    // A column of every class, to see values come back in the new order.
    rows.Values(1).Append(keys[keys.size() - 1 - r].AsCell());
    rows.Values(2).Append(MixedNumber(r));
    rows.AddOrigin(r < keys.size() / 3 ? 0 : 1, static_cast<int64_t>(r));
  }
  ASSERT_EQ(rows.rows(), static_cast<int64_t>(keys.size()));
  const bool c_strings_kept = rows.key().distinct_count() <= keys.size() / 4;
  rows.Sort(descending);

  std::vector<size_t> expected(keys.size());
  std::iota(expected.begin(), expected.end(), 0);
  std::stable_sort(expected.begin(), expected.end(), [&](size_t a, size_t b) {
    const int c = CompareSql(keys[a].AsCell(), keys[b].AsCell());
    return descending ? c > 0 : c < 0;
  });
  for (size_t i = 0; i < keys.size(); ++i) {
    const size_t from = expected[i];
    ASSERT_EQ(rows.ValueAt(0, i).i, static_cast<int64_t>(from)) << "position " << i;
    const char* c_string = nullptr;
    ASSERT_TRUE(SameValue(rows.KeyAt(i, &c_string), keys[from].AsCell())) << "position " << i;
    ASSERT_EQ(rows.CStringAt(i).data(), c_string) << "position " << i;
    if (c_string != nullptr) {
      ASSERT_EQ(rows.CStringAt(i).size(), std::strlen(c_string)) << "position " << i;
    }
    const Owned& key = keys[from];
    // C strings are kept for keys repeated four times on average, and only for TEXT without a NUL.
    if (c_strings_kept && key.type == CellType::kText && key.bytes.find('\0') == std::string::npos) {
      ASSERT_NE(c_string, nullptr) << "position " << i;
      ASSERT_EQ(std::string(c_string), key.bytes) << "position " << i;
    } else {
      ASSERT_EQ(c_string, nullptr) << "position " << i;
    }
    ASSERT_TRUE(SameValue(rows.ValueAt(1, i), keys[keys.size() - 1 - from].AsCell())) << "position " << i;
    ASSERT_TRUE(SameValue(rows.ValueAt(2, i), MixedNumber(from))) << "position " << i;
    const RowOrigin origin = rows.OriginAt(static_cast<int64_t>(i));
    ASSERT_EQ(origin.rowid, static_cast<int64_t>(from));
    ASSERT_EQ(origin.file, from < keys.size() / 3 ? 0u : 1u);
  }
}

TEST(SortedRows, FewDistinctKeysInSqliteOrderTiesInAppendOrder) {
  std::mt19937_64 rng(11);
  for (int distinct : {1, 3, 20, 70}) {
    const std::vector<Owned> keys = RandomValues(rng, 3000, distinct);
    CheckSort(keys, false);
    CheckSort(keys, true);
  }
}

// Keys no two of which SQLite finds equal (every rank one key): the key of each row follows from the
// ranks' places, read in order and out of order.
TEST(SortedRows, OneKeyPerRank) {
  std::mt19937_64 rng(13);
  for (int distinct : {1, 2, 20, 5000}) {
    std::vector<Owned> keys(20000);
    for (Owned& k : keys) {
      const auto v = static_cast<int>(rng() % static_cast<uint64_t>(distinct));
      if (v % 3 == 0) {
        k = {CellType::kInteger, v, 0, {}};
      } else {
        k = {CellType::kText, 0, 0, "k" + std::to_string(v)};
        if (v % 3 == 2) k.bytes.push_back('\0');  // a NUL inside: no C string
      }
    }
    CheckSort(keys, false);
    CheckSort(keys, true);
    SortedRows rows;
    rows.Reset(0, keys.size());
    for (size_t r = 0; r < keys.size(); ++r) {
      rows.key().Append(keys[r].AsCell());
      rows.AddOrigin(0, static_cast<int64_t>(r));
    }
    rows.Sort(false);
    for (int probe = 0; probe < 2000; ++probe) {  // out of order
      const size_t i = rng() % keys.size();
      ASSERT_TRUE(SameValue(rows.KeyAt(i), keys[static_cast<size_t>(rows.OriginAt(static_cast<int64_t>(i)).rowid)].AsCell()))
          << i;
    }
  }
}

TEST(SortedRows, ManyDistinctKeys) {
  std::mt19937_64 rng(12);
  const std::vector<Owned> keys = RandomValues(rng, 40000, 1 << 20);
  CheckSort(keys, false);
  CheckSort(keys, true);
}

TEST(SortedRows, EmptyAndOneRow) {
  SortedRows rows;
  rows.Reset(0, 0);
  rows.Sort(false);
  EXPECT_EQ(rows.rows(), 0);
  CheckSort({Owned{CellType::kText, 0, 0, "x"}}, true);
}

TEST(SortedRows, EqualKeysOfTwoClassesShareARank) {
  // 1 and 1.0, -0.0 and 0.0 are equal to SQLite: rows keep append order among them.
  std::vector<Owned> keys = {{CellType::kReal, 0, 1.0, {}}, {CellType::kInteger, 2, 0, {}},
                             {CellType::kInteger, 1, 0, {}}, {CellType::kReal, 0, 0.0, {}},
                             {CellType::kReal, 0, -0.0, {}}, {CellType::kReal, 0, 1.0, {}}};
  auto sorted = [&](bool descending) {
    SortedRows rows;
    rows.Reset(1, 0);
    for (size_t r = 0; r < keys.size(); ++r) {
      rows.key().Append(keys[r].AsCell());
      rows.Values(0).Append(Cell::Integer(static_cast<int64_t>(r)));
      rows.AddOrigin(0, static_cast<int64_t>(r));
    }
    rows.Sort(descending);
    std::vector<int64_t> order;
    for (size_t i = 0; i < keys.size(); ++i) {
      order.push_back(rows.ValueAt(0, i).i);
      // Two keys of one rank: each row still has its own key.
      EXPECT_TRUE(SameValue(rows.KeyAt(i), keys[static_cast<size_t>(order.back())].AsCell())) << i;
    }
    return order;
  };
  EXPECT_EQ(sorted(false), (std::vector<int64_t>{3, 4, 0, 2, 5, 1}));
  EXPECT_EQ(sorted(true), (std::vector<int64_t>{1, 0, 2, 5, 3, 4}));
}

// Appends rows whose key is distinct[key_of_row[r]], an INTEGER column (r * 7 - 3) and a REAL
// column (r / 4, NULL at nan_row), as the cursor does: the keys of a batch of 1,000 rows, then each
// column's numbers of the batch at once (or one Append per value: `per_row`). Sorts, then reads
// the order as the cursor does, a run at a time (NumberRun), checking every value against a stable
// sort of the rows by CompareSql, and ValueAt and OriginAt beside it, and that a run has one key
// when RunsOfOneKey. Returns how many runs the order came in; *partitioned, whether the columns
// stayed partitioned by key.
size_t CheckNumberRuns(const std::vector<Owned>& distinct, const std::vector<uint32_t>& key_of_row,
                       size_t nan_row, bool per_row, bool descending, bool* partitioned) {
  const size_t n = key_of_row.size();
  std::vector<int64_t> integers(n);
  std::vector<double> reals(n);
  for (size_t r = 0; r < n; ++r) {
    integers[r] = static_cast<int64_t>(r) * 7 - 3;
    reals[r] = r == nan_row ? std::nan("") : static_cast<double>(r) / 4;
  }
  SortedRows rows;
  rows.Reset(2, n);
  constexpr size_t kBatch = 1000;
  for (size_t first = 0; first < n; first += kBatch) {
    const size_t count = std::min(kBatch, n - first);
    for (size_t r = first; r < first + count; ++r)
      rows.key().Append(distinct[key_of_row[r]].AsCell());
    if (per_row) {
      for (size_t r = first; r < first + count; ++r)
        rows.Values(0).Append(Cell::Integer(integers[r]));
      for (size_t r = first; r < first + count; ++r) rows.Values(1).Append(Cell::Real(reals[r]));
    } else {
      rows.Values(0).AppendNumbers(integers.data() + first, count, false);
      rows.Values(1).AppendNumbers(reals.data() + first, count, true);
    }
    rows.AddOrigins(0, static_cast<int64_t>(first), static_cast<int64_t>(count));
  }
  rows.Sort(descending);
  *partitioned = rows.partitioned();

  std::vector<size_t> expected(n);
  std::iota(expected.begin(), expected.end(), 0);
  std::stable_sort(expected.begin(), expected.end(), [&](size_t a, size_t b) {
    const int c = CompareSql(distinct[key_of_row[a]].AsCell(), distinct[key_of_row[b]].AsCell());
    return descending ? c > 0 : c < 0;
  });
  size_t runs = 0;
  for (size_t i = 0; i < n;) {
    const uint64_t* words[2];
    CellType types[2];
    const size_t run = rows.NumberRun(i, words, types);
    EXPECT_GE(run, 1u);
    EXPECT_LE(run, n - i);
    if (run == 0 || run > n - i) return 0;
    ++runs;
    const Cell first_key = rows.KeyAt(i);
    for (size_t j = 0; j < run; ++j, ++i) {
      const size_t from = expected[i];
      if (rows.RunsOfOneKey()) {
        EXPECT_TRUE(SameValue(rows.KeyAt(i), first_key)) << "position " << i;
      }
      EXPECT_TRUE(SameValue(rows.KeyAt(i), distinct[key_of_row[from]].AsCell()))
          << "position " << i;
      const Cell integer = Cell::Integer(integers[from]);
      const Cell real = Cell::Real(reals[from]);
      EXPECT_TRUE(SameValue(rows.ValueAt(0, i), integer)) << "position " << i;
      EXPECT_TRUE(SameValue(rows.ValueAt(1, i), real)) << "position " << i;
      if (words[0] != nullptr) {
        EXPECT_EQ(types[0], CellType::kInteger);
        EXPECT_EQ(static_cast<int64_t>(words[0][j]), integers[from]) << "position " << i;
      }
      if (words[1] != nullptr) {
        EXPECT_EQ(types[1], CellType::kReal);
        EXPECT_EQ(std::bit_cast<double>(words[1][j]), reals[from]) << "position " << i;
      } else {
        EXPECT_NE(nan_row, n) << "a column of numbers of one class handed out one by one, position "
                              << i;
      }
      if (i % 997 == 0) {
        EXPECT_EQ(rows.OriginAt(static_cast<int64_t>(i)).rowid, static_cast<int64_t>(from));
      }
      if (::testing::Test::HasFailure()) return 0;
    }
  }
  return runs;
}

// Keys of three values, 450,000 rows (one key in two, so its partition reaches blocks of full
// size): the columns stay partitioned by key and come out in runs, ascending and descending, from
// batches and from one Append per value.
TEST(SortedRows, NumberColumnsOfFewKeysStayPartitionedByKey) {
  const std::vector<Owned> distinct = {
      {CellType::kText, 0, 0, "b"}, {CellType::kText, 0, 0, "a"}, {CellType::kInteger, 9, 0, {}}};
  std::mt19937_64 rng(7);
  std::vector<uint32_t> key_of_row(450000);
  for (uint32_t& k : key_of_row) k = rng() % 4 == 0 ? 1 : (rng() % 3 == 0 ? 2 : 0);
  for (bool descending : {false, true}) {
    for (bool per_row : {false, true}) {
      bool partitioned = false;
      const size_t runs = CheckNumberRuns(distinct, key_of_row, key_of_row.size(), per_row,
                                          descending, &partitioned);
      EXPECT_TRUE(partitioned) << "descending " << descending << " per_row " << per_row;
      // Blocks of at most 16,384 values: a key's 225,000 rows come in more than 13 runs.
      EXPECT_GT(runs, 3u + 13u) << "descending " << descending << " per_row " << per_row;
    }
  }
}

// What ends the partitions: a NULL among the numbers, the 257th distinct key, two keys of one
// rank (1 and 1.0, whose rows interleave in scan order); the values stay exact, in a run per key
// (one run when two keys share a rank, or there are more than 256).
TEST(SortedRows, PartitionsEndWhereTheyCannotHold) {
  bool partitioned = true;
  std::mt19937_64 rng(11);
  std::vector<Owned> distinct;
  for (int k = 0; k < 300; ++k) distinct.push_back({CellType::kInteger, (k * 37) % 300, 0, {}});
  std::vector<uint32_t> key_of_row(200000);
  for (uint32_t& k : key_of_row) k = static_cast<uint32_t>(rng() % 20);
  // A NULL at row 150,000.
  EXPECT_EQ(CheckNumberRuns(distinct, key_of_row, 150000, false, false, &partitioned), 20u);
  EXPECT_FALSE(partitioned);
  EXPECT_EQ(CheckNumberRuns(distinct, key_of_row, 150000, true, true, &partitioned), 20u);
  EXPECT_FALSE(partitioned);
  // The 257th key at row 120,500 (in the middle of a batch).
  std::vector<uint32_t> many = key_of_row;
  for (size_t r = 120500; r < many.size(); ++r) many[r] = static_cast<uint32_t>(rng() % 300);
  // (300 keys: more than runs of one key are made for; one run, each row with its own key.)
  EXPECT_EQ(CheckNumberRuns(distinct, many, many.size(), false, false, &partitioned), 1u);
  EXPECT_FALSE(partitioned);
  EXPECT_EQ(CheckNumberRuns(distinct, many, many.size(), false, true, &partitioned), 1u);
  EXPECT_FALSE(partitioned);
  // 1 and 1.0: one rank of two keys.
  std::vector<Owned> tied = {{CellType::kInteger, 1, 0, {}},
                             {CellType::kReal, 0, 1.0, {}},
                             {CellType::kInteger, 2, 0, {}}};
  std::vector<uint32_t> some(100000);
  for (uint32_t& k : some) k = static_cast<uint32_t>(rng() % 3);
  EXPECT_EQ(CheckNumberRuns(tied, some, some.size(), false, false, &partitioned), 1u);
  EXPECT_FALSE(partitioned);
  EXPECT_EQ(CheckNumberRuns(tied, some, some.size(), true, true, &partitioned), 1u);
  EXPECT_FALSE(partitioned);
}

TEST(ValueColumn, KeepsStorageClassAndBytes) {
  ValueColumn c;
  c.Append(Cell::Integer(5));
  c.Append(Cell::Null());
  c.Append(Cell::Real(-0.0));
  c.Append(Cell::Real(std::nan("")));  // NaN is NULL, as SQLite stores it
  c.Append(Cell::Integer(std::numeric_limits<int64_t>::min()));
  // The first TEXT turns the column to bytes: the numbers before it must survive.
  c.Append(Cell::Text("hello"));
  c.Append(Cell::Blob(std::string_view("\0\1", 2)));
  c.Append(Cell::Text(""));
  c.Append(Cell::Real(2.5));
  ASSERT_EQ(c.size(), 9u);
  EXPECT_TRUE(SameValue(c.Get(0), Cell::Integer(5)));
  EXPECT_EQ(c.Get(1).type, CellType::kNull);
  EXPECT_TRUE(SameValue(c.Get(2), Cell::Real(-0.0)));
  EXPECT_EQ(c.Get(3).type, CellType::kNull);
  EXPECT_TRUE(SameValue(c.Get(4), Cell::Integer(std::numeric_limits<int64_t>::min())));
  EXPECT_TRUE(SameValue(c.Get(5), Cell::Text("hello")));
  EXPECT_TRUE(SameValue(c.Get(6), Cell::Blob(std::string_view("\0\1", 2))));
  EXPECT_TRUE(SameValue(c.Get(7), Cell::Text("")));
  EXPECT_TRUE(SameValue(c.Get(8), Cell::Real(2.5)));

  c.Permute({8, 5, 0, 1});
  ASSERT_EQ(c.size(), 4u);
  EXPECT_TRUE(SameValue(c.Get(0), Cell::Real(2.5)));
  EXPECT_TRUE(SameValue(c.Get(1), Cell::Text("hello")));
  EXPECT_TRUE(SameValue(c.Get(2), Cell::Integer(5)));
  EXPECT_EQ(c.Get(3).type, CellType::kNull);
  EXPECT_GT(c.MemoryBytes(), 0);
}

TEST(ValueColumn, UniformColumnsNeedNoTags) {
  ValueColumn numbers, texts;
  for (int i = 0; i < 1000; ++i) {
    numbers.Append(Cell::Real(i * 0.25));
    texts.Append(Cell::Text("v" + std::to_string(i)));
  }
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(SameValue(numbers.Get(static_cast<size_t>(i)), Cell::Real(i * 0.25)));
    ASSERT_TRUE(SameValue(texts.Get(static_cast<size_t>(i)), Cell::Text("v" + std::to_string(i))));
  }
  // 8 bytes a row (and the text itself), no tag byte.
  EXPECT_LT(numbers.MemoryBytes(), 1000 * 8 * 2 + 64);
}

// AppendNumbers gives the column Append would give value by value: NaN as NULL, a class change,
// numbers after text.
TEST(ValueColumn, AppendNumbersIsAppendOfEachValue) {
  const double nan = std::nan("");
  const std::vector<double> reals = {1.5, -0.0, nan, 3.0, nan, 1e300};
  const std::vector<int32_t> small = {7, -8, std::numeric_limits<int32_t>::min()};
  const std::vector<int64_t> large = {std::numeric_limits<int64_t>::max(), 0};
  const std::vector<float> floats = {0.25f, std::numeric_limits<float>::quiet_NaN()};
  ValueColumn bulk, one;
  auto both = [&](auto values, bool real) {
    bulk.AppendNumbers(values.data(), values.size(), real);
    for (auto v : values) one.Append(real ? Cell::Real(static_cast<double>(v)) : Cell::Integer(static_cast<int64_t>(v)));
  };
  both(std::vector<double>{2.0, 4.0}, true);  // uniform REALs
  both(reals, true);                         // NaN: NULL, tags from then on
  both(large, false);                        // another class
  both(small, true);                         // INTEGERs widened to REAL
  bulk.Append(Cell::Text("t"));
  one.Append(Cell::Text("t"));
  both(floats, true);  // after text: bytes mode
  both(small, false);
  ValueColumn fresh;  // a column of INTEGERs only stays without tags
  fresh.AppendNumbers(small.data(), small.size(), false);
  fresh.AppendNumbers(large.data(), large.size(), false);
  CellType type = CellType::kNull;
  ASSERT_NE(fresh.UniformNumbers(&type), nullptr);
  EXPECT_EQ(type, CellType::kInteger);
  EXPECT_EQ(fresh.Get(4).i, 0);
  ASSERT_EQ(bulk.size(), one.size());
  for (size_t r = 0; r < one.size(); ++r) ASSERT_TRUE(SameValue(bulk.Get(r), one.Get(r))) << r;
  EXPECT_EQ(bulk.UniformNumbers(&type), nullptr);
}

TEST(KeyColumn, StableAddressesFindTheSameKeyAndOnlyIt) {
  const std::string dictionary = "catdogcat";
  KeyColumn k;
  k.AppendAtStableAddress(Cell::Text(std::string_view(dictionary).substr(0, 3)));  // cat
  k.AppendAtStableAddress(Cell::Text(std::string_view(dictionary).substr(3, 3)));  // dog
  k.AppendAtStableAddress(Cell::Text(std::string_view(dictionary).substr(0, 3)));  // cat, same address
  k.AppendAtStableAddress(Cell::Text(std::string_view(dictionary).substr(6, 3)));  // cat elsewhere
  k.AppendAtStableAddress(Cell::Blob(std::string_view(dictionary).substr(0, 3)));  // a BLOB, not TEXT
  k.AppendAtStableAddress(Cell::Text(std::string_view(dictionary).substr(0, 2)));  // "ca"
  EXPECT_EQ(KeysOf(k), (std::vector<uint32_t>{0, 1, 0, 0, 2, 3}));
  EXPECT_EQ(k.distinct_count(), 4u);
  // After ForgetAddresses the memory may hold something else: values are looked up again.
  std::string reused = "dog";
  k.ForgetAddresses();
  k.AppendAtStableAddress(Cell::Text(reused));
  reused = "cat";
  k.ForgetAddresses();
  k.AppendAtStableAddress(Cell::Text(reused));
  EXPECT_EQ(k.KeyOfRow(7), 0u);
  EXPECT_EQ(k.KeyOfRow(6), 1u);
}

// Key ids are a byte per row up to 256 distinct values and four bytes from the 257th: the rows
// appended before keep their keys, and sorting and origins are as for any keys.
TEST(KeyColumn, KeysTurnWideAtThe257thDistinctValue) {
  std::vector<Owned> keys;
  for (int r = 0; r < 3000; ++r) {
    // 256 values first, each seen several times; then new ones among the old.
    const int v = r < 1500 ? (r * 7) % 256 : (r % 3 == 0 ? 256 + r % 60 : (r * 11) % 256);
    keys.push_back({CellType::kText, 0, 0, "key" + std::to_string(1000 - v)});
  }
  const std::string arena = [&] {
    std::string all;
    for (const Owned& k : keys) all += k.bytes;
    return all;
  }();
  for (bool stable_addresses : {false, true}) {
    KeyColumn k;
    k.Reserve(100);  // fewer than the rows: the keys grow past it
    std::vector<uint32_t> expected;
    std::vector<std::string> first_seen;
    size_t at = 0;
    for (const Owned& key : keys) {
      const std::string_view bytes(arena.data() + at, key.bytes.size());
      at += key.bytes.size();
      if (stable_addresses) {
        k.AppendAtStableAddress(Cell::Text(bytes));
      } else {
        k.Append(Cell::Text(bytes));
      }
      auto it = std::find(first_seen.begin(), first_seen.end(), key.bytes);
      if (it == first_seen.end()) it = first_seen.insert(first_seen.end(), key.bytes);
      expected.push_back(static_cast<uint32_t>(it - first_seen.begin()));
    }
    ASSERT_EQ(first_seen.size(), 276u);  // 256, then 20 new ones (r a multiple of 3, modulo 60)
    EXPECT_EQ(k.distinct_count(), 276u);
    EXPECT_EQ(KeysOf(k), expected);
  }
  CheckSort(keys, false);
  CheckSort(keys, true);
  // Exactly 256 distinct values stay narrow and sort alike.
  std::vector<Owned> narrow(keys.begin(), keys.begin() + 1500);
  CheckSort(narrow, false);
  CheckSort(narrow, true);
}

TEST(SortedRows, OriginsAsRuns) {
  SortedRows rows;
  rows.Reset(0, 0);
  rows.AddOrigins(0, 10, 5);  // rowids 10..14 of file 0
  rows.AddOrigin(0, 15);      // continues the run
  rows.AddOrigin(0, 20);      // a gap (filtered rows)
  rows.AddOrigins(1, 21, 3);  // next file
  rows.AddOrigins(1, 40, 0);  // nothing
  for (int r = 0; r < 10; ++r) rows.key().Append(Cell::Integer(9 - r));  // reverses the rows
  rows.Sort(false);
  const std::vector<RowOrigin> expected = {{1, 23}, {1, 22}, {1, 21}, {0, 20}, {0, 15},
                                           {0, 14}, {0, 13}, {0, 12}, {0, 11}, {0, 10}};
  ASSERT_EQ(rows.rows(), 10);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(rows.OriginAt(i).file, expected[static_cast<size_t>(i)].file) << i;
    EXPECT_EQ(rows.OriginAt(i).rowid, expected[static_cast<size_t>(i)].rowid) << i;
  }
}

}  // namespace
}  // namespace pq::ext
