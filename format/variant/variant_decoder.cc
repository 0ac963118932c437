#include "format/variant/variant_decoder.h"

#include <algorithm>
#include <cstring>

#include "format/value/decimal.h"
#include "format/util/json_writer.h"
#include "format/variant/variant_text.h"

namespace pq {

namespace {

// An unsigned little-endian integer of 1 to 4 bytes at p (bounds checked by the caller).
inline uint32_t LoadUnsigned(const uint8_t* p, int size) {
  uint32_t v = p[0];
  if (size > 1) v |= uint32_t{p[1]} << 8;
  if (size > 2) v |= uint32_t{p[2]} << 16;
  if (size > 3) v |= uint32_t{p[3]} << 24;
  return v;
}

std::string Bytes(uint64_t n) {
  return std::to_string(n) + (n == 1 ? " byte" : " bytes");
}

Status Truncated(const char* what, uint64_t need, size_t left) {
  return Status::Corruption(std::string("variant: ") + what + " needs " + Bytes(need) + ", " +
                            Bytes(left) + " left");
}

// The payload size of primitive `id` whose value (header byte included) is `value`; -1 for an id
// this reader does not know. Sized payloads (binary, string) need their 4-byte length: the caller
// checked that value holds at least 5 bytes for them.
int64_t PrimitivePayloadSize(uint8_t id, ByteSpan value) {
  switch (id) {
    case variant::kNull:
    case variant::kTrue:
    case variant::kFalse:
      return 0;
    case variant::kInt8:
      return 1;
    case variant::kInt16:
      return 2;
    case variant::kInt32:
    case variant::kDate:
    case variant::kFloat:
      return 4;
    case variant::kInt64:
    case variant::kDouble:
    case variant::kTimestampMicros:
    case variant::kTimestampNtzMicros:
    case variant::kTimeNtzMicros:
    case variant::kTimestampNanos:
    case variant::kTimestampNtzNanos:
      return 8;
    case variant::kDecimal4:
      return 1 + 4;
    case variant::kDecimal8:
      return 1 + 8;
    case variant::kDecimal16:
      return 1 + 16;
    case variant::kUuid:
      return 16;
    case variant::kBinary:
    case variant::kString:
      return 4 + int64_t{LoadLE<uint32_t>(value.data() + 1)};
    default:
      return -1;
  }
}

// The layout of an object or array read from its header ("Value Header for Object", "Value Header
// for Array", "Value Data for Object/Array").
struct Layout {
  bool is_object = false;
  uint32_t count = 0;
  int id_size = 0;  // objects only
  int offset_size = 1;
  const uint8_t* ids = nullptr;      // count ids
  const uint8_t* offsets = nullptr;  // count + 1 offsets
  const uint8_t* data = nullptr;     // the children
  uint32_t data_size = 0;            // the last offset
  size_t total_size = 0;             // the whole value, header byte included
};

// Reads the layout of the object or array value at bytes[0]; checks that all of it, children
// included, fits in `bytes`.
Status ReadLayout(ByteSpan bytes, Layout* l) {
  const uint8_t header = static_cast<uint8_t>(bytes[0] >> 2);
  l->is_object = (bytes[0] & 0x3) == static_cast<uint8_t>(VariantBasicType::kObject);
  bool is_large;
  l->offset_size = (header & 0x3) + 1;
  if (l->is_object) {
    l->id_size = ((header >> 2) & 0x3) + 1;
    is_large = (header >> 4) & 0x1;
  } else {
    l->id_size = 0;
    is_large = (header >> 2) & 0x1;
  }
  const char* what = l->is_object ? "object" : "array";
  const size_t count_size = is_large ? 4 : 1;
  size_t left = bytes.size() - 1;
  if (count_size > left) return Truncated(what, count_size, left);
  l->count = LoadUnsigned(bytes.data() + 1, static_cast<int>(count_size));
  left -= count_size;
  const uint64_t ids_size = uint64_t{l->count} * static_cast<uint64_t>(l->id_size);
  const uint64_t offsets_size = (uint64_t{l->count} + 1) * static_cast<uint64_t>(l->offset_size);
  if (ids_size + offsets_size > left) {
    return Truncated(l->is_object ? "object field ids and offsets" : "array offsets",
                     ids_size + offsets_size, left);
  }
  l->ids = bytes.data() + 1 + count_size;
  l->offsets = l->ids + ids_size;
  l->data = l->offsets + offsets_size;
  left -= static_cast<size_t>(ids_size + offsets_size);
  l->data_size = LoadUnsigned(l->offsets + uint64_t{l->count} * l->offset_size, l->offset_size);
  if (l->data_size > left) {
    return Truncated(l->is_object ? "object field values" : "array elements", l->data_size, left);
  }
  l->total_size = static_cast<size_t>(1 + count_size + ids_size + offsets_size + l->data_size);
  return Status::OK();
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Metadata

Result<VariantMetadata> VariantMetadata::Parse(ByteSpan bytes) {
  if (bytes.empty()) return Status::Corruption("variant: metadata is empty");
  const uint8_t header = bytes[0];
  const int version = header & 0x0F;
  if (version != 1) {
    return Status::NotSupported("variant: metadata version " + std::to_string(version) +
                                " (this reader knows version 1)");
  }
  VariantMetadata m;
  m.offset_size_ = static_cast<uint8_t>((header >> 6) + 1);
  size_t left = bytes.size() - 1;
  if (m.offset_size_ > left) return Truncated("metadata dictionary size", m.offset_size_, left);
  m.dictionary_size_ = LoadUnsigned(bytes.data() + 1, m.offset_size_);
  left -= m.offset_size_;
  const uint64_t offsets_size = (uint64_t{m.dictionary_size_} + 1) * m.offset_size_;
  if (offsets_size > left) return Truncated("metadata dictionary offsets", offsets_size, left);
  m.offsets_ = bytes.data() + 1 + m.offset_size_;
  m.strings_ = m.offsets_ + offsets_size;
  m.strings_size_ = left - static_cast<size_t>(offsets_size);
  const uint32_t last =
      LoadUnsigned(m.offsets_ + uint64_t{m.dictionary_size_} * m.offset_size_, m.offset_size_);
  if (last > m.strings_size_)
    return Truncated("metadata dictionary strings", last, m.strings_size_);
  m.size_ = static_cast<size_t>(m.strings_ - bytes.data()) + last;
  return m;
}

Result<std::string_view> VariantMetadata::Key(uint32_t id) const {
  if (id >= dictionary_size_) {
    return Status::Corruption("variant: field id " + std::to_string(id) +
                              " is outside the metadata dictionary of " +
                              std::to_string(dictionary_size_) + " names");
  }
  const uint32_t begin = LoadUnsigned(offsets_ + uint64_t{id} * offset_size_, offset_size_);
  const uint32_t end = LoadUnsigned(offsets_ + (uint64_t{id} + 1) * offset_size_, offset_size_);
  if (begin > end || end > strings_size_) {
    return Status::Corruption("variant: metadata dictionary entry " + std::to_string(id) +
                              " spans bytes [" + std::to_string(begin) + ", " +
                              std::to_string(end) + ") of " + std::to_string(strings_size_));
  }
  return std::string_view(reinterpret_cast<const char*>(strings_) + begin, end - begin);
}

// ---------------------------------------------------------------------------------------------
// Sizes

Result<size_t> VariantValueSize(ByteSpan bytes) {
  if (bytes.empty()) return Status::Corruption("variant: a value needs 1 byte, 0 bytes left");
  const uint8_t header = static_cast<uint8_t>(bytes[0] >> 2);
  uint64_t size = 0;
  switch (static_cast<VariantBasicType>(bytes[0] & 0x3)) {
    case VariantBasicType::kPrimitive: {
      if ((header == variant::kBinary || header == variant::kString) && bytes.size() < 5) {
        return Truncated(header == variant::kBinary ? "binary length" : "string length", 4,
                         bytes.size() - 1);
      }
      const int64_t payload = PrimitivePayloadSize(header, bytes);
      if (payload < 0) {
        return Status::NotSupported("variant: primitive type " + std::to_string(header) +
                                    " is not known to this reader");
      }
      size = 1 + static_cast<uint64_t>(payload);
      break;
    }
    case VariantBasicType::kShortString:
      size = 1 + uint64_t{header};
      break;
    case VariantBasicType::kObject:
    case VariantBasicType::kArray: {
      Layout l;
      PQ_RETURN_IF_ERROR(ReadLayout(bytes, &l));
      return l.total_size;
    }
  }
  if (size > bytes.size()) return Truncated("value", size, bytes.size());
  return static_cast<size_t>(size);
}

// ---------------------------------------------------------------------------------------------
// Decoder

struct VariantDecoder::Container {
  Layout layout;
  // Children in offset order: true when the stored offsets strictly increase, so the child after
  // child i in memory is child i + 1; else the sorted offsets are sorted_offsets_[base, base +
  // count).
  bool in_order = true;
  size_t base = 0;

  uint32_t Offset(uint32_t i) const {
    return LoadUnsigned(layout.offsets + uint64_t{i} * layout.offset_size, layout.offset_size);
  }
  uint32_t Id(uint32_t i) const {
    return LoadUnsigned(layout.ids + uint64_t{i} * layout.id_size, layout.id_size);
  }
};

Status VariantDecoder::ReadContainer(ByteSpan value, Container* c) {
  PQ_RETURN_IF_ERROR(ReadLayout(value, &c->layout));
  const Layout& l = c->layout;
  // Children must not share or overlap bytes (see the header): offsets distinct, each child inside
  // the gap up to the next offset (checked by Child).
  c->in_order = true;
  for (uint32_t i = 1; i < l.count; ++i) {
    if (c->Offset(i) <= c->Offset(i - 1)) {
      c->in_order = false;
      break;
    }
  }
  c->base = sorted_offsets_.size();
  if (!c->in_order) {
    sorted_offsets_.resize(c->base + l.count);
    uint32_t* sorted = sorted_offsets_.data() + c->base;
    for (uint32_t i = 0; i < l.count; ++i) sorted[i] = c->Offset(i);
    std::sort(sorted, sorted + l.count);
    for (uint32_t i = 1; i < l.count; ++i) {
      if (sorted[i] == sorted[i - 1]) {
        sorted_offsets_.resize(c->base);
        return Status::Corruption(std::string("variant: two ") +
                                  (l.is_object ? "object fields" : "array elements") +
                                  " start at offset " + std::to_string(sorted[i]));
      }
    }
  }
  return Status::OK();
}

Result<ByteSpan> VariantDecoder::Child(const Container& c, uint32_t i) {
  const Layout& l = c.layout;
  const uint32_t begin = c.Offset(i);
  uint32_t end = l.data_size;
  if (c.in_order) {
    if (i + 1 < l.count) end = c.Offset(i + 1);
  } else {
    const uint32_t* sorted = sorted_offsets_.data() + c.base;
    const uint32_t* next = std::upper_bound(sorted, sorted + l.count, begin);
    if (next != sorted + l.count) end = *next;
  }
  if (end > l.data_size) end = l.data_size;  // an offset past the end of the children
  if (begin > end) {
    return Status::Corruption("variant: child at offset " + std::to_string(begin) +
                              " starts after the end of its container (" +
                              std::to_string(l.data_size) + ")");
  }
  const ByteSpan gap(l.data + begin, end - begin);
  PQ_ASSIGN_OR_RETURN(size_t size, VariantValueSize(gap));
  return gap.first(size);
}

Status VariantDecoder::CheckUniqueNames(const VariantMetadata& metadata, const Container& c) {
  names_.clear();
  for (uint32_t i = 0; i < c.layout.count; ++i) {
    PQ_ASSIGN_OR_RETURN(std::string_view name, metadata.Key(c.Id(i)));
    names_.push_back(name);
  }
  std::sort(names_.begin(), names_.end());
  for (size_t i = 1; i < names_.size(); ++i) {
    if (names_[i] == names_[i - 1]) {
      return Status::Corruption("variant: object has field '" + std::string(names_[i]) + "' twice");
    }
  }
  return Status::OK();
}

Status VariantDecoder::WritePrimitive(ByteSpan value, std::string* out) {
  const uint8_t id = static_cast<uint8_t>(value[0] >> 2);
  const uint8_t* p = value.data() + 1;  // value.size() is the primitive's size (checked)
  switch (id) {
    case variant::kNull:
      AppendJsonNull(out);
      break;
    case variant::kTrue:
    case variant::kFalse:
      AppendJsonBool(id == variant::kTrue, out);
      break;
    case variant::kInt8:
      AppendJsonInt(static_cast<int8_t>(p[0]), out);
      break;
    case variant::kInt16:
      AppendJsonInt(LoadLE<int16_t>(p), out);
      break;
    case variant::kInt32:
      AppendJsonInt(LoadLE<int32_t>(p), out);
      break;
    case variant::kInt64:
      AppendJsonInt(LoadLE<int64_t>(p), out);
      break;
    case variant::kDouble:
      variant::AppendDoubleJson(LoadLE<double>(p), out);
      break;
    case variant::kFloat:
      variant::AppendDoubleJson(LoadLE<float>(p), out);
      break;
    case variant::kDecimal4:
    case variant::kDecimal8:
    case variant::kDecimal16: {
      const uint8_t scale = p[0];
      if (scale > variant::kMaxDecimalScale) {
        return Status::Corruption("variant: decimal scale " + std::to_string(scale) +
                                  " is above 38");
      }
      if (id == variant::kDecimal4) {
        AppendDecimalText(LoadLE<int32_t>(p + 1), scale, out);
      } else if (id == variant::kDecimal8) {
        AppendDecimalText(LoadLE<int64_t>(p + 1), scale, out);
      } else {
        char big_endian[16];
        for (int i = 0; i < 16; ++i) big_endian[i] = static_cast<char>(p[16 - i]);
        AppendDecimalText(std::string_view(big_endian, sizeof(big_endian)), scale, out);
      }
      break;
    }
    case variant::kDate:
      variant::AppendDateJson(LoadLE<int32_t>(p), out);
      break;
    case variant::kTimestampMicros:
    case variant::kTimestampNtzMicros:
      variant::AppendTimestampJson(LoadLE<int64_t>(p), TimeUnit::kMicros, out);
      break;
    case variant::kTimestampNanos:
    case variant::kTimestampNtzNanos:
      variant::AppendTimestampJson(LoadLE<int64_t>(p), TimeUnit::kNanos, out);
      break;
    case variant::kTimeNtzMicros:
      variant::AppendTimeJson(LoadLE<int64_t>(p), out);
      break;
    case variant::kBinary:
      AppendJsonBase64(AsStringView(value.subspan(5)), out);
      break;
    case variant::kString:
      AppendJsonString(AsStringView(value.subspan(5)), out);
      break;
    case variant::kUuid:
      variant::AppendUuidJson(p, out);
      break;
    default:  // VariantValueSize refused it already
      return Status::NotSupported("variant: primitive type " + std::to_string(id) +
                                  " is not known to this reader");
  }
  return Status::OK();
}

Status VariantDecoder::Write(const VariantMetadata& metadata, ByteSpan value, int depth,
                             std::string* out) {
  switch (VariantBasicTypeOf(value)) {
    case VariantBasicType::kPrimitive:
      return WritePrimitive(value, out);
    case VariantBasicType::kShortString:
      AppendJsonString(AsStringView(value.subspan(1)), out);
      return Status::OK();
    case VariantBasicType::kObject:
    case VariantBasicType::kArray:
      break;
  }
  if (depth >= kMaxVariantNesting) {
    return Status::Corruption("variant: objects and arrays nested more than " +
                              std::to_string(kMaxVariantNesting) + " levels deep");
  }
  Container c;
  PQ_RETURN_IF_ERROR(ReadContainer(value, &c));
  const Layout& l = c.layout;
  out->push_back(l.is_object ? '{' : '[');
  std::string_view previous_name;
  bool names_sorted = true;
  for (uint32_t i = 0; i < l.count; ++i) {
    if (out->size() > output_limit_) return OverOutputLimit();
    if (i > 0) out->push_back(',');
    if (l.is_object) {
      PQ_ASSIGN_OR_RETURN(std::string_view name, metadata.Key(c.Id(i)));
      if (i > 0 && !(previous_name < name)) names_sorted = false;
      previous_name = name;
      // A name is stored once and may be used by every object of the value: the text it makes is
      // checked before it is written.
      if (name.size() > output_limit_ - out->size()) return OverOutputLimit();
      AppendJsonString(name, out);
      out->push_back(':');
    }
    PQ_ASSIGN_OR_RETURN(ByteSpan child, Child(c, i));
    PQ_RETURN_IF_ERROR(Write(metadata, child, depth + 1, out));
  }
  out->push_back(l.is_object ? '}' : ']');
  if (!names_sorted) PQ_RETURN_IF_ERROR(CheckUniqueNames(metadata, c));
  sorted_offsets_.resize(c.base);
  return Status::OK();
}

Status VariantDecoder::OverOutputLimit() const {
  return Status::OutOfMemory("variant: its JSON text would pass " + std::to_string(output_limit_) +
                             " bytes");
}

Status VariantDecoder::AppendJson(const VariantMetadata& metadata, ByteSpan value,
                                  std::string* out) {
  PQ_ASSIGN_OR_RETURN(size_t size, VariantValueSize(value));
  if (size != value.size()) {
    return Status::Corruption("variant: " + Bytes(value.size() - size) +
                              " after the end of the value");
  }
  sorted_offsets_.clear();
  const size_t start = out->size();
  Status s = Write(metadata, value, 0, out);
  if (!s.ok()) out->resize(start);
  return s;
}

Status VariantDecoder::ReadWholeContainer(ByteSpan value, VariantBasicType expected, Container* c) {
  PQ_ASSIGN_OR_RETURN(size_t size, VariantValueSize(value));
  if (size != value.size()) {
    return Status::Corruption("variant: " + Bytes(value.size() - size) +
                              " after the end of the value");
  }
  if (VariantBasicTypeOf(value) != expected) {
    return Status::Corruption(expected == VariantBasicType::kObject
                                  ? "variant: value is not an object"
                                  : "variant: value is not an array");
  }
  sorted_offsets_.clear();
  return ReadContainer(value, c);
}

Status VariantDecoder::ReadObjectFields(const VariantMetadata& metadata, ByteSpan value,
                                        std::vector<VariantField>* fields) {
  Container c;
  PQ_RETURN_IF_ERROR(ReadWholeContainer(value, VariantBasicType::kObject, &c));
  const size_t start = fields->size();
  bool names_sorted = true;
  for (uint32_t i = 0; i < c.layout.count; ++i) {
    const uint32_t id = c.Id(i);
    Result<std::string_view> name = metadata.Key(id);
    Result<ByteSpan> child = name.ok() ? Child(c, i) : Result<ByteSpan>(name.status());
    if (!child.ok()) {
      fields->resize(start);
      return child.status();
    }
    if (i > 0 && !((*fields).back().name < *name)) names_sorted = false;
    fields->push_back(VariantField{*name, *child, id});
  }
  if (!names_sorted) {
    Status s = CheckUniqueNames(metadata, c);
    if (!s.ok()) {
      fields->resize(start);
      return s;
    }
  }
  sorted_offsets_.clear();
  return Status::OK();
}

Status VariantDecoder::ReadArrayElements(ByteSpan value, std::vector<ByteSpan>* elements) {
  Container c;
  PQ_RETURN_IF_ERROR(ReadWholeContainer(value, VariantBasicType::kArray, &c));
  const size_t start = elements->size();
  for (uint32_t i = 0; i < c.layout.count; ++i) {
    Result<ByteSpan> child = Child(c, i);
    if (!child.ok()) {
      elements->resize(start);
      return child.status();
    }
    elements->push_back(*child);
  }
  sorted_offsets_.clear();
  return Status::OK();
}

Status AppendVariantJson(ByteSpan metadata, ByteSpan value, std::string* out) {
  PQ_ASSIGN_OR_RETURN(VariantMetadata m, VariantMetadata::Parse(metadata));
  VariantDecoder decoder;
  return decoder.AppendJson(m, value, out);
}

}  // namespace pq
