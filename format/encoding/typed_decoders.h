// Constructors of the value decoders, one per encoding file, for decoder_factory.cc (the only
// caller: everyone else goes through MakeDecoder, which checks the pair first).
//
// `fixed_width` is the FIXED_LEN_BYTE_ARRAY type_length for ByteArray decoders of FLBA columns and
// 0 for BYTE_ARRAY columns (ignored by the other value types).
#pragma once

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

}  // namespace pq::encoding
