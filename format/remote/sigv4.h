// AWS Signature Version 4: the signature S3 (and every AWS service) checks on each request. The
// canonical request (method, URI, sorted query, the signed headers lower-cased, trimmed and sorted,
// the payload hash), its SHA-256 in the string to sign with the date and the scope
// (date/region/service/aws4_request), and an HMAC-SHA256 chain from "AWS4" + secret key down to the
// signature, as AWS's "Signature Version 4 signing process" documents it. Each step is its own
// function so tests can hold them against AWS's published examples. S3 paths are encoded once and
// never normalized (a key may hold "//" or "."). No function here logs or returns the secret key.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "format/util/byte_reader.h"

namespace pq::remote {

struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty: none (long-term keys)
  bool anonymous() const { return access_key_id.empty(); }
};

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct SigV4Request {
  std::string method;
  // The path as sent: already percent-encoded (UriEncode(key, keep_slash=true) for S3).
  std::string canonical_uri;
  // Query parameters, decoded; encoded and sorted by CanonicalQuery().
  std::vector<std::pair<std::string, std::string>> query;
  // Every header to sign (host and x-amz-date among them), in any case and order.
  HeaderList headers;
  // Hex SHA-256 of the body, or "UNSIGNED-PAYLOAD".
  std::string payload_hash;
};

struct SigV4Scope {
  std::string amz_date;  // YYYYMMDD'T'HHMMSS'Z' (UTC), the request's x-amz-date
  std::string region;
  std::string service;   // "s3"
};

struct SigV4Signature {
  std::string canonical_request;
  std::string string_to_sign;
  std::string signature;      // 64 hex digits
  std::string signed_headers; // "host;x-amz-date"
  std::string authorization;  // the Authorization header's value
};

// Lower-case hex SHA-256 of `data`.
std::string Sha256Hex(ByteSpan data);
inline std::string Sha256Hex(std::string_view data) { return Sha256Hex(AsBytes(data)); }
// The hex SHA-256 of nothing: the payload hash of a request without a body.
inline constexpr std::string_view kEmptyPayloadHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
inline constexpr std::string_view kUnsignedPayload = "UNSIGNED-PAYLOAD";

// "name=value&..." with names and values encoded as UriEncode(.., false), sorted by name then value.
std::string CanonicalQuery(const std::vector<std::pair<std::string, std::string>>& query);

// The whole signing process for `request` with `credentials` (which must not be anonymous).
SigV4Signature SignV4(const SigV4Request& request, const AwsCredentials& credentials,
                      const SigV4Scope& scope);

// The x-amz-date text of a Unix time (seconds, UTC).
std::string AmzDate(int64_t unix_seconds);

}  // namespace pq::remote
