// File-inspection table-valued functions: the footer of one Parquet file as rows, named and shaped
// like DuckDB's functions of the same names (docs/functions.md).
//
//   SELECT * FROM parquet_metadata('data/trips.parquet');        -- one row per column chunk
//   SELECT * FROM parquet_schema('data/trips.parquet');          -- one row per schema element
//   SELECT * FROM parquet_file_metadata('data/trips.parquet');   -- one row
//   SELECT * FROM parquet_kv_metadata('data/trips.parquet');     -- one row per key/value pair
//   SELECT path_in_schema, stats_min_value, stats_max_value
//     FROM parquet_metadata('t.parquet') WHERE row_group_id = 0;
//
// Each is an eponymous-only virtual table whose one argument is the hidden column `path` (the
// file's path, relative to the process's working directory). Each call opens the file and reads its
// footer; nothing is cached between statements. A missing, unreadable or corrupt file is an SQL
// error carrying the reader's message, which names the file; a call without a path (or with NULL)
// is the error "<function> requires a file path argument". Encrypted footers are refused like
// everywhere else. In a plaintext-footer file, a chunk whose ColumnMetaData exists only in
// encrypted form shows NULL in the fields that ColumnMetaData holds (writers usually keep a
// plaintext copy without statistics, which is shown).
//
// Columns (SQLite has no column types to enforce; these are the storage classes returned):
//
// parquet_metadata: one row per (row group, leaf column), in file order.
//   file_name TEXT, row_group_id INTEGER, row_group_num_rows INTEGER, row_group_num_columns
//   INTEGER, row_group_bytes INTEGER (RowGroup.total_byte_size), column_id INTEGER (leaf index),
//   file_offset INTEGER, num_values INTEGER, path_in_schema TEXT (dotted), type TEXT (physical),
//   stats_min, stats_max (the deprecated Statistics.min/max), stats_null_count INTEGER,
//   stats_distinct_count INTEGER, stats_min_value, stats_max_value
//   (Statistics.min_value/max_value), compression TEXT, encodings TEXT ("RLE, PLAIN"),
//   index_page_offset INTEGER, dictionary_page_offset INTEGER, data_page_offset INTEGER,
//   total_compressed_size INTEGER, total_uncompressed_size INTEGER, key_value_metadata TEXT (JSON
//   object, NULL when none), bloom_filter_offset INTEGER, bloom_filter_length INTEGER, min_is_exact
//   INTEGER 0/1, max_is_exact INTEGER 0/1, row_group_compressed_bytes INTEGER
//   (RowGroup.total_compressed_size), geo_bbox TEXT (JSON object), geo_types TEXT (JSON array of
//   names),
//   -- beyond DuckDB's columns:
//   logical_type TEXT (the logical type the reader applies: the file's LogicalType, or the one its
//   legacy ConvertedType stands for), column_index_offset INTEGER, column_index_length INTEGER,
//   offset_index_offset INTEGER, offset_index_length INTEGER, has_bloom_filter INTEGER 0/1
//   (bloom_filter_offset is set), has_page_index INTEGER 0/1 (a ColumnIndex or an OffsetIndex is
//   set), nan_count INTEGER, encoding_stats TEXT (JSON array, NULL when absent).
//   The stats_* values are typed like the column's values in a `parquet` table (metadata_values.h).
//
// parquet_schema: one row per SchemaElement, in file order (the root first).
//   file_name TEXT, name TEXT, type TEXT, type_length INTEGER, repetition_type TEXT,
//   num_children INTEGER, converted_type TEXT, scale INTEGER, precision INTEGER, field_id INTEGER,
//   logical_type TEXT (the element's LogicalType as stored, NULL when absent; metadata_values.h),
//   column_id INTEGER (the element's index), max_definition_level INTEGER,
//   max_repetition_level INTEGER, path_in_schema TEXT (dotted; NULL for the root).
//
// parquet_file_metadata: one row.
//   file_name TEXT, created_by TEXT, num_rows INTEGER, num_row_groups INTEGER,
//   format_version INTEGER, encryption_algorithm TEXT ("AES_GCM_V1", "AES_GCM_CTR_V1" or NULL),
//   footer_signing_key_metadata (TEXT when valid UTF-8, else BLOB), file_size_bytes INTEGER,
//   footer_size INTEGER (the serialized FileMetaData, the length stored before the final magic),
//   column_orders TEXT (JSON array, NULL when absent).
//
// parquet_kv_metadata: one row per FileMetaData.key_value_metadata entry, in file order.
//   file_name TEXT, key TEXT, value: TEXT when the bytes are valid UTF-8, else BLOB (DuckDB returns
//   BLOBs; text reads better at the sqlite3 prompt and a BLOB keeps what is not text exact); NULL
//   when the pair has no value. A key that is not valid UTF-8 is a BLOB too.
//
// All four are SQLITE_VTAB_DIRECTONLY: they read files, so they may be used only in top-level SQL,
// never from a view or trigger that someone else's schema defines.
#pragma once

#include <memory>

#include "ext/sqlite_api.h"
#include "format/crypto/decryption_config.h"
#include "format/remote/remote_access.h"

namespace pq::ext {

// Registers the four functions on `db`; they open encrypted files with the connection's `keys`
// (parquet_add_key; may be null) and reach http(s):// and s3:// files with its `remote` settings
// (parquet_secret; may be null). Returns SQLITE_OK or the first failing
// sqlite3_create_module_v2 code.
int RegisterMetadataFunctions(sqlite3* db, std::shared_ptr<const crypto::KeyRegistry> keys,
                              std::shared_ptr<const remote::SettingsRegistry> remote);

}  // namespace pq::ext
