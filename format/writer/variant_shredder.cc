#include "format/writer/variant_shredder.h"

#include <algorithm>
#include <cstring>

#include "format/variant/shredded_leaf.h"
#include "format/variant/variant_encoder.h"
#include "format/writer/file_writer.h"

namespace pq {

namespace {

__extension__ typedef __int128 Int128;

Status Unsupported(const SchemaNode& node, const std::string& why) {
  return Status::InvalidArgument("variant column '" + node.DottedPath() + "': " + why);
}

const SchemaNode* ChildNamed(const SchemaNode& group, std::string_view name) {
  for (const SchemaNode* c : group.children) {
    if (c->name == name) return c;
  }
  return nullptr;
}

bool IsPlainBinary(const SchemaNode& n) {
  return n.is_leaf && n.physical_type == PhysicalType::kByteArray &&
         n.logical_type.kind == LogicalType::Kind::kNone;
}

// The primitive type id of a Variant value (a short string counts as a string).
uint8_t PrimitiveIdOf(ByteSpan v) {
  if (VariantBasicTypeOf(v) == VariantBasicType::kShortString) return variant::kString;
  return static_cast<uint8_t>(v[0] >> 2);
}

bool IsInteger(uint8_t id) {
  return id == variant::kInt8 || id == variant::kInt16 || id == variant::kInt32 ||
         id == variant::kInt64;
}

// An integer primitive's value (the value is one whole primitive of an integer type).
int64_t IntegerOf(ByteSpan v) {
  switch (v[0] >> 2) {
    case variant::kInt8:
      return static_cast<int8_t>(v[1]);
    case variant::kInt16:
      return LoadLE<int16_t>(v.data() + 1);
    case variant::kInt32:
      return LoadLE<int32_t>(v.data() + 1);
    default:
      return LoadLE<int64_t>(v.data() + 1);
  }
}

bool IsDecimal(uint8_t id) {
  return id == variant::kDecimal4 || id == variant::kDecimal8 || id == variant::kDecimal16;
}

// A decimal primitive's unscaled value.
Int128 UnscaledOf(ByteSpan v) {
  const uint8_t* p = v.data() + 2;  // header, scale
  switch (v[0] >> 2) {
    case variant::kDecimal4:
      return LoadLE<int32_t>(p);
    case variant::kDecimal8:
      return LoadLE<int64_t>(p);
    default: {
      Int128 x = 0;
      for (int i = 15; i >= 0; --i) x = (x << 8) | p[i];  // little endian, two's complement
      return x;
    }
  }
}

// The payload of a string or binary primitive.
std::string_view BytesOf(ByteSpan v) {
  if (VariantBasicTypeOf(v) == VariantBasicType::kShortString) return AsStringView(v.subspan(1));
  return AsStringView(v.subspan(5));
}

}  // namespace

struct VariantShredder::Node {
  enum class Kind { kGroup, kPrimitive, kList, kObject };
  Kind kind = Kind::kGroup;
  const SchemaNode* schema = nullptr;
  int16_t def = 0;  // the node's maximum definition level
  int first_leaf = 0;
  int num_leaves = 0;
  // kGroup: the `value` leaf and the typed_value node (children[0], when there is one).
  int value_leaf = -1;
  int16_t value_def = 0;
  // kPrimitive: what the leaf holds.
  ShreddedLeafType::Kind leaf_kind = ShreddedLeafType::Kind::kBoolean;
  int64_t int_min = 0, int_max = 0;  // integers
  int precision = 0, scale = 0;      // decimals
  uint8_t timestamp_id = 0;          // timestamps: the Variant type id the column holds
  // kList: the repeated group's repetition level; children[0] is the element group.
  int16_t list_rep = 0;
  // kObject: children are the field groups in schema order; by_name lists them by field name.
  std::vector<int> by_name;
  std::vector<Node> children;
};

VariantShredder::VariantShredder() = default;
VariantShredder::~VariantShredder() = default;

namespace {

// Builds the nodes of a VARIANT column's schema (the forms of variant_shredder.h) and adds its
// leaves to the records in column order.
struct NodeBuilder {
  using Node = VariantShredder::Node;
  LeafRecords* records;
  int* metadata_leaf;

  Status Group(const SchemaNode& g, bool top, Node* n) {
    if (g.is_leaf) return Unsupported(g, "a group of value and typed_value is expected");
    if (!top && g.repetition != Repetition::kRequired) {
      return Unsupported(g, "a shredded field or element must be a required group");
    }
    n->kind = Node::Kind::kGroup;
    n->schema = &g;
    n->def = g.max_definition_level;
    n->first_leaf = records->num_leaves();
    const SchemaNode* typed = ChildNamed(g, "typed_value");
    for (const SchemaNode* c : g.children) {
      if (top && c->name == "metadata") {
        if (!IsPlainBinary(*c) || c->repetition != Repetition::kRequired) {
          return Unsupported(*c, "the metadata must be a required BYTE_ARRAY");
        }
        *metadata_leaf = records->num_leaves();
        records->AddLeaf(c);
      } else if (c->name == "value") {
        if (!IsPlainBinary(*c) || c->is_repeated() ||
            (typed != nullptr && c->repetition != Repetition::kOptional)) {
          return Unsupported(*c, "value must be a BYTE_ARRAY, optional beside a typed_value");
        }
        n->value_leaf = records->num_leaves();
        n->value_def = c->max_definition_level;
        records->AddLeaf(c);
      } else if (c->name == "typed_value") {
        n->children.emplace_back();
        PQ_RETURN_IF_ERROR(Typed(*c, &n->children.back()));
      } else {
        return Unsupported(*c, "a variant group holds only metadata, value and typed_value");
      }
    }
    if (top && *metadata_leaf < 0) return Unsupported(g, "there is no metadata column");
    if (n->value_leaf < 0) return Unsupported(g, "there is no value column");
    n->num_leaves = records->num_leaves() - n->first_leaf;
    return Status::OK();
  }

  Status Typed(const SchemaNode& t, Node* n) {
    if (t.repetition != Repetition::kOptional) {
      return Unsupported(t, "typed_value must be optional");
    }
    n->schema = &t;
    n->def = t.max_definition_level;
    n->first_leaf = records->num_leaves();
    using LK = LogicalType::Kind;
    const LogicalType& lt = t.logical_type;
    if (t.is_leaf) {
      Result<ShreddedLeafType> type = ShreddedLeafType::Of(t);
      if (!type.ok()) return Status::InvalidArgument(type.status().message());
      n->kind = Node::Kind::kPrimitive;
      n->leaf_kind = type->kind();
      const int bits = lt.kind == LK::kInteger                   ? lt.bit_width
                       : t.physical_type == PhysicalType::kInt32 ? 32
                                                                 : 64;
      n->int_max = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
      n->int_min = -n->int_max - 1;
      n->precision = lt.decimal_precision;
      n->scale = lt.decimal_scale;
      if (lt.kind == LK::kTimestamp) {
        const bool nanos = lt.unit == TimeUnit::kNanos;
        n->timestamp_id =
            lt.is_adjusted_to_utc
                ? (nanos ? variant::kTimestampNanos : variant::kTimestampMicros)
                : (nanos ? variant::kTimestampNtzNanos : variant::kTimestampNtzMicros);
      }
      if (n->leaf_kind == ShreddedLeafType::Kind::kDecimalBytes &&
          (t.physical_type != PhysicalType::kFixedLenByteArray || t.type_length > 16 ||
           n->precision < 1 || n->precision > 38)) {
        return Unsupported(
            t, "a DECIMAL typed_value past 18 digits is written as FIXED_LEN_BYTE_ARRAY");
      }
      records->AddLeaf(&t);
    } else if (lt.kind == LK::kList) {
      const SchemaNode* list = t.children.size() == 1 ? t.children[0] : nullptr;
      const SchemaNode* element =
          list != nullptr && list->is_repeated() && list->children.size() == 1 ? list->children[0]
                                                                               : nullptr;
      if (element == nullptr || list->is_leaf) {
        return Unsupported(
            t, "a LIST typed_value is group (LIST) { repeated group list { element } }");
      }
      n->kind = Node::Kind::kList;
      n->list_rep = list->max_repetition_level;
      n->children.emplace_back();
      PQ_RETURN_IF_ERROR(Group(*element, false, &n->children.back()));
    } else if (lt.kind == LK::kNone && !t.children.empty()) {
      n->kind = Node::Kind::kObject;
      n->children.resize(t.children.size());
      for (size_t i = 0; i < t.children.size(); ++i) {
        PQ_RETURN_IF_ERROR(Group(*t.children[i], false, &n->children[i]));
        n->by_name.push_back(static_cast<int>(i));
      }
      std::sort(n->by_name.begin(), n->by_name.end(), [n](int a, int b) {
        return n->children[a].schema->name < n->children[b].schema->name;
      });
      for (size_t i = 1; i < n->by_name.size(); ++i) {
        if (n->children[n->by_name[i]].schema->name ==
            n->children[n->by_name[i - 1]].schema->name) {
          return Unsupported(
              t, "two fields are named '" + n->children[n->by_name[i]].schema->name + "'");
        }
      }
    } else {
      return Unsupported(t, "typed_value must be a primitive, a LIST or a group of fields");
    }
    n->num_leaves = records->num_leaves() - n->first_leaf;
    return Status::OK();
  }
};

}  // namespace

Result<std::unique_ptr<VariantShredder>> VariantShredder::Make(std::vector<SchemaElement> field) {
  std::unique_ptr<VariantShredder> s(new VariantShredder());
  PQ_ASSIGN_OR_RETURN(s->schema_, OneFieldSchema(std::move(field)));
  const SchemaNode& top = *s->schema_->fields()[0];
  if (top.logical_type.kind != LogicalType::Kind::kVariant || top.is_repeated()) {
    return Unsupported(top, "the column must be a group annotated VARIANT, not repeated");
  }
  s->root_ = std::make_unique<Node>();
  s->metadata_leaf_ = -1;
  PQ_RETURN_IF_ERROR(
      (NodeBuilder{&s->records_, &s->metadata_leaf_}.Group(top, true, s->root_.get())));
  return s;
}

Status VariantShredder::AppendNull() {
  if (!root_->schema->is_optional()) {
    return Status::InvalidArgument("column '" + root_->schema->name + "' cannot be null");
  }
  records_.PushLevels(0, records_.num_leaves(), 0, 0);
  records_.EndRecord();
  return Status::OK();
}

Status VariantShredder::Append(ByteSpan metadata, ByteSpan value) {
  Result<VariantMetadata> parsed = VariantMetadata::Parse(metadata);
  if (!parsed.ok()) return Status::InvalidArgument(parsed.status().message());
  metadata_ = *parsed;
  records_.Mark();
  ShreddedLeaf& m = records_.leaf(metadata_leaf_);
  m.PushLevels(m.node->max_definition_level, 0);
  m.PushBytes(AsStringView(metadata));
  fields_.clear();
  elements_.clear();
  Status s = value.empty() ? Status::InvalidArgument("variant: an empty value")
                           : Shred(*root_, value, 0, 0);
  if (!s.ok()) {
    records_.RollBack();
    return s.code() == StatusCode::kInvalidArgument ? s : Status::InvalidArgument(s.message());
  }
  records_.EndRecord();
  return Status::OK();
}

void VariantShredder::PushValue(const Node& group, ByteSpan value, int16_t rep) {
  ShreddedLeaf& leaf = records_.leaf(group.value_leaf);
  leaf.PushLevels(group.value_def, rep);
  leaf.PushBytes(AsStringView(value));
}

bool VariantShredder::Matches(const Node& typed, ByteSpan v) const {
  const VariantBasicType basic = VariantBasicTypeOf(v);
  switch (typed.kind) {
    case Node::Kind::kList:
      return basic == VariantBasicType::kArray;
    case Node::Kind::kObject:
      return basic == VariantBasicType::kObject;
    case Node::Kind::kGroup:
      return false;
    case Node::Kind::kPrimitive:
      break;
  }
  if (basic != VariantBasicType::kPrimitive && basic != VariantBasicType::kShortString)
    return false;
  const uint8_t id = PrimitiveIdOf(v);
  using K = ShreddedLeafType::Kind;
  switch (typed.leaf_kind) {
    case K::kBoolean:
      return id == variant::kTrue || id == variant::kFalse;
    case K::kInt32:
    case K::kInt64: {
      if (!IsInteger(id)) return false;
      const int64_t x = IntegerOf(v);
      return x >= typed.int_min && x <= typed.int_max;
    }
    case K::kFloat:
      return id == variant::kFloat;
    case K::kDouble:
      return id == variant::kDouble;
    case K::kDecimal32:
    case K::kDecimal64:
    case K::kDecimalBytes: {
      if (!IsDecimal(id) || v[1] != typed.scale) return false;
      Int128 limit = 1;
      for (int i = 0; i < typed.precision; ++i) limit *= 10;
      const Int128 x = UnscaledOf(v);
      return x < limit && x > -limit;
    }
    case K::kDate:
      return id == variant::kDate;
    case K::kTime:
      return id == variant::kTimeNtzMicros;
    case K::kTimestamp:
      return id == typed.timestamp_id;
    case K::kBinary:
      return id == variant::kBinary;
    case K::kString:
      return id == variant::kString;
    case K::kUuid:
      return id == variant::kUuid;
  }
  return false;
}

Status VariantShredder::PushPrimitive(const Node& typed, ByteSpan v, int16_t rep) {
  ShreddedLeaf& leaf = records_.leaf(typed.first_leaf);
  leaf.PushLevels(typed.def, rep);
  const uint8_t* p = v.data() + 1;
  using K = ShreddedLeafType::Kind;
  switch (typed.leaf_kind) {
    case K::kBoolean:
      leaf.booleans.push_back(PrimitiveIdOf(v) == variant::kTrue ? 1 : 0);
      break;
    case K::kInt32:
      leaf.int32s.push_back(static_cast<int32_t>(IntegerOf(v)));
      break;
    case K::kInt64:
      leaf.int64s.push_back(IntegerOf(v));
      break;
    case K::kFloat:
      leaf.floats.push_back(LoadLE<float>(p));
      break;
    case K::kDouble:
      leaf.doubles.push_back(LoadLE<double>(p));
      break;
    case K::kDecimal32:
      leaf.int32s.push_back(static_cast<int32_t>(UnscaledOf(v)));
      break;
    case K::kDecimal64:
      leaf.int64s.push_back(static_cast<int64_t>(UnscaledOf(v)));
      break;
    case K::kDecimalBytes: {
      const Int128 x = UnscaledOf(v);
      char big_endian[16];
      for (int i = 0; i < 16; ++i)
        big_endian[15 - i] = static_cast<char>(static_cast<uint8_t>(x >> (8 * i)));
      const size_t width = static_cast<size_t>(leaf.node->type_length);
      leaf.PushBytes(std::string_view(big_endian + 16 - width, width));
      break;
    }
    case K::kDate:
      leaf.int32s.push_back(LoadLE<int32_t>(p));
      break;
    case K::kTime:
    case K::kTimestamp:
      leaf.int64s.push_back(LoadLE<int64_t>(p));
      break;
    case K::kBinary:
    case K::kString:
      leaf.PushBytes(BytesOf(v));
      break;
    case K::kUuid:
      leaf.PushBytes(AsStringView(v.subspan(1, 16)));
      break;
  }
  return Status::OK();
}

Status VariantShredder::Shred(const Node& group, ByteSpan value, int16_t rep, int depth) {
  if (depth > kMaxVariantNesting) {
    return Status::InvalidArgument("variant: nested more than " +
                                   std::to_string(kMaxVariantNesting) + " levels deep");
  }
  const Node* typed = group.children.empty() ? nullptr : &group.children[0];
  if (typed == nullptr || !Matches(*typed, value)) {
    PushValue(group, value, rep);
    if (typed != nullptr) records_.PushLevels(typed->first_leaf, typed->num_leaves, group.def, rep);
    return Status::OK();
  }
  if (typed->kind != Node::Kind::kObject) {
    records_.leaf(group.value_leaf).PushLevels(group.def, rep);  // value null
    return ShredTyped(*typed, value, rep, depth);
  }
  // An object: the named fields go to their groups, the others stay in `value`.
  const size_t base = fields_.size();
  PQ_RETURN_IF_ERROR(decoder_.ReadObjectFields(metadata_, value, &fields_));
  const auto by_name = [](const VariantField& a, const VariantField& b) { return a.name < b.name; };
  std::sort(fields_.begin() + static_cast<ptrdiff_t>(base), fields_.end(), by_name);
  residual_.clear();
  std::vector<VariantField> rest;
  size_t next = base;
  for (int index : typed->by_name) {
    const std::string& name = typed->children[static_cast<size_t>(index)].schema->name;
    while (next < fields_.size() && fields_[next].name < name) rest.push_back(fields_[next++]);
    if (next < fields_.size() && fields_[next].name == name) ++next;
  }
  while (next < fields_.size()) rest.push_back(fields_[next++]);
  if (rest.empty()) {
    records_.leaf(group.value_leaf).PushLevels(group.def, rep);
  } else {
    AppendVariantObject(rest, &residual_);
    PushValue(group, AsBytes(residual_), rep);
  }
  Status s;
  for (size_t i = 0; i < typed->children.size() && s.ok(); ++i) {
    const Node& field = typed->children[i];
    const std::string& name = field.schema->name;
    auto it = std::lower_bound(fields_.begin() + static_cast<ptrdiff_t>(base), fields_.end(),
                               VariantField{name, {}, 0}, by_name);
    if (it != fields_.end() && it->name == name) {
      const ByteSpan field_value = it->value;  // nested calls may grow fields_
      s = Shred(field, field_value, rep, depth + 1);
    } else {
      records_.PushLevels(field.first_leaf, field.num_leaves, field.def, rep);  // missing
    }
  }
  fields_.resize(base);
  return s;
}

Status VariantShredder::ShredTyped(const Node& typed, ByteSpan value, int16_t rep, int depth) {
  if (typed.kind == Node::Kind::kPrimitive) return PushPrimitive(typed, value, rep);
  // A list (objects are shredded by Shred).
  const size_t base = elements_.size();
  PQ_RETURN_IF_ERROR(decoder_.ReadArrayElements(value, &elements_));
  const size_t end = elements_.size();
  Status s;
  if (end == base) {
    records_.PushLevels(typed.first_leaf, typed.num_leaves, typed.def, rep);  // an empty list
  } else {
    for (size_t i = base; i < end && s.ok(); ++i) {
      const ByteSpan element = elements_[i];  // nested calls may grow elements_
      s = Shred(typed.children[0], element, i == base ? rep : typed.list_rep, depth + 1);
    }
  }
  elements_.resize(base);
  return s;
}

}  // namespace pq
