// FileEncryptor: what a writer needs to produce an encrypted Parquet file; the mirror of
// FileDecryptor (the Parquet spec "Parquet Modular Encryption" 5).
//
// Writer recipe:
//   1. Make() once per file (draws the 8-byte aad_file_unique). Write magic() at offset 0.
//   2. Set RowGroup.ordinal to each row group's index (the AADs use it).
//   3. For each column chunk: ForColumn(path, row group, column) gives a ColumnEncryptor for an
//      encrypted column (nullopt: write the chunk as usual). Write pages, page index and Bloom
//      filter through it (column_encryptor.h). Then fill chunk.meta_data as usual and call
//      FinishColumnChunk, which sets crypto_metadata and moves the metadata where the mode wants
//      it.
//   4. WriteFooter(metadata) appends the footer, its length and the final magic.
// Columns: with no column_keys every column is encrypted with the footer key ("uniform"); with
// column_keys only those columns are encrypted (each with its own key), the rest stay plaintext.
// Keys are given, or (key_wrapping set) drawn fresh per file and wrapped with master keys into
// PKMT1 key material by WrapFileKeys (key_wrapper.h) before Make.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "format/crypto/aes_cipher.h"
#include "format/crypto/column_encryptor.h"
#include "format/metadata/metadata.h"
#include "format/util/status.h"

namespace pq::crypto {

struct KeyWrapping;  // key_wrapper.h

struct ColumnKeySpec {
  std::string key;            // 16, 24 or 32 bytes
  std::string key_metadata;   // stored in ColumnCryptoMetaData when not empty (e.g. key id "kc1")
  std::string master_key_id;  // with key_wrapping: the master key that wraps the drawn key

  ~ColumnKeySpec();  // wipes the key
};

struct EncryptionConfig {
  EncryptionAlgorithm::Kind algorithm = EncryptionAlgorithm::Kind::kAesGcmV1;
  std::string footer_key;           // 16, 24 or 32 bytes; required (unless key_wrapping)
  std::string footer_key_metadata;  // stored when not empty (e.g. key id "kf")
  // Set: the footer key and the column keys are drawn for each file and wrapped with these master
  // keys (footer_master_key_id, ColumnKeySpec::master_key_id) as PKMT1 key material.
  std::shared_ptr<const KeyWrapping> key_wrapping;
  std::string footer_master_key_id;
  bool encrypted_footer = true;     // false: plaintext footer signed with the footer key
  std::map<std::string, ColumnKeySpec, std::less<>> column_keys;  // dotted path -> key
  std::optional<std::string> aad_prefix;
  bool store_aad_prefix = true;  // false: readers must supply the prefix (supply_aad_prefix)

  ~EncryptionConfig();  // wipes the footer key
};

class FileEncryptor {
 public:
  // InvalidArgument for a bad algorithm or key size.
  static Result<std::unique_ptr<FileEncryptor>> Make(EncryptionConfig config);

  // "PARE" (encrypted footer) or "PAR1" (plaintext footer): the file's first and last 4 bytes.
  const char* magic() const { return config_.encrypted_footer ? "PARE" : "PAR1"; }
  const EncryptionAlgorithm& algorithm() const { return algorithm_; }
  const std::string& file_aad() const { return file_aad_; }
  bool IsEncrypted(std::string_view dotted_path) const;

  // The chunk's encryptor, or nullopt for a column that stays plaintext.
  Result<std::optional<ColumnEncryptor>> ForColumn(std::string_view dotted_path,
                                                   int64_t row_group_ordinal,
                                                   int64_t column_ordinal) const;

  // From the chunk's full meta_data: sets crypto_metadata; a column with its own key (or any
  // encrypted column under a plaintext footer) gets encrypted_column_metadata; meta_data is then
  // dropped (encrypted footer) or kept without statistics (plaintext footer, for legacy readers).
  // No-op for a plaintext column. Corruption if meta_data is missing.
  Status FinishColumnChunk(ColumnChunk* chunk, int64_t row_group_ordinal,
                           int64_t column_ordinal) const;

  // Appends the footer of `metadata` (FileCryptoMetaData + encrypted FileMetaData, or the signed
  // plaintext FileMetaData), the 4-byte length and the magic.
  Status WriteFooter(FileMetaData metadata, std::string* out) const;

 private:
  FileEncryptor() = default;
  const ColumnKeySpec* OwnKey(std::string_view dotted_path) const;

  EncryptionConfig config_;
  EncryptionAlgorithm algorithm_;  // as stored in the file
  std::string file_aad_;
};

}  // namespace pq::crypto
