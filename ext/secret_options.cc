#include "ext/secret_options.h"

#include <string>

#include "ext/options.h"

namespace pq::ext {

const std::vector<std::string_view> kSecretOptionNames = {
    "footer_key", "column_keys", "master_keys",
    // remote_options.h: S3 credentials, and what authorizes HTTP requests
    "s3_access_key_id", "s3_secret_access_key", "s3_session_token", "http_bearer_token", "http_headers"};


bool IsSecretOption(std::string_view key) {
  const std::string lower = OptionName(key);
  for (std::string_view secret : kSecretOptionNames) {
    if (lower == secret) return true;
  }
  return false;
}

namespace {

bool IsRemoteSecret(std::string_view key) {
  const std::string lower = OptionName(key);
  return lower.rfind("s3_", 0) == 0 || lower.rfind("http_", 0) == 0;
}

}  // namespace

int CheckSecretsNotStored(int argc, const char* const* argv, char** err) {
  return Guarded(nullptr, [&]() -> int {
    if (argc < 3 || LowerAscii(argv[1]) == "temp") return SQLITE_OK;
    for (int i = 4; i < argc; ++i) {
      const std::string_view arg = argv[i];
      const std::string_view key = arg.substr(0, arg.find('='));
      if (!IsSecretOption(key)) continue;
      *err = SqliteStrdup(
          "parquet table '" + std::string(argv[2]) + "': option '" + OptionName(key) +
          "' holds a secret, and SQLite keeps a table's options in its database's schema, where "
          "anyone who can read the database file would find it: " +
          std::string(IsRemoteSecret(key) ? "register it with parquet_secret (or use the AWS environment "
                                            "variables or ~/.aws files) and leave it"
                                          : "register keys with parquet_add_key and leave them") +
          " out of the options, or create the table in temp "
          "(CREATE VIRTUAL TABLE temp." + std::string(argv[2]) + " USING parquet(...))");
      return SQLITE_ERROR;
    }
    return SQLITE_OK;
  });
}

}  // namespace pq::ext
