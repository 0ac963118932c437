#include "format/remote/s3_config.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace pq::remote {

namespace {

using Section = std::map<std::string, std::string>;
using IniFile = std::map<std::string, Section>;

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// An AWS shared file: [section] headers, key = value lines, '#' and ';' comment lines. An indented
// line under a key with an empty value ("s3 =" then "  endpoint_url = ...") is stored as
// "s3.endpoint_url". A missing file is empty.
Result<IniFile> ReadIniFile(const std::string& path, bool* exists) {
  IniFile ini;
  std::ifstream in(path);
  *exists = in.is_open();
  if (!in.is_open()) return ini;
  std::string line, section, parent;
  bool have_section = false;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (number > 100000) return Status::IOError("'" + path + "' has more than 100000 lines");
    const bool indented = !line.empty() && (line[0] == ' ' || line[0] == '\t');
    const std::string t = Trim(line);
    if (t.empty() || t[0] == '#' || t[0] == ';') continue;
    if (t.front() == '[') {
      if (t.back() != ']') return Status::InvalidArgument("'" + path + "' line " + std::to_string(number) +
                                                          ": a section header without ']'");
      section = Trim(std::string_view(t).substr(1, t.size() - 2));
      have_section = true;
      ini[section];
      parent.clear();
      continue;
    }
    const size_t eq = t.find('=');
    if (!have_section || eq == std::string::npos) {
      // Not a setting we can read: no message holds the line, which may be a key.
      return Status::InvalidArgument("'" + path + "' line " + std::to_string(number) +
                                     " is neither a [section] nor a name = value setting");
    }
    const std::string name = Lower(Trim(std::string_view(t).substr(0, eq)));
    const std::string value = Trim(std::string_view(t).substr(eq + 1));
    if (indented && !parent.empty()) {
      ini[section][parent + "." + name] = value;
      continue;
    }
    parent = value.empty() ? name : "";
    ini[section][name] = value;
  }
  return ini;
}

std::optional<std::string> Get(const Section* s, const std::string& name) {
  if (s == nullptr) return std::nullopt;
  auto it = s->find(name);
  if (it == s->end() || it->second.empty()) return std::nullopt;
  return it->second;
}

std::optional<std::string> NonEmpty(std::optional<std::string> v) {
  if (v.has_value() && v->empty()) return std::nullopt;
  return v;
}

Result<bool> ParseBool(std::string_view name, std::string_view value) {
  const std::string v = Lower(value);
  if (v == "1" || v == "true" || v == "on" || v == "yes") return true;
  if (v == "0" || v == "false" || v == "off" || v == "no") return false;
  return Status::InvalidArgument(std::string(name) + " must be true or false, not '" + std::string(value) + "'");
}

}  // namespace

bool S3Options::IsOption(std::string_view name) {
  return name == "s3_region" || name == "s3_endpoint" || name == "s3_url_style" || name == "s3_use_ssl" ||
         IsSecret(name);
}

bool S3Options::IsSecret(std::string_view name) {
  return name == "s3_access_key_id" || name == "s3_secret_access_key" || name == "s3_session_token";
}

Status S3Options::Set(std::string_view name, std::string_view value) {
  if (name == "s3_region") {
    region = std::string(value);
  } else if (name == "s3_endpoint") {
    endpoint = std::string(value);
  } else if (name == "s3_access_key_id") {
    access_key_id = std::string(value);
  } else if (name == "s3_secret_access_key") {
    secret_access_key = std::string(value);
  } else if (name == "s3_session_token") {
    session_token = std::string(value);
  } else if (name == "s3_url_style") {
    const std::string v = Lower(value);
    if (v == "path") {
      url_style = S3UrlStyle::kPath;
    } else if (v == "vhost") {
      url_style = S3UrlStyle::kVirtualHost;
    } else {
      return Status::InvalidArgument("s3_url_style must be 'path' or 'vhost', not '" + std::string(value) + "'");
    }
  } else if (name == "s3_use_ssl") {
    PQ_ASSIGN_OR_RETURN(use_ssl, ParseBool(name, value));
  } else {
    return Status::InvalidArgument("unknown S3 option '" + std::string(name) + "'");
  }
  return Status::OK();
}

EnvironmentLookup ProcessEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
}

Result<S3Config> ResolveS3Config(const S3Options& options, const EnvironmentLookup& env) {
  S3Config config;
  // The shared files and the profile.
  const std::optional<std::string> home = NonEmpty(env("HOME"));
  const std::optional<std::string> profile_env = NonEmpty(env("AWS_PROFILE"));
  const std::string profile = profile_env.value_or("default");
  std::string credentials_path = NonEmpty(env("AWS_SHARED_CREDENTIALS_FILE")).value_or("");
  std::string config_path = NonEmpty(env("AWS_CONFIG_FILE")).value_or("");
  if (credentials_path.empty() && home) credentials_path = *home + "/.aws/credentials";
  if (config_path.empty() && home) config_path = *home + "/.aws/config";
  IniFile credentials_file, config_file;
  bool credentials_exists = false, config_exists = false;
  if (!credentials_path.empty()) {
    PQ_ASSIGN_OR_RETURN(credentials_file, ReadIniFile(credentials_path, &credentials_exists));
  }
  if (!config_path.empty()) {
    PQ_ASSIGN_OR_RETURN(config_file, ReadIniFile(config_path, &config_exists));
  }
  const Section* cred_section = nullptr;
  if (auto it = credentials_file.find(profile); it != credentials_file.end()) cred_section = &it->second;
  const Section* conf_section = nullptr;
  for (const std::string& name : {"profile " + profile, profile == "default" ? profile : std::string()}) {
    if (name.empty()) continue;
    if (auto it = config_file.find(name); it != config_file.end()) conf_section = &it->second;
  }
  if (profile_env && cred_section == nullptr && conf_section == nullptr) {
    return Status::InvalidArgument("AWS_PROFILE names the profile '" + profile + "', which neither '" +
                                   credentials_path + "' nor '" + config_path + "' holds");
  }

  // Keys.
  if (options.access_key_id || options.secret_access_key) {
    if (!options.access_key_id || !options.secret_access_key) {
      return Status::InvalidArgument("s3_access_key_id and s3_secret_access_key must be given together");
    }
    config.credentials = {*options.access_key_id, *options.secret_access_key, options.session_token.value_or("")};
    config.credentials_source = "options";
  } else if (auto id = NonEmpty(env("AWS_ACCESS_KEY_ID")); id || NonEmpty(env("AWS_SECRET_ACCESS_KEY"))) {
    auto secret = NonEmpty(env("AWS_SECRET_ACCESS_KEY"));
    if (!id || !secret) {
      return Status::InvalidArgument("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together");
    }
    config.credentials = {*id, *secret, options.session_token.value_or(NonEmpty(env("AWS_SESSION_TOKEN")).value_or(""))};
    config.credentials_source = "environment";
  } else {
    for (auto [section, path] : {std::pair{cred_section, credentials_path}, std::pair{conf_section, config_path}}) {
      auto file_id = Get(section, "aws_access_key_id");
      auto file_secret = Get(section, "aws_secret_access_key");
      if (!file_id && !file_secret) continue;
      if (!file_id || !file_secret) {
        return Status::InvalidArgument("the profile '" + profile + "' of '" + path +
                                       "' has only one of aws_access_key_id and aws_secret_access_key");
      }
      config.credentials = {*file_id, *file_secret,
                            options.session_token.value_or(Get(section, "aws_session_token").value_or(""))};
      config.credentials_source = "profile '" + profile + "' of '" + path + "'";
      break;
    }
    if (config.credentials.anonymous()) config.credentials_source = "none";
  }

  // Region.
  config.region = NonEmpty(options.region)
                      .value_or(NonEmpty(env("AWS_REGION"))
                                    .value_or(NonEmpty(env("AWS_DEFAULT_REGION"))
                                                  .value_or(Get(conf_section, "region").value_or("us-east-1"))));

  // Endpoint, scheme and URL style.
  std::optional<std::string> endpoint = NonEmpty(options.endpoint);
  if (!endpoint) endpoint = NonEmpty(env("AWS_ENDPOINT_URL_S3"));
  if (!endpoint) endpoint = NonEmpty(env("AWS_ENDPOINT_URL"));
  if (!endpoint) endpoint = Get(conf_section, "s3.endpoint_url");
  if (!endpoint) endpoint = Get(conf_section, "endpoint_url");
  std::optional<bool> scheme_ssl;
  if (endpoint) {
    std::string e = *endpoint;
    const std::string lower = Lower(e);
    if (lower.rfind("https://", 0) == 0) {
      scheme_ssl = true;
      e = e.substr(8);
    } else if (lower.rfind("http://", 0) == 0) {
      scheme_ssl = false;
      e = e.substr(7);
    } else if (lower.find("://") != std::string::npos) {
      return Status::InvalidArgument("the S3 endpoint '" + *endpoint + "' must be http://, https:// or a host name");
    }
    while (!e.empty() && e.back() == '/') e.pop_back();
    if (e.empty() || e.find_first_of("/?# ") != std::string::npos) {
      return Status::InvalidArgument("the S3 endpoint '" + *endpoint + "' must be a host with an optional port");
    }
    config.endpoint = e;
  } else {
    config.endpoint = "s3." + config.region + ".amazonaws.com";
  }
  config.use_ssl = options.use_ssl.value_or(scheme_ssl.value_or(true));
  config.url_style = options.url_style.value_or(endpoint ? S3UrlStyle::kPath : S3UrlStyle::kVirtualHost);
  return config;
}

}  // namespace pq::remote
