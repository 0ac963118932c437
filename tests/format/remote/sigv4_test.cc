#include "format/remote/sigv4.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "format/remote/remote_url.h"
#include "tests/format/remote/test_servers.h"

namespace pq::remote {
namespace {

// AWS's example credentials, from the Signature Version 4 documentation.
const AwsCredentials kS3DocKeys{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
const AwsCredentials kSuiteKeys{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""};

TEST(SigV4Test, Sha256OfKnownInputs) {
  EXPECT_EQ(Sha256Hex(""), kEmptyPayloadHash);
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// The four examples of the S3 API reference, "Signature Calculations for the Authorization Header:
// Transferring Payload in a Single Chunk": bucket examplebucket, 2013-05-24, us-east-1.
TEST(SigV4Test, S3DocumentationExamples) {
  const SigV4Scope scope{"20130524T000000Z", "us-east-1", "s3"};
  const std::string host = "examplebucket.s3.amazonaws.com";
  {  // GET Object, first 10 bytes
    SigV4Request r{"GET", "/test.txt", {}, {{"Host", host}, {"Range", "bytes=0-9"},
                   {"x-amz-content-sha256", std::string(kEmptyPayloadHash)}, {"x-amz-date", scope.amz_date}},
                   std::string(kEmptyPayloadHash)};
    SigV4Signature s = SignV4(r, kS3DocKeys, scope);
    EXPECT_EQ(s.canonical_request,
              "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
              "x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
              "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(s.string_to_sign,
              "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
              "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
    EXPECT_EQ(s.signature, "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    EXPECT_EQ(s.authorization,
              "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
              "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
              "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  }
  {  // PUT Object "test$file.text" with a signed payload and a storage class
    const std::string payload = "Welcome to Amazon S3.";
    const std::string hash = Sha256Hex(payload);
    EXPECT_EQ(hash, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    SigV4Request r{"PUT", "/" + UriEncode("test$file.text", true), {},
                   {{"Host", host}, {"Date", "Fri, 24 May 2013 00:00:00 GMT"}, {"x-amz-date", scope.amz_date},
                    {"x-amz-storage-class", "REDUCED_REDUNDANCY"}, {"x-amz-content-sha256", hash}},
                   hash};
    SigV4Signature s = SignV4(r, kS3DocKeys, scope);
    EXPECT_EQ(s.canonical_request.substr(0, 22), "PUT\n/test%24file.text\n");
    EXPECT_EQ(s.signed_headers, "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class");
    EXPECT_EQ(s.signature, "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
  }
  {  // GET Bucket lifecycle: a query parameter without a value
    SigV4Request r{"GET", "/", {{"lifecycle", ""}}, {{"Host", host}, {"x-amz-date", scope.amz_date},
                   {"x-amz-content-sha256", std::string(kEmptyPayloadHash)}}, std::string(kEmptyPayloadHash)};
    SigV4Signature s = SignV4(r, kS3DocKeys, scope);
    EXPECT_EQ(s.canonical_request.substr(0, 17), "GET\n/\nlifecycle=\n");
    EXPECT_EQ(s.signature, "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
  }
  {  // GET Bucket (list objects): query parameters sorted
    SigV4Request r{"GET", "/", {{"prefix", "J"}, {"max-keys", "2"}}, {{"Host", host},
                   {"x-amz-date", scope.amz_date}, {"x-amz-content-sha256", std::string(kEmptyPayloadHash)}},
                   std::string(kEmptyPayloadHash)};
    SigV4Signature s = SignV4(r, kS3DocKeys, scope);
    EXPECT_EQ(s.canonical_request.substr(0, 28), "GET\n/\nmax-keys=2&prefix=J\nho");
    EXPECT_EQ(s.signature, "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  }
}

// Cases of AWS's Signature Version 4 test suite (service "service", us-east-1, 2015-08-30 12:36:00):
// each request's inputs and the published signature.
TEST(SigV4Test, AwsTestSuiteVectors) {
  const SigV4Scope scope{"20150830T123600Z", "us-east-1", "service"};
  const std::string hash(kEmptyPayloadHash);
  struct Case {
    const char* name;
    SigV4Request request;
    const char* signature;
  };
  const HeaderList base = {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}};
  std::vector<Case> cases = {
      {"get-vanilla", {"GET", "/", {}, base, hash},
       "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"},
      {"post-vanilla", {"POST", "/", {}, base, hash},
       "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"},
      {"get-vanilla-query-order-key-case", {"GET", "/", {{"Param2", "value2"}, {"Param1", "value1"}}, base, hash},
       "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"},
      {"get-unreserved",
       {"GET", "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", {}, base, hash},
       "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"},
      {"get-utf8", {"GET", "/" + UriEncode("\xE1\x88\xB4", true), {}, base, hash},
       "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"},
  };
  HeaderList form = base;
  form.insert(form.begin(), {"Content-Type", "application/x-www-form-urlencoded"});
  cases.push_back({"post-x-www-form-urlencoded", {"POST", "/", {}, form, Sha256Hex("Param1=value1")},
                   "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"});
  for (const Case& c : cases) {
    EXPECT_EQ(SignV4(c.request, kSuiteKeys, scope).signature, c.signature) << c.name;
  }
  SigV4Signature vanilla = SignV4(cases[0].request, kSuiteKeys, scope);
  EXPECT_EQ(vanilla.canonical_request,
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" + hash);
}

TEST(SigV4Test, HeaderValuesAreTrimmedAndJoined) {
  SigV4Request r{"GET", "/", {}, {{"My-Header1", "  a   b  "}, {"my-header1", "c"}, {"Host", "h"}},
                 std::string(kEmptyPayloadHash)};
  SigV4Signature s = SignV4(r, kSuiteKeys, {"20150830T123600Z", "us-east-1", "service"});
  EXPECT_NE(s.canonical_request.find("host:h\nmy-header1:a b,c\n\nhost;my-header1\n"), std::string::npos)
      << s.canonical_request;
  EXPECT_EQ(AmzDate(1440938160), "20150830T123600Z");
}

// The same requests signed here and by aws4 (npm), an independent implementation: keys with
// characters that need encoding, query strings of every S3 call the client makes, a session token,
// signed payloads.
TEST(SigV4Test, AgreesWithTheAws4Package) {
  struct Req {
    std::string method, key;
    std::vector<std::pair<std::string, std::string>> query;
    std::string body;
    std::string token;
    std::string region;
  };
  const std::vector<Req> reqs = {
      {"GET", "data/part-0.parquet", {}, "", "", "us-east-1"},
      {"GET", "a b/c+d=e&f$g@h!i(j)k'l*m~n.parquet", {}, "", "", "eu-west-3"},
      {"GET", "\xC3\xA9t\xC3\xA9/\xE6\x97\xA5\xE6\x9C\xAC/%41.parquet", {}, "", "", "us-east-1"},
      {"GET", "", {{"list-type", "2"}, {"prefix", "sales/year=2024/a b"}, {"max-keys", "1000"}}, "", "", "us-west-2"},
      {"GET", "", {{"list-type", "2"}, {"continuation-token", "1/abc+def=/=="}, {"prefix", ""}}, "", "", "us-east-1"},
      {"HEAD", "x/y.parquet", {}, "", "FwoGZXIvYXdzEBYaD+/token==", "ap-southeast-2"},
      {"POST", "out/big.parquet", {{"uploads", ""}}, "", "", "us-east-1"},
      {"PUT", "out/big.parquet", {{"partNumber", "3"}, {"uploadId", "VXBsb2FkIElE+/="}}, "part bytes", "", "us-east-1"},
      {"POST", "out/big.parquet", {{"uploadId", "u1"}},
       "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>\"e\"</ETag></Part></CompleteMultipartUpload>",
       "tok", "us-east-1"},
      {"DELETE", "out/big.parquet", {{"uploadId", "u1"}}, "", "", "us-east-1"},
      {"PUT", "small.parquet", {}, std::string(1000, 'x'), "", "us-east-1"},
      {"GET", "unsigned/payload.parquet", {}, "UNSIGNED", "", "us-east-1"},
  };
  const AwsCredentials keys{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
  std::string input;
  std::vector<std::string> ours;
  for (const Req& q : reqs) {
    const std::string host = "127.0.0.1:9000";
    const std::string date = "20240229T235959Z";
    // "UNSIGNED" stands for a request whose payload goes unsigned.
    const std::string hash = q.body == "UNSIGNED" ? std::string(kUnsignedPayload) : Sha256Hex(q.body);
    const std::string uri = "/bucket/" + UriEncode(q.key, true);
    HeaderList headers = {{"host", host}, {"x-amz-date", date}, {"x-amz-content-sha256", hash}};
    if (!q.token.empty()) headers.emplace_back("x-amz-security-token", q.token);
    SigV4Signature s = SignV4({q.method, uri, q.query, headers, hash}, keys, {date, q.region, "s3"});
    ours.push_back(s.authorization);
    std::string path = uri;
    const std::string query = CanonicalQuery(q.query);
    if (!query.empty()) path += "?" + query;
    std::ostringstream line;
    auto js = [](const std::string& v) {
      std::string o = "\"";
      for (unsigned char c : v) {
        if (c == '"' || c == '\\') {
          o += '\\';
          o += static_cast<char>(c);
        } else if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += static_cast<char>(c);
        }
      }
      return o + "\"";
    };
    line << "{\"method\":" << js(q.method) << ",\"host\":" << js(host) << ",\"path\":" << js(path)
         << ",\"region\":" << js(q.region) << ",\"service\":\"s3\",\"accessKeyId\":" << js(keys.access_key_id)
         << ",\"secretAccessKey\":" << js(keys.secret_access_key) << ",\"headers\":{";
    for (size_t i = 0; i < headers.size(); ++i) {
      line << (i ? "," : "") << js(headers[i].first) << ":" << js(headers[i].second);
    }
    line << "}}\n";
    input += line.str();
  }
  std::string error;
  const std::string out =
      testing::RunProcess({"node", testing::SourcePath("tests/tools/sigv4_sign.mjs")}, input, &error);
  ASSERT_TRUE(error.empty()) << error;
  std::istringstream lines(out);
  std::string line;
  size_t i = 0;
  const std::regex fields("Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})");
  for (; std::getline(lines, line); ++i) {
    ASSERT_LT(i, ours.size());
    std::smatch theirs_m, ours_m;
    ASSERT_TRUE(std::regex_search(line, theirs_m, fields)) << line;
    ASSERT_TRUE(std::regex_search(ours[i], ours_m, fields)) << ours[i];
    EXPECT_EQ(ours_m[1], theirs_m[1]) << "request " << i;
    EXPECT_EQ(ours_m[2], theirs_m[2]) << "request " << i;
    EXPECT_EQ(ours_m[3], theirs_m[3]) << "request " << i << ": " << reqs[i].method << " " << reqs[i].key;
  }
  EXPECT_EQ(i, reqs.size());
}

}  // namespace
}  // namespace pq::remote
