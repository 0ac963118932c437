// FileEncryptor -> FileDecryptor over small synthetic files, for every mode the conformance files
// do not cover: AES_GCM_CTR_V1, 192/256-bit keys, key metadata and none, stored and supplied AAD
// prefixes, encrypted and plaintext footers, uniform and per-column encryption, several row groups.
// Each file has per column a dictionary page, three data pages, an offset index, a column index and
// a Bloom filter, all with random plaintexts that must come back byte for byte.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "format/crypto/file_decryptor.h"
#include "format/crypto/file_encryptor.h"
#include "format/metadata/metadata_io.h"
#include "format/util/crc32.h"

namespace pq::crypto {
namespace {

constexpr int kColumns = 3;  // a, b, c
constexpr int kRowGroups = 2;
constexpr int kDataPages = 3;
const char* const kNames[kColumns] = {"a", "b", "c"};

// What the writer put in, to compare with what the reader gets out.
struct ChunkPlain {
  std::vector<std::string> pages;  // [0] the dictionary page, then the data pages
  std::string offset_index;
  std::string column_index;
  std::string bloom_header;
  std::string bloom_bitset;
};

struct Written {
  std::string bytes;
  ChunkPlain chunks[kRowGroups][kColumns];
};

std::string RandomBytes(std::mt19937* rng, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>((*rng)());
  return s;
}

Status WriteFile(const EncryptionConfig& config, uint32_t seed, Written* w) {
  std::mt19937 rng(seed);
  PQ_ASSIGN_OR_RETURN(auto encryptor, FileEncryptor::Make(config));
  std::string& out = w->bytes;
  out = encryptor->magic();
  FileMetaData md;
  md.version = 2;
  SchemaElement root;
  root.name = "schema";
  root.num_children = kColumns;
  md.schema.push_back(root);
  for (const char* name : kNames) {
    SchemaElement leaf;
    leaf.name = name;
    leaf.type = PhysicalType::kInt32;
    leaf.repetition_type = Repetition::kRequired;
    md.schema.push_back(leaf);
  }
  for (int rg = 0; rg < kRowGroups; ++rg) {
    RowGroup group;
    group.ordinal = static_cast<int16_t>(rg);
    group.num_rows = 30;
    for (int col = 0; col < kColumns; ++col) {
      ChunkPlain& plain = w->chunks[rg][col];
      PQ_ASSIGN_OR_RETURN(std::optional<ColumnEncryptor> enc,
                          encryptor->ForColumn(kNames[col], rg, col));
      ColumnChunk chunk;
      ColumnMetaData meta;
      meta.type = PhysicalType::kInt32;
      meta.path_in_schema = {kNames[col]};
      meta.encodings = {Encoding::kPlain, Encoding::kRleDictionary};
      meta.num_values = 30;
      meta.statistics = Statistics();
      meta.statistics->null_count = 0;
      const int64_t chunk_start = static_cast<int64_t>(out.size());
      meta.dictionary_page_offset = chunk_start;
      std::vector<PageLocation> locations;
      for (int p = 0; p <= kDataPages; ++p) {
        const bool dict = p == 0;
        const int64_t ordinal = p - 1;
        std::string page = RandomBytes(&rng, 1 + rng() % 300);
        plain.pages.push_back(page);
        std::string stored;
        if (enc) {
          PQ_RETURN_IF_ERROR(enc->EncryptPage(AsBytes(page), dict, ordinal, &stored));
          if (stored.size() != enc->PageModuleSize(page.size()))
            return Status::Corruption("module size");
        } else {
          stored = page;
        }
        PageHeader header;
        header.type = dict ? PageType::kDictionaryPage : PageType::kDataPage;
        header.uncompressed_page_size = static_cast<int32_t>(page.size());
        header.compressed_page_size = static_cast<int32_t>(stored.size());
        header.crc = static_cast<int32_t>(Crc32(AsBytes(stored)));
        if (dict) {
          header.dictionary_page_header = DictionaryPageHeader{7, Encoding::kPlain, std::nullopt};
        } else {
          header.data_page_header = DataPageHeader{10, Encoding::kRleDictionary, Encoding::kRle,
                                                   Encoding::kRle, std::nullopt};
        }
        std::string serialized_header;
        WritePageHeader(header, &serialized_header);
        const int64_t page_offset = static_cast<int64_t>(out.size());
        if (!dict) {
          if (p == 1) meta.data_page_offset = page_offset;
          locations.push_back(PageLocation{page_offset, 0, 10 * ordinal});
        }
        if (enc) {
          PQ_RETURN_IF_ERROR(
              enc->EncryptPageHeader(AsBytes(serialized_header), dict, ordinal, &out));
        } else {
          out += serialized_header;
        }
        if (!dict)
          locations.back().compressed_page_size =
              static_cast<int32_t>(out.size() - page_offset + stored.size());
        out += stored;
      }
      meta.total_compressed_size = static_cast<int64_t>(out.size()) - chunk_start;
      meta.total_uncompressed_size = meta.total_compressed_size;
      // Bloom filter: header module then bitset module.
      plain.bloom_bitset = RandomBytes(&rng, 32);
      BloomFilterHeader bloom;
      bloom.num_bytes = 32;
      WriteBloomFilterHeader(bloom, &plain.bloom_header);
      meta.bloom_filter_offset = static_cast<int64_t>(out.size());
      if (enc) {
        PQ_RETURN_IF_ERROR(enc->EncryptBloomFilterHeader(AsBytes(plain.bloom_header), &out));
        PQ_RETURN_IF_ERROR(enc->EncryptBloomFilterBitset(AsBytes(plain.bloom_bitset), &out));
      } else {
        out += plain.bloom_header + plain.bloom_bitset;
      }
      meta.bloom_filter_length = static_cast<int32_t>(out.size() - *meta.bloom_filter_offset);
      // Page index.
      OffsetIndex oi;
      oi.page_locations = locations;
      WriteOffsetIndex(oi, &plain.offset_index);
      ColumnIndex ci;
      ci.null_pages = std::vector<bool>(kDataPages, false);
      ci.min_values = ci.max_values = std::vector<std::string>(kDataPages, "x");
      WriteColumnIndex(ci, &plain.column_index);
      chunk.offset_index_offset = static_cast<int64_t>(out.size());
      if (enc) {
        PQ_RETURN_IF_ERROR(enc->EncryptOffsetIndex(AsBytes(plain.offset_index), &out));
      } else {
        out += plain.offset_index;
      }
      chunk.offset_index_length = static_cast<int32_t>(out.size() - *chunk.offset_index_offset);
      chunk.column_index_offset = static_cast<int64_t>(out.size());
      if (enc) {
        PQ_RETURN_IF_ERROR(enc->EncryptColumnIndex(AsBytes(plain.column_index), &out));
      } else {
        out += plain.column_index;
      }
      chunk.column_index_length = static_cast<int32_t>(out.size() - *chunk.column_index_offset);
      chunk.file_offset = chunk_start;
      chunk.meta_data = meta;
      PQ_RETURN_IF_ERROR(encryptor->FinishColumnChunk(&chunk, rg, col));
      group.columns.push_back(std::move(chunk));
    }
    md.row_groups.push_back(std::move(group));
  }
  md.num_rows = 30 * kRowGroups;
  return encryptor->WriteFooter(md, &out);
}

Result<std::unique_ptr<FileDecryptor>> OpenFooter(const std::string& b,
                                                  const DecryptionConfig& config,
                                                  FileMetaData* md) {
  const uint32_t len = LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(b.data()) + b.size() - 8);
  ByteSpan footer = AsBytes(b).subspan(b.size() - 8 - len, len);
  if (b.substr(b.size() - 4) == "PARE") {
    if (b.substr(0, 4) != "PARE") return Status::Corruption("head magic");
    std::vector<uint8_t> plain;
    PQ_ASSIGN_OR_RETURN(auto d, FileDecryptor::ForEncryptedFooter(footer, config, &plain));
    PQ_RETURN_IF_ERROR(ReadFileMetaData(ByteSpan(plain.data(), plain.size()), md));
    return d;
  }
  if (b.substr(0, 4) != "PAR1") return Status::Corruption("head magic");
  PQ_RETURN_IF_ERROR(ReadFileMetaData(footer, md));
  return FileDecryptor::ForPlaintextFooter(footer, *md, config);
}

std::string Str(const std::vector<uint8_t>& v) {
  return std::string(v.begin(), v.end());
}

// Reads everything back and compares with what was written.
void ReadAndCompare(const Written& w, const DecryptionConfig& config, const EncryptionConfig& ec) {
  FileMetaData md;
  auto opened = OpenFooter(w.bytes, config, &md);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  const FileDecryptor& d = **opened;
  EXPECT_TRUE(d.footer_verified());
  EXPECT_EQ(d.encrypted_footer(), ec.encrypted_footer);
  EXPECT_EQ(d.algorithm(), ec.algorithm);
  ASSERT_EQ(md.row_groups.size(), static_cast<size_t>(kRowGroups));
  ByteSpan file = AsBytes(w.bytes);
  for (int rg = 0; rg < kRowGroups; ++rg) {
    for (int col = 0; col < kColumns; ++col) {
      SCOPED_TRACE("row group " + std::to_string(rg) + " column " + kNames[col]);
      const ChunkPlain& plain = w.chunks[rg][col];
      const ColumnChunk& chunk = md.row_groups[rg].columns[col];
      const bool encrypted = ec.column_keys.empty() || ec.column_keys.count(kNames[col]);
      ASSERT_EQ(chunk.crypto_metadata.has_value(), encrypted);
      auto meta = d.DecryptColumnMetaData(chunk, RowGroupOrdinal(md.row_groups[rg], rg), col);
      ASSERT_TRUE(meta.ok()) << meta.status().ToString();
      ASSERT_TRUE(meta->statistics.has_value());  // the full metadata, statistics included
      EXPECT_EQ(meta->path_in_schema, std::vector<std::string>{kNames[col]});
      if (!encrypted) continue;
      if (!ec.encrypted_footer) {
        ASSERT_TRUE(chunk.meta_data.has_value());  // the legacy copy, without statistics
        EXPECT_FALSE(chunk.meta_data->statistics.has_value());
      }
      auto column = d.ForColumn(chunk, rg, col);
      ASSERT_TRUE(column.ok()) << column.status().ToString();
      EXPECT_EQ(column->page_cipher(), ec.algorithm == EncryptionAlgorithm::Kind::kAesGcmCtrV1
                                           ? Cipher::kCtr
                                           : Cipher::kGcm);
      size_t pos = static_cast<size_t>(*meta->dictionary_page_offset);
      ASSERT_TRUE(ExpectDictionaryPage(*meta));
      for (int p = 0; p <= kDataPages; ++p) {
        const bool dict = p == 0;
        PageHeader header;
        size_t header_size = 0;
        Status s = column->ReadPageHeader(file.subspan(pos), dict, p - 1, &header, &header_size);
        ASSERT_TRUE(s.ok()) << s.ToString();
        pos += header_size;
        ByteSpan module = file.subspan(pos, header.compressed_page_size);
        EXPECT_EQ(Crc32(module), static_cast<uint32_t>(*header.crc));
        std::vector<uint8_t> page;
        s = column->DecryptPage(module, dict, p - 1, &page);
        ASSERT_TRUE(s.ok()) << s.ToString();
        EXPECT_EQ(Str(page), plain.pages[p]);
        EXPECT_EQ(page.size() + column->page_overhead(), module.size());
        EXPECT_EQ(static_cast<size_t>(header.uncompressed_page_size), page.size());
        pos += module.size();
      }
      std::vector<uint8_t> out;
      ASSERT_TRUE(
          column
              ->DecryptOffsetIndex(
                  file.subspan(*chunk.offset_index_offset, *chunk.offset_index_length), &out)
              .ok());
      EXPECT_EQ(Str(out), plain.offset_index);
      OffsetIndex oi;
      ASSERT_TRUE(column
                      ->ReadOffsetIndex(
                          file.subspan(*chunk.offset_index_offset, *chunk.offset_index_length), &oi)
                      .ok());
      ASSERT_EQ(oi.page_locations.size(), static_cast<size_t>(kDataPages));
      EXPECT_EQ(oi.page_locations[0].offset, meta->data_page_offset);
      ColumnIndex ci;
      ASSERT_TRUE(column
                      ->ReadColumnIndex(
                          file.subspan(*chunk.column_index_offset, *chunk.column_index_length), &ci)
                      .ok());
      EXPECT_EQ(ci.null_pages.size(), static_cast<size_t>(kDataPages));
      size_t header_module = 0, bitset_module = 0;
      BloomFilterHeader bloom;
      ASSERT_TRUE(column
                      ->ReadBloomFilterHeader(file.subspan(*meta->bloom_filter_offset), &bloom,
                                              &header_module)
                      .ok());
      EXPECT_EQ(bloom.num_bytes, 32);
      ASSERT_TRUE(
          column
              ->DecryptBloomFilterBitset(file.subspan(*meta->bloom_filter_offset + header_module),
                                         &out, &bitset_module)
              .ok());
      EXPECT_EQ(Str(out), plain.bloom_bitset);
      EXPECT_EQ(header_module + bitset_module, static_cast<size_t>(*meta->bloom_filter_length));
    }
  }
}

struct Mode {
  EncryptionAlgorithm::Kind algorithm;
  bool encrypted_footer;
  bool per_column;
  int aad;  // 0 none, 1 stored, 2 supplied by the reader
  size_t key_size;
  bool key_ids;
};

std::string Key(char fill, size_t size) {
  return std::string(size, fill);
}

TEST(RoundTripTest, EveryModeDecryptsToWhatWasWritten) {
  uint32_t seed = 1;
  for (auto algorithm :
       {EncryptionAlgorithm::Kind::kAesGcmV1, EncryptionAlgorithm::Kind::kAesGcmCtrV1}) {
    for (bool encrypted_footer : {true, false}) {
      for (bool per_column : {false, true}) {
        for (int aad : {0, 1, 2}) {
          for (size_t key_size : {16, 24, 32}) {
            for (bool key_ids : {false, true}) {
              Mode m{algorithm, encrypted_footer, per_column, aad, key_size, key_ids};
              SCOPED_TRACE(
                  std::string(algorithm == EncryptionAlgorithm::Kind::kAesGcmV1 ? "GCM"
                                                                                : "GCM_CTR") +
                  (encrypted_footer ? " encrypted footer" : " plaintext footer") +
                  (per_column ? " column keys" : " uniform") + " aad " + std::to_string(aad) +
                  " key " + std::to_string(key_size) + (key_ids ? " ids" : " explicit"));
              EncryptionConfig ec;
              ec.algorithm = m.algorithm;
              ec.encrypted_footer = m.encrypted_footer;
              ec.footer_key = Key('F', m.key_size);
              if (m.key_ids) ec.footer_key_metadata = "kf";
              if (m.per_column) {
                ec.column_keys["a"] = ColumnKeySpec{Key('A', m.key_size), m.key_ids ? "ka" : ""};
                ec.column_keys["c"] = ColumnKeySpec{Key('C', 16), m.key_ids ? "kc" : ""};
              }
              if (m.aad > 0) ec.aad_prefix = "table.part" + std::to_string(seed);
              ec.store_aad_prefix = m.aad == 1;
              Written w;
              Status s = WriteFile(ec, seed++, &w);
              ASSERT_TRUE(s.ok()) << s.ToString();

              DecryptionConfig dc;
              if (m.key_ids) {
                auto registry = std::make_shared<KeyRegistry>();
                ASSERT_TRUE(registry->Add("kf", ec.footer_key).ok());
                ASSERT_TRUE(registry->Add("ka", Key('A', m.key_size)).ok());
                ASSERT_TRUE(registry->Add("kc", Key('C', 16)).ok());
                dc.key_retriever = KeyRegistry::RetrieverFor(registry);
              } else {
                dc.footer_key = ec.footer_key;
                dc.column_keys["a"] = Key('A', m.key_size);
                dc.column_keys["c"] = Key('C', 16);
              }
              if (m.aad == 2) dc.aad_prefix = ec.aad_prefix;
              ReadAndCompare(w, dc, ec);
              if (m.aad == 2) {
                // Without the prefix the file cannot be opened, with a wrong one it fails to
                // authenticate.
                dc.aad_prefix.reset();
                FileMetaData md;
                EXPECT_EQ(OpenFooter(w.bytes, dc, &md).status().code(), StatusCode::kCrypto);
                dc.aad_prefix = "other";
                EXPECT_EQ(OpenFooter(w.bytes, dc, &md).status().code(), StatusCode::kCrypto);
              }
            }
          }
        }
      }
    }
  }
}

// CTR pages are not authenticated: a flipped page byte decrypts to a flipped plaintext byte (the
// spec's trade-off), while the page header (GCM) still detects tampering.
TEST(RoundTripTest, CtrPagesAreNotAuthenticatedTheirHeadersAre) {
  EncryptionConfig ec;
  ec.algorithm = EncryptionAlgorithm::Kind::kAesGcmCtrV1;
  ec.footer_key = Key('F', 16);
  Written w;
  ASSERT_TRUE(WriteFile(ec, 99, &w).ok());
  DecryptionConfig dc;
  dc.footer_key = ec.footer_key;
  FileMetaData md;
  auto d = OpenFooter(w.bytes, dc, &md);
  ASSERT_TRUE(d.ok());
  const ColumnChunk& chunk = md.row_groups[0].columns[0];
  auto column = (*d)->ForColumn(chunk, 0, 0);
  ASSERT_TRUE(column.ok());
  const size_t dict = static_cast<size_t>(*chunk.meta_data->dictionary_page_offset);
  PageHeader header;
  size_t header_size = 0;
  ASSERT_TRUE(
      column->ReadPageHeader(AsBytes(w.bytes).subspan(dict), true, 0, &header, &header_size).ok());
  std::string bad = w.bytes;
  bad[dict + header_size + 16] ^= 0x08;  // first ciphertext byte of the dictionary page
  std::vector<uint8_t> page;
  ASSERT_TRUE(
      column
          ->DecryptPage(AsBytes(bad).subspan(dict + header_size, header.compressed_page_size), true,
                        0, &page)
          .ok());
  std::string expected = w.chunks[0][0].pages[0];
  expected[0] ^= 0x08;
  EXPECT_EQ(Str(page), expected);
  bad = w.bytes;
  bad[dict + 20] ^= 0x08;  // inside the header module
  Status s = column->ReadPageHeader(AsBytes(bad).subspan(dict), true, 0, &header, &header_size);
  EXPECT_EQ(s.code(), StatusCode::kCrypto);
  EXPECT_NE(s.message().find("dictionary page header of row group 0, column 'a'"),
            std::string::npos)
      << s.message();
}

TEST(RoundTripTest, EncryptorRejectsBadConfigs) {
  EncryptionConfig ec;
  EXPECT_TRUE(FileEncryptor::Make(ec).status().IsInvalidArgument());  // no footer key
  ec.footer_key = Key('F', 16);
  ec.column_keys["x"] = ColumnKeySpec{"short", ""};
  Status s = FileEncryptor::Make(ec).status();
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("column 'x'"), std::string::npos);
  EXPECT_EQ(s.message().find("short"), std::string::npos);
  ec.column_keys.clear();
  ec.algorithm = EncryptionAlgorithm::Kind::kNone;
  EXPECT_TRUE(FileEncryptor::Make(ec).status().IsInvalidArgument());
}

}  // namespace
}  // namespace pq::crypto
