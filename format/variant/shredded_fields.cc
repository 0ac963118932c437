#include "format/variant/shredded_fields.h"

#include "format/variant/shredded_leaf.h"

namespace pq {
namespace {

const SchemaNode* ChildNamed(const SchemaNode& group, std::string_view name) {
  for (const SchemaNode* child : group.children) {
    if (child->name == name) return child;
  }
  return nullptr;
}

// `group` holds one Variant value as `value` and/or `typed_value` (the VARIANT group itself or an
// object field's group), at `path`.
void Collect(const SchemaNode& group, std::vector<std::string>& path,
             std::vector<ShreddedField::Enclosing>& enclosing, std::vector<ShreddedField>* out) {
  if (group.is_leaf || group.is_repeated()) return;
  const SchemaNode* typed = ChildNamed(group, "typed_value");
  if (typed == nullptr || typed->is_repeated()) return;
  if (typed->is_leaf) {
    auto type = ShreddedLeafType::Of(*typed);
    if (!type.ok() || typed->max_repetition_level != 0) return;
    ShreddedField field;
    field.path = path;
    field.enclosing = enclosing;
    field.typed_leaf = typed->leaf_index;
    const SchemaNode* value = ChildNamed(group, "value");
    if (value != nullptr && value->is_leaf) field.value_leaf = value->leaf_index;
    using Kind = ShreddedLeafType::Kind;
    const Kind kind = type->kind();
    field.statistics_usable = kind == Kind::kBoolean || kind == Kind::kInt32 ||
                              kind == Kind::kInt64 || kind == Kind::kString;
    out->push_back(std::move(field));
    return;
  }
  // A shredded object: a group without a LIST annotation whose fields are groups.
  if (typed->logical_type.kind == LogicalType::Kind::kList) return;
  const SchemaNode* value = ChildNamed(group, "value");
  const bool may_hide = value != nullptr && value->is_leaf && typed->is_optional();
  if (may_hide) enclosing.push_back({value->leaf_index, group.max_definition_level});
  for (const SchemaNode* field : typed->children) {
    if (field->is_leaf) continue;
    path.push_back(field->name);
    Collect(*field, path, enclosing, out);
    path.pop_back();
  }
  if (may_hide) enclosing.pop_back();
}

}  // namespace

std::vector<ShreddedField> ShreddedFieldsOf(const SchemaNode& variant) {
  std::vector<ShreddedField> out;
  std::vector<std::string> path;
  std::vector<ShreddedField::Enclosing> enclosing;
  Collect(variant, path, enclosing, &out);
  return out;
}

}  // namespace pq
