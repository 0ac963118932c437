#include "format/thrift/compact_reader.h"

#include <cstring>

namespace pq::thrift {

namespace {

bool IsValidType(uint8_t t) {
  return t >= 1 && t <= 13;
}

}  // namespace

std::string CompactTypeName(CompactType type) {
  switch (type) {
    case CompactType::kStop:
      return "stop";
    case CompactType::kBoolTrue:
      return "bool";
    case CompactType::kBoolFalse:
      return "bool";
    case CompactType::kI8:
      return "i8";
    case CompactType::kI16:
      return "i16";
    case CompactType::kI32:
      return "i32";
    case CompactType::kI64:
      return "i64";
    case CompactType::kDouble:
      return "double";
    case CompactType::kBinary:
      return "binary";
    case CompactType::kList:
      return "list";
    case CompactType::kSet:
      return "set";
    case CompactType::kMap:
      return "map";
    case CompactType::kStruct:
      return "struct";
    case CompactType::kUuid:
      return "uuid";
  }
  return std::to_string(static_cast<int>(type));
}

size_t CompactReader::MinimumSize(CompactType element_type) {
  switch (element_type) {
    case CompactType::kDouble:
      return 8;
    case CompactType::kUuid:
      return 16;
    default:
      return 1;  // a varint, a length, a bool byte, a stop byte or a container header
  }
}

Status CompactReader::TooDeep() const {
  return Status::Corruption("Thrift nesting deeper than " + std::to_string(kMaxDepth) +
                            " levels at offset " + std::to_string(in_.position()));
}

Result<FieldHeader> CompactReader::ReadFieldHeaderSlow(int16_t previous_id) {
  PQ_ASSIGN_OR_RETURN(uint8_t byte, in_.ReadU8());
  FieldHeader h;
  const uint8_t type = byte & 0x0f;
  if (type == 0) return h;  // stop (Thrift ignores the high nibble of a stop byte)
  if (!IsValidType(type)) {
    return Status::Corruption("invalid Thrift field type " + std::to_string(type) + " at offset " +
                              std::to_string(in_.position() - 1));
  }
  h.type = static_cast<CompactType>(type);
  const uint8_t delta = byte >> 4;
  if (delta == 0) {
    PQ_ASSIGN_OR_RETURN(int32_t id, in_.ReadZigZag32());
    if (id < INT16_MIN || id > INT16_MAX) {
      return Status::Corruption("Thrift field id " + std::to_string(id) + " out of i16 range");
    }
    h.id = static_cast<int16_t>(id);
  } else {
    const int32_t id = int32_t{previous_id} + delta;
    if (id > INT16_MAX) return Status::Corruption("Thrift field id overflows i16");
    h.id = static_cast<int16_t>(id);
  }
  return h;
}

Result<int8_t> CompactReader::ReadI8() {
  PQ_ASSIGN_OR_RETURN(uint8_t b, in_.ReadU8());
  return static_cast<int8_t>(b);
}

Result<int16_t> CompactReader::ReadI16() {
  PQ_ASSIGN_OR_RETURN(int32_t v, in_.ReadZigZag32());
  if (v < INT16_MIN || v > INT16_MAX) return Status::Corruption("Thrift i16 out of range");
  return static_cast<int16_t>(v);
}

Result<double> CompactReader::ReadDouble() {
  return in_.ReadLE<double>();
}

Result<bool> CompactReader::ReadBoolElement() {
  PQ_ASSIGN_OR_RETURN(uint8_t b, in_.ReadU8());
  return b == 1;
}

Result<ByteSpan> CompactReader::ReadBinary() {
  uint64_t length;
  if (!TryReadShortVarint<4>(&length)) {
    PQ_ASSIGN_OR_RETURN(length, in_.ReadUleb128U32());
  }
  if (length > in_.remaining()) {
    return Status::Corruption("Thrift binary of " + std::to_string(length) + " bytes at offset " +
                              std::to_string(in_.position()) + " but only " +
                              std::to_string(in_.remaining()) + " bytes left");
  }
  return in_.ReadBytes(length);
}

Status CompactReader::OverMemoryLimit(size_t bytes) const {
  return Status::OutOfMemory("what it holds would take more than " + std::to_string(memory_limit_) +
                             " bytes in memory once parsed (" + std::to_string(memory_charged_) +
                             " so far, " + std::to_string(bytes) + " more at offset " +
                             std::to_string(in_.position()) + ")");
}

Status CompactReader::ReadString(std::string* out) {
  PQ_ASSIGN_OR_RETURN(ByteSpan bytes, ReadBinary());
  // Short strings live inside the std::string object, which the caller already counted.
  if (bytes.size() >= sizeof(std::string) / 2) PQ_RETURN_IF_ERROR(ChargeMemory(bytes.size() + 1));
  out->assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return Status::OK();
}

Result<ByteSpan> CompactReader::ReadUuid() {
  return in_.ReadBytes(16);
}

Result<uint32_t> CompactReader::ReadSize(const char* what) {
  PQ_ASSIGN_OR_RETURN(uint32_t size, in_.ReadUleb128U32());
  if (size > INT32_MAX) {
    return Status::Corruption(std::string("Thrift ") + what + " size " + std::to_string(size) +
                              " is negative");
  }
  return size;
}

Result<ListHeader> CompactReader::ReadListHeader() {
  const size_t at = in_.position();
  PQ_ASSIGN_OR_RETURN(uint8_t byte, in_.ReadU8());
  ListHeader h;
  uint32_t size = byte >> 4;
  if (size == 15) {
    PQ_ASSIGN_OR_RETURN(size, ReadSize("list"));
  }
  h.size = size;
  const uint8_t type = byte & 0x0f;
  if (size == 0) {
    // Element types of empty lists are not checked: some writers leave them 0.
    h.element_type = IsValidType(type) ? static_cast<CompactType>(type) : CompactType::kStop;
    if (IsBoolType(h.element_type)) h.element_type = CompactType::kBoolTrue;
    return h;
  }
  if (!IsValidType(type)) {
    return Status::Corruption("invalid Thrift list element type " + std::to_string(type) +
                              " at offset " + std::to_string(at));
  }
  h.element_type = IsBoolType(static_cast<CompactType>(type)) ? CompactType::kBoolTrue
                                                              : static_cast<CompactType>(type);
  if (size > in_.remaining() / MinimumSize(h.element_type)) {
    return Status::Corruption("Thrift list of " + std::to_string(size) + " " +
                              CompactTypeName(h.element_type) + " elements at offset " +
                              std::to_string(at) + " but only " + std::to_string(in_.remaining()) +
                              " bytes left");
  }
  return h;
}

Result<MapHeader> CompactReader::ReadMapHeader() {
  const size_t at = in_.position();
  PQ_ASSIGN_OR_RETURN(uint32_t size, ReadSize("map"));
  MapHeader h;
  h.size = size;
  if (size == 0) return h;
  PQ_ASSIGN_OR_RETURN(uint8_t types, in_.ReadU8());
  const uint8_t key = types >> 4;
  const uint8_t value = types & 0x0f;
  if (!IsValidType(key) || !IsValidType(value)) {
    return Status::Corruption("invalid Thrift map key/value types " + std::to_string(key) + "/" +
                              std::to_string(value) + " at offset " + std::to_string(at));
  }
  h.key_type = IsBoolType(static_cast<CompactType>(key)) ? CompactType::kBoolTrue
                                                         : static_cast<CompactType>(key);
  h.value_type = IsBoolType(static_cast<CompactType>(value)) ? CompactType::kBoolTrue
                                                             : static_cast<CompactType>(value);
  const size_t pair_size = MinimumSize(h.key_type) + MinimumSize(h.value_type);
  if (size > in_.remaining() / pair_size) {
    return Status::Corruption("Thrift map of " + std::to_string(size) + " entries at offset " +
                              std::to_string(at) + " but only " + std::to_string(in_.remaining()) +
                              " bytes left");
  }
  return h;
}

Status CompactReader::SkipField(CompactType type) {
  switch (type) {
    case CompactType::kBoolTrue:
    case CompactType::kBoolFalse:
      return Status::OK();  // the value is in the field header
    default:
      return SkipElement(type);
  }
}

Status CompactReader::SkipElement(CompactType type) {
  switch (type) {
    case CompactType::kBoolTrue:
    case CompactType::kBoolFalse:
    case CompactType::kI8:
      return in_.Skip(1);
    case CompactType::kI16:
    case CompactType::kI32:
      return in_.ReadUleb128(5).status();
    case CompactType::kI64:
      return in_.ReadUleb128(10).status();
    case CompactType::kDouble:
      return in_.Skip(8);
    case CompactType::kBinary:
      return ReadBinary().status();
    case CompactType::kUuid:
      return in_.Skip(16);
    case CompactType::kList:
    case CompactType::kSet:
      return SkipList();
    case CompactType::kMap:
      return SkipMap();
    case CompactType::kStruct:
      return SkipStruct();
    case CompactType::kStop:
      break;
  }
  return Status::Corruption("cannot skip Thrift value of type " + CompactTypeName(type));
}

Status CompactReader::SkipStruct() {
  PQ_RETURN_IF_ERROR(BeginStruct());
  int16_t last_id = 0;
  for (;;) {
    PQ_ASSIGN_OR_RETURN(FieldHeader field, ReadFieldHeader(last_id));
    if (field.type == CompactType::kStop) break;
    last_id = field.id;
    PQ_RETURN_IF_ERROR(SkipField(field.type));
  }
  EndStruct();
  return Status::OK();
}

Status CompactReader::SkipList() {
  PQ_RETURN_IF_ERROR(BeginStruct());
  PQ_ASSIGN_OR_RETURN(ListHeader list, ReadListHeader());
  for (uint32_t i = 0; i < list.size; ++i) {
    PQ_RETURN_IF_ERROR(SkipElement(list.element_type));
  }
  EndStruct();
  return Status::OK();
}

Status CompactReader::SkipMap() {
  PQ_RETURN_IF_ERROR(BeginStruct());
  PQ_ASSIGN_OR_RETURN(MapHeader map, ReadMapHeader());
  for (uint32_t i = 0; i < map.size; ++i) {
    PQ_RETURN_IF_ERROR(SkipElement(map.key_type));
    PQ_RETURN_IF_ERROR(SkipElement(map.value_type));
  }
  EndStruct();
  return Status::OK();
}

}  // namespace pq::thrift
