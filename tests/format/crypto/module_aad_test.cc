// Module AADs byte for byte (the Parquet spec "Parquet Modular Encryption" 4.4.2), ordinal limits,
// and AADs built by hand (not through FileDecryptor) opening the modules of a real file.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "format/crypto/aes_cipher.h"
#include "format/crypto/module_aad.h"
#include "format/metadata/metadata_io.h"

namespace pq::crypto {
namespace {

std::string Bytes(std::initializer_list<int> b) {
  std::string s;
  for (int v : b) s.push_back(static_cast<char>(v));
  return s;
}

TEST(ModuleAadTest, FooterIsFileAadThenTypeZero) {
  EXPECT_EQ(FooterAad("PREFIXunique"), "PREFIXunique" + Bytes({0}));
  EXPECT_EQ(FooterAad(""), Bytes({0}));
  EXPECT_EQ(FileAad("tester", "\x01\x02"), "tester\x01\x02");
  EXPECT_TRUE(ModuleAad("x", ModuleType::kFooter, 0, 0).status().IsInvalidArgument());
}

TEST(ModuleAadTest, EveryModuleTypeByteForByte) {
  const std::string file_aad = "pfxUNIQ";
  // row group 1, column 258 (0x0102), page 513 (0x0201): little endian int16s.
  const std::string ordinals = Bytes({0x01, 0x00, 0x02, 0x01});
  const std::string page = Bytes({0x01, 0x02});
  struct Case {
    ModuleType type;
    int byte;
    bool with_page;
  } cases[] = {
      {ModuleType::kColumnMetaData, 1, false},       {ModuleType::kDataPage, 2, true},
      {ModuleType::kDictionaryPage, 3, false},       {ModuleType::kDataPageHeader, 4, true},
      {ModuleType::kDictionaryPageHeader, 5, false}, {ModuleType::kColumnIndex, 6, false},
      {ModuleType::kOffsetIndex, 7, false},          {ModuleType::kBloomFilterHeader, 8, false},
      {ModuleType::kBloomFilterBitset, 9, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(ModuleTypeName(c.type));
    EXPECT_EQ(static_cast<int>(c.type), c.byte);
    EXPECT_EQ(HasPageOrdinal(c.type), c.with_page);
    auto aad = ModuleAad(file_aad, c.type, 1, 258, 513);
    ASSERT_TRUE(aad.ok());
    std::string expected = file_aad + Bytes({c.byte}) + ordinals + (c.with_page ? page : "");
    EXPECT_EQ(*aad, expected);
  }
}

TEST(ModuleAadTest, OrdinalsMustFitInt16) {
  EXPECT_TRUE(ModuleAad("", ModuleType::kDataPage, 32767, 32767, 32767).ok());
  auto max = ModuleAad("", ModuleType::kDataPage, 32767, 0, 0);
  EXPECT_EQ(*max, Bytes({2, 0xFF, 0x7F, 0, 0, 0, 0}));
  for (int64_t bad : {int64_t{-1}, int64_t{32768}, int64_t{65536}, int64_t{1} << 40}) {
    auto rg = ModuleAad("", ModuleType::kDataPage, bad, 0, 0);
    EXPECT_TRUE(rg.status().IsInvalidArgument()) << bad;
    EXPECT_NE(rg.status().message().find("row group ordinal " + std::to_string(bad)),
              std::string::npos)
        << rg.status().message();
    EXPECT_TRUE(ModuleAad("", ModuleType::kOffsetIndex, 0, bad, 0).status().IsInvalidArgument());
    auto page = ModuleAad("", ModuleType::kDataPageHeader, 0, 0, bad);
    EXPECT_TRUE(page.status().IsInvalidArgument());
    EXPECT_NE(page.status().message().find("page ordinal"), std::string::npos);
    // The page ordinal of a module without one is ignored.
    EXPECT_TRUE(ModuleAad("", ModuleType::kDictionaryPageHeader, 0, 0, bad).ok());
  }
}

TEST(ModuleAadTest, RowGroupOrdinalPrefersTheStoredOne) {
  RowGroup g;
  EXPECT_EQ(RowGroupOrdinal(g, 3), 3);
  g.ordinal = 7;
  EXPECT_EQ(RowGroupOrdinal(g, 3), 7);
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// encrypt_columns_and_footer: the footer under key "0123456789012345", column double_field under
// "1234567890123450". AADs here are concatenated by hand from the spec's table.
TEST(ModuleAadTest, HandBuiltAadsOpenARealFile) {
  const std::string bytes =
      ReadAll(std::string(PQ_TESTDATA_DIR) +
              "/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted");
  ASSERT_GT(bytes.size(), 100u);
  const uint32_t len =
      LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size() - 8);
  ByteSpan footer = AsBytes(bytes).subspan(bytes.size() - 8 - len, len);
  FileCryptoMetaData crypto;
  size_t consumed = 0;
  ASSERT_TRUE(ReadFileCryptoMetaData(footer, &crypto, &consumed).ok());
  const std::string unique = *crypto.encryption_algorithm.aad_file_unique;
  const std::string footer_key = "0123456789012345";
  std::vector<uint8_t> plain;
  std::string aad = unique + Bytes({0});
  Status s = DecryptModule(Cipher::kGcm, AsBytes(footer_key), AsBytes(aad),
                           footer.subspan(consumed), "footer", &plain);
  ASSERT_TRUE(s.ok()) << s.ToString();
  FileMetaData md;
  ASSERT_TRUE(ReadFileMetaData(ByteSpan(plain.data(), plain.size()), &md).ok());
  // Any other type byte fails.
  for (int type = 1; type < 10; ++type) {
    EXPECT_FALSE(DecryptModule(Cipher::kGcm, AsBytes(footer_key), AsBytes(unique + Bytes({type})),
                               footer.subspan(consumed), "footer", &plain)
                     .ok());
  }
  bool found = false;
  for (size_t col = 0; col < md.row_groups[0].columns.size(); ++col) {
    const ColumnChunk& chunk = md.row_groups[0].columns[col];
    if (!chunk.crypto_metadata ||
        chunk.crypto_metadata->path_in_schema != std::vector<std::string>{"double_field"}) {
      continue;
    }
    found = true;
    const std::string column_key = "1234567890123450";
    std::string cm_aad = unique + Bytes({1, 0, 0, static_cast<int>(col), 0});
    s = DecryptModule(Cipher::kGcm, AsBytes(column_key), AsBytes(cm_aad),
                      AsBytes(*chunk.encrypted_column_metadata), "column metadata", &plain);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ColumnMetaData meta;
    ASSERT_TRUE(ReadColumnMetaData(ByteSpan(plain.data(), plain.size()), &meta).ok());
    EXPECT_EQ(meta.type, PhysicalType::kDouble);
    // The data page header: type 4, ordinals 0 / col / page 0.
    ByteSpan header_module = AsBytes(bytes).subspan(meta.data_page_offset);
    const size_t header_size = 4 + LoadLE<uint32_t>(header_module.data());
    std::string ph_aad = unique + Bytes({4, 0, 0, static_cast<int>(col), 0, 0, 0});
    s = DecryptModule(Cipher::kGcm, AsBytes(column_key), AsBytes(ph_aad),
                      header_module.first(header_size), "data page header", &plain);
    ASSERT_TRUE(s.ok()) << s.ToString();
    PageHeader ph;
    size_t used = 0;
    ASSERT_TRUE(ReadPageHeader(ByteSpan(plain.data(), plain.size()), &ph, &used).ok());
    EXPECT_NE(ph.type, PageType::kDictionaryPage);
    // The page right after: type 2, page 0; its module is compressed_page_size bytes.
    ByteSpan page_module = header_module.subspan(header_size, ph.compressed_page_size);
    std::string page_aad = unique + Bytes({2, 0, 0, static_cast<int>(col), 0, 0, 0});
    s = DecryptModule(Cipher::kGcm, AsBytes(column_key), AsBytes(page_aad), page_module,
                      "data page", &plain);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(plain.size() + kGcmModuleOverhead, static_cast<size_t>(ph.compressed_page_size));
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace pq::crypto
