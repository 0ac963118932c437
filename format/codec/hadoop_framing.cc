#include "format/codec/hadoop_framing.h"

#include <algorithm>
#include <string>

namespace pq::codec_internal {
namespace {

void AppendU32BigEndian(uint32_t v, std::vector<uint8_t>* out) {
  out->push_back(static_cast<uint8_t>(v >> 24));
  out->push_back(static_cast<uint8_t>(v >> 16));
  out->push_back(static_cast<uint8_t>(v >> 8));
  out->push_back(static_cast<uint8_t>(v));
}

void StoreU32BigEndian(uint32_t v, uint8_t* p) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

}  // namespace

Status DecodeHadoopFraming(ByteSpan input, std::span<uint8_t> output, ChunkDecoder decode) {
  ByteReader reader(input);
  size_t filled = 0;
  while (!reader.empty()) {
    PQ_ASSIGN_OR_RETURN(uint32_t block_size, reader.ReadU32BigEndian());
    if (block_size > output.size() - filled) {
      return Status::Corruption("a frame states " + std::to_string(block_size) + " bytes, only " +
                                std::to_string(output.size() - filled) + " remain in the page");
    }
    const size_t block_end = filled + block_size;
    // At least one chunk, even for an empty block (the form writers emit for an empty page); each
    // chunk consumes at least 4 input bytes, so the loop ends.
    do {
      PQ_ASSIGN_OR_RETURN(uint32_t chunk_size, reader.ReadU32BigEndian());
      PQ_ASSIGN_OR_RETURN(ByteSpan chunk, reader.ReadBytes(chunk_size));
      PQ_ASSIGN_OR_RETURN(size_t produced, decode(chunk, output.subspan(filled, block_end - filled)));
      filled += produced;
    } while (filled < block_end);
  }
  if (filled != output.size()) {
    return Status::Corruption("frames hold " + std::to_string(filled) +
                              " bytes, the page header says " + std::to_string(output.size()));
  }
  return Status::OK();
}

Status EncodeHadoopFraming(ByteSpan input, size_t block_size, ChunkEncoder encode,
                           std::vector<uint8_t>* out) {
  out->clear();
  size_t pos = 0;
  do {
    const size_t n = std::min(block_size, input.size() - pos);
    AppendU32BigEndian(static_cast<uint32_t>(n), out);
    const size_t length_at = out->size();
    AppendU32BigEndian(0, out);  // the chunk's size, known once it is written
    PQ_RETURN_IF_ERROR(encode(input.subspan(pos, n), out));
    const size_t chunk = out->size() - length_at - 4;
    if (chunk > UINT32_MAX) return Status::InvalidArgument("a compressed chunk over 4 GiB");
    StoreU32BigEndian(static_cast<uint32_t>(chunk), out->data() + length_at);
    pos += n;
  } while (pos < input.size());
  return Status::OK();
}

}  // namespace pq::codec_internal
