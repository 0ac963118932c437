// Page compression: every codec Parquet defines, in both directions.
//
// The Parquet spec "Compression": the bytes of a data or dictionary page (after the levels of a v2
// page) are handed as-is to the codec, with no framing, except for the deprecated LZ4 codec (5)
// and LZO (3) as parquet-java writes it, which carry Hadoop's block framing (hadoop_framing.h).
// The page header states the uncompressed size, so decompression always writes into a buffer of
// exactly that size and anything else is corruption.
//
// Codec by codec (the facts the readers meet in real files, docs/format-notes.md):
//   UNCOMPRESSED  the input is the output.
//   SNAPPY        one Snappy block (its own length prefix must equal the expected size).
//   GZIP          one or more concatenated gzip members (RFC 1952); zlib-wrapped data is accepted.
//   LZO           Hadoop framing around LZO1X blocks, as parquet-java writes it through hadoop-lzo:
//                 frames of [u32 BE uncompressed size][u32 BE compressed size][LZO1X block], a
//                 new frame every 245,693 bytes. A page whose framing does not parse is retried as
//                 one bare LZO1X block (parquetjs). Written in the framed form, with LZO1X-1.
//   BROTLI        one Brotli stream (RFC 7932).
//   LZ4           Hadoop framing: frames of [u32 BE uncompressed size][u32 BE compressed size][LZ4
//                 block]. Some old writers put a bare LZ4 block under this codec, so a page whose
//                 framing does not parse is retried as LZ4_RAW. Read only: writers use LZ4_RAW.
//   ZSTD          one or more Zstandard frames; a frame need not state its content size.
//   LZ4_RAW       one bare LZ4 block.
//
// Compression levels (Compress, ValidateCompressionLevel; kDefaultCompressionLevel means default):
//   GZIP    1..9,  default 6 (zlib's own default).
//   ZSTD    1..22, default 3 (zstd's own default).
//   BROTLI  0..11, default 4: quality 4 compresses about as fast as gzip 6 and smaller, whereas the
//           library default (11) is two orders of magnitude slower, too slow for bulk exports.
//   UNCOMPRESSED, SNAPPY, LZ4_RAW, LZO take no level: only kDefaultCompressionLevel is accepted.
//
// All functions are thread-safe. Decompression reuses per-thread library contexts, because pages
// are decompressed constantly and context setup costs more than a small page.
#pragma once

#include <climits>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "format/metadata/metadata.h"  // CompressionCodec (the enum only; no code from pq_thrift)
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq {

// Asks Compress / ValidateCompressionLevel for the codec's default level.
inline constexpr int kDefaultCompressionLevel = INT32_MIN;

// Decompresses `input` into exactly `output.size()` bytes (the page header's uncompressed size).
// Both sizes must be at most 2^31-1 (page sizes are 32-bit signed in the page header), else
// InvalidArgument.
// Requires: `output` is no larger than the caller is prepared to allocate (nothing here allocates
// according to sizes found in `input`; output.size() is the only size trusted).
// Returns Corruption when `input` is not valid data for the codec or decompresses to more or fewer
// bytes than output.size(); NotSupported for codec numbers Parquet does not define.
// Empty input with empty output is OK for every codec; empty input with non-empty output is
// Corruption. On failure the contents of `output` are unspecified.
Status Decompress(CompressionCodec codec, ByteSpan input, std::span<uint8_t> output);

// Checks, before a caller allocates `claimed` bytes for Decompress, that `input` can decompress to
// that many bytes, so that a page of a few bytes whose header claims a gigabyte is refused without
// allocating it. Exact where the stream states its size (SNAPPY's length prefix; ZSTD frames that
// carry their content size). Otherwise a claim up to kPlausibleRatio times the input (plus
// kPlausibleSlack) is accepted as it is; a larger one is refused when it exceeds what the codec can
// ever expand to (GZIP 1032:1, LZ4 255:1) and is otherwise checked by decompressing into a small
// scratch buffer and counting (ZSTD without content sizes, BROTLI): such pages cost a second
// decompression, only when their claim is that large.
// Returns Corruption naming the codec when the claim cannot be right; OK says only that it may be.
inline constexpr size_t kPlausibleRatio = 64;
inline constexpr size_t kPlausibleSlack = size_t{1} << 20;
Status CheckDecompressedSize(CompressionCodec codec, ByteSpan input, size_t claimed);

// Compresses `input` with `codec` at `level` (see ValidateCompressionLevel) into `*out`, replacing
// its contents (its capacity is reused). Decompress(codec, *out, buffer of input.size()) gives back
// `input`. Returns InvalidArgument for a level the codec does not accept or an input over 2^31-1
// bytes (page sizes are 32-bit signed in the page header); NotSupported for a codec that
// CodecSupportsWrite() refuses.
Status Compress(CompressionCodec codec, ByteSpan input, int level, std::vector<uint8_t>* out);

// Returns the level Compress would use: the codec's default for kDefaultCompressionLevel, else
// `level` itself when it lies in the codec's range (0 for codecs without levels).
// InvalidArgument for a level out of range, or any explicit level for a codec without levels;
// NotSupported when the codec cannot be written.
Result<int> ValidateCompressionLevel(CompressionCodec codec, int level);

// True for the codecs Compress produces: UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD, LZ4_RAW, LZO.
// False for the Hadoop-framed LZ4 (5) and unknown numbers.
bool CodecSupportsWrite(CompressionCodec codec);

// Parses a writer option value, case-insensitively: "uncompressed" (alias "none"), "snappy",
// "gzip", "brotli", "zstd", "lz4_raw", "lzo". "lz4" is accepted as an alias of LZ4_RAW, since the
// framed LZ4 codec is deprecated and never written. Anything else is InvalidArgument naming the value.
Result<CompressionCodec> ParseCodecName(std::string_view name);

// The compression libraries this engine runs with, as (name, version) pairs: zstd, lz4, snappy (the
// version of the headers it was built with; Snappy has no run-time version call), zlib, brotli, lzo.
std::vector<std::pair<std::string, std::string>> CodecLibraryVersions();

}  // namespace pq
