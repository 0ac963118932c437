#include "format/remote/remote_access.h"

#include <algorithm>
#include <charconv>

#include "format/remote/key_glob.h"
#include "format/remote/remote_url.h"

namespace pq::remote {

namespace {

constexpr std::string_view kPartSize = "s3_part_size";
constexpr int64_t kMaxPartSizeMiB = 5 << 10;  // S3's largest part: 5 GiB

// Applies `settings` to the three option sets; InvalidArgument for a bad one.
Status Apply(const std::vector<Setting>& settings, HttpOptions* http, S3Options* s3, S3OutputOptions* output) {
  for (const auto& [name, value] : settings) {
    if (HttpOptions::IsOption(name)) {
      PQ_RETURN_IF_ERROR(http->Set(name, value));
    } else if (S3Options::IsOption(name)) {
      PQ_RETURN_IF_ERROR(s3->Set(name, value));
    } else if (name == kPartSize) {
      int64_t mib = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), mib);
      if (value.empty() || ec != std::errc() || p != value.data() + value.size() || mib < 1 ||
          mib > kMaxPartSizeMiB) {
        return Status::InvalidArgument("s3_part_size must be a whole number of MiB from 1 to " +
                                       std::to_string(kMaxPartSizeMiB) + ", not '" + value + "'");
      }
      output->part_size = mib << 20;
    } else {
      return Status::InvalidArgument("unknown remote setting '" + name + "'");
    }
  }
  return Status::OK();
}

}  // namespace

bool IsRemoteSetting(std::string_view name) {
  return HttpOptions::IsOption(name) || S3Options::IsOption(name) || name == kPartSize;
}

bool IsSecretSetting(std::string_view name) { return HttpOptions::IsSecret(name) || S3Options::IsSecret(name); }

Status CheckSettings(const std::vector<Setting>& settings) {
  HttpOptions http;
  S3Options s3;
  S3OutputOptions output;
  return Apply(settings, &http, &s3, &output);
}

void SettingsRegistry::Register(ScopedSettings entry) {
  std::lock_guard<std::mutex> lock(mu_);
  ++generation_;
  for (auto& e : entries_) {
    if (e.first.scope == entry.scope) {
      e = {std::move(entry), generation_};
      return;
    }
  }
  entries_.emplace_back(std::move(entry), generation_);
}

bool SettingsRegistry::Unregister(const std::string& scope) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->first.scope == scope) {
      entries_.erase(it);
      return true;
    }
  }
  return false;
}

std::optional<std::pair<ScopedSettings, uint64_t>> SettingsRegistry::Find(std::string_view location) const {
  std::lock_guard<std::mutex> lock(mu_);
  const std::pair<ScopedSettings, uint64_t>* best = nullptr;
  for (const auto& e : entries_) {
    if (location.substr(0, e.first.scope.size()) != e.first.scope) continue;
    if (best == nullptr || e.first.scope.size() > best->first.scope.size()) best = &e;
  }
  if (best == nullptr) return std::nullopt;
  return *best;
}

size_t SettingsRegistry::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

RemoteAccess::RemoteAccess(std::shared_ptr<const SettingsRegistry> registered, std::vector<Setting> settings,
                           EnvironmentLookup environment, std::function<bool()> interrupted)
    : registered_(std::move(registered)),
      settings_(std::move(settings)),
      environment_(std::move(environment)),
      interrupted_(std::move(interrupted)) {}

Result<RemoteAccess::Clients*> RemoteAccess::ClientsFor(std::string_view location, bool s3) {
  // The registered entry with the longest scope that starts the location.
  std::optional<std::pair<ScopedSettings, uint64_t>> found;
  if (registered_) found = registered_->Find(location);
  const ScopedSettings* scoped = found ? &found->first : nullptr;
  const std::string scope = scoped ? scoped->scope : std::string();
  const uint64_t generation = found ? found->second : 0;
  std::lock_guard<std::mutex> lock(mu_);
  Clients* clients = nullptr;
  for (const auto& c : clients_) {
    if (c->scope == scope && c->generation == generation) clients = c.get();
  }
  HttpOptions http;
  S3Options s3_options;
  S3OutputOptions output;
  if (clients == nullptr || (s3 && clients->s3 == nullptr)) {
    if (scoped) PQ_RETURN_IF_ERROR(Apply(scoped->settings, &http, &s3_options, &output));
    PQ_RETURN_IF_ERROR(Apply(settings_, &http, &s3_options, &output));
    http.interrupted = interrupted_;
  }
  if (clients == nullptr) {
    auto made = std::make_unique<Clients>();
    made->scope = scope;
    made->generation = generation;
    made->http = std::make_shared<HttpClient>(http);
    made->output = output;
    clients = made.get();
    clients_.push_back(std::move(made));
  }
  if (s3 && clients->s3 == nullptr) {
    PQ_ASSIGN_OR_RETURN(S3Config config, ResolveS3Config(s3_options, environment_));
    // S3 signs its own Authorization header: no bearer token, no extra headers.
    HttpOptions plain = http;
    plain.bearer_token.clear();
    plain.extra_headers.clear();
    clients->s3 = std::make_shared<S3Client>(std::move(config), std::make_shared<HttpClient>(plain));
  }
  return clients;
}

Result<std::unique_ptr<RemoteFile>> RemoteAccess::Open(std::string_view location, RemoteFileOptions options) {
  PQ_ASSIGN_OR_RETURN(RemoteUrl url, ParseRemoteUrl(location));
  const bool s3 = url.scheme == UrlScheme::kS3;
  PQ_ASSIGN_OR_RETURN(Clients * clients, ClientsFor(location, s3));
  if (!s3) {
    // Named as written (a space stays a space), not as sent; DisplayUrl drops user, password and
    // the query string, which may carry a signature, since the name goes into every message.
    RemoteLocation http = HttpLocation(clients->http, url.url);
    http.display_name = DisplayUrl(location);
    return RemoteFile::Open(std::move(http), options);
  }
  if (url.key.empty() || url.key.back() == '/') {
    return Status::InvalidArgument("'" + DisplayUrl(location) + "' names no object (s3://bucket/key)");
  }
  return RemoteFile::Open(S3Location(clients->s3, url.bucket, url.key), options);
}

Result<std::vector<std::string>> RemoteAccess::ListGlob(std::string_view pattern) {
  PQ_ASSIGN_OR_RETURN(RemoteUrl url, ParseRemoteUrl(pattern));
  if (url.scheme != UrlScheme::kS3) {
    return Status::InvalidArgument("'" + DisplayUrl(pattern) + "': only s3:// locations can be listed");
  }
  PQ_ASSIGN_OR_RETURN(Clients * clients, ClientsFor(pattern, true));
  PQ_ASSIGN_OR_RETURN(std::vector<S3ObjectInfo> objects, clients->s3->ListGlob(url.bucket, url.key));
  std::vector<std::string> out;
  out.reserve(objects.size());
  for (const S3ObjectInfo& o : objects) out.push_back("s3://" + url.bucket + "/" + o.key);
  std::sort(out.begin(), out.end());
  return out;
}

Result<bool> RemoteAccess::AnyObjectUnder(std::string_view location) {
  PQ_ASSIGN_OR_RETURN(RemoteUrl url, ParseRemoteUrl(location));
  if (url.scheme != UrlScheme::kS3) {
    return Status::InvalidArgument("'" + DisplayUrl(location) + "': only s3:// locations can be listed");
  }
  PQ_ASSIGN_OR_RETURN(Clients * clients, ClientsFor(location, true));
  return clients->s3->AnyObject(url.bucket, url.key);
}

Result<S3Presence> RemoteAccess::Presence(std::string_view location) {
  PQ_ASSIGN_OR_RETURN(RemoteUrl url, ParseRemoteUrl(location));
  if (url.scheme != UrlScheme::kS3 || url.key.empty()) {
    return Status::InvalidArgument("'" + DisplayUrl(location) + "' names no S3 object (s3://bucket/key)");
  }
  PQ_ASSIGN_OR_RETURN(Clients * clients, ClientsFor(location, true));
  return clients->s3->Presence(url.bucket, url.key);
}

Result<std::unique_ptr<S3OutputFile>> RemoteAccess::CreateOutput(std::string_view location) {
  PQ_ASSIGN_OR_RETURN(RemoteUrl url, ParseRemoteUrl(location));
  if (url.scheme != UrlScheme::kS3) {
    return Status::InvalidArgument("'" + DisplayUrl(location) + "': only s3:// locations can be written");
  }
  if (url.key.empty() || url.key.back() == '/') {
    return Status::InvalidArgument("'" + DisplayUrl(location) + "' names no object (s3://bucket/key)");
  }
  PQ_ASSIGN_OR_RETURN(Clients * clients, ClientsFor(location, true));
  return S3OutputFile::Create(clients->s3, url.bucket, url.key, clients->output);
}

}  // namespace pq::remote
