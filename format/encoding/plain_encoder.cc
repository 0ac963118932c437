// PLAIN encoders (the Parquet spec, "Plain: (PLAIN = 0)"): the mirror of plain_decoder.cc.

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

#include "format/encoding/bit_pack.h"
#include "format/encoding/typed_encoders.h"

namespace pq::encoding {
namespace {

// What every PLAIN encoder keeps: the page's bytes and its value count.
template <typename T>
class PlainEncoderBase : public TypedEncoder<T> {
 public:
  Encoding encoding() const final { return Encoding::kPlain; }
  int64_t num_values() const final { return num_values_; }
  int64_t EstimatedDataSize() const final { return static_cast<int64_t>(out_.size()); }
  Buffer FlushValues() final {
    num_values_ = 0;
    return std::exchange(out_, Buffer{});
  }

 protected:
  Buffer out_;
  int64_t num_values_ = 0;
};

// INT32, INT64, INT96, FLOAT, DOUBLE: the values' little-endian bytes.
template <typename T>
class PlainFixedWidthEncoder final : public PlainEncoderBase<T> {
 public:
  Status Put(const T* values, int64_t n) override {
    if (n <= 0) return Status::OK();
    const auto* bytes = reinterpret_cast<const uint8_t*>(values);
    this->out_.insert(this->out_.end(), bytes, bytes + static_cast<size_t>(n) * sizeof(T));
    this->num_values_ += n;
    return Status::OK();
  }
};

// BOOLEAN: one bit per value, LSB first.
class PlainBooleanEncoder final : public PlainEncoderBase<uint8_t> {
 public:
  Status Put(const uint8_t* values, int64_t n) override {
    for (int64_t i = 0; i < n; ++i, ++num_values_) {
      int bit = static_cast<int>(num_values_ % 8);
      if (bit == 0) out_.push_back(0);
      if (values[i]) out_.back() |= static_cast<uint8_t>(1u << bit);
    }
    return Status::OK();
  }
};

// BYTE_ARRAY (4-byte length, bytes) and FIXED_LEN_BYTE_ARRAY (bytes).
class PlainByteArrayEncoder final : public PlainEncoderBase<ByteArray> {
 public:
  explicit PlainByteArrayEncoder(int32_t fixed_width) : fixed_width_(fixed_width) {}
  Status Put(const ByteArray* values, int64_t n) override {
    PQ_RETURN_IF_ERROR(CheckFixedWidth(values, n, fixed_width_));
    for (int64_t i = 0; i < n; ++i) {
      if (fixed_width_ == 0) bitpack::AppendU32LE(&out_, values[i].len);
      out_.insert(out_.end(), values[i].ptr, values[i].ptr + values[i].len);
    }
    num_values_ += std::max<int64_t>(n, 0);
    return Status::OK();
  }

 private:
  int32_t fixed_width_;
};

}  // namespace

template <typename T>
std::unique_ptr<TypedEncoder<T>> MakePlainEncoder(int32_t fixed_width) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    return std::make_unique<PlainBooleanEncoder>();
  } else if constexpr (std::is_same_v<T, ByteArray>) {
    return std::make_unique<PlainByteArrayEncoder>(fixed_width);
  } else {
    (void)fixed_width;
    return std::make_unique<PlainFixedWidthEncoder<T>>();
  }
}

template std::unique_ptr<TypedEncoder<uint8_t>> MakePlainEncoder<uint8_t>(int32_t);
template std::unique_ptr<TypedEncoder<int32_t>> MakePlainEncoder<int32_t>(int32_t);
template std::unique_ptr<TypedEncoder<int64_t>> MakePlainEncoder<int64_t>(int32_t);
template std::unique_ptr<TypedEncoder<Int96>> MakePlainEncoder<Int96>(int32_t);
template std::unique_ptr<TypedEncoder<float>> MakePlainEncoder<float>(int32_t);
template std::unique_ptr<TypedEncoder<double>> MakePlainEncoder<double>(int32_t);
template std::unique_ptr<TypedEncoder<ByteArray>> MakePlainEncoder<ByteArray>(int32_t);

}  // namespace pq::encoding
