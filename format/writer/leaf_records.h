// LeafRecords: the records of one top-level field held as the definition levels, repetition levels
// and values of each of its leaf columns (the Parquet spec "5 - Nested Encoding"), ready for
// FileWriter::WriteColumn.
//
// What builds the records decides the levels (json_shredder.h from JSON text, variant_shredder.h
// from Variant binaries); this holds them, takes back a record that failed half way (Mark,
// RollBack), drops records from the end (Truncate) and hands everything to a FileWriter (WriteTo).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "format/metadata/metadata.h"
#include "format/schema/schema.h"
#include "format/util/status.h"

namespace pq {

class FileWriter;

// One leaf column's records so far.
struct ShreddedLeaf {
  const SchemaNode* node = nullptr;  // the leaf in the field's schema
  PhysicalType physical_type = PhysicalType::kInt32;
  std::vector<int16_t> def_levels;  // one per level entry (0s when the leaf's maximum is 0)
  std::vector<int16_t> rep_levels;  // one per level entry (0s when the leaf's maximum is 0)
  // The non-null values, one per definition level at the leaf's maximum. Only the member of the
  // leaf's physical type is used.
  std::vector<uint8_t> booleans;  // BOOLEAN, 0/1
  std::vector<int32_t> int32s;
  std::vector<int64_t> int64s;
  std::vector<float> floats;
  std::vector<double> doubles;
  std::string bytes;         // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY values back to back
  std::vector<size_t> ends;  // end offset in `bytes` of each of those values

  int64_t num_levels() const { return static_cast<int64_t>(def_levels.size()); }
  int64_t num_values() const;
  // The i-th BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY value.
  std::string_view byte_value(int64_t i) const;
  // The bytes of the i-th value: a byte array's bytes, or the memory of a fixed-width value.
  std::string_view value_bytes(int64_t i) const;
  // One level entry with no value (def below the leaf's maximum).
  void PushLevels(int16_t def, int16_t rep) {
    def_levels.push_back(def);
    rep_levels.push_back(rep);
  }
  // Appends a BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY value (its levels are pushed separately).
  void PushBytes(std::string_view v) {
    bytes.append(v);
    ends.push_back(bytes.size());
  }
};

// The Schema of one field given by its SchemaElements (depth first, the field first): a root named
// "schema" above it. InvalidArgument when the elements do not form exactly one field.
Result<std::shared_ptr<const Schema>> OneFieldSchema(std::vector<SchemaElement> field);

class LeafRecords {
 public:
  // Adds a leaf column (in column order) for `node`.
  void AddLeaf(const SchemaNode* node);
  int num_leaves() const { return static_cast<int>(leaves_.size()); }
  ShreddedLeaf& leaf(int i) { return leaves_[static_cast<size_t>(i)]; }
  const ShreddedLeaf& leaf(int i) const { return leaves_[static_cast<size_t>(i)]; }
  // Records held.
  int64_t rows() const { return rows_; }
  // About the memory the records take.
  size_t bytes() const;

  // Notes where every leaf stands before a record is added.
  void Mark();
  // Takes every leaf back to where the last Mark found it.
  void RollBack();
  // Counts a record added whole.
  void EndRecord() { ++rows_; }
  // One level entry (def, rep) in each of the leaves first .. first + count - 1.
  void PushLevels(int first, int count, int16_t def, int16_t rep);

  // Drops the records from `rows` on (rows <= this->rows()).
  void Truncate(int64_t rows);
  // Empties every leaf.
  void Clear();
  // Writes every record to leaves first_leaf .. first_leaf + num_leaves() - 1 of `writer`, then
  // empties the leaves (also when the writer fails).
  Status WriteTo(FileWriter* writer, int first_leaf);

 private:
  struct Position {  // where a leaf stood at Mark()
    size_t levels, values, bytes;
  };
  std::vector<ShreddedLeaf> leaves_;
  std::vector<Position> marks_;
  int64_t rows_ = 0;
};

}  // namespace pq
