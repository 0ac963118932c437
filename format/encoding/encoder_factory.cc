// MakeEncoder: picks the value encoder for (physical type, encoding), under the same rules as
// MakeDecoder (encoding_rules.h).

#include <type_traits>

#include "format/encoding/encoding_rules.h"
#include "format/encoding/typed_encoders.h"

namespace pq {

template <typename T>
Result<std::unique_ptr<TypedEncoder<T>>> MakeEncoder(PhysicalType type, Encoding encoding,
                                                     int32_t type_length) {
  PQ_RETURN_IF_ERROR(encoding::CheckValueType<T>(type, type_length));
  PQ_RETURN_IF_ERROR(encoding::CheckValueEncoding(type, encoding));
  const int32_t fixed_width = type == PhysicalType::kFixedLenByteArray ? type_length : 0;
  std::unique_ptr<TypedEncoder<T>> encoder;
  switch (encoding) {
    case Encoding::kPlain:
      encoder = encoding::MakePlainEncoder<T>(fixed_width);
      break;
    case Encoding::kRle:
      if constexpr (std::is_same_v<T, uint8_t>) encoder = encoding::MakeRleBooleanEncoder();
      break;
    case Encoding::kDeltaBinaryPacked:
      if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
        encoder = encoding::MakeDeltaBinaryPackedEncoder<T>();
      }
      break;
    case Encoding::kDeltaLengthByteArray:
      if constexpr (std::is_same_v<T, ByteArray>) {
        encoder = encoding::MakeDeltaLengthByteArrayEncoder();
      }
      break;
    case Encoding::kDeltaByteArray:
      if constexpr (std::is_same_v<T, ByteArray>) {
        encoder = encoding::MakeDeltaByteArrayEncoder(fixed_width);
      }
      break;
    case Encoding::kByteStreamSplit:
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> ||
                    std::is_same_v<T, ByteArray>) {
        encoder = encoding::MakeByteStreamSplitEncoder<T>(fixed_width);
      }
      break;
    default:
      break;
  }
  if (!encoder) {
    return Status::NotSupported("encoding " + encoding::EncodingLabel(encoding) +
                                " is not valid for physical type " +
                                encoding::PhysicalTypeLabel(type));
  }
  return encoder;
}

#define PQ_INSTANTIATE_ENCODER(T) \
  template Result<std::unique_ptr<TypedEncoder<T>>> MakeEncoder<T>(PhysicalType, Encoding, int32_t);
PQ_INSTANTIATE_ENCODER(uint8_t)
PQ_INSTANTIATE_ENCODER(int32_t)
PQ_INSTANTIATE_ENCODER(int64_t)
PQ_INSTANTIATE_ENCODER(Int96)
PQ_INSTANTIATE_ENCODER(float)
PQ_INSTANTIATE_ENCODER(double)
PQ_INSTANTIATE_ENCODER(ByteArray)
#undef PQ_INSTANTIATE_ENCODER

}  // namespace pq
