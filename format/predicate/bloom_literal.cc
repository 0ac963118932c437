#include "format/predicate/bloom_literal.h"

#include <cmath>
#include <limits>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/value/temporal.h"

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

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // upper case is not how the column prints a UUID, so it never equals one
}

// 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx' in lower case to its 16 bytes.
bool ParseUuidText(std::string_view t, uint8_t out[16]) {
  if (t.size() != 36) return false;
  size_t pos = 0;
  for (int i = 0; i < 16; ++i) {
    if (pos == 8 || pos == 13 || pos == 18 || pos == 23) {
      if (t[pos] != '-') return false;
      ++pos;
    }
    const int hi = HexDigit(t[pos]), lo = HexDigit(t[pos + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<uint8_t>(hi << 4 | lo);
    pos += 2;
  }
  return true;
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
      if (v.type != CellType::kText || !ParseUuidText(v.bytes, bytes)) return std::nullopt;
      return BloomHash(ByteSpan(bytes, 16));
    }
    default:
      return std::nullopt;
  }
}

}  // namespace pq
