// ZSTD (codec 6): one or more Zstandard frames (RFC 8478), skippable frames allowed.
// file-format.txt "Compression / ZSTD"; the Zstandard library is authoritative. A frame need not
// state its content size (streaming writers omit it), so decoding goes straight into the caller's
// exact-size buffer and the produced size is checked afterwards.
#include <zstd.h>
#include <zstd_errors.h>

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
};

}  // namespace pq::codec_internal
