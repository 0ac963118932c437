#include "format/schema/schema.h"

#include <string>

namespace pq {

namespace {

// Nesting deeper than this is refused: levels are int16 and real schemas are a few levels deep.
constexpr int kMaxSchemaDepth = 256;

LogicalType FromConvertedType(const SchemaElement& e) {
  LogicalType t;
  if (!e.converted_type) return t;
  using K = LogicalType::Kind;
  auto integer = [&t](int8_t bits, bool is_signed) {
    t.kind = K::kInteger;
    t.bit_width = bits;
    t.is_signed = is_signed;
  };
  auto temporal = [&t](K kind, TimeUnit unit) {
    t.kind = kind;
    t.unit = unit;
    t.is_adjusted_to_utc = true;  // the legacy types are defined as UTC-adjusted
  };
  switch (*e.converted_type) {
    case ConvertedType::kUtf8: t.kind = K::kString; break;
    case ConvertedType::kMap: t.kind = K::kMap; break;
    case ConvertedType::kList: t.kind = K::kList; break;
    case ConvertedType::kEnum: t.kind = K::kEnum; break;
    case ConvertedType::kDecimal:
      t.kind = K::kDecimal;
      t.decimal_scale = e.scale.value_or(0);
      t.decimal_precision = e.precision.value_or(0);
      break;
    case ConvertedType::kDate: t.kind = K::kDate; break;
    case ConvertedType::kTimeMillis: temporal(K::kTime, TimeUnit::kMillis); break;
    case ConvertedType::kTimeMicros: temporal(K::kTime, TimeUnit::kMicros); break;
    case ConvertedType::kTimestampMillis: temporal(K::kTimestamp, TimeUnit::kMillis); break;
    case ConvertedType::kTimestampMicros: temporal(K::kTimestamp, TimeUnit::kMicros); break;
    case ConvertedType::kUint8: integer(8, false); break;
    case ConvertedType::kUint16: integer(16, false); break;
    case ConvertedType::kUint32: integer(32, false); break;
    case ConvertedType::kUint64: integer(64, false); break;
    case ConvertedType::kInt8: integer(8, true); break;
    case ConvertedType::kInt16: integer(16, true); break;
    case ConvertedType::kInt32: integer(32, true); break;
    case ConvertedType::kInt64: integer(64, true); break;
    case ConvertedType::kJson: t.kind = K::kJson; break;
    case ConvertedType::kBson: t.kind = K::kBson; break;
    // MAP_KEY_VALUE and INTERVAL have no LogicalType twin; readers look at converted_type for them.
    default: break;
  }
  return t;
}

}  // namespace

LogicalType ResolveLogicalType(const SchemaElement& element) {
  if (element.logical_type && element.logical_type->kind != LogicalType::Kind::kNone) {
    LogicalType t = *element.logical_type;
    // Some writers leave the DECIMAL fields of LogicalType at zero and rely on the element's.
    if (t.kind == LogicalType::Kind::kDecimal && t.decimal_precision == 0 && element.precision) {
      t.decimal_precision = *element.precision;
      t.decimal_scale = element.scale.value_or(0);
    }
    return t;
  }
  // An unknown LogicalType falls back to the ConvertedType when there is one, else the physical type.
  return FromConvertedType(element);
}

std::string SchemaNode::DottedPath() const {
  if (is_root()) return "";
  std::string p = parent->is_root() ? std::string() : parent->DottedPath() + ".";
  return p + name;
}

Result<std::shared_ptr<const Schema>> Schema::Make(const std::vector<SchemaElement>& elements) {
  if (elements.empty()) return Status::Corruption("schema is empty");
  auto schema = std::make_shared<Schema>();
  // Iterative depth-first rebuild: a stack of (group node, children still expected).
  struct Open {
    SchemaNode* node;
    int64_t children_left;
  };
  std::vector<Open> stack;
  size_t next = 0;
  auto make_node = [&](const SchemaElement& e, SchemaNode* parent) -> Result<SchemaNode*> {
    auto node = std::make_unique<SchemaNode>();
    node->name = e.name;
    node->element_index = static_cast<int>(next);
    node->parent = parent;
    node->repetition = parent ? e.repetition_type.value_or(Repetition::kOptional)
                              : Repetition::kRequired;
    if (parent && !e.repetition_type) {
      return Status::Corruption("schema element '" + e.name + "' has no repetition type");
    }
    node->depth = parent ? parent->depth + 1 : 0;
    if (node->depth > kMaxSchemaDepth) {
      return Status::Corruption("schema nested too deeply: '" + e.name + "' is at depth " +
                                std::to_string(node->depth) + ", over the limit of " + std::to_string(kMaxSchemaDepth));
    }
    int def = parent ? parent->max_definition_level : 0;
    int rep = parent ? parent->max_repetition_level : 0;
    if (parent && node->repetition != Repetition::kRequired) ++def;
    if (parent && node->repetition == Repetition::kRepeated) ++rep;
    node->max_definition_level = static_cast<int16_t>(def);
    node->max_repetition_level = static_cast<int16_t>(rep);
    node->logical_type = ResolveLogicalType(e);
    node->converted_type = e.converted_type;
    SchemaNode* raw = node.get();
    schema->nodes_.push_back(std::move(node));
    if (parent) parent->children.push_back(raw);
    return raw;
  };

  const SchemaElement& root_element = elements[0];
  PQ_ASSIGN_OR_RETURN(SchemaNode * root, make_node(root_element, nullptr));
  ++next;
  int64_t root_children = root_element.num_children.value_or(0);
  if (root_children < 0) return Status::Corruption("schema root has a negative child count");
  stack.push_back({root, root_children});
  while (!stack.empty()) {
    if (stack.back().children_left == 0) {
      stack.pop_back();
      continue;
    }
    if (next >= elements.size()) {
      return Status::Corruption("schema ends early: group '" + stack.back().node->name +
                                "' expects more children");
    }
    --stack.back().children_left;
    const SchemaElement& e = elements[next];
    PQ_ASSIGN_OR_RETURN(SchemaNode * node, make_node(e, stack.back().node));
    ++next;
    bool is_group = e.num_children.has_value() && (*e.num_children > 0 || !e.type.has_value());
    if (is_group) {
      if (*e.num_children < 0) return Status::Corruption("schema element '" + e.name + "' has a negative child count");
      if (*e.num_children > static_cast<int64_t>(elements.size())) {
        return Status::Corruption("schema element '" + e.name + "' claims too many children");
      }
      stack.push_back({node, *e.num_children});
      continue;
    }
    if (!e.type) return Status::Corruption("schema leaf '" + e.name + "' has no physical type");
    node->is_leaf = true;
    node->physical_type = *e.type;
    if (static_cast<int32_t>(node->physical_type) < 0 ||
        static_cast<int32_t>(node->physical_type) > 7) {
      return Status::Corruption("schema leaf '" + e.name + "' has unknown physical type " +
                                std::to_string(static_cast<int32_t>(node->physical_type)));
    }
    if (node->physical_type == PhysicalType::kFixedLenByteArray) {
      if (!e.type_length || *e.type_length <= 0) {
        return Status::Corruption("FIXED_LEN_BYTE_ARRAY leaf '" + e.name +
                                  "' has no positive type_length");
      }
      node->type_length = *e.type_length;
    } else if (node->physical_type == PhysicalType::kInt96) {
      node->type_length = 12;
    }
    node->leaf_index = static_cast<int>(schema->leaves_.size());
    schema->leaves_.push_back(node);
  }
  if (next != elements.size()) {
    return Status::Corruption("schema has " + std::to_string(elements.size() - next) +
                              " elements outside the tree");
  }
  return std::shared_ptr<const Schema>(std::move(schema));
}

std::pair<int, int> Schema::LeafRange(const SchemaNode& node) const {
  if (node.is_leaf) return {node.leaf_index, 1};
  // Leaves under a node are contiguous in depth-first order.
  const SchemaNode* first = &node;
  while (!first->is_leaf && !first->children.empty()) first = first->children.front();
  const SchemaNode* last = &node;
  while (!last->is_leaf && !last->children.empty()) last = last->children.back();
  if (!first->is_leaf || !last->is_leaf) {
    // A group with an empty group at an edge: count by walking.
    int lo = -1, count = 0;
    std::vector<const SchemaNode*> todo = {&node};
    while (!todo.empty()) {
      const SchemaNode* n = todo.back();
      todo.pop_back();
      if (n->is_leaf) {
        if (lo < 0 || n->leaf_index < lo) lo = n->leaf_index;
        ++count;
      }
      for (const SchemaNode* c : n->children) todo.push_back(c);
    }
    return {lo < 0 ? 0 : lo, count};
  }
  return {first->leaf_index, last->leaf_index - first->leaf_index + 1};
}

}  // namespace pq
