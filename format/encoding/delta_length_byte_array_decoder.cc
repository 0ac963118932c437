// DELTA_LENGTH_BYTE_ARRAY values of BYTE_ARRAY columns. Values point into the page data.
// As for DELTA_BINARY_PACKED, the decoder offers min(page values, lengths in the stream).

#include <algorithm>

#include "format/encoding/delta_length_byte_array.h"
#include "format/encoding/typed_decoders.h"

namespace pq::encoding {
namespace {

class DeltaLengthByteArrayDecoder final : public TypedDecoder<ByteArray> {
 public:
  Status SetData(ByteSpan data, int64_t num_values) override {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    values_left_ = 0;
    PQ_RETURN_IF_ERROR(stream_.Init(data));
    values_left_ = std::min<int64_t>(num_values, stream_.total_values());
    return Status::OK();
  }
  Result<int64_t> Decode(ByteArray* out, int64_t n) override {
    int64_t k = std::clamp<int64_t>(n, 0, values_left_);
    PQ_RETURN_IF_ERROR(stream_.Decode(out, k));
    values_left_ -= k;
    return k;
  }
  Result<int64_t> Skip(int64_t n) override {
    int64_t k = std::clamp<int64_t>(n, 0, values_left_);
    PQ_RETURN_IF_ERROR(stream_.Skip(k));
    values_left_ -= k;
    return k;
  }
  int64_t values_left() const override { return values_left_; }

 private:
  delta::DeltaLengthByteArrayReader stream_;
  int64_t values_left_ = 0;
};

}  // namespace

std::unique_ptr<TypedDecoder<ByteArray>> MakeDeltaLengthByteArrayDecoder() {
  return std::make_unique<DeltaLengthByteArrayDecoder>();
}

}  // namespace pq::encoding
