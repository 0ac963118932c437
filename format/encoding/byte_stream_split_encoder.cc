// BYTE_STREAM_SPLIT values: K streams, stream b holding byte b of every value (K = sizeof the
// number or the FIXED_LEN_BYTE_ARRAY width). Values are buffered as they come and scattered into
// streams at flush, when N is known. The mirror of byte_stream_split_decoder.cc.

#include <type_traits>

#include "format/encoding/typed_encoders.h"

namespace pq::encoding {
namespace {

// Scatters `raw` (values of `width` bytes back to back) into `width` streams.
Buffer Scatter(const Buffer& raw, size_t width) {
  Buffer out(raw.size());
  const size_t n = raw.size() / width;
  for (size_t b = 0; b < width; ++b) {
    uint8_t* stream = out.data() + b * n;
    for (size_t i = 0; i < n; ++i) stream[i] = raw[i * width + b];
  }
  return out;
}

template <typename T>
class ByteStreamSplitEncoder final : public TypedEncoder<T> {
 public:
  explicit ByteStreamSplitEncoder(int32_t fixed_width)
      : width_(std::is_same_v<T, ByteArray> ? static_cast<size_t>(fixed_width) : sizeof(T)) {}
  Encoding encoding() const override { return Encoding::kByteStreamSplit; }
  Status Put(const T* values, int64_t n) override {
    if (n <= 0) return Status::OK();
    if constexpr (std::is_same_v<T, ByteArray>) {
      PQ_RETURN_IF_ERROR(CheckFixedWidth(values, n, static_cast<int32_t>(width_)));
      for (int64_t i = 0; i < n; ++i)
        raw_.insert(raw_.end(), values[i].ptr, values[i].ptr + values[i].len);
    } else {
      const auto* bytes = reinterpret_cast<const uint8_t*>(values);
      raw_.insert(raw_.end(), bytes, bytes + static_cast<size_t>(n) * sizeof(T));
    }
    return Status::OK();
  }
  int64_t num_values() const override { return static_cast<int64_t>(raw_.size() / width_); }
  int64_t EstimatedDataSize() const override { return static_cast<int64_t>(raw_.size()); }
  Buffer FlushValues() override {
    Buffer out = Scatter(raw_, width_);
    raw_.clear();
    return out;
  }

 private:
  size_t width_;  // K
  Buffer raw_;    // the values' bytes in order
};

}  // namespace

template <typename T>
std::unique_ptr<TypedEncoder<T>> MakeByteStreamSplitEncoder(int32_t fixed_width) {
  return std::make_unique<ByteStreamSplitEncoder<T>>(fixed_width);
}

template std::unique_ptr<TypedEncoder<float>> MakeByteStreamSplitEncoder<float>(int32_t);
template std::unique_ptr<TypedEncoder<double>> MakeByteStreamSplitEncoder<double>(int32_t);
template std::unique_ptr<TypedEncoder<int32_t>> MakeByteStreamSplitEncoder<int32_t>(int32_t);
template std::unique_ptr<TypedEncoder<int64_t>> MakeByteStreamSplitEncoder<int64_t>(int32_t);
template std::unique_ptr<TypedEncoder<ByteArray>> MakeByteStreamSplitEncoder<ByteArray>(int32_t);

}  // namespace pq::encoding
