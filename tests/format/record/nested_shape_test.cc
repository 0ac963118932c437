#include "format/record/nested_shape.h"

#include <gtest/gtest.h>

#include <string>

#include "format/file/file_reader.h"
#include "tests/format/record/schema_text.h"

namespace pq {
namespace {

using testing::SchemaFromText;
using testing::TopLevelField;
using Kind = NestedShape::Kind;
using Form = NestedShape::Form;

// Classifies the top-level field `name` of `schema_text`.
Result<NestedShape> ShapeOf(const std::string& schema_text, const std::string& name,
                            std::shared_ptr<const Schema>* keep) {
  *keep = SchemaFromText(schema_text);
  if (*keep == nullptr) return Status::InvalidArgument("bad schema text");
  const SchemaNode* field = TopLevelField(**keep, name);
  if (field == nullptr) return Status::InvalidArgument("no field " + name);
  return BuildNestedShape(*field);
}

// A compact description of a shape to compare in one assertion:
// kind[form]{nullable?}(def,rep,elemdef)@first+count name: children...
std::string Describe(const NestedShape& s) {
  std::string out = NestedShapeKindName(s.kind);
  switch (s.form) {
    case Form::kPlain:
      break;
    case Form::kThreeLevel:
      out += "3";
      break;
    case Form::kTwoLevel:
      out += "2";
      break;
    case Form::kUnannotatedRepeated:
      out += "R";
      break;
  }
  if (s.nullable) out += "?";
  out += " " + s.node->name + " d" + std::to_string(s.def_level);
  if (s.kind == Kind::kList || s.kind == Kind::kMap) {
    out += "/" + std::to_string(s.element_def_level) + " r" + std::to_string(s.rep_level);
  } else if (s.kind == Kind::kLeaf) {
    out += " r" + std::to_string(s.rep_level) + " #" + std::to_string(s.first_leaf);
  }
  if (!s.children.empty()) {
    out += " (";
    for (size_t i = 0; i < s.children.size(); ++i) {
      if (i) out += ", ";
      out += Describe(s.children[i]);
    }
    out += ")";
  }
  return out;
}

std::string DescribeField(const std::string& schema_text, const std::string& name) {
  std::shared_ptr<const Schema> keep;
  auto shape = ShapeOf(schema_text, name, &keep);
  if (!shape.ok()) return shape.status().ToString();
  return Describe(*shape);
}

TEST(NestedShapeTest, ThreeLevelListStandard) {
  EXPECT_EQ(DescribeField(R"(message m {
      required group my_list (LIST) { repeated group list { optional binary element (STRING); } }
    })",
                          "my_list"),
            "list3 my_list d0/1 r1 (leaf? element d2 r1 #0)");
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_list (LIST) { repeated group list { required binary element (STRING); } }
    })",
                          "my_list"),
            "list3? my_list d1/2 r1 (leaf element d2 r1 #0)");
}

TEST(NestedShapeTest, ListOfListsThreeLevel) {
  EXPECT_EQ(DescribeField(R"(message m {
      optional group array_of_arrays (LIST) {
        repeated group list {
          required group element (LIST) { repeated group list { required int32 element; } }
        }
      }
    })",
                          "array_of_arrays"),
            "list3? array_of_arrays d1/2 r1 (list3 element d2/3 r2 (leaf element d3 r2 #0))");
}

TEST(NestedShapeTest, ThreeLevelNamesAreNotEnforced) {
  // "should produce a nullable list of non-null strings, even though the repeated group is named
  // element"
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_list (LIST) { repeated group element { required binary str (STRING); } }
    })",
                          "my_list"),
            "list3? my_list d1/2 r1 (leaf str d2 r1 #0)");
}

TEST(NestedShapeTest, BackwardCompatibilityRule1RepeatedPrimitive) {
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_list (LIST) { repeated int32 element; }
    })",
                          "my_list"),
            "list2? my_list d1/2 r1 (leaf element d2 r1 #0)");
}

TEST(NestedShapeTest, BackwardCompatibilityRule2GroupOfSeveralFields) {
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_list (LIST) {
        repeated group element { required binary str (STRING); required int32 num; }
      }
    })",
                          "my_list"),
            "list2? my_list d1/2 r1 (struct element d2 (leaf str d2 r1 #0, leaf num d2 r1 #1))");
}

TEST(NestedShapeTest, BackwardCompatibilityRule3OneRepeatedField) {
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_list (LIST) { repeated group array (LIST) { repeated int32 array; } }
    })",
                          "my_list"),
            "list2? my_list d1/2 r1 (list2 array d2/3 r2 (leaf array d3 r2 #0))");
  // The one repeated field without LIST annotation: the element is a struct of one list.
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_list (LIST) { repeated group things { repeated int32 x; } }
    })",
                          "my_list"),
            "list2? my_list d1/2 r1 (struct things d2 (listR x d2/3 r2 (leaf x d3 r2 #0)))");
}

TEST(NestedShapeTest, BackwardCompatibilityRule4ArrayAndTupleNames) {
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_list (LIST) { repeated group array { required binary str (STRING); } }
    })",
                          "my_list"),
            "list2? my_list d1/2 r1 (struct array d2 (leaf str d2 r1 #0))");
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_list (LIST) { repeated group my_list_tuple { required binary str (STRING); } }
    })",
                          "my_list"),
            "list2? my_list d1/2 r1 (struct my_list_tuple d2 (leaf str d2 r1 #0))");
  // The _tuple name must match the LIST group's own name.
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_list (LIST) { repeated group other_tuple { required binary str (STRING); } }
    })",
                          "my_list"),
            "list3? my_list d1/2 r1 (leaf str d2 r1 #0)");
}

TEST(NestedShapeTest, BackwardCompatibilityRule5ElementKeepsItsRepetition) {
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_list (LIST) { repeated group element { optional binary str (STRING); } }
    })",
                          "my_list"),
            "list3? my_list d1/2 r1 (leaf? str d3 r1 #0)");
}

TEST(NestedShapeTest, OldListStructureTwoLevelListOfList) {
  // The layout of parquet-testing's old_list_structure.parquet.
  EXPECT_EQ(DescribeField(R"(message m {
      required group a (LIST) { repeated group array (LIST) { repeated int32 array; } }
    })",
                          "a"),
            "list2 a d0/1 r1 (list2 array d1/2 r2 (leaf array d2 r2 #0))");
}

TEST(NestedShapeTest, LogicalTypeAloneAnnotatesList) {
  auto elements = testing::SchemaElementsFromText(R"(message m {
      optional group l { repeated group list { optional int32 element; } }
    })");
  LogicalType list;
  list.kind = LogicalType::Kind::kList;
  elements[1].logical_type = list;
  auto schema = Schema::Make(elements);
  ASSERT_TRUE(schema.ok());
  auto shape = BuildNestedShape(*(*schema)->fields()[0]);
  ASSERT_TRUE(shape.ok()) << shape.status().ToString();
  EXPECT_EQ(Describe(*shape), "list3? l d1/2 r1 (leaf? element d3 r1 #0)");
}

TEST(NestedShapeTest, StandardMap) {
  EXPECT_EQ(DescribeField(R"(message m {
      required group my_map (MAP) {
        repeated group key_value { required binary key (STRING); optional int32 value; }
      }
    })",
                          "my_map"),
            "map3 my_map d0/1 r1 (leaf key d1 r1 #0, leaf? value d2 r1 #1)");
}

TEST(NestedShapeTest, MapNamesAreFoundByPosition) {
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_map (MAP) { repeated group map { required binary str (STRING); required int32 num; } }
    })",
                          "my_map"),
            "map3? my_map d1/2 r1 (leaf str d2 r1 #0, leaf num d2 r1 #1)");
}

TEST(NestedShapeTest, MapKeyValueOutsideMapReadsAsMap) {
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_map (MAP_KEY_VALUE) {
        repeated group map { required binary key (STRING); optional int32 value; }
      }
    })",
                          "my_map"),
            "map3? my_map d1/2 r1 (leaf key d2 r1 #0, leaf? value d3 r1 #1)");
  // The old parquet-mr layout: MAP over a MAP_KEY_VALUE key/value level.
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_map (MAP) {
        repeated group map (MAP_KEY_VALUE) { required binary key (STRING); optional int32 value; }
      }
    })",
                          "my_map"),
            "map3? my_map d1/2 r1 (leaf key d2 r1 #0, leaf? value d3 r1 #1)");
}

TEST(NestedShapeTest, RepeatedMapKeyValueGroupIsItsOwnKeyValueLevel) {
  EXPECT_EQ(DescribeField(R"(message m {
      repeated group my_map (MAP_KEY_VALUE) { required binary key (STRING); optional int32 value; }
    })",
                          "my_map"),
            "map2 my_map d0/1 r1 (leaf key d1 r1 #0, leaf? value d2 r1 #1)");
}

TEST(NestedShapeTest, MapWithoutValueAndWithOptionalKey) {
  EXPECT_EQ(DescribeField(R"(message m {
      required group my_map_no_v (MAP) { repeated group key_value { required int32 key; } }
    })",
                          "my_map_no_v"),
            "map3 my_map_no_v d0/1 r1 (leaf key d1 r1 #0)");
  // incorrect_map_schema.parquet: the key is not marked required.
  EXPECT_EQ(DescribeField(R"(message m {
      optional group my_map (MAP) {
        repeated group key_value { optional binary key (STRING); optional binary value (STRING); }
      }
    })",
                          "my_map"),
            "map3? my_map d1/2 r1 (leaf? key d3 r1 #0, leaf? value d3 r1 #1)");
}

TEST(NestedShapeTest, UnannotatedRepeatedFields) {
  EXPECT_EQ(DescribeField("message m { repeated int32 num; }", "num"),
            "listR num d0/1 r1 (leaf num d1 r1 #0)");
  EXPECT_EQ(DescribeField(R"(message m {
      repeated group my_list { required int32 num; optional binary str (STRING); }
    })",
                          "my_list"),
            "listR my_list d0/1 r1 (struct my_list d1 (leaf num d1 r1 #0, leaf? str d2 r1 #1))");
}

TEST(NestedShapeTest, DremelDocument) {
  const char* document = R"(message Document {
      required int64 DocId;
      optional group Links { repeated int64 Backward; repeated int64 Forward; }
      repeated group Name {
        repeated group Language { required binary Code (STRING); optional binary Country (STRING); }
        optional binary Url (STRING);
      }
    })";
  EXPECT_EQ(DescribeField(document, "DocId"), "leaf DocId d0 r0 #0");
  EXPECT_EQ(DescribeField(document, "Links"),
            "struct? Links d1 (listR Backward d1/2 r1 (leaf Backward d2 r1 #0), "
            "listR Forward d1/2 r1 (leaf Forward d2 r1 #1))");
  EXPECT_EQ(DescribeField(document, "Name"),
            "listR Name d0/1 r1 (struct Name d1 (listR Language d1/2 r2 (struct Language d2 "
            "(leaf Code d2 r2 #0, leaf? Country d3 r2 #1)), leaf? Url d2 r1 #2))");
}

TEST(NestedShapeTest, ShapeIdsArePreorderAndLeafRangesNest) {
  std::shared_ptr<const Schema> keep;
  auto shape = ShapeOf(R"(message m {
      optional group s {
        required int32 a;
        optional group l (LIST) { repeated group list { optional group element { required int32 x; optional int32 y; } } }
        required int32 b;
      }
    })",
                       "s", &keep);
  ASSERT_TRUE(shape.ok()) << shape.status().ToString();
  EXPECT_EQ(shape->id, 0);
  EXPECT_EQ(shape->num_leaves, 4);
  const NestedShape& l = shape->children[1];
  EXPECT_EQ(l.id, 2);
  EXPECT_EQ(l.first_leaf, 1);
  EXPECT_EQ(l.num_leaves, 2);
  EXPECT_EQ(l.element().id, 3);
  EXPECT_EQ(l.element().children[1].id, 5);
  EXPECT_EQ(shape->children[2].id, 6);
  EXPECT_EQ(shape->children[2].first_leaf, 3);
}

// The schemas of the conformance files with nested columns, as real writers spelled them.
TEST(NestedShapeTest, ConformanceFiles) {
  struct Case {
    const char* file;
    std::vector<std::string> fields;
  };
  const Case cases[] = {
      {"old_list_structure.parquet",
       {"list2 a d0/1 r1 (list2 array d1/2 r2 (leaf array d2 r2 #0))"}},
      {"map_no_value.parquet",
       {"map3 my_map d0/1 r1 (leaf key d1 r1 #0, leaf? value d2 r1 #1)",
        "map3 my_map_no_v d0/1 r1 (leaf key d1 r1 #0)",
        "list3 my_list d0/1 r1 (leaf element d1 r1 #0)"}},
      {"incorrect_map_schema.parquet",
       {"map3? my_map d1/2 r1 (leaf? key d3 r1 #0, leaf? value d3 r1 #1)"}},
      {"repeated_no_annotation.parquet",
       {"leaf id d0 r0 #0",
        "struct? phoneNumbers d1 (listR phone d1/2 r1 (struct phone d2 (leaf number d2 r1 #0, "
        "leaf? kind d3 r1 #1)))"}},
      {"nested_lists.snappy.parquet",
       {"list3? a d1/2 r1 (list3? element d3/4 r2 (list3? element d5/6 r3 (leaf? element d7 r3 "
        "#0)))",
        "leaf b d0 r0 #0"}},
      {"list_columns.parquet",
       {"list3? int64_list d1/2 r1 (leaf? item d3 r1 #0)",
        "list3? utf8_list d1/2 r1 (leaf? item d3 r1 #0)"}},
      {"null_list.parquet", {"list3? emptylist d1/2 r1 (leaf? item d3 r1 #0)"}},
      {"nonnullable.impala.parquet",
       {"leaf ID d0 r0 #0", "list3 Int_Array d0/1 r1 (leaf element d1 r1 #0)",
        "list3 int_array_array d0/1 r1 (list3 element d1/2 r2 (leaf element d2 r2 #0))",
        "map3 Int_Map d0/1 r1 (leaf key d1 r1 #0, leaf value d1 r1 #1)",
        "list3 int_map_array d0/1 r1 (map3 element d1/2 r2 (leaf key d2 r2 #0, leaf value d2 r2 "
        "#1))",
        "struct nested_Struct d0 (leaf a d0 r0 #0, list3 B d0/1 r1 (leaf element d1 r1 #1), "
        "struct c d0 (list3 D d0/1 r1 (list3 element d1/2 r2 (struct element d2 (leaf e d2 r2 #2, "
        "leaf f d2 r2 #3)))), map3 G d0/1 r1 (leaf key d1 r1 #4, struct value d1 (struct h d1 "
        "(list3 i d1/2 r2 (leaf element d2 r2 #5)))))"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    auto reader =
        FileReader::Open(std::string(PQ_TESTDATA_DIR) + "/parquet-testing/data/" + c.file, {});
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    const auto& fields = (*reader)->schema().fields();
    ASSERT_EQ(fields.size(), c.fields.size());
    for (size_t i = 0; i < fields.size(); ++i) {
      auto shape = BuildNestedShape(*fields[i]);
      ASSERT_TRUE(shape.ok()) << shape.status().ToString();
      EXPECT_EQ(Describe(*shape), c.fields[i]);
      // The levels computed here are the ones the schema gives its leaves.
      const auto [first, count] = (*reader)->schema().LeafRange(*fields[i]);
      ASSERT_EQ(count, shape->num_leaves);
      std::vector<const NestedShape*> todo = {&*shape};
      while (!todo.empty()) {
        const NestedShape* s = todo.back();
        todo.pop_back();
        for (const NestedShape& child : s->children) todo.push_back(&child);
        if (s->kind != Kind::kLeaf) continue;
        const SchemaNode& leaf = (*reader)->schema().leaf(first + s->first_leaf);
        EXPECT_EQ(s->node, &leaf);
        EXPECT_EQ(s->def_level, leaf.max_definition_level);
        EXPECT_EQ(s->rep_level, leaf.max_repetition_level);
      }
    }
  }
}

TEST(NestedShapeTest, RefusesMalformedListsAndMaps) {
  auto code = [](const std::string& text, const std::string& name) {
    std::shared_ptr<const Schema> keep;
    auto shape = ShapeOf(text, name, &keep);
    return shape.ok() ? StatusCode::kOk : shape.status().code();
  };
  EXPECT_EQ(
      code("message m { optional group l (LIST) { repeated int32 a; repeated int32 b; } }", "l"),
      StatusCode::kCorruption);
  EXPECT_EQ(code("message m { optional group l (LIST) { optional int32 a; } }", "l"),
            StatusCode::kCorruption);
  EXPECT_EQ(
      code("message m { optional group m (MAP) { required int32 k; optional int32 v; } }", "m"),
      StatusCode::kCorruption);
  EXPECT_EQ(code(R"(message m { optional group m (MAP) {
                   repeated group key_value { required int32 k; optional int32 v; optional int32 w; } } })",
                 "m"),
            StatusCode::kCorruption);
  EXPECT_EQ(code("message m { optional group m (MAP) { repeated int32 key; } }", "m"),
            StatusCode::kCorruption);
  EXPECT_EQ(code("message m { optional group v (VARIANT) { required binary metadata; } }", "v"),
            StatusCode::kCorruption);  // neither value nor typed_value (tests/format/variant)
  EXPECT_EQ(code("message m { optional group empty { } }", "empty"), StatusCode::kCorruption);
  EXPECT_EQ(code("message m { optional group l (LIST) { repeated group list { } } }", "l"),
            StatusCode::kCorruption);
}

TEST(NestedShapeTest, DeepNestingWithinTheSchemaCapBuilds) {
  std::string text = "message m { ";
  const int depth = 250;
  for (int i = 0; i < depth; ++i) text += "optional group g" + std::to_string(i) + " { ";
  text += "optional int32 x; ";
  for (int i = 0; i < depth; ++i) text += "} ";
  text += "}";
  auto schema = Schema::Make(testing::SchemaElementsFromText(text));
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  auto shape = BuildNestedShape(*(*schema)->fields()[0]);
  ASSERT_TRUE(shape.ok()) << shape.status().ToString();
  const NestedShape* s = &*shape;
  while (!s->children.empty()) s = &s->children[0];
  EXPECT_EQ(s->def_level, depth + 1);
}

TEST(NestedShapeTest, RefusesNestingBeyondTheCap) {
  // Built by hand: Schema::Make refuses such depth itself, the shape builder must not rely on it.
  std::vector<std::unique_ptr<SchemaNode>> nodes;
  nodes.push_back(std::make_unique<SchemaNode>());
  for (int i = 0; i < 300; ++i) {
    auto n = std::make_unique<SchemaNode>();
    n->name = "g" + std::to_string(i);
    n->repetition = Repetition::kOptional;
    n->parent = nodes.back().get();
    n->depth = i + 1;
    nodes.back()->children.push_back(n.get());
    nodes.push_back(std::move(n));
  }
  nodes.back()->is_leaf = true;
  auto shape = BuildNestedShape(*nodes[1]);
  ASSERT_FALSE(shape.ok());
  EXPECT_TRUE(shape.status().IsNotSupported()) << shape.status().ToString();
}

}  // namespace
}  // namespace pq
