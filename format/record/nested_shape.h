// NestedShape: what a schema subtree means as a nested value (a leaf, struct, list, map or
// VARIANT) once the LIST and MAP rules, their backward-compatibility rules and the rule for
// repeated fields without annotation are applied (the Parquet spec, "Nested Types", "Lists", "Maps"
// and "Variant Shredding"). It carries the levels that decide, while reading one leaf's definition
// and repetition levels, whether a value is null, whether a list is empty and which list a
// repetition level continues, computed from the repetitions on the path as the Schema computes a
// node's maximum levels. The shape says how values nest; the assembler says what they mean
// (json_assembler.h).
#pragma once

#include <cstdint>
#include <vector>

#include "format/schema/schema.h"
#include "format/util/status.h"

namespace pq {

struct NestedShape {
  enum class Kind : uint8_t { kLeaf, kStruct, kList, kMap, kVariant, kShredded };
  // How a list or map was spelled in the schema (kPlain for leaves and structs).
  enum class Form : uint8_t {
    kPlain,
    kThreeLevel,  // annotated group > repeated group > element (or key/value)
    kTwoLevel,    // annotated group whose repeated field is itself the element (or key/value)
    kUnannotatedRepeated  // a repeated field outside LIST/MAP: a required list of required elements
  };

  Kind kind = Kind::kLeaf;
  Form form = Form::kPlain;
  // The schema node this value is read from: the leaf, the struct group, the LIST/MAP group; for a
  // kUnannotatedRepeated list and for an element that is the repeated field itself, that repeated
  // field. Struct members are named after node->name.
  const SchemaNode* node = nullptr;
  // True when the value can be null: an optional field. Elements that are repeated fields are
  // required.
  bool nullable = false;
  // The definition level at which this value is present (not null). A non-nullable value is present
  // at the level of its parent.
  int16_t def_level = 0;
  // kList/kMap: the repetition level of the repeated field (a level equal to it starts a next
  // element) and the definition level at which the list holds at least one element. Leaves:
  // rep_level is the leaf's maximum repetition level (def_level is its maximum definition level).
  int16_t rep_level = 0;
  int16_t element_def_level = 0;
  // Preorder number of this shape within the field's tree (the field is 0, a parent comes before
  // its children), so that users can keep per-shape side tables in a vector.
  int id = 0;
  // Leaves under this value, numbered in column order from the first leaf of the top-level field.
  int first_leaf = 0;
  int num_leaves = 0;
  // kVariant and kShredded: the positions in `children` of the `metadata` leaf (kVariant only), the
  // `value` leaf and the `typed_value`; -1 when the field is absent.
  int8_t metadata_child = -1;
  int8_t value_child = -1;
  int8_t typed_child = -1;
  // kStruct: the fields. kList: {element}. kMap: {key} or {key, value}. kVariant, kShredded: the
  // fields in schema order.
  std::vector<NestedShape> children;

  const NestedShape& element() const { return children[0]; }  // kList
  const NestedShape& key() const { return children[0]; }      // kMap
  bool has_value() const { return children.size() > 1; }      // kMap
  const NestedShape& value() const { return children[1]; }    // kMap, when has_value()
};

// Classifies the subtree under `field`, a field of the root (top-level column):
//   - a leaf that is not repeated: kLeaf; a group without LIST, MAP or MAP_KEY_VALUE: kStruct.
//   - a LIST group: kList. The repeated field itself is the element (kTwoLevel) when it is a
//     primitive, a group of several fields, a group whose one field is repeated, or a group of one
//     field named `array` or `<list name>_tuple`; otherwise the repeated group's one field is the
//     element (kThreeLevel; the names `list` and `element` are not enforced).
//   - a MAP group, or a MAP_KEY_VALUE group that is not the key/value level of a MAP: kMap
//     (kThreeLevel), key and value the first and second field by position; the value may be absent
//     (values read as null) and the key optional (some writers, e.g. Presto, leave it unmarked). A
//     repeated MAP or MAP_KEY_VALUE group whose fields are key and value: kMap in kTwoLevel.
//   - any other repeated field: a required kList of required elements (kUnannotatedRepeated).
//   - a VARIANT group: kVariant, its fields found by name: `metadata`, and `value` and/or
//     `typed_value`, a primitive leaf, a three-level LIST of kShredded elements, or a group of
//     kShredded fields (a shredded object); kShredded is the same minus `metadata`.
// Errors: Corruption
// for a LIST or MAP group that cannot be read under any rule (wrong number of fields, no repeated
// level), for a group without fields, for a VARIANT group laid out against the rules above;
// NotSupported for nesting deeper than 255 levels.
Result<NestedShape> BuildNestedShape(const SchemaNode& field);

const char* NestedShapeKindName(NestedShape::Kind kind);

}  // namespace pq
