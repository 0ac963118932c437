// The codec factory: picks the implementation for a CompressionCodec and applies the rules shared
// by all codecs (sizes, empty pages, levels, names). See codec.h for the contracts.
#include "format/codec/codec.h"

#include <cstring>
#include <string>

#include "format/codec/codec_impl.h"

namespace pq {
namespace codec_internal {

Status SizeMismatch(const char* codec, size_t produced, size_t expected) {
  return Status::Corruption(std::string(codec) + " page decompressed to " +
                            std::to_string(produced) + " bytes but the page header says " +
                            std::to_string(expected));
}

Status LargerThanExpected(const char* codec, size_t expected) {
  return Status::Corruption(std::string(codec) + " page decompresses to more than the " +
                            std::to_string(expected) + " bytes the page header says");
}

Status InvalidData(const char* codec, std::string_view detail) {
  return Status::Corruption(std::string(codec) + " page is invalid: " + std::string(detail));
}

namespace {

Status UncompressedDecompress(ByteSpan input, std::span<uint8_t> output) {
  if (input.size() != output.size()) {
    return Status::Corruption("UNCOMPRESSED page holds " + std::to_string(input.size()) +
                              " bytes but the page header says " + std::to_string(output.size()));
  }
  std::memcpy(output.data(), input.data(), input.size());
  return Status::OK();
}

Status UncompressedCompress(ByteSpan input, int /*level*/, std::vector<uint8_t>* out) {
  out->assign(input.begin(), input.end());
  return Status::OK();
}

}  // namespace

const CodecImpl kUncompressedCodec = {
    .name = "UNCOMPRESSED",
    .decompress = UncompressedDecompress,
    .compress = UncompressedCompress,
    .has_levels = false,
    .min_level = 0,
    .max_level = 0,
    .default_level = 0,
};

}  // namespace codec_internal

namespace {

using codec_internal::CodecImpl;

constexpr size_t kMaxPageBytes = INT32_MAX;  // page sizes are i32 in the PageHeader

// The implementation of `codec`; NotSupported for numbers Parquet does not define.
Result<const CodecImpl*> FindCodec(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::kUncompressed:
      return &codec_internal::kUncompressedCodec;
    case CompressionCodec::kSnappy:
      return &codec_internal::kSnappyCodec;
    case CompressionCodec::kGzip:
      return &codec_internal::kGzipCodec;
    case CompressionCodec::kLzo:
      return &codec_internal::kLzoCodec;
    case CompressionCodec::kBrotli:
      return &codec_internal::kBrotliCodec;
    case CompressionCodec::kLz4:
      return &codec_internal::kLz4HadoopCodec;
    case CompressionCodec::kZstd:
      return &codec_internal::kZstdCodec;
    case CompressionCodec::kLz4Raw:
      return &codec_internal::kLz4RawCodec;
  }
  return Status::NotSupported("unknown compression codec " +
                              std::to_string(static_cast<int32_t>(codec)));
}

// The writable implementation of `codec`, or NotSupported.
Result<const CodecImpl*> FindWritableCodec(CompressionCodec codec) {
  PQ_ASSIGN_OR_RETURN(const CodecImpl* impl, FindCodec(codec));
  if (impl->compress == nullptr) {
    return Status::NotSupported(std::string("writing ") + impl->name +
                                " (Hadoop-framed, deprecated) is not supported; use LZ4_RAW");
  }
  return impl;
}

Result<int> EffectiveLevel(const CodecImpl& impl, int level) {
  if (level == kDefaultCompressionLevel) return impl.has_levels ? impl.default_level : 0;
  if (!impl.has_levels) {
    return Status::InvalidArgument(std::string(impl.name) +
                                   " does not take a compression level (got " +
                                   std::to_string(level) + ")");
  }
  if (level < impl.min_level || level > impl.max_level) {
    return Status::InvalidArgument(std::string(impl.name) + " compression level must be between " +
                                   std::to_string(impl.min_level) + " and " +
                                   std::to_string(impl.max_level) + ", got " +
                                   std::to_string(level));
  }
  return level;
}

char AsciiLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

}  // namespace

Status Decompress(CompressionCodec codec, ByteSpan input, std::span<uint8_t> output) {
  PQ_ASSIGN_OR_RETURN(const CodecImpl* impl, FindCodec(codec));
  if (input.size() > kMaxPageBytes || output.size() > kMaxPageBytes) {
    return Status::InvalidArgument(std::string(impl->name) + " page larger than 2^31-1 bytes");
  }
  if (input.empty()) {
    if (output.empty()) return Status::OK();
    return Status::Corruption(std::string(impl->name) + " page is empty but the page header says " +
                              std::to_string(output.size()) + " bytes");
  }
  return impl->decompress(input, output);
}

Status CheckDecompressedSize(CompressionCodec codec, ByteSpan input, size_t claimed) {
  PQ_ASSIGN_OR_RETURN(const CodecImpl* impl, FindCodec(codec));
  if (input.empty()) return Status::OK();  // Decompress itself settles empty pages
  size_t stated = 0;
  const bool states = impl->stated_size && impl->stated_size(input, &stated);
  if (states && stated != claimed) return codec_internal::SizeMismatch(impl->name, stated, claimed);
  const size_t n = input.size();
  if (claimed <= kPlausibleSlack || (claimed - kPlausibleSlack) / kPlausibleRatio <= n) {
    return Status::OK();
  }
  // A stream that states its size may state any: what its bytes can reach bounds it too.
  if (impl->max_ratio != 0 && (claimed - 64) / impl->max_ratio > n) {
    return Status::Corruption(std::string(impl->name) + " page of " + std::to_string(n) +
                              " bytes cannot decompress to the " + std::to_string(claimed) +
                              " bytes the page header says");
  }
  if (states) return Status::OK();
  if (impl->count_output) {
    PQ_ASSIGN_OR_RETURN(size_t produced, impl->count_output(input, claimed));
    if (produced > claimed) return codec_internal::LargerThanExpected(impl->name, claimed);
    if (produced != claimed) return codec_internal::SizeMismatch(impl->name, produced, claimed);
  }
  return Status::OK();
}

Status Compress(CompressionCodec codec, ByteSpan input, int level, std::vector<uint8_t>* out) {
  PQ_ASSIGN_OR_RETURN(const CodecImpl* impl, FindWritableCodec(codec));
  PQ_ASSIGN_OR_RETURN(int effective, EffectiveLevel(*impl, level));
  if (input.size() > kMaxPageBytes) {
    return Status::InvalidArgument(std::string(impl->name) + ": cannot compress a page of " +
                                   std::to_string(input.size()) + " bytes (over 2^31-1)");
  }
  return impl->compress(input, effective, out);
}

Result<int> ValidateCompressionLevel(CompressionCodec codec, int level) {
  PQ_ASSIGN_OR_RETURN(const CodecImpl* impl, FindWritableCodec(codec));
  return EffectiveLevel(*impl, level);
}

bool CodecSupportsWrite(CompressionCodec codec) {
  return FindWritableCodec(codec).ok();
}

Result<CompressionCodec> ParseCodecName(std::string_view name) {
  struct NamedCodec {
    std::string_view name;
    CompressionCodec codec;
  };
  static constexpr NamedCodec kNames[] = {
      {"uncompressed", CompressionCodec::kUncompressed},
      {"none", CompressionCodec::kUncompressed},
      {"snappy", CompressionCodec::kSnappy},
      {"gzip", CompressionCodec::kGzip},
      {"brotli", CompressionCodec::kBrotli},
      {"zstd", CompressionCodec::kZstd},
      {"lz4_raw", CompressionCodec::kLz4Raw},
      {"lz4", CompressionCodec::kLz4Raw},  // the framed LZ4 codec is never written
      {"lzo", CompressionCodec::kLzo},
  };
  for (const NamedCodec& n : kNames) {
    if (EqualsIgnoringCase(name, n.name)) return n.codec;
  }
  return Status::InvalidArgument(
      "unknown compression '" + std::string(name) +
      "' (expected uncompressed, snappy, gzip, brotli, zstd, lz4_raw or lzo)");
}

}  // namespace pq
