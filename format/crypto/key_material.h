// PKMT1 key material: how parquet-java's and Arrow's key-management tools (PropertiesDrivenCryptoFactory,
// KeyToolkit; what Spark writes when it encrypts Parquet through a KMS) describe a file's keys in
// key_metadata, the opaque field the Parquet spec "Parquet Modular Encryption" 4.3 leaves to them.
//
// Each data key (DEK: the footer key, a column key) is a fresh random key of the file, stored only
// wrapped. Single wrapping: the DEK wrapped by the KMS with a master key (kms_client.h). Double
// wrapping (the tools' default): the DEK encrypted locally with a key-encryption key (KEK), and the
// KEK wrapped by the KMS with the master key; a KEK serves every DEK of the same master key. The
// local encryption is the toolkit's: base64 of nonce (12) | AES-GCM ciphertext | tag (16), with
// the 16 random bytes of the KEK's id as AAD (kms_client.h, WrapKeyLocally).
//
// Key material is one flat JSON object (field names as the tools spell them):
//   "keyMaterialType": "PKMT1"
//   "internalStorage": true          only when the material is the key_metadata itself
//   "isFooterKey": true|false
//   "kmsInstanceID", "kmsInstanceURL": strings       footer key only ("DEFAULT" by default)
//   "masterKeyID": the master key's id
//   "wrappedDEK": the wrapped DEK (text the KMS returned, or the local form under the KEK)
//   "doubleWrapping": true|false
//   "keyEncryptionKeyID": base64 of the KEK's 16-byte id      double wrapping only
//   "wrappedKEK": the KEK as the KMS wrapped it                double wrapping only
// Internal storage: key_metadata holds the material. External storage: key_metadata holds only
//   {"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"<id>"}
// and the material lives in `_KEY_MATERIAL_FOR_<file name>.json` in the Parquet file's folder: a
// JSON object mapping each reference ("footerKey", "columnKey0", "columnKey1", ...) to its
// material serialized as a JSON string.
//
// Parsing is strict about types and lenient about order and unknown fields; every failure is
// Corruption naming the field, never echoing wrapped keys.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "format/util/status.h"

namespace pq::crypto {

inline constexpr std::string_view kKeyMaterialType = "PKMT1";
inline constexpr std::string_view kFooterKeyReference = "footerKey";
inline constexpr std::string_view kColumnKeyReferencePrefix = "columnKey";
inline constexpr std::string_view kKeyMaterialFilePrefix = "_KEY_MATERIAL_FOR_";
inline constexpr std::string_view kKeyMaterialFileSuffix = ".json";
// KEK ids are this many random bytes; KEKs the writer draws are 128-bit and data keys 128-bit by
// default, as the tools' (parquet.encryption.kek.length.bits, parquet.encryption.data.key.length.bits).
inline constexpr size_t kKekIdLength = 16;
inline constexpr size_t kGeneratedKeyLength = 16;

struct KeyMaterial {
  bool is_footer_key = false;
  std::string kms_instance_id;   // footer key only; empty when not stored
  std::string kms_instance_url;  // footer key only; empty when not stored
  std::string master_key_id;
  std::string wrapped_dek;
  bool double_wrapping = false;
  std::string kek_id;       // base64 text of the KEK's id (double wrapping)
  std::string wrapped_kek;  // as the KMS returned it (double wrapping)
};

// What a key_metadata field holding PKMT1 JSON says.
struct KeyMetadata {
  bool internal_storage = true;
  KeyMaterial material;       // internal storage
  std::string key_reference;  // external storage: the entry of the key material file
};

// True when `key_metadata` is key-management JSON (a JSON object naming "keyMaterialType"); such
// metadata is never a key id.
bool IsKeyMaterialJson(std::string_view key_metadata);

// key_metadata text -> KeyMetadata. Corruption for bad JSON, a type other than PKMT1, or a
// missing or mistyped field.
Result<KeyMetadata> ParseKeyMetadata(std::string_view key_metadata);
// One material of the external file (its "internalStorage", if any, is ignored).
Result<KeyMaterial> ParseKeyMaterial(std::string_view text);

// The JSON forms writers store: the material (with "internalStorage": true when it is the
// key_metadata itself), and the key_metadata of external material.
std::string SerializeKeyMaterial(const KeyMaterial& material, bool internal_storage);
std::string SerializeExternalKeyMetadata(std::string_view key_reference);

// `_KEY_MATERIAL_FOR_<name>.json` for the Parquet file `parquet_path`, in the same folder.
std::string KeyMaterialPathFor(std::string_view parquet_path);

// The external key material file: reference -> material text. Corruption for anything but a JSON
// object of strings.
using KeyMaterialStore = std::map<std::string, std::string, std::less<>>;
Result<KeyMaterialStore> ParseKeyMaterialStore(std::string_view json);
std::string SerializeKeyMaterialStore(const KeyMaterialStore& store);

// Reads a key material file whole (at most `max_bytes`): the seam through which a remote reader
// can serve `_KEY_MATERIAL_FOR_` files beside remote Parquet files. ReadLocalKeyMaterialFile reads
// the local file system; NotFound-like failures are IOError naming the path.
using KeyMaterialFileReader = std::function<Result<std::string>(const std::string& path)>;
inline constexpr size_t kMaxKeyMaterialFileBytes = size_t{16} << 20;
Result<std::string> ReadLocalKeyMaterialFile(const std::string& path);

}  // namespace pq::crypto
