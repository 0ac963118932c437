#include "format/crypto/key_wrapper.h"

#include <map>

#include "format/crypto/aes_cipher.h"
#include "format/crypto/key_material.h"
#include "format/util/json_writer.h"

namespace pq::crypto {
namespace {

Result<std::string> FreshKey(size_t n) {
  std::string key(n, '\0');
  PQ_RETURN_IF_ERROR(RandomBytes(reinterpret_cast<uint8_t*>(key.data()), n));
  return key;
}

// The KEK of one master key in one file.
struct Kek {
  std::string key;
  std::string id_bytes;  // the AAD of the keys it wraps
  std::string id_text;   // base64 of id_bytes, as stored
  std::string wrapped;   // by the KMS
  Kek() = default;
  Kek(const Kek&) = delete;
  Kek(Kek&&) = default;
  ~Kek() { WipeSecret(&key); }
};

class FileKeyWrapper {
 public:
  explicit FileKeyWrapper(const KeyWrapping& wrapping) : w_(wrapping) {}

  // The key_metadata for `data_key`, wrapped with `master_key_id`.
  Result<std::string> KeyMetadataFor(const std::string& data_key, const std::string& master_key_id,
                                     bool is_footer_key) {
    if (master_key_id.empty()) return Status::InvalidArgument("a master key id is empty");
    KeyMaterial m;
    m.is_footer_key = is_footer_key;
    if (is_footer_key) {
      m.kms_instance_id = w_.instance.id;
      m.kms_instance_url = w_.instance.url;
    }
    m.master_key_id = master_key_id;
    m.double_wrapping = w_.double_wrapping;
    if (!w_.double_wrapping) {
      PQ_ASSIGN_OR_RETURN(m.wrapped_dek, w_.kms->WrapKey(data_key, master_key_id, w_.instance));
    } else {
      PQ_ASSIGN_OR_RETURN(const Kek* kek, KekFor(master_key_id));
      PQ_ASSIGN_OR_RETURN(m.wrapped_dek, WrapKeyLocally(data_key, kek->key, kek->id_bytes));
      m.kek_id = kek->id_text;
      m.wrapped_kek = kek->wrapped;
    }
    if (w_.internal_storage) return SerializeKeyMaterial(m, /*internal_storage=*/true);
    const std::string reference =
        is_footer_key ? std::string(kFooterKeyReference)
                      : std::string(kColumnKeyReferencePrefix) + std::to_string(next_column_++);
    external_[reference] = SerializeKeyMaterial(m, /*internal_storage=*/false);
    return SerializeExternalKeyMetadata(reference);
  }

  std::string ExternalMaterial() const {
    return w_.internal_storage ? std::string() : SerializeKeyMaterialStore(external_);
  }

 private:
  Result<const Kek*> KekFor(const std::string& master_key_id) {
    auto it = keks_.find(master_key_id);
    if (it != keks_.end()) return &it->second;
    Kek kek;
    PQ_ASSIGN_OR_RETURN(kek.key, FreshKey(kGeneratedKeyLength));
    PQ_ASSIGN_OR_RETURN(kek.id_bytes, FreshKey(kKekIdLength));
    AppendBase64(kek.id_bytes, &kek.id_text);
    PQ_ASSIGN_OR_RETURN(kek.wrapped, w_.kms->WrapKey(kek.key, master_key_id, w_.instance));
    return &keks_.emplace(master_key_id, std::move(kek)).first->second;
  }

  const KeyWrapping& w_;
  std::map<std::string, Kek> keks_;  // master key id -> its KEK in this file
  KeyMaterialStore external_;
  int next_column_ = 0;
};

}  // namespace

Result<WrappedFileKeys> WrapFileKeys(EncryptionConfig config) {
  if (!config.key_wrapping) return Status::InvalidArgument("no key wrapping to apply");
  const KeyWrapping& wrapping = *config.key_wrapping;
  if (!wrapping.kms) return Status::InvalidArgument("no KMS client to wrap keys with");
  PQ_RETURN_IF_ERROR(CheckKeySize(wrapping.data_key_bytes));
  FileKeyWrapper wrapper(wrapping);
  PQ_ASSIGN_OR_RETURN(config.footer_key, FreshKey(wrapping.data_key_bytes));
  PQ_ASSIGN_OR_RETURN(config.footer_key_metadata,
                      wrapper.KeyMetadataFor(config.footer_key, config.footer_master_key_id,
                                             /*is_footer_key=*/true));
  for (auto& [path, spec] : config.column_keys) {
    if (spec.master_key_id.empty()) {
      return Status::InvalidArgument("column '" + path + "' is given no master key");
    }
    PQ_ASSIGN_OR_RETURN(spec.key, FreshKey(wrapping.data_key_bytes));
    PQ_ASSIGN_OR_RETURN(spec.key_metadata,
                        wrapper.KeyMetadataFor(spec.key, spec.master_key_id, /*is_footer_key=*/false));
  }
  WrappedFileKeys out;
  out.external_material = wrapper.ExternalMaterial();
  config.key_wrapping.reset();
  out.config = std::move(config);
  return out;
}

}  // namespace pq::crypto
