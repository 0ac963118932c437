// NestedJsonAssembler: rebuilds the records of one nested top-level field as JSON text from the
// definition and repetition levels of its leaves (file-format.txt, "5 - Nested Encoding").
//
// The column layer hands over, for every leaf under the field, the levels of a run of whole records
// and a way to render that leaf's k-th non-null value as JSON. The assembler walks the field's
// NestedShape (nested_shape.h) once per record, consuming level entries of all leaves in step, and
// writes:
//   - struct: {"name":value,...} in schema order; a null optional member is written as "name":null
//   - list (every LIST form, and repeated fields without annotation): [e,...]; null elements as
//   null;
//     an empty list is []; a null list is null
//   - map: {"key":value,...} in file order. JSON member names are text, so a key is written by its
//   JSON
//     rendering: a string key as that string, any other key (number, boolean, null key of a map
//     whose key is not required, struct...) as its JSON text in quotes (1 -> "1"). Duplicate keys
//     are kept as they come. A map without a value field has null values.
//   - a null top-level field is SQL NULL (JsonColumn::is_null), never the text null. A required
//   field,
//     and a repeated top-level field (a required list), is never SQL NULL.
//
// Levels are untrusted: every inconsistency (a level above the leaf's maximum, a repetition level
// that continues no open list, leaves that disagree about where a value is null or where a list
// continues, a leaf with levels for fewer or more records than asked) is a Corruption, never a
// crash.
//
// One assembler per field and per scan; buffers are kept across Assemble calls so that steady-state
// assembly allocates only when the output arena grows.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "format/record/nested_shape.h"
#include "format/schema/schema.h"
#include "format/util/status.h"

namespace pq {

// The levels of one leaf for a run of whole records.
struct LeafLevels {
  // num_levels entries each; a null pointer means every level is 0.
  const int16_t* def_levels = nullptr;
  const int16_t* rep_levels = nullptr;
  int64_t num_levels = 0;
  // Appends the JSON text of the k-th non-null value to *out, where k counts the level entries
  // whose definition level equals the leaf's maximum (0-based, within this run). May be empty when
  // the run holds no non-null value.
  std::function<void(int64_t k, std::string* out)> append_value_json;
};

// One column of assembled values: record r is arena[offsets[r], offsets[r + 1]) unless is_null[r].
struct JsonColumn {
  std::string arena;
  std::vector<uint32_t> offsets{0};  // size() + 1 entries
  std::vector<uint8_t> is_null;      // 1 = SQL NULL (its arena range is empty)

  // Empties the column, keeping capacity.
  void Clear() {
    arena.clear();
    offsets.assign(1, 0);
    is_null.clear();
  }
  int64_t size() const { return static_cast<int64_t>(is_null.size()); }
  bool null_at(int64_t r) const { return is_null[r] != 0; }
  std::string_view at(int64_t r) const {
    return std::string_view(arena).substr(offsets[r], offsets[r + 1] - offsets[r]);
  }
};

class NestedJsonAssembler {
 public:
  // `field` is a top-level field of `schema` (a child of its root), usually a group or a repeated
  // field; a plain leaf is accepted too and renders as its value. Errors: those of
  // BuildNestedShape, and InvalidArgument when `field` is not a top-level field of `schema`.
  static Result<std::unique_ptr<NestedJsonAssembler>> Make(const Schema& schema,
                                                           const SchemaNode& field);

  // leaves[i] holds the levels of leaf Schema::LeafRange(field).first + i; all cover the same
  // `num_records` records. Appends num_records entries to *out. On error *out is left as it was.
  // InvalidArgument for a wrong number of leaves or negative counts, OutOfMemory when the arena
  // would pass 4 GiB (offsets are 32-bit), Corruption for inconsistent levels.
  Status Assemble(std::span<const LeafLevels> leaves, int64_t num_records, JsonColumn* out);

  const NestedShape& shape() const { return shape_; }
  int num_leaves() const { return shape_.num_leaves; }

 private:
  // Where assembly stands in one leaf's levels.
  struct LeafCursor {
    const int16_t* def = nullptr;  // null: all 0
    const int16_t* rep = nullptr;  // null: all 0
    int64_t pos = 0;               // next level entry
    int64_t end = 0;               // num_levels
    int64_t next_value = 0;        // k of the next non-null value
    const std::function<void(int64_t, std::string*)>* append = nullptr;

    int16_t Def() const { return def ? def[pos] : int16_t{0}; }
    // The repetition level of the next entry; the end of the run reads as 0 (a record boundary).
    int16_t NextRep() const { return pos < end && rep ? rep[pos] : int16_t{0}; }
  };

  explicit NestedJsonAssembler(NestedShape shape);

  // The recursive walk. Each returns false after recording the failure in error_ (a Status per
  // value would cost a string per call on the hot path). Writes the value of `s` whose parent is
  // present at definition level `parent_def`.
  bool WriteValue(const NestedShape& s, int16_t parent_def, std::string* out);
  // The elements of a non-empty list whose element is a leaf (the caller wrote the '[').
  bool WriteLeafElements(const NestedShape& list, std::string* out);
  bool WriteMapEntry(const NestedShape& map, std::string* out);
  // Consumes one entry of every leaf under `s`, each of which must have a definition level in [lo,
  // hi): the entry that stands for a null value or an empty list.
  bool SkipEntry(const NestedShape& s, int16_t lo, int16_t hi);
  // The repetition level that follows an element of list `s`, the same for all its leaves.
  bool NextRepetition(const NestedShape& s, int16_t* rep);

  bool EnclosingNull(int leaf, int16_t def);
  bool NotOpen(int leaf, int16_t rep);
  bool RanOut(int leaf);
  bool Fail(int leaf, const std::string& what);

  Status ValidateLevels(std::span<const LeafLevels> leaves);

  NestedShape shape_;
  std::vector<const NestedShape*>
      leaf_shapes_;                         // by leaf number: maximum levels, name for messages
  std::vector<std::string> member_prefix_;  // by struct member: "\"name\":", see WriteValue
  std::vector<LeafCursor> cursors_;         // reused across calls
  std::string key_scratch_;                 // a map key being turned into a member name
  int64_t record_ = 0;                      // record being assembled, for messages
  int64_t num_records_ = 0;                 // records asked for, for messages
  Status error_;
};

}  // namespace pq
