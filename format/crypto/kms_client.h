// KmsClient: the one seam between PKMT1 key material (key_material.h) and whatever holds the
// master keys.
//
// A key-management service (KMS) never hands out master keys in the general case: it wraps a key
// with a master key it holds, and unwraps what it wrapped. So the interface is those two calls,
// by master key id, as parquet-java's KmsClient (wrapKey / unwrapKey) and Arrow's are; the wrapped
// form is whatever text the service returns, stored as is in the key material ("wrappedKEK", or
// "wrappedDEK" under single wrapping). The KMS instance (id and URL) the material names is passed
// along, so a client for several instances can tell them apart.
//
// Today the master keys come from the connection's key registry (parquet_add_key, KeyRegistry in
// decryption_config.h) and the table option master_keys: RegistryKmsClient wraps locally as
// parquet-java's and Arrow's in-memory test KMS do (WrapKeyLocally with the master key id as AAD),
// so files written by the tools with such a KMS, or with a "local wrapping" KMS client (wrapped keys
// in a {"masterKeyVersion":"NO_VERSION","encryptedKey":...} envelope), open with the same master
// keys registered. A remote KMS is added by implementing KmsClient: for HashiCorp Vault's transit
// engine (the sample client of parquet-java), WrapKey posts {"plaintext": base64 of the key} to
// <kmsInstanceURL>/v1/transit/encrypt/<master key id> and returns the "ciphertext" it answers
// ("vault:v1:..."); UnwrapKey posts {"ciphertext": wrapped} to .../transit/decrypt/<master key id>
// and base64-decodes the "plaintext".
// Nothing else changes: readers and writers reach master keys only through this interface
// (key_unwrapper.h, key_wrapper.h), and the SQL layer picks the client (ext/encryption_options.h).
//
// Implementations must be thread-safe. No message may hold a key, wrapped or not.
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
