#include "format/crypto/file_decryptor.h"

#include "format/crypto/module_aad.h"
#include "format/metadata/metadata_io.h"

namespace pq::crypto {
namespace {

// " (key id 'kf')" when the file names the key by id, else "" (key material explains itself when
// it cannot be unwrapped).
std::string KeyIdSuffix(const std::optional<std::string>& key_metadata) {
  if (!key_metadata || key_metadata->empty() || IsKeyMaterialJson(*key_metadata)) return "";
  return " (key id " + DescribeKeyMetadata(*key_metadata) + ")";
}

std::string ChunkName(const ColumnChunk& chunk) {
  if (chunk.crypto_metadata && !chunk.crypto_metadata->path_in_schema.empty()) {
    return DottedPath(chunk.crypto_metadata->path_in_schema);
  }
  if (chunk.meta_data) return DottedPath(chunk.meta_data->path_in_schema);
  return "?";
}

}  // namespace

std::string DottedPath(const std::vector<std::string>& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out.push_back('.');
    out += path[i];
  }
  return out;
}

Status FileDecryptor::InitAlgorithm(const EncryptionAlgorithm& algorithm) {
  if (algorithm.kind != EncryptionAlgorithm::Kind::kAesGcmV1 &&
      algorithm.kind != EncryptionAlgorithm::Kind::kAesGcmCtrV1) {
    return Status::NotSupported(
        "the file is encrypted with an algorithm this reader does not know");
  }
  algorithm_ = algorithm.kind;
  std::string prefix;
  if (algorithm.aad_prefix) {
    if (config_.aad_prefix && *config_.aad_prefix != *algorithm.aad_prefix) {
      return Status::Crypto(
          "the AAD prefix given (aad_prefix) differs from the one stored in the file");
    }
    prefix = *algorithm.aad_prefix;
  } else if (config_.aad_prefix) {
    prefix = *config_.aad_prefix;
  } else if (algorithm.supply_aad_prefix.value_or(false)) {
    return Status::Crypto(
        "the file was encrypted with an AAD prefix that it does not store: give it (aad_prefix)");
  }
  file_aad_ = FileAad(prefix, algorithm.aad_file_unique.value_or(""));
  return Status::OK();
}

FileDecryptor::~FileDecryptor() {
  WipeSecret(&footer_key_);
}

Result<std::string> FileDecryptor::KeyByMetadata(const std::optional<std::string>& key_metadata,
                                                 std::string_view what) const {
  if (!key_metadata) return std::string();
  if (IsKeyMaterialJson(*key_metadata)) {
    if (!file_keys_) {
      return Status::Crypto(std::string(what) +
                            " is wrapped by a master key (PKMT1 key material) and no key "
                            "management is configured to unwrap it");
    }
    return file_keys_->DataKey(*key_metadata);
  }
  if (!config_.key_retriever) return std::string();
  std::optional<std::string> key = config_.key_retriever(*key_metadata);
  if (!key) return std::string();
  Status size_ok = CheckKeySize(key->size());
  if (!size_ok.ok()) {
    WipeSecret(&*key);
    return Status::InvalidArgument("key registered for id " + DescribeKeyMetadata(*key_metadata) +
                                   ": " + size_ok.message());
  }
  return std::move(*key);
}

Status FileDecryptor::ResolveFooterKey(const std::optional<std::string>& key_metadata,
                                       bool required) {
  footer_key_description_ = KeyIdSuffix(key_metadata);
  if (config_.key_unwrapper) {
    file_keys_ = config_.key_unwrapper->ForFile(file_path_, key_metadata);
  }
  if (!config_.footer_key.empty()) {
    Status s = CheckKeySize(config_.footer_key.size());
    if (!s.ok()) return Status::InvalidArgument("footer key: " + s.message());
    footer_key_ = config_.footer_key;
    return Status::OK();
  }
  Result<std::string> key = KeyByMetadata(key_metadata, "the footer key");
  if (!key.ok()) {
    Status failure = key.status();
    if (key_metadata && IsKeyMaterialJson(*key_metadata) && file_keys_) {
      failure = Status(failure.code(), "cannot unwrap the footer key: " + failure.message());
    }
    if (required) return failure;
    footer_key_failure_ = std::move(failure);  // a plaintext footer opens unverified
    return Status::OK();
  }
  footer_key_ = std::move(key).value();
  return Status::OK();
}

Result<std::unique_ptr<FileDecryptor>> FileDecryptor::ForEncryptedFooter(
    ByteSpan footer, const DecryptionConfig& config, std::vector<uint8_t>* file_metadata,
    std::string_view file_path) {
  std::unique_ptr<FileDecryptor> d(new FileDecryptor());
  d->config_ = config;
  d->file_path_ = std::string(file_path);
  FileCryptoMetaData crypto;
  size_t consumed = 0;
  Status s = ReadFileCryptoMetaData(footer, &crypto, &consumed);
  if (!s.ok()) return std::move(s).WithContext("encrypted footer's FileCryptoMetaData");
  PQ_RETURN_IF_ERROR(d->InitAlgorithm(crypto.encryption_algorithm));
  d->footer_key_metadata_ = crypto.key_metadata;
  PQ_RETURN_IF_ERROR(d->ResolveFooterKey(crypto.key_metadata, /*required=*/true));
  if (d->footer_key_.empty()) {
    return Status::Crypto("the file has an encrypted footer and its key was not given" +
                          d->footer_key_description_ +
                          ": give the footer key (footer_key) or register its key id");
  }
  ByteSpan module = footer.subspan(consumed);
  Status opened = DecryptModule(Cipher::kGcm, AsBytes(d->footer_key_), AsBytes(FooterAad(d->file_aad_)), module,
                                "footer", file_metadata);
  if (opened.code() == StatusCode::kCrypto && !crypto.encryption_algorithm.aad_file_unique) {
    // A writer that left out the AAD the spec requires (no aad_file_unique, and no AAD at all:
    // DuckDB's encrypted files): the key is right, which "wrong key" would deny.
    std::vector<uint8_t> ignored;
    if (DecryptModule(Cipher::kGcm, AsBytes(d->footer_key_), ByteSpan(), module, "footer", &ignored).ok()) {
      return Status::NotSupported(
          "the footer opens with the key given only without the additional authenticated data (AAD) the "
          "Parquet spec requires (the file's encryption metadata has no aad_file_unique): a writer that does "
          "not follow Parquet modular encryption wrote it (DuckDB writes its encrypted files so), and this "
          "reader does not read such files");
    }
  }
  PQ_RETURN_IF_ERROR(opened);
  d->encrypted_footer_ = true;
  d->footer_verified_ = true;
  return d;
}

Result<std::unique_ptr<FileDecryptor>> FileDecryptor::ForPlaintextFooter(
    ByteSpan footer, const FileMetaData& metadata, const DecryptionConfig& config,
    std::string_view file_path) {
  if (!metadata.encryption_algorithm) {
    return Status::InvalidArgument(
        "the plaintext footer has no encryption_algorithm: the file is not encrypted");
  }
  if (kFooterSignatureLength > footer.size()) {
    return Status::Corruption("plaintext footer of " + std::to_string(footer.size()) +
                              " bytes has no room for its 28-byte signature");
  }
  std::unique_ptr<FileDecryptor> d(new FileDecryptor());
  d->config_ = config;
  d->file_path_ = std::string(file_path);
  PQ_RETURN_IF_ERROR(d->InitAlgorithm(*metadata.encryption_algorithm));
  d->footer_key_metadata_ = metadata.footer_signing_key_metadata;
  PQ_RETURN_IF_ERROR(d->ResolveFooterKey(metadata.footer_signing_key_metadata, /*required=*/false));
  if (!d->footer_key_.empty()) {
    const size_t signed_size = footer.size() - kFooterSignatureLength;
    PQ_RETURN_IF_ERROR(
        VerifyFooterSignature(AsBytes(d->footer_key_), AsBytes(FooterAad(d->file_aad_)),
                              footer.first(signed_size), footer.subspan(signed_size)));
    d->footer_verified_ = true;
  }
  return d;
}

Result<std::string> FileDecryptor::ColumnKey(const ColumnChunk& chunk) const {
  if (!chunk.crypto_metadata) {
    return Status::InvalidArgument("column '" + ChunkName(chunk) + "' is not encrypted");
  }
  const ColumnCryptoMetaData& crypto = *chunk.crypto_metadata;
  switch (crypto.kind) {
    case ColumnCryptoMetaData::Kind::kFooterKey:
      if (footer_key_.empty() && !footer_key_failure_.ok()) {
        return Status(footer_key_failure_.code(), "column '" + ChunkName(chunk) +
                                                      "' is encrypted with the footer key: " +
                                                      footer_key_failure_.message());
      }
      if (footer_key_.empty()) {
        return Status::Crypto("column '" + ChunkName(chunk) +
                              "' is encrypted with the footer key, which was not given" +
                              footer_key_description_ +
                              ": give the footer key (footer_key) or register its key id");
      }
      return footer_key_;
    case ColumnCryptoMetaData::Kind::kColumnKey: {
      const std::string path = DottedPath(crypto.path_in_schema);
      if (auto it = config_.column_keys.find(path); it != config_.column_keys.end()) {
        Status s = CheckKeySize(it->second.size());
        if (!s.ok()) return Status::InvalidArgument("key of column '" + path + "': " + s.message());
        return it->second;
      }
      Result<std::string> by_metadata = KeyByMetadata(crypto.key_metadata, "its key");
      if (!by_metadata.ok()) {
        const Status& s = by_metadata.status();
        if (!file_keys_ || !crypto.key_metadata || !IsKeyMaterialJson(*crypto.key_metadata)) {
          return Status(s.code(), "column '" + path + "': " + s.message());
        }
        return Status(s.code(), "column '" + path +
                                    "' is encrypted with a key that cannot be unwrapped: " +
                                    s.message());
      }
      std::string key = std::move(by_metadata).value();
      if (key.empty()) {
        return Status::Crypto("column '" + path + "' is encrypted and no key was given for it" +
                              KeyIdSuffix(crypto.key_metadata) +
                              ": give it (column_keys) or register its key id");
      }
      return key;
    }
    case ColumnCryptoMetaData::Kind::kNone:
      break;
  }
  return Status::NotSupported("column '" + ChunkName(chunk) +
                              "' is encrypted in a way this reader does not know");
}

Result<ColumnMetaData> FileDecryptor::DecryptColumnMetaData(const ColumnChunk& chunk,
                                                            int64_t row_group_ordinal,
                                                            int64_t column_ordinal) const {
  if (!chunk.crypto_metadata) {
    if (chunk.meta_data) return *chunk.meta_data;
    return Status::Corruption("column chunk has no metadata");
  }
  const std::string name = ChunkName(chunk);
  if (!chunk.encrypted_column_metadata) {
    // A chunk under the footer key may keep its metadata in the footer (encrypted or signed with
    // that key); a chunk under its own key must not.
    if (chunk.crypto_metadata->kind == ColumnCryptoMetaData::Kind::kFooterKey && chunk.meta_data) {
      return *chunk.meta_data;
    }
    return Status::Corruption("encrypted column '" + name + "' has no encrypted_column_metadata");
  }
  PQ_ASSIGN_OR_RETURN(std::string key, ColumnKey(chunk));
  PQ_ASSIGN_OR_RETURN(std::string aad, ModuleAad(file_aad_, ModuleType::kColumnMetaData,
                                                 row_group_ordinal, column_ordinal));
  const std::string what = "column metadata of row group " + std::to_string(row_group_ordinal) +
                           ", column '" + name + "'";
  std::vector<uint8_t> plaintext;
  PQ_RETURN_IF_ERROR(DecryptModule(Cipher::kGcm, AsBytes(key), AsBytes(aad),
                                   AsBytes(*chunk.encrypted_column_metadata), what, &plaintext));
  ColumnMetaData meta;
  Status s = ReadColumnMetaData(ByteSpan(plaintext.data(), plaintext.size()), &meta);
  if (!s.ok()) return std::move(s).WithContext("decrypted " + what);
  return meta;
}

Result<ColumnDecryptor> FileDecryptor::ForColumn(const ColumnChunk& chunk,
                                                 int64_t row_group_ordinal, int64_t column_ordinal,
                                                 std::string column_name) const {
  PQ_ASSIGN_OR_RETURN(std::string key, ColumnKey(chunk));
  if (column_name.empty()) column_name = ChunkName(chunk);
  return ColumnDecryptor(std::move(key), file_aad_, page_cipher(), row_group_ordinal,
                         column_ordinal, std::move(column_name));
}

}  // namespace pq::crypto
