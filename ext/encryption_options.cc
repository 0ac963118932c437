#include "ext/encryption_options.h"

#include <string>
#include <utility>

#include "format/crypto/key_unwrapper.h"
#include "format/crypto/key_wrapper.h"
#include "format/crypto/kms_client.h"

namespace pq::ext {

const std::vector<std::string_view> kDecryptionOptionNames = {"footer_key", "column_keys",
                                                              "aad_prefix", "master_keys"};
const std::vector<std::string_view> kEncryptionOptionNames = {
    "footer_key",        "column_keys",        "encryption_algorithm", "plaintext_footer",
    "aad_prefix",        "store_aad_prefix",   "footer_key_id",        "column_key_ids",
    "footer_master_key", "column_master_keys", "double_wrapping",      "key_material",
    "data_key_length",   "master_keys"};

namespace {

Status OptionError(std::string_view key, const std::string& why) {
  return Status::InvalidArgument("option '" + std::string(key) + "': " + why);
}

// master_keys='id:KEY, ...' as a registry of their own (null when not given).
Result<std::shared_ptr<const crypto::KeyRegistry>> MasterKeysOption(const OptionList& opts) {
  if (!opts.Has("master_keys")) return std::shared_ptr<const crypto::KeyRegistry>();
  auto keys = crypto::ParseColumnKeys(opts.GetString("master_keys", ""), "master_keys", "master key");
  if (!keys.ok()) return OptionError("master_keys", keys.status().message());
  if (keys->empty()) return OptionError("master_keys", "names no master key");
  auto registry = std::make_shared<crypto::KeyRegistry>();
  for (auto& [id, key] : *keys) PQ_RETURN_IF_ERROR(registry->Add(id, std::move(key)));
  return std::shared_ptr<const crypto::KeyRegistry>(std::move(registry));
}

// The KMS client behind master key ids: the master_keys option first, then the connection's
// registry (parquet_add_key). The one place the SQL layer picks a KmsClient (kms_client.h): a
// remote KMS would be chosen here.
Result<std::shared_ptr<crypto::KmsClient>> KmsFromOptions(
    const OptionList& opts, std::shared_ptr<const crypto::KeyRegistry> registry) {
  PQ_ASSIGN_OR_RETURN(std::shared_ptr<const crypto::KeyRegistry> option_keys, MasterKeysOption(opts));
  return std::shared_ptr<crypto::KmsClient>(std::make_shared<crypto::RegistryKmsClient>(
      std::vector<std::shared_ptr<const crypto::KeyRegistry>>{std::move(option_keys),
                                                              std::move(registry)}));
}

// "col:id, col2:id2" of option `key`, in order; ids and columns trimmed and not empty.
Result<std::vector<std::pair<std::string, std::string>>> ColumnIdList(const OptionList& opts,
                                                                      std::string_view key) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string text = opts.GetString(key, "");
  std::string_view rest = text;
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view item = TrimSpace(rest.substr(0, comma));
    const size_t colon = item.find(':');
    if (colon == std::string_view::npos) {
      return OptionError(key, "item '" + std::string(item) + "' is not col:id");
    }
    std::string column(TrimSpace(item.substr(0, colon)));
    std::string id(TrimSpace(item.substr(colon + 1)));
    if (column.empty()) return OptionError(key, "an item has an empty column name");
    if (id.empty()) return OptionError(key, "column '" + column + "' has an empty id");
    for (const auto& [c, i] : out) {
      if (c == column) return OptionError(key, "column '" + column + "' is given twice");
    }
    out.emplace_back(std::move(column), std::move(id));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return out;
}

// Algorithm, footer mode and AAD prefix: shared by explicit keys and master keys.
Status CommonEncryptionOptions(const OptionList& opts, crypto::EncryptionConfig* config) {
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
  return Status::OK();
}

// footer_master_key=ID: fresh data keys per file, wrapped with master keys (PKMT1).
Status MasterKeyEncryption(const OptionList& opts, std::shared_ptr<const crypto::KeyRegistry> registry,
                           crypto::EncryptionConfig* config) {
  for (std::string_view explicit_only : {"footer_key", "column_keys", "footer_key_id", "column_key_ids"}) {
    if (opts.Has(explicit_only)) {
      return OptionError(explicit_only,
                         "cannot be given with footer_master_key: with master keys, every data key "
                         "is drawn for the file and wrapped (use column_master_keys for columns)");
    }
  }
  config->footer_master_key_id = std::string(TrimSpace(opts.GetString("footer_master_key", "")));
  if (config->footer_master_key_id.empty()) return OptionError("footer_master_key", "is empty");
  if (opts.Has("column_master_keys")) {
    PQ_ASSIGN_OR_RETURN(auto columns, ColumnIdList(opts, "column_master_keys"));
    for (auto& [column, id] : columns) config->column_keys[column].master_key_id = std::move(id);
  }
  auto wrapping = std::make_shared<crypto::KeyWrapping>();
  PQ_ASSIGN_OR_RETURN(wrapping->kms, KmsFromOptions(opts, std::move(registry)));
  PQ_ASSIGN_OR_RETURN(wrapping->double_wrapping, opts.GetBool("double_wrapping", true));
  PQ_ASSIGN_OR_RETURN(std::string material,
                      opts.GetChoice("key_material", "internal", {"internal", "external"}));
  wrapping->internal_storage = material == "internal";
  PQ_ASSIGN_OR_RETURN(std::string bits, opts.GetChoice("data_key_length", "128", {"128", "192", "256"}));
  wrapping->data_key_bytes = static_cast<size_t>(std::stoi(bits) / 8);
  config->key_wrapping = std::move(wrapping);
  return Status::OK();
}

// footer_key=KEY: the keys as given.
Status ExplicitKeyEncryption(const OptionList& opts, crypto::EncryptionConfig* config) {
  for (std::string_view master_only :
       {"column_master_keys", "double_wrapping", "key_material", "data_key_length", "master_keys"}) {
    if (opts.Has(master_only)) return OptionError(master_only, "needs footer_master_key");
  }
  auto footer_key = crypto::ParseKeyText(opts.GetString("footer_key", ""));
  if (!footer_key.ok()) return OptionError("footer_key", footer_key.status().message());
  config->footer_key = std::move(footer_key).value();
  auto column_keys = crypto::ParseColumnKeys(opts.GetString("column_keys", ""));
  if (!column_keys.ok()) return OptionError("column_keys", column_keys.status().message());
  if (opts.Has("column_keys") && column_keys->empty()) {
    return OptionError("column_keys", "names no column (leave it out to encrypt every column)");
  }
  for (auto& [column, key] : *column_keys) config->column_keys[column].key = std::move(key);
  // Key ids, stored as the key_metadata readers look keys up by (parquet_add_key here).
  if (opts.Has("footer_key_id")) {
    config->footer_key_metadata = std::string(TrimSpace(opts.GetString("footer_key_id", "")));
    if (config->footer_key_metadata.empty()) return OptionError("footer_key_id", "is empty");
  }
  if (opts.Has("column_key_ids")) {
    PQ_ASSIGN_OR_RETURN(auto ids, ColumnIdList(opts, "column_key_ids"));
    for (auto& [column, id] : ids) {
      auto it = config->column_keys.find(column);
      if (it == config->column_keys.end()) {
        return OptionError("column_key_ids",
                           "column '" + column + "' is not given a key in column_keys");
      }
      it->second.key_metadata = std::move(id);
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::shared_ptr<const crypto::DecryptionConfig>> DecryptionFromOptions(
    const OptionList& opts, std::shared_ptr<const crypto::KeyRegistry> registry) {
  bool any = registry != nullptr;
  for (std::string_view key : kDecryptionOptionNames) any = any || opts.Has(key);
  if (!any) return std::shared_ptr<const crypto::DecryptionConfig>();
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
  if (registry) out->key_retriever = crypto::KeyRegistry::RetrieverFor(registry);
  PQ_ASSIGN_OR_RETURN(std::shared_ptr<crypto::KmsClient> kms, KmsFromOptions(opts, std::move(registry)));
  out->key_unwrapper = crypto::KeyUnwrapper::Make(std::move(kms));
  return std::shared_ptr<const crypto::DecryptionConfig>(std::move(out));
}

Result<std::shared_ptr<const crypto::EncryptionConfig>> EncryptionFromOptions(
    const OptionList& opts, std::shared_ptr<const crypto::KeyRegistry> registry) {
  const bool explicit_keys = opts.Has("footer_key");
  const bool master_keys = opts.Has("footer_master_key");
  if (!explicit_keys && !master_keys) {
    for (std::string_view key : kEncryptionOptionNames) {
      if (opts.Has(key)) {
        return OptionError(key, "needs footer_key or footer_master_key (the footer key encrypts "
                                "or signs the footer)");
      }
    }
    return std::shared_ptr<const crypto::EncryptionConfig>();
  }
  if (explicit_keys && master_keys) {
    return OptionError("footer_master_key", "cannot be given with footer_key (give the key itself, "
                                            "or the id of a master key that wraps fresh keys)");
  }
  auto config = std::make_shared<crypto::EncryptionConfig>();
  PQ_RETURN_IF_ERROR(master_keys ? MasterKeyEncryption(opts, std::move(registry), config.get())
                                 : ExplicitKeyEncryption(opts, config.get()));
  PQ_RETURN_IF_ERROR(CommonEncryptionOptions(opts, config.get()));
  return std::shared_ptr<const crypto::EncryptionConfig>(std::move(config));
}

}  // namespace pq::ext
