#include "format/writer/leaf_records.h"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "format/encoding/values.h"
#include "format/writer/file_writer.h"

namespace pq {

namespace {

// Calls `fixed(values)` with the value vector of the leaf's physical type when that type is
// fixed-width (booleans, int32s, int64s, floats or doubles), else `byte_arrays()` (BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY values live in `bytes` and `ends`), and returns what the call returns.
template <typename Leaf, typename Fixed, typename ByteArrays>
decltype(auto) VisitValues(Leaf& leaf, Fixed&& fixed, ByteArrays&& byte_arrays) {
  switch (leaf.physical_type) {
    case PhysicalType::kBoolean:
      return fixed(leaf.booleans);
    case PhysicalType::kInt32:
      return fixed(leaf.int32s);
    case PhysicalType::kInt64:
      return fixed(leaf.int64s);
    case PhysicalType::kFloat:
      return fixed(leaf.floats);
    case PhysicalType::kDouble:
      return fixed(leaf.doubles);
    default:
      return byte_arrays();
  }
}

}  // namespace

int64_t ShreddedLeaf::num_values() const {
  return VisitValues(
      *this, [](const auto& values) { return static_cast<int64_t>(values.size()); },
      [this] { return static_cast<int64_t>(ends.size()); });
}

std::string_view ShreddedLeaf::byte_value(int64_t i) const {
  const size_t k = static_cast<size_t>(i);
  const size_t start = k == 0 ? 0 : ends[k - 1];
  return std::string_view(bytes).substr(start, ends[k] - start);
}

std::string_view ShreddedLeaf::value_bytes(int64_t i) const {
  const size_t k = static_cast<size_t>(i);
  return VisitValues(
      *this,
      [k](const auto& values) {
        return std::string_view(reinterpret_cast<const char*>(&values[k]), sizeof(values[k]));
      },
      [this, i] { return byte_value(i); });
}

Result<std::shared_ptr<const Schema>> OneFieldSchema(std::vector<SchemaElement> field) {
  if (field.empty()) return Status::InvalidArgument("no schema elements for the field");
  SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  field.insert(field.begin(), root);
  auto made = Schema::Make(field);
  if (!made.ok()) return Status::InvalidArgument("schema: " + made.status().message());
  if ((*made)->fields().size() != 1) {
    return Status::InvalidArgument("schema: the elements hold more than one field");
  }
  return std::move(made).value();
}

void LeafRecords::AddLeaf(const SchemaNode* node) {
  ShreddedLeaf leaf;
  leaf.node = node;
  leaf.physical_type = node->physical_type;
  leaves_.push_back(std::move(leaf));
}

size_t LeafRecords::bytes() const {
  size_t n = 0;
  for (const ShreddedLeaf& l : leaves_) {
    n += (l.def_levels.size() + l.rep_levels.size()) * sizeof(int16_t) + l.booleans.size() +
         l.int32s.size() * 4 + l.int64s.size() * 8 + l.floats.size() * 4 + l.doubles.size() * 8 +
         l.bytes.size() + l.ends.size() * sizeof(size_t);
  }
  return n;
}

void LeafRecords::Mark() {
  marks_.clear();
  for (const ShreddedLeaf& l : leaves_) {
    marks_.push_back({l.def_levels.size(), static_cast<size_t>(l.num_values()), l.bytes.size()});
  }
}

void LeafRecords::RollBack() {
  for (size_t i = 0; i < leaves_.size() && i < marks_.size(); ++i) {
    ShreddedLeaf& l = leaves_[i];
    l.def_levels.resize(marks_[i].levels);
    l.rep_levels.resize(marks_[i].levels);
    l.booleans.resize(std::min(l.booleans.size(), marks_[i].values));
    l.int32s.resize(std::min(l.int32s.size(), marks_[i].values));
    l.int64s.resize(std::min(l.int64s.size(), marks_[i].values));
    l.floats.resize(std::min(l.floats.size(), marks_[i].values));
    l.doubles.resize(std::min(l.doubles.size(), marks_[i].values));
    l.ends.resize(std::min(l.ends.size(), marks_[i].values));
    l.bytes.resize(marks_[i].bytes);
  }
}

void LeafRecords::PushLevels(int first, int count, int16_t def, int16_t rep) {
  for (int i = first; i < first + count; ++i) leaves_[static_cast<size_t>(i)].PushLevels(def, rep);
}

void LeafRecords::Truncate(int64_t rows) {
  if (rows >= rows_) return;
  if (rows < 0) rows = 0;
  for (ShreddedLeaf& l : leaves_) {
    // The first level entry of record `rows`: the (rows + 1)-th repetition level 0.
    size_t end = l.def_levels.size();
    int64_t starts = 0;
    for (size_t i = 0; i < l.rep_levels.size(); ++i) {
      if (l.rep_levels[i] == 0 && starts++ == rows) {
        end = i;
        break;
      }
    }
    const int16_t max_def = l.node->max_definition_level;
    size_t kept = 0;  // values of the records kept
    for (size_t i = 0; i < end; ++i) kept += l.def_levels[i] == max_def;
    l.def_levels.resize(end);
    l.rep_levels.resize(end);
    VisitValues(
        l, [kept](auto& values) { values.resize(kept); },
        [&l, kept] {
          l.ends.resize(kept);
          l.bytes.resize(l.ends.empty() ? 0 : l.ends.back());
        });
  }
  rows_ = rows;
}

void LeafRecords::Clear() {
  for (ShreddedLeaf& l : leaves_) {
    l.def_levels.clear();
    l.rep_levels.clear();
    l.booleans.clear();
    l.int32s.clear();
    l.int64s.clear();
    l.floats.clear();
    l.doubles.clear();
    l.bytes.clear();
    l.ends.clear();
  }
  rows_ = 0;
}

Status LeafRecords::WriteTo(FileWriter* writer, int first_leaf) {
  std::vector<ByteArray> arrays;
  Status s;
  for (size_t i = 0; i < leaves_.size() && s.ok(); ++i) {
    const ShreddedLeaf& l = leaves_[i];
    const int leaf = first_leaf + static_cast<int>(i);
    const int64_t n = l.num_levels();
    const int16_t* def = l.def_levels.data();
    const int16_t* rep = l.rep_levels.data();
    s = VisitValues(
        l,
        [&](const auto& values) {
          using T = typename std::decay_t<decltype(values)>::value_type;
          return writer->WriteColumn<T>(leaf, n, def, rep, values.data(), l.num_values());
        },
        [&]() -> Status {
          arrays.resize(l.ends.size());
          const auto* base = reinterpret_cast<const uint8_t*>(l.bytes.data());
          size_t start = 0;
          for (size_t k = 0; k < l.ends.size(); ++k) {
            const size_t len = l.ends[k] - start;
            if (len > std::numeric_limits<uint32_t>::max()) {
              return Status::InvalidArgument("a value of " + std::to_string(len) +
                                             " bytes is too long for Parquet");
            }
            arrays[k] = ByteArray{base + start, static_cast<uint32_t>(len)};
            start = l.ends[k];
          }
          return writer->WriteColumn<ByteArray>(leaf, n, def, rep, arrays.data(), l.num_values());
        });
  }
  Clear();
  return s;
}

}  // namespace pq
