#include "format/crypto/column_decryptor.h"

#include "format/metadata/metadata_io.h"

namespace pq::crypto {

ColumnDecryptor::ColumnDecryptor(std::string key, std::string file_aad, Cipher page_cipher,
                                 int64_t row_group_ordinal, int64_t column_ordinal,
                                 std::string column_name)
    : key_(std::move(key)),
      file_aad_(std::move(file_aad)),
      page_cipher_(page_cipher),
      row_group_ordinal_(row_group_ordinal),
      column_ordinal_(column_ordinal),
      column_name_(std::move(column_name)) {}

std::string ColumnDecryptor::Describe(ModuleType type, int64_t page_ordinal) const {
  std::string what = ModuleTypeName(type);
  if (HasPageOrdinal(type)) what += " " + std::to_string(page_ordinal);
  return what + " of row group " + std::to_string(row_group_ordinal_) + ", column '" +
         column_name_ + "'";
}

Status ColumnDecryptor::Decrypt(ModuleType type, Cipher cipher, ByteSpan data, bool exact,
                                int64_t page_ordinal, std::vector<uint8_t>* plaintext,
                                size_t* module_size) const {
  const std::string what = Describe(type, page_ordinal);
  PQ_ASSIGN_OR_RETURN(size_t size, ModuleSizeAt(data, what));
  if (exact && size != data.size()) {
    return Status::Corruption("encrypted " + what + " is " + std::to_string(data.size()) +
                              " bytes but its length field says " + std::to_string(size));
  }
  PQ_ASSIGN_OR_RETURN(std::string aad, ModuleAad(file_aad_, type, row_group_ordinal_,
                                                 column_ordinal_, page_ordinal));
  PQ_RETURN_IF_ERROR(
      DecryptModule(cipher, AsBytes(key_), AsBytes(aad), data.first(size), what, plaintext));
  if (module_size) *module_size = size;
  return Status::OK();
}

Status ColumnDecryptor::DecryptPageHeader(ByteSpan data, bool dictionary, int64_t data_page_ordinal,
                                          std::vector<uint8_t>* plaintext,
                                          size_t* module_size) const {
  ModuleType type = dictionary ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader;
  return Decrypt(type, Cipher::kGcm, data, false, data_page_ordinal, plaintext, module_size);
}

Status ColumnDecryptor::ReadPageHeader(ByteSpan data, bool dictionary, int64_t data_page_ordinal,
                                       PageHeader* header, size_t* module_size) const {
  std::vector<uint8_t> plaintext;
  PQ_RETURN_IF_ERROR(
      DecryptPageHeader(data, dictionary, data_page_ordinal, &plaintext, module_size));
  size_t consumed = 0;
  Status s = pq::ReadPageHeader(ByteSpan(plaintext.data(), plaintext.size()), header, &consumed);
  if (!s.ok()) {
    ModuleType type = dictionary ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader;
    return std::move(s).WithContext("decrypted " + Describe(type, data_page_ordinal));
  }
  return Status::OK();
}

Status ColumnDecryptor::DecryptPage(ByteSpan module, bool dictionary, int64_t data_page_ordinal,
                                    std::vector<uint8_t>* plaintext) const {
  ModuleType type = dictionary ? ModuleType::kDictionaryPage : ModuleType::kDataPage;
  return Decrypt(type, page_cipher_, module, true, data_page_ordinal, plaintext, nullptr);
}

Status ColumnDecryptor::DecryptColumnIndex(ByteSpan module, std::vector<uint8_t>* plaintext) const {
  return Decrypt(ModuleType::kColumnIndex, Cipher::kGcm, module, true, 0, plaintext, nullptr);
}

Status ColumnDecryptor::DecryptOffsetIndex(ByteSpan module, std::vector<uint8_t>* plaintext) const {
  return Decrypt(ModuleType::kOffsetIndex, Cipher::kGcm, module, true, 0, plaintext, nullptr);
}

Status ColumnDecryptor::ReadColumnIndex(ByteSpan module, ColumnIndex* index,
                                        int64_t max_memory) const {
  std::vector<uint8_t> plaintext;
  PQ_RETURN_IF_ERROR(DecryptColumnIndex(module, &plaintext));
  Status s = pq::ReadColumnIndex(ByteSpan(plaintext.data(), plaintext.size()), index, nullptr,
                                 max_memory);
  if (!s.ok()) return std::move(s).WithContext("decrypted " + Describe(ModuleType::kColumnIndex, 0));
  return Status::OK();
}

Status ColumnDecryptor::ReadOffsetIndex(ByteSpan module, OffsetIndex* index,
                                        int64_t max_memory) const {
  std::vector<uint8_t> plaintext;
  PQ_RETURN_IF_ERROR(DecryptOffsetIndex(module, &plaintext));
  Status s = pq::ReadOffsetIndex(ByteSpan(plaintext.data(), plaintext.size()), index, nullptr,
                                 max_memory);
  if (!s.ok()) return std::move(s).WithContext("decrypted " + Describe(ModuleType::kOffsetIndex, 0));
  return Status::OK();
}

Status ColumnDecryptor::DecryptBloomFilterHeader(ByteSpan data, std::vector<uint8_t>* plaintext,
                                                 size_t* module_size) const {
  return Decrypt(ModuleType::kBloomFilterHeader, Cipher::kGcm, data, false, 0, plaintext,
                 module_size);
}

Status ColumnDecryptor::ReadBloomFilterHeader(ByteSpan data, BloomFilterHeader* header,
                                              size_t* module_size) const {
  std::vector<uint8_t> plaintext;
  PQ_RETURN_IF_ERROR(DecryptBloomFilterHeader(data, &plaintext, module_size));
  size_t consumed = 0;
  Status s = pq::ReadBloomFilterHeader(ByteSpan(plaintext.data(), plaintext.size()), header, &consumed);
  if (!s.ok()) {
    return std::move(s).WithContext("decrypted " + Describe(ModuleType::kBloomFilterHeader, 0));
  }
  return Status::OK();
}

Status ColumnDecryptor::DecryptBloomFilterBitset(ByteSpan data, std::vector<uint8_t>* bitset,
                                                 size_t* module_size) const {
  return Decrypt(ModuleType::kBloomFilterBitset, Cipher::kGcm, data, false, 0, bitset, module_size);
}

}  // namespace pq::crypto
