// IsValidUtf8: RFC 3629's well-formed sequences and nothing else, wherever in the text a byte sits
// (the ASCII fast path reads eight bytes at a time; a bad byte in any lane must be seen).

#include "format/util/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace pq {
namespace {

TEST(Utf8Test, WellFormedSequences) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ascii text, longer than eight bytes"));
  EXPECT_TRUE(IsValidUtf8("caf\xC3\xA9"));                       // U+00E9
  EXPECT_TRUE(IsValidUtf8("\xE2\x82\xAC and \xED\x9F\xBF"));     // U+20AC, U+D7FF
  EXPECT_TRUE(IsValidUtf8("\xF0\x90\x80\x80 \xF4\x8F\xBF\xBF"));  // U+10000, U+10FFFF
}

TEST(Utf8Test, IllFormedSequences) {
  EXPECT_FALSE(IsValidUtf8("\xFF"));
  EXPECT_FALSE(IsValidUtf8("\x80"));              // a continuation byte alone
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xE0\x80\xAF"));      // overlong
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));      // U+D800, a surrogate
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xC3"));              // cut short
  EXPECT_FALSE(IsValidUtf8("\xE2\x82"));
}

TEST(Utf8Test, ABadByteIsFoundAtEveryOffset) {
  for (size_t length = 1; length <= 40; ++length) {
    for (size_t at = 0; at < length; ++at) {
      std::string s(length, 'a');
      s[at] = '\xFF';
      EXPECT_FALSE(IsValidUtf8(s)) << "length " << length << ", bad byte at " << at;
      s[at] = '\xC3';  // a two-byte sequence cut by the end, or followed by 'a'
      EXPECT_FALSE(IsValidUtf8(s)) << "length " << length << ", lead byte at " << at;
      if (at + 1 < length) {
        s[at + 1] = '\xA9';
        EXPECT_TRUE(IsValidUtf8(s)) << "length " << length << ", U+00E9 at " << at;
      }
    }
  }
}

}  // namespace
}  // namespace pq
