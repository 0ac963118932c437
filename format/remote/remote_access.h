// RemoteAccess: how one table (or one function call) reaches remote objects: the clients, made once
// and reused, and the settings each location is reached with.
//
// Settings are name=value pairs spelled as options spell them: the HttpOptions ones (http_retries,
// http_timeout, http_retry_wait_ms, http_retry_backoff, http_bearer_token, http_headers,
// http_ca_file), the S3Options ones (s3_region, s3_endpoint, s3_access_key_id,
// s3_secret_access_key, s3_session_token, s3_url_style, s3_use_ssl) and s3_part_size (MiB of a
// multipart upload's parts). For one location they apply in this order, later ones winning: the
// defaults, then the one registered entry (SettingsRegistry, a connection's) whose scope is the
// longest prefix of the location, then the table's own. S3 settings not given come from the
// AWS environment and files (s3_config.h). A bearer token and extra headers go only to http(s)
// locations, never to S3 (whose Authorization header is its signature).
//
// One HttpClient (and, for s3://, one S3Client) is made per registered entry in use and kept, so
// connections are reused from one scan to the next; an entry registered again gets new clients.
// Everything here is thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "format/remote/http_client.h"
#include "format/remote/remote_file.h"
#include "format/remote/s3_client.h"
#include "format/remote/s3_config.h"
#include "format/remote/s3_output_file.h"

namespace pq::remote {

// One setting: (name, value), the name lower-case.
using Setting = std::pair<std::string, std::string>;

// Settings registered for the locations whose text starts with `scope` ("s3://bucket/",
// "https://host/"; "" for every location).
struct ScopedSettings {
  std::string scope;
  std::vector<Setting> settings;
};

// The settings registered on a connection, by scope. Registering a scope again replaces its entry.
class SettingsRegistry {
 public:
  void Register(ScopedSettings entry);
  // Removes the entry of `scope`; false when there is none.
  bool Unregister(const std::string& scope);
  // The entry whose scope is the longest prefix of `location`, and its generation (a number that
  // changes whenever an entry is registered); nullopt when none.
  std::optional<std::pair<ScopedSettings, uint64_t>> Find(std::string_view location) const;
  size_t size() const;

 private:
  mutable std::mutex mu_;
  std::vector<std::pair<ScopedSettings, uint64_t>> entries_;
  uint64_t generation_ = 0;
};

// True for the setting names above.
bool IsRemoteSetting(std::string_view name);
// True for the settings that hold a secret: s3_access_key_id, s3_secret_access_key,
// s3_session_token, http_bearer_token, http_headers (headers carry API keys).
bool IsSecretSetting(std::string_view name);
// Checks every setting's name and value; InvalidArgument naming the setting (and the value, unless
// it is a secret) otherwise.
Status CheckSettings(const std::vector<Setting>& settings);

class RemoteAccess {
 public:
  // `interrupted` (may be empty) is polled while requests wait; true stops them.
  // `registered` may be null (none). The table's `settings` must have passed CheckSettings.
  RemoteAccess(std::shared_ptr<const SettingsRegistry> registered, std::vector<Setting> settings,
               EnvironmentLookup environment = ProcessEnvironment(), std::function<bool()> interrupted = {});

  // Opens the object `location` names (an http(s) URL or s3://bucket/key): one request. The file's
  // display_name() is DisplayUrl(location) (the URL as written, without user, password, query and
  // fragment), or s3://bucket/key.
  Result<std::unique_ptr<RemoteFile>> Open(std::string_view location, RemoteFileOptions options = {});
  // The objects whose keys match the glob of `pattern` (s3://bucket/glob; key_glob.h), as
  // "s3://bucket/key" in key order; empty when none.
  Result<std::vector<std::string>> ListGlob(std::string_view pattern);
  // Whether any object's key starts with the key of `location` (s3:// only).
  Result<bool> AnyObjectUnder(std::string_view location);
  // Whether an object is at `location` (s3:// only; S3Client::Presence).
  Result<S3Presence> Presence(std::string_view location);
  // A new object at `location` (s3:// only), written by S3OutputFile.
  Result<std::unique_ptr<S3OutputFile>> CreateOutput(std::string_view location);

 private:
  // The clients of one registered entry (or of none).
  struct Clients {
    std::string scope;
    uint64_t generation = 0;
    std::shared_ptr<HttpClient> http;  // for http(s) locations: with the bearer token and headers
    std::shared_ptr<S3Client> s3;      // for s3:// locations (its own HttpClient), made on first use
    S3OutputOptions output;
  };
  // The clients for `location` (made on first use), or the error of its settings.
  Result<Clients*> ClientsFor(std::string_view location, bool s3);

  std::shared_ptr<const SettingsRegistry> registered_;
  std::vector<Setting> settings_;
  EnvironmentLookup environment_;
  std::function<bool()> interrupted_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Clients>> clients_;
};

}  // namespace pq::remote
