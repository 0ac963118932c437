#include "format/remote/xml_reader.h"

#include <gtest/gtest.h>

namespace pq::remote {
namespace {

TEST(XmlReaderTest, ReadsAListObjectsV2Answer) {
  const std::string doc =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>b</Name>"
      "<IsTruncated>true</IsTruncated><NextContinuationToken>1/a+b=</NextContinuationToken>"
      "<Contents><Key>a &amp; b/&lt;c&gt;&#233;&#x65E5;.parquet</Key><Size>12</Size>"
      "<ETag>&quot;abc&quot;</ETag></Contents><!-- note --><Contents><Key><![CDATA[x<y]]></Key></Contents>"
      "<Empty/></ListBucketResult>\n";
  auto root = ParseXml(doc);
  ASSERT_TRUE(root.ok()) << root.status().ToString();
  EXPECT_EQ(root->name, "ListBucketResult");
  EXPECT_EQ(root->ChildText("IsTruncated"), "true");
  EXPECT_EQ(root->ChildText("NextContinuationToken"), "1/a+b=");
  auto contents = root->Children("Contents");
  ASSERT_EQ(contents.size(), 2u);
  EXPECT_EQ(contents[0]->ChildText("Key"), "a & b/<c>\xC3\xA9\xE6\x97\xA5.parquet");
  EXPECT_EQ(contents[0]->ChildText("ETag"), "\"abc\"");
  EXPECT_EQ(contents[1]->ChildText("Key"), "x<y");
  EXPECT_NE(root->Child("Empty"), nullptr);
  EXPECT_EQ(root->Child("Missing"), nullptr);
  EXPECT_EQ(root->ChildText("Missing"), "");
}

TEST(XmlReaderTest, LocalNamesMatchPrefixedElements) {
  auto root = ParseXml("<s3:Error xmlns:s3='x'><s3:Code>NoSuchKey</s3:Code></s3:Error>");
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(root->ChildText("Code"), "NoSuchKey");
}

TEST(XmlReaderTest, RefusesMalformedAndHostileDocuments) {
  for (const char* bad : {"", "text", "<a>", "<a></b>", "<a><b></a>", "<a>&unknown;</a>", "<a>&#0;</a>",
                          "<a>&#xD800;</a>", "<a x=1></a>", "<a x='1></a>", "<a></a><b></b>", "<a>&amp</a>",
                          "<!DOCTYPE a [<!ENTITY x 'y'>]><a>&x;</a>", "<a><!ENTITY x 'y'></a>", "<a><!-- x</a>",
                          "<a><![CDATA[x</a>"}) {
    auto r = ParseXml(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_TRUE(r.status().IsCorruption()) << bad;
    }
  }
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "<a>";
  for (int i = 0; i < 100; ++i) deep += "</a>";
  auto r = ParseXml(deep);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("deeper than 64"), std::string::npos);
  std::string many = "<a>";
  for (int i = 0; i < 200; ++i) many += "<b/>";
  many += "</a>";
  EXPECT_TRUE(ParseXml(many).ok());
  EXPECT_FALSE(ParseXml(many, {64, 100}).ok());
}

}  // namespace
}  // namespace pq::remote
