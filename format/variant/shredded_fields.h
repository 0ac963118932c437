// ShreddedFields: the primitive typed_value columns of a shredded VARIANT group that each hold the
// values of one JSON path, so that their statistics can prune a query on that path (the Parquet
// spec, "Variant Shredding"): the group's own typed_value when it is a primitive (path `$`), and
// `typed_value.<name>.typed_value` of a shredded object, down through nested shredded objects
// (`$.a.b`), never into a shredded array. Each comes with the `value` column beside it, where the
// values that did not fit the type are kept: the spec lets readers use a typed_value column's
// statistics for skipping only where that `value` column is all null ("Statistics for typed_value
// columns can be used ... when value is always null"); and with the `value` columns of the shredded
// objects that enclose it, since a reader rebuilds a value from an object's `value` alone where its
// typed_value is null (which the spec forbids for objects, and a writer may still do).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/schema/schema.h"

namespace pq {

struct ShreddedField {
  std::vector<std::string> path;  // object field names from the Variant's root; empty: the root
  int typed_leaf = -1;            // the primitive typed_value column (a leaf index of the schema)
  int value_leaf = -1;            // the `value` column beside it; -1 when there is none
  // Each enclosing object (the VARIANT group, then the field groups down the path) that has a
  // `value` column and an optional typed_value: that column, and the definition level of typed_leaf
  // at which the object is present and its typed_value null.
  struct Enclosing {
    int value_leaf = -1;
    int16_t typed_null_level = 0;
  };
  std::vector<Enclosing> enclosing;
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
