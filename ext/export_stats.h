// What parquet_export wrote, as JSON: its answer with return_stats=1 (as DuckDB's COPY ... TO with
// RETURN_STATS answers with a row per file): per file its path, rows, bytes, row groups, partition
// values, and per leaf column the null count, min and max merged over the row groups' statistics in
// its footer, shown as parquet_metadata shows them. Documented in docs/writing.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ext/export_writer.h"

namespace pq::ext {

// The return_stats JSON (docs/writing.md) for `files` (in the order written) holding `rows` rows in
// all; `base` is PATH of a folder export (joined with each file's path), empty for a single file.
std::string ExportStatsJson(const std::string& base, const std::vector<ExportedFile>& files,
                            int64_t rows);

}  // namespace pq::ext
