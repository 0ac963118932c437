#include "format/crypto/column_encryptor.h"

namespace pq::crypto {

ColumnEncryptor::ColumnEncryptor(std::string key, std::string file_aad, Cipher page_cipher,
                                 int64_t row_group_ordinal, int64_t column_ordinal)
    : key_(std::move(key)),
      file_aad_(std::move(file_aad)),
      page_cipher_(page_cipher),
      row_group_ordinal_(row_group_ordinal),
      column_ordinal_(column_ordinal) {}

Status ColumnEncryptor::Encrypt(ModuleType type, Cipher cipher, ByteSpan plaintext,
                                int64_t page_ordinal, std::string* out) const {
  PQ_ASSIGN_OR_RETURN(std::string aad, ModuleAad(file_aad_, type, row_group_ordinal_,
                                                 column_ordinal_, page_ordinal));
  return EncryptModule(cipher, AsBytes(key_), AsBytes(aad), plaintext, out);
}

Status ColumnEncryptor::EncryptPageHeader(ByteSpan serialized_header, bool dictionary,
                                          int64_t data_page_ordinal, std::string* out) const {
  return Encrypt(dictionary ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader,
                 Cipher::kGcm, serialized_header, data_page_ordinal, out);
}

Status ColumnEncryptor::EncryptPage(ByteSpan page, bool dictionary, int64_t data_page_ordinal,
                                    std::string* out) const {
  return Encrypt(dictionary ? ModuleType::kDictionaryPage : ModuleType::kDataPage, page_cipher_,
                 page, data_page_ordinal, out);
}

Status ColumnEncryptor::EncryptColumnIndex(ByteSpan serialized, std::string* out) const {
  return Encrypt(ModuleType::kColumnIndex, Cipher::kGcm, serialized, 0, out);
}

Status ColumnEncryptor::EncryptOffsetIndex(ByteSpan serialized, std::string* out) const {
  return Encrypt(ModuleType::kOffsetIndex, Cipher::kGcm, serialized, 0, out);
}

Status ColumnEncryptor::EncryptBloomFilterHeader(ByteSpan serialized, std::string* out) const {
  return Encrypt(ModuleType::kBloomFilterHeader, Cipher::kGcm, serialized, 0, out);
}

Status ColumnEncryptor::EncryptBloomFilterBitset(ByteSpan bitset, std::string* out) const {
  return Encrypt(ModuleType::kBloomFilterBitset, Cipher::kGcm, bitset, 0, out);
}

Status ColumnEncryptor::EncryptColumnMetaData(ByteSpan serialized, std::string* out) const {
  return Encrypt(ModuleType::kColumnMetaData, Cipher::kGcm, serialized, 0, out);
}

}  // namespace pq::crypto
