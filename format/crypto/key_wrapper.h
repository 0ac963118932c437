// Key wrapping for writers: fresh data keys for one file, wrapped with master keys into PKMT1 key
// material (key_material.h), as parquet-java's FileKeyWrapper and PropertiesDrivenCryptoFactory
// produce it, so that parquet-java and Arrow (with a KMS holding the same master keys) and this
// reader open the file.
//
// For each file: a random data key (DEK; 128 bits unless data_key_bytes says otherwise, as the
// tools' parquet.encryption.data.key.length.bits) for the footer and for each column given a master
// key (the others stay plaintext, or all columns are under the footer key when no column is
// given: "uniform" encryption). Single wrapping: each DEK is wrapped by the KMS with its master
// key. Double wrapping (the default, as in the tools): one random 128-bit KEK with a random 16-byte
// id per master key and file, wrapped by the KMS; each DEK encrypted locally under its master key's
// KEK with the KEK id as AAD (WrapKeyLocally). Internal storage: the material is each key's
// key_metadata. External storage: each key_metadata is a reference ("footerKey", "columnKey0",
// "columnKey1", ... in column order) and the material goes to the JSON map the caller writes as
// `_KEY_MATERIAL_FOR_<file name>.json` beside the file (KeyMaterialPathFor).
#pragma once

#include <memory>
#include <string>

#include "format/crypto/file_encryptor.h"
#include "format/crypto/key_material.h"
#include "format/crypto/kms_client.h"
#include "format/util/status.h"

namespace pq::crypto {

struct KeyWrapping {
  std::shared_ptr<KmsClient> kms;
  KmsInstance instance;          // stored in the footer key's material
  bool double_wrapping = true;
  bool internal_storage = true;  // false: external key material file
  size_t data_key_bytes = kGeneratedKeyLength;  // 16, 24 or 32
};

struct WrappedFileKeys {
  EncryptionConfig config;        // keys and key_metadata filled in, key_wrapping cleared
  std::string external_material;  // the key material file's JSON; empty for internal storage
};

// `config` with config.key_wrapping set: draws the footer's and each column's data key (columns
// by their ColumnKeySpec::master_key_id, one entry per leaf) and wraps them. Errors are the KMS's
// (a master key it does not hold names its id) or InvalidArgument for a column without a master
// key id.
Result<WrappedFileKeys> WrapFileKeys(EncryptionConfig config);

}  // namespace pq::crypto
