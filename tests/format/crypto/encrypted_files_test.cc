// The crypto layer on the encrypted conformance files (parquet-testing data/*.parquet.encrypted),
// with the keys of tests/data/parquet-testing/README.md. For each file: open the footer (decrypt it, or
// verify the plaintext footer's signature), parse FileMetaData, decrypt every column chunk's
// metadata, then walk every page of every column: decrypt the header module, parse it, decrypt the
// page module and check its size against compressed_page_size, the CRC when present, and that the
// pages add up to the chunk. Also the page index and the Bloom filters. Wrong keys, a missing key,
// a wrong AAD prefix and flipped bytes give errors naming the module.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "format/crypto/file_decryptor.h"
#include "format/crypto/key_unwrapper.h"
#include "format/crypto/kms_client.h"
#include "format/metadata/metadata_io.h"
#include "format/util/crc32.h"

namespace pq::crypto {
namespace {

constexpr char kFooterKey[] = "0123456789012345";
constexpr char kDoubleKey[] = "1234567890123450";  // double_field, key id kc1
constexpr char kFloatKey[] = "1234567890123451";   // float_field, key id kc2

std::string DataPath(const std::string& name) {
  return std::string(PQ_TESTDATA_DIR) + "/parquet-testing/data/" + name;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ByteSpan Span(const std::string& s) {
  return AsBytes(s);
}

// The explicit keys of every file (by option), no AAD prefix.
DecryptionConfig ExplicitKeys() {
  DecryptionConfig config;
  config.footer_key = kFooterKey;
  config.column_keys["double_field"] = kDoubleKey;
  config.column_keys["float_field"] = kFloatKey;
  return config;
}

// The same keys by key id, as parquet_add_key would register them.
DecryptionConfig KeysById() {
  auto registry = std::make_shared<KeyRegistry>();
  EXPECT_TRUE(registry->Add("kf", kFooterKey).ok());
  EXPECT_TRUE(registry->Add("kc1", kDoubleKey).ok());
  EXPECT_TRUE(registry->Add("kc2", kFloatKey).ok());
  DecryptionConfig config;
  config.key_retriever = KeyRegistry::RetrieverFor(registry);
  return config;
}

struct OpenedFile {
  std::string bytes;
  std::unique_ptr<FileDecryptor> decryptor;
  FileMetaData metadata;
};

// Opens `bytes` as a reader would: magic, footer, decryptor, FileMetaData.
// `path` locates external key material.
Status OpenFooter(std::string bytes, const DecryptionConfig& config, OpenedFile* out,
                  const std::string& path = "") {
  out->bytes = std::move(bytes);
  const std::string& b = out->bytes;
  if (b.size() < 12) return Status::Corruption("too small");
  const uint32_t footer_len =
      LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(b.data()) + b.size() - 8);
  if (footer_len > b.size() - 12) return Status::Corruption("footer length");
  const std::string magic = b.substr(b.size() - 4);
  ByteSpan footer = Span(b).subspan(b.size() - 8 - footer_len, footer_len);
  if (magic == "PARE") {
    std::vector<uint8_t> plain;
    PQ_ASSIGN_OR_RETURN(out->decryptor,
                        FileDecryptor::ForEncryptedFooter(footer, config, &plain, path));
    return ReadFileMetaData(ByteSpan(plain.data(), plain.size()), &out->metadata);
  }
  if (magic != "PAR1") return Status::Corruption("magic");
  PQ_RETURN_IF_ERROR(ReadFileMetaData(footer, &out->metadata));
  if (!out->metadata.encryption_algorithm) return Status::Corruption("not encrypted");
  PQ_ASSIGN_OR_RETURN(out->decryptor,
                      FileDecryptor::ForPlaintextFooter(footer, out->metadata, config, path));
  return Status::OK();
}

struct WalkStats {
  int encrypted_chunks = 0;
  int plaintext_chunks = 0;
  int pages = 0;
  int dictionary_pages = 0;
  int crcs_checked = 0;
  int column_indexes = 0;
  int offset_indexes = 0;
  int bloom_filters = 0;
};

// Walks every page of every encrypted chunk (and the page index and Bloom filter when present).
Status WalkColumns(const OpenedFile& f, WalkStats* stats) {
  ByteSpan file = Span(f.bytes);
  for (size_t rg = 0; rg < f.metadata.row_groups.size(); ++rg) {
    const RowGroup& group = f.metadata.row_groups[rg];
    const int64_t rg_ordinal = RowGroupOrdinal(group, static_cast<int64_t>(rg));
    for (size_t col = 0; col < group.columns.size(); ++col) {
      const ColumnChunk& chunk = group.columns[col];
      const std::string where =
          "row group " + std::to_string(rg) + " column " + std::to_string(col);
      PQ_ASSIGN_OR_RETURN(ColumnMetaData meta,
                          f.decryptor->DecryptColumnMetaData(chunk, rg_ordinal, col));
      if (!chunk.crypto_metadata) {
        // A plaintext chunk of an encrypted file reads as in any file: a plain Thrift page header.
        PageHeader header;
        size_t header_size = 0;
        if (meta.data_page_offset < 0 ||
            static_cast<uint64_t>(meta.data_page_offset) >= file.size()) {
          return Status::Corruption(where + ": plaintext chunk outside the file");
        }
        PQ_RETURN_IF_ERROR(
            ReadPageHeader(file.subspan(meta.data_page_offset), &header, &header_size));
        ++stats->plaintext_chunks;
        continue;
      }
      // The decrypted metadata is the column's own.
      if (chunk.crypto_metadata->kind == ColumnCryptoMetaData::Kind::kColumnKey &&
          meta.path_in_schema != chunk.crypto_metadata->path_in_schema) {
        return Status::Corruption(where + ": decrypted metadata names another column");
      }
      if (meta.num_values < group.num_rows) {
        return Status::Corruption(where + ": decrypted metadata has " +
                                  std::to_string(meta.num_values) + " values for " +
                                  std::to_string(group.num_rows) + " rows");
      }
      ++stats->encrypted_chunks;
      PQ_ASSIGN_OR_RETURN(ColumnDecryptor column, f.decryptor->ForColumn(chunk, rg_ordinal, col));
      int64_t start = meta.data_page_offset;
      bool expect_dict = ExpectDictionaryPage(meta);
      if (expect_dict) start = *meta.dictionary_page_offset;
      if (start < 0 || meta.total_compressed_size < 0 ||
          static_cast<uint64_t>(start) + static_cast<uint64_t>(meta.total_compressed_size) >
              file.size()) {
        return Status::Corruption(where + ": chunk outside the file");
      }
      ByteSpan chunk_bytes = file.subspan(start, meta.total_compressed_size);
      size_t pos = 0;
      int64_t data_pages = 0;
      int64_t values = 0;
      bool first = true;
      while (values < meta.num_values) {
        const bool dict = first && expect_dict;
        first = false;
        PageHeader header;
        size_t header_size = 0;
        PQ_RETURN_IF_ERROR(column.ReadPageHeader(chunk_bytes.subspan(pos), dict, data_pages,
                                                 &header, &header_size));
        if (dict != (header.type == PageType::kDictionaryPage)) {
          return Status::Corruption(where + ": page type " + PageTypeName(header.type) +
                                    " unexpected");
        }
        pos += header_size;
        if (header.compressed_page_size < 0 ||
            static_cast<size_t>(header.compressed_page_size) > chunk_bytes.size() - pos) {
          return Status::Corruption(where + ": page runs past the chunk");
        }
        ByteSpan module = chunk_bytes.subspan(pos, header.compressed_page_size);
        std::vector<uint8_t> page;
        PQ_RETURN_IF_ERROR(column.DecryptPage(module, dict, data_pages, &page));
        if (page.size() + column.page_overhead() !=
            static_cast<size_t>(header.compressed_page_size)) {
          return Status::Corruption(where +
                                    ": page plaintext size does not match compressed_page_size");
        }
        if (header.crc) {
          // The CRC covers the page as stored: the encrypted module, length field included. A
          // reader checks it before decrypting, exactly as for a plaintext page.
          if (Crc32(module) != static_cast<uint32_t>(*header.crc)) {
            return Status::Corruption(where + ": CRC of the stored page module does not match");
          }
          ++stats->crcs_checked;
        }
        pos += module.size();
        ++stats->pages;
        if (dict) {
          ++stats->dictionary_pages;
        } else {
          ++data_pages;
          if (header.data_page_header)
            values += header.data_page_header->num_values;
          else if (header.data_page_header_v2)
            values += header.data_page_header_v2->num_values;
          else
            return Status::Corruption(where + ": data page without its header");
        }
      }
      if (pos != chunk_bytes.size()) {
        return Status::Corruption(where + ": pages take " + std::to_string(pos) +
                                  " bytes, the chunk " + std::to_string(chunk_bytes.size()));
      }
      if (chunk.offset_index_offset && chunk.offset_index_length) {
        ByteSpan m = file.subspan(*chunk.offset_index_offset, *chunk.offset_index_length);
        OffsetIndex index;
        PQ_RETURN_IF_ERROR(column.ReadOffsetIndex(m, &index));
        if (static_cast<int64_t>(index.page_locations.size()) != data_pages) {
          return Status::Corruption(where + ": offset index page count");
        }
        ++stats->offset_indexes;
      }
      if (chunk.column_index_offset && chunk.column_index_length) {
        ByteSpan m = file.subspan(*chunk.column_index_offset, *chunk.column_index_length);
        ColumnIndex index;
        PQ_RETURN_IF_ERROR(column.ReadColumnIndex(m, &index));
        if (static_cast<int64_t>(index.null_pages.size()) != data_pages) {
          return Status::Corruption(where + ": column index page count");
        }
        ++stats->column_indexes;
      }
      if (meta.bloom_filter_offset) {
        ByteSpan at = file.subspan(*meta.bloom_filter_offset);
        BloomFilterHeader bh;
        size_t header_size = 0;
        PQ_RETURN_IF_ERROR(column.ReadBloomFilterHeader(at, &bh, &header_size));
        std::vector<uint8_t> bitset;
        size_t bitset_size = 0;
        PQ_RETURN_IF_ERROR(
            column.DecryptBloomFilterBitset(at.subspan(header_size), &bitset, &bitset_size));
        if (static_cast<int64_t>(bitset.size()) != bh.num_bytes) {
          return Status::Corruption(where + ": Bloom filter bitset size");
        }
        if (meta.bloom_filter_length &&
            static_cast<size_t>(*meta.bloom_filter_length) != header_size + bitset_size) {
          return Status::Corruption(where + ": Bloom filter length");
        }
        ++stats->bloom_filters;
      }
    }
  }
  return Status::OK();
}

struct FileCase {
  const char* name;
  std::optional<std::string> aad_prefix;  // to supply
  bool encrypted_footer;
  EncryptionAlgorithm::Kind algorithm;
};

const FileCase kFiles[] = {
    {"encrypt_columns_and_footer.parquet.encrypted", std::nullopt, true,
     EncryptionAlgorithm::Kind::kAesGcmV1},
    {"encrypt_columns_and_footer_aad.parquet.encrypted", std::nullopt, true,
     EncryptionAlgorithm::Kind::kAesGcmV1},
    {"encrypt_columns_and_footer_bloom_filter.parquet.encrypted", std::nullopt, true,
     EncryptionAlgorithm::Kind::kAesGcmV1},
    {"encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", "tester", true,
     EncryptionAlgorithm::Kind::kAesGcmV1},
    {"encrypt_columns_plaintext_footer.parquet.encrypted", std::nullopt, false,
     EncryptionAlgorithm::Kind::kAesGcmV1},
    {"uniform_encryption.parquet.encrypted", std::nullopt, true,
     EncryptionAlgorithm::Kind::kAesGcmV1},
};

TEST(EncryptedFilesTest, EveryFileDecryptsEndToEnd) {
  for (const FileCase& c : kFiles) {
    SCOPED_TRACE(c.name);
    for (bool by_id : {false, true}) {
      SCOPED_TRACE(by_id ? "keys by id" : "explicit keys");
      DecryptionConfig config = by_id ? KeysById() : ExplicitKeys();
      config.aad_prefix = c.aad_prefix;
      OpenedFile f;
      Status s = OpenFooter(ReadAll(DataPath(c.name)), config, &f);
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(f.decryptor->encrypted_footer(), c.encrypted_footer);
      EXPECT_TRUE(f.decryptor->footer_verified());
      EXPECT_EQ(f.decryptor->algorithm(), c.algorithm);
      ASSERT_FALSE(f.metadata.row_groups.empty());
      EXPECT_GT(f.metadata.num_rows, 0);
      WalkStats stats;
      s = WalkColumns(f, &stats);
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_GT(stats.encrypted_chunks, 0);
      EXPECT_GE(stats.pages, stats.encrypted_chunks);
      if (std::string(c.name).find("bloom") != std::string::npos) {
        EXPECT_EQ(stats.bloom_filters, 2);  // double_field and float_field
      }
      if (std::string(c.name).find("uniform") != std::string::npos) {
        EXPECT_EQ(stats.plaintext_chunks, 0);
      }
      std::printf(
          "%s (%s): %d encrypted chunks, %d plaintext, %d pages (%d dictionary), %d CRCs, "
          "%d column indexes, %d offset indexes, %d Bloom filters\n",
          c.name, by_id ? "by id" : "explicit", stats.encrypted_chunks, stats.plaintext_chunks,
          stats.pages, stats.dictionary_pages, stats.crcs_checked, stats.column_indexes,
          stats.offset_indexes, stats.bloom_filters);
    }
  }
}

// Opens and walks `bytes`; the first error.
Status OpenAndWalk(std::string bytes, const DecryptionConfig& config) {
  OpenedFile f;
  PQ_RETURN_IF_ERROR(OpenFooter(std::move(bytes), config, &f));
  WalkStats stats;
  return WalkColumns(f, &stats);
}

void ExpectError(const Status& s, StatusCode code, const std::string& fragment) {
  EXPECT_EQ(s.code(), code) << s.ToString();
  EXPECT_NE(s.message().find(fragment), std::string::npos)
      << "'" << fragment << "' not in: " << s.message();
  // Never key bytes in a message.
  for (const char* key : {kFooterKey, kDoubleKey, kFloatKey}) {
    EXPECT_EQ(s.message().find(key), std::string::npos) << s.message();
  }
}

const char kColumnsAndFooter[] = "encrypt_columns_and_footer.parquet.encrypted";
const char kPlaintextFooter[] = "encrypt_columns_plaintext_footer.parquet.encrypted";

TEST(EncryptedFilesTest, WrongOrMissingFooterKey) {
  DecryptionConfig config = ExplicitKeys();
  config.footer_key = "0123456789012346";
  ExpectError(OpenAndWalk(ReadAll(DataPath(kColumnsAndFooter)), config), StatusCode::kCrypto,
              "authentication failed for footer");
  config.footer_key.clear();
  ExpectError(OpenAndWalk(ReadAll(DataPath(kColumnsAndFooter)), config), StatusCode::kCrypto,
              "the file has an encrypted footer and its key was not given (key id 'kf')");
  // A registered key of the wrong id does not help; one of the right id does.
  auto registry = std::make_shared<KeyRegistry>();
  ASSERT_TRUE(registry->Add("kx", kFooterKey).ok());
  config.key_retriever = KeyRegistry::RetrieverFor(registry);
  ExpectError(OpenAndWalk(ReadAll(DataPath(kColumnsAndFooter)), config), StatusCode::kCrypto,
              "'kf'");
  ASSERT_TRUE(registry->Add("kf", kFooterKey).ok());
  EXPECT_TRUE(OpenAndWalk(ReadAll(DataPath(kColumnsAndFooter)), config).ok());
  // An explicit key wins over the registry.
  config.footer_key = "abcdefghijklmnop";
  ExpectError(OpenAndWalk(ReadAll(DataPath(kColumnsAndFooter)), config), StatusCode::kCrypto,
              "footer");
}

TEST(EncryptedFilesTest, WrongOrMissingColumnKey) {
  DecryptionConfig config = ExplicitKeys();
  config.column_keys["double_field"] = "1234567890123459";
  ExpectError(OpenAndWalk(ReadAll(DataPath(kColumnsAndFooter)), config), StatusCode::kCrypto,
              "authentication failed for column metadata of row group 0, column 'double_field'");
  config.column_keys.erase("double_field");
  ExpectError(OpenAndWalk(ReadAll(DataPath(kColumnsAndFooter)), config), StatusCode::kCrypto,
              "column 'double_field' is encrypted and no key was given for it (key id 'kc1')");
  // The other columns still decrypt without it.
  OpenedFile f;
  ASSERT_TRUE(OpenFooter(ReadAll(DataPath(kColumnsAndFooter)), config, &f).ok());
  int readable = 0;
  for (size_t col = 0; col < f.metadata.row_groups[0].columns.size(); ++col) {
    if (f.decryptor->DecryptColumnMetaData(f.metadata.row_groups[0].columns[col], 0, col).ok())
      ++readable;
  }
  EXPECT_EQ(readable, 7);
}

TEST(EncryptedFilesTest, AadPrefix) {
  const char kStored[] = "encrypt_columns_and_footer_aad.parquet.encrypted";
  const char kNotStored[] = "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted";
  DecryptionConfig config = ExplicitKeys();
  EXPECT_TRUE(OpenAndWalk(ReadAll(DataPath(kStored)), config).ok());  // stored: nothing to give
  config.aad_prefix = "tester";
  EXPECT_TRUE(OpenAndWalk(ReadAll(DataPath(kStored)), config).ok());  // the same one: fine
  config.aad_prefix = "tester2";
  ExpectError(OpenAndWalk(ReadAll(DataPath(kStored)), config), StatusCode::kCrypto,
              "differs from the one stored in the file");
  config.aad_prefix.reset();
  ExpectError(OpenAndWalk(ReadAll(DataPath(kNotStored)), config), StatusCode::kCrypto,
              "AAD prefix that it does not store");
  config.aad_prefix = "tester2";
  ExpectError(OpenAndWalk(ReadAll(DataPath(kNotStored)), config), StatusCode::kCrypto,
              "authentication failed for footer");
}

TEST(EncryptedFilesTest, PlaintextFooterSignature) {
  const std::string bytes = ReadAll(DataPath(kPlaintextFooter));
  // Without any key: the footer reads (unverified), the plaintext columns read, the encrypted ones
  // say which key is missing.
  OpenedFile f;
  ASSERT_TRUE(OpenFooter(bytes, DecryptionConfig(), &f).ok());
  EXPECT_FALSE(f.decryptor->footer_verified());
  EXPECT_FALSE(f.decryptor->encrypted_footer());
  int plaintext = 0;
  for (size_t col = 0; col < f.metadata.row_groups[0].columns.size(); ++col) {
    const ColumnChunk& chunk = f.metadata.row_groups[0].columns[col];
    auto meta = f.decryptor->DecryptColumnMetaData(chunk, 0, col);
    if (chunk.crypto_metadata) {
      EXPECT_EQ(meta.status().code(), StatusCode::kCrypto);
      EXPECT_EQ(f.decryptor->ForColumn(chunk, 0, col).status().code(), StatusCode::kCrypto);
    } else {
      ASSERT_TRUE(meta.ok());
      ++plaintext;
    }
  }
  EXPECT_EQ(plaintext, 6);
  // A wrong footer key: the signature does not match.
  DecryptionConfig config = ExplicitKeys();
  config.footer_key = "0123456789012346";
  ExpectError(OpenAndWalk(bytes, config), StatusCode::kCrypto, "footer signature does not match");
  // An altered footer that still parses: the "schema" root name becomes "schemb".
  const uint32_t footer_len =
      LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size() - 8);
  const size_t footer_start = bytes.size() - 8 - footer_len;
  size_t at = bytes.find("schema", footer_start);
  ASSERT_NE(at, std::string::npos);
  std::string altered = bytes;
  altered[at + 5] = 'b';
  ExpectError(OpenAndWalk(altered, ExplicitKeys()), StatusCode::kCrypto,
              "footer signature does not match");
  // Every byte of the signature matters.
  for (size_t i = 0; i < kFooterSignatureLength; ++i) {
    std::string bad = bytes;
    bad[bytes.size() - 8 - kFooterSignatureLength + i] ^= 0x01;
    ExpectError(OpenAndWalk(bad, ExplicitKeys()), StatusCode::kCrypto, "footer signature");
  }
}

// parquet-java's file with external, double-wrapped PKMT1 key material: with the master keys kf,
// kc1, kc2 registered, every module authenticates; without key management it says what is missing.
TEST(EncryptedFilesTest, ExternalKeyMaterialDecryptsEndToEnd) {
  const std::string path = DataPath("external_key_material_java.parquet.encrypted");
  ExpectError(OpenAndWalk(ReadAll(path), KeysById()), StatusCode::kCrypto,
              "the footer key is wrapped by a master key (PKMT1 key material)");
  DecryptionConfig config = KeysById();
  auto registry = std::make_shared<KeyRegistry>();
  ASSERT_TRUE(registry->Add("kf", kFooterKey).ok());
  ASSERT_TRUE(registry->Add("kc1", kDoubleKey).ok());
  ASSERT_TRUE(registry->Add("kc2", kFloatKey).ok());
  config.key_unwrapper = KeyUnwrapper::Make(std::make_shared<RegistryKmsClient>(
      std::vector<std::shared_ptr<const KeyRegistry>>{registry}));
  OpenedFile f;
  Status s = OpenFooter(ReadAll(path), config, &f, path);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(f.metadata.num_rows, 100);
  WalkStats stats;
  s = WalkColumns(f, &stats);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(stats.encrypted_chunks, 2);
  EXPECT_GT(stats.pages, 0);
  // Both columns have their own key, each key metadata a reference into the material file.
  for (const ColumnChunk& c : f.metadata.row_groups[0].columns) {
    ASSERT_TRUE(c.crypto_metadata && c.crypto_metadata->key_metadata);
    EXPECT_EQ(c.crypto_metadata->kind, ColumnCryptoMetaData::Kind::kColumnKey);
    EXPECT_NE(c.crypto_metadata->key_metadata->find("\"keyReference\":\"columnKey"), std::string::npos);
  }
}

// Every byte of the encrypted footer flipped: an error (Crypto for the footer module, Corruption or
// Crypto for the FileCryptoMetaData before it), never a crash. The few FileCryptoMetaData bytes
// that do not feed the AAD (an optional flag, the key id when the key is given explicitly) may
// change harmlessly: the footer then decrypts to exactly the original bytes.
TEST(EncryptedFilesTest, EveryFlippedFooterByteIsAnErrorOrHarmless) {
  const std::string bytes = ReadAll(DataPath(kColumnsAndFooter));
  const uint32_t footer_len =
      LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size() - 8);
  const size_t start = bytes.size() - 8 - footer_len;
  ByteSpan footer = AsBytes(bytes).subspan(start, footer_len);
  std::vector<uint8_t> original;
  ASSERT_TRUE(FileDecryptor::ForEncryptedFooter(footer, ExplicitKeys(), &original).ok());
  int crypto = 0, harmless = 0;
  for (size_t i = 0; i < footer_len; ++i) {
    std::string bad(footer.begin(), footer.end());
    bad[i] ^= 0x20;
    std::vector<uint8_t> plain;
    auto d = FileDecryptor::ForEncryptedFooter(AsBytes(bad), ExplicitKeys(), &plain);
    if (d.ok()) {
      EXPECT_LT(i, 20u) << "byte " << i << " of the module was not authenticated";
      EXPECT_EQ(plain, original) << "byte " << i;
      ++harmless;
    } else if (d.status().code() == StatusCode::kCrypto) {
      ++crypto;
    } else {
      EXPECT_TRUE(d.status().IsCorruption() || d.status().IsNotSupported())
          << d.status().ToString();
    }
  }
  EXPECT_GT(crypto, static_cast<int>(footer_len) - 30);
  EXPECT_LT(harmless, 10);
}

// Flipped bytes inside the encrypted column chunks: page header modules, page modules, page
// indexes. Each is an error naming the module (never a crash, never wrong data).
TEST(EncryptedFilesTest, FlippedChunkBytesNameTheModule) {
  const std::string bytes = ReadAll(DataPath(kColumnsAndFooter));
  OpenedFile f;
  ASSERT_TRUE(OpenFooter(bytes, ExplicitKeys(), &f).ok());
  for (size_t col = 0; col < f.metadata.row_groups[0].columns.size(); ++col) {
    const ColumnChunk& chunk = f.metadata.row_groups[0].columns[col];
    if (!chunk.crypto_metadata) continue;
    auto meta = f.decryptor->DecryptColumnMetaData(chunk, 0, col);
    ASSERT_TRUE(meta.ok());
    const std::string name = DottedPath(meta->path_in_schema);
    ASSERT_TRUE(ExpectDictionaryPage(*meta));
    const size_t dict = static_cast<size_t>(*meta->dictionary_page_offset);
    const size_t header_module =
        4 + LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(bytes.data()) + dict);
    struct Flip {
      size_t offset;
      std::string fragment;
    } flips[] = {
        {dict + 10,
         "authentication failed for dictionary page header of row group 0, column '" + name + "'"},
        {dict + header_module + 20,
         "authentication failed for dictionary page of row group 0, column '" + name + "'"},
        {static_cast<size_t>(meta->data_page_offset) + 10,
         "authentication failed for data page header 0 of row group 0, column '" + name + "'"},
        {static_cast<size_t>(*chunk.offset_index_offset) + 20,
         "authentication failed for offset index of row group 0, column '" + name + "'"},
        {static_cast<size_t>(*chunk.column_index_offset) + 20,
         "authentication failed for column index of row group 0, column '" + name + "'"},
    };
    for (const Flip& flip : flips) {
      SCOPED_TRACE(flip.fragment);
      std::string bad = bytes;
      bad[flip.offset] ^= 0x01;
      ExpectError(OpenAndWalk(bad, ExplicitKeys()), StatusCode::kCrypto, flip.fragment);
    }
    // The same bytes under the wrong module identity fail too (AAD): a data page header read as
    // page 1, a dictionary header read as a data page header, a page of another column.
    ASSERT_TRUE(f.decryptor->ForColumn(chunk, 0, col).ok());
    ColumnDecryptor column = *f.decryptor->ForColumn(chunk, 0, col);
    PageHeader header;
    size_t size = 0;
    ByteSpan file = AsBytes(bytes);
    EXPECT_TRUE(
        column.ReadPageHeader(file.subspan(meta->data_page_offset), false, 0, &header, &size).ok());
    ExpectError(
        column.ReadPageHeader(file.subspan(meta->data_page_offset), false, 1, &header, &size),
        StatusCode::kCrypto, "data page header 1");
    ExpectError(column.ReadPageHeader(file.subspan(dict), false, 0, &header, &size),
                StatusCode::kCrypto, "data page header 0");
    ColumnDecryptor wrong_column(std::string(col == 5 ? kDoubleKey : kFloatKey),
                                 f.decryptor->file_aad(), Cipher::kGcm, 0, col + 1, name);
    ExpectError(wrong_column.ReadPageHeader(file.subspan(dict), true, 0, &header, &size),
                StatusCode::kCrypto, "dictionary page header");
  }
}

// Truncating the file anywhere in the tail gives an error, never a crash.
TEST(EncryptedFilesTest, TruncatedTailsAreErrors) {
  for (const char* name : {kColumnsAndFooter, kPlaintextFooter}) {
    const std::string bytes = ReadAll(DataPath(name));
    for (size_t cut = 1; cut < 1300 && cut < bytes.size(); cut += 7) {
      OpenedFile f;
      Status s = OpenFooter(bytes.substr(0, bytes.size() - cut), ExplicitKeys(), &f);
      EXPECT_FALSE(s.ok()) << name << " cut " << cut;
    }
  }
}

}  // namespace
}  // namespace pq::crypto
