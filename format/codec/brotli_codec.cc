// BROTLI (codec 4): one Brotli stream (RFC 7932). The Parquet spec "Compression / BROTLI"; the
// Brotli library is authoritative.
#include <brotli/decode.h>
#include <brotli/encode.h>

#include <memory>

#include "format/codec/codec_impl.h"

namespace pq::codec_internal {
namespace {

constexpr const char* kName = "BROTLI";

struct DecoderDeleter {
  void operator()(BrotliDecoderState* s) const { BrotliDecoderDestroyInstance(s); }
};

Status BrotliDecompress(ByteSpan input, std::span<uint8_t> output) {
  // The library has no way to reset a decoder, so each page gets a fresh one.
  std::unique_ptr<BrotliDecoderState, DecoderDeleter> decoder(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr));
  if (decoder == nullptr) return Status::OutOfMemory("BROTLI: cannot allocate a decoder");
  size_t available_in = input.size();
  const uint8_t* next_in = input.data();
  size_t available_out = output.size();
  uint8_t* next_out = NonNullOut(output);
  BrotliDecoderResult result = BrotliDecoderDecompressStream(decoder.get(), &available_in, &next_in,
                                                             &available_out, &next_out, nullptr);
  switch (result) {
    case BROTLI_DECODER_RESULT_SUCCESS:
      if (available_in != 0) return InvalidData(kName, "bytes after the end of the stream");
      break;
    case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
      return LargerThanExpected(kName, output.size());
    case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
      return InvalidData(kName, "data is truncated");
    case BROTLI_DECODER_RESULT_ERROR:
    default:
      return InvalidData(kName, BrotliDecoderErrorString(BrotliDecoderGetErrorCode(decoder.get())));
  }
  size_t produced = output.size() - available_out;
  if (produced != output.size()) return SizeMismatch(kName, produced, output.size());
  return Status::OK();
}

Result<size_t> BrotliCountOutput(ByteSpan input, size_t limit) {
  std::unique_ptr<BrotliDecoderState, DecoderDeleter> decoder(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr));
  if (decoder == nullptr) return Status::OutOfMemory("BROTLI: cannot allocate a decoder");
  uint8_t scratch[64 * 1024];
  size_t available_in = input.size();
  const uint8_t* next_in = input.data();
  size_t produced = 0;
  while (true) {
    size_t available_out = sizeof(scratch);
    uint8_t* next_out = scratch;
    BrotliDecoderResult result = BrotliDecoderDecompressStream(decoder.get(), &available_in, &next_in,
                                                               &available_out, &next_out, nullptr);
    produced += sizeof(scratch) - available_out;
    if (produced > limit) return produced;
    if (result == BROTLI_DECODER_RESULT_SUCCESS) return produced;
    if (result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) continue;
    if (result == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) return InvalidData(kName, "data is truncated");
    return InvalidData(kName, BrotliDecoderErrorString(BrotliDecoderGetErrorCode(decoder.get())));
  }
}

Status BrotliCompress(ByteSpan input, int level, std::vector<uint8_t>* out) {
  // MaxCompressedSize is 0 only on overflow, impossible for inputs capped at INT32_MAX on 64-bit
  // hosts; the encoder would then fail cleanly below anyway.
  size_t capacity = BrotliEncoderMaxCompressedSize(input.size());
  out->resize(capacity == 0 ? 1 : capacity);
  size_t written = out->size();
  if (!BrotliEncoderCompress(level, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, input.size(),
                             NonNull(input), &written, out->data())) {
    return Status::InvalidArgument("BROTLI: the encoder failed");
  }
  out->resize(written);
  return Status::OK();
}

}  // namespace

const CodecImpl kBrotliCodec = {
    .name = kName,
    .decompress = BrotliDecompress,
    .compress = BrotliCompress,
    .has_levels = true,
    .min_level = BROTLI_MIN_QUALITY,  // 0
    .max_level = BROTLI_MAX_QUALITY,  // 11
    .default_level = 4,               // see codec.h: the library default (11) is far too slow
    .count_output = BrotliCountOutput,
};

}  // namespace pq::codec_internal
