// JsonShredder: the records of one nested top-level field (LIST, MAP, struct), given as JSON text,
// shredded into the definition levels, repetition levels and values of its leaf columns (the
// Parquet spec, "Nested Encoding"), ready for FileWriter::WriteColumn. It writes the standard forms
// (3-level lists, key_value maps) and takes the JSON the reader's NestedJsonAssembler writes
// (json_assembler.h), so a value read back is the same JSON up to spelling. Records are held until
// WriteTo (bytes() says about how much). The JSON each type takes is documented in docs/writing.md
// ("Nested types").
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
#include "format/util/json_reader.h"
#include "format/writer/leaf_records.h"

namespace pq {

class FileWriter;

class JsonShredder {
 public:
  // `field`: the field's SchemaElements, depth first, the field first, as they stand in a file's
  // schema. The forms: list `group (LIST) { repeated group list { element } }`, map `group (MAP) {
  // repeated group key_value { required key; [value] } }` (the key a primitive leaf, not JSON),
  // struct (a group without annotation); leaves BOOLEAN, INT32/INT64 (plain or INT), FLOAT, DOUBLE,
  // BYTE_ARRAY (plain, STRING, ENUM, JSON), DATE, TIME, TIMESTAMP, DECIMAL on INT32, INT64 or
  // FIXED_LEN_BYTE_ARRAY, UUID, plain FIXED_LEN_BYTE_ARRAY, INT32 UNKNOWN. InvalidArgument when the
  // elements do not form one field; NotSupported for anything else (repeated fields outside these
  // groups, 2-level lists, VARIANT, INT96, ...).
  static Result<std::unique_ptr<JsonShredder>> Make(std::vector<SchemaElement> field);
  ~JsonShredder();
  JsonShredder(const JsonShredder&) = delete;
  JsonShredder& operator=(const JsonShredder&) = delete;

  // A root named "schema" with the field as its only child.
  const Schema& schema() const { return *schema_; }
  int num_leaves() const { return records_.num_leaves(); }
  // Leaf i of the field, in column order.
  const ShreddedLeaf& leaf(int i) const { return records_.leaf(i); }
  // Records held.
  int64_t rows() const { return records_.rows(); }
  // About the memory the records take.
  size_t bytes() const { return records_.bytes(); }

  // Appends one record: the field's value as JSON text (the text `null` is a null record).
  // InvalidArgument saying where: "invalid JSON at offset 7: expected ',' or ']'", "$[2].b:
  // expected an integer, found \"x\"", "$[0]: no field named 'c' (fields: a, b)"; the shredder is
  // then unchanged.
  Status Append(std::string_view json);
  // Appends a null record. InvalidArgument when the field is required.
  Status AppendNull();
  // Drops the records from `rows` on (rows <= this->rows()).
  void Truncate(int64_t rows) { records_.Truncate(rows); }
  // Writes every record to leaves first_leaf .. first_leaf + num_leaves() - 1 of `writer`, whose
  // schema holds this field there, then empties the shredder (also when the writer fails).
  Status WriteTo(FileWriter* writer, int first_leaf) {
    return records_.WriteTo(writer, first_leaf);
  }
  // Empties the shredder.
  void Clear() { records_.Clear(); }

 private:
  struct Node;
  struct Scalar;
  struct PathStep {
    int64_t index = -1;     // an array element, or
    std::string_view name;  // an object member, as spelled in the JSON (escapes kept)
  };

  JsonShredder();

  // Reads the JSON value at the reader's position as a value of `node`; its first level entry in
  // every leaf gets repetition level `rep`.
  Status Shred(Node& node, int16_t rep);
  Status ShredList(Node& node, int16_t rep);
  Status ShredMap(Node& node, int16_t rep);
  Status ShredMapEntry(Node& node, int16_t rep);  // one {"key":..,"value":..} object
  Status ShredStruct(Node& node, int16_t rep);
  Status ShredLeaf(Node& node, int16_t rep);
  // One converted, non-null value of leaf `node` with its levels.
  Status PushLeaf(Node& node, const Scalar& v, int16_t rep);
  // One level entry (def, rep) in every leaf under `node`.
  void PushNull(const Node& node, int16_t def, int16_t rep);
  Status CheckDistinctKeys(const Node& map, size_t first_key);

  // The scalar at the reader's position.
  Status ReadScalar(Scalar* v);
  Status SyntaxError(const std::string& what) const;
  // "<where>: <what>".
  Status ValueError(const std::string& what) const;
  Status Mismatch(const std::string& expected, std::string_view found) const;
  // The mismatch for the value at the reader's position (or the syntax error it holds).
  Status MismatchHere(const std::string& expected);
  // What a value of `node` must be, for messages: "an integer", "a list (a JSON array)".
  static std::string Expected(const Node& node);
  std::string Where() const;

  std::shared_ptr<const Schema> schema_;
  std::unique_ptr<Node> root_;
  LeafRecords records_;
  // The record being read.
  JsonReader json_;
  std::vector<PathStep> path_;
  std::string string_scratch_;  // an unescaped string, used before the next one is read
  std::vector<std::pair<std::string_view, std::string_view>> distinct_scratch_;
};

}  // namespace pq
