#include "format/thrift/compact_writer.h"

#include <cstring>

namespace pq::thrift {

void CompactWriter::BeginStruct() {
  saved_ids_.push_back(last_id_);
  last_id_ = 0;
}

void CompactWriter::EndStruct() {
  out_->push_back(0);
  if (!saved_ids_.empty()) {
    last_id_ = saved_ids_.back();
    saved_ids_.pop_back();
  } else {
    last_id_ = 0;
  }
}

void CompactWriter::WriteFieldHeader(CompactType type, int16_t id) {
  const int32_t delta = int32_t{id} - last_id_;
  const auto type_bits = static_cast<uint8_t>(type);
  if (delta >= 1 && delta <= 15) {
    out_->push_back(static_cast<char>((delta << 4) | type_bits));
  } else {
    out_->push_back(static_cast<char>(type_bits));
    WriteI16(id);
  }
  last_id_ = id;
}

void CompactWriter::WriteBoolField(int16_t id, bool value) {
  WriteFieldHeader(value ? CompactType::kBoolTrue : CompactType::kBoolFalse, id);
}

void CompactWriter::WriteDouble(double v) {
  char bytes[8];
  std::memcpy(bytes, &v, 8);  // little-endian host (byte_reader.cc asserts it)
  out_->append(bytes, 8);
}

void CompactWriter::WriteBinary(std::string_view bytes) {
  WriteVarint(bytes.size());
  out_->append(bytes);
}

void CompactWriter::WriteUuid(std::string_view bytes16) {
  std::string_view b = bytes16.substr(0, 16);
  out_->append(b);
  out_->append(16 - b.size(), '\0');
}

void CompactWriter::WriteListHeader(CompactType element_type, uint32_t size) {
  const auto type_bits = static_cast<uint8_t>(element_type);
  if (size < 15) {
    out_->push_back(static_cast<char>((size << 4) | type_bits));
  } else {
    out_->push_back(static_cast<char>(0xf0 | type_bits));
    WriteVarint(size);
  }
}

void CompactWriter::WriteMapHeader(CompactType key_type, CompactType value_type, uint32_t size) {
  WriteVarint(size);
  if (size == 0) return;
  out_->push_back(
      static_cast<char>((static_cast<uint8_t>(key_type) << 4) | static_cast<uint8_t>(value_type)));
}

void CompactWriter::WriteVarint(uint64_t v) {
  while (v >= 0x80) {
    out_->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_->push_back(static_cast<char>(v));
}

}  // namespace pq::thrift
