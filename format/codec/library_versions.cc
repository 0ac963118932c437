// Versions of the compression libraries the engine runs with (codec.h, CodecLibraryVersions).
#include <brotli/decode.h>
#include <lz4.h>
#include <lzo/lzoconf.h>
#include <snappy-stubs-public.h>
#include <zlib.h>
#include <zstd.h>

#include <string>
#include <utility>
#include <vector>

#include "format/codec/codec.h"

namespace pq {
namespace {

// Brotli packs its version as 0xMMMmmmppp (major << 24 | minor << 12 | patch).
std::string BrotliVersionText(uint32_t v) {
  return std::to_string(v >> 24) + "." + std::to_string((v >> 12) & 0xFFF) + "." + std::to_string(v & 0xFFF);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> CodecLibraryVersions() {
  return {
      {"zstd", ZSTD_versionString()},
      {"lz4", LZ4_versionString()},
      // Snappy has no run-time version call: this is the version of the headers it was built with.
      {"snappy", std::to_string(SNAPPY_MAJOR) + "." + std::to_string(SNAPPY_MINOR) + "." +
                     std::to_string(SNAPPY_PATCHLEVEL)},
      {"zlib", zlibVersion()},
      {"brotli", BrotliVersionText(BrotliDecoderVersion())},
      {"lzo", lzo_version_string()},
  };
}

}  // namespace pq
