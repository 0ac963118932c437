// PLAIN decoders (the Parquet spec, "Plain: (PLAIN = 0)"): values back to back.
//   BOOLEAN               bit-packed, LSB first
//   INT32/INT64/INT96/FLOAT/DOUBLE  fixed-width little endian (INT96 as 12 bytes)
//   BYTE_ARRAY            4-byte little-endian length, then the bytes
//   FIXED_LEN_BYTE_ARRAY  type_length bytes
// Fixed-width pages are checked once in SetData to hold every value, so Decode is a memcpy and Skip
// an addition. BYTE_ARRAY values point into the page data; each length is checked as it is read.

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "format/encoding/bit_unpack.h"
#include "format/encoding/typed_decoders.h"

namespace pq::encoding {
namespace {

Status TooShort(int64_t num_values, const char* what, size_t size) {
  return Status::Corruption("PLAIN page of " + std::to_string(size) + " bytes is too short for " +
                            std::to_string(num_values) + " " + what + " values");
}

// INT32, INT64, INT96, FLOAT, DOUBLE.
template <typename T>
class PlainFixedWidthDecoder final : public IndexedValuesDecoder<T, PlainFixedWidthDecoder<T>> {
 public:
  Status SetData(ByteSpan data, int64_t num_values) override {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    if (static_cast<uint64_t>(num_values) > data.size() / sizeof(T)) {
      return TooShort(num_values, "fixed-width", data.size());
    }
    data_ = data.data();
    this->StartPage(num_values);
    return Status::OK();
  }
  void DecodeRange(int64_t first, int64_t k, T* out) {
    std::memcpy(out, data_ + first * sizeof(T), static_cast<size_t>(k) * sizeof(T));
  }

 private:
  const uint8_t* data_ = nullptr;
};

class PlainBooleanDecoder final : public IndexedValuesDecoder<uint8_t, PlainBooleanDecoder> {
 public:
  Status SetData(ByteSpan data, int64_t num_values) override {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    if (bitpack::PackedBytes(static_cast<uint64_t>(num_values), 1) > data.size()) {
      return TooShort(num_values, "BOOLEAN", data.size());
    }
    data_ = data;
    StartPage(num_values);
    return Status::OK();
  }
  void DecodeRange(int64_t first, int64_t k, uint8_t* out) {
    bitpack::UnpackRange(data_.data(), data_.size(), 1, static_cast<uint64_t>(first),
                         static_cast<size_t>(k), out);
  }

 private:
  ByteSpan data_;
};

class PlainFixedLenByteArrayDecoder final
    : public IndexedValuesDecoder<ByteArray, PlainFixedLenByteArrayDecoder> {
 public:
  explicit PlainFixedLenByteArrayDecoder(int32_t width) : width_(static_cast<uint32_t>(width)) {}
  Status SetData(ByteSpan data, int64_t num_values) override {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    if (static_cast<uint64_t>(num_values) > data.size() / width_) {
      return TooShort(num_values, "FIXED_LEN_BYTE_ARRAY", data.size());
    }
    data_ = data.data();
    StartPage(num_values);
    return Status::OK();
  }
  void DecodeRange(int64_t first, int64_t k, ByteArray* out) {
    const uint8_t* p = data_ + static_cast<size_t>(first) * width_;
    for (int64_t i = 0; i < k; ++i, p += width_) out[i] = ByteArray{p, width_};
  }

 private:
  uint32_t width_;
  const uint8_t* data_ = nullptr;
};

class PlainByteArrayDecoder final : public TypedDecoder<ByteArray> {
 public:
  Status SetData(ByteSpan data, int64_t num_values) override {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    // Every value takes at least its 4-byte length.
    if (static_cast<uint64_t>(num_values) > data.size() / 4) {
      return TooShort(num_values, "BYTE_ARRAY", data.size());
    }
    data_ = data;
    pos_ = 0;
    values_left_ = num_values;
    values_taken_ = 0;
    copy_ = nullptr;
    return Status::OK();
  }
  bool UseCStrings(const uint8_t* copy) override {
    copy_ = copy;
    return true;
  }
  Result<int64_t> Decode(ByteArray* out, int64_t n) override {
    int64_t k = std::clamp<int64_t>(n, 0, values_left_);
    const uint8_t* base = data_.data();
    size_t pos = pos_;
    const size_t size = data_.size();
    if (copy_ != nullptr) {
      // In the copy no value has its 4-byte length and each has a NUL after it: the value whose
      // length sits at `pos` starts there 3 bytes earlier for each value before it.
      const uint8_t* c = copy_ + pos - 3 * static_cast<size_t>(values_taken_);
      for (int64_t i = 0; i < k; ++i) {
        if (4 > size - pos) return Truncated(i);
        uint32_t len = LoadLE<uint32_t>(base + pos);
        pos += 4;
        if (len > size - pos) return Truncated(i);
        out[i] = ByteArray{c, len};
        pos += len;
        c += len + 1;
      }
    } else {
      for (int64_t i = 0; i < k; ++i) {
        if (4 > size - pos) return Truncated(i);
        uint32_t len = LoadLE<uint32_t>(base + pos);
        pos += 4;
        if (len > size - pos) return Truncated(i);
        out[i] = ByteArray{base + pos, len};
        pos += len;
      }
    }
    pos_ = pos;
    values_left_ -= k;
    values_taken_ += k;
    return k;
  }
  Result<int64_t> Skip(int64_t n) override {
    int64_t k = std::clamp<int64_t>(n, 0, values_left_);
    const size_t size = data_.size();
    for (int64_t i = 0; i < k; ++i) {
      if (4 > size - pos_) return Truncated(i);
      uint32_t len = LoadLE<uint32_t>(data_.data() + pos_);
      pos_ += 4;
      if (len > size - pos_) return Truncated(i);
      pos_ += len;
    }
    values_left_ -= k;
    values_taken_ += k;
    return k;
  }
  int64_t values_left() const override { return values_left_; }

 private:
  Status Truncated(int64_t i) const {
    return Status::Corruption("PLAIN BYTE_ARRAY value " + std::to_string(i) +
                              " of the batch runs past the end of the page");
  }

  ByteSpan data_;
  size_t pos_ = 0;  // byte offset of the next value's length
  int64_t values_left_ = 0;
  int64_t values_taken_ = 0;       // decoded or skipped since SetData
  const uint8_t* copy_ = nullptr;  // UseCStrings
};

}  // namespace

template <typename T>
std::unique_ptr<TypedDecoder<T>> MakePlainDecoder(int32_t fixed_width) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    return std::make_unique<PlainBooleanDecoder>();
  } else if constexpr (std::is_same_v<T, ByteArray>) {
    if (fixed_width > 0) return std::make_unique<PlainFixedLenByteArrayDecoder>(fixed_width);
    return std::make_unique<PlainByteArrayDecoder>();
  } else {
    (void)fixed_width;
    return std::make_unique<PlainFixedWidthDecoder<T>>();
  }
}

template std::unique_ptr<TypedDecoder<uint8_t>> MakePlainDecoder<uint8_t>(int32_t);
template std::unique_ptr<TypedDecoder<int32_t>> MakePlainDecoder<int32_t>(int32_t);
template std::unique_ptr<TypedDecoder<int64_t>> MakePlainDecoder<int64_t>(int32_t);
template std::unique_ptr<TypedDecoder<Int96>> MakePlainDecoder<Int96>(int32_t);
template std::unique_ptr<TypedDecoder<float>> MakePlainDecoder<float>(int32_t);
template std::unique_ptr<TypedDecoder<double>> MakePlainDecoder<double>(int32_t);
template std::unique_ptr<TypedDecoder<ByteArray>> MakePlainDecoder<ByteArray>(int32_t);

}  // namespace pq::encoding
