#include "format/record/json_assembler.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <utility>

#include "format/util/json_writer.h"

namespace pq {

namespace {

// Collects, by leaf number and by shape id, what the assembler looks up on the hot path.
void IndexShape(const NestedShape& s, std::vector<const NestedShape*>* leaves,
                std::vector<std::string>* member_prefix) {
  if (s.kind == NestedShape::Kind::kLeaf) {
    (*leaves)[s.first_leaf] = &s;
    return;
  }
  for (const NestedShape& c : s.children) {
    if (s.kind == NestedShape::Kind::kStruct) {
      std::string& prefix = (*member_prefix)[c.id];
      AppendJsonString(c.node->name, &prefix);
      prefix.push_back(':');
    }
    IndexShape(c, leaves, member_prefix);
  }
}

int CountShapes(const NestedShape& s) {
  int n = 1;
  for (const NestedShape& c : s.children) n += CountShapes(c);
  return n;
}

}  // namespace

NestedJsonAssembler::NestedJsonAssembler(NestedShape shape) : shape_(std::move(shape)) {
  leaf_shapes_.assign(shape_.num_leaves, nullptr);
  member_prefix_.assign(CountShapes(shape_), std::string());
  IndexShape(shape_, &leaf_shapes_, &member_prefix_);
  // One walk of the shape without values writes at most every member name, a "null" and some
  // brackets and commas per node, plus the batches of integers WriteIntegerElements flushes.
  skeleton_bytes_ = 1024;
  for (const std::string& prefix : member_prefix_) skeleton_bytes_ += prefix.size() + 8;
  cursors_.resize(shape_.num_leaves);
  // By leaf, open_def_[r]: the definition level at which the leaf's repeated field with repetition
  // level r holds an element (DropEntriesOfClosedLists).
  open_def_.resize(leaf_shapes_.size());
  for (size_t i = 0; i < leaf_shapes_.size(); ++i) {
    const NestedShape& leaf = *leaf_shapes_[i];
    std::vector<int16_t>& open = open_def_[i];
    open.assign(static_cast<size_t>(std::max<int16_t>(leaf.rep_level, 0)) + 1, 0);
    for (const SchemaNode* n = leaf.node; n != nullptr; n = n->parent) {
      if (n->is_repeated() && n->max_repetition_level >= 1 && n->max_repetition_level <= leaf.rep_level) {
        open[static_cast<size_t>(n->max_repetition_level)] = n->max_definition_level;
      }
    }
  }
}

Result<std::unique_ptr<NestedJsonAssembler>> NestedJsonAssembler::Make(
    const Schema& schema, const SchemaNode& field, std::shared_ptr<MemoryBudget> budget,
    bool variant_as_binary) {
  if (field.parent != &schema.root()) {
    return Status::InvalidArgument("'" + field.name + "' is not a top-level field of the schema");
  }
  PQ_ASSIGN_OR_RETURN(NestedShape shape, BuildNestedShape(field));
  if (shape.num_leaves != schema.LeafRange(field).second) {
    return Status::Corruption(
        "field '" + field.name + "' has " + std::to_string(schema.LeafRange(field).second) +
        " leaves in the schema but its shape reads " + std::to_string(shape.num_leaves));
  }
  std::unique_ptr<NestedJsonAssembler> assembler(new NestedJsonAssembler(std::move(shape)));
  PQ_RETURN_IF_ERROR(assembler->IndexVariants(assembler->shape_, false));
  assembler->budget_ = std::move(budget);
  assembler->variant_as_binary_ =
      variant_as_binary && assembler->shape_.kind == NestedShape::Kind::kVariant;
  return assembler;
}

Status NestedJsonAssembler::IndexVariants(const NestedShape& s, bool in_variant) {
  if (s.kind == NestedShape::Kind::kVariant) in_variant = true;
  if (!in_variant) {
    for (const NestedShape& c : s.children) PQ_RETURN_IF_ERROR(IndexVariants(c, false));
    return Status::OK();
  }
  if (variant_leaf_.empty()) {
    variant_leaf_.assign(shape_.num_leaves, 0);
    typed_leaf_type_.assign(shape_.num_leaves, std::nullopt);
    fields_by_name_.assign(member_prefix_.size(), {});
  }
  for (int i = s.first_leaf; i < s.first_leaf + s.num_leaves; ++i) variant_leaf_[i] = 1;
  if (s.kind == NestedShape::Kind::kVariant || s.kind == NestedShape::Kind::kShredded) {
    if (s.typed_child >= 0 && s.children[s.typed_child].kind == NestedShape::Kind::kLeaf) {
      const NestedShape& leaf = s.children[s.typed_child];
      PQ_ASSIGN_OR_RETURN(ShreddedLeafType type, ShreddedLeafType::Of(*leaf.node));
      typed_leaf_type_[leaf.first_leaf] = type;
    }
  } else if (s.kind == NestedShape::Kind::kStruct) {
    std::vector<int>& order = fields_by_name_[s.id];
    for (size_t i = 0; i < s.children.size(); ++i) order.push_back(static_cast<int>(i));
    std::sort(order.begin(), order.end(),
              [&s](int a, int b) { return s.children[a].node->name < s.children[b].node->name; });
  }
  for (const NestedShape& c : s.children) PQ_RETURN_IF_ERROR(IndexVariants(c, true));
  return Status::OK();
}

namespace {

// ValidateLevels' pass over the levels of a repeated leaf: the highest definition and repetition
// levels (as unsigned; exact when one is above its maximum, else possibly lower), whether an entry
// continues a list that the entry before left closed (both defined below open_def[r], r >= 1:
// DropEntriesOfClosedLists), and how many entries are at max_def, the count of values. open_def
// has max_rep + 1 entries; a level above max_rep is looked up as max_rep (such levels are rejected
// by the caller, whatever this says about them).
int64_t SummarizeLevels(const int16_t* def, const int16_t* rep, int64_t n, int16_t max_def, int16_t max_rep,
                        const std::vector<int16_t>& open_def, uint16_t* highest_def, uint16_t* highest_rep,
                        bool* closed_list) {
  uint16_t hd = 0, hr = 0;
  int64_t at_max = 0;
  bool closed = false;
  if (max_rep == 1 && n > 0) {
    // One repeated field (a list of values): every r >= 1 looks up open_def[1], so the loop has no
    // lookup, and with signed 16-bit compares only (no unsigned maximum) it runs many entries an
    // instruction. The highest levels are looked for only when some level is out of range.
    const int16_t open = open_def[1];
    uint16_t outside = (def[0] < 0) | (def[0] > max_def) | (rep[0] < 0) | (rep[0] > 1);
    at_max = def[0] == max_def;
    uint16_t closed_any = 0;  // the first entry continues nothing
    auto entry = [&](int64_t j, uint16_t* count) {
      const int16_t d = def[j];
      const int16_t r = rep[j];
      outside |= static_cast<uint16_t>((d < 0) | (d > max_def) | (r < 0) | (r > 1));
      *count += static_cast<uint16_t>(d == max_def);
      closed_any |= static_cast<uint16_t>((r != 0) & (d < open) & (def[j - 1] < open));
    };
    // Blocks of a fixed count (which the compiler runs a vector at a time with no remainder) and
    // the last few one by one.
    constexpr int64_t kBlock = 64;
    int64_t j = 1;
    for (; j + kBlock <= n; j += kBlock) {
      uint16_t count = 0;
      for (int64_t k = 0; k < kBlock; ++k) entry(j + k, &count);
      at_max += count;
    }
    uint16_t count = 0;
    for (; j < n; ++j) entry(j, &count);
    at_max += count;
    closed = closed_any != 0;
    if (outside) {
      for (int64_t e = 0; e < n; ++e) {
        hd = std::max(hd, static_cast<uint16_t>(def[e]));
        hr = std::max(hr, static_cast<uint16_t>(rep[e]));
      }
    }
  } else {
    const auto top = static_cast<uint16_t>(std::max<int16_t>(max_rep, 0));
    // The entry before's definition level; the first entry continues nothing.
    int16_t before = std::numeric_limits<int16_t>::max();
    for (int64_t j = 0; j < n; ++j) {
      const int16_t d = def[j];
      const auto r = static_cast<uint16_t>(rep[j]);
      hd = std::max(hd, static_cast<uint16_t>(d));
      hr = std::max(hr, r);
      at_max += d == max_def;
      const int16_t open = open_def[std::min(r, top)];
      closed |= (r != 0) & (d < open) & (before < open);
      before = d;
    }
  }
  *highest_def = hd;
  *highest_rep = hr;
  *closed_list = closed;
  return at_max;
}

}  // namespace

Status NestedJsonAssembler::ValidateLevels(std::span<const LeafLevels> leaves) {
  for (size_t i = 0; i < leaves.size(); ++i) {
    const LeafLevels& in = leaves[i];
    const NestedShape& leaf = *leaf_shapes_[i];
    const std::string where = "column '" + leaf.node->DottedPath() + "': ";
    if (in.num_levels < 0) return Status::InvalidArgument(where + "negative level count");
    const int64_t n = in.num_levels;
    int64_t num_values = leaf.def_level == 0 ? n : 0;
    // One pass over the levels: the highest of each (casting to unsigned folds negative levels
    // into "above the maximum"), the values they define, and whether an entry continues a closed
    // list (DropEntriesOfClosedLists; only meaningful once the levels are within their maxima).
    uint16_t highest_def = 0;
    uint16_t highest_rep = 0;
    bool closed_list = false;
    if (in.def_levels != nullptr && in.rep_levels != nullptr) {
      num_values = SummarizeLevels(in.def_levels, in.rep_levels, n, leaf.def_level, leaf.rep_level,
                                   open_def_[i], &highest_def, &highest_rep, &closed_list);
    } else if (in.def_levels != nullptr) {
      int64_t at_max = 0;
      for (int64_t j = 0; j < n; ++j) {
        const auto d = static_cast<uint16_t>(in.def_levels[j]);
        highest_def = std::max(highest_def, d);
        at_max += d == static_cast<uint16_t>(leaf.def_level);
      }
      num_values = at_max;
    } else if (in.rep_levels != nullptr) {
      for (int64_t j = 0; j < n; ++j) highest_rep = std::max(highest_rep, static_cast<uint16_t>(in.rep_levels[j]));
    }
    if (highest_def > static_cast<uint16_t>(leaf.def_level)) {
      return Status::Corruption(where + "definition level " + std::to_string(static_cast<int16_t>(highest_def)) +
                                " is outside [0, " + std::to_string(leaf.def_level) + "]");
    }
    if (highest_rep > static_cast<uint16_t>(leaf.rep_level)) {
      return Status::Corruption(where + "repetition level " + std::to_string(static_cast<int16_t>(highest_rep)) +
                                " is outside [0, " + std::to_string(leaf.rep_level) + "]");
    }
    if (in.num_values >= 0 && in.num_values != num_values) {
      return Status::Corruption(where + std::to_string(num_values) +
                                " values defined by the levels, " + std::to_string(in.num_values) +
                                " decoded");
    }
    const bool as_bytes = !variant_leaf_.empty() && variant_leaf_[i];
    const bool integers = in.int32_values != nullptr || in.int64_values != nullptr;
    if (num_values > 0 && (as_bytes ? !in.value_bytes : !in.append_value_json && !integers)) {
      return Status::InvalidArgument(where + "values present but no way to " +
                                     (as_bytes ? "read their bytes" : "render them"));
    }
    cursors_[i] = LeafCursor{in.def_levels, in.rep_levels, 0, n, 0, &in.append_value_json, &in.value_bytes,
                             as_bytes ? nullptr : in.int32_values, as_bytes ? nullptr : in.int64_values};
    if (closed_list) {
      Status dropped = DropEntriesOfClosedLists(static_cast<int>(i));
      if (!dropped.ok()) return std::move(dropped).WithContext(where);
    }
  }
  return Status::OK();
}

Status NestedJsonAssembler::DropEntriesOfClosedLists(int i) {
  // The levels were checked to be within the leaf's maxima, so rep[j] indexes open_def.
  const std::vector<int16_t>& open_def = open_def_[static_cast<size_t>(i)];
  LeafCursor& c = cursors_[static_cast<size_t>(i)];
  // Entry j continues list rep[j], which the entry before it left without an element (null or
  // empty), and holds no element of it either.
  auto closed = [&](int64_t j) {
    if (j == 0 || c.rep[j] == 0) return false;
    const int16_t open = open_def[static_cast<size_t>(c.rep[j])];
    return c.def[j] < open && c.def[j - 1] < open;
  };
  int64_t first = 0;
  while (first < c.end && !closed(first)) ++first;
  if (first == c.end) return Status::OK();  // the usual case: nothing to drop
  if (kept_def_.size() < cursors_.size()) {
    kept_def_.resize(cursors_.size());
    kept_rep_.resize(cursors_.size());
  }
  std::vector<int16_t>& def = kept_def_[static_cast<size_t>(i)];
  std::vector<int16_t>& rep = kept_rep_[static_cast<size_t>(i)];
  int64_t kept_bytes = 0;
  for (size_t k = 0; k < kept_def_.size(); ++k) {
    kept_bytes += static_cast<int64_t>((kept_def_[k].capacity() + kept_rep_[k].capacity()) * sizeof(int16_t));
  }
  kept_bytes += 2 * c.end * static_cast<int64_t>(sizeof(int16_t));
  PQ_RETURN_IF_ERROR(kept_charge_.Set(budget_, kept_bytes, "copied levels"));
  def.assign(c.def, c.def + first);
  rep.assign(c.rep, c.rep + first);
  for (int64_t j = first; j < c.end; ++j) {
    if (closed(j)) continue;
    def.push_back(c.def[j]);
    rep.push_back(c.rep[j]);
  }
  c.def = def.data();
  c.rep = rep.data();
  c.end = static_cast<int64_t>(def.size());
  return Status::OK();
}

Status NestedJsonAssembler::Assemble(std::span<const LeafLevels> leaves, int64_t num_records,
                                     JsonColumn* out) {
  if (static_cast<int64_t>(leaves.size()) != shape_.num_leaves) {
    return Status::InvalidArgument("field '" + shape_.node->name + "' has " +
                                   std::to_string(shape_.num_leaves) + " leaves, got levels for " +
                                   std::to_string(leaves.size()));
  }
  if (num_records < 0) return Status::InvalidArgument("negative record count");
  if (out->offsets.size() != out->is_null.size() + 1) {
    return Status::InvalidArgument("JsonColumn offsets do not match its size");
  }
  PQ_RETURN_IF_ERROR(ValidateLevels(leaves));

  arena_charge_ = &out->charge;
  arena_limit_ = budget_ ? static_cast<size_t>(std::max<int64_t>(out->charge.bytes(), 0))
                         : std::numeric_limits<uint32_t>::max();
  failed_record_ = -1;
  headroom_ = 0;
  if (budget_) {
    headroom_ = skeleton_bytes_;
    for (const LeafLevels& l : leaves) {
      headroom_ = std::max(headroom_, skeleton_bytes_ + static_cast<size_t>(std::max<int64_t>(l.max_value_json, 0)));
    }
  }
  record_start_ = out->arena.size();
  UpdateCheck();
  const size_t arena_before = out->arena.size();
  const size_t size_before = out->is_null.size();
  const uint32_t terminator = variant_as_binary_ ? 0 : 1;
  if (size_before > 0 && out->terminator != terminator) {
    return Status::InvalidArgument("JsonColumn holds records of another form");
  }
  out->terminator = terminator;
  out->offsets.reserve(size_before + 1 + static_cast<size_t>(num_records));
  out->is_null.reserve(size_before + static_cast<size_t>(num_records));
  auto fail = [&](Status s) {
    out->arena.resize(arena_before);
    out->offsets.resize(size_before + 1);
    out->is_null.resize(size_before);
    return s;
  };

  const int n = shape_.num_leaves;
  num_records_ = num_records;
  const LeafCursor& first = cursors_[shape_.first_leaf];
  const bool integer_list = shape_.kind == NestedShape::Kind::kList && n == 1 &&
                            shape_.element().kind == NestedShape::Kind::kLeaf &&
                            (first.int64_values != nullptr || first.int32_values != nullptr);
  record_ = 0;
  // Room for the first value, as every check after a value keeps room for the next.
  if (!ArenaFits(&out->arena)) return fail(std::move(error_));
  if (integer_list) {
    if (!WriteIntegerLists(num_records, out)) return fail(std::move(error_));
    record_ = num_records;
  }
  for (; record_ < num_records; ++record_) {
    for (int i = 0; i < n; ++i) {
      const LeafCursor& c = cursors_[i];
      if (c.pos >= c.end) {
        RanOut(i);
        return fail(std::move(error_));
      }
      if (c.rep != nullptr && c.rep[c.pos] != 0) {
        Fail(i, "the record starts with repetition level " + std::to_string(c.rep[c.pos]));
        return fail(std::move(error_));
      }
    }
    // The top-level field's parent (the root) is always present, at definition level 0.
    const bool null_record = cursors_[shape_.first_leaf].Def() < shape_.def_level;
    record_start_ = out->arena.size();
    UpdateCheck();
    const bool ok =
        null_record ? SkipEntry(shape_, 0, shape_.def_level) : WriteValue(shape_, 0, &out->arena);
    if (!ok) return fail(std::move(error_));
    if (max_record_ > 0 && out->arena.size() - record_start_ > max_record_) {
      Fail(shape_.first_leaf, RecordTooLong());
      return fail(std::move(error_));
    }
    if (terminator != 0) out->arena.push_back('\0');
    if (!ArenaFits(&out->arena)) return fail(std::move(error_));
    out->offsets.push_back(static_cast<uint32_t>(out->arena.size()));
    out->is_null.push_back(null_record ? 1 : 0);
  }
  for (int i = 0; i < n; ++i) {
    if (cursors_[i].pos != cursors_[i].end) {
      return fail(Status::Corruption("column '" + leaf_shapes_[i]->node->DottedPath() +
                                     "': " + std::to_string(cursors_[i].end - cursors_[i].pos) +
                                     " level entries left after " + std::to_string(num_records) +
                                     " records"));
    }
  }
  return Status::OK();
}

bool NestedJsonAssembler::WriteValue(const NestedShape& s, int16_t parent_def, std::string* out) {
  LeafCursor& c = cursors_[s.first_leaf];
  if (c.pos >= c.end) return RanOut(s.first_leaf);
  const int16_t d = c.Def();
  if (d < parent_def) return EnclosingNull(s.first_leaf, d);
  if (d < s.def_level) {  // only for a nullable value: def_level == parent_def + 1
    out->append("null", 4);
    return SkipEntry(s, parent_def, s.def_level);
  }
  switch (s.kind) {
    case NestedShape::Kind::kLeaf:
      c.AppendValue(out);
      ++c.pos;
      return ArenaFits(out);
    case NestedShape::Kind::kStruct: {
      out->push_back('{');
      bool first = true;
      for (const NestedShape& member : s.children) {
        if (!first) out->push_back(',');
        first = false;
        out->append(member_prefix_[member.id]);
        if (!WriteValue(member, s.def_level, out)) return false;
      }
      out->push_back('}');
      return true;
    }
    case NestedShape::Kind::kList:
    case NestedShape::Kind::kMap: {
      const bool is_list = s.kind == NestedShape::Kind::kList;
      if (d < s.element_def_level) {
        out->append(is_list ? "[]" : "{}");
        return SkipEntry(s, s.def_level, s.element_def_level);
      }
      out->push_back(is_list ? '[' : '{');
      if (is_list && s.element().kind == NestedShape::Kind::kLeaf) {
        if (!WriteLeafElements(s, out)) return false;
        out->push_back(']');
        return true;
      }
      for (bool first = true;; first = false) {
        if (!first) out->push_back(',');
        const bool ok =
            is_list ? WriteValue(s.element(), s.element_def_level, out) : WriteMapEntry(s, out);
        if (!ok || !ArenaFits(out)) return false;
        int16_t rep;
        if (!NextRepetition(s, &rep)) return false;
        if (rep < s.rep_level) break;
        if (rep > s.rep_level) return NotOpen(s.first_leaf, rep);
      }
      out->push_back(is_list ? ']' : '}');
      return true;
    }
    case NestedShape::Kind::kVariant:
      return variant_as_binary_ && &s == &shape_ ? WriteVariantAsBinary(s, out)
                                                 : WriteVariant(s, out);
    case NestedShape::Kind::kShredded:
      break;  // only inside a VARIANT, written by WriteShredded
  }
  return Fail(s.first_leaf, "unknown shape");
}

// Where the walk of a Variant writes (the Sink of WriteShredded and the functions below): JSON
// text, or the Variant rebuilt in binary form. Both take the same calls in the same order; the
// JSON sink writes separators and member names, the binary one keeps field names and values.
class NestedJsonAssembler::JsonSink {
 public:
  JsonSink(NestedJsonAssembler* owner, std::string* out) : owner_(owner), out_(out) {}
  void BeginArray() { out_->push_back('['); }
  Status EndArray() {
    out_->push_back(']');
    return Status::OK();
  }
  void BeginObject() { out_->push_back('{'); }
  Status EndObject() {
    out_->push_back('}');
    return Status::OK();
  }
  void Separator() { out_->push_back(','); }
  // `json_prefix`: the member name already as "\"name\":", or null.
  Status Key(std::string_view name, const std::string* json_prefix) {
    if (json_prefix != nullptr) {
      out_->append(*json_prefix);  // within the headroom: member names are counted in it
    } else {
      PQ_RETURN_IF_ERROR(owner_->Room(out_, 6 * name.size() + 3));  // a name of the Variant's metadata
      AppendJsonString(name, out_);
      out_->push_back(':');
    }
    return Status::OK();
  }
  void Null() { out_->append("null", 4); }
  // Where a member starts, and taking it back (a field that turned out to be missing).
  size_t Mark() const { return out_->size(); }
  void Unwind(size_t mark) { out_->resize(mark); }
  Status Typed(const ShreddedLeafType& type, ByteSpan raw) {
    // Escaped text of a string is at most 6 bytes a byte; other values are a few dozen bytes.
    PQ_RETURN_IF_ERROR(owner_->Room(out_, 6 * raw.size() + 64));
    return type.AppendJson(raw, out_);
  }
  // A Variant value's text may be far longer than its bytes: the decoder stops at the arena's
  // limit (OutOfMemory, *out_ unchanged) and, with more of the budget granted, writes it again.
  // The decoder checks its limit between elements, so it may pass it by one element's text: at most
  // 6 bytes a byte of the value or of a name of the metadata, which the arena keeps room for too.
  Status Binary(const VariantMetadata& metadata, ByteSpan value) {
    const size_t overshoot = 6 * (value.size() + metadata.size()) + 64;
    while (true) {
      PQ_RETURN_IF_ERROR(owner_->Room(out_, overshoot));
      const size_t arena_end = owner_->arena_limit_ - owner_->headroom_ - overshoot;
      const size_t record_end = owner_->max_record_ > 0 ? owner_->record_start_ + owner_->max_record_ : SIZE_MAX;
      owner_->variant_decoder_.set_output_limit(std::min(arena_end, record_end));
      Status s = owner_->variant_decoder_.AppendJson(metadata, value, out_);
      if (s.code() != StatusCode::kOutOfMemory) return s;
      if (record_end <= arena_end) return owner_->RecordTooLong();
      PQ_RETURN_IF_ERROR(owner_->ReserveArena(out_, owner_->arena_limit_ + 1));
    }
  }
  // After an element: the arena within what the budget granted, with room for the next.
  Status Fits() {
    if (out_->size() <= owner_->check_at_) return Status::OK();
    return owner_->Room(out_, 0);
  }

 private:
  NestedJsonAssembler* owner_;
  std::string* out_;
};

class NestedJsonAssembler::BinarySink {
 public:
  explicit BinarySink(VariantEncoder* encoder) : encoder_(encoder) {}
  void BeginArray() { encoder_->BeginArray(); }
  Status EndArray() { return encoder_->EndArray(); }
  void BeginObject() { encoder_->BeginObject(); }
  Status EndObject() { return encoder_->EndObject(); }
  void Separator() {}
  Status Key(std::string_view name, const std::string*) { return encoder_->Key(name); }
  void Null() { encoder_->AddNull(); }
  size_t Mark() const { return 0; }
  void Unwind(size_t) { encoder_->CancelKey(); }
  Status Typed(const ShreddedLeafType& type, ByteSpan raw) {
    return type.AddToVariant(raw, encoder_);
  }
  Status Binary(const VariantMetadata& metadata, ByteSpan value) {
    return encoder_->AddVariant(metadata, value);
  }
  Status Fits() { return Status::OK(); }

 private:
  VariantEncoder* encoder_;
};

bool NestedJsonAssembler::ReadVariantMetadata(const NestedShape& s) {
  const NestedShape& metadata = s.children[s.metadata_child];
  LeafCursor& c = cursors_[metadata.first_leaf];
  if (c.pos >= c.end) return RanOut(metadata.first_leaf);
  const int16_t d = c.Def();
  if (d < s.def_level) return EnclosingNull(metadata.first_leaf, d);
  if (d < metadata.def_level) return Fail(metadata.first_leaf, "variant metadata is null");
  const ByteSpan bytes = (*c.bytes)(c.next_value++);
  ++c.pos;
  Result<VariantMetadata> parsed = VariantMetadata::Parse(bytes);
  if (!parsed.ok()) return Fail(metadata.first_leaf, parsed.status());
  variant_metadata_ = *parsed;
  return true;
}

bool NestedJsonAssembler::WriteVariant(const NestedShape& s, std::string* out) {
  if (!ReadVariantMetadata(s)) return false;
  JsonSink sink(this, out);
  bool missing = false;
  if (!WriteShredded(s, s.def_level, sink, &missing)) return false;
  // "If a Variant is missing in a context where a value is required, readers must return a
  // Variant null".
  if (missing) sink.Null();
  return true;
}

bool NestedJsonAssembler::WriteVariantAsBinary(const NestedShape& s, std::string* out) {
  if (!ReadVariantMetadata(s)) return false;
  variant_encoder_.Reset();
  BinarySink sink(&variant_encoder_);
  bool missing = false;
  if (!WriteShredded(s, s.def_level, sink, &missing)) return false;
  if (missing) sink.Null();
  std::string_view metadata, value;
  Status st = variant_encoder_.Finish(&metadata, &value);
  if (st.ok()) st = Room(out, metadata.size() + value.size());
  if (!st.ok()) return Fail(s.first_leaf, st);
  out->append(metadata);
  out->append(value);
  return ArenaFits(out);
}

template <typename Sink>
bool NestedJsonAssembler::WriteShredded(const NestedShape& p, int16_t parent_def, Sink& sink,
                                        bool* missing) {
  *missing = false;
  if (p.nullable && p.kind == NestedShape::Kind::kShredded) {
    // An optional object field or element group (the spec makes them required); a null VARIANT
    // group never gets here (WriteValue).
    const LeafCursor& c = cursors_[p.first_leaf];
    if (c.pos >= c.end) return RanOut(p.first_leaf);
    const int16_t d = c.Def();
    if (d < parent_def) return EnclosingNull(p.first_leaf, d);
    if (d < p.def_level) {
      *missing = true;
      return SkipEntry(p, parent_def, p.def_level);
    }
  }
  ByteSpan value;
  bool has_value = false;
  if (p.value_child >= 0) {
    const NestedShape& leaf = p.children[p.value_child];
    LeafCursor& c = cursors_[leaf.first_leaf];
    if (c.pos >= c.end) return RanOut(leaf.first_leaf);
    const int16_t d = c.Def();
    if (d < p.def_level) return EnclosingNull(leaf.first_leaf, d);
    if (d >= leaf.def_level) {
      value = (*c.bytes)(c.next_value++);
      has_value = true;
    }
    ++c.pos;
  }
  auto binary = [&]() {
    Status s = sink.Binary(variant_metadata_, value);
    return s.ok() || Fail(p.children[p.value_child].first_leaf, s);
  };
  if (p.typed_child < 0) {
    if (!has_value) {
      *missing = true;
      return true;
    }
    return binary();
  }
  const NestedShape& typed = p.children[p.typed_child];
  LeafCursor& c = cursors_[typed.first_leaf];
  if (c.pos >= c.end) return RanOut(typed.first_leaf);
  const int16_t d = c.Def();
  if (d < p.def_level) return EnclosingNull(typed.first_leaf, d);
  if (d < typed.def_level) {  // typed_value is null: the value (if any) says it all
    if (!SkipEntry(typed, p.def_level, typed.def_level)) return false;
    if (!has_value) {
      *missing = true;
      return true;
    }
    return binary();
  }
  switch (typed.kind) {
    case NestedShape::Kind::kLeaf: {
      if (has_value) {
        return Fail(typed.first_leaf, "invalid variant: conflicting value and typed_value");
      }
      Status s = sink.Typed(*typed_leaf_type_[typed.first_leaf], (*c.bytes)(c.next_value++));
      ++c.pos;
      return s.ok() || Fail(typed.first_leaf, s);
    }
    case NestedShape::Kind::kList:
      if (has_value) {
        return Fail(typed.first_leaf, "invalid variant: conflicting value and typed_value");
      }
      return WriteShreddedArray(typed, sink);
    case NestedShape::Kind::kStruct:
      return WriteShreddedObject(typed, has_value ? &value : nullptr, sink);
    default:
      return Fail(typed.first_leaf, "unknown shape of typed_value");
  }
}

template <typename Sink>
bool NestedJsonAssembler::WriteShreddedArray(const NestedShape& list, Sink& sink) {
  sink.BeginArray();
  if (cursors_[list.first_leaf].Def() < list.element_def_level) {
    Status s = sink.EndArray();
    if (!s.ok()) return Fail(list.first_leaf, s);
    return SkipEntry(list, list.def_level, list.element_def_level);
  }
  for (bool first = true;; first = false) {
    if (!first) sink.Separator();
    bool missing = false;
    if (!WriteShredded(list.element(), list.element_def_level, sink, &missing)) return false;
    if (missing) sink.Null();  // an array element cannot be missing: Variant null
    if (Status fits = sink.Fits(); !fits.ok()) return Fail(list.first_leaf, fits);
    int16_t rep;
    if (!NextRepetition(list, &rep)) return false;
    if (rep < list.rep_level) break;
    if (rep > list.rep_level) return NotOpen(list.first_leaf, rep);
  }
  Status s = sink.EndArray();
  return s.ok() || Fail(list.first_leaf, s);
}

template <typename Sink>
bool NestedJsonAssembler::WriteShreddedObject(const NestedShape& object, const ByteSpan* residual,
                                              Sink& sink) {
  // The fields of `value` go on a stack shared with nested shredded objects: indexes, not
  // pointers, since nested calls may grow it.
  const size_t base = residual_.size();
  auto fail = [&](bool ok) {
    residual_.resize(base);
    return ok;
  };
  if (residual != nullptr) {
    if (residual->empty() || VariantBasicTypeOf(*residual) != VariantBasicType::kObject) {
      return Fail(object.first_leaf, "invalid variant: non-object value with shredded fields");
    }
    Status s = variant_decoder_.ReadObjectFields(variant_metadata_, *residual, &residual_);
    if (!s.ok()) return fail(Fail(object.first_leaf, s));
    // Stored sorted by name (the spec requires it); sorted here when a writer did not.
    auto by_name = [](const VariantField& a, const VariantField& b) { return a.name < b.name; };
    const auto begin = residual_.begin() + static_cast<ptrdiff_t>(base);
    if (!std::is_sorted(begin, residual_.end(), by_name)) {
      std::sort(begin, residual_.end(), by_name);
    }
  }
  sink.BeginObject();
  size_t next = base;  // next field of `value` to write, in name order
  bool first = true;
  auto write_residual = [&]() {
    if (!first) sink.Separator();
    first = false;
    const VariantField field = residual_[next++];
    Status s = sink.Key(field.name, nullptr);
    if (s.ok()) s = sink.Binary(variant_metadata_, field.value);
    return s.ok() || Fail(object.first_leaf, s);
  };
  for (int index : fields_by_name_[object.id]) {
    const NestedShape& field = object.children[static_cast<size_t>(index)];
    const std::string& name = field.node->name;
    while (next < residual_.size() && residual_[next].name < name) {
      if (!write_residual()) return fail(false);
    }
    if (next < residual_.size() && residual_[next].name == name) {
      // "object keys must be disjoint", whether or not the shredded field is missing here.
      return fail(Fail(field.first_leaf,
                       "invalid variant: field '" + name + "' is both shredded and in value"));
    }
    const size_t mark = sink.Mark();
    if (!first) sink.Separator();
    Status s = sink.Key(name, &member_prefix_[field.id]);
    if (!s.ok()) return fail(Fail(field.first_leaf, s));
    bool missing = false;
    if (!WriteShredded(field, object.def_level, sink, &missing)) return fail(false);
    if (missing) {
      sink.Unwind(mark);  // a missing field is left out
    } else {
      first = false;
    }
  }
  while (next < residual_.size()) {
    if (!write_residual()) return fail(false);
  }
  residual_.resize(base);
  Status s = sink.EndObject();
  return s.ok() || Fail(object.first_leaf, s);
}

Status NestedJsonAssembler::ReserveArena(std::string* out, size_t need) {
  constexpr size_t kMaxArena = std::numeric_limits<uint32_t>::max();  // offsets are 32-bit
  if (need > kMaxArena || (!budget_ && need > arena_limit_)) {
    return Status::OutOfMemory("assembled JSON passes " + std::to_string(std::min(arena_limit_, kMaxArena)) +
                               " bytes in one batch");
  }
  if (!budget_) return Status::OK();
  // Geometric growth (a record may be the whole batch, copied at each step): doubling with 1 MiB
  // to spare, else doubling, else by a half or a quarter when that is what the budget has left.
  // While the arena moves, its old buffer and the new one are both live: the charge holds both.
  const size_t held = arena_limit_;
  const size_t candidates[] = {std::max(2 * held, need + (size_t{1} << 20)), std::max(2 * held, need),
                               std::max(held + held / 2, need), std::max(held + held / 4, need)};
  Status s;
  size_t grown = 0;
  for (size_t c : candidates) {
    grown = std::min(kMaxArena, c);
    s = arena_charge_->Set(budget_, static_cast<int64_t>(held + grown), "assembled JSON");
    if (s.ok()) break;
  }
  PQ_RETURN_IF_ERROR(s);
  // A new string reserved from empty gets exactly `grown` (reserve() on the old one would round a
  // growth of less than double up to double, past the charge).
  {
    std::string moved;
    moved.reserve(grown);
    moved.append(*out);
    out->swap(moved);
  }
  (void)arena_charge_->Set(budget_, static_cast<int64_t>(grown), "assembled JSON");  // lowering it never fails
  arena_limit_ = grown;
  UpdateCheck();
  return Status::OK();
}

Status NestedJsonAssembler::RecordTooLong() const {
  return Status::InvalidArgument("the value is longer than SQLite's limit of " + std::to_string(max_record_) +
                                 " bytes (SQLITE_LIMIT_LENGTH)");
}

void NestedJsonAssembler::UpdateCheck() {
  check_at_ = arena_limit_ > headroom_ ? arena_limit_ - headroom_ : 0;
  if (max_record_ > 0) check_at_ = std::min(check_at_, record_start_ + max_record_);
}

Status NestedJsonAssembler::Room(std::string* out, size_t n) {
  if (max_record_ > 0 && out->size() - record_start_ > max_record_) return RecordTooLong();
  const size_t need = out->size() + n + headroom_;
  if (need > arena_limit_) return ReserveArena(out, need);
  return Status::OK();
}

bool NestedJsonAssembler::Checkpoint(std::string* out) {
  Status s = Room(out, 0);
  return s.ok() || Fail(shape_.first_leaf, s);
}

bool NestedJsonAssembler::GrowArena(std::string* out, size_t need) {
  Status s = ReserveArena(out, need);
  return s.ok() || Fail(shape_.first_leaf, s);
}

// The common list of primitives, without the generic walk: one level entry per element.
bool NestedJsonAssembler::WriteLeafElements(const NestedShape& list, std::string* out) {
  const NestedShape& element = list.element();
  LeafCursor& c = cursors_[element.first_leaf];
  if (c.int64_values != nullptr || c.int32_values != nullptr) return WriteIntegerElements(list, out);
  for (bool first = true;; first = false) {
    if (!first) out->push_back(',');
    // The caller checked the first entry exists; a next one exists because NextRep() read it.
    const int16_t d = c.Def();
    if (d < list.element_def_level) return EnclosingNull(element.first_leaf, d);
    if (d < element.def_level) {
      out->append("null", 4);
    } else {
      c.AppendValue(out);
    }
    ++c.pos;
    if (!ArenaFits(out)) return false;
    // The leaf's levels never exceed its maximum, which is this list's level: rep <=
    // list.rep_level.
    if (c.NextRep() < list.rep_level) return true;
  }
}

bool NestedJsonAssembler::WriteIntegerElements(const NestedShape& list, std::string* out) {
  // WriteLeafElements' walk, the text gathered on the stack and appended a few hundred bytes at a
  // time.
  const NestedShape& element = list.element();
  LeafCursor& c = cursors_[element.first_leaf];
  char buf[512];
  size_t n = 0;
  auto flush = [&]() {
    out->append(buf, n);
    n = 0;
    return ArenaFits(out);
  };
  for (bool first = true;; first = false) {
    if (n > sizeof(buf) - 32 && !flush()) return false;  // room for ",", "null" or a 64-bit integer
    if (!first) buf[n++] = ',';
    const int16_t d = c.Def();
    if (d < list.element_def_level) {
      flush();
      return EnclosingNull(element.first_leaf, d);
    }
    if (d < element.def_level) {
      std::memcpy(buf + n, "null", 4);
      n += 4;
    } else {
      const int64_t k = c.next_value++;
      const int64_t v = c.int64_values != nullptr ? c.int64_values[k] : int64_t{c.int32_values[k]};
      n = static_cast<size_t>(WriteJsonInt(v, buf + n) - buf);
    }
    ++c.pos;
    if (c.NextRep() < list.rep_level) return flush();
  }
}

bool NestedJsonAssembler::WriteIntegerLists(int64_t num_records, JsonColumn* out) {
  // Assemble's record loop and WriteIntegerElements in one: the text written straight into the
  // arena, which is kept kRoom bytes ahead of what is written (and cut back at the end). What the
  // loop reads and advances is held in locals: every byte it stores through a char pointer may, as
  // far as the compiler knows, change any member or vector it reads, which would then be loaded
  // again after each byte.
  const NestedShape& list = shape_;
  const NestedShape& element = list.element();
  const int leaf = element.first_leaf;
  LeafCursor& c = cursors_[leaf];
  std::string& arena = out->arena;
  constexpr size_t kRoom = 4096;
  constexpr size_t kMaxItem = kMaxJsonIntChars + 1;  // ',' and an integer (or "null"), ']' and NUL
  const int16_t* const def = c.def;
  const int16_t* const rep = c.rep;
  const int64_t* const int64_values = c.int64_values;
  const int32_t* const int32_values = c.int32_values;
  const int64_t end = c.end;
  const int16_t list_def = list.def_level;
  const int16_t element_def = list.element_def_level;
  const int16_t value_def = element.def_level;
  const int16_t list_rep = list.rep_level;
  int64_t pos = c.pos;
  int64_t next_value = c.next_value;
  int64_t record = 0;
  size_t used = arena.size();
  char* base = arena.data();
  size_t room = arena.size();  // arena.size(), the room written into
  // The records' offsets and null flags, written in place (Assemble cuts them back on a failure).
  const size_t first_record = out->is_null.size();
  out->offsets.resize(first_record + 1 + static_cast<size_t>(num_records));
  out->is_null.resize(first_record + static_cast<size_t>(num_records));
  uint32_t* const offsets = out->offsets.data() + first_record + 1;
  uint8_t* const is_null = out->is_null.data() + first_record;
  // The helpers take the loop's locals by value, so that none of them has its address taken.
  auto finish = [this, &c, &arena](bool ok, int64_t at, int64_t value, int64_t rec, size_t size) {
    c.pos = at;
    c.next_value = value;
    record_ = rec;
    arena.resize(size);
    return ok;
  };
  // More room in the arena once fewer than kMaxItem bytes are left: its new start and size, or a
  // null start after a failure (error_ set).
  struct Room {
    char* base;
    size_t size;
  };

  auto grow = [this, &arena](size_t size, int64_t rec, size_t start) -> Room {
    record_ = rec;  // for GrowArena's message
    if (max_record_ > 0 && size - start > max_record_) {  // SQLite's limit, checked a few KiB at a time
      Fail(shape_.first_leaf, RecordTooLong());
      return {nullptr, 0};
    }
    if (size + kRoom > arena_limit_ && !GrowArena(&arena, size + kRoom)) return {nullptr, 0};
    arena.resize(size + kRoom);
    return {arena.data(), arena.size()};
  };
  auto def_at = [def](int64_t j) { return def != nullptr ? def[j] : int16_t{0}; };
  for (; record < num_records; ++record) {
    if (pos >= end) {
      finish(false, pos, next_value, record, used);
      return RanOut(leaf);
    }
    if (rep != nullptr && rep[pos] != 0) {
      finish(false, pos, next_value, record, used);
      return Fail(leaf, "the record starts with repetition level " + std::to_string(rep[pos]));
    }
    const size_t record_begin = used;
    if (used + kMaxItem > room) {
      const Room r = grow(used, record, record_begin);
      if (r.base == nullptr) return finish(false, pos, next_value, record, used);
      base = r.base;
      room = r.size;
    }
    const int16_t d = def_at(pos);  // within [0, value_def]: ValidateLevels
    const uint8_t null_record = d < list_def ? 1 : 0;
    if (null_record || d < element_def) {  // SkipEntry's one entry: a null or empty list
      if (!null_record) {
        base[used] = '[';
        base[used + 1] = ']';
        used += 2;
      }
      ++pos;
    } else {
      base[used++] = '[';
      while (true) {
        const int16_t e = def_at(pos);
        if (e < element_def) {
          finish(false, pos, next_value, record, used);
          return EnclosingNull(leaf, e);
        }
        if (e < value_def) {
          std::memcpy(base + used, "null", 4);
          used += 4;
        } else {
          const int64_t k = next_value++;
          const int64_t v = int64_values != nullptr ? int64_values[k] : int64_t{int32_values[k]};
          used = static_cast<size_t>(WriteJsonInt(v, base + used) - base);
        }
        ++pos;
        if (used + kMaxItem > room) {
          const Room r = grow(used, record, record_begin);
          if (r.base == nullptr) return finish(false, pos, next_value, record, used);
          base = r.base;
          room = r.size;
        }
        // The leaf's levels never exceed its maximum, which is this list's level.
        if (pos >= end || rep == nullptr || rep[pos] < list_rep) break;
        base[used++] = ',';
      }
      base[used++] = ']';
    }
    if (max_record_ > 0 && used - record_begin > max_record_) {
      finish(false, pos, next_value, record, used);
      return Fail(leaf, RecordTooLong());
    }
    base[used++] = '\0';
    offsets[record] = static_cast<uint32_t>(used);
    is_null[record] = null_record;
  }
  return finish(true, pos, next_value, record, used);
}

bool NestedJsonAssembler::WriteMapEntry(const NestedShape& map, std::string* out) {
  const size_t key_start = out->size();
  if (!WriteValue(map.key(), map.element_def_level, out)) return false;
  // Member names are strings: a key that did not render as a string literal is quoted as text.
  if (out->size() == key_start || (*out)[key_start] != '"') {
    key_scratch_.assign(*out, key_start, std::string::npos);
    out->resize(key_start);
    if (Status room = Room(out, 6 * key_scratch_.size() + 3); !room.ok()) return Fail(map.first_leaf, room);
    AppendJsonString(key_scratch_, out);
  }
  out->push_back(':');
  if (map.has_value()) return WriteValue(map.value(), map.element_def_level, out);
  out->append("null", 4);
  return true;
}

bool NestedJsonAssembler::SkipEntry(const NestedShape& s, int16_t lo, int16_t hi) {
  for (int i = s.first_leaf; i < s.first_leaf + s.num_leaves; ++i) {
    LeafCursor& c = cursors_[i];
    if (c.pos >= c.end) return RanOut(i);
    const int16_t d = c.Def();
    if (d < lo || d >= hi) {
      return Fail(i, "definition level " + std::to_string(d) + " disagrees with column '" +
                         leaf_shapes_[s.first_leaf]->node->DottedPath() +
                         "' about where a value is null or a list is empty");
    }
    ++c.pos;
  }
  return true;
}

bool NestedJsonAssembler::NextRepetition(const NestedShape& s, int16_t* rep) {
  const int16_t r = cursors_[s.first_leaf].NextRep();
  for (int i = s.first_leaf + 1; i < s.first_leaf + s.num_leaves; ++i) {
    const int16_t other = cursors_[i].NextRep();
    if (other != r) {
      return Fail(i, "repetition level " + std::to_string(other) + " disagrees with level " +
                         std::to_string(r) + " of column '" +
                         leaf_shapes_[s.first_leaf]->node->DottedPath() + "'");
    }
  }
  *rep = r;
  return true;
}

bool NestedJsonAssembler::EnclosingNull(int leaf, int16_t def) {
  return Fail(leaf, "definition level " + std::to_string(def) +
                        " says an enclosing value is null where other levels say it is present");
}

bool NestedJsonAssembler::NotOpen(int leaf, int16_t rep) {
  return Fail(leaf,
              "repetition level " + std::to_string(rep) + " continues a list that is not open");
}

bool NestedJsonAssembler::RanOut(int leaf) {
  return Fail(leaf, "levels end before the " + std::to_string(num_records_) + " records asked for");
}

bool NestedJsonAssembler::Fail(int leaf, const std::string& what) {
  return Fail(leaf, Status::Corruption(what));
}

bool NestedJsonAssembler::Fail(int leaf, const Status& status) {
  failed_record_ = record_;
  error_ =
      Status(status.code(), "column '" + leaf_shapes_[leaf]->node->DottedPath() + "', record " +
                                std::to_string(record_) + " of the batch: " + status.message());
  return false;
}

}  // namespace pq
