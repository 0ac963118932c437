// Schema: the field tree rebuilt from the footer's flat, depth-first list of SchemaElements.

#include "format/schema/schema.h"

#include <gtest/gtest.h>

#include <vector>

namespace pq {
namespace {

SchemaElement Group(std::string name, int children, std::optional<Repetition> rep) {
  SchemaElement e;
  e.name = std::move(name);
  e.num_children = children;
  e.repetition_type = rep;
  return e;
}

SchemaElement Leaf(std::string name, PhysicalType type, Repetition rep) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = rep;
  return e;
}

// message m { required int64 id; optional group tags (LIST) { repeated group list {
//   optional binary element (STRING); } } optional int32 d (DATE); }
std::vector<SchemaElement> ListSchema() {
  std::vector<SchemaElement> v;
  v.push_back(Group("m", 3, std::nullopt));
  v.push_back(Leaf("id", PhysicalType::kInt64, Repetition::kRequired));
  SchemaElement tags = Group("tags", 1, Repetition::kOptional);
  tags.converted_type = ConvertedType::kList;
  v.push_back(tags);
  v.push_back(Group("list", 1, Repetition::kRepeated));
  SchemaElement element = Leaf("element", PhysicalType::kByteArray, Repetition::kOptional);
  element.converted_type = ConvertedType::kUtf8;
  v.push_back(element);
  SchemaElement d = Leaf("d", PhysicalType::kInt32, Repetition::kOptional);
  d.converted_type = ConvertedType::kDate;
  v.push_back(d);
  return v;
}

TEST(SchemaTest, LevelsLeavesAndPaths) {
  auto made = Schema::Make(ListSchema());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  const Schema& s = **made;
  ASSERT_EQ(s.fields().size(), 3u);
  ASSERT_EQ(s.num_leaves(), 3);

  const SchemaNode& id = s.leaf(0);
  EXPECT_EQ(id.DottedPath(), "id");
  EXPECT_EQ(id.max_definition_level, 0);
  EXPECT_EQ(id.max_repetition_level, 0);
  EXPECT_EQ(id.leaf_index, 0);
  EXPECT_EQ(id.depth, 1);

  const SchemaNode& element = s.leaf(1);
  EXPECT_EQ(element.DottedPath(), "tags.list.element");
  EXPECT_EQ(element.max_definition_level, 3);  // tags optional, list repeated, element optional
  EXPECT_EQ(element.max_repetition_level, 1);
  EXPECT_EQ(element.depth, 3);
  EXPECT_EQ(element.parent->parent, s.fields()[1]);

  const SchemaNode& d = s.leaf(2);
  EXPECT_EQ(d.leaf_index, 2);
  EXPECT_EQ(d.max_definition_level, 1);
}

TEST(SchemaTest, LeafRangeCoversTheLeavesUnderANode) {
  auto made = Schema::Make(ListSchema());
  ASSERT_TRUE(made.ok());
  const Schema& s = **made;
  EXPECT_EQ(s.LeafRange(*s.fields()[0]), std::make_pair(0, 1));
  EXPECT_EQ(s.LeafRange(*s.fields()[1]), std::make_pair(1, 1));
  EXPECT_EQ(s.LeafRange(*s.fields()[2]), std::make_pair(2, 1));
  EXPECT_EQ(s.LeafRange(s.root()), std::make_pair(0, 3));
}

TEST(SchemaTest, ConvertedTypesResolveToLogicalTypes) {
  auto made = Schema::Make(ListSchema());
  ASSERT_TRUE(made.ok());
  const Schema& s = **made;
  EXPECT_EQ(s.leaf(1).logical_type.kind, LogicalType::Kind::kString);
  EXPECT_EQ(s.leaf(2).logical_type.kind, LogicalType::Kind::kDate);
  EXPECT_EQ(s.leaf(0).logical_type.kind, LogicalType::Kind::kNone);
  EXPECT_EQ(s.fields()[1]->logical_type.kind, LogicalType::Kind::kList);
}

TEST(SchemaTest, RefusesListsThatDoNotFormOneTree) {
  // The root claims more children than follow.
  std::vector<SchemaElement> short_list = ListSchema();
  short_list.pop_back();
  EXPECT_TRUE(Schema::Make(short_list).status().IsCorruption());

  // Elements left over after the root's children.
  std::vector<SchemaElement> extra = ListSchema();
  extra.push_back(Leaf("stray", PhysicalType::kInt32, Repetition::kOptional));
  EXPECT_TRUE(Schema::Make(extra).status().IsCorruption());

  // A leaf without a physical type.
  std::vector<SchemaElement> untyped = ListSchema();
  untyped[1].type.reset();
  EXPECT_TRUE(Schema::Make(untyped).status().IsCorruption());

  // FIXED_LEN_BYTE_ARRAY without a positive length.
  std::vector<SchemaElement> flba = ListSchema();
  flba[1].type = PhysicalType::kFixedLenByteArray;
  flba[1].type_length = 0;
  EXPECT_TRUE(Schema::Make(flba).status().IsCorruption());

  EXPECT_FALSE(Schema::Make({}).ok());
}

// Groups nested 256 deep are read; one more is an error that says how deep, and the limit.
TEST(SchemaTest, NestingDeeperThanTheLimitIsAnErrorNamingIt) {
  auto nested = [](int depth) {
    std::vector<SchemaElement> v = {Group("m", 1, std::nullopt)};
    for (int i = 1; i < depth; ++i) v.push_back(Group("g" + std::to_string(i), 1, Repetition::kOptional));
    v.push_back(Leaf("x", PhysicalType::kInt32, Repetition::kOptional));
    return v;
  };
  EXPECT_TRUE(Schema::Make(nested(256)).ok());
  auto deep = Schema::Make(nested(257));
  ASSERT_TRUE(deep.status().IsCorruption());
  EXPECT_EQ(deep.status().message(), "schema nested too deeply: 'x' is at depth 257, over the limit of 256");
}

}  // namespace
}  // namespace pq
