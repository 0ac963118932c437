#include "format/crypto/kms_client.h"

#include "format/crypto/aes_cipher.h"
#include "format/util/base64.h"
#include "format/crypto/key_material.h"
#include "format/util/json_writer.h"

namespace pq::crypto {
namespace {

// The envelope of parquet-java's LocalWrapKmsClient: {"masterKeyVersion":"NO_VERSION",
// "encryptedKey":"<local form>"}. Returns the local form, or nullopt when `wrapped` is not one.
std::optional<std::string> LocalWrapEnvelope(std::string_view wrapped) {
  if (wrapped.empty() || wrapped.front() != '{') return std::nullopt;
  const std::string_view field = "\"encryptedKey\"";
  size_t at = wrapped.find(field);
  if (at == std::string_view::npos) return std::nullopt;
  at = wrapped.find('"', at + field.size());
  if (at == std::string_view::npos) return std::nullopt;
  const size_t end = wrapped.find('"', at + 1);
  if (end == std::string_view::npos) return std::nullopt;
  // Base64 needs no escapes, so the value is the text between the quotes.
  return std::string(wrapped.substr(at + 1, end - at - 1));
}

}  // namespace

std::string DescribeMasterKey(std::string_view master_key_id, const KmsInstance& instance) {
  return DescribeKeyMetadata(master_key_id) + " (KMS instance " + DescribeKeyMetadata(instance.id) +
         ")";
}

Result<std::string> WrapKeyLocally(std::string_view key, std::string_view wrapping_key,
                                   std::string_view aad) {
  PQ_RETURN_IF_ERROR(CheckKeySize(wrapping_key.size()));
  std::string blob(kNonceLength + key.size() + kGcmTagLength, '\0');
  auto* p = reinterpret_cast<uint8_t*>(blob.data());
  PQ_RETURN_IF_ERROR(RandomBytes(p, kNonceLength));
  PQ_RETURN_IF_ERROR(AesGcmEncrypt(AsBytes(wrapping_key), ByteSpan(p, kNonceLength), AsBytes(aad),
                                   AsBytes(key), p + kNonceLength, p + kNonceLength + key.size()));
  std::string out;
  AppendBase64(blob, &out);
  return out;
}

Result<std::string> UnwrapKeyLocally(std::string_view wrapped, std::string_view wrapping_key,
                                     std::string_view aad, std::string_view what) {
  PQ_RETURN_IF_ERROR(CheckKeySize(wrapping_key.size()));
  std::optional<std::string> blob;
  if (std::string bytes; DecodeBase64(wrapped, &bytes)) blob = std::move(bytes);
  if (!blob) return Status::Corruption(std::string(what) + " is not base64");
  if (blob->size() < kNonceLength + kGcmTagLength) {
    return Status::Corruption(std::string(what) + " holds " + std::to_string(blob->size()) +
                              " bytes, fewer than a nonce and a tag");
  }
  const ByteSpan all = AsBytes(*blob);
  const size_t body = blob->size() - kNonceLength - kGcmTagLength;
  std::string key(body, '\0');
  Status s = AesGcmDecrypt(AsBytes(wrapping_key), all.first(kNonceLength), AsBytes(aad),
                           all.subspan(kNonceLength, body), all.subspan(kNonceLength + body),
                           reinterpret_cast<uint8_t*>(key.data()), what);
  if (!s.ok()) {
    WipeSecret(&key);
    if (s.code() != StatusCode::kCrypto) return s;
    return Status::Crypto("authentication failed for " + std::string(what) +
                          " (wrong master key, or the key material was altered)");
  }
  return key;
}

Result<std::string> RegistryKmsClient::MasterKey(const std::string& master_key_id,
                                                 const KmsInstance& instance) const {
  for (const auto& registry : registries_) {
    if (!registry) continue;
    if (std::optional<std::string> key = registry->Find(master_key_id)) return std::move(*key);
  }
  return Status::Crypto("master key " + DescribeMasterKey(master_key_id, instance) +
                        " is not registered: register it by its id (parquet_add_key) or give it "
                        "(master_keys)");
}

Result<std::string> RegistryKmsClient::WrapKey(std::string_view key,
                                               const std::string& master_key_id,
                                               const KmsInstance& instance) {
  PQ_ASSIGN_OR_RETURN(std::string master, MasterKey(master_key_id, instance));
  Result<std::string> wrapped = WrapKeyLocally(key, master, master_key_id);
  WipeSecret(&master);
  return wrapped;
}

Result<std::string> RegistryKmsClient::UnwrapKey(std::string_view wrapped,
                                                 const std::string& master_key_id,
                                                 const KmsInstance& instance) {
  PQ_ASSIGN_OR_RETURN(std::string master, MasterKey(master_key_id, instance));
  const std::string what = "a key wrapped by master key " + DescribeMasterKey(master_key_id, instance);
  std::optional<std::string> local = LocalWrapEnvelope(wrapped);
  Result<std::string> key =
      UnwrapKeyLocally(local ? std::string_view(*local) : wrapped, master, master_key_id, what);
  WipeSecret(&master);
  return key;
}

}  // namespace pq::crypto
