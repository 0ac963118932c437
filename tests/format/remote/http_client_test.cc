#include "format/remote/http_client.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <random>

#include "format/remote/s3_client.h"
#include "tests/format/remote/test_servers.h"

namespace pq::remote {
namespace {

using testing::ScriptedServer;
using testing::ServerProcess;
using testing::TempDir;
using Clock = std::chrono::steady_clock;

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

// True when `text` is all printable ASCII: nothing a terminal or a log would act on.
bool Printable(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

int64_t MsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

// nginx serving a folder with one 1 MiB file, and the fault proxy in front of it, shared by the
// tests of this suite.
class HttpClientTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    data_ = new std::string(RandomBytes(1 << 20, 7));
    dir_->Write("data.bin", *data_);
    dir_->Write("small.txt", "hello, world\n");
    std::string error;
    nginx_ = ServerProcess::Start("nginx_server.mjs", {"--root", dir_->path(), "--tls", "--bearer", "tok123"}, &error)
                 .release();
    ASSERT_NE(nginx_, nullptr) << error;
    proxy_ = ServerProcess::Start("fault_proxy.mjs", {"--upstream", std::to_string(nginx_->port())}, &error).release();
    ASSERT_NE(proxy_, nullptr) << error;
  }
  static void TearDownTestSuite() {
    delete proxy_;
    delete nginx_;
    delete dir_;
    delete data_;
    proxy_ = nullptr;
    nginx_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(nginx_, nullptr);
    ASSERT_NE(proxy_, nullptr);
    HttpClient control({});
    HttpRequest reset;
    reset.method = "POST";
    reset.url = proxy_->Url("/__proxy/reset");
    auto r = control.Send(reset);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }

  static void Faults(const std::string& json) {
    HttpClient control({});
    HttpRequest r;
    r.method = "POST";
    r.url = proxy_->Url("/__proxy/faults");
    r.body = json;
    auto done = control.Send(r);
    ASSERT_TRUE(done.ok() && done->status == 204) << json;
  }
  // Requests the proxy forwarded or answered since the last reset.
  static int ProxyRequests() {
    HttpClient control({});
    HttpRequest r;
    r.url = proxy_->Url("/__proxy/stats");
    auto done = control.Send(r);
    if (!done.ok()) return -1;
    const size_t at = done->body.find("\"requests\":");
    return at == std::string::npos ? -1 : std::atoi(done->body.c_str() + at + 11);
  }
  static HttpOptions Fast() {
    HttpOptions o;
    o.retry_wait_ms = 10;
    o.retry_backoff = 2;
    o.timeout_ms = 5000;
    return o;
  }
  static HttpRequest Range(const std::string& url, int64_t offset, int64_t length, std::string* sink) {
    sink->assign(static_cast<size_t>(length), '\0');
    HttpRequest r;
    r.url = url;
    r.range = HttpRange{offset, length, false};
    r.sink = reinterpret_cast<uint8_t*>(sink->data());
    r.sink_capacity = length;
    return r;
  }

  static TempDir* dir_;
  static std::string* data_;
  static ServerProcess* nginx_;
  static ServerProcess* proxy_;
};
TempDir* HttpClientTest::dir_ = nullptr;
std::string* HttpClientTest::data_ = nullptr;
ServerProcess* HttpClientTest::nginx_ = nullptr;
ServerProcess* HttpClientTest::proxy_ = nullptr;

TEST_F(HttpClientTest, RangedGetsFromNginx) {
  HttpClient client(Fast());
  std::string got;
  auto r = client.Send(Range(nginx_->Url("/data.bin"), 1000, 5000, &got));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 206);
  EXPECT_EQ(r->object_size, 1 << 20);
  EXPECT_EQ(r->range_offset, 1000);
  EXPECT_EQ(r->body_bytes, 5000);
  EXPECT_FALSE(r->range_ignored);
  EXPECT_EQ(got, data_->substr(1000, 5000));
  EXPECT_FALSE(r->Header("etag").empty());
  EXPECT_EQ(client.counters().requests.load(), 1);
  EXPECT_EQ(client.counters().bytes_received.load(), 5000);

  // The last bytes, in a response body instead of a sink.
  HttpRequest tail;
  tail.url = nginx_->Url("/data.bin");
  tail.range = HttpRange{0, 300, true};
  r = client.Send(tail);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->body, data_->substr(data_->size() - 300));
  EXPECT_EQ(r->range_offset, (1 << 20) - 300);
  EXPECT_EQ(r->object_size, 1 << 20);
  // A suffix longer than the object is the whole object.
  tail.url = nginx_->Url("/small.txt");
  tail.range = HttpRange{0, 1000, true};
  r = client.Send(tail);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->body, "hello, world\n");
  EXPECT_EQ(r->object_size, 13);
  // A range past the end is clipped where the object ends.
  r = client.Send(Range(nginx_->Url("/small.txt"), 7, 100, &got));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->body_bytes, 6);
  EXPECT_EQ(got.substr(0, 6), "world\n");
}

TEST_F(HttpClientTest, HeadWholeGetRedirectsAndBearerToken) {
  HttpClient client(Fast());
  HttpRequest head;
  head.method = "HEAD";
  head.url = nginx_->Url("/data.bin");
  auto r = client.Send(head);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->Header("content-length"), std::to_string(1 << 20));
  EXPECT_EQ(r->body_bytes, 0);

  HttpRequest get;
  get.url = nginx_->Url("/redirect/small.txt");
  r = client.Send(get);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "hello, world\n");

  get.url = nginx_->Url("/private/small.txt?sig=TOPSECRET");
  r = client.Send(get);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, 401);
  Status error = HttpStatusError("GET", get.url, *r);
  EXPECT_NE(error.message().find("HTTP 401"), std::string::npos) << error.message();
  EXPECT_NE(error.message().find("/private/small.txt"), std::string::npos) << error.message();
  EXPECT_EQ(error.message().find("TOPSECRET"), std::string::npos) << error.message();

  HttpOptions with_token = Fast();
  ASSERT_TRUE(with_token.Set("http_bearer_token", "tok123").ok());
  HttpClient authorized(with_token);
  r = authorized.Send(get);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "hello, world\n");
  // Extra headers go with every request too.
  HttpOptions with_header = Fast();
  with_header.extra_headers = {{"Authorization", "Bearer tok123"}};
  r = HttpClient(with_header).Send(get);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, 200);
}

TEST_F(HttpClientTest, ServerThatIgnoresRangesIsCutToTheAskedBytes) {
  HttpClient client(Fast());
  std::string got;
  auto r = client.Send(Range(nginx_->Url("/norange/data.bin"), 4096, 1000, &got));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 200);
  EXPECT_TRUE(r->range_ignored);
  EXPECT_EQ(r->object_size, 1 << 20);
  EXPECT_EQ(got, data_->substr(4096, 1000));
  HttpRequest tail;
  tail.url = nginx_->Url("/norange/data.bin");
  tail.range = HttpRange{0, 100, true};
  r = client.Send(tail);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->range_ignored);
  EXPECT_EQ(r->body, data_->substr(data_->size() - 100));
  EXPECT_EQ(r->range_offset, (1 << 20) - 100);
}

TEST_F(HttpClientTest, TlsIsVerifiedAgainstTheCaStore) {
  const std::string url = "https://localhost:" + nginx_->Field("tls_port") + "/small.txt";
  HttpRequest get;
  get.url = url;
  auto r = HttpClient(Fast()).Send(get);
  ASSERT_FALSE(r.ok()) << "a self-signed certificate was accepted";
  EXPECT_NE(r.status().message().find("GET " + url), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("certificate"), std::string::npos) << r.status().message();
  HttpOptions trusted = Fast();
  trusted.ca_file = nginx_->Field("ca");
  r = HttpClient(trusted).Send(get);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->body, "hello, world\n");
  HttpOptions unverified = Fast();
  unverified.verify_tls = false;
  r = HttpClient(unverified).Send(get);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
}

TEST_F(HttpClientTest, ManyRangesAtOnce) {
  HttpOptions o = Fast();
  o.max_parallel = 4;
  HttpClient client(o);
  std::vector<std::string> sinks(40);
  std::vector<HttpRequest> requests;
  for (int i = 0; i < 40; ++i) requests.push_back(Range(proxy_->Url("/data.bin"), i * 20000 + i, 5000 + i, &sinks[i]));
  auto results = client.SendAll(std::move(requests));
  ASSERT_EQ(results.size(), 40u);
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(results[i].ok()) << results[i].status().ToString();
    EXPECT_EQ(sinks[i], data_->substr(static_cast<size_t>(i * 20000 + i), static_cast<size_t>(5000 + i))) << i;
  }
  EXPECT_EQ(ProxyRequests(), 40);
  EXPECT_EQ(client.counters().requests.load(), 40);
}

TEST_F(HttpClientTest, RetriesThrottlingServerErrorsAndResets) {
  // The reset comes first, on a fresh connection: curl itself sends again, once, a request whose
  // reused connection turns out closed, so a reset there would not reach the retry logic.
  HttpClient client(Fast());
  Faults(R"([{"reset": true}, {"status": 503}, {"status": 429, "retry_after": 0}])");
  std::string got;
  auto r = client.Send(Range(proxy_->Url("/data.bin"), 10, 100, &got));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->attempts, 4);
  EXPECT_EQ(got, data_->substr(10, 100));
  EXPECT_EQ(client.counters().retries.load(), 3);
  EXPECT_EQ(ProxyRequests(), 4);

  // Out of tries: the last status comes back, and its error names it, the URL and the tries.
  HttpOptions two = Fast();
  two.retries = 2;
  HttpClient limited(two);
  Faults(R"([{"status": 503}, {"status": 500}, {"status": 503}])");
  r = limited.Send(Range(proxy_->Url("/data.bin"), 10, 100, &got));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 503);
  EXPECT_EQ(r->attempts, 3);
  Status error = HttpStatusError("GET", proxy_->Url("/data.bin"), *r);
  EXPECT_EQ(error.message(), "GET " + proxy_->Url("/data.bin") + ": HTTP 503 after 3 tries");
  // A 404 is not retried.
  HttpRequest missing;
  missing.url = proxy_->Url("/missing.bin");
  r = limited.Send(missing);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(r->attempts, 1);
}

TEST_F(HttpClientTest, BackoffGrowsBetweenTries) {
  HttpOptions o = Fast();
  o.retry_wait_ms = 100;
  o.retry_backoff = 2;
  HttpClient client(o);
  Faults(R"([{"status": 502}, {"status": 502}])");
  const auto start = Clock::now();
  std::string got;
  auto r = client.Send(Range(proxy_->Url("/data.bin"), 0, 10, &got));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->attempts, 3);
  EXPECT_GE(MsSince(start), 300);  // 100 then 200
}

TEST_F(HttpClientTest, TruncatedBodiesAreRetriedAndNeverReturned) {
  HttpClient client(Fast());
  std::string got;
  Faults(R"([{"truncate": 100}])");
  auto r = client.Send(Range(proxy_->Url("/data.bin"), 1000, 4000, &got));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->attempts, 2);
  EXPECT_EQ(got, data_->substr(1000, 4000));

  HttpOptions one = Fast();
  one.retries = 1;
  Faults(R"([{"truncate": 100}, {"truncate": 3000}])");
  r = HttpClient(one).Send(Range(proxy_->Url("/data.bin"), 1000, 4000, &got));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("GET " + proxy_->Url("/data.bin")), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("after 2 tries"), std::string::npos) << r.status().message();
}

TEST_F(HttpClientTest, StalledTransfersTimeOutAndAreRetried) {
  HttpOptions o = Fast();
  o.timeout_ms = 300;
  HttpClient client(o);
  Faults(R"([{"stall_ms": 3000, "after": 10}])");
  const auto start = Clock::now();
  std::string got;
  auto r = client.Send(Range(proxy_->Url("/data.bin"), 0, 2000, &got));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->attempts, 2);
  EXPECT_EQ(got, data_->substr(0, 2000));
  EXPECT_LT(MsSince(start), 2500);
  // A slow but moving body is not a stall.
  Faults(R"([{"stall_ms": 200, "after": 10}])");
  r = client.Send(Range(proxy_->Url("/data.bin"), 0, 2000, &got));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->attempts, 1);
  // A body that trickles (a byte every 20 ms: 15 bytes in the 300 ms, under the 1 KiB that counts as
  // moving) is one: else a server sending a byte a second would hold a 256 KiB footer read for days.
  Faults(R"([{"trickle_ms": 20}])");
  const auto trickle_start = Clock::now();
  r = client.Send(Range(proxy_->Url("/data.bin"), 0, 2000, &got));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->attempts, 2);
  EXPECT_EQ(got, data_->substr(0, 2000));
  EXPECT_LT(MsSince(trickle_start), 2500);
  // http_timeout is in seconds.
  HttpOptions parsed;
  ASSERT_TRUE(parsed.Set("http_timeout", "0.25").ok());
  EXPECT_EQ(parsed.timeout_ms, 250);
  ASSERT_TRUE(parsed.Set("http_retries", "5").ok());
  EXPECT_EQ(parsed.retries, 5);
  ASSERT_TRUE(parsed.Set("http_retry_wait_ms", "20").ok());
  ASSERT_TRUE(parsed.Set("http_retry_backoff", "1.5").ok());
  EXPECT_FALSE(parsed.Set("http_retries", "-1").ok());
  EXPECT_FALSE(parsed.Set("http_timeout", "soon").ok());
  EXPECT_FALSE(parsed.Set("http_retry_backoff", "0.5").ok());
  EXPECT_FALSE(parsed.Set("http_bogus", "1").ok());
}

TEST_F(HttpClientTest, MismatchedContentRangeIsAnError) {
  HttpClient client(Fast());
  std::string got;
  Faults(R"([{"content_range": "bytes 0-99/1048576"}])");
  auto r = client.Send(Range(proxy_->Url("/data.bin"), 500, 100, &got));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("Content-Range 'bytes 0-99/1048576' does not answer"), std::string::npos)
      << r.status().message();
  EXPECT_EQ(ProxyRequests(), 1);  // a lying server is not asked again
}

TEST_F(HttpClientTest, BodiesAreBoundedBeforeTheyAreRead) {
  HttpOptions o = Fast();
  o.max_response_bytes = 1000;
  HttpClient client(o);
  HttpRequest whole;
  whole.url = nginx_->Url("/data.bin");
  auto r = client.Send(whole);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("1048576 bytes is over the limit of 1000"), std::string::npos)
      << r.status().message();
  EXPECT_LT(client.counters().bytes_received.load(), 1 << 20);
  HttpRequest head = whole;
  head.method = "HEAD";
  r = client.Send(head);  // no body: the limit does not apply
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->Header("content-length"), std::to_string(1 << 20));
  std::string small(100, '\0');
  whole.sink = reinterpret_cast<uint8_t*>(small.data());
  whole.sink_capacity = 100;
  r = client.Send(whole);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("over the limit of 100"), std::string::npos) << r.status().message();
}

TEST_F(HttpClientTest, InterruptStopsAWaitingRequest) {
  HttpOptions o = Fast();
  const auto start = Clock::now();
  o.interrupted = [start] { return MsSince(start) > 200; };
  HttpClient client(o);
  Faults(R"([{"delay_ms": 5000}])");
  std::string got;
  auto r = client.Send(Range(proxy_->Url("/data.bin"), 0, 10, &got));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("interrupted"), std::string::npos) << r.status().message();
  EXPECT_LT(MsSince(start), 1500);
}

TEST_F(HttpClientTest, RefusedConnectionsAreRetriedThenNamed) {
  // A port nothing listens on: take one from the kernel and close it.
  int port = 0;
  {
    std::string error;
    auto probe = ServerProcess::Start("fault_proxy.mjs", {"--upstream", "1"}, &error);
    ASSERT_NE(probe, nullptr) << error;
    port = probe->port();
  }
  HttpOptions o = Fast();
  o.retries = 2;
  HttpClient client(o);
  HttpRequest r;
  r.url = "http://user:PASSWORD@127.0.0.1:" + std::to_string(port) + "/x.parquet?X-Amz-Signature=SIG";
  auto done = client.Send(r);
  ASSERT_FALSE(done.ok());
  const std::string& m = done.status().message();
  EXPECT_NE(m.find("GET http://127.0.0.1:" + std::to_string(port) + "/x.parquet: "), std::string::npos) << m;
  EXPECT_NE(m.find("after 3 tries"), std::string::npos) << m;
  EXPECT_EQ(m.find("PASSWORD"), std::string::npos) << m;
  EXPECT_EQ(m.find("SIG"), std::string::npos) << m;
  EXPECT_EQ(client.counters().requests.load(), 3);
}

TEST_F(HttpClientTest, ProxyLatencyIsAddedToEveryRequest) {
  std::string error;
  auto slow = ServerProcess::Start("fault_proxy.mjs",
                                   {"--upstream", std::to_string(nginx_->port()), "--latency-ms", "20"}, &error);
  ASSERT_NE(slow, nullptr) << error;
  HttpClient client(Fast());
  std::string got;
  const auto start = Clock::now();
  for (int i = 0; i < 3; ++i) {
    auto r = client.Send(Range(slow->Url("/data.bin"), i, 10, &got));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
  EXPECT_GE(MsSince(start), 60);
}

TEST(HttpClientServerTextTest, ServerTextInErrorsIsEscapedAndBounded) {
  HttpResponse forged;
  forged.status = 403;
  forged.body = "<Error><Code>Access\x1b[31mDenied\r\nInjected: yes</Code><Message>line1\nline2 \x1b[2J" +
                std::string(5000, 'A') + "\x7f</Message></Error>";
  const std::string m = HttpStatusError("GET", "http://127.0.0.1/a.parquet", forged).message();
  EXPECT_TRUE(Printable(m)) << m;
  EXPECT_NE(m.find("HTTP 403 Access\\x1B[31mDenied\\x0D\\x0AInjected: yes: line1\\x0Aline2 \\x1B[2J"),
            std::string::npos)
      << m;
  EXPECT_LT(m.size(), 600u) << m;

  // A header echoed in a message is escaped too.
  ScriptedServer server([](const ScriptedServer::Request&, int) {
    return ScriptedServer::Reply(206, {{"Content-Range", "bytes 0-9/10\x1b[2J"}}, "0123456789");
  });
  HttpRequest get;
  get.url = server.Url("/a.parquet");
  get.range = HttpRange{0, 10, false};
  auto r = HttpClient({}).Send(get);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(Printable(r.status().message())) << r.status().message();
  EXPECT_NE(r.status().message().find("\\x1B[2J"), std::string::npos) << r.status().message();
}

TEST(HttpClientServerTextTest, MismatchedAnswersSayWhatCame) {
  ScriptedServer server([](const ScriptedServer::Request& r, int) {
    if (r.target == "/no-range") return ScriptedServer::Reply(206, {}, std::string(100, 'x'));
    if (r.target == "/short") return ScriptedServer::Reply(206, {{"Content-Range", "bytes 0-9/100"}}, std::string(30, 's'));
    if (r.target == "/aws-chunked") {  // how the object was uploaded, kept by the store: its bytes are the object's
      return ScriptedServer::Reply(206, {{"Content-Range", "bytes 0-9/100"}, {"Content-Encoding", "aws-chunked"}},
                                   std::string(10, 'a'));
    }
    // The right Content-Range, but the body gzipped on the way: 30 bytes, or as many as the range.
    return ScriptedServer::Reply(206, {{"Content-Range", "bytes 0-9/100"}, {"Content-Encoding", "gzip"}},
                                 std::string(r.target == "/gzip" ? 30 : 10, 'z'));
  });
  HttpClient client({});
  HttpRequest tail;
  tail.url = server.Url("/no-range");
  tail.range = HttpRange{0, 262144, true};
  auto r = client.Send(tail);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("a 206 answer without Content-Range (the last 262144 bytes asked)"),
            std::string::npos)
      << r.status().message();
  HttpRequest head_bytes;
  head_bytes.url = server.Url("/short");
  head_bytes.range = HttpRange{0, 10, false};
  r = client.Send(head_bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(
                "a 206 answer of Content-Length 30 for the 10 bytes of its Content-Range 'bytes 0-9/100'"),
            std::string::npos)
      << r.status().message();
  for (const char* path : {"/gzip", "/gzip-padded"}) {
    head_bytes.url = server.Url(path);
    r = client.Send(head_bytes);
    ASSERT_FALSE(r.ok()) << path;
    EXPECT_NE(r.status().message().find("the answer is encoded (Content-Encoding 'gzip'), though none was asked for: "
                                        "its bytes are not the object's"),
              std::string::npos)
        << r.status().message();
  }
  head_bytes.url = server.Url("/aws-chunked");
  r = client.Send(head_bytes);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  int encoded = 0;  // not retried: another try would bring the same
  for (const auto& request : server.requests()) encoded += request.target.starts_with("/gzip") ? 1 : 0;
  EXPECT_EQ(encoded, 2);
}

// `format` (strftime) of the time `seconds` from now, in UTC.
std::string HttpDate(const char* format, int seconds) {
  const std::time_t when = std::time(nullptr) + seconds;
  std::tm tm{};
  ::gmtime_r(&when, &tm);
  char text[64];
  std::strftime(text, sizeof(text), format, &tm);
  return text;
}

TEST(HttpClientRetryAfterTest, AnHttpDateIsWaitedFor) {
  // IMF-fixdate, then the obsolete RFC 850 and asctime forms, each 2 s ahead; then a date past.
  static constexpr const char* kFormats[] = {"%a, %d %b %Y %H:%M:%S GMT", "%A, %d-%b-%y %H:%M:%S GMT",
                                             "%a %b %e %H:%M:%S %Y", "%a, %d %b %Y %H:%M:%S GMT"};
  ScriptedServer server([](const ScriptedServer::Request&, int earlier) {
    if (earlier % 2 == 1) return ScriptedServer::Reply(200, {}, "ok");
    return ScriptedServer::Reply(503, {{"Retry-After", HttpDate(kFormats[earlier / 2], earlier < 6 ? 2 : -60)}});
  });
  HttpOptions o;
  o.retry_wait_ms = 10;
  HttpClient client(o);
  HttpRequest get;
  get.url = server.Url("/a.parquet");
  for (int i = 0; i < 4; ++i) {
    const auto start = Clock::now();
    auto r = client.Send(get);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->body, "ok");
    EXPECT_EQ(r->attempts, 2);
    // Over 1 s (the date has whole seconds) where the backoff alone is 10 ms; none for a date past.
    if (i < 3) {
      EXPECT_GE(MsSince(start), 950) << kFormats[i];
      EXPECT_LT(MsSince(start), 5000) << kFormats[i];
    } else {
      EXPECT_LT(MsSince(start), 900);
    }
  }
}

TEST(HttpClientRedirectTest, KeysAndTokensStayWithTheirOrigin) {
  using Request = ScriptedServer::Request;
  ScriptedServer other([](const Request&, int) { return ScriptedServer::Reply(200, {}, "other"); });
  ScriptedServer origin([&](const Request& r, int) {
    if (r.target == "/away") return ScriptedServer::Reply(302, {{"Location", other.Url("/landed")}});
    if (r.target == "/here") return ScriptedServer::Reply(307, {{"Location", "/landed"}});
    if (r.target == "/loop") return ScriptedServer::Reply(302, {{"Location", "/loop"}});
    return ScriptedServer::Reply(200, {}, "origin");
  });
  HttpOptions o;
  o.extra_headers = {{"X-Api-Key", "TOPSECRETKEY"}};
  o.bearer_token = "TOPSECRETBEARER";
  HttpClient client(o);
  HttpRequest get;
  get.url = origin.Url("/away");
  auto r = client.Send(get);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->body, "other");
  ASSERT_EQ(other.requests().size(), 1u);
  EXPECT_EQ(other.requests()[0].headers.count("x-api-key"), 0u);
  EXPECT_EQ(other.requests()[0].headers.count("authorization"), 0u);
  EXPECT_EQ(origin.requests()[0].headers["x-api-key"], "TOPSECRETKEY");

  // On the request's own origin the headers go along.
  get.url = origin.Url("/here");
  r = client.Send(get);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->body, "origin");
  EXPECT_EQ(origin.requests().back().target, "/landed");
  EXPECT_EQ(origin.requests().back().headers["x-api-key"], "TOPSECRETKEY");
  EXPECT_EQ(origin.requests().back().headers["authorization"], "Bearer TOPSECRETBEARER");

  // At most 8 in a row.
  get.url = origin.Url("/loop");
  const size_t before = origin.requests().size();
  r = client.Send(get);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("GET " + origin.Url("/loop") + ": more than 8 redirects"), std::string::npos)
      << r.status().message();
  EXPECT_EQ(origin.requests().size() - before, 9u);

  // An S3 session token is a secret too.
  S3Options s3_options;
  ASSERT_TRUE(s3_options.Set("s3_endpoint", "127.0.0.1:" + std::to_string(origin.port())).ok());
  ASSERT_TRUE(s3_options.Set("s3_use_ssl", "0").ok());
  ASSERT_TRUE(s3_options.Set("s3_access_key_id", "AKIDREDIRECT").ok());
  ASSERT_TRUE(s3_options.Set("s3_secret_access_key", "redirect-secret").ok());
  ASSERT_TRUE(s3_options.Set("s3_session_token", "SESSIONTOKENSECRET").ok());
  auto config = ResolveS3Config(s3_options, [](const std::string&) -> std::optional<std::string> { return {}; });
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  S3Client s3(*config, std::make_shared<HttpClient>(HttpOptions{}));
  HttpRequest signed_get = s3.MakeRequest("GET", "away", "");
  signed_get.url = origin.Url("/away");
  r = s3.http()->Send(signed_get);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(other.requests().size(), 2u);
  EXPECT_EQ(other.requests()[1].headers.count("x-amz-security-token"), 0u);
  EXPECT_EQ(origin.requests().back().headers["x-amz-security-token"], "SESSIONTOKENSECRET");
}

TEST(HttpClientRedirectTest, HttpsIsNeverRedirectedToHttp) {
  using Request = ScriptedServer::Request;
  ScriptedServer plain([](const Request&, int) { return ScriptedServer::Reply(200, {}, "plain"); });
  ScriptedServer secure(
      [&](const Request&, int) {
        return ScriptedServer::Reply(302, {{"Location", plain.Url("/landed.parquet?X-Amz-Signature=SIG")}});
      },
      true);
  ASSERT_FALSE(secure.ca_file().empty());
  HttpOptions o;
  o.ca_file = secure.ca_file();
  o.extra_headers = {{"X-Api-Key", "TOPSECRETKEY"}};
  HttpRequest get;
  get.url = "https://user:PASSWORD@127.0.0.1:" + std::to_string(secure.port()) + "/a.parquet?token=SECRET";
  auto r = HttpClient(o).Send(get);
  ASSERT_FALSE(r.ok());
  const std::string& m = r.status().message();
  EXPECT_NE(m.find("GET " + secure.Url("/a.parquet") + ": refused a redirect from https to " +
                   plain.Url("/landed.parquet")),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find("SECRET"), std::string::npos) << m;
  EXPECT_EQ(m.find("SIG"), std::string::npos) << m;
  EXPECT_EQ(m.find("PASSWORD"), std::string::npos) << m;
  EXPECT_EQ(secure.requests().size(), 1u);
  EXPECT_TRUE(plain.requests().empty());
}

}  // namespace
}  // namespace pq::remote
