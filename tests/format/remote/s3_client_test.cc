#include "format/remote/s3_client.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "format/remote/s3_output_file.h"
#include "format/remote/xml_reader.h"
#include "tests/format/remote/test_servers.h"

namespace pq::remote {
namespace {

using testing::ScriptedServer;
using testing::ServerProcess;

const char kKey[] = "AKIDREMOTETEST";
const char kSecret[] = "remote-test-secret/KEY+1";

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

EnvironmentLookup NoEnvironment() {
  return [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
}

// The S3 test server (s3rver behind tests/tools/s3_server.mjs, which checks every signature with
// aws4) with buckets "data" and "out", shared by the tests of this suite.
class S3ClientTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string error;
    server_ = ServerProcess::Start("s3_server.mjs",
                                   {"--buckets", "data,out", "--access-key", kKey, "--secret-key", kSecret,
                                    "--region", "eu-west-3"},
                                   &error)
                  .release();
    ASSERT_NE(server_, nullptr) << error;
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(server_, nullptr);
    Control("POST", "/__s3/reset", "");
  }

  static std::string Control(const std::string& method, const std::string& path, const std::string& body) {
    HttpClient control({});
    HttpRequest r;
    r.method = method;
    r.url = server_->Url(path);
    r.body = body;
    auto done = control.Send(r);
    EXPECT_TRUE(done.ok()) << done.status().ToString();
    return done.ok() ? done->body : "";
  }
  // How many logged requests contain `text` in "METHOD url".
  static int Logged(const std::string& text) {
    const std::string stats = Control("GET", "/__s3/stats", "");
    int n = 0;
    size_t at = 0;
    while ((at = stats.find("\"method\":\"", at)) != std::string::npos) {
      at += 10;
      const std::string method = stats.substr(at, stats.find('"', at) - at);
      const size_t url_at = stats.find("\"url\":\"", at) + 7;
      const std::string url = stats.substr(url_at, stats.find('"', url_at) - url_at);
      if ((method + " " + url).find(text) != std::string::npos) ++n;
    }
    return n;
  }

  static S3Options Options(const std::string& key = kKey, const std::string& secret = kSecret) {
    S3Options o;
    EXPECT_TRUE(o.Set("s3_endpoint", "127.0.0.1:" + std::to_string(server_->port())).ok());
    EXPECT_TRUE(o.Set("s3_use_ssl", "false").ok());
    EXPECT_TRUE(o.Set("s3_region", "eu-west-3").ok());
    if (!key.empty()) {
      EXPECT_TRUE(o.Set("s3_access_key_id", key).ok());
      EXPECT_TRUE(o.Set("s3_secret_access_key", secret).ok());
    }
    return o;
  }
  static std::shared_ptr<S3Client> Client(const S3Options& options, HttpOptions http = Fast()) {
    auto config = ResolveS3Config(options, NoEnvironment());
    EXPECT_TRUE(config.ok()) << config.status().ToString();
    return std::make_shared<S3Client>(*config, std::make_shared<HttpClient>(http));
  }
  static std::shared_ptr<S3Client> Client() { return Client(Options()); }
  static HttpOptions Fast() {
    HttpOptions o;
    o.retry_wait_ms = 5;
    o.retry_backoff = 1;
    o.retries = 1;
    return o;
  }
  static std::string Get(S3Client& s3, const std::string& bucket, const std::string& key) {
    auto r = s3.http()->Send(s3.MakeRequest("GET", bucket, key));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return "<error>";
    if (r->status != 200) return "<HTTP " + std::to_string(r->status) + ">";
    return r->body;
  }
  static int PendingUploads(S3Client& s3, const std::string& bucket) {
    auto r = s3.http()->Send(s3.MakeRequest("GET", bucket, "", {{"uploads", ""}}));
    EXPECT_TRUE(r.ok() && r->status == 200);
    auto xml = ParseXml(r.ok() ? r->body : "");
    EXPECT_TRUE(xml.ok());
    return xml.ok() ? static_cast<int>(xml->Children("Upload").size()) : -1;
  }

  static ServerProcess* server_;
};
ServerProcess* S3ClientTest::server_ = nullptr;

TEST_F(S3ClientTest, PutHeadGetAndListEveryPage) {
  auto s3 = Client();
  std::vector<std::string> keys;
  for (int i = 0; i < 23; ++i) keys.push_back("list/part-" + std::to_string(100 + i) + ".parquet");
  keys.push_back("list/sub dir/a+b=c&d.parquet");
  keys.push_back("list/\xC3\xA9t\xC3\xA9/x.parquet");
  keys.push_back("list/.hidden/y.parquet");
  keys.push_back("other/z.parquet");
  for (const std::string& k : keys) ASSERT_TRUE(s3->PutObject("data", k, "content of " + k).ok()) << k;
  EXPECT_EQ(Get(*s3, "data", "list/sub dir/a+b=c&d.parquet"), "content of list/sub dir/a+b=c&d.parquet");
  auto head = s3->Head("data", "list/\xC3\xA9t\xC3\xA9/x.parquet");
  ASSERT_TRUE(head.ok()) << head.status().ToString();
  EXPECT_EQ(head->size, static_cast<int64_t>(std::string("content of list/\xC3\xA9t\xC3\xA9/x.parquet").size()));
  EXPECT_FALSE(head->etag.empty());

  Control("POST", "/__s3/reset", "");
  auto listed = s3->List("data", "list/", 7);
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  std::vector<std::string> got;
  for (const auto& o : *listed) got.push_back(o.key);
  std::vector<std::string> want(keys.begin(), keys.end() - 1);
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  EXPECT_EQ(Logged("list-type=2"), 4);  // 26 keys, 7 a page
  EXPECT_EQ(Logged("continuation-token="), 3);
  for (const auto& o : *listed) {
    EXPECT_EQ(o.size, static_cast<int64_t>(("content of " + o.key).size()));
    EXPECT_EQ(o.etag.front(), '"');
  }

  auto glob = s3->ListGlob("data", "list/**/*.parquet", 1000);
  ASSERT_TRUE(glob.ok()) << glob.status().ToString();
  EXPECT_EQ(glob->size(), 25u);  // not the one under .hidden
  glob = s3->ListGlob("data", "list/part-1[01]?.parquet");
  ASSERT_TRUE(glob.ok());
  EXPECT_EQ(glob->size(), 20u);
  glob = s3->ListGlob("data", "list/*/*.parquet");
  ASSERT_TRUE(glob.ok());
  ASSERT_EQ(glob->size(), 2u);
  EXPECT_EQ((*glob)[0].key, "list/sub dir/a+b=c&d.parquet");
  glob = s3->ListGlob("data", "nothing/*.parquet");
  ASSERT_TRUE(glob.ok());
  EXPECT_TRUE(glob->empty());

  auto missing = s3->Head("data", "list/missing.parquet");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("s3://data/list/missing.parquet"), std::string::npos)
      << missing.status().message();
  EXPECT_NE(missing.status().message().find("HTTP 404"), std::string::npos) << missing.status().message();
  ASSERT_TRUE(s3->DeleteObject("data", "other/z.parquet").ok());
  EXPECT_FALSE(s3->Head("data", "other/z.parquet").ok());
}

TEST_F(S3ClientTest, SignaturesAreCheckedByTheServer) {
  auto s3 = Client();
  ASSERT_TRUE(s3->PutObject("data", "sig/ok.bin", "x").ok());
  EXPECT_EQ(Logged("PUT /data/sig/ok.bin"), 1);
  // A wrong secret: the front's aws4 check refuses it, and no message shows either secret.
  auto wrong = Client(Options(kKey, "not-the-secret"));
  Status s = wrong->PutObject("data", "sig/bad.bin", "x");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("HTTP 403 SignatureDoesNotMatch"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("not-the-secret"), std::string::npos);
  EXPECT_EQ(s.message().find(kSecret), std::string::npos);
  // The region is part of the scope.
  S3Options other_region = Options();
  ASSERT_TRUE(other_region.Set("s3_region", "us-east-1").ok());
  EXPECT_FALSE(Client(other_region)->PutObject("data", "sig/bad.bin", "x").ok());
  // Anonymous requests go unsigned (this server lets them through).
  S3Options anonymous = Options("", "");
  auto anon = Client(anonymous);
  EXPECT_EQ(Get(*anon, "data", "sig/ok.bin"), "x");
}

TEST_F(S3ClientTest, SessionTokensAndRequiredAuth) {
  std::string error;
  auto strict = ServerProcess::Start("s3_server.mjs",
                                     {"--buckets", "b", "--access-key", kKey, "--secret-key", kSecret, "--region",
                                      "eu-west-3", "--session-token", "TOKEN/abc+=", "--require-auth"},
                                     &error);
  ASSERT_NE(strict, nullptr) << error;
  S3Options o = Options();
  ASSERT_TRUE(o.Set("s3_endpoint", "http://127.0.0.1:" + std::to_string(strict->port())).ok());
  Status no_token = Client(o)->PutObject("b", "k", "v");
  EXPECT_NE(no_token.message().find("HTTP 403"), std::string::npos) << no_token.message();
  ASSERT_TRUE(o.Set("s3_session_token", "TOKEN/abc+=").ok());
  auto s3 = Client(o);
  ASSERT_TRUE(s3->PutObject("b", "k", "v").ok());
  EXPECT_EQ(Get(*s3, "b", "k"), "v");
  S3Options anonymous = Options("", "");
  ASSERT_TRUE(anonymous.Set("s3_endpoint", "127.0.0.1:" + std::to_string(strict->port())).ok());
  auto denied = Client(anonymous)->Head("b", "k");
  ASSERT_FALSE(denied.ok());
  EXPECT_NE(denied.status().message().find("HTTP 403"), std::string::npos) << denied.status().message();
}

TEST_F(S3ClientTest, VirtualHostStyle) {
  S3Options o = Options();
  ASSERT_TRUE(o.Set("s3_endpoint", "s3.localhost:" + std::to_string(server_->port())).ok());
  ASSERT_TRUE(o.Set("s3_url_style", "vhost").ok());
  auto s3 = Client(o);
  EXPECT_EQ(s3->ObjectUrl("data", "a b.parquet"),
            "http://data.s3.localhost:" + std::to_string(server_->port()) + "/a%20b.parquet");
  ASSERT_TRUE(s3->PutObject("data", "vhost/a b.parquet", "vhost bytes").ok());
  EXPECT_EQ(Get(*Client(), "data", "vhost/a b.parquet"), "vhost bytes");  // read back path style
  auto listed = s3->List("data", "vhost/");
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  ASSERT_EQ(listed->size(), 1u);
}

TEST_F(S3ClientTest, MultipartUploadCompleteAndAbort) {
  auto s3 = Client();
  auto id = s3->CreateMultipartUpload("out", "mp/whole.bin");
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  const std::string a = RandomBytes(70000, 1), b = RandomBytes(70000, 2), c = RandomBytes(123, 3);
  std::vector<std::string> etags;
  for (const std::string* part : {&a, &b, &c}) {
    auto etag = s3->UploadPart("out", "mp/whole.bin", *id, static_cast<int>(etags.size()) + 1, *part);
    ASSERT_TRUE(etag.ok()) << etag.status().ToString();
    etags.push_back(*etag);
  }
  EXPECT_EQ(PendingUploads(*s3, "out"), 1);
  EXPECT_FALSE(s3->Head("out", "mp/whole.bin").ok());  // nothing visible before completion
  ASSERT_TRUE(s3->CompleteMultipartUpload("out", "mp/whole.bin", *id, etags).ok());
  EXPECT_EQ(Get(*s3, "out", "mp/whole.bin"), a + b + c);
  EXPECT_EQ(PendingUploads(*s3, "out"), 0);

  auto aborted = s3->CreateMultipartUpload("out", "mp/aborted.bin");
  ASSERT_TRUE(aborted.ok());
  ASSERT_TRUE(s3->UploadPart("out", "mp/aborted.bin", *aborted, 1, a).ok());
  EXPECT_EQ(PendingUploads(*s3, "out"), 1);
  ASSERT_TRUE(s3->AbortMultipartUpload("out", "mp/aborted.bin", *aborted).ok());
  EXPECT_EQ(PendingUploads(*s3, "out"), 0);
  EXPECT_FALSE(s3->Head("out", "mp/aborted.bin").ok());
}

TEST_F(S3ClientTest, OutputFileSmallIsOnePut) {
  auto s3 = Client();
  auto out = S3OutputFile::Create(s3, "out", "w/small.parquet", {64 << 10});
  ASSERT_TRUE(out.ok());
  const std::string data = RandomBytes(1000, 4);
  ASSERT_TRUE((*out)->Append(AsBytes(std::string_view(data).substr(0, 10))).ok());
  ASSERT_TRUE((*out)->Append(AsBytes(std::string_view(data).substr(10))).ok());
  EXPECT_EQ((*out)->position(), 1000);
  EXPECT_FALSE(s3->Head("out", "w/small.parquet").ok());
  ASSERT_TRUE((*out)->Close().ok());
  EXPECT_EQ(Get(*s3, "out", "w/small.parquet"), data);
  EXPECT_EQ(Logged("uploads"), 0);
  EXPECT_EQ(Logged("PUT /out/w/small.parquet"), 1);
  EXPECT_EQ((*out)->parts_uploaded(), 0);
}

TEST_F(S3ClientTest, OutputFileLargeIsAMultipartUpload) {
  auto s3 = Client();
  auto out = S3OutputFile::Create(s3, "out", "w/large.parquet", {64 << 10});
  ASSERT_TRUE(out.ok());
  const std::string data = RandomBytes(200000, 5);
  for (size_t at = 0; at < data.size(); at += 9999) {
    ASSERT_TRUE((*out)->Append(AsBytes(std::string_view(data).substr(at, 9999))).ok());
  }
  EXPECT_EQ((*out)->parts_uploaded(), 3);
  EXPECT_FALSE(s3->Head("out", "w/large.parquet").ok());
  ASSERT_TRUE((*out)->Close().ok());
  EXPECT_EQ((*out)->parts_uploaded(), 4);  // 3 x 64 KiB + the rest
  EXPECT_EQ(Get(*s3, "out", "w/large.parquet"), data);
  EXPECT_EQ(Logged("POST /out/w/large.parquet?uploads"), 1);
  EXPECT_EQ(Logged("PUT /out/w/large.parquet?partNumber="), 4);
  EXPECT_EQ(Logged("POST /out/w/large.parquet?uploadId="), 1);
  EXPECT_EQ(PendingUploads(*s3, "out"), 0);
  // Exactly one part's worth: one PutObject, no upload.
  auto exact = S3OutputFile::Create(s3, "out", "w/exact.parquet", {1000});
  ASSERT_TRUE((*exact)->Append(AsBytes(std::string_view(data).substr(0, 1000))).ok());
  ASSERT_TRUE((*exact)->Close().ok());
  EXPECT_EQ((*exact)->parts_uploaded(), 0);
  EXPECT_EQ(Get(*s3, "out", "w/exact.parquet"), data.substr(0, 1000));
}

TEST_F(S3ClientTest, OutputFileFailuresAbortAndLeaveNothing) {
  auto s3 = Client();
  ASSERT_TRUE(s3->PutObject("out", "w/keep.parquet", "the old object").ok());
  const std::string data = RandomBytes(300000, 6);

  // A part that keeps failing: the upload is aborted, the old object stays.
  Control("POST", "/__s3/faults", R"([{"match": "partNumber=2", "status": 500, "times": 5}])");
  auto out = S3OutputFile::Create(s3, "out", "w/keep.parquet", {64 << 10});
  ASSERT_TRUE(out.ok());
  Status s;
  for (size_t at = 0; at < data.size() && s.ok(); at += 50000) {
    s = (*out)->Append(AsBytes(std::string_view(data).substr(at, 50000)));
  }
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("s3://out/w/keep.parquet"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("HTTP 500"), std::string::npos) << s.message();
  EXPECT_FALSE((*out)->Close().ok());
  EXPECT_EQ(PendingUploads(*s3, "out"), 0);
  EXPECT_EQ(Logged("DELETE /out/w/keep.parquet?uploadId="), 1);
  EXPECT_EQ(Get(*s3, "out", "w/keep.parquet"), "the old object");

  // Completion fails: aborted too.
  Control("POST", "/__s3/reset", "");
  Control("POST", "/__s3/faults", R"([{"match": "POST /out/w/keep.parquet?uploadId=", "status": 503, "times": 5}])");
  out = S3OutputFile::Create(s3, "out", "w/keep.parquet", {64 << 10});
  ASSERT_TRUE((*out)->Append(AsBytes(data)).ok());
  s = (*out)->Close();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("HTTP 503"), std::string::npos) << s.message();
  EXPECT_EQ(PendingUploads(*s3, "out"), 0);
  EXPECT_EQ(Get(*s3, "out", "w/keep.parquet"), "the old object");

  // Given up, or dropped unclosed: aborted.
  Control("POST", "/__s3/reset", "");
  out = S3OutputFile::Create(s3, "out", "w/dropped.parquet", {64 << 10});
  ASSERT_TRUE((*out)->Append(AsBytes(data)).ok());
  EXPECT_EQ(PendingUploads(*s3, "out"), 1);
  out->reset();
  EXPECT_EQ(PendingUploads(*s3, "out"), 0);
  EXPECT_FALSE(s3->Head("out", "w/dropped.parquet").ok());
  auto removed = S3OutputFile::Create(s3, "out", "w/removed.parquet", {64 << 10});
  ASSERT_TRUE((*removed)->Append(AsBytes(data)).ok());
  (*removed)->Remove();
  EXPECT_EQ(PendingUploads(*s3, "out"), 0);
  EXPECT_FALSE(s3->Head("out", "w/removed.parquet").ok());
  EXPECT_EQ(Logged("DELETE /out/w/"), 2);
  EXPECT_FALSE(S3OutputFile::Create(s3, "out", "folder/", {}).ok());
}

TEST(S3ListingTest, AListingThatNeverEndsIsCut) {
  // A new continuation token on every page, no key: only a bound on pages stops it (this server
  // gives up after 200 pages, so the test ends either way).
  ScriptedServer server([](const ScriptedServer::Request&, int earlier) {
    const bool more = earlier < 200;
    return ScriptedServer::Reply(
        200, {{"Content-Type", "application/xml"}},
        "<ListBucketResult><IsTruncated>" + std::string(more ? "true" : "false") +
            "</IsTruncated><NextContinuationToken>t" + std::to_string(earlier) +
            "</NextContinuationToken></ListBucketResult>");
  });
  S3Options o;
  ASSERT_TRUE(o.Set("s3_endpoint", "127.0.0.1:" + std::to_string(server.port())).ok());
  ASSERT_TRUE(o.Set("s3_use_ssl", "0").ok());
  auto config = ResolveS3Config(o, NoEnvironment());
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  S3Client s3(*config, std::make_shared<HttpClient>(HttpOptions{}));
  auto listed = s3.List("bucket", "a/", 1000, 10000000, 50);
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(listed.status().message(), "the listing of s3://bucket/a/ did not end after 50 pages");
  EXPECT_EQ(server.requests().size(), 50u);
}

// Presence: one HEAD. No object is kAbsent; an object kPresent with its size and ETag, which changes
// with its content.
TEST_F(S3ClientTest, PresenceTellsAnAbsentObjectFromOneAndItsVersion) {
  auto s3 = Client();
  auto absent = s3->Presence("out", "presence/x.parquet");
  ASSERT_TRUE(absent.ok()) << absent.status().ToString();
  EXPECT_EQ(absent->kind, S3Presence::kAbsent);
  ASSERT_TRUE(s3->PutObject("out", "presence/x.parquet", "first").ok());
  auto first = s3->Presence("out", "presence/x.parquet");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_EQ(first->kind, S3Presence::kPresent);
  EXPECT_EQ(first->info.size, 5);
  EXPECT_FALSE(first->info.etag.empty());
  ASSERT_TRUE(s3->PutObject("out", "presence/x.parquet", "second").ok());
  auto second = s3->Presence("out", "presence/x.parquet");
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  ASSERT_EQ(second->kind, S3Presence::kPresent);
  EXPECT_EQ(second->info.size, 6);
  EXPECT_NE(second->info.etag, first->info.etag);
}

// A 403 (a credential that may write but not read) cannot tell: kUnknown; another error status is
// an error naming the object.
TEST(S3ClientScriptedTest, PresenceOf403IsUnknownAndOf500AnError) {
  for (const int status : {403, 500}) {
    SCOPED_TRACE(status);
    ScriptedServer server([status](const ScriptedServer::Request&, int) {
      return ScriptedServer::Reply(status, {}, "");
    });
    S3Options o;
    ASSERT_TRUE(o.Set("s3_endpoint", "127.0.0.1:" + std::to_string(server.port())).ok());
    ASSERT_TRUE(o.Set("s3_use_ssl", "0").ok());
    auto config = ResolveS3Config(o, NoEnvironment());
    ASSERT_TRUE(config.ok()) << config.status().ToString();
    HttpOptions fast;
    fast.retry_wait_ms = 1;
    fast.retries = 0;
    S3Client s3(*config, std::make_shared<HttpClient>(fast));
    auto presence = s3.Presence("bucket", "a/b.parquet");
    if (status == 403) {
      ASSERT_TRUE(presence.ok()) << presence.status().ToString();
      EXPECT_EQ(presence->kind, S3Presence::kUnknown);
    } else {
      ASSERT_FALSE(presence.ok());
      EXPECT_NE(presence.status().message().find("s3://bucket/a/b.parquet"), std::string::npos)
          << presence.status().message();
      EXPECT_NE(presence.status().message().find("500"), std::string::npos) << presence.status().message();
    }
  }
}

}  // namespace
}  // namespace pq::remote
