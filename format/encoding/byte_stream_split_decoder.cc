// BYTE_STREAM_SPLIT values (the Parquet spec, "Byte Stream Split"; docs/format-notes.md for INT32, INT64
// and FIXED_LEN_BYTE_ARRAY): K streams of N bytes, stream b holding byte b of every value, K = 4
// for FLOAT and INT32, 8 for DOUBLE and INT64, type_length for FIXED_LEN_BYTE_ARRAY. There is no
// header: N is the page size divided by K, so the size must be a multiple of K and N at least the
// page's values.
//
// Numbers are gathered straight into the caller's array, 16 at a time with an SSE2 byte transpose
// where available. FIXED_LEN_BYTE_ARRAY values do not exist
// contiguously in the page, so they are rebuilt into one Buffer per page (storage()), sized by the
// page itself.

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "format/encoding/typed_decoders.h"

namespace pq::encoding {
namespace {

Status CheckStreams(size_t size, uint64_t width, int64_t num_values) {
  if (size % width != 0) {
    return Status::Corruption("BYTE_STREAM_SPLIT page of " + std::to_string(size) +
                              " bytes is not a multiple of the value width " +
                              std::to_string(width));
  }
  if (static_cast<uint64_t>(num_values) > size / width) {
    return Status::Corruption("BYTE_STREAM_SPLIT page of " + std::to_string(size) +
                              " bytes is too short for " + std::to_string(num_values) + " values");
  }
  return Status::OK();
}

#if defined(__SSE2__)
// 16 values of 4 bytes from 4 streams: interleave bytes, then byte pairs.
inline void Transpose16x4(const uint8_t* in, size_t stride, uint8_t* out) {
  __m128i s0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
  __m128i s1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + stride));
  __m128i s2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * stride));
  __m128i s3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 3 * stride));
  __m128i b01_lo = _mm_unpacklo_epi8(s0, s1), b01_hi = _mm_unpackhi_epi8(s0, s1);
  __m128i b23_lo = _mm_unpacklo_epi8(s2, s3), b23_hi = _mm_unpackhi_epi8(s2, s3);
  auto* o = reinterpret_cast<__m128i*>(out);
  _mm_storeu_si128(o + 0, _mm_unpacklo_epi16(b01_lo, b23_lo));  // values 0..3
  _mm_storeu_si128(o + 1, _mm_unpackhi_epi16(b01_lo, b23_lo));  // 4..7
  _mm_storeu_si128(o + 2, _mm_unpacklo_epi16(b01_hi, b23_hi));  // 8..11
  _mm_storeu_si128(o + 3, _mm_unpackhi_epi16(b01_hi, b23_hi));  // 12..15
}

// 16 values of 8 bytes from 8 streams: interleave bytes, byte pairs, then 4-byte halves.
inline void Transpose16x8(const uint8_t* in, size_t stride, uint8_t* out) {
  __m128i s[8];
  for (size_t b = 0; b < 8; ++b)
    s[b] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + b * stride));
  __m128i p[8];  // byte pairs (0,1), (2,3), (4,5), (6,7), low then high halves
  for (size_t q = 0; q < 4; ++q) {
    p[2 * q] = _mm_unpacklo_epi8(s[2 * q], s[2 * q + 1]);
    p[2 * q + 1] = _mm_unpackhi_epi8(s[2 * q], s[2 * q + 1]);
  }
  // Bytes 0..3 and 4..7 of values 0..3, 4..7, 8..11, 12..15.
  __m128i lo[4], hi[4];
  for (size_t h = 0; h < 2; ++h) {
    lo[2 * h] = _mm_unpacklo_epi16(p[h], p[2 + h]);
    lo[2 * h + 1] = _mm_unpackhi_epi16(p[h], p[2 + h]);
    hi[2 * h] = _mm_unpacklo_epi16(p[4 + h], p[6 + h]);
    hi[2 * h + 1] = _mm_unpackhi_epi16(p[4 + h], p[6 + h]);
  }
  auto* o = reinterpret_cast<__m128i*>(out);
  for (size_t g = 0; g < 4; ++g) {
    _mm_storeu_si128(o + 2 * g, _mm_unpacklo_epi32(lo[g], hi[g]));      // values 4g, 4g+1
    _mm_storeu_si128(o + 2 * g + 1, _mm_unpackhi_epi32(lo[g], hi[g]));  // 4g+2, 4g+3
  }
}
#endif

// Values [first, first + n) of K streams of `stride` bytes into out, K bytes per value.
template <size_t K>
void GatherFixed(const uint8_t* streams, size_t stride, size_t first, size_t n, uint8_t* out) {
  const uint8_t* in = streams + first;
  size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    if constexpr (K == 4) Transpose16x4(in + i, stride, out + i * K);
    if constexpr (K == 8) Transpose16x8(in + i, stride, out + i * K);
  }
#endif
  for (; i < n; ++i) {
    for (size_t b = 0; b < K; ++b) out[i * K + b] = in[b * stride + i];
  }
}

template <typename T>
class ByteStreamSplitDecoder final : public IndexedValuesDecoder<T, ByteStreamSplitDecoder<T>> {
  static constexpr size_t kWidth = sizeof(T);

 public:
  Status SetData(ByteSpan data, int64_t num_values) override {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    PQ_RETURN_IF_ERROR(CheckStreams(data.size(), kWidth, num_values));
    data_ = data.data();
    stride_ = data.size() / kWidth;
    this->StartPage(num_values);
    return Status::OK();
  }
  void DecodeRange(int64_t first, int64_t k, T* out) {
    GatherFixed<kWidth>(data_, stride_, static_cast<size_t>(first), static_cast<size_t>(k),
                        reinterpret_cast<uint8_t*>(out));
  }

 private:
  const uint8_t* data_ = nullptr;
  size_t stride_ = 0;  // N: bytes per stream
};

class ByteStreamSplitFixedLenDecoder final
    : public IndexedValuesDecoder<ByteArray, ByteStreamSplitFixedLenDecoder> {
 public:
  explicit ByteStreamSplitFixedLenDecoder(int32_t width) : width_(static_cast<uint32_t>(width)) {}

  Status SetData(ByteSpan data, int64_t num_values) override {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    PQ_RETURN_IF_ERROR(CheckStreams(data.size(), width_, num_values));
    PQ_RETURN_IF_ERROR(ReserveStorage(num_values * static_cast<int64_t>(width_)));
    if (!storage_ || storage_.use_count() != 1) storage_ = std::make_shared<Buffer>();
    const size_t n = static_cast<size_t>(num_values);
    const size_t stride = data.size() / width_;
    storage_->resize(n * width_);  // <= data.size()
    uint8_t* out = storage_->data();
    for (size_t b = 0; b < width_; ++b) {
      const uint8_t* stream = data.data() + b * stride;
      for (size_t i = 0; i < n; ++i) out[i * width_ + b] = stream[i];
    }
    StartPage(num_values);
    return Status::OK();
  }
  void DecodeRange(int64_t first, int64_t k, ByteArray* out) {
    const uint8_t* p = storage_->data() + static_cast<size_t>(first) * width_;
    for (int64_t i = 0; i < k; ++i, p += width_) out[i] = ByteArray{p, width_};
  }
  BufferPtr storage() const override { return storage_; }

 private:
  uint32_t width_;
  std::shared_ptr<Buffer> storage_;  // the current page's values, width_ bytes each
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
