// ShreddedFields: the primitive typed_value columns of a shredded VARIANT group that each hold the
// values of one JSON path, so that their statistics can prune a query on that path (the Parquet
// spec, "Variant Shredding"): the group's own typed_value when it is a primitive (path `$`), and
// `typed_value.<name>.typed_value` of a shredded object, down through nested shredded objects
// (`$.a.b`), never into a shredded array. Each comes with the `value` column beside it, where the
// values that did not fit the type are kept: the spec lets readers use a typed_value column's
// statistics for skipping only where that `value` column is all null ("Statistics for typed_value
// columns can be used ... when value is always null").
#pragma once

#include <string>
#include <vector>

#include "format/schema/schema.h"

namespace pq {

struct ShreddedField {
  std::vector<std::string> path;  // object field names from the Variant's root; empty: the root
  int typed_leaf = -1;            // the primitive typed_value column (a leaf index of the schema)
  int value_leaf = -1;            // the `value` column beside it; -1 when there is none
  // The typed values read, in the Variant's JSON text and through SQLite's `->>`, as exactly the
  // values LeafConverter gives the column (signed integers, booleans as 1/0, strings byte for
  // byte), so its statistics bound them. False for floats (their text is read back by SQLite's
  // own number parser), decimals, dates, times, timestamps, binary and UUIDs.
  bool statistics_usable = false;
};

// The shredded fields of `variant`, a VARIANT group, in schema order. A typed_value that is not a
// valid shredded type (ShreddedLeafType::Of) is left out, and so is everything under a LIST or a
// repeated node.
std::vector<ShreddedField> ShreddedFieldsOf(const SchemaNode& variant);

}  // namespace pq
