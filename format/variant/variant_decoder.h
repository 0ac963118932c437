// Variant binary decoding: a Variant (metadata + value bytes) as JSON text.
//
// A Variant is two byte strings (the Parquet type spec, "Variant Binary Encoding"):
// the metadata, a header byte then a dictionary of field names (offset_size-byte count and offsets,
// then the bytes), and the value, one header byte (basic type in bits 0-1: primitive, short
// string, object, array) then its data. Objects name their fields by dictionary id and place each
// field value at an offset within the object; arrays place each element at an offset.
//
// JSON written:
//   - primitives as variant_text.h says (the rendering rules of every primitive type);
//   - short strings as strings;
//   - objects as {"name":value,...} in the order stored: the binary order, which the spec requires
//     to be sorted by field name;
//   - arrays as [v,...].
//
// The bytes are untrusted. Every read is bounds-checked; failures are Corruption with what was
// wrong, never a read out of range:
//   - metadata: version must be 1 (another version is NotSupported), offsets inside the bytes;
//   - a value must fit its span exactly (no trailing bytes after the top-level value); a primitive
//     type id this reader does not know is NotSupported (its size cannot be known, so the rest of
//     the value cannot be read either); decimal scales must be in [0, 38];
//   - objects and arrays: the field ids and offsets must fit, every field id must name a dictionary
//     entry, field names must be unique; the children must not overlap: each child must end before
//     the next child (in offset order) starts, and no two children may start at the same offset.
//     That rule bounds the work to the size of the input: without it, children sharing bytes could
//     make a few hundred bytes expand into exponentially many values.
//   - nesting deeper than kMaxVariantNesting objects/arrays is Corruption (the decoder recurses).
// Field names that are out of order but unique are accepted and kept in stored order. UTF-8 is not
// validated (as for every string the engine reads; json_writer.h).
//
// Cost: one pass over the value; a reusable VariantDecoder allocates only while its scratch
// (offsets of the objects being decoded) grows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq {

// Objects and arrays nested deeper than this are refused.
inline constexpr int kMaxVariantNesting = 256;

// Basic types (bits 0-1 of a value's header byte).
enum class VariantBasicType : uint8_t { kPrimitive = 0, kShortString = 1, kObject = 2, kArray = 3 };

namespace variant {

// Primitive type ids (bits 2-7 of a primitive's header byte; the "Variant primitive types" table).
enum PrimitiveId : uint8_t {
  kNull = 0,
  kTrue = 1,
  kFalse = 2,
  kInt8 = 3,
  kInt16 = 4,
  kInt32 = 5,
  kInt64 = 6,
  kDouble = 7,
  kDecimal4 = 8,
  kDecimal8 = 9,
  kDecimal16 = 10,
  kDate = 11,
  kTimestampMicros = 12,
  kTimestampNtzMicros = 13,
  kFloat = 14,
  kBinary = 15,
  kString = 16,
  kTimeNtzMicros = 17,
  kTimestampNanos = 18,
  kTimestampNtzNanos = 19,
  kUuid = 20,
};

// The largest scale a Variant decimal may have.
inline constexpr uint8_t kMaxDecimalScale = 38;

}  // namespace variant

// The parsed header of a Variant metadata: O(1), points into the bytes it was parsed from, which
// must outlive it.
class VariantMetadata {
 public:
  VariantMetadata() = default;  // an empty dictionary
  // Checks the header byte (version 1), that the dictionary size and all its offsets fit, and that
  // the last offset is inside the string bytes. Entries are checked when looked up.
  static Result<VariantMetadata> Parse(ByteSpan bytes);

  uint32_t dictionary_size() const { return dictionary_size_; }
  // Bytes the metadata occupies: header, size, offsets and strings up to the last offset (bytes
  // after that are not part of it).
  size_t size() const { return size_; }
  // Dictionary entry `id`: Corruption when id >= dictionary_size() or its offsets are out of order.
  Result<std::string_view> Key(uint32_t id) const;

 private:
  const uint8_t* offsets_ = nullptr;  // dictionary_size_ + 1 offsets of offset_size_ bytes
  const uint8_t* strings_ = nullptr;  // the string bytes
  size_t strings_size_ = 0;
  size_t size_ = 0;
  uint32_t dictionary_size_ = 0;
  uint8_t offset_size_ = 1;
};

// One field of an object value: its name, its dictionary id and its whole encoded value.
struct VariantField {
  std::string_view name;
  ByteSpan value;
  uint32_t id = 0;
};

// The size in bytes of the value that starts at bytes[0], read from its header alone (for objects
// and arrays: header, counts, ids, offsets and the last offset). Corruption when the header or the
// value does not fit in `bytes`, NotSupported for an unknown primitive type.
Result<size_t> VariantValueSize(ByteSpan bytes);

// The basic type of a value; the value must not be empty.
inline VariantBasicType VariantBasicTypeOf(ByteSpan value) {
  return static_cast<VariantBasicType>(value[0] & 0x3);
}

// Decodes values to JSON. Holds scratch space only; reuse one per scan to avoid allocating.
//
// The text may be far larger than the value: an object of a few bytes names a metadata key that
// may be long, and every object of the value may name it again. The output limit bounds what
// AppendJson writes: OutOfMemory, and *out as it was, once *out would pass it.
class VariantDecoder {
 public:
  // Appends the JSON text of `value` (one whole value, no trailing bytes), field names looked up in
  // `metadata`. On error *out is left as it was.
  Status AppendJson(const VariantMetadata& metadata, ByteSpan value, std::string* out);
  // The size *out may reach (give or take the last element's text); no limit by default.
  void set_output_limit(size_t bytes) { output_limit_ = bytes; }

  // `value` must be an object (Corruption otherwise). Appends its fields to *fields in stored
  // order, each with its exact value bytes (not checked further: AppendJson checks them). Checks
  // what AppendJson checks of the object itself (fit, ids, unique names, no overlap).
  Status ReadObjectFields(const VariantMetadata& metadata, ByteSpan value,
                          std::vector<VariantField>* fields);
  // `value` must be an array (Corruption otherwise). Appends its elements to *elements in order,
  // each with its exact bytes (not checked further), after the checks AppendJson makes of the
  // array itself (fit, no overlap).
  Status ReadArrayElements(ByteSpan value, std::vector<ByteSpan>* elements);

 private:
  // The layout of an object or array value, read from its header.
  struct Container;
  // Reads the layout of an object or array and checks that no two children start at the same
  // offset (pushing the sorted offsets on sorted_offsets_ when they are not in order).
  Status ReadContainer(ByteSpan value, Container* c);
  // ReadContainer of a whole value (no bytes after it) of basic type `expected`.
  Status ReadWholeContainer(ByteSpan value, VariantBasicType expected, Container* c);
  // The exact bytes of child i, which must end before the next child in memory starts.
  Result<ByteSpan> Child(const Container& c, uint32_t i);
  Status CheckUniqueNames(const VariantMetadata& metadata, const Container& c);

  // Writes `value`, whose size is exactly value.size() (checked by the caller).
  Status Write(const VariantMetadata& metadata, ByteSpan value, int depth, std::string* out);
  Status WritePrimitive(ByteSpan value, std::string* out);

  Status OverOutputLimit() const;

  std::vector<uint32_t> sorted_offsets_;  // children offsets of the containers being written
  std::vector<std::string_view> names_;   // duplicate-name check of unsorted objects
  size_t output_limit_ = SIZE_MAX;
};

// Appends the JSON text of the Variant (metadata, value) to *out. On error *out is unchanged.
Status AppendVariantJson(ByteSpan metadata, ByteSpan value, std::string* out);

}  // namespace pq
