// Source types: the Parquet type each column of a connection's `parquet` tables came from, so that
// parquet_export keeps it when it writes a query column that comes straight from a file.
//
//   CREATE VIRTUAL TABLE temp.t USING parquet('in.parquet');
//   SELECT parquet_export('out.parquet', 'SELECT * FROM t');   -- TIMESTAMP stays TIMESTAMP, ...
//
// WriterTypeOfField maps a file's top-level field, read with a table's ValueOptions, to the writer's
// ColumnType (column_type.h) whose conversion takes back exactly the values the table returns:
//   BOOLEAN, INT(8..64, signed or not), plain INT32/INT64    BOOLEAN, the same integer type
//   FLOAT, FLOAT16 / DOUBLE                                  FLOAT4 / REAL
//   STRING, ENUM / JSON / UUID / DATE                        TEXT / JSON / UUID / DATE
//   TIME, TIMESTAMP (unit and UTC flag kept)                 TIME(...), TIMESTAMP(...)
//   INTERVAL, at the top level                               INTERVAL
//   DECIMAL(p,s), p <= 38, 0 <= s <= p                       DECIMAL(p,s), when the table reads it
//                                                            exactly (as TEXT, or as REAL with
//                                                            p <= 15; inside nested values always)
//   BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY without annotation,     BLOB (TEXT inside nested values read
//   BSON, GEOMETRY, GEOGRAPHY                                with binary_as_string=1)
//   LIST, MAP, structs, repeated fields (every form the      LIST<..>, MAP<..>, STRUCT<..> of the
//   reader reads, nested_shape.h)                            above
// and to nothing (the column's declared type decides, as for any query column) for the rest:
// INT96, INTERVAL inside nested values, UNKNOWN, VARIANT, a MAP without values or with a key the
// writer cannot key on, a struct whose field names repeat ignoring case, and any field holding one
// of those.
//
// SourceTypeRegistry holds those types for the tables open on one connection, by database and
// table name: each table adds its columns when it connects and removes them when it disconnects.
// Not thread-safe: SQLite calls a connection's tables and functions from one thread at a time.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ext/column_type.h"
#include "format/schema/schema.h"
#include "format/value/value_options.h"

namespace pq::ext {

// The writer's type for top-level field `field` read with `values` (table above); nullopt when it
// has none.
std::optional<ColumnType> WriterTypeOfField(const SchemaNode& field, const ValueOptions& values);

// One column of a table and its source type (nullopt: none).
struct SourceColumn {
  std::string name;
  std::optional<ColumnType> type;
};

class SourceTypeRegistry {
 public:
  // Adds the columns of table `schema`.`table`; `owner` identifies the entry for Remove.
  void Add(const void* owner, std::string schema, std::string table,
           std::vector<SourceColumn> columns);
  void Remove(const void* owner);
  // The source type of column `column` of `schema`.`table` (names compared ignoring case, as
  // SQLite compares them); null when the table is not a parquet table of this connection or the
  // column has no source type.
  const ColumnType* Find(std::string_view schema, std::string_view table,
                         std::string_view column) const;

 private:
  struct Entry {
    const void* owner;
    std::string schema;
    std::string table;
    std::vector<SourceColumn> columns;
  };
  std::vector<Entry> entries_;
};

}  // namespace pq::ext
