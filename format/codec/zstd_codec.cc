// ZSTD (codec 6): one or more Zstandard frames (RFC 8478), skippable frames allowed.
// The Parquet spec "Compression / ZSTD"; the Zstandard library is authoritative. A frame need not
// state its content size (streaming writers omit it), so decoding goes straight into the caller's
// exact-size buffer and the produced size is checked afterwards.
#include <zstd.h>
#include <zstd_errors.h>

#include <cstdint>
#include <memory>
#include <string>

#include "format/codec/codec_impl.h"

namespace pq::codec_internal {
namespace {

constexpr const char* kName = "ZSTD";

struct DCtxDeleter {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};
struct CCtxDeleter {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};

Status ZstdDecompress(ByteSpan input, std::span<uint8_t> output) {
  // One context per thread: creating one costs more than decoding a small page. A one-shot
  // ZSTD_decompressDCtx starts afresh on each call, so reuse after a failure is safe.
  thread_local std::unique_ptr<ZSTD_DCtx, DCtxDeleter> context;
  if (context == nullptr) context.reset(ZSTD_createDCtx());
  if (context == nullptr)
    return Status::OutOfMemory("ZSTD: cannot allocate a decompression context");
  size_t produced = ZSTD_decompressDCtx(context.get(), NonNullOut(output), output.size(),
                                        input.data(), input.size());
  if (ZSTD_isError(produced)) {
    if (ZSTD_getErrorCode(produced) == ZSTD_error_dstSize_tooSmall) {
      return LargerThanExpected(kName, output.size());
    }
    return InvalidData(kName, ZSTD_getErrorName(produced));
  }
  if (produced != output.size()) return SizeMismatch(kName, produced, output.size());
  return Status::OK();
}

// The sum of the content sizes of all frames, when every frame states one (skippable frames
// count 0).
bool ZstdStatedSize(ByteSpan input, size_t* size) {
  size_t total = 0;
  const uint8_t* p = input.data();
  size_t left = input.size();
  while (left > 0) {
    const unsigned long long content = ZSTD_getFrameContentSize(p, left);
    if (content == ZSTD_CONTENTSIZE_UNKNOWN || content == ZSTD_CONTENTSIZE_ERROR) return false;
    const size_t frame = ZSTD_findFrameCompressedSize(p, left);
    if (ZSTD_isError(frame) || frame == 0 || frame > left) return false;
    if (content > SIZE_MAX - total) return false;
    total += static_cast<size_t>(content);
    p += frame;
    left -= frame;
  }
  *size = total;
  return true;
}

Result<size_t> ZstdCountOutput(ByteSpan input, size_t limit) {
  struct StreamDeleter {
    void operator()(ZSTD_DStream* s) const { ZSTD_freeDStream(s); }
  };
  std::unique_ptr<ZSTD_DStream, StreamDeleter> stream(ZSTD_createDStream());
  if (stream == nullptr) return Status::OutOfMemory("ZSTD: cannot allocate a decompression stream");
  ZSTD_initDStream(stream.get());
  uint8_t scratch[64 * 1024];
  ZSTD_inBuffer in = {input.data(), input.size(), 0};
  size_t produced = 0;
  while (true) {
    ZSTD_outBuffer out = {scratch, sizeof(scratch), 0};
    const size_t r = ZSTD_decompressStream(stream.get(), &out, &in);
    if (ZSTD_isError(r)) return InvalidData(kName, ZSTD_getErrorName(r));
    produced += out.pos;
    if (produced > limit) return produced;
    if (in.pos == in.size && out.pos < out.size) return produced;  // all input consumed and flushed
  }
}

Status ZstdCompress(ByteSpan input, int level, std::vector<uint8_t>* out) {
  thread_local std::unique_ptr<ZSTD_CCtx, CCtxDeleter> context;
  if (context == nullptr) context.reset(ZSTD_createCCtx());
  if (context == nullptr) return Status::OutOfMemory("ZSTD: cannot allocate a compression context");
  out->resize(ZSTD_compressBound(input.size()));
  // ZSTD_compressCCtx applies `level` and ignores any parameter left on the context.
  size_t written = ZSTD_compressCCtx(context.get(), out->data(), out->size(), NonNull(input),
                                     input.size(), level);
  if (ZSTD_isError(written)) {
    return Status::InvalidArgument(std::string("ZSTD: compression failed: ") +
                                   ZSTD_getErrorName(written));
  }
  out->resize(written);
  return Status::OK();
}

}  // namespace

const CodecImpl kZstdCodec = {
    .name = kName,
    .decompress = ZstdDecompress,
    .compress = ZstdCompress,
    .has_levels = true,
    .min_level = 1,
    .max_level = 22,  // ZSTD_maxCLevel(); negative "fast" levels are not offered
    .default_level = 3,
    .stated_size = ZstdStatedSize,
    .count_output = ZstdCountOutput,
};

}  // namespace pq::codec_internal
