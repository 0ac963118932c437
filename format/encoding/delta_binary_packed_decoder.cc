// DELTA_BINARY_PACKED values of INT32 and INT64 columns (file-format.txt, "Delta Encoding").
//
// The header's total value count is what the stream holds; the page's count of non-null values is
// what the caller wants. When they differ the decoder offers the smaller of the two: extra encoded
// values are ignored, and a stream holding fewer values than the page needs shows as a short
// values_left() that the column reader reports.

#include <algorithm>
#include <type_traits>

#include "format/encoding/delta_binary_packed.h"
#include "format/encoding/typed_decoders.h"

namespace pq::encoding {
namespace {

template <typename T>
class DeltaBinaryPackedDecoder final : public TypedDecoder<T> {
  using U = std::make_unsigned_t<T>;

 public:
  Status SetData(ByteSpan data, int64_t num_values) override {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    values_left_ = 0;
    PQ_RETURN_IF_ERROR(stream_.Init(data));
    values_left_ = std::min<int64_t>(num_values, stream_.total_values());
    return Status::OK();
  }
  Result<int64_t> Decode(T* out, int64_t n) override {
    int64_t k = std::clamp<int64_t>(n, 0, values_left_);
    // int32_t / uint32_t (and the 64-bit pair) may alias each other.
    PQ_RETURN_IF_ERROR(stream_.Decode(reinterpret_cast<U*>(out), k));
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
  delta::DeltaBinaryPackedReader<U> stream_;
  int64_t values_left_ = 0;
};

}  // namespace

template <typename T>
std::unique_ptr<TypedDecoder<T>> MakeDeltaBinaryPackedDecoder() {
  return std::make_unique<DeltaBinaryPackedDecoder<T>>();
}

template std::unique_ptr<TypedDecoder<int32_t>> MakeDeltaBinaryPackedDecoder<int32_t>();
template std::unique_ptr<TypedDecoder<int64_t>> MakeDeltaBinaryPackedDecoder<int64_t>();

}  // namespace pq::encoding
