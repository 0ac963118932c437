// ByteReader: the one way the engine reads untrusted bytes. A span and a cursor. Every read checks
// `n > remaining()` before touching memory and returns a Result, so no decoder can read past the
// end of its input. Multi-byte numbers are little endian, as everywhere in Parquet but the Hadoop
// LZ4 frame headers (ReadU32BigEndian).
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "format/util/status.h"

namespace pq {

using ByteSpan = std::span<const uint8_t>;

inline std::string_view AsStringView(ByteSpan s) {
  return std::string_view(reinterpret_cast<const char*>(s.data()), s.size());
}
inline ByteSpan AsBytes(std::string_view s) {
  return ByteSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// Little-endian loads from memory the caller has already bounds-checked.
template <typename T>
inline T LoadLE(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;  // all supported targets are little endian (checked in byte_reader.cc)
}
template <typename T>
inline void StoreLE(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

class ByteReader {
 public:
  ByteReader() = default;
  explicit ByteReader(ByteSpan data) : data_(data) {}

  size_t remaining() const { return data_.size() - pos_; }
  size_t position() const { return pos_; }
  size_t size() const { return data_.size(); }
  bool empty() const { return remaining() == 0; }
  const uint8_t* current() const { return data_.data() + pos_; }
  ByteSpan rest() const { return data_.subspan(pos_); }

  Status Require(size_t n) const {
    if (n > remaining()) return Truncated(n);
    return Status::OK();
  }
  Status Skip(size_t n) {
    if (n > remaining()) return Truncated(n);
    pos_ += n;
    return Status::OK();
  }
  Result<ByteSpan> ReadBytes(size_t n) {
    if (n > remaining()) return Truncated(n);
    ByteSpan s = data_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  Result<uint8_t> ReadU8() {
    if (remaining() < 1) return Truncated(1);
    return data_[pos_++];
  }
  template <typename T>
  Result<T> ReadLE() {
    if (sizeof(T) > remaining()) return Truncated(sizeof(T));
    T v = LoadLE<T>(data_.data() + pos_);
    pos_ += sizeof(T);
    return v;
  }
  Result<uint32_t> ReadU32BigEndian();
  // Unsigned LEB128. More than max_bytes bytes (5 for 32-bit, 10 for 64-bit) is corruption.
  Result<uint64_t> ReadUleb128(int max_bytes = 10);
  Result<uint32_t> ReadUleb128U32();
  // ZigZag-decoded LEB128.
  Result<int64_t> ReadZigZag64();
  Result<int32_t> ReadZigZag32();

 private:
  Status Truncated(size_t n) const;

  ByteSpan data_;
  size_t pos_ = 0;
};

}  // namespace pq
