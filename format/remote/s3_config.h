// S3Config: where an S3 request goes and with which keys, resolved per setting the way AWS tools
// resolve it (options, then the environment, then the profile's files, then defaults), so a user's
// existing AWS setup works unchanged. Option names are DuckDB's settings. No message here ever
// holds a key: errors name the setting, the file and the profile only.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "format/remote/sigv4.h"
#include "format/util/status.h"

namespace pq::remote {

enum class S3UrlStyle { kPath, kVirtualHost };

// What the user set through options; unset settings come from the environment and the files.
struct S3Options {
  std::optional<std::string> region;
  std::optional<std::string> endpoint;
  std::optional<std::string> access_key_id;
  std::optional<std::string> secret_access_key;
  std::optional<std::string> session_token;
  std::optional<S3UrlStyle> url_style;
  std::optional<bool> use_ssl;

  // True for the names Set() takes: s3_region, s3_endpoint, s3_access_key_id,
  // s3_secret_access_key, s3_session_token, s3_url_style, s3_use_ssl.
  static bool IsOption(std::string_view name);
  // True for the options that hold a secret (the keys and the session token).
  static bool IsSecret(std::string_view name);
  // Sets one option; InvalidArgument for an unknown name or a bad value (the value is named only
  // for settings that are not secrets).
  Status Set(std::string_view name, std::string_view value);
};

struct S3Config {
  std::string region;
  // Scheme-less host[:port] of the endpoint, e.g. "s3.us-east-1.amazonaws.com" or "127.0.0.1:9000".
  std::string endpoint;
  bool use_ssl = true;
  S3UrlStyle url_style = S3UrlStyle::kVirtualHost;
  AwsCredentials credentials;  // anonymous() when none were found
  // Where the keys came from ("options", "environment", "profile 'x' of FILE", "none"): for
  // messages.
  std::string credentials_source;
};

// Looks an environment variable up; nullopt when it is not set.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string&)>;
// The process's environment (getenv).
EnvironmentLookup ProcessEnvironment();

// Resolves every setting, highest precedence first:
//   keys:     options (s3_access_key_id + s3_secret_access_key [+ s3_session_token]) >
//             environment (AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY [+ AWS_SESSION_TOKEN]) > the
//             profile in the credentials file > the profile in the config file > none (anonymous
//             requests, unsigned)
//   region:   s3_region > AWS_REGION > AWS_DEFAULT_REGION > the profile's `region` > us-east-1
//   endpoint: s3_endpoint > AWS_ENDPOINT_URL_S3 > AWS_ENDPOINT_URL > the profile's `endpoint_url` >
//             AWS (s3.<region>.amazonaws.com)
//   https:    s3_use_ssl > the endpoint's scheme when it has one > on
//   style:    s3_url_style > path for an endpoint that is given, vhost for AWS
// The profile is AWS_PROFILE or "default"; the files are AWS_SHARED_CREDENTIALS_FILE /
// AWS_CONFIG_FILE or ~/.aws/credentials / ~/.aws/config ([name] and [profile name] sections).
// InvalidArgument for half a key pair, a profile that AWS_PROFILE names but no file holds, or a bad
// endpoint; IOError for an unreadable file.
Result<S3Config> ResolveS3Config(const S3Options& options, const EnvironmentLookup& env);

}  // namespace pq::remote
