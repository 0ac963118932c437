// KmsClient: the one seam between PKMT1 key material (key_material.h) and whatever holds the
// master keys. A key-management service never hands out master keys: it wraps a key with a master
// key it holds and unwraps what it wrapped, so the interface is those two calls by master key id,
// as parquet-java's and Arrow's KmsClient are, the wrapped form stored as is in the key material.
// Readers and writers reach master keys only through it (key_unwrapper.h, key_wrapper.h) and the
// SQL layer picks the client (ext/encryption_options.h), so a remote KMS is one more
// implementation. Implementations must be thread-safe; no message may hold a key, wrapped or not.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "format/crypto/decryption_config.h"
#include "format/util/status.h"

namespace pq::crypto {

// The KMS instance a file's key material names ("kmsInstanceID", "kmsInstanceURL" of the footer
// key); "DEFAULT" when the writer was not told one, as in the tools.
struct KmsInstance {
  std::string id = "DEFAULT";
  std::string url = "DEFAULT";
};

class KmsClient {
 public:
  virtual ~KmsClient() = default;
  // `key` wrapped with master key `master_key_id`: text to store in key material.
  virtual Result<std::string> WrapKey(std::string_view key, const std::string& master_key_id,
                                      const KmsInstance& instance) = 0;
  // The key that WrapKey wrapped. A master key the client does not know is Crypto naming its id and
  // the instance; a wrapped key that does not authenticate is Crypto.
  virtual Result<std::string> UnwrapKey(std::string_view wrapped, const std::string& master_key_id,
                                        const KmsInstance& instance) = 0;
};

// The toolkit's local key encryption (KeyToolkit.encryptKeyLocally): base64 of nonce (12 random
// bytes) | AES-GCM ciphertext of `key` under `wrapping_key` with `aad` | tag (16).
Result<std::string> WrapKeyLocally(std::string_view key, std::string_view wrapping_key,
                                   std::string_view aad);
// The inverse. Corruption for text that is not base64 of at least 28 bytes; Crypto "authentication
// failed for <what> (wrong master key, or the key material was altered)" when the tag does not
// match.
Result<std::string> UnwrapKeyLocally(std::string_view wrapped, std::string_view wrapping_key,
                                     std::string_view aad, std::string_view what);

// Master keys by id from key registries, first registry first (the table's master_keys option,
// then the connection's parquet_add_key registry). Every instance is served from the same keys.
// It wraps locally as parquet-java's and Arrow's in-memory test KMS do (WrapKeyLocally with the
// master key id as AAD), and unwraps the "local wrapping" envelope too
// ({"masterKeyVersion":"NO_VERSION","encryptedKey":...}), so files the tools wrote with such a KMS
// open with the same master keys registered. (A client for HashiCorp Vault's transit engine, the
// sample of parquet-java, would post {"plaintext": base64 key} to
// <kmsInstanceURL>/v1/transit/encrypt/<id> and keep the "ciphertext", and post {"ciphertext": ...}
// to .../transit/decrypt/<id> to unwrap.)
class RegistryKmsClient : public KmsClient {
 public:
  explicit RegistryKmsClient(std::vector<std::shared_ptr<const KeyRegistry>> registries)
      : registries_(std::move(registries)) {}
  Result<std::string> WrapKey(std::string_view key, const std::string& master_key_id,
                              const KmsInstance& instance) override;
  Result<std::string> UnwrapKey(std::string_view wrapped, const std::string& master_key_id,
                                const KmsInstance& instance) override;

 private:
  Result<std::string> MasterKey(const std::string& master_key_id, const KmsInstance& instance) const;
  std::vector<std::shared_ptr<const KeyRegistry>> registries_;
};

// "'kf' (KMS instance 'DEFAULT')": how messages name a master key.
std::string DescribeMasterKey(std::string_view master_key_id, const KmsInstance& instance);

}  // namespace pq::crypto
