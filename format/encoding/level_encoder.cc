// Level encoders: the mirror of level_decoder.cc. RLE/bit-packed hybrid for v1 (length prefixed)
// and v2 (bare) pages; the deprecated MSB-first BIT_PACKED layout for tests of old-file reading.

#include <bit>
#include <string>

#include "format/encoding/bit_pack.h"
#include "format/encoding/bit_unpack.h"
#include "format/encoding/encoder.h"
#include "format/encoding/rle_bit_packed.h"

namespace pq {

struct LevelEncoder::Impl {
  explicit Impl(int16_t max)
      : max_level(max), runs(std::bit_width(static_cast<uint16_t>(max < 0 ? 0 : max))) {}
  int16_t max_level;
  RleBitPackedEncoder runs;
  int64_t num_values = 0;
};

LevelEncoder::LevelEncoder(int16_t max_level) : impl_(std::make_unique<Impl>(max_level)) {}
LevelEncoder::~LevelEncoder() = default;

Status LevelEncoder::Put(const int16_t* levels, int64_t n) {
  // One pass for the range (it vectorizes), the slow search only to name a bad level.
  int16_t lo = 0, hi = 0;
  for (int64_t i = 0; i < n; ++i) {
    lo = levels[i] < lo ? levels[i] : lo;
    hi = levels[i] > hi ? levels[i] : hi;
  }
  if (lo < 0 || hi > impl_->max_level) {
    for (int64_t i = 0; i < n; ++i) {
      if (levels[i] < 0 || levels[i] > impl_->max_level) {
        return Status::InvalidArgument("level " + std::to_string(levels[i]) + " outside [0, " +
                                       std::to_string(impl_->max_level) + "]");
      }
    }
  }
  if (n <= 0) return Status::OK();
  impl_->num_values += n;
  if (impl_->max_level > 0) impl_->runs.PutBatch(levels, n);
  return Status::OK();
}

int64_t LevelEncoder::num_values() const {
  return impl_->num_values;
}

int64_t LevelEncoder::EstimatedSize() const {
  return impl_->max_level > 0 ? 4 + impl_->runs.EstimatedSize() : 0;
}

Buffer LevelEncoder::FlushV1() {
  impl_->num_values = 0;
  if (impl_->max_level <= 0) return {};
  Buffer out(4);
  impl_->runs.FlushTo(&out);
  bitpack::PatchU32LE(&out, 0, static_cast<uint32_t>(out.size() - 4));
  return out;
}

Buffer LevelEncoder::FlushV2() {
  impl_->num_values = 0;
  if (impl_->max_level <= 0) return {};
  return impl_->runs.Flush();
}

Buffer EncodeBitPackedLevels(int16_t max_level, const int16_t* levels, int64_t n) {
  const int width = std::bit_width(static_cast<uint16_t>(max_level < 0 ? 0 : max_level));
  Buffer out(static_cast<size_t>(bitpack::PackedBytes(static_cast<uint64_t>(n < 0 ? 0 : n), width)),
             0);
  uint64_t bit = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int b = width - 1; b >= 0; --b, ++bit) {  // most significant bit first
      if ((static_cast<uint16_t>(levels[i]) >> b) & 1)
        out[bit / 8] |= static_cast<uint8_t>(0x80u >> (bit % 8));
    }
  }
  return out;
}

}  // namespace pq
