// The result setters of eponymous_vtab.h.
#include "ext/eponymous_vtab.h"

#include <cstring>

namespace pq::ext {

void ResultText(sqlite3_context* ctx, std::string_view text) {
  // SQLite marks a copied text as NUL-terminated only when it was handed over without a length
  // (before 3.46); an unterminated one is reallocated by every function that reads it as text
  // (length, LIKE, upper, ...) and then grown back for the next row: two allocator calls per
  // value. A short text without a NUL inside is so handed over terminated, from a copy on the stack.
  constexpr size_t kTerminatedCopy = 256;
  if (text.size() < kTerminatedCopy && std::memchr(text.data(), 0, text.size()) == nullptr) {
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
