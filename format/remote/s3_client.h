// S3Client: the S3 calls the extension makes, over HttpClient, signed with Signature Version 4.
// ListObjectsV2 (every page, following continuation tokens, bounded), HEAD and ranged GET (through
// MakeRequest, which RemoteFile uses), PutObject, and the multipart upload calls S3OutputFile makes
// (create, upload part, complete, abort). Requests go to the configured endpoint in path style
// (https://endpoint/bucket/key) or virtual-host style (https://bucket.endpoint/key); keys are
// percent-encoded once, as S3 signs them. Each try is signed anew (its x-amz-date changes) unless
// the credentials are anonymous, in which case requests go unsigned. Errors name s3://bucket/key,
// the HTTP status and S3's error code and message, never a key or a signature.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "format/remote/http_client.h"
#include "format/remote/s3_config.h"

namespace pq::remote {

struct S3ObjectInfo {
  std::string key;
  int64_t size = -1;
  std::string etag;           // as S3 gives it, quotes included
  std::string last_modified;  // as S3 gives it
};

// What HEAD found at a key (S3Client::Presence).
struct S3Presence {
  enum Kind { kAbsent, kPresent, kUnknown };
  Kind kind = kUnknown;
  S3ObjectInfo info;  // kPresent
};

class S3Client {
 public:
  // `http` should carry no bearer token or extra headers (the Authorization header is S3's).
  S3Client(S3Config config, std::shared_ptr<HttpClient> http);

  const S3Config& config() const { return config_; }
  const std::shared_ptr<HttpClient>& http() const { return http_; }

  // The request for (bucket, key) with `query` (decoded pairs) and `body`, signed before each try.
  HttpRequest MakeRequest(std::string_view method, const std::string& bucket, const std::string& key,
                          std::vector<std::pair<std::string, std::string>> query = {}, std::string body = "") const;
  // The object's URL without a query: what messages and RemoteFile's display use is "s3://b/k".
  std::string ObjectUrl(const std::string& bucket, const std::string& key) const;

  // Every object whose key starts with `prefix`, in key order; `page_size` keys per request
  // (S3's maximum is 1000); InvalidArgument past `max_objects`. IOError when the listing is not over
  // after `max_pages` requests: twice what 10 million keys take in full pages, so only a server
  // that never ends its listing (a new continuation token every time) reaches it.
  Result<std::vector<S3ObjectInfo>> List(const std::string& bucket, const std::string& prefix,
                                         int page_size = 1000, int64_t max_objects = 10000000,
                                         int64_t max_pages = 20000);
  // Whether any object's key starts with `prefix` (one ListObjectsV2 request of one key).
  Result<bool> AnyObject(const std::string& bucket, const std::string& prefix);
  // The objects whose keys match `pattern` (KeyGlob's rules), listing only under its literal prefix.
  Result<std::vector<S3ObjectInfo>> ListGlob(const std::string& bucket, const std::string& pattern,
                                             int page_size = 1000);
  // IOError "... HTTP 404" for a missing object.
  Result<S3ObjectInfo> Head(const std::string& bucket, const std::string& key);
  // Whether an object is at (bucket, key): one HEAD. 404 is kAbsent, 2xx kPresent, 403 kUnknown (a
  // credential allowed to write but not to read cannot tell); any other answer is an IOError.
  Result<S3Presence> Presence(const std::string& bucket, const std::string& key);
  Status PutObject(const std::string& bucket, const std::string& key, std::string body);
  Status DeleteObject(const std::string& bucket, const std::string& key);

  // Multipart upload: the upload id; a part's ETag; completion with every part's ETag in order.
  Result<std::string> CreateMultipartUpload(const std::string& bucket, const std::string& key);
  Result<std::string> UploadPart(const std::string& bucket, const std::string& key, const std::string& upload_id,
                                 int part_number, std::string body);
  Status CompleteMultipartUpload(const std::string& bucket, const std::string& key, const std::string& upload_id,
                                 const std::vector<std::string>& part_etags);
  Status AbortMultipartUpload(const std::string& bucket, const std::string& key, const std::string& upload_id);

 private:
  // Sends `request` and returns the response when its status is 2xx, else the error.
  Result<HttpResponse> Call(HttpRequest request, const std::string& bucket, const std::string& key);

  S3Config config_;
  std::shared_ptr<HttpClient> http_;
};

}  // namespace pq::remote
