// The block framing of Hadoop's BlockCompressorStream, which Parquet pages carry under the
// deprecated LZ4 codec (5) and under LZO (3, as parquet-java writes it through hadoop-lzo's
// LzoCodec). Internal to format/codec.
//
// A framed page is a sequence of blocks, each
//     u32 big-endian uncompressed size U
//     one or more chunks, each: u32 big-endian compressed size C, then C bytes of one compressed
//     block of the underlying codec
// where the chunks of a block together decompress to U bytes. Hadoop starts a new chunk every
// (buffer size - the codec's worst-case overhead) input bytes: 245,693 bytes for hadoop-lzo's
// defaults (a 256 KiB buffer, LZO1X overhead 256 KiB / 16 + 64 + 3). Writers in practice emit one
// chunk per block for pages below that size. The blocks' sizes must add up to the page's
// uncompressed size exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq::codec_internal {

// Decodes one compressed chunk into at most `room.size()` bytes and returns how many it produced;
// Corruption when the chunk is invalid or would produce more than `room` holds.
using ChunkDecoder = Result<size_t> (*)(ByteSpan chunk, std::span<uint8_t> room);
// Appends the compressed form of `input` (one chunk's bytes, at most the framing's chunk size) to
// *out.
using ChunkEncoder = Status (*)(ByteSpan input, std::vector<uint8_t>* out);

// Decodes the framing above, filling `output` exactly. Corruption (without the codec's name: the
// caller adds it) when a length runs past the input, a block states more bytes than remain in
// `output`, a chunk fails, or the blocks do not add up to output.size().
Status DecodeHadoopFraming(ByteSpan input, std::span<uint8_t> output, ChunkDecoder decode);

// Writes `input` framed: blocks of at most `block_size` bytes (at least one block, so an empty
// input is one empty block), each with a single chunk. Replaces *out.
Status EncodeHadoopFraming(ByteSpan input, size_t block_size, ChunkEncoder encode,
                           std::vector<uint8_t>* out);

}  // namespace pq::codec_internal
