// Hostile Parquet files, built here from their parts: a generator for the tests that check that no
// file can make the reader allocate, loop or answer without bound (issue "Hostile files").
//
// Two kinds of files come out of it:
//   - named cases (HostileCases): each a small file whose structures claim far more than their
//     bytes hold (a footer of millions of three-byte column chunks, a page of 2^28 levels in one
//     RLE run, one list of 2^28 elements, a dictionary of millions of entries, Variant objects
//     naming one long key again and again, a page index of millions of pages, thousands of columns
//     of one name, a row group claiming 2^62 rows), or whose structures contradict each other (an
//     OffsetIndex that leaves out a page, two dictionary pages), with the SQL to run on it and what
//     must come back;
//   - mutants (MutateFile): a valid file whose footer or page headers are parsed, changed in one
//     structure-aware way chosen from a seed (a count made huge, a list element repeated, an offset
//     moved, a page header's sizes swapped...), and encoded again through the project's Thrift
//     writer (format/metadata/metadata_io.h), so the result always parses as far as the change.
//
// Files are written with FileBuilder: a schema, row groups of column chunks given as their pages
// (headers and stored bytes as they are to appear), optional page indexes and Bloom filters, and
// edit hooks that may change anything before it is encoded. Nothing here checks that a file is
// valid: that is the point.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "format/codec/codec.h"
#include "format/metadata/metadata.h"
#include "format/metadata/metadata_io.h"
#include "format/thrift/compact_writer.h"

namespace pq::hostile {

// ---- Bytes ---------------------------------------------------------------------------------------

inline void PutUleb(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

inline void PutLE(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// One RLE run of the hybrid encoding: `count` copies of `value` at `bit_width` bits.
inline std::string RleRun(uint64_t count, uint32_t value, int bit_width) {
  std::string out;
  PutUleb(&out, count << 1);
  PutLE(&out, value, (bit_width + 7) / 8);
  return out;
}

// Data page v1 levels: the runs behind their 4-byte length.
inline std::string V1Levels(const std::string& runs) {
  std::string out;
  PutLE(&out, runs.size(), 4);
  return out + runs;
}

// RLE_DICTIONARY values: the bit width byte, then the runs.
inline std::string DictionaryIndices(int bit_width, const std::string& runs) {
  return std::string(1, static_cast<char>(bit_width)) + runs;
}

inline std::string PlainInt64(const std::vector<int64_t>& values) {
  std::string out;
  for (int64_t v : values) PutLE(&out, static_cast<uint64_t>(v), 8);
  return out;
}

inline std::string PlainByteArrays(const std::vector<std::string>& values) {
  std::string out;
  for (const std::string& v : values) {
    PutLE(&out, v.size(), 4);
    out += v;
  }
  return out;
}

inline std::string Compressed(CompressionCodec codec, const std::string& plain) {
  if (codec == CompressionCodec::kUncompressed) return plain;
  std::vector<uint8_t> out;
  Status s = Compress(codec, ByteSpan(reinterpret_cast<const uint8_t*>(plain.data()), plain.size()),
                      kDefaultCompressionLevel, &out);
  if (!s.ok()) return std::string();
  return std::string(out.begin(), out.end());
}

// ---- Schema --------------------------------------------------------------------------------------

inline SchemaElement Root(int children) {
  SchemaElement e;
  e.name = "schema";
  e.num_children = children;
  return e;
}

inline SchemaElement Leaf(std::string name, PhysicalType type, Repetition repetition) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = repetition;
  return e;
}

inline SchemaElement Group(std::string name, Repetition repetition, int children) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = repetition;
  e.num_children = children;
  return e;
}

// `name` (LIST) { repeated group list { <element> } }: three elements, the element last.
inline std::vector<SchemaElement> ListOf(std::string name, SchemaElement element) {
  SchemaElement list = Group(std::move(name), Repetition::kOptional, 1);
  list.converted_type = ConvertedType::kList;
  list.logical_type.emplace();
  list.logical_type->kind = LogicalType::Kind::kList;
  element.name = "element";
  return {list, Group("list", Repetition::kRepeated, 1), element};
}

// ---- Pages, chunks, files ------------------------------------------------------------------------

// One page as it is to appear: its header (sizes are filled in by the helpers below, and left as
// given by the builder) and its stored bytes.
struct PageSpec {
  PageHeader header;
  std::string stored;
};

// A data page v1 of `num_values` level entries whose stored bytes are `stored` (compressed with
// `codec` from `plain` when given).
inline PageSpec DataPage(int32_t num_values, Encoding encoding, const std::string& plain,
                         CompressionCodec codec = CompressionCodec::kUncompressed) {
  PageSpec p;
  p.header.type = PageType::kDataPage;
  p.header.data_page_header.emplace();
  p.header.data_page_header->num_values = num_values;
  p.header.data_page_header->encoding = encoding;
  p.stored = Compressed(codec, plain);
  p.header.uncompressed_page_size = static_cast<int32_t>(plain.size());
  p.header.compressed_page_size = static_cast<int32_t>(p.stored.size());
  return p;
}

inline PageSpec DictionaryPage(int32_t num_values, const std::string& plain,
                               CompressionCodec codec = CompressionCodec::kUncompressed) {
  PageSpec p;
  p.header.type = PageType::kDictionaryPage;
  p.header.dictionary_page_header.emplace();
  p.header.dictionary_page_header->num_values = num_values;
  p.header.dictionary_page_header->encoding = Encoding::kPlain;
  p.stored = Compressed(codec, plain);
  p.header.uncompressed_page_size = static_cast<int32_t>(plain.size());
  p.header.compressed_page_size = static_cast<int32_t>(p.stored.size());
  return p;
}

struct ChunkSpec {
  PhysicalType type = PhysicalType::kInt64;
  std::vector<std::string> path;
  CompressionCodec codec = CompressionCodec::kUncompressed;
  std::vector<PageSpec> pages;
  // An OffsetIndex of the data pages, entry i starting at row first_rows[i] (edit_offset_index may
  // then change it), and a ColumnIndex as given, both stored after the row groups.
  std::vector<int64_t> first_rows;
  std::function<void(OffsetIndex*)> edit_offset_index;
  std::optional<ColumnIndex> column_index;
  std::string column_index_bytes;  // stored as they are, instead of column_index, when not empty
  std::string bloom_filter;        // stored as they are after the row groups, when not empty
  std::function<void(ColumnMetaData*)> edit_meta;
};

struct GroupSpec {
  int64_t num_rows = 0;
  std::vector<ChunkSpec> chunks;
};

struct FileSpec {
  std::vector<SchemaElement> schema;
  std::vector<GroupSpec> groups;
  std::string created_by = "hostile generator";
  std::function<void(FileMetaData*)> edit;
  std::function<void(std::string*)> edit_footer_bytes;  // the encoded footer
};

inline void AppendFooter(const std::string& footer, std::string* file) {
  *file += footer;
  PutLE(file, footer.size(), 4);
  *file += "PAR1";
}

// The file: pages in order, then the page indexes and Bloom filters, then the footer. Each chunk's
// metadata is worked out from its pages (offsets, sizes, encodings, value count), then edited.
inline std::string BuildFile(const FileSpec& spec) {
  std::string file = "PAR1";
  FileMetaData md;
  md.version = 1;
  md.schema = spec.schema;
  md.created_by = spec.created_by;
  struct Pending {
    size_t group, chunk;
    std::vector<PageLocation> locations;
  };
  std::vector<Pending> indexed;
  for (size_t g = 0; g < spec.groups.size(); ++g) {
    const GroupSpec& gs = spec.groups[g];
    RowGroup rg;
    rg.num_rows = gs.num_rows;
    // Wrapping on purpose: hostile files claim counts whose sum passes 2^63 - 1.
    md.num_rows = static_cast<int64_t>(static_cast<uint64_t>(md.num_rows) + static_cast<uint64_t>(gs.num_rows));
    for (size_t c = 0; c < gs.chunks.size(); ++c) {
      const ChunkSpec& cs = gs.chunks[c];
      ColumnMetaData meta;
      meta.type = cs.type;
      meta.path_in_schema = cs.path;
      meta.codec = cs.codec;
      const int64_t begin = static_cast<int64_t>(file.size());
      Pending pending{g, c, {}};
      bool have_data_page = false;
      size_t data_page = 0;
      for (const PageSpec& p : cs.pages) {
        const int64_t at = static_cast<int64_t>(file.size());
        std::string header;
        WritePageHeader(p.header, &header);
        file += header;
        file += p.stored;
        if (p.header.type == PageType::kDictionaryPage) {
          if (!meta.dictionary_page_offset) meta.dictionary_page_offset = at;
          if (p.header.dictionary_page_header) {
            meta.encodings.push_back(p.header.dictionary_page_header->encoding);
          }
          continue;
        }
        if (!have_data_page) meta.data_page_offset = at;
        have_data_page = true;
        Encoding e = Encoding::kPlain;
        if (p.header.data_page_header) {
          meta.num_values += p.header.data_page_header->num_values;
          e = p.header.data_page_header->encoding;
        } else if (p.header.data_page_header_v2) {
          meta.num_values += p.header.data_page_header_v2->num_values;
          e = p.header.data_page_header_v2->encoding;
        }
        meta.encodings.push_back(e);
        if (data_page < cs.first_rows.size()) {
          PageLocation loc;
          loc.offset = at;
          loc.compressed_page_size = static_cast<int32_t>(file.size() - static_cast<size_t>(at));
          loc.first_row_index = cs.first_rows[data_page];
          pending.locations.push_back(loc);
        }
        ++data_page;
      }
      meta.encodings.push_back(Encoding::kRle);
      meta.total_compressed_size = static_cast<int64_t>(file.size()) - begin;
      meta.total_uncompressed_size = meta.total_compressed_size;
      ColumnChunk chunk;
      chunk.file_offset = begin;
      chunk.meta_data = meta;
      rg.columns.push_back(std::move(chunk));
      rg.total_byte_size += meta.total_uncompressed_size;
      if (!cs.first_rows.empty()) indexed.push_back(std::move(pending));
    }
    md.row_groups.push_back(std::move(rg));
  }
  // Page indexes and Bloom filters after every row group, as writers put them.
  for (const Pending& p : indexed) {
    const ChunkSpec& cs = spec.groups[p.group].chunks[p.chunk];
    ColumnChunk& chunk = md.row_groups[p.group].columns[p.chunk];
    OffsetIndex oi;
    oi.page_locations = p.locations;
    if (cs.edit_offset_index) cs.edit_offset_index(&oi);
    std::string bytes;
    WriteOffsetIndex(oi, &bytes);
    chunk.offset_index_offset = static_cast<int64_t>(file.size());
    chunk.offset_index_length = static_cast<int32_t>(bytes.size());
    file += bytes;
  }
  for (size_t g = 0; g < spec.groups.size(); ++g) {
    for (size_t c = 0; c < spec.groups[g].chunks.size(); ++c) {
      const ChunkSpec& cs = spec.groups[g].chunks[c];
      ColumnChunk& chunk = md.row_groups[g].columns[c];
      std::string bytes = cs.column_index_bytes;
      if (bytes.empty() && cs.column_index) WriteColumnIndex(*cs.column_index, &bytes);
      if (!bytes.empty()) {
        chunk.column_index_offset = static_cast<int64_t>(file.size());
        chunk.column_index_length = static_cast<int32_t>(bytes.size());
        file += bytes;
      }
      if (!cs.bloom_filter.empty()) {
        chunk.meta_data->bloom_filter_offset = static_cast<int64_t>(file.size());
        chunk.meta_data->bloom_filter_length = static_cast<int32_t>(cs.bloom_filter.size());
        file += cs.bloom_filter;
      }
      if (cs.edit_meta) cs.edit_meta(&*chunk.meta_data);
    }
  }
  if (spec.edit) spec.edit(&md);
  std::string footer;
  WriteFileMetaData(md, &footer);
  if (spec.edit_footer_bytes) spec.edit_footer_bytes(&footer);
  AppendFooter(footer, &file);
  return file;
}

// ---- Footers written element by element ---------------------------------------------------------
// For footers of millions of elements, which FileMetaData would take gigabytes to hold: the bytes
// are written straight through the Thrift compact writer.

using thrift::CompactType;
using thrift::CompactWriter;

// The schema of one required INT64 column `x`, as FileMetaData field 2.
inline void WriteOneColumnSchema(CompactWriter& w) {
  w.WriteFieldHeader(CompactType::kList, 2);
  w.WriteListHeader(CompactType::kStruct, 2);
  w.BeginStruct();  // root
  w.WriteFieldHeader(CompactType::kBinary, 4);
  w.WriteBinary("schema");
  w.WriteFieldHeader(CompactType::kI32, 5);
  w.WriteI32(1);
  w.EndStruct();
  w.BeginStruct();  // x
  w.WriteFieldHeader(CompactType::kI32, 1);
  w.WriteI32(static_cast<int32_t>(PhysicalType::kInt64));
  w.WriteFieldHeader(CompactType::kI32, 3);
  w.WriteI32(static_cast<int32_t>(Repetition::kRequired));
  w.WriteFieldHeader(CompactType::kBinary, 4);
  w.WriteBinary("x");
  w.EndStruct();
}

// A file of no data whose footer is what `body` writes between the version and the stop byte.
inline std::string FileWithFooter(const std::function<void(CompactWriter&)>& body) {
  std::string footer;
  CompactWriter w(&footer);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kI32, 1);
  w.WriteI32(1);
  body(w);
  w.EndStruct();
  std::string file = "PAR1";
  AppendFooter(footer, &file);
  return file;
}

// One row group of `n` column chunks of three bytes each ({file_offset: 0}).
inline std::string FooterOfColumnChunks(uint32_t n) {
  return FileWithFooter([n](CompactWriter& w) {
    WriteOneColumnSchema(w);
    w.WriteFieldHeader(CompactType::kI64, 3);
    w.WriteI64(0);
    w.WriteFieldHeader(CompactType::kList, 4);
    w.WriteListHeader(CompactType::kStruct, 1);
    w.BeginStruct();
    w.WriteFieldHeader(CompactType::kList, 1);
    w.WriteListHeader(CompactType::kStruct, n);
    for (uint32_t i = 0; i < n; ++i) {
      w.BeginStruct();
      w.WriteFieldHeader(CompactType::kI64, 2);
      w.WriteI64(0);
      w.EndStruct();
    }
    w.WriteFieldHeader(CompactType::kI64, 2);
    w.WriteI64(0);
    w.WriteFieldHeader(CompactType::kI64, 3);
    w.WriteI64(0);
    w.EndStruct();
  });
}

// `n` row groups of no columns and no rows (seven bytes each).
inline std::string FooterOfRowGroups(uint32_t n) {
  return FileWithFooter([n](CompactWriter& w) {
    WriteOneColumnSchema(w);
    w.WriteFieldHeader(CompactType::kI64, 3);
    w.WriteI64(0);
    w.WriteFieldHeader(CompactType::kList, 4);
    w.WriteListHeader(CompactType::kStruct, n);
    for (uint32_t i = 0; i < n; ++i) {
      w.BeginStruct();
      w.WriteFieldHeader(CompactType::kList, 1);
      w.WriteListHeader(CompactType::kStruct, 0);
      w.WriteFieldHeader(CompactType::kI64, 2);
      w.WriteI64(0);
      w.WriteFieldHeader(CompactType::kI64, 3);
      w.WriteI64(0);
      w.EndStruct();
    }
  });
}

// `n` key/value pairs of an empty key (three bytes each), and no row group.
inline std::string FooterOfKeyValues(uint32_t n) {
  return FileWithFooter([n](CompactWriter& w) {
    WriteOneColumnSchema(w);
    w.WriteFieldHeader(CompactType::kI64, 3);
    w.WriteI64(0);
    w.WriteFieldHeader(CompactType::kList, 4);
    w.WriteListHeader(CompactType::kStruct, 0);
    w.WriteFieldHeader(CompactType::kList, 5);
    w.WriteListHeader(CompactType::kStruct, n);
    for (uint32_t i = 0; i < n; ++i) {
      w.BeginStruct();
      w.WriteFieldHeader(CompactType::kBinary, 1);
      w.WriteBinary("");
      w.EndStruct();
    }
  });
}

// A ColumnIndex of `n` pages, each a null page with empty bounds (three bytes a page).
inline std::string ColumnIndexOfPages(uint32_t n) {
  std::string out;
  CompactWriter w(&out);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kList, 1);
  w.WriteListHeader(CompactType::kBoolTrue, n);
  for (uint32_t i = 0; i < n; ++i) w.WriteBoolElement(true);
  for (int16_t field : {2, 3}) {
    w.WriteFieldHeader(CompactType::kList, field);
    w.WriteListHeader(CompactType::kBinary, n);
    for (uint32_t i = 0; i < n; ++i) w.WriteBinary("");
  }
  w.WriteFieldHeader(CompactType::kI32, 4);
  w.WriteI32(0);
  w.EndStruct();
  return out;
}


// A Bloom filter of `num_bytes` whose bits are all set: it rules no value out.
inline std::string BloomFilterOfOnes(int32_t num_bytes) {
  BloomFilterHeader h;  // BLOCK, XXHASH, UNCOMPRESSED
  h.num_bytes = num_bytes;
  std::string out;
  WriteBloomFilterHeader(h, &out);
  return out + std::string(static_cast<size_t>(num_bytes), '\xff');
}

// ---- Variant values -------------------------------------------------------------------------------

// Variant metadata (version 1, 4-byte offsets) of one dictionary key.
inline std::string VariantMetadataOfKey(const std::string& key) {
  std::string out(1, static_cast<char>(0x01 | (3 << 6)));
  PutLE(&out, 1, 4);  // dictionary size
  PutLE(&out, 0, 4);
  PutLE(&out, key.size(), 4);
  return out + key;
}

// A Variant array of `n` objects {key 0: null}, with 4-byte offsets.
inline std::string VariantArrayOfObjects(uint32_t n) {
  std::string object;
  object.push_back(static_cast<char>(2));  // object, 1-byte ids and offsets, not large
  object.push_back(1);                     // one field
  object.push_back(0);                     // field id 0
  object.push_back(0);                     // offsets 0, 1
  object.push_back(1);
  object.push_back(0);                     // the value: primitive null
  std::string out(1, static_cast<char>(((3 | (1 << 2)) << 2) | 3));  // array, 4-byte offsets, large
  PutLE(&out, n, 4);
  for (uint32_t i = 0; i <= n; ++i) PutLE(&out, uint64_t{i} * object.size(), 4);
  for (uint32_t i = 0; i < n; ++i) out += object;
  return out;
}

// ---- Cases ---------------------------------------------------------------------------------------

// SQL run on a case's files in a fresh connection. `{f0}`, `{f1}` stand for the files' paths and
// `{files}` for all of them separated by commas. Every statement but the last must succeed; the
// last must fail with a message holding every string of `error`, or (error empty) succeed with
// exactly `rows` (rows joined by '\n', values by '|', NULL as "NULL"; not checked when nullopt).
struct Probe {
  std::vector<std::string> sql;
  std::vector<std::string> error;
  std::optional<std::string> rows;
  int64_t max_growth_mib = 192;  // the process's peak resident memory over what it held before
  double max_seconds = 10;
};

struct HostileCase {
  std::string id;
  int finding = 0;  // the finding of the issue it reproduces; 0 for one of the generator's own
  std::string what;
  std::function<std::vector<std::string>()> files;
  std::vector<Probe> probes;
};

namespace detail {

inline std::string Table(const std::string& options) {
  return "CREATE VIRTUAL TABLE temp.t USING parquet('{files}'" +
         (options.empty() ? std::string() : ", " + options) + ")";
}

// One INT64 column `x` (required), one row group of `pages` (data pages of PLAIN values).
inline FileSpec OneColumn(std::vector<PageSpec> pages, int64_t rows) {
  FileSpec f;
  f.schema = {Root(1), Leaf("x", PhysicalType::kInt64, Repetition::kRequired)};
  GroupSpec g;
  g.num_rows = rows;
  ChunkSpec c;
  c.path = {"x"};
  c.pages = std::move(pages);
  g.chunks.push_back(std::move(c));
  f.groups.push_back(std::move(g));
  return f;
}

// A LIST<element> column `l` of one record holding `n` elements, all dictionary entry 0 (index bit
// width 0), over `pages` pages; `element` is the element's leaf and `dictionary` its one entry.
inline std::string OneLongList(SchemaElement element, const std::string& dictionary, int64_t n,
                               int pages) {
  FileSpec f;
  f.schema = {Root(1)};
  for (SchemaElement& e : ListOf("l", element)) f.schema.push_back(e);
  GroupSpec g;
  g.num_rows = 1;
  ChunkSpec c;
  c.type = *element.type;
  c.path = {"l", "list", "element"};
  c.pages.push_back(DictionaryPage(1, dictionary));
  const int64_t per_page = n / pages;
  for (int p = 0; p < pages; ++p) {
    const std::string rep = p == 0 ? RleRun(1, 0, 1) + RleRun(static_cast<uint64_t>(per_page - 1), 1, 1)
                                   : RleRun(static_cast<uint64_t>(per_page), 1, 1);
    const std::string body = V1Levels(rep) + V1Levels(RleRun(static_cast<uint64_t>(per_page), 3, 2)) +
                             DictionaryIndices(0, RleRun(static_cast<uint64_t>(per_page), 0, 0));
    c.pages.push_back(DataPage(static_cast<int32_t>(per_page), Encoding::kRleDictionary, body));
  }
  g.chunks.push_back(std::move(c));
  f.groups.push_back(std::move(g));
  return BuildFile(f);
}

// `n` top-level columns named by `name(i)`, and no row group.
inline std::string ManyColumns(int n, const std::function<std::string(int)>& name) {
  FileSpec f;
  f.schema = {Root(n)};
  for (int i = 0; i < n; ++i) f.schema.push_back(Leaf(name(i), PhysicalType::kInt64, Repetition::kOptional));
  return BuildFile(f);
}

// Three pages of two rows (1,2 | 3,4 | 5,6) with an OffsetIndex that `edit` changes and a
// ColumnIndex that agrees with it.
inline std::string SixRowsIndexed(const std::function<void(OffsetIndex*)>& edit) {
  FileSpec f = OneColumn({DataPage(2, Encoding::kPlain, PlainInt64({1, 2})),
                          DataPage(2, Encoding::kPlain, PlainInt64({3, 4})),
                          DataPage(2, Encoding::kPlain, PlainInt64({5, 6}))},
                         6);
  ChunkSpec& c = f.groups[0].chunks[0];
  c.first_rows = {0, 2, 4};
  c.edit_offset_index = edit;
  OffsetIndex probe;
  probe.page_locations.resize(3);
  edit(&probe);
  ColumnIndex ci;
  const size_t pages = probe.page_locations.size();
  // The bounds of the pages the edited index still lists, in the order they were written.
  std::vector<int64_t> lo = {1, 3, 5}, hi = {2, 4, 6};
  if (pages == 2) lo = {1, 5}, hi = {2, 6};
  for (size_t i = 0; i < pages; ++i) {
    ci.null_pages.push_back(false);
    ci.min_values.push_back(PlainInt64({lo[i]}));
    ci.max_values.push_back(PlainInt64({hi[i]}));
  }
  ci.boundary_order = BoundaryOrder::kAscending;
  ci.null_counts = std::vector<int64_t>(pages, 0);
  c.column_index = ci;
  return BuildFile(f);
}

}  // namespace detail

inline std::vector<HostileCase> HostileCases() {
  using detail::Table;
  std::vector<HostileCase> cases;
  const std::string kMax64 = "max_memory=64";
  // The metadata functions may hold a footer of up to 256 MiB (README, "Inspecting files").
  const int64_t kMetadataFunctionBound = 320;

  // 1. Footers whose small elements become large structures.
  cases.push_back({"footer-column-chunks", 1, "a 24 MB footer of 8 million three-byte column chunks",
                   [] { return std::vector<std::string>{FooterOfColumnChunks(8'000'000)}; },
                   {{{Table(kMax64)}, {"f0.parquet", "footer", "max_memory"}},
                    {{"SELECT count(*) FROM parquet_metadata('{f0}')"}, {"f0.parquet", "footer", "MiB"}, std::nullopt, kMetadataFunctionBound}}});
  cases.push_back({"footer-row-groups", 1, "a 21 MB footer of 3 million empty row groups",
                   [] { return std::vector<std::string>{FooterOfRowGroups(3'000'000)}; },
                   {{{Table(kMax64)}, {"f0.parquet", "footer", "max_memory"}},
                    {{"SELECT * FROM parquet_file_metadata('{f0}')"}, {"f0.parquet", "footer", "MiB"}, std::nullopt, kMetadataFunctionBound}}});
  cases.push_back({"footer-key-values", 1, "an 18 MB footer of 6 million empty key/value pairs",
                   [] { return std::vector<std::string>{FooterOfKeyValues(6'000'000)}; },
                   {{{Table(kMax64)}, {"f0.parquet", "footer", "max_memory"}},
                    {{"SELECT count(*) FROM parquet_kv_metadata('{f0}')"}, {"f0.parquet", "footer", "MiB"}, std::nullopt, kMetadataFunctionBound}}});

  // 2. Levels: 2^28 entries in one RLE run, in each of two columns.
  cases.push_back({"levels-one-run", 2, "two columns whose pages claim 2^28 NULLs in one RLE run",
                   [] {
                     const uint64_t n = uint64_t{1} << 28;
                     FileSpec f;
                     f.schema = {Root(2), Leaf("a", PhysicalType::kInt64, Repetition::kOptional),
                                 Leaf("b", PhysicalType::kInt64, Repetition::kOptional)};
                     GroupSpec g;
                     g.num_rows = static_cast<int64_t>(n);
                     for (const char* name : {"a", "b"}) {
                       ChunkSpec c;
                       c.path = {name};
                       c.pages.push_back(DataPage(static_cast<int32_t>(n), Encoding::kPlain,
                                                  V1Levels(RleRun(n, 0, 1))));
                       g.chunks.push_back(std::move(c));
                     }
                     f.groups.push_back(std::move(g));
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(kMax64), "SELECT * FROM t LIMIT 1"},
                     {"f0.parquet", "row group 0", "column '", "page 0", "max_memory"}}}});

  // 3. One list of many elements.
  cases.push_back({"list-one-record", 3, "one list of 2^28 elements (dictionary indices of bit width 0)",
                   [] {
                     return std::vector<std::string>{detail::OneLongList(
                         Leaf("element", PhysicalType::kInt64, Repetition::kOptional), PlainInt64({1}),
                         int64_t{1} << 28, 1)};
                   },
                   {{{Table(kMax64), "SELECT length(l) FROM t"},
                     {"f0.parquet", "row group 0", "column 'l", "max_memory"}}}});
  cases.push_back({"list-over-pages", 3, "one list of 2^26 elements continued over 32 pages",
                   [] {
                     return std::vector<std::string>{detail::OneLongList(
                         Leaf("element", PhysicalType::kInt64, Repetition::kOptional), PlainInt64({1}),
                         int64_t{1} << 26, 32)};
                   },
                   {{{Table(kMax64), "SELECT length(l) FROM t"},
                     {"f0.parquet", "row group 0", "column 'l", "max_memory"}}}});
  cases.push_back({"list-long-strings", 3, "one list of 16384 copies of a 64 KiB string (1 GiB of JSON)",
                   [] {
                     return std::vector<std::string>{detail::OneLongList(
                         Leaf("element", PhysicalType::kByteArray, Repetition::kOptional),
                         PlainByteArrays({std::string(64 << 10, 'a')}), int64_t{1} << 14, 1)};
                   },
                   {{{Table(kMax64), "SELECT length(l) FROM t"},
                     {"f0.parquet", "row group 0", "column 'l", "max_memory"}}}});

  // 4. Dictionaries of many small entries.
  // (As many rows as entries, in one run of indices: a dictionary of more entries than its chunk
  // has values is refused before it is read, see dictionary-beyond-its-chunk.)
  cases.push_back({"dictionary-fixed-entries", 4, "a dictionary of 2^25 one-byte FIXED_LEN_BYTE_ARRAY entries",
                   [] {
                     const int32_t n = int32_t{1} << 25;
                     SchemaElement x = Leaf("x", PhysicalType::kFixedLenByteArray, Repetition::kRequired);
                     x.type_length = 1;
                     FileSpec f = detail::OneColumn({}, n);
                     f.schema[1] = x;
                     ChunkSpec& c = f.groups[0].chunks[0];
                     c.type = PhysicalType::kFixedLenByteArray;
                     c.codec = CompressionCodec::kZstd;
                     c.pages.push_back(DictionaryPage(n, std::string(static_cast<size_t>(n), 'a'), c.codec));
                     c.pages.push_back(DataPage(n, Encoding::kRleDictionary,
                                                DictionaryIndices(25, RleRun(n, 0, 25)), c.codec));
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(kMax64), "SELECT * FROM t"},
                     {"f0.parquet", "row group 0", "column 'x'", "dictionary", "max_memory"}}}});
  cases.push_back({"dictionary-empty-strings", 4, "a gzip dictionary page of 2^24 empty strings",
                   [] {
                     const int32_t n = int32_t{1} << 24;
                     FileSpec f = detail::OneColumn({}, n);
                     f.schema[1] = Leaf("x", PhysicalType::kByteArray, Repetition::kRequired);
                     ChunkSpec& c = f.groups[0].chunks[0];
                     c.type = PhysicalType::kByteArray;
                     c.codec = CompressionCodec::kGzip;
                     c.pages.push_back(DictionaryPage(n, std::string(static_cast<size_t>(n) * 4, '\0'), c.codec));
                     c.pages.push_back(DataPage(n, Encoding::kRleDictionary,
                                                DictionaryIndices(24, RleRun(n, 0, 24)), c.codec));
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table("max_memory=80"), "SELECT * FROM t"},
                     {"f0.parquet", "row group 0", "column 'x'", "dictionary", "max_memory"}}}});

  // 5. Variant objects naming one long key.
  cases.push_back({"variant-names", 5, "60,000 Variant objects naming one 64 KiB key (3.9 GB of JSON)",
                   [] {
                     FileSpec f;
                     SchemaElement v = Group("v", Repetition::kOptional, 2);
                     v.logical_type.emplace();
                     v.logical_type->kind = LogicalType::Kind::kVariant;
                     f.schema = {Root(1), v, Leaf("metadata", PhysicalType::kByteArray, Repetition::kRequired),
                                 Leaf("value", PhysicalType::kByteArray, Repetition::kRequired)};
                     GroupSpec g;
                     g.num_rows = 1;
                     const std::string parts[2] = {VariantMetadataOfKey(std::string(64 << 10, 'k')),
                                                   VariantArrayOfObjects(60'000)};
                     for (int i = 0; i < 2; ++i) {
                       ChunkSpec c;
                       c.type = PhysicalType::kByteArray;
                       c.path = {"v", i == 0 ? "metadata" : "value"};
                       c.pages.push_back(DataPage(1, Encoding::kPlain,
                                                  V1Levels(RleRun(1, 1, 1)) + PlainByteArrays({parts[i]})));
                       g.chunks.push_back(std::move(c));
                     }
                     f.groups.push_back(std::move(g));
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(kMax64), "SELECT length(v) FROM t"},
                     {"f0.parquet", "row group 0", "column 'v'", "max_memory"}}}});

  // 6. A page index of millions of pages, a struct of many leaves.
  cases.push_back({"page-index-pages", 6, "a 24 MB ColumnIndex of 8 million pages beside one real page",
                   [] {
                     FileSpec f = detail::OneColumn({DataPage(3, Encoding::kPlain, PlainInt64({1, 2, 3}))}, 3);
                     ChunkSpec& c = f.groups[0].chunks[0];
                     c.first_rows = {0};
                     c.column_index_bytes = ColumnIndexOfPages(8'000'000);
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{"SELECT count(*) FROM parquet_page_index('{f0}')"},
                     {"f0.parquet", "row group 0", "column 'x'", "ColumnIndex", "MiB"}},
                    {{Table(kMax64), "SELECT x FROM t WHERE x = 2"}, {}, "2"}}});
  cases.push_back({"struct-wide", 6, "a struct of 40,000 leaves",
                   [] {
                     const int n = 40'000;
                     FileSpec f;
                     f.schema = {Root(1), Group("s", Repetition::kOptional, n)};
                     GroupSpec g;
                     g.num_rows = 1;
                     for (int i = 0; i < n; ++i) {
                       const std::string name = "c" + std::to_string(i);
                       f.schema.push_back(Leaf(name, PhysicalType::kInt64, Repetition::kRequired));
                       ChunkSpec c;
                       c.path = {"s", name};
                       c.pages.push_back(DataPage(1, Encoding::kPlain, V1Levels(RleRun(1, 1, 1)) + PlainInt64({i})));
                       g.chunks.push_back(std::move(c));
                     }
                     f.groups.push_back(std::move(g));
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(kMax64), "SELECT length(s) FROM t"}, {"f0.parquet", "column 's.", "max_memory"}}}});

  // 7. Many columns: one name, union_by_name, a wide schema.
  cases.push_back({"columns-one-name", 7, "8,000 columns all named a (more than SQLite declares)",
                   [] { return std::vector<std::string>{detail::ManyColumns(8000, [](int) { return "a"; })}; },
                   {{{Table("")},
                     {"the files have 8000 columns, more than the 2000 a SQLite table may have"},
                     std::nullopt,
                     192,
                     2.0}}});
  cases.push_back({"columns-one-name-declared", 7, "1,990 columns all named a",
                   [] { return std::vector<std::string>{detail::ManyColumns(1990, [](int) { return "a"; })}; },
                   {{{Table(""), "SELECT count(*) FROM pragma_table_info('t') WHERE name = 'a_1990'"},
                     {}, "1", 192, 2.0}}});
  cases.push_back({"union-by-name-wide", 7, "union_by_name over two files of 30,000 distinct columns",
                   [] {
                     return std::vector<std::string>{
                         detail::ManyColumns(30'000, [](int i) { return "c" + std::to_string(i); }),
                         detail::ManyColumns(30'000, [](int i) { return "d" + std::to_string(i); })};
                   },
                   {{{Table("union_by_name=1")},
                     {"the files have 60000 columns, more than the 2000 a SQLite table may have"},
                     std::nullopt,
                     192,
                     2.0}}});
  cases.push_back({"schema-wide", 7, "parquet_schema of 100,000 columns",
                   [] {
                     return std::vector<std::string>{
                         detail::ManyColumns(100'000, [](int i) { return "c" + std::to_string(i); })};
                   },
                   {{{"SELECT count(*) FROM parquet_schema('{f0}')"}, {}, "100001", 192, 2.0}}});

  // 8, 9. Row counts the columns cannot hold; row counts whose sum overflows.
  cases.push_back({"rows-claimed", 8, "a row group claiming 2^62 rows over 3 values",
                   [] {
                     FileSpec f = detail::OneColumn({DataPage(3, Encoding::kPlain, PlainInt64({1, 2, 3}))},
                                                    int64_t{1} << 62);
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table("")}, {"f0.parquet", "row group 0", "column 'x'", "holds 3 values"},
                     std::nullopt, 192, 5.0}}});
  cases.push_back({"rows-claimed-values", 8, "a row group and its chunk claiming 2^62 rows over 3 values",
                   [] {
                     FileSpec f = detail::OneColumn({DataPage(3, Encoding::kPlain, PlainInt64({1, 2, 3}))},
                                                    int64_t{1} << 62);
                     f.groups[0].chunks[0].edit_meta = [](ColumnMetaData* m) { m->num_values = int64_t{1} << 62; };
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table("")}, {"f0.parquet", "row group 0", "column 'x'", "hold 3 values"},
                     std::nullopt, 192, 5.0}}});
  cases.push_back({"rows-overflow", 9, "a valid 3-row group then one claiming 2^63-1 rows",
                   [] {
                     FileSpec f = detail::OneColumn({DataPage(3, Encoding::kPlain, PlainInt64({1, 2, 3}))}, 3);
                     GroupSpec second = f.groups[0];
                     second.num_rows = INT64_MAX;
                     second.chunks[0].edit_meta = [](ColumnMetaData* m) { m->num_values = INT64_MAX; };
                     f.groups.push_back(second);
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table("")}, {"f0.parquet", "row group 1", "2^63-1"}, std::nullopt, 192, 5.0}}});

  // 10. Structures that contradict each other must give one answer whatever the plan.
  const auto left_out = [](OffsetIndex* oi) {
    oi->page_locations.erase(oi->page_locations.begin() + 1);
    oi->page_locations[1].first_row_index = 2;
  };
  for (const char* sql : {"SELECT group_concat(x) FROM t", "SELECT x FROM t WHERE rowid = 4",
                          "SELECT x FROM t WHERE x = 3", "SELECT x FROM t WHERE +x = 3",
                          "SELECT x FROM t WHERE x = 5"}) {
    const std::string sql_text = sql;
    const std::string expected = sql_text.find("group_concat") != std::string::npos ? "1,2,3,4,5,6"
                                 : sql_text.find("x = 3") != std::string::npos      ? "3"
                                                                                    : "5";
    cases.push_back({std::string("offset-index-gap: ") + sql, 10, "an OffsetIndex that leaves out a page",
                     [left_out] { return std::vector<std::string>{detail::SixRowsIndexed(left_out)}; },
                     {{{Table(""), sql}, {}, expected}}});
  }
  const auto shifted = [](OffsetIndex* oi) {
    if (oi->page_locations.size() == 3) oi->page_locations[1].first_row_index = 3;
  };
  for (const char* sql : {"SELECT group_concat(x) FROM t", "SELECT x FROM t WHERE x = 3",
                          "SELECT x FROM t WHERE +x = 3", "SELECT x FROM t WHERE rowid = 2"}) {
    cases.push_back({std::string("offset-index-shifted: ") + sql, 10,
                     "an OffsetIndex whose second page starts a row late",
                     [shifted] { return std::vector<std::string>{detail::SixRowsIndexed(shifted)}; },
                     {{{Table(""), sql}, {"f0.parquet", "row group 0", "column 'x'", "page ", "OffsetIndex"}}}});
  }
  for (const char* sql : {"SELECT x FROM t WHERE x = 8", "SELECT x FROM t WHERE +x = 8"}) {
    cases.push_back({std::string("two-dictionaries: ") + sql, 10, "a chunk with two dictionary pages",
                     [] {
                       FileSpec f = detail::OneColumn(
                           {DictionaryPage(2, PlainInt64({1, 2})), DictionaryPage(2, PlainInt64({7, 8})),
                            DataPage(2, Encoding::kRleDictionary, DictionaryIndices(1, RleRun(2, 1, 1)))},
                           2);
                       // Only dictionary encodings, so that the dictionary may prune.
                       f.groups[0].chunks[0].edit_meta = [](ColumnMetaData* m) {
                         m->encodings = {Encoding::kRleDictionary, Encoding::kRle};
                       };
                       return std::vector<std::string>{BuildFile(f)};
                     },
                     {{{Table(""), sql}, {"f0.parquet", "row group 0", "column 'x'", "dictionary page"}}}});
  }

  // More of the same kind.
  const auto first_left_out = [](OffsetIndex* oi) {
    oi->page_locations.erase(oi->page_locations.begin());
    oi->page_locations[0].first_row_index = 0;
    oi->page_locations[1].first_row_index = 2;
  };
  for (const char* sql : {"SELECT x FROM t WHERE rowid = 0", "SELECT x FROM t WHERE x = 3",
                          "SELECT x FROM t WHERE +x = 3"}) {
    cases.push_back({std::string("offset-index-first-gone: ") + sql, 0,
                     "an OffsetIndex that leaves out the first page",
                     [first_left_out] { return std::vector<std::string>{detail::SixRowsIndexed(first_left_out)}; },
                     {{{Table(""), sql}, {"f0.parquet", "row group 0", "column 'x'", "OffsetIndex"}}}});
  }
  cases.push_back({"rows-no-columns", 0, "a row group claiming 2^62 rows in a file of no column",
                   [] {
                     FileSpec f;
                     f.schema = {Root(1), Group("g", Repetition::kOptional, 0)};
                     f.groups.push_back(GroupSpec{int64_t{1} << 62, {}});
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table("")}, {"f0.parquet", "row group 0", "no column"}, std::nullopt, 192, 5.0}}});
  cases.push_back({"levels-v2", 0, "a data page v2 claiming 2^28 NULLs in one RLE run",
                   [] {
                     const uint64_t n = uint64_t{1} << 28;
                     FileSpec f = detail::OneColumn({}, static_cast<int64_t>(n));
                     f.schema[1].repetition_type = Repetition::kOptional;
                     PageSpec p;
                     p.header.type = PageType::kDataPageV2;
                     p.header.data_page_header_v2.emplace();
                     DataPageHeaderV2& v2 = *p.header.data_page_header_v2;
                     v2.num_values = static_cast<int32_t>(n);
                     v2.num_nulls = static_cast<int32_t>(n);
                     v2.num_rows = static_cast<int32_t>(n);
                     p.stored = RleRun(n, 0, 1);
                     v2.definition_levels_byte_length = static_cast<int32_t>(p.stored.size());
                     v2.is_compressed = false;
                     p.header.uncompressed_page_size = static_cast<int32_t>(p.stored.size());
                     p.header.compressed_page_size = static_cast<int32_t>(p.stored.size());
                     f.groups[0].chunks[0].pages.push_back(p);
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(kMax64), "SELECT count(x) FROM t"},
                     {"f0.parquet", "row group 0", "column 'x'", "page 0", "max_memory"}}}});
  cases.push_back({"bloom-outside-file", 0, "a Bloom filter offset past the end of the file",
                   [] {
                     FileSpec f = detail::OneColumn({DataPage(3, Encoding::kPlain, PlainInt64({1, 2, 3}))}, 3);
                     f.groups[0].chunks[0].edit_meta = [](ColumnMetaData* m) {
                       m->bloom_filter_offset = int64_t{1} << 40;
                       m->bloom_filter_length = 64;
                     };
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(""), "SELECT x FROM t WHERE x = 3"}, {}, "3"},
                    {{"SELECT bloom_filter_excludes FROM parquet_bloom_probe('{f0}', 'x', 3)"}, {}, "NULL"}}});

  // 11. Errors with their context; optional structures that are malformed are ignored.
  cases.push_back({"short-dictionary", 11, "a PLAIN dictionary page too short for its entries",
                   [] {
                     // 12 bytes: room for 96 bits, not for 96 INT64 entries (of 96 rows).
                     FileSpec f = detail::OneColumn(
                         {DictionaryPage(96, PlainInt64({1}) + std::string(4, '\0')),
                          DataPage(96, Encoding::kRleDictionary, DictionaryIndices(7, RleRun(96, 0, 7)))},
                         96);
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(""), "SELECT * FROM t"},
                     {"f0.parquet", "row group 0", "column 'x'", "dictionary page", "dictionary claims 96 values in 12 bytes"}}}});
  cases.push_back({"group-without-fields", 11, "a group with no fields",
                   [] {
                     FileSpec f = detail::OneColumn({DataPage(1, Encoding::kPlain, PlainInt64({7}))}, 1);
                     f.schema = {Root(2), Group("g", Repetition::kOptional, 0),
                                 Leaf("x", PhysicalType::kInt64, Repetition::kRequired)};
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(""), "SELECT g FROM t"}, {"f0.parquet", "column 'g'", "no fields"}}}});
  cases.push_back({"map-three-fields", 11, "a MAP whose key_value group has three fields",
                   [] {
                     FileSpec f;
                     SchemaElement m = Group("m", Repetition::kOptional, 1);
                     m.converted_type = ConvertedType::kMap;
                     f.schema = {Root(1), m, Group("key_value", Repetition::kRepeated, 3),
                                 Leaf("key", PhysicalType::kInt64, Repetition::kRequired),
                                 Leaf("value", PhysicalType::kInt64, Repetition::kOptional),
                                 Leaf("extra", PhysicalType::kInt64, Repetition::kOptional)};
                     // One row: a NULL map.
                     GroupSpec g;
                     g.num_rows = 1;
                     for (const char* leaf : {"key", "value", "extra"}) {
                       ChunkSpec c;
                       c.path = {"m", "key_value", leaf};
                       c.pages.push_back(DataPage(1, Encoding::kPlain,
                                                  V1Levels(RleRun(1, 0, 1)) + V1Levels(RleRun(1, 0, 2))));
                       g.chunks.push_back(std::move(c));
                     }
                     f.groups.push_back(std::move(g));
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(""), "SELECT m FROM t"}, {"f0.parquet", "column 'm'", "3 fields"}}}});
  cases.push_back({"name-quote-nul", 11, "a column name holding a quote and a NUL byte",
                   [] {
                     FileSpec f = detail::OneColumn({DataPage(1, Encoding::kPlain, PlainInt64({7}))}, 1);
                     f.schema[1].name = std::string("a\"b\0c", 5);
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(""), "SELECT * FROM t"}, {}, "7"}}});
  cases.push_back({"bloom-header-garbage", 11, "a Bloom filter whose header does not parse",
                   [] {
                     FileSpec f = detail::OneColumn({DataPage(3, Encoding::kPlain, PlainInt64({1, 2, 3}))}, 3);
                     f.groups[0].chunks[0].bloom_filter = std::string(64, '\xff');
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(""), "SELECT x FROM t WHERE x = 2"}, {}, "2"},
                    {{"SELECT bloom_filter_excludes FROM parquet_bloom_probe('{f0}', 'x', 2)"}, {}, "NULL"}}});
  cases.push_back({"geo-bbox-incomplete", 11, "a geospatial bounding box without its required ymax",
                   [] {
                     FileSpec f = detail::OneColumn({DataPage(3, Encoding::kPlain, PlainInt64({1, 2, 3}))}, 3);
                     f.groups[0].chunks[0].edit_meta = [](ColumnMetaData* m) {
                       m->geospatial_statistics.emplace().bbox = BoundingBox{11.5, 12.5, 13.5, 14.5};
                     };
                     // Field 4 (ymax, a double) of the box: its header and 8 bytes go.
                     f.edit_footer_bytes = [](std::string* footer) {
                       const double ymax = 14.5;
                       std::string field(1, '\x17');
                       field.append(reinterpret_cast<const char*>(&ymax), 8);
                       const size_t at = footer->find(field);
                       if (at != std::string::npos) footer->erase(at, field.size());
                     };
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(""), "SELECT group_concat(x) FROM t"}, {}, "1,2,3"},
                    {{"SELECT geo_bbox FROM parquet_metadata('{f0}')"}, {}, "NULL"}}});
  // 12. Decoders that rebuild a page's values in memory of their own ask the budget first.
  cases.push_back({"delta-byte-array-rebuilt", 12,
                   "a 46 KB DELTA_BYTE_ARRAY page whose 46,000 values each extend the last by a byte (1 GB)",
                   [] {
                     // Value i keeps all i bytes of value i-1 and adds one: prefix lengths 0, 1,
                     // 2, ... and suffix lengths all 1, two DELTA_BINARY_PACKED streams of one
                     // repeated delta (bit width 0: a block is its minimum delta and four zero
                     // widths), then the suffixes.
                     const uint64_t n = 46000;
                     auto arithmetic = [n](uint64_t first, uint64_t delta) {
                       std::string s;
                       PutUleb(&s, 128);
                       PutUleb(&s, 4);
                       PutUleb(&s, n);
                       PutUleb(&s, first << 1);  // zigzag of a non-negative value
                       for (uint64_t done = 1; done < n; done += 128) {
                         PutUleb(&s, delta << 1);
                         s.append(4, '\0');
                       }
                       return s;
                     };
                     const std::string body = arithmetic(0, 1) + arithmetic(1, 0) + std::string(n, 'a');
                     FileSpec f = detail::OneColumn({}, static_cast<int64_t>(n));
                     f.schema[1] = Leaf("x", PhysicalType::kByteArray, Repetition::kRequired);
                     ChunkSpec& c = f.groups[0].chunks[0];
                     c.type = PhysicalType::kByteArray;
                     c.codec = CompressionCodec::kZstd;
                     c.pages.push_back(DataPage(static_cast<int32_t>(n), Encoding::kDeltaByteArray, body, c.codec));
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(kMax64), "SELECT sum(length(x)) FROM t"},
                     {"f0.parquet", "row group 0", "column 'x'", "page 0", "max_memory"}}}});
  cases.push_back({"decimal-text-batch", 12,
                   "100 DECIMAL columns of scale 4096, whose 8-byte values read as 4 KB of text each",
                   [] {
                     const int columns = 100;
                     const int32_t rows = 4096;
                     FileSpec f;
                     f.schema = {Root(columns)};
                     GroupSpec g;
                     g.num_rows = rows;
                     for (int i = 0; i < columns; ++i) {
                       SchemaElement x = Leaf("x" + std::to_string(i), PhysicalType::kInt64, Repetition::kRequired);
                       x.converted_type = ConvertedType::kDecimal;
                       x.scale = 4096;
                       x.precision = 18;
                       x.logical_type.emplace();
                       x.logical_type->kind = LogicalType::Kind::kDecimal;
                       x.logical_type->decimal_scale = 4096;
                       x.logical_type->decimal_precision = 18;
                       f.schema.push_back(x);
                       ChunkSpec c;
                       c.path = {x.name};
                       c.codec = CompressionCodec::kZstd;
                       c.pages.push_back(DataPage(rows, Encoding::kPlain,
                                                  PlainInt64(std::vector<int64_t>(rows, -123456789012345678)), c.codec));
                       g.chunks.push_back(std::move(c));
                     }
                     f.groups.push_back(std::move(g));
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(kMax64), [] {
                        std::string sum = "length(x0)";
                        for (int i = 1; i < 100; ++i) sum += " + length(x" + std::to_string(i) + ")";
                        return "SELECT count(*), sum(" + sum + ") FROM t";  // every value, as text
                      }()},
                     {},
                     "4096|1678950400"}}});
  cases.push_back({"rows-fewer-claimed", 12, "a row group claiming 2 rows over a column chunk of 3 values, no page index",
                   [] {
                     return std::vector<std::string>{BuildFile(
                         detail::OneColumn({DataPage(3, Encoding::kPlain, PlainInt64({1, 2, 3}))}, 2))};
                   },
                   {{{Table("")}, {"f0.parquet", "row group 0", "column 'x'", "claims 2 rows", "holds 3 values"}}}});
  cases.push_back({"v2-counts-claimed", 12, "a data page v2 of 3 values claiming 2^31-1 rows, and one 2^31-1 NULLs",
                   [] {
                     std::vector<std::string> files;
                     for (const bool nulls : {false, true}) {
                       FileSpec f = detail::OneColumn({}, 3);
                       PageSpec p;
                       p.header.type = PageType::kDataPageV2;
                       p.header.data_page_header_v2.emplace();
                       DataPageHeaderV2& v2 = *p.header.data_page_header_v2;
                       v2.num_values = 3;
                       v2.num_rows = nulls ? 3 : INT32_MAX;
                       v2.num_nulls = nulls ? INT32_MAX : 0;
                       v2.encoding = Encoding::kPlain;
                       v2.is_compressed = false;
                       p.stored = PlainInt64({1, 2, 3});
                       p.header.uncompressed_page_size = static_cast<int32_t>(p.stored.size());
                       p.header.compressed_page_size = static_cast<int32_t>(p.stored.size());
                       f.groups[0].chunks[0].pages.push_back(p);
                       files.push_back(BuildFile(f));
                     }
                     return files;
                   },
                   {{{"CREATE VIRTUAL TABLE temp.t USING parquet('{f0}')", "SELECT group_concat(x) FROM t"},
                     {"f0.parquet", "row group 0", "column 'x'", "page 0", "2147483647 rows"}},
                    {{"CREATE VIRTUAL TABLE temp.u USING parquet('{f1}')", "SELECT group_concat(x) FROM u"},
                     {"f1.parquet", "row group 0", "column 'x'", "page 0", "2147483647 NULLs"}}}});
  // 13. What a table keeps of each of its files counts against max_memory over all its files.
  cases.push_back({"footers-of-many-files", 13,
                   "ten files whose footers of 300,000 key/value pairs each parse to about 20 MB",
                   [] { return std::vector<std::string>(10, FooterOfKeyValues(300'000)); },
                   {{{Table(kMax64)}, {"f3.parquet", "parsed footers", "max_memory"}, std::nullopt, 160, 5.0}}});
  cases.push_back({"bloom-filters-of-many-files", 13, "six files of three rows, each with a 24 MiB Bloom filter",
                   [] {
                     FileSpec f = detail::OneColumn({DataPage(3, Encoding::kPlain, PlainInt64({1, 2, 3}))}, 3);
                     f.groups[0].chunks[0].bloom_filter = BloomFilterOfOnes(24 << 20);
                     return std::vector<std::string>(6, BuildFile(f));
                   },
                   {{{Table(kMax64), "SELECT count(*) FROM t WHERE x = 2"}, {}, "6", 96, 5.0}}});
  cases.push_back({"offset-index-of-many-columns", 13,
                   "100 columns whose chunks are one chunk of 100,000 one-row pages, with its OffsetIndex",
                   [] {
                     const int columns = 100;
                     const int pages = 100'000;
                     std::vector<PageSpec> spec;
                     std::vector<int64_t> first_rows;
                     for (int i = 0; i < pages; ++i) {
                       spec.push_back(DataPage(1, Encoding::kPlain, PlainInt64({i})));
                       first_rows.push_back(i);
                     }
                     FileSpec f = detail::OneColumn(std::move(spec), pages);
                     f.groups[0].chunks[0].first_rows = std::move(first_rows);
                     // Columns x1... are x again: the same pages and the same OffsetIndex.
                     f.edit = [columns](FileMetaData* md) {
                       md->schema[0].num_children = columns;
                       const ColumnChunk x = md->row_groups[0].columns[0];
                       for (int i = 1; i < columns; ++i) {
                         const std::string name = "x" + std::to_string(i);
                         md->schema.push_back(Leaf(name, PhysicalType::kInt64, Repetition::kRequired));
                         md->row_groups[0].columns.push_back(x);
                         md->row_groups[0].columns.back().meta_data->path_in_schema = {name};
                       }
                     };
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   // Each column's reader holds its copy of the index, charged: the columns read
                   // by it take the budget, and a column left without it must read its chunk whole.
                   {{{Table(kMax64), "SELECT * FROM t WHERE rowid = 99990"},
                     {"f0.parquet", "row group 0", "column 'x", "max_memory"}, std::nullopt, 160, 5.0}}});

  // 14. Pages that claim more than their values can take, under the default max_memory (4 GiB): a
  // few kilobytes of zstd made the scan decompress a page of 256 MiB for one INT64 value (and a file
  // of many row groups pointing at those bytes, as often).
  cases.push_back({"page-one-value-large", 14, "a zstd page of one INT64 value claiming 256 MiB (honestly)",
                   [] {
                     std::string plain = PlainInt64({7});
                     plain.resize(size_t{256} << 20, '\0');
                     return std::vector<std::string>{BuildFile(detail::OneColumn(
                         {DataPage(1, Encoding::kPlain, plain, CompressionCodec::kZstd)}, 1))};
                   },
                   {{{Table(""), "SELECT * FROM t"},
                     {"f0.parquet", "row group 0", "column 'x'", "page 0",
                      "page of 1 values claims 268435456 uncompressed bytes, more than 1 values of 8 bytes can take"},
                     std::nullopt, 64, 5.0}}});
  cases.push_back({"page-values-beyond-rows", 14, "a row group of one row whose page claims 2^20 INT64 values",
                   [] {
                     FileSpec f = detail::OneColumn(
                         {DataPage(1 << 20, Encoding::kPlain, std::string(size_t{8} << 20, '\0'), CompressionCodec::kZstd)},
                         1);
                     // The chunk's count agrees with the row group (else the table refuses the file when created).
                     f.edit = [](FileMetaData* md) { md->row_groups[0].columns[0].meta_data->num_values = 1; };
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(""), "SELECT * FROM t"},
                     {"f0.parquet", "row group 0", "column 'x'", "page 0",
                      "page claims 1048576 values, more than the 1 rows of its row group"},
                     std::nullopt, 64, 5.0}}});
  // pyarrow writes every category of a categorical as the dictionary of every row group: entries
  // the chunk does not use are no fault.
  cases.push_back({"dictionary-unused-entries", 14, "a dictionary of 3 INT64 entries for a chunk of one value, the third",
                   [] {
                     return std::vector<std::string>{BuildFile(detail::OneColumn(
                         {DictionaryPage(3, PlainInt64({10, 20, 30})),
                          DataPage(1, Encoding::kRleDictionary, DictionaryIndices(2, RleRun(1, 2, 2)))},
                         1))};
                   },
                   {{{Table(""), "SELECT x FROM t"}, {}, "30"}, {{Table(""), "SELECT x FROM t WHERE x = 30"}, {}, "30"}}});
  cases.push_back({"dictionary-beyond-its-chunk", 14,
                   "a dictionary of 2^22 INT64 entries (32 MiB) for a chunk of one value",
                   [] {
                     FileSpec f = detail::OneColumn({}, 1);
                     ChunkSpec& c = f.groups[0].chunks[0];
                     c.codec = CompressionCodec::kZstd;
                     c.pages.push_back(DictionaryPage(1 << 22, std::string(size_t{32} << 20, '\0'), c.codec));
                     c.pages.push_back(DataPage(1, Encoding::kRleDictionary,
                                                DictionaryIndices(22, RleRun(1, 0, 22)), c.codec));
                     return std::vector<std::string>{BuildFile(f)};
                   },
                   {{{Table(""), "SELECT * FROM t"},
                     {"f0.parquet", "row group 0", "column 'x'",
                      "dictionary page claims 4194304 entries, more than the 1 values of its column chunk and 1048576 more"},
                     std::nullopt, 64, 5.0},
                    {{Table(""), "SELECT * FROM t WHERE x = 5"},
                     {"f0.parquet", "row group 0", "column 'x'",
                      "dictionary page claims 4194304 entries, more than the 1 values of its column chunk and 1048576 more"},
                     std::nullopt, 64, 5.0}}});

  // 15. A scan holds no more than max_memory, copies included: the JSON arena while it moves to a
  // larger buffer (both are live), and SQLite's copy of the value handed to it. Each probe's peak
  // stays within its max_memory and 32 MiB.
  for (const bool blob : {false, true}) {
    // 128 MiB of JSON either way: 2048 strings of 64 KiB, or 1536 BLOBs of 64 KiB as base64.
    const int64_t n = blob ? 1536 : 2048;
    const std::string id = blob ? "list-long-blobs-held" : "list-long-strings-held";
    const std::string length = blob ? "134226433" : "134223873";
    std::vector<Probe> probes;
    for (const int mib : {64, 160, 400}) {
      Probe p;
      p.sql = {Table("max_memory=" + std::to_string(mib)), "SELECT length(l) FROM t"};
      if (mib < 400) {
        p.error = {"f0.parquet", "row group 0", "column 'l'", "row 0", "max_memory"};
      } else {
        p.rows = length;
      }
      p.max_growth_mib = mib + 32;
      probes.push_back(p);
    }
    cases.push_back({id, 15, "one list of " + std::to_string(n) + " copies of a 64 KiB " + (blob ? "BLOB" : "string"),
                     [blob, n] {
                       SchemaElement element = Leaf("element", PhysicalType::kByteArray, Repetition::kOptional);
                       if (!blob) {
                         element.converted_type = ConvertedType::kUtf8;
                         element.logical_type.emplace();
                         element.logical_type->kind = LogicalType::Kind::kString;
                       }
                       return std::vector<std::string>{
                           detail::OneLongList(element, PlainByteArrays({std::string(64 << 10, 'a')}), n, 1)};
                     },
                     probes});
  }
  return cases;
}

}  // namespace pq::hostile
