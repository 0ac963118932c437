// Files the project's FileWriter encrypts, read back through FileReader, TableScanner and PlanScan.
// Every mode (AES_GCM_V1 and AES_GCM_CTR_V1, encrypted and plaintext footer, uniform and per-column
// keys, stored and supplied AAD prefix, 128/192/256-bit keys, several codecs, data pages v1 and v2,
// with and without dictionary and page index) gives exactly the rows of the same table written in
// plaintext, and pruning (statistics, dictionary, Bloom filter, page index, page header
// statistics) decides exactly as on the plaintext file. Reading by OffsetIndex (seeking to pages)
// keeps the page ordinals of the AADs right. Readers without keys read what they may and name
// what they cannot; swapped pages and altered Bloom filters are authentication errors.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "format/crypto/file_decryptor.h"
#include "format/crypto/key_material.h"
#include "format/crypto/key_unwrapper.h"
#include "format/crypto/key_wrapper.h"
#include "format/crypto/kms_client.h"
#include "format/metadata/metadata_io.h"
#include "format/predicate/scan_plan.h"
#include "format/reader/table_scanner.h"
#include "tests/format/reader/scan_test_util.h"

namespace pq {
namespace {

using namespace pq::testing;  // NOLINT

const std::string kFooterKey = "footer-key-16byt";
const std::string kIdKey = "id-key-16-bytes!";
const std::string kNameKey = "name-key-24-bytes-long!!";
const std::string kTagsKey = "tags-key-32-bytes-long-xxxxxxxx!";
const std::string kDblKey = "dbl-key-16-bytes";

constexpr int64_t kRows = 12'000;
constexpr int64_t kRowGroupRows = 5'000;

// The test table of scan_test_util.h with even ids (so that odd ids inside a row group's range
// are absent): id INT64 2r, opt_i32, name STRING, dbl DOUBLE, tags LIST<INT32>.
std::vector<LeafData> Table() {
  std::vector<LeafData> d = TestTable(kRows);
  for (int64_t& id : d[0].i64) id *= 2;
  return d;
}

struct Mode {
  std::string name;
  EncryptionAlgorithm::Kind algorithm = EncryptionAlgorithm::Kind::kAesGcmV1;
  bool encrypted_footer = true;
  std::vector<std::pair<std::string, std::string>> column_keys;  // empty: uniform
  std::optional<std::string> aad_prefix;
  bool store_aad_prefix = true;
  std::string footer_key = kFooterKey;
  CompressionCodec codec = CompressionCodec::kSnappy;
  int page_version = 1;
  bool dictionary = true;
  bool page_index = true;
};

const auto kGcm = EncryptionAlgorithm::Kind::kAesGcmV1;
const auto kCtr = EncryptionAlgorithm::Kind::kAesGcmCtrV1;

std::vector<Mode> Modes() {
  std::vector<Mode> m;
  m.push_back({"gcm uniform", kGcm, true, {}, std::nullopt, true, kFooterKey,
               CompressionCodec::kSnappy, 1, true, true});
  m.push_back({"gcm plaintext footer, column keys, stored aad", kGcm, false,
               {{"id", kIdKey}, {"tags", kTagsKey}}, "prefix-1", true, kFooterKey,
               CompressionCodec::kZstd, 2, true, true});
  m.push_back({"ctr column keys, supplied aad", kCtr, true,
               {{"name", kNameKey}, {"dbl", kDblKey}}, "supplied-prefix", false, kFooterKey,
               CompressionCodec::kUncompressed, 1, true, true});
  m.push_back({"ctr plaintext footer uniform", kCtr, false, {}, std::nullopt, true, kFooterKey,
               CompressionCodec::kGzip, 2, true, true});
  m.push_back({"gcm every column its own key, 256-bit footer key, no dictionary", kGcm, true,
               {{"id", kIdKey}, {"opt_i32", kDblKey}, {"name", kNameKey}, {"dbl", kDblKey},
                {"tags", kTagsKey}},
               std::nullopt, true, kTagsKey, CompressionCodec::kLz4Raw, 1, false, true});
  m.push_back({"ctr uniform, 192-bit key, no page index", kCtr, true, {}, std::nullopt, true,
               kNameKey, CompressionCodec::kBrotli, 2, true, false});
  m.push_back({"gcm plaintext footer uniform, stored aad, no page index", kGcm, false, {},
               "p", true, kFooterKey, CompressionCodec::kSnappy, 1, true, false});
  return m;
}

WriterOptions OptionsFor(const Mode& m, bool encrypt) {
  WriterOptions w;
  w.codec = m.codec;
  w.row_group_rows = kRowGroupRows;
  w.page_rows = 100;
  w.data_page_version = m.page_version;
  w.dictionary = m.dictionary;
  w.page_index = m.page_index;
  w.bloom_filter_columns = {"id", "name"};
  if (encrypt) {
    auto e = std::make_shared<crypto::EncryptionConfig>();
    e->algorithm = m.algorithm;
    e->footer_key = m.footer_key;
    e->encrypted_footer = m.encrypted_footer;
    for (const auto& [column, key] : m.column_keys) e->column_keys[column].key = key;
    e->aad_prefix = m.aad_prefix;
    e->store_aad_prefix = m.store_aad_prefix;
    w.encryption = std::move(e);
  }
  return w;
}

std::shared_ptr<const crypto::DecryptionConfig> KeysFor(const Mode& m) {
  auto c = std::make_shared<crypto::DecryptionConfig>();
  c->footer_key = m.footer_key;
  for (const auto& [column, key] : m.column_keys) {
    // The reader takes keys by leaf path.
    c->column_keys[column == "tags" ? "tags.list.element" : column] = key;
  }
  if (!m.store_aad_prefix) c->aad_prefix = m.aad_prefix;
  return c;
}

Status Write(const std::string& path, const WriterOptions& options) {
  PQ_ASSIGN_OR_RETURN(auto writer, FileWriter::Open(path, TestSchema(), options));
  PQ_RETURN_IF_ERROR(WriteTable(writer.get(), Table(), kRows, 1000));
  return writer->Close();
}

Result<std::shared_ptr<FileReader>> OpenWith(const std::string& path,
                                             std::shared_ptr<const crypto::DecryptionConfig> keys,
                                             bool verify_checksums = true) {
  ReaderOptions options;
  options.decryption = std::move(keys);
  options.verify_checksums = verify_checksums;
  return FileReader::Open(path, options);
}

Result<std::vector<ScannedRow>> ScanPlan_(const std::shared_ptr<const FileReader>& file,
                                          const ScanPlan& plan, std::vector<int> fields) {
  ScanRequest request;
  request.fields = std::move(fields);
  request.plan = plan;
  request.batch_rows = 700;
  PQ_ASSIGN_OR_RETURN(auto scanner, TableScanner::Make(file, request, ValueOptions{}));
  std::vector<ScannedRow> rows;
  std::string scratch;
  while (true) {
    PQ_ASSIGN_OR_RETURN(int64_t n, scanner->NextBatch());
    if (n == 0) break;
    for (int64_t r = 0; r < n; ++r) {
      ScannedRow row;
      row.row = scanner->RowNumber(r);
      for (size_t f = 0; f < request.fields.size(); ++f) {
        row.values.push_back(SqlValue::FromCell(scanner->GetCell(static_cast<int>(f), r, &scratch)));
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

Result<std::vector<ScannedRow>> ScanAll(const std::shared_ptr<const FileReader>& file,
                                        std::vector<int> fields = {}) {
  if (fields.empty()) fields = AllFields(*file);
  PQ_ASSIGN_OR_RETURN(ScanPlan plan, TableScanner::PlanAllRows(*file, AllRowGroups(*file)));
  return ScanPlan_(file, plan, std::move(fields));
}

const std::vector<Affinity> kAffinity = {Affinity::kInteger, Affinity::kInteger, Affinity::kText,
                                         Affinity::kReal, Affinity::kText};

Predicate Term(int field, PredicateOp op, SqlValue v) {
  Predicate p;
  PredicateTerm t;
  t.field = field;
  t.op = op;
  t.values.push_back(std::move(v));
  p.terms.push_back(std::move(t));
  return p;
}

// Predicates that exercise every pruning layer on this table.
std::vector<std::pair<std::string, Predicate>> Predicates() {
  return {
      // First, before any dictionary of 'id' is in the file's DictionaryCache (which would make
      // the dictionary the cheaper test).
      {"id = 12345 (Bloom filter: odd ids are absent)",
       Term(0, PredicateOp::kEq, SqlValue::Integer(12345))},
      {"id > 22000 (statistics, page index)", Term(0, PredicateOp::kGt, SqlValue::Integer(22000))},
      {"id = 12346 (statistics, page index)", Term(0, PredicateOp::kEq, SqlValue::Integer(12346))},
      {"name = 'name3' (dictionary keeps)", Term(2, PredicateOp::kEq, SqlValue::Text("name3"))},
      {"name = 'name99' (dictionary or Bloom filter prune)",
       Term(2, PredicateOp::kEq, SqlValue::Text("name99"))},
      {"dbl < 100 (statistics, page index)", Term(3, PredicateOp::kLt, SqlValue::Real(100.0))},
      {"opt_i32 = 7 (dictionary)", Term(1, PredicateOp::kEq, SqlValue::Integer(7))},
  };
}

void ExpectSameStats(const ScanCounters& want, const ScanCounters& got, const std::string& what) {
  EXPECT_EQ(want.row_groups_considered, got.row_groups_considered) << what;
  EXPECT_EQ(want.row_groups_skipped_by_statistics, got.row_groups_skipped_by_statistics) << what;
  EXPECT_EQ(want.row_groups_skipped_by_dictionary, got.row_groups_skipped_by_dictionary) << what;
  EXPECT_EQ(want.row_groups_skipped_by_bloom_filter, got.row_groups_skipped_by_bloom_filter) << what;
  EXPECT_EQ(want.row_groups_skipped_by_page_index, got.row_groups_skipped_by_page_index) << what;
  EXPECT_EQ(want.pages_considered, got.pages_considered) << what;
  EXPECT_EQ(want.pages_skipped_by_page_index, got.pages_skipped_by_page_index) << what;
  EXPECT_EQ(want.rows_skipped, got.rows_skipped) << what;
}

void ExpectSamePlan(const ScanPlan& want, const ScanPlan& got, const std::string& what) {
  ASSERT_EQ(want.row_groups.size(), got.row_groups.size()) << what;
  for (size_t i = 0; i < want.row_groups.size(); ++i) {
    EXPECT_EQ(want.row_groups[i].row_group, got.row_groups[i].row_group) << what;
    EXPECT_EQ(want.row_groups[i].rows.row_count(), got.row_groups[i].rows.row_count()) << what;
  }
}

void ExpectNoKeys(const Status& s) {
  for (const std::string& key : {kFooterKey, kIdKey, kNameKey, kTagsKey, kDblKey}) {
    EXPECT_EQ(s.message().find(key), std::string::npos) << s.message();
  }
}

TEST(EncryptedWriterTest, EveryModeReadsBackAndPrunesLikePlaintext) {
  const std::string plain_path = TempPath("plain.parquet");
  int64_t bloom_skips = 0;
  for (const Mode& mode : Modes()) {
    SCOPED_TRACE(mode.name);
    ::unlink(plain_path.c_str());
    ASSERT_TRUE(Write(plain_path, OptionsFor(mode, false)).ok());
    const std::string path = TempPath("encrypted.parquet");
    Status s = Write(path, OptionsFor(mode, true));
    ASSERT_TRUE(s.ok()) << s.ToString();

    // The file looks like what its mode promises.
    const std::string bytes = ReadWholeFile(path);
    const std::string magic = mode.encrypted_footer ? "PARE" : "PAR1";
    EXPECT_EQ(bytes.substr(0, 4), magic);
    EXPECT_EQ(bytes.substr(bytes.size() - 4), magic);
    for (const std::string& key : {kFooterKey, kIdKey, kNameKey, kTagsKey, kDblKey}) {
      EXPECT_EQ(bytes.find(key), std::string::npos);
    }

    auto plain = OpenWith(plain_path, nullptr);
    ASSERT_TRUE(plain.ok()) << plain.status().ToString();
    auto file = OpenWith(path, KeysFor(mode));
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    ASSERT_TRUE((*file)->encrypted());
    EXPECT_TRUE((*file)->decryptor()->footer_verified());
    EXPECT_EQ((*file)->decryptor()->encrypted_footer(), mode.encrypted_footer);
    EXPECT_EQ((*file)->decryptor()->algorithm(), mode.algorithm);
    ASSERT_EQ((*file)->num_row_groups(), 3);
    int encrypted_chunks = 0;
    for (const RowGroup& g : (*file)->metadata().row_groups) {
      for (const ColumnChunk& c : g.columns) encrypted_chunks += c.crypto_metadata.has_value();
    }
    const int leaves_encrypted =
        mode.column_keys.empty() ? 5 : static_cast<int>(mode.column_keys.size());
    EXPECT_EQ(encrypted_chunks, 3 * leaves_encrypted);

    // Rows, and each leaf with its levels, as in the plaintext file.
    auto want = ScanAll(*plain);
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    auto got = ScanAll(*file);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ExpectSameRows(*want, *got, mode.name);
    for (int leaf = 0; leaf < 5; ++leaf) {
      ExpectSameLeaf(ReadLeaf(*plain, leaf), ReadLeaf(*file, leaf), "leaf " + std::to_string(leaf));
    }
    // The decrypted metadata is the plaintext file's (statistics included).
    for (int rg = 0; rg < 3; ++rg) {
      for (int leaf = 0; leaf < 5; ++leaf) {
        auto a = (*plain)->ColumnMeta(rg, leaf);
        auto b = (*file)->ColumnMeta(rg, leaf);
        ASSERT_TRUE(a.ok() && b.ok());
        EXPECT_EQ((*a)->num_values, (*b)->num_values);
        EXPECT_EQ((*a)->statistics.has_value(), (*b)->statistics.has_value());
        if ((*a)->statistics && (*b)->statistics) {
          EXPECT_EQ((*a)->statistics->min_value, (*b)->statistics->min_value);
          EXPECT_EQ((*a)->statistics->max_value, (*b)->statistics->max_value);
        }
        EXPECT_EQ((*a)->bloom_filter_offset.has_value(), (*b)->bloom_filter_offset.has_value());
      }
    }

    // Pruning decides as on the plaintext file, and reading the plan (pages found by the
    // OffsetIndex) gives the same rows.
    int64_t page_skips = 0, statistics_skips = 0;
    for (const auto& [what, predicate] : Predicates()) {
      ScanCounters ps, es;
      auto pp = PlanScan(**plain, predicate, kAffinity, ValueOptions{}, {}, &ps);
      auto ep = PlanScan(**file, predicate, kAffinity, ValueOptions{}, {}, &es);
      ASSERT_TRUE(pp.ok()) << pp.status().ToString();
      ASSERT_TRUE(ep.ok()) << what << ": " << ep.status().ToString();
      ExpectSameStats(ps, es, what);
      ExpectSamePlan(*pp, *ep, what);
      bloom_skips += es.row_groups_skipped_by_bloom_filter;
      if (what.starts_with("id = 12345")) {
        // The Bloom filter, or the dictionary where it is fewer bytes (well compressed).
        EXPECT_EQ(es.row_groups_skipped_by_bloom_filter + es.row_groups_skipped_by_dictionary, 1);
      }
      page_skips += es.pages_skipped_by_page_index;
      statistics_skips += es.row_groups_skipped_by_statistics;
      auto pr = ScanPlan_(*plain, *pp, AllFields(**plain));
      auto er = ScanPlan_(*file, *ep, AllFields(**file));
      ASSERT_TRUE(pr.ok()) << pr.status().ToString();
      ASSERT_TRUE(er.ok()) << what << ": " << er.status().ToString();
      ExpectSameRows(*pr, *er, what);
    }
    EXPECT_GT(page_skips, 0);
    EXPECT_GT(statistics_skips, 0);
    ::unlink(path.c_str());
  }
  EXPECT_GT(bloom_skips, 0);
  ::unlink(plain_path.c_str());
}

// Narrow row spans read by OffsetIndex seeks: each column reader jumps to data page k (its AAD
// ordinal k) and to the dictionary page; every span gives the plaintext file's rows.
TEST(EncryptedWriterTest, SeekingToPagesKeepsTheirOrdinals) {
  for (const Mode& mode : Modes()) {
    if (!mode.page_index) continue;
    SCOPED_TRACE(mode.name);
    const std::string plain_path = TempPath("plain.parquet");
    const std::string path = TempPath("encrypted.parquet");
    ASSERT_TRUE(Write(plain_path, OptionsFor(mode, false)).ok());
    ASSERT_TRUE(Write(path, OptionsFor(mode, true)).ok());
    auto plain = OpenWith(plain_path, nullptr);
    auto file = OpenWith(path, KeysFor(mode));
    ASSERT_TRUE(plain.ok() && file.ok());
    ScanPlan plan;
    for (int rg = 0; rg < 3; ++rg) {
      RowGroupPlan g;
      g.row_group = rg;
      const int64_t rows = (*file)->metadata().row_groups[static_cast<size_t>(rg)].num_rows;
      for (int64_t begin = 150 + rg * 37; begin < rows; begin += 1733) g.rows.Add(begin, begin + 120);
      plan.row_groups.push_back(std::move(g));
    }
    auto want = ScanPlan_(*plain, plan, AllFields(**plain));
    auto got = ScanPlan_(*file, plan, AllFields(**file));
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_GT(want->size(), 100u);
    ExpectSameRows(*want, *got, "spans");
    // Column by column: skip to the middle of each row group, read a few records.
    for (int leaf = 0; leaf < 5; ++leaf) {
      for (int rg = 0; rg < 3; ++rg) {
        auto a = ColumnChunkReader::Make(*plain, rg, leaf);
        auto b = ColumnChunkReader::Make(*file, rg, leaf);
        ASSERT_TRUE(a.ok() && b.ok());
        const RowRange span{2345, 2400};
        ASSERT_TRUE((*a)->PlanReads({&span, 1}).ok());
        ASSERT_TRUE((*b)->PlanReads({&span, 1}).ok());
        auto sa = (*a)->SkipRecords(2345);
        auto sb = (*b)->SkipRecords(2345);
        ASSERT_TRUE(sa.ok() && sb.ok()) << sb.status().ToString();
        EXPECT_EQ(*sa, *sb);
        ColumnBatch ba, bb;
        auto ra = (*a)->ReadRecords(55, &ba);
        auto rb = (*b)->ReadRecords(55, &bb);
        ASSERT_TRUE(ra.ok() && rb.ok()) << rb.status().ToString();
        EXPECT_EQ(*ra, *rb);
        EXPECT_EQ(ba.num_values, bb.num_values);
        EXPECT_EQ(std::vector<int16_t>(ba.def_levels.begin(), ba.def_levels.end()),
                  std::vector<int16_t>(bb.def_levels.begin(), bb.def_levels.end()));
        EXPECT_GT((*b)->pages_skipped(), 0);
      }
    }
    ::unlink(path.c_str());
    ::unlink(plain_path.c_str());
  }
}

TEST(EncryptedWriterTest, ReadersWithoutKeys) {
  for (const Mode& mode : Modes()) {
    SCOPED_TRACE(mode.name);
    const std::string path = TempPath("encrypted.parquet");
    ASSERT_TRUE(Write(path, OptionsFor(mode, true)).ok());
    auto file = OpenWith(path, nullptr);
    if (mode.encrypted_footer) {
      ASSERT_FALSE(file.ok());
      EXPECT_EQ(file.status().code(), StatusCode::kCrypto) << file.status().ToString();
      // The engine's writer stores no key ids: nothing to name but the missing key.
      const std::string expected =
          mode.store_aad_prefix ? "the file has an encrypted footer and its key was not given"
                                : "give it (aad_prefix)";
      EXPECT_NE(file.status().message().find(expected), std::string::npos)
          << file.status().ToString();
      ::unlink(path.c_str());
      continue;
    }
    // A plaintext footer: the plaintext columns read; each encrypted one names itself.
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    EXPECT_FALSE((*file)->decryptor()->footer_verified());
    auto keyed = OpenWith(path, KeysFor(mode));
    ASSERT_TRUE(keyed.ok());
    for (int field = 0; field < 5; ++field) {
      const std::string name = (*file)->schema().fields()[static_cast<size_t>(field)]->name;
      bool encrypted = mode.column_keys.empty();
      for (const auto& [column, key] : mode.column_keys) encrypted |= column == name;
      auto rows = ScanAll(*file, {field});
      if (!encrypted) {
        ASSERT_TRUE(rows.ok()) << rows.status().ToString();
        auto want = ScanAll(*keyed, {field});
        ASSERT_TRUE(want.ok());
        ExpectSameRows(*want, *rows, name);
        continue;
      }
      ASSERT_FALSE(rows.ok()) << name;
      EXPECT_EQ(rows.status().code(), StatusCode::kCrypto) << rows.status().ToString();
      const std::string expected =
          mode.column_keys.empty() ? "is encrypted with the footer key, which was not given"
                                   : "is encrypted and no key was given for it";
      EXPECT_NE(rows.status().message().find(expected), std::string::npos)
          << rows.status().ToString();
      EXPECT_NE(rows.status().message().find(path), std::string::npos);
      ExpectNoKeys(rows.status());
      // Pruning does not fail on it: it just cannot prune.
      Predicate p = Term(field, PredicateOp::kIsNull, SqlValue::Null());
      p.terms[0].values.clear();
      ScanCounters stats;
      auto plan = PlanScan(**file, p, kAffinity, ValueOptions{}, {}, &stats);
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      EXPECT_EQ(stats.rows_skipped, 0);
    }
    ::unlink(path.c_str());
  }
}

// --- Keys wrapped by master keys (PKMT1 key material) -------------------------------------------

std::shared_ptr<crypto::KeyRegistry> MasterKeyRegistry() {
  auto r = std::make_shared<crypto::KeyRegistry>();
  EXPECT_TRUE(r->Add("mf", kFooterKey).ok());
  EXPECT_TRUE(r->Add("mc", kTagsKey).ok());  // a 256-bit master key
  return r;
}

std::shared_ptr<const crypto::DecryptionConfig> MasterKeysFrom(
    std::shared_ptr<const crypto::KeyRegistry> registry) {
  auto c = std::make_shared<crypto::DecryptionConfig>();
  c->key_unwrapper = crypto::KeyUnwrapper::Make(std::make_shared<crypto::RegistryKmsClient>(
      std::vector<std::shared_ptr<const crypto::KeyRegistry>>{std::move(registry)}));
  return c;
}

// Writes the test table with master-key encryption; the external key material, if any, is stored
// where readers look for it, as the SQL layer's writer publishes it.
Status WriteWrapped(const std::string& path, bool double_wrapping, bool internal, bool columns,
                    bool encrypted_footer) {
  WriterOptions w;
  w.row_group_rows = kRowGroupRows;
  w.bloom_filter_columns = {"id", "name"};
  auto e = std::make_shared<crypto::EncryptionConfig>();
  auto wrapping = std::make_shared<crypto::KeyWrapping>();
  wrapping->kms = std::make_shared<crypto::RegistryKmsClient>(
      std::vector<std::shared_ptr<const crypto::KeyRegistry>>{MasterKeyRegistry()});
  wrapping->double_wrapping = double_wrapping;
  wrapping->internal_storage = internal;
  e->key_wrapping = wrapping;
  e->footer_master_key_id = "mf";
  e->encrypted_footer = encrypted_footer;
  if (columns) {
    e->column_keys["name"].master_key_id = "mc";
    e->column_keys["tags"].master_key_id = "mf";
  }
  w.encryption = e;
  PQ_ASSIGN_OR_RETURN(auto writer, FileWriter::Open(path, TestSchema(), w));
  PQ_RETURN_IF_ERROR(WriteTable(writer.get(), Table(), kRows, 1000));
  const std::string material = writer->external_key_material();
  if (internal != material.empty()) return Status::Corruption("external material mismatch");
  PQ_RETURN_IF_ERROR(writer->Close());
  if (!material.empty()) {
    FILE* f = std::fopen(crypto::KeyMaterialPathFor(path).c_str(), "wb");
    if (f == nullptr) return Status::IOError("cannot write the key material");
    std::fwrite(material.data(), 1, material.size(), f);
    std::fclose(f);
  }
  return Status::OK();
}

TEST(EncryptedWriterTest, MasterKeyModesReadBackWithTheMasterKeysOnly) {
  const std::string plain_path = TempPath("plain.parquet");
  ASSERT_TRUE(Write(plain_path, OptionsFor(Modes()[0], false)).ok());
  auto plain = OpenWith(plain_path, nullptr);
  ASSERT_TRUE(plain.ok());
  auto want = ScanAll(*plain);
  ASSERT_TRUE(want.ok());
  std::set<std::string> footer_metadata;
  for (bool double_wrapping : {true, false}) {
    for (bool internal : {true, false}) {
      for (bool columns : {false, true}) {
        for (bool encrypted_footer : {true, false}) {
          const std::string name = std::string(double_wrapping ? "double" : "single") +
                                   (internal ? " internal" : " external") +
                                   (columns ? " column keys" : " uniform") +
                                   (encrypted_footer ? "" : " plaintext footer");
          SCOPED_TRACE(name);
          const std::string path = TempPath("wrapped.parquet");
          const std::string material = crypto::KeyMaterialPathFor(path);
          ::unlink(material.c_str());
          Status s = WriteWrapped(path, double_wrapping, internal, columns, encrypted_footer);
          ASSERT_TRUE(s.ok()) << s.ToString();
          EXPECT_EQ(::access(material.c_str(), F_OK) == 0, !internal);
          auto file = OpenWith(path, MasterKeysFrom(MasterKeyRegistry()));
          ASSERT_TRUE(file.ok()) << file.status().ToString();
          EXPECT_TRUE((*file)->decryptor()->footer_verified());
          auto got = ScanAll(*file);
          ASSERT_TRUE(got.ok()) << got.status().ToString();
          ExpectSameRows(*want, *got, name);
          // The key metadata is PKMT1 material (or a reference to it), fresh for every file.
          const FileMetaData& md = (*file)->metadata();
          int wrapped_columns = 0;
          for (const ColumnChunk& c : md.row_groups[0].columns) {
            if (c.crypto_metadata && c.crypto_metadata->key_metadata) {
              ++wrapped_columns;
              EXPECT_TRUE(crypto::IsKeyMaterialJson(*c.crypto_metadata->key_metadata));
            }
          }
          EXPECT_EQ(wrapped_columns, columns ? 2 : 0);
          const std::string bytes = ReadWholeFile(path);
          EXPECT_EQ(bytes.find(kFooterKey), std::string::npos);
          // The footer's key metadata (plaintext in either footer) is the material itself, or a
          // reference to it; internal material (random wrapped keys) differs in every file.
          const size_t json = bytes.find("{\"keyMaterialType\":\"PKMT1\"");
          ASSERT_NE(json, std::string::npos);
          EXPECT_NE(bytes.find(internal ? "\"internalStorage\":true" : "\"keyReference\":\"footerKey\""),
                    std::string::npos);
          if (internal) {
            EXPECT_TRUE(footer_metadata.insert(bytes.substr(json, 200)).second);
          }

          // A wrong master key: the footer (or its signature) does not authenticate.
          auto wrong = std::make_shared<crypto::KeyRegistry>();
          ASSERT_TRUE(wrong->Add("mf", kIdKey).ok());
          ASSERT_TRUE(wrong->Add("mc", kTagsKey).ok());
          auto bad = OpenWith(path, MasterKeysFrom(wrong));
          if (encrypted_footer) {
            EXPECT_EQ(bad.status().code(), StatusCode::kCrypto) << bad.status().ToString();
            EXPECT_NE(bad.status().message().find("master key 'mf'"), std::string::npos)
                << bad.status().ToString();
          } else {
            // A plaintext footer opens unverified; columns under the footer key then fail.
            ASSERT_TRUE(bad.ok()) << bad.status().ToString();
            EXPECT_FALSE((*bad)->decryptor()->footer_verified());
            auto rows = ScanAll(*bad, {0});
            if (columns) {
              EXPECT_TRUE(rows.ok()) << rows.status().ToString();  // id stays plaintext
            } else {
              EXPECT_EQ(rows.status().code(), StatusCode::kCrypto);
              EXPECT_NE(rows.status().message().find("is encrypted with the footer key: cannot unwrap"),
                        std::string::npos)
                  << rows.status().ToString();
            }
          }
          if (!internal) {
            // Altered external material: a wrapped key that does not authenticate.
            std::string text = ReadWholeFile(material);
            const size_t at = text.find("wrappedDEK");
            ASSERT_NE(at, std::string::npos);
            text[at + 18] = text[at + 18] == 'A' ? 'B' : 'A';
            FILE* f = std::fopen(material.c_str(), "wb");
            std::fwrite(text.data(), 1, text.size(), f);
            std::fclose(f);
            auto altered = OpenWith(path, MasterKeysFrom(MasterKeyRegistry()));
            Status st = altered.ok() ? ScanAll(*altered).status() : altered.status();
            EXPECT_EQ(st.code(), StatusCode::kCrypto) << st.ToString();
            // Without it, the error names the missing file.
            ::unlink(material.c_str());
            auto missing = OpenWith(path, MasterKeysFrom(MasterKeyRegistry()));
            st = missing.ok() ? ScanAll(*missing).status() : missing.status();
            EXPECT_EQ(st.code(), StatusCode::kIOError) << st.ToString();
            EXPECT_NE(st.message().find(material), std::string::npos) << st.ToString();
          }
          ::unlink(path.c_str());
        }
      }
    }
  }
}

// The chunk of leaf `leaf` in row group 0 and its decrypted OffsetIndex.
OffsetIndex DecryptedOffsetIndex(const FileReader& file, int leaf) {
  const ColumnChunk& chunk = file.metadata().row_groups[0].columns[static_cast<size_t>(leaf)];
  auto decryptor = file.ChunkDecryptor(0, leaf);
  EXPECT_TRUE(decryptor.ok() && decryptor->has_value());
  auto bytes = file.file().ReadAt(*chunk.offset_index_offset, *chunk.offset_index_length);
  EXPECT_TRUE(bytes.ok());
  OffsetIndex index;
  Status s = (*decryptor)->ReadOffsetIndex(ByteSpan((*bytes)->data(), (*bytes)->size()), &index);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return index;
}

TEST(EncryptedWriterTest, SwappedPagesAndAlteredModulesAreAuthenticationErrors) {
  const Mode mode = Modes()[0];  // GCM, encrypted footer, every column under the footer key
  const std::string path = TempPath("encrypted.parquet");
  ASSERT_TRUE(Write(path, OptionsFor(mode, true)).ok());
  const std::string bytes = ReadWholeFile(path);
  auto file = OpenWith(path, KeysFor(mode));
  ASSERT_TRUE(file.ok());
  auto check = [&](const std::string& altered, const std::string& fragment, bool plan_id_eq) {
    SCOPED_TRACE(fragment);
    const std::string altered_path = TempPath("altered.parquet");
    {
      std::FILE* f = std::fopen(altered_path.c_str(), "wb");
      ASSERT_NE(f, nullptr);
      ASSERT_EQ(std::fwrite(altered.data(), 1, altered.size(), f), altered.size());
      std::fclose(f);
    }
    auto opened = OpenWith(altered_path, KeysFor(mode), /*verify_checksums=*/false);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    Status s;
    if (plan_id_eq) {
      s = PlanScan(**opened, Term(0, PredicateOp::kEq, SqlValue::Integer(2345)), kAffinity,
                   ValueOptions{}, {}, nullptr)
              .status();
    } else {
      s = ScanAll(*opened).status();
    }
    EXPECT_EQ(s.code(), StatusCode::kCrypto) << s.ToString();
    EXPECT_NE(s.message().find(fragment), std::string::npos) << s.ToString();
    ExpectNoKeys(s);
    ::unlink(altered_path.c_str());
  };

  // Data pages 1 and 2 of column 'id' in row group 0 trade places (headers with their pages).
  const OffsetIndex oi = DecryptedOffsetIndex(**file, 0);
  ASSERT_GT(oi.page_locations.size(), 3u);
  const PageLocation& p1 = oi.page_locations[1];
  const PageLocation& p2 = oi.page_locations[2];
  ASSERT_EQ(p1.offset + p1.compressed_page_size, p2.offset);
  std::string swapped = bytes;
  const std::string first = bytes.substr(static_cast<size_t>(p1.offset), p1.compressed_page_size);
  const std::string second = bytes.substr(static_cast<size_t>(p2.offset), p2.compressed_page_size);
  swapped.replace(static_cast<size_t>(p1.offset), first.size() + second.size(), second + first);
  check(swapped, "authentication failed for data page header 1 of row group 0, column 'id'", false);

  // Only the page modules of pages 1 and 2 of 'dbl' trade places, in a file where they have the
  // same size (100 PLAIN doubles, uncompressed): the headers are fine, the pages are not.
  {
    Mode plain_pages = mode;
    plain_pages.codec = CompressionCodec::kUncompressed;
    plain_pages.dictionary = false;
    const std::string other = TempPath("plain_pages.parquet");
    ASSERT_TRUE(Write(other, OptionsFor(plain_pages, true)).ok());
    const std::string other_bytes = ReadWholeFile(other);
    auto other_file = OpenWith(other, KeysFor(plain_pages));
    ASSERT_TRUE(other_file.ok());
    const OffsetIndex dbl = DecryptedOffsetIndex(**other_file, 3);
    auto header_module = [&](const PageLocation& p) {
      return 4 + LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(other_bytes.data()) + p.offset);
    };
    const size_t h1 = header_module(dbl.page_locations[1]);
    const size_t h2 = header_module(dbl.page_locations[2]);
    const size_t m1 = dbl.page_locations[1].compressed_page_size - h1;
    const size_t m2 = dbl.page_locations[2].compressed_page_size - h2;
    ASSERT_EQ(m1, m2);
    ASSERT_EQ(m1, 800 + crypto::kGcmModuleOverhead);
    std::string pages = other_bytes;
    const size_t a = static_cast<size_t>(dbl.page_locations[1].offset) + h1;
    const size_t b = static_cast<size_t>(dbl.page_locations[2].offset) + h2;
    for (size_t i = 0; i < m1; ++i) std::swap(pages[a + i], pages[b + i]);
    check(pages, "authentication failed for data page 1 of row group 0, column 'dbl'", false);
    ::unlink(other.c_str());
  }

  // The Bloom filter of 'id' in row group 0 (read to prune id = 2345): its header module, then its
  // bitset.
  auto meta = (*file)->ColumnMeta(0, 0);
  ASSERT_TRUE(meta.ok() && (*meta)->bloom_filter_offset);
  const size_t bloom = static_cast<size_t>(*(*meta)->bloom_filter_offset);
  const size_t bloom_header =
      4 + LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(bytes.data()) + bloom);
  std::string altered = bytes;
  altered[bloom + 8] ^= 0x40;
  check(altered, "authentication failed for Bloom filter header of row group 0, column 'id'", true);
  altered = bytes;
  altered[bloom + bloom_header + 100] ^= 0x40;
  check(altered, "authentication failed for Bloom filter bitset of row group 0, column 'id'", true);
  // Unaltered, the Bloom filter prunes row group 0.
  ScanCounters stats;
  ASSERT_TRUE(PlanScan(**file, Term(0, PredicateOp::kEq, SqlValue::Integer(2345)), kAffinity,
                       ValueOptions{}, {}, &stats)
                  .ok());
  EXPECT_EQ(stats.row_groups_skipped_by_bloom_filter, 1);
  ::unlink(path.c_str());
}

TEST(EncryptedWriterTest, BadEncryptionOptionsAreRefused) {
  const std::string path = TempPath("refused.parquet");
  Mode mode = Modes()[0];
  WriterOptions w = OptionsFor(mode, true);
  auto config = std::make_shared<crypto::EncryptionConfig>(*w.encryption);
  config->column_keys["nope"].key = kIdKey;
  w.encryption = config;
  auto r = FileWriter::Open(path, TestSchema(), w);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("column_keys: no column named 'nope'"), std::string::npos)
      << r.status().ToString();
  EXPECT_FALSE(FileExists(path));

  config = std::make_shared<crypto::EncryptionConfig>(*OptionsFor(mode, true).encryption);
  config->footer_key = "short";
  w.encryption = config;
  r = FileWriter::Open(path, TestSchema(), w);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("encryption: footer key: an AES key must be 16, 24 or 32 "
                                      "bytes, not 5"),
            std::string::npos)
      << r.status().ToString();
  EXPECT_EQ(r.status().message().find("short"), std::string::npos);

  // A group's key goes to every leaf under it; a leaf given twice (itself and its group) is an error.
  config = std::make_shared<crypto::EncryptionConfig>(*OptionsFor(mode, true).encryption);
  config->column_keys["tags"].key = kTagsKey;
  config->column_keys["tags.list.element"].key = kIdKey;
  w.encryption = config;
  r = FileWriter::Open(path, TestSchema(), w);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("'tags.list.element' is given more than one key"),
            std::string::npos)
      << r.status().ToString();
}

// Two files written with the same keys differ in every module: a fresh file id and fresh nonces.
TEST(EncryptedWriterTest, FreshFileIdAndNonces) {
  const Mode mode = Modes()[0];
  const std::string a = TempPath("a.parquet"), b = TempPath("b.parquet");
  ASSERT_TRUE(Write(a, OptionsFor(mode, true)).ok());
  ASSERT_TRUE(Write(b, OptionsFor(mode, true)).ok());
  auto fa = OpenWith(a, KeysFor(mode));
  auto fb = OpenWith(b, KeysFor(mode));
  ASSERT_TRUE(fa.ok() && fb.ok());
  EXPECT_NE((*fa)->decryptor()->file_aad(), (*fb)->decryptor()->file_aad());
  // Single bytes agree by chance (1 in 256), and every module's 4-byte length prefix agrees
  // whenever the two files are aligned there, so count 8-byte runs instead: a prefix is followed
  // by a fresh nonce, so no run of 8 equal bytes may start after the magic except, at most, the
  // footer length and magic at the very end. Reused nonces would repeat whole ciphertexts (the
  // keystream depends on key and nonce only), putting thousands of runs here.
  const std::string ba = ReadWholeFile(a), bb = ReadWholeFile(b);
  const size_t n = std::min(ba.size(), bb.size());
  ASSERT_GT(n, 10000u);
  size_t same_runs = 0;
  for (size_t i = 4; i + 8 <= n; ++i) same_runs += ba.compare(i, 8, bb, i, 8) == 0;
  EXPECT_LE(same_runs, 1u);
  ::unlink(a.c_str());
  ::unlink(b.c_str());
}

}  // namespace
}  // namespace pq
