// FileDecryptor: opens the footer of an encrypted Parquet file, of either kind the Parquet spec
// "Parquet Modular Encryption" describes (an encrypted "PARE" footer, or a signed plaintext "PAR1"
// footer that legacy readers can read), and hands out what the rest of the file needs: each chunk's
// real ColumnMetaData and a ColumnDecryptor for its pages, page index and Bloom filter. Keys come
// from the DecryptionConfig, PKMT1 key material through its key_unwrapper (`file_path` locates
// external material). Thread-safe after construction (const methods only); no message holds key
// bytes, and keys are wiped when the decryptor goes.
#pragma once

#include <memory>
#include <optional>
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
  // A "PARE" file. `footer`: the footer_length bytes before the final length and magic: the
  // FileCryptoMetaData (plaintext Thrift: algorithm, AAD prefix and file-unique part, footer key
  // metadata), then the FileMetaData as one GCM module under the footer key and footer AAD.
  // *file_metadata gets the decrypted serialized FileMetaData (parse it with ReadFileMetaData).
  // Errors: Corruption for malformed crypto metadata or module; NotSupported for an unknown
  // algorithm; Crypto for a missing footer key, a missing required AAD prefix, an AAD prefix that
  // differs from the stored one, or a failed authentication (wrong key or altered footer).
  static Result<std::unique_ptr<FileDecryptor>> ForEncryptedFooter(
      ByteSpan footer, const DecryptionConfig& config, std::vector<uint8_t>* file_metadata,
      std::string_view file_path = "");

  // A "PAR1" file whose FileMetaData (`metadata`, parsed from `footer`) has encryption_algorithm.
  // `footer`: all footer_length bytes, FileMetaData then the 28-byte signature. Verifies the
  // signature (nonce | GCM tag of the serialized FileMetaData under the footer key and footer AAD)
  // when the footer key is known (config.footer_key, or the retriever for
  // footer_signing_key_metadata); a mismatch is Crypto. Without the key, footer_verified() is
  // false and the plaintext columns can still be read; a footer key that cannot be unwrapped is
  // reported when a column under it is read.
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
  // The footer key's metadata as the file stores it: FileCryptoMetaData.key_metadata of an encrypted
  // footer, footer_signing_key_metadata of a signed plaintext one.
  const std::optional<std::string>& footer_key_metadata() const { return footer_key_metadata_; }
  const std::string& file_aad() const { return file_aad_; }

  // The full ColumnMetaData of the encrypted chunk `chunk`, which is column `column_ordinal` of
  // row group `row_group_ordinal` (RowGroupOrdinal() of module_aad.h): encrypted_column_metadata
  // decrypted when present, else meta_data (footer-key chunks only). Crypto when its key is not
  // known (naming the column and its key id) or authentication fails; Corruption when the chunk
  // lacks the field its crypto metadata calls for. For a chunk without crypto_metadata: its
  // meta_data (Corruption if absent). Under a plaintext footer, meta_data of an encrypted chunk is
  // a copy without statistics for legacy readers; this returns the real one in every case.
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
  std::optional<std::string> footer_key_metadata_;
  Status footer_key_failure_;           // why a plaintext footer's key could not be unwrapped
  std::shared_ptr<FileKeys> file_keys_;  // PKMT1 keys of this file; null without an unwrapper
  bool encrypted_footer_ = false;
  bool footer_verified_ = false;
};

// The dotted path "a.b.c" of a path_in_schema.
std::string DottedPath(const std::vector<std::string>& path);

}  // namespace pq::crypto
