// NestedJsonAssembler: rebuilds the records of one nested top-level field (struct, list, map,
// VARIANT) as JSON text, or a VARIANT as binary, from the definition and repetition levels of its
// leaves (the Parquet spec, "Nested Encoding"). The column layer hands over, per leaf, the levels
// of a run of whole records and a way to render its k-th non-null value; the assembler walks the
// field's NestedShape (nested_shape.h) once per record, consuming the leaves' levels in step, so
// column readers know nothing of nesting. Levels are untrusted: any inconsistency is Corruption,
// never a crash, and the output arena grows only as far as the memory budget grants. The JSON forms
// are documented in docs/reading.md ("Value mapping").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "format/encoding/values.h"
#include "format/file/memory_budget.h"
#include "format/record/nested_shape.h"
#include "format/schema/schema.h"
#include "format/util/byte_reader.h"
#include "format/util/json_writer.h"
#include "format/util/status.h"
#include "format/variant/shredded_leaf.h"
#include "format/variant/variant_decoder.h"
#include "format/variant/variant_encoder.h"

namespace pq {

// The levels of one leaf for a run of whole records.
struct LeafLevels {
  // num_levels entries each; a null pointer means every level is 0.
  const int16_t* def_levels = nullptr;
  const int16_t* rep_levels = nullptr;
  int64_t num_levels = 0;
  // The number of non-null values decoded for these levels, or -1 when the caller guarantees it
  // equals the count of definition levels at the leaf's maximum. When given, a different count is
  // an error (damaged levels or schema), checked before any value is read.
  int64_t num_values = -1;
  // Appends the JSON text of the k-th non-null value to *out, where k counts the level entries
  // whose definition level equals the leaf's maximum (0-based, within this run). May be empty when
  // the run holds no non-null value.
  std::function<void(int64_t k, std::string* out)> append_value_json;
  // With append_value_json: at least the length of the text it writes for any value of this run,
  // or -1 when not known. With a budget the assembler keeps that much room in the arena before each
  // value, so that writing one never makes the arena reallocate past what the budget granted (with
  // -1 a value is checked only once written: the string may have grown by itself meanwhile).
  int64_t max_value_json = -1;
  // Instead of append_value_json, for a leaf of plain integers (INT32 or INT64 read as INTEGER):
  // the values themselves, the k-th written as a JSON integer, with no call per value. At most
  // one of the two is set.
  const int32_t* int32_values = nullptr;
  const int64_t* int64_values = nullptr;
  // The bytes of the k-th non-null value (same k). Needed (instead of append_value_json) by the
  // leaves under a VARIANT group, whose binary metadata and value and whose typed values the
  // assembler decodes itself: LeafValueBytes below says what the bytes are.
  std::function<ByteSpan(int64_t k)> value_bytes;
};

// The bytes LeafLevels::value_bytes gives for one decoded value: byte arrays (BYTE_ARRAY,
// FIXED_LEN_BYTE_ARRAY) as stored; BOOLEAN one byte 0/1; INT32 and FLOAT 4, INT64 and DOUBLE 8
// little-endian bytes; INT96 its 12 bytes. The span points into `v`, which must outlive its use.
inline ByteSpan LeafValueBytes(const ByteArray& v) {
  return ByteSpan(v.ptr, v.len);
}
template <typename T>
inline ByteSpan LeafValueBytes(const T& v) {
  return ByteSpan(reinterpret_cast<const uint8_t*>(&v), sizeof(T));
}

// One column of assembled values: record r is the length(r) bytes at arena[offsets[r]] unless
// is_null[r]. JSON text never holds a NUL (json_writer.h escapes U+0000), so each record of text is
// followed by one (terminator 1: the byte before offsets[r + 1]), and its text can be handed on as
// a C string; a VARIANT's binary is not (terminator 0).
struct JsonColumn {
  std::string arena;
  std::vector<uint32_t> offsets{0};  // size() + 1 entries
  std::vector<uint8_t> is_null;      // 1 = SQL NULL (its text is empty)
  uint32_t terminator = 0;           // the NUL after each record's bytes: 1, or none: 0
  BudgetCharge charge;               // what the arena may hold (its capacity stays across Clear)

  // Empties the column, keeping capacity.
  void Clear() {
    arena.clear();
    offsets.assign(1, 0);
    is_null.clear();
  }
  int64_t size() const { return static_cast<int64_t>(is_null.size()); }
  bool null_at(int64_t r) const { return is_null[r] != 0; }
  uint32_t length(int64_t r) const { return offsets[r + 1] - offsets[r] - terminator; }
  std::string_view at(int64_t r) const { return std::string_view(arena).substr(offsets[r], length(r)); }
};

class NestedJsonAssembler {
 public:
  // `field` is a top-level field of `schema` (a child of its root), usually a group or a repeated
  // field; a plain leaf is accepted too and renders as its value. Errors: those of
  // BuildNestedShape, and InvalidArgument when `field` is not a top-level field of `schema`.
  // `budget` (may be null) is what the arena and the assembler's copies of levels are charged to.
  // With `variant_as_binary`, a `field` that is a VARIANT group gives, instead of JSON text, each
  // record's Variant as binary: its metadata followed by its value (the metadata's header and
  // offsets say where it ends), rebuilt from typed_value columns where it was shredded
  // (ShreddedLeafType::AddToVariant: every primitive keeps its Variant type). Field names are then
  // UTF-8 checked as the encoder does (variant_encoder.h). Other fields read as JSON as ever.
  static Result<std::unique_ptr<NestedJsonAssembler>> Make(const Schema& schema,
                                                           const SchemaNode& field,
                                                           std::shared_ptr<MemoryBudget> budget = nullptr,
                                                           bool variant_as_binary = false);

  // leaves[i] holds the levels of leaf Schema::LeafRange(field).first + i; all cover the same
  // `num_records` records. Appends num_records entries to *out. On error *out is left as it was.
  // Structs are {"name":value,...} in schema order; lists (every LIST form, and repeated fields
  // without annotation) [e,...]; maps {"key":value,...} in file order, a key that is not a string
  // written as its JSON text in quotes (1 -> "1"), duplicates kept. A null top-level field is SQL
  // NULL (JsonColumn::is_null), never the text null. One record may hold any number of values and
  // one value's text may be far longer than its bytes, so the arena is checked while each value is
  // written, not after.
  // InvalidArgument for a wrong number of leaves or negative counts, OutOfMemory when the arena
  // would pass 4 GiB (offsets are 32-bit) or what the budget grants, Corruption for inconsistent
  // levels.
  Status Assemble(std::span<const LeafLevels> leaves, int64_t num_records, JsonColumn* out);

  // SQLite's limit on the length of a value (SQLITE_LIMIT_LENGTH): a record whose text (or Variant
  // binary) passes `bytes` fails Assemble with InvalidArgument as soon as it does, instead of being
  // built whole for SQLite to refuse. <= 0: no limit.
  void set_max_record_bytes(int64_t bytes) { max_record_ = bytes > 0 ? static_cast<size_t>(bytes) : 0; }
  // The record (of the last Assemble's batch) a failure of it names ("record k of the batch"), or
  // -1 when its error names none.
  int64_t failed_record() const { return failed_record_; }

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
    const std::function<ByteSpan(int64_t)>* bytes = nullptr;  // leaves under a VARIANT
    const int32_t* int32_values = nullptr;  // LeafLevels' plain integers, when given
    const int64_t* int64_values = nullptr;

    int16_t Def() const { return def ? def[pos] : int16_t{0}; }
    // Writes the next non-null value as JSON.
    void AppendValue(std::string* out) {
      const int64_t k = next_value++;
      if (int64_values != nullptr) {
        AppendJsonInt(int64_values[k], out);
      } else if (int32_values != nullptr) {
        AppendJsonInt(int32_values[k], out);
      } else {
        (*append)(k, out);
      }
    }
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
  // The same for a leaf of plain integers (LeafCursor::int32_values / int64_values).
  bool WriteIntegerElements(const NestedShape& list, std::string* out);
  // Every record of a top-level LIST of plain integers (the loop of Assemble for that field).
  bool WriteIntegerLists(int64_t num_records, JsonColumn* out);
  bool WriteMapEntry(const NestedShape& map, std::string* out);
  // VARIANT (the Parquet spec, "Variant Shredding", "Reconstructing a Shredded Variant"): the
  // kVariant group `s`, present, as JSON or (Make's variant_as_binary) as metadata and value
  // binaries. A non-null typed_value wins (an object's shredded fields merged with those of
  // `value`, written sorted by name as the rebuilt Variant object stores them); else `value`
  // decoded with the record's metadata; both null: a missing object field is left out, a missing
  // array element or top-level value is the Variant null. Corruption for invalid shreddings: value
  // and typed_value both set for a primitive or an array, a non-object value beside a shredded
  // object, a field of `value` named like a shredded field (the spec lets readers fail or ignore
  // it; this one fails), a null metadata. An object in `value` while a shredded object's
  // typed_value is null (hyparquet-writer writes them) is read as it is. Optional object field groups (the spec wants them
  // required) are read too, a null group meaning a missing field.
  bool WriteVariant(const NestedShape& s, std::string* out);
  bool WriteVariantAsBinary(const NestedShape& s, std::string* out);
  // Reads the record's metadata of kVariant group `s` into variant_metadata_.
  bool ReadVariantMetadata(const NestedShape& s);
  // What the Variant walk writes to: JSON text or a VariantEncoder (json_assembler.cc).
  class JsonSink;
  class BinarySink;
  // The Variant held by `p` (kVariant or kShredded) whose parent is present at `parent_def`, or
  // nothing and *missing when both its value and typed_value are null (or its group is).
  template <typename Sink>
  bool WriteShredded(const NestedShape& p, int16_t parent_def, Sink& sink, bool* missing);
  template <typename Sink>
  bool WriteShreddedArray(const NestedShape& list, Sink& sink);
  // `residual`: the `value` beside the shredded object, or null.
  template <typename Sink>
  bool WriteShreddedObject(const NestedShape& object, const ByteSpan* residual, Sink& sink);
  // The arena must hold `need` bytes, past arena_limit_: charges more of the budget for it
  // (OutOfMemory when refused), then moves the arena into a buffer of exactly the size charged. The
  // charge covers the old buffer and the new one while both are live, and is made before either
  // grows, so that a std::string never allocates more than the budget granted. GrowArena is the
  // same, recording the failure in error_.
  Status ReserveArena(std::string* out, size_t need);
  bool GrowArena(std::string* out, size_t need);
  // Before writing up to `n` bytes whose length is known only as a bound: the record within
  // max_record_, and the arena with room for them and headroom_ past them (ReserveArena).
  Status Room(std::string* out, size_t n);
  // After a value is written: the same for nothing more (Room(out, 0)), checked at the cost of one
  // comparison while the arena is far from both limits; false with error_ set.
  bool ArenaFits(std::string* out) { return out->size() <= check_at_ || Checkpoint(out); }
  bool Checkpoint(std::string* out);
  // check_at_ after arena_limit_, headroom_ or record_start_ changed.
  void UpdateCheck();
  Status RecordTooLong() const;
  // Fills the per-leaf and per-shape tables of VARIANT groups under `s`.
  Status IndexVariants(const NestedShape& s, bool in_variant);

  // Consumes one entry of every leaf under `s`, each of which must have a definition level in [lo,
  // hi): the entry that stands for a null value or an empty list.
  bool SkipEntry(const NestedShape& s, int16_t lo, int16_t hi);
  // The repetition level that follows an element of list `s`, the same for all its leaves.
  bool NextRepetition(const NestedShape& s, int16_t* rep);

  bool EnclosingNull(int leaf, int16_t def);
  bool NotOpen(int leaf, int16_t rep);
  bool RanOut(int leaf);
  bool Fail(int leaf, const std::string& what);
  // The same, keeping the code of `status`.
  bool Fail(int leaf, const Status& status);

  Status ValidateLevels(std::span<const LeafLevels> leaves);
  // Points cursor i at a copy of its levels without the entries that continue a null or empty list
  // (repetition level r >= 1, this entry and the one before both defined below where the r-th
  // repeated field holds an element), when it has any. They stand for no value and the spec has no
  // place for them, but DuckDB writes one per position of a NULL fixed-size ARRAY (a NULL INT[3] is
  // (r 0, d 0), (r 1, d 0), (r 1, d 0)), and other readers skip them too.
  Status DropEntriesOfClosedLists(int i);

  NestedShape shape_;
  std::vector<const NestedShape*>
      leaf_shapes_;                         // by leaf number: maximum levels, name for messages
  std::vector<std::string> member_prefix_;  // by struct member: "\"name\":", see WriteValue
  std::vector<LeafCursor> cursors_;         // reused across calls
  std::string key_scratch_;                 // a map key being turned into a member name
  // By leaf and repetition level r: the definition level at which the leaf's r-th repeated field
  // holds an element, from the schema.
  std::vector<std::vector<int16_t>> open_def_;
  // By leaf: the levels without dropped entries (DropEntriesOfClosedLists), when some were dropped.
  std::vector<std::vector<int16_t>> kept_def_, kept_rep_;
  // VARIANT: by leaf number, whether the leaf is under a VARIANT (its values are read as bytes)
  // and the type of a primitive typed_value leaf; by shape id, the fields of a shredded object in
  // name order (indexes into its children).
  std::vector<uint8_t> variant_leaf_;
  std::vector<std::optional<ShreddedLeafType>> typed_leaf_type_;
  std::vector<std::vector<int>> fields_by_name_;
  VariantMetadata variant_metadata_;  // of the record being assembled
  VariantDecoder variant_decoder_;
  bool variant_as_binary_ = false;      // Make's variant_as_binary, for a VARIANT field
  VariantEncoder variant_encoder_;      // the record's Variant, when read as binary
  std::vector<VariantField> residual_;  // stack of the `value` fields of shredded objects
  int64_t record_ = 0;                  // record being assembled, for messages
  int64_t num_records_ = 0;             // records asked for, for messages
  Status error_;
  std::shared_ptr<MemoryBudget> budget_;
  BudgetCharge* arena_charge_ = nullptr;  // of the JsonColumn being filled
  size_t arena_limit_ = 0;                // the arena may grow this far before GrowArena
  BudgetCharge kept_charge_;              // kept_def_, kept_rep_
  // Room kept free in the arena past what is written, with a budget: enough for the text written
  // between two checks (ArenaFits, Room): a value (LeafLevels::max_value_json) and the punctuation
  // and member names one walk of the shape writes (skeleton_bytes_).
  size_t skeleton_bytes_ = 0;
  size_t headroom_ = 0;
  size_t max_record_ = 0;      // set_max_record_bytes; 0: none
  size_t record_start_ = 0;    // arena offset of the record being written
  size_t check_at_ = 0;        // ArenaFits passes up to this arena size
  int64_t failed_record_ = -1;  // failed_record()
};

}  // namespace pq
