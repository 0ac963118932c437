// ScanPlan: which row groups, and which rows in them, a scan of one file must read for a predicate,
// decided from metadata before any value is decoded. Layers, cheapest first (docs/pushdown.md,
// "Pushdown"): row-group statistics, dictionary (a chunk whose data pages are all
// dictionary-encoded and whose dictionary holds no satisfying value), Bloom filter (equality and
// IN; asked before the dictionary when it is fewer bytes to read), page index (ColumnIndex bounds to row ranges, aligned across columns through the
// OffsetIndex), and page-header statistics when a local file has no page index. Each layer only ever
// removes rows that cannot satisfy the predicate, so a plan is always safe to read; rows it keeps
// may still fail.
#pragma once

#include <memory>
#include <vector>

#include "format/file/file_reader.h"
#include "format/predicate/predicate.h"
#include "format/util/row_ranges.h"
#include "format/predicate/scan_counters.h"
#include "format/value/value_options.h"

namespace pq {

struct RowGroupPlan {
  int row_group = -1;
  RowRanges rows;  // never empty in a plan
};

struct ScanPlan {
  std::vector<RowGroupPlan> row_groups;  // in file order
};

// A term on the values of a leaf below a top-level field that prunes and nothing more: the scan
// does not filter rows by it (SQLite checks it). It is a shredded Variant field's typed_value
// column (variant/shredded_fields.h), whose values are the term's values only where nothing else
// can hold the field: every layer uses `leaf` in a row group only when `value_leaf` (-1: none)
// holds no value there (its chunk statistics count as many nulls as values), and, for each
// enclosing object, either its `value` column holds none or no row has that object present with a
// null typed_value (the leaf's definition level histogram counts no value at `typed_null_level`).
// The leaf must not be repeated (one value per row); its values compare under `affinity` as read
// by LeafConverter with default ValueOptions. term.field is not used.
struct LeafTerm {
  PredicateTerm term;
  int leaf = -1;
  int value_leaf = -1;
  struct Enclosing {
    int value_leaf = -1;
    int16_t typed_null_level = 0;
  };
  std::vector<Enclosing> enclosing;
  Affinity affinity = Affinity::kBlob;
};

// `affinity[f]` is the affinity of top-level field f's declared type under `options`. Terms on
// nested fields, or on leaves whose statistics cannot be mapped safely, are ignored (never prune).
// `row_groups` restricts the candidates (e.g. from rowid constraints); empty means all.
Result<ScanPlan> PlanScan(const FileReader& file, const Predicate& predicate,
                          const std::vector<Affinity>& affinity, const ValueOptions& options,
                          const std::vector<int>& row_groups, ScanCounters* stats,
                          const std::vector<LeafTerm>& leaf_terms = {});

}  // namespace pq
