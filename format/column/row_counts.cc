#include "format/column/row_counts.h"

#include <optional>
#include <string>

#include "format/column/column_reader.h"
#include "format/page/page_reader.h"

namespace pq {

namespace {

// Rows a row group may claim per byte of its largest chunk before the headers of its smallest
// chunk are read: far more than any page holds per byte, but for runs of one value (or of NULLs),
// which are rare and cheap to walk.
constexpr int64_t kRowsPerByteTaken = 64;
// Row groups of up to this many rows are never walked.
constexpr int64_t kRowsTakenAnyway = int64_t{1} << 16;

// The level entries of chunk (row_group, leaf)'s data page headers, summed until they reach
// `rows` (fewer only when the pages hold fewer).
Result<int64_t> HeaderLevelEntries(const FileReader& file, int row_group, int leaf,
                                   const ColumnMetaData& meta, int64_t rows) {
  auto decryptor = file.ChunkDecryptor(row_group, leaf);
  if (!decryptor.ok()) return rows;  // cannot be read here: the scan reports it
  const std::optional<crypto::ColumnDecryptor> d = std::move(decryptor).value();
  PageReader pages(file.file(), meta, file.options(), ColumnContext(file, row_group, file.schema().leaf(leaf)),
                   file.chunk_size_slack(), d ? &*d : nullptr);
  int64_t entries = 0;
  Page page;
  while (entries < rows) {
    PQ_ASSIGN_OR_RETURN(bool more, pages.NextHeader(&page));
    if (!more) break;
    if (page.type != PageType::kDictionaryPage) entries += page.num_values;
  }
  return entries;
}

}  // namespace

Status CheckRowCounts(const FileReader& file) {
  const Schema& schema = file.schema();
  for (int rg = 0; rg < file.num_row_groups(); ++rg) {
    const int64_t rows = file.metadata().row_groups[static_cast<size_t>(rg)].num_rows;
    if (rows == 0) continue;
    if (schema.num_leaves() == 0) {
      return Status::Corruption("row group " + std::to_string(rg) + " claims " + std::to_string(rows) +
                                " rows, and the file has no column to hold them")
          .WithContext(file.path());
    }
    int smallest = -1;
    const ColumnMetaData* smallest_meta = nullptr;
    int64_t largest_bytes = 0;
    for (int leaf = 0; leaf < schema.num_leaves(); ++leaf) {
      auto meta = file.ColumnMeta(rg, leaf);
      if (!meta.ok()) continue;
      const ColumnMetaData& m = **meta;
      // A column that is not repeated holds one value (or NULL) per row: exactly `rows`. More would
      // be rows past the row group's end, which a scan stops before: dropped without a word.
      const bool flat = schema.leaf(leaf).max_repetition_level == 0;
      if (m.num_values < rows || (flat && m.num_values > rows)) {
        return Status::Corruption("the row group claims " + std::to_string(rows) + " rows, the column chunk holds " +
                                  std::to_string(m.num_values) + " values")
            .WithContext(ColumnContext(file, rg, schema.leaf(leaf)));
      }
      if (smallest_meta == nullptr || m.total_compressed_size < smallest_meta->total_compressed_size) {
        smallest = leaf;
        smallest_meta = &m;
      }
      largest_bytes = std::max(largest_bytes, m.total_compressed_size);
    }
    // One chunk with the bytes for the claim makes it plausible, so the common row group of a
    // boolean or near-constant column (a few bytes of RLE for a million rows) beside columns of
    // real values is not walked: that walk is a read, a round trip for a remote file, at every
    // open. A chunk whose pages hold fewer values than its metadata is found when it is read.
    if (smallest_meta == nullptr || rows <= kRowsTakenAnyway ||
        rows / kRowsPerByteTaken <= std::max<int64_t>(largest_bytes, 1)) {
      continue;
    }
    const std::string context = ColumnContext(file, rg, schema.leaf(smallest));
    PQ_ASSIGN_OR_RETURN(int64_t entries, HeaderLevelEntries(file, rg, smallest, *smallest_meta, rows));
    if (entries < rows) {
      return Status::Corruption("the row group claims " + std::to_string(rows) +
                                " rows, the pages of the column chunk hold " + std::to_string(entries) +
                                " values")
          .WithContext(context);
    }
  }
  return Status::OK();
}

}  // namespace pq
