// Test helper: builds footer SchemaElements from the message syntax the spec uses in its examples,
//
//   message m {
//     optional group my_list (LIST) {
//       repeated group list { optional int32 element; }
//     }
//   }
//
// so tests can state schemas the way the Parquet type spec writes them. Annotations
// set the ConvertedType (LIST, MAP, MAP_KEY_VALUE, UTF8/STRING); VARIANT sets the LogicalType.
// Malformed text fails the calling test.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "format/metadata/metadata.h"
#include "format/schema/schema.h"

namespace pq::testing {

class SchemaTextParser {
 public:
  explicit SchemaTextParser(std::string_view text) : text_(text) {}

  std::vector<SchemaElement> Parse() {
    Expect("message");
    SchemaElement root;
    root.name = Word();
    out_.push_back(root);
    size_t root_index = 0;
    out_[root_index].num_children = Fields();
    Skip();
    EXPECT_EQ(pos_, text_.size()) << "trailing text in schema";
    return out_;
  }

 private:
  // Parses "{ field* }" and returns the number of fields.
  int Fields() {
    Expect("{");
    int n = 0;
    while (Peek() != '}') {
      if (pos_ >= text_.size()) {
        ADD_FAILURE() << "schema text ends inside a group";
        return n;
      }
      Field();
      ++n;
    }
    Expect("}");
    return n;
  }

  void Field() {
    SchemaElement e;
    std::string rep = Word();
    if (rep == "required") {
      e.repetition_type = Repetition::kRequired;
    } else if (rep == "optional") {
      e.repetition_type = Repetition::kOptional;
    } else if (rep == "repeated") {
      e.repetition_type = Repetition::kRepeated;
    } else {
      ADD_FAILURE() << "bad repetition '" << rep << "'";
    }
    std::string type = Word();
    bool group = type == "group";
    if (!group) e.type = PhysicalTypeNamed(type, &e);
    e.name = Word();
    if (Peek() == '(') {
      Expect("(");
      Annotate(Word(), &e);
      Expect(")");
    }
    size_t index = out_.size();
    out_.push_back(e);
    if (group) {
      out_[index].num_children = Fields();
      if (Peek() == ';') Expect(";");
    } else {
      Expect(";");
    }
  }

  PhysicalType PhysicalTypeNamed(const std::string& t, SchemaElement* e) {
    if (t == "boolean") return PhysicalType::kBoolean;
    if (t == "int32") return PhysicalType::kInt32;
    if (t == "int64") return PhysicalType::kInt64;
    if (t == "int96") return PhysicalType::kInt96;
    if (t == "float") return PhysicalType::kFloat;
    if (t == "double") return PhysicalType::kDouble;
    if (t == "binary") return PhysicalType::kByteArray;
    if (t == "fixed_len_byte_array") {
      Expect("(");
      e->type_length = std::stoi(Word());
      Expect(")");
      return PhysicalType::kFixedLenByteArray;
    }
    ADD_FAILURE() << "bad type '" << t << "'";
    return PhysicalType::kInt32;
  }

  void Annotate(const std::string& a, SchemaElement* e) {
    if (a == "LIST") {
      e->converted_type = ConvertedType::kList;
    } else if (a == "MAP") {
      e->converted_type = ConvertedType::kMap;
    } else if (a == "MAP_KEY_VALUE") {
      e->converted_type = ConvertedType::kMapKeyValue;
    } else if (a == "UTF8" || a == "STRING") {
      e->converted_type = ConvertedType::kUtf8;
    } else if (a == "VARIANT") {
      LogicalType t;
      t.kind = LogicalType::Kind::kVariant;
      e->logical_type = t;
    } else {
      ADD_FAILURE() << "bad annotation '" << a << "'";
    }
  }

  void Skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char Peek() {
    Skip();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  std::string Word() {
    Skip();
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    if (start == pos_) ADD_FAILURE() << "expected a word at offset " << pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  void Expect(std::string_view token) {
    Skip();
    if (text_.substr(pos_, token.size()) != token) {
      ADD_FAILURE() << "expected '" << token << "' at offset " << pos_;
      pos_ = text_.size();
      return;
    }
    pos_ += token.size();
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::vector<SchemaElement> out_;
};

inline std::vector<SchemaElement> SchemaElementsFromText(std::string_view text) {
  return SchemaTextParser(text).Parse();
}

// The schema for `text`; fails the test (and returns null) when Schema::Make refuses it.
inline std::shared_ptr<const Schema> SchemaFromText(std::string_view text) {
  auto schema = Schema::Make(SchemaElementsFromText(text));
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  return schema.ok() ? *schema : nullptr;
}

// The top-level field named `name`, or null.
inline const SchemaNode* TopLevelField(const Schema& schema, std::string_view name) {
  for (const SchemaNode* f : schema.fields()) {
    if (f->name == name) return f;
  }
  return nullptr;
}

}  // namespace pq::testing
