// Fuzz target: the Variant binary decoder. Input: a 2-byte little-endian metadata length, the
// metadata bytes, then the value bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "format/variant/variant_decoder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  size_t metadata_size = data[0] | (size_t{data[1]} << 8);
  data += 2;
  size -= 2;
  if (metadata_size > size) metadata_size = size;
  std::string out;
  (void)pq::AppendVariantJson(pq::ByteSpan(data, metadata_size),
                              pq::ByteSpan(data + metadata_size, size - metadata_size), &out);
  return 0;
}
