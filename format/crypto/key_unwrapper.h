// KeyUnwrapper: the data keys of files whose key_metadata is PKMT1 key material (key_material.h),
// unwrapped through a KmsClient (kms_client.h). The reader's side of parquet-java's
// FileKeyUnwrapper.
//
// One KeyUnwrapper serves every file a table (or a file function) reads; it caches the KEKs it has
// unwrapped, by master key, KEK id and wrapped KEK, so the files of a dataset written with the
// same KEK cost one KMS call. ForFile gives the per-file part (FileKeys): it reads the external
// key material file (`_KEY_MATERIAL_FOR_<name>.json` beside the Parquet file) the first time a key
// refers to it, and keeps each data key it unwraps. Column material does not name its KMS instance:
// as in the tools, a file's instance is the one its footer key material names ("DEFAULT" when it
// names none).
//
// Unwrapping, per material:
//   single wrapping: DEK = kms.UnwrapKey(wrappedDEK, masterKeyID, instance)
//   double wrapping: KEK = kms.UnwrapKey(wrappedKEK, masterKeyID, instance) (cached), then
//                    DEK = UnwrapKeyLocally(wrappedDEK, KEK, AAD = the 16 bytes keyEncryptionKeyID
//                    encodes)
// Errors name the master key and the KMS instance, never a key: a master key the client does not
// hold, a wrapped key that does not authenticate (Crypto), material that does not parse
// (Corruption), an external file that cannot be read (IOError naming its path).
//
// Thread-safe. Unwrapped keys are wiped (WipeSecret) when the cache or the FileKeys goes.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "format/crypto/key_material.h"
#include "format/crypto/kms_client.h"
#include "format/util/status.h"

namespace pq::crypto {

class KeyUnwrapper;

// The data keys of one Parquet file.
class FileKeys {
 public:
  ~FileKeys();
  FileKeys(const FileKeys&) = delete;
  FileKeys& operator=(const FileKeys&) = delete;

  // The data key `key_metadata` (PKMT1 JSON) stands for.
  Result<std::string> DataKey(std::string_view key_metadata);

 private:
  friend class KeyUnwrapper;
  FileKeys(std::shared_ptr<KeyUnwrapper> owner, std::string parquet_path,
           std::optional<std::string> footer_key_metadata)
      : owner_(std::move(owner)),
        parquet_path_(std::move(parquet_path)),
        footer_key_metadata_(std::move(footer_key_metadata)) {}
  // The material key_metadata stands for, reading the external file when it refers to it.
  Result<KeyMaterial> MaterialOf(std::string_view key_metadata);
  // The file's KMS instance, from its footer key material.
  KmsInstance Instance();

  std::shared_ptr<KeyUnwrapper> owner_;
  std::string parquet_path_;
  std::optional<std::string> footer_key_metadata_;
  std::mutex mu_;
  std::optional<KeyMaterialStore> external_;       // once read
  std::optional<KmsInstance> instance_;            // once known
  std::map<std::string, std::string, std::less<>> data_keys_;  // key_metadata -> DEK
};

class KeyUnwrapper : public std::enable_shared_from_this<KeyUnwrapper> {
 public:
  // `read_file` reads key material files (null: ReadLocalKeyMaterialFile).
  static std::shared_ptr<KeyUnwrapper> Make(std::shared_ptr<KmsClient> kms,
                                            KeyMaterialFileReader read_file = nullptr);
  ~KeyUnwrapper();

  // The keys of the Parquet file at `parquet_path` (its external key material is looked for
  // beside it), whose footer key metadata is `footer_key_metadata` (for the KMS instance).
  std::shared_ptr<FileKeys> ForFile(std::string parquet_path,
                                    std::optional<std::string> footer_key_metadata);

  // The data key of `material` (the steps above).
  Result<std::string> Unwrap(const KeyMaterial& material, const KmsInstance& instance);

  Result<std::string> ReadFile(const std::string& path) const { return read_file_(path); }

 private:
  KeyUnwrapper(std::shared_ptr<KmsClient> kms, KeyMaterialFileReader read_file)
      : kms_(std::move(kms)), read_file_(std::move(read_file)) {}
  Result<std::string> Kek(const KeyMaterial& material, const KmsInstance& instance);

  std::shared_ptr<KmsClient> kms_;
  KeyMaterialFileReader read_file_;
  std::mutex mu_;
  // (instance id, master key id, KEK id, wrapped KEK) -> KEK
  std::map<std::tuple<std::string, std::string, std::string, std::string>, std::string> keks_;
};

}  // namespace pq::crypto
