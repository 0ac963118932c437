#include "format/crypto/file_encryptor.h"

#include "format/crypto/file_decryptor.h"
#include "format/crypto/module_aad.h"
#include "format/metadata/metadata_io.h"

namespace pq::crypto {
namespace {

constexpr size_t kFileUniqueLength = 8;

void AppendFooterTail(size_t footer_length, const char* magic, std::string* out) {
  uint8_t le[4];
  StoreLE<uint32_t>(le, static_cast<uint32_t>(footer_length));
  out->append(reinterpret_cast<const char*>(le), 4);
  out->append(magic, 4);
}

}  // namespace

ColumnKeySpec::~ColumnKeySpec() {
  WipeSecret(&key);
}

EncryptionConfig::~EncryptionConfig() {
  WipeSecret(&footer_key);
}

Result<std::unique_ptr<FileEncryptor>> FileEncryptor::Make(EncryptionConfig config) {
  if (config.key_wrapping) {
    return Status::InvalidArgument("the data keys are to be drawn and wrapped first (WrapFileKeys)");
  }
  if (config.algorithm != EncryptionAlgorithm::Kind::kAesGcmV1 &&
      config.algorithm != EncryptionAlgorithm::Kind::kAesGcmCtrV1) {
    return Status::InvalidArgument("unknown encryption algorithm");
  }
  Status s = CheckKeySize(config.footer_key.size());
  if (!s.ok()) return Status::InvalidArgument("footer key: " + s.message());
  for (const auto& [path, spec] : config.column_keys) {
    s = CheckKeySize(spec.key.size());
    if (!s.ok()) return Status::InvalidArgument("key of column '" + path + "': " + s.message());
  }
  std::unique_ptr<FileEncryptor> e(new FileEncryptor());
  std::string unique(kFileUniqueLength, '\0');
  PQ_RETURN_IF_ERROR(RandomBytes(reinterpret_cast<uint8_t*>(unique.data()), unique.size()));
  e->file_aad_ = FileAad(config.aad_prefix.value_or(""), unique);
  e->algorithm_.kind = config.algorithm;
  e->algorithm_.aad_file_unique = unique;
  if (config.aad_prefix) {
    if (config.store_aad_prefix) {
      e->algorithm_.aad_prefix = config.aad_prefix;
    } else {
      e->algorithm_.supply_aad_prefix = true;
    }
  }
  e->config_ = std::move(config);
  return e;
}

const ColumnKeySpec* FileEncryptor::OwnKey(std::string_view dotted_path) const {
  auto it = config_.column_keys.find(dotted_path);
  return it == config_.column_keys.end() ? nullptr : &it->second;
}

bool FileEncryptor::IsEncrypted(std::string_view dotted_path) const {
  return config_.column_keys.empty() || OwnKey(dotted_path) != nullptr;
}

Result<std::optional<ColumnEncryptor>> FileEncryptor::ForColumn(std::string_view dotted_path,
                                                                int64_t row_group_ordinal,
                                                                int64_t column_ordinal) const {
  if (!IsEncrypted(dotted_path)) return std::optional<ColumnEncryptor>();
  const ColumnKeySpec* own = OwnKey(dotted_path);
  const Cipher page_cipher =
      config_.algorithm == EncryptionAlgorithm::Kind::kAesGcmCtrV1 ? Cipher::kCtr : Cipher::kGcm;
  return std::optional<ColumnEncryptor>(ColumnEncryptor(own ? own->key : config_.footer_key,
                                                        file_aad_, page_cipher, row_group_ordinal,
                                                        column_ordinal));
}

Status FileEncryptor::FinishColumnChunk(ColumnChunk* chunk, int64_t row_group_ordinal,
                                        int64_t column_ordinal) const {
  if (!chunk->meta_data) return Status::Corruption("column chunk has no metadata to encrypt");
  const std::string path = DottedPath(chunk->meta_data->path_in_schema);
  PQ_ASSIGN_OR_RETURN(std::optional<ColumnEncryptor> encryptor,
                      ForColumn(path, row_group_ordinal, column_ordinal));
  if (!encryptor) return Status::OK();
  const ColumnKeySpec* own = OwnKey(path);
  ColumnCryptoMetaData crypto;
  if (own) {
    crypto.kind = ColumnCryptoMetaData::Kind::kColumnKey;
    crypto.path_in_schema = chunk->meta_data->path_in_schema;
    if (!own->key_metadata.empty()) crypto.key_metadata = own->key_metadata;
  } else {
    crypto.kind = ColumnCryptoMetaData::Kind::kFooterKey;
  }
  chunk->crypto_metadata = std::move(crypto);
  if (!own && config_.encrypted_footer) return Status::OK();  // protected by the footer itself
  std::string serialized;
  WriteColumnMetaData(*chunk->meta_data, &serialized);
  std::string module;
  PQ_RETURN_IF_ERROR(encryptor->EncryptColumnMetaData(AsBytes(serialized), &module));
  chunk->encrypted_column_metadata = std::move(module);
  if (config_.encrypted_footer) {
    chunk->meta_data.reset();
  } else {
    chunk->meta_data->statistics.reset();
    chunk->meta_data->size_statistics.reset();
    chunk->meta_data->geospatial_statistics.reset();
  }
  return Status::OK();
}

Status FileEncryptor::WriteFooter(FileMetaData metadata, std::string* out) const {
  const std::string footer_aad = FooterAad(file_aad_);
  const size_t start = out->size();
  if (config_.encrypted_footer) {
    metadata.encryption_algorithm.reset();
    metadata.footer_signing_key_metadata.reset();
    FileCryptoMetaData crypto;
    crypto.encryption_algorithm = algorithm_;
    if (!config_.footer_key_metadata.empty()) crypto.key_metadata = config_.footer_key_metadata;
    WriteFileCryptoMetaData(crypto, out);
    std::string serialized;
    WriteFileMetaData(metadata, &serialized);
    Status s = EncryptModule(Cipher::kGcm, AsBytes(config_.footer_key), AsBytes(footer_aad),
                             AsBytes(serialized), out);
    if (!s.ok()) {
      out->resize(start);
      return s;
    }
  } else {
    metadata.encryption_algorithm = algorithm_;
    if (!config_.footer_key_metadata.empty()) {
      metadata.footer_signing_key_metadata = config_.footer_key_metadata;
    } else {
      metadata.footer_signing_key_metadata.reset();
    }
    WriteFileMetaData(metadata, out);
    ByteSpan serialized = AsBytes(*out).subspan(start);
    std::string signature;
    Status s = SignFooter(AsBytes(config_.footer_key), AsBytes(footer_aad), serialized, &signature);
    if (!s.ok()) {
      out->resize(start);
      return s;
    }
    out->append(signature);
  }
  const size_t footer_length = out->size() - start;
  if (footer_length > UINT32_MAX) {
    out->resize(start);
    return Status::InvalidArgument("footer too large");
  }
  AppendFooterTail(footer_length, magic(), out);
  return Status::OK();
}

}  // namespace pq::crypto
