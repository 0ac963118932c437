// The per-codec entry points that the factory in codec.cc dispatches to. Internal to format/codec.
//
// Each codec file defines one CodecImpl constant. The factory has already checked what is common to
// all codecs before calling in, so an implementation may rely on:
//   - decompress: `input` is non-empty; input.size() and output.size() are at most INT32_MAX
//     (so both fit int, uInt and size_t); `output` may be empty.
//   - compress: `level` is in the codec's range (or 0 when it has none); input.size() is at most
//     INT32_MAX; `input` may be empty.
// Spans may be empty with a null data(); pass NonNull()/NonNullOut() to the libraries instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq::codec_internal {

struct CodecImpl {
  const char* name;  // as the format spells it ("LZ4_RAW"), for messages
  // Decompresses into exactly output.size() bytes; Corruption otherwise (contract of
  // pq::Decompress).
  Status (*decompress)(ByteSpan input, std::span<uint8_t> output);
  // Replaces *out with the compressed bytes; null for a codec that is read-only.
  Status (*compress)(ByteSpan input, int level, std::vector<uint8_t>* out);
  bool has_levels;  // whether Compress takes a level at all
  int min_level;    // the accepted range when has_levels
  int max_level;
  int default_level;  // used for kDefaultCompressionLevel
  // For CheckDecompressedSize (codec.h), each optional:
  // the size the stream states for its whole output; false when it does not state one.
  bool (*stated_size)(ByteSpan input, size_t* size) = nullptr;
  // The most output one input byte can ever produce; 0 when unbounded or unknown.
  size_t max_ratio = 0;
  // Decompresses without keeping the output and returns how many bytes it produced, or any value
  // above `limit` as soon as it passes it; Corruption for invalid data.
  Result<size_t> (*count_output)(ByteSpan input, size_t limit) = nullptr;
};

extern const CodecImpl kUncompressedCodec;  // codec.cc
extern const CodecImpl kSnappyCodec;        // snappy_codec.cc
extern const CodecImpl kGzipCodec;          // gzip_codec.cc
extern const CodecImpl kLzoCodec;           // lzo_codec.cc
extern const CodecImpl kBrotliCodec;        // brotli_codec.cc
extern const CodecImpl kLz4HadoopCodec;     // lz4_codec.cc (codec 5)
extern const CodecImpl kZstdCodec;          // zstd_codec.cc
extern const CodecImpl kLz4RawCodec;        // lz4_codec.cc (codec 7)

// A valid pointer for a possibly empty span (libraries may reject null even with a zero length).
inline const uint8_t* NonNull(ByteSpan s) {
  static const uint8_t kNothing = 0;
  return s.empty() ? &kNothing : s.data();
}
inline uint8_t* NonNullOut(std::span<uint8_t> s) {
  thread_local uint8_t nothing = 0;
  return s.empty() ? &nothing : s.data();
}

// Uniform messages, so every codec reports the same failure the same way.
// "<codec> page decompressed to <produced> bytes but the page header says <expected>"
Status SizeMismatch(const char* codec, size_t produced, size_t expected);
// "<codec> page decompresses to more than the <expected> bytes the page header says"
Status LargerThanExpected(const char* codec, size_t expected);
// "<codec> page is invalid: <detail>"
Status InvalidData(const char* codec, std::string_view detail);

}  // namespace pq::codec_internal
