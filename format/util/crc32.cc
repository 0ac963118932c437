#include "format/util/crc32.h"

#include <zlib.h>

namespace pq {

uint32_t Crc32(ByteSpan data, uint32_t crc) {
  if (data.empty()) return crc;  // zlib treats a null buffer as "return the initial value"
  // crc32_z takes a size_t length, so no chunking is needed for large pages.
  return static_cast<uint32_t>(crc32_z(crc, data.data(), data.size()));
}

}  // namespace pq
