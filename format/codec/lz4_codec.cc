// LZ4_RAW (codec 7) and the deprecated Hadoop-framed LZ4 (codec 5).
//
// LZ4_RAW is one bare LZ4 block (the Parquet spec "Compression / LZ4_RAW").
//
// Codec 5 carries the framing of Hadoop's block compressor, which the Parquet spec calls
// undocumented ("Compression / LZ4"): blocks of LZ4 blocks behind big-endian lengths
// (hadoop_framing.h). Writers in practice (parquet-mr, parquet-cpp) emit exactly one chunk per
// block, but Hadoop itself splits large blocks into several chunks, and reading that general form
// costs nothing. Some old writers put a bare LZ4 block under codec 5 instead, so when the framing
// does not parse the whole page is retried as LZ4_RAW.
#include <lz4.h>

#include "format/codec/codec_impl.h"
#include "format/codec/hadoop_framing.h"

namespace pq::codec_internal {
namespace {

constexpr const char* kRawName = "LZ4_RAW";
constexpr const char* kHadoopName = "LZ4";

// Decodes one LZ4 block into at most `room.size()` bytes and returns how many it produced.
// Both sizes fit int: callers pass sub-spans of page buffers capped at INT32_MAX.
Result<size_t> DecodeBlock(ByteSpan block, std::span<uint8_t> room) {
  int produced = LZ4_decompress_safe(reinterpret_cast<const char*>(NonNull(block)),
                                     reinterpret_cast<char*>(NonNullOut(room)),
                                     static_cast<int>(block.size()), static_cast<int>(room.size()));
  if (produced < 0) {
    return Status::Corruption("invalid LZ4 block, or one larger than " +
                              std::to_string(room.size()) + " bytes");
  }
  return static_cast<size_t>(produced);
}

Status Lz4RawDecompress(ByteSpan input, std::span<uint8_t> output) {
  Result<size_t> produced = DecodeBlock(input, output);
  if (!produced.ok()) return InvalidData(kRawName, produced.status().message());
  if (*produced != output.size()) return SizeMismatch(kRawName, *produced, output.size());
  return Status::OK();
}

Status Lz4HadoopDecompress(ByteSpan input, std::span<uint8_t> output) {
  Status framed = DecodeHadoopFraming(input, output, DecodeBlock);
  if (framed.ok()) return framed;
  // Not Hadoop framing: perhaps a bare block from an old writer. The failed attempt may have
  // written into `output`; the retry overwrites all of it or fails.
  if (Lz4RawDecompress(input, output).ok()) return Status::OK();
  return InvalidData(kHadoopName, "neither Hadoop-framed (" + framed.message() +
                                      ") nor a bare LZ4 block of the page's size");
}

Status Lz4RawCompress(ByteSpan input, int /*level*/, std::vector<uint8_t>* out) {
  // The input size fits int (capped at INT32_MAX by the factory); LZ4_compressBound returns 0 only
  // above LZ4_MAX_INPUT_SIZE (about 2 GB), which the check below reports.
  const int size = static_cast<int>(input.size());
  const int bound = LZ4_compressBound(size);
  if (bound <= 0) {
    return Status::InvalidArgument("LZ4_RAW: a page of " + std::to_string(input.size()) +
                                   " bytes exceeds LZ4's input limit");
  }
  out->resize(static_cast<size_t>(bound));
  int written = LZ4_compress_default(reinterpret_cast<const char*>(NonNull(input)),
                                     reinterpret_cast<char*>(out->data()), size, bound);
  if (written <= 0) return Status::InvalidArgument("LZ4_RAW: compression failed");
  out->resize(static_cast<size_t>(written));
  return Status::OK();
}

}  // namespace

const CodecImpl kLz4RawCodec = {
    .name = kRawName,
    .decompress = Lz4RawDecompress,
    .compress = Lz4RawCompress,
    .has_levels = false,
    .min_level = 0,
    .max_level = 0,
    .default_level = 0,
    .max_ratio = 255,  // a match length grows by 255 per extension byte
};

const CodecImpl kLz4HadoopCodec = {
    .name = kHadoopName,
    .decompress = Lz4HadoopDecompress,
    .compress = nullptr,  // deprecated; writers use LZ4_RAW
    .has_levels = false,
    .min_level = 0,
    .max_level = 0,
    .default_level = 0,
    .max_ratio = 255,
};

}  // namespace pq::codec_internal
