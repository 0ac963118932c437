// Constructors of the value encoders, one per encoding file, for encoder_factory.cc (everyone else
// goes through MakeEncoder, which checks the pair first). `fixed_width` is the FIXED_LEN_BYTE_ARRAY
// type_length for ByteArray encoders of FLBA columns, 0 for BYTE_ARRAY.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "format/encoding/encoder.h"

namespace pq::encoding {

// plain_encoder.cc: all seven value types.
template <typename T>
std::unique_ptr<TypedEncoder<T>> MakePlainEncoder(int32_t fixed_width);

// rle_boolean_encoder.cc
std::unique_ptr<TypedEncoder<uint8_t>> MakeRleBooleanEncoder();

// delta_binary_packed_encoder.cc: int32_t, int64_t.
template <typename T>
std::unique_ptr<TypedEncoder<T>> MakeDeltaBinaryPackedEncoder();

// delta_length_byte_array_encoder.cc
std::unique_ptr<TypedEncoder<ByteArray>> MakeDeltaLengthByteArrayEncoder();

// delta_byte_array_encoder.cc
std::unique_ptr<TypedEncoder<ByteArray>> MakeDeltaByteArrayEncoder(int32_t fixed_width);

// byte_stream_split_encoder.cc: float, double, int32_t, int64_t, ByteArray (FLBA only).
template <typename T>
std::unique_ptr<TypedEncoder<T>> MakeByteStreamSplitEncoder(int32_t fixed_width);

// InvalidArgument unless every value is `width` bytes long (width 0: anything goes).
inline Status CheckFixedWidth(const ByteArray* values, int64_t n, int32_t width) {
  if (width <= 0) return Status::OK();
  for (int64_t i = 0; i < n; ++i) {
    if (values[i].len != static_cast<uint32_t>(width)) {
      return Status::InvalidArgument("value of " + std::to_string(values[i].len) +
                                     " bytes for a FIXED_LEN_BYTE_ARRAY(" + std::to_string(width) +
                                     ") column");
    }
  }
  return Status::OK();
}

}  // namespace pq::encoding
