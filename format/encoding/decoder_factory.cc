// MakeDecoder: picks the value decoder for (physical type, encoding). The legal pairs are in
// encoding_rules.h; adding an encoding is a file and a case here.

#include <algorithm>
#include <type_traits>

#include "format/encoding/encoding_rules.h"
#include "format/encoding/typed_decoders.h"

namespace pq {

template <typename T>
Result<int64_t> TypedDecoder<T>::Skip(int64_t n) {
  // Fallback for decoders with nothing faster: decode into scratch space and drop.
  T scratch[256];
  int64_t skipped = 0;
  while (skipped < n && values_left() > 0) {
    PQ_ASSIGN_OR_RETURN(int64_t got, Decode(scratch, std::min<int64_t>(n - skipped, 256)));
    if (got == 0) break;
    skipped += got;
  }
  return skipped;
}

template <typename T>
Result<std::unique_ptr<TypedDecoder<T>>> MakeDecoder(PhysicalType type, Encoding encoding,
                                                     int32_t type_length) {
  PQ_RETURN_IF_ERROR(encoding::CheckValueType<T>(type, type_length));
  PQ_RETURN_IF_ERROR(encoding::CheckValueEncoding(type, encoding));
  const int32_t fixed_width = type == PhysicalType::kFixedLenByteArray ? type_length : 0;
  std::unique_ptr<TypedDecoder<T>> decoder;
  switch (encoding) {
    case Encoding::kPlain:
      decoder = encoding::MakePlainDecoder<T>(fixed_width);
      break;
    case Encoding::kRle:
      if constexpr (std::is_same_v<T, uint8_t>) decoder = encoding::MakeRleBooleanDecoder();
      break;
    case Encoding::kDeltaBinaryPacked:
      if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
        decoder = encoding::MakeDeltaBinaryPackedDecoder<T>();
      }
      break;
    case Encoding::kDeltaLengthByteArray:
      if constexpr (std::is_same_v<T, ByteArray>) {
        decoder = encoding::MakeDeltaLengthByteArrayDecoder();
      }
      break;
    case Encoding::kDeltaByteArray:
      if constexpr (std::is_same_v<T, ByteArray>) {
        decoder = encoding::MakeDeltaByteArrayDecoder(fixed_width);
      }
      break;
    case Encoding::kByteStreamSplit:
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> ||
                    std::is_same_v<T, ByteArray>) {
        decoder = encoding::MakeByteStreamSplitDecoder<T>(fixed_width);
      }
      break;
    default:
      break;
  }
  // CheckValueEncoding and CheckValueType together leave no pair without a decoder.
  if (!decoder) {
    return Status::NotSupported("encoding " + encoding::EncodingLabel(encoding) +
                                " is not valid for physical type " +
                                encoding::PhysicalTypeLabel(type));
  }
  return decoder;
}

#define PQ_INSTANTIATE_DECODER(T) \
  template class TypedDecoder<T>; \
  template Result<std::unique_ptr<TypedDecoder<T>>> MakeDecoder<T>(PhysicalType, Encoding, int32_t);
PQ_INSTANTIATE_DECODER(uint8_t)
PQ_INSTANTIATE_DECODER(int32_t)
PQ_INSTANTIATE_DECODER(int64_t)
PQ_INSTANTIATE_DECODER(Int96)
PQ_INSTANTIATE_DECODER(float)
PQ_INSTANTIATE_DECODER(double)
PQ_INSTANTIATE_DECODER(ByteArray)
#undef PQ_INSTANTIATE_DECODER

}  // namespace pq
