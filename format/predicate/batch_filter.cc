#include "format/predicate/batch_filter.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string_view>
#include <type_traits>

namespace pq {

namespace {

// ---- Filtering a batch of plain values (no Cell per row) ------------------------------------------

// KeepPassing's `word` when there is no block test.
struct NoBlockTest {};

// Keeps the rows of sel[0..n) whose value passes `pass`, in order; returns how many. Row r's value
// is vals[vi[r]] (vi[r] < 0: NULL, never kept), or vals[r] when vi is null. `dense` says that
// sel[i] == i for every i (no row dropped yet), so rows need not be read from sel.
//
// The loops have no branch that depends on the data: each writes the row unconditionally and
// advances by the answer. With a block test (`word`: bit 63 of word(v) set when v passes), the
// dense loop first ORs the words of a block of 64 values, a loop the compiler vectorizes when the
// word is plain integer arithmetic, and passes over the block when no value passes: a selective
// term then costs little more than reading its values.
template <typename T, typename PassFn, typename WordFn = NoBlockTest>
size_t KeepPassing(int32_t* sel, size_t n, bool dense, const T* vals, const int32_t* vi, PassFn pass,
                   WordFn word = {}) {
  size_t kept = 0;
  if (vi) {
    const T none{};  // what a NULL row reads instead of a value; never kept
    for (size_t i = 0; i < n; ++i) {
      const int32_t row = dense ? static_cast<int32_t>(i) : sel[i];
      const int32_t k = vi[row];
      const T& v = k >= 0 ? vals[k] : none;
      sel[kept] = row;
      kept += static_cast<size_t>((k >= 0) & pass(v));
    }
    return kept;
  }
  if (!dense) {
    for (size_t i = 0; i < n; ++i) {
      const int32_t row = sel[i];
      sel[kept] = row;
      kept += static_cast<size_t>(pass(vals[row]));
    }
    return kept;
  }
  size_t i = 0;
  if constexpr (!std::is_same_v<WordFn, NoBlockTest>) {
    constexpr size_t kBlock = 64;
    for (; i + kBlock <= n; i += kBlock) {
      const T* block = vals + i;
      uint64_t any = 0;
      for (size_t j = 0; j < kBlock; ++j) any |= word(block[j]);
      if ((any >> 63) == 0) continue;
      for (size_t j = 0; j < kBlock; ++j) {
        sel[kept] = static_cast<int32_t>(i + j);
        kept += static_cast<size_t>(pass(block[j]));
      }
    }
  }
  for (; i < n; ++i) {
    sel[kept] = static_cast<int32_t>(i);
    kept += static_cast<size_t>(pass(vals[i]));
  }
  return kept;
}

// Bit 63 set when a < b: the sign of a - b corrected for overflow, with no compare instruction, so
// that a loop over it vectorizes with SSE2 (which has no 64-bit compare).
inline uint64_t LessWord(int64_t a, int64_t b) {
  const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  const uint64_t d = ua - ub;  // wraps
  return d ^ ((ua ^ ub) & (d ^ ua));
}

// Bit 63 set when x != 0.
inline uint64_t NonZeroWord(uint64_t x) { return x | (uint64_t{0} - x); }

// False for a NaN, which is NULL to SQLite and so satisfies no comparison.
template <typename T>
inline bool IsNumber(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return !std::isnan(v);
  } else {
    (void)v;
    return true;
  }
}

// The term `v OP literal` (IN: any of `lits`, sorted ascending) on numbers of type T compared as
// W (int64_t for INT32/INT64, double for FLOAT/DOUBLE), through KeepPassing. Integers get block
// tests in integer arithmetic; floats one whose words are the compare results.
template <typename T, typename W>
size_t FilterNumbers(int32_t* sel, size_t n, bool dense, const T* vals, const int32_t* vi,
                     PredicateOp op, const std::vector<W>& lits) {
  if (op == PredicateOp::kIn) {
    return KeepPassing(sel, n, dense, vals, vi, [&](T v) {
      return IsNumber(v) && std::binary_search(lits.begin(), lits.end(), static_cast<W>(v));
    });
  }
  const W lit = lits[0];
  // pass(v) and word(v) say the same: v satisfies `v OP lit`.
  auto run = [&](auto pass, auto word) { return KeepPassing(sel, n, dense, vals, vi, pass, word); };
  if constexpr (std::is_integral_v<T>) {
    auto u = [](T v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); };
    const uint64_t ulit = static_cast<uint64_t>(lit);
    switch (op) {
      case PredicateOp::kEq:
        return run([lit](T v) { return static_cast<W>(v) == lit; },
                   [=](T v) { return ~NonZeroWord(u(v) ^ ulit); });
      case PredicateOp::kNe:
        return run([lit](T v) { return static_cast<W>(v) != lit; },
                   [=](T v) { return NonZeroWord(u(v) ^ ulit); });
      case PredicateOp::kLt:
        return run([lit](T v) { return static_cast<W>(v) < lit; },
                   [lit](T v) { return LessWord(v, lit); });
      case PredicateOp::kLe:
        return run([lit](T v) { return static_cast<W>(v) <= lit; },
                   [lit](T v) { return ~LessWord(lit, v); });
      case PredicateOp::kGt:
        return run([lit](T v) { return static_cast<W>(v) > lit; },
                   [lit](T v) { return LessWord(lit, v); });
      default:
        return run([lit](T v) { return static_cast<W>(v) >= lit; },
                   [lit](T v) { return ~LessWord(v, lit); });
    }
  } else {
    // A NaN fails ==, <, <=, >, >= by itself; only != needs the test.
    auto test = [&](auto pass) {
      return run(pass, [pass](T v) { return static_cast<uint64_t>(pass(v)) << 63; });
    };
    switch (op) {
      case PredicateOp::kEq: return test([lit](T v) { return static_cast<W>(v) == lit; });
      case PredicateOp::kNe:
        return test([lit](T v) -> bool { return IsNumber(v) & (static_cast<W>(v) != lit); });
      case PredicateOp::kLt: return test([lit](T v) { return static_cast<W>(v) < lit; });
      case PredicateOp::kLe: return test([lit](T v) { return static_cast<W>(v) <= lit; });
      case PredicateOp::kGt: return test([lit](T v) { return static_cast<W>(v) > lit; });
      default: return test([lit](T v) { return static_cast<W>(v) >= lit; });
    }
  }
}

// The term `v OP literal` (IN: any of `lits`) for values ordered by cmp(v, lit) (<0, 0, >0).
template <typename T, typename Lit, typename CmpFn>
size_t FilterByOp(int32_t* sel, size_t n, bool dense, const T* vals, const int32_t* value_index,
                  PredicateOp op, const std::vector<Lit>& lits, CmpFn cmp) {
  auto run = [&](auto pass) { return KeepPassing(sel, n, dense, vals, value_index, pass); };
  if (op == PredicateOp::kIn) {
    return run([&](const T& v) {
      auto it = std::lower_bound(lits.begin(), lits.end(), v,
                                 [&](const Lit& lit, const T& x) { return cmp(x, lit) > 0; });
      return it != lits.end() && cmp(v, *it) == 0;
    });
  }
  const Lit& lit = lits[0];
  switch (op) {
    case PredicateOp::kEq: return run([&](const T& v) { return cmp(v, lit) == 0; });
    case PredicateOp::kNe: return run([&](const T& v) { return cmp(v, lit) != 0; });
    case PredicateOp::kLt: return run([&](const T& v) { return cmp(v, lit) < 0; });
    case PredicateOp::kLe: return run([&](const T& v) { return cmp(v, lit) <= 0; });
    case PredicateOp::kGt: return run([&](const T& v) { return cmp(v, lit) > 0; });
    default: return run([&](const T& v) { return cmp(v, lit) >= 0; });
  }
}

int CompareBytesView(std::string_view a, std::string_view b) {
  const size_t m = std::min(a.size(), b.size());
  const int c = m == 0 ? 0 : std::memcmp(a.data(), b.data(), m);
  if (c != 0) return c;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

}  // namespace

int64_t FilterPlainValues(PhysicalType type, const void* vals, const int32_t* vi,
                          const LeafConverter& conv, const TermMatcher& m, int32_t* sel, size_t n,
                          bool dense) {
  const PredicateOp op = m.term().op;
  if (op != PredicateOp::kEq && op != PredicateOp::kNe && op != PredicateOp::kLt && op != PredicateOp::kLe &&
      op != PredicateOp::kGt && op != PredicateOp::kGe && op != PredicateOp::kIn) {
    return -1;
  }
  const LeafConverter::Kind kind = conv.kind();
  if (kind == LeafConverter::Kind::kInteger &&
      (type == PhysicalType::kInt32 || type == PhysicalType::kInt64)) {
    const std::vector<SqlValue>* lits = m.NaturalLiterals(CellType::kInteger);
    if (!lits) return -1;
    std::vector<int64_t> keys;
    keys.reserve(lits->size());
    for (const SqlValue& v : *lits) keys.push_back(v.i);
    if (type == PhysicalType::kInt32) {
      return static_cast<int64_t>(
          FilterNumbers(sel, n, dense, static_cast<const int32_t*>(vals), vi, op, keys));
    }
    return static_cast<int64_t>(
        FilterNumbers(sel, n, dense, static_cast<const int64_t*>(vals), vi, op, keys));
  }
  if (kind == LeafConverter::Kind::kReal && (type == PhysicalType::kFloat || type == PhysicalType::kDouble)) {
    const std::vector<SqlValue>* lits = m.NaturalLiterals(CellType::kReal);
    if (!lits) return -1;
    std::vector<double> keys;
    keys.reserve(lits->size());
    for (const SqlValue& v : *lits) keys.push_back(v.d);
    if (type == PhysicalType::kFloat) {
      return static_cast<int64_t>(
          FilterNumbers(sel, n, dense, static_cast<const float*>(vals), vi, op, keys));
    }
    return static_cast<int64_t>(
        FilterNumbers(sel, n, dense, static_cast<const double*>(vals), vi, op, keys));
  }
  if ((kind == LeafConverter::Kind::kText || kind == LeafConverter::Kind::kBlob) &&
      type == PhysicalType::kByteArray) {
    const std::vector<SqlValue>* lits =
        m.NaturalLiterals(kind == LeafConverter::Kind::kText ? CellType::kText : CellType::kBlob);
    if (!lits) return -1;
    std::vector<std::string_view> keys;
    keys.reserve(lits->size());
    for (const SqlValue& v : *lits) keys.push_back(v.bytes);
    const ByteArray* bytes = static_cast<const ByteArray*>(vals);
    if (op == PredicateOp::kEq) {
      // Lengths first, then (8 bytes or more) the last 8 bytes as one word, and only then a call:
      // values of one length (codes, names with a number) mostly differ at their end.
      const std::string_view lit = keys[0];
      const size_t len = lit.size();
      uint64_t lit_tail = 0;
      if (len >= 8) std::memcpy(&lit_tail, lit.data() + len - 8, 8);
      return static_cast<int64_t>(FilterByOp(sel, n, dense, bytes, vi, op, keys, [&](const ByteArray& v, std::string_view) {
        if (v.len != len) return 1;
        if (len >= 8) {
          uint64_t tail;
          std::memcpy(&tail, v.ptr + len - 8, 8);
          return tail == lit_tail && std::memcmp(v.ptr, lit.data(), len - 8) == 0 ? 0 : 1;
        }
        return len == 0 || std::memcmp(v.ptr, lit.data(), len) == 0 ? 0 : 1;
      }));
    }
    return static_cast<int64_t>(FilterByOp(sel, n, dense, bytes, vi, op, keys,
                                           [](const ByteArray& v, std::string_view lit) {
                                             return CompareBytesView(v.view(), lit);
                                           }));
  }
  return -1;
}

int64_t BuildDictionaryMask(const ColumnBatch& b, const LeafConverter& conv, const TermMatcher& m,
                            std::vector<uint8_t>* mask, std::string* scratch) {
  const size_t entries = static_cast<size_t>(b.dictionary_size);
  mask->assign(entries, 0);
  std::vector<int32_t> ids(entries);
  std::iota(ids.begin(), ids.end(), 0);
  const int64_t kept = FilterPlainValues(b.type, b.dictionary, nullptr, conv, m, ids.data(), entries,
                                         /*dense=*/true);
  if (kept >= 0) {
    for (int64_t i = 0; i < kept; ++i) (*mask)[static_cast<size_t>(ids[static_cast<size_t>(i)])] = 1;
    return kept;
  }
  int64_t matches = 0;
  for (size_t e = 0; e < entries; ++e) {
    const Cell c = VisitArray(b.type, b.dictionary, static_cast<int64_t>(e),
                              [&](const auto& v) { return conv.Convert(v, scratch); });
    const bool match = m.Matches(c);
    (*mask)[e] = match;
    matches += match;
  }
  return matches;
}

size_t FilterByMask(int32_t* sel, size_t n, const uint32_t* idx, const int32_t* vi, const uint8_t* mask,
                    bool null_matches, bool dense, int64_t only) {
  size_t kept = 0;
  if (dense && !vi && only >= 0) {
    // Most blocks of sixteen hold no match: one vectorizable test each.
    const auto target = static_cast<uint32_t>(only);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
      uint32_t hit = 0;
      for (size_t j = 0; j < 16; ++j) hit |= static_cast<uint32_t>(idx[i + j] == target);
      if (hit == 0) continue;
      for (size_t j = 0; j < 16; ++j) {
        sel[kept] = static_cast<int32_t>(i + j);
        kept += idx[i + j] == target;
      }
    }
    for (; i < n; ++i) {
      sel[kept] = static_cast<int32_t>(i);
      kept += idx[i] == target;
    }
    return kept;
  }
  if (dense) {
    for (size_t i = 0; i < n; ++i) {
      const int32_t k = vi ? vi[i] : static_cast<int32_t>(i);
      sel[kept] = static_cast<int32_t>(i);
      kept += k < 0 ? null_matches : mask[idx[k]];
    }
    return kept;
  }
  if (!vi) {
    for (size_t i = 0; i < n; ++i) {
      const int32_t row = sel[i];
      sel[kept] = row;
      kept += mask[idx[row]];
    }
    return kept;
  }
  for (size_t i = 0; i < n; ++i) {
    const int32_t row = sel[i];
    const int32_t k = vi[row];
    sel[kept] = row;
    kept += k < 0 ? null_matches : mask[idx[k]];
  }
  return kept;
}

}  // namespace pq
