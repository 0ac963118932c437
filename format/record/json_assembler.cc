#include "format/record/json_assembler.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace pq {

namespace {

// Appends `text` as a JSON string literal (quotes included) with ", \ and control characters
// escaped. Bytes >= 0x80 are copied as they are.
void AppendJsonString(std::string_view text, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (char ch : text) {
    const auto u = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      default:
        if (u < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[u >> 4]);
          out->push_back(kHex[u & 0xF]);
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

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
  cursors_.resize(shape_.num_leaves);
}

Result<std::unique_ptr<NestedJsonAssembler>> NestedJsonAssembler::Make(const Schema& schema,
                                                                       const SchemaNode& field) {
  if (field.parent != &schema.root()) {
    return Status::InvalidArgument("'" + field.name + "' is not a top-level field of the schema");
  }
  PQ_ASSIGN_OR_RETURN(NestedShape shape, BuildNestedShape(field));
  if (shape.num_leaves != schema.LeafRange(field).second) {
    return Status::Corruption(
        "field '" + field.name + "' has " + std::to_string(schema.LeafRange(field).second) +
        " leaves in the schema but its shape reads " + std::to_string(shape.num_leaves));
  }
  return std::unique_ptr<NestedJsonAssembler>(new NestedJsonAssembler(std::move(shape)));
}

Status NestedJsonAssembler::ValidateLevels(std::span<const LeafLevels> leaves) {
  for (size_t i = 0; i < leaves.size(); ++i) {
    const LeafLevels& in = leaves[i];
    const NestedShape& leaf = *leaf_shapes_[i];
    const std::string where = "column '" + leaf.node->DottedPath() + "': ";
    if (in.num_levels < 0) return Status::InvalidArgument(where + "negative level count");
    const int64_t n = in.num_levels;
    int64_t num_values = leaf.def_level == 0 ? n : 0;
    if (in.def_levels != nullptr) {
      // Casting to unsigned folds negative levels into "above the maximum".
      uint16_t highest = 0;
      int64_t at_max = 0;
      for (int64_t j = 0; j < n; ++j) {
        const auto d = static_cast<uint16_t>(in.def_levels[j]);
        highest = std::max(highest, d);
        at_max += d == static_cast<uint16_t>(leaf.def_level);
      }
      if (highest > static_cast<uint16_t>(leaf.def_level)) {
        return Status::Corruption(where + "definition level " +
                                  std::to_string(static_cast<int16_t>(highest)) +
                                  " is outside [0, " + std::to_string(leaf.def_level) + "]");
      }
      num_values = at_max;
    }
    if (in.rep_levels != nullptr) {
      uint16_t highest = 0;
      for (int64_t j = 0; j < n; ++j) {
        highest = std::max(highest, static_cast<uint16_t>(in.rep_levels[j]));
      }
      if (highest > static_cast<uint16_t>(leaf.rep_level)) {
        return Status::Corruption(where + "repetition level " +
                                  std::to_string(static_cast<int16_t>(highest)) +
                                  " is outside [0, " + std::to_string(leaf.rep_level) + "]");
      }
    }
    if (num_values > 0 && !in.append_value_json) {
      return Status::InvalidArgument(where + "values present but no way to render them");
    }
    cursors_[i] = LeafCursor{in.def_levels, in.rep_levels, 0, n, 0, &in.append_value_json};
  }
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

  const size_t arena_before = out->arena.size();
  const size_t size_before = out->is_null.size();
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
  for (record_ = 0; record_ < num_records; ++record_) {
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
    const bool ok =
        null_record ? SkipEntry(shape_, 0, shape_.def_level) : WriteValue(shape_, 0, &out->arena);
    if (!ok) return fail(std::move(error_));
    if (out->arena.size() > std::numeric_limits<uint32_t>::max()) {
      return fail(Status::OutOfMemory("column '" + shape_.node->name +
                                      "': assembled JSON passes 4 GiB in one batch"));
    }
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
  if (d < parent_def) {
    return Fail(s.first_leaf,
                "definition level " + std::to_string(d) +
                    " says an enclosing value is null where other levels say it is present");
  }
  if (d < s.def_level) {  // only for a nullable value: def_level == parent_def + 1
    out->append("null", 4);
    return SkipEntry(s, parent_def, s.def_level);
  }
  switch (s.kind) {
    case NestedShape::Kind::kLeaf:
      (*c.append)(c.next_value++, out);
      ++c.pos;
      return true;
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
        if (!ok) return false;
        int16_t rep;
        if (!NextRepetition(s, &rep)) return false;
        if (rep < s.rep_level) break;
        if (rep > s.rep_level) return NotOpen(s.first_leaf, rep);
      }
      out->push_back(is_list ? ']' : '}');
      return true;
    }
  }
  return Fail(s.first_leaf, "unknown shape");
}

// The common list of primitives, without the generic walk: one level entry per element.
bool NestedJsonAssembler::WriteLeafElements(const NestedShape& list, std::string* out) {
  const NestedShape& element = list.element();
  LeafCursor& c = cursors_[element.first_leaf];
  for (bool first = true;; first = false) {
    if (!first) out->push_back(',');
    // The caller checked the first entry exists; a next one exists because NextRep() read it.
    const int16_t d = c.Def();
    if (d < list.element_def_level) return EnclosingNull(element.first_leaf, d);
    if (d < element.def_level) {
      out->append("null", 4);
    } else {
      (*c.append)(c.next_value++, out);
    }
    ++c.pos;
    // The leaf's levels never exceed its maximum, which is this list's level: rep <= list.rep_level.
    if (c.NextRep() < list.rep_level) return true;
  }
}

bool NestedJsonAssembler::WriteMapEntry(const NestedShape& map, std::string* out) {
  const size_t key_start = out->size();
  if (!WriteValue(map.key(), map.element_def_level, out)) return false;
  // Member names are strings: a key that did not render as a string literal is quoted as text.
  if (out->size() == key_start || (*out)[key_start] != '"') {
    key_scratch_.assign(*out, key_start, std::string::npos);
    out->resize(key_start);
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
  error_ = Status::Corruption("column '" + leaf_shapes_[leaf]->node->DottedPath() + "', record " +
                              std::to_string(record_) + " of the batch: " + what);
  return false;
}

}  // namespace pq
