// HttpClient: HTTP(S) requests over libcurl for remote files and the S3 client, with the
// guarantees a reader of untrusted servers needs: transient failures retried with backoff, a
// timeout on any stretch with no byte moving, range answers checked so that a short or mismatched
// body is an error and never wrong bytes, bodies bounded, TLS verified, requests interruptible, and
// errors that name the method and the URL but never a password or a signed query string
// (DisplayUrl). Thread-safe: any number of threads may call Send and SendAll at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/remote/sigv4.h"
#include "format/util/status.h"

namespace pq::remote {

struct HttpOptions {
  int retries = 3;                // http_retries: tries after the first
  int64_t timeout_ms = 30000;     // http_timeout (given in seconds): connecting, or under 1 KiB moving
  int64_t retry_wait_ms = 100;    // http_retry_wait_ms
  double retry_backoff = 4;       // http_retry_backoff
  bool verify_tls = true;
  std::string ca_file;            // empty: the system's CA store
  HeaderList extra_headers;       // sent with every request
  std::string bearer_token;       // non-empty: "Authorization: Bearer <token>" on every request
  int max_parallel = 8;           // transfers SendAll runs at once
  int64_t max_response_bytes = int64_t{256} << 20;  // bodies kept in HttpResponse::body
  // Polled while requests wait or transfer; true stops them (IOError "interrupted").
  std::function<bool()> interrupted;

  // http_retries, http_timeout (seconds, may be fractional), http_retry_wait_ms,
  // http_retry_backoff, http_bearer_token, http_headers ("Name: value; Name2: value2", added to
  // extra_headers), http_ca_file; InvalidArgument for another name or a bad value.
  static bool IsOption(std::string_view name);
  // The bearer token, and the headers (which carry API keys as often as not).
  static bool IsSecret(std::string_view name) { return name == "http_bearer_token" || name == "http_headers"; }
  Status Set(std::string_view name, std::string_view value);
};

// Bytes [offset, offset + length) of an object, or with `suffix` its last `length` bytes.
struct HttpRange {
  int64_t offset = 0;
  int64_t length = 0;
  bool suffix = false;
};

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  HeaderList headers;
  std::string body;  // sent with PUT and POST
  std::optional<HttpRange> range;
  // With `range`: the most a server that ignores Range (a 200, the whole object) may send. A larger
  // Content-Length, or without one a range ending past this, is an error as soon as the headers are
  // in: the body is never streamed just to be refused.
  int64_t max_unranged_bytes = int64_t{1} << 30;
  // Where the body goes: null keeps it in HttpResponse::body; else into sink[0, sink_capacity) and
  // a body that does not fit is an error. With `range`, the capacity is the range's length.
  uint8_t* sink = nullptr;
  int64_t sink_capacity = 0;
  // Called before every try with the request as it will be sent (S3 signs here: the time changes).
  std::function<Status(HttpRequest&)> prepare;
};

struct HttpResponse {
  long status = 0;
  HeaderList headers;  // of the last response (after redirects); names lower-cased
  std::string body;    // when the request had no sink
  int64_t body_bytes = 0;  // bytes delivered (to the sink or the body)
  // With a range request: the object's size (Content-Range total, or Content-Length of a 200; -1
  // when the server did not say) and the offset of the first byte delivered.
  int64_t object_size = -1;
  int64_t range_offset = 0;
  bool range_ignored = false;  // the server answered 200 with the whole object
  int attempts = 0;

  // The value of header `name` (lower-case), or "".
  std::string Header(std::string_view name) const;
};

struct HttpCounters {
  std::atomic<int64_t> requests{0};        // every try sent
  std::atomic<int64_t> bytes_received{0};  // body bytes, including those a 200 skipped
  std::atomic<int64_t> bytes_sent{0};
  std::atomic<int64_t> retries{0};
};

class HttpClient {
 public:
  explicit HttpClient(HttpOptions options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // The response of any final status (the caller judges 4xx; retried statuses come back when the
  // tries ran out); IOError for transport failures after the last try, for a mismatched range
  // answer, a body over its bound, or an interrupt. 429, 500, 502, 503, 504, timeouts and dropped or
  // refused connections are tried again up to `retries` more times, waiting retry_wait_ms *
  // retry_backoff^(n-1) before try n (or the server's Retry-After, seconds or an HTTP-date, up to
  // 30 s). With a `range`, a 206 must carry a Content-Range for exactly those bytes and a body of
  // exactly as many; a 200 (a server that ignores Range) is the whole object, from which the bytes
  // are cut while it streams. A body goes into the caller's `sink` (never past its capacity) or into
  // the response, refused past max_response_bytes as soon as Content-Length says so and again while
  // it streams. Redirects to http(s) URLs are followed, at most 8 in a row, never from https to
  // http; the request's headers, the extra headers and the bearer token go only to the request's own
  // origin.
  Result<HttpResponse> Send(HttpRequest request);
  // Each request's outcome, in order; at most max_parallel transfers at once.
  std::vector<Result<HttpResponse>> SendAll(std::vector<HttpRequest> requests);

  const HttpOptions& options() const { return options_; }
  const HttpCounters& counters() const { return counters_; }

 private:
  struct Session;
  std::unique_ptr<Session> TakeSession();
  void ReturnSession(std::unique_ptr<Session> session);

  HttpOptions options_;
  HttpCounters counters_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Session>> idle_;  // curl multi handles and their connection caches
};

// "GET http://host/x.parquet: HTTP 404" plus S3's error code and message when the body holds one
// (as ServerText: escaped and bounded).
Status HttpStatusError(std::string_view method, std::string_view url, const HttpResponse& response);

}  // namespace pq::remote
