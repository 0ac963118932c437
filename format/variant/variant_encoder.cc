#include "format/variant/variant_encoder.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "format/util/utf8.h"

namespace pq {

namespace {

// The bytes (1 to 4) an unsigned value of at most 2^32 - 1 needs.
int BytesFor(uint64_t v) {
  int n = 1;
  while (n < 4 && v >= (uint64_t{1} << (8 * n))) ++n;
  return n;
}

void AppendUnsigned(uint64_t v, int size, std::string* out) {
  for (int i = 0; i < size; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

constexpr uint64_t kMaxOffset = std::numeric_limits<uint32_t>::max();

// The header of an object of n fields whose values take data_size bytes and whose largest field id
// is max_id: the byte, the count, then the ids and offsets in field-name order (id(k), offset(k)
// for k = 0 .. n-1) and the end offset.
template <typename Id, typename Offset>
void AppendObjectHeader(size_t n, uint32_t max_id, uint64_t data_size, Id id, Offset offset,
                        std::string* out) {
  const bool large = n > 255;
  const int id_size = BytesFor(max_id);
  const int offset_size = BytesFor(data_size);
  out->push_back(
      static_cast<char>(static_cast<uint8_t>(VariantBasicType::kObject) |
                        (((large ? 0x10 : 0) | ((id_size - 1) << 2) | (offset_size - 1)) << 2)));
  AppendUnsigned(n, large ? 4 : 1, out);
  for (size_t k = 0; k < n; ++k) AppendUnsigned(id(k), id_size, out);
  for (size_t k = 0; k < n; ++k) AppendUnsigned(offset(k), offset_size, out);
  AppendUnsigned(data_size, offset_size, out);
}

}  // namespace

void VariantEncoder::Reset() {
  value_.clear();
  names_.clear();
  ids_.clear();
  depth_ = 0;
  top_level_values_ = 0;
  error_ = Status::OK();
}

Status VariantEncoder::Fail(std::string what) {
  if (error_.ok()) error_ = Status::InvalidArgument("variant: " + std::move(what));
  return error_;
}

void VariantEncoder::BeginValue() {
  if (depth_ == 0) {
    if (++top_level_values_ > 1) (void)Fail("more than one value at the top level");
    return;
  }
  Frame& f = frames_[depth_ - 1];
  if (f.is_object) {
    if (!f.key_pending) {
      (void)Fail("an object field without a name");
      return;
    }
    f.key_pending = false;
  }
  f.offsets.push_back(
      static_cast<uint32_t>(std::min<uint64_t>(value_.size() - f.start, kMaxOffset)));
}

void VariantEncoder::AddPrimitive(variant::PrimitiveId id, const void* payload, size_t size) {
  BeginValue();
  value_.push_back(static_cast<char>(id << 2));
  if (size > 0) value_.append(static_cast<const char*>(payload), size);
}

void VariantEncoder::AddNull() {
  AddPrimitive(variant::kNull, nullptr, 0);
}

void VariantEncoder::AddBoolean(bool v) {
  AddPrimitive(v ? variant::kTrue : variant::kFalse, nullptr, 0);
}

void VariantEncoder::AddInteger(int64_t v) {
  if (v >= std::numeric_limits<int8_t>::min() && v <= std::numeric_limits<int8_t>::max()) {
    AddIntegerAs(variant::kInt8, v);
  } else if (v >= std::numeric_limits<int16_t>::min() && v <= std::numeric_limits<int16_t>::max()) {
    AddIntegerAs(variant::kInt16, v);
  } else if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) {
    AddIntegerAs(variant::kInt32, v);
  } else {
    AddIntegerAs(variant::kInt64, v);
  }
}

void VariantEncoder::AddIntegerAs(variant::PrimitiveId type, int64_t v) {
  uint8_t bytes[8];
  StoreLE<int64_t>(bytes, v);  // little endian: the narrower forms are its first bytes
  const size_t size = type == variant::kInt8    ? 1
                      : type == variant::kInt16 ? 2
                      : type == variant::kInt32 ? 4
                                                : 8;
  AddPrimitive(type, bytes, size);
}

void VariantEncoder::AddDouble(double v) {
  AddPrimitive(variant::kDouble, &v, sizeof v);
}

void VariantEncoder::AddFloat(float v) {
  AddPrimitive(variant::kFloat, &v, sizeof v);
}

void VariantEncoder::AddDecimal4(int32_t unscaled, uint8_t scale) {
  uint8_t payload[5] = {scale};
  StoreLE<int32_t>(payload + 1, unscaled);
  AddPrimitive(variant::kDecimal4, payload, sizeof payload);
}

void VariantEncoder::AddDecimal8(int64_t unscaled, uint8_t scale) {
  uint8_t payload[9] = {scale};
  StoreLE<int64_t>(payload + 1, unscaled);
  AddPrimitive(variant::kDecimal8, payload, sizeof payload);
}

void VariantEncoder::AddDecimal16(const uint8_t big_endian[16], uint8_t scale) {
  uint8_t payload[17] = {scale};
  for (int i = 0; i < 16; ++i) payload[1 + i] = big_endian[15 - i];  // stored little endian
  AddPrimitive(variant::kDecimal16, payload, sizeof payload);
}

void VariantEncoder::AddDate(int32_t days) {
  AddPrimitive(variant::kDate, &days, sizeof days);
}

void VariantEncoder::AddTimestamp(int64_t value, TimeUnit unit, bool adjusted_to_utc) {
  const bool nanos = unit == TimeUnit::kNanos;
  const variant::PrimitiveId id =
      adjusted_to_utc ? (nanos ? variant::kTimestampNanos : variant::kTimestampMicros)
                      : (nanos ? variant::kTimestampNtzNanos : variant::kTimestampNtzMicros);
  AddPrimitive(id, &value, sizeof value);
}

void VariantEncoder::AddTime(int64_t micros) {
  AddPrimitive(variant::kTimeNtzMicros, &micros, sizeof micros);
}

Status VariantEncoder::AddString(std::string_view s) {
  if (!IsValidUtf8(s)) return Fail("a string is not valid UTF-8");
  if (s.size() > kMaxOffset) return Fail("a string of " + std::to_string(s.size()) + " bytes");
  BeginValue();
  if (s.size() < 64) {
    value_.push_back(
        static_cast<char>(static_cast<uint8_t>(VariantBasicType::kShortString) | (s.size() << 2)));
  } else {
    value_.push_back(static_cast<char>(variant::kString << 2));
    AppendUnsigned(s.size(), 4, &value_);
  }
  value_.append(s);
  return Status::OK();
}

void VariantEncoder::AddBinary(std::string_view bytes) {
  if (bytes.size() > kMaxOffset) {
    (void)Fail("a binary value of " + std::to_string(bytes.size()) + " bytes");
    return;
  }
  BeginValue();
  value_.push_back(static_cast<char>(variant::kBinary << 2));
  AppendUnsigned(bytes.size(), 4, &value_);
  value_.append(bytes);
}

void VariantEncoder::AddUuid(const uint8_t bytes[16]) {
  AddPrimitive(variant::kUuid, bytes, 16);
}

void VariantEncoder::BeginArray() {
  BeginValue();
  if (depth_ == frames_.size()) frames_.emplace_back();
  Frame& f = frames_[depth_++];
  f.is_object = false;
  f.start = value_.size();
  f.offsets.clear();
  f.ids.clear();
  f.key_pending = false;
}

void VariantEncoder::BeginObject() {
  BeginArray();
  frames_[depth_ - 1].is_object = true;
}

Status VariantEncoder::Key(std::string_view name) {
  if (depth_ == 0 || !frames_[depth_ - 1].is_object) return Fail("a field name outside an object");
  Frame& f = frames_[depth_ - 1];
  if (f.key_pending) return Fail("two field names in a row");
  if (!IsValidUtf8(name)) return Fail("a field name is not valid UTF-8");
  auto [it, added] = ids_.try_emplace(std::string(name), static_cast<uint32_t>(names_.size()));
  if (added) {
    if (names_.size() >= kMaxOffset) return Fail("more than 2^32 - 1 field names");
    names_.emplace_back(name);
  }
  f.ids.push_back(it->second);
  f.key_pending = true;
  return Status::OK();
}

void VariantEncoder::CancelKey() {
  if (depth_ == 0) return;
  Frame& f = frames_[depth_ - 1];
  if (!f.is_object || !f.key_pending) return;
  f.ids.pop_back();
  f.key_pending = false;
}

Status VariantEncoder::EndArray() {
  if (!error_.ok()) return error_;
  if (depth_ == 0 || frames_[depth_ - 1].is_object) return Fail("EndArray without an open array");
  const Frame& f = frames_[depth_ - 1];
  const uint64_t data_size = value_.size() - f.start;
  if (data_size > kMaxOffset) return Fail("an array of more than 4 GiB");
  const size_t n = f.offsets.size();
  const bool large = n > 255;
  const int offset_size = BytesFor(data_size);
  std::string header;
  header.push_back(static_cast<char>(static_cast<uint8_t>(VariantBasicType::kArray) |
                                     (((large ? 4 : 0) | (offset_size - 1)) << 2)));
  AppendUnsigned(n, large ? 4 : 1, &header);
  for (uint32_t o : f.offsets) AppendUnsigned(o, offset_size, &header);
  AppendUnsigned(data_size, offset_size, &header);
  value_.insert(f.start, header);
  --depth_;
  return Status::OK();
}

Status VariantEncoder::EndObject() {
  if (!error_.ok()) return error_;
  if (depth_ == 0 || !frames_[depth_ - 1].is_object)
    return Fail("EndObject without an open object");
  const Frame& f = frames_[depth_ - 1];
  if (f.key_pending) return Fail("a field name without a value");
  const uint64_t data_size = value_.size() - f.start;
  if (data_size > kMaxOffset) return Fail("an object of more than 4 GiB");
  const size_t n = f.ids.size();
  // Field ids and offsets in field-name order (the spec: "Object field ID order and uniqueness").
  order_scratch_.resize(n);
  for (size_t i = 0; i < n; ++i) order_scratch_[i] = static_cast<uint32_t>(i);
  std::sort(order_scratch_.begin(), order_scratch_.end(),
            [&](uint32_t a, uint32_t b) { return names_[f.ids[a]] < names_[f.ids[b]]; });
  uint32_t max_id = 0;
  for (size_t i = 0; i < n; ++i) {
    max_id = std::max(max_id, f.ids[i]);
    if (i > 0 && f.ids[order_scratch_[i]] == f.ids[order_scratch_[i - 1]]) {
      return Fail("the object has the field '" + names_[f.ids[order_scratch_[i]]] + "' twice");
    }
  }
  const bool large = n > 255;
  const int id_size = BytesFor(max_id);
  const int offset_size = BytesFor(data_size);
  std::string header;
  header.push_back(
      static_cast<char>(static_cast<uint8_t>(VariantBasicType::kObject) |
                        (((large ? 0x10 : 0) | ((id_size - 1) << 2) | (offset_size - 1)) << 2)));
  AppendUnsigned(n, large ? 4 : 1, &header);
  for (uint32_t k : order_scratch_) AppendUnsigned(f.ids[k], id_size, &header);
  for (uint32_t k : order_scratch_) AppendUnsigned(f.offsets[k], offset_size, &header);
  AppendUnsigned(data_size, offset_size, &header);
  value_.insert(f.start, header);
  --depth_;
  return Status::OK();
}

Status VariantEncoder::AddVariant(const VariantMetadata& metadata, ByteSpan value) {
  PQ_ASSIGN_OR_RETURN(size_t size, VariantValueSize(value));
  if (size != value.size()) {
    return Status::Corruption("variant: " + std::to_string(value.size() - size) +
                              " bytes after the end of the value");
  }
  return CopyValue(metadata, value, 0);
}

Status VariantEncoder::CopyValue(const VariantMetadata& metadata, ByteSpan value, int depth) {
  switch (VariantBasicTypeOf(value)) {
    case VariantBasicType::kShortString:
    case VariantBasicType::kPrimitive: {
      // The span is exactly one value (the caller sized it). Decimal scales and strings are
      // checked as the spec requires; everything else is copied as it is.
      const uint8_t id = static_cast<uint8_t>(value[0] >> 2);
      const bool primitive = VariantBasicTypeOf(value) == VariantBasicType::kPrimitive;
      if (primitive &&
          (id == variant::kDecimal4 || id == variant::kDecimal8 || id == variant::kDecimal16) &&
          value[1] > variant::kMaxDecimalScale) {
        return Status::Corruption("variant: decimal scale " + std::to_string(value[1]) +
                                  " is above 38");
      }
      if (!primitive || id == variant::kString) {
        const ByteSpan text = value.subspan(primitive ? 5 : 1);
        if (!IsValidUtf8(AsStringView(text))) {
          return Status::Corruption("variant: a string is not valid UTF-8");
        }
      }
      BeginValue();
      value_.append(reinterpret_cast<const char*>(value.data()), value.size());
      return error_;
    }
    case VariantBasicType::kObject:
    case VariantBasicType::kArray:
      break;
  }
  if (depth >= kMaxVariantNesting) {
    return Status::Corruption("variant: objects and arrays nested more than " +
                              std::to_string(kMaxVariantNesting) + " levels deep");
  }
  if (VariantBasicTypeOf(value) == VariantBasicType::kArray) {
    const size_t base = elements_scratch_.size();
    Status s = decoder_.ReadArrayElements(value, &elements_scratch_);
    if (s.ok()) {
      BeginArray();
      for (size_t i = base; i < elements_scratch_.size() && s.ok(); ++i) {
        s = CopyValue(metadata, elements_scratch_[i], depth + 1);
      }
      if (s.ok()) s = EndArray();
    }
    elements_scratch_.resize(base);
    return s;
  }
  const size_t base = fields_scratch_.size();
  Status s = decoder_.ReadObjectFields(metadata, value, &fields_scratch_);
  if (s.ok()) {
    BeginObject();
    for (size_t i = base; i < fields_scratch_.size() && s.ok(); ++i) {
      const VariantField field = fields_scratch_[i];  // a copy: nested calls may grow the vector
      s = Key(field.name);
      if (s.ok()) s = CopyValue(metadata, field.value, depth + 1);
    }
    if (s.ok()) s = EndObject();
  }
  fields_scratch_.resize(base);
  return s;
}

Status VariantEncoder::Finish(std::string_view* metadata, std::string_view* value) {
  if (!error_.ok()) return error_;
  if (depth_ != 0) return Fail("an array or object is not ended");
  if (top_level_values_ != 1) return Fail("no value");
  uint64_t strings = 0;
  bool sorted = true;
  for (size_t i = 0; i < names_.size(); ++i) {
    strings += names_[i].size();
    if (i > 0 && !(names_[i - 1] < names_[i])) sorted = false;
  }
  if (strings > kMaxOffset) return Fail("field names of more than 4 GiB");
  const int offset_size = BytesFor(std::max<uint64_t>(strings, names_.size()));
  metadata_.clear();
  metadata_.push_back(static_cast<char>(1 | (sorted ? 0x10 : 0) | ((offset_size - 1) << 6)));
  AppendUnsigned(names_.size(), offset_size, &metadata_);
  uint64_t offset = 0;
  AppendUnsigned(0, offset_size, &metadata_);
  for (const std::string& name : names_) {
    offset += name.size();
    AppendUnsigned(offset, offset_size, &metadata_);
  }
  for (const std::string& name : names_) metadata_ += name;
  *metadata = metadata_;
  *value = value_;
  return Status::OK();
}

void AppendVariantObject(std::span<const VariantField> fields, std::string* out) {
  uint32_t max_id = 0;
  uint64_t data_size = 0;
  for (const VariantField& f : fields) {
    max_id = std::max(max_id, f.id);
    data_size += f.value.size();
  }
  std::vector<uint64_t> offsets;
  offsets.reserve(fields.size());
  uint64_t offset = 0;
  for (const VariantField& f : fields) {
    offsets.push_back(offset);
    offset += f.value.size();
  }
  AppendObjectHeader(
      fields.size(), max_id, data_size, [&](size_t k) { return fields[k].id; },
      [&](size_t k) { return offsets[k]; }, out);
  for (const VariantField& f : fields) out->append(AsStringView(f.value));
}

}  // namespace pq
