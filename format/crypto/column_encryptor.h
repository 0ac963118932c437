// ColumnEncryptor: encrypts the modules of one column chunk for a writer; the mirror of
// ColumnDecryptor (see column_decryptor.h for the layout and the ordinals).
//
// A writer of an encrypted chunk, per page: compress the page; EncryptPage appends the page module
// (its size is the header's compressed_page_size, and a page CRC is computed over those module
// bytes); serialize the PageHeader; EncryptPageHeader appends the header module; write header
// module then page module. Column index, offset index and Bloom filter (header module, then bitset
// module) likewise. Every Encrypt* appends one module to *out and draws a fresh random nonce.
#pragma once

#include <cstdint>
#include <string>

#include "format/crypto/aes_cipher.h"
#include "format/crypto/module_aad.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq::crypto {

class ColumnEncryptor {
 public:
  ColumnEncryptor(std::string key, std::string file_aad, Cipher page_cipher,
                  int64_t row_group_ordinal, int64_t column_ordinal);
  ColumnEncryptor(const ColumnEncryptor&) = default;
  ColumnEncryptor(ColumnEncryptor&&) = default;
  ColumnEncryptor& operator=(const ColumnEncryptor&) = default;
  ColumnEncryptor& operator=(ColumnEncryptor&&) = default;
  ~ColumnEncryptor() { WipeSecret(&key_); }

  // `serialized_header` is the Thrift PageHeader (compressed_page_size = the page module's size).
  Status EncryptPageHeader(ByteSpan serialized_header, bool dictionary, int64_t data_page_ordinal,
                           std::string* out) const;
  // `page` is the page as a plaintext file would store it (compressed, levels included).
  Status EncryptPage(ByteSpan page, bool dictionary, int64_t data_page_ordinal,
                     std::string* out) const;
  // The page module size for a page of `page_size` bytes: what compressed_page_size must say.
  size_t PageModuleSize(size_t page_size) const {
    return EncryptedModuleSize(page_cipher_, page_size);
  }

  Status EncryptColumnIndex(ByteSpan serialized, std::string* out) const;
  Status EncryptOffsetIndex(ByteSpan serialized, std::string* out) const;
  Status EncryptBloomFilterHeader(ByteSpan serialized, std::string* out) const;
  Status EncryptBloomFilterBitset(ByteSpan bitset, std::string* out) const;
  // The serialized ColumnMetaData as the chunk's encrypted_column_metadata.
  Status EncryptColumnMetaData(ByteSpan serialized, std::string* out) const;

  Cipher page_cipher() const { return page_cipher_; }

 private:
  Status Encrypt(ModuleType type, Cipher cipher, ByteSpan plaintext, int64_t page_ordinal,
                 std::string* out) const;

  std::string key_;
  std::string file_aad_;
  Cipher page_cipher_;
  int64_t row_group_ordinal_;
  int64_t column_ordinal_;
};

}  // namespace pq::crypto
