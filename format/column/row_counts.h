// CheckRowCounts: the row counts a file claims, held against its column chunks.
//
// A row group's num_rows is what count(*) answers and what rowids are numbered by, before any value
// is read, and a footer may claim any number: 2^62 rows over three values would make a count walk
// for ever while a scan of the values fails at once. So before a table answers from a file, each
// row group's count is checked against its chunks:
//   - every chunk whose metadata can be read (an encrypted one without its key cannot) must hold
//     at least that many level entries (ColumnMetaData.num_values: one per row in a flat column,
//     one or more in a nested one);
//   - when a row group claims far more rows than the bytes of its smallest chunk (a claim a few
//     bytes of RLE can make true, or a lie), that chunk's page headers are read and their level
//     entries summed, until they reach the count. The chunk is the smallest there is, so this reads
//     few bytes, and only for files that make such a claim.
// A row group whose chunks cannot hold its rows (or that claims rows in a file of no column) is
// Corruption naming the file, the row group and the column. What the headers cannot show (a page whose body holds fewer values than its header
// says) is found when the page is read.
#pragma once

#include "format/file/file_reader.h"
#include "format/util/status.h"

namespace pq {

Status CheckRowCounts(const FileReader& file);

}  // namespace pq
