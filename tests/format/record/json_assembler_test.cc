#include "format/record/json_assembler.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tests/format/record/schema_text.h"

namespace pq {
namespace {

using testing::SchemaFromText;
using testing::TopLevelField;
using Rows = std::vector<std::optional<std::string>>;
constexpr std::nullopt_t kSqlNull = std::nullopt;

// The levels and rendered values of one leaf. Empty def/rep mean "all zero" (null pointers); for a
// leaf with neither, num_levels is the number of values.
struct LeafData {
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  std::vector<std::string> values;  // JSON text of each non-null value, in order

  int64_t num_levels() const {
    if (!def.empty()) return static_cast<int64_t>(def.size());
    if (!rep.empty()) return static_cast<int64_t>(rep.size());
    return static_cast<int64_t>(values.size());
  }
};

// Renders value k of `values`; a k out of range is written so that any comparison fails.
LeafLevels LevelsOf(const LeafData& d) {
  LeafLevels l;
  l.def_levels = d.def.empty() ? nullptr : d.def.data();
  l.rep_levels = d.rep.empty() ? nullptr : d.rep.data();
  l.num_levels = d.num_levels();
  const std::vector<std::string>* values = &d.values;
  l.append_value_json = [values](int64_t k, std::string* out) {
    if (k < 0 || k >= static_cast<int64_t>(values->size())) {
      out->append("<value " + std::to_string(k) + " out of range>");
      return;
    }
    out->append((*values)[k]);
  };
  return l;
}

Rows RowsOf(const JsonColumn& c) {
  Rows rows;
  for (int64_t r = 0; r < c.size(); ++r) {
    if (c.terminator != 0) {  // JSON text: no NUL inside a record, one after it
      EXPECT_EQ(c.at(r).find('\0'), std::string_view::npos) << "record " << r;
      EXPECT_EQ(c.arena[c.offsets[r + 1] - 1], '\0') << "record " << r;
    }
    if (c.null_at(r)) {
      EXPECT_EQ(c.at(r), "");
      rows.push_back(kSqlNull);
    } else {
      rows.emplace_back(std::string(c.at(r)));
    }
  }
  return rows;
}

// Assembles `num_records` records of top-level field `name`.
Result<Rows> Assemble(const std::string& schema_text, const std::string& name,
                      const std::vector<LeafData>& leaves, int64_t num_records) {
  auto schema = SchemaFromText(schema_text);
  if (schema == nullptr) return Status::InvalidArgument("bad schema");
  const SchemaNode* field = TopLevelField(*schema, name);
  if (field == nullptr) return Status::InvalidArgument("no field " + name);
  PQ_ASSIGN_OR_RETURN(auto assembler, NestedJsonAssembler::Make(*schema, *field));
  std::vector<LeafLevels> levels;
  for (const LeafData& d : leaves) levels.push_back(LevelsOf(d));
  JsonColumn out;
  PQ_RETURN_IF_ERROR(assembler->Assemble(levels, num_records, &out));
  return RowsOf(out);
}

// Asserts that assembly succeeds with `expected` rows.
void ExpectRows(const std::string& schema_text, const std::string& name,
                const std::vector<LeafData>& leaves, const Rows& expected) {
  auto rows = Assemble(schema_text, name, leaves, static_cast<int64_t>(expected.size()));
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), expected.size());
  for (size_t r = 0; r < expected.size(); ++r) {
    EXPECT_EQ((*rows)[r], expected[r]) << "record " << r;
  }
}

Status AssembleStatus(const std::string& schema_text, const std::string& name,
                      const std::vector<LeafData>& leaves, int64_t num_records) {
  return Assemble(schema_text, name, leaves, num_records).status();
}

// ---------------------------------------------------------------------------------------------------
// The Dremel paper's Document example, with the levels the paper gives for records r1 and r2.

const char* kDocument = R"(message Document {
    required int64 DocId;
    optional group Links { repeated int64 Backward; repeated int64 Forward; }
    repeated group Name {
      repeated group Language { required binary Code (STRING); optional binary Country (STRING); }
      optional binary Url (STRING);
    }
  })";

TEST(JsonAssemblerTest, DremelDocumentDocId) {
  ExpectRows(kDocument, "DocId", {{{}, {}, {"10", "20"}}}, {"10", "20"});
}

TEST(JsonAssemblerTest, DremelDocumentLinks) {
  LeafData backward{{1, 2, 2}, {0, 0, 1}, {"10", "30"}};
  LeafData forward{{2, 2, 2, 2}, {0, 1, 1, 0}, {"20", "40", "60", "80"}};
  ExpectRows(kDocument, "Links", {backward, forward},
             {R"({"Backward":[],"Forward":[20,40,60]})", R"({"Backward":[10,30],"Forward":[80]})"});
}

TEST(JsonAssemblerTest, DremelDocumentName) {
  LeafData code{{2, 2, 1, 2, 1}, {0, 2, 1, 1, 0}, {R"("en-us")", R"("en")", R"("en-gb")"}};
  LeafData country{{3, 2, 1, 3, 1}, {0, 2, 1, 1, 0}, {R"("us")", R"("gb")"}};
  LeafData url{{2, 2, 1, 2}, {0, 1, 1, 0}, {R"("http://A")", R"("http://B")", R"("http://C")"}};
  ExpectRows(kDocument, "Name", {code, country, url},
             {R"([{"Language":[{"Code":"en-us","Country":"us"},{"Code":"en","Country":null}],)"
              R"("Url":"http://A"},{"Language":[],"Url":"http://B"},)"
              R"({"Language":[{"Code":"en-gb","Country":"gb"}],"Url":null}])",
              R"([{"Language":[],"Url":"http://C"}])"});
}

// ---------------------------------------------------------------------------------------------------
// Lists.

const char* kOptionalList = R"(message m {
    optional group l (LIST) { repeated group list { optional int32 element; } }
  })";

TEST(JsonAssemblerTest, ThreeLevelListWithNullElementsEmptyAndNullLists) {
  // [1,null,2], [], NULL, [null], [3]
  LeafData element{{3, 2, 3, 1, 0, 2, 3}, {0, 1, 1, 0, 0, 0, 0}, {"1", "2", "3"}};
  ExpectRows(kOptionalList, "l", {element}, {"[1,null,2]", "[]", kSqlNull, "[null]", "[3]"});
}

TEST(JsonAssemblerTest, NullListInsideAStructIsJsonNull) {
  const char* schema = R"(message m {
      required group s {
        optional group l (LIST) { repeated group list { optional int32 element; } }
        required int32 id;
      }
    })";
  LeafData element{{0, 1, 3}, {0, 0, 0}, {"7"}};
  LeafData id{{}, {}, {"1", "2", "3"}};
  ExpectRows(schema, "s", {element, id},
             {R"({"l":null,"id":1})", R"({"l":[],"id":2})", R"({"l":[7],"id":3})"});
}

TEST(JsonAssemblerTest, LegacyRule1RepeatedPrimitive) {
  const char* schema = "message m { optional group my_list (LIST) { repeated int32 element; } }";
  // [1,2], NULL, []
  ExpectRows(schema, "my_list", {{{2, 2, 0, 1}, {0, 1, 0, 0}, {"1", "2"}}},
             {"[1,2]", kSqlNull, "[]"});
}

TEST(JsonAssemblerTest, LegacyRule2GroupOfSeveralFields) {
  const char* schema = R"(message m {
      optional group my_list (LIST) {
        repeated group element { required binary str (STRING); required int32 num; }
      }
    })";
  LeafData str{{2, 2, 1}, {0, 1, 0}, {R"("a")", R"("b")"}};
  LeafData num{{2, 2, 1}, {0, 1, 0}, {"1", "2"}};
  ExpectRows(schema, "my_list", {str, num}, {R"([{"str":"a","num":1},{"str":"b","num":2}])", "[]"});
}

TEST(JsonAssemblerTest, LegacyRule3OldListStructure) {
  // old_list_structure.parquet holds one LIST<LIST<INT32>> value [[1,2],[3,4]]. Then [[],[5]] and
  // [].
  const char* schema = R"(message m {
      required group a (LIST) { repeated group array (LIST) { repeated int32 array; } }
    })";
  LeafData array{{2, 2, 2, 2, 1, 2, 0}, {0, 2, 1, 2, 0, 1, 0}, {"1", "2", "3", "4", "5"}};
  ExpectRows(schema, "a", {array}, {"[[1,2],[3,4]]", "[[],[5]]", "[]"});
}

TEST(JsonAssemblerTest, LegacyRule4OneTupleElements) {
  for (const char* name : {"array", "my_list_tuple"}) {
    const std::string schema = std::string(R"(message m {
        optional group my_list (LIST) { repeated group )") +
                               name + R"( { required binary str (STRING); } }
      })";
    LeafData str{{2, 2, 0}, {0, 1, 0}, {R"("x")", R"("y")"}};
    ExpectRows(schema, "my_list", {str}, {R"([{"str":"x"},{"str":"y"}])", kSqlNull});
  }
}

TEST(JsonAssemblerTest, LegacyRule5NullableElements) {
  const char* schema = R"(message m {
      optional group my_list (LIST) { repeated group element { optional binary str (STRING); } }
    })";
  LeafData str{{3, 2}, {0, 1}, {R"("a")"}};
  ExpectRows(schema, "my_list", {str}, {R"(["a",null])"});
}

TEST(JsonAssemblerTest, ListOfListsThreeLevel) {
  const char* schema = R"(message m {
      optional group a (LIST) {
        repeated group list {
          optional group element (LIST) { repeated group list { optional int32 element; } }
        }
      }
    })";
  // [[1,null],null,[]], [[2]], NULL, []
  LeafData leaf{{5, 4, 2, 3, 5, 0, 1}, {0, 2, 1, 1, 0, 0, 0}, {"1", "2"}};
  ExpectRows(schema, "a", {leaf}, {"[[1,null],null,[]]", "[[2]]", kSqlNull, "[]"});
}

TEST(JsonAssemblerTest, RepeatedPrimitiveAtTopLevelIsAnArrayNeverNull) {
  const char* schema = "message m { repeated int32 num; }";
  ExpectRows(schema, "num", {{{1, 1, 1, 0, 1}, {0, 1, 1, 0, 0}, {"1", "2", "3", "4"}}},
             {"[1,2,3]", "[]", "[4]"});
}

TEST(JsonAssemblerTest, RepeatedGroupAtTopLevelIsAnArrayOfObjects) {
  const char* schema = R"(message m {
      repeated group my_list { required int32 num; optional binary str (STRING); }
    })";
  LeafData num{{1, 1, 0}, {0, 1, 0}, {"1", "2"}};
  LeafData str{{2, 1, 0}, {0, 1, 0}, {R"("a")"}};
  ExpectRows(schema, "my_list", {num, str},
             {R"([{"num":1,"str":"a"},{"num":2,"str":null}])", "[]"});
}

TEST(JsonAssemblerTest, StructContainingListOfStructs) {
  const char* schema = R"(message m {
      optional group s {
        required int32 id;
        optional group items (LIST) {
          repeated group list {
            optional group element { required binary name (STRING); optional int32 qty; }
          }
        }
      }
    })";
  LeafData id{{1, 1, 1, 0}, {}, {"1", "2", "3"}};
  LeafData name{{4, 3, 4, 1, 2, 0}, {0, 1, 1, 0, 0, 0}, {R"("a")", R"("b")"}};
  LeafData qty{{5, 3, 4, 1, 2, 0}, {0, 1, 1, 0, 0, 0}, {"2"}};
  ExpectRows(schema, "s", {id, name, qty},
             {R"({"id":1,"items":[{"name":"a","qty":2},null,{"name":"b","qty":null}]})",
              R"({"id":2,"items":null})", R"({"id":3,"items":[]})", kSqlNull});
}

// ---------------------------------------------------------------------------------------------------
// Maps.

TEST(JsonAssemblerTest, MapWithNullableValuesEmptyMapsAndDuplicateKeys) {
  const char* schema = R"(message m {
      required group my_map (MAP) {
        repeated group key_value { required binary key (STRING); optional int32 value; }
      }
    })";
  LeafData key{{1, 1, 0, 1, 1}, {0, 1, 0, 0, 1}, {R"("a")", R"("b")", R"("a")", R"("a")"}};
  LeafData value{{2, 1, 0, 2, 2}, {0, 1, 0, 0, 1}, {"1", "3", "4"}};
  ExpectRows(schema, "my_map", {key, value}, {R"({"a":1,"b":null})", "{}", R"({"a":3,"a":4})"});
}

TEST(JsonAssemblerTest, NullableMapAtTopLevel) {
  const char* schema = R"(message m {
      optional group my_map (MAP) { repeated group key_value { required int32 key; required int32 value; } }
    })";
  LeafData key{{2, 0, 1}, {0, 0, 0}, {"7"}};
  LeafData value{{2, 0, 1}, {0, 0, 0}, {"70"}};
  ExpectRows(schema, "my_map", {key, value}, {R"({"7":70})", kSqlNull, "{}"});
}

TEST(JsonAssemblerTest, MapWithoutValueFieldHasNullValues) {
  // map_no_value.parquet's my_map_no_v: keys 1,2,3 / 4,5,6 / 7,8,9.
  const char* schema = R"(message m {
      required group my_map_no_v (MAP) { repeated group key_value { required int32 key; } }
    })";
  LeafData key{{1, 1, 1, 1, 1, 1, 1, 1, 1},
               {0, 1, 1, 0, 1, 1, 0, 1, 1},
               {"1", "2", "3", "4", "5", "6", "7", "8", "9"}};
  ExpectRows(schema, "my_map_no_v", {key},
             {R"({"1":null,"2":null,"3":null})", R"({"4":null,"5":null,"6":null})",
              R"({"7":null,"8":null,"9":null})"});
}

TEST(JsonAssemblerTest, MapWithOptionalKeyWritesANullKeyAsTheNameNull) {
  // incorrect_map_schema.parquet: the key is optional.
  const char* schema = R"(message m {
      optional group my_map (MAP) {
        repeated group key_value { optional binary key (STRING); optional binary value (STRING); }
      }
    })";
  LeafData key{{3, 2}, {0, 1}, {R"("k")"}};
  LeafData value{{3, 3}, {0, 1}, {R"("v")", R"("w")"}};
  ExpectRows(schema, "my_map", {key, value}, {R"({"k":"v","null":"w"})"});
}

TEST(JsonAssemblerTest, MapKeysThatAreNotStringsAreQuotedAsText) {
  const char* schema = R"(message m {
      required group m (MAP) {
        repeated group key_value {
          required group key { required int32 a; required binary b (STRING); }
          required boolean value;
        }
      }
    })";
  LeafData a{{1, 1}, {0, 1}, {"1", "2"}};
  LeafData b{{1, 1}, {0, 1}, {R"("x\"y")", R"("z")"}};
  LeafData value{{1, 1}, {0, 1}, {"true", "false"}};
  ExpectRows(schema, "m", {a, b, value},
             {R"({"{\"a\":1,\"b\":\"x\\\"y\"}":true,"{\"a\":2,\"b\":\"z\"}":false})"});
}

TEST(JsonAssemblerTest, LegacyMapKeyValueForms) {
  const char* outer = R"(message m {
      optional group my_map (MAP_KEY_VALUE) {
        repeated group map { required binary key (STRING); optional int32 value; }
      }
    })";
  LeafData key{{2, 2, 1, 0}, {0, 1, 0, 0}, {R"("a")", R"("b")"}};
  LeafData value{{3, 2, 1, 0}, {0, 1, 0, 0}, {"1"}};
  ExpectRows(outer, "my_map", {key, value}, {R"({"a":1,"b":null})", "{}", kSqlNull});

  const char* repeated = R"(message m {
      repeated group my_map (MAP_KEY_VALUE) { required binary key (STRING); optional int32 value; }
    })";
  LeafData key2{{1, 1, 0}, {0, 1, 0}, {R"("a")", R"("b")"}};
  LeafData value2{{2, 1, 0}, {0, 1, 0}, {"1"}};
  ExpectRows(repeated, "my_map", {key2, value2}, {R"({"a":1,"b":null})", "{}"});
}

TEST(JsonAssemblerTest, MapOfListsAndListOfMaps) {
  const char* map_of_lists = R"(message m {
      optional group m (MAP) {
        repeated group key_value {
          required binary key (STRING);
          optional group value (LIST) { repeated group list { required int32 element; } }
        }
      }
    })";
  // {"a":[1,2],"b":null,"c":[]}
  LeafData key{{2, 2, 2}, {0, 1, 1}, {R"("a")", R"("b")", R"("c")"}};
  LeafData element{{4, 4, 2, 3}, {0, 2, 1, 1}, {"1", "2"}};
  ExpectRows(map_of_lists, "m", {key, element}, {R"({"a":[1,2],"b":null,"c":[]})"});

  const char* list_of_maps = R"(message m {
      required group l (LIST) {
        repeated group list {
          optional group element (MAP) {
            repeated group key_value { required int32 key; optional int32 value; }
          }
        }
      }
    })";
  // [{"1":10,"2":null},null,{}]
  LeafData k{{3, 3, 1, 2}, {0, 2, 1, 1}, {"1", "2"}};
  LeafData v{{4, 3, 1, 2}, {0, 2, 1, 1}, {"10"}};
  ExpectRows(list_of_maps, "l", {k, v}, {R"([{"1":10,"2":null},null,{}])"});
}

// ---------------------------------------------------------------------------------------------------
// Member names, output reuse and arguments.

TEST(JsonAssemblerTest, MemberNamesAreEscaped) {
  auto elements = testing::SchemaElementsFromText(
      "message m { required group s { required int32 a; required int32 b; } }");
  elements[2].name = "we\"ird\\";
  elements[3].name = std::string("ctl\x01\n", 5);
  auto schema = Schema::Make(elements);
  ASSERT_TRUE(schema.ok());
  auto assembler = NestedJsonAssembler::Make(**schema, *(*schema)->fields()[0]);
  ASSERT_TRUE(assembler.ok()) << assembler.status().ToString();
  LeafData a{{}, {}, {"1"}};
  LeafData b{{}, {}, {"2"}};
  std::vector<LeafLevels> levels = {LevelsOf(a), LevelsOf(b)};
  JsonColumn out;
  ASSERT_TRUE((*assembler)->Assemble(levels, 1, &out).ok());
  EXPECT_EQ(out.at(0), R"({"we\"ird\\":1,"ctl\u0001\u000a":2})");  // escaped as values are (json_writer)
}

TEST(JsonAssemblerTest, AppendsAcrossCallsAndClearKeepsWorking) {
  auto schema = SchemaFromText(kOptionalList);
  auto assembler = NestedJsonAssembler::Make(*schema, *schema->fields()[0]);
  ASSERT_TRUE(assembler.ok());
  JsonColumn out;
  LeafData first{{3, 3, 0}, {0, 1, 0}, {"1", "2"}};
  LeafData second{{1, 3}, {0, 0}, {"9"}};
  std::vector<LeafLevels> l1 = {LevelsOf(first)};
  std::vector<LeafLevels> l2 = {LevelsOf(second)};
  ASSERT_TRUE((*assembler)->Assemble(l1, 2, &out).ok());
  ASSERT_TRUE((*assembler)->Assemble(l2, 2, &out).ok());
  EXPECT_EQ(RowsOf(out), (Rows{"[1,2]", kSqlNull, "[]", "[9]"}));
  EXPECT_EQ(out.offsets.size(), 5u);
  out.Clear();
  ASSERT_TRUE((*assembler)->Assemble(l2, 2, &out).ok());
  EXPECT_EQ(RowsOf(out), (Rows{"[]", "[9]"}));
  ASSERT_TRUE((*assembler)->Assemble(l2, 0, &out).IsCorruption());  // levels left over
  EXPECT_EQ(RowsOf(out), (Rows{"[]", "[9]"}));
}

TEST(JsonAssemblerTest, ZeroRecordsFromNoLevels) {
  auto rows = Assemble(kOptionalList, "l", {LeafData{}}, 0);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_TRUE(rows->empty());
}

TEST(JsonAssemblerTest, RejectsBadArguments) {
  auto schema = SchemaFromText(kDocument);
  const SchemaNode& links = *TopLevelField(*schema, "Links");
  auto assembler = NestedJsonAssembler::Make(*schema, links);
  ASSERT_TRUE(assembler.ok());
  JsonColumn out;
  LeafData one{{2}, {0}, {"1"}};
  std::vector<LeafLevels> only_one = {LevelsOf(one)};
  EXPECT_TRUE((*assembler)->Assemble(only_one, 1, &out).IsInvalidArgument());
  std::vector<LeafLevels> two = {LevelsOf(one), LevelsOf(one)};
  EXPECT_TRUE((*assembler)->Assemble(two, -1, &out).IsInvalidArgument());
  two[1].num_levels = -1;
  EXPECT_TRUE((*assembler)->Assemble(two, 1, &out).IsInvalidArgument());
  two[1] = LevelsOf(one);
  two[1].append_value_json = nullptr;  // a value to render and nothing to render it
  EXPECT_TRUE((*assembler)->Assemble(two, 1, &out).IsInvalidArgument());
  two[1] = LevelsOf(one);
  ASSERT_TRUE((*assembler)->Assemble(two, 1, &out).ok());
  EXPECT_EQ(out.at(0), R"({"Backward":[1],"Forward":[1]})");
  // A leaf whose run holds no value needs no renderer.
  LeafData empty_links{{0}, {0}, {}};
  std::vector<LeafLevels> nulls = {LevelsOf(empty_links), LevelsOf(empty_links)};
  nulls[0].append_value_json = nullptr;
  nulls[1].append_value_json = nullptr;
  ASSERT_TRUE((*assembler)->Assemble(nulls, 1, &out).ok());
  EXPECT_TRUE(out.null_at(1));

  // Not a top-level field.
  const SchemaNode& backward = *links.children[0];
  EXPECT_TRUE(NestedJsonAssembler::Make(*schema, backward).status().IsInvalidArgument());
}

// VARIANT groups are assembled too; their tests are in tests/format/variant.
TEST(JsonAssemblerTest, VariantBuilds) {
  auto schema = SchemaFromText(
      "message m { optional group v (VARIANT) { required binary metadata; required binary value; } "
      "}");
  EXPECT_TRUE(NestedJsonAssembler::Make(*schema, *schema->fields()[0]).ok());
}

// ---------------------------------------------------------------------------------------------------
// Inconsistent levels.

TEST(JsonAssemblerTest, CorruptionLeafWithFewerOrMoreRecords) {
  LeafData list{{3, 3}, {0, 0}, {"1", "2"}};
  EXPECT_TRUE(AssembleStatus(kOptionalList, "l", {list}, 3).IsCorruption());
  EXPECT_TRUE(AssembleStatus(kOptionalList, "l", {list}, 1).IsCorruption());
  EXPECT_TRUE(AssembleStatus(kOptionalList, "l", {list}, 2).ok());
  // Two leaves covering a different number of records.
  LeafData backward{{1, 1}, {0, 0}, {}};
  LeafData forward{{1}, {0}, {}};
  EXPECT_TRUE(AssembleStatus(kDocument, "Links", {backward, forward}, 2).IsCorruption());
  EXPECT_TRUE(AssembleStatus(kDocument, "Links", {backward, forward}, 1).IsCorruption());
}

TEST(JsonAssemblerTest, CorruptionLevelsAboveMaximum) {
  EXPECT_TRUE(AssembleStatus(kOptionalList, "l", {{{4}, {0}, {"1"}}}, 1).IsCorruption());
  EXPECT_TRUE(AssembleStatus(kOptionalList, "l", {{{-1}, {0}, {}}}, 1).IsCorruption());
  EXPECT_TRUE(AssembleStatus(kOptionalList, "l", {{{3, 3}, {0, 2}, {"1", "2"}}}, 1).IsCorruption());
  EXPECT_TRUE(
      AssembleStatus(kOptionalList, "l", {{{3, 3}, {0, -3}, {"1", "2"}}}, 1).IsCorruption());
  EXPECT_TRUE(AssembleStatus(kDocument, "DocId", {{{1}, {}, {"1"}}}, 1).IsCorruption());
}

TEST(JsonAssemblerTest, CorruptionRecordStartingWithNonZeroRepetition) {
  EXPECT_TRUE(AssembleStatus(kOptionalList, "l", {{{3, 3}, {1, 0}, {"1", "2"}}}, 2).IsCorruption());
}

TEST(JsonAssemblerTest, CorruptionRepetitionLevelThatOpensNothing) {
  const char* schema = R"(message m {
      required group a (LIST) { repeated group array (LIST) { repeated int32 array; } }
    })";
  // The inner list is empty (def 1), then a level continues it.
  LeafData leaf{{1, 2}, {0, 2}, {"5"}};
  Status s = AssembleStatus(schema, "a", {leaf}, 1);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  // The outer list is empty (def 0), then a level continues the outer or the inner list.
  EXPECT_TRUE(AssembleStatus(schema, "a", {{{0, 2}, {0, 1}, {"5"}}}, 1).IsCorruption());
  EXPECT_TRUE(AssembleStatus(schema, "a", {{{0, 2}, {0, 2}, {"5"}}}, 1).IsCorruption());
  // A null list continued.
  EXPECT_TRUE(AssembleStatus(kOptionalList, "l", {{{0, 3}, {0, 1}, {"5"}}}, 1).IsCorruption());
}

// DuckDB writes a NULL fixed-size ARRAY of N elements as N level entries: the null, then N - 1
// entries continuing a list that is not open. They hold nothing and are dropped, at any depth.
TEST(JsonAssemblerTest, ContinuationsOfANullOrEmptyListAreDropped) {
  // INT[2]: [1,2], NULL, [3,4].
  ExpectRows(kOptionalList, "l", {{{3, 3, 0, 0, 3, 3}, {0, 1, 0, 1, 0, 1}, {"1", "2", "3", "4"}}},
             {"[1,2]", kSqlNull, "[3,4]"});
  // A NULL array as the last record of the batch, and an empty list continued.
  ExpectRows(kOptionalList, "l", {{{3, 3, 1, 1, 0, 0}, {0, 1, 0, 1, 0, 1}, {"1", "2"}}},
             {"[1,2]", "[]", kSqlNull});
  // INT[2][]: [[1,2]], [NULL, [5,6]], [[7,8], NULL]: the inner NULL arrays have a continuation each.
  const char* list_of_lists = R"(message m {
      optional group l (LIST) { repeated group list {
        optional group element (LIST) { repeated group list { optional int32 element; } } } }
    })";
  LeafData inner{{5, 5, 2, 2, 5, 5, 5, 5, 2, 2},
                 {0, 2, 0, 2, 1, 2, 0, 2, 1, 2},
                 {"1", "2", "5", "6", "7", "8"}};
  ExpectRows(list_of_lists, "l", {inner}, {"[[1,2]]", "[null,[5,6]]", "[[7,8],null]"});
  // A struct holding an array beside a plain member: only the array's leaf has the extra entries.
  const char* struct_of_array = R"(message m {
      optional group s { optional int32 x;
        optional group a (LIST) { repeated group list { optional int32 element; } } }
    })";
  LeafData x{{2, 1, 0}, {}, {"9"}};
  LeafData a{{4, 4, 1, 1, 0, 0}, {0, 1, 0, 1, 0, 1}, {"1", "2"}};
  ExpectRows(struct_of_array, "s", {x, a},
             {R"({"x":9,"a":[1,2]})", R"({"x":null,"a":null})", kSqlNull});
}

// Long runs of levels are checked a block of entries at a time: continuations of NULL arrays at
// every offset (block boundaries included), value counts past 65,535, and a level out of range
// anywhere, all found as in a short run.
TEST(JsonAssemblerTest, LongLevelRunsAreCheckedInBlocks) {
  LeafData leaf;
  Rows expected;
  int value = 0;
  for (int r = 0; r < 40000; ++r) {
    if (r % 97 == 5 || r % 64 == 31) {  // a NULL INT[2]: the null and a continuation
      leaf.def.insert(leaf.def.end(), {0, 0});
      leaf.rep.insert(leaf.rep.end(), {0, 1});
      expected.push_back(kSqlNull);
    } else if (r % 89 == 7) {  // an empty list
      leaf.def.push_back(1);
      leaf.rep.push_back(0);
      expected.push_back("[]");
    } else {
      leaf.def.insert(leaf.def.end(), {3, r % 5 == 0 ? int16_t{2} : int16_t{3}});
      leaf.rep.insert(leaf.rep.end(), {0, 1});
      leaf.values.push_back(std::to_string(value));
      expected.push_back("[" + std::to_string(value) + "," + (r % 5 == 0 ? "null" : std::to_string(value + 1)) + "]");
      if (r % 5 != 0) leaf.values.push_back(std::to_string(value + 1));
      value += 2;
    }
  }
  ASSERT_GT(leaf.def.size(), 65535u);
  ExpectRows(kOptionalList, "l", {leaf}, expected);

  // The count of values the levels define, against the count decoded.
  auto schema = SchemaFromText(kOptionalList);
  ASSERT_NE(schema, nullptr);
  const auto defined = static_cast<int64_t>(leaf.values.size());
  ASSERT_GT(defined, 65535);
  for (int64_t decoded : {defined, defined - 1, defined + 1}) {
    auto assembler = NestedJsonAssembler::Make(*schema, *TopLevelField(*schema, "l"));
    ASSERT_TRUE(assembler.ok());
    LeafLevels levels = LevelsOf(leaf);
    levels.num_values = decoded;
    JsonColumn out;
    Status s = (*assembler)->Assemble({&levels, 1}, static_cast<int64_t>(expected.size()), &out);
    if (decoded == defined) {
      EXPECT_TRUE(s.ok()) << s.ToString();
    } else {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
      EXPECT_NE(s.message().find(std::to_string(defined) + " values defined by the levels"), std::string::npos)
          << s.ToString();
    }
  }

  // A level out of range at the start, in a block, at a block's last entry and in the tail.
  auto expect_rejected = [&](std::vector<int16_t> LeafData::*levels, size_t at, int16_t bad, const std::string& what) {
    LeafData damaged = leaf;
    (damaged.*levels)[at] = bad;
    Status s = AssembleStatus(kOptionalList, "l", {damaged}, static_cast<int64_t>(expected.size()));
    EXPECT_TRUE(s.IsCorruption()) << at << " " << bad;
    EXPECT_NE(s.message().find(what), std::string::npos) << s.ToString();
  };
  const size_t n = leaf.def.size();
  for (size_t at : {size_t{0}, size_t{1}, size_t{64}, size_t{100}, size_t{65536}, n - 2, n - 1}) {
    for (int16_t bad : {int16_t{4}, int16_t{-1}, int16_t{0x7FFF}}) {
      expect_rejected(&LeafData::def, at, bad, "definition level " + std::to_string(bad) + " is outside [0, 3]");
    }
    for (int16_t bad : {int16_t{2}, int16_t{-3}}) {
      expect_rejected(&LeafData::rep, at, bad, "repetition level " + std::to_string(bad) + " is outside [0, 1]");
    }
  }
}

TEST(JsonAssemblerTest, CorruptionContinuationThatSaysTheListIsEmpty) {
  // [1, ...] continued by an entry whose definition level says the list is empty or null.
  EXPECT_TRUE(AssembleStatus(kOptionalList, "l", {{{3, 1}, {0, 1}, {"1"}}}, 1).IsCorruption());
  EXPECT_TRUE(AssembleStatus(kOptionalList, "l", {{{3, 0}, {0, 1}, {"1"}}}, 1).IsCorruption());
}

TEST(JsonAssemblerTest, CorruptionLeavesDisagreeAboutNulls) {
  // Backward says Links is null, Forward says it holds a value.
  LeafData backward{{0}, {0}, {}};
  LeafData forward{{2}, {0}, {"1"}};
  Status s = AssembleStatus(kDocument, "Links", {backward, forward}, 1);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_TRUE(AssembleStatus(kDocument, "Links", {forward, backward}, 1).IsCorruption());
  // Code says the Language list is empty, Country says it holds a null Country.
  LeafData code{{1}, {0}, {}};
  LeafData country{{2}, {0}, {}};
  LeafData url{{1}, {0}, {}};
  EXPECT_TRUE(AssembleStatus(kDocument, "Name", {code, country, url}, 1).IsCorruption());
  // Code and Country say the Name list is empty (def 0), Url says there is one Name.
  LeafData empty{{0}, {0}, {}};
  EXPECT_TRUE(AssembleStatus(kDocument, "Name", {empty, empty, url}, 1).IsCorruption());
}

TEST(JsonAssemblerTest, CorruptionLeavesDisagreeAboutRepetition) {
  const char* schema = R"(message m {
      required group my_map (MAP) {
        repeated group key_value { required binary key (STRING); optional int32 value; }
      }
    })";
  // Two keys, one value.
  LeafData key{{1, 1}, {0, 1}, {R"("a")", R"("b")"}};
  LeafData value{{2}, {0}, {"1"}};
  EXPECT_TRUE(AssembleStatus(schema, "my_map", {key, value}, 1).IsCorruption());
  EXPECT_TRUE(AssembleStatus(schema, "my_map", {value, key}, 1).IsCorruption());
  // Same counts, different positions: key continues at entry 2, value starts a record there.
  LeafData key3{{1, 1, 1}, {0, 1, 0}, {R"("a")", R"("b")", R"("c")"}};
  LeafData value3{{2, 2, 2}, {0, 0, 1}, {"1", "2", "3"}};
  EXPECT_TRUE(AssembleStatus(schema, "my_map", {key3, value3}, 2).IsCorruption());
}

TEST(JsonAssemblerTest, FailedCallLeavesOutputUnchanged) {
  auto schema = SchemaFromText(kOptionalList);
  auto assembler = NestedJsonAssembler::Make(*schema, *schema->fields()[0]);
  ASSERT_TRUE(assembler.ok());
  JsonColumn out;
  LeafData good{{3}, {0}, {"1"}};
  std::vector<LeafLevels> l1 = {LevelsOf(good)};
  ASSERT_TRUE((*assembler)->Assemble(l1, 1, &out).ok());
  // Two good records, then one that continues a null list.
  LeafData bad{{3, 1, 0, 3}, {0, 0, 0, 1}, {"1", "2"}};
  std::vector<LeafLevels> l2 = {LevelsOf(bad)};
  ASSERT_TRUE((*assembler)->Assemble(l2, 3, &out).IsCorruption());
  EXPECT_EQ(RowsOf(out), (Rows{"[1]"}));
  EXPECT_EQ(out.arena, std::string("[1]\0", 4));  // JSON text, each record followed by a NUL
  EXPECT_EQ(out.offsets.size(), 2u);
}

TEST(JsonAssemblerTest, ErrorMessagesNameTheColumnAndRecord) {
  EXPECT_EQ(
      AssembleStatus(kDocument, "Links", {{{0}, {0}, {}}, {{2}, {0}, {"1"}}}, 1).ToString(),
      "Corruption: column 'Links.Forward', record 0 of the batch: definition level 2 disagrees "
      "with column 'Links.Backward' about where a value is null or a list is empty");
  EXPECT_EQ(AssembleStatus(kDocument, "Links", {{{2}, {0}, {"1"}}, {{0}, {0}, {}}}, 1).ToString(),
            "Corruption: column 'Links.Forward', record 0 of the batch: definition level 0 says an "
            "enclosing value is null where other levels say it is present");
  EXPECT_EQ(AssembleStatus(kOptionalList, "l", {{{3, 1}, {0, 1}, {"1"}}}, 1).ToString(),
            "Corruption: column 'l.list.element', record 0 of the batch: definition level 1 says "
            "an enclosing value is null where other levels say it is present");
  EXPECT_EQ(AssembleStatus(kOptionalList, "l", {{{3, 3}, {0, 0}, {"1", "2"}}}, 3).ToString(),
            "Corruption: column 'l.list.element', record 2 of the batch: levels end before the 3 "
            "records asked for");
  EXPECT_EQ(AssembleStatus(kOptionalList, "l", {{{3, 3}, {0, 0}, {"1", "2"}}}, 1).ToString(),
            "Corruption: column 'l.list.element': 1 level entries left after 1 records");
  EXPECT_EQ(AssembleStatus(kOptionalList, "l", {{{3, 3}, {1, 0}, {"1", "2"}}}, 2).ToString(),
            "Corruption: column 'l.list.element', record 0 of the batch: the record starts with "
            "repetition level 1");
  EXPECT_EQ(AssembleStatus(kOptionalList, "l", {{{4}, {0}, {"1"}}}, 1).ToString(),
            "Corruption: column 'l.list.element': definition level 4 is outside [0, 3]");
  EXPECT_EQ(AssembleStatus(kOptionalList, "l", {{{0, 3}, {0, 1}, {"5"}}}, 1).ToString(),
            "Corruption: column 'l.list.element': 1 level entries left after 1 records");
  const char* two_level = R"(message m {
      required group a (LIST) { repeated group array (LIST) { repeated int32 array; } }
    })";
  EXPECT_EQ(AssembleStatus(two_level, "a", {{{1, 2}, {0, 2}, {"5"}}}, 1).ToString(),
            "Corruption: column 'a.array.array', record 0 of the batch: repetition level 2 "
            "continues a list that is not open");
  EXPECT_EQ(AssembleStatus(kDocument, "Name",
                           {{{1, 1}, {0, 1}, {}}, {{1, 1}, {0, 1}, {}}, {{1, 1}, {0, 0}, {}}}, 1)
                .ToString(),
            "Corruption: column 'Name.Url', record 0 of the batch: repetition level 0 disagrees "
            "with level 1 of column 'Name.Language.Code'");
}

// ---------------------------------------------------------------------------------------------------
// Random round trips: random nested values are shredded into levels by a writer-side implementation
// of the Dremel encoding written here, then assembled back; the JSON must match the values' own
// rendering.

struct Value {
  enum class Kind { kNull, kScalar, kArray, kObject, kMap } kind = Kind::kNull;
  std::string scalar;  // kScalar: JSON text
  std::vector<Value>
      items;  // kArray: elements; kObject: members by position; kMap: k0, v0, k1, v1...
};

class RoundTrip {
 public:
  RoundTrip(const NestedShape& shape, uint32_t seed) : shape_(shape), rng_(seed) {
    leaves_.resize(shape.num_leaves);
    Reset();
  }

  Value Random(const NestedShape& s) {
    Value v;
    if (s.nullable && rng_() % 4 == 0) return v;
    switch (s.kind) {
      case NestedShape::Kind::kLeaf:
        v.kind = Value::Kind::kScalar;
        v.scalar = rng_() % 2 ? std::to_string(static_cast<int>(rng_() % 2000) - 1000)
                              : "\"s" + std::to_string(rng_() % 100) + "\"";
        break;
      case NestedShape::Kind::kStruct:
        v.kind = Value::Kind::kObject;
        for (const NestedShape& c : s.children) v.items.push_back(Random(c));
        break;
      case NestedShape::Kind::kList: {
        v.kind = Value::Kind::kArray;
        const int n = static_cast<int>(rng_() % 4);
        for (int i = 0; i < n; ++i) v.items.push_back(Random(s.element()));
        break;
      }
      case NestedShape::Kind::kMap: {
        v.kind = Value::Kind::kMap;
        const int n = static_cast<int>(rng_() % 4);
        for (int i = 0; i < n; ++i) {
          v.items.push_back(Random(s.key()));
          v.items.push_back(s.has_value() ? Random(s.value()) : Value());
        }
        break;
      }
      case NestedShape::Kind::kVariant:
      case NestedShape::Kind::kShredded:
        ADD_FAILURE() << "VARIANT shapes are not generated here";
        break;
    }
    return v;
  }

  static void Render(const NestedShape& s, const Value& v, std::string* out) {
    switch (v.kind) {
      case Value::Kind::kNull:
        *out += "null";
        return;
      case Value::Kind::kScalar:
        *out += v.scalar;
        return;
      case Value::Kind::kArray:
        *out += "[";
        for (size_t i = 0; i < v.items.size(); ++i) {
          if (i) *out += ",";
          Render(s.element(), v.items[i], out);
        }
        *out += "]";
        return;
      case Value::Kind::kObject:
        *out += "{";
        for (size_t i = 0; i < v.items.size(); ++i) {
          if (i) *out += ",";
          *out += "\"" + s.children[i].node->name + "\":";
          Render(s.children[i], v.items[i], out);
        }
        *out += "}";
        return;
      case Value::Kind::kMap:
        *out += "{";
        for (size_t i = 0; i < v.items.size(); i += 2) {
          if (i) *out += ",";
          std::string key;
          Render(s.key(), v.items[i], &key);
          *out += key[0] == '"' ? key : "\"" + key + "\"";  // test keys need no escaping
          *out += ":";
          if (s.has_value()) {
            Render(s.value(), v.items[i + 1], out);
          } else {
            *out += "null";
          }
        }
        *out += "}";
        return;
    }
  }

  // Writes the levels of value `v` of shape `s`, whose first entry repeats at level `rep`.
  void Shred(const NestedShape& s, const Value& v, int16_t rep) {
    if (v.kind == Value::Kind::kNull) return Absent(s, rep, static_cast<int16_t>(s.def_level - 1));
    switch (s.kind) {
      case NestedShape::Kind::kLeaf:
        Emit(s.first_leaf, rep, s.def_level);
        leaves_[s.first_leaf].values.push_back(v.scalar);
        return;
      case NestedShape::Kind::kStruct:
        for (size_t i = 0; i < s.children.size(); ++i) Shred(s.children[i], v.items[i], rep);
        return;
      case NestedShape::Kind::kList:
      case NestedShape::Kind::kMap: {
        if (v.items.empty()) return Absent(s, rep, s.def_level);
        const size_t step = s.kind == NestedShape::Kind::kList ? 1 : 2;
        for (size_t i = 0; i < v.items.size(); i += step) {
          const int16_t r = i == 0 ? rep : s.rep_level;
          if (step == 1) {
            Shred(s.element(), v.items[i], r);
          } else {
            Shred(s.key(), v.items[i], r);
            if (s.has_value()) Shred(s.value(), v.items[i + 1], r);
          }
        }
        return;
      }
      case NestedShape::Kind::kVariant:
      case NestedShape::Kind::kShredded:
        ADD_FAILURE() << "VARIANT shapes are not generated here";
        return;
    }
  }

  // Adds one record; returns its expected row.
  std::optional<std::string> AddRecord() {
    for (int i = 0; i < shape_.num_leaves; ++i) {
      record_level_starts_[i].push_back(static_cast<int64_t>(leaves_[i].def.size()));
      record_value_starts_[i].push_back(static_cast<int64_t>(leaves_[i].values.size()));
    }
    Value v = Random(shape_);
    Shred(shape_, v, 0);
    if (v.kind == Value::Kind::kNull) return std::nullopt;
    std::string json;
    Render(shape_, v, &json);
    return json;
  }

  void Reset() {
    record_level_starts_.assign(shape_.num_leaves, {});
    record_value_starts_.assign(shape_.num_leaves, {});
  }

  // The levels of records [begin, end) of leaf i, as a run with its own value numbering.
  LeafLevels Slice(int i, int64_t begin, int64_t end) const {
    const LeafData& d = leaves_[i];
    auto level_at = [&](int64_t r) {
      return r < static_cast<int64_t>(record_level_starts_[i].size())
                 ? record_level_starts_[i][r]
                 : static_cast<int64_t>(d.def.size());
    };
    auto value_at = [&](int64_t r) {
      return r < static_cast<int64_t>(record_value_starts_[i].size())
                 ? record_value_starts_[i][r]
                 : static_cast<int64_t>(d.values.size());
    };
    LeafLevels l;
    const int64_t first = level_at(begin);
    l.def_levels = d.def.data() + first;
    l.rep_levels = d.rep.data() + first;
    l.num_levels = level_at(end) - first;
    const int64_t value_base = value_at(begin);
    const int64_t value_end = value_at(end);
    const std::vector<std::string>* values = &d.values;
    l.append_value_json = [values, value_base, value_end](int64_t k, std::string* out) {
      EXPECT_LT(value_base + k, value_end);
      out->append((*values)[value_base + k]);
    };
    return l;
  }

  std::vector<LeafData>& leaves() { return leaves_; }

 private:
  void Emit(int leaf, int16_t rep, int16_t def) {
    leaves_[leaf].rep.push_back(rep);
    leaves_[leaf].def.push_back(def);
  }
  void Absent(const NestedShape& s, int16_t rep, int16_t def) {
    for (int i = s.first_leaf; i < s.first_leaf + s.num_leaves; ++i) Emit(i, rep, def);
  }

  const NestedShape& shape_;
  std::mt19937 rng_;
  std::vector<LeafData> leaves_;
  std::vector<std::vector<int64_t>> record_level_starts_;
  std::vector<std::vector<int64_t>> record_value_starts_;
};

const char* kRoundTripSchemas[][2] = {
    {kDocument, "Links"},
    {kDocument, "Name"},
    {kOptionalList, "l"},
    {R"(message m { optional group a (LIST) { repeated group list {
         optional group element (LIST) { repeated group list { optional int32 element; } } } } })",
     "a"},
    {R"(message m { required group a (LIST) { repeated group array (LIST) { repeated int32 array; } } })",
     "a"},
    {R"(message m { optional group m (MAP) { repeated group key_value {
         required binary key (STRING);
         optional group value (LIST) { repeated group list {
           optional group element { optional int32 x; required binary y (STRING); } } } } } })",
     "m"},
    {R"(message m { required group l (LIST) { repeated group list {
         optional group element (MAP) { repeated group key_value { required int32 key; optional int32 value; } } } } })",
     "l"},
    {R"(message m { optional group s {
         optional int32 a;
         repeated group r { optional int32 b; repeated int32 c; }
         optional group m (MAP) { repeated group key_value { required int32 key; } }
         optional group t { optional group u { optional int32 v; } } } })",
     "s"},
    {R"(message m { repeated group kv (MAP_KEY_VALUE) { required binary key (STRING); optional int32 value; } })",
     "kv"},
    {R"(message m { optional group m (MAP) { repeated group key_value {
         optional binary key (STRING); optional binary value (STRING); } } })",
     "m"},
    {"message m { repeated int32 num; }", "num"},
    {"message m { optional int64 flat; }", "flat"},
};

TEST(JsonAssemblerTest, RandomRoundTripsInRandomBatches) {
  uint32_t seed = 1;
  for (const auto& [text, name] : kRoundTripSchemas) {
    SCOPED_TRACE(name);
    auto schema = SchemaFromText(text);
    ASSERT_NE(schema, nullptr);
    const SchemaNode& field = *TopLevelField(*schema, name);
    auto assembler = NestedJsonAssembler::Make(*schema, field);
    ASSERT_TRUE(assembler.ok()) << assembler.status().ToString();
    const NestedShape& shape = (*assembler)->shape();
    for (int round = 0; round < 5; ++round) {
      RoundTrip trip(shape, seed++);
      trip.Reset();
      const int64_t num_records = 1 + static_cast<int64_t>(seed * 7919 % 300);
      Rows expected;
      for (int64_t r = 0; r < num_records; ++r) expected.push_back(trip.AddRecord());

      std::mt19937 split(seed);
      JsonColumn out;
      for (int64_t begin = 0; begin < num_records;) {
        const int64_t end = std::min<int64_t>(num_records, begin + 1 + split() % 40);
        std::vector<LeafLevels> levels;
        for (int i = 0; i < shape.num_leaves; ++i) levels.push_back(trip.Slice(i, begin, end));
        Status s = (*assembler)->Assemble(levels, end - begin, &out);
        ASSERT_TRUE(s.ok()) << s.ToString();
        begin = end;
      }
      Rows got = RowsOf(out);
      ASSERT_EQ(got.size(), expected.size());
      for (size_t r = 0; r < got.size(); ++r) ASSERT_EQ(got[r], expected[r]) << "record " << r;
    }
  }
}

// Damaged levels: every single-entry change (a level set to another value, an entry dropped or
// repeated) must give either rows or Corruption, leave a failed call's output untouched, and never
// read out of bounds (the sanitizer build checks that).
TEST(JsonAssemblerTest, DamagedLevelsNeverCrash) {
  uint32_t seed = 1000;
  int corrupt = 0;
  int accepted = 0;
  for (const auto& [text, name] : kRoundTripSchemas) {
    SCOPED_TRACE(name);
    auto schema = SchemaFromText(text);
    const SchemaNode& field = *TopLevelField(*schema, name);
    auto assembler = NestedJsonAssembler::Make(*schema, field);
    ASSERT_TRUE(assembler.ok());
    const NestedShape& shape = (*assembler)->shape();
    RoundTrip trip(shape, seed++);
    trip.Reset();
    const int64_t num_records = 12;
    for (int64_t r = 0; r < num_records; ++r) (void)trip.AddRecord();
    const std::vector<LeafData> pristine = trip.leaves();

    std::mt19937 rng(seed);
    for (int attempt = 0; attempt < 400; ++attempt) {
      std::vector<LeafData> damaged = pristine;
      LeafData& leaf = damaged[rng() % damaged.size()];
      const size_t at = rng() % leaf.def.size();
      switch (rng() % 4) {
        case 0:
          leaf.def[at] = static_cast<int16_t>(static_cast<int>(rng() % 8) - 1);
          break;
        case 1:
          leaf.rep[at] = static_cast<int16_t>(static_cast<int>(rng() % 5) - 1);
          break;
        case 2:
          leaf.def.erase(leaf.def.begin() + at);
          leaf.rep.erase(leaf.rep.begin() + at);
          break;
        case 3:
          leaf.def.insert(leaf.def.begin() + at, leaf.def[at]);
          leaf.rep.insert(leaf.rep.begin() + at, leaf.rep[at]);
          break;
      }
      std::vector<LeafLevels> levels;
      for (const LeafData& d : damaged) {
        levels.push_back(LevelsOf(d));
        // Damage may turn nulls into values beyond those stored: LevelsOf renders those as a
        // marker.
      }
      JsonColumn out;
      out.arena = std::string("prefix\0", 7);
      out.offsets = {0, 7};
      out.is_null = {0};
      out.terminator = 1;
      const int64_t records = num_records + static_cast<int64_t>(rng() % 3) - 1;
      Status s = (*assembler)->Assemble(levels, records, &out);
      if (s.ok()) {
        ++accepted;
        EXPECT_EQ(out.size(), 1 + records);
      } else {
        ++corrupt;
        EXPECT_TRUE(s.IsCorruption()) << s.ToString();
        EXPECT_EQ(out.arena, std::string("prefix\0", 7));
        EXPECT_EQ(out.offsets, (std::vector<uint32_t>{0, 7}));
        EXPECT_EQ(out.is_null, (std::vector<uint8_t>{0}));
      }
    }
  }
  EXPECT_GT(corrupt, 1000);
  EXPECT_GT(accepted, 0);
}

// Plain integers handed over as arrays (LeafLevels::int64_values / int32_values) give the text the
// rendering callback gives: lists of every length (past the 512 bytes gathered on the stack), null
// elements, empty and null lists, lists of lists, and the same error for levels that close a list
// without an element.
TEST(JsonAssemblerTest, IntegerArraysWriteWhatTheCallbackWrites) {
  const char* schema64 = R"(message m {
      optional group l (LIST) { repeated group list { optional int64 element; } }
    })";
  const char* schema_nested = R"(message m {
      optional group l (LIST) { repeated group list {
        optional group element (LIST) { repeated group list { optional int32 element; } } } }
    })";
  std::mt19937_64 rng(12);
  for (int round = 0; round < 40; ++round) {
    const bool nested = round % 4 == 3;
    const bool wide = round % 2 == 0;  // int64 values, else int32
    // Levels of flat lists: def 0 null list, 1 empty, 2 null element, 3 value.
    LeafData d;
    std::vector<int64_t> v64;
    std::vector<int32_t> v32;
    Rows expected;
    const int records = 50;
    for (int r = 0; r < records; ++r) {
      const int kind = static_cast<int>(rng() % 8);
      if (kind == 0) {
        d.def.push_back(0);
        d.rep.push_back(0);
        expected.push_back(kSqlNull);
        continue;
      }
      if (kind == 1) {
        d.def.push_back(nested ? 1 : 1);
        d.rep.push_back(0);
        expected.emplace_back("[]");
        continue;
      }
      const int n = 1 + static_cast<int>(rng() % (kind == 2 ? 300 : 5));
      std::string text = nested ? "[[" : "[";
      for (int e = 0; e < n; ++e) {
        if (e > 0) text += ',';
        const int16_t rep = e == 0 ? 0 : (nested ? 2 : 1);
        if (rng() % 6 == 0) {
          d.def.push_back(nested ? 4 : 2);
          text += "null";
        } else {
          int64_t v = static_cast<int64_t>(rng()) >> (rng() % 64);
          if (!wide) v = static_cast<int32_t>(v);
          d.def.push_back(nested ? 5 : 3);
          wide ? v64.push_back(v) : v32.push_back(static_cast<int32_t>(v));
          d.values.push_back(std::to_string(v));
          text += std::to_string(v);
        }
        d.rep.push_back(rep);
      }
      text += nested ? "]]" : "]";
      expected.push_back(text);
    }
    const std::string schema_text = nested ? schema_nested : (wide ? schema64 : kOptionalList);
    ExpectRows(schema_text, "l", {d}, expected);  // the callback
    auto schema = SchemaFromText(schema_text);
    ASSERT_NE(schema, nullptr);
    auto assembler = NestedJsonAssembler::Make(*schema, *TopLevelField(*schema, "l"));
    ASSERT_TRUE(assembler.ok());
    LeafLevels l;
    l.def_levels = d.def.data();
    l.rep_levels = d.rep.data();
    l.num_levels = static_cast<int64_t>(d.def.size());
    l.num_values = static_cast<int64_t>(d.values.size());
    if (wide) {
      l.int64_values = v64.data();
    } else {
      l.int32_values = v32.data();
    }
    JsonColumn out;
    ASSERT_TRUE((*assembler)->Assemble(std::vector<LeafLevels>{l}, records, &out).ok()) << round;
    EXPECT_EQ(RowsOf(out), expected) << "round " << round;
  }
  // A list continued by an entry that says the list itself is empty: the same error either way.
  LeafData bad{{3, 1}, {0, 1}, {"7"}};
  const Status by_callback = AssembleStatus(kOptionalList, "l", {bad}, 1);
  ASSERT_FALSE(by_callback.ok());
  auto schema = SchemaFromText(kOptionalList);
  auto assembler = NestedJsonAssembler::Make(*schema, *TopLevelField(*schema, "l"));
  ASSERT_TRUE(assembler.ok());
  const int32_t seven = 7;
  LeafLevels l;
  l.def_levels = bad.def.data();
  l.rep_levels = bad.rep.data();
  l.num_levels = 2;
  l.int32_values = &seven;
  JsonColumn out;
  const Status by_array = (*assembler)->Assemble(std::vector<LeafLevels>{l}, 1, &out);
  EXPECT_EQ(by_array.ToString(), by_callback.ToString());
}

// A batch that fails part way (a level that says an enclosing list is null, levels that end too
// soon, a budget the text passes) fails alike by integer arrays and by the callback, naming the
// same record, and leaves a column that already holds records as it was.
TEST(JsonAssemblerTest, IntegerArraysFailLikeTheCallbackAndLeaveTheColumn) {
  auto schema = SchemaFromText(kOptionalList);
  ASSERT_NE(schema, nullptr);
  // Records 0-2: [1,2], [], NULL; record 3: [3, then an entry saying the list is empty.
  const LeafData enclosing{{3, 3, 1, 0, 3, 1}, {0, 1, 0, 0, 0, 1}, {"1", "2", "3"}};
  // Records 0-2 as above, then the levels end: 5 records asked for.
  const LeafData short_levels{{3, 3, 1, 0}, {0, 1, 0, 0}, {"1", "2"}};
  LeafData long_list;  // record 0: [5]; record 1: 400,000 elements (2.8 MB, past a 2 MiB budget)
  long_list.def = {3};
  long_list.rep = {0};
  long_list.values = {"5"};
  for (int e = 0; e < 400000; ++e) {
    long_list.def.push_back(3);
    long_list.rep.push_back(e == 0 ? 0 : 1);
    long_list.values.push_back(std::to_string(100000 + e));
  }
  struct Case {
    const LeafData* leaf;
    int64_t records;
    int64_t budget;  // 0: none
  };
  for (const Case& k : {Case{&enclosing, 4, 0}, Case{&short_levels, 5, 0}, Case{&long_list, 2, int64_t{2} << 20}}) {
    std::vector<int32_t> ints;
    for (const std::string& v : k.leaf->values) ints.push_back(std::stoi(v));
    std::string messages[2];
    for (const bool arrays : {false, true}) {
      SCOPED_TRACE(arrays ? "integer arrays" : "callback");
      auto budget = k.budget > 0 ? std::make_shared<MemoryBudget>(k.budget) : nullptr;
      auto assembler = NestedJsonAssembler::Make(*schema, *TopLevelField(*schema, "l"), budget);
      ASSERT_TRUE(assembler.ok());
      // A record already in the column.
      const LeafData before{{3}, {0}, {"9"}};
      LeafLevels first = LevelsOf(before);
      const int32_t nine = 9;
      if (arrays) {
        first.append_value_json = nullptr;
        first.int32_values = &nine;
      }
      JsonColumn out;
      const Status ok = (*assembler)->Assemble({&first, 1}, 1, &out);
      ASSERT_TRUE(ok.ok()) << ok.ToString();
      const std::string arena = out.arena;
      LeafLevels l = LevelsOf(*k.leaf);
      if (arrays) {
        l.append_value_json = nullptr;
        l.int32_values = ints.data();
      }
      const Status s = (*assembler)->Assemble({&l, 1}, k.records, &out);
      ASSERT_FALSE(s.ok());
      messages[arrays ? 1 : 0] = s.ToString();
      EXPECT_EQ(RowsOf(out), (Rows{"[9]"}));
      EXPECT_EQ(out.arena, arena);
      EXPECT_EQ(out.offsets.size(), 2u);
    }
    // The same words, but for the sizes an arena running out of room names (each path grows its
    // own way).
    const std::string same = k.leaf == &long_list ? "record 1 of the batch: assembled JSON of " : "";
    EXPECT_EQ(messages[0].substr(0, messages[0].find(same) + same.size()),
              messages[1].substr(0, messages[1].find(same) + same.size()));
    if (same.empty()) {
      EXPECT_EQ(messages[0], messages[1]);
    }
    EXPECT_NE(messages[1].find(k.leaf == &long_list ? "record 1 " : "record 3 "), std::string::npos) << messages[1];
  }
}

// The arena grows only as far as the memory budget grants, by the callback and by the integer
// arrays alike: a list whose text passes the budget is OutOfMemory and leaves the column as it
// was; under a larger budget the same list is written whole, and its text is charged.
TEST(JsonAssemblerTest, ArenaStaysWithinTheBudget) {
  constexpr int kElements = 200000;  // about 1.4 MB of JSON text
  LeafData d;
  std::vector<int64_t> values;
  std::string text = "[";
  for (int e = 0; e < kElements; ++e) {
    d.def.push_back(3);
    d.rep.push_back(e == 0 ? 0 : 1);
    values.push_back(1000000 + e);
    d.values.push_back(std::to_string(values.back()));
    text += (e > 0 ? "," : "") + d.values.back();
  }
  text += "]";
  auto schema = SchemaFromText(kOptionalList);
  ASSERT_NE(schema, nullptr);
  for (const bool arrays : {false, true}) {
    SCOPED_TRACE(arrays ? "integer arrays" : "callback");
    for (const int64_t limit : {int64_t{256} << 10, int64_t{16} << 20}) {
      auto budget = std::make_shared<MemoryBudget>(limit);
      auto assembler = NestedJsonAssembler::Make(*schema, *TopLevelField(*schema, "l"), budget);
      ASSERT_TRUE(assembler.ok());
      LeafLevels l = LevelsOf(d);
      std::vector<int32_t> v32(values.begin(), values.end());
      if (arrays) {
        l.append_value_json = nullptr;
        l.int32_values = v32.data();
      }
      JsonColumn out;
      const Status s = (*assembler)->Assemble(std::vector<LeafLevels>{l}, 1, &out);
      if (limit < (int64_t{1} << 20)) {
        EXPECT_EQ(s.code(), StatusCode::kOutOfMemory) << s.ToString();
        EXPECT_EQ(out.size(), 0);
        EXPECT_EQ(out.arena, "");
      } else {
        ASSERT_TRUE(s.ok()) << s.ToString();
        EXPECT_EQ(RowsOf(out), (Rows{text}));
        EXPECT_GE(budget->used(), static_cast<int64_t>(text.size()));
      }
    }
  }
}

// A budget smaller than the room the arena grows by (1 MiB past what it needs) still holds a batch
// whose text fits in it: the arena then grows by doubling alone.
TEST(JsonAssemblerTest, ABudgetBelowTheArenaRoomHoldsWhatFits) {
  constexpr int kRecords = 3000;  // [n,n+1,n+2]: about 60 KB of JSON text
  LeafData d;
  std::vector<int32_t> values;
  Rows expected;
  for (int r = 0; r < kRecords; ++r) {
    std::string text = "[";
    for (int e = 0; e < 3; ++e) {
      d.def.push_back(3);
      d.rep.push_back(e == 0 ? 0 : 1);
      values.push_back(1000000 + 3 * r + e);
      d.values.push_back(std::to_string(values.back()));
      text += (e > 0 ? "," : "") + d.values.back();
    }
    expected.push_back(text + "]");
  }
  auto schema = SchemaFromText(kOptionalList);
  ASSERT_NE(schema, nullptr);
  for (const bool arrays : {false, true}) {
    SCOPED_TRACE(arrays ? "integer arrays" : "callback");
    constexpr int64_t kLimit = int64_t{256} << 10;
    auto budget = std::make_shared<MemoryBudget>(kLimit);
    auto assembler = NestedJsonAssembler::Make(*schema, *TopLevelField(*schema, "l"), budget);
    ASSERT_TRUE(assembler.ok());
    LeafLevels l = LevelsOf(d);
    if (arrays) {
      l.append_value_json = nullptr;
      l.int32_values = values.data();
    }
    JsonColumn out;
    const Status s = (*assembler)->Assemble(std::vector<LeafLevels>{l}, kRecords, &out);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(RowsOf(out), expected);
    EXPECT_LE(budget->used(), kLimit);
  }
}

}  // namespace
}  // namespace pq
