#include "ext/export_types.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "ext/options.h"
#include "format/geo/wkb.h"
#include "format/geo/wkt.h"
#include "format/util/json_reader.h"
#include "format/util/utf8.h"
#include "format/value/float16.h"
#include "format/value/temporal.h"
#include "format/variant/variant_encoder.h"
#include "format/variant/variant_from_json.h"
#include "format/writer/file_writer.h"
#include "format/writer/json_shredder.h"
#include "format/writer/text_to_value.h"
#include "format/writer/variant_shredder.h"

namespace pq::ext {

namespace {

// Text spelling an integer of type T (spaces around it and a leading '+' allowed), exactly.
template <typename T>
bool ParseIntegerText(std::string_view s, T* out) {
  s = TrimSpace(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

// Text that reads as a finite number (as SQLite's REAL affinity would take it).
bool ParseDoubleText(std::string_view s, double* out) {
  s = TrimSpace(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  const char c = s.front();
  if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.')) return false;
  if (c == '-' &&
      (s.size() < 2 || !(std::isdigit(static_cast<unsigned char>(s[1])) || s[1] == '.'))) {
    return false;
  }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out, std::chars_format::general);
  return ec == std::errc() && p == s.data() + s.size() && std::isfinite(*out);
}

// The shortest text that reads back as `d` ("0.1", "1e+20"). With `scientific`, always in
// scientific notation, which keeps the fewest digits: 1.2345678901234567e+19, where the plain form
// would spell out the double's exact value 12345678901234567168.
std::string ShortestText(double d, bool scientific = false) {
  char buf[64];
  auto [p, ec] = scientific ? std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific)
                            : std::to_chars(buf, buf + sizeof buf, d);
  return ec == std::errc() ? std::string(buf, p) : std::string("?");
}

}  // namespace

Result<ColumnType> InferColumnType(unsigned classes) {
  constexpr unsigned kInt = 1u << SQLITE_INTEGER, kReal = 1u << SQLITE_FLOAT,
                     kText = 1u << SQLITE_TEXT, kBlob = 1u << SQLITE_BLOB;
  ColumnType t;
  if (classes == 0) {
    t.kind = ColumnKind::kNull;
  } else if (classes == kInt) {
    t.kind = ColumnKind::kInteger;  // 64 bits, signed
  } else if ((classes & ~(kInt | kReal)) == 0) {
    t.kind = ColumnKind::kDouble;
  } else if (classes == kText) {
    t.kind = ColumnKind::kString;
  } else if (classes == kBlob) {
    t.kind = ColumnKind::kBlob;
  } else {
    return Status::InvalidArgument("values of different kinds (INTEGER/REAL, TEXT, BLOB)");
  }
  t.strict = true;
  return t;
}

std::string DescribeValue(sqlite3_value* v) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
      return "NULL";
    case SQLITE_INTEGER:
      return "integer " + std::to_string(sqlite3_value_int64(v));
    case SQLITE_FLOAT:
      return "real " + ShortestText(sqlite3_value_double(v));
    case SQLITE_TEXT: {
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      std::string s(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v)));
      if (s.size() > 40) {
        size_t cut = 37;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
          --cut;  // whole UTF-8
        s = s.substr(0, cut) + "...";
      }
      return "text '" + s + "'";
    }
    default:
      return "a " + std::to_string(sqlite3_value_bytes(v)) + "-byte BLOB";
  }
}

// ---------------------------------------------------------------------------------------------
// ColumnBuilder

struct ColumnBuilder::VariantColumn {
  VariantEncoder encoder;
  std::unique_ptr<VariantShredder> shredder;
};

ColumnBuilder::ColumnBuilder(ColumnType type) : type_(std::move(type)) {
  switch (type_.kind) {
    case ColumnKind::kInteger:
      fast_ = type_.bit_width == 64 && type_.is_signed ? FastPath::kInt64 : FastPath::kInt32;
      break;
    case ColumnKind::kDouble:
      fast_ = FastPath::kDouble;
      break;
    case ColumnKind::kString:
      fast_ = FastPath::kString;
      break;
    case ColumnKind::kTimestamp:
      fast_ = FastPath::kTimestamp;
      break;
    case ColumnKind::kDecimal:
      if (type_.precision <= 18) fast_ = FastPath::kDecimal;
      break;
    case ColumnKind::kBoolean:
      fast_ = FastPath::kBoolean;
      break;
    default:
      break;
  }
  row_bytes_ = sizeof(int16_t);
  switch (type_.physical_type()) {
    case PhysicalType::kBoolean:
      row_bytes_ += 1;
      break;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      row_bytes_ += 4;
      break;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      row_bytes_ += 8;
      break;
    default:
      row_bytes_ += sizeof(size_t);  // ends_
      break;
  }
  if (type_.kind == ColumnKind::kVariant) {
    std::vector<SchemaElement> elements;
    AppendSchemaElements("value", type_, &elements);
    Result<std::unique_ptr<VariantShredder>> made = VariantShredder::Make(std::move(elements));
    if (made.ok()) {
      variant_ = std::make_unique<VariantColumn>();
      variant_->shredder = std::move(made).value();
    } else {
      nested_error_ = made.status();
    }
    return;
  }
  if (!type_.is_nested()) return;
  std::vector<SchemaElement> elements;
  AppendSchemaElements("value", type_, &elements);
  Result<std::unique_ptr<JsonShredder>> made = JsonShredder::Make(std::move(elements));
  if (made.ok()) {
    nested_ = std::move(made).value();
  } else {
    nested_error_ = made.status();
  }
}

ColumnBuilder::~ColumnBuilder() = default;
ColumnBuilder::ColumnBuilder(ColumnBuilder&&) noexcept = default;
ColumnBuilder& ColumnBuilder::operator=(ColumnBuilder&&) noexcept = default;

int64_t ColumnBuilder::rows() const {
  if (variant_) return variant_->shredder->rows();
  return nested_ ? nested_->rows() : static_cast<int64_t>(def_.size());
}

size_t ColumnBuilder::NestedBytes() const {
  return variant_ ? variant_->shredder->bytes() : nested_->bytes();
}

void ColumnBuilder::PushInt(int64_t v) {
  if (type_.physical_type() == PhysicalType::kInt32) {
    i32_.push_back(static_cast<int32_t>(v));
  } else {
    i64_.push_back(v);
  }
}

void ColumnBuilder::PushBytes(const void* p, size_t n) {
  if (n > 0) bytes_.append(static_cast<const char*>(p), n);
  ends_.push_back(bytes_.size());
}

Status ColumnBuilder::Append(sqlite3_value* v) {
  if (nested_ || type_.is_nested()) return AppendNested(v);
  if (variant_ || type_.kind == ColumnKind::kVariant) return AppendVariant(v);
  const int cls = sqlite3_value_type(v);
  if (cls == SQLITE_NULL) {
    def_.push_back(0);
    return Status::OK();
  }
  if (!AppendFast(v, cls)) PQ_RETURN_IF_ERROR(AppendNonNull(v));
  def_.push_back(1);
  return Status::OK();
}

bool ColumnBuilder::TryAppend(sqlite3_value* v) {
  if (fast_ == FastPath::kNone) return false;
  const int cls = sqlite3_value_type(v);
  if (cls == SQLITE_NULL) {
    def_.push_back(0);
    return true;
  }
  if (!AppendFast(v, cls)) return false;
  def_.push_back(1);
  return true;
}

namespace {

// Powers of ten exact as doubles and as int64 (10^0 .. 10^18).
constexpr double kPow10Double[19] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8, 1e9,
                                     1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
constexpr int64_t kPow10Int[19] = {1,
                                   10,
                                   100,
                                   1000,
                                   10000,
                                   100000,
                                   1000000,
                                   10000000,
                                   100000000,
                                   1000000000,
                                   10000000000,
                                   100000000000,
                                   1000000000000,
                                   10000000000000,
                                   100000000000000,
                                   1000000000000000,
                                   10000000000000000,
                                   100000000000000000,
                                   1000000000000000000};

// The unscaled value of DECIMAL(precision, scale), precision <= 18, that the REAL `d` means, when
// this can be told without printing it: `d` must be the double nearest to r / 10^scale for an
// integer r with fewer than 2^52 / ... see below. False: take the slow path (ParseDecimalText of
// the shortest text), which also gives the errors.
//
// Why this is the slow path's answer: with |d| * 10^scale < 2^52, the spacing of doubles near d is
// below 10^-scale, so at most one decimal with `scale` fraction digits rounds to d; r / 10^scale
// (both exact doubles, the division correctly rounded) equal to d says r * 10^-scale is that
// decimal. The shortest text of d, which the slow path parses, lies in the same rounding interval
// and has no more fraction digits than it (no shorter decimal can sit at a finer position within
// an interval narrower than 10^-scale), so it is that same decimal.
bool UnscaledFromDouble(double d, int precision, int scale, int64_t* out) {
  const double scaled = d * kPow10Double[scale];
  if (!(std::fabs(scaled) < 4503599627370496.0)) return false;  // 2^52; also NaN, infinities
  const double r = std::nearbyint(scaled);
  if (r / kPow10Double[scale] != d) return false;  // more fraction digits than the scale holds
  if (!(std::fabs(r) < kPow10Double[precision])) return false;  // more than `precision` digits
  *out = static_cast<int64_t>(r);
  return true;
}

// 'YYYY-MM-DD HH:MM:SS' exactly (what SQLite's datetime() prints), as units since the epoch; false
// for anything else, which ParseIsoTimestamp then reads (it takes every form, this one included,
// with the same result).
bool FastIsoTimestamp(std::string_view s, TimeUnit unit, int64_t* out) {
  if (s.size() != 19 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' ||
      s[16] != ':') {
    return false;
  }
  int digits[14];
  static constexpr int kPositions[14] = {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18};
  for (int i = 0; i < 14; ++i) {
    const int c = static_cast<unsigned char>(s[static_cast<size_t>(kPositions[i])]) - '0';
    if (c < 0 || c > 9) return false;
    digits[i] = c;
  }
  const int64_t year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3];
  const int month = digits[4] * 10 + digits[5];
  const int day = digits[6] * 10 + digits[7];
  const int hour = digits[8] * 10 + digits[9];
  const int minute = digits[10] * 10 + digits[11];
  const int second = digits[12] * 10 + digits[13];
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) || hour > 23 ||
      minute > 59 || second > 59) {
    return false;
  }
  const int64_t seconds =
      DaysFromCivil(year, month, day) * kSecondsPerDay + hour * 3600 + minute * 60 + second;
  // Nanoseconds since 1970 overflow int64 past 2262: the slow path says so.
  constexpr int64_t kMaxNanosSeconds = 9'223'372'035;
  if (unit == TimeUnit::kNanos && (seconds > kMaxNanosSeconds || seconds < -kMaxNanosSeconds)) {
    return false;
  }
  *out = seconds * UnitsPerSecond(unit);
  return true;
}

}  // namespace

bool ColumnBuilder::AppendFast(sqlite3_value* v, int cls) {
  switch (fast_) {
    case FastPath::kNone:
      return false;
    case FastPath::kInt64:
      if (cls != SQLITE_INTEGER) return false;
      i64_.push_back(sqlite3_value_int64(v));
      return true;
    case FastPath::kInt32: {
      if (cls != SQLITE_INTEGER) return false;
      const int64_t i = sqlite3_value_int64(v);
      const int bits = type_.bit_width;
      const int64_t lo = type_.is_signed ? -(int64_t{1} << (bits - 1)) : 0;
      const int64_t hi = type_.is_signed ? (int64_t{1} << (bits - 1)) - 1
                                         : (bits == 64 ? std::numeric_limits<int64_t>::max()
                                                       : (int64_t{1} << bits) - 1);
      if (i < lo || i > hi) return false;
      PushInt(i);
      return true;
    }
    case FastPath::kDouble:
      if (cls == SQLITE_INTEGER) {
        // Beyond 2^53 an integer may not survive as a double: AppendNonNull decides.
        const int64_t i = sqlite3_value_int64(v);
        if (i < -(int64_t{1} << 53) || i > (int64_t{1} << 53)) return false;
        f64_.push_back(static_cast<double>(i));
        return true;
      }
      if (cls != SQLITE_FLOAT) return false;
      f64_.push_back(sqlite3_value_double(v));
      return true;
    case FastPath::kString: {
      if (cls != SQLITE_TEXT) return false;
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      const std::string_view s(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v)));
      if (!IsValidUtf8(s)) return false;  // AppendNonNull says why
      PushBytes(s.data(), s.size());
      return true;
    }
    case FastPath::kTimestamp: {
      if (cls != SQLITE_TEXT) return false;
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      int64_t t = 0;
      if (p == nullptr ||
          !FastIsoTimestamp(std::string_view(p, static_cast<size_t>(sqlite3_value_bytes(v))),
                            type_.unit, &t)) {
        return false;
      }
      i64_.push_back(t);
      return true;
    }
    case FastPath::kDecimal: {
      int64_t unscaled = 0;
      if (cls == SQLITE_INTEGER) {
        const int64_t i = sqlite3_value_int64(v);
        const int64_t limit = kPow10Int[type_.precision - type_.scale];  // |i| < 10^(p-s)
        if (i <= -limit || i >= limit) return false;
        unscaled = i * kPow10Int[type_.scale];
      } else if (cls != SQLITE_FLOAT ||
                 !UnscaledFromDouble(sqlite3_value_double(v), type_.precision, type_.scale,
                                     &unscaled)) {
        return false;
      }
      PushInt(unscaled);
      return true;
    }
    case FastPath::kBoolean: {
      if (cls != SQLITE_INTEGER) return false;
      const int64_t i = sqlite3_value_int64(v);
      if (i != 0 && i != 1) return false;
      bools_.push_back(static_cast<uint8_t>(i));
      return true;
    }
  }
  return false;
}

Status ColumnBuilder::AppendNested(sqlite3_value* v) {
  if (!nested_) return nested_error_;
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
      return nested_->AppendNull();
    case SQLITE_TEXT: {
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      const std::string_view json(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v)));
      if (!IsValidUtf8(json)) {  // JSON is UTF-8, and so are the strings it holds
        return Status::InvalidArgument(DescribeValue(v) + " cannot be stored as " + ColumnTypeName(type_) +
                                       " (it is not UTF-8 text)");
      }
      return nested_->Append(json);
    }
    default:
      return Status::InvalidArgument(DescribeValue(v) + " cannot be stored as " +
                                     ColumnTypeName(type_) + ", which takes JSON text");
  }
}

Status ColumnBuilder::AppendVariant(sqlite3_value* v) {
  if (!variant_) return nested_error_;
  VariantColumn& c = *variant_;
  const int cls = sqlite3_value_type(v);
  if (cls == SQLITE_NULL) return c.shredder->AppendNull();
  c.encoder.Reset();
  Status s;
  if (cls == SQLITE_TEXT) {
    const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
    s = AddJsonToVariant(std::string_view(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v))),
                         &c.encoder);
  } else if (cls == SQLITE_BLOB) {
    // A Variant as binary: the metadata (whose header and offsets say where it ends), then the
    // value.
    const auto* p = static_cast<const uint8_t*>(sqlite3_value_blob(v));
    const ByteSpan bytes(p, static_cast<size_t>(sqlite3_value_bytes(v)));
    Result<VariantMetadata> metadata = VariantMetadata::Parse(bytes);
    s = metadata.ok() ? c.encoder.AddVariant(*metadata, bytes.subspan(metadata->size()))
                      : metadata.status();
    if (!s.ok()) {
      s = Status::InvalidArgument("is not a Variant (metadata then value): " + s.message());
    }
  } else {
    return Status::InvalidArgument(DescribeValue(v) + " cannot be stored as " +
                                   ColumnTypeName(type_) +
                                   ", which takes JSON text or a Variant BLOB");
  }
  std::string_view metadata, value;
  if (s.ok()) s = c.encoder.Finish(&metadata, &value);
  if (!s.ok()) return Status::InvalidArgument(DescribeValue(v) + ": " + s.message());
  return c.shredder->Append(AsBytes(metadata), AsBytes(value));
}

Status ColumnBuilder::AppendGeometry(sqlite3_value* v) {
  const int cls = sqlite3_value_type(v);
  std::string wkb;
  ByteSpan bytes;
  if (cls == SQLITE_BLOB) {
    bytes = ByteSpan(static_cast<const uint8_t*>(sqlite3_value_blob(v)),
                     static_cast<size_t>(sqlite3_value_bytes(v)));
  } else if (cls == SQLITE_TEXT) {
    const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
    Status s = geo::WktToWkb(std::string_view(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v))),
                             &wkb);
    if (!s.ok()) return Status::InvalidArgument(DescribeValue(v) + " is not " + s.message());
    bytes = AsBytes(wkb);
  } else {
    return Status::InvalidArgument(DescribeValue(v) + " cannot be stored as " +
                                   ColumnTypeName(type_) + ", which takes WKB BLOBs or WKT text");
  }
  geo::CoordinateBounds bounds;
  Result<uint32_t> code = geo::ScanWkb(bytes, &bounds);
  if (!code.ok()) return Status::InvalidArgument(DescribeValue(v) + " is not " + code.status().message());
  if (type_.kind == ColumnKind::kGeography) {
    using A = geo::CoordinateBounds::Axis;
    if ((bounds.has(A::kX) && (bounds.min[A::kX] < -180 || bounds.max[A::kX] > 180)) ||
        (bounds.has(A::kY) && (bounds.min[A::kY] < -90 || bounds.max[A::kY] > 90))) {
      return Status::InvalidArgument(DescribeValue(v) +
                                     " has coordinates outside x in [-180, 180], y in [-90, 90], "
                                     "which GEOGRAPHY needs");
    }
  }
  PushBytes(bytes.data(), bytes.size());
  return Status::OK();
}

Status ColumnBuilder::AppendInteger(sqlite3_value* v) {
  const int bits = type_.bit_width;
  const bool is_signed = type_.is_signed;
  // The accepted range as [lo, hi]; for UBIGINT hi is 2^64-1, held as a double bound below.
  const int64_t lo =
      is_signed ? (bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (bits - 1)))
                : 0;
  const int64_t hi = bits == 64
                         ? std::numeric_limits<int64_t>::max()
                         : (is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1);
  auto out_of_range = [&]() {
    return Status::InvalidArgument(DescribeValue(v) + " is out of range for " +
                                   ColumnTypeName(type_));
  };
  int64_t i = 0;
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
      i = sqlite3_value_int64(v);
      break;
    case SQLITE_FLOAT: {
      if (type_.strict) {
        return Status::InvalidArgument(
            DescribeValue(v) +
            " in a column of integers (its type was "
            "inferred from the first rows; declare it REAL with schema=)");
      }
      const double d = sqlite3_value_double(v);
      if (!std::isfinite(d) || std::floor(d) != d) {
        return Status::InvalidArgument(DescribeValue(v) + " is not an integer, as " +
                                       ColumnTypeName(type_) + " needs");
      }
      if (bits == 64 && !is_signed && d >= 9223372036854775808.0 && d < 18446744073709551616.0) {
        PushInt(static_cast<int64_t>(static_cast<uint64_t>(d)));  // UBIGINT above 2^63-1: the bits
        return Status::OK();
      }
      if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return out_of_range();
      i = static_cast<int64_t>(d);
      break;
    }
    case SQLITE_TEXT: {
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      std::string_view s(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v)));
      uint64_t u = 0;
      if (!type_.strict && bits == 64 && !is_signed && ParseIntegerText(s, &u) &&
          u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        PushInt(static_cast<int64_t>(u));  // UBIGINT above 2^63-1, which SQLite has only as text: the bits
        return Status::OK();
      }
      if (type_.strict || !ParseIntegerText(s, &i)) {
        return Status::InvalidArgument(DescribeValue(v) + " is not an integer, as " +
                                       ColumnTypeName(type_) + " needs");
      }
      break;
    }
    default:
      return Status::InvalidArgument(DescribeValue(v) + " cannot be stored as " +
                                     ColumnTypeName(type_));
  }
  if (i < lo || i > hi) return out_of_range();
  PushInt(i);
  return Status::OK();
}

Status ColumnBuilder::AppendDecimal(sqlite3_value* v) {
  UnscaledDecimal unscaled;
  Status parsed;
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER: {
      char digits[24];
      const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, sqlite3_value_int64(v));
      parsed = ParseDecimalText(std::string_view(digits, static_cast<size_t>(end - digits)),
                                type_.precision, type_.scale, &unscaled);
      break;
    }
    case SQLITE_FLOAT: {
      const double d = sqlite3_value_double(v);
      parsed =
          std::isfinite(d)
              ? ParseDecimalText(ShortestText(d, true), type_.precision, type_.scale, &unscaled)
              : Status::InvalidArgument("cannot be stored as " + ColumnTypeName(type_));
      break;
    }
    case SQLITE_TEXT: {
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      parsed = ParseDecimalText(
          std::string_view(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v))),
          type_.precision, type_.scale, &unscaled);
      break;
    }
    default:
      parsed = Status::InvalidArgument("cannot be stored as " + ColumnTypeName(type_));
  }
  if (!parsed.ok()) return Status::InvalidArgument(DescribeValue(v) + " " + parsed.message());
  switch (type_.physical_type()) {
    case PhysicalType::kInt32:
      i32_.push_back(static_cast<int32_t>(unscaled.ToInt64()));
      break;
    case PhysicalType::kInt64:
      i64_.push_back(unscaled.ToInt64());
      break;
    default: {
      // Big-endian two's complement in type_length bytes.
      const std::string_view bytes = unscaled.Bytes(type_.type_length());
      PushBytes(bytes.data(), bytes.size());
      break;
    }
  }
  return Status::OK();
}

Status ColumnBuilder::AppendNonNull(sqlite3_value* v) {
  const int cls = sqlite3_value_type(v);
  auto text = [v]() {
    const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
    return std::string_view(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v)));
  };
  auto cannot = [&](std::string_view expected) {
    return Status::InvalidArgument(DescribeValue(v) + " cannot be stored as " +
                                   ColumnTypeName(type_) +
                                   (expected.empty() ? "" : " (" + std::string(expected) + ")"));
  };
  switch (type_.kind) {
    case ColumnKind::kList:
    case ColumnKind::kMap:
    case ColumnKind::kStruct:
      return AppendNested(v);
    case ColumnKind::kVariant:
      return AppendVariant(v);
    case ColumnKind::kGeometry:
    case ColumnKind::kGeography:
      return AppendGeometry(v);
    case ColumnKind::kFloat:
    case ColumnKind::kFloat16: {
      // A number, rounded to the nearest value of the type as a REAL column rounds what it takes.
      double d = 0;
      if (cls == SQLITE_INTEGER || cls == SQLITE_FLOAT) {
        d = sqlite3_value_double(v);
      } else if (!(cls == SQLITE_TEXT && ParseDoubleText(text(), &d))) {
        return cannot("a number");
      }
      if (type_.kind == ColumnKind::kFloat) {
        const auto f = static_cast<float>(d);
        if (std::isinf(f) && !std::isinf(d)) return cannot("beyond the range of a 4-byte float");
        if (type_.exact && static_cast<double>(f) != d && !std::isnan(d)) {
          return cannot("the type this column takes from its Parquet source column, which would "
                        "round it; declare it REAL with schema= to keep it");
        }
        f32_.push_back(f);
      } else {
        const uint16_t half = DoubleToHalf(d);
        if ((half & 0x7fffu) == 0x7c00u && !std::isinf(d)) {
          return cannot("beyond the range of FLOAT16, 65504");
        }
        if (type_.exact && HalfToDouble(half) != d && !std::isnan(d)) {
          return cannot("the type this column takes from its Parquet source column, which would "
                        "round it; declare it REAL with schema= to keep it");
        }
        const uint8_t le[2] = {static_cast<uint8_t>(half & 0xff), static_cast<uint8_t>(half >> 8)};
        PushBytes(le, 2);
      }
      return Status::OK();
    }
    case ColumnKind::kBson: {
      // One BSON document: an int32 (little endian) holding its own size, then its elements,
      // then 0x00 (bsonspec.org, "document").
      const int n = sqlite3_value_bytes(v);
      const auto* p = static_cast<const uint8_t*>(sqlite3_value_blob(v));
      if (cls != SQLITE_BLOB || n < 5 || p[n - 1] != 0 ||
          static_cast<uint32_t>(p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24) !=
              static_cast<uint32_t>(n)) {
        return cannot("a BLOB holding one BSON document");
      }
      PushBytes(p, static_cast<size_t>(n));
      return Status::OK();
    }
    case ColumnKind::kInterval: {
      if (cls == SQLITE_BLOB && sqlite3_value_bytes(v) == 12) {
        PushBytes(sqlite3_value_blob(v), 12);
        return Status::OK();
      }
      uint8_t b[12];
      if (cls != SQLITE_TEXT) return cannot("text {\"months\":m,\"days\":d,\"millis\":n}");
      Status parsed = ParseIntervalText(text(), b);
      if (!parsed.ok()) return Status::InvalidArgument(DescribeValue(v) + " " + parsed.message());
      PushBytes(b, 12);
      return Status::OK();
    }
    case ColumnKind::kInfer:
    case ColumnKind::kNull:
      if (type_.kind == ColumnKind::kNull && !type_.strict) {
        return cannot("an UNKNOWN column holds only NULLs");
      }
      return Status::InvalidArgument(
          DescribeValue(v) +
          " in a column that held only NULLs in the first rows, from which its "
          "type was inferred; declare its type with schema=");
    case ColumnKind::kBoolean: {
      if (cls == SQLITE_INTEGER || cls == SQLITE_FLOAT) {
        const double d = sqlite3_value_double(v);
        if (d == 0 || d == 1) {
          bools_.push_back(d == 1);
          return Status::OK();
        }
      } else if (cls == SQLITE_TEXT) {
        std::string s(TrimSpace(text()));
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (s == "0" || s == "1" || s == "true" || s == "false") {
          bools_.push_back(s == "1" || s == "true");
          return Status::OK();
        }
      }
      return cannot("0 or 1");
    }
    case ColumnKind::kInteger:
      return AppendInteger(v);
    case ColumnKind::kDouble: {
      if (cls == SQLITE_INTEGER && type_.strict) {
        // A column of no declared type keeps every value in SQLite: an integer the inferred DOUBLE
        // would round (beyond 2^53) is refused, not changed. A declared REAL rounds it, as SQLite's
        // REAL affinity does.
        const int64_t i = sqlite3_value_int64(v);
        const double d = static_cast<double>(i);
        if (!(d < 9223372036854775808.0 && static_cast<int64_t>(d) == i)) {
          return Status::InvalidArgument(
              DescribeValue(v) + " cannot be stored exactly as " + ColumnTypeName(type_) +
              " (the column's type was inferred from the first rows, which mix integers and reals; "
              "declare it with schema=: REAL rounds it, TEXT keeps its digits)");
        }
        f64_.push_back(d);
        return Status::OK();
      }
      if (cls == SQLITE_INTEGER || cls == SQLITE_FLOAT) {
        f64_.push_back(sqlite3_value_double(v));
        return Status::OK();
      }
      double d = 0;
      if (cls == SQLITE_TEXT && !type_.strict && ParseDoubleText(text(), &d)) {
        f64_.push_back(d);
        return Status::OK();
      }
      return cannot(
          type_.strict
              ? "the column's type was inferred from the first rows; declare it with schema="
              : "a number");
    }
    case ColumnKind::kString:
    case ColumnKind::kEnum:
    case ColumnKind::kJson: {
      if (cls == SQLITE_TEXT || (!type_.strict && (cls == SQLITE_INTEGER || cls == SQLITE_FLOAT))) {
        const std::string_view s = text();  // numbers as SQLite prints them
        // A STRING holds UTF-8 (readers such as DuckDB refuse a file with other bytes in one).
        if (!IsValidUtf8(s)) return cannot("it is not UTF-8 text; a BLOB column stores any bytes");
        if (type_.kind == ColumnKind::kJson && !IsValidJson(s))
          return cannot("it is not valid JSON");
        PushBytes(s.data(), s.size());
        return Status::OK();
      }
      return cannot(
          type_.strict
              ? "the column's type was inferred from the first rows; declare it with schema="
              : "CAST it to TEXT to store its bytes as text");
    }
    case ColumnKind::kBlob: {
      if (cls == SQLITE_BLOB) {
        PushBytes(sqlite3_value_blob(v), static_cast<size_t>(sqlite3_value_bytes(v)));
        return Status::OK();
      }
      if (cls == SQLITE_TEXT && !type_.strict) {
        const std::string_view s = text();
        PushBytes(s.data(), s.size());
        return Status::OK();
      }
      return cannot(
          type_.strict
              ? "the column's type was inferred from the first rows; declare it with schema="
              : "");
    }
    case ColumnKind::kDate: {
      if (cls != SQLITE_TEXT) return cannot("text 'YYYY-MM-DD'");
      Result<int32_t> days = ParseIsoDate(TrimSpace(text()));
      if (!days.ok()) return cannot("text 'YYYY-MM-DD'");
      i32_.push_back(*days);
      return Status::OK();
    }
    case ColumnKind::kTime: {
      if (cls != SQLITE_TEXT) return cannot("text 'HH:MM:SS[.fraction]'");
      Result<int64_t> t = ParseIsoTime(TrimSpace(text()), type_.unit);
      if (!t.ok())
        return cannot("text 'HH:MM:SS[.fraction]' with at most " +
                      std::to_string(FractionDigits(type_.unit)) + " fraction digits");
      PushInt(*t);
      return Status::OK();
    }
    case ColumnKind::kTimestamp: {
      if (cls == SQLITE_INTEGER) {
        int64_t t = sqlite3_value_int64(v);
        if (type_.unix_seconds && __builtin_mul_overflow(t, UnitsPerSecond(type_.unit), &t)) {
          return cannot("as Unix seconds, which an INTEGER in a column declared so holds, beyond its range");
        }
        i64_.push_back(t);
        return Status::OK();
      }
      if (cls != SQLITE_TEXT) return cannot("text 'YYYY-MM-DD HH:MM:SS[.fraction]' or an integer");
      // A local timestamp has no time zone: one in the text (a 'Z' too) is an error, not a
      // conversion.
      Result<int64_t> t = type_.adjusted_to_utc
                              ? ParseIsoTimestampUtc(TrimSpace(text()), type_.unit)
                              : ParseIsoTimestampLocal(TrimSpace(text()), type_.unit);
      if (!t.ok())
        return cannot(std::string("text 'YYYY-MM-DD HH:MM:SS[.fraction]") +
                      (type_.adjusted_to_utc ? "[Z|+HH:MM|-HH:MM]'" : "' without a time zone,") +
                      " with at most " + std::to_string(FractionDigits(type_.unit)) + " fraction digits");
      i64_.push_back(*t);
      return Status::OK();
    }
    case ColumnKind::kDecimal:
      return AppendDecimal(v);
    case ColumnKind::kUuid: {
      uint8_t b[16];
      if (cls == SQLITE_BLOB && sqlite3_value_bytes(v) == 16) {
        PushBytes(sqlite3_value_blob(v), 16);
        return Status::OK();
      }
      if (cls == SQLITE_TEXT && ParseUuidText(TrimSpace(text()), b)) {
        PushBytes(b, 16);
        return Status::OK();
      }
      return cannot("text xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx or a 16-byte BLOB");
    }
  }
  return cannot("");
}

void ColumnBuilder::Truncate(int64_t rows) {
  if (rows >= this->rows()) return;
  if (nested_) {
    nested_->Truncate(rows);
    return;
  }
  if (variant_) {
    variant_->shredder->Truncate(rows);
    return;
  }
  int64_t drop_values = 0;
  for (size_t i = static_cast<size_t>(rows); i < def_.size(); ++i) drop_values += def_[i];
  def_.resize(static_cast<size_t>(rows));
  auto shrink = [drop_values](auto& vec) {
    vec.resize(vec.size() - static_cast<size_t>(drop_values));
  };
  switch (type_.physical_type()) {
    case PhysicalType::kBoolean:
      shrink(bools_);
      break;
    case PhysicalType::kInt32:
      shrink(i32_);
      break;
    case PhysicalType::kInt64:
      shrink(i64_);
      break;
    case PhysicalType::kDouble:
      shrink(f64_);
      break;
    case PhysicalType::kFloat:
      shrink(f32_);
      break;
    default:
      shrink(ends_);
      bytes_.resize(ends_.empty() ? 0 : ends_.back());
      break;
  }
}

Status ColumnBuilder::WriteTo(FileWriter* writer, int leaf) {
  if (nested_) return nested_->WriteTo(writer, leaf);
  if (variant_) return variant_->shredder->WriteTo(writer, leaf);
  const int64_t n = rows();
  Status s;
  switch (type_.physical_type()) {
    case PhysicalType::kBoolean:
      s = writer->WriteColumn<uint8_t>(leaf, n, def_.data(), nullptr, bools_.data(),
                                       static_cast<int64_t>(bools_.size()));
      break;
    case PhysicalType::kInt32:
      s = writer->WriteColumn<int32_t>(leaf, n, def_.data(), nullptr, i32_.data(),
                                       static_cast<int64_t>(i32_.size()));
      break;
    case PhysicalType::kInt64:
      s = writer->WriteColumn<int64_t>(leaf, n, def_.data(), nullptr, i64_.data(),
                                       static_cast<int64_t>(i64_.size()));
      break;
    case PhysicalType::kDouble:
      s = writer->WriteColumn<double>(leaf, n, def_.data(), nullptr, f64_.data(),
                                      static_cast<int64_t>(f64_.size()));
      break;
    case PhysicalType::kFloat:
      s = writer->WriteColumn<float>(leaf, n, def_.data(), nullptr, f32_.data(),
                                     static_cast<int64_t>(f32_.size()));
      break;
    default: {
      arrays_.resize(ends_.size());
      size_t start = 0;
      const auto* base = reinterpret_cast<const uint8_t*>(bytes_.data());
      for (size_t i = 0; i < ends_.size(); ++i) {
        const size_t len = ends_[i] - start;
        if (len > std::numeric_limits<uint32_t>::max()) {
          return Status::InvalidArgument("a value of " + std::to_string(len) +
                                         " bytes is too long for Parquet");
        }
        arrays_[i] = ByteArray{base + start, static_cast<uint32_t>(len)};
        start = ends_[i];
      }
      s = writer->WriteColumn<ByteArray>(leaf, n, def_.data(), nullptr, arrays_.data(),
                                         static_cast<int64_t>(arrays_.size()));
      break;
    }
  }
  PQ_RETURN_IF_ERROR(s);
  Truncate(0);
  return Status::OK();
}

}  // namespace pq::ext
