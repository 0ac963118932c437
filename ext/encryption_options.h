// Encryption options of the SQL layer: the keys a `parquet` table reads encrypted files with
// (the Parquet spec "Parquet Modular Encryption"), and how parquet_export / a writable table
// encrypt what they write. Key text (KEY below) is hex (32/48/64 digits), base64 of 16/24/32
// bytes, 16/24/32 characters of text, or explicitly "hex:...", "base64:...", "text:..."
// (format/crypto/decryption_config.h). No error message ever shows a key.
//
//   CREATE VIRTUAL TABLE temp.t USING parquet('secret.parquet', footer_key='0123456789012345',
//                                             column_keys='ssn:1234567890123450');
//   SELECT parquet_export('out.parquet', 'SELECT * FROM people',
//                         'footer_key=0123456789012345, column_keys=''ssn:1234567890123450''');
//
// Table options (kDecryptionOptionNames):
//   footer_key=KEY             the footer key: decrypts an encrypted footer, checks the signature
//                              of a plaintext footer, decrypts the columns encrypted with it
//   column_keys='col:KEY,...'  keys of columns encrypted with their own key (dotted leaf paths)
//   aad_prefix=TEXT            the AAD prefix of files that do not store theirs (checked against
//                              the stored one otherwise)
//   master_keys='id:KEY,...'   master keys by id, for files whose keys are PKMT1 key material
// Keys registered with parquet_add_key(id, key) (key_functions.h) are found through the key ids
// files name, and serve as master keys by id for PKMT1 key material (format/crypto/key_material.h:
// internal or external, single or double wrapping); explicit options win over them. The keys of a
// table outside temp cannot be options (secret_options.h).
//
// Writer options (kEncryptionOptionNames; all need footer_key or footer_master_key):
//   footer_key=KEY             encrypt the file: the footer, and every column unless column_keys
//   column_keys='col:KEY,...'  encrypt only these columns, each under its own key (a group's name
//                              covers every leaf under it); the others stay plaintext
//   encryption_algorithm=gcm|ctr  AES_GCM_V1 (default; everything authenticated) or
//                              AES_GCM_CTR_V1 (pages in AES-CTR, faster, not authenticated)
//   plaintext_footer=0|1       1: a footer legacy readers can read (signed with the footer key);
//                              they then read the plaintext columns. Default 0 (PARE footer)
//   aad_prefix=TEXT            bind the file to this text (e.g. its name): moving modules between
//                              files with different prefixes is detected
//   store_aad_prefix=0|1       store the prefix in the file (default 1); 0: readers must give it
//   footer_key_id=ID           store ID as the footer key's key_metadata
//   column_key_ids='col:ID,...'  store ID as the key_metadata of a column of column_keys
// or, instead of footer_key, column_keys and the key ids, master keys by id (PKMT1, as
// parquet-java's PropertiesDrivenCryptoFactory writes; format/crypto/key_wrapper.h):
//   footer_master_key=ID       fresh data keys for each file, the footer's wrapped with master ID
//   column_master_keys='col:ID,...'  only these columns encrypted, each under a fresh key wrapped
//                              with its master key (without: every column under the footer key)
//   double_wrapping=0|1        1 (default): data keys under per-file KEKs wrapped by the master
//                              keys; 0: data keys wrapped by the master keys directly
//   key_material=internal|external  in each key's key_metadata (default), or in
//                              `_KEY_MATERIAL_FOR_<file name>.json` beside the file (written and
//                              published with it: export_writer.h)
//   data_key_length=128|192|256  bits of the data keys drawn (default 128)
//   master_keys='id:KEY,...'   master keys by id, before those of parquet_add_key
// The file id and every nonce are fresh random bytes. A file with key ids opens wherever its keys
// are registered under those ids (parquet_add_key); without ids, read it with footer_key= /
// column_keys=. A file with master keys opens wherever the master keys are registered.
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
// The writer options above: to add to the writer's known options.
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
