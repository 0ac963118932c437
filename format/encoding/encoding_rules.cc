#include "format/encoding/encoding_rules.h"

#include <type_traits>

namespace pq::encoding {

std::string EncodingLabel(Encoding e) {
  switch (e) {
    case Encoding::kPlain:
      return "PLAIN";
    case Encoding::kPlainDictionary:
      return "PLAIN_DICTIONARY";
    case Encoding::kRle:
      return "RLE";
    case Encoding::kBitPacked:
      return "BIT_PACKED";
    case Encoding::kDeltaBinaryPacked:
      return "DELTA_BINARY_PACKED";
    case Encoding::kDeltaLengthByteArray:
      return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::kDeltaByteArray:
      return "DELTA_BYTE_ARRAY";
    case Encoding::kRleDictionary:
      return "RLE_DICTIONARY";
    case Encoding::kByteStreamSplit:
      return "BYTE_STREAM_SPLIT";
    case Encoding::kAlp:
      return "ALP";
  }
  return std::to_string(static_cast<int32_t>(e));
}

std::string PhysicalTypeLabel(PhysicalType t) {
  switch (t) {
    case PhysicalType::kBoolean:
      return "BOOLEAN";
    case PhysicalType::kInt32:
      return "INT32";
    case PhysicalType::kInt64:
      return "INT64";
    case PhysicalType::kInt96:
      return "INT96";
    case PhysicalType::kFloat:
      return "FLOAT";
    case PhysicalType::kDouble:
      return "DOUBLE";
    case PhysicalType::kByteArray:
      return "BYTE_ARRAY";
    case PhysicalType::kFixedLenByteArray:
      return "FIXED_LEN_BYTE_ARRAY";
  }
  return std::to_string(static_cast<int32_t>(t));
}

namespace {

bool IsKnownType(PhysicalType t) {
  return static_cast<int32_t>(t) >= 0 && static_cast<int32_t>(t) <= 7;
}

}  // namespace

Status CheckValueEncoding(PhysicalType type, Encoding encoding) {
  using P = PhysicalType;
  bool ok = false;
  const char* why = "";
  if (IsKnownType(type)) {
    switch (encoding) {
      case Encoding::kPlain:
        ok = true;
        break;
      case Encoding::kRle:
        ok = type == P::kBoolean;
        break;
      case Encoding::kDeltaBinaryPacked:
        ok = type == P::kInt32 || type == P::kInt64;
        break;
      case Encoding::kDeltaLengthByteArray:
        ok = type == P::kByteArray;
        break;
      case Encoding::kDeltaByteArray:
        ok = type == P::kByteArray || type == P::kFixedLenByteArray;
        break;
      case Encoding::kByteStreamSplit:
        ok = type == P::kFloat || type == P::kDouble || type == P::kInt32 || type == P::kInt64 ||
             type == P::kFixedLenByteArray;
        break;
      case Encoding::kPlainDictionary:
      case Encoding::kRleDictionary:
        why = " (dictionary indices are handled by DictionaryIndexDecoder / DictionaryEncoder)";
        break;
      case Encoding::kBitPacked:
        why = " (BIT_PACKED is only used for levels)";
        break;
      case Encoding::kAlp:
        why = " (ALP is not supported)";
        break;
    }
  } else {
    why = " (unknown physical type)";
  }
  if (ok) return Status::OK();
  return Status::NotSupported("encoding " + EncodingLabel(encoding) +
                              " is not valid for physical type " + PhysicalTypeLabel(type) + why);
}

template <typename T>
bool IsValueTypeOf(PhysicalType type) {
  switch (type) {
    case PhysicalType::kBoolean:
      return std::is_same_v<T, uint8_t>;
    case PhysicalType::kInt32:
      return std::is_same_v<T, int32_t>;
    case PhysicalType::kInt64:
      return std::is_same_v<T, int64_t>;
    case PhysicalType::kInt96:
      return std::is_same_v<T, Int96>;
    case PhysicalType::kFloat:
      return std::is_same_v<T, float>;
    case PhysicalType::kDouble:
      return std::is_same_v<T, double>;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      return std::is_same_v<T, ByteArray>;
  }
  return false;
}

template <typename T>
Status CheckValueType(PhysicalType type, int32_t type_length) {
  if (!IsValueTypeOf<T>(type)) {
    return Status::InvalidArgument("value type does not match physical type " +
                                   PhysicalTypeLabel(type));
  }
  if (type == PhysicalType::kFixedLenByteArray && type_length <= 0) {
    return Status::Corruption("FIXED_LEN_BYTE_ARRAY type_length must be positive, got " +
                              std::to_string(type_length));
  }
  return Status::OK();
}

#define PQ_INSTANTIATE_RULES(T)                      \
  template bool IsValueTypeOf<T>(PhysicalType type); \
  template Status CheckValueType<T>(PhysicalType type, int32_t type_length);
PQ_INSTANTIATE_RULES(uint8_t)
PQ_INSTANTIATE_RULES(int32_t)
PQ_INSTANTIATE_RULES(int64_t)
PQ_INSTANTIATE_RULES(Int96)
PQ_INSTANTIATE_RULES(float)
PQ_INSTANTIATE_RULES(double)
PQ_INSTANTIATE_RULES(ByteArray)
#undef PQ_INSTANTIATE_RULES

}  // namespace pq::encoding
