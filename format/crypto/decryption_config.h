// The keys a reader holds for encrypted files, and how key text from options becomes key bytes.
//
// A file names its keys only through opaque key_metadata bytes (the Parquet spec "Parquet Modular
// Encryption" 4.3): the footer key in FileCryptoMetaData.key_metadata (or
// FileMetaData.footer_signing_key_metadata for a plaintext footer), a column key in
// ColumnCryptoMetaData.key_metadata. Writers such as parquet-mr and Arrow in "explicit key" mode
// store a short key id there ("kf", "kc1"); their key-management tools store PKMT1 key material,
// JSON holding the key wrapped by a master key (key_material.h).
//
// A DecryptionConfig gives keys three ways:
// - explicitly: footer_key, column_keys by dotted column path ("a.b.c"), from the table options
//   `footer_key=`, `column_keys='col:key,...'`;
// - by id: key_retriever(key_metadata) returns the key registered under that id (the SQL layer
//   backs it with the per-connection registry that parquet_add_key(id, key) fills; KeyRegistry
//   below is such a registry);
// - by key material: key_unwrapper unwraps PKMT1 material with master keys through a KmsClient
//   (key_unwrapper.h, kms_client.h).
// An explicit key wins over the other two; key material is never looked up as an id. `aad_prefix` is the `aad_prefix=` option: required for
// files written with an AAD prefix they do not store, checked against the stored one otherwise.
//
// Key text (ParseKeyText) is one of, tried in this order:
//   "hex:<hex>", "base64:<base64>", "text:<bytes>"    explicit form
//   32, 48 or 64 hex digits                             hex
//   base64 of 16, 24 or 32 bytes (padding optional)     base64
//   any other 16, 24 or 32 bytes                        the text's own bytes ("0123456789012345")
// A 24- or 32-character text key that is also valid base64 of a key size reads as base64: give it
// as "text:..." to mean its own bytes. No message ever holds key bytes or key text.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "format/util/status.h"

namespace pq::crypto {

class KeyUnwrapper;  // key_unwrapper.h

// Key bytes (16, 24 or 32) from key text; InvalidArgument otherwise.
Result<std::string> ParseKeyText(std::string_view text);

// "col:key,col2:key2" -> dotted column path -> key bytes. Spaces around items are ignored; the
// column is what precedes the first ':' (so column names holding ':' cannot be given here, and a
// text key cannot hold ','). An empty text gives an empty map; a duplicate column, an item without
// ':' or a bad key is InvalidArgument naming the column. The same form gives master keys by id
// ("kf:key,kc1:key"): `option` and `item` name the option and what precedes ':' in messages.
Result<std::map<std::string, std::string, std::less<>>> ParseColumnKeys(
    std::string_view text, std::string_view option = "column_keys",
    std::string_view item = "column");

// Returns the key registered for `key_metadata`, or nullopt when none is.
using KeyRetriever = std::function<std::optional<std::string>(std::string_view key_metadata)>;

struct DecryptionConfig {
  std::string footer_key;                                       // key bytes; empty when not given
  std::map<std::string, std::string, std::less<>> column_keys;  // dotted path -> key bytes
  std::optional<std::string> aad_prefix;                        // supplied AAD prefix
  KeyRetriever key_retriever;                                   // may be empty
  std::shared_ptr<KeyUnwrapper> key_unwrapper;  // PKMT1 key material; null: such keys are missing

  ~DecryptionConfig();  // wipes the keys

  // From option text; empty strings mean "not given". Keys are validated here.
  static Result<DecryptionConfig> FromOptions(std::string_view footer_key_text,
                                              std::string_view column_keys_text,
                                              std::optional<std::string_view> aad_prefix);
};

// A thread-safe map from key id to key bytes: the per-connection registry behind parquet_add_key
// (and the master keys of a table's master_keys option). Keys live in memory only and are wiped
// (WipeSecret) when replaced and when the registry goes, with the connection.
class KeyRegistry {
 public:
  KeyRegistry() = default;
  KeyRegistry(const KeyRegistry&) = delete;
  KeyRegistry& operator=(const KeyRegistry&) = delete;
  ~KeyRegistry();
  // Adds or replaces the key for `id`; InvalidArgument unless the key is 16, 24 or 32 bytes.
  Status Add(std::string id, std::string key);
  std::optional<std::string> Find(std::string_view id) const;
  // A retriever over this registry; `registry` must be non-null and is kept alive by the retriever.
  static KeyRetriever RetrieverFor(std::shared_ptr<const KeyRegistry> registry);

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::string, std::less<>> keys_;
};

// How messages show key metadata (and key ids): 'kc1' for a short printable id, "PKMT1 key
// material" for JSON material, else "<N bytes>".
std::string DescribeKeyMetadata(std::string_view key_metadata);

}  // namespace pq::crypto
