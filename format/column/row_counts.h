// CheckRowCounts: the row counts a file claims, held against its column chunks. A row group's
// num_rows is what count(*) answers and what rowids are numbered by, before any value is read, and
// a footer may claim any number: 2^62 rows over three values would make a count walk for ever
// while a scan of the values fails at once. So before a table answers from a file, each row
// group's count is checked against its chunks, cheaply: the footer first, page headers of the
// smallest chunk only for files whose claims need them (no chunk of the row group has the bytes to
// make the claim plausible).
#pragma once

#include "format/file/file_reader.h"
#include "format/util/status.h"

namespace pq {

// Every chunk whose metadata can be read (an encrypted one without its key cannot) must hold at
// least num_rows level entries (ColumnMetaData.num_values: one per row in a flat column, one or
// more in a nested one); when a row group claims far more rows than the bytes of its largest
// chunk (a claim a few bytes of RLE can make true, or a lie), the smallest chunk's page headers are
// read and their level entries summed until they reach the count. Corruption naming the file, row
// group and column for a row group whose chunks cannot hold its rows (or that claims rows in a file
// of no column). A page whose body holds fewer values than its header says, or a chunk whose pages
// hold fewer values than its metadata, is found when it is read.
Status CheckRowCounts(const FileReader& file);

}  // namespace pq
