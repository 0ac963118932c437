#include "format/remote/remote_url.h"

#include <gtest/gtest.h>

#include "format/remote/key_glob.h"

namespace pq::remote {
namespace {

TEST(RemoteUrlTest, RecognizesRemoteLocations) {
  EXPECT_TRUE(IsRemoteLocation("http://h/x"));
  EXPECT_TRUE(IsRemoteLocation("HTTPS://h/x"));
  EXPECT_TRUE(IsRemoteLocation("s3://b/k"));
  EXPECT_FALSE(IsRemoteLocation("data/x.parquet"));
  EXPECT_FALSE(IsRemoteLocation("/abs/s3://x"));
  EXPECT_FALSE(IsRemoteLocation("ftp://h/x"));
}

TEST(RemoteUrlTest, ParsesHttpUrls) {
  auto u = ParseRemoteUrl("https://user:pw@example.com:8443/a b/c.parquet?sig=1#frag");
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  EXPECT_EQ(u->scheme, UrlScheme::kHttps);
  EXPECT_EQ(u->host, "example.com");
  EXPECT_EQ(u->port, 8443);
  EXPECT_EQ(u->url, "https://user:pw@example.com:8443/a%20b/c.parquet?sig=1");
  auto v6 = ParseRemoteUrl("http://[::1]:9000/x");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->host, "[::1]");
  EXPECT_EQ(v6->port, 9000);
  auto bare = ParseRemoteUrl("http://127.0.0.1");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->url, "http://127.0.0.1/");
  EXPECT_EQ(bare->port, 0);
}

TEST(RemoteUrlTest, RejectsMalformedUrlsWithoutShowingSecrets) {
  for (const char* bad : {"http://", "http://host:0/x", "http://host:99999/", "http://ho st/",
                          "http://[::1/x", "http://host:12a/"}) {
    auto u = ParseRemoteUrl(bad);
    EXPECT_FALSE(u.ok()) << bad;
    EXPECT_TRUE(u.status().IsInvalidArgument()) << bad;
  }
  auto u = ParseRemoteUrl("http://user:secret@:80/x?X-Amz-Signature=abc");
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.status().message().find("secret"), std::string::npos) << u.status().message();
  EXPECT_EQ(u.status().message().find("abc"), std::string::npos) << u.status().message();
}

TEST(RemoteUrlTest, ParsesS3Uris) {
  auto u = ParseRemoteUrl("s3://my-bucket/a/b c/%41?.parquet");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->scheme, UrlScheme::kS3);
  EXPECT_EQ(u->bucket, "my-bucket");
  EXPECT_EQ(u->key, "a/b c/%41?.parquet");  // keys are taken as written
  auto root = ParseRemoteUrl("s3://bucket");
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(root->key, "");
  EXPECT_FALSE(ParseRemoteUrl("s3:///key").ok());
  EXPECT_FALSE(ParseRemoteUrl("s3://bu$ket/k").ok());
}

TEST(RemoteUrlTest, DisplayUrlDropsCredentialsAndQuery) {
  EXPECT_EQ(DisplayUrl("https://u:p@h.com/x/y.parquet?X-Amz-Signature=s#f"), "https://h.com/x/y.parquet");
  EXPECT_EQ(DisplayUrl("http://h/x"), "http://h/x");
  EXPECT_EQ(DisplayUrl("s3://b/k?weird#key"), "s3://b/k?weird#key");
  // A password with an unencoded '/', '?' or '#' is not shown either; a '@' in the path of a URL
  // without user stays.
  EXPECT_EQ(DisplayUrl("http://bob:pa/ss@127.0.0.1:8080/x.parquet"), "http://127.0.0.1:8080/x.parquet");
  EXPECT_EQ(DisplayUrl("http://bob:pa#ss@h/x.parquet"), "http://h/x.parquet");
  EXPECT_EQ(DisplayUrl("http://bob:pa?ss@h/x.parquet"), "http://h/x.parquet");
  EXPECT_EQ(DisplayUrl("http://h:8080/@me/x.parquet"), "http://h:8080/@me/x.parquet");
  EXPECT_EQ(DisplayUrl("http://[::1]:8080/@me/x.parquet"), "http://[::1]:8080/@me/x.parquet");
}

TEST(RemoteUrlTest, UriEncodingFollowsRfc3986) {
  EXPECT_EQ(UriEncode("a-b_c.d~e/f g+h=i&j$", true), "a-b_c.d~e/f%20g%2Bh%3Di%26j%24");
  EXPECT_EQ(UriEncode("a/b", false), "a%2Fb");
  EXPECT_EQ(UriEncode("\xE1\x88\xB4", true), "%E1%88%B4");
  EXPECT_EQ(UriDecode("a%2Fb%zz%4"), "a/b%zz%4");
}

TEST(KeyGlobTest, ListPrefixStopsAtTheFirstGlobCharacter) {
  EXPECT_EQ(KeyGlob("sales/2024-*/part-?.parquet").ListPrefix(), "sales/2024-");
  EXPECT_EQ(KeyGlob("sales/**/*.parquet").ListPrefix(), "sales/");
  EXPECT_EQ(KeyGlob("x/[ab].parquet").ListPrefix(), "x/");
  EXPECT_EQ(KeyGlob("plain/key.parquet").ListPrefix(), "plain/key.parquet");
  EXPECT_TRUE(HasGlobChars("a[b"));
  EXPECT_FALSE(HasGlobChars("a/b.parquet"));
}

TEST(KeyGlobTest, SegmentRulesMatchLocalGlobs) {
  KeyGlob star("data/*.parquet");
  EXPECT_TRUE(star.Matches("data/a.parquet"));
  EXPECT_FALSE(star.Matches("data/sub/a.parquet"));  // '*' stays within a segment
  EXPECT_FALSE(star.Matches("data/.hidden.parquet"));  // FNM_PERIOD
  EXPECT_FALSE(star.Matches("data/a.parquet.tmp"));
  EXPECT_TRUE(star.Matches("data//a.parquet"));  // empty segments are dropped, as "a//b" locally
  KeyGlob q("d/part-?.parquet");
  EXPECT_TRUE(q.Matches("d/part-1.parquet"));
  EXPECT_FALSE(q.Matches("d/part-10.parquet"));
  KeyGlob cls("d/[ab]*.parquet");
  EXPECT_TRUE(cls.Matches("d/b1.parquet"));
  EXPECT_FALSE(cls.Matches("d/c1.parquet"));
  KeyGlob dot("d/.*");
  EXPECT_TRUE(dot.Matches("d/.hidden"));
}

TEST(KeyGlobTest, DoubleStarSpansFoldersButNotHiddenOnes) {
  KeyGlob g("sales/**/*.parquet");
  EXPECT_TRUE(g.Matches("sales/a.parquet"));  // zero folders
  EXPECT_TRUE(g.Matches("sales/year=2024/month=1/a.parquet"));
  EXPECT_FALSE(g.Matches("sales/.tmp/a.parquet"));
  EXPECT_FALSE(g.Matches("other/a.parquet"));
  EXPECT_FALSE(g.Matches("sales/x/a.csv"));
  KeyGlob all("sales/**");  // a trailing ** is every file below
  EXPECT_TRUE(all.Matches("sales/a"));
  EXPECT_TRUE(all.Matches("sales/x/y/z"));
  EXPECT_FALSE(all.Matches("sales"));
  KeyGlob twice("**/**/x/*.p");
  EXPECT_TRUE(twice.Matches("x/1.p"));
  EXPECT_TRUE(twice.Matches("a/b/x/1.p"));
  KeyGlob mid("a/**/b/**/c.p");
  EXPECT_TRUE(mid.Matches("a/b/c.p"));
  EXPECT_TRUE(mid.Matches("a/1/2/b/3/c.p"));
  EXPECT_FALSE(mid.Matches("a/1/2/3/c.p"));
  // Many `**` against a deep key stay cheap.
  KeyGlob deep("**/**/a/**/a/**/a/**/a/**/z.p");
  std::string key;
  for (int i = 0; i < 300; ++i) key += "a/";
  EXPECT_FALSE(deep.Matches(key + "y.p"));
  EXPECT_TRUE(deep.Matches(key + "z.p"));
}

}  // namespace
}  // namespace pq::remote
