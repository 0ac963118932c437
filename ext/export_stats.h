// What parquet_export wrote, as JSON: its answer with return_stats=1 (as DuckDB's COPY ... TO
// with RETURN_STATS answers with a row per file).
//
//   {"rows": 3, "files": [
//     {"path": "out/year=2024/data_0.parquet", "rows": 3, "bytes": 812, "row_groups": 1,
//      "partition": {"year": "2024"},
//      "columns": {"id": {"null_count": 0, "min": 1, "max": 3},
//                  "tags.list.element": {"null_count": 1, "min": "a", "max": "c"}}}]}
//
// "path" is PATH for one file, else PATH joined with the file's place in the folder; "partition"
// (partitioned exports only) holds each partition column's value as its folder name spells it
// (URL-encoded, __HIVE_DEFAULT_PARTITION__ for NULL). "columns" has an entry per leaf column,
// named by its dotted path, merged over the file's row groups from the statistics written in its
// footer: "null_count" (their sum), "min" and "max" (the smallest and largest in the column's sort
// order, shown as parquet_metadata's stats_min_value shows them: numbers as numbers, text as
// strings, BLOBs as base64 strings; long text is the truncated bound the footer holds). min and max
// are left out where the statistics give none (all NULL, a type with no order such as GEOMETRY or
// VARIANT's binaries, or NaN only).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ext/export_writer.h"

namespace pq::ext {

// The JSON above for `files` (in the order written) holding `rows` rows in all; `base` is PATH of
// a folder export (joined with each file's path), empty for a single file.
std::string ExportStatsJson(const std::string& base, const std::vector<ExportedFile>& files,
                            int64_t rows);

}  // namespace pq::ext
