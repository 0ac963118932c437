#include "format/crypto/decryption_config.h"

#include "format/crypto/aes_cipher.h"
#include "format/crypto/key_material.h"
#include "format/crypto/key_unwrapper.h"
#include "format/util/base64.h"
#include "format/util/hex.h"

namespace pq::crypto {
namespace {

bool IsKeySize(size_t n) {
  return n == 16 || n == 24 || n == 32;
}

Status BadKey(std::string_view form, size_t bytes) {
  return Status::InvalidArgument("key (" + std::string(form) + ") is " + std::to_string(bytes) +
                                 " bytes; an AES key must be 16, 24 or 32 bytes");
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

Result<std::string> ParseKeyText(std::string_view text) {
  if (text.starts_with("hex:")) {
    auto bytes = DecodeHex(text.substr(4));
    if (!bytes) return Status::InvalidArgument("key given as hex: is not hexadecimal");
    if (!IsKeySize(bytes->size())) return BadKey("hex", bytes->size());
    return std::move(*bytes);
  }
  if (text.starts_with("base64:")) {
    std::string bytes;
    if (!DecodeBase64(text.substr(7), &bytes)) {
      return Status::InvalidArgument("key given as base64: is not base64");
    }
    if (!IsKeySize(bytes.size())) return BadKey("base64", bytes.size());
    return bytes;
  }
  if (text.starts_with("text:")) {
    std::string_view raw = text.substr(5);
    if (!IsKeySize(raw.size())) return BadKey("text", raw.size());
    return std::string(raw);
  }
  if (text.size() == 32 || text.size() == 48 || text.size() == 64) {
    if (auto bytes = DecodeHex(text)) return std::move(*bytes);
  }
  if (std::string bytes; DecodeBase64(text, &bytes) && IsKeySize(bytes.size())) return bytes;
  if (IsKeySize(text.size())) return std::string(text);
  return Status::InvalidArgument("key of " + std::to_string(text.size()) +
                                 " characters is neither 32/48/64 hex digits, base64 of 16/24/32 "
                                 "bytes, nor 16/24/32 bytes of text");
}

Result<std::map<std::string, std::string, std::less<>>> ParseColumnKeys(std::string_view text,
                                                                        std::string_view option,
                                                                        std::string_view item_name) {
  std::map<std::string, std::string, std::less<>> keys;
  if (Trim(text).empty()) return keys;
  const std::string opt(option);
  const std::string what(item_name);
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = Trim(text.substr(start, comma - start));
    start = comma + 1;
    if (item.empty()) return Status::InvalidArgument(opt + " has an empty item");
    size_t colon = item.find(':');
    if (colon == std::string_view::npos) {
      // The item is not echoed: it may be a key whose column was forgotten.
      return Status::InvalidArgument(opt + " item " + std::to_string(keys.size() + 1) +
                                     " has no ':' (expected " + what + ":key)");
    }
    std::string column(Trim(item.substr(0, colon)));
    if (column.empty()) {
      return Status::InvalidArgument(opt + " item has an empty " + what + " name");
    }
    auto key = ParseKeyText(Trim(item.substr(colon + 1)));
    if (!key.ok())
      return Status::InvalidArgument(opt + ", " + what + " '" + column +
                                     "': " + key.status().message());
    if (!keys.emplace(column, std::move(key).value()).second) {
      return Status::InvalidArgument(opt + " gives " + what + " '" + column + "' twice");
    }
  }
  return keys;
}

Result<DecryptionConfig> DecryptionConfig::FromOptions(std::string_view footer_key_text,
                                                       std::string_view column_keys_text,
                                                       std::optional<std::string_view> aad_prefix) {
  DecryptionConfig config;
  if (!footer_key_text.empty()) {
    auto key = ParseKeyText(footer_key_text);
    if (!key.ok()) return Status::InvalidArgument("footer_key: " + key.status().message());
    config.footer_key = std::move(key).value();
  }
  PQ_ASSIGN_OR_RETURN(config.column_keys, ParseColumnKeys(column_keys_text));
  if (aad_prefix) config.aad_prefix = std::string(*aad_prefix);
  return config;
}

DecryptionConfig::~DecryptionConfig() {
  WipeSecret(&footer_key);
  for (auto& [path, key] : column_keys) WipeSecret(&key);
}

KeyRegistry::~KeyRegistry() {
  for (auto& [id, key] : keys_) WipeSecret(&key);
}

Status KeyRegistry::Add(std::string id, std::string key) {
  if (!IsKeySize(key.size())) {
    return Status::InvalidArgument("key for id " + DescribeKeyMetadata(id) + " is " +
                                   std::to_string(key.size()) +
                                   " bytes; an AES key must be 16, 24 or 32 bytes");
  }
  std::lock_guard<std::mutex> lock(mu_);
  std::string& slot = keys_[std::move(id)];
  WipeSecret(&slot);
  slot = std::move(key);
  return Status::OK();
}

std::optional<std::string> KeyRegistry::Find(std::string_view id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = keys_.find(id);
  if (it == keys_.end()) return std::nullopt;
  return it->second;
}

KeyRetriever KeyRegistry::RetrieverFor(std::shared_ptr<const KeyRegistry> registry) {
  return [registry = std::move(registry)](std::string_view key_metadata) {
    return registry->Find(key_metadata);
  };
}

std::string DescribeKeyMetadata(std::string_view key_metadata) {
  if (IsKeyMaterialJson(key_metadata)) return "PKMT1 key material";
  bool printable = !key_metadata.empty() && key_metadata.size() <= 64;
  for (char c : key_metadata) {
    if (c < 0x20 || c > 0x7E || c == '\'') printable = false;
  }
  if (printable) return "'" + std::string(key_metadata) + "'";
  return "<" + std::to_string(key_metadata.size()) + " bytes>";
}

}  // namespace pq::crypto
