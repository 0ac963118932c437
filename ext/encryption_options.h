// Encryption options of the SQL layer: the keys a `parquet` table reads encrypted files with, and
// how parquet_export and a write table encrypt what they write (the Parquet spec, "Parquet Modular
// Encryption"), turned into the engine's DecryptionConfig and EncryptionConfig. Keys are given as
// text (decryption_config.h says the forms); explicit options win over the keys registered with
// parquet_add_key (key_functions.h), which also serve as master keys for PKMT1 key material. No
// error message ever shows a key. The options are documented in docs/encryption.md.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "ext/options.h"
#include "format/crypto/decryption_config.h"
#include "format/crypto/file_encryptor.h"
#include "format/util/status.h"

namespace pq::ext {

// footer_key, column_keys, aad_prefix, master_keys: to add to the table's known options.
extern const std::vector<std::string_view> kDecryptionOptionNames;
// footer_key, column_keys, encryption_algorithm, ..., footer_master_key, column_master_keys,
// double_wrapping, key_material, data_key_length, master_keys: to add to the writer's known
// options.
extern const std::vector<std::string_view> kEncryptionOptionNames;

// The keys for ReaderOptions::decryption from the table options and the connection's registry
// (may be null). Null when there is neither an option nor a registry (plaintext files only, and
// the plaintext columns of plaintext-footer files). InvalidArgument naming the option for a
// malformed key (never showing it).
Result<std::shared_ptr<const crypto::DecryptionConfig>> DecryptionFromOptions(
    const OptionList& opts, std::shared_ptr<const crypto::KeyRegistry> registry);

// The encryption for WriterOptions::encryption from the writer options; null when neither
// footer_key nor footer_master_key is given (and then no other encryption option may be).
// Master key ids are looked up, when files are written, in master_keys and then `registry` (the
// connection's; may be null). InvalidArgument naming the option.
Result<std::shared_ptr<const crypto::EncryptionConfig>> EncryptionFromOptions(
    const OptionList& opts, std::shared_ptr<const crypto::KeyRegistry> registry);

}  // namespace pq::ext
