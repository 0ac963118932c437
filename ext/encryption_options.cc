#include "ext/encryption_options.h"

#include <string>

namespace pq::ext {

const std::vector<std::string_view> kDecryptionOptionNames = {"footer_key", "column_keys",
                                                              "aad_prefix"};
const std::vector<std::string_view> kEncryptionOptionNames = {
    "footer_key", "column_keys",   "encryption_algorithm",
    "plaintext_footer", "aad_prefix", "store_aad_prefix", "footer_key_id", "column_key_ids"};

namespace {

Status OptionError(std::string_view key, const std::string& why) {
  return Status::InvalidArgument("option '" + std::string(key) + "': " + why);
}

}  // namespace

Result<std::shared_ptr<const crypto::DecryptionConfig>> DecryptionFromOptions(
    const OptionList& opts, std::shared_ptr<const crypto::KeyRegistry> registry) {
  const bool any = opts.Has("footer_key") || opts.Has("column_keys") || opts.Has("aad_prefix");
  if (!any && registry == nullptr) return std::shared_ptr<const crypto::DecryptionConfig>();
  auto out = std::make_shared<crypto::DecryptionConfig>();
  if (opts.Has("footer_key")) {
    auto key = crypto::ParseKeyText(opts.GetString("footer_key", ""));
    if (!key.ok()) return OptionError("footer_key", key.status().message());
    out->footer_key = std::move(key).value();
  }
  auto column_keys = crypto::ParseColumnKeys(opts.GetString("column_keys", ""));
  if (!column_keys.ok()) return OptionError("column_keys", column_keys.status().message());
  out->column_keys = std::move(column_keys).value();
  if (opts.Has("aad_prefix")) out->aad_prefix = opts.GetString("aad_prefix", "");
  if (registry) out->key_retriever = crypto::KeyRegistry::RetrieverFor(std::move(registry));
  return std::shared_ptr<const crypto::DecryptionConfig>(std::move(out));
}

Result<std::shared_ptr<const crypto::EncryptionConfig>> EncryptionFromOptions(
    const OptionList& opts) {
  if (!opts.Has("footer_key")) {
    for (std::string_view key : kEncryptionOptionNames) {
      if (opts.Has(key)) {
        return OptionError(key, "needs footer_key (the footer key encrypts or signs the footer)");
      }
    }
    return std::shared_ptr<const crypto::EncryptionConfig>();
  }
  auto config = std::make_shared<crypto::EncryptionConfig>();
  auto footer_key = crypto::ParseKeyText(opts.GetString("footer_key", ""));
  if (!footer_key.ok()) return OptionError("footer_key", footer_key.status().message());
  config->footer_key = std::move(footer_key).value();
  auto column_keys = crypto::ParseColumnKeys(opts.GetString("column_keys", ""));
  if (!column_keys.ok()) return OptionError("column_keys", column_keys.status().message());
  if (opts.Has("column_keys") && column_keys->empty()) {
    return OptionError("column_keys", "names no column (leave it out to encrypt every column)");
  }
  for (auto& [column, key] : *column_keys) config->column_keys[column].key = std::move(key);
  PQ_ASSIGN_OR_RETURN(std::string algorithm,
                      opts.GetChoice("encryption_algorithm", "gcm",
                                     {"gcm", "ctr", "aes_gcm_v1", "aes_gcm_ctr_v1"}));
  config->algorithm = algorithm == "ctr" || algorithm == "aes_gcm_ctr_v1"
                          ? EncryptionAlgorithm::Kind::kAesGcmCtrV1
                          : EncryptionAlgorithm::Kind::kAesGcmV1;
  PQ_ASSIGN_OR_RETURN(bool plaintext_footer, opts.GetBool("plaintext_footer", false));
  config->encrypted_footer = !plaintext_footer;
  if (opts.Has("aad_prefix")) config->aad_prefix = opts.GetString("aad_prefix", "");
  PQ_ASSIGN_OR_RETURN(config->store_aad_prefix, opts.GetBool("store_aad_prefix", true));
  if (opts.Has("store_aad_prefix") && !config->aad_prefix) {
    return OptionError("store_aad_prefix", "needs aad_prefix");
  }
  // Key ids, stored as the key_metadata readers look keys up by (parquet_add_key here).
  if (opts.Has("footer_key_id")) {
    config->footer_key_metadata = std::string(TrimSpace(opts.GetString("footer_key_id", "")));
    if (config->footer_key_metadata.empty()) return OptionError("footer_key_id", "is empty");
  }
  if (opts.Has("column_key_ids")) {
    const std::string text = opts.GetString("column_key_ids", "");
    std::string_view rest = text;
    while (true) {
      const size_t comma = rest.find(',');
      const std::string_view item = TrimSpace(rest.substr(0, comma));
      const size_t colon = item.find(':');
      if (colon == std::string_view::npos) {
        return OptionError("column_key_ids", "item '" + std::string(item) + "' is not col:id");
      }
      const std::string column(TrimSpace(item.substr(0, colon)));
      const std::string id(TrimSpace(item.substr(colon + 1)));
      auto it = config->column_keys.find(column);
      if (it == config->column_keys.end()) {
        return OptionError("column_key_ids",
                           "column '" + column + "' is not given a key in column_keys");
      }
      if (id.empty()) return OptionError("column_key_ids", "column '" + column + "' has an empty id");
      if (!it->second.key_metadata.empty()) {
        return OptionError("column_key_ids", "column '" + column + "' is given twice");
      }
      it->second.key_metadata = id;
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }
  return std::shared_ptr<const crypto::EncryptionConfig>(std::move(config));
}

}  // namespace pq::ext
