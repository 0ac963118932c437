// VariantEncoder: builds Variant binaries (metadata + value), one Variant at a time, the way the
// Parquet type spec lays them out ("Variant Binary Encoding").
//
// Values are added depth first: a primitive, or BeginArray ... EndArray around the elements, or
// BeginObject, then Key(name) before each field's value, then EndObject. The top level holds one
// value. Finish() hands out the two binaries:
//   - metadata: version 1, the field names in the order first used (sorted_strings is set when
//     that order happens to be sorted), offsets of the fewest bytes that hold them;
//   - value: containers with the fewest bytes for field ids and offsets, is_large only past 255
//     elements, object fields listed in field-name order (unsigned bytes, as the spec requires;
//     the values themselves stay in the order they were added), primitives as added.
// Integers take the narrowest of int8/16/32/64 that holds them (AddInteger); the other adders keep
// the type they name, so a Variant copied with AddVariant keeps every primitive's type and bytes.
//
// Errors (InvalidArgument): an object with a field name twice, a value or metadata past 4 GiB
// (offsets are at most 4 bytes), containers left open at Finish, strings that are not UTF-8
// (AddString, Key). AddVariant checks what it copies as the decoder does (variant_decoder.h).
//
// A reused encoder allocates only while its buffers grow.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "format/metadata/metadata.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"
#include "format/variant/variant_decoder.h"

namespace pq {

class VariantEncoder {
 public:
  // Starts a new Variant: no names, no value.
  void Reset();

  // Primitives.
  void AddNull();
  void AddBoolean(bool v);
  // The narrowest of int8, int16, int32, int64.
  void AddInteger(int64_t v);
  // An integer of exactly this type (variant::kInt8 .. kInt64); v must fit it.
  void AddIntegerAs(variant::PrimitiveId type, int64_t v);
  void AddDouble(double v);
  void AddFloat(float v);
  // decimal4 / decimal8: the unscaled value; decimal16: 16 bytes big-endian two's complement.
  // scale <= 38.
  void AddDecimal4(int32_t unscaled, uint8_t scale);
  void AddDecimal8(int64_t unscaled, uint8_t scale);
  void AddDecimal16(const uint8_t big_endian[16], uint8_t scale);
  void AddDate(int32_t days);
  // Units since 1970-01-01 00:00:00; unit kMicros or kNanos; adjusted_to_utc picks timestamp or
  // timestamp without time zone.
  void AddTimestamp(int64_t value, TimeUnit unit, bool adjusted_to_utc);
  void AddTime(int64_t micros);
  // A short string when under 64 bytes, else a string primitive. InvalidArgument when not UTF-8.
  Status AddString(std::string_view s);
  void AddBinary(std::string_view bytes);
  void AddUuid(const uint8_t bytes[16]);

  // Containers.
  void BeginArray();
  Status EndArray();
  void BeginObject();
  // The name of the next value, inside an object. InvalidArgument when not UTF-8.
  Status Key(std::string_view name);
  // InvalidArgument naming a field given twice.
  Status EndObject();
  // Takes back the name given by the last Key(), whose value has not been added (a field that
  // turned out to be missing). Nothing happens when no name is pending.
  void CancelKey();

  // Adds a copy of `value` (one whole Variant value) whose field names are in `metadata`:
  // primitives byte for byte, containers re-encoded with this encoder's field ids. Errors as
  // VariantDecoder::AppendJson would give for the same bytes (Corruption, NotSupported).
  Status AddVariant(const VariantMetadata& metadata, ByteSpan value);

  // The Variant built: its metadata and value binaries, valid until the next call.
  // InvalidArgument when no value or more than one was added at the top level, or a container is
  // open.
  Status Finish(std::string_view* metadata, std::string_view* value);

 private:
  struct Frame {
    bool is_object = false;
    size_t start = 0;  // where the children begin in value_
    // Arrays: each element's offset from start. Objects: (field id, offset) per field.
    std::vector<uint32_t> offsets;
    std::vector<uint32_t> ids;
    bool key_pending = false;  // objects: Key() given, its value not yet
  };

  // Called before each value is added: checks the place (one top-level value, a key before an
  // object field) and notes where the value starts.
  void BeginValue();
  void AddPrimitive(variant::PrimitiveId id, const void* payload, size_t size);
  Status CopyValue(const VariantMetadata& metadata, ByteSpan value, int depth);
  Status Fail(std::string what);

  std::string value_;
  std::string metadata_;
  std::vector<std::string> names_;                 // the dictionary, by id
  std::unordered_map<std::string, uint32_t> ids_;  // name -> id
  std::vector<Frame> frames_;                      // open containers (reused)
  size_t depth_ = 0;                               // frames_ in use
  int top_level_values_ = 0;
  Status error_;  // a misuse found by a void adder, reported by the next End/Finish
  VariantDecoder decoder_;
  std::vector<VariantField> fields_scratch_;
  std::vector<ByteSpan> elements_scratch_;
  std::vector<uint32_t> order_scratch_;
};

// Appends an object value of `fields` (given in field-name order, with the ids of the metadata the
// object will be read with) to *out: what a partially shredded object leaves in `value`. The
// fields' values must total under 4 GiB.
void AppendVariantObject(std::span<const VariantField> fields, std::string* out);

}  // namespace pq
