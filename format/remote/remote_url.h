// RemoteUrl: an http://, https:// or s3:// location taken apart, and the text forms of it that
// requests and messages need. An s3:// URI names a bucket and a key, written as they are stored (no
// percent-decoding: a key may hold any character but '/' as a separator, '%' included). An http(s)
// URL is kept as written, except that bytes a request line cannot carry (spaces, control
// characters, non-ASCII) are percent-encoded. DisplayUrl() is the only form that may reach a
// message: it drops the user and password, the query string (signed URLs carry their signature
// there) and the fragment.
#pragma once

#include <string>
#include <string_view>

#include "format/util/status.h"

namespace pq::remote {

enum class UrlScheme { kHttp, kHttps, kS3 };

// True when `location` starts with http://, https:// or s3:// (scheme in any case).
bool IsRemoteLocation(std::string_view location);

struct RemoteUrl {
  UrlScheme scheme = UrlScheme::kHttp;
  // http(s): the URL to send, with unsendable bytes percent-encoded (user and password kept).
  std::string url;
  // http(s): host name, or an IPv6 literal with its brackets; s3: empty.
  std::string host;
  // http(s): the port written in the URL, or 0 for the scheme's default.
  int port = 0;
  // s3: the bucket and the key ("" for s3://bucket or s3://bucket/).
  std::string bucket;
  std::string key;
};

// InvalidArgument naming the (displayable) location when it is not a well-formed remote location.
Result<RemoteUrl> ParseRemoteUrl(std::string_view location);

// The location with user, password, query string and fragment removed: safe for messages and logs.
std::string DisplayUrl(std::string_view location);

// Percent-encodes every byte but RFC 3986's unreserved characters (A-Z a-z 0-9 - . _ ~), and '/'
// too when `keep_slash`. Upper-case hex, as Signature Version 4 wants.
std::string UriEncode(std::string_view bytes, bool keep_slash);

// Decodes %XX sequences (a malformed one is kept as written).
std::string UriDecode(std::string_view text);

}  // namespace pq::remote
