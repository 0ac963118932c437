// parquet_page_index and parquet_bloom_probe (index_functions.h): two eponymous-only virtual
// tables (eponymous_vtab.h) that share the best-index callback and differ in their cursors.
//
// Both produce rows lazily: the page-index cursor holds the index of one column chunk at a time,
// the Bloom-probe cursor reads one row group's filter when it reaches that row group, so a file
// with many row groups costs no more memory than its footer plus one index or filter.
#include "ext/index_functions.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ext/dataset.h"
#include "ext/eponymous_vtab.h"
#include "ext/export_types.h"
#include "ext/metadata_values.h"
#include "format/bloom/split_block_bloom_filter.h"
#include "format/file/chunk_index_reader.h"
#include "format/file/file_reader.h"
#include "format/predicate/bloom_literal.h"

namespace pq::ext {

namespace {

struct ValueFree {
  void operator()(sqlite3_value* v) const { sqlite3_value_free(v); }
};
// A protected copy of an argument (sqlite3_value_dup), freed with it.
using OwnedValue = std::unique_ptr<sqlite3_value, ValueFree>;

OwnedValue CopyValue(sqlite3_value* v) {
  OwnedValue copy(sqlite3_value_dup(v));
  if (!copy) throw std::bad_alloc();  // the callers are Guarded: this becomes SQLITE_NOMEM
  return copy;
}

std::string_view ValueBytes(sqlite3_value* v) {
  // sqlite3_value_blob of a TEXT value is its UTF-8 bytes; bytes() is asked after blob() as the
  // SQLite documentation requires.
  const auto* p = static_cast<const char*>(sqlite3_value_blob(v));
  const int n = sqlite3_value_bytes(v);
  if (p == nullptr || n <= 0) return {};
  return std::string_view(p, static_cast<size_t>(n));
}

// "data/t.parquet, row group 2, column 'a.b'": the context of a chunk's errors.
std::string ChunkContext(const FileReader& reader, int row_group, const SchemaNode& leaf) {
  return reader.path() + ", row group " + std::to_string(row_group) + ", column '" +
         leaf.DottedPath() + "'";
}

// -------------------------------------------------------------------------------------------------
// The two functions and what they share

// One table-valued function: its visible columns come first in `declaration`, then its hidden
// argument columns [first_argument, first_argument + num_arguments), which a call must give, then
// the hidden `options` column (first_argument + num_arguments), which it may: the decryption
// options of the call (ParseFunctionOptions).
struct IndexFunction {
  const char* name;
  const char* declaration;
  int first_argument;
  int num_arguments;       // the required ones (options not counted)
  int num_name_arguments;  // the leading arguments that are names (path, column): text
  const char* arguments;   // for the message of a call without them: "(path)"
};

enum PageIndexColumn : int {
  kPiFileName,
  kPiRowGroupId,
  kPiColumnId,
  kPiPathInSchema,
  kPiPageNumber,
  kPiFirstRowIndex,
  kPiRowCount,
  kPiOffset,
  kPiCompressedPageSize,
  kPiNullPage,
  kPiNullCount,
  kPiMinValue,
  kPiMaxValue,
  kPiBoundaryOrder,
  kPiPath,     // hidden argument
  kPiOptions,  // hidden argument (optional)
};

constexpr IndexFunction kPageIndexFunction = {
    "parquet_page_index",
    "CREATE TABLE x(file_name TEXT, row_group_id INTEGER, column_id INTEGER, path_in_schema TEXT, "
    "page_number INTEGER, first_row_index INTEGER, row_count INTEGER, offset INTEGER, "
    "compressed_page_size INTEGER, null_page INTEGER, null_count INTEGER, min_value, max_value, "
    "boundary_order TEXT, path HIDDEN, options HIDDEN)",
    kPiPath,
    1,
    1,
    "(path)",
};

enum BloomProbeColumn : int {
  kBpFileName,
  kBpRowGroupId,
  kBpExcludes,
  kBpPath,        // hidden argument 1
  kBpColumnName,  // hidden argument 2
  kBpValue,       // hidden argument 3
  kBpOptions,     // hidden argument 4 (optional)
};

constexpr IndexFunction kBloomProbeFunction = {
    "parquet_bloom_probe",
    "CREATE TABLE x(file_name TEXT, row_group_id INTEGER, bloom_filter_excludes INTEGER, "
    "path HIDDEN, column_name HIDDEN, value HIDDEN, options HIDDEN)",
    kBpPath,
    3,
    2,
    "(path, column, value)",
};

// xBestIndex of both functions: the plan is all or nothing over the required arguments, since the
// rows depend on every one; the options may be left out.
//   idxNum 1 (without options) or 2 (with): argv[0..num_arguments) are the required arguments in
//             declaration order: for each hidden argument column, its first usable `=` constraint
//             (omitted: xFilter applies it); with idxNum 2, argv[num_arguments] is the first usable
//             `=` constraint on `options` (omitted too). Then the rest of argv are the values of
//             the other usable `=` constraints on argument columns (`path = 'a' AND path = 'b'`),
//             not omitted: SQLite checks them against the value xColumn returns for the column, the
//             argument itself. idxStr has one character per such extra value, '0' + the index of
//             its argument (num_arguments for the options), so that xFilter can return no rows
//             without opening any file when a path, column name or the options differ.
//   idxNum 0: some required argument has no usable `=` constraint: xFilter reports "<function>
//             requires arguments (...)".
// An `=` constraint on an argument column that is not usable (its value comes from a table not yet
// scanned) makes an incomplete plan SQLITE_CONSTRAINT, and so does one on `options` when no
// constraint on `options` is usable, so that SQLite orders the join to make it usable (a file
// opened without its options could not be read).
int VtabBestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  const IndexFunction& function = FunctionOf<IndexFunction>(vtab);
  const int options = function.num_arguments;  // the argument index of the options
  int chosen[4] = {-1, -1, -1, -1};            // constraint index per argument, options last
  bool unusable_argument = false;
  bool unusable_options = false;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    const int argument = c.iColumn - function.first_argument;
    if (argument < 0 || argument > options || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (!c.usable) {
      unusable_argument = true;
      if (argument == options) unusable_options = true;
    } else if (chosen[argument] < 0) {
      chosen[argument] = i;
    }
  }
  bool complete = true;
  for (int a = 0; a < function.num_arguments; ++a) complete = complete && chosen[a] >= 0;
  if (!complete) {
    if (unusable_argument) return SQLITE_CONSTRAINT;
    info->idxNum = 0;
    info->estimatedCost = 1e12;
    info->estimatedRows = 1000;
    return SQLITE_OK;
  }
  if (unusable_options && chosen[options] < 0) return SQLITE_CONSTRAINT;
  const int num_given = function.num_arguments + (chosen[options] >= 0 ? 1 : 0);
  for (int a = 0; a < num_given; ++a) {
    info->aConstraintUsage[chosen[a]].argvIndex = a + 1;
    info->aConstraintUsage[chosen[a]].omit = 1;
  }
  std::string extras;  // '0' + argument index of each extra value, in argv order
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    const int argument = c.iColumn - function.first_argument;
    if (argument < 0 || argument > options || c.op != SQLITE_INDEX_CONSTRAINT_EQ || !c.usable ||
        i == chosen[argument]) {
      continue;
    }
    info->aConstraintUsage[i].argvIndex = num_given + static_cast<int>(extras.size()) + 1;
    extras.push_back(static_cast<char>('0' + argument));
  }
  if (!extras.empty()) {
    info->idxStr = sqlite3_mprintf("%s", extras.c_str());
    if (info->idxStr == nullptr) return SQLITE_NOMEM;
    info->needToFreeIdxStr = 1;
  }
  info->idxNum = num_given > function.num_arguments ? 2 : 1;
  info->estimatedCost = 1000;
  info->estimatedRows = 1000;
  return SQLITE_OK;
}

// Checks the arguments xFilter received: InvalidArgument "requires arguments" when the plan has
// none or a name argument (path, column name) is NULL. Sets *no_rows when the value argument is
// NULL, or when an extra `=` value of a name argument or of the options (idxStr as xBestIndex
// describes it) is not the same as the argument: then no row can match and no file needs opening.
// Sets *options to the argv index of the options, or -1 when not given.
Status CheckArguments(const IndexFunction& function, int idx_num, const char* idx_str, int argc,
                      sqlite3_value** argv, bool* no_rows, int* options) {
  *no_rows = false;
  *options = -1;
  const int n = function.num_arguments;
  const int num_given = idx_num == 2 ? n + 1 : n;
  bool ok = (idx_num == 1 || idx_num == 2) && argc >= num_given;
  for (int i = 0; ok && i < function.num_name_arguments; ++i) {
    ok = sqlite3_value_type(argv[i]) != SQLITE_NULL;
  }
  if (!ok) {
    return Status::InvalidArgument(std::string(function.name) + " requires arguments " +
                                   function.arguments);
  }
  if (idx_num == 2) *options = n;
  for (int i = function.num_name_arguments; i < n; ++i) {
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) *no_rows = true;
  }
  const std::string_view extras = idx_str ? idx_str : "";
  for (int i = num_given; i < argc && static_cast<size_t>(i - num_given) < extras.size(); ++i) {
    const int argument = extras[static_cast<size_t>(i - num_given)] - '0';
    const bool compared = (argument >= 0 && argument < function.num_name_arguments) ||
                          (argument == n && *options == n);
    if (!compared) continue;  // left to SQLite
    if (sqlite3_value_type(argv[i]) != sqlite3_value_type(argv[argument]) ||
        ValueBytes(argv[i]) != ValueBytes(argv[argument])) {
      *no_rows = true;
    }
  }
  return Status::OK();
}

// The options argument of a call (argv[options]; options -1: not given) as a cursor keeps it: its
// text in *text (nullopt: not given, or NULL, which is no options), and in *reader_options what the
// files are opened with: its keys, then the connection's. InvalidArgument naming a malformed or
// unknown option.
Status CallOptions(sqlite3_vtab* vtab, sqlite3_value** argv, int options,
                   std::optional<std::string>* text, ReaderOptions* reader_options) {
  text->reset();
  if (options >= 0) *text = ArgumentText(argv[options]);
  PQ_ASSIGN_OR_RETURN(*reader_options, CallReaderOptions<IndexFunction>(vtab, *text));
  return Status::OK();
}

// -------------------------------------------------------------------------------------------------
// parquet_page_index

// Reads the OffsetIndex and ColumnIndex of chunk (row_group, leaf), those the footer points to
// (ChunkIndexReader). Errors without context (the caller adds file, row group and column).
Result<ChunkPageIndex> ReadChunkPageIndex(const FileReader& reader, int row_group, int leaf) {
  // An encrypted column's index modules are encrypted under its key: without the key the chunk
  // has no readable index (no rows, as its statistics in parquet_metadata are NULL).
  auto decryptor = reader.ChunkDecryptor(row_group, leaf);
  if (!decryptor.ok()) return ChunkPageIndex{};
  return ChunkIndexReader(reader, row_group, leaf, std::move(decryptor).value(), nullptr).ReadPageIndex();
}

struct PageIndexCursor {
  sqlite3_vtab_cursor base;            // must come first
  std::shared_ptr<FileReader> reader;  // the file whose pages are being returned; null when none
  std::string path;                    // the path argument, returned by the hidden column
  std::optional<std::string> options;  // the options argument, likewise (none: not given, NULL)
  ReaderOptions reader_options;        // what the files are opened with (the options, the keys)
  std::vector<std::string> files;      // the files it names (ExpandSource: globs, comma lists)
  size_t next_file = 0;                // the next of `files` to open
  int row_group = 0;                   // the chunk whose index is loaded: row group ...
  int leaf = 0;                        // ... and leaf column
  ChunkPageIndex index;                // that chunk's index
  size_t page = 0;                     // current page of `index`
  int64_t rowid = 0;                   // rows produced before the current one
  bool eof = true;
};

// Loads the first chunk at or after (row_group, leaf), in file order, that has indexed pages, and
// positions on its first page; eof when there is none.
Status LoadChunkFrom(PageIndexCursor* cursor, int row_group, int leaf) {
  const FileReader& reader = *cursor->reader;
  const int num_leaves = reader.schema().num_leaves();
  for (; row_group < reader.num_row_groups(); ++row_group, leaf = 0) {
    for (; leaf < num_leaves; ++leaf) {
      auto index = ReadChunkPageIndex(reader, row_group, leaf);
      if (!index.ok()) {
        return std::move(index).TakeStatus().WithContext(
            ChunkContext(reader, row_group, reader.schema().leaf(leaf)));
      }
      if (index->num_pages == 0) continue;
      cursor->row_group = row_group;
      cursor->leaf = leaf;
      cursor->index = std::move(index).value();
      cursor->page = 0;
      cursor->eof = false;
      return Status::OK();
    }
  }
  cursor->index = ChunkPageIndex{};
  cursor->eof = true;
  return Status::OK();
}

// Opens the next files until one has an indexed page (positioned on it), or none is left (eof).
Status LoadNextFile(PageIndexCursor* cursor) {
  cursor->eof = true;
  while (cursor->eof && cursor->next_file < cursor->files.size()) {
    PQ_ASSIGN_OR_RETURN(cursor->reader, FileReader::Open(cursor->files[cursor->next_file++],
                                                         cursor->reader_options));
    PQ_RETURN_IF_ERROR(LoadChunkFrom(cursor, 0, 0));
  }
  return Status::OK();
}

int PageIndexFilter(sqlite3_vtab_cursor* base, int idx_num, const char* idx_str, int argc,
                    sqlite3_value** argv) {
  auto* cursor = reinterpret_cast<PageIndexCursor*>(base);
  sqlite3_vtab* vtab = base->pVtab;
  return Guarded(vtab, [&]() -> int {
    cursor->reader.reset();
    cursor->index = ChunkPageIndex{};
    cursor->path.clear();
    cursor->rowid = 0;
    cursor->eof = true;
    bool no_rows = false;
    int options = -1;
    Status args = CheckArguments(FunctionOf<IndexFunction>(vtab), idx_num, idx_str, argc, argv,
                                 &no_rows, &options);
    if (!args.ok()) return SetVtabError(vtab, args);
    cursor->path = *ArgumentText(argv[0]);
    args = CallOptions(vtab, argv, options, &cursor->options, &cursor->reader_options);
    if (!args.ok()) return SetVtabError(vtab, args);
    cursor->files.clear();
    cursor->next_file = 0;
    if (no_rows) return SQLITE_OK;
    auto files = ExpandSource(cursor->path);
    if (!files.ok()) return SetVtabError(vtab, files.status());
    cursor->files = std::move(files).value();
    return StatusToVtab(vtab, LoadNextFile(cursor));
  });
}

int PageIndexNext(sqlite3_vtab_cursor* base) {
  auto* cursor = reinterpret_cast<PageIndexCursor*>(base);
  return Guarded(base->pVtab, [&]() -> int {
    ++cursor->rowid;
    if (++cursor->page < cursor->index.num_pages) return SQLITE_OK;
    Status s = LoadChunkFrom(cursor, cursor->row_group, cursor->leaf + 1);
    if (s.ok() && cursor->eof) s = LoadNextFile(cursor);
    return StatusToVtab(base->pVtab, s);
  });
}

int PageIndexEof(sqlite3_vtab_cursor* base) {
  return reinterpret_cast<PageIndexCursor*>(base)->eof;
}

void PageIndexColumnValue(const PageIndexCursor& cursor, int col, sqlite3_context* ctx) {
  const FileReader& reader = *cursor.reader;
  const size_t page = cursor.page;
  const SchemaNode& leaf = reader.schema().leaf(cursor.leaf);
  const OffsetIndex* offsets = cursor.index.offsets.get();
  const ColumnIndex* columns = cursor.index.columns.get();
  const PageLocation* location = offsets ? &offsets->page_locations[page] : nullptr;
  const bool null_page = columns && columns->null_pages[page];
  switch (col) {
    case kPiFileName:
      ResultText(ctx, reader.path());
      break;
    case kPiRowGroupId:
      sqlite3_result_int64(ctx, cursor.row_group);
      break;
    case kPiColumnId:
      sqlite3_result_int64(ctx, cursor.leaf);
      break;
    case kPiPathInSchema:
      ResultText(ctx, leaf.DottedPath());
      break;
    case kPiPageNumber:
      sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(page));
      break;
    case kPiFirstRowIndex:
      if (location) sqlite3_result_int64(ctx, location->first_row_index);
      break;
    case kPiRowCount:
      if (location) {
        const int64_t end = page + 1 < offsets->page_locations.size()
                                ? offsets->page_locations[page + 1].first_row_index
                                : reader.metadata().row_groups[cursor.row_group].num_rows;
        int64_t count = 0;
        // The file's numbers are untrusted: a difference that overflows is shown as NULL.
        if (!__builtin_sub_overflow(end, location->first_row_index, &count)) {
          sqlite3_result_int64(ctx, count);
        }
      }
      break;
    case kPiOffset:
      if (location) sqlite3_result_int64(ctx, location->offset);
      break;
    case kPiCompressedPageSize:
      if (location) sqlite3_result_int64(ctx, location->compressed_page_size);
      break;
    case kPiNullPage:
      if (columns) sqlite3_result_int(ctx, null_page ? 1 : 0);
      break;
    case kPiNullCount:
      if (columns && columns->null_counts) sqlite3_result_int64(ctx, (*columns->null_counts)[page]);
      break;
    case kPiMinValue:
    case kPiMaxValue:
      if (columns && !null_page) {
        const std::string& bytes =
            col == kPiMinValue ? columns->min_values[page] : columns->max_values[page];
        std::string scratch;
        ResultCell(ctx, StatisticValue(leaf, bytes, &scratch));
      }
      break;
    case kPiBoundaryOrder:
      if (columns) ResultText(ctx, BoundaryOrderName(columns->boundary_order));
      break;
    default:
      break;
  }
}

int PageIndexColumn(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int col) {
  const auto* cursor = reinterpret_cast<PageIndexCursor*>(base);
  return Guarded(base->pVtab, [&]() -> int {
    if (col == kPiPath) {
      ResultText(ctx, cursor->path);
    } else if (col == kPiOptions) {
      if (cursor->options) ResultText(ctx, *cursor->options);
    } else if (!cursor->eof) {
      PageIndexColumnValue(*cursor, col, ctx);
    }
    return SQLITE_OK;
  });
}

int PageIndexRowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  *rowid = reinterpret_cast<PageIndexCursor*>(base)->rowid;
  return SQLITE_OK;
}

// -------------------------------------------------------------------------------------------------
// parquet_bloom_probe: the probe value

// "column 'a.b' (INT32, DateType())": how conversion errors name the column.
std::string DescribeColumn(const SchemaNode& leaf) {
  std::string out = "column '" + leaf.DottedPath() + "' (" + PhysicalTypeName(leaf.physical_type);
  if (leaf.physical_type == PhysicalType::kFixedLenByteArray) {
    out += "(" + std::to_string(leaf.type_length) + ")";
  }
  if (std::optional<std::string> logical = LogicalTypeText(leaf.logical_type)) {
    out += ", " + *logical;
  }
  return out + ")";
}

using Hashes = std::vector<uint64_t>;

// The probe value as the engine takes it (bloom_literal.h, BloomProbeHashes): its storage class and
// bytes, what SQLite's numeric affinity makes of it (NumericAffinityOf, which leaves the argument as
// given) and how SQLite prints a number (from a copy, sqlite3_value_dup, for the same reason).
ProbeValue ToProbeValue(sqlite3_value* v) {
  ProbeValue p;
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER: p.type = CellType::kInteger; break;
    case SQLITE_FLOAT: p.type = CellType::kReal; break;
    case SQLITE_TEXT: p.type = CellType::kText; break;
    case SQLITE_BLOB: p.type = CellType::kBlob; break;
    default: p.type = CellType::kNull; break;
  }
  if (p.type == CellType::kText || p.type == CellType::kBlob) p.bytes = std::string(ValueBytes(v));
  const NumericValue number = NumericAffinityOf(v);
  if (number.type == SQLITE_INTEGER) p.number = SqlValue::Integer(number.i);
  if (number.type == SQLITE_FLOAT) p.number = SqlValue::Real(number.d);
  if (p.type == CellType::kInteger || p.type == CellType::kReal) {
    OwnedValue text = CopyValue(v);
    if (sqlite3_value_text(text.get()) == nullptr) throw std::bad_alloc();
    p.printed = std::string(ValueBytes(text.get()));
  }
  return p;
}

// The leaf named `column`: its dotted path exactly, else case-insensitively (ASCII) when that
// matches one leaf alone.
Result<int> FindLeaf(const FileReader& reader, std::string_view column) {
  const Schema& schema = reader.schema();
  auto lower = [](std::string s) {
    for (char& c : s) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return s;
  };
  const std::string wanted = lower(std::string(column));
  int found = -1;
  int matches = 0;
  for (int leaf = 0; leaf < schema.num_leaves(); ++leaf) {
    const std::string path = schema.leaf(leaf).DottedPath();
    if (path == column) return leaf;
    if (lower(path) == wanted) {
      found = leaf;
      ++matches;
    }
  }
  if (matches == 1) return found;
  return Status::InvalidArgument(reader.path() + " has " +
                                 (matches == 0 ? "no column '" : "several columns named '") +
                                 std::string(column) + "'");
}

// -------------------------------------------------------------------------------------------------
// parquet_bloom_probe: the Bloom filters

// Whether chunk (row_group, leaf)'s Bloom filter excludes every hash: true when none can be
// present, false when one may be, nullopt when the chunk has no filter this reader can use (none,
// one of an algorithm it does not know, or one over its size cap). Errors without context.
Result<std::optional<bool>> ProbeChunk(const FileReader& reader, int row_group, int leaf,
                                       const Hashes& hashes) {
  // An encrypted chunk's metadata and Bloom filter are under its key (the connection's keys):
  // without it, the error names the key id.
  PQ_ASSIGN_OR_RETURN(const ColumnMetaData* meta, reader.ColumnMeta(row_group, leaf));
  if (!meta || !meta->bloom_filter_offset) return std::optional<bool>();
  PQ_ASSIGN_OR_RETURN(std::optional<crypto::ColumnDecryptor> decryptor, reader.ChunkDecryptor(row_group, leaf));
  // No filter this reader can use (one it does not know or trust, or over the size cap) is no
  // filter, as the scan's pruning sees it too.
  PQ_ASSIGN_OR_RETURN(std::shared_ptr<const SplitBlockBloomFilter> filter,
                      ChunkIndexReader(reader, row_group, leaf, std::move(decryptor), nullptr).ReadBloomFilter(*meta));
  if (filter == nullptr) return std::optional<bool>();
  for (uint64_t hash : hashes) {
    if (filter->Check(hash)) return std::optional<bool>(false);
  }
  return std::optional<bool>(true);
}

struct BloomProbeCursor {
  sqlite3_vtab_cursor base;            // must come first
  std::shared_ptr<FileReader> reader;  // the file whose row groups are being returned; or null
  std::vector<std::string> files;      // the files `path` names (ExpandSource: globs, commas)
  size_t next_file = 0;                // the next of `files` to open
  std::string path;                    // the arguments, returned by the hidden columns ...
  std::string column;
  OwnedValue value;                    // ... (a copy of the value as given) ...
  std::optional<std::string> options;  // ... (none: not given, or NULL)
  ReaderOptions reader_options;        // what the files are opened with (the options, the keys)
  int leaf = -1;                       // the probed leaf column
  Hashes hashes;                       // what to probe for
  int row_group = 0;                   // current row = row group
  int num_row_groups = 0;              // rows of the current scan
  std::optional<bool> excludes;        // the current row's answer
};

// Computes the answer of the current row, if there is one.
Status LoadProbeRow(BloomProbeCursor* cursor) {
  if (cursor->row_group >= cursor->num_row_groups) return Status::OK();
  const FileReader& reader = *cursor->reader;
  auto excludes = ProbeChunk(reader, cursor->row_group, cursor->leaf, cursor->hashes);
  if (!excludes.ok()) {
    return std::move(excludes).TakeStatus().WithContext(
        ChunkContext(reader, cursor->row_group, reader.schema().leaf(cursor->leaf)));
  }
  cursor->excludes = *excludes;
  return Status::OK();
}

// Opens the next files until one has a row group, finds the column in it and the hashes of the
// value in the column's type (files may differ), and computes the first row; none left: eof.
Status OpenNextProbeFile(BloomProbeCursor* cursor) {
  cursor->row_group = 0;
  cursor->num_row_groups = 0;
  cursor->excludes.reset();
  while (cursor->num_row_groups == 0 && cursor->next_file < cursor->files.size()) {
    const std::string& path = cursor->files[cursor->next_file++];
    PQ_ASSIGN_OR_RETURN(cursor->reader, FileReader::Open(path, cursor->reader_options));
    auto leaf = FindLeaf(*cursor->reader, cursor->column);
    if (!leaf.ok()) return leaf.status().WithContext("parquet_bloom_probe");
    cursor->leaf = *leaf;
    const SchemaNode& node = cursor->reader->schema().leaf(cursor->leaf);
    auto hashes = BloomProbeHashes(node, ToProbeValue(cursor->value.get()));
    if (!hashes.ok()) {
      return Status::InvalidArgument("parquet_bloom_probe: " + path + ", " + DescribeColumn(node) +
                                     ": cannot probe for " + DescribeValue(cursor->value.get()) +
                                     ": " + hashes.status().message());
    }
    cursor->hashes = std::move(hashes).value();
    cursor->num_row_groups = cursor->reader->num_row_groups();
  }
  return LoadProbeRow(cursor);
}

int BloomProbeFilter(sqlite3_vtab_cursor* base, int idx_num, const char* idx_str, int argc,
                     sqlite3_value** argv) {
  auto* cursor = reinterpret_cast<BloomProbeCursor*>(base);
  sqlite3_vtab* vtab = base->pVtab;
  return Guarded(vtab, [&]() -> int {
    cursor->reader.reset();
    cursor->value.reset();
    cursor->path.clear();
    cursor->column.clear();
    cursor->hashes.clear();
    cursor->row_group = 0;
    cursor->num_row_groups = 0;
    cursor->excludes.reset();
    bool no_rows = false;
    int options = -1;
    Status args = CheckArguments(FunctionOf<IndexFunction>(vtab), idx_num, idx_str, argc, argv,
                                 &no_rows, &options);
    if (!args.ok()) return SetVtabError(vtab, args);
    cursor->path = *ArgumentText(argv[0]);
    cursor->column = *ArgumentText(argv[1]);
    args = CallOptions(vtab, argv, options, &cursor->options, &cursor->reader_options);
    if (!args.ok()) return SetVtabError(vtab, args);
    cursor->files.clear();
    cursor->next_file = 0;
    if (no_rows) return SQLITE_OK;
    cursor->value = CopyValue(argv[2]);
    auto files = ExpandSource(cursor->path);
    if (!files.ok()) return SetVtabError(vtab, files.status());
    cursor->files = std::move(files).value();
    return StatusToVtab(vtab, OpenNextProbeFile(cursor));
  });
}

int BloomProbeNext(sqlite3_vtab_cursor* base) {
  auto* cursor = reinterpret_cast<BloomProbeCursor*>(base);
  return Guarded(base->pVtab, [&]() -> int {
    ++cursor->row_group;
    cursor->excludes.reset();
    if (cursor->row_group >= cursor->num_row_groups) {
      return StatusToVtab(base->pVtab, OpenNextProbeFile(cursor));
    }
    return StatusToVtab(base->pVtab, LoadProbeRow(cursor));
  });
}

int BloomProbeEof(sqlite3_vtab_cursor* base) {
  const auto* cursor = reinterpret_cast<BloomProbeCursor*>(base);
  return cursor->row_group >= cursor->num_row_groups;
}

int BloomProbeColumn(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int col) {
  const auto* cursor = reinterpret_cast<BloomProbeCursor*>(base);
  return Guarded(base->pVtab, [&]() -> int {
    switch (col) {
      case kBpFileName:
        if (cursor->reader) ResultText(ctx, cursor->reader->path());
        break;
      case kBpRowGroupId:
        sqlite3_result_int64(ctx, cursor->row_group);
        break;
      case kBpExcludes:
        if (cursor->excludes) sqlite3_result_int(ctx, *cursor->excludes ? 1 : 0);
        break;
      case kBpPath:
        ResultText(ctx, cursor->path);
        break;
      case kBpColumnName:
        ResultText(ctx, cursor->column);
        break;
      case kBpValue:
        if (cursor->value) sqlite3_result_value(ctx, cursor->value.get());
        break;
      case kBpOptions:
        if (cursor->options) ResultText(ctx, *cursor->options);
        break;
      default:
        break;
    }
    return SQLITE_OK;
  });
}

int BloomProbeRowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  *rowid = reinterpret_cast<BloomProbeCursor*>(base)->row_group;
  return SQLITE_OK;
}

constexpr sqlite3_module kPageIndexModule = EponymousModule<IndexFunction, PageIndexCursor>(
    VtabBestIndex, PageIndexFilter, PageIndexNext, PageIndexEof, PageIndexColumn, PageIndexRowid);

constexpr sqlite3_module kBloomProbeModule = EponymousModule<IndexFunction, BloomProbeCursor>(
    VtabBestIndex, BloomProbeFilter, BloomProbeNext, BloomProbeEof, BloomProbeColumn,
    BloomProbeRowid);

}  // namespace

int RegisterIndexFunctions(sqlite3* db, std::shared_ptr<const crypto::KeyRegistry> keys,
                           std::shared_ptr<const remote::SettingsRegistry> remote) {
  int rc = CreateFunctionModule(db, &kPageIndexModule, kPageIndexFunction, keys, remote);
  if (rc != SQLITE_OK) return rc;
  return CreateFunctionModule(db, &kBloomProbeModule, kBloomProbeFunction, keys, remote);
}

}  // namespace pq::ext
