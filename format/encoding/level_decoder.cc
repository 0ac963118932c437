// Definition and repetition levels (the Parquet spec, "Nested Encoding", the RLE table of "Run
// Length Encoding / Bit-Packing Hybrid" and "Bit-packed (Deprecated)").
//
// Levels use the bit width of max_level. A max_level of 0 means the levels are absent from the
// page: all are 0 and no bytes are consumed. Data page v1 levels are RLE with a 4-byte length
// prefix or, in old files, BIT_PACKED: ceil(n * width / 8) bytes packed MSB first (the reverse of
// the hybrid's order). Data page v2 levels are RLE runs filling exactly the span given. Every
// decoded level is checked against max_level.

#include <algorithm>
#include <bit>
#include <string>

#include "format/encoding/bit_unpack.h"
#include "format/encoding/decoder.h"
#include "format/encoding/encoding_rules.h"
#include "format/encoding/rle_bit_packed.h"

namespace pq {

struct LevelDecoder::Impl {
  enum class Mode { kAllZero, kRle, kBitPacked };

  // Values [first, first + n) of a BIT_PACKED (MSB first) region. The region holds them (checked
  // in InitV1); bytes of the 3-byte window past its end read as zero.
  void DecodeMsbFirst(int16_t* out, int64_t n) {
    const uint8_t* p = packed.data();
    const size_t size = packed.size();
    const uint32_t mask = (uint32_t{1} << bit_width) - 1;
    for (int64_t i = 0; i < n; ++i) {
      uint64_t bit = static_cast<uint64_t>(packed_next + i) * static_cast<uint64_t>(bit_width);
      size_t byte = static_cast<size_t>(bit / 8);
      uint32_t window = uint32_t{p[byte]} << 16;
      if (byte + 1 < size) window |= uint32_t{p[byte + 1]} << 8;
      if (byte + 2 < size) window |= uint32_t{p[byte + 2]};
      int shift = 24 - static_cast<int>(bit % 8) - bit_width;  // >= 2 for widths <= 15
      out[i] = static_cast<int16_t>((window >> shift) & mask);
    }
    packed_next += n;
  }

  Mode mode = Mode::kAllZero;
  int16_t max_level = 0;
  int bit_width = 0;
  int64_t values_left = 0;
  RleBitPackedDecoder runs;  // kRle
  ByteSpan packed;           // kBitPacked: the levels' bytes
  int64_t packed_next = 0;   // kBitPacked: index of the next level
};

LevelDecoder::LevelDecoder() : impl_(std::make_unique<Impl>()) {}
LevelDecoder::~LevelDecoder() = default;

namespace {

Status CheckLevelArgs(int16_t max_level, int64_t num_values) {
  if (max_level < 0) return Status::InvalidArgument("negative max level");
  if (num_values < 0) return Status::InvalidArgument("negative level count");
  return Status::OK();
}

}  // namespace

Status LevelDecoder::InitV1(Encoding encoding, int16_t max_level, int64_t num_values,
                            ByteReader* data) {
  PQ_RETURN_IF_ERROR(CheckLevelArgs(max_level, num_values));
  Impl& s = *impl_;
  s.max_level = max_level;
  s.bit_width = std::bit_width(static_cast<uint16_t>(max_level));
  s.values_left = 0;
  s.mode = Impl::Mode::kAllZero;
  if (max_level == 0) {
    s.values_left = num_values;
    return Status::OK();
  }
  if (encoding == Encoding::kRle) {
    PQ_ASSIGN_OR_RETURN(uint32_t length, data->ReadLE<uint32_t>());
    if (length > data->remaining()) {
      return Status::Corruption("RLE levels' 4-byte length says " + std::to_string(length) + " bytes, " +
                                std::to_string(data->remaining()) + " left in the page");
    }
    PQ_ASSIGN_OR_RETURN(ByteSpan runs, data->ReadBytes(length));
    s.runs.Reset(runs, s.bit_width);
    s.mode = Impl::Mode::kRle;
  } else if (encoding == Encoding::kBitPacked) {
    uint64_t bytes = bitpack::PackedBytes(static_cast<uint64_t>(num_values), s.bit_width);
    if (bytes > data->remaining()) {
      return Status::Corruption("BIT_PACKED levels need " + std::to_string(bytes) + " bytes, " +
                                std::to_string(data->remaining()) + " left in the page");
    }
    PQ_ASSIGN_OR_RETURN(s.packed, data->ReadBytes(static_cast<size_t>(bytes)));
    s.packed_next = 0;
    s.mode = Impl::Mode::kBitPacked;
  } else {
    return Status::NotSupported("encoding " + encoding::EncodingLabel(encoding) +
                                " is not valid for levels");
  }
  s.values_left = num_values;
  return Status::OK();
}

Status LevelDecoder::InitV2(int16_t max_level, int64_t num_values, ByteSpan data) {
  PQ_RETURN_IF_ERROR(CheckLevelArgs(max_level, num_values));
  Impl& s = *impl_;
  s.max_level = max_level;
  s.bit_width = std::bit_width(static_cast<uint16_t>(max_level));
  s.values_left = num_values;
  if (max_level == 0) {
    s.mode = Impl::Mode::kAllZero;
  } else {
    s.runs.Reset(data, s.bit_width);
    s.mode = Impl::Mode::kRle;
  }
  return Status::OK();
}

Result<int64_t> LevelDecoder::Decode(int16_t* out, int64_t n) {
  Impl& s = *impl_;
  int64_t k = std::clamp<int64_t>(n, 0, s.values_left);
  switch (s.mode) {
    case Impl::Mode::kAllZero:
      std::fill_n(out, k, int16_t{0});
      s.values_left -= k;
      return k;
    case Impl::Mode::kRle:
      PQ_RETURN_IF_ERROR(s.runs.Decode(out, k));
      break;
    case Impl::Mode::kBitPacked:
      s.DecodeMsbFirst(out, k);
      break;
  }
  // Decoded levels are below 2^bit_width (RLE values are checked when read, packed ones masked),
  // so only a max_level below 2^bit_width - 1 (e.g. 2, 5, 6) needs the vectorized pass. Widths
  // up to 15 bits keep levels non-negative.
  int16_t highest = 0;
  if (s.max_level != (1 << s.bit_width) - 1)
    highest = bitpack::MaxValue(out, static_cast<size_t>(k));
  if (highest > s.max_level) {
    return Status::Corruption("level " + std::to_string(highest) + " exceeds the maximum level " +
                              std::to_string(s.max_level));
  }
  s.values_left -= k;
  return k;
}

}  // namespace pq
