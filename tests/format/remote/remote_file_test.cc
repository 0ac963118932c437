#include "format/remote/remote_file.h"
#include "format/remote/remote_access.h"

#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <thread>

#include "tests/format/remote/test_servers.h"

namespace pq::remote {
namespace {

using testing::ScriptedServer;
using testing::ServerProcess;
using testing::TempDir;

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

// nginx with a 1 MiB file, seen through the fault proxy (which logs every request's Range).
class RemoteFileTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    data_ = new std::string(RandomBytes(1 << 20, 11));
    dir_->Write("data.bin", *data_);
    dir_->Write("tiny.bin", "0123456789");
    std::string error;
    nginx_ = ServerProcess::Start("nginx_server.mjs", {"--root", dir_->path()}, &error).release();
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
    ASSERT_NE(proxy_, nullptr);
    Control("/__proxy/reset", "");
    http_ = std::make_shared<HttpClient>(Fast());
  }
  static HttpOptions Fast() {
    HttpOptions o;
    o.retry_wait_ms = 5;
    o.retry_backoff = 1;
    return o;
  }
  static std::string Control(const std::string& path, const std::string& body) {
    HttpClient control({});
    HttpRequest r;
    r.method = body.empty() && path.find("stats") != std::string::npos ? "GET" : "POST";
    r.url = proxy_->Url(path);
    r.body = body;
    auto done = control.Send(r);
    EXPECT_TRUE(done.ok()) << done.status().ToString();
    return done.ok() ? done->body : "";
  }
  // The Range header of every request the proxy saw since the last reset ("-" for none).
  static std::vector<std::string> Ranges() {
    const std::string stats = Control("/__proxy/stats", "");
    std::vector<std::string> out;
    const std::regex range("\"range\":(null|\"([^\"]*)\")");
    for (auto it = std::sregex_iterator(stats.begin(), stats.end(), range); it != std::sregex_iterator(); ++it) {
      out.push_back((*it)[1] == "null" ? "-" : (*it)[2].str());
    }
    return out;
  }
  // The tests below read around a 64 KiB tail (the 1 MiB object's last 65,536 bytes); the default
  // guess has its own test.
  static RemoteFileOptions Small() {
    RemoteFileOptions o;
    o.footer_guess = 64 << 10;
    return o;
  }
  Result<std::unique_ptr<RemoteFile>> Open(const std::string& path, RemoteFileOptions options = Small()) {
    return RemoteFile::Open(HttpLocation(http_, proxy_->Url(path)), options);
  }
  static std::string Read(const RemoteFile& f, int64_t offset, int64_t length) {
    std::string out(static_cast<size_t>(length), '\0');
    Status s = f.ReadInto(offset, length, reinterpret_cast<uint8_t*>(out.data()));
    EXPECT_TRUE(s.ok()) << s.ToString();
    return out;
  }

  std::shared_ptr<HttpClient> http_;
  static TempDir* dir_;
  static std::string* data_;
  static ServerProcess* nginx_;
  static ServerProcess* proxy_;
};
TempDir* RemoteFileTest::dir_ = nullptr;
std::string* RemoteFileTest::data_ = nullptr;
ServerProcess* RemoteFileTest::nginx_ = nullptr;
ServerProcess* RemoteFileTest::proxy_ = nullptr;

TEST_F(RemoteFileTest, OpenFetchesTheTailInOneRequest) {
  auto f = Open("/data.bin");
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ((*f)->size(), 1 << 20);
  EXPECT_EQ((*f)->tail_offset(), (1 << 20) - (64 << 10));
  EXPECT_FALSE((*f)->etag().empty());
  EXPECT_FALSE((*f)->last_modified().empty());
  EXPECT_EQ(Ranges(), std::vector<std::string>{"bytes=-65536"});
  // The footer's length and magic, then a footer within the tail: no request.
  EXPECT_EQ(Read(**f, (1 << 20) - 8, 8), data_->substr((1 << 20) - 8));
  EXPECT_EQ(Read(**f, (1 << 20) - 40000, 39992), data_->substr((1 << 20) - 40000, 39992));
  EXPECT_EQ(Ranges().size(), 1u);
  // A larger footer: one request for the part before the tail only.
  EXPECT_EQ(Read(**f, (1 << 20) - 100000, 99992), data_->substr((1 << 20) - 100000, 99992));
  EXPECT_EQ(Ranges(), (std::vector<std::string>{"bytes=-65536", "bytes=948576-983039"}));
  EXPECT_EQ((*f)->requests(), 2);
  EXPECT_EQ((*f)->bytes_fetched(), 65536 + 34464);
  // A file smaller than the guess comes whole.
  auto tiny = Open("/tiny.bin");
  ASSERT_TRUE(tiny.ok()) << tiny.status().ToString();
  EXPECT_EQ((*tiny)->size(), 10);
  EXPECT_EQ((*tiny)->tail_offset(), 0);
  EXPECT_EQ(Read(**tiny, 2, 5), "23456");
}

TEST_F(RemoteFileTest, TheDefaultGuessIs256KiB) {
  auto f = RemoteFile::Open(HttpLocation(http_, proxy_->Url("/data.bin")));
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(Ranges(), std::vector<std::string>{"bytes=-262144"});
  EXPECT_EQ((*f)->tail_offset(), (1 << 20) - (256 << 10));
  // Anything in the last 256 KiB is served from the tail.
  EXPECT_EQ(Read(**f, (1 << 20) - 250000, 249992), data_->substr((1 << 20) - 250000, 249992));
  EXPECT_EQ((*f)->requests(), 1);
}

TEST_F(RemoteFileTest, TheDefaultGapJoinsRangesUnder32KiBApart) {
  auto f = Open("/data.bin");  // 64 KiB tail: the ranges below are all before it
  ASSERT_TRUE(f.ok());
  std::string a(100, '\0'), b(100, '\0'), c(100, '\0');
  const ReadRange ranges[] = {
      {0, 100, reinterpret_cast<uint8_t*>(a.data())},
      {30100, 100, reinterpret_cast<uint8_t*>(b.data())},   // 30,000 after a: joined
      {100000, 100, reinterpret_cast<uint8_t*>(c.data())},  // 69,800 after b: its own request
  };
  ASSERT_TRUE((*f)->ReadRanges(ranges).ok());
  EXPECT_EQ(a, data_->substr(0, 100));
  EXPECT_EQ(b, data_->substr(30100, 100));
  EXPECT_EQ(c, data_->substr(100000, 100));
  std::vector<std::string> got = Ranges();
  std::sort(got.begin() + 1, got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"bytes=-65536", "bytes=0-30199", "bytes=100000-100099"}));
}

TEST_F(RemoteFileTest, NearbyRangesAreJoinedAndFarOnesFetchedTogether) {
  RemoteFileOptions o = Small();
  o.coalesce_gap = 4096;
  auto f = Open("/data.bin", o);
  ASSERT_TRUE(f.ok());
  std::string a(1000, '\0'), b(1000, '\0'), c(500, '\0'), d(100, '\0');
  const ReadRange ranges[] = {
      {500000, 100, reinterpret_cast<uint8_t*>(d.data())},  // far: its own request
      {0, 1000, reinterpret_cast<uint8_t*>(a.data())},
      {3000, 1000, reinterpret_cast<uint8_t*>(b.data())},  // 2000 after a: joined
      {3500, 500, reinterpret_cast<uint8_t*>(c.data())},   // inside b: joined
  };
  ASSERT_TRUE((*f)->ReadRanges(ranges).ok());
  EXPECT_EQ(a, data_->substr(0, 1000));
  EXPECT_EQ(b, data_->substr(3000, 1000));
  EXPECT_EQ(c, data_->substr(3500, 500));
  EXPECT_EQ(d, data_->substr(500000, 100));
  std::vector<std::string> got = Ranges();
  std::sort(got.begin() + 1, got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"bytes=-65536", "bytes=0-3999", "bytes=500000-500099"}));
  // Out of bounds is corruption, as for a local file.
  Status s = (*f)->ReadInto((1 << 20) - 10, 20, reinterpret_cast<uint8_t*>(a.data()));
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("outside the object of 1048576 bytes"), std::string::npos);
}

TEST_F(RemoteFileTest, LargeRangesAreSplitAndFetchedInParallel) {
  RemoteFileOptions o = Small();
  o.max_request_bytes = 100000;
  auto f = Open("/data.bin", o);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(Read(**f, 1000, 350000), data_->substr(1000, 350000));
  EXPECT_EQ(Ranges().size(), 5u);  // the tail, then 4 pieces
}

TEST_F(RemoteFileTest, ServerWithoutRangesIsHeldWhole) {
  auto f = RemoteFile::Open(HttpLocation(http_, nginx_->Url("/norange/data.bin")));
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_TRUE((*f)->held_whole());
  EXPECT_EQ((*f)->requests(), 2);
  EXPECT_EQ(Read(**f, 12345, 1000), data_->substr(12345, 1000));
  EXPECT_EQ((*f)->requests(), 2);
  RemoteFileOptions small;
  small.max_unranged_bytes = 1000;
  auto refused = RemoteFile::Open(HttpLocation(http_, nginx_->Url("/norange/data.bin")), small);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("does not serve byte ranges"), std::string::npos);
}

TEST_F(RemoteFileTest, FaultsAreRetriedAndNeverGiveWrongBytes) {
  auto f = Open("/data.bin");
  ASSERT_TRUE(f.ok());
  Control("/__proxy/faults", R"([{"truncate": 10}, {"status": 503}])");
  EXPECT_EQ(Read(**f, 100, 5000), data_->substr(100, 5000));
  EXPECT_EQ((*f)->requests(), 4);
  // A changed ETag mid-scan.
  Control("/__proxy/faults", R"([{"etag": "\"another-version\""}])");
  std::string out(100, '\0');
  Status s = (*f)->ReadInto(0, 100, reinterpret_cast<uint8_t*>(out.data()));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(proxy_->Url("/data.bin") + " changed since it was opened (ETag"), std::string::npos)
      << s.message();
  // A size that changed.
  Control("/__proxy/faults", R"([{"content_range": "bytes 0-99/2000000"}])");
  s = (*f)->ReadInto(0, 100, reinterpret_cast<uint8_t*>(out.data()));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("size 1048576 became 2000000"), std::string::npos) << s.message();
  // A missing object names its URL and the status.
  auto missing = Open("/missing.bin?token=SECRET");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find(proxy_->Url("/missing.bin") + ": GET"), std::string::npos)
      << missing.status().message();
  EXPECT_NE(missing.status().message().find("HTTP 404"), std::string::npos);
  EXPECT_EQ(missing.status().message().find("SECRET"), std::string::npos);
}

TEST_F(RemoteFileTest, ReplacedFileIsDetected) {
  dir_->Write("changing.bin", RandomBytes(200000, 1));
  auto f = Open("/changing.bin");
  ASSERT_TRUE(f.ok());
  auto changed = (*f)->Changed();
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_FALSE(*changed);
  // nginx's ETag is mtime and size: a new size is a new version.
  dir_->Write("changing.bin", RandomBytes(200001, 2));
  changed = (*f)->Changed();
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(*changed);
  std::string out(100, '\0');
  Status s = (*f)->ReadInto(0, 100, reinterpret_cast<uint8_t*>(out.data()));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("changed since it was opened (HTTP 412 to If-Match"), std::string::npos) << s.message();
}

TEST_F(RemoteFileTest, ConcurrentReadsFromManyThreads) {
  auto f = Open("/data.bin");
  ASSERT_TRUE(f.ok());
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        const int64_t offset = (t * 10 + i) * 20000;
        std::string out(3000, '\0');
        if (!(*f)->ReadInto(offset, 3000, reinterpret_cast<uint8_t*>(out.data())).ok() ||
            out != data_->substr(static_cast<size_t>(offset), 3000)) {
          ++wrong;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ((*f)->requests(), 41);
}

TEST(RemoteFileScriptedTest, AHugeAnswerToARangeIsRefusedBeforeItsBody) {
  constexpr int64_t kSize = int64_t{64} << 20;
  constexpr int64_t kTail = 1024;
  // The tail by a 206 once; then the whole object (a 200 of 64 MiB) whatever the Range.
  ScriptedServer server([](const ScriptedServer::Request& r, int earlier) {
    if (earlier == 0 && r.target == "/ranged.bin") {
      return ScriptedServer::Reply(206, {{"Content-Range", "bytes " + std::to_string(kSize - kTail) + "-" +
                                                               std::to_string(kSize - 1) + "/" + std::to_string(kSize)},
                                         {"ETag", "\"v1\""}},
                                   std::string(kTail, 'x'));
    }
    ScriptedServer::Answer whole =
        ScriptedServer::Reply(200, {{"Content-Length", std::to_string(kSize)}, {"ETag", "\"v1\""}});
    whole.stream_zeros = kSize;
    return whole;
  });
  auto http = std::make_shared<HttpClient>(HttpOptions{});
  RemoteFileOptions o;
  o.footer_guess = kTail;
  o.max_unranged_bytes = 1 << 20;
  auto ranged = RemoteFile::Open(HttpLocation(http, server.Url("/ranged.bin")), o);
  ASSERT_TRUE(ranged.ok()) << ranged.status().ToString();
  std::string out(100, '\0');
  Status s = (*ranged)->ReadInto(kSize / 2, 100, reinterpret_cast<uint8_t*>(out.data()));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("does not serve byte ranges, and the object's 67108864 bytes are more than the 1048576"),
            std::string::npos)
      << s.message();
  auto whole = RemoteFile::Open(HttpLocation(http, server.Url("/whole.bin")), o);
  ASSERT_FALSE(whole.ok());
  EXPECT_NE(whole.status().message().find("does not serve byte ranges"), std::string::npos)
      << whole.status().message();
  EXPECT_LT(http->counters().bytes_received.load(), 1 << 20);
}

TEST(RemoteFileScriptedTest, ARangeAnsweredWith200IsNamed) {
  // The tail by a 206; then every range as a 200 of only the range's bytes.
  ScriptedServer server([](const ScriptedServer::Request&, int earlier) {
    if (earlier == 0) {
      return ScriptedServer::Reply(206, {{"Content-Range", "bytes 900-999/1000"}}, std::string(100, 'x'));
    }
    return ScriptedServer::Reply(200, {}, std::string(50, 'y'));
  });
  RemoteFileOptions o;
  o.footer_guess = 100;
  auto f = RemoteFile::Open(HttpLocation(std::make_shared<HttpClient>(HttpOptions{}), server.Url("/a.bin")), o);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  std::string out(50, '\0');
  Status s = (*f)->ReadInto(10, 20, reinterpret_cast<uint8_t*>(out.data()));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("size 1000 became 50, by a 200 answer to a Range request, taken for the whole object"),
            std::string::npos)
      << s.message();
  s = (*f)->ReadInto(100, 50, reinterpret_cast<uint8_t*>(out.data()));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("a 200 answer to a Range request, taken for the whole object, of 50 bytes, which ends "
                             "before the bytes 100-149 asked"),
            std::string::npos)
      << s.message();
}

TEST(RemoteFileScriptedTest, AServerThatRefusesHeadIsAskedForOneByte) {
  std::atomic<int> head_status{405};
  std::atomic<bool> replaced{false};
  ScriptedServer server([&](const ScriptedServer::Request& r, int) {
    const std::string etag = replaced ? "\"v2\"" : "\"v1\"";
    if (r.method == "HEAD") return ScriptedServer::Reply(head_status, {});
    if (r.headers.at("range") == "bytes=0-0") {
      return ScriptedServer::Reply(206, {{"Content-Range", "bytes 0-0/1000"}, {"ETag", etag}}, "P");
    }
    return ScriptedServer::Reply(206, {{"Content-Range", "bytes 900-999/1000"}, {"ETag", etag}}, std::string(100, 'x'));
  });
  RemoteFileOptions o;
  o.footer_guess = 100;
  auto f = RemoteFile::Open(HttpLocation(std::make_shared<HttpClient>(HttpOptions{}), server.Url("/a.bin")), o);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  auto changed = (*f)->Changed();
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_FALSE(*changed);
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[1].method, "HEAD");
  EXPECT_EQ(requests[2].method, "GET");
  EXPECT_EQ(requests[2].headers["range"], "bytes=0-0");
  EXPECT_EQ(requests[2].headers["if-match"], "\"v1\"");
  EXPECT_EQ((*f)->requests(), 3);
  // A URL presigned for GET only answers HEAD with 403; the first byte tells the object changed.
  head_status = 403;
  replaced = true;
  changed = (*f)->Changed();
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_TRUE(*changed);
}

TEST(RemoteFileScriptedTest, AnAnswerWithoutTheETagConfirmsNothing) {
  // The tail with ETag "v1"; then ranges without ETag (a proxy dropped it), one with it, one
  // without ETag but with another Last-Modified, and one with neither (and a HEAD with neither).
  ScriptedServer server([](const ScriptedServer::Request& r, int earlier) {
    if (r.method == "HEAD") return ScriptedServer::Reply(200, {{"Content-Length", "1000"}});
    const std::string range = r.headers.at("range");
    std::vector<std::pair<std::string, std::string>> headers = {
        {"Content-Range", range == "bytes=-100" ? "bytes 900-999/1000" : "bytes 0-9/1000"}};
    if (earlier == 0 || earlier == 2) headers.emplace_back("ETag", "\"v1\"");
    if (earlier < 4) {
      headers.emplace_back("Last-Modified",
                           earlier == 3 ? "Thu, 26 Nov 2026 10:00:00 GMT" : "Wed, 25 Nov 2026 10:00:00 GMT");
    }
    return ScriptedServer::Reply(206, headers, std::string(range == "bytes=-100" ? 100 : 10, 'x'));
  });
  RemoteFileOptions o;
  o.footer_guess = 100;
  auto f = RemoteFile::Open(HttpLocation(std::make_shared<HttpClient>(HttpOptions{}), server.Url("/a.bin")), o);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  std::string out(10, '\0');
  ASSERT_TRUE((*f)->ReadInto(0, 10, reinterpret_cast<uint8_t*>(out.data())).ok());
  EXPECT_EQ((*f)->confirmations(), 0u);
  ASSERT_TRUE((*f)->ReadInto(0, 10, reinterpret_cast<uint8_t*>(out.data())).ok());
  EXPECT_EQ((*f)->confirmations(), 1u);
  Status s = (*f)->ReadInto(0, 10, reinterpret_cast<uint8_t*>(out.data()));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(server.Url("/a.bin") + " changed since it was opened (Last-Modified"), std::string::npos)
      << s.message();
  EXPECT_EQ((*f)->change(),
            "Last-Modified Wed, 25 Nov 2026 10:00:00 GMT became Thu, 26 Nov 2026 10:00:00 GMT");
}

// A server that stops sending the validators the object was opened with: its bytes could be of
// another version of the same size, so they are refused.
TEST(RemoteFileScriptedTest, AnAnswerWithNoneOfTheValidatorsIsRefused) {
  ScriptedServer server([](const ScriptedServer::Request& r, int earlier) {
    if (r.method == "HEAD") return ScriptedServer::Reply(200, {{"Content-Length", "1000"}});
    const std::string range = r.headers.at("range");
    std::vector<std::pair<std::string, std::string>> headers = {
        {"Content-Range", range == "bytes=-100" ? "bytes 900-999/1000" : "bytes 0-9/1000"}};
    if (earlier == 0) {
      headers.emplace_back("ETag", "\"v1\"");
      headers.emplace_back("Last-Modified", "Wed, 25 Nov 2026 10:00:00 GMT");
    }
    return ScriptedServer::Reply(206, headers, std::string(range == "bytes=-100" ? 100 : 10, 'y'));
  });
  RemoteFileOptions o;
  o.footer_guess = 100;
  auto f = RemoteFile::Open(HttpLocation(std::make_shared<HttpClient>(HttpOptions{}), server.Url("/a.bin")), o);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  std::string out(10, '\0');
  Status s = (*f)->ReadInto(0, 10, reinterpret_cast<uint8_t*>(out.data()));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(server.Url("/a.bin") + ": an answer came without the ETag the object was opened with "
                                                    "(\"v1\"), so nothing shows it is of that version"),
            std::string::npos)
      << s.message();
  // A HEAD without them cannot tell either: taken as unchanged (same size), confirming nothing.
  const uint64_t confirmed = (*f)->confirmations();
  auto changed = (*f)->Changed();
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_FALSE(*changed);
  EXPECT_EQ((*f)->confirmations(), confirmed);
  EXPECT_FALSE((*f)->changed_seen());
}

// A server that takes no suffix range answers 416 to one: the size comes from the 416's
// Content-Range, or else from a HEAD, and the tail is asked for as a plain range. An empty object
// (416 to every range) opens as an object of 0 bytes.
TEST(RemoteFileScriptedTest, AServerThatRefusesSuffixRangesIsAskedForThePlainRange) {
  const std::string data = RandomBytes(1000, 5);
  for (const bool says_size : {true, false}) {
    ScriptedServer server([&](const ScriptedServer::Request& r, int) {
      if (r.method == "HEAD") return ScriptedServer::Reply(200, {{"Content-Length", "1000"}, {"ETag", "\"v\""}});
      const std::string range = r.headers.at("range");
      if (range.rfind("bytes=-", 0) == 0) {
        std::vector<std::pair<std::string, std::string>> headers;
        if (says_size) headers.emplace_back("Content-Range", "bytes */1000");
        return ScriptedServer::Reply(416, headers);
      }
      EXPECT_EQ(range, "bytes=900-999");
      return ScriptedServer::Reply(206, {{"Content-Range", "bytes 900-999/1000"}, {"ETag", "\"v\""}}, data.substr(900));
    });
    RemoteFileOptions o;
    o.footer_guess = 100;
    auto f = RemoteFile::Open(HttpLocation(std::make_shared<HttpClient>(HttpOptions{}), server.Url("/a.bin")), o);
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    EXPECT_EQ((*f)->size(), 1000);
    EXPECT_EQ((*f)->tail_offset(), 900);
    EXPECT_EQ((*f)->etag(), "\"v\"");
    std::string tail(100, '\0');
    ASSERT_TRUE((*f)->ReadInto(900, 100, reinterpret_cast<uint8_t*>(tail.data())).ok());
    EXPECT_EQ(tail, data.substr(900));
    EXPECT_EQ((*f)->requests(), says_size ? 2 : 3);
  }
  ScriptedServer empty([](const ScriptedServer::Request&, int) {
    return ScriptedServer::Reply(416, {{"Content-Range", "bytes */0"}});
  });
  auto f = RemoteFile::Open(HttpLocation(std::make_shared<HttpClient>(HttpOptions{}), empty.Url("/empty.bin")));
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ((*f)->size(), 0);
}

TEST(RemoteFileScriptedTest, AUrlIsNamedAsWritten) {
  ScriptedServer server([](const ScriptedServer::Request&, int) {
    return ScriptedServer::Reply(206, {{"Content-Range", "bytes 0-9/10"}}, "0123456789");
  });
  RemoteAccess access(nullptr, {});
  const std::string written = "http://user:PASSWORD@127.0.0.1:" + std::to_string(server.port()) +
                              "/data/sp ace.parquet?X-Amz-Signature=SIG#part";
  auto f = access.Open(written);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ((*f)->display_name(), server.Url("/data/sp ace.parquet"));
  EXPECT_EQ(server.requests()[0].target, "/data/sp%20ace.parquet?X-Amz-Signature=SIG");
}

TEST(RemoteFileS3Test, ReadsAnS3ObjectByRanges) {
  std::string error;
  auto server = ServerProcess::Start("s3_server.mjs", {"--buckets", "data", "--access-key", "AKIDFILE",
                                                       "--secret-key", "file-secret"}, &error);
  ASSERT_NE(server, nullptr) << error;
  S3Options o;
  ASSERT_TRUE(o.Set("s3_endpoint", "http://127.0.0.1:" + std::to_string(server->port())).ok());
  ASSERT_TRUE(o.Set("s3_access_key_id", "AKIDFILE").ok());
  ASSERT_TRUE(o.Set("s3_secret_access_key", "file-secret").ok());
  auto config = ResolveS3Config(o, [](const std::string&) -> std::optional<std::string> { return std::nullopt; });
  ASSERT_TRUE(config.ok());
  auto s3 = std::make_shared<S3Client>(*config, std::make_shared<HttpClient>(HttpOptions{}));
  const std::string data = RandomBytes(300000, 21);
  ASSERT_TRUE(s3->PutObject("data", "dir/file one.parquet", data).ok());
  RemoteFileOptions small;
  small.footer_guess = 64 << 10;
  auto f = RemoteFile::Open(S3Location(s3, "data", "dir/file one.parquet"), small);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ((*f)->display_name(), "s3://data/dir/file one.parquet");
  EXPECT_EQ((*f)->size(), 300000);
  EXPECT_EQ((*f)->tail_offset(), 300000 - 65536);
  std::string a(1000, '\0'), b(70000, '\0');
  const ReadRange ranges[] = {{5, 1000, reinterpret_cast<uint8_t*>(a.data())},
                              {200000, 70000, reinterpret_cast<uint8_t*>(b.data())}};
  ASSERT_TRUE((*f)->ReadRanges(ranges).ok());
  EXPECT_EQ(a, data.substr(5, 1000));
  EXPECT_EQ(b, data.substr(200000, 70000));
  EXPECT_EQ((*f)->requests(), 3);
  auto changed = (*f)->Changed();
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_FALSE(*changed);
  ASSERT_TRUE(s3->PutObject("data", "dir/file one.parquet", RandomBytes(300000, 22)).ok());
  changed = (*f)->Changed();
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(*changed);
  Status s = (*f)->ReadInto(0, 10, reinterpret_cast<uint8_t*>(a.data()));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("s3://data/dir/file one.parquet changed since it was opened"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace pq::remote
