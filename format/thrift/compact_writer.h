// CompactWriter: appends values in the Thrift compact protocol to a string. The mirror of
// CompactReader (the Thrift compact protocol specification). The caller writes the fields of a
// struct in increasing id order between BeginStruct and EndStruct; WriteFieldHeader picks the short
// form (one byte) when the id is 1..15 above the previous field of the same struct and the long
// form otherwise. The writer trusts its caller: it never fails.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "format/thrift/compact_reader.h"  // CompactType

namespace pq::thrift {

class CompactWriter {
 public:
  explicit CompactWriter(std::string* out) : out_(out) {}

  // Opens a struct (its field ids start again from 0) / writes the stop byte and closes it.
  void BeginStruct();
  void EndStruct();

  // The header of field `id`, which must be larger than the previous field id of this struct for
  // the short form to be used (any id works: the long form is the fallback).
  void WriteFieldHeader(CompactType type, int16_t id);
  // A bool field: its value is the header's type (1 true, 2 false); no payload.
  void WriteBoolField(int16_t id, bool value);

  void WriteI8(int8_t v) { out_->push_back(static_cast<char>(v)); }
  void WriteI16(int16_t v) { WriteZigZag(v); }
  void WriteI32(int32_t v) { WriteZigZag(v); }
  void WriteI64(int64_t v) { WriteZigZag(v); }
  void WriteDouble(double v);
  void WriteBinary(std::string_view bytes);
  // 16 raw bytes.
  void WriteUuid(std::string_view bytes16);
  // A bool list element: one byte, 1 or 0.
  void WriteBoolElement(bool v) { out_->push_back(v ? 1 : 0); }

  // A list/set header: size 0..14 in the high nibble, or 15 and a varint size.
  // For lists of bool pass kBoolTrue (or kBoolFalse: writers differ, readers accept both).
  void WriteListHeader(CompactType element_type, uint32_t size);
  // A map header: a varint size, and for a non-empty map one byte of key and value types.
  void WriteMapHeader(CompactType key_type, CompactType value_type, uint32_t size);

  void WriteVarint(uint64_t v);
  void WriteZigZag(int64_t v) {
    WriteVarint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }

 private:
  std::string* out_;
  int16_t last_id_ = 0;
  std::vector<int16_t> saved_ids_;  // last_id_ of each enclosing struct
};

}  // namespace pq::thrift
