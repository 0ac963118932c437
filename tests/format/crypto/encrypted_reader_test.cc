// Encrypted files read end to end through FileReader, ColumnChunkReader, TableScanner and PlanScan:
// the conformance files (parquet-testing data/*.parquet.encrypted, keys of
// tests/data/parquet-testing/README.md) in every mode give the same rows, the file with parquet-java's
// external key material (PKMT1) too, with the master keys; missing keys leave the plaintext
// columns readable and name the encrypted column; wrong keys, wrong AAD prefixes and altered bytes
// in every kind of module are Crypto errors naming the module; encrypted Bloom filters, page indexes
// and dictionaries prune.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/crypto/aes_cipher.h"
#include "format/crypto/file_decryptor.h"
#include "format/crypto/key_unwrapper.h"
#include "format/crypto/kms_client.h"
#include "format/metadata/metadata_io.h"
#include "format/predicate/scan_plan.h"
#include "format/reader/table_scanner.h"
#include "tests/format/reader/scan_test_util.h"

namespace pq {
namespace {

using namespace pq::testing;  // NOLINT

constexpr char kFooterKey[] = "0123456789012345";
constexpr char kDoubleKey[] = "1234567890123450";  // double_field, key id kc1
constexpr char kFloatKey[] = "1234567890123451";   // float_field, key id kc2

std::string DataPath(const std::string& name) {
  return std::string(PQ_TESTDATA_DIR) + "/parquet-testing/data/" + name;
}

std::shared_ptr<const crypto::DecryptionConfig> ExplicitKeys(
    std::optional<std::string> aad_prefix = std::nullopt) {
  auto c = std::make_shared<crypto::DecryptionConfig>();
  c->footer_key = kFooterKey;
  c->column_keys["double_field"] = kDoubleKey;
  c->column_keys["float_field"] = kFloatKey;
  c->aad_prefix = std::move(aad_prefix);
  return c;
}

std::shared_ptr<const crypto::DecryptionConfig> KeysById(
    std::optional<std::string> aad_prefix = std::nullopt) {
  auto registry = std::make_shared<crypto::KeyRegistry>();
  EXPECT_TRUE(registry->Add("kf", kFooterKey).ok());
  EXPECT_TRUE(registry->Add("kc1", kDoubleKey).ok());
  EXPECT_TRUE(registry->Add("kc2", kFloatKey).ok());
  auto c = std::make_shared<crypto::DecryptionConfig>();
  c->key_retriever = crypto::KeyRegistry::RetrieverFor(registry);
  c->aad_prefix = std::move(aad_prefix);
  return c;
}

Result<std::shared_ptr<FileReader>> OpenFile(const std::string& path,
                                             std::shared_ptr<const crypto::DecryptionConfig> keys) {
  ReaderOptions options;
  options.decryption = std::move(keys);
  return FileReader::Open(path, options);
}

Result<std::shared_ptr<FileReader>> OpenBytes(std::string name, std::string bytes,
                                              std::shared_ptr<const crypto::DecryptionConfig> keys) {
  ReaderOptions options;
  options.decryption = std::move(keys);
  return FileReader::Open(RandomAccessFile::FromBytes(std::move(name), std::move(bytes)), options);
}

// Every row of `fields` (all fields when empty), or the first error.
Result<std::vector<ScannedRow>> ScanAll(const std::shared_ptr<const FileReader>& file,
                                        std::vector<int> fields = {}) {
  if (fields.empty()) fields = AllFields(*file);
  PQ_ASSIGN_OR_RETURN(auto scanner,
                      TableScanner::Make(file, fields, AllRowGroups(*file), ValueOptions{}));
  std::vector<ScannedRow> rows;
  std::string scratch;
  while (true) {
    PQ_ASSIGN_OR_RETURN(int64_t n, scanner->NextBatch());
    if (n == 0) break;
    for (int64_t r = 0; r < n; ++r) {
      ScannedRow row;
      row.row = scanner->RowNumber(r);
      for (size_t f = 0; f < fields.size(); ++f) {
        row.values.push_back(
            SqlValue::FromCell(scanner->GetCell(static_cast<int>(f), r, &scratch)));
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

// Opens with `keys` and reads every row: the first error of either step.
Status OpenAndScan(std::string bytes, std::shared_ptr<const crypto::DecryptionConfig> keys) {
  PQ_ASSIGN_OR_RETURN(auto file, OpenBytes("altered.parquet", std::move(bytes), std::move(keys)));
  return ScanAll(file).status();
}

void ExpectError(const Status& s, StatusCode code, const std::string& fragment) {
  EXPECT_EQ(s.code(), code) << s.ToString();
  EXPECT_NE(s.message().find(fragment), std::string::npos)
      << "'" << fragment << "' not in: " << s.message();
  for (const char* key : {kFooterKey, kDoubleKey, kFloatKey}) {
    EXPECT_EQ(s.message().find(key), std::string::npos) << s.message();
  }
}

std::vector<Affinity> AffinitiesOf(const FileReader& file) {
  std::vector<Affinity> out;
  for (size_t f = 0; f < file.schema().fields().size(); ++f) {
    auto t = TableScanner::DeclaredType(file.schema(), static_cast<int>(f), ValueOptions{});
    out.push_back(t.ok() ? AffinityOfDeclaredType(*t) : Affinity::kBlob);
  }
  return out;
}

int FieldNamed(const FileReader& file, const std::string& name) {
  for (size_t f = 0; f < file.schema().fields().size(); ++f) {
    if (file.schema().fields()[f]->name == name) return static_cast<int>(f);
  }
  ADD_FAILURE() << "no field " << name;
  return -1;
}

Result<ScanCounters> Plan(const FileReader& file, const std::string& field, PredicateOp op,
                        SqlValue value, ScanPlan* plan_out = nullptr) {
  Predicate p;
  PredicateTerm t;
  t.field = FieldNamed(file, field);
  t.op = op;
  t.values.push_back(std::move(value));
  p.terms.push_back(std::move(t));
  ScanCounters stats;
  PQ_ASSIGN_OR_RETURN(ScanPlan plan,
                      PlanScan(file, p, AffinitiesOf(file), ValueOptions{}, {}, &stats));
  if (plan_out) *plan_out = std::move(plan);
  return stats;
}

std::string ReadAll(const std::string& path) { return ReadWholeFile(path); }

struct ConformanceFile {
  const char* name;
  std::optional<std::string> aad_prefix;  // to supply
  bool encrypted_footer;
};

const ConformanceFile k50RowFiles[] = {
    {"encrypt_columns_and_footer.parquet.encrypted", std::nullopt, true},
    {"encrypt_columns_and_footer_aad.parquet.encrypted", std::nullopt, true},
    {"encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", "tester", true},
    {"encrypt_columns_plaintext_footer.parquet.encrypted", std::nullopt, false},
    {"uniform_encryption.parquet.encrypted", std::nullopt, true},
};

const char kColumnsAndFooter[] = "encrypt_columns_and_footer.parquet.encrypted";
const char kPlaintextFooter[] = "encrypt_columns_plaintext_footer.parquet.encrypted";
const char kBloomFile[] = "encrypt_columns_and_footer_bloom_filter.parquet.encrypted";

// Row i of the 50-row conformance table: boolean_field i even, double_field i * 1.1111111,
// float_field i * 1.1f, ba_field NULL for odd i.
void CheckKnownValues(const FileReader& file, const std::vector<ScannedRow>& rows) {
  ASSERT_EQ(rows.size(), 50u);
  const int b = FieldNamed(file, "boolean_field"), d = FieldNamed(file, "double_field");
  const int f = FieldNamed(file, "float_field"), ba = FieldNamed(file, "ba_field");
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::vector<SqlValue>& v = rows[i].values;
    EXPECT_EQ(rows[i].row, static_cast<int64_t>(i));
    EXPECT_EQ(v[b].type, CellType::kInteger);
    EXPECT_EQ(v[b].i, i % 2 == 0 ? 1 : 0) << i;
    EXPECT_EQ(v[d].type, CellType::kReal);
    EXPECT_EQ(v[d].d, static_cast<double>(i) * 1.1111111) << i;
    EXPECT_EQ(v[f].d, static_cast<double>(static_cast<float>(i) * 1.1f)) << i;
    EXPECT_EQ(v[ba].type == CellType::kNull, i % 2 == 1) << i;
  }
}

std::vector<int> FieldsExcept(const FileReader& file, const std::vector<std::string>& names) {
  std::vector<int> out;
  for (size_t f = 0; f < file.schema().fields().size(); ++f) {
    const std::string& n = file.schema().fields()[f]->name;
    if (std::find(names.begin(), names.end(), n) == names.end()) out.push_back(static_cast<int>(f));
  }
  return out;
}

// The rows of `all` (every field) reduced to `fields`.
std::vector<ScannedRow> Project(const std::vector<ScannedRow>& all, const std::vector<int>& fields) {
  std::vector<ScannedRow> out;
  for (const ScannedRow& r : all) {
    ScannedRow p;
    p.row = r.row;
    for (int f : fields) p.values.push_back(r.values[static_cast<size_t>(f)]);
    out.push_back(std::move(p));
  }
  return out;
}

TEST(EncryptedReaderTest, EveryFileGivesTheSameRowsInEveryKeyMode) {
  std::vector<ScannedRow> reference;
  std::vector<LeafData> reference_leaves;
  for (const ConformanceFile& c : k50RowFiles) {
    for (bool by_id : {false, true}) {
      SCOPED_TRACE(std::string(c.name) + (by_id ? " (keys by id)" : " (explicit keys)"));
      auto file = OpenFile(DataPath(c.name), by_id ? KeysById(c.aad_prefix) : ExplicitKeys(c.aad_prefix));
      ASSERT_TRUE(file.ok()) << file.status().ToString();
      ASSERT_TRUE((*file)->encrypted());
      EXPECT_EQ((*file)->decryptor()->encrypted_footer(), c.encrypted_footer);
      EXPECT_TRUE((*file)->decryptor()->footer_verified());
      auto rows = ScanAll(*file);
      ASSERT_TRUE(rows.ok()) << rows.status().ToString();
      CheckKnownValues(**file, *rows);
      // Column by column, levels included (int64_field is a list).
      std::vector<LeafData> leaves;
      for (int leaf = 0; leaf < (*file)->schema().num_leaves(); ++leaf) {
        leaves.push_back(ReadLeaf(*file, leaf));
      }
      if (reference.empty()) {
        reference = *rows;
        reference_leaves = leaves;
        continue;
      }
      ExpectSameRows(reference, *rows, c.name);
      ASSERT_EQ(leaves.size(), reference_leaves.size());
      for (size_t leaf = 0; leaf < leaves.size(); ++leaf) {
        ExpectSameLeaf(reference_leaves[leaf], leaves[leaf], "leaf " + std::to_string(leaf));
      }
    }
  }
}

TEST(EncryptedReaderTest, PlaintextFooterWithoutKeysReadsThePlaintextColumns) {
  const std::string path = DataPath(kPlaintextFooter);
  auto keyed = OpenFile(path, ExplicitKeys());
  ASSERT_TRUE(keyed.ok()) << keyed.status().ToString();
  auto all = ScanAll(*keyed);
  ASSERT_TRUE(all.ok()) << all.status().ToString();

  auto file = OpenFile(path, nullptr);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_TRUE((*file)->encrypted());
  EXPECT_FALSE((*file)->decryptor()->encrypted_footer());
  EXPECT_FALSE((*file)->decryptor()->footer_verified());
  const std::vector<int> plain = FieldsExcept(**file, {"double_field", "float_field"});
  ASSERT_EQ(plain.size(), 6u);
  auto rows = ScanAll(*file, plain);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ExpectSameRows(Project(*all, plain), *rows, "plaintext columns without keys");

  // Reading an encrypted column names the file, the row group, the column and its key id.
  auto bad = ScanAll(*file, {FieldNamed(**file, "double_field")});
  ExpectError(bad.status(), StatusCode::kCrypto,
              "column 'double_field' is encrypted and no key was given for it (key id 'kc1')");
  EXPECT_NE(bad.status().message().find(kPlaintextFooter), std::string::npos);
  EXPECT_NE(bad.status().message().find("row group 0"), std::string::npos);

  // Pruning leaves a column it cannot decrypt alone; with the key its statistics (only in the
  // encrypted metadata: the plaintext copy has none) prune.
  auto st = Plan(**file, "double_field", PredicateOp::kGt, SqlValue::Real(1000.0));
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->row_groups_skipped_by_statistics, 0);
  EXPECT_EQ(st->rows_skipped, 0);
  ASSERT_TRUE((*file)->metadata().row_groups[0].columns[5].meta_data.has_value());
  EXPECT_FALSE((*file)->metadata().row_groups[0].columns[5].meta_data->statistics.has_value());
  st = Plan(**keyed, "double_field", PredicateOp::kGt, SqlValue::Real(1000.0));
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->row_groups_skipped_by_statistics, 1);

  // The footer key and one column key: that column reads, the other does not; the signature is
  // now checked.
  auto some = std::make_shared<crypto::DecryptionConfig>();
  some->footer_key = kFooterKey;
  some->column_keys["float_field"] = kFloatKey;
  auto partial = OpenFile(path, some);
  ASSERT_TRUE(partial.ok()) << partial.status().ToString();
  EXPECT_TRUE((*partial)->decryptor()->footer_verified());
  const int float_field = FieldNamed(**partial, "float_field");
  auto floats = ScanAll(*partial, {float_field});
  ASSERT_TRUE(floats.ok()) << floats.status().ToString();
  ExpectSameRows(Project(*all, {float_field}), *floats, "float_field with its key");
  ExpectError(ScanAll(*partial).status(), StatusCode::kCrypto,
              "column 'double_field' is encrypted and no key was given for it");

  // A wrong footer key: the signature does not match, the file does not open.
  auto wrong = std::make_shared<crypto::DecryptionConfig>(*ExplicitKeys());
  wrong->footer_key = "0123456789012346";
  ExpectError(OpenFile(path, wrong).status(), StatusCode::kCrypto, "footer signature does not match");
}

TEST(EncryptedReaderTest, EncryptedFooterNeedsItsKey) {
  const std::string path = DataPath(kColumnsAndFooter);
  Status s = OpenFile(path, nullptr).status();
  ExpectError(s, StatusCode::kCrypto,
              "the file has an encrypted footer and its key was not given (key id 'kf')");
  EXPECT_NE(s.message().find(kColumnsAndFooter), std::string::npos) << s.message();
  auto wrong = std::make_shared<crypto::DecryptionConfig>(*ExplicitKeys());
  wrong->footer_key = "abcdefghijklmnop";
  ExpectError(OpenFile(path, wrong).status(), StatusCode::kCrypto,
              "authentication failed for footer (wrong key, wrong AAD prefix, or the file was altered)");
}

// An encrypted footer (FileCryptoMetaData, then the footer module) of `metadata`, sealed under
// kFooterKey with `aad`; aad_file_unique stored when given.
std::string SealedFooter(const std::string& metadata, const std::string& aad, std::optional<std::string> unique) {
  FileCryptoMetaData crypto;
  crypto.encryption_algorithm.kind = EncryptionAlgorithm::Kind::kAesGcmV1;
  crypto.encryption_algorithm.aad_file_unique = std::move(unique);
  std::string footer;
  WriteFileCryptoMetaData(crypto, &footer);
  EXPECT_TRUE(crypto::EncryptModule(crypto::Cipher::kGcm, AsBytes(kFooterKey), AsBytes(aad),
                                    AsBytes(metadata), &footer)
                  .ok());
  return footer;
}

TEST(EncryptedReaderTest, AFooterSealedWithoutTheSpecsAadIsNamedSo) {
  // The plaintext FileMetaData of a real file, sealed again three ways.
  auto c = ExplicitKeys();
  const std::string bytes = ReadWholeFile(DataPath(kColumnsAndFooter));
  const uint32_t len = LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size() - 8);
  ByteSpan original = AsBytes(bytes).subspan(bytes.size() - 8 - len, len);
  std::vector<uint8_t> plain;
  ASSERT_TRUE(crypto::FileDecryptor::ForEncryptedFooter(original, *c, &plain).ok());
  const std::string metadata(plain.begin(), plain.end());
  auto open = [&](const std::string& footer) {
    std::vector<uint8_t> out;
    return crypto::FileDecryptor::ForEncryptedFooter(AsBytes(footer), *c, &out, "x.parquet").status();
  };
  // The spec's footer AAD with an empty file identifier (none stored): opens.
  const Status spec = open(SealedFooter(metadata, std::string(1, '\0'), std::nullopt));
  EXPECT_TRUE(spec.ok()) << spec.ToString();
  // No AAD at all and no aad_file_unique, as DuckDB writes: the key is right, the file is not.
  ExpectError(open(SealedFooter(metadata, "", std::nullopt)), StatusCode::kNotSupported,
              "opens with the key given only without the additional authenticated data (AAD) the Parquet spec "
              "requires (the file's encryption metadata has no aad_file_unique)");
  // No AAD but an aad_file_unique stored, or another key: authentication fails as ever.
  ExpectError(open(SealedFooter(metadata, "", std::string("uniq"))), StatusCode::kCrypto,
              "authentication failed for footer (wrong key, wrong AAD prefix, or the file was altered)");
  auto wrong = std::make_shared<crypto::DecryptionConfig>(*c);
  wrong->footer_key = "abcdefghijklmnop";
  std::vector<uint8_t> out;
  ExpectError(crypto::FileDecryptor::ForEncryptedFooter(AsBytes(SealedFooter(metadata, "", std::nullopt)),
                                                        *wrong, &out)
                  .status(),
              StatusCode::kCrypto, "authentication failed for footer");
}

TEST(EncryptedReaderTest, MissingOrWrongColumnKeyFailsOnlyThatColumn) {
  const std::string path = DataPath(kColumnsAndFooter);
  auto keyed = OpenFile(path, ExplicitKeys());
  ASSERT_TRUE(keyed.ok()) << keyed.status().ToString();
  auto all = ScanAll(*keyed);
  ASSERT_TRUE(all.ok()) << all.status().ToString();

  auto missing = std::make_shared<crypto::DecryptionConfig>(*ExplicitKeys());
  missing->column_keys.erase("double_field");
  auto file = OpenFile(path, missing);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  const std::vector<int> others = FieldsExcept(**file, {"double_field"});
  auto rows = ScanAll(*file, others);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ExpectSameRows(Project(*all, others), *rows, "columns but double_field");
  ExpectError(ScanAll(*file).status(), StatusCode::kCrypto,
              "column 'double_field' is encrypted and no key was given for it (key id 'kc1')");

  auto wrong = std::make_shared<crypto::DecryptionConfig>(*ExplicitKeys());
  wrong->column_keys["double_field"] = "1234567890123459";
  file = OpenFile(path, wrong);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ExpectError(ScanAll(*file).status(), StatusCode::kCrypto,
              "authentication failed for column metadata of row group 0, column 'double_field'");
  rows = ScanAll(*file, others);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
}

TEST(EncryptedReaderTest, AadPrefix) {
  const std::string stored = DataPath("encrypt_columns_and_footer_aad.parquet.encrypted");
  const std::string supplied =
      DataPath("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted");
  EXPECT_TRUE(OpenFile(stored, ExplicitKeys()).ok());
  EXPECT_TRUE(OpenFile(stored, ExplicitKeys("tester")).ok());
  ExpectError(OpenFile(stored, ExplicitKeys("tester2")).status(), StatusCode::kCrypto,
              "differs from the one stored in the file");
  ExpectError(OpenFile(supplied, ExplicitKeys()).status(), StatusCode::kCrypto,
              "AAD prefix that it does not store: give it (aad_prefix)");
  ExpectError(OpenFile(supplied, ExplicitKeys("tester2")).status(), StatusCode::kCrypto,
              "authentication failed for footer");
}

// The master keys kf, kc1, kc2 (whose values are the keys of the other files) by id, as
// parquet_add_key registers them, through the KMS seam: for PKMT1 key material.
std::shared_ptr<const crypto::DecryptionConfig> MasterKeys(std::vector<std::string> ids = {"kf", "kc1", "kc2"}) {
  auto registry = std::make_shared<crypto::KeyRegistry>();
  for (const std::string& id : ids) {
    EXPECT_TRUE(registry->Add(id, id == "kf" ? kFooterKey : id == "kc1" ? kDoubleKey : kFloatKey).ok());
  }
  auto c = std::make_shared<crypto::DecryptionConfig>();
  c->key_retriever = crypto::KeyRegistry::RetrieverFor(registry);
  c->key_unwrapper = crypto::KeyUnwrapper::Make(std::make_shared<crypto::RegistryKmsClient>(
      std::vector<std::shared_ptr<const crypto::KeyRegistry>>{registry}));
  return c;
}

// parquet-java's file with external, double-wrapped key material (integers and strings under their
// own keys, wrapped by kc1 and kc2; the footer by kf): the 100 rows Arrow's
// ReadParquetMRExternalKeyMaterialFile test expects, integers = row and strings = letter of
// row % 10, then row ("a0", "b1", ... "j99").
TEST(EncryptedReaderTest, ExternalKeyMaterialOpensWithTheMasterKeys) {
  const std::string path = DataPath("external_key_material_java.parquet.encrypted");
  auto file = OpenFile(path, MasterKeys());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_TRUE((*file)->decryptor()->encrypted_footer());
  auto rows = ScanAll(*file);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 100u);
  const int integers = FieldNamed(**file, "integers"), strings = FieldNamed(**file, "strings");
  for (size_t i = 0; i < rows->size(); ++i) {
    const std::vector<SqlValue>& v = (*rows)[i].values;
    EXPECT_EQ(v[integers].type, CellType::kInteger);
    EXPECT_EQ(v[integers].i, static_cast<int64_t>(i));
    EXPECT_EQ(v[strings].type, CellType::kText);
    EXPECT_EQ(v[strings].bytes, std::string(1, static_cast<char>('a' + i % 10)) + std::to_string(i));
  }
  // Statistics (in the decrypted column metadata) prune.
  auto stats = Plan(**file, "integers", PredicateOp::kGt, SqlValue::Integer(1000));
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->row_groups_skipped_by_statistics, 1);
}

TEST(EncryptedReaderTest, MissingMasterKeysAreNamedWithTheirKmsInstance) {
  const std::string path = DataPath("external_key_material_java.parquet.encrypted");
  // Without kf the footer cannot be unwrapped.
  ExpectError(OpenFile(path, MasterKeys({"kc1", "kc2"})).status(), StatusCode::kCrypto,
              "cannot unwrap the footer key: master key 'kf' (KMS instance 'DEFAULT') is not "
              "registered");
  // Without kc1 the file opens and only integers (under kc1) fails, naming its master key.
  auto file = OpenFile(path, MasterKeys({"kf", "kc2"}));
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto others = ScanAll(*file, {FieldNamed(**file, "strings")});
  ASSERT_TRUE(others.ok()) << others.status().ToString();
  EXPECT_EQ(others->size(), 100u);
  ExpectError(ScanAll(*file, {FieldNamed(**file, "integers")}).status(), StatusCode::kCrypto,
              "column 'integers' is encrypted with a key that cannot be unwrapped: master key 'kc1' "
              "(KMS instance 'DEFAULT') is not registered");
  // A wrong master key fails authentication.
  auto wrong = std::make_shared<crypto::KeyRegistry>();
  ASSERT_TRUE(wrong->Add("kf", kDoubleKey).ok());
  auto c = std::make_shared<crypto::DecryptionConfig>();
  c->key_unwrapper = crypto::KeyUnwrapper::Make(std::make_shared<crypto::RegistryKmsClient>(
      std::vector<std::shared_ptr<const crypto::KeyRegistry>>{wrong}));
  ExpectError(OpenFile(path, c).status(), StatusCode::kCrypto,
              "authentication failed for a key wrapped by master key 'kf'");
  // Without key management configured at all, and with the keys of the other files (which are
  // not this file's data keys).
  ExpectError(OpenFile(path, KeysById()).status(), StatusCode::kCrypto,
              "the footer key is wrapped by a master key (PKMT1 key material)");
  ExpectError(OpenFile(path, ExplicitKeys()).status(), StatusCode::kCrypto,
              "authentication failed for footer");
  // The file without its key material beside it: the error names the missing file.
  auto copy = OpenBytes("/nonexistent/external_key_material_java.parquet.encrypted",
                        ReadAll(path), MasterKeys());
  EXPECT_EQ(copy.status().code(), StatusCode::kIOError);
  EXPECT_NE(copy.status().message().find(
                "/nonexistent/_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json"),
            std::string::npos)
      << copy.status().ToString();
}

// 2,000 rows: double_field i + 0.5 and float_field i + 0.25 (encrypted, with Bloom filters),
// int32_field i, name 'name_i'.
TEST(EncryptedReaderTest, BloomFilterFileReadsAndPrunes) {
  auto file = OpenFile(DataPath(kBloomFile), KeysById());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  const FileReader& f = **file;
  auto rows = ScanAll(*file);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 2000u);
  const int d = FieldNamed(f, "double_field"), fl = FieldNamed(f, "float_field");
  const int i32 = FieldNamed(f, "int32_field"), name = FieldNamed(f, "name");
  for (size_t i = 0; i < rows->size(); ++i) {
    const std::vector<SqlValue>& v = (*rows)[i].values;
    ASSERT_EQ(v[d].d, static_cast<double>(i) + 0.5) << i;
    ASSERT_EQ(v[fl].d, static_cast<double>(i) + 0.25) << i;
    ASSERT_EQ(v[i32].i, static_cast<int64_t>(i)) << i;
    ASSERT_EQ(v[name].bytes, "name_" + std::to_string(i)) << i;
  }

  // The encrypted Bloom filters decrypt (header module, bitset module) to filters holding every
  // value and few others.
  for (int leaf : {0, 1}) {
    SCOPED_TRACE(f.schema().leaf(leaf).DottedPath());
    auto meta = f.ColumnMeta(0, leaf);
    ASSERT_TRUE(meta.ok());
    ASSERT_TRUE((*meta)->bloom_filter_offset && (*meta)->bloom_filter_length);
    auto decryptor = f.ChunkDecryptor(0, leaf);
    ASSERT_TRUE(decryptor.ok() && decryptor->has_value());
    auto bytes = f.file().ReadAt(*(*meta)->bloom_filter_offset, *(*meta)->bloom_filter_length);
    ASSERT_TRUE(bytes.ok());
    const ByteSpan data((*bytes)->data(), (*bytes)->size());
    BloomFilterHeader header;
    size_t header_size = 0;
    ASSERT_TRUE((*decryptor)->ReadBloomFilterHeader(data, &header, &header_size).ok());
    std::vector<uint8_t> bitset;
    size_t bitset_size = 0;
    ASSERT_TRUE(
        (*decryptor)->DecryptBloomFilterBitset(data.subspan(header_size), &bitset, &bitset_size).ok());
    EXPECT_EQ(header_size + bitset_size, data.size());
    auto filter = SplitBlockBloomFilter::FromHeader(header, ByteSpan(bitset.data(), bitset.size()));
    ASSERT_TRUE(filter.ok()) << filter.status().ToString();
    int false_positives = 0;
    for (int i = 0; i < 2000; ++i) {
      if (leaf == 0) {
        EXPECT_TRUE(filter->Check(BloomHash(i + 0.5)));
        false_positives += filter->Check(BloomHash(i + 0.75));
      } else {
        EXPECT_TRUE(filter->Check(BloomHash(static_cast<float>(i + 0.25))));
        false_positives += filter->Check(BloomHash(static_cast<float>(i + 0.75)));
      }
    }
    EXPECT_LT(false_positives, 100);
  }

  // Statistics and the page index of the encrypted columns prune.
  auto st = Plan(f, "double_field", PredicateOp::kGt, SqlValue::Real(5000.0));
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->row_groups_skipped_by_statistics, 1);
  ScanPlan plan;
  st = Plan(f, "float_field", PredicateOp::kGe, SqlValue::Real(1999.0), &plan);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_GT(st->pages_considered, 1);
  EXPECT_EQ(st->pages_skipped_by_page_index, st->pages_considered - 1);
  ASSERT_EQ(plan.row_groups.size(), 1u);
  EXPECT_LT(plan.row_groups[0].rows.row_count(), 2000);
  // Reading the plan gives the row that satisfies the term.
  ScanRequest request;
  request.fields = {fl};
  request.plan = plan;
  auto scanner = TableScanner::Make(*file, request, ValueOptions{});
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  std::vector<ScannedRow> got = ReadRest(scanner->get(), 1);
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(got.back().row, 1999);
  EXPECT_EQ(got.back().values[0].d, 1999.25);
}

// Pruning (dictionary and page index of `column`) and a full scan of `bytes`: the first error.
Status Exercise(std::string bytes, std::shared_ptr<const crypto::DecryptionConfig> keys,
                const std::string& column, double present) {
  ReaderOptions options;
  options.decryption = std::move(keys);
  options.verify_checksums = false;  // so that an altered page meets its authentication tag
  PQ_ASSIGN_OR_RETURN(auto file, FileReader::Open(RandomAccessFile::FromBytes("altered.parquet",
                                                                                std::move(bytes)),
                                                  options));
  PQ_RETURN_IF_ERROR(Plan(*file, column, PredicateOp::kEq, SqlValue::Real(present)).status());
  PQ_RETURN_IF_ERROR(Plan(*file, column, PredicateOp::kGt, SqlValue::Real(present)).status());
  return ScanAll(file).status();
}

size_t ModuleSize(const std::string& bytes, int64_t offset) {
  return 4 + LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(bytes.data()) + offset);
}

TEST(EncryptedReaderTest, EveryAlteredModuleIsAnAuthenticationErrorNamingIt) {
  const std::string path = DataPath(kColumnsAndFooter);
  const std::string bytes = ReadAll(path);
  auto file = OpenFile(path, ExplicitKeys());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_TRUE(Exercise(bytes, ExplicitKeys(), "double_field", 1.1111111).ok());
  const int leaf = 5;
  ASSERT_EQ((*file)->schema().leaf(leaf).DottedPath(), "double_field");
  const ColumnChunk& chunk = (*file)->metadata().row_groups[0].columns[leaf];
  auto meta = (*file)->ColumnMeta(0, leaf);
  ASSERT_TRUE(meta.ok());
  ASSERT_TRUE((*meta)->dictionary_page_offset && chunk.column_index_offset &&
              chunk.offset_index_offset);
  const int64_t dict = *(*meta)->dictionary_page_offset;
  const int64_t data = (*meta)->data_page_offset;
  const std::string where = " of row group 0, column 'double_field'";
  struct Flip {
    size_t offset;
    std::string fragment;
  } flips[] = {
      {bytes.size() - 8 - 20, "authentication failed for footer"},
      {static_cast<size_t>(dict) + 10, "authentication failed for dictionary page header" + where},
      {static_cast<size_t>(dict) + ModuleSize(bytes, dict) + 20,
       "authentication failed for dictionary page" + where},
      {static_cast<size_t>(data) + 10, "authentication failed for data page header 0" + where},
      {static_cast<size_t>(data) + ModuleSize(bytes, data) + 20,
       "authentication failed for data page 0" + where},
      {static_cast<size_t>(*chunk.column_index_offset) + 20,
       "authentication failed for column index" + where},
      {static_cast<size_t>(*chunk.offset_index_offset) + 20,
       "authentication failed for offset index" + where},
  };
  for (const Flip& flip : flips) {
    SCOPED_TRACE(flip.fragment);
    std::string bad = bytes;
    bad[flip.offset] ^= 0x01;
    ExpectError(Exercise(bad, ExplicitKeys(), "double_field", 1.1111111), StatusCode::kCrypto,
                flip.fragment);
  }
}

TEST(EncryptedReaderTest, AlteredColumnMetadataIsAnAuthenticationError) {
  const std::string path = DataPath(kPlaintextFooter);
  const std::string bytes = ReadAll(path);
  auto file = OpenFile(path, nullptr);
  ASSERT_TRUE(file.ok());
  // The plaintext footer holds the encrypted ColumnMetaData as is: find its bytes in the file.
  const uint32_t footer_len =
      LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size() - 8);
  FileMetaData raw;
  ASSERT_TRUE(ReadFileMetaData(AsBytes(bytes).subspan(bytes.size() - 8 - footer_len, footer_len), &raw).ok());
  const std::optional<std::string>& module = raw.row_groups[0].columns[5].encrypted_column_metadata;
  ASSERT_TRUE(module.has_value());
  const size_t at = bytes.find(*module);
  ASSERT_NE(at, std::string::npos);
  std::string bad = bytes;
  bad[at + module->size() / 2] ^= 0x01;
  // Column keys only: the footer signature is not checked, the column metadata is.
  auto column_keys = std::make_shared<crypto::DecryptionConfig>(*ExplicitKeys());
  column_keys->footer_key.clear();
  ExpectError(Exercise(bad, column_keys, "double_field", 1.1111111), StatusCode::kCrypto,
              "authentication failed for column metadata of row group 0, column 'double_field'");
  EXPECT_TRUE(Exercise(bytes, column_keys, "double_field", 1.1111111).ok());
  // With the footer key the signature fails first.
  ExpectError(Exercise(bad, ExplicitKeys(), "double_field", 1.1111111), StatusCode::kCrypto,
              "footer signature does not match");
}

// With CRC checks on, an altered page module fails its CRC (computed over the module as stored)
// before it is decrypted.
TEST(EncryptedReaderTest, PageCrcCoversTheModule) {
  const std::string bytes = ReadAll(DataPath(kColumnsAndFooter));
  auto file = OpenFile(DataPath(kColumnsAndFooter), ExplicitKeys());
  ASSERT_TRUE(file.ok());
  auto meta = (*file)->ColumnMeta(0, 5);
  ASSERT_TRUE(meta.ok());
  const int64_t data = (*meta)->data_page_offset;
  PageHeader header;
  size_t header_size = 0;
  auto decryptor = (*file)->ChunkDecryptor(0, 5);
  ASSERT_TRUE(decryptor.ok() && decryptor->has_value());
  ASSERT_TRUE((*decryptor)->ReadPageHeader(AsBytes(bytes).subspan(data), false, 0, &header,
                                           &header_size).ok());
  std::string bad = bytes;
  bad[static_cast<size_t>(data) + header_size + 20] ^= 0x01;
  Status s = OpenAndScan(bad, ExplicitKeys());
  if (header.crc) {
    EXPECT_EQ(s.code(), StatusCode::kChecksum) << s.ToString();
  } else {
    EXPECT_EQ(s.code(), StatusCode::kCrypto) << s.ToString();
  }
  EXPECT_TRUE(OpenAndScan(bytes, ExplicitKeys()).ok());
}
}  // namespace
}  // namespace pq
