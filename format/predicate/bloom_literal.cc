#include "format/predicate/bloom_literal.h"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/value/decimal.h"
#include "format/value/temporal.h"
#include "format/value/uuid_text.h"

namespace pq {
namespace {

using Kind = LeafConverter::Kind;

// The literal as an exact int64: an INTEGER, or a REAL holding an integer in the int64 range
// (SQLite compares 5 = 5.0 as equal).
std::optional<int64_t> ExactInteger(const SqlValue& v) {
  if (v.type == CellType::kInteger) return v.i;
  if (v.type == CellType::kReal && v.d >= -9223372036854775808.0 && v.d < 9223372036854775808.0) {
    const auto i = static_cast<int64_t>(v.d);
    if (static_cast<double>(i) == v.d) return i;
  }
  return std::nullopt;
}

// UUID text in the canonical lower-case form the column prints, to its 16 bytes; text of any other
// form (upper case included) never equals a UUID value.
bool ParseLowerCaseUuid(std::string_view t, uint8_t out[16]) {
  for (char c : t) {
    if (c >= 'A' && c <= 'F') return false;
  }
  return ParseUuidText(t, out);
}

}  // namespace

std::optional<uint64_t> BloomHashOfLiteral(const SqlValue& literal, const LeafConverter& converter,
                                           Affinity affinity) {
  if (literal.type == CellType::kNull) return std::nullopt;
  if (AffinityOfDeclaredType(converter.declared_type()) != affinity ||
      converter.declared_type().empty()) {
    return std::nullopt;
  }
  bool exact = true;
  const SqlValue v = ApplyAffinity(literal, affinity, &exact);
  if (!exact) return std::nullopt;
  const PhysicalType physical = converter.physical_type();
  switch (converter.kind()) {
    case Kind::kInteger: {
      const auto i = ExactInteger(v);
      if (!i) return std::nullopt;
      if (physical == PhysicalType::kInt64) return BloomHash(*i);
      if (physical == PhysicalType::kInt32 && *i >= std::numeric_limits<int32_t>::min() &&
          *i <= std::numeric_limits<int32_t>::max()) {
        return BloomHash(static_cast<int32_t>(*i));
      }
      return std::nullopt;  // BOOLEAN has no filter
    }
    case Kind::kUInt32: {
      const auto i = ExactInteger(v);
      if (!i || *i < 0 || *i > std::numeric_limits<uint32_t>::max()) return std::nullopt;
      return BloomHash(static_cast<int32_t>(static_cast<uint32_t>(*i)));
    }
    case Kind::kUInt64: {
      const auto i = ExactInteger(v);
      if (!i || *i < 0) return std::nullopt;
      return BloomHash(*i);
    }
    case Kind::kTimestampInteger: {
      const auto i = ExactInteger(v);
      if (!i) return std::nullopt;
      return BloomHash(*i);
    }
    case Kind::kReal: {
      // A value equal to a non-zero double has its bit pattern; zero is also -0.0 (equal to 0.0,
      // hashed apart), and NaN never reaches here (it is NULL in SQLite).
      double d = 0;
      if (v.type == CellType::kReal) {
        d = v.d;
      } else if (v.type == CellType::kInteger) {
        // An integer equals a double only when the double holds it exactly.
        d = static_cast<double>(v.i);
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) ||
            static_cast<int64_t>(d) != v.i) {
          return std::nullopt;
        }
      } else {
        return std::nullopt;
      }
      if (d == 0.0 || std::isnan(d)) return std::nullopt;
      if (physical == PhysicalType::kDouble) return BloomHash(d);
      const float f = static_cast<float>(d);
      // A FLOAT equals the literal only if the literal is exactly that float.
      if (physical != PhysicalType::kFloat || static_cast<double>(f) != d) return std::nullopt;
      return BloomHash(f);
    }
    case Kind::kText:
      if (v.type != CellType::kText) return std::nullopt;
      return BloomHash(AsBytes(v.bytes));
    case Kind::kBlob:
      if (v.type != CellType::kBlob) return std::nullopt;
      return BloomHash(AsBytes(v.bytes));
    case Kind::kDate: {
      if (v.type != CellType::kText) return std::nullopt;
      auto days = ParseIsoDate(v.bytes);
      // Only the text the column prints for that day equals it ('2024-1-5' equals nothing).
      if (!days.ok() || FormatDate(*days) != v.bytes) return std::nullopt;
      return BloomHash(*days);
    }
    case Kind::kTimestampText: {
      if (v.type != CellType::kText) return std::nullopt;
      bool whole = true;
      auto t = ParseIsoTimestamp(v.bytes, converter.unit(), &whole);
      if (!t.ok() || !whole || FormatTimestamp(*t, converter.unit()) != v.bytes) {
        return std::nullopt;
      }
      return BloomHash(*t);
    }
    case Kind::kUuid: {
      uint8_t bytes[16];
      if (v.type != CellType::kText || !ParseLowerCaseUuid(v.bytes, bytes)) return std::nullopt;
      return BloomHash(ByteSpan(bytes, 16));
    }
    default:
      return std::nullopt;
  }
}

// ---- parquet_bloom_probe -----------------------------------------------------------------------

namespace {

constexpr double kTwoPow63 = 9223372036854775808.0;
constexpr double kTwoPow64 = 18446744073709551616.0;

using Hashes = std::vector<uint64_t>;

// INT32 / INT64 columns that hold plain integers (of any annotation but DATE, TIME, TIMESTAMP,
// DECIMAL). Unsigned columns store the value's bits.
Result<Hashes> IntegerHashes(const SchemaNode& leaf, const ProbeValue& v) {
  const bool is_unsigned =
      leaf.logical_type.kind == LogicalType::Kind::kInteger && !leaf.logical_type.is_signed;
  const bool is_int32 = leaf.physical_type == PhysicalType::kInt32;
  const SqlValue& number = v.number;
  if (number.type == CellType::kNull) return Status::InvalidArgument("not an integer");
  if (is_unsigned && !is_int32 && number.type == CellType::kReal && number.d >= kTwoPow63 &&
      number.d < kTwoPow64 && number.d == std::trunc(number.d)) {
    // UINT64 above 2^63-1: the table shows these as REAL.
    return Hashes{BloomHash(static_cast<int64_t>(static_cast<uint64_t>(number.d)))};
  }
  std::optional<int64_t> i = ExactInteger(number);
  if (!i) return Status::InvalidArgument("not an integer");
  const int64_t min = is_unsigned ? 0
                      : is_int32  ? std::numeric_limits<int32_t>::min()
                                  : std::numeric_limits<int64_t>::min();
  const int64_t max = !is_int32     ? std::numeric_limits<int64_t>::max()
                      : is_unsigned ? int64_t{std::numeric_limits<uint32_t>::max()}
                                    : int64_t{std::numeric_limits<int32_t>::max()};
  if (*i < min || *i > max) return Status::InvalidArgument("out of range");
  if (is_int32) return Hashes{BloomHash(static_cast<int32_t>(static_cast<uint32_t>(*i)))};
  return Hashes{BloomHash(*i)};
}

// An INT32 or INT64 column's stored value from an integer, range-checked.
Result<Hashes> StoredIntegerHashes(const SchemaNode& leaf, int64_t i) {
  if (leaf.physical_type == PhysicalType::kInt32) {
    if (i < std::numeric_limits<int32_t>::min() || i > std::numeric_limits<int32_t>::max()) {
      return Status::InvalidArgument("out of range");
    }
    return Hashes{BloomHash(static_cast<int32_t>(i))};
  }
  return Hashes{BloomHash(i)};
}

// DATE, TIME and TIMESTAMP columns: ISO text in the column's unit, or the stored integer.
Result<Hashes> TemporalHashes(const SchemaNode& leaf, const ProbeValue& v) {
  if (v.type == CellType::kText) {
    const std::string_view text = v.bytes;
    switch (leaf.logical_type.kind) {
      case LogicalType::Kind::kDate: {
        PQ_ASSIGN_OR_RETURN(int32_t days, ParseIsoDate(text));
        return StoredIntegerHashes(leaf, days);
      }
      case LogicalType::Kind::kTime: {
        PQ_ASSIGN_OR_RETURN(int64_t units, ParseIsoTime(text, leaf.logical_type.unit));
        return StoredIntegerHashes(leaf, units);
      }
      default: {
        PQ_ASSIGN_OR_RETURN(int64_t units, ParseIsoTimestamp(text, leaf.logical_type.unit));
        return StoredIntegerHashes(leaf, units);
      }
    }
  }
  std::optional<int64_t> i = ExactInteger(v.number);
  if (!i) return Status::InvalidArgument("not ISO text or an integer");
  return StoredIntegerHashes(leaf, *i);
}

// Decimal text ([spaces][+-]digits[.digits][(e|E)[+-]digits][spaces], or with no digit before the
// point) to the unscaled integer at `scale`: the digits times 10^(exponent + scale - fraction
// digits). Dropping a digit that is not zero, or a result beyond 38 digits, is an error.
Result<Int128> ParseUnscaledDecimal(std::string_view text, int32_t scale) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  DecimalText d;
  if (!ReadDecimalText(text, &d)) return Status::InvalidArgument("not a decimal number");
  if (d.digits.size() > 1001) return Status::InvalidArgument("too many digits");
  if (d.long_exponent) return Status::InvalidArgument("exponent out of range");
  Int128 unscaled = 0;
  switch (UnscaleDecimal(std::move(d), scale, 38, &unscaled)) {
    case UnscaleFailure::kFractionDigits:
      return Status::InvalidArgument("has more fraction digits than the scale " + std::to_string(scale));
    case UnscaleFailure::kTooManyDigits:
      return Status::InvalidArgument("has more than 38 digits at the scale " + std::to_string(scale));
    case UnscaleFailure::kNone:
      break;
  }
  return unscaled;
}

// `value` as big-endian two's complement in `width` bytes; false when it does not fit.
bool BigEndianBytes(Int128 value, size_t width, std::string* out) {
  out->assign(width, value < 0 ? '\xff' : '\0');  // the sign fills what is not written below
  Int128 rest = value;
  for (size_t k = 0; k < std::min<size_t>(width, 16); ++k) {
    (*out)[width - 1 - k] = static_cast<char>(static_cast<uint8_t>(rest & 0xff));
    rest >>= 8;  // arithmetic (C++20): the sign comes in
  }
  if (width >= 16) return true;  // all of the value's 16 bytes are written
  // It fits when nothing but the sign is left and the top byte written carries that sign.
  const bool top_negative = (static_cast<uint8_t>((*out)[0]) & 0x80) != 0;
  return rest == (value < 0 ? -1 : 0) && top_negative == (value < 0);
}

// DECIMAL columns: the unscaled integer in the physical type's PLAIN bytes.
Result<Hashes> DecimalHashes(const SchemaNode& leaf, const ProbeValue& v) {
  std::string text;
  switch (v.type) {
    case CellType::kInteger:
      text = std::to_string(v.number.i);
      break;
    case CellType::kReal: {
      // The shortest text that reads back as the double: what SQLite would print.
      char buf[64];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v.number.d);
      if (ec != std::errc()) return Status::InvalidArgument("not a decimal number");
      text.assign(buf, end);
      break;
    }
    default:
      text = v.bytes;
      break;
  }
  PQ_ASSIGN_OR_RETURN(Int128 unscaled, ParseUnscaledDecimal(text, leaf.logical_type.decimal_scale));
  switch (leaf.physical_type) {
    case PhysicalType::kInt32:
      if (unscaled < std::numeric_limits<int32_t>::min() ||
          unscaled > std::numeric_limits<int32_t>::max()) {
        return Status::InvalidArgument("out of range");
      }
      return Hashes{BloomHash(static_cast<int32_t>(unscaled))};
    case PhysicalType::kInt64:
      if (unscaled < std::numeric_limits<int64_t>::min() ||
          unscaled > std::numeric_limits<int64_t>::max()) {
        return Status::InvalidArgument("out of range");
      }
      return Hashes{BloomHash(static_cast<int64_t>(unscaled))};
    case PhysicalType::kFixedLenByteArray: {
      // The schema's width is untrusted; decimals need at most 16 bytes, writers use up to 32.
      if (leaf.type_length > 1024) return Status::NotSupported("FIXED_LEN_BYTE_ARRAY too wide");
      std::string bytes;
      if (!BigEndianBytes(unscaled, static_cast<size_t>(leaf.type_length), &bytes)) {
        return Status::InvalidArgument("out of range");
      }
      return Hashes{BloomHash(AsBytes(bytes))};
    }
    default: {  // BYTE_ARRAY: the fewest bytes that hold the value
      std::string bytes;
      size_t width = 1;
      while (!BigEndianBytes(unscaled, width, &bytes)) ++width;
      return Hashes{BloomHash(AsBytes(bytes))};
    }
  }
}

// FLOAT and DOUBLE columns. A zero probes both signs: -0.0 == 0.0 in SQL, but they hash
// differently.
Result<Hashes> FloatingHashes(const SchemaNode& leaf, const ProbeValue& v) {
  const SqlValue& number = v.number;
  if (number.type == CellType::kNull) return Status::InvalidArgument("not a number");
  if (leaf.physical_type == PhysicalType::kFloat) {
    float f = 0;
    if (number.type == CellType::kInteger) {
      f = static_cast<float>(number.i);
    } else {
      if (std::isfinite(number.d) && std::fabs(number.d) > FLT_MAX) {
        return Status::InvalidArgument("out of range for FLOAT");
      }
      f = static_cast<float>(number.d);
    }
    if (f == 0) return Hashes{BloomHash(0.0f), BloomHash(-0.0f)};
    return Hashes{BloomHash(f)};
  }
  const double d = number.type == CellType::kInteger ? static_cast<double>(number.i) : number.d;
  if (d == 0) return Hashes{BloomHash(0.0), BloomHash(-0.0)};
  return Hashes{BloomHash(d)};
}

// The width of a fixed-width physical type's PLAIN encoding; 0 for BYTE_ARRAY and BOOLEAN.
size_t FixedWidth(const SchemaNode& leaf) {
  switch (leaf.physical_type) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      return 8;
    case PhysicalType::kInt96:
      return 12;
    case PhysicalType::kFixedLenByteArray:
      return static_cast<size_t>(leaf.type_length);
    default:
      return 0;
  }
}

}  // namespace

Result<std::vector<uint64_t>> BloomProbeHashes(const SchemaNode& leaf, const ProbeValue& v) {
  const CellType type = v.type;
  const LogicalType::Kind kind = leaf.logical_type.kind;
  if (leaf.physical_type == PhysicalType::kBoolean) {
    return Status::InvalidArgument("the format defines no Bloom filter for BOOLEAN columns");
  }
  if (type == CellType::kBlob) {
    // The PLAIN bytes themselves.
    const std::string_view bytes = v.bytes;
    const size_t width = FixedWidth(leaf);
    if (width != 0 && bytes.size() != width) {
      return Status::InvalidArgument("a BLOB must have the type's " + std::to_string(width) +
                                     " bytes");
    }
    return Hashes{BloomHash(AsBytes(bytes))};
  }
  if (kind == LogicalType::Kind::kDecimal) return DecimalHashes(leaf, v);
  switch (leaf.physical_type) {
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
      if (kind == LogicalType::Kind::kDate || kind == LogicalType::Kind::kTime ||
          kind == LogicalType::Kind::kTimestamp) {
        return TemporalHashes(leaf, v);
      }
      return IntegerHashes(leaf, v);
    case PhysicalType::kInt96: {
      if (type != CellType::kText) return Status::InvalidArgument("not a timestamp text");
      PQ_ASSIGN_OR_RETURN(int64_t nanos, ParseIsoTimestamp(v.bytes, TimeUnit::kNanos));
      return Hashes{BloomHash(EpochNanosToInt96(nanos))};
    }
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      return FloatingHashes(leaf, v);
    case PhysicalType::kByteArray: {
      const bool is_text = kind == LogicalType::Kind::kString || kind == LogicalType::Kind::kEnum ||
                           kind == LogicalType::Kind::kJson;
      if (type != CellType::kText && !is_text) {
        return Status::InvalidArgument("a binary column takes TEXT or a BLOB");
      }
      // TEXT as is; a number as SQLite prints it.
      return Hashes{BloomHash(AsBytes(type == CellType::kText ? v.bytes : v.printed))};
    }
    case PhysicalType::kFixedLenByteArray: {
      if (type != CellType::kText) return Status::InvalidArgument("not TEXT or a BLOB");
      const std::string_view text = v.bytes;
      if (kind == LogicalType::Kind::kUuid) {
        uint8_t uuid[kUuidBytes];
        if (!ParseUuidText(text, uuid)) return Status::InvalidArgument("not a UUID (8-4-4-4-12 hex digits)");
        return Hashes{BloomHash(ByteSpan(uuid, kUuidBytes))};
      }
      if (text.size() != static_cast<size_t>(leaf.type_length)) {
        return Status::InvalidArgument("TEXT must have the type's " +
                                       std::to_string(leaf.type_length) + " bytes");
      }
      return Hashes{BloomHash(AsBytes(text))};
    }
    default:
      return Status::NotSupported("unsupported physical type");
  }
}

}  // namespace pq
