// In-memory representation of decoded Parquet values, one C++ type per physical type:
//   BOOLEAN -> uint8_t (0/1)   INT32 -> int32_t   INT64 -> int64_t   INT96 -> Int96
//   FLOAT -> float             DOUBLE -> double   BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY -> ByteArray
// A ByteArray points into memory someone else owns (a page buffer, a dictionary, or a decoder's
// storage buffer); whoever holds ByteArrays keeps that memory alive.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace pq {

struct ByteArray {
  const uint8_t* ptr = nullptr;
  uint32_t len = 0;
  std::string_view view() const { return {reinterpret_cast<const char*>(ptr), len}; }
  bool operator==(const ByteArray& o) const { return view() == o.view(); }
};

// INT96: 12 bytes little endian; for timestamps, nanoseconds of the day (8 bytes) then Julian day (4).
struct Int96 {
  uint32_t value[3] = {0, 0, 0};
  bool operator==(const Int96& o) const {
    return value[0] == o.value[0] && value[1] == o.value[1] && value[2] == o.value[2];
  }
};

using Buffer = std::vector<uint8_t>;
using BufferPtr = std::shared_ptr<const Buffer>;

}  // namespace pq
