// LZO (codec 3), read and written with liblzo2.
//
// The Parquet spec says only "a codec based on or interoperable with the LZO compression library"
// ("Compression / LZO"). What files hold is what parquet-java writes through hadoop-lzo's
// LzoCodec: Hadoop's block framing (hadoop_framing.h) around LZO1X blocks, compressed with
// LZO1X-1, one chunk per at most 245,693 input bytes (hadoop-lzo's defaults: a 256 KiB buffer less
// LZO1X's worst-case overhead). This codec writes exactly that form, and reads any block/chunk
// split of it. parquetjs writes a bare LZO1X block instead, so a page whose framing does not parse
// is retried as one bare block of the page's size, as the framed LZ4 codec does.
//
// Every chunk is decoded by lzo1x_decompress_safe into the room left in the page buffer, which
// checks both the input and the output bounds; a chunk must end exactly at its last byte.
#include <lzo/lzo1x.h>

#include <mutex>
#include <string>

#include "format/codec/codec_impl.h"
#include "format/codec/hadoop_framing.h"

namespace pq::codec_internal {
namespace {

constexpr const char* kName = "LZO";
// hadoop-lzo's defaults: io.compression.codec.lzo.buffersize 256 KiB, less LZO1X's overhead.
constexpr size_t kHadoopBufferSize = 256 * 1024;
constexpr size_t kChunkInputSize = kHadoopBufferSize - (kHadoopBufferSize / 16 + 64 + 3);

Status InitLzo() {
  static std::once_flag once;
  static int rc = LZO_E_ERROR;
  std::call_once(once, [] { rc = lzo_init(); });
  if (rc != LZO_E_OK) {
    return Status::NotSupported("LZO: liblzo2 failed to initialize (lzo_init " + std::to_string(rc) + ")");
  }
  return Status::OK();
}

std::string LzoError(int rc) {
  switch (rc) {
    case LZO_E_INPUT_OVERRUN: return "the block ends early";
    case LZO_E_OUTPUT_OVERRUN: return "the block decompresses to more bytes than it may";
    case LZO_E_LOOKBEHIND_OVERRUN: return "a match refers to bytes before the block's start";
    case LZO_E_EOF_NOT_FOUND: return "the block has no end marker";
    case LZO_E_INPUT_NOT_CONSUMED: return "bytes follow the block's end marker";
    default: return "invalid LZO1X data (liblzo2 error " + std::to_string(rc) + ")";
  }
}

// One LZO1X block into at most room.size() bytes; returns how many it produced.
Result<size_t> DecodeChunk(ByteSpan chunk, std::span<uint8_t> room) {
  PQ_RETURN_IF_ERROR(InitLzo());
  lzo_uint produced = room.size();
  const int rc = lzo1x_decompress_safe(NonNull(chunk), chunk.size(), NonNullOut(room), &produced,
                                       nullptr);
  if (rc != LZO_E_OK) return Status::Corruption(LzoError(rc));
  return static_cast<size_t>(produced);
}

Status EncodeChunk(ByteSpan input, std::vector<uint8_t>* out) {
  PQ_RETURN_IF_ERROR(InitLzo());
  // LZO1X-1's worst case for incompressible input (the LZO FAQ): n + n/16 + 64 + 3.
  const size_t bound = input.size() + input.size() / 16 + 64 + 3;
  const size_t start = out->size();
  out->resize(start + bound);
  thread_local std::vector<unsigned char> work(LZO1X_1_MEM_COMPRESS);
  lzo_uint written = bound;
  const int rc = lzo1x_1_compress(NonNull(input), input.size(), out->data() + start, &written,
                                  work.data());
  if (rc != LZO_E_OK || written > bound) {
    out->resize(start);
    return Status::InvalidArgument("LZO: compression failed (liblzo2 error " + std::to_string(rc) + ")");
  }
  out->resize(start + written);
  return Status::OK();
}

Status LzoDecompress(ByteSpan input, std::span<uint8_t> output) {
  Status framed = DecodeHadoopFraming(input, output, DecodeChunk);
  if (framed.ok()) return framed;
  // Not Hadoop framing: perhaps one bare block (parquetjs). The failed attempt may have written
  // into `output`; the retry overwrites all of it or fails.
  Result<size_t> bare = DecodeChunk(input, output);
  if (bare.ok() && *bare == output.size()) return Status::OK();
  return InvalidData(kName, "neither Hadoop-framed (" + framed.message() +
                                ") nor a bare LZO1X block of the page's size");
}

Status LzoCompress(ByteSpan input, int /*level*/, std::vector<uint8_t>* out) {
  return EncodeHadoopFraming(input, kChunkInputSize, EncodeChunk, out);
}

}  // namespace

const CodecImpl kLzoCodec = {
    .name = kName,
    .decompress = LzoDecompress,
    .compress = LzoCompress,
    .has_levels = false,
    .min_level = 0,
    .max_level = 0,
    .default_level = 0,
    // A long match's length grows by 255 per extension byte, and the instruction's other bytes
    // copy less than 255 each: no LZO1X stream expands more than 255 times (LZO1X-1 reaches 225).
    .max_ratio = 255,
};

}  // namespace pq::codec_internal
