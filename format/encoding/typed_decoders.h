// Constructors of the value decoders, one per encoding file, for decoder_factory.cc (the only
// caller: everyone else goes through MakeDecoder, which checks the pair first). `fixed_width` is
// the FIXED_LEN_BYTE_ARRAY type_length for ByteArray decoders of FLBA columns and 0 for BYTE_ARRAY
// columns (ignored by the other value types).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include "format/encoding/decoder.h"

namespace pq::encoding {

// plain_decoder.cc: all seven value types.
template <typename T>
std::unique_ptr<TypedDecoder<T>> MakePlainDecoder(int32_t fixed_width);

// rle_boolean_decoder.cc
std::unique_ptr<TypedDecoder<uint8_t>> MakeRleBooleanDecoder();

// delta_binary_packed_decoder.cc: int32_t, int64_t.
template <typename T>
std::unique_ptr<TypedDecoder<T>> MakeDeltaBinaryPackedDecoder();

// delta_length_byte_array_decoder.cc
std::unique_ptr<TypedDecoder<ByteArray>> MakeDeltaLengthByteArrayDecoder();

// delta_byte_array_decoder.cc
std::unique_ptr<TypedDecoder<ByteArray>> MakeDeltaByteArrayDecoder(int32_t fixed_width);

// byte_stream_split_decoder.cc: float, double, int32_t, int64_t, ByteArray (FLBA only).
template <typename T>
std::unique_ptr<TypedDecoder<T>> MakeByteStreamSplitDecoder(int32_t fixed_width);

// Largest buffer a decoder builds for one page (DELTA_BYTE_ARRAY values rebuilt from prefixes can
// be far larger than the page itself); beyond it SetData fails with OutOfMemory.
inline constexpr uint64_t kMaxDecodedPageBytes = uint64_t{1} << 30;

// Fails with InvalidArgument when a caller passes a negative value count.
inline Status CheckValueCount(int64_t num_values) {
  if (num_values < 0) return Status::InvalidArgument("negative value count");
  return Status::OK();
}

// The bookkeeping shared by the decoders whose values sit at known places in the page: fixed-width
// values whose count SetData has checked against the page size (PLAIN and BYTE_STREAM_SPLIT of
// every fixed-width type). Skip is an addition; Decode hands a range of values to the subclass:
//
//   class MyDecoder final : public IndexedValuesDecoder<T, MyDecoder> {
//     Status SetData(ByteSpan data, int64_t num_values) override;  // checks, then StartPage()
//     void DecodeRange(int64_t first, int64_t k, T* out);  // values [first, first + k), k >= 1
//   };
//
// DecodeRange is called directly (not virtually), so it inlines into Decode: a batch costs one
// virtual call, as for every decoder.
template <typename T, typename Derived>
class IndexedValuesDecoder : public TypedDecoder<T> {
 public:
  Result<int64_t> Decode(T* out, int64_t n) final {
    const int64_t k = std::clamp<int64_t>(n, 0, values_left());
    if (k > 0) static_cast<Derived*>(this)->DecodeRange(next_, k, out);
    next_ += k;
    return k;
  }
  Result<int64_t> Skip(int64_t n) final {
    const int64_t k = std::clamp<int64_t>(n, 0, values_left());
    next_ += k;
    return k;
  }
  int64_t values_left() const final { return num_values_ - next_; }

 protected:
  // Starts a page of `num_values` values (>= 0, all of them inside the page).
  void StartPage(int64_t num_values) {
    next_ = 0;
    num_values_ = num_values;
  }

 private:
  int64_t next_ = 0;  // index of the next value
  int64_t num_values_ = 0;
};

// The bookkeeping shared by the decoders that pass values on from a stream reader (`Stream`, with
// Status Decode(StreamValue* out, int64_t k) and Status Skip(int64_t k) taking exactly k values):
// they offer values_left() values, set by the subclass's SetData, and take min(n, values_left())
// per call. StreamValue differs from T only where the stream reads the unsigned twin of a signed
// type (DELTA_BINARY_PACKED), which may alias it.
template <typename T, typename Stream, typename StreamValue = T>
class StreamValuesDecoder : public TypedDecoder<T> {
 public:
  Result<int64_t> Decode(T* out, int64_t n) final {
    const int64_t k = std::clamp<int64_t>(n, 0, values_left_);
    PQ_RETURN_IF_ERROR(stream_.Decode(reinterpret_cast<StreamValue*>(out), k));
    values_left_ -= k;
    return k;
  }
  Result<int64_t> Skip(int64_t n) final {
    const int64_t k = std::clamp<int64_t>(n, 0, values_left_);
    PQ_RETURN_IF_ERROR(stream_.Skip(k));
    values_left_ -= k;
    return k;
  }
  int64_t values_left() const final { return values_left_; }

 protected:
  // SetData for a stream that states its own value count (total_values(), the delta encodings):
  // offers the smaller of the page's count and the stream's. Extra encoded values are ignored; a
  // stream holding fewer values than the page needs shows as a short values_left() that the column
  // reader reports.
  Status StartCountedStream(ByteSpan data, int64_t num_values) {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    values_left_ = 0;
    PQ_RETURN_IF_ERROR(stream_.Init(data));
    values_left_ = std::min<int64_t>(num_values, stream_.total_values());
    return Status::OK();
  }

  Stream stream_;
  int64_t values_left_ = 0;
};

}  // namespace pq::encoding
