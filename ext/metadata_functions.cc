// The file-inspection table-valued functions (metadata_functions.h): one eponymous-only virtual
// table module, instantiated four times with a MetadataFunction that says what the rows and columns
// are.
//
// A cursor opens the file in xFilter and keeps the FileReader; xColumn computes each value from the
// parsed footer when SQLite asks for it, so a file with many row groups and columns costs no more
// memory than its footer.
#include "ext/metadata_functions.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ext/dataset.h"
#include "ext/eponymous_vtab.h"
#include "ext/metadata_values.h"
#include "format/crypto/file_decryptor.h"
#include "format/file/file_reader.h"

namespace pq::ext {

namespace {

// -------------------------------------------------------------------------------------------------
// What the row functions see

// One opened file.
struct OpenFile {
  std::shared_ptr<FileReader> reader;
  // The schema tree node of each SchemaElement, by element index (null for an element outside the
  // tree, which Schema::Make does not produce today but costs nothing to allow).
  std::vector<const SchemaNode*> node_of_element;
};

// One table-valued function. `declaration` lists the visible columns in the order of the function's
// column enum, then the hidden argument columns `path`, whose index is `path_column`, and `options`
// (optional: the decryption options of the call, ParseFunctionOptions), at path_column + 1.
struct MetadataFunction {
  const char* name;
  const char* declaration;
  int path_column;
  int64_t (*row_count)(const OpenFile& file);
  // Sets the result of visible column `col` of row `row` (0 <= row < row_count). May throw
  // std::bad_alloc (the caller is guarded).
  void (*column)(const OpenFile& file, int64_t row, int col, sqlite3_context* ctx);
};

// -------------------------------------------------------------------------------------------------
// Results

// eponymous_vtab.h has the setters of plain text, blobs and Cells; those here add NULL for an
// absent value.
using ext::ResultText;

template <typename Int>
void ResultInt(sqlite3_context* ctx, const std::optional<Int>& v) {
  if (v) sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(*v));  // else NULL, the default
}

void ResultInt(sqlite3_context* ctx, int64_t v) {
  sqlite3_result_int64(ctx, v);
}

void ResultBool(sqlite3_context* ctx, const std::optional<bool>& v) {
  if (v) sqlite3_result_int(ctx, *v ? 1 : 0);
}

void ResultText(sqlite3_context* ctx, const std::optional<std::string>& text) {
  if (text) ResultText(ctx, std::string_view(*text));
}

// Free-form bytes (key/value metadata, key metadata): TEXT when valid UTF-8, else BLOB.
void ResultBytes(sqlite3_context* ctx, std::string_view bytes) {
  if (IsValidUtf8(bytes)) {
    ResultText(ctx, bytes);
  } else {
    ResultBlob(ctx, bytes);
  }
}

void ResultStatistic(sqlite3_context* ctx, const SchemaNode& leaf,
                     const std::optional<std::string>& bytes) {
  if (!bytes) return;
  std::string scratch;
  ResultCell(ctx, StatisticValue(leaf, *bytes, &scratch));
}

std::string JoinDotted(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out.push_back('.');
    out.append(parts[i]);
  }
  return out;
}

// -------------------------------------------------------------------------------------------------
// parquet_metadata: one row per column chunk

enum ChunkColumn : int {
  kMdFileName,
  kMdRowGroupId,
  kMdRowGroupNumRows,
  kMdRowGroupNumColumns,
  kMdRowGroupBytes,
  kMdColumnId,
  kMdFileOffset,
  kMdNumValues,
  kMdPathInSchema,
  kMdType,
  kMdStatsMin,
  kMdStatsMax,
  kMdStatsNullCount,
  kMdStatsDistinctCount,
  kMdStatsMinValue,
  kMdStatsMaxValue,
  kMdCompression,
  kMdEncodings,
  kMdIndexPageOffset,
  kMdDictionaryPageOffset,
  kMdDataPageOffset,
  kMdTotalCompressedSize,
  kMdTotalUncompressedSize,
  kMdKeyValueMetadata,
  kMdBloomFilterOffset,
  kMdBloomFilterLength,
  kMdMinIsExact,
  kMdMaxIsExact,
  kMdRowGroupCompressedBytes,
  kMdGeoBbox,
  kMdGeoTypes,
  kMdLogicalType,
  kMdColumnIndexOffset,
  kMdColumnIndexLength,
  kMdOffsetIndexOffset,
  kMdOffsetIndexLength,
  kMdHasBloomFilter,
  kMdHasPageIndex,
  kMdNanCount,
  kMdEncodingStats,
  kMdPath,     // hidden argument
  kMdOptions,  // hidden argument (optional)
};

constexpr char kChunkDeclaration[] =
    "CREATE TABLE x(file_name TEXT, row_group_id INTEGER, row_group_num_rows INTEGER, "
    "row_group_num_columns INTEGER, row_group_bytes INTEGER, column_id INTEGER, file_offset "
    "INTEGER, "
    "num_values INTEGER, path_in_schema TEXT, type TEXT, stats_min, stats_max, "
    "stats_null_count INTEGER, stats_distinct_count INTEGER, stats_min_value, stats_max_value, "
    "compression TEXT, encodings TEXT, index_page_offset INTEGER, dictionary_page_offset INTEGER, "
    "data_page_offset INTEGER, total_compressed_size INTEGER, total_uncompressed_size INTEGER, "
    "key_value_metadata TEXT, bloom_filter_offset INTEGER, bloom_filter_length INTEGER, "
    "min_is_exact INTEGER, max_is_exact INTEGER, row_group_compressed_bytes INTEGER, geo_bbox "
    "TEXT, "
    "geo_types TEXT, logical_type TEXT, column_index_offset INTEGER, column_index_length INTEGER, "
    "offset_index_offset INTEGER, offset_index_length INTEGER, has_bloom_filter INTEGER, "
    "has_page_index INTEGER, nan_count INTEGER, encoding_stats TEXT, path HIDDEN, options HIDDEN)";

int64_t ChunkRowCount(const OpenFile& file) {
  return int64_t{file.reader->num_row_groups()} * file.reader->schema().num_leaves();
}

void ChunkColumnValue(const OpenFile& file, int64_t row, int col, sqlite3_context* ctx) {
  const FileReader& reader = *file.reader;
  // FileReader::Open checked that every row group has one chunk per leaf, so row_count > 0 implies
  // num_leaves > 0 and (row group, leaf) is in range.
  const int num_leaves = reader.schema().num_leaves();
  const int rg = static_cast<int>(row / num_leaves);
  const int leaf = static_cast<int>(row % num_leaves);
  const RowGroup& group = reader.metadata().row_groups[rg];
  const ColumnChunk& chunk = group.columns[leaf];
  const SchemaNode& node = reader.schema().leaf(leaf);
  // Absent when the chunk's metadata is encrypted with a column key: those columns read as NULL.
  const ColumnMetaData* meta = chunk.meta_data ? &*chunk.meta_data : nullptr;
  const Statistics* stats = meta && meta->statistics ? &*meta->statistics : nullptr;
  const GeospatialStatistics* geo =
      meta && meta->geospatial_statistics ? &*meta->geospatial_statistics : nullptr;

  switch (col) {
    case kMdFileName:
      ResultText(ctx, std::string_view(reader.path()));
      break;
    case kMdRowGroupId:
      ResultInt(ctx, rg);
      break;
    case kMdRowGroupNumRows:
      ResultInt(ctx, group.num_rows);
      break;
    case kMdRowGroupNumColumns:
      ResultInt(ctx, static_cast<int64_t>(group.columns.size()));
      break;
    case kMdRowGroupBytes:
      ResultInt(ctx, group.total_byte_size);
      break;
    case kMdColumnId:
      ResultInt(ctx, leaf);
      break;
    case kMdFileOffset:
      ResultInt(ctx, chunk.file_offset);
      break;
    case kMdNumValues:
      if (meta) ResultInt(ctx, meta->num_values);
      break;
    case kMdPathInSchema:
      ResultText(ctx,
                 std::string_view(meta ? JoinDotted(meta->path_in_schema) : node.DottedPath()));
      break;
    case kMdType:
      ResultText(ctx, std::string_view(PhysicalTypeName(meta ? meta->type : node.physical_type)));
      break;
    case kMdStatsMin:
      if (stats) ResultStatistic(ctx, node, stats->min);
      break;
    case kMdStatsMax:
      if (stats) ResultStatistic(ctx, node, stats->max);
      break;
    case kMdStatsNullCount:
      if (stats) ResultInt(ctx, stats->null_count);
      break;
    case kMdStatsDistinctCount:
      if (stats) ResultInt(ctx, stats->distinct_count);
      break;
    case kMdStatsMinValue:
      if (stats) ResultStatistic(ctx, node, stats->min_value);
      break;
    case kMdStatsMaxValue:
      if (stats) ResultStatistic(ctx, node, stats->max_value);
      break;
    case kMdCompression:
      if (meta) ResultText(ctx, std::string_view(CompressionCodecName(meta->codec)));
      break;
    case kMdEncodings:
      if (meta) ResultText(ctx, std::string_view(EncodingsText(meta->encodings)));
      break;
    case kMdIndexPageOffset:
      if (meta) ResultInt(ctx, meta->index_page_offset);
      break;
    case kMdDictionaryPageOffset:
      if (meta) ResultInt(ctx, meta->dictionary_page_offset);
      break;
    case kMdDataPageOffset:
      if (meta) ResultInt(ctx, meta->data_page_offset);
      break;
    case kMdTotalCompressedSize:
      if (meta) ResultInt(ctx, meta->total_compressed_size);
      break;
    case kMdTotalUncompressedSize:
      if (meta) ResultInt(ctx, meta->total_uncompressed_size);
      break;
    case kMdKeyValueMetadata:
      if (meta) ResultText(ctx, KeyValueJson(meta->key_value_metadata));
      break;
    case kMdBloomFilterOffset:
      if (meta) ResultInt(ctx, meta->bloom_filter_offset);
      break;
    case kMdBloomFilterLength:
      if (meta) ResultInt(ctx, meta->bloom_filter_length);
      break;
    case kMdMinIsExact:
      if (stats) ResultBool(ctx, stats->is_min_value_exact);
      break;
    case kMdMaxIsExact:
      if (stats) ResultBool(ctx, stats->is_max_value_exact);
      break;
    case kMdRowGroupCompressedBytes:
      ResultInt(ctx, group.total_compressed_size);
      break;
    case kMdGeoBbox:
      if (geo && geo->bbox) ResultText(ctx, std::string_view(BoundingBoxJson(*geo->bbox)));
      break;
    case kMdGeoTypes:
      if (geo) ResultText(ctx, std::string_view(GeospatialTypesJson(geo->geospatial_types)));
      break;
    case kMdLogicalType:
      ResultText(ctx, LogicalTypeText(node.logical_type));
      break;
    case kMdColumnIndexOffset:
      ResultInt(ctx, chunk.column_index_offset);
      break;
    case kMdColumnIndexLength:
      ResultInt(ctx, chunk.column_index_length);
      break;
    case kMdOffsetIndexOffset:
      ResultInt(ctx, chunk.offset_index_offset);
      break;
    case kMdOffsetIndexLength:
      ResultInt(ctx, chunk.offset_index_length);
      break;
    case kMdHasBloomFilter:
      ResultInt(ctx, meta && meta->bloom_filter_offset.has_value() ? 1 : 0);
      break;
    case kMdHasPageIndex:
      ResultInt(ctx, chunk.column_index_offset || chunk.offset_index_offset ? 1 : 0);
      break;
    case kMdNanCount:
      if (stats) ResultInt(ctx, stats->nan_count);
      break;
    case kMdEncodingStats:
      if (meta && meta->encoding_stats) {
        ResultText(ctx, std::string_view(EncodingStatsJson(*meta->encoding_stats)));
      }
      break;
    default:
      break;
  }
}

// -------------------------------------------------------------------------------------------------
// parquet_schema: one row per schema element

enum SchemaColumn : int {
  kScFileName,
  kScName,
  kScType,
  kScTypeLength,
  kScRepetitionType,
  kScNumChildren,
  kScConvertedType,
  kScScale,
  kScPrecision,
  kScFieldId,
  kScLogicalType,
  kScColumnId,
  kScMaxDefinitionLevel,
  kScMaxRepetitionLevel,
  kScPathInSchema,
  kScPath,     // hidden argument
  kScOptions,  // hidden argument (optional)
};

constexpr char kSchemaDeclaration[] =
    "CREATE TABLE x(file_name TEXT, name TEXT, type TEXT, type_length INTEGER, "
    "repetition_type TEXT, num_children INTEGER, converted_type TEXT, scale INTEGER, "
    "precision INTEGER, field_id INTEGER, logical_type TEXT, column_id INTEGER, "
    "max_definition_level INTEGER, max_repetition_level INTEGER, path_in_schema TEXT, "
    "path HIDDEN, options HIDDEN)";

int64_t SchemaRowCount(const OpenFile& file) {
  return static_cast<int64_t>(file.reader->metadata().schema.size());
}

void SchemaColumnValue(const OpenFile& file, int64_t row, int col, sqlite3_context* ctx) {
  const SchemaElement& e = file.reader->metadata().schema[static_cast<size_t>(row)];
  const SchemaNode* node = file.node_of_element[static_cast<size_t>(row)];
  switch (col) {
    case kScFileName:
      ResultText(ctx, std::string_view(file.reader->path()));
      break;
    case kScName:
      ResultText(ctx, std::string_view(e.name));
      break;
    case kScType:
      if (e.type) ResultText(ctx, std::string_view(PhysicalTypeName(*e.type)));
      break;
    case kScTypeLength:
      ResultInt(ctx, e.type_length);
      break;
    case kScRepetitionType:
      if (e.repetition_type) ResultText(ctx, std::string_view(RepetitionName(*e.repetition_type)));
      break;
    case kScNumChildren:
      ResultInt(ctx, e.num_children);
      break;
    case kScConvertedType:
      if (e.converted_type) ResultText(ctx, std::string_view(ConvertedTypeName(*e.converted_type)));
      break;
    case kScScale:
      ResultInt(ctx, e.scale);
      break;
    case kScPrecision:
      ResultInt(ctx, e.precision);
      break;
    case kScFieldId:
      ResultInt(ctx, e.field_id);
      break;
    case kScLogicalType:
      if (e.logical_type) ResultText(ctx, LogicalTypeText(*e.logical_type));
      break;
    case kScColumnId:
      ResultInt(ctx, row);
      break;
    case kScMaxDefinitionLevel:
      if (node) ResultInt(ctx, int64_t{node->max_definition_level});
      break;
    case kScMaxRepetitionLevel:
      if (node) ResultInt(ctx, int64_t{node->max_repetition_level});
      break;
    case kScPathInSchema:
      if (node && !node->is_root()) ResultText(ctx, std::string_view(node->DottedPath()));
      break;
    default:
      break;
  }
}

// -------------------------------------------------------------------------------------------------
// parquet_file_metadata: one row

enum FileColumn : int {
  kFmFileName,
  kFmCreatedBy,
  kFmNumRows,
  kFmNumRowGroups,
  kFmFormatVersion,
  kFmEncryptionAlgorithm,
  kFmFooterSigningKeyMetadata,
  kFmFileSizeBytes,
  kFmFooterSize,
  kFmColumnOrders,
  kFmPath,     // hidden argument
  kFmOptions,  // hidden argument (optional)
};

constexpr char kFileDeclaration[] =
    "CREATE TABLE x(file_name TEXT, created_by TEXT, num_rows INTEGER, num_row_groups INTEGER, "
    "format_version INTEGER, encryption_algorithm TEXT, footer_signing_key_metadata, "
    "file_size_bytes INTEGER, footer_size INTEGER, column_orders TEXT, path HIDDEN, "
    "options HIDDEN)";

int64_t FileRowCount(const OpenFile&) {
  return 1;
}

void FileColumnValue(const OpenFile& file, int64_t, int col, sqlite3_context* ctx) {
  const FileReader& reader = *file.reader;
  const FileMetaData& md = reader.metadata();
  switch (col) {
    case kFmFileName:
      ResultText(ctx, std::string_view(reader.path()));
      break;
    case kFmCreatedBy:
      ResultText(ctx, md.created_by);
      break;
    case kFmNumRows:
      ResultInt(ctx, md.num_rows);
      break;
    case kFmNumRowGroups:
      ResultInt(ctx, int64_t{reader.num_row_groups()});
      break;
    case kFmFormatVersion:
      ResultInt(ctx, int64_t{md.version});
      break;
    case kFmEncryptionAlgorithm:
      // An encrypted footer's algorithm is in its FileCryptoMetaData, which the decryptor read.
      if (md.encryption_algorithm) {
        ResultText(ctx, EncryptionAlgorithmName(*md.encryption_algorithm));
      } else if (const crypto::FileDecryptor* decryptor = reader.decryptor()) {
        EncryptionAlgorithm algorithm;
        algorithm.kind = decryptor->algorithm();
        ResultText(ctx, EncryptionAlgorithmName(algorithm));
      }
      break;
    case kFmFooterSigningKeyMetadata:
      if (md.footer_signing_key_metadata) {
        ResultBytes(ctx, *md.footer_signing_key_metadata);
      } else if (const crypto::FileDecryptor* decryptor = reader.decryptor();
                 decryptor != nullptr && decryptor->footer_key_metadata()) {
        ResultBytes(ctx, *decryptor->footer_key_metadata());
      }
      break;
    case kFmFileSizeBytes:
      ResultInt(ctx, reader.file().size());
      break;
    case kFmFooterSize:
      ResultInt(ctx, reader.footer_length());
      break;
    case kFmColumnOrders:
      if (md.column_orders) ResultText(ctx, std::string_view(ColumnOrdersJson(*md.column_orders)));
      break;
    default:
      break;
  }
}

// -------------------------------------------------------------------------------------------------
// parquet_kv_metadata: one row per key/value pair of the footer

enum KvColumn : int {
  kKvFileName,
  kKvKey,
  kKvValue,
  kKvPath,     // hidden argument
  kKvOptions,  // hidden argument (optional)
};

constexpr char kKvDeclaration[] =
    "CREATE TABLE x(file_name TEXT, key, value, path HIDDEN, options HIDDEN)";

int64_t KvRowCount(const OpenFile& file) {
  return static_cast<int64_t>(file.reader->metadata().key_value_metadata.size());
}

void KvColumnValue(const OpenFile& file, int64_t row, int col, sqlite3_context* ctx) {
  const KeyValue& kv = file.reader->metadata().key_value_metadata[static_cast<size_t>(row)];
  switch (col) {
    case kKvFileName:
      ResultText(ctx, std::string_view(file.reader->path()));
      break;
    case kKvKey:
      ResultBytes(ctx, kv.key);
      break;
    case kKvValue:
      if (kv.value) ResultBytes(ctx, *kv.value);
      break;
    default:
      break;
  }
}

constexpr MetadataFunction kFunctions[] = {
    {"parquet_metadata", kChunkDeclaration, kMdPath, ChunkRowCount, ChunkColumnValue},
    {"parquet_schema", kSchemaDeclaration, kScPath, SchemaRowCount, SchemaColumnValue},
    {"parquet_file_metadata", kFileDeclaration, kFmPath, FileRowCount, FileColumnValue},
    {"parquet_kv_metadata", kKvDeclaration, kKvPath, KvRowCount, KvColumnValue},
};

// -------------------------------------------------------------------------------------------------
// The virtual table module

struct MetadataCursor {
  sqlite3_vtab_cursor base;            // must come first
  std::string path;                    // the path argument, returned by the hidden column
  std::optional<std::string> options;  // the options argument (none: not given, or NULL)
  ReaderOptions reader_options;        // what the files are opened with (the options, the keys)
  std::vector<std::string> files;      // the files it names (ExpandSource: globs, comma lists)
  size_t next_file = 0;                // the next of `files` to open
  OpenFile file;                       // the file whose rows are being returned (null: none yet)
  int64_t row = 0;                     // current row of `file`
  int64_t num_rows = 0;                // rows of `file`
};

// xBestIndex: the path is required, the options are not.
//   idxNum 0: no usable constraint on `path`: xFilter reports "<function> requires a file path
//             argument".
//   idxNum 1 + m: argv[0..argc - m) are the values of every usable `path = ?` constraint (the
//             function's path argument is one of them), argv[argc - m..argc) those of every usable
//             `options = ?` constraint (m of them; the options argument is one, when given). The
//             rows are those of that file, opened with those options, when all the paths are equal
//             and so are all the options; none otherwise.
// A `path = ?` or `options = ?` constraint that is not usable (its value comes from a table not
// yet scanned), with none of the same column usable, makes this plan SQLITE_CONSTRAINT, so that
// SQLite orders the join to make it usable (a file opened without its options could not be read).
int VtabBestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  const int path_column = FunctionOf<MetadataFunction>(vtab).path_column;
  const int options_column = path_column + 1;
  int num_paths = 0;
  int num_options = 0;
  bool unusable_path = false;
  bool unusable_options = false;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn != path_column || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (!c.usable) {
      unusable_path = true;
      continue;
    }
    info->aConstraintUsage[i].argvIndex = ++num_paths;
    info->aConstraintUsage[i].omit = 1;
  }
  if (num_paths > 0) {
    for (int i = 0; i < info->nConstraint; ++i) {
      const auto& c = info->aConstraint[i];
      if (c.iColumn != options_column || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
      if (!c.usable) {
        unusable_options = true;
        continue;
      }
      info->aConstraintUsage[i].argvIndex = num_paths + ++num_options;
      info->aConstraintUsage[i].omit = 1;
    }
    if (num_options == 0 && unusable_options) return SQLITE_CONSTRAINT;
    info->idxNum = 1 + num_options;
    info->estimatedCost = 1000;
    info->estimatedRows = 1000;
    return SQLITE_OK;
  }
  if (unusable_path) return SQLITE_CONSTRAINT;
  info->idxNum = 0;
  info->estimatedCost = 1e12;
  info->estimatedRows = 1000;
  return SQLITE_OK;
}

// The tree node of every schema element, found by walking the tree from the root.
std::vector<const SchemaNode*> NodesByElement(const FileReader& reader) {
  std::vector<const SchemaNode*> nodes(reader.metadata().schema.size(), nullptr);
  std::vector<const SchemaNode*> pending = {&reader.schema().root()};
  while (!pending.empty()) {
    const SchemaNode* node = pending.back();
    pending.pop_back();
    if (node->element_index >= 0 && static_cast<size_t>(node->element_index) < nodes.size()) {
      nodes[static_cast<size_t>(node->element_index)] = node;
    }
    pending.insert(pending.end(), node->children.begin(), node->children.end());
  }
  return nodes;
}

// Opens the cursor's next file that has rows, if any (the rows of a file follow those of the one
// before it). The error of a file that cannot be read names it.
Status OpenNextFileWithRows(MetadataCursor* cursor, sqlite3_vtab* vtab) {
  const MetadataFunction& function = FunctionOf<MetadataFunction>(vtab);
  cursor->file = OpenFile{};
  cursor->row = 0;
  cursor->num_rows = 0;
  while (cursor->num_rows == 0 && cursor->next_file < cursor->files.size()) {
    const std::string& path = cursor->files[cursor->next_file++];
    PQ_ASSIGN_OR_RETURN(cursor->file.reader, FileReader::Open(path, cursor->reader_options));
    cursor->file.node_of_element = NodesByElement(*cursor->file.reader);
    cursor->num_rows = function.row_count(cursor->file);
  }
  return Status::OK();
}

int VtabFilter(sqlite3_vtab_cursor* base, int idx_num, const char*, int argc,
               sqlite3_value** argv) {
  auto* cursor = reinterpret_cast<MetadataCursor*>(base);
  sqlite3_vtab* vtab = base->pVtab;
  return Guarded(vtab, [&]() -> int {
    const MetadataFunction& function = FunctionOf<MetadataFunction>(vtab);
    cursor->file = OpenFile{};
    cursor->path.clear();
    cursor->options.reset();
    cursor->reader_options = ReaderOptions{};
    cursor->files.clear();
    cursor->next_file = 0;
    cursor->row = 0;
    cursor->num_rows = 0;
    const int num_options = idx_num - 1;
    const int num_paths = argc - num_options;
    if (idx_num < 1 || num_paths < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) {
      return SetVtabError(vtab, Status::InvalidArgument(std::string(function.name) +
                                                        " requires a file path argument"));
    }
    cursor->path = *ArgumentText(argv[0]);
    if (num_options > 0) cursor->options = ArgumentText(argv[num_paths]);
    // The options are read before anything else may end the call: malformed ones are an error even
    // when no row can match.
    Result<ReaderOptions> reader_options = CallReaderOptions<MetadataFunction>(vtab, cursor->options);
    if (!reader_options.ok()) return SetVtabError(vtab, reader_options.status());
    cursor->reader_options = std::move(reader_options).value();
    // `path = 'a' AND path = 'b'` (or two different options): no row can match, and no file is
    // opened.
    for (int i = 1; i < argc; ++i) {
      const bool is_path = i < num_paths;
      if (i == num_paths) continue;  // the options themselves
      const std::optional<std::string> other = ArgumentText(argv[i]);
      if (other != (is_path ? std::optional<std::string>(cursor->path) : cursor->options)) {
        return SQLITE_OK;
      }
    }
    Result<std::vector<std::string>> files = ExpandSource(cursor->path);
    if (!files.ok()) return SetVtabError(vtab, files.status());
    cursor->files = std::move(files).value();
    return SetVtabError(vtab, OpenNextFileWithRows(cursor, vtab));
  });
}

int VtabNext(sqlite3_vtab_cursor* base) {
  auto* cursor = reinterpret_cast<MetadataCursor*>(base);
  return Guarded(base->pVtab, [&]() -> int {
    if (++cursor->row < cursor->num_rows) return SQLITE_OK;
    return SetVtabError(base->pVtab, OpenNextFileWithRows(cursor, base->pVtab));
  });
}

int VtabEof(sqlite3_vtab_cursor* base) {
  const auto* cursor = reinterpret_cast<MetadataCursor*>(base);
  return cursor->row >= cursor->num_rows;
}

int VtabColumn(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int col) {
  auto* cursor = reinterpret_cast<MetadataCursor*>(base);
  return Guarded(base->pVtab, [&]() -> int {
    const MetadataFunction& function = FunctionOf<MetadataFunction>(base->pVtab);
    if (col == function.path_column) {
      ResultText(ctx, std::string_view(cursor->path));
    } else if (col == function.path_column + 1) {
      if (cursor->options) ResultText(ctx, std::string_view(*cursor->options));
    } else if (col >= 0 && col < function.path_column) {
      function.column(cursor->file, cursor->row, col, ctx);
    }
    return SQLITE_OK;
  });
}

int VtabRowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  *rowid = reinterpret_cast<MetadataCursor*>(base)->row;
  return SQLITE_OK;
}

constexpr sqlite3_module kModule = EponymousModule<MetadataFunction, MetadataCursor>(
    VtabBestIndex, VtabFilter, VtabNext, VtabEof, VtabColumn, VtabRowid);

}  // namespace

int RegisterMetadataFunctions(sqlite3* db, std::shared_ptr<const crypto::KeyRegistry> keys,
                              std::shared_ptr<const remote::SettingsRegistry> remote) {
  for (const MetadataFunction& function : kFunctions) {
    int rc = CreateFunctionModule(db, &kModule, function, keys, remote);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

}  // namespace pq::ext
