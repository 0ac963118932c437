// parquet_page_index and parquet_bloom_probe (index_functions.h): two eponymous-only virtual
// tables (eponymous_vtab.h) that share the best-index callback and differ in their cursors.
//
// Both produce rows lazily: the page-index cursor holds the index of one column chunk at a time,
// the Bloom-probe cursor reads one row group's filter when it reaches that row group, so a file
// with many row groups costs no more memory than its footer plus one index or filter.
#include "ext/index_functions.h"

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ext/eponymous_vtab.h"
#include "ext/export_types.h"
#include "ext/metadata_values.h"
#include "format/bloom/split_block_bloom_filter.h"
#include "format/crypto/aes_cipher.h"
#include "format/metadata/metadata_io.h"
#include "format/predicate/bloom_literal.h"
#include "format/predicate/encrypted_bloom_filter.h"
#include "format/reader/file_reader.h"
#include "format/value/temporal.h"

namespace pq::ext {

namespace {

__extension__ typedef __int128 Int128;

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

// The bytes of a structure stored at `offset` of `file`: `length` bytes when the footer gives the
// length, else everything up to `cap` bytes (fewer at the end of the file) for a parser that stops
// at the structure's end. Corruption when the range is not inside the file; NotSupported when
// `length` exceeds `cap`.
Result<BufferPtr> ReadStoredBytes(const RandomAccessFile& file, int64_t offset,
                                  std::optional<int64_t> length, int64_t cap, const char* what) {
  const int64_t size = file.size();
  if (offset < 0 || offset >= size) {
    return Status::Corruption(std::string(what) + " offset " + std::to_string(offset) +
                              " is outside the file (size " + std::to_string(size) + ")");
  }
  const int64_t available = size - offset;
  if (!length) return file.ReadAt(offset, std::min(available, cap));
  if (*length <= 0) {
    return Status::Corruption(std::string(what) + " length " + std::to_string(*length) +
                              " is not positive");
  }
  if (*length > available) {
    return Status::Corruption(std::string(what) + " of " + std::to_string(*length) +
                              " bytes at offset " + std::to_string(offset) +
                              " runs past the end of the file (size " + std::to_string(size) + ")");
  }
  if (*length > cap) {
    return Status::NotSupported(std::string(what) + " of " + std::to_string(*length) +
                                " bytes is over the limit of " + std::to_string(cap));
  }
  return file.ReadAt(offset, *length);
}

ByteSpan SpanOf(const BufferPtr& buffer) {
  return ByteSpan(buffer->data(), buffer->size());
}

// -------------------------------------------------------------------------------------------------
// The two functions and what they share

// One table-valued function: its visible columns come first in `declaration`, then its hidden
// argument columns [first_argument, first_argument + num_arguments).
struct IndexFunction {
  const char* name;
  const char* declaration;
  int first_argument;
  int num_arguments;
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
  kPiPath,  // hidden argument
};

constexpr IndexFunction kPageIndexFunction = {
    "parquet_page_index",
    "CREATE TABLE x(file_name TEXT, row_group_id INTEGER, column_id INTEGER, path_in_schema TEXT, "
    "page_number INTEGER, first_row_index INTEGER, row_count INTEGER, offset INTEGER, "
    "compressed_page_size INTEGER, null_page INTEGER, null_count INTEGER, min_value, max_value, "
    "boundary_order TEXT, path HIDDEN)",
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
};

constexpr IndexFunction kBloomProbeFunction = {
    "parquet_bloom_probe",
    "CREATE TABLE x(file_name TEXT, row_group_id INTEGER, bloom_filter_excludes INTEGER, "
    "path HIDDEN, column_name HIDDEN, value HIDDEN)",
    kBpPath,
    3,
    2,
    "(path, column, value)",
};

// xBestIndex of both functions: the plan is all or nothing, since the rows depend on every
// argument.
//   idxNum 1: argv[0..num_arguments) are the arguments in declaration order: for each hidden
//             argument column, its first usable `=` constraint (omitted: xFilter applies it). Then
//             argv[num_arguments..argc) are the values of the other usable `=` constraints on
//             argument columns (`path = 'a' AND path = 'b'`), not omitted: SQLite checks them
//             against the value xColumn returns for the column, the argument itself. idxStr has one
//             character per such extra value, '0' + the index of its argument, so that xFilter can
//             return no rows without opening any file when a path or column name differs.
//   idxNum 0: some argument has no usable `=` constraint: xFilter reports "<function> requires
//             arguments (...)".
// An `=` constraint on an argument column that is not usable (its value comes from a table not yet
// scanned) makes an incomplete plan SQLITE_CONSTRAINT, so that SQLite orders the join to make it
// usable.
int VtabBestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  const IndexFunction& function = FunctionOf<IndexFunction>(vtab);
  int chosen[3] = {-1, -1, -1};  // constraint index per argument
  bool unusable_argument = false;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    const int argument = c.iColumn - function.first_argument;
    if (argument < 0 || argument >= function.num_arguments || c.op != SQLITE_INDEX_CONSTRAINT_EQ) {
      continue;
    }
    if (!c.usable) {
      unusable_argument = true;
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
  for (int a = 0; a < function.num_arguments; ++a) {
    info->aConstraintUsage[chosen[a]].argvIndex = a + 1;
    info->aConstraintUsage[chosen[a]].omit = 1;
  }
  std::string extras;  // '0' + argument index of each extra value, in argv order
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    const int argument = c.iColumn - function.first_argument;
    if (argument < 0 || argument >= function.num_arguments || c.op != SQLITE_INDEX_CONSTRAINT_EQ ||
        !c.usable || i == chosen[argument]) {
      continue;
    }
    info->aConstraintUsage[i].argvIndex =
        function.num_arguments + static_cast<int>(extras.size()) + 1;
    extras.push_back(static_cast<char>('0' + argument));
  }
  if (!extras.empty()) {
    info->idxStr = sqlite3_mprintf("%s", extras.c_str());
    if (info->idxStr == nullptr) return SQLITE_NOMEM;
    info->needToFreeIdxStr = 1;
  }
  info->idxNum = 1;
  info->estimatedCost = 1000;
  info->estimatedRows = 1000;
  return SQLITE_OK;
}

// Checks the arguments xFilter received: InvalidArgument "requires arguments" when the plan has
// none or a name argument (path, column name) is NULL. Sets *no_rows when the value argument is
// NULL, or when an extra `=` value of a name argument (idxStr as xBestIndex describes it) is not
// the same as the argument: then no row can match and no file needs opening.
Status CheckArguments(const IndexFunction& function, int idx_num, const char* idx_str, int argc,
                      sqlite3_value** argv, bool* no_rows) {
  *no_rows = false;
  const int n = function.num_arguments;
  bool ok = idx_num == 1 && argc >= n;
  for (int i = 0; ok && i < function.num_name_arguments; ++i) {
    ok = sqlite3_value_type(argv[i]) != SQLITE_NULL;
  }
  if (!ok) {
    return Status::InvalidArgument(std::string(function.name) + " requires arguments " +
                                   function.arguments);
  }
  for (int i = function.num_name_arguments; i < n; ++i) {
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) *no_rows = true;
  }
  const std::string_view extras = idx_str ? idx_str : "";
  for (int i = n; i < argc && static_cast<size_t>(i - n) < extras.size(); ++i) {
    const int argument = extras[static_cast<size_t>(i - n)] - '0';
    if (argument < 0 || argument >= function.num_name_arguments) continue;  // left to SQLite
    if (sqlite3_value_type(argv[i]) != sqlite3_value_type(argv[argument]) ||
        ValueBytes(argv[i]) != ValueBytes(argv[argument])) {
      *no_rows = true;
    }
  }
  return Status::OK();
}

// The text of argument `v` (not NULL). Throws std::bad_alloc when SQLite cannot convert it.
std::string ArgumentText(sqlite3_value* v) {
  const unsigned char* text = sqlite3_value_text(v);
  if (text == nullptr) throw std::bad_alloc();
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_value_bytes(v)));
}

// -------------------------------------------------------------------------------------------------
// parquet_page_index

// The page index of one column chunk as read from the file.
struct ChunkPageIndex {
  std::optional<OffsetIndex> offsets;
  std::optional<ColumnIndex> columns;
  size_t num_pages = 0;  // entries of either structure (they agree when both exist)
};

// Reads and parses one page-index structure at `offset`: `length` bytes when the footer gives the
// length. Without one, the structure's end is unknown: parsing starts from 64 KiB and is retried
// with 16 times as many bytes while it fails and the file has more, up to `cap`.
// `parse(bytes, out)` parses (and decrypts) the structure from the start of `bytes`.
template <typename T, typename Parse>
Status ReadIndexStructure(const RandomAccessFile& file, int64_t offset,
                          const std::optional<int32_t>& length, int64_t cap, const char* what,
                          const Parse& parse, T* out) {
  if (length) {
    PQ_ASSIGN_OR_RETURN(BufferPtr bytes,
                        ReadStoredBytes(file, offset, int64_t{*length}, cap, what));
    Status s = parse(SpanOf(bytes), out);
    return s.ok() ? s : std::move(s).WithContext(what);
  }
  for (int64_t window = int64_t{64} << 10;; window *= 16) {
    PQ_ASSIGN_OR_RETURN(BufferPtr bytes,
                        ReadStoredBytes(file, offset, std::nullopt, std::min(window, cap), what));
    *out = T{};
    Status s = parse(SpanOf(bytes), out);
    const bool more = static_cast<int64_t>(bytes->size()) == window && window < cap;
    if (s.ok() || !more) return s.ok() ? s : std::move(s).WithContext(what);
  }
}

// Reads the OffsetIndex and ColumnIndex of chunk (row_group, leaf), those the footer points to.
// Errors without context (the caller adds file, row group and column).
Result<ChunkPageIndex> ReadChunkPageIndex(const FileReader& reader, int row_group, int leaf) {
  const ColumnChunk& chunk = reader.metadata().row_groups[row_group].columns[leaf];
  ChunkPageIndex index;
  // An encrypted column's index modules are encrypted under its key: without the key the chunk
  // has no readable index (no rows, as its statistics in parquet_metadata are NULL).
  auto decryptor = reader.ChunkDecryptor(row_group, leaf);
  if (!decryptor.ok()) return index;
  // Read without a stored length, the bytes run past a module: its length field says where it ends.
  const auto module_of = [](ByteSpan bytes) {
    auto size = crypto::ModuleSizeAt(bytes, "page index");
    return size.ok() && *size < bytes.size() ? bytes.first(*size) : bytes;
  };
  // A parsed index may take PageIndexMemoryLimit (64 MiB here): a list of empty strings is a byte
  // each in the file and dozens in memory.
  const int64_t max_memory = PageIndexMemoryLimit(reader.options());
  const auto parse_offsets = [&](ByteSpan bytes, OffsetIndex* out) {
    Status s = *decryptor ? (*decryptor)->ReadOffsetIndex(module_of(bytes), out, max_memory)
                          : ReadOffsetIndex(bytes, out, nullptr, max_memory);
    return OverMetadataLimit(std::move(s), reader.options());
  };
  const auto parse_columns = [&](ByteSpan bytes, ColumnIndex* out) {
    Status s = *decryptor ? (*decryptor)->ReadColumnIndex(module_of(bytes), out, max_memory)
                          : ReadColumnIndex(bytes, out, nullptr, max_memory);
    return OverMetadataLimit(std::move(s), reader.options());
  };
  const int64_t cap = reader.options().limits.max_footer_size;
  if (chunk.offset_index_offset) {
    OffsetIndex offsets;
    PQ_RETURN_IF_ERROR(ReadIndexStructure(reader.file(), *chunk.offset_index_offset,
                                          chunk.offset_index_length, cap, "OffsetIndex",
                                          parse_offsets, &offsets));
    index.num_pages = offsets.page_locations.size();
    index.offsets = std::move(offsets);
  }
  if (chunk.column_index_offset) {
    ColumnIndex columns;
    PQ_RETURN_IF_ERROR(ReadIndexStructure(reader.file(), *chunk.column_index_offset,
                                          chunk.column_index_length, cap, "ColumnIndex",
                                          parse_columns, &columns));
    const size_t n = columns.null_pages.size();
    if (columns.min_values.size() != n || columns.max_values.size() != n ||
        (columns.null_counts && columns.null_counts->size() != n)) {
      return Status::Corruption(
          "ColumnIndex lists differ in length: " + std::to_string(n) + " null_pages, " +
          std::to_string(columns.min_values.size()) + " min_values, " +
          std::to_string(columns.max_values.size()) + " max_values" +
          (columns.null_counts ? ", " + std::to_string(columns.null_counts->size()) + " null_counts"
                               : std::string()));
    }
    if (index.offsets && n != index.num_pages) {
      return Status::Corruption("the OffsetIndex has " + std::to_string(index.num_pages) +
                                " pages, the ColumnIndex " + std::to_string(n));
    }
    index.num_pages = n;
    index.columns = std::move(columns);
  }
  return index;
}

struct PageIndexCursor {
  sqlite3_vtab_cursor base;            // must come first
  std::shared_ptr<FileReader> reader;  // the file of the current xFilter; null when no rows
  std::string path;                    // the path argument, returned by the hidden column
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
    Status args =
        CheckArguments(FunctionOf<IndexFunction>(vtab), idx_num, idx_str, argc, argv, &no_rows);
    if (!args.ok()) return SetVtabError(vtab, args);
    cursor->path = ArgumentText(argv[0]);
    if (no_rows) return SQLITE_OK;
    auto reader = FileReader::Open(cursor->path, ReaderOptionsOf<IndexFunction>(vtab));
    if (!reader.ok()) return SetVtabError(vtab, reader.status());
    cursor->reader = std::move(reader).value();
    return StatusToVtab(vtab, LoadChunkFrom(cursor, 0, 0));
  });
}

int PageIndexNext(sqlite3_vtab_cursor* base) {
  auto* cursor = reinterpret_cast<PageIndexCursor*>(base);
  return Guarded(base->pVtab, [&]() -> int {
    ++cursor->rowid;
    if (++cursor->page < cursor->index.num_pages) return SQLITE_OK;
    return StatusToVtab(base->pVtab, LoadChunkFrom(cursor, cursor->row_group, cursor->leaf + 1));
  });
}

int PageIndexEof(sqlite3_vtab_cursor* base) {
  return reinterpret_cast<PageIndexCursor*>(base)->eof;
}

void PageIndexColumnValue(const PageIndexCursor& cursor, int col, sqlite3_context* ctx) {
  const FileReader& reader = *cursor.reader;
  const size_t page = cursor.page;
  const SchemaNode& leaf = reader.schema().leaf(cursor.leaf);
  const OffsetIndex* offsets = cursor.index.offsets ? &*cursor.index.offsets : nullptr;
  const ColumnIndex* columns = cursor.index.columns ? &*cursor.index.columns : nullptr;
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

// A number under SQLite's numeric affinity: an INTEGER or REAL value, or TEXT that spells one
// (sqlite3_value_numeric_type on a copy, so the argument itself is left as given).
struct Number {
  bool is_integer = false;
  int64_t i = 0;  // is_integer
  double d = 0;   // otherwise
};

std::optional<Number> NumericValue(sqlite3_value* v) {
  OwnedValue copy = CopyValue(v);
  int type = sqlite3_value_type(copy.get());
  if (type == SQLITE_TEXT) type = sqlite3_value_numeric_type(copy.get());
  if (type == SQLITE_INTEGER) return Number{true, sqlite3_value_int64(copy.get()), 0};
  if (type == SQLITE_FLOAT) return Number{false, 0, sqlite3_value_double(copy.get())};
  return std::nullopt;
}

constexpr double kTwoPow63 = 9223372036854775808.0;
constexpr double kTwoPow64 = 18446744073709551616.0;

// The integer a Number stands for: itself, or a REAL with no fraction in the int64 range.
std::optional<int64_t> IntegerOf(const Number& n) {
  if (n.is_integer) return n.i;
  if (std::isfinite(n.d) && n.d == std::trunc(n.d) && n.d >= -kTwoPow63 && n.d < kTwoPow63) {
    return static_cast<int64_t>(n.d);
  }
  return std::nullopt;
}

using Hashes = std::vector<uint64_t>;

// INT32 / INT64 columns that hold plain integers (of any annotation but DATE, TIME, TIMESTAMP,
// DECIMAL). Unsigned columns store the value's bits.
Result<Hashes> IntegerHashes(const SchemaNode& leaf, sqlite3_value* v) {
  const bool is_unsigned =
      leaf.logical_type.kind == LogicalType::Kind::kInteger && !leaf.logical_type.is_signed;
  const bool is_int32 = leaf.physical_type == PhysicalType::kInt32;
  std::optional<Number> number = NumericValue(v);
  if (!number) return Status::InvalidArgument("not an integer");
  if (is_unsigned && !is_int32 && !number->is_integer && number->d >= kTwoPow63 &&
      number->d < kTwoPow64 && number->d == std::trunc(number->d)) {
    // UINT64 above 2^63-1: the table shows these as REAL.
    return Hashes{BloomHash(static_cast<int64_t>(static_cast<uint64_t>(number->d)))};
  }
  std::optional<int64_t> i = IntegerOf(*number);
  if (!i) return Status::InvalidArgument("not an integer");
  const int64_t min = is_unsigned ? 0
                      : is_int32  ? std::numeric_limits<int32_t>::min()
                                  : std::numeric_limits<int64_t>::min();
  const int64_t max = !is_int32     ? std::numeric_limits<int64_t>::max()
                      : is_unsigned ? int64_t{std::numeric_limits<uint32_t>::max()}
                                    : int64_t{std::numeric_limits<int32_t>::max()};
  if (*i < min || *i > max) return Status::InvalidArgument("out of range");
  if (is_int32) return Hashes{BloomHash(static_cast<int32_t>(static_cast<uint32_t>(*i)))};
  return Hashes{BloomHash(*i)};
}

// An INT32 or INT64 column's stored value from an integer, range-checked.
Result<Hashes> StoredIntegerHashes(const SchemaNode& leaf, int64_t i) {
  if (leaf.physical_type == PhysicalType::kInt32) {
    if (i < std::numeric_limits<int32_t>::min() || i > std::numeric_limits<int32_t>::max()) {
      return Status::InvalidArgument("out of range");
    }
    return Hashes{BloomHash(static_cast<int32_t>(i))};
  }
  return Hashes{BloomHash(i)};
}

// DATE, TIME and TIMESTAMP columns: ISO text in the column's unit, or the stored integer.
Result<Hashes> TemporalHashes(const SchemaNode& leaf, sqlite3_value* v) {
  if (sqlite3_value_type(v) == SQLITE_TEXT) {
    const std::string_view text = ValueBytes(v);
    switch (leaf.logical_type.kind) {
      case LogicalType::Kind::kDate: {
        PQ_ASSIGN_OR_RETURN(int32_t days, ParseIsoDate(text));
        return StoredIntegerHashes(leaf, days);
      }
      case LogicalType::Kind::kTime: {
        PQ_ASSIGN_OR_RETURN(int64_t units, ParseIsoTime(text, leaf.logical_type.unit));
        return StoredIntegerHashes(leaf, units);
      }
      default: {
        PQ_ASSIGN_OR_RETURN(int64_t units, ParseIsoTimestamp(text, leaf.logical_type.unit));
        return StoredIntegerHashes(leaf, units);
      }
    }
  }
  std::optional<Number> number = NumericValue(v);
  std::optional<int64_t> i = number ? IntegerOf(*number) : std::nullopt;
  if (!i) return Status::InvalidArgument("not ISO text or an integer");
  return StoredIntegerHashes(leaf, *i);
}

// Decimal text ([spaces][+-]digits[.digits][(e|E)[+-]digits][spaces], or with no digit before the
// point) to the unscaled integer at `scale`: the digits times 10^(exponent + scale - fraction
// digits). Dropping a digit that is not zero, or a result beyond 38 digits, is an error.
Result<Int128> ParseUnscaledDecimal(std::string_view text, int32_t scale) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  std::string digits;  // the mantissa's digits, leading zeros dropped
  int64_t fraction_digits = 0;
  bool any_digit = false;
  bool seen_point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && !seen_point) {
      seen_point = true;
    } else if (c >= '0' && c <= '9') {
      any_digit = true;
      if (seen_point) ++fraction_digits;
      if (!digits.empty() || c != '0') {
        if (digits.size() > 1000) return Status::InvalidArgument("too many digits");
        digits.push_back(c);
      }
    } else {
      break;
    }
  }
  if (!any_digit) return Status::InvalidArgument("not a decimal number");
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
      exponent_negative = text[i++] == '-';
    }
    const size_t start = i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      if (exponent > 100000) return Status::InvalidArgument("exponent out of range");
      exponent = exponent * 10 + (text[i] - '0');
    }
    if (i == start) return Status::InvalidArgument("not a decimal number");
    if (exponent_negative) exponent = -exponent;
  }
  if (i != text.size()) return Status::InvalidArgument("not a decimal number");
  if (digits.empty()) return Int128{0};
  // Fraction digits in the mantissa count, so `digits` stand for digits * 10^-fraction_digits.
  int64_t shift = exponent + int64_t{scale} - fraction_digits;
  if (shift < 0) {
    const size_t dropped = static_cast<size_t>(std::min<int64_t>(-shift, int64_t(digits.size())));
    if (digits.find_first_not_of('0', digits.size() - dropped) != std::string::npos) {
      return Status::InvalidArgument("has more fraction digits than the scale " +
                                     std::to_string(scale));
    }
    digits.resize(digits.size() - dropped);
    if (digits.empty()) return Int128{0};
    shift = 0;
  }
  if (static_cast<int64_t>(digits.size()) + shift > 38) {
    return Status::InvalidArgument("has more than 38 digits at the scale " + std::to_string(scale));
  }
  Int128 unscaled = 0;
  for (char c : digits) unscaled = unscaled * 10 + (c - '0');
  for (int64_t k = 0; k < shift; ++k) unscaled *= 10;
  return negative ? -unscaled : unscaled;
}

// `value` as big-endian two's complement in `width` bytes; false when it does not fit.
bool BigEndianBytes(Int128 value, size_t width, std::string* out) {
  out->assign(width, value < 0 ? '\xff' : '\0');  // the sign fills what is not written below
  Int128 rest = value;
  for (size_t k = 0; k < std::min<size_t>(width, 16); ++k) {
    (*out)[width - 1 - k] = static_cast<char>(static_cast<uint8_t>(rest & 0xff));
    rest >>= 8;  // arithmetic (C++20): the sign comes in
  }
  if (width >= 16) return true;  // all of the value's 16 bytes are written
  // It fits when nothing but the sign is left and the top byte written carries that sign.
  const bool top_negative = (static_cast<uint8_t>((*out)[0]) & 0x80) != 0;
  return rest == (value < 0 ? -1 : 0) && top_negative == (value < 0);
}

// DECIMAL columns: the unscaled integer in the physical type's PLAIN bytes.
Result<Hashes> DecimalHashes(const SchemaNode& leaf, sqlite3_value* v) {
  std::string text;
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
      text = std::to_string(sqlite3_value_int64(v));
      break;
    case SQLITE_FLOAT: {
      // The shortest text that reads back as the double: what SQLite would print.
      char buf[64];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, sqlite3_value_double(v));
      if (ec != std::errc()) return Status::InvalidArgument("not a decimal number");
      text.assign(buf, end);
      break;
    }
    default:
      text = std::string(ValueBytes(v));
      break;
  }
  PQ_ASSIGN_OR_RETURN(Int128 unscaled, ParseUnscaledDecimal(text, leaf.logical_type.decimal_scale));
  switch (leaf.physical_type) {
    case PhysicalType::kInt32:
      if (unscaled < std::numeric_limits<int32_t>::min() ||
          unscaled > std::numeric_limits<int32_t>::max()) {
        return Status::InvalidArgument("out of range");
      }
      return Hashes{BloomHash(static_cast<int32_t>(unscaled))};
    case PhysicalType::kInt64:
      if (unscaled < std::numeric_limits<int64_t>::min() ||
          unscaled > std::numeric_limits<int64_t>::max()) {
        return Status::InvalidArgument("out of range");
      }
      return Hashes{BloomHash(static_cast<int64_t>(unscaled))};
    case PhysicalType::kFixedLenByteArray: {
      // The schema's width is untrusted; decimals need at most 16 bytes, writers use up to 32.
      if (leaf.type_length > 1024) return Status::NotSupported("FIXED_LEN_BYTE_ARRAY too wide");
      std::string bytes;
      if (!BigEndianBytes(unscaled, static_cast<size_t>(leaf.type_length), &bytes)) {
        return Status::InvalidArgument("out of range");
      }
      return Hashes{BloomHash(AsBytes(bytes))};
    }
    default: {  // BYTE_ARRAY: the fewest bytes that hold the value
      std::string bytes;
      size_t width = 1;
      while (!BigEndianBytes(unscaled, width, &bytes)) ++width;
      return Hashes{BloomHash(AsBytes(bytes))};
    }
  }
}

// FLOAT and DOUBLE columns. A zero probes both signs: -0.0 == 0.0 in SQL, but they hash
// differently.
Result<Hashes> FloatingHashes(const SchemaNode& leaf, sqlite3_value* v) {
  std::optional<Number> number = NumericValue(v);
  if (!number) return Status::InvalidArgument("not a number");
  if (leaf.physical_type == PhysicalType::kFloat) {
    float f = 0;
    if (number->is_integer) {
      f = static_cast<float>(number->i);
    } else {
      if (std::isfinite(number->d) && std::fabs(number->d) > FLT_MAX) {
        return Status::InvalidArgument("out of range for FLOAT");
      }
      f = static_cast<float>(number->d);
    }
    if (f == 0) return Hashes{BloomHash(0.0f), BloomHash(-0.0f)};
    return Hashes{BloomHash(f)};
  }
  const double d = number->is_integer ? static_cast<double>(number->i) : number->d;
  if (d == 0) return Hashes{BloomHash(0.0), BloomHash(-0.0)};
  return Hashes{BloomHash(d)};
}

// 8-4-4-4-12 hex digits to 16 bytes.
std::optional<std::string> ParseUuid(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  std::string out;
  int high = -1;
  for (size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    if (k == 8 || k == 13 || k == 18 || k == 23) {
      if (c != '-') return std::nullopt;
      continue;
    }
    int nibble = c >= '0' && c <= '9'   ? c - '0'
                 : c >= 'a' && c <= 'f' ? c - 'a' + 10
                 : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                        : -1;
    if (nibble < 0) return std::nullopt;
    if (high < 0) {
      high = nibble;
    } else {
      out.push_back(static_cast<char>(high * 16 + nibble));
      high = -1;
    }
  }
  return out;
}

// The width of a fixed-width physical type's PLAIN encoding; 0 for BYTE_ARRAY and BOOLEAN.
size_t FixedWidth(const SchemaNode& leaf) {
  switch (leaf.physical_type) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      return 8;
    case PhysicalType::kInt96:
      return 12;
    case PhysicalType::kFixedLenByteArray:
      return static_cast<size_t>(leaf.type_length);
    default:
      return 0;
  }
}

// The hashes to probe for `v` (not NULL) in a Bloom filter of `leaf` (the Parquet spec, "Bloom
// Filter": XXH64 of the PLAIN encoding), by the rules of index_functions.h. InvalidArgument saying
// why the value does not fit, without the column (the caller names it).
Result<Hashes> ProbeHashes(const SchemaNode& leaf, sqlite3_value* v) {
  const int type = sqlite3_value_type(v);
  const LogicalType::Kind kind = leaf.logical_type.kind;
  if (leaf.physical_type == PhysicalType::kBoolean) {
    return Status::InvalidArgument("the format defines no Bloom filter for BOOLEAN columns");
  }
  if (type == SQLITE_BLOB) {
    // The PLAIN bytes themselves.
    const std::string_view bytes = ValueBytes(v);
    const size_t width = FixedWidth(leaf);
    if (width != 0 && bytes.size() != width) {
      return Status::InvalidArgument("a BLOB must have the type's " + std::to_string(width) +
                                     " bytes");
    }
    return Hashes{BloomHash(AsBytes(bytes))};
  }
  if (kind == LogicalType::Kind::kDecimal) return DecimalHashes(leaf, v);
  switch (leaf.physical_type) {
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
      if (kind == LogicalType::Kind::kDate || kind == LogicalType::Kind::kTime ||
          kind == LogicalType::Kind::kTimestamp) {
        return TemporalHashes(leaf, v);
      }
      return IntegerHashes(leaf, v);
    case PhysicalType::kInt96: {
      if (type != SQLITE_TEXT) return Status::InvalidArgument("not a timestamp text");
      PQ_ASSIGN_OR_RETURN(int64_t nanos, ParseIsoTimestamp(ValueBytes(v), TimeUnit::kNanos));
      return Hashes{BloomHash(EpochNanosToInt96(nanos))};
    }
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      return FloatingHashes(leaf, v);
    case PhysicalType::kByteArray: {
      const bool is_text = kind == LogicalType::Kind::kString || kind == LogicalType::Kind::kEnum ||
                           kind == LogicalType::Kind::kJson;
      if (type != SQLITE_TEXT && !is_text) {
        return Status::InvalidArgument("a binary column takes TEXT or a BLOB");
      }
      // TEXT as is; a number as SQLite prints it (the text of a copy: the argument stays as given).
      OwnedValue copy = CopyValue(v);
      if (sqlite3_value_text(copy.get()) == nullptr) throw std::bad_alloc();
      return Hashes{BloomHash(AsBytes(ValueBytes(copy.get())))};
    }
    case PhysicalType::kFixedLenByteArray: {
      if (type != SQLITE_TEXT) return Status::InvalidArgument("not TEXT or a BLOB");
      const std::string_view text = ValueBytes(v);
      if (kind == LogicalType::Kind::kUuid) {
        std::optional<std::string> uuid = ParseUuid(text);
        if (!uuid) return Status::InvalidArgument("not a UUID (8-4-4-4-12 hex digits)");
        return Hashes{BloomHash(AsBytes(*uuid))};
      }
      if (text.size() != static_cast<size_t>(leaf.type_length)) {
        return Status::InvalidArgument("TEXT must have the type's " +
                                       std::to_string(leaf.type_length) + " bytes");
      }
      return Hashes{BloomHash(AsBytes(text))};
    }
    default:
      return Status::NotSupported("unsupported physical type");
  }
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

// Reads the Bloom filter at meta.bloom_filter_offset: bloom_filter_length bytes when the footer
// gives that length, else the header first, then the bitset size it states. Nothing is allocated
// for a size the file cannot hold. Errors without context.
Result<SplitBlockBloomFilter> ReadChunkBloomFilter(const RandomAccessFile& file,
                                                   const ColumnMetaData& meta) {
  const int64_t offset = *meta.bloom_filter_offset;
  // A BloomFilterHeader is a few bytes; this leaves room for fields this reader does not know.
  constexpr int64_t kHeaderCap = 4096;
  if (meta.bloom_filter_length) {
    PQ_ASSIGN_OR_RETURN(
        BufferPtr bytes,
        ReadStoredBytes(file, offset, int64_t{*meta.bloom_filter_length},
                        kHeaderCap + SplitBlockBloomFilter::kMaxBytes, "Bloom filter"));
    return SplitBlockBloomFilter::Read(SpanOf(bytes));
  }
  PQ_ASSIGN_OR_RETURN(BufferPtr head,
                      ReadStoredBytes(file, offset, std::nullopt, kHeaderCap, "Bloom filter"));
  BloomFilterHeader header;
  size_t header_size = 0;
  PQ_RETURN_IF_ERROR(ReadBloomFilterHeader(SpanOf(head), &header, &header_size));
  const int64_t bitset_offset = offset + static_cast<int64_t>(header_size);
  const int64_t available = file.size() - bitset_offset;
  if (header.num_bytes <= 0 || header.num_bytes > SplitBlockBloomFilter::kMaxBytes ||
      header.num_bytes > available) {
    // FromHeader reports what is wrong with the size (with no bitset, "runs past" the bytes).
    return SplitBlockBloomFilter::FromHeader(header, ByteSpan());
  }
  PQ_ASSIGN_OR_RETURN(BufferPtr bitset, file.ReadAt(bitset_offset, header.num_bytes));
  return SplitBlockBloomFilter::FromHeader(header, SpanOf(bitset));
}

// Whether chunk (row_group, leaf)'s Bloom filter excludes every hash: true when none can be
// present, false when one may be, nullopt when the chunk has no filter this reader can use (none,
// one of an algorithm it does not know, or one over its size cap). Errors without context.
Result<std::optional<bool>> ProbeChunk(const FileReader& reader, int row_group, int leaf,
                                       const Hashes& hashes) {
  const ColumnChunk& chunk = reader.metadata().row_groups[row_group].columns[leaf];
  // An encrypted chunk's metadata and Bloom filter are under its key (the connection's keys):
  // without it, the error names the key id.
  PQ_ASSIGN_OR_RETURN(const ColumnMetaData* meta, reader.ColumnMeta(row_group, leaf));
  if (!meta || !meta->bloom_filter_offset) return std::optional<bool>();
  if (!BloomFiltersUsable(reader.metadata().created_by)) return std::optional<bool>();
  std::optional<SplitBlockBloomFilter> filter;
  if (chunk.crypto_metadata) {
    PQ_ASSIGN_OR_RETURN(std::optional<crypto::ColumnDecryptor> decryptor,
                        reader.ChunkDecryptor(row_group, leaf));
    int64_t bytes_read = 0;
    if (decryptor) {
      auto read = ReadEncryptedBloomFilter(reader.file(), *meta, *decryptor, &bytes_read);
      // As for a plaintext filter below: only a failed read or authentication is an error.
      if (!read.ok() && read.status().code() != StatusCode::kIOError &&
          read.status().code() != StatusCode::kCrypto) {
        return std::optional<bool>();
      }
      PQ_ASSIGN_OR_RETURN(filter, std::move(read));
    }
    if (!filter) return std::optional<bool>();  // larger than this reader takes: not used
  } else {
    auto plain = ReadChunkBloomFilter(reader.file(), *meta);
    // A filter of an algorithm, hash or compression this reader does not know, or one that is out
    // of the file, does not parse or has a size it cannot have, is one the scan does not use
    // either: no filter, as far as anyone here can tell (@dsnp/parquetjs leaves the header's unions
    // empty). A failed read stays an error.
    if (!plain.ok() && plain.status().code() != StatusCode::kIOError) return std::optional<bool>();
    if (!plain.ok()) return std::move(plain).TakeStatus().WithContext("Bloom filter");
    filter = std::move(plain).value();
  }
  for (uint64_t hash : hashes) {
    if (filter->Check(hash)) return std::optional<bool>(false);
  }
  return std::optional<bool>(true);
}

struct BloomProbeCursor {
  sqlite3_vtab_cursor base;            // must come first
  std::shared_ptr<FileReader> reader;  // the file of the current xFilter; null when no rows
  std::string path;                    // the arguments, returned by the hidden columns ...
  std::string column;
  OwnedValue value;              // ... (a copy of the value as given)
  int leaf = -1;                 // the probed leaf column
  Hashes hashes;                 // what to probe for
  int row_group = 0;             // current row = row group
  int num_row_groups = 0;        // rows of the current scan
  std::optional<bool> excludes;  // the current row's answer
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
    Status args =
        CheckArguments(FunctionOf<IndexFunction>(vtab), idx_num, idx_str, argc, argv, &no_rows);
    if (!args.ok()) return SetVtabError(vtab, args);
    cursor->path = ArgumentText(argv[0]);
    cursor->column = ArgumentText(argv[1]);
    if (no_rows) return SQLITE_OK;
    cursor->value = CopyValue(argv[2]);
    auto reader = FileReader::Open(cursor->path, ReaderOptionsOf<IndexFunction>(vtab));
    if (!reader.ok()) return SetVtabError(vtab, reader.status());
    cursor->reader = std::move(reader).value();
    auto leaf = FindLeaf(*cursor->reader, cursor->column);
    if (!leaf.ok()) return SetVtabError(vtab, leaf.status().WithContext("parquet_bloom_probe"));
    cursor->leaf = *leaf;
    const SchemaNode& node = cursor->reader->schema().leaf(cursor->leaf);
    auto hashes = ProbeHashes(node, cursor->value.get());
    if (!hashes.ok()) {
      return SetVtabError(vtab,
                          Status::InvalidArgument("parquet_bloom_probe: " + cursor->path + ", " +
                                                  DescribeColumn(node) + ": cannot probe for " +
                                                  DescribeValue(cursor->value.get()) + ": " +
                                                  hashes.status().message()));
    }
    cursor->hashes = std::move(hashes).value();
    cursor->num_row_groups = cursor->reader->num_row_groups();
    return StatusToVtab(vtab, LoadProbeRow(cursor));
  });
}

int BloomProbeNext(sqlite3_vtab_cursor* base) {
  auto* cursor = reinterpret_cast<BloomProbeCursor*>(base);
  return Guarded(base->pVtab, [&]() -> int {
    ++cursor->row_group;
    cursor->excludes.reset();
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

int RegisterIndexFunctions(sqlite3* db, std::shared_ptr<const crypto::KeyRegistry> keys) {
  int rc = CreateFunctionModule(db, &kPageIndexModule, kPageIndexFunction, keys);
  if (rc != SQLITE_OK) return rc;
  return CreateFunctionModule(db, &kBloomProbeModule, kBloomProbeFunction, keys);
}

}  // namespace pq::ext
