#include "ext/secret_options.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "ext/options.h"
#include "format/remote/remote_url.h"

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

// Query parameters that carry credentials: presigned S3 and Google Cloud Storage URLs, S3's
// legacy query authentication, Azure shared access signatures, and the usual token and key names.
constexpr std::string_view kCredentialParameters[] = {
    "x-amz-signature", "x-amz-credential", "x-amz-security-token", "awsaccesskeyid", "signature",
    "x-goog-signature", "x-goog-credential", "googleaccessid", "sig", "token", "access_token", "auth",
    "api_key", "apikey", "key", "password", "secret", "client_secret"};

// What in an http(s) URL of `text` (a module argument: a source, a comma list of them, or an option)
// is a credential: a password after the user name, or a query parameter of kCredentialParameters.
// Names it without its value; empty when none.
std::string UrlCredential(std::string_view text) {
  const std::string lower = LowerAscii(std::string(text));
  for (size_t at = lower.find("http"); at != std::string::npos; at = lower.find("http", at + 1)) {
    size_t start = at + 4;
    if (lower.compare(start, 1, "s") == 0) ++start;
    if (lower.compare(start, 3, "://") != 0) continue;
    start += 3;
    // A URL ends at a comma (the next file of a list) or a quote; a space may be part of it.
    size_t end = text.find_first_of(",'\"", start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view url = text.substr(start, end - start);
    // A user name alone may be a token (https://TOKEN@host/...), and the user part may be written
    // percent-encoded (bob%3Apassword@) or with an unencoded '/' or '?' in the password: whatever
    // DisplayUrl, which names the file everywhere, leaves out of the authority is taken for a secret.
    if (remote::DisplayUrl("http://" + std::string(url)) != "http://" + std::string(url.substr(0, url.find_first_of("?#")))) {
      return "a user name or password (user:password@)";
    }
    const size_t query = url.find('?');
    if (query == std::string_view::npos) continue;
    std::string_view rest = url.substr(query + 1);
    rest = rest.substr(0, rest.find('#'));
    // Query names as servers read them: percent-decoded (X%2DAmz%2DSignature), pairs split at '&'
    // and ';', spaces around a name and a PHP-style "[]" ignored.
    while (!rest.empty()) {
      const size_t next = rest.find_first_of("&;");
      const std::string_view pair = rest.substr(0, next);
      const std::string_view written = pair.substr(0, pair.find('='));
      std::string name = remote::UriDecode(written);
      std::replace(name.begin(), name.end(), '+', ' ');
      name = std::string(TrimSpace(name));
      if (name.ends_with("[]")) name.resize(name.size() - 2);
      for (std::string_view credential : kCredentialParameters) {
        if (LowerAscii(name) == credential) return "the query parameter '" + name + "'";
      }
      if (next == std::string_view::npos) break;
      rest = rest.substr(next + 1);
    }
  }
  return "";
}

}  // namespace

int CheckSecretsNotStored(int argc, const char* const* argv, char** err) {
  return Guarded(nullptr, [&]() -> int {
    if (argc < 3 || LowerAscii(argv[1]) == "temp") return SQLITE_OK;
    for (int i = 3; i < argc; ++i) {
      const std::string credential = UrlCredential(argv[i]);
      if (credential.empty()) continue;
      *err = SqliteStrdup(
          "parquet table '" + std::string(argv[2]) + "': a URL in its arguments holds " + credential +
          ", a secret, and SQLite keeps a table's arguments in its database's schema, where anyone who can "
          "read the database file would find it: give credentials with parquet_secret (http_bearer_token, "
          "http_headers, S3 keys) and leave them out of the URL, or create the table in temp "
          "(CREATE VIRTUAL TABLE temp." + std::string(argv[2]) + " USING parquet(...))");
      return SQLITE_ERROR;
    }
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
