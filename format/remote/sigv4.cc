#include "format/remote/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cctype>
#include <ctime>

#include "format/remote/remote_url.h"
#include "format/util/hex.h"

namespace pq::remote {

namespace {

using Digest = std::string;  // 32 raw bytes

std::string LowerHex(std::string_view raw) {
  std::string out;
  out.reserve(raw.size() * 2);
  for (char ch : raw) {
    const auto c = static_cast<unsigned char>(ch);
    out.push_back(kLowerHexDigits[c >> 4]);
    out.push_back(kLowerHexDigits[c & 15]);
  }
  return out;
}

Digest HmacSha256(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &length);
  return Digest(reinterpret_cast<const char*>(out), length);
}

std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Trimmed, with each run of spaces and tabs made one space.
std::string CanonicalHeaderValue(std::string_view value) {
  std::string out;
  bool space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::string Sha256Hex(ByteSpan data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), out, &length, EVP_sha256(), nullptr);
  return LowerHex(std::string_view(reinterpret_cast<const char*>(out), length));
}

std::string CanonicalQuery(const std::vector<std::pair<std::string, std::string>>& query) {
  std::vector<std::pair<std::string, std::string>> encoded;
  encoded.reserve(query.size());
  for (const auto& [name, value] : query) {
    encoded.emplace_back(UriEncode(name, false), UriEncode(value, false));
  }
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [name, value] : encoded) {
    if (!out.empty()) out.push_back('&');
    out += name;
    out.push_back('=');
    out += value;
  }
  return out;
}

SigV4Signature SignV4(const SigV4Request& request, const AwsCredentials& credentials,
                      const SigV4Scope& scope) {
  // Headers: lower-case names, values of repeated names joined by ',', sorted by name.
  std::vector<std::pair<std::string, std::string>> headers;
  for (const auto& [name, value] : request.headers) {
    std::string lower = LowerAscii(name);
    std::string canonical = CanonicalHeaderValue(value);
    auto same = std::find_if(headers.begin(), headers.end(),
                             [&](const auto& h) { return h.first == lower; });
    if (same != headers.end()) {
      same->second += "," + canonical;
    } else {
      headers.emplace_back(std::move(lower), std::move(canonical));
    }
  }
  std::sort(headers.begin(), headers.end());
  SigV4Signature out;
  std::string canonical_headers;
  for (const auto& [name, value] : headers) {
    canonical_headers += name + ":" + value + "\n";
    if (!out.signed_headers.empty()) out.signed_headers.push_back(';');
    out.signed_headers += name;
  }
  out.canonical_request = request.method + "\n" + request.canonical_uri + "\n" +
                          CanonicalQuery(request.query) + "\n" + canonical_headers + "\n" +
                          out.signed_headers + "\n" + request.payload_hash;
  const std::string date = scope.amz_date.substr(0, 8);
  const std::string credential_scope = date + "/" + scope.region + "/" + scope.service + "/aws4_request";
  out.string_to_sign = "AWS4-HMAC-SHA256\n" + scope.amz_date + "\n" + credential_scope + "\n" +
                       Sha256Hex(out.canonical_request);
  Digest key = HmacSha256("AWS4" + credentials.secret_access_key, date);
  key = HmacSha256(key, scope.region);
  key = HmacSha256(key, scope.service);
  key = HmacSha256(key, "aws4_request");
  out.signature = LowerHex(HmacSha256(key, out.string_to_sign));
  out.authorization = "AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id + "/" + credential_scope +
                      ",SignedHeaders=" + out.signed_headers + ",Signature=" + out.signature;
  return out;
}

std::string AmzDate(int64_t unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y%m%dT%H%M%SZ", &tm);
  return text;
}

}  // namespace pq::remote
