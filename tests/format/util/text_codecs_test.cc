// The text codecs of format/util: hex digits (hex.h) and base64 (base64.h), RFC 4648's test vectors
// and what each refuses.
#include <gtest/gtest.h>

#include <string>

#include "format/util/base64.h"
#include "format/util/hex.h"

namespace pq {
namespace {

TEST(HexTest, DigitsOfEitherCase) {
  const std::string digits = "0123456789abcdefABCDEF";
  const int values[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 10, 11, 12, 13, 14, 15};
  for (size_t i = 0; i < digits.size(); ++i) EXPECT_EQ(HexDigitValue(digits[i]), values[i]) << digits[i];
  for (char c : std::string("gG/:@`-x \0", 10)) EXPECT_EQ(HexDigitValue(c), -1) << int(c);
  for (int v = 0; v < 16; ++v) {
    EXPECT_EQ(HexDigitValue(kLowerHexDigits[v]), v);
    EXPECT_EQ(HexDigitValue(kUpperHexDigits[v]), v);
  }
}

TEST(HexTest, DecodeHex) {
  EXPECT_EQ(DecodeHex("00ff10Ab"), std::string("\x00\xff\x10\xab", 4));
  EXPECT_EQ(DecodeHex(""), std::string());
  EXPECT_EQ(DecodeHex("abc"), std::nullopt);
  EXPECT_EQ(DecodeHex("zz"), std::nullopt);
}

TEST(Base64Test, Rfc4648Vectors) {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},         {"f", "Zg=="},       {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},  {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    std::string out;
    AppendBase64(plain, &out);
    EXPECT_EQ(out, encoded);
    std::string back = "x";
    ASSERT_TRUE(DecodeBase64(encoded, &back)) << encoded;
    EXPECT_EQ(back, std::string("x") + plain);
  }
  // Without padding too, and every byte value.
  std::string back;
  ASSERT_TRUE(DecodeBase64("Zm9vYg", &back));
  EXPECT_EQ(back, "foob");
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  std::string encoded, decoded;
  AppendBase64(all, &encoded);
  ASSERT_TRUE(DecodeBase64(encoded, &decoded));
  EXPECT_EQ(decoded, all);
}

TEST(Base64Test, RefusesWhatIsNotCanonical) {
  for (const char* bad : {"Z", "Zg=", "Zm9=v", "Zh==", "Zm9vYmE=a", "Zm 9v", "Zm9v!", "====", "Zg==="}) {
    std::string out = "kept";
    EXPECT_FALSE(DecodeBase64(bad, &out)) << bad;
    EXPECT_EQ(out, "kept") << bad;
  }
}

}  // namespace
}  // namespace pq
