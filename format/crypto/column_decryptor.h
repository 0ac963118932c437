// ColumnDecryptor: decrypts the modules of one encrypted column chunk (one row group, one column).
//
// The Parquet spec "Parquet Modular Encryption" 3, 5.1: in an encrypted column chunk every page
// header, page body, column index, offset index, Bloom filter header and Bloom filter bitset is a
// separate module (4-byte LE length | nonce | ciphertext [| tag]) under the column's key, with an
// AAD naming its type, row group, column and (data pages and their headers) page ordinal. A chunk
// is laid out as
//   [dictionary page header module][dictionary page module]
//   [data page header module][data page module] ...
// where each header module decrypts to the Thrift PageHeader and each page module to the page bytes
// a plaintext file would hold (compressed, levels included). The header's compressed_page_size is
// the size of the page MODULE in the file (length field included): the plaintext page is
// compressed_page_size - page_overhead() bytes. uncompressed_page_size is unchanged. A page CRC
// (PageHeader.crc) covers the page module as stored, length field included: check it before
// decrypting, over the same compressed_page_size bytes as in a plaintext file. A data page v2's
// level bytes are inside the encrypted page; its level lengths refer to the decrypted page.
//
// Page ordinals count data pages (v1 and v2) from 0 within the chunk; the dictionary page has none.
// The dictionary page header's AAD differs from a data page header's, so the caller must know
// whether the next header is a dictionary page's before decrypting it: it is when it is the
// chunk's first page and ExpectDictionaryPage(column metadata) is true.
//
// Made by FileDecryptor::ForColumn. A value type: cheap to copy, const methods, safe to use from
// several threads. Every failure names the module ("data page header 3 of row group 0, column
// 'x'"); callers add the file name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/crypto/aes_cipher.h"
#include "format/crypto/module_aad.h"
#include "format/metadata/metadata.h"
#include "format/metadata/metadata_io.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq::crypto {

// True when the chunk's first page is a dictionary page (dictionary_page_offset set to a real
// offset), so its first header module is a dictionary page header.
inline bool ExpectDictionaryPage(const ColumnMetaData& meta) {
  return meta.dictionary_page_offset.has_value() && *meta.dictionary_page_offset >= 4;
}

class ColumnDecryptor {
 public:
  ColumnDecryptor(std::string key, std::string file_aad, Cipher page_cipher,
                  int64_t row_group_ordinal, int64_t column_ordinal, std::string column_name);
  ColumnDecryptor(const ColumnDecryptor&) = default;
  ColumnDecryptor(ColumnDecryptor&&) = default;
  ColumnDecryptor& operator=(const ColumnDecryptor&) = default;
  ColumnDecryptor& operator=(ColumnDecryptor&&) = default;
  ~ColumnDecryptor() { WipeSecret(&key_); }

  // --- Pages ---------------------------------------------------------------------------------

  // Decrypts the page header module at the start of `data` (which may run on into the page body)
  // and parses it. *module_size gets the bytes the module takes in the file: the page module
  // starts right after it. `data_page_ordinal` is ignored for a dictionary page header.
  Status ReadPageHeader(ByteSpan data, bool dictionary, int64_t data_page_ordinal,
                        PageHeader* header, size_t* module_size) const;
  // The same, handing out the decrypted Thrift bytes instead of parsing them.
  Status DecryptPageHeader(ByteSpan data, bool dictionary, int64_t data_page_ordinal,
                           std::vector<uint8_t>* plaintext, size_t* module_size) const;

  // Decrypts one page: `module` is exactly the header's compressed_page_size bytes that follow the
  // header module. *plaintext gets the page as a plaintext file would store it (still compressed).
  // AES_GCM_V1 pages are authenticated; AES_GCM_CTR_V1 pages are not (CTR has no tag).
  Status DecryptPage(ByteSpan module, bool dictionary, int64_t data_page_ordinal,
                     std::vector<uint8_t>* plaintext) const;

  // compressed_page_size minus the plaintext page size: 32 (GCM) or 16 (CTR).
  size_t page_overhead() const {
    return page_cipher_ == Cipher::kGcm ? kGcmModuleOverhead : kCtrModuleOverhead;
  }

  // --- Page index and Bloom filter -------------------------------------------------------------

  // `module` is exactly the column_index_length / offset_index_length bytes at the chunk's
  // column_index_offset / offset_index_offset.
  Status DecryptColumnIndex(ByteSpan module, std::vector<uint8_t>* plaintext) const;
  Status DecryptOffsetIndex(ByteSpan module, std::vector<uint8_t>* plaintext) const;
  // `max_memory` as for metadata_io.h's readers.
  Status ReadColumnIndex(ByteSpan module, ColumnIndex* index,
                         int64_t max_memory = kDefaultMetadataMemory) const;
  Status ReadOffsetIndex(ByteSpan module, OffsetIndex* index,
                         int64_t max_memory = kDefaultMetadataMemory) const;

  // The Bloom filter at bloom_filter_offset is a header module followed by a bitset module. Both
  // take `data` starting at their module (it may run on) and give the module's size in the file.
  // The bitset's plaintext is the header's num_bytes (the caller checks).
  Status ReadBloomFilterHeader(ByteSpan data, BloomFilterHeader* header, size_t* module_size) const;
  Status DecryptBloomFilterHeader(ByteSpan data, std::vector<uint8_t>* plaintext,
                                  size_t* module_size) const;
  Status DecryptBloomFilterBitset(ByteSpan data, std::vector<uint8_t>* bitset,
                                  size_t* module_size) const;

  Cipher page_cipher() const { return page_cipher_; }
  int64_t row_group_ordinal() const { return row_group_ordinal_; }
  int64_t column_ordinal() const { return column_ordinal_; }
  const std::string& column_name() const { return column_name_; }

 private:
  // Decrypts the module at the start of `data`; exact: the module must fill `data`.
  Status Decrypt(ModuleType type, Cipher cipher, ByteSpan data, bool exact, int64_t page_ordinal,
                 std::vector<uint8_t>* plaintext, size_t* module_size) const;
  std::string Describe(ModuleType type, int64_t page_ordinal) const;

  std::string key_;       // the column's key (its own or the footer key)
  std::string file_aad_;  // aad_prefix + aad_file_unique
  Cipher page_cipher_;    // kGcm for AES_GCM_V1, kCtr for AES_GCM_CTR_V1
  int64_t row_group_ordinal_;
  int64_t column_ordinal_;
  std::string column_name_;  // dotted path, for messages
};

}  // namespace pq::crypto
