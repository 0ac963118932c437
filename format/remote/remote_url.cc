#include "format/remote/remote_url.h"

#include <cctype>
#include <charconv>

#include "format/util/hex.h"

namespace pq::remote {

namespace {

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  }
  return true;
}

bool IsUnreserved(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

// Bytes a request line cannot carry as they are.
bool NeedsEncodingInUrl(unsigned char c) {
  return c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' ||
         c == '`' || c == '{' || c == '|' || c == '}';
}

Status Invalid(std::string_view location, const std::string& why) {
  return Status::InvalidArgument("'" + DisplayUrl(location) + "' is not a valid URL: " + why);
}

}  // namespace

bool IsRemoteLocation(std::string_view location) {
  return StartsWithNoCase(location, "http://") || StartsWithNoCase(location, "https://") ||
         StartsWithNoCase(location, "s3://");
}

std::string DisplayUrl(std::string_view location) {
  const size_t scheme_end = location.find("://");
  if (scheme_end == std::string_view::npos) return std::string(location);
  const bool s3 = StartsWithNoCase(location, "s3://");
  std::string_view rest = location.substr(scheme_end + 3);
  if (!s3) {
    // The user and password go, up to the '@' before the host. A password written with an unencoded
    // '/', '?' or '#' ("user:pa/ss@host") ends the authority early, at a "port" that is no number:
    // everything up to the last '@' goes then, since it may all be password.
    const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
    size_t at = authority.rfind('@');
    const size_t colon = authority.find(':');
    if (at == std::string_view::npos && colon != std::string_view::npos && !authority.starts_with('[')) {
      const std::string_view port = authority.substr(colon + 1);
      if (port.empty() || port.find_first_not_of("0123456789") != std::string_view::npos) at = rest.rfind('@');
    }
    if (at != std::string_view::npos) rest.remove_prefix(at + 1);
    // s3 keys may hold '?' and '#': only http(s) URLs have a query and a fragment.
    rest = rest.substr(0, rest.find_first_of("?#"));
  }
  return std::string(location.substr(0, scheme_end + 3)) + std::string(rest);
}

std::string UriEncode(std::string_view bytes, bool keep_slash) {
  std::string out;
  out.reserve(bytes.size());
  for (char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c) || (keep_slash && c == '/')) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kUpperHexDigits[c >> 4]);
      out.push_back(kUpperHexDigits[c & 15]);
    }
  }
  return out;
}

std::string UriDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && HexDigitValue(text[i + 1]) >= 0 &&
        HexDigitValue(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexDigitValue(text[i + 1]) * 16 + HexDigitValue(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

Result<RemoteUrl> ParseRemoteUrl(std::string_view location) {
  RemoteUrl url;
  std::string_view rest;
  if (StartsWithNoCase(location, "s3://")) {
    url.scheme = UrlScheme::kS3;
    rest = location.substr(5);
    const size_t slash = rest.find('/');
    url.bucket = std::string(rest.substr(0, slash));
    if (slash != std::string_view::npos) url.key = std::string(rest.substr(slash + 1));
    if (url.bucket.empty()) return Invalid(location, "no bucket after s3://");
    for (char c : url.bucket) {
      const auto u = static_cast<unsigned char>(c);
      if (!(std::isalnum(u) || c == '-' || c == '.' || c == '_')) {
        return Invalid(location, "the bucket name '" + url.bucket +
                                     "' may hold only letters, digits, '.', '-' and '_'");
      }
    }
    for (char c : url.key) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        return Invalid(location, "the key holds a control character");
      }
    }
    return url;
  }
  if (StartsWithNoCase(location, "https://")) {
    url.scheme = UrlScheme::kHttps;
    rest = location.substr(8);
  } else if (StartsWithNoCase(location, "http://")) {
    url.scheme = UrlScheme::kHttp;
    rest = location.substr(7);
  } else {
    return Invalid(location, "it does not start with http://, https:// or s3://");
  }
  std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  const size_t at = authority.rfind('@');
  std::string_view hostport = at == std::string_view::npos ? authority : authority.substr(at + 1);
  std::string_view port_text;
  if (!hostport.empty() && hostport[0] == '[') {
    const size_t close = hostport.find(']');
    if (close == std::string_view::npos) return Invalid(location, "an IPv6 address without ']'");
    url.host = std::string(hostport.substr(0, close + 1));
    std::string_view after = hostport.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return Invalid(location, "text after the IPv6 address");
      port_text = after.substr(1);
    }
  } else {
    const size_t colon = hostport.rfind(':');
    url.host = std::string(hostport.substr(0, colon));
    if (colon != std::string_view::npos) port_text = hostport.substr(colon + 1);
  }
  if (url.host.empty()) return Invalid(location, "no host");
  for (char c : url.host) {
    const auto u = static_cast<unsigned char>(c);
    if (!(std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '[' || c == ']' || c == ':')) {
      return Invalid(location, "the host holds '" + std::string(1, c) + "'");
    }
  }
  if (!port_text.empty()) {
    int port = 0;
    auto [p, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || p != port_text.data() + port_text.size() || port < 1 || port > 65535) {
      return Invalid(location, "the port is not a number from 1 to 65535");
    }
    url.port = port;
  }
  // What follows the authority, minus the fragment (never sent), with unsendable bytes encoded.
  std::string_view tail = rest.substr(authority.size());
  tail = tail.substr(0, tail.find('#'));
  url.url = std::string(location.substr(0, location.size() - rest.size())) + std::string(authority);
  if (tail.empty() || tail[0] != '/') url.url.push_back('/');
  for (char ch : tail) {
    const auto c = static_cast<unsigned char>(ch);
    if (NeedsEncodingInUrl(c)) {
      url.url.push_back('%');
      url.url.push_back(kUpperHexDigits[c >> 4]);
      url.url.push_back(kUpperHexDigits[c & 15]);
    } else {
      url.url.push_back(ch);
    }
  }
  return url;
}

}  // namespace pq::remote
