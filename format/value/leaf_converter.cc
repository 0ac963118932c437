#include "format/value/leaf_converter.h"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <type_traits>

#include "format/value/decimal.h"
#include "format/value/float16.h"
#include "format/util/json_writer.h"
#include "format/value/temporal.h"
#include "format/value/uuid_text.h"

namespace pq {
namespace {

using Kind = LeafConverter::Kind;
using LogicalKind = LogicalType::Kind;

constexpr int32_t kUuidLength = 16;
constexpr int32_t kFloat16Length = 2;
constexpr int32_t kIntervalLength = 12;
// '{"months":4294967295,"days":4294967295,"millis":4294967295}'
constexpr size_t kMaxIntervalTextLength = 64;

bool IsBinary(PhysicalType t) {
  return t == PhysicalType::kByteArray || t == PhysicalType::kFixedLenByteArray;
}
bool IsFixed(const SchemaNode& leaf, int32_t length) {
  return leaf.physical_type == PhysicalType::kFixedLenByteArray && leaf.type_length == length;
}
bool IsKnownUnit(TimeUnit unit) {
  return unit == TimeUnit::kMillis || unit == TimeUnit::kMicros || unit == TimeUnit::kNanos;
}

// How a leaf reads when its annotation is absent or ignored.
Kind PhysicalKind(PhysicalType type, const ValueOptions& options) {
  switch (type) {
    case PhysicalType::kBoolean:
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
      return Kind::kInteger;
    case PhysicalType::kInt96:
      return options.timestamp == ValueOptions::Timestamp::kInteger ? Kind::kInt96Integer
                                                                    : Kind::kInt96Text;
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      return Kind::kReal;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      return options.binary_as_string ? Kind::kText : Kind::kBlob;
  }
  return Kind::kBlob;  // not reached: Schema only builds leaves of known physical types
}

// The legacy ConvertedTypes that stand for a LogicalType by themselves (spec:
// The Parquet type spec, the "Backward compatibility" tables). DECIMAL is left out:
// its scale lives in the SchemaElement, which Schema already turned into a LogicalType. INTERVAL
// has no LogicalType (the caller handles it); the others annotate groups.
struct LegacyAnnotation {
  ConvertedType converted;
  LogicalKind kind;
  int8_t bit_width = 0;               // kInteger
  bool is_signed = false;             // kInteger
  TimeUnit unit = TimeUnit::kMillis;  // kTime, kTimestamp, which the legacy types adjust to UTC
};

constexpr LegacyAnnotation kLegacyAnnotations[] = {
    {ConvertedType::kUtf8, LogicalKind::kString},
    {ConvertedType::kEnum, LogicalKind::kEnum},
    {ConvertedType::kJson, LogicalKind::kJson},
    {ConvertedType::kBson, LogicalKind::kBson},
    {ConvertedType::kDate, LogicalKind::kDate},
    {ConvertedType::kTimeMillis, LogicalKind::kTime, 0, false, TimeUnit::kMillis},
    {ConvertedType::kTimeMicros, LogicalKind::kTime, 0, false, TimeUnit::kMicros},
    {ConvertedType::kTimestampMillis, LogicalKind::kTimestamp, 0, false, TimeUnit::kMillis},
    {ConvertedType::kTimestampMicros, LogicalKind::kTimestamp, 0, false, TimeUnit::kMicros},
    {ConvertedType::kInt8, LogicalKind::kInteger, 8, true},
    {ConvertedType::kInt16, LogicalKind::kInteger, 16, true},
    {ConvertedType::kInt32, LogicalKind::kInteger, 32, true},
    {ConvertedType::kInt64, LogicalKind::kInteger, 64, true},
    {ConvertedType::kUint8, LogicalKind::kInteger, 8, false},
    {ConvertedType::kUint16, LogicalKind::kInteger, 16, false},
    {ConvertedType::kUint32, LogicalKind::kInteger, 32, false},
    {ConvertedType::kUint64, LogicalKind::kInteger, 64, false},
};

// The LogicalType a legacy ConvertedType stands for (kind kNone for one not in the table above).
LogicalType FromConvertedType(ConvertedType c) {
  LogicalType t;
  for (const LegacyAnnotation& a : kLegacyAnnotations) {
    if (a.converted != c) continue;
    t.kind = a.kind;
    if (a.kind == LogicalKind::kInteger) {
      t.bit_width = a.bit_width;
      t.is_signed = a.is_signed;
    } else if (a.kind == LogicalKind::kTime || a.kind == LogicalKind::kTimestamp) {
      t.unit = a.unit;
      t.is_adjusted_to_utc = true;
    }
    break;
  }
  return t;
}

// The conversion for an annotated leaf; nullopt when the annotation does not fit the physical type
// (the caller then reads by physical type).
Result<std::optional<Kind>> AnnotatedKind(const SchemaNode& leaf, const LogicalType& t,
                                          const ValueOptions& options) {
  const PhysicalType p = leaf.physical_type;
  switch (t.kind) {
    case LogicalKind::kUnknown:
      return std::optional<Kind>(Kind::kNull);
    case LogicalKind::kString:
    case LogicalKind::kEnum:
    case LogicalKind::kJson:
      if (IsBinary(p)) return std::optional<Kind>(Kind::kText);
      break;
    case LogicalKind::kBson:
    case LogicalKind::kGeometry:
    case LogicalKind::kGeography:
      if (IsBinary(p)) return std::optional<Kind>(Kind::kBlob);
      break;
    case LogicalKind::kUuid:
      if (IsFixed(leaf, kUuidLength)) return std::optional<Kind>(Kind::kUuid);
      break;
    case LogicalKind::kFloat16:
      if (IsFixed(leaf, kFloat16Length)) return std::optional<Kind>(Kind::kFloat16);
      break;
    case LogicalKind::kDecimal:
      if (p == PhysicalType::kInt32 || p == PhysicalType::kInt64 || IsBinary(p)) {
        if (t.decimal_scale < -kMaxDecimalScale || t.decimal_scale > kMaxDecimalScale) {
          return Status::NotSupported("DECIMAL scale " + std::to_string(t.decimal_scale) +
                                      " is beyond the supported +-" +
                                      std::to_string(kMaxDecimalScale));
        }
        const bool text =
            options.decimal == ValueOptions::Decimal::kText ||
            (options.decimal == ValueOptions::Decimal::kAuto &&
             !(t.decimal_precision > 0 &&
               t.decimal_precision <= ValueOptions::kMaxExactRealDecimalPrecision));
        return std::optional<Kind>(text ? Kind::kDecimalText : Kind::kDecimalReal);
      }
      break;
    case LogicalKind::kDate:
      if (p == PhysicalType::kInt32) return std::optional<Kind>(Kind::kDate);
      break;
    case LogicalKind::kTime:
      if (!IsKnownUnit(t.unit)) break;  // checked below for the physical types that could fit
      if ((t.unit == TimeUnit::kMillis && p == PhysicalType::kInt32) ||
          (t.unit != TimeUnit::kMillis && p == PhysicalType::kInt64)) {
        return std::optional<Kind>(Kind::kTime);
      }
      break;
    case LogicalKind::kTimestamp:
      if (p == PhysicalType::kInt64) {
        if (!IsKnownUnit(t.unit)) break;
        return std::optional<Kind>(options.timestamp == ValueOptions::Timestamp::kInteger
                                       ? Kind::kTimestampInteger
                                       : Kind::kTimestampText);
      }
      break;
    case LogicalKind::kInteger: {
      const int bits = t.bit_width;
      if (p == PhysicalType::kInt32 && (bits == 8 || bits == 16 || bits == 32)) {
        return std::optional<Kind>(t.is_signed ? Kind::kInteger : Kind::kUInt32);
      }
      if (p == PhysicalType::kInt64 && bits == 64) {
        return std::optional<Kind>(t.is_signed ? Kind::kInteger : Kind::kUInt64);
      }
      break;
    }
    default:
      break;  // kNone, group annotations (MAP, LIST, VARIANT), FILE and others: by physical type
  }
  // An unknown unit on a type that needs one is unsupported rather than reinterpreted (spec,
  // TIMESTAMP: "unknown unit-s must be handled as unsupported features").
  if ((t.kind == LogicalKind::kTime || t.kind == LogicalKind::kTimestamp) && !IsKnownUnit(t.unit)) {
    return Status::NotSupported("unknown time unit " +
                                std::to_string(static_cast<int32_t>(t.unit)));
  }
  return std::optional<Kind>();
}

// A buffer of at least n bytes in *scratch (grows it once, then reuses it).
char* ScratchBuffer(std::string* scratch, size_t n) {
  if (scratch->size() < n) scratch->resize(n);
  return scratch->data();
}

Cell ScratchText(std::string* scratch, const char* end) {
  return Cell::Text(std::string_view(scratch->data(), end - scratch->data()));
}

// The decimal text of an unscaled integer as a TEXT cell in *scratch.
template <typename Int>
Cell DecimalTextCell(Int unscaled, int32_t scale, std::string* scratch) {
  scratch->clear();
  AppendDecimalText(unscaled, scale, scratch);
  return Cell::Text(*scratch);
}

char* WriteInterval(const uint8_t* bytes, char* p) {
  auto field = [&p, bytes](const char* name, int index) {
    const size_t len = std::strlen(name);
    std::memcpy(p, name, len);
    p += len;
    uint32_t v;
    std::memcpy(&v, bytes + 4 * index, sizeof(v));  // little endian, as the targets are
    p = std::to_chars(p, p + 10, v).ptr;
  };
  field("{\"months\":", 0);
  field(",\"days\":", 1);
  field(",\"millis\":", 2);
  *p++ = '}';
  return p;
}

// Appends already-safe text (digits, dashes, colons, dots) as a JSON string.
void AppendQuoted(const char* begin, const char* end, std::string* out) {
  out->push_back('"');
  out->append(begin, static_cast<size_t>(end - begin));
  out->push_back('"');
}

}  // namespace

Result<LeafConverter> LeafConverter::Make(const SchemaNode& leaf, const ValueOptions& options) {
  if (!leaf.is_leaf) {
    return Status::InvalidArgument("column '" + leaf.name + "' is a group, not a leaf");
  }
  LeafConverter c;
  c.physical_type_ = leaf.physical_type;
  c.type_length_ = leaf.type_length;
  LogicalType t = leaf.logical_type;
  if (t.kind == LogicalKind::kNone && leaf.converted_type.has_value()) {
    if (*leaf.converted_type == ConvertedType::kInterval) {
      c.kind_ = IsFixed(leaf, kIntervalLength) ? Kind::kInterval
                                               : PhysicalKind(leaf.physical_type, options);
      return c;
    }
    t = FromConvertedType(*leaf.converted_type);
  }
  auto annotated = AnnotatedKind(leaf, t, options);
  if (!annotated.ok()) {
    return annotated.status().WithContext("column '" + leaf.name + "'");
  }
  c.kind_ = annotated->value_or(PhysicalKind(leaf.physical_type, options));
  if (c.kind_ == Kind::kTime || c.kind_ == Kind::kTimestampText ||
      c.kind_ == Kind::kTimestampInteger) {
    c.unit_ = t.unit;
  } else if (c.kind_ == Kind::kInt96Text || c.kind_ == Kind::kInt96Integer) {
    c.unit_ = TimeUnit::kNanos;
  }
  if (c.kind_ == Kind::kDecimalReal || c.kind_ == Kind::kDecimalText) c.scale_ = t.decimal_scale;
  return c;
}

std::string_view LeafConverter::declared_type() const {
  switch (kind_) {
    case Kind::kNull:
      return "";
    case Kind::kInteger:
    case Kind::kUInt32:
    case Kind::kUInt64:
    case Kind::kTimestampInteger:
    case Kind::kInt96Integer:
      return "INTEGER";
    case Kind::kReal:
    case Kind::kFloat16:
    case Kind::kDecimalReal:
      return "REAL";
    case Kind::kBlob:
      return "BLOB";
    case Kind::kDecimalText:
    case Kind::kText:
    case Kind::kUuid:
    case Kind::kDate:
    case Kind::kTime:
    case Kind::kTimestampText:
    case Kind::kInt96Text:
    case Kind::kInterval:
      return "TEXT";
  }
  return "";
}

// ---- Convert ----------------------------------------------------------------------------------

size_t LeafConverter::TextRoom() const {
  if (physical_type_ != PhysicalType::kInt32 && physical_type_ != PhysicalType::kInt64) return 0;
  switch (kind_) {
    case Kind::kDecimalText:
      return DecimalTextRoom(scale_);
    case Kind::kDate:
      return physical_type_ == PhysicalType::kInt32 ? kMaxTemporalTextLength : 0;
    case Kind::kTime:
      return kMaxTemporalTextLength;
    case Kind::kTimestampText:
      return physical_type_ == PhysicalType::kInt64 ? kMaxTemporalTextLength : 0;
    default:
      return 0;
  }
}

char* LeafConverter::WriteText(int64_t v, char* out) const {
  switch (kind_) {
    case Kind::kDecimalText:
      return WriteDecimalText(v, scale_, out);
    case Kind::kDate:
      return WriteDate(v, out);
    case Kind::kTime:
      return WriteTime(v, unit_, out);
    case Kind::kTimestampText:
      return WriteTimestamp(v, unit_, out);
    default:
      assert(false && "WriteText on a kind without TextRoom");
      return out;
  }
}

template <typename T>
char* LeafConverter::WriteTexts(const T* values, size_t n, char* out, ByteArray* texts) const {
  // Dates and timestamps: a loop of their own, the day's text kept while the batch repeats it.
  if constexpr (std::is_same_v<T, int32_t>) {
    if (kind_ == Kind::kDate) return WriteDates(values, n, out, texts);
  } else {
    if (kind_ == Kind::kTimestampText) return WriteTimestamps(values, n, unit_, out, texts);
  }
  char* p = out;
  for (size_t k = 0; k < n; ++k) {
    char* end = WriteText(values[k], p);
    texts[k] = ByteArray{reinterpret_cast<const uint8_t*>(p), static_cast<uint32_t>(end - p)};
    *end = '\0';
    p = end + 1;
  }
  return p;
}
template char* LeafConverter::WriteTexts(const int32_t*, size_t, char*, ByteArray*) const;
template char* LeafConverter::WriteTexts(const int64_t*, size_t, char*, ByteArray*) const;

Cell LeafConverter::ConvertSlow(uint8_t /*boolean*/, std::string* /*scratch*/) const {
  assert(kind_ == Kind::kNull && "BOOLEAN value given to a converter of another type");
  return Cell::Null();
}

Cell LeafConverter::ConvertSlow(int32_t v, std::string* scratch) const {
  switch (kind_) {
    case Kind::kUInt32:
      return Cell::Integer(static_cast<uint32_t>(v));
    case Kind::kDecimalReal:
      return Cell::Real(DecimalToDouble(v, scale_));
    case Kind::kDecimalText:
      return DecimalTextCell(v, scale_, scratch);
    case Kind::kDate:
      return ScratchText(scratch, WriteDate(v, ScratchBuffer(scratch, kMaxTemporalTextLength)));
    case Kind::kTime:
      return ScratchText(scratch,
                         WriteTime(v, unit_, ScratchBuffer(scratch, kMaxTemporalTextLength)));
    default:
      assert(kind_ == Kind::kNull && "INT32 value given to a converter of another type");
      return Cell::Null();
  }
}

Cell LeafConverter::ConvertSlow(int64_t v, std::string* scratch) const {
  switch (kind_) {
    case Kind::kUInt64: {
      const uint64_t u = static_cast<uint64_t>(v);
      if (v >= 0) return Cell::Integer(v);
      return Cell::Real(static_cast<double>(u));
    }
    case Kind::kDecimalReal:
      return Cell::Real(DecimalToDouble(v, scale_));
    case Kind::kDecimalText:
      return DecimalTextCell(v, scale_, scratch);
    case Kind::kTime:
      return ScratchText(scratch,
                         WriteTime(v, unit_, ScratchBuffer(scratch, kMaxTemporalTextLength)));
    case Kind::kTimestampText:
      return ScratchText(scratch,
                         WriteTimestamp(v, unit_, ScratchBuffer(scratch, kMaxTemporalTextLength)));
    case Kind::kTimestampInteger:
      return Cell::Integer(v);
    default:
      assert(kind_ == Kind::kNull && "INT64 value given to a converter of another type");
      return Cell::Null();
  }
}

Cell LeafConverter::Convert(const Int96& v, std::string* scratch) const {
  switch (kind_) {
    case Kind::kInt96Text:
      return ScratchText(scratch,
                         WriteInt96Timestamp(v, ScratchBuffer(scratch, kMaxTemporalTextLength)));
    case Kind::kInt96Integer: {
      int64_t nanos;
      double approx;
      if (Int96ToEpochNanos(v, &nanos, &approx)) return Cell::Integer(nanos);
      return Cell::Real(approx);
    }
    default:
      assert(kind_ == Kind::kNull && "INT96 value given to a converter of another type");
      return Cell::Null();
  }
}

Cell LeafConverter::ConvertSlow(float /*v*/, std::string* /*scratch*/) const {
  assert(kind_ == Kind::kNull && "FLOAT value given to a converter of another type");
  return Cell::Null();
}

Cell LeafConverter::ConvertSlow(double /*v*/, std::string* /*scratch*/) const {
  assert(kind_ == Kind::kNull && "DOUBLE value given to a converter of another type");
  return Cell::Null();
}

Cell LeafConverter::ConvertSlow(ByteArray v, std::string* scratch) const {
  switch (kind_) {
    case Kind::kDecimalReal: {
      double d;
      if (!DecimalToDouble(v.view(), scale_, &d)) return Cell::Null();
      return Cell::Real(d);
    }
    case Kind::kDecimalText:
      scratch->clear();
      if (!AppendDecimalText(v.view(), scale_, scratch)) return Cell::Null();
      return Cell::Text(*scratch);
    case Kind::kUuid:
      // The length checks below are the decoder's promise; they keep a caller bug from reading past
      // the value.
      assert(v.len == kUuidLength);
      if (v.len != kUuidLength) return Cell::Null();
      return ScratchText(scratch, WriteUuidText(v.ptr, ScratchBuffer(scratch, kUuidTextLength)));
    case Kind::kFloat16:
      assert(v.len == kFloat16Length);
      if (v.len != kFloat16Length) return Cell::Null();
      return Cell::Real(HalfToDouble(v.ptr));
    case Kind::kInterval:
      assert(v.len == kIntervalLength);
      if (v.len != kIntervalLength) return Cell::Null();
      return ScratchText(scratch,
                         WriteInterval(v.ptr, ScratchBuffer(scratch, kMaxIntervalTextLength)));
    default:
      assert(kind_ == Kind::kNull && "byte array given to a converter of another type");
      return Cell::Null();
  }
}

// ---- JSON -------------------------------------------------------------------------------------

void LeafConverter::AppendJson(uint8_t boolean, std::string* out) const {
  if (kind_ == Kind::kInteger) {
    AppendJsonBool(boolean != 0, out);
  } else {
    AppendJsonNull(out);
  }
}

void LeafConverter::AppendJson(int32_t v, std::string* out) const {
  char buf[kMaxTemporalTextLength];
  switch (kind_) {
    case Kind::kInteger:
      return AppendJsonInt(v, out);
    case Kind::kUInt32:
      return AppendJsonUInt(static_cast<uint32_t>(v), out);
    case Kind::kDecimalReal:
    case Kind::kDecimalText:
      return AppendDecimalText(v, scale_, out);
    case Kind::kDate:
      return AppendQuoted(buf, WriteDate(v, buf), out);
    case Kind::kTime:
      return AppendQuoted(buf, WriteTime(v, unit_, buf), out);
    default:
      return AppendJsonNull(out);
  }
}

void LeafConverter::AppendJson(int64_t v, std::string* out) const {
  char buf[kMaxTemporalTextLength];
  switch (kind_) {
    case Kind::kInteger:
    case Kind::kTimestampInteger:
      return AppendJsonInt(v, out);
    case Kind::kUInt64:
      return AppendJsonUInt(static_cast<uint64_t>(v), out);
    case Kind::kDecimalReal:
    case Kind::kDecimalText:
      return AppendDecimalText(v, scale_, out);
    case Kind::kTime:
      return AppendQuoted(buf, WriteTime(v, unit_, buf), out);
    case Kind::kTimestampText:
      return AppendQuoted(buf, WriteTimestamp(v, unit_, buf), out);
    default:
      return AppendJsonNull(out);
  }
}

void LeafConverter::AppendJson(const Int96& v, std::string* out) const {
  switch (kind_) {
    case Kind::kInt96Text: {
      char buf[kMaxTemporalTextLength];
      return AppendQuoted(buf, WriteInt96Timestamp(v, buf), out);
    }
    case Kind::kInt96Integer: {
      int64_t nanos;
      double approx;
      if (Int96ToEpochNanos(v, &nanos, &approx)) return AppendJsonInt(nanos, out);
      return AppendJsonDouble(approx, out);
    }
    default:
      return AppendJsonNull(out);
  }
}

void LeafConverter::AppendJson(float v, std::string* out) const {
  if (kind_ == Kind::kReal) return AppendJsonDouble(v, out);
  AppendJsonNull(out);
}

void LeafConverter::AppendJson(double v, std::string* out) const {
  if (kind_ == Kind::kReal) return AppendJsonDouble(v, out);
  AppendJsonNull(out);
}

size_t LeafConverter::MaxJsonLength(size_t stored_bytes) const {
  switch (kind_) {
    case Kind::kText:
      return 6 * stored_bytes + 2;
    case Kind::kBlob:
      return 4 * ((stored_bytes + 2) / 3) + 2;
    default:
      // Numbers, dates, times, UUIDs, intervals: a few dozen bytes; a decimal its digits (fewer
      // than 3 a byte) and the zeros of its scale.
      return 3 * stored_bytes + static_cast<size_t>(std::abs(static_cast<int64_t>(scale_))) + 64;
  }
}

void LeafConverter::AppendJson(ByteArray v, std::string* out) const {
  switch (kind_) {
    case Kind::kText:
      return AppendJsonString(v.view(), out);
    case Kind::kBlob:
      return AppendJsonBase64(v.view(), out);
    case Kind::kDecimalReal:
    case Kind::kDecimalText:
      if (!AppendDecimalText(v.view(), scale_, out)) AppendJsonNull(out);
      return;
    case Kind::kUuid: {
      if (v.len != kUuidLength) return AppendJsonNull(out);
      char buf[kUuidTextLength];
      return AppendQuoted(buf, WriteUuidText(v.ptr, buf), out);
    }
    case Kind::kFloat16:
      if (v.len != kFloat16Length) return AppendJsonNull(out);
      return AppendJsonDouble(HalfToDouble(v.ptr), out);
    case Kind::kInterval: {
      if (v.len != kIntervalLength) return AppendJsonNull(out);
      char buf[kMaxIntervalTextLength];
      out->append(buf, WriteInterval(v.ptr, buf));
      return;
    }
    default:
      return AppendJsonNull(out);
  }
}

}  // namespace pq
