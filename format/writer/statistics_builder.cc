#include "format/util/utf8.h"
#include "format/writer/statistics_builder.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "format/util/byte_reader.h"
#include "format/value/float16.h"

namespace pq {
namespace {

using Kind = LogicalType::Kind;

int Sign(int c) {
  return (c > 0) - (c < 0);
}

template <typename T>
int Compare3(T a, T b) {
  return (a > b) - (a < b);
}

int CompareBytes(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  if (n > 0) {
    int c = std::memcmp(a.data(), b.data(), n);
    if (c != 0) return Sign(c);
  }
  return Compare3(a.size(), b.size());
}

// Big-endian two's complement integers of any length (the shorter one sign-extended).
int CompareDecimalBytes(std::string_view a, std::string_view b) {
  const bool neg_a = !a.empty() && (static_cast<uint8_t>(a[0]) & 0x80u) != 0;
  const bool neg_b = !b.empty() && (static_cast<uint8_t>(b[0]) & 0x80u) != 0;
  if (neg_a != neg_b) return neg_a ? -1 : 1;
  const uint8_t pad = neg_a ? 0xFF : 0x00;
  const size_t n = std::max(a.size(), b.size());
  const size_t skip_a = n - a.size();
  const size_t skip_b = n - b.size();
  for (size_t i = 0; i < n; ++i) {
    uint8_t x = i < skip_a ? pad : static_cast<uint8_t>(a[i - skip_a]);
    uint8_t y = i < skip_b ? pad : static_cast<uint8_t>(b[i - skip_b]);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

template <typename T>
T Load(std::string_view s) {
  return LoadLE<T>(reinterpret_cast<const uint8_t*>(s.data()));
}

template <typename T>
std::string Encode(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}

double HalfOf(const uint8_t* p) {
  return HalfToDouble(p);
}

// Where the UTF-8 prefix of at most `max_bytes` bytes ends: never inside a character.
size_t Utf8PrefixLength(std::string_view value, size_t max_bytes) {
  size_t cut = std::min(max_bytes, value.size());
  while (cut > 0 && cut < value.size() && (static_cast<uint8_t>(value[cut]) & 0xC0u) == 0x80u)
    --cut;
  return cut;
}

// Decodes the character starting at s[i] (validly encoded, ending at or before s.size()).
// Returns false for anything that is not a well-formed UTF-8 sequence.
bool DecodeUtf8At(std::string_view s, size_t i, size_t end, uint32_t* cp) {
  const uint8_t b0 = static_cast<uint8_t>(s[i]);
  size_t len;
  uint32_t v;
  if (b0 < 0x80) {
    len = 1, v = b0;
  } else if ((b0 & 0xE0u) == 0xC0u) {
    len = 2, v = b0 & 0x1Fu;
  } else if ((b0 & 0xF0u) == 0xE0u) {
    len = 3, v = b0 & 0x0Fu;
  } else if ((b0 & 0xF8u) == 0xF0u) {
    len = 4, v = b0 & 0x07u;
  } else {
    return false;
  }
  if (i + len != end) return false;
  for (size_t k = 1; k < len; ++k) {
    const uint8_t b = static_cast<uint8_t>(s[i + k]);
    if ((b & 0xC0u) != 0x80u) return false;
    v = (v << 6) | (b & 0x3Fu);
  }
  *cp = v;
  return true;
}


// The shortest string greater than every string starting with `prefix`: its last byte that is not
// 0xFF incremented, what follows dropped.
std::optional<std::string> IncrementBytes(std::string_view prefix) {
  for (size_t i = prefix.size(); i > 0; --i) {
    const uint8_t b = static_cast<uint8_t>(prefix[i - 1]);
    if (b != 0xFF) {
      std::string out(prefix.substr(0, i));
      out.back() = static_cast<char>(b + 1);
      return out;
    }
  }
  return std::nullopt;
}

// The same over characters: the last character below U+10FFFF is replaced by the next scalar value
// (skipping surrogates). Byte order of UTF-8 is code point order, so the result is greater than
// every string starting with `prefix`. Falls back to bytes for text that is not valid UTF-8.
std::optional<std::string> IncrementUtf8(std::string_view prefix) {
  size_t end = prefix.size();
  while (end > 0) {
    size_t start = end - 1;
    while (start > 0 && (static_cast<uint8_t>(prefix[start]) & 0xC0u) == 0x80u) --start;
    uint32_t cp = 0;
    if (!DecodeUtf8At(prefix, start, end, &cp)) return IncrementBytes(prefix.substr(0, end));
    if (cp < 0x10FFFF) {
      uint32_t next = cp + 1;
      if (next >= 0xD800 && next <= 0xDFFF) next = 0xE000;
      std::string out(prefix.substr(0, start));
      AppendUtf8(next, &out);
      return out;
    }
    end = start;
  }
  return std::nullopt;
}

}  // namespace

SortOrder ColumnSortOrder(const SchemaNode& leaf) {
  const LogicalType& lt = leaf.logical_type;
  switch (leaf.physical_type) {
    case PhysicalType::kBoolean:
      return SortOrder::kBoolean;
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
      if (lt.kind == Kind::kUnknown) return SortOrder::kNone;
      if (lt.kind == Kind::kInteger && !lt.is_signed) return SortOrder::kUnsignedInt;
      return SortOrder::kSignedInt;
    case PhysicalType::kInt96:
      return SortOrder::kNone;
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      return lt.kind == Kind::kUnknown ? SortOrder::kNone : SortOrder::kFloat;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      if (leaf.converted_type == ConvertedType::kInterval) return SortOrder::kNone;
      switch (lt.kind) {
        case Kind::kDecimal:
          return SortOrder::kSignedDecimalBytes;
        case Kind::kFloat16:
          return leaf.physical_type == PhysicalType::kFixedLenByteArray && leaf.type_length == 2
                     ? SortOrder::kFloat16
                     : SortOrder::kNone;
        case Kind::kGeometry:
        case Kind::kGeography:
        case Kind::kUnknown:
        case Kind::kVariant:
          return SortOrder::kNone;
        default:
          return SortOrder::kUnsignedBytes;
      }
  }
  return SortOrder::kNone;
}

bool StatisticsAreUtf8(const SchemaNode& leaf) {
  if (leaf.physical_type != PhysicalType::kByteArray) return false;
  switch (leaf.logical_type.kind) {
    case Kind::kString:
    case Kind::kEnum:
    case Kind::kJson:
      return true;
    default:
      return false;
  }
}

int CompareStatValues(SortOrder order, PhysicalType type, std::string_view a, std::string_view b) {
  const bool is32 = type == PhysicalType::kInt32 || type == PhysicalType::kFloat;
  const size_t width = is32 ? 4 : 8;
  switch (order) {
    case SortOrder::kBoolean:
      if (a.size() < 1 || b.size() < 1) break;
      return Compare3(a[0] != 0, b[0] != 0);
    case SortOrder::kSignedInt:
      if (a.size() < width || b.size() < width) break;
      return is32 ? Compare3(Load<int32_t>(a), Load<int32_t>(b))
                  : Compare3(Load<int64_t>(a), Load<int64_t>(b));
    case SortOrder::kUnsignedInt:
      if (a.size() < width || b.size() < width) break;
      return is32 ? Compare3(Load<uint32_t>(a), Load<uint32_t>(b))
                  : Compare3(Load<uint64_t>(a), Load<uint64_t>(b));
    case SortOrder::kFloat:
      if (a.size() < width || b.size() < width) break;
      return is32 ? Compare3(Load<float>(a), Load<float>(b))
                  : Compare3(Load<double>(a), Load<double>(b));
    case SortOrder::kFloat16:
      if (a.size() < 2 || b.size() < 2) break;
      return Compare3(HalfOf(reinterpret_cast<const uint8_t*>(a.data())),
                      HalfOf(reinterpret_cast<const uint8_t*>(b.data())));
    case SortOrder::kSignedDecimalBytes:
      return CompareDecimalBytes(a, b);
    case SortOrder::kUnsignedBytes:
    case SortOrder::kNone:
      break;
  }
  return CompareBytes(a, b);
}

void ValueStatistics::Merge(const ValueStatistics& other, SortOrder order, PhysicalType type) {
  null_count += other.null_count;
  value_count += other.value_count;
  nan_count += other.nan_count;
  if (!other.has_min_max) return;
  if (!has_min_max) {
    min = other.min;
    max = other.max;
    has_min_max = true;
    return;
  }
  if (CompareStatValues(order, type, other.min, min) < 0) min = other.min;
  if (CompareStatValues(order, type, other.max, max) > 0) max = other.max;
}

template <typename T>
void StatisticsBuilder<T>::Update(const T* values, int64_t n) {
  if (n <= 0) return;
  stats_.value_count += n;
  if (order_ == SortOrder::kNone) return;
  if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
    if (order_ == SortOrder::kUnsignedInt) {
      using U = std::make_unsigned_t<T>;
      U lo = static_cast<U>(values[0]), hi = lo;
      for (int64_t i = 1; i < n; ++i) {
        const U v = static_cast<U>(values[i]);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
      }
      if (!stats_.has_min_max || lo < static_cast<U>(min_)) min_ = static_cast<T>(lo);
      if (!stats_.has_min_max || hi > static_cast<U>(max_)) max_ = static_cast<T>(hi);
    } else {
      T lo = values[0], hi = values[0];
      for (int64_t i = 1; i < n; ++i) {
        lo = values[i] < lo ? values[i] : lo;
        hi = values[i] > hi ? values[i] : hi;
      }
      if (!stats_.has_min_max || lo < min_) min_ = lo;
      if (!stats_.has_min_max || hi > max_) max_ = hi;
    }
    stats_.has_min_max = true;
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    // NaN compares false both ways, so it never replaces a bound; count it apart.
    T lo = std::numeric_limits<T>::infinity(), hi = -std::numeric_limits<T>::infinity();
    int64_t nans = 0;
    for (int64_t i = 0; i < n; ++i) {
      const T v = values[i];
      nans += v != v;
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    stats_.nan_count += nans;
    if (nans == n) return;
    if (!stats_.has_min_max || lo < min_) min_ = lo;
    if (!stats_.has_min_max || hi > max_) max_ = hi;
    stats_.has_min_max = true;
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    bool any_false = false, any_true = false;
    for (int64_t i = 0; i < n; ++i) {
      any_true |= values[i] != 0;
      any_false |= values[i] == 0;
    }
    const uint8_t lo = any_false ? 0 : 1, hi = any_true ? 1 : 0;
    if (!stats_.has_min_max || lo < min_) min_ = lo;
    if (!stats_.has_min_max || hi > max_) max_ = hi;
    stats_.has_min_max = true;
  } else if constexpr (std::is_same_v<T, ByteArray>) {
    if (order_ == SortOrder::kFloat16) {
      // Values are 2 bytes (the column writer checked the FLBA width).
      int64_t lo_i = -1, hi_i = -1;
      double lo = 0, hi = 0;
      for (int64_t i = 0; i < n; ++i) {
        const double v = HalfOf(values[i].ptr);
        if (v != v) {
          ++stats_.nan_count;
          continue;
        }
        if (lo_i < 0 || v < lo) lo = v, lo_i = i;
        if (hi_i < 0 || v > hi) hi = v, hi_i = i;
      }
      if (lo_i < 0) return;
      std::string lo_s(values[lo_i].view()), hi_s(values[hi_i].view());
      if (lo == 0) lo_s = std::string("\x00\x80", 2);  // -0
      if (hi == 0) hi_s = std::string("\x00\x00", 2);  // +0
      if (!stats_.has_min_max ||
          CompareStatValues(order_, PhysicalType::kFixedLenByteArray, lo_s, stats_.min) < 0) {
        stats_.min = std::move(lo_s);
      }
      if (!stats_.has_min_max ||
          CompareStatValues(order_, PhysicalType::kFixedLenByteArray, hi_s, stats_.max) > 0) {
        stats_.max = std::move(hi_s);
      }
      stats_.has_min_max = true;
      return;
    }
    // Pick this batch's bounds by pointer, then copy at most two values.
    const ByteArray* lo = &values[0];
    const ByteArray* hi = &values[0];
    if (order_ == SortOrder::kSignedDecimalBytes) {
      for (int64_t i = 1; i < n; ++i) {
        if (CompareDecimalBytes(values[i].view(), lo->view()) < 0) lo = &values[i];
        if (CompareDecimalBytes(values[i].view(), hi->view()) > 0) hi = &values[i];
      }
      if (!stats_.has_min_max || CompareDecimalBytes(lo->view(), stats_.min) < 0)
        stats_.min.assign(lo->view());
      if (!stats_.has_min_max || CompareDecimalBytes(hi->view(), stats_.max) > 0)
        stats_.max.assign(hi->view());
    } else {
      for (int64_t i = 1; i < n; ++i) {
        if (CompareBytes(values[i].view(), lo->view()) < 0) lo = &values[i];
        if (CompareBytes(values[i].view(), hi->view()) > 0) hi = &values[i];
      }
      if (!stats_.has_min_max || CompareBytes(lo->view(), stats_.min) < 0)
        stats_.min.assign(lo->view());
      if (!stats_.has_min_max || CompareBytes(hi->view(), stats_.max) > 0)
        stats_.max.assign(hi->view());
    }
    stats_.has_min_max = true;
  } else {
    (void)values;  // INT96: no order
  }
}

template <typename T>
ValueStatistics StatisticsBuilder<T>::Take() {
  if constexpr (!std::is_same_v<T, ByteArray> && !std::is_same_v<T, Int96>) {
    if (stats_.has_min_max) {
      T lo = min_, hi = max_;
      if constexpr (std::is_floating_point_v<T>) {
        // parquet.thrift ColumnOrder: a zero min is written as -0.0, a zero max as +0.0.
        if (lo == 0) lo = -T(0);
        if (hi == 0) hi = T(0);
      }
      if constexpr (std::is_same_v<T, uint8_t>) {
        stats_.min = std::string(1, static_cast<char>(lo));
        stats_.max = std::string(1, static_cast<char>(hi));
      } else {
        stats_.min = Encode(lo);
        stats_.max = Encode(hi);
      }
    }
  }
  ValueStatistics out = std::move(stats_);
  stats_ = ValueStatistics{};
  min_ = T{};
  max_ = T{};
  return out;
}

template class StatisticsBuilder<uint8_t>;
template class StatisticsBuilder<int32_t>;
template class StatisticsBuilder<int64_t>;
template class StatisticsBuilder<Int96>;
template class StatisticsBuilder<float>;
template class StatisticsBuilder<double>;
template class StatisticsBuilder<ByteArray>;

std::string TruncateMin(std::string_view value, size_t max_bytes, bool utf8) {
  if (value.size() <= max_bytes) return std::string(value);
  const size_t cut = utf8 ? Utf8PrefixLength(value, max_bytes) : max_bytes;
  return std::string(value.substr(0, cut));
}

std::optional<std::string> TruncateMax(std::string_view value, size_t max_bytes, bool utf8) {
  if (value.size() <= max_bytes) return std::string(value);
  if (utf8) return IncrementUtf8(value.substr(0, Utf8PrefixLength(value, max_bytes)));
  return IncrementBytes(value.substr(0, max_bytes));
}

Statistics ToThriftStatistics(const ValueStatistics& stats, const StatisticsFormat& format) {
  Statistics out;
  out.null_count = stats.null_count;
  if (format.floating) out.nan_count = stats.nan_count;
  if (!stats.has_min_max || format.order == SortOrder::kNone) return out;
  std::string min = stats.min;
  std::optional<std::string> max = stats.max;
  bool min_exact = true, max_exact = true;
  if (format.type == PhysicalType::kByteArray && format.order == SortOrder::kUnsignedBytes &&
      format.truncate_bytes > 0) {
    if (min.size() > format.truncate_bytes) {
      min = TruncateMin(stats.min, format.truncate_bytes, format.utf8);
      min_exact = false;
    }
    if (stats.max.size() > format.truncate_bytes) {
      max = TruncateMax(stats.max, format.truncate_bytes, format.utf8);
      max_exact = false;
    }
  }
  const bool legacy = format.order == SortOrder::kBoolean ||
                      format.order == SortOrder::kSignedInt || format.order == SortOrder::kFloat;
  if (legacy) out.min = min;
  out.min_value = std::move(min);
  out.is_min_value_exact = min_exact;
  if (max) {
    if (legacy) out.max = *max;
    out.max_value = std::move(*max);
    out.is_max_value_exact = max_exact;
  }
  return out;
}

}  // namespace pq
