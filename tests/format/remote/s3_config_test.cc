#include "format/remote/s3_config.h"

#include <gtest/gtest.h>

#include <map>

#include "tests/format/remote/test_servers.h"

namespace pq::remote {
namespace {

using testing::TempDir;

// An environment holding exactly `vars`, with HOME set to a temporary folder.
struct FakeEnv {
  TempDir home;
  std::map<std::string, std::string> vars;
  FakeEnv() { vars["HOME"] = home.path(); }
  EnvironmentLookup Lookup() const {
    return [this](const std::string& name) -> std::optional<std::string> {
      auto it = vars.find(name);
      if (it == vars.end()) return std::nullopt;
      return it->second;
    };
  }
  void Credentials(const std::string& text) { home.Write(".aws/credentials", text); }
  void Config(const std::string& text) { home.Write(".aws/config", text); }
};

TEST(S3ConfigTest, AnonymousAwsWhenNothingIsGiven) {
  FakeEnv env;
  auto c = ResolveS3Config({}, env.Lookup());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_TRUE(c->credentials.anonymous());
  EXPECT_EQ(c->credentials_source, "none");
  EXPECT_EQ(c->region, "us-east-1");
  EXPECT_EQ(c->endpoint, "s3.us-east-1.amazonaws.com");
  EXPECT_TRUE(c->use_ssl);
  EXPECT_EQ(c->url_style, S3UrlStyle::kVirtualHost);
}

TEST(S3ConfigTest, DefaultProfileOfTheSharedFiles) {
  FakeEnv env;
  env.Credentials("# comment\n[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = FILESECRET\n"
                  "aws_session_token=FILETOKEN\n[other]\naws_access_key_id=OTHERKEY\naws_secret_access_key=OS\n");
  env.Config("[default]\nregion = eu-central-1\n[profile other]\nregion = ap-south-1\n"
             "endpoint_url = http://127.0.0.1:9000\n");
  auto c = ResolveS3Config({}, env.Lookup());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->credentials.access_key_id, "FILEKEY");
  EXPECT_EQ(c->credentials.secret_access_key, "FILESECRET");
  EXPECT_EQ(c->credentials.session_token, "FILETOKEN");
  EXPECT_EQ(c->credentials_source, "profile 'default' of '" + env.home.path() + "/.aws/credentials'");
  EXPECT_EQ(c->region, "eu-central-1");
  EXPECT_EQ(c->endpoint, "s3.eu-central-1.amazonaws.com");

  env.vars["AWS_PROFILE"] = "other";
  c = ResolveS3Config({}, env.Lookup());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->credentials.access_key_id, "OTHERKEY");
  EXPECT_EQ(c->credentials.session_token, "");
  EXPECT_EQ(c->region, "ap-south-1");
  EXPECT_EQ(c->endpoint, "127.0.0.1:9000");
  EXPECT_FALSE(c->use_ssl);
  EXPECT_EQ(c->url_style, S3UrlStyle::kPath);

  env.vars["AWS_PROFILE"] = "missing";
  c = ResolveS3Config({}, env.Lookup());
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("'missing'"), std::string::npos);
}

TEST(S3ConfigTest, EnvironmentBeatsFilesAndOptionsBeatEnvironment) {
  FakeEnv env;
  env.Credentials("[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = FILESECRET\n");
  env.Config("[default]\nregion = eu-central-1\ns3 =\n  endpoint_url = https://files.example:1\n");
  env.vars["AWS_ACCESS_KEY_ID"] = "ENVKEY";
  env.vars["AWS_SECRET_ACCESS_KEY"] = "ENVSECRET";
  env.vars["AWS_SESSION_TOKEN"] = "ENVTOKEN";
  env.vars["AWS_DEFAULT_REGION"] = "us-west-1";
  auto c = ResolveS3Config({}, env.Lookup());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->credentials.access_key_id, "ENVKEY");
  EXPECT_EQ(c->credentials.session_token, "ENVTOKEN");
  EXPECT_EQ(c->credentials_source, "environment");
  EXPECT_EQ(c->region, "us-west-1");  // AWS_DEFAULT_REGION over the file
  EXPECT_EQ(c->endpoint, "files.example:1");  // the profile's s3 sub-section
  EXPECT_TRUE(c->use_ssl);
  env.vars["AWS_REGION"] = "us-west-2";  // AWS_REGION over AWS_DEFAULT_REGION
  env.vars["AWS_ENDPOINT_URL"] = "http://generic:2";
  c = ResolveS3Config({}, env.Lookup());
  EXPECT_EQ(c->region, "us-west-2");
  EXPECT_EQ(c->endpoint, "generic:2");
  EXPECT_FALSE(c->use_ssl);
  env.vars["AWS_ENDPOINT_URL_S3"] = "https://s3only:3/";  // the S3 one over the generic one
  c = ResolveS3Config({}, env.Lookup());
  EXPECT_EQ(c->endpoint, "s3only:3");
  EXPECT_TRUE(c->use_ssl);

  S3Options o;
  ASSERT_TRUE(o.Set("s3_access_key_id", "OPTKEY").ok());
  ASSERT_TRUE(o.Set("s3_secret_access_key", "OPTSECRET").ok());
  ASSERT_TRUE(o.Set("s3_region", "sa-east-1").ok());
  ASSERT_TRUE(o.Set("s3_endpoint", "127.0.0.1:4000").ok());
  ASSERT_TRUE(o.Set("s3_use_ssl", "false").ok());
  ASSERT_TRUE(o.Set("s3_url_style", "vhost").ok());
  c = ResolveS3Config(o, env.Lookup());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->credentials.access_key_id, "OPTKEY");
  EXPECT_EQ(c->credentials.secret_access_key, "OPTSECRET");
  EXPECT_EQ(c->credentials.session_token, "");  // the environment's token goes with its own keys
  EXPECT_EQ(c->credentials_source, "options");
  EXPECT_EQ(c->region, "sa-east-1");
  EXPECT_EQ(c->endpoint, "127.0.0.1:4000");
  EXPECT_FALSE(c->use_ssl);
  EXPECT_EQ(c->url_style, S3UrlStyle::kVirtualHost);
}

TEST(S3ConfigTest, RefusesHalfKeyPairsAndBadOptionsWithoutShowingSecrets) {
  FakeEnv env;
  env.vars["AWS_ACCESS_KEY_ID"] = "ONLYKEY";
  auto c = ResolveS3Config({}, env.Lookup());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message().find("ONLYKEY"), std::string::npos);
  env.vars.erase("AWS_ACCESS_KEY_ID");
  env.Credentials("[default]\naws_secret_access_key = TOPSECRET\n");
  c = ResolveS3Config({}, env.Lookup());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message().find("TOPSECRET"), std::string::npos);
  env.Credentials("[default]\nTOPSECRET\n");
  c = ResolveS3Config({}, env.Lookup());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message().find("TOPSECRET"), std::string::npos) << c.status().message();
  S3Options o;
  ASSERT_TRUE(o.Set("s3_secret_access_key", "X").ok());
  EXPECT_FALSE(ResolveS3Config(o, FakeEnv().Lookup()).ok());
  EXPECT_FALSE(o.Set("s3_url_style", "sideways").ok());
  EXPECT_FALSE(o.Set("s3_use_ssl", "maybe").ok());
  EXPECT_FALSE(o.Set("s3_bogus", "1").ok());
  EXPECT_TRUE(S3Options::IsSecret("s3_session_token"));
  EXPECT_FALSE(S3Options::IsSecret("s3_region"));
  EXPECT_TRUE(S3Options::IsOption("s3_url_style"));
  S3Options bad;
  ASSERT_TRUE(bad.Set("s3_endpoint", "ftp://x").ok());
  EXPECT_FALSE(ResolveS3Config(bad, FakeEnv().Lookup()).ok());
  // Files named by the environment instead of HOME.
  FakeEnv named;
  const std::string creds = named.home.Write("elsewhere/creds", "[p]\naws_access_key_id=K\naws_secret_access_key=S\n");
  named.vars["AWS_SHARED_CREDENTIALS_FILE"] = creds;
  named.vars["AWS_PROFILE"] = "p";
  c = ResolveS3Config({}, named.Lookup());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->credentials.access_key_id, "K");
}

}  // namespace
}  // namespace pq::remote
