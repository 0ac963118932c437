// Page-index and Bloom-filter inspection: two table-valued functions beside those of
// metadata_functions.h (docs/functions.md).
//
//   SELECT * FROM parquet_page_index('t.parquet');                  -- one row per page
//   SELECT row_group_id FROM parquet_bloom_probe('t.parquet', 'city', 'Oslo')
//    WHERE bloom_filter_excludes = 0;                 -- the row groups that may hold 'Oslo'
//
// Both are eponymous-only virtual tables whose arguments are hidden columns; like the footer
// functions they open the file in each call (nothing is cached between statements), paths are
// relative to the process's working directory, a missing argument or a NULL path or column name
// is the error "<function> requires arguments (...)", and they are SQLITE_VTAB_DIRECTONLY (they
// read files, so they may not run from a view or trigger someone else's schema defines). Errors
// name the file, the row group and the column.
//
// parquet_page_index(path): one row per page of every column chunk that has a page index
// (the Parquet spec, "Page Index": the OffsetIndex says where each data page is and which row it
// starts at, the ColumnIndex holds each page's min/max and null count), chunks in file order (row
// group, then leaf column), pages in index order. Columns:
//   file_name TEXT, row_group_id INTEGER, column_id INTEGER (leaf index), path_in_schema TEXT
//   (dotted), page_number INTEGER (0-based position in the chunk's index: data pages only, a
//   dictionary page is not indexed),
//   -- from the OffsetIndex (NULL when the chunk has only a ColumnIndex):
//   first_row_index INTEGER (row of the row group the page starts at), row_count INTEGER (the next
//   page's first_row_index, or the row group's num_rows after the last page, minus this page's;
//   NULL when that overflows), offset INTEGER (file offset of the page header),
//   compressed_page_size INTEGER (header included),
//   -- from the ColumnIndex (NULL when the chunk has only an OffsetIndex):
//   null_page INTEGER 0/1, null_count INTEGER (NULL when the index has no null_counts),
//   min_value, max_value (typed like parquet_metadata's statistics, metadata_values.h; NULL on a
//   null page, whose bounds the spec says to ignore), boundary_order TEXT ('UNORDERED',
//   'ASCENDING', 'DESCENDING').
// A chunk with neither structure, or whose column is encrypted (its index is then encrypted too),
// has no rows. An index is read only when the scan reaches its chunk, so memory holds one chunk's
// index at a time (one whose length the footer omits is parsed from growing windows of bytes);
// one that lies outside the file, is larger than ReaderLimits::max_footer_size, does not parse,
// or whose lists disagree in length (OffsetIndex and ColumnIndex with different page counts,
// ColumnIndex lists of different sizes) is an error when reached.
//
// parquet_bloom_probe(path, column, value): DuckDB's function of the same name. One row per row
// group: file_name TEXT, row_group_id INTEGER, bloom_filter_excludes INTEGER: 1 when the row
// group's Bloom filter for the column proves that no value of the chunk equals `value`, 0 when it
// may be present, NULL when the chunk has no Bloom filter (DuckDB shows false there). Hidden
// argument columns: path, column_name, value.
//
// `column` is a leaf's dotted path_in_schema ("id", "address.city"), matched exactly or else
// case-insensitively when that matches one leaf alone; no match is an error. `value` is turned into
// the PLAIN encoding of the column's physical type, the bytes Bloom filters hash (XXH64, seed 0,
// split_block_bloom_filter.h). A value that cannot be turned into the column's type is an error
// naming the column. A NULL value gives no rows (as `value = NULL` matches nothing; Bloom filters
// hold no NULLs). Accepted values:
//   INT32, INT64 (plain, INT(n, signed/unsigned))  an INTEGER in the range of the physical type
//       (unsigned: 0..2^32-1 for INT32, 0..2^64-1 for INT64, above 2^63-1 given as a REAL); a REAL
//       with no fraction and TEXT spelling a number count as the number (SQLite's numeric affinity)
//   DATE                  TEXT 'YYYY-MM-DD', or the stored INTEGER (days since 1970-01-01)
//   TIME                  TEXT 'HH:MM[:SS[.f]]', or the stored INTEGER (units since midnight)
//   TIMESTAMP             TEXT 'YYYY-MM-DD[ HH:MM[:SS[.f]]]', or the stored INTEGER (units since
//                         the epoch); fraction digits finer than the unit must be zeros
//   INT96                 TEXT timestamp as above (nanoseconds)
//   DECIMAL(p,s)          INTEGER, REAL or TEXT with at most s fraction digits (beyond that only
//                         zeros), scaled to the unscaled integer; stored as the physical type's
//                         bytes (big-endian two's complement for FIXED_LEN_BYTE_ARRAY, its minimal
//                         form for BYTE_ARRAY, which is what writers usually store)
//   FLOAT, DOUBLE         REAL or INTEGER (or numeric TEXT), rounded to the nearest float / double;
//                         a zero probes both +0.0 and -0.0 (they hash differently)
//   BYTE_ARRAY            TEXT as its UTF-8 bytes, BLOB as its bytes; for STRING, ENUM and JSON
//                         columns also INTEGER and REAL as SQLite prints them
//   UUID                  TEXT 8-4-4-4-12 hex digits (either case), or a 16-byte BLOB
//   FIXED_LEN_BYTE_ARRAY  TEXT or BLOB of exactly type_length bytes
//   any fixed-width type  a BLOB of exactly the type's width (4, 8 or 12 bytes) is taken as the
//                         PLAIN bytes themselves
//   BOOLEAN               an error: the format defines no Bloom filter for booleans
// A row group's filter is read at ColumnMetaData.bloom_filter_offset when its row is produced: the
// header first (bloom_filter_length is optional), then a bitset of at most 128 MiB
// (SplitBlockBloomFilter::kMaxBytes) that must lie inside the file and inside
// bloom_filter_length when given. A filter that cannot be read is an error, never an
// "absent" answer.
#pragma once

#include <memory>

#include "ext/sqlite_api.h"
#include "format/crypto/decryption_config.h"
#include "format/remote/remote_access.h"

namespace pq::ext {

// Registers parquet_page_index and parquet_bloom_probe on `db`; they open encrypted files with the
// connection's `keys` (parquet_add_key; may be null) and reach http(s):// and s3:// files with its
// `remote` settings (parquet_secret; may be null). Returns SQLITE_OK or the first failing
// sqlite3_create_module_v2 code.
int RegisterIndexFunctions(sqlite3* db, std::shared_ptr<const crypto::KeyRegistry> keys,
                           std::shared_ptr<const remote::SettingsRegistry> remote);

}  // namespace pq::ext
