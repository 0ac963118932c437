// Schema: the tree of fields rebuilt from the flat, depth-first list of SchemaElements in the
// footer. Each node knows its definition and repetition level (the maximum levels of values at that
// node), and each leaf is a column chunk index. The effective logical type of a node is resolved
// here once: the LogicalType when present and known, else the legacy ConvertedType, else none (read
// by physical type).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "format/metadata/metadata.h"
#include "format/util/status.h"

namespace pq {

struct SchemaNode {
  std::string name;
  int element_index = 0;  // index in FileMetaData::schema
  Repetition repetition = Repetition::kRequired;
  bool is_leaf = false;
  // Leaves only.
  PhysicalType physical_type = PhysicalType::kInt32;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY width
  int leaf_index = -1;      // column index within a row group
  // Resolved logical type (kind kNone when the field is read by its physical type). For legacy
  // ConvertedType-only files this carries the equivalent LogicalType; converted_type keeps the original.
  LogicalType logical_type;
  std::optional<ConvertedType> converted_type;
  int16_t max_definition_level = 0;  // levels counted from the root down to and including this node
  int16_t max_repetition_level = 0;
  int depth = 0;  // root = 0, top-level fields = 1
  SchemaNode* parent = nullptr;
  std::vector<SchemaNode*> children;

  bool is_root() const { return parent == nullptr; }
  bool is_optional() const { return repetition == Repetition::kOptional; }
  bool is_repeated() const { return repetition == Repetition::kRepeated; }
  // "a.b.c" from the first top-level field down.
  std::string DottedPath() const;
};

class Schema {
 public:
  // Rebuilds the tree. Errors (Corruption) on a list that does not form one tree, on a leaf without a
  // physical type, on levels that overflow, on FIXED_LEN_BYTE_ARRAY without a positive type_length.
  static Result<std::shared_ptr<const Schema>> Make(const std::vector<SchemaElement>& elements);

  const SchemaNode& root() const { return *nodes_.front(); }
  // Leaves in column order: leaf(i) is the i-th column chunk of every row group.
  int num_leaves() const { return static_cast<int>(leaves_.size()); }
  const SchemaNode& leaf(int i) const { return *leaves_[i]; }
  const std::vector<const SchemaNode*>& leaves() const { return leaves_; }
  // Top-level fields (children of the root).
  const std::vector<SchemaNode*>& fields() const { return root().children; }
  // Leaves under a node, in column order: [first, first + count).
  std::pair<int, int> LeafRange(const SchemaNode& node) const;

 private:
  std::vector<std::unique_ptr<SchemaNode>> nodes_;
  std::vector<const SchemaNode*> leaves_;
};

// The logical type a SchemaElement means: its LogicalType when known, else its ConvertedType turned
// into the equivalent LogicalType (DECIMAL takes scale/precision from the element), else kind kNone.
LogicalType ResolveLogicalType(const SchemaElement& element);

}  // namespace pq
