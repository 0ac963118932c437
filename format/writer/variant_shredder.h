// VariantShredder: records of one VARIANT column, each given as a Variant (metadata and value
// binaries), into the levels and values of the column's leaves, shredded as its schema says
// (the Parquet type spec, "Variant Shredding").
//
// The column is described by its SchemaElements, depth first, the VARIANT group first:
//   <opt|req> group v (VARIANT) {
//     required binary metadata;
//     <req|opt> binary value;             required when there is no typed_value
//     [optional <T> typed_value;]         the shredding, where T is one of
//   }
//   a primitive of the "Shredded Value Types" table (format/variant/shredded_leaf.h);
//   a LIST: optional group typed_value (LIST) { repeated group list { required group element {
//           optional binary value; [optional <T> typed_value;] } } };
//   an object: optional group typed_value { required group <name> { optional binary value;
//           [optional <T> typed_value;] } ... }.
//
// Each record's value goes where the spec puts it:
//   - a value of T's type (below) goes to typed_value and leaves `value` null;
//   - an array under a LIST typed_value: typed_value holds its elements, each shredded the same
//     way by the element's typed_value (a null element is the Variant null in `value`);
//   - an object under an object typed_value: each named field goes to its group (a missing field
//     leaves both of the group's columns null; a field present with the Variant null puts that
//     null in `value`), and the other fields stay in `value` as an object (null when there are
//     none: a fully shredded object);
//   - anything else stays in `value` whole and leaves typed_value null.
// A primitive matches T when the value keeps its meaning: BOOLEAN takes booleans; INT32 (INT(8),
// INT(16) or INT(32)) and INT64 take int8..int64 values within their range (the Variant spec puts
// all of these in one equivalence class, "Exact Numeric"); FLOAT takes float, DOUBLE double;
// DECIMAL(P, S) takes decimal4/8/16 of scale S and at most P digits; DATE, TIME, TIMESTAMP
// (MICROS/NANOS, adjusted to UTC or not), BINARY, STRING and UUID take exactly their Variant type.
// Reading the file back rebuilds every value as it was given, but that a shredded integer takes
// the column's width (an int8 1 under an INT64 typed_value reads back as the int64 1).
//
// The records are held as LeafRecords until WriteTo; a failed Append leaves them as they were.
// The metadata and value given must be valid Variant binaries (VariantEncoder's output); a value
// that does not decode is InvalidArgument.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "format/metadata/metadata.h"
#include "format/schema/schema.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"
#include "format/variant/variant_decoder.h"
#include "format/writer/leaf_records.h"

namespace pq {

class FileWriter;

class VariantShredder {
 public:
  // `field`: the column's SchemaElements, depth first, the VARIANT group first. InvalidArgument
  // for anything but the forms above (a typed_value of a type the Variant spec does not list is
  // refused as shredded_leaf.h refuses it on reading).
  static Result<std::unique_ptr<VariantShredder>> Make(std::vector<SchemaElement> field);
  ~VariantShredder();
  VariantShredder(const VariantShredder&) = delete;
  VariantShredder& operator=(const VariantShredder&) = delete;

  // A root named "schema" with the column as its only child.
  const Schema& schema() const { return *schema_; }
  int num_leaves() const { return records_.num_leaves(); }
  const ShreddedLeaf& leaf(int i) const { return records_.leaf(i); }
  int64_t rows() const { return records_.rows(); }
  size_t bytes() const { return records_.bytes(); }

  // Appends one record: the Variant (metadata, value).
  Status Append(ByteSpan metadata, ByteSpan value);
  // Appends a null record. InvalidArgument when the column is required.
  Status AppendNull();
  void Truncate(int64_t rows) { records_.Truncate(rows); }
  // Writes every record to leaves first_leaf .. first_leaf + num_leaves() - 1 of `writer`, then
  // empties the shredder.
  Status WriteTo(FileWriter* writer, int first_leaf) {
    return records_.WriteTo(writer, first_leaf);
  }
  void Clear() { records_.Clear(); }

  struct Node;  // a group holding value / typed_value, or a typed_value (variant_shredder.cc)

 private:
  VariantShredder();
  Status Shred(const Node& group, ByteSpan value, int16_t rep, int depth);
  Status ShredTyped(const Node& typed, ByteSpan value, int16_t rep, int depth);
  bool Matches(const Node& typed, ByteSpan value) const;
  Status PushPrimitive(const Node& typed, ByteSpan value, int16_t rep);
  void PushValue(const Node& group, ByteSpan value, int16_t rep);

  std::shared_ptr<const Schema> schema_;
  std::unique_ptr<Node> root_;
  int metadata_leaf_ = 0;
  LeafRecords records_;
  VariantMetadata metadata_;
  VariantDecoder decoder_;
  std::vector<VariantField> fields_;  // fields of the objects being shredded (a stack)
  std::vector<ByteSpan> elements_;    // elements of the arrays being shredded (a stack)
  std::string residual_;              // scratch: the unshredded fields of an object
};

}  // namespace pq
