#include "format/util/byte_reader.h"

#include <bit>

namespace pq {

static_assert(std::endian::native == std::endian::little, "the engine assumes a little-endian host");

Status ByteReader::Truncated(size_t n) const {
  return Status::Corruption("unexpected end of data: need " + std::to_string(n) + " bytes at offset " +
                            std::to_string(pos_) + ", " + std::to_string(remaining()) + " left");
}

Result<uint32_t> ByteReader::ReadU32BigEndian() {
  if (remaining() < 4) return Truncated(4);
  const uint8_t* p = data_.data() + pos_;
  pos_ += 4;
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

Result<uint64_t> ByteReader::ReadUleb128(int max_bytes) {
  uint64_t v = 0;
  for (int i = 0; i < max_bytes; ++i) {
    if (pos_ >= data_.size()) return Truncated(1);
    uint8_t b = data_[pos_++];
    if (i == 9 && (b & 0x7e) != 0) return Status::Corruption("varint overflows 64 bits");
    v |= uint64_t{b & 0x7fu} << (7 * i);
    if ((b & 0x80) == 0) return v;
  }
  return Status::Corruption("varint longer than " + std::to_string(max_bytes) + " bytes");
}

Result<uint32_t> ByteReader::ReadUleb128U32() {
  PQ_ASSIGN_OR_RETURN(uint64_t v, ReadUleb128(5));
  if (v > UINT32_MAX) return Status::Corruption("varint overflows 32 bits");
  return static_cast<uint32_t>(v);
}

Result<int64_t> ByteReader::ReadZigZag64() {
  PQ_ASSIGN_OR_RETURN(uint64_t zz, ReadUleb128(10));
  return static_cast<int64_t>((zz >> 1) ^ (~(zz & 1) + 1));
}

Result<int32_t> ByteReader::ReadZigZag32() {
  PQ_ASSIGN_OR_RETURN(uint32_t zz, ReadUleb128U32());
  return static_cast<int32_t>((zz >> 1) ^ (~(zz & 1) + 1));
}

}  // namespace pq
