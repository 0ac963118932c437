// Cell: one value as SQLite will receive it, before any SQLite header is involved. The converter
// (leaf_converter.h) turns a decoded Parquet value into a Cell; the SQLite layer turns a Cell into
// sqlite3_result_*(). A Cell never owns memory: `bytes` of a TEXT or BLOB cell points either into
// the decoded value itself (page buffer, dictionary) or into a scratch string the caller handed to
// the converter, and is valid only as long as that memory is.
#pragma once

#include <cstdint>
#include <string_view>

namespace pq {

// The five SQLite storage classes.
enum class CellType : uint8_t { kNull, kInteger, kReal, kText, kBlob };

struct Cell {
  CellType type = CellType::kNull;
  int64_t i = 0;           // kInteger
  double d = 0;            // kReal (never NaN: NaN becomes kNull, as SQLite stores it)
  std::string_view bytes;  // kText (UTF-8 as the file holds it, not validated) / kBlob

  static Cell Null() { return Cell{}; }
  static Cell Integer(int64_t v) {
    Cell c;
    c.type = CellType::kInteger;
    c.i = v;
    return c;
  }
  // A NaN real becomes NULL: SQLite has no NaN value and stores NaN as NULL itself.
  static Cell Real(double v) {
    Cell c;
    if (v != v) return c;
    c.type = CellType::kReal;
    c.d = v;
    return c;
  }
  static Cell Text(std::string_view v) {
    Cell c;
    c.type = CellType::kText;
    c.bytes = v;
    return c;
  }
  static Cell Blob(std::string_view v) {
    Cell c;
    c.type = CellType::kBlob;
    c.bytes = v;
    return c;
  }
};

}  // namespace pq
