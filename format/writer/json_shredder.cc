#include "format/writer/json_shredder.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "format/value/temporal.h"
#include "format/writer/file_writer.h"
#include "format/writer/text_to_value.h"

namespace pq {

namespace {

// Nesting of JSON held by a JSON leaf (whose structure no schema bounds) is limited, so that
// skipping it cannot exhaust the stack.

enum class LeafKind : uint8_t {
  kBoolean,
  kInteger,  // bit_width, is_signed; INT32 or INT64
  kFloat,
  kDouble,
  kString,  // STRING, ENUM
  kJson,
  kBytes,  // BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY without annotation: base64 in JSON
  kDate,
  kTime,       // unit
  kTimestamp,  // unit
  kDecimal,    // precision, scale; INT32, INT64 or FIXED_LEN_BYTE_ARRAY
  kUuid,
  kUnknown,  // INT32 UNKNOWN: every value is null
};

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// The syntax error of JsonReader::AfterValue::kNeither: "expected ',' or ']'".
std::string ExpectedCommaOr(char close) {
  return std::string("expected ',' or '") + close + "'";
}

// At most 40 bytes of `text` (whole UTF-8 characters), "..." when cut.
std::string Excerpt(std::string_view text) {
  if (text.size() <= 40) return std::string(text);
  size_t cut = 37;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

std::string IntegerDescription(int bits, bool is_signed) {
  return (bits == 8 ? "an " : "a ") + std::to_string(bits) + "-bit " +
         (is_signed ? "signed" : "unsigned") + " integer";
}

enum class IntegerParse { kOk, kNotInteger, kOutOfRange };

// A JSON number with an integral value to the bits of an integer of `bits` (8..64), signed or not:
// in range, the value (an unsigned 64-bit value above 2^63-1 as its two's complement bits).
IntegerParse ParseIntegerNumber(std::string_view text, int bits, bool is_signed, int64_t* out) {
  const bool plain = text.find_first_of(".eE") == std::string_view::npos;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (plain) {
    if (text.front() == '-') {
      int64_t v = 0;
      auto [p, ec] = std::from_chars(begin, end, v);
      if (ec == std::errc::result_out_of_range) return IntegerParse::kOutOfRange;
      if (ec != std::errc() || p != end) return IntegerParse::kNotInteger;
      if (!is_signed && v != 0) return IntegerParse::kOutOfRange;
      if (bits < 64 && v < -(int64_t{1} << (bits - 1))) return IntegerParse::kOutOfRange;
      *out = v;
      return IntegerParse::kOk;
    }
    uint64_t u = 0;
    auto [p, ec] = std::from_chars(begin, end, u);
    if (ec == std::errc::result_out_of_range) return IntegerParse::kOutOfRange;
    if (ec != std::errc() || p != end) return IntegerParse::kNotInteger;
    const uint64_t max = is_signed    ? (uint64_t{1} << (bits - 1)) - 1
                         : bits == 64 ? std::numeric_limits<uint64_t>::max()
                                      : (uint64_t{1} << bits) - 1;
    if (u > max) return IntegerParse::kOutOfRange;
    *out = static_cast<int64_t>(u);
    return IntegerParse::kOk;
  }
  double d = 0;
  auto [p, ec] = std::from_chars(begin, end, d, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) {
    // Too large in magnitude (out of range) or too small (a fraction): tell them apart by exponent.
    const size_t e = text.find_first_of("eE");
    return e != std::string_view::npos && text[e + 1] == '-' ? IntegerParse::kNotInteger
                                                             : IntegerParse::kOutOfRange;
  }
  if (ec != std::errc() || p != end || !std::isfinite(d)) return IntegerParse::kNotInteger;
  if (std::floor(d) != d) return IntegerParse::kNotInteger;
  const double lo = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double hi = is_signed ? std::ldexp(1.0, bits - 1) : std::ldexp(1.0, bits);  // exclusive
  if (!(d >= lo && d < hi)) return IntegerParse::kOutOfRange;
  *out = d < 0 ? static_cast<int64_t>(d)
               : static_cast<int64_t>(static_cast<uint64_t>(d));  // bits above 2^63 for UINT64
  return IntegerParse::kOk;
}

}  // namespace

// A node of the field as the shredder walks it.
struct JsonShredder::Node {
  enum class Kind : uint8_t { kLeaf, kList, kMap, kStruct };
  Kind kind = Kind::kLeaf;
  const SchemaNode* schema = nullptr;
  bool optional = true;
  bool is_map_key = false;
  int16_t def = 0;         // definition level of a present value here (the node's maximum)
  int16_t null_def = 0;    // definition level written for a null value here (the parent's maximum)
  int16_t repeat_rep = 0;  // list, map: repetition level of the entries after the first
  int first_leaf = 0;      // leaves under the node: [first_leaf, first_leaf + num_leaves)
  int num_leaves = 0;
  std::vector<Node> children;  // list: the element; map: key, [value]; struct: the fields
  // Leaves.
  LeafKind leaf_kind = LeafKind::kString;
  int bit_width = 64;                 // kInteger
  bool is_signed = true;              // kInteger
  TimeUnit unit = TimeUnit::kMicros;  // kTime, kTimestamp
  bool local_timestamp = false;       // kTimestamp not adjusted to UTC: no zone in its text
  int precision = 0;                  // kDecimal
  int scale = 0;                      // kDecimal
  // Scratch of the value being read (a node is never inside itself, so one value at a time):
  std::vector<uint8_t> seen;                  // struct: the fields met in the object
  std::vector<std::string_view> key_sources;  // map: each key's JSON text, for messages

  bool has_value() const { return children.size() == 2; }  // map
};

// A JSON scalar as read: a string (unescaped), a number (its text), true or false. `from_key`: the
// text of an object member name standing for a map key, to be converted from its text whatever
// the key's type.
struct JsonShredder::Scalar {
  enum class Kind : uint8_t { kString, kNumber, kTrue, kFalse };
  Kind kind = Kind::kString;
  std::string_view text;
  std::string_view raw;  // as written in the JSON, for messages
  bool from_key = false;
};

JsonShredder::JsonShredder() = default;
JsonShredder::~JsonShredder() = default;

namespace {

// The leaf conversion of a SchemaNode leaf, or NotSupported.
Status ResolveLeaf(const SchemaNode& s, LeafKind* kind, int* bits, bool* is_signed, TimeUnit* unit,
                   int* precision, int* scale) {
  const LogicalType& t = s.logical_type;
  using K = LogicalType::Kind;
  auto resolved = [kind](LeafKind k) {
    *kind = k;
    return Status::OK();
  };
  auto decimal = [&]() {
    *precision = t.decimal_precision;
    *scale = t.decimal_scale;
    return resolved(LeafKind::kDecimal);
  };
  switch (s.physical_type) {
    case PhysicalType::kBoolean:
      if (t.kind == K::kNone) return resolved(LeafKind::kBoolean);
      break;
    case PhysicalType::kInt32:
    case PhysicalType::kInt64: {
      const int width = s.physical_type == PhysicalType::kInt32 ? 32 : 64;
      if (t.kind == K::kNone) {
        *bits = width;
        *is_signed = true;
        return resolved(LeafKind::kInteger);
      }
      if (t.kind == K::kInteger &&
          (t.bit_width == 8 || t.bit_width == 16 || t.bit_width == 32 || t.bit_width == 64)) {
        if ((t.bit_width == 64) != (width == 64)) break;
        *bits = t.bit_width;
        *is_signed = t.is_signed;
        return resolved(LeafKind::kInteger);
      }
      if (t.kind == K::kDate && width == 32) return resolved(LeafKind::kDate);
      if (t.kind == K::kUnknown) return resolved(LeafKind::kUnknown);
      if (t.kind == K::kTime && (width == 32) == (t.unit == TimeUnit::kMillis)) {
        *unit = t.unit;
        return resolved(LeafKind::kTime);
      }
      if (t.kind == K::kTimestamp && width == 64) {
        *unit = t.unit;
        return resolved(LeafKind::kTimestamp);
      }
      if (t.kind == K::kDecimal && t.decimal_precision >= 1 &&
          t.decimal_precision <= (width == 32 ? 9 : 18) && t.decimal_scale >= 0 &&
          t.decimal_scale <= t.decimal_precision) {
        return decimal();
      }
      break;
    }
    case PhysicalType::kFloat:
      if (t.kind == K::kNone) return resolved(LeafKind::kFloat);
      break;
    case PhysicalType::kDouble:
      if (t.kind == K::kNone) return resolved(LeafKind::kDouble);
      break;
    case PhysicalType::kByteArray:
      if (t.kind == K::kNone) return resolved(LeafKind::kBytes);
      if (t.kind == K::kString || t.kind == K::kEnum) return resolved(LeafKind::kString);
      if (t.kind == K::kJson) return resolved(LeafKind::kJson);
      break;
    case PhysicalType::kFixedLenByteArray:
      if (t.kind == K::kNone) return resolved(LeafKind::kBytes);
      if (t.kind == K::kUuid && s.type_length == 16) return resolved(LeafKind::kUuid);
      if (t.kind == K::kDecimal && t.decimal_precision >= 1 && t.decimal_precision <= 38 &&
          t.decimal_scale >= 0 && t.decimal_scale <= t.decimal_precision &&
          s.type_length >= DecimalByteWidth(t.decimal_precision) && s.type_length <= 16) {
        return decimal();
      }
      break;
    default:
      break;
  }
  return Status::NotSupported("column '" + s.DottedPath() +
                              "': this type cannot be written from JSON");
}

}  // namespace

Result<std::unique_ptr<JsonShredder>> JsonShredder::Make(std::vector<SchemaElement> field) {
  std::unique_ptr<JsonShredder> s(new JsonShredder());
  PQ_ASSIGN_OR_RETURN(s->schema_, OneFieldSchema(std::move(field)));

  // Builds the node for `sn` and, in column order, the leaves under it.
  struct Builder {
    JsonShredder* self;
    Status Build(const SchemaNode& sn, Node* n) {
      const std::string where = "column '" + sn.DottedPath() + "': ";
      if (sn.is_repeated()) {
        return Status::NotSupported(where +
                                    "a repeated field outside a LIST or MAP group cannot be "
                                    "written from JSON");
      }
      n->schema = &sn;
      n->optional = sn.is_optional();
      n->def = sn.max_definition_level;
      n->null_def = sn.parent->max_definition_level;
      n->first_leaf = self->records_.num_leaves();
      using K = LogicalType::Kind;
      if (sn.is_leaf) {
        n->kind = Node::Kind::kLeaf;
        PQ_RETURN_IF_ERROR(ResolveLeaf(sn, &n->leaf_kind, &n->bit_width, &n->is_signed, &n->unit,
                                       &n->precision, &n->scale));
        n->local_timestamp = n->leaf_kind == LeafKind::kTimestamp && !sn.logical_type.is_adjusted_to_utc;
        self->records_.AddLeaf(&sn);
        n->num_leaves = 1;
        return Status::OK();
      }
      const K kind = sn.logical_type.kind;
      if (kind == K::kList || kind == K::kMap) {
        const bool is_list = kind == K::kList;
        const SchemaNode* repeated = sn.children.size() == 1 ? sn.children[0] : nullptr;
        const size_t want = is_list ? 1 : 2;
        if (repeated == nullptr || !repeated->is_repeated() || repeated->is_leaf ||
            repeated->children.empty() || repeated->children.size() > want) {
          return Status::NotSupported(
              where + (is_list ? "only the 3-level LIST form (group (LIST) { repeated group list "
                                 "{ element } }) is written"
                               : "only the MAP form group (MAP) { repeated group key_value { "
                                 "key; value } } is written"));
        }
        n->kind = is_list ? Node::Kind::kList : Node::Kind::kMap;
        n->repeat_rep = repeated->max_repetition_level;
        n->children.resize(repeated->children.size());
        for (size_t i = 0; i < repeated->children.size(); ++i) {
          PQ_RETURN_IF_ERROR(Build(*repeated->children[i], &n->children[i]));
        }
        if (!is_list) {
          Node& key = n->children[0];
          key.is_map_key = true;
          if (key.kind != Node::Kind::kLeaf || key.optional || key.leaf_kind == LeafKind::kJson) {
            return Status::NotSupported(where +
                                        "a map key must be a required primitive (not JSON)");
          }
        }
      } else if (kind == K::kNone) {
        n->kind = Node::Kind::kStruct;
        n->children.resize(sn.children.size());
        for (size_t i = 0; i < sn.children.size(); ++i) {
          for (size_t j = 0; j < i; ++j) {
            if (sn.children[j]->name == sn.children[i]->name) {
              return Status::InvalidArgument(where + "two fields are named '" +
                                             sn.children[i]->name + "'");
            }
          }
          PQ_RETURN_IF_ERROR(Build(*sn.children[i], &n->children[i]));
        }
        n->seen.assign(sn.children.size(), 0);
      } else {
        return Status::NotSupported(where + "this group cannot be written from JSON");
      }
      n->num_leaves = self->records_.num_leaves() - n->first_leaf;
      return Status::OK();
    }
  };
  s->root_ = std::make_unique<Node>();
  PQ_RETURN_IF_ERROR(Builder{s.get()}.Build(*s->schema_->fields()[0], s->root_.get()));
  return s;
}

// ---------------------------------------------------------------------------------------------
// Records

Status JsonShredder::Append(std::string_view json) {
  records_.Mark();
  json_.text = json;
  json_.pos = 0;
  path_.clear();
  Status s = Shred(*root_, 0);
  if (s.ok()) {
    json_.SkipSpace();
    if (json_.pos != json_.text.size()) s = SyntaxError("text after the value");
  }
  json_.text = {};
  if (!s.ok()) {
    records_.RollBack();
    return s;
  }
  records_.EndRecord();
  return Status::OK();
}

Status JsonShredder::AppendNull() {
  if (!root_->optional) {
    return Status::InvalidArgument("column '" + root_->schema->name + "' cannot be null");
  }
  PushNull(*root_, root_->null_def, 0);
  records_.EndRecord();
  return Status::OK();
}

// ---------------------------------------------------------------------------------------------
// Shredding

void JsonShredder::PushNull(const Node& node, int16_t def, int16_t rep) {
  records_.PushLevels(node.first_leaf, node.num_leaves, def, rep);
}

Status JsonShredder::Shred(Node& node, int16_t rep) {
  json_.SkipSpace();
  if (json_.pos >= json_.text.size()) return SyntaxError("expected a value");
  const char c = json_.text[json_.pos];
  if (c == 'n') {
    PQ_RETURN_IF_ERROR(json_.ReadLiteral("null"));
    if (!node.optional) {
      return ValueError(node.is_map_key ? "a map key cannot be null"
                                        : "null where a value is required");
    }
    PushNull(node, node.null_def, rep);
    return Status::OK();
  }
  switch (node.kind) {
    case Node::Kind::kLeaf:
      return ShredLeaf(node, rep);
    case Node::Kind::kList:
      return ShredList(node, rep);
    case Node::Kind::kMap:
      return ShredMap(node, rep);
    case Node::Kind::kStruct:
      return ShredStruct(node, rep);
  }
  return ValueError("unknown node");
}

Status JsonShredder::ShredList(Node& node, int16_t rep) {
  if (json_.text[json_.pos] != '[') return MismatchHere("a list (a JSON array)");
  ++json_.pos;
  if (json_.ConsumeClose(']')) {
    PushNull(node, node.def, rep);  // an empty list: present, no element
    return Status::OK();
  }
  Node& element = node.children[0];
  path_.push_back(PathStep{0, {}});
  for (int64_t i = 0;; ++i) {
    path_.back().index = i;
    PQ_RETURN_IF_ERROR(Shred(element, i == 0 ? rep : node.repeat_rep));
    const JsonReader::AfterValue after = json_.ReadAfterValue(']');
    if (after == JsonReader::AfterValue::kClose) break;
    if (after == JsonReader::AfterValue::kNeither) return SyntaxError(ExpectedCommaOr(']'));
  }
  path_.pop_back();
  return Status::OK();
}

Status JsonShredder::ShredMap(Node& node, int16_t rep) {
  const char open = json_.text[json_.pos];
  if (open != '{' && open != '[') {
    return MismatchHere("a map (a JSON object, or an array of {\"key\":..,\"value\":..} objects)");
  }
  const char close = open == '{' ? '}' : ']';
  ++json_.pos;
  if (json_.ConsumeClose(close)) {
    PushNull(node, node.def, rep);  // an empty map
    return Status::OK();
  }
  Node& key = node.children[0];
  const size_t first_key = static_cast<size_t>(records_.leaf(key.first_leaf).num_values());
  node.key_sources.clear();
  path_.push_back(PathStep{});
  for (int64_t i = 0;; ++i) {
    const int16_t r = i == 0 ? rep : node.repeat_rep;
    if (open == '[') {
      path_.back() = PathStep{i, {}};
      PQ_RETURN_IF_ERROR(ShredMapEntry(node, r));
    } else {
      if (!json_.AtString()) return SyntaxError("expected a string");
      Scalar k;
      PQ_RETURN_IF_ERROR(json_.ReadString(&k.text, &string_scratch_, &k.raw));
      k.from_key = true;
      path_.back() = PathStep{-1, k.raw.substr(1, k.raw.size() - 2)};
      node.key_sources.push_back(k.raw);
      PQ_RETURN_IF_ERROR(PushLeaf(key, k, r));
      PQ_RETURN_IF_ERROR(json_.Expect(':', "':'"));
      if (node.has_value()) {
        PQ_RETURN_IF_ERROR(Shred(node.children[1], r));
      } else {
        PQ_RETURN_IF_ERROR(json_.SkipValue(0));
      }
    }
    const JsonReader::AfterValue after = json_.ReadAfterValue(close);
    if (after == JsonReader::AfterValue::kClose) break;
    if (after == JsonReader::AfterValue::kNeither) return SyntaxError(ExpectedCommaOr(close));
  }
  path_.pop_back();
  return CheckDistinctKeys(node, first_key);
}

Status JsonShredder::ShredMapEntry(Node& node, int16_t rep) {
  json_.SkipSpace();
  if (json_.pos >= json_.text.size()) return SyntaxError("expected a value");
  if (json_.text[json_.pos] != '{') return MismatchHere("a map entry {\"key\":..,\"value\":..}");
  ++json_.pos;
  bool has_key = false, has_value = false;
  if (!json_.ConsumeClose('}')) {
    path_.push_back(PathStep{});
    while (true) {
      if (!json_.AtString()) return SyntaxError("expected a string");
      std::string_view name, raw;
      PQ_RETURN_IF_ERROR(json_.ReadString(&name, &string_scratch_, &raw));
      path_.back() = PathStep{-1, raw.substr(1, raw.size() - 2)};
      const bool is_key = name == "key";
      if (!is_key && name != "value") {
        return ValueError("a map entry has only \"key\" and \"value\", not " + Excerpt(raw));
      }
      if (is_key ? has_key : has_value) return ValueError("given twice");
      (is_key ? has_key : has_value) = true;
      PQ_RETURN_IF_ERROR(json_.Expect(':', "':'"));
      if (is_key) {
        json_.SkipSpace();
        const size_t start = json_.pos;
        PQ_RETURN_IF_ERROR(Shred(node.children[0], rep));
        node.key_sources.push_back(json_.text.substr(start, json_.pos - start));
      } else if (node.has_value()) {
        PQ_RETURN_IF_ERROR(Shred(node.children[1], rep));
      } else {
        PQ_RETURN_IF_ERROR(json_.SkipValue(0));
      }
      const JsonReader::AfterValue after = json_.ReadAfterValue('}');
      if (after == JsonReader::AfterValue::kClose) break;
      if (after == JsonReader::AfterValue::kNeither) return SyntaxError(ExpectedCommaOr('}'));
    }
    path_.pop_back();
  }
  if (!has_key) return ValueError("a map entry without a \"key\"");
  if (!has_value && node.has_value()) {
    const Node& value = node.children[1];
    if (!value.optional) return ValueError("a map entry without a \"value\"");
    PushNull(value, value.null_def, rep);
  }
  return Status::OK();
}

Status JsonShredder::CheckDistinctKeys(const Node& map, size_t first_key) {
  const ShreddedLeaf& l = records_.leaf(map.children[0].first_leaf);
  const size_t count = static_cast<size_t>(l.num_values()) - first_key;
  if (count < 2) return Status::OK();
  distinct_scratch_.clear();
  for (size_t k = 0; k < count; ++k) {
    distinct_scratch_.emplace_back(l.value_bytes(static_cast<int64_t>(first_key + k)),
                                   map.key_sources[k]);
  }
  // Equal keys have equal bytes (floating keys too, but for 0.0 and -0.0: these stay apart).
  std::stable_sort(distinct_scratch_.begin(), distinct_scratch_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t k = 1; k < distinct_scratch_.size(); ++k) {
    if (distinct_scratch_[k].first == distinct_scratch_[k - 1].first) {
      return ValueError("map key " + Excerpt(distinct_scratch_[k].second) + " appears twice");
    }
  }
  return Status::OK();
}

Status JsonShredder::ShredStruct(Node& node, int16_t rep) {
  if (json_.text[json_.pos] != '{') return MismatchHere("a struct (a JSON object)");
  ++json_.pos;
  std::fill(node.seen.begin(), node.seen.end(), 0);
  if (!json_.ConsumeClose('}')) {
    path_.push_back(PathStep{});
    while (true) {
      if (!json_.AtString()) return SyntaxError("expected a string");
      std::string_view name, raw;
      PQ_RETURN_IF_ERROR(json_.ReadString(&name, &string_scratch_, &raw));
      path_.back() = PathStep{-1, raw.substr(1, raw.size() - 2)};
      size_t field = 0;
      while (field < node.children.size() && node.children[field].schema->name != name) ++field;
      if (field == node.children.size()) {
        std::string names;
        for (const Node& c : node.children) names += (names.empty() ? "" : ", ") + c.schema->name;
        path_.pop_back();
        return ValueError("no field named '" + std::string(name) + "' (fields: " + names + ")");
      }
      if (node.seen[field]) return ValueError("field given twice");
      node.seen[field] = 1;
      PQ_RETURN_IF_ERROR(json_.Expect(':', "':'"));
      PQ_RETURN_IF_ERROR(Shred(node.children[field], rep));
      const JsonReader::AfterValue after = json_.ReadAfterValue('}');
      if (after == JsonReader::AfterValue::kClose) break;
      if (after == JsonReader::AfterValue::kNeither) return SyntaxError(ExpectedCommaOr('}'));
    }
    path_.pop_back();
  }
  for (size_t i = 0; i < node.children.size(); ++i) {
    if (node.seen[i]) continue;
    const Node& missing = node.children[i];
    if (!missing.optional) {
      return ValueError("field '" + missing.schema->name + "' is missing and cannot be null");
    }
    PushNull(missing, missing.null_def, rep);
  }
  return Status::OK();
}

Status JsonShredder::ShredLeaf(Node& node, int16_t rep) {
  if (node.leaf_kind == LeafKind::kUnknown) return MismatchHere(Expected(node));  // only null
  Scalar v;
  if (node.leaf_kind == LeafKind::kJson) {
    const size_t start = json_.pos;
    PQ_RETURN_IF_ERROR(json_.SkipValue(0));
    v.text = v.raw = json_.text.substr(start, json_.pos - start);
  } else {
    const char c = json_.text[json_.pos];
    if (c == '[' || c == '{') return MismatchHere(Expected(node));
    PQ_RETURN_IF_ERROR(ReadScalar(&v));
  }
  return PushLeaf(node, v, rep);
}

Status JsonShredder::PushLeaf(Node& node, const Scalar& v, int16_t rep) {
  ShreddedLeaf& l = records_.leaf(node.first_leaf);
  using SK = Scalar::Kind;
  const bool is_string = v.kind == SK::kString;
  // The text of a number: a JSON number, or a map key's text spelling one.
  const bool is_number = v.kind == SK::kNumber || (v.from_key && IsJsonNumber(v.text));
  auto push_bytes = [&l](std::string_view b) {
    l.bytes.append(b.data(), b.size());
    l.ends.push_back(l.bytes.size());
  };
  auto push_int = [&l](int64_t x) {
    if (l.physical_type == PhysicalType::kInt32) {
      l.int32s.push_back(static_cast<int32_t>(x));
    } else {
      l.int64s.push_back(x);
    }
  };
  switch (node.leaf_kind) {
    case LeafKind::kUnknown:
      return Mismatch(Expected(node), v.raw);
    case LeafKind::kBoolean: {
      int b = -1;
      if (v.kind == SK::kTrue || (is_number && v.text == "1") || (v.from_key && v.text == "true")) {
        b = 1;
      } else if (v.kind == SK::kFalse || (is_number && v.text == "0") ||
                 (v.from_key && v.text == "false")) {
        b = 0;
      }
      if (b < 0) return Mismatch(Expected(node), v.raw);
      l.booleans.push_back(static_cast<uint8_t>(b));
      break;
    }
    case LeafKind::kInteger: {
      if (!is_number) return Mismatch(Expected(node), v.raw);
      int64_t x = 0;
      switch (ParseIntegerNumber(v.text, node.bit_width, node.is_signed, &x)) {
        case IntegerParse::kOk:
          break;
        case IntegerParse::kNotInteger:
          return Mismatch(Expected(node), v.raw);
        case IntegerParse::kOutOfRange:
          return ValueError(Excerpt(v.raw) + " is out of range for " +
                            IntegerDescription(node.bit_width, node.is_signed));
      }
      push_int(x);
      break;
    }
    case LeafKind::kFloat:
    case LeafKind::kDouble: {
      if (!is_number) return Mismatch(Expected(node), v.raw);
      double d = 0;
      auto [p, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), d,
                                     std::chars_format::general);
      const bool is_float = node.leaf_kind == LeafKind::kFloat;
      const size_t exp = v.text.find_first_of("eE");
      bool infinite = false;
      if (ec == std::errc::result_out_of_range && exp != std::string_view::npos &&
          exp + 1 < v.text.size()) {
        // Below the smallest subnormal: zero. Above the largest double: an infinity, as SQLite
        // reads it (and as the reader writes one inside JSON: 9e999, json_writer.h).
        infinite = v.text[exp + 1] != '-';
        const bool negative = v.text.front() == '-';
        d = infinite ? (negative ? -HUGE_VAL : HUGE_VAL) : (negative ? -0.0 : 0.0);
        ec = std::errc();
        p = v.text.data() + v.text.size();
      }
      if (ec != std::errc() || p != v.text.data() + v.text.size() ||
          (!infinite &&
           (!std::isfinite(d) || (is_float && !std::isfinite(static_cast<float>(d)))))) {
        return ValueError(Excerpt(v.raw) + " is out of range for " +
                          (is_float ? "FLOAT" : "DOUBLE"));
      }
      if (is_float) {
        l.floats.push_back(static_cast<float>(d));
      } else {
        l.doubles.push_back(d);
      }
      break;
    }
    case LeafKind::kString:
      if (!is_string) return Mismatch(Expected(node), v.raw);
      push_bytes(v.text);
      break;
    case LeafKind::kJson:
      push_bytes(v.text);
      break;
    case LeafKind::kBytes: {
      if (!is_string) return Mismatch(Expected(node), v.raw);
      const size_t before = l.bytes.size();
      if (!DecodeBase64(v.text, &l.bytes)) return Mismatch(Expected(node), v.raw);
      const int32_t width = node.schema->type_length;
      if (l.physical_type == PhysicalType::kFixedLenByteArray &&
          l.bytes.size() - before != static_cast<size_t>(width)) {
        l.bytes.resize(before);
        return ValueError(Excerpt(v.raw) + " is not " + std::to_string(width) +
                          " bytes long, as FIXED_LEN_BYTE_ARRAY(" + std::to_string(width) +
                          ") needs");
      }
      l.ends.push_back(l.bytes.size());
      break;
    }
    case LeafKind::kDate: {
      Result<int32_t> days =
          is_string ? ParseIsoDate(v.text) : Result<int32_t>(Status::InvalidArgument(""));
      if (!days.ok()) return Mismatch(Expected(node), v.raw);
      l.int32s.push_back(*days);
      break;
    }
    case LeafKind::kTime: {
      Result<int64_t> t = is_string ? ParseIsoTime(v.text, node.unit)
                                    : Result<int64_t>(Status::InvalidArgument(""));
      if (!t.ok()) return Mismatch(Expected(node), v.raw);
      push_int(*t);
      break;
    }
    case LeafKind::kTimestamp: {
      int64_t x = 0;
      if (is_string) {
        // As at the top level: a UTC timestamp converts a zone, a local one has none to take.
        Result<int64_t> t = node.local_timestamp ? ParseIsoTimestampLocal(v.text, node.unit)
                                                 : ParseIsoTimestampUtc(v.text, node.unit);
        if (t.ok()) {
          x = *t;
        } else if (!(v.from_key && is_number &&
                     ParseIntegerNumber(v.text, 64, true, &x) == IntegerParse::kOk)) {
          return Mismatch(Expected(node), v.raw);
        }
      } else if (!is_number || ParseIntegerNumber(v.text, 64, true, &x) != IntegerParse::kOk) {
        return Mismatch(Expected(node), v.raw);
      }
      l.int64s.push_back(x);
      break;
    }
    case LeafKind::kDecimal: {
      if (!is_string && !is_number) return Mismatch(Expected(node), v.raw);
      UnscaledDecimal d;
      Status s = ParseDecimalText(v.text, node.precision, node.scale, &d);
      if (!s.ok()) return ValueError(Excerpt(v.raw) + " " + s.message());
      if (l.physical_type == PhysicalType::kFixedLenByteArray) {
        push_bytes(d.Bytes(node.schema->type_length));
      } else {
        push_int(d.ToInt64());
      }
      break;
    }
    case LeafKind::kUuid: {
      uint8_t b[16];
      if (!is_string || !ParseUuidText(v.text, b)) {
        return Mismatch(Expected(node), v.raw);
      }
      push_bytes(std::string_view(reinterpret_cast<const char*>(b), 16));
      break;
    }
  }
  l.def_levels.push_back(node.def);
  l.rep_levels.push_back(rep);
  return Status::OK();
}

// ---------------------------------------------------------------------------------------------
// JSON syntax

Status JsonShredder::ReadScalar(Scalar* v) {
  json_.SkipSpace();
  if (json_.pos >= json_.text.size()) return SyntaxError("expected a value");
  const char c = json_.text[json_.pos];
  const size_t start = json_.pos;
  if (c == '"') {
    v->kind = Scalar::Kind::kString;
    return json_.ReadString(&v->text, &string_scratch_, &v->raw);
  }
  if (c == '-' || IsDigit(c)) {
    v->kind = Scalar::Kind::kNumber;
    PQ_RETURN_IF_ERROR(json_.ReadNumber(&v->text));
    v->raw = v->text;
    return Status::OK();
  }
  if (c == 't' || c == 'f') {
    PQ_RETURN_IF_ERROR(json_.ReadLiteral(c == 't' ? "true" : "false"));
    v->kind = c == 't' ? Scalar::Kind::kTrue : Scalar::Kind::kFalse;
    v->text = v->raw = json_.text.substr(start, json_.pos - start);
    return Status::OK();
  }
  return SyntaxError("unexpected character");
}

// ---------------------------------------------------------------------------------------------
// Messages

std::string JsonShredder::Where() const {
  std::string out = "$";
  for (const PathStep& step : path_) {
    if (step.index >= 0) {
      out += "[" + std::to_string(step.index) + "]";
      continue;
    }
    bool plain = !step.name.empty() && !IsDigit(step.name.front());
    for (char c : step.name) {
      plain = plain && (IsDigit(c) || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
    }
    out += plain ? "." + std::string(step.name) : ".\"" + Excerpt(step.name) + "\"";
  }
  return out;
}

Status JsonShredder::SyntaxError(const std::string& what) const { return json_.Error(what); }

Status JsonShredder::ValueError(const std::string& what) const {
  return Status::InvalidArgument(Where() + ": " + what);
}

Status JsonShredder::Mismatch(const std::string& expected, std::string_view found) const {
  return ValueError("expected " + expected + ", found " + Excerpt(found));
}

Status JsonShredder::MismatchHere(const std::string& expected) {
  const char c = json_.text[json_.pos];
  if (c == '[' || c == '{') {
    return ValueError("expected " + expected + ", found " + (c == '[' ? "an array" : "an object"));
  }
  Scalar v;
  PQ_RETURN_IF_ERROR(ReadScalar(&v));
  return Mismatch(expected, v.raw);
}

std::string JsonShredder::Expected(const Node& node) {
  switch (node.kind) {
    case Node::Kind::kList:
      return "a list (a JSON array)";
    case Node::Kind::kMap:
      return "a map (a JSON object)";
    case Node::Kind::kStruct:
      return "a struct (a JSON object)";
    case Node::Kind::kLeaf:
      break;
  }
  switch (node.leaf_kind) {
    case LeafKind::kBoolean:
      return "true or false";
    case LeafKind::kInteger:
      return "an integer";
    case LeafKind::kFloat:
    case LeafKind::kDouble:
      return "a number";
    case LeafKind::kString:
      return "a string";
    case LeafKind::kJson:
      return "a JSON value";
    case LeafKind::kBytes:
      return "a base64 string";
    case LeafKind::kDate:
      return "a date string 'YYYY-MM-DD'";
    case LeafKind::kTime:
      return "a time string 'HH:MM:SS[.fraction]' with at most " +
             std::to_string(FractionDigits(node.unit)) + " fraction digits";
    case LeafKind::kTimestamp:
      return std::string("a timestamp string 'YYYY-MM-DD HH:MM:SS[.fraction]'") +
             (node.local_timestamp ? " without a time zone," : "") + " with at most " +
             std::to_string(FractionDigits(node.unit)) + " fraction digits, or an integer";
    case LeafKind::kDecimal:
      return "a number for DECIMAL(" + std::to_string(node.precision) + "," +
             std::to_string(node.scale) + ")";
    case LeafKind::kUuid:
      return "a UUID string 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'";
    case LeafKind::kUnknown:
      return "null (an UNKNOWN column holds only nulls)";
  }
  return "a value";
}

}  // namespace pq
