// ColumnChunkReader::set_keep_dictionary_indices: a flat column's batch of dictionary-encoded pages
// holds dictionary indices (ColumnBatch::dictionary) that give back exactly the values of a normal
// read; a batch reaching a page of another encoding (the writer's fallback to PLAIN) is gathered and
// holds plain values; GatherDictionaryRows fills the slots of the rows asked for; nested columns
// ignore the setting. ColumnBatch::c_strings holds exactly for batches whose every value came from
// a BYTE_ARRAY dictionary without a NUL inside.
#include <gtest/gtest.h>

#include <random>

#include "format/column/column_reader.h"
#include "tests/format/reader/scan_test_util.h"  // WriteAndOpen
#include "tests/format/writer/writer_test_util.h"

namespace pq::testing {
namespace {

constexpr int64_t kRows = 6'000;

// Leaves: 0 str STRING optional (falls back to PLAIN after its first 1500 rows of each group),
// 1 num INT32 required (dictionary all along), 2 list.element INT32 (nested).
std::shared_ptr<const FileReader> WriteFile(const std::string& name) {
  std::vector<SchemaElement> schema = {
      Root(3), Leaf("str", PhysicalType::kByteArray, Repetition::kOptional, Logical(LogicalType::Kind::kString)),
      Leaf("num", PhysicalType::kInt32, Repetition::kRequired),
      Group("l", Repetition::kOptional, 1, Logical(LogicalType::Kind::kList)), Group("list", Repetition::kRepeated, 1),
      Leaf("element", PhysicalType::kInt32, Repetition::kRequired)};
  std::vector<LeafData> d(3);
  for (int64_t r = 0; r < kRows; ++r) {
    const bool null = r % 3 == 1;
    d[0].def.push_back(null ? 0 : 1);
    if (!null) d[0].bytes.push_back(r % 3'000 < 1'500 ? "v" + std::to_string(r % 37) : "unique_" + std::to_string(r));
    d[1].i32.push_back(static_cast<int32_t>(r % 11) * 100);
    d[2].def.push_back(2);
    d[2].rep.push_back(0);
    d[2].i32.push_back(static_cast<int32_t>(r % 5));
  }
  WriterOptions w;
  w.row_group_rows = 3'000;
  w.page_rows = 200;
  w.dictionary_page_bytes = 1'000;
  return WriteAndOpen(schema, d, kRows, 300, w, name);
}

std::unique_ptr<ColumnChunkReader> Reader(const std::shared_ptr<const FileReader>& file, int group, int leaf,
                                          bool keep) {
  auto r = ColumnChunkReader::Make(file, group, leaf);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return nullptr;
  (*r)->set_keep_dictionary_indices(keep);
  return std::move(r).value();
}

// Entry e of a dictionary-coded batch's dictionary as text.
std::string EntryText(const ColumnBatch& b, uint32_t e) {
  if (b.type == PhysicalType::kInt32) return std::to_string(static_cast<const int32_t*>(b.dictionary)[e]);
  return std::string(static_cast<const ByteArray*>(b.dictionary)[e].view());
}

// Value slot k of a batch as text (dictionary-coded or not).
std::string SlotText(const ColumnBatch& b, int64_t k) {
  const auto slot = static_cast<size_t>(k);
  if (b.dictionary) return EntryText(b, b.dict_indices[slot]);
  if (b.type == PhysicalType::kInt32) return std::to_string(b.i32[slot]);
  return std::string(b.bytes[slot].view());
}

class DictionaryIndicesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = WriteFile("dictionary_indices.parquet");
    ASSERT_NE(file_, nullptr);
    ASSERT_EQ(file_->num_row_groups(), 2);
  }
  std::shared_ptr<const FileReader> file_;
};

TEST_F(DictionaryIndicesTest, IndexedBatchesGiveTheValuesOfANormalRead) {
  for (int leaf : {0, 1}) {
    for (int64_t batch_rows : {int64_t{1}, int64_t{97}, int64_t{200}, int64_t{1'000}, int64_t{3'000}}) {
      for (int g = 0; g < 2; ++g) {
        const std::string what = "leaf " + std::to_string(leaf) + " batch " + std::to_string(batch_rows) +
                                 " group " + std::to_string(g);
        auto plain = Reader(file_, g, leaf, false);
        auto coded = Reader(file_, g, leaf, true);
        ASSERT_TRUE(plain && coded);
        int coded_batches = 0, value_batches = 0;
        int64_t rows = 0;
        while (true) {
          ColumnBatch want, got;
          auto a = plain->ReadRecords(batch_rows, &want);
          auto b = coded->ReadRecords(batch_rows, &got);
          ASSERT_TRUE(a.ok() && b.ok()) << what;
          ASSERT_EQ(*a, *b) << what;
          if (*a == 0) break;
          EXPECT_EQ(want.dictionary, nullptr) << what;
          ASSERT_EQ(want.num_values, got.num_values) << what;
          ASSERT_EQ(want.num_levels, got.num_levels) << what;
          if (got.dictionary) {
            ++coded_batches;
            ASSERT_EQ(static_cast<int64_t>(got.dict_indices.size()), got.num_values) << what;
            for (uint32_t i : got.dict_indices) ASSERT_LT(i, got.dictionary_size) << what;
          } else {
            ++value_batches;
          }
          for (int64_t k = 0; k < want.num_values; ++k) {
            ASSERT_EQ(SlotText(want, k), SlotText(got, k)) << what << ", row " << rows << " slot " << k;
          }
          for (int64_t r = 0; r < want.num_levels; ++r) {
            ASSERT_EQ(want.value_index.empty() ? r : want.value_index[static_cast<size_t>(r)],
                      got.value_index.empty() ? r : got.value_index[static_cast<size_t>(r)])
                << what;
          }
          rows += *a;
        }
        EXPECT_EQ(rows, 3'000) << what;
        // A batch of a whole group of `str` reaches the fallback and holds values.
        if (leaf == 1 || batch_rows <= 1'000) {
          EXPECT_GT(coded_batches, 0) << what;
        }
        if (leaf == 0) {
          EXPECT_GT(value_batches, 0) << what;  // the pages after the fallback
        } else {
          EXPECT_EQ(value_batches, 0) << what;
        }
      }
    }
  }
}

TEST_F(DictionaryIndicesTest, SkipThenReadStaysCoded) {
  // SkipRecords between reads (also whole pages) keeps the batches right.
  std::mt19937_64 rng(7);
  for (int round = 0; round < 30; ++round) {
    auto plain = Reader(file_, round % 2, 0, false);
    auto coded = Reader(file_, round % 2, 0, true);
    ASSERT_TRUE(plain && coded);
    while (true) {
      const int64_t skip = static_cast<int64_t>(rng() % 500);
      auto s1 = plain->SkipRecords(skip);
      auto s2 = coded->SkipRecords(skip);
      ASSERT_TRUE(s1.ok() && s2.ok());
      ASSERT_EQ(*s1, *s2);
      const int64_t take = 1 + static_cast<int64_t>(rng() % 300);
      ColumnBatch want, got;
      auto a = plain->ReadRecords(take, &want);
      auto b = coded->ReadRecords(take, &got);
      ASSERT_TRUE(a.ok() && b.ok());
      ASSERT_EQ(*a, *b);
      if (*a == 0) break;
      ASSERT_EQ(want.num_values, got.num_values);
      for (int64_t k = 0; k < want.num_values; ++k) ASSERT_EQ(SlotText(want, k), SlotText(got, k));
    }
  }
}

TEST_F(DictionaryIndicesTest, GatherFillsTheSlotsOfTheRowsAskedFor) {
  auto plain = Reader(file_, 0, 0, false);
  auto coded = Reader(file_, 0, 0, true);
  ColumnBatch want, got;
  ASSERT_EQ(*plain->ReadRecords(1'000, &want), 1'000);
  ASSERT_EQ(*coded->ReadRecords(1'000, &got), 1'000);
  ASSERT_NE(got.dictionary, nullptr);
  std::vector<int32_t> rows;
  for (int32_t r = 0; r < 1'000; r += 7) rows.push_back(r);  // NULL rows among them
  got.GatherDictionaryRows(rows.data(), rows.size());
  ASSERT_NE(got.dictionary, nullptr);  // still coded
  ASSERT_GE(got.bytes.size(), static_cast<size_t>(got.num_values));
  for (int32_t r : rows) {
    const int32_t k = got.value_index[static_cast<size_t>(r)];
    ASSERT_EQ(k, want.value_index[static_cast<size_t>(r)]);
    if (k >= 0) {
      EXPECT_EQ(got.bytes[static_cast<size_t>(k)].view(), want.bytes[static_cast<size_t>(k)].view());
    }
  }
  got.GatherDictionary();
  EXPECT_EQ(got.dictionary, nullptr);
  EXPECT_TRUE(got.dict_indices.empty());
  ASSERT_EQ(got.bytes.size(), want.bytes.size());
  for (size_t k = 0; k < want.bytes.size(); ++k) EXPECT_EQ(got.bytes[k].view(), want.bytes[k].view());
  got.Clear();
  EXPECT_EQ(got.dictionary, nullptr);
  EXPECT_EQ(got.dictionary_size, 0);
}

TEST_F(DictionaryIndicesTest, ProbedBatchesHoldTheTargetExactlyWhereTheValueIs) {
  // leaf 0 falls back to PLAIN part-way through each group, leaf 1 does not.
  for (const auto& [leaf, wanted] : {std::pair<int, std::string>{0, "v5"}, {1, "300"}, {1, "no such value"}}) {
    for (int64_t batch_rows : {int64_t{97}, int64_t{1'000}, int64_t{3'000}}) {
      for (int g = 0; g < 2; ++g) {
        const std::string what = "leaf " + std::to_string(leaf) + " '" + wanted + "' batch " +
                                 std::to_string(batch_rows) + " group " + std::to_string(g);
        auto plain = Reader(file_, g, leaf, false);
        auto probed = Reader(file_, g, leaf, true);
        ASSERT_TRUE(plain && probed);
        int asked = 0;
        std::string other_text;
        probed->set_dictionary_probe([&](const ColumnBatch& b) {
          ++asked;
          ColumnChunkReader::DictionaryProbe p;
          p.other = 0;
          for (int64_t e = 0; e < b.dictionary_size; ++e) {
            if (EntryText(b, static_cast<uint32_t>(e)) == wanted) p.target = e;
          }
          if (p.target == 0) p.other = 1;
          other_text = EntryText(b, p.other);
          return std::optional<ColumnChunkReader::DictionaryProbe>(p);
        });
        int64_t hits = 0, coded_batches = 0;
        while (true) {
          ColumnBatch want, got;
          auto a = plain->ReadRecords(batch_rows, &want);
          auto b = probed->ReadRecords(batch_rows, &got);
          ASSERT_TRUE(a.ok() && b.ok()) << what;
          ASSERT_EQ(*a, *b) << what;
          if (*a == 0) break;
          ASSERT_EQ(want.num_values, got.num_values) << what;
          int64_t targets = 0;
          for (int64_t k = 0; k < want.num_values; ++k) {
            const std::string w = SlotText(want, k), v = SlotText(got, k);
            ASSERT_EQ(w == wanted, v == wanted) << what << " slot " << k;
            // Elsewhere the probe's other entry, or the page's own value past the fallback.
            if (v != wanted) {
              ASSERT_TRUE(v == other_text || (!got.dictionary && v == w)) << what << " slot " << k;
            }
            targets += w == wanted;
          }
          hits += targets;
          if (got.dictionary) {
            ++coded_batches;
            EXPECT_EQ(got.probe_found, targets) << what;
          } else {
            EXPECT_EQ(got.probe_found, -1) << what;
          }
        }
        EXPECT_EQ(asked, 1) << what;  // once for the chunk's dictionary
        // A batch of a whole group of `str` reaches the fallback: probed indices gathered as values.
        if (leaf == 1 || batch_rows <= 1'000) {
          EXPECT_GT(coded_batches, 0) << what;
        }
        if (wanted == "no such value") {
          EXPECT_EQ(hits, 0) << what;
        } else {
          EXPECT_GT(hits, 10) << what;
        }
      }
    }
  }
}

TEST_F(DictionaryIndicesTest, NestedColumnsIgnoreTheSetting) {
  auto coded = Reader(file_, 0, 2, true);
  ColumnBatch got;
  ASSERT_EQ(*coded->ReadRecords(500, &got), 500);
  EXPECT_EQ(got.dictionary, nullptr);
  ASSERT_EQ(got.i32.size(), 500u);
  for (size_t k = 0; k < 500; ++k) EXPECT_EQ(got.i32[k], static_cast<int32_t>(k % 5));
}

// Value slot k of a batch, read as ColumnBatch::c_strings promises: up to its NUL.
std::string CString(const ColumnBatch& b, int64_t k) {
  const ByteArray v = b.dictionary ? static_cast<const ByteArray*>(b.dictionary)[b.dict_indices[static_cast<size_t>(k)]]
                                   : b.bytes[static_cast<size_t>(k)];
  return std::string(reinterpret_cast<const char*>(v.ptr));
}

TEST_F(DictionaryIndicesTest, ValuesOfADictionaryAreCStrings) {
  for (bool keep : {false, true}) {
    for (int64_t batch_rows : {int64_t{97}, int64_t{200}, int64_t{1'000}, int64_t{3'000}}) {
      const std::string what = std::string(keep ? "indices" : "values") + ", batch " + std::to_string(batch_rows);
      int c_string_batches = 0;
      for (int g = 0; g < 2; ++g) {
        auto reader = Reader(file_, g, 0, keep);
        ASSERT_TRUE(reader) << what;
        for (int batch = 0;; ++batch) {
          ColumnBatch b;
          auto n = reader->ReadRecords(batch_rows, &b);
          ASSERT_TRUE(n.ok()) << what;
          if (*n == 0) break;
          bool only_repeats = true;  // the values before the writer's fallback
          bool late_unique = false;  // values long after it: PLAIN pages
          for (int64_t k = 0; k < b.num_values; ++k) {
            const std::string v = SlotText(b, k);
            if (v.rfind("unique_", 0) == 0) {
              only_repeats = false;
              late_unique |= std::stoll(v.substr(7)) % 3'000 >= 2'000;
            }
            if (b.c_strings) {
              ASSERT_EQ(CString(b, k), v) << what << ", slot " << k;
            }
          }
          // Past the first batches the values taken outnumber the dictionary's entries (fewer
          // than 200 here): it is copied as C strings. A batch of indices never is.
          if (!keep && batch >= 3 && only_repeats) {
            EXPECT_TRUE(b.c_strings) << what << ", batch " << batch;
          }
          if (keep || late_unique) {
            EXPECT_FALSE(b.c_strings) << what << ", batch " << batch;
          }
          c_string_batches += b.c_strings;
        }
      }
      // A batch of a whole group reaches the fallback's PLAIN pages.
      if (!keep && batch_rows <= 200) {
        EXPECT_GT(c_string_batches, 0) << what;
      }
    }
  }
  // A column of numbers is never one.
  auto numbers = Reader(file_, 0, 1, false);
  ColumnBatch b;
  ASSERT_TRUE(numbers->ReadRecords(500, &b).ok());
  EXPECT_FALSE(b.c_strings);
}

// A file of one required STRING column holding `values`, in one row group.
std::shared_ptr<const FileReader> WriteStrings(const std::string& name, const std::vector<std::string>& values) {
  std::vector<SchemaElement> schema = {
      Root(1), Leaf("s", PhysicalType::kByteArray, Repetition::kRequired, Logical(LogicalType::Kind::kString))};
  std::vector<LeafData> d(1);
  d[0].bytes = values;
  const auto rows = static_cast<int64_t>(values.size());
  WriterOptions w;
  w.row_group_rows = rows;
  return WriteAndOpen(schema, d, rows, rows, w, name);
}

// The copy is made only once the values read outnumber the entries: a read of a few values of a
// large dictionary does not pay for it.
TEST(DictionaryCStrings, OnlyOnceTheValuesReadOutnumberTheEntries) {
  std::vector<std::string> values;
  for (int r = 0; r < 10'000; ++r) values.push_back("entry_" + std::to_string(r % 2'000));
  auto file = WriteStrings("dictionary_c_strings.parquet", values);
  ASSERT_NE(file, nullptr);
  auto reader = Reader(file, 0, 0, false);
  ASSERT_TRUE(reader);
  std::vector<bool> c_strings;
  int64_t row = 0;
  while (true) {
    ColumnBatch b;
    auto n = reader->ReadRecords(500, &b);
    ASSERT_TRUE(n.ok());
    if (*n == 0) break;
    ASSERT_EQ(b.dictionary, nullptr);  // values, not indices
    for (int64_t k = 0; k < b.num_values; ++k, ++row) {
      ASSERT_EQ(SlotText(b, k), values[static_cast<size_t>(row)]) << row;
      if (b.c_strings) {
        ASSERT_EQ(CString(b, k), values[static_cast<size_t>(row)]) << row;
      }
    }
    c_strings.push_back(b.c_strings);
  }
  // 2,000 entries: batches of 500 values reach them with the fourth.
  ASSERT_EQ(c_strings.size(), 20u);
  EXPECT_EQ(c_strings, std::vector<bool>({false, false, false, true, true, true, true, true, true, true, true, true,
                                          true, true, true, true, true, true, true, true}));
}

TEST(DictionaryCStrings, ADictionaryWithANulInsideIsLeftAsItIs) {
  std::vector<std::string> values;
  for (int r = 0; r < 1'000; ++r) values.push_back(r % 10 == 3 ? std::string("a\0b", 3) : "k" + std::to_string(r % 10));
  auto file = WriteStrings("dictionary_nul.parquet", values);
  ASSERT_NE(file, nullptr);
  for (bool keep : {false, true}) {
    auto reader = Reader(file, 0, 0, keep);
    ASSERT_TRUE(reader);
    ColumnBatch b;
    ASSERT_TRUE(reader->ReadRecords(1'000, &b).ok());
    EXPECT_EQ(b.dictionary != nullptr, keep);  // the column is dictionary-encoded
    EXPECT_FALSE(b.c_strings);
    for (int64_t k = 0; k < b.num_values; ++k) {
      ASSERT_EQ(SlotText(b, k), values[static_cast<size_t>(k)]) << k;
    }
  }
}

}  // namespace
}  // namespace pq::testing
