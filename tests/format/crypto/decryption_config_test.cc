// Key text (hex, base64, text, explicit prefixes), column_keys option parsing, the key registry,
// and that no error message ever shows key bytes or key text.
#include <gtest/gtest.h>

#include "format/crypto/decryption_config.h"
#include "format/crypto/key_material.h"

namespace pq::crypto {
namespace {

const std::string kRaw16 = "0123456789012345";

TEST(KeyTextTest, TextKeysOfKeySizes) {
  EXPECT_EQ(*ParseKeyText(kRaw16),
            kRaw16);  // parquet-testing's keys: hex? no (8 bytes); base64? 12 bytes
  const std::string raw24 = "abcdefghijklmnopqrstuvw!";
  EXPECT_EQ(*ParseKeyText(raw24), raw24);
  EXPECT_EQ(*ParseKeyText("text:" + kRaw16), kRaw16);
  const std::string raw32 = "abcdefghijklmnopqrstuvwxyz012345";  // valid base64 of 24 bytes
  EXPECT_EQ(ParseKeyText(raw32)->size(), 24u);                   // read as base64 ...
  EXPECT_EQ(*ParseKeyText("text:" + raw32), raw32);              // ... unless given as text
}

TEST(KeyTextTest, Hex) {
  auto k = ParseKeyText("000102030405060708090a0b0c0d0E0F");
  ASSERT_TRUE(k.ok());
  ASSERT_EQ(k->size(), 16u);
  for (int i = 0; i < 16; ++i) EXPECT_EQ((*k)[i], static_cast<char>(i));
  EXPECT_EQ(ParseKeyText(std::string(48, 'f'))->size(), 24u);
  EXPECT_EQ(ParseKeyText(std::string(64, 'A'))->size(), 32u);
  EXPECT_EQ(ParseKeyText("hex:" + std::string(32, '1'))->size(), 16u);
  EXPECT_TRUE(ParseKeyText("hex:" + std::string(30, '1')).status().IsInvalidArgument());
  EXPECT_TRUE(ParseKeyText("hex:" + std::string(31, '1')).status().IsInvalidArgument());
  EXPECT_TRUE(ParseKeyText("hex:" + std::string(31, '1') + "g").status().IsInvalidArgument());
}

TEST(KeyTextTest, Base64) {
  // base64 of bytes 0..15
  auto k = ParseKeyText("AAECAwQFBgcICQoLDA0ODw==");
  ASSERT_TRUE(k.ok());
  ASSERT_EQ(k->size(), 16u);
  for (int i = 0; i < 16; ++i) EXPECT_EQ((*k)[i], static_cast<char>(i));
  EXPECT_EQ(*ParseKeyText("AAECAwQFBgcICQoLDA0ODw"), *k);           // padding optional
  EXPECT_EQ(*ParseKeyText("base64:AAECAwQFBgcICQoLDA0ODw=="), *k);  // explicit
  // 32 bytes: 0xFF * 32
  auto k32 = ParseKeyText("//////////////////////////////////////////8=");
  ASSERT_TRUE(k32.ok());
  EXPECT_EQ(*k32, std::string(32, '\xFF'));
  EXPECT_TRUE(
      ParseKeyText("base64:AAECAwQFBgcICQoLDA0O").status().IsInvalidArgument());  // 12 bytes
  EXPECT_TRUE(ParseKeyText("base64:AAEC*wQFBgcICQoLDA0ODw==").status().IsInvalidArgument());
  EXPECT_TRUE(
      ParseKeyText("base64:AAECAwQFBgcICQoLDA0ODx==").status().IsInvalidArgument());  // bits left
}

TEST(KeyTextTest, BadKeysNeverEchoTheText) {
  for (std::string bad : {"", "short", "0123456789", "01234567890123456",
                          "secretsecretsecretsecretsecretsecretXX", "hex:zz", "text:secret"}) {
    auto k = ParseKeyText(bad);
    ASSERT_FALSE(k.ok()) << bad;
    EXPECT_TRUE(k.status().IsInvalidArgument());
    if (bad.size() >= 5) {
      EXPECT_EQ(k.status().message().find(bad.substr(bad.size() - 5)), std::string::npos)
          << k.status().message();
    }
  }
  auto k = ParseKeyText("secretsecretsecretsecretsecretsecretXX");
  EXPECT_NE(k.status().message().find("38 characters"), std::string::npos) << k.status().message();
}

TEST(ColumnKeysTest, Parses) {
  auto keys =
      ParseColumnKeys("double_field:1234567890123450, float_field : 1234567890123451,a.b.c:" +
                      std::string(32, 'a'));
  ASSERT_TRUE(keys.ok()) << keys.status().ToString();
  ASSERT_EQ(keys->size(), 3u);
  EXPECT_EQ(keys->at("double_field"), "1234567890123450");
  EXPECT_EQ(keys->at("float_field"), "1234567890123451");
  EXPECT_EQ(keys->at("a.b.c"), std::string(16, '\xAA'));
  EXPECT_TRUE(ParseColumnKeys("")->empty());
  EXPECT_TRUE(ParseColumnKeys("  ")->empty());
}

TEST(ColumnKeysTest, Errors) {
  auto dup = ParseColumnKeys("a:0123456789012345,a:0123456789012345");
  EXPECT_TRUE(dup.status().IsInvalidArgument());
  EXPECT_NE(dup.status().message().find("column 'a' twice"), std::string::npos);
  auto no_colon = ParseColumnKeys("a:0123456789012345,0123456789012345");
  EXPECT_TRUE(no_colon.status().IsInvalidArgument());
  EXPECT_EQ(no_colon.status().message().find("0123456789012345"), std::string::npos)
      << no_colon.status().message();
  auto bad_key = ParseColumnKeys("col:abc");
  EXPECT_TRUE(bad_key.status().IsInvalidArgument());
  EXPECT_NE(bad_key.status().message().find("column 'col'"), std::string::npos);
  EXPECT_TRUE(ParseColumnKeys("a:0123456789012345,").status().IsInvalidArgument());
  EXPECT_TRUE(ParseColumnKeys(":0123456789012345").status().IsInvalidArgument());
}

TEST(DecryptionConfigTest, FromOptions) {
  auto c = DecryptionConfig::FromOptions("0123456789012345", "x:1234567890123450", "tester");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->footer_key, "0123456789012345");
  EXPECT_EQ(c->column_keys.at("x"), "1234567890123450");
  EXPECT_EQ(c->aad_prefix, "tester");
  auto none = DecryptionConfig::FromOptions("", "", std::nullopt);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->footer_key.empty());
  EXPECT_FALSE(none->aad_prefix);
  auto bad = DecryptionConfig::FromOptions("tooshort", "", std::nullopt);
  EXPECT_TRUE(bad.status().IsInvalidArgument());
  EXPECT_NE(bad.status().message().find("footer_key"), std::string::npos);
  EXPECT_EQ(bad.status().message().find("tooshort"), std::string::npos);
}

TEST(KeyRegistryTest, AddFindRetrieve) {
  auto registry = std::make_shared<KeyRegistry>();
  EXPECT_TRUE(registry->Add("kf", "0123456789012345").ok());
  Status bad = registry->Add("kx", "tooshort");
  EXPECT_TRUE(bad.IsInvalidArgument());
  EXPECT_EQ(bad.message().find("tooshort"), std::string::npos);
  EXPECT_EQ(registry->Find("kf"), "0123456789012345");
  EXPECT_FALSE(registry->Find("kx"));
  KeyRetriever r = KeyRegistry::RetrieverFor(registry);
  EXPECT_EQ(r("kf"), "0123456789012345");
  EXPECT_FALSE(r("kc1"));
  EXPECT_TRUE(registry->Add("kf", std::string(32, 'z')).ok());  // replaced
  EXPECT_EQ(r("kf"), std::string(32, 'z'));
}

TEST(KeyMetadataTest, Describe) {
  EXPECT_EQ(DescribeKeyMetadata("kc1"), "'kc1'");
  EXPECT_EQ(DescribeKeyMetadata(std::string("\x01\x02\x03", 3)), "<3 bytes>");
  EXPECT_EQ(DescribeKeyMetadata(""), "<0 bytes>");
  const std::string json = R"({"keyMaterialType":"PKMT1","internalStorage":false})";
  EXPECT_TRUE(IsKeyMaterialJson(json));
  EXPECT_FALSE(IsKeyMaterialJson("kf"));
  EXPECT_EQ(DescribeKeyMetadata(json), "PKMT1 key material");
}

}  // namespace
}  // namespace pq::crypto
