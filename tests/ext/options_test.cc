// Option parsing (ext/options.h) without SQLite: the one list splitter (quotes, brackets, an open
// quote), SQL dequoting, and OptionList's keys, duplicates, unknown keys and typed values with the
// exact messages the tables and parquet_export show.
#include "ext/options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pq::ext {
namespace {

std::vector<std::string> Items(std::string_view text, std::string_view quotes, bool brackets,
                               bool* unclosed = nullptr) {
  std::vector<std::string> out;
  for (std::string_view item : SplitList(text, quotes, brackets, unclosed)) out.emplace_back(item);
  return out;
}

using List = std::vector<std::string>;

TEST(SplitListTest, QuotesAndBrackets) {
  EXPECT_EQ(Items(" a , b,,c ,", "'\"", false), (List{"a", "b", "c"}));
  EXPECT_EQ(Items("k='a,b', m=\"c,d\", n=`e,f`", "'\"", false), (List{"k='a,b'", "m=\"c,d\"", "n=`e", "f`"}));
  EXPECT_EQ(Items("n=`e,f`, x", "'\"`", false), (List{"n=`e,f`", "x"}));
  EXPECT_EQ(Items("a DECIMAL(9,2), b MAP<TEXT, INTEGER>", "'\"`", false),
            (List{"a DECIMAL(9", "2)", "b MAP<TEXT", "INTEGER>"}));
  EXPECT_EQ(Items("a DECIMAL(9,2), b MAP<TEXT, INTEGER>, \"c,d\" TEXT", "'\"`", true),
            (List{"a DECIMAL(9,2)", "b MAP<TEXT, INTEGER>", "\"c,d\" TEXT"}));
  EXPECT_TRUE(Items("", "'", false).empty());
}

TEST(SplitListTest, AnOpenQuoteRunsToTheEnd) {
  bool unclosed = false;
  EXPECT_EQ(Items("a=1, b='x, c=2", "'\"", false, &unclosed), (List{"a=1", "b='x, c=2"}));
  EXPECT_TRUE(unclosed);
  EXPECT_EQ(Items("a=1, b='x'", "'\"", false, &unclosed), (List{"a=1", "b='x'"}));
  EXPECT_FALSE(unclosed);
  // An unclosed bracket too: the last item says what is wrong with it.
  EXPECT_EQ(Items("a LIST<INT, b TEXT", "'\"`", true), (List{"a LIST<INT, b TEXT"}));
}

TEST(OptionsTest, Dequote) {
  EXPECT_EQ(Dequote("  'a''b' "), "a'b");
  EXPECT_EQ(Dequote("\"x\"\"y\""), "x\"y");
  EXPECT_EQ(Dequote("[a]]b]"), "a]]b");
  EXPECT_EQ(Dequote("`t`"), "t");
  EXPECT_EQ(Dequote(" plain "), "plain");
  EXPECT_EQ(Dequote("'open"), "'open");
  EXPECT_EQ(TrimSpace("\t x \n"), "x");
  EXPECT_EQ(LowerAscii("MiXeD_1"), "mixed_1");
}

TEST(OptionsTest, ParseListAndItsErrors) {
  auto list = OptionList::ParseList("Compression='zstd', row_group_size = 1000, kv_metadata='a=1,b=2'");
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list->items().size(), 3u);
  EXPECT_EQ(list->items()[0].first, "compression");
  EXPECT_EQ(list->items()[0].second, "zstd");
  EXPECT_EQ(list->GetString("kv_metadata", ""), "a=1,b=2");
  EXPECT_TRUE(list->Has("row_group_size"));

  EXPECT_EQ(OptionList::ParseList("a=1, b='x").status().message(), "unterminated quote in the options");
  // Neither error shows text that may be a secret typed without its name, or an unclosed one.
  EXPECT_EQ(OptionList::ParseList("footer_key='0123456789012345").status().message(),
            "unterminated quote in the options");
  EXPECT_EQ(OptionList::ParseList("a=1, 0123456789012345").status().message(),
            "an option is not of the form key=value");
  EXPECT_EQ(OptionList::ParseList("a=1, wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY").status().message(),
            "an option is not of the form key=value");
  // The options before an open quote are read first: their errors come first.
  EXPECT_EQ(OptionList::ParseList("a=1, a=2, b='x").status().message(), "option 'a' is given more than once");
  EXPECT_EQ(OptionList::ParseList("a=1, oops").status().message(), "option 'oops' is not of the form key=value");
  EXPECT_EQ(OptionList::ParseList("binary_as_string").status().message(),
            "option 'binary_as_string' is not of the form key=value");
  // A key of lower-case letters (16 bytes, as AES-128 takes) typed without its name is not shown.
  EXPECT_EQ(OptionList::ParseList("a=1, abcdefghijklmnop").status().message(),
            "an option is not of the form key=value");
  EXPECT_EQ(OptionList::ParseList("=1").status().message(), "option with an empty name");
}

TEST(OptionsTest, TypedValues) {
  OptionList opts;
  ASSERT_TRUE(opts.Add("flag=on").ok());
  ASSERT_TRUE(opts.Add("n='42'").ok());
  ASSERT_TRUE(opts.Add("big=99").ok());
  ASSERT_TRUE(opts.Add("mode=TEXT").ok());
  ASSERT_TRUE(opts.Add("bad=maybe").ok());
  EXPECT_EQ(*opts.GetBool("flag", false), true);
  EXPECT_EQ(*opts.GetBool("absent", true), true);
  EXPECT_EQ(opts.GetBool("bad", false).status().message(), "option 'bad' expects a boolean (0/1), not 'maybe'");
  EXPECT_EQ(*opts.GetInt("n", 0, 0, 100), 42);
  EXPECT_EQ(opts.GetInt("big", 0, 0, 50).status().message(), "option 'big' must be between 0 and 50");
  EXPECT_EQ(opts.GetInt("bad", 0, 0, 50).status().message(), "option 'bad' expects an integer, not 'maybe'");
  EXPECT_EQ(*opts.GetChoice("mode", "real", {"real", "text"}), "text");
  EXPECT_EQ(opts.GetChoice("bad", "real", {"real", "text"}).status().message(),
            "option 'bad' must be one of real, text, not 'maybe'");
  EXPECT_TRUE(opts.CheckKnown({"flag", "n", "big", "mode", "bad"}, "test").ok());
  EXPECT_EQ(opts.CheckKnown({"flag"}, "parquet table").message(), "unknown parquet table option 'n'");
}

}  // namespace
}  // namespace pq::ext
