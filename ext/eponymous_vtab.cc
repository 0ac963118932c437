// The result setters of eponymous_vtab.h.
#include "ext/eponymous_vtab.h"

namespace pq::ext {

void ResultText(sqlite3_context* ctx, std::string_view text) {
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
