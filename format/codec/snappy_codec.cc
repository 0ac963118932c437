// SNAPPY (codec 1): one Snappy block, which begins with a varint of its uncompressed length.
// The Parquet spec "Compression / SNAPPY"; the Google Snappy library is authoritative.
#include <snappy.h>

#include "format/codec/codec_impl.h"

namespace pq::codec_internal {
namespace {

constexpr const char* kName = "SNAPPY";

Status SnappyDecompress(ByteSpan input, std::span<uint8_t> output) {
  const char* src = reinterpret_cast<const char*>(input.data());
  size_t stated = 0;
  if (!snappy::GetUncompressedLength(src, input.size(), &stated)) {
    return InvalidData(kName, "bad uncompressed-length prefix");
  }
  // The block states its size up front: check it before writing anything, so the library never
  // writes past output.size().
  if (stated != output.size()) return SizeMismatch(kName, stated, output.size());
  if (!snappy::RawUncompress(src, input.size(), reinterpret_cast<char*>(NonNullOut(output)))) {
    return InvalidData(kName, "corrupt block");
  }
  return Status::OK();
}

bool SnappyStatedSize(ByteSpan input, size_t* size) {
  return snappy::GetUncompressedLength(reinterpret_cast<const char*>(input.data()), input.size(), size);
}

Status SnappyCompress(ByteSpan input, int /*level*/, std::vector<uint8_t>* out) {
  out->resize(snappy::MaxCompressedLength(input.size()));
  size_t written = 0;
  snappy::RawCompress(reinterpret_cast<const char*>(NonNull(input)), input.size(),
                      reinterpret_cast<char*>(out->data()), &written);
  out->resize(written);
  return Status::OK();
}

}  // namespace

const CodecImpl kSnappyCodec = {
    .name = kName,
    .decompress = SnappyDecompress,
    .compress = SnappyCompress,
    .has_levels = false,
    .min_level = 0,
    .max_level = 0,
    .default_level = 0,
    .stated_size = SnappyStatedSize,
    .max_ratio = 22,  // a 3-byte copy element makes at most 64 bytes
};

}  // namespace pq::codec_internal
