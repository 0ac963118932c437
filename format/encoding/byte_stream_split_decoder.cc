// BYTE_STREAM_SPLIT values (file-format.txt, "Byte Stream Split"; spec/README.md for INT32, INT64 and
// FIXED_LEN_BYTE_ARRAY): K streams of N bytes, stream b holding byte b of every value, K = 4 for FLOAT
// and INT32, 8 for DOUBLE and INT64, type_length for FIXED_LEN_BYTE_ARRAY. There is no header: N is
// the page size divided by K, so the size must be a multiple of K and N at least the page's values.
//
// Numbers are gathered straight into the caller's array. FIXED_LEN_BYTE_ARRAY values do not exist
// contiguously in the page, so they are rebuilt into one Buffer per page (storage()), sized by the
// page itself.

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "format/encoding/typed_decoders.h"

namespace pq::encoding {
namespace {

Status CheckStreams(size_t size, uint64_t width, int64_t num_values) {
  if (size % width != 0) {
    return Status::Corruption("BYTE_STREAM_SPLIT page of " + std::to_string(size) +
                              " bytes is not a multiple of the value width " + std::to_string(width));
  }
  if (static_cast<uint64_t>(num_values) > size / width) {
    return Status::Corruption("BYTE_STREAM_SPLIT page of " + std::to_string(size) +
                              " bytes is too short for " + std::to_string(num_values) + " values");
  }
  return Status::OK();
}

// Values [first, first + n) of K streams of `stride` bytes into out, K bytes per value.
template <size_t K>
void GatherFixed(const uint8_t* streams, size_t stride, size_t first, size_t n, uint8_t* out) {
  const uint8_t* in = streams + first;
  for (size_t i = 0; i < n; ++i) {
    for (size_t b = 0; b < K; ++b) out[i * K + b] = in[b * stride + i];
  }
}

template <typename T>
class ByteStreamSplitDecoder final : public TypedDecoder<T> {
  static constexpr size_t kWidth = sizeof(T);

 public:
  Status SetData(ByteSpan data, int64_t num_values) override {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    PQ_RETURN_IF_ERROR(CheckStreams(data.size(), kWidth, num_values));
    data_ = data.data();
    stride_ = data.size() / kWidth;
    next_ = 0;
    num_values_ = num_values;
    return Status::OK();
  }
  Result<int64_t> Decode(T* out, int64_t n) override {
    int64_t k = std::clamp<int64_t>(n, 0, values_left());
    if (k > 0) {
      GatherFixed<kWidth>(data_, stride_, static_cast<size_t>(next_), static_cast<size_t>(k),
                          reinterpret_cast<uint8_t*>(out));
    }
    next_ += k;
    return k;
  }
  Result<int64_t> Skip(int64_t n) override {
    int64_t k = std::clamp<int64_t>(n, 0, values_left());
    next_ += k;
    return k;
  }
  int64_t values_left() const override { return num_values_ - next_; }

 private:
  const uint8_t* data_ = nullptr;
  size_t stride_ = 0;  // N: bytes per stream
  int64_t next_ = 0;
  int64_t num_values_ = 0;
};

class ByteStreamSplitFixedLenDecoder final : public TypedDecoder<ByteArray> {
 public:
  explicit ByteStreamSplitFixedLenDecoder(int32_t width) : width_(static_cast<uint32_t>(width)) {}

  Status SetData(ByteSpan data, int64_t num_values) override {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    PQ_RETURN_IF_ERROR(CheckStreams(data.size(), width_, num_values));
    if (!storage_ || storage_.use_count() != 1) storage_ = std::make_shared<Buffer>();
    const size_t n = static_cast<size_t>(num_values);
    const size_t stride = data.size() / width_;
    storage_->resize(n * width_);  // <= data.size()
    uint8_t* out = storage_->data();
    for (size_t b = 0; b < width_; ++b) {
      const uint8_t* stream = data.data() + b * stride;
      for (size_t i = 0; i < n; ++i) out[i * width_ + b] = stream[i];
    }
    next_ = 0;
    num_values_ = num_values;
    return Status::OK();
  }
  Result<int64_t> Decode(ByteArray* out, int64_t n) override {
    int64_t k = std::clamp<int64_t>(n, 0, values_left());
    const uint8_t* p = storage_->data() + static_cast<size_t>(next_) * width_;
    for (int64_t i = 0; i < k; ++i, p += width_) out[i] = ByteArray{p, width_};
    next_ += k;
    return k;
  }
  Result<int64_t> Skip(int64_t n) override {
    int64_t k = std::clamp<int64_t>(n, 0, values_left());
    next_ += k;
    return k;
  }
  int64_t values_left() const override { return num_values_ - next_; }
  BufferPtr storage() const override { return storage_; }

 private:
  uint32_t width_;
  std::shared_ptr<Buffer> storage_;  // the current page's values, width_ bytes each
  int64_t next_ = 0;
  int64_t num_values_ = 0;
};

}  // namespace

template <typename T>
std::unique_ptr<TypedDecoder<T>> MakeByteStreamSplitDecoder(int32_t fixed_width) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return std::make_unique<ByteStreamSplitFixedLenDecoder>(fixed_width);
  } else {
    (void)fixed_width;
    return std::make_unique<ByteStreamSplitDecoder<T>>();
  }
}

template std::unique_ptr<TypedDecoder<float>> MakeByteStreamSplitDecoder<float>(int32_t);
template std::unique_ptr<TypedDecoder<double>> MakeByteStreamSplitDecoder<double>(int32_t);
template std::unique_ptr<TypedDecoder<int32_t>> MakeByteStreamSplitDecoder<int32_t>(int32_t);
template std::unique_ptr<TypedDecoder<int64_t>> MakeByteStreamSplitDecoder<int64_t>(int32_t);
template std::unique_ptr<TypedDecoder<ByteArray>> MakeByteStreamSplitDecoder<ByteArray>(int32_t);

}  // namespace pq::encoding
