// JsonShredder: records of one nested top-level field, given as JSON text, shredded into the
// definition levels, repetition levels and values of the field's leaf columns
// (the Parquet spec "5 - Nested Encoding"), ready for FileWriter::WriteColumn.
//
// The field is described by its SchemaElements, depth first, the field itself first, exactly as
// they stand in a file's schema. The forms written (the Parquet type spec "Nested
// Types"):
//   list    <opt|req> group name (LIST) { repeated group list { <opt|req> element } }
//   map     <opt|req> group name (MAP) { repeated group key_value { required key; [<opt|req> value]
//   } }
//           (the key a primitive leaf, not JSON)
//   struct  <opt|req> group name { fields... }     (no annotation)
//   leaf    BOOLEAN; INT32/INT64 plain or INT(8..64, signed or not); FLOAT; DOUBLE; BYTE_ARRAY
//           plain (bytes), STRING, ENUM or JSON; DATE; TIME; TIMESTAMP; DECIMAL on INT32, INT64 or
//           FIXED_LEN_BYTE_ARRAY; UUID; FIXED_LEN_BYTE_ARRAY plain (bytes); INT32 UNKNOWN (always
//           null)
// Anything else (repeated fields outside these groups, 2-level lists, VARIANT, INT96, ...) is
// NotSupported at Make.
//
// JSON accepted for a value (RFC 8259 syntax; `null` is a null value, an error where the node is
// required, e.g. a map key):
//   list     an array; each element by the element's type
//   map      an object {"k": v, ...}, whose member names are converted to the key type from their
//            text ("1" for an integer key, "true" for a boolean, "2024-01-02" for a date); or an
//            array of {"key": k, "value": v} objects (k then as a JSON value of the key type; a
//            missing "value" is null). Keys must be distinct: the MAP annotation is not for
//            multi-maps.
//   struct   an object; members by name (exact case); a missing member is null; a member the
//            struct does not have, or a member given twice, is an error
//   BOOLEAN  true, false, 0, 1                  integers  a number with an integral value, in range
//   FLOAT, DOUBLE  a number                     STRING, ENUM  a string
//   bytes    a string of standard base64        JSON      any value, stored as its text
//   DATE     "YYYY-MM-DD"                       TIME      "HH:MM[:SS[.fraction]]"
//   TIMESTAMP  "YYYY-MM-DD[ HH:MM[:SS[.f]]]" ('T' for ' ', optional 'Z'), or an integer of units
//              since 1970-01-01 00:00:00 UTC
//   DECIMAL  a number or a string holding one, exact (nothing is rounded: text_to_value.h)
//   UUID     "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
// Fraction digits finer than a TIME/TIMESTAMP unit must be zeros (temporal.h).
//
// These are the forms the reader's NestedJsonAssembler writes (json_assembler.h), so a value read
// back is the same JSON up to spelling: white space; string escapes (only '"', '\' and control
// characters come back escaped); numbers (reals as their shortest text with ".0" when integral,
// decimals with exactly `scale` fraction digits, integers without exponent); temporal text in its
// canonical form; base64 with padding; map keys of other types than strings as the quoted JSON text
// of the key; a JSON leaf comes back as a string holding its text; a null JSON leaf is null.
//
// Errors are InvalidArgument, and say where: "invalid JSON at offset 7: expected ',' or ']'",
// "$[2].b: expected an integer, found \"x\"", "$.k: 300 is out of range for an 8-bit signed
// integer", "$[0]: no field named 'c' (fields: a, b)". A failed Append leaves the shredder as it
// was.
//
// Memory: the shredded records are held until WriteTo; bytes() says about how much that is.
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
  // `field`: the field's SchemaElements, depth first, the field first. InvalidArgument when they do
  // not form one field; NotSupported for a form or type not listed above.
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
  // InvalidArgument as described above; the shredder is then unchanged.
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

  // Reads the JSON value at the reader's position as a value of `node`; its first level entry in every leaf gets
  // repetition level `rep`.
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
