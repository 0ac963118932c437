// NestedShape: what a schema subtree means as a nested value - a leaf, a struct, a list or a map -
// once the LIST and MAP rules, their backward-compatibility rules and the rule for repeated fields
// without annotation are applied (the Parquet type spec, "Nested Types", "Lists",
// "Maps" and their "Backward-compatibility rules").
//
// The shape also carries the levels that decide, while reading one leaf's definition and repetition
// levels, whether a value is null, whether a list is empty and which list a repetition level
// continues (the Parquet spec, "5 - Nested Encoding"). Levels are computed here from the repetitions
// on the path, the same way the Schema computes a node's maximum levels.
//
// How each schema node is read:
//   - a leaf that is not repeated: kLeaf.
//   - a group without LIST, MAP or MAP_KEY_VALUE: kStruct (fields in schema order).
//   - a LIST group: kList. Its element follows the five backward-compatibility rules: the repeated
//     field itself is the element (form kTwoLevel) when it is a primitive, a group of several
//     fields, a group whose one field is repeated, or a group of one field named `array` or
//     `<list name>_tuple`; otherwise the repeated group's one field is the element, with its own
//     repetition (form kThreeLevel; the names `list` and `element` are not enforced).
//   - a MAP group, or a MAP_KEY_VALUE group that is not the key/value level of a MAP: kMap (form
//     kThreeLevel). Key and value are the first and second field of the repeated group, by
//     position; the value may be absent (values read as null) and the key may be optional (some
//     writers, e.g. Presto, leave it unmarked).
//   - a repeated MAP or MAP_KEY_VALUE group whose fields are the key and value themselves: kMap
//     whose repeated level is the group itself (form kTwoLevel).
//   - any other repeated field (primitive or group) outside those structures: a required kList of
//     required elements, the element being the field itself (form kUnannotatedRepeated).
//   - a VARIANT group (not repeated; a repeated one is a list of them): kVariant, its fields found
//     by name ("Variant Shredding"): `metadata` (a binary leaf), `value` (a binary leaf) and
//     `typed_value`, at least one of the last two. A `typed_value` is a primitive leaf (kLeaf), a
//     LIST group in three levels whose element group is a kShredded (kList), or a group whose every
//     field is a kShredded (kStruct: a shredded object, one field per shredded object field).
//     kShredded is a group of `value` and/or `typed_value` with the same rules, minus `metadata`.
//     Anything else under a VARIANT group is Corruption (an invalid shredding). The assembler, not
//     the shape, decides what values mean (json_assembler.h).
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

// Classifies the subtree under `field`, a field of the root (top-level column). Errors: Corruption
// for a LIST or MAP group that cannot be read under any rule (wrong number of fields, no repeated
// level), for a group without fields, for a VARIANT group laid out against the rules above;
// NotSupported for nesting deeper than 255 levels.
Result<NestedShape> BuildNestedShape(const SchemaNode& field);

const char* NestedShapeKindName(NestedShape::Kind kind);

}  // namespace pq
