// The result setters of eponymous_vtab.h.
#include "ext/eponymous_vtab.h"

#include <cstdint>
#include <cstring>

namespace pq::ext {

namespace {

// Any zero byte in v (exact: a borrow leaves a zero byte only by passing through it).
inline bool HasZeroByte(uint64_t v) { return ((v - 0x0101010101010101u) & ~v & 0x8080808080808080u) != 0; }
inline bool HasZeroByte(uint32_t v) { return ((v - 0x01010101u) & ~v & 0x80808080u) != 0; }

template <typename Word>
inline bool CopyEnds(char* dst, const char* src, size_t n) {
  // Two words that overlap when n < 2 * sizeof(Word): the first and the last of the text.
  Word head, tail;
  std::memcpy(&head, src, sizeof(Word));
  std::memcpy(&tail, src + n - sizeof(Word), sizeof(Word));
  std::memcpy(dst, &head, sizeof(Word));
  std::memcpy(dst + n - sizeof(Word), &tail, sizeof(Word));
  return !HasZeroByte(head) && !HasZeroByte(tail);
}

// Copies src[0, n) to dst and says whether none of it is a NUL, in one pass of whole words (the
// short texts of a column go by the thousand: no call to memchr or memcpy each).
inline bool CopyWithoutNul(char* dst, const char* src, size_t n) {
  if (n >= 8) {
    size_t i = 0;
    bool clean = true;
    for (; i + 8 < n; i += 8) {
      uint64_t w;
      std::memcpy(&w, src + i, 8);
      std::memcpy(dst + i, &w, 8);
      clean &= !HasZeroByte(w);
    }
    // The last 8 bytes (overlapping what was copied).
    return CopyEnds<uint64_t>(dst, src, n) && clean;
  }
  if (n >= 4) return CopyEnds<uint32_t>(dst, src, n);
  bool clean = true;
  for (size_t i = 0; i < n; ++i) {
    dst[i] = src[i];
    clean &= src[i] != 0;
  }
  return clean;
}

}  // namespace

void ResultText(sqlite3_context* ctx, std::string_view text) {
  // SQLite marks a copied text as NUL-terminated only when it was handed over without a length
  // (before 3.46); an unterminated one is reallocated by every function that reads it as text
  // (length, LIKE, upper, ...) and then grown back for the next row: two allocator calls per
  // value. A short text without a NUL inside is so handed over terminated, from a copy on the stack.
  constexpr size_t kTerminatedCopy = 256;
  if (text.size() < kTerminatedCopy) {
    char copy[kTerminatedCopy];
    if (CopyWithoutNul(copy, text.data(), text.size())) {
      copy[text.size()] = '\0';
      sqlite3_result_text(ctx, copy, -1, SQLITE_TRANSIENT);
      return;
    }
  }
  sqlite3_result_text64(ctx, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

std::optional<std::string> ArgumentText(sqlite3_value* v) {
  if (sqlite3_value_type(v) == SQLITE_NULL) return std::nullopt;
  const unsigned char* text = sqlite3_value_text(v);
  if (text == nullptr) throw std::bad_alloc();
  return std::string(reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(v)));
}

Result<OptionList> ParseFunctionOptions(std::string_view function_name, std::string_view text) {
  Result<OptionList> opts = OptionList::ParseList(text);
  if (!opts.ok()) return opts.status().WithContext(function_name);
  Status known = opts->CheckKnown(kDecryptionOptionNames, function_name);
  if (!known.ok()) return std::move(known).WithContext(function_name);
  return opts;
}

void ResultBlob(sqlite3_context* ctx, std::string_view bytes) {
  sqlite3_result_blob64(ctx, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
}

void ResultCell(sqlite3_context* ctx, const Cell& cell) {
  switch (cell.type) {
    case CellType::kNull:
      break;
    case CellType::kInteger:
      sqlite3_result_int64(ctx, cell.i);
      break;
    case CellType::kReal:
      sqlite3_result_double(ctx, cell.d);
      break;
    case CellType::kText:
      ResultText(ctx, cell.bytes);
      break;
    case CellType::kBlob:
      ResultBlob(ctx, cell.bytes);
      break;
  }
}

}  // namespace pq::ext
