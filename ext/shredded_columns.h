// The hidden columns a `parquet` table adds for the shredded fields of its VARIANT columns
// (docs/reading.md, "Shredded Variant fields"): for a VARIANT column `v` whose files shred the path
// `$.a.b` into a primitive typed_value column (variant/shredded_fields.h), a hidden column named
// `v.a.b` (`v.$` for a primitive shredding of the whole value) that holds, in every row, what
// `v ->> '$.a.b'` gives on the JSON text the table shows for `v`, computed by SQLite's own `->>`.
// So a query gets the same rows from either form; the hidden column adds pruning: its terms reach
// the table, which prunes on the typed_value column's statistics where the spec lets it
// (format/predicate/scan_plan.h, LeafTerm), and SQLite checks them again.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ext/dataset.h"
#include "format/variant/shredded_fields.h"

namespace pq::ext {

struct ShreddedColumn {
  std::string name;               // the SQL column name: "v.a.b", or "v.$"
  int variant_column = -1;        // the table column (from the files' fields) holding the VARIANT
  std::vector<std::string> path;  // the object field names, [] for "v.$"
  std::string json_path;          // "$.a.b", or "$"
};

// The hidden columns of the shredded fields any file of `data` has under a VARIANT column of
// `columns`, in the order first met. A field name other than ASCII letters, digits and '_' (not
// starting with a digit) gets none (its column name and JSON path would need quoting), nor does a
// name that equals (ignoring case, as SQLite does) one in `taken` or an earlier hidden column's.
std::vector<ShreddedColumn> FindShreddedColumns(const DatasetSnapshot& data,
                                                const std::vector<DatasetColumn>& columns,
                                                const std::vector<std::string>& taken);

// The shredded field of `column` in `file`: the field at its path under the file's VARIANT for
// the column; nullopt when the file does not shred that path to a primitive (or lacks the column).
std::optional<ShreddedField> ShreddedFieldIn(const DatasetFile& file, const ShreddedColumn& column);

}  // namespace pq::ext
