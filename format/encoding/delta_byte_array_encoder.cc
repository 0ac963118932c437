// DELTA_BYTE_ARRAY values of BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY columns: for each value the length
// of the prefix it shares with the previous value (DELTA_BINARY_PACKED), then the remaining
// suffixes (DELTA_LENGTH_BYTE_ARRAY). Each page starts from an empty previous value. The mirror of
// delta_byte_array_decoder.cc.

#include <algorithm>

#include "format/encoding/delta_length_byte_array.h"
#include "format/encoding/typed_encoders.h"

namespace pq::encoding {
namespace {

class DeltaByteArrayEncoder final : public TypedEncoder<ByteArray> {
 public:
  explicit DeltaByteArrayEncoder(int32_t fixed_width) : fixed_width_(fixed_width) {}
  Encoding encoding() const override { return Encoding::kDeltaByteArray; }

  Status Put(const ByteArray* values, int64_t n) override {
    PQ_RETURN_IF_ERROR(CheckFixedWidth(values, n, fixed_width_));
    for (int64_t i = 0; i < n; ++i) {
      const ByteArray& v = values[i];
      size_t limit = std::min<size_t>(previous_.size(), v.len);
      uint32_t prefix = static_cast<uint32_t>(
          std::mismatch(previous_.begin(), previous_.begin() + static_cast<std::ptrdiff_t>(limit),
                        v.ptr)
              .first -
          previous_.begin());
      prefixes_.Put(prefix);
      ByteArray suffix{v.ptr + prefix, v.len - prefix};
      suffixes_.Put(&suffix, 1);
      previous_.assign(v.ptr, v.ptr + v.len);
    }
    return Status::OK();
  }
  int64_t num_values() const override { return prefixes_.num_values(); }
  int64_t EstimatedDataSize() const override {
    return prefixes_.EstimatedSize() + suffixes_.EstimatedSize();
  }
  Buffer FlushValues() override {
    Buffer out;
    prefixes_.FinishTo(&out);
    suffixes_.FinishTo(&out);
    previous_.clear();
    return out;
  }

 private:
  int32_t fixed_width_;  // FIXED_LEN_BYTE_ARRAY width, 0 for BYTE_ARRAY
  delta::DeltaBinaryPackedWriter<uint32_t> prefixes_;
  delta::DeltaLengthByteArrayWriter suffixes_;
  Buffer previous_;  // the last value put, copied
};

}  // namespace

std::unique_ptr<TypedEncoder<ByteArray>> MakeDeltaByteArrayEncoder(int32_t fixed_width) {
  return std::make_unique<DeltaByteArrayEncoder>(fixed_width);
}

}  // namespace pq::encoding
