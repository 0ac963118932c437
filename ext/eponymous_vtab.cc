// The result setters of eponymous_vtab.h.
#include "ext/eponymous_vtab.h"

#include <cstdint>
#include <cstring>

namespace pq::ext {

namespace {

// Whether n bytes at p hold a zero byte: eight at a time (the word trick of "Bit Twiddling Hacks"),
// which for the short texts of most columns costs less than a call of memchr.
inline bool HasNul(const char* p, size_t n) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHighs = 0x8080808080808080ULL;
  uint64_t any = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    any |= (w - kOnes) & ~w & kHighs;
  }
  if (i < n) {
    uint64_t w = ~uint64_t{0};  // the bytes past the end count as non-zero
    std::memcpy(&w, p + i, n - i);
    any |= (w - kOnes) & ~w & kHighs;
  }
  return any != 0;
}

}  // namespace

void ResultText(sqlite3_context* ctx, std::string_view text) {
  // SQLite marks a copied text as NUL-terminated only when it was handed over without a length
  // (before 3.46); an unterminated one is reallocated by every function that reads it as text
  // (length, LIKE, upper, ...) and then grown back for the next row: two allocator calls per
  // value. A short text without a NUL inside is so handed over terminated, from a copy on the stack.
  constexpr size_t kTerminatedCopy = 256;
  if (text.size() < kTerminatedCopy && !HasNul(text.data(), text.size())) {
    char copy[kTerminatedCopy];
    std::memcpy(copy, text.data(), text.size());
    copy[text.size()] = '\0';
    sqlite3_result_text(ctx, copy, -1, SQLITE_TRANSIENT);
    return;
  }
  sqlite3_result_text64(ctx, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
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
