// FileDecryptor: opens the footer of an encrypted Parquet file and hands out column decryptors.
//
// The Parquet spec "Parquet Modular Encryption" 5.3 describes two footers. In both, the last 8 bytes
// are a 4-byte LE length and a magic; `footer` below is the `length` bytes before them.
// - Encrypted footer, magic "PARE" (also at offset 0): footer = FileCryptoMetaData (plaintext
//   Thrift: algorithm, AAD prefix and file-unique part, footer key metadata) followed by the
//   FileMetaData as one GCM module under the footer key, with the footer AAD.
// - Plaintext footer, magic "PAR1": footer = FileMetaData (with encryption_algorithm and
//   footer_signing_key_metadata set) followed by a 28-byte signature (nonce | GCM tag of the
//   serialized FileMetaData under the footer key and footer AAD). Readers without the footer key
//   can still read the plaintext columns; the signature is checked when the key is known.
//
// Then, per encrypted column chunk (ColumnChunk.crypto_metadata set): a chunk under its own key
// (ENCRYPTION_WITH_COLUMN_KEY) stores its real ColumnMetaData encrypted in
// encrypted_column_metadata (ColumnMetaData module); a chunk under the footer key keeps meta_data
// in the (encrypted) footer, or (plaintext footer) may store it encrypted under the footer key too.
// With a plaintext footer, meta_data of an encrypted chunk is a copy without statistics for legacy
// readers. DecryptColumnMetaData returns the real one in every case; ForColumn gives the
// ColumnDecryptor for its pages, page index and Bloom filter.
//
// Keys whose key_metadata is PKMT1 key material are unwrapped through config.key_unwrapper
// (key_unwrapper.h); `file_path` locates external key material beside the file. A footer key that
// cannot be unwrapped is an error for an encrypted footer; under a plaintext footer the file still
// opens unverified, and the reason is given when a column under the footer key is read.
//
// Thread-safe after construction (const methods only). No message holds key bytes; keys are wiped
// when the decryptor goes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "format/crypto/aes_cipher.h"
#include "format/crypto/column_decryptor.h"
#include "format/crypto/decryption_config.h"
#include "format/crypto/key_unwrapper.h"
#include "format/metadata/metadata.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq::crypto {

class FileDecryptor {
 public:
  // A "PARE" file. `footer`: the footer_length bytes before the final length and magic.
  // *file_metadata gets the decrypted serialized FileMetaData (parse it with ReadFileMetaData).
  // Errors: Corruption for malformed crypto metadata or module; NotSupported for an unknown
  // algorithm; Crypto for a missing footer key, a missing required AAD prefix, an AAD prefix that
  // differs from the stored one, or a failed authentication (wrong key or altered footer).
  static Result<std::unique_ptr<FileDecryptor>> ForEncryptedFooter(
      ByteSpan footer, const DecryptionConfig& config, std::vector<uint8_t>* file_metadata,
      std::string_view file_path = "");

  // A "PAR1" file whose FileMetaData (`metadata`, parsed from `footer`) has encryption_algorithm.
  // `footer`: all footer_length bytes, FileMetaData then the 28-byte signature. Verifies the
  // signature when the footer key is known (config.footer_key, or the retriever for
  // footer_signing_key_metadata); a mismatch is Crypto. Without the key, footer_verified() is
  // false.
  static Result<std::unique_ptr<FileDecryptor>> ForPlaintextFooter(ByteSpan footer,
                                                                   const FileMetaData& metadata,
                                                                   const DecryptionConfig& config,
                                                                   std::string_view file_path = "");
  ~FileDecryptor();

  EncryptionAlgorithm::Kind algorithm() const { return algorithm_; }
  Cipher page_cipher() const {
    return algorithm_ == EncryptionAlgorithm::Kind::kAesGcmCtrV1 ? Cipher::kCtr : Cipher::kGcm;
  }
  bool encrypted_footer() const { return encrypted_footer_; }
  // True when the footer was authenticated: always for an encrypted footer, for a plaintext
  // footer when its signature was checked.
  bool footer_verified() const { return footer_verified_; }
  bool has_footer_key() const { return !footer_key_.empty(); }
  const std::string& file_aad() const { return file_aad_; }

  // The full ColumnMetaData of the encrypted chunk `chunk`, which is column `column_ordinal` of
  // row group `row_group_ordinal` (RowGroupOrdinal() of module_aad.h): encrypted_column_metadata
  // decrypted when present, else meta_data (footer-key chunks only). Crypto when its key is not
  // known (naming the column and its key id) or authentication fails; Corruption when the chunk
  // lacks the field its crypto metadata calls for. For a chunk without crypto_metadata: its
  // meta_data (Corruption if absent).
  Result<ColumnMetaData> DecryptColumnMetaData(const ColumnChunk& chunk, int64_t row_group_ordinal,
                                               int64_t column_ordinal) const;

  // The module decryptor of an encrypted chunk (chunk.crypto_metadata must be set: InvalidArgument
  // otherwise; plaintext chunks of an encrypted file are read as usual). Crypto when the key is
  // not known. `column_name` (dotted path) is for messages only.
  Result<ColumnDecryptor> ForColumn(const ColumnChunk& chunk, int64_t row_group_ordinal,
                                    int64_t column_ordinal, std::string column_name = "") const;

  // The key of an encrypted chunk: its own key (explicit by path, else the retriever by key
  // metadata) or the footer key.
  Result<std::string> ColumnKey(const ColumnChunk& chunk) const;

 private:
  FileDecryptor() = default;
  // Sets algorithm_ and file_aad_ from the algorithm and the supplied prefix.
  Status InitAlgorithm(const EncryptionAlgorithm& algorithm);
  // Resolves the footer key from config_ (explicit, then by key metadata); may stay empty.
  Status ResolveFooterKey(const std::optional<std::string>& key_metadata, bool required);
  // The key `key_metadata` names: unwrapped PKMT1 material (its failure as FileKeys reports it),
  // or the retriever's key for an id; "" when there is no metadata or no key registered for the
  // id. `what` names the key for messages ("the footer key").
  Result<std::string> KeyByMetadata(const std::optional<std::string>& key_metadata,
                                    std::string_view what) const;

  DecryptionConfig config_;
  std::string file_path_;  // where external key material is looked for
  EncryptionAlgorithm::Kind algorithm_ = EncryptionAlgorithm::Kind::kNone;
  std::string file_aad_;
  std::string footer_key_;              // empty when not known
  std::string footer_key_description_;  // " (key id 'kf')" or "" when the file names none
  Status footer_key_failure_;           // why a plaintext footer's key could not be unwrapped
  std::shared_ptr<FileKeys> file_keys_;  // PKMT1 keys of this file; null without an unwrapper
  bool encrypted_footer_ = false;
  bool footer_verified_ = false;
};

// The dotted path "a.b.c" of a path_in_schema.
std::string DottedPath(const std::vector<std::string>& path);

}  // namespace pq::crypto
