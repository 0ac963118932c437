// UUID text (uuid_text.h): written in lower case, read in either case, anything else refused.
#include "format/value/uuid_text.h"

#include <gtest/gtest.h>

#include <string>

namespace pq {
namespace {

TEST(UuidTextTest, WritesAndReadsBack) {
  const uint8_t bytes[16] = {0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78,
                             0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0};
  char text[kUuidTextLength];
  ASSERT_EQ(WriteUuidText(bytes, text), text + kUuidTextLength);
  EXPECT_EQ(std::string(text, kUuidTextLength), "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
  for (const char* form : {"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"}) {
    uint8_t back[16] = {};
    ASSERT_TRUE(ParseUuidText(form, back)) << form;
    EXPECT_EQ(std::string(reinterpret_cast<char*>(back), 16), std::string(reinterpret_cast<const char*>(bytes), 16));
  }
}

TEST(UuidTextTest, RefusesOtherForms) {
  uint8_t out[16];
  for (const char* bad : {"", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "{0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0}",
                          "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f", "0f1e2d3c-4b5a-6978-8796_a5b4c3d2e1f0",
                          "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1fg", " f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"}) {
    EXPECT_FALSE(ParseUuidText(bad, out)) << bad;
  }
}

}  // namespace
}  // namespace pq
