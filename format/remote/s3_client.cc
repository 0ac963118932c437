#include "format/remote/s3_client.h"

#include <charconv>
#include <chrono>
#include <set>

#include "format/remote/key_glob.h"
#include "format/remote/remote_url.h"
#include "format/remote/server_text.h"
#include "format/remote/xml_reader.h"

namespace pq::remote {

namespace {

std::string S3Name(const std::string& bucket, const std::string& key) {
  return "s3://" + bucket + "/" + key;
}

std::string XmlEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

}  // namespace

S3Client::S3Client(S3Config config, std::shared_ptr<HttpClient> http)
    : config_(std::move(config)), http_(std::move(http)) {}

std::string S3Client::ObjectUrl(const std::string& bucket, const std::string& key) const {
  const std::string scheme = config_.use_ssl ? "https://" : "http://";
  if (config_.url_style == S3UrlStyle::kVirtualHost) {
    return scheme + bucket + "." + config_.endpoint + "/" + UriEncode(key, true);
  }
  return scheme + config_.endpoint + "/" + bucket + (key.empty() ? "" : "/" + UriEncode(key, true));
}

HttpRequest S3Client::MakeRequest(std::string_view method, const std::string& bucket, const std::string& key,
                                  std::vector<std::pair<std::string, std::string>> query, std::string body) const {
  HttpRequest request;
  request.method = std::string(method);
  const std::string scheme = config_.use_ssl ? "https://" : "http://";
  std::string host, path;
  if (config_.url_style == S3UrlStyle::kVirtualHost) {
    host = bucket + "." + config_.endpoint;
    path = "/" + UriEncode(key, true);
  } else {
    host = config_.endpoint;
    path = "/" + bucket + (key.empty() ? "" : "/" + UriEncode(key, true));
  }
  const std::string query_text = CanonicalQuery(query);
  request.url = scheme + host + path + (query_text.empty() ? "" : "?" + query_text);
  request.body = std::move(body);
  if (config_.credentials.anonymous()) return request;
  const std::string payload_hash = Sha256Hex(request.body);
  request.prepare = [credentials = config_.credentials, region = config_.region, host, path,
                     query = std::move(query), payload_hash](HttpRequest& r) -> Status {
    const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
    const std::string date = AmzDate(now);
    HeaderList signed_headers = {{"host", host}, {"x-amz-date", date}, {"x-amz-content-sha256", payload_hash}};
    if (!credentials.session_token.empty()) signed_headers.emplace_back("x-amz-security-token", credentials.session_token);
    const SigV4Signature s = SignV4({r.method, path, query, signed_headers, payload_hash}, credentials,
                                    {date, region, "s3"});
    for (auto& h : signed_headers) {
      if (h.first != "host") r.headers.push_back(std::move(h));
    }
    r.headers.emplace_back("Authorization", s.authorization);
    return Status::OK();
  };
  return request;
}

Result<HttpResponse> S3Client::Call(HttpRequest request, const std::string& bucket, const std::string& key) {
  const std::string method = request.method;
  const std::string url = request.url;
  PQ_ASSIGN_OR_RETURN(HttpResponse response, http_->Send(std::move(request)));
  if (response.status < 200 || response.status >= 300) {
    Status error = HttpStatusError(method, url, response);
    return Status::IOError(S3Name(bucket, key) + ": " + error.message());
  }
  return response;
}

Result<std::vector<S3ObjectInfo>> S3Client::List(const std::string& bucket, const std::string& prefix,
                                                 int page_size, int64_t max_objects, int64_t max_pages) {
  std::vector<S3ObjectInfo> objects;
  std::string token;
  std::set<std::string> tokens_seen;
  for (int64_t pages = 0;; ++pages) {
    if (pages == max_pages) {
      return Status::IOError("the listing of " + S3Name(bucket, prefix) + " did not end after " +
                             std::to_string(max_pages) + " pages");
    }
    std::vector<std::pair<std::string, std::string>> query = {
        {"list-type", "2"}, {"prefix", prefix}, {"max-keys", std::to_string(page_size)}};
    if (!token.empty()) query.emplace_back("continuation-token", token);
    PQ_ASSIGN_OR_RETURN(HttpResponse response, Call(MakeRequest("GET", bucket, "", std::move(query)), bucket, prefix));
    auto xml = ParseXml(response.body);
    if (!xml.ok()) return xml.status().WithContext("the listing of " + S3Name(bucket, prefix));
    if (xml->name != "ListBucketResult") {
      return Status::IOError("the listing of " + S3Name(bucket, prefix) + " is a '" + ServerText(xml->name) +
                             "', not a ListBucketResult");
    }
    for (const XmlElement* c : xml->Children("Contents")) {
      S3ObjectInfo info;
      info.key = c->ChildText("Key");
      const std::string size = c->ChildText("Size");
      auto [p, ec] = std::from_chars(size.data(), size.data() + size.size(), info.size);
      if (info.key.empty() || ec != std::errc() || p != size.data() + size.size() || info.size < 0) {
        return Status::IOError("the listing of " + S3Name(bucket, prefix) + " has an entry without a key or size");
      }
      info.etag = c->ChildText("ETag");
      info.last_modified = c->ChildText("LastModified");
      objects.push_back(std::move(info));
      if (static_cast<int64_t>(objects.size()) > max_objects) {
        return Status::InvalidArgument(S3Name(bucket, prefix) + " lists more than " + std::to_string(max_objects) +
                                       " objects");
      }
    }
    if (xml->ChildText("IsTruncated") != "true") break;
    token = xml->ChildText("NextContinuationToken");
    if (token.empty() || !tokens_seen.insert(token).second) {
      return Status::IOError("the listing of " + S3Name(bucket, prefix) +
                             " is truncated without a new continuation token");
    }
  }
  return objects;
}

Result<bool> S3Client::AnyObject(const std::string& bucket, const std::string& prefix) {
  std::vector<std::pair<std::string, std::string>> query = {{"list-type", "2"}, {"prefix", prefix}, {"max-keys", "1"}};
  PQ_ASSIGN_OR_RETURN(HttpResponse response, Call(MakeRequest("GET", bucket, "", std::move(query)), bucket, prefix));
  auto xml = ParseXml(response.body);
  if (!xml.ok()) return xml.status().WithContext("the listing of " + S3Name(bucket, prefix));
  if (xml->name != "ListBucketResult") {
    return Status::IOError("the listing of " + S3Name(bucket, prefix) + " is a '" + ServerText(xml->name) +
                           "', not a ListBucketResult");
  }
  return !xml->Children("Contents").empty();
}

Result<std::vector<S3ObjectInfo>> S3Client::ListGlob(const std::string& bucket, const std::string& pattern,
                                                     int page_size) {
  KeyGlob glob(pattern);
  PQ_ASSIGN_OR_RETURN(std::vector<S3ObjectInfo> listed, List(bucket, glob.ListPrefix(), page_size));
  std::vector<S3ObjectInfo> matched;
  for (S3ObjectInfo& o : listed) {
    if (glob.Matches(o.key)) matched.push_back(std::move(o));
  }
  return matched;
}

Result<S3ObjectInfo> S3Client::Head(const std::string& bucket, const std::string& key) {
  PQ_ASSIGN_OR_RETURN(HttpResponse response, Call(MakeRequest("HEAD", bucket, key), bucket, key));
  S3ObjectInfo info;
  info.key = key;
  const std::string length = response.Header("content-length");
  auto [p, ec] = std::from_chars(length.data(), length.data() + length.size(), info.size);
  if (length.empty() || ec != std::errc() || p != length.data() + length.size()) info.size = -1;
  info.etag = response.Header("etag");
  info.last_modified = response.Header("last-modified");
  return info;
}

Result<S3Presence> S3Client::Presence(const std::string& bucket, const std::string& key) {
  HttpRequest request = MakeRequest("HEAD", bucket, key);
  const std::string url = request.url;
  PQ_ASSIGN_OR_RETURN(HttpResponse response, http_->Send(std::move(request)));
  S3Presence presence;
  if (response.status == 404) {
    presence.kind = S3Presence::kAbsent;
  } else if (response.status == 403) {
    presence.kind = S3Presence::kUnknown;
  } else if (response.status >= 200 && response.status < 300) {
    presence.kind = S3Presence::kPresent;
    presence.info.key = key;
    const std::string length = response.Header("content-length");
    auto [p, ec] = std::from_chars(length.data(), length.data() + length.size(), presence.info.size);
    if (length.empty() || ec != std::errc() || p != length.data() + length.size()) presence.info.size = -1;
    presence.info.etag = response.Header("etag");
    presence.info.last_modified = response.Header("last-modified");
  } else {
    return Status::IOError(S3Name(bucket, key) + ": " + HttpStatusError("HEAD", url, response).message());
  }
  return presence;
}

Status S3Client::PutObject(const std::string& bucket, const std::string& key, std::string body) {
  return Call(MakeRequest("PUT", bucket, key, {}, std::move(body)), bucket, key).status();
}

Status S3Client::DeleteObject(const std::string& bucket, const std::string& key) {
  return Call(MakeRequest("DELETE", bucket, key), bucket, key).status();
}

Result<std::string> S3Client::CreateMultipartUpload(const std::string& bucket, const std::string& key) {
  PQ_ASSIGN_OR_RETURN(HttpResponse response, Call(MakeRequest("POST", bucket, key, {{"uploads", ""}}), bucket, key));
  auto xml = ParseXml(response.body);
  if (!xml.ok()) return xml.status().WithContext("starting the upload of " + S3Name(bucket, key));
  std::string id = xml->ChildText("UploadId");
  if (id.empty()) return Status::IOError("starting the upload of " + S3Name(bucket, key) + ": no UploadId");
  return id;
}

Result<std::string> S3Client::UploadPart(const std::string& bucket, const std::string& key,
                                         const std::string& upload_id, int part_number, std::string body) {
  PQ_ASSIGN_OR_RETURN(HttpResponse response,
                      Call(MakeRequest("PUT", bucket, key,
                                       {{"partNumber", std::to_string(part_number)}, {"uploadId", upload_id}},
                                       std::move(body)),
                           bucket, key));
  std::string etag = response.Header("etag");
  if (etag.empty()) {
    return Status::IOError(S3Name(bucket, key) + ": part " + std::to_string(part_number) + " was stored without an ETag");
  }
  return etag;
}

Status S3Client::CompleteMultipartUpload(const std::string& bucket, const std::string& key,
                                         const std::string& upload_id, const std::vector<std::string>& part_etags) {
  std::string body = "<CompleteMultipartUpload>";
  for (size_t i = 0; i < part_etags.size(); ++i) {
    body += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" + XmlEscape(part_etags[i]) +
            "</ETag></Part>";
  }
  body += "</CompleteMultipartUpload>";
  PQ_ASSIGN_OR_RETURN(HttpResponse response,
                      Call(MakeRequest("POST", bucket, key, {{"uploadId", upload_id}}, std::move(body)), bucket, key));
  // S3 may answer 200 and still fail: the body then holds an <Error>.
  auto xml = ParseXml(response.body);
  if (!xml.ok()) return xml.status().WithContext("completing the upload of " + S3Name(bucket, key));
  if (xml->name == "Error") {
    return Status::IOError("completing the upload of " + S3Name(bucket, key) + ": " +
                           ServerText(xml->ChildText("Code")) + ": " + ServerText(xml->ChildText("Message")));
  }
  return Status::OK();
}

Status S3Client::AbortMultipartUpload(const std::string& bucket, const std::string& key,
                                      const std::string& upload_id) {
  return Call(MakeRequest("DELETE", bucket, key, {{"uploadId", upload_id}}), bucket, key).status();
}

}  // namespace pq::remote
