#include "format/remote/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

#include "format/remote/remote_url.h"
#include "format/remote/server_text.h"
#include "format/remote/xml_reader.h"

namespace pq::remote {

namespace {

using Clock = std::chrono::steady_clock;

// Bytes of an error answer kept for its message.
constexpr int64_t kErrorBodyBytes = 64 << 10;
// The longest Retry-After honoured.
constexpr int64_t kMaxRetryAfterMs = 30000;
// Redirects followed in a row before the request is an error.
constexpr int kMaxRedirects = 8;
// Bytes a transfer must move within http_timeout to count as moving (Transfer::Moved): 1 KiB, 34 bytes
// a second at the default 30 s, far below any link worth reading from.
constexpr int64_t kProgressBytes = 1024;

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

bool RetryableStatus(long status) {
  return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

bool RetryableTransport(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r' || s[b] == '\n')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n')) --e;
  return std::string(s.substr(b, e - b));
}

bool ParseInt64(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && p == text.data() + text.size() && *out >= 0;
}

// The wait a Retry-After asks for, up to kMaxRetryAfterMs: delay-seconds, or an HTTP-date (RFC 9110
// section 10.2.3: IMF-fixdate or the obsolete RFC 850 and asctime forms, all read by curl_getdate),
// where a date already past asks for none. False for anything else.
bool RetryAfterMs(const std::string& value, int64_t* ms) {
  int64_t seconds = 0;
  if (ParseInt64(value, &seconds)) {
    *ms = std::min(seconds, kMaxRetryAfterMs / 1000) * 1000;
    return true;
  }
  const time_t date = value.empty() ? -1 : curl_getdate(value.c_str(), nullptr);
  if (date < 0) return false;
  const int64_t date_ms = std::min<int64_t>(date, int64_t{1} << 40) * 1000;  // no overflow below
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch()).count();
  *ms = std::clamp<int64_t>(date_ms - now_ms, 0, kMaxRetryAfterMs);
  return true;
}

// "bytes first-last/total" ("*" for an unknown total: -1).
bool ParseContentRange(std::string_view value, int64_t* first, int64_t* last, int64_t* total) {
  if (value.substr(0, 6) != "bytes ") return false;
  value.remove_prefix(6);
  const size_t dash = value.find('-');
  const size_t slash = value.find('/');
  if (dash == std::string_view::npos || slash == std::string_view::npos || dash > slash) return false;
  if (!ParseInt64(value.substr(0, dash), first) || !ParseInt64(value.substr(dash + 1, slash - dash - 1), last)) {
    return false;
  }
  std::string_view t = value.substr(slash + 1);
  if (t == "*") {
    *total = -1;
  } else if (!ParseInt64(t, total)) {
    return false;
  }
  return *first <= *last && (*total < 0 || *last < *total);
}

bool RedirectStatus(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// Scheme, host and port, lower-case, the port spelled out: what decides whether a redirect leaves
// the server the request was meant for.
struct Origin {
  std::string scheme;
  std::string host;
  std::string port;
  bool operator==(const Origin&) const = default;
};

// The origin of an http(s) URL, and in *plain the URL without user and password; nullopt for
// anything else.
std::optional<Origin> ParseOrigin(const std::string& url, std::string* plain = nullptr) {
  CURLU* u = curl_url();
  if (u == nullptr) return std::nullopt;
  std::optional<Origin> origin;
  char* scheme = nullptr;
  char* host = nullptr;
  char* port = nullptr;
  char* text = nullptr;
  if (curl_url_set(u, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK &&
      curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
      curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
      curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK) {
    origin = Origin{Lower(scheme), Lower(host), port};
    if (origin->scheme != "http" && origin->scheme != "https") origin.reset();
  }
  if (origin && plain != nullptr) {
    curl_url_set(u, CURLUPART_USER, nullptr, 0);
    curl_url_set(u, CURLUPART_PASSWORD, nullptr, 0);
    if (curl_url_get(u, CURLUPART_URL, &text, 0) == CURLUE_OK) {
      *plain = text;
    } else {
      origin.reset();
    }
  }
  curl_free(scheme);
  curl_free(host);
  curl_free(port);
  curl_free(text);
  curl_url_cleanup(u);
  return origin;
}

// The range asked, for messages: "bytes 100-199" or "the last 262144 bytes".
std::string RangeText(const HttpRange& r) {
  return r.suffix ? "the last " + std::to_string(r.length) + " bytes"
                  : "bytes " + std::to_string(r.offset) + "-" + std::to_string(r.offset + r.length - 1);
}

// Where the body of the current answer goes.
enum class BodyMode {
  kIgnore,     // a redirect or an interim answer
  kSink,       // the caller's buffer
  kBody,       // HttpResponse::body, up to max_response_bytes
  kErrorBody,  // HttpResponse::body, first kErrorBodyBytes only
};

}  // namespace

struct HttpClient::Session {
  CURLM* multi = nullptr;
  Session() : multi(curl_multi_init()) {}
  ~Session() {
    if (multi != nullptr) curl_multi_cleanup(multi);
  }
};

namespace {

// One request through its tries.
struct Transfer {
  const HttpOptions* options = nullptr;
  HttpCounters* counters = nullptr;
  HttpRequest request;
  HttpRequest sent;  // this try's request, after `prepare`
  // Redirects are followed here, not by curl, which would send every header but Authorization to
  // whatever server a redirect names (and from https to http).
  std::string hop_url;      // where this try's next request goes: sent.url, then each redirect's
  int redirects = 0;        // followed in this try
  bool hop_is_redirect = false;
  bool same_origin = true;  // hop_url is on the origin of sent.url: the headers may go along
  HttpResponse response;
  CURL* easy = nullptr;
  curl_slist* header_list = nullptr;
  char error[CURL_ERROR_SIZE] = {0};
  int attempt = 0;
  Clock::time_point next_start;
  Clock::time_point last_activity;  // when the transfer last made progress (Moved)
  int64_t moved_since_progress = 0;
  curl_off_t last_up = 0;
  // This try's answer.
  long header_status = 0;
  BodyMode mode = BodyMode::kIgnore;
  int64_t skip = 0;      // bytes of a 200 to drop before the asked range
  int64_t wanted = -1;   // bytes to deliver (-1: whatever comes)
  bool done_early = false;  // every asked byte of a 200 is in: the rest was cut off on purpose
  bool stalled = false;
  Status failure;  // set by a callback: the try failed for a reason that retrying will not fix
  std::optional<Result<HttpResponse>> outcome;
  std::string last_problem;  // of the last failed try, for the final message

  ~Transfer() { Release(); }
  void Release() {
    if (easy != nullptr) curl_easy_cleanup(easy);
    easy = nullptr;
    if (header_list != nullptr) curl_slist_free_all(header_list);
    header_list = nullptr;
  }
  std::string Where() const { return request.method + " " + DisplayUrl(request.url); }
  // curl's account of a failed transfer, which may quote what the server sent.
  std::string CurlError(CURLcode code) const { return ServerText(error[0] ? error : curl_easy_strerror(code)); }

  // Decides where the body goes once the final answer's headers are in.
  void HeadersDone() {
    response.status = header_status;
    // A HEAD answer has no body, whatever its Content-Length says.
    if (header_status < 200 || (header_status >= 300 && header_status < 400) || request.method == "HEAD") {
      mode = BodyMode::kIgnore;
      return;
    }
    int64_t content_length = -1;
    const std::string cl = response.Header("content-length");
    if (!cl.empty() && !ParseInt64(cl, &content_length)) content_length = -1;
    if (header_status >= 300) {
      mode = BodyMode::kErrorBody;
      return;
    }
    // No Accept-Encoding is sent, so the body must be the object's own bytes: one encoded on the way
    // (gzip) would reach the reader as bytes of another file.
    // (aws-chunked is how an upload was sent, which S3-compatible stores may keep and send back.)
    const std::string encoding = Lower(response.Header("content-encoding"));
    if (!encoding.empty() && encoding != "identity" && encoding != "aws-chunked") {
      failure = Status::IOError(Where() + ": the answer is encoded (Content-Encoding '" + ServerText(encoding) +
                                "'), though none was asked for: its bytes are not the object's, and are not used");
      return;
    }
    if (request.range.has_value()) {
      const HttpRange& r = *request.range;
      if (header_status == 206) {
        int64_t first = 0, last = 0, total = 0;
        const std::string cr = response.Header("content-range");
        if (!ParseContentRange(cr, &first, &last, &total)) {
          const std::string which =
              cr.empty() ? "without Content-Range" : "with Content-Range '" + ServerText(cr) + "'";
          failure = Status::IOError(Where() + ": a 206 answer " + which + " (" + RangeText(r) + " asked)");
          return;
        }
        const int64_t count = last - first + 1;
        bool matches;
        if (r.suffix) {
          matches = total >= 0 && last == total - 1 && count == std::min(r.length, total);
        } else {
          // The count may be shorter only where the object ends.
          matches = first == r.offset && (count == r.length || (count < r.length && total >= 0 && last == total - 1));
        }
        if (!matches) {
          failure = Status::IOError(Where() + ": Content-Range '" + ServerText(cr) +
                                    "' does not answer the range asked (" + RangeText(r) + ")");
          return;
        }
        if (content_length >= 0 && content_length != count) {
          failure = Status::IOError(Where() + ": a 206 answer of Content-Length " + std::to_string(content_length) +
                                    " for the " + std::to_string(count) + " bytes of its Content-Range '" +
                                    ServerText(cr) + "'");
          return;
        }
        response.object_size = total;
        response.range_offset = first;
        skip = 0;
        wanted = count;
      } else {
        // A 200: the whole object. Cut the asked bytes out of it as it streams.
        response.range_ignored = true;
        response.object_size = content_length;
        const int64_t limit = request.max_unranged_bytes;
        if (content_length > limit || (content_length < 0 && !r.suffix && r.length > limit - r.offset)) {
          failure = Status::IOError(Where() + ": the server does not serve byte ranges, and " +
                                    (content_length >= 0 ? "the object's " + std::to_string(content_length) +
                                                               " bytes are more than"
                                                         : "the bytes asked end past") +
                                    " the " + std::to_string(limit) + " it may send whole");
          return;
        }
        if (r.suffix) {
          if (content_length < 0) {
            failure = Status::IOError(Where() + ": the server ignores Range and sends no Content-Length");
            return;
          }
          wanted = std::min(r.length, content_length);
          skip = content_length - wanted;
        } else {
          if (content_length >= 0 && r.offset >= content_length && r.length > 0) {
            failure = Status::IOError(Where() + ": a 200 answer to a Range request, taken for the whole object, of " +
                                      std::to_string(content_length) + " bytes, which ends before the " +
                                      RangeText(r) + " asked");
            return;
          }
          skip = r.offset;
          wanted = content_length < 0 ? r.length : std::min(r.length, content_length - r.offset);
        }
        response.range_offset = skip;
      }
      if (request.sink != nullptr && wanted > request.sink_capacity) {
        failure = Status::IOError(Where() + ": " + std::to_string(wanted) + " bytes do not fit the " +
                                  std::to_string(request.sink_capacity) + " asked for");
        return;
      }
      mode = request.sink != nullptr ? BodyMode::kSink : BodyMode::kBody;
      if (mode == BodyMode::kBody && wanted > options->max_response_bytes) {
        failure = Status::IOError(Where() + ": an answer of " + std::to_string(wanted) + " bytes is over the limit of " +
                                  std::to_string(options->max_response_bytes));
      }
      return;
    }
    skip = 0;
    wanted = -1;
    mode = request.sink != nullptr ? BodyMode::kSink : BodyMode::kBody;
    const int64_t cap = request.sink != nullptr ? request.sink_capacity : options->max_response_bytes;
    if (content_length > cap) {
      failure = Status::IOError(Where() + ": an answer of " + std::to_string(content_length) +
                                " bytes is over the limit of " + std::to_string(cap));
    }
  }

  // Counts bytes moved; kProgressBytes of them since the last progress are progress. A server that
  // trickles (a byte a second) makes none, and the transfer stalls after timeout_ms as one that
  // sends nothing does, rather than taking hours over a footer.
  void Moved(int64_t n) {
    moved_since_progress += n;
    if (moved_since_progress >= kProgressBytes) {
      moved_since_progress = 0;
      last_activity = Clock::now();
    }
  }

  static size_t OnHeader(char* data, size_t size, size_t count, void* self) {
    auto* t = static_cast<Transfer*>(self);
    const size_t n = size * count;
    t->Moved(static_cast<int64_t>(n));
    std::string_view line(data, n);
    if (line.substr(0, 5) == "HTTP/") {
      // A new answer (the first, or after a redirect or a 100 Continue).
      t->response.headers.clear();
      t->response.body.clear();
      t->response.body_bytes = 0;
      const size_t sp = line.find(' ');
      int64_t status = 0;
      if (sp != std::string_view::npos) ParseInt64(line.substr(sp + 1, 3), &status);
      t->header_status = static_cast<long>(status);
      t->mode = BodyMode::kIgnore;
      return n;
    }
    if (line == "\r\n" || line == "\n") {
      t->last_activity = Clock::now();  // a whole header is progress, however short
      t->HeadersDone();
      return t->failure.ok() ? n : 0;
    }
    const size_t colon = line.find(':');
    if (colon != std::string_view::npos) {
      t->response.headers.emplace_back(Lower(Trim(line.substr(0, colon))), Trim(line.substr(colon + 1)));
    }
    return n;
  }

  static size_t OnBody(char* data, size_t size, size_t count, void* self) {
    auto* t = static_cast<Transfer*>(self);
    size_t n = size * count;
    t->Moved(static_cast<int64_t>(n));
    t->counters->bytes_received.fetch_add(static_cast<int64_t>(n), std::memory_order_relaxed);
    if (t->mode == BodyMode::kIgnore) return n;
    if (t->mode == BodyMode::kErrorBody) {
      const int64_t room = kErrorBodyBytes - static_cast<int64_t>(t->response.body.size());
      if (room > 0) t->response.body.append(data, std::min<size_t>(n, static_cast<size_t>(room)));
      return n;
    }
    const size_t total = n;
    if (t->skip > 0) {
      const size_t drop = static_cast<size_t>(std::min<int64_t>(t->skip, static_cast<int64_t>(n)));
      t->skip -= static_cast<int64_t>(drop);
      data += drop;
      n -= drop;
    }
    if (t->wanted >= 0) {
      const int64_t room = t->wanted - t->response.body_bytes;
      if (static_cast<int64_t>(n) > room) {
        if (t->response.range_ignored) {
          n = static_cast<size_t>(room);  // the rest of a 200: not wanted
        } else {
          t->failure = Status::IOError(t->Where() + ": more body bytes than the Content-Range said");
          return 0;
        }
      }
    }
    if (n > 0) {
      if (t->mode == BodyMode::kSink) {
        if (t->response.body_bytes + static_cast<int64_t>(n) > t->request.sink_capacity) {
          t->failure = Status::IOError(t->Where() + ": more than the " + std::to_string(t->request.sink_capacity) +
                                       " bytes asked for");
          return 0;
        }
        std::memcpy(t->request.sink + t->response.body_bytes, data, n);
      } else {
        if (static_cast<int64_t>(t->response.body.size() + n) > t->options->max_response_bytes) {
          t->failure = Status::IOError(t->Where() + ": the answer is over the limit of " +
                                       std::to_string(t->options->max_response_bytes) + " bytes");
          return 0;
        }
        t->response.body.append(data, n);
      }
      t->response.body_bytes += static_cast<int64_t>(n);
    }
    if (t->response.range_ignored && t->wanted >= 0 && t->response.body_bytes == t->wanted) {
      t->done_early = true;  // stop the transfer: nothing more is wanted from it
      return 0;
    }
    return total;
  }

  // Uploads count here; downloads count as their bytes arrive (OnHeader, OnBody).
  static int OnProgress(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t up) {
    auto* t = static_cast<Transfer*>(self);
    if (up > t->last_up) {
      t->Moved(static_cast<int64_t>(up - t->last_up));
      t->last_up = up;
    }
    return 0;
  }

  // Sets up the easy handle of the next request: a new try, or the URL a redirect named within the
  // try. A failure here (from `prepare`) ends the request.
  Status StartTry() {
    Release();
    if (!hop_is_redirect) {
      ++attempt;
      sent = request;
      if (sent.prepare) PQ_RETURN_IF_ERROR(sent.prepare(sent));
      hop_url = sent.url;
      redirects = 0;
      same_origin = true;
      counters->requests.fetch_add(1, std::memory_order_relaxed);
    }
    hop_is_redirect = false;
    header_status = 0;
    mode = BodyMode::kIgnore;
    skip = 0;
    wanted = -1;
    done_early = false;
    stalled = false;
    failure = Status::OK();
    response = HttpResponse();
    response.attempts = attempt;
    error[0] = '\0';
    last_up = 0;
    moved_since_progress = 0;
    easy = curl_easy_init();
    if (easy == nullptr) return Status::OutOfMemory("curl_easy_init failed");
    HeaderList headers;
    if (same_origin) {
      headers = sent.headers;
      headers.insert(headers.end(), options->extra_headers.begin(), options->extra_headers.end());
      if (!options->bearer_token.empty()) headers.emplace_back("Authorization", "Bearer " + options->bearer_token);
    } else {
      // Another origin gets only what says which bytes are wanted: no key, token or signature.
      for (const auto& header : sent.headers) {
        if (Lower(header.first) == "if-match") headers.push_back(header);
      }
    }
    if (sent.range.has_value()) {
      const HttpRange& r = *sent.range;
      headers.emplace_back("Range", r.suffix ? "bytes=-" + std::to_string(r.length)
                                             : "bytes=" + std::to_string(r.offset) + "-" +
                                                   std::to_string(r.offset + r.length - 1));
    }
    bool has_type = false;
    for (const auto& [name, value] : headers) {
      if (Lower(name) == "content-type") has_type = true;
      header_list = curl_slist_append(header_list, (name + ": " + value).c_str());
    }
    header_list = curl_slist_append(header_list, "Expect:");  // no 100-continue round trip
    if (!has_type) header_list = curl_slist_append(header_list, "Content-Type:");
    curl_easy_setopt(easy, CURLOPT_URL, hop_url.c_str());
    curl_easy_setopt(easy, CURLOPT_PRIVATE, this);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, header_list);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &Transfer::OnHeader);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, this);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &Transfer::OnBody);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, &Transfer::OnProgress);
    curl_easy_setopt(easy, CURLOPT_XFERINFODATA, this);
    curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options->timeout_ms));
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, options->verify_tls ? 1L : 0L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, options->verify_tls ? 2L : 0L);
    if (!options->ca_file.empty()) curl_easy_setopt(easy, CURLOPT_CAINFO, options->ca_file.c_str());
    curl_easy_setopt(easy, CURLOPT_USERAGENT, "sqlite-parquet/" PQ_VERSION);
    curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
    if (sent.method == "GET") {
      curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    } else if (sent.method == "HEAD") {
      curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
    } else {
      curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, sent.method.c_str());
      if (sent.method == "PUT" || sent.method == "POST" || !sent.body.empty()) {
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, sent.body.data());
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(sent.body.size()));
      }
    }
    last_activity = Clock::now();
    return Status::OK();
  }

  // Points the try at the URL a redirect named: http(s) only, never from https to http, at most
  // kMaxRedirects in a row. The request's own headers, the extra headers and the bearer token go
  // along only while the origin is the request's.
  Status FollowRedirect(const std::string& target) {
    const std::string shown = ServerText(DisplayUrl(target));
    if (++redirects > kMaxRedirects) {
      return Status::IOError(Where() + ": more than " + std::to_string(kMaxRedirects) + " redirects (the last to " +
                             shown + ")");
    }
    std::string plain;
    const std::optional<Origin> to = ParseOrigin(target, &plain);
    if (!to) return Status::IOError(Where() + ": a redirect to '" + shown + "', which is not an http(s) URL");
    const std::optional<Origin> from = ParseOrigin(hop_url);
    if (from && from->scheme == "https" && to->scheme == "http") {
      return Status::IOError(Where() + ": refused a redirect from https to " + shown);
    }
    same_origin = to == ParseOrigin(sent.url);
    hop_url = same_origin ? target : plain;
    if (response.status == 303 && sent.method != "HEAD") {
      sent.method = "GET";
      sent.body.clear();
    }
    hop_is_redirect = true;
    return Status::OK();
  }

  // After a request ended with `code`: sets `outcome`, or schedules the next request (the URL a
  // redirect names, or a new try) and returns false.
  bool FinishTry(CURLcode code) {
    curl_off_t uploaded = 0;
    if (easy != nullptr && curl_easy_getinfo(easy, CURLINFO_SIZE_UPLOAD_T, &uploaded) == CURLE_OK) {
      counters->bytes_sent.fetch_add(static_cast<int64_t>(uploaded), std::memory_order_relaxed);
    }
    std::string location;
    char* redirect_url = nullptr;
    if (easy != nullptr && code == CURLE_OK && !stalled && RedirectStatus(response.status) &&
        curl_easy_getinfo(easy, CURLINFO_REDIRECT_URL, &redirect_url) == CURLE_OK && redirect_url != nullptr) {
      location = redirect_url;
    }
    Release();
    if (done_early) code = CURLE_OK;
    if (!failure.ok()) {
      outcome = failure;
      return true;
    }
    if (!location.empty()) {
      Status followed = FollowRedirect(location);
      if (!followed.ok()) {
        outcome = followed;
        return true;
      }
      next_start = Clock::now();
      return false;
    }
    std::string problem;
    if (stalled) {
      problem = "timed out (less than " + std::to_string(kProgressBytes) + " bytes in " +
                std::to_string(options->timeout_ms) + " ms)";
    } else if (code != CURLE_OK) {
      if (!RetryableTransport(code)) {
        outcome = Status::IOError(Where() + ": " + CurlError(code));
        return true;
      }
      problem = CurlError(code);
    } else if (RetryableStatus(response.status)) {
      problem = "HTTP " + std::to_string(response.status);
    } else if (response.status >= 200 && response.status < 300 && wanted >= 0 && response.body_bytes != wanted) {
      problem = "a short body (" + std::to_string(response.body_bytes) + " of " + std::to_string(wanted) + " bytes)";
    }
    if (problem.empty()) {
      outcome = std::move(response);
      return true;
    }
    last_problem = problem;
    if (attempt > options->retries) {
      const bool status_only = code == CURLE_OK && !stalled && RetryableStatus(response.status);
      if (status_only) {
        outcome = std::move(response);  // the caller reports the status, with the server's message
      } else {
        outcome = Status::IOError(Where() + ": " + problem + " after " + std::to_string(attempt) +
                                  (attempt == 1 ? " try" : " tries"));
      }
      return true;
    }
    double wait = static_cast<double>(options->retry_wait_ms) * std::pow(options->retry_backoff, attempt - 1);
    int64_t retry_after_ms = 0;
    if ((response.status == 429 || response.status == 503) &&
        RetryAfterMs(response.Header("retry-after"), &retry_after_ms)) {
      wait = std::max(wait, static_cast<double>(retry_after_ms));
    }
    next_start = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(std::min(wait, 3.6e6)));
    counters->retries.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
};

}  // namespace

std::string HttpResponse::Header(std::string_view name) const {
  for (const auto& [n, v] : headers) {
    if (n == name) return v;
  }
  return "";
}

bool HttpOptions::IsOption(std::string_view name) {
  return name == "http_retries" || name == "http_timeout" || name == "http_retry_wait_ms" ||
         name == "http_retry_backoff" || name == "http_bearer_token" || name == "http_headers" ||
         name == "http_ca_file";
}

Status HttpOptions::Set(std::string_view name, std::string_view value) {
  const std::string text(value);
  auto bad = [&](const char* what) {
    return Status::InvalidArgument(std::string(name) + " must be " + what + ", not '" + text + "'");
  };
  if (name == "http_bearer_token") {
    if (text.find_first_of("\r\n", 0) != std::string::npos || text.find('\0') != std::string::npos) {
      return Status::InvalidArgument("http_bearer_token must be one line of text");
    }
    bearer_token = text;
    return Status::OK();
  }
  if (name == "http_ca_file") {
    ca_file = text;
    return Status::OK();
  }
  if (name == "http_headers") {
    // "Name: value; Name: value". No message shows a value: headers carry keys.
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find(';', start);
      if (end == std::string::npos) end = text.size();
      std::string_view entry = std::string_view(text).substr(start, end - start);
      while (!entry.empty() && (entry.front() == ' ' || entry.front() == '\t')) entry.remove_prefix(1);
      while (!entry.empty() && (entry.back() == ' ' || entry.back() == '\t')) entry.remove_suffix(1);
      start = end + 1;
      if (entry.empty()) continue;
      const size_t colon = entry.find(':');
      std::string_view header = entry.substr(0, colon == std::string_view::npos ? entry.size() : colon);
      while (!header.empty() && header.back() == ' ') header.remove_suffix(1);
      bool token = !header.empty();
      for (char c : header) {
        token = token && (std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos);
      }
      if (colon == std::string_view::npos || !token) {
        return Status::InvalidArgument("http_headers must be 'Name: value' entries separated by ';'");
      }
      std::string_view v = entry.substr(colon + 1);
      while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
      if (v.find_first_of(std::string_view("\r\n\0", 3)) != std::string_view::npos) {
        return Status::InvalidArgument("http_headers: the value of '" + std::string(header) + "' must be one line");
      }
      std::string lower(header);
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "range" || lower == "host" || lower == "if-match" || lower == "content-length") {
        return Status::InvalidArgument("http_headers: '" + std::string(header) + "' is set by the reader itself");
      }
      extra_headers.emplace_back(std::string(header), std::string(v));
    }
    return Status::OK();
  }
  double number = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  const bool is_number = !text.empty() && ec == std::errc() && p == text.data() + text.size() && std::isfinite(number);
  if (name == "http_retries") {
    if (!is_number || number < 0 || number > 100 || number != std::floor(number)) return bad("an integer from 0 to 100");
    retries = static_cast<int>(number);
  } else if (name == "http_timeout") {
    if (!is_number || number <= 0 || number > 86400) return bad("a number of seconds above 0");
    timeout_ms = std::max<int64_t>(1, static_cast<int64_t>(number * 1000));
  } else if (name == "http_retry_wait_ms") {
    if (!is_number || number < 0 || number > 3.6e6 || number != std::floor(number)) {
      return bad("a whole number of milliseconds");
    }
    retry_wait_ms = static_cast<int64_t>(number);
  } else if (name == "http_retry_backoff") {
    if (!is_number || number < 1 || number > 100) return bad("a number from 1 to 100");
    retry_backoff = number;
  } else {
    return Status::InvalidArgument("unknown HTTP option '" + std::string(name) + "'");
  }
  return Status::OK();
}

HttpClient::HttpClient(HttpOptions options) : options_(std::move(options)) {
  GlobalInit();
  options_.max_parallel = std::max(1, options_.max_parallel);
}

HttpClient::~HttpClient() = default;

std::unique_ptr<HttpClient::Session> HttpClient::TakeSession() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      std::unique_ptr<Session> s = std::move(idle_.back());
      idle_.pop_back();
      return s;
    }
  }
  return std::make_unique<Session>();
}

void HttpClient::ReturnSession(std::unique_ptr<Session> session) {
  std::lock_guard<std::mutex> lock(mu_);
  if (idle_.size() < 16) idle_.push_back(std::move(session));
}

Result<HttpResponse> HttpClient::Send(HttpRequest request) {
  std::vector<HttpRequest> one;
  one.push_back(std::move(request));
  return std::move(SendAll(std::move(one))[0]);
}

std::vector<Result<HttpResponse>> HttpClient::SendAll(std::vector<HttpRequest> requests) {
  std::unique_ptr<Session> session = TakeSession();
  std::vector<std::unique_ptr<Transfer>> transfers;
  transfers.reserve(requests.size());
  const Clock::time_point now0 = Clock::now();
  for (HttpRequest& r : requests) {
    auto t = std::make_unique<Transfer>();
    t->options = &options_;
    t->counters = &counters_;
    t->request = std::move(r);
    t->next_start = now0;
    transfers.push_back(std::move(t));
  }
  std::vector<Transfer*> active;
  bool healthy = session->multi != nullptr;
  auto remove = [&](Transfer* t) {
    curl_multi_remove_handle(session->multi, t->easy);
    active.erase(std::find(active.begin(), active.end(), t));
  };
  while (true) {
    if (options_.interrupted && options_.interrupted()) {
      for (Transfer* t : std::vector<Transfer*>(active)) remove(t);
      for (auto& t : transfers) {
        if (!t->outcome) t->outcome = Status::Interrupted(t->Where() + ": interrupted");
      }
      break;
    }
    // Start what is due, in order, up to max_parallel.
    Clock::time_point now = Clock::now();
    Clock::time_point next_due = Clock::time_point::max();
    for (auto& t : transfers) {
      if (t->outcome || t->easy != nullptr) continue;
      if (t->next_start > now) {
        next_due = std::min(next_due, t->next_start);
        continue;
      }
      if (static_cast<int>(active.size()) >= options_.max_parallel) break;
      Status started = healthy ? t->StartTry() : Status::OutOfMemory("curl_multi_init failed");
      if (!started.ok()) {
        t->Release();
        t->outcome = started;
        continue;
      }
      if (curl_multi_add_handle(session->multi, t->easy) != CURLM_OK) {
        t->Release();
        t->outcome = Status::IOError(t->Where() + ": curl_multi_add_handle failed");
        continue;
      }
      active.push_back(t.get());
    }
    if (active.empty()) {
      bool pending = false;
      for (auto& t : transfers) pending = pending || !t->outcome;
      if (!pending) break;
    }
    int running = 0;
    if (!active.empty()) curl_multi_perform(session->multi, &running);
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(session->multi, &left)) {
      if (msg->msg != CURLMSG_DONE) continue;
      Transfer* t = nullptr;
      curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &t);
      const CURLcode code = msg->data.result;
      remove(t);
      t->FinishTry(code);
    }
    // Transfers with nothing moving for timeout_ms.
    now = Clock::now();
    for (Transfer* t : std::vector<Transfer*>(active)) {
      if (now - t->last_activity > std::chrono::milliseconds(options_.timeout_ms)) {
        remove(t);
        t->stalled = true;
        t->FinishTry(CURLE_OPERATION_TIMEDOUT);
      }
    }
    int wait_ms = 50;
    if (active.empty() && next_due != Clock::time_point::max()) {
      const auto until = std::chrono::duration_cast<std::chrono::milliseconds>(next_due - Clock::now()).count();
      wait_ms = static_cast<int>(std::clamp<int64_t>(until, 0, 50));
    }
    if (wait_ms > 0) {
      if (!active.empty()) {
        curl_multi_poll(session->multi, nullptr, 0, wait_ms, nullptr);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
      }
    }
  }
  std::vector<Result<HttpResponse>> out;
  out.reserve(transfers.size());
  for (auto& t : transfers) out.push_back(std::move(*t->outcome));
  transfers.clear();
  if (healthy) ReturnSession(std::move(session));
  return out;
}

Status HttpStatusError(std::string_view method, std::string_view url, const HttpResponse& response) {
  std::string message = std::string(method) + " " + DisplayUrl(url) + ": HTTP " + std::to_string(response.status);
  if (response.attempts > 1) message += " after " + std::to_string(response.attempts) + " tries";
  if (!response.body.empty() && response.body.find("<Error") != std::string::npos) {
    auto xml = ParseXml(response.body);
    if (xml.ok() && xml->name == "Error") {
      const std::string code = xml->ChildText("Code");
      const std::string text = xml->ChildText("Message");
      if (!code.empty()) message += " " + ServerText(code);
      if (!text.empty()) message += ": " + ServerText(text);
    }
  }
  return Status::IOError(message);
}

}  // namespace pq::remote
