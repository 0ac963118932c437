#include "format/crypto/key_unwrapper.h"

#include "format/crypto/aes_cipher.h"
#include "format/util/base64.h"

namespace pq::crypto {

std::shared_ptr<KeyUnwrapper> KeyUnwrapper::Make(std::shared_ptr<KmsClient> kms,
                                                 KeyMaterialFileReader read_file) {
  if (!read_file) read_file = ReadLocalKeyMaterialFile;
  return std::shared_ptr<KeyUnwrapper>(new KeyUnwrapper(std::move(kms), std::move(read_file)));
}

KeyUnwrapper::~KeyUnwrapper() {
  for (auto& [id, kek] : keks_) WipeSecret(&kek);
}

std::shared_ptr<FileKeys> KeyUnwrapper::ForFile(std::string parquet_path,
                                                std::optional<std::string> footer_key_metadata) {
  return std::shared_ptr<FileKeys>(
      new FileKeys(shared_from_this(), std::move(parquet_path), std::move(footer_key_metadata)));
}

Result<std::string> KeyUnwrapper::Kek(const KeyMaterial& m, const KmsInstance& instance) {
  auto id = std::make_tuple(instance.id, m.master_key_id, m.kek_id, m.wrapped_kek);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = keks_.find(id); it != keks_.end()) return it->second;
  }
  // The KMS may be remote: it is not called under the lock (two threads may both unwrap the same
  // KEK once; the second result is dropped).
  PQ_ASSIGN_OR_RETURN(std::string kek, kms_->UnwrapKey(m.wrapped_kek, m.master_key_id, instance));
  Status size_ok = CheckKeySize(kek.size());
  if (!size_ok.ok()) {
    WipeSecret(&kek);
    return Status::Corruption("the key-encryption key wrapped by master key " +
                              DescribeMasterKey(m.master_key_id, instance) + ": " + size_ok.message());
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = keks_.emplace(std::move(id), kek).first;
  WipeSecret(&kek);
  return it->second;
}

Result<std::string> KeyUnwrapper::Unwrap(const KeyMaterial& m, const KmsInstance& instance) {
  if (!kms_) return Status::Crypto("no KMS client to unwrap keys with");
  std::string dek;
  if (!m.double_wrapping) {
    PQ_ASSIGN_OR_RETURN(dek, kms_->UnwrapKey(m.wrapped_dek, m.master_key_id, instance));
  } else {
    std::optional<std::string> kek_id;
    if (std::string bytes; DecodeBase64(m.kek_id, &bytes)) kek_id = std::move(bytes);
    if (!kek_id || kek_id->empty()) {
      return Status::Corruption("key material's \"keyEncryptionKeyID\" is not base64");
    }
    PQ_ASSIGN_OR_RETURN(std::string kek, Kek(m, instance));
    Result<std::string> unwrapped =
        UnwrapKeyLocally(m.wrapped_dek, kek, *kek_id,
                         "the data key wrapped by a key-encryption key of master key " +
                             DescribeMasterKey(m.master_key_id, instance));
    WipeSecret(&kek);
    PQ_ASSIGN_OR_RETURN(dek, std::move(unwrapped));
  }
  Status size_ok = CheckKeySize(dek.size());
  if (!size_ok.ok()) {
    WipeSecret(&dek);
    return Status::Corruption("the data key wrapped by master key " +
                              DescribeMasterKey(m.master_key_id, instance) + ": " + size_ok.message());
  }
  return dek;
}

FileKeys::~FileKeys() {
  for (auto& [metadata, key] : data_keys_) WipeSecret(&key);
}

Result<KeyMaterial> FileKeys::MaterialOf(std::string_view key_metadata) {
  PQ_ASSIGN_OR_RETURN(KeyMetadata metadata, ParseKeyMetadata(key_metadata));
  if (metadata.internal_storage) return std::move(metadata.material);
  if (!external_) {
    const std::string path = KeyMaterialPathFor(parquet_path_);
    PQ_ASSIGN_OR_RETURN(std::string json, owner_->ReadFile(path));
    auto store = ParseKeyMaterialStore(json);
    if (!store.ok()) return store.status().WithContext("key material file '" + path + "'");
    external_ = std::move(store).value();
  }
  auto it = external_->find(metadata.key_reference);
  if (it == external_->end()) {
    return Status::Corruption("the key material file '" + KeyMaterialPathFor(parquet_path_) +
                              "' has no entry " + DescribeKeyMetadata(metadata.key_reference) +
                              " (the file and its key material do not belong together)");
  }
  auto material = ParseKeyMaterial(it->second);
  if (!material.ok()) {
    return material.status().WithContext("entry " + DescribeKeyMetadata(metadata.key_reference) +
                                         " of '" + KeyMaterialPathFor(parquet_path_) + "'");
  }
  return material;
}

KmsInstance FileKeys::Instance() {
  if (instance_) return *instance_;
  KmsInstance instance;
  if (footer_key_metadata_ && IsKeyMaterialJson(*footer_key_metadata_)) {
    Result<KeyMaterial> footer = MaterialOf(*footer_key_metadata_);
    if (footer.ok()) {
      if (!footer->kms_instance_id.empty()) instance.id = footer->kms_instance_id;
      if (!footer->kms_instance_url.empty()) instance.url = footer->kms_instance_url;
    }
  }
  instance_ = instance;
  return instance;
}

Result<std::string> FileKeys::DataKey(std::string_view key_metadata) {
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = data_keys_.find(key_metadata); it != data_keys_.end()) return it->second;
  PQ_ASSIGN_OR_RETURN(KeyMaterial material, MaterialOf(key_metadata));
  KmsInstance instance = Instance();
  if (material.is_footer_key) {
    // The footer key's own material names the instance; it wins for that key.
    if (!material.kms_instance_id.empty()) instance.id = material.kms_instance_id;
    if (!material.kms_instance_url.empty()) instance.url = material.kms_instance_url;
  }
  PQ_ASSIGN_OR_RETURN(std::string key, owner_->Unwrap(material, instance));
  auto [it, inserted] = data_keys_.emplace(std::string(key_metadata), std::move(key));
  return it->second;
}

}  // namespace pq::crypto
