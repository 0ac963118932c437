#include "format/record/nested_shape.h"

#include <string>
#include <utility>

namespace pq {

namespace {

// Deeper shapes are refused so that the recursive builder and assembler stay within a small stack.
constexpr int kMaxShapeDepth = 255;

bool IsListAnnotated(const SchemaNode& node) {
  return node.logical_type.kind == LogicalType::Kind::kList ||
         node.converted_type == ConvertedType::kList;
}

// MAP_KEY_VALUE counts as MAP ("Maps", backward-compatibility rules); where it marks the key/value
// level right under a MAP group the builder never asks, as it reads that level by position.
bool IsMapAnnotated(const SchemaNode& node) {
  return node.logical_type.kind == LogicalType::Kind::kMap ||
         node.converted_type == ConvertedType::kMap ||
         node.converted_type == ConvertedType::kMapKeyValue;
}

// The standard map layout: the group holds exactly one field, a repeated group (the key/value
// level).
bool HasKeyValueLevel(const SchemaNode& node) {
  return node.children.size() == 1 && node.children[0]->is_repeated() && !node.children[0]->is_leaf;
}

std::string Quoted(const SchemaNode& node) {
  return "'" + node.DottedPath() + "'";
}

class ShapeBuilder {
 public:
  // Builds the value read from `node`, whose parent is present at (parent_def, parent_rep). With
  // `as_element`, a repeated node is read as one element of the list it forms (required, present at
  // its own levels) rather than as that list.
  Result<NestedShape> Build(const SchemaNode& node, int parent_def, int parent_rep, bool as_element,
                            int depth) {
    if (depth > kMaxShapeDepth) {
      return Status::NotSupported("field " + Quoted(node) + " is nested more than " +
                                  std::to_string(kMaxShapeDepth) + " levels deep");
    }
    const int own_def = parent_def + (node.repetition == Repetition::kRequired ? 0 : 1);
    const int own_rep = parent_rep + (node.is_repeated() ? 1 : 0);
    if (own_def > INT16_MAX || own_rep > INT16_MAX) {
      return Status::Corruption("field " + Quoted(node) + " has levels beyond 32767");
    }

    if (node.is_repeated() && !as_element) {
      if (!node.is_leaf && IsMapAnnotated(node) && !HasKeyValueLevel(node)) {
        // A repeated MAP group holding key and value directly: it is its own key/value level.
        NestedShape map = Present(node, NestedShape::Kind::kMap, parent_def, /*nullable=*/false);
        map.form = NestedShape::Form::kTwoLevel;
        PQ_RETURN_IF_ERROR(AddKeyValue(node, node, own_def, own_rep, depth, &map));
        return Finish(std::move(map), own_def, own_rep);
      }
      NestedShape list = Present(node, NestedShape::Kind::kList, parent_def, /*nullable=*/false);
      list.form = NestedShape::Form::kUnannotatedRepeated;
      PQ_ASSIGN_OR_RETURN(NestedShape element,
                          Build(node, parent_def, parent_rep, /*as_element=*/true, depth + 1));
      list.children.push_back(std::move(element));
      return Finish(std::move(list), own_def, own_rep);
    }

    const bool nullable = node.is_optional();
    if (node.is_leaf) {
      NestedShape leaf = Present(node, NestedShape::Kind::kLeaf, own_def, nullable);
      leaf.rep_level = static_cast<int16_t>(own_rep);
      leaf.first_leaf = next_leaf_++;
      leaf.num_leaves = 1;
      return leaf;
    }
    if (node.children.empty()) {
      return Status::Corruption("group " + Quoted(node) + " has no fields");
    }
    if (node.logical_type.kind == LogicalType::Kind::kVariant) {
      NestedShape variant = Present(node, NestedShape::Kind::kVariant, own_def, nullable);
      PQ_RETURN_IF_ERROR(AddVariantParts(node, own_def, own_rep, depth, &variant));
      return variant;
    }
    if (IsListAnnotated(node)) return BuildList(node, own_def, own_rep, nullable, depth);
    if (IsMapAnnotated(node)) return BuildMap(node, own_def, own_rep, nullable, depth);

    NestedShape record = Present(node, NestedShape::Kind::kStruct, own_def, nullable);
    record.first_leaf = next_leaf_;
    for (const SchemaNode* child : node.children) {
      PQ_ASSIGN_OR_RETURN(NestedShape field, Build(*child, own_def, own_rep, false, depth + 1));
      record.children.push_back(std::move(field));
    }
    record.num_leaves = next_leaf_ - record.first_leaf;
    return record;
  }

 private:
  static NestedShape Present(const SchemaNode& node, NestedShape::Kind kind, int def_level,
                             bool nullable) {
    NestedShape s;
    s.kind = kind;
    s.node = &node;
    s.nullable = nullable;
    s.def_level = static_cast<int16_t>(def_level);
    return s;
  }

  // Completes a list or map whose repeated field sits at (repeated_def, repeated_rep): an element
  // exists from repeated_def on, a next element starts at repetition level repeated_rep.
  static NestedShape Finish(NestedShape s, int repeated_def, int repeated_rep) {
    s.element_def_level = static_cast<int16_t>(repeated_def);
    s.rep_level = static_cast<int16_t>(repeated_rep);
    s.first_leaf = s.children.front().first_leaf;
    s.num_leaves = 0;
    for (const NestedShape& c : s.children) s.num_leaves += c.num_leaves;
    return s;
  }

  // "Lists", backward-compatibility rules 1-5.
  Result<NestedShape> BuildList(const SchemaNode& node, int own_def, int own_rep, bool nullable,
                                int depth) {
    if (node.children.size() != 1 || !node.children[0]->is_repeated()) {
      return Status::Corruption("LIST group " + Quoted(node) +
                                " must hold exactly one field, a repeated one");
    }
    const SchemaNode& repeated = *node.children[0];
    const int repeated_def = own_def + 1;
    const int repeated_rep = own_rep + 1;
    NestedShape list = Present(node, NestedShape::Kind::kList, own_def, nullable);
    bool repeated_is_element;
    if (repeated.is_leaf) {
      repeated_is_element = true;  // rule 1
    } else if (repeated.children.size() != 1) {
      repeated_is_element = true;  // rule 2 (a group without fields fails below)
    } else {
      repeated_is_element = repeated.children[0]->is_repeated() ||  // rule 3
                            repeated.name == "array" ||             // rule 4
                            repeated.name == node.name + "_tuple";  // rule 4
    }
    NestedShape element;
    if (repeated_is_element) {
      list.form = NestedShape::Form::kTwoLevel;
      PQ_ASSIGN_OR_RETURN(element,
                          Build(repeated, own_def, own_rep, /*as_element=*/true, depth + 1));
    } else {
      list.form = NestedShape::Form::kThreeLevel;  // rule 5: the one field, with its own repetition
      PQ_ASSIGN_OR_RETURN(
          element, Build(*repeated.children[0], repeated_def, repeated_rep, false, depth + 2));
    }
    list.children.push_back(std::move(element));
    return Finish(std::move(list), repeated_def, repeated_rep);
  }

  Result<NestedShape> BuildMap(const SchemaNode& node, int own_def, int own_rep, bool nullable,
                               int depth) {
    if (!HasKeyValueLevel(node)) {
      return Status::Corruption("MAP group " + Quoted(node) +
                                " must hold exactly one field, a repeated group of key and value");
    }
    const SchemaNode& key_value = *node.children[0];
    NestedShape map = Present(node, NestedShape::Kind::kMap, own_def, nullable);
    map.form = NestedShape::Form::kThreeLevel;
    PQ_RETURN_IF_ERROR(AddKeyValue(node, key_value, own_def + 1, own_rep + 1, depth + 1, &map));
    return Finish(std::move(map), own_def + 1, own_rep + 1);
  }

  // Adds the key and (when present) value of `key_value`, the repeated level of `map_node`, present
  // at (kv_def, kv_rep). Key and value are found by position ("Maps", backward-compatibility
  // rules).
  Status AddKeyValue(const SchemaNode& map_node, const SchemaNode& key_value, int kv_def,
                     int kv_rep, int depth, NestedShape* map) {
    if (key_value.children.empty() || key_value.children.size() > 2) {
      return Status::Corruption("MAP group " + Quoted(map_node) +
                                " must have a key and at most one value, found " +
                                std::to_string(key_value.children.size()) + " fields");
    }
    for (const SchemaNode* child : key_value.children) {
      PQ_ASSIGN_OR_RETURN(NestedShape part, Build(*child, kv_def, kv_rep, false, depth + 1));
      map->children.push_back(std::move(part));
    }
    return Status::OK();
  }

  // Adds the fields of a VARIANT group (kVariant) or of a value/typed_value group (kShredded) that
  // is present at (own_def, own_rep), in schema order, and records which is which.
  Status AddVariantParts(const SchemaNode& node, int own_def, int own_rep, int depth,
                         NestedShape* parts) {
    const bool is_variant = parts->kind == NestedShape::Kind::kVariant;
    const std::string what = is_variant ? "VARIANT group " : "shredded variant group ";
    if (node.children.size() > 3) {
      return Status::Corruption(what + Quoted(node) + " has " +
                                std::to_string(node.children.size()) + " fields");
    }
    parts->first_leaf = next_leaf_;
    for (const SchemaNode* child : node.children) {
      int8_t* role = nullptr;
      if (child->name == "metadata" && is_variant) {
        role = &parts->metadata_child;
      } else if (child->name == "value") {
        role = &parts->value_child;
      } else if (child->name == "typed_value") {
        role = &parts->typed_child;
      } else {
        return Status::Corruption(what + Quoted(node) + " has an unexpected field '" + child->name +
                                  "'");
      }
      if (*role >= 0) {
        return Status::Corruption(what + Quoted(node) + " has two fields '" + child->name + "'");
      }
      if (child->is_repeated()) {
        return Status::Corruption("field " + Quoted(*child) + " of a variant must not be repeated");
      }
      *role = static_cast<int8_t>(parts->children.size());
      if (role == &parts->typed_child) {
        PQ_ASSIGN_OR_RETURN(NestedShape typed,
                            BuildTypedValue(*child, own_def, own_rep, depth + 1));
        parts->children.push_back(std::move(typed));
        continue;
      }
      if (!child->is_leaf || child->physical_type != PhysicalType::kByteArray) {
        return Status::Corruption("field " + Quoted(*child) + " of a variant must be binary");
      }
      PQ_ASSIGN_OR_RETURN(NestedShape leaf, Build(*child, own_def, own_rep, false, depth + 1));
      parts->children.push_back(std::move(leaf));
    }
    if (is_variant && parts->metadata_child < 0) {
      return Status::Corruption(what + Quoted(node) + " has no field 'metadata'");
    }
    if (parts->value_child < 0 && parts->typed_child < 0) {
      return Status::Corruption(what + Quoted(node) + " has neither 'value' nor 'typed_value'");
    }
    parts->num_leaves = next_leaf_ - parts->first_leaf;
    return Status::OK();
  }

  // A `typed_value` (not repeated) whose parent is present at (parent_def, parent_rep).
  Result<NestedShape> BuildTypedValue(const SchemaNode& node, int parent_def, int parent_rep,
                                      int depth) {
    if (depth > kMaxShapeDepth) {
      return Status::NotSupported("field " + Quoted(node) + " is nested more than " +
                                  std::to_string(kMaxShapeDepth) + " levels deep");
    }
    if (node.is_leaf) return Build(node, parent_def, parent_rep, false, depth);
    const bool nullable = node.is_optional();
    const int own_def = parent_def + (nullable ? 1 : 0);
    if (node.children.empty()) {
      return Status::Corruption("group " + Quoted(node) + " has no fields");
    }
    if (IsMapAnnotated(node)) {
      return Status::Corruption("shredded variant " + Quoted(node) + " cannot be a MAP");
    }
    if (IsListAnnotated(node)) {
      // "Arrays": a 3-level list whose element is a required group of value and/or typed_value.
      const SchemaNode* repeated = node.children.size() == 1 ? node.children[0] : nullptr;
      if (repeated == nullptr || !repeated->is_repeated() || repeated->is_leaf ||
          repeated->children.size() != 1 || repeated->children[0]->is_leaf ||
          repeated->children[0]->is_repeated()) {
        return Status::Corruption("shredded variant array " + Quoted(node) +
                                  " must be a 3-level LIST whose element is a group");
      }
      NestedShape list = Present(node, NestedShape::Kind::kList, own_def, nullable);
      list.form = NestedShape::Form::kThreeLevel;
      PQ_ASSIGN_OR_RETURN(NestedShape element, BuildShredded(*repeated->children[0], own_def + 1,
                                                             parent_rep + 1, depth + 2));
      list.children.push_back(std::move(element));
      return Finish(std::move(list), own_def + 1, parent_rep + 1);
    }
    // "Objects": one group per shredded field.
    NestedShape object = Present(node, NestedShape::Kind::kStruct, own_def, nullable);
    object.first_leaf = next_leaf_;
    for (const SchemaNode* field : node.children) {
      if (field->is_leaf || field->is_repeated()) {
        return Status::Corruption("shredded variant object field " + Quoted(*field) +
                                  " must be a group that is not repeated");
      }
      for (const NestedShape& other : object.children) {
        if (other.node->name == field->name) {
          return Status::Corruption("shredded variant object " + Quoted(node) +
                                    " has two fields '" + field->name + "'");
        }
      }
      PQ_ASSIGN_OR_RETURN(NestedShape part, BuildShredded(*field, own_def, parent_rep, depth + 1));
      object.children.push_back(std::move(part));
    }
    object.num_leaves = next_leaf_ - object.first_leaf;
    return object;
  }

  // An object field or array element group (value and/or typed_value). The spec makes it required;
  // an optional one (some writers) is read too, a null group meaning a missing value.
  Result<NestedShape> BuildShredded(const SchemaNode& node, int parent_def, int parent_rep,
                                    int depth) {
    if (depth > kMaxShapeDepth) {
      return Status::NotSupported("field " + Quoted(node) + " is nested more than " +
                                  std::to_string(kMaxShapeDepth) + " levels deep");
    }
    const bool nullable = node.is_optional();
    const int own_def = parent_def + (nullable ? 1 : 0);
    NestedShape parts = Present(node, NestedShape::Kind::kShredded, own_def, nullable);
    PQ_RETURN_IF_ERROR(AddVariantParts(node, own_def, parent_rep, depth, &parts));
    return parts;
  }

  int next_leaf_ = 0;
};

void NumberPreorder(NestedShape* s, int* next_id) {
  s->id = (*next_id)++;
  for (NestedShape& c : s->children) NumberPreorder(&c, next_id);
}

}  // namespace

Result<NestedShape> BuildNestedShape(const SchemaNode& field) {
  if (field.is_root()) return Status::InvalidArgument("the schema root is not a field");
  int parent_def = 0;
  int parent_rep = 0;
  for (const SchemaNode* a = field.parent; a != nullptr && !a->is_root(); a = a->parent) {
    if (a->repetition != Repetition::kRequired) ++parent_def;
    if (a->is_repeated()) ++parent_rep;
  }
  ShapeBuilder builder;
  PQ_ASSIGN_OR_RETURN(NestedShape shape,
                      builder.Build(field, parent_def, parent_rep, /*as_element=*/false, 0));
  int next_id = 0;
  NumberPreorder(&shape, &next_id);
  return shape;
}

const char* NestedShapeKindName(NestedShape::Kind kind) {
  switch (kind) {
    case NestedShape::Kind::kLeaf:
      return "leaf";
    case NestedShape::Kind::kStruct:
      return "struct";
    case NestedShape::Kind::kList:
      return "list";
    case NestedShape::Kind::kMap:
      return "map";
    case NestedShape::Kind::kVariant:
      return "variant";
    case NestedShape::Kind::kShredded:
      return "shredded";
  }
  return "unknown";
}

}  // namespace pq
