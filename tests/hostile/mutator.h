// Structure-aware mutations of Parquet files: valid files built with FileBuilder (hostile_files.h),
// changed in their footer, page headers, page lists, page indexes or schema, and encoded again
// through the project's Thrift writer, so that every mutant parses as far as the change and the
// reader has to deal with the change itself, not with bytes that stop parsing at once.
//
// Every choice (which base file, which structure, which field, which value) is taken from a
// Chooser: a seeded PRNG in the tests (tests/hostile/mutants_test.cc) and the fuzzer's input bytes
// in `make fuzz` (fuzz/fuzz_structure.cc), where libFuzzer's byte mutations become structural ones.
//
// CheckMutant runs one mutant through the engine the way a table does (open, CheckRowCounts, a
// full scan, and a pushed-down equality on a value the full scan returned) with a 64 MiB
// MemoryBudget, and reports what the two scans said: a mutant either fails with an error or gives
// rows, and when the full scan gives rows, the pushed-down scan must give exactly those of them
// that satisfy the term, unless the mutation lied in statistics (which no reader can notice).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "format/column/row_counts.h"
#include "format/predicate/predicate.h"
#include "format/predicate/scan_plan.h"
#include "format/file/file_reader.h"
#include "format/file/memory_budget.h"
#include "format/reader/table_scanner.h"
#include "tests/hostile/hostile_files.h"

namespace pq::hostile {

// Where the choices come from: Next(n) is in [0, n) (n > 0).
class Chooser {
 public:
  virtual ~Chooser() = default;
  virtual uint64_t Next(uint64_t n) = 0;
  bool Coin() { return Next(2) == 1; }
};

class RandomChooser : public Chooser {
 public:
  explicit RandomChooser(uint64_t seed) : rng_(seed) {}
  uint64_t Next(uint64_t n) override { return rng_() % n; }

 private:
  std::mt19937_64 rng_;
};

// Choices read from bytes (a fuzzer's input), eight bits at a time; 0 once they run out.
class ByteChooser : public Chooser {
 public:
  ByteChooser(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint64_t Next(uint64_t n) override {
    uint64_t v = 0;
    for (uint64_t range = 1; range < n && pos_ < size_; range <<= 8) v = (v << 8) | data_[pos_++];
    return v % n;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// ---- Valid files to start from -------------------------------------------------------------------

namespace mutants {

// x INT64 required, dictionary-encoded, three pages of four rows with an OffsetIndex and a
// ColumnIndex, row-group statistics; s BYTE_ARRAY optional PLAIN with NULLs; two row groups.
inline FileSpec FlatIndexed() {
  FileSpec f;
  f.schema = {Root(2), Leaf("x", PhysicalType::kInt64, Repetition::kRequired),
              Leaf("s", PhysicalType::kByteArray, Repetition::kOptional)};
  f.schema[2].converted_type = ConvertedType::kUtf8;
  for (int g = 0; g < 2; ++g) {
    GroupSpec group;
    group.num_rows = 12;
    ChunkSpec x;
    x.path = {"x"};
    const int64_t base = 100 * g;
    x.pages.push_back(DictionaryPage(3, PlainInt64({base + 10, base + 20, base + 30})));
    ColumnIndex ci;
    for (int p = 0; p < 3; ++p) {
      // Page p holds entry p four times.
      x.pages.push_back(DataPage(4, Encoding::kRleDictionary, DictionaryIndices(2, RleRun(4, static_cast<uint32_t>(p), 2))));
      x.first_rows.push_back(4 * p);
      ci.null_pages.push_back(false);
      ci.min_values.push_back(PlainInt64({base + 10 * (p + 1)}));
      ci.max_values.push_back(PlainInt64({base + 10 * (p + 1)}));
    }
    ci.boundary_order = BoundaryOrder::kAscending;
    ci.null_counts = std::vector<int64_t>(3, 0);
    x.column_index = ci;
    x.edit_meta = [base](ColumnMetaData* m) {
      m->statistics.emplace();
      m->statistics->min_value = PlainInt64({base + 10});
      m->statistics->max_value = PlainInt64({base + 30});
      m->statistics->null_count = 0;
    };
    group.chunks.push_back(std::move(x));
    ChunkSpec s;
    s.type = PhysicalType::kByteArray;
    s.path = {"s"};
    for (int p = 0; p < 2; ++p) {
      // Six rows a page: present, NULL, present, ...
      std::string defs = V1Levels(std::string("\x03\x55", 2));  // bit-packed group of 8: 1,0,1,0,...
      s.pages.push_back(DataPage(6, Encoding::kPlain,
                                 defs + PlainByteArrays({"a" + std::to_string(g), "b", "c" + std::to_string(p)})));
    }
    group.chunks.push_back(std::move(s));
    f.groups.push_back(std::move(group));
  }
  return f;
}

// l LIST<INT64> (records of 0, 1, 2, 3 elements and a NULL list), and n INT64 required, PLAIN.
inline FileSpec Nested() {
  FileSpec f;
  f.schema = {Root(2)};
  for (SchemaElement& e : ListOf("l", Leaf("element", PhysicalType::kInt64, Repetition::kOptional))) {
    f.schema.push_back(e);
  }
  f.schema.push_back(Leaf("n", PhysicalType::kInt64, Repetition::kRequired));
  GroupSpec g;
  g.num_rows = 5;
  ChunkSpec l;
  l.path = {"l", "list", "element"};
  // Records: [] , [1], [2, 3], NULL, [4, NULL, 5]: levels (rep, def):
  // (0,1) (0,3) (0,3)(1,3) (0,0) (0,3)(1,2)(1,3)
  auto bits = [](std::vector<int> v, int width) {
    // Bit-packed run of ceil(n/8) groups, LSB first.
    std::string out;
    const size_t groups = (v.size() + 7) / 8;
    PutUleb(&out, (groups << 1) | 1);
    uint64_t acc = 0;
    int have = 0;
    v.resize(groups * 8, 0);
    for (int x : v) {
      acc |= static_cast<uint64_t>(x) << have;
      have += width;
      while (have >= 8) {
        out.push_back(static_cast<char>(acc & 0xff));
        acc >>= 8;
        have -= 8;
      }
    }
    return out;
  };
  const std::string body = V1Levels(bits({0, 0, 0, 1, 0, 0, 1, 1}, 1)) +
                           V1Levels(bits({1, 3, 3, 3, 0, 3, 2, 3}, 2)) + PlainInt64({1, 2, 3, 4, 5});
  l.pages.push_back(DataPage(8, Encoding::kPlain, body));
  g.chunks.push_back(std::move(l));
  ChunkSpec n;
  n.path = {"n"};
  n.pages.push_back(DataPage(3, Encoding::kPlain, PlainInt64({7, 8, 9})));
  n.pages.push_back(DataPage(2, Encoding::kPlain, PlainInt64({10, 11})));
  n.first_rows = {0, 3};
  g.chunks.push_back(std::move(n));
  f.groups.push_back(std::move(g));
  return f;
}

inline std::vector<FileSpec> Bases() { return {FlatIndexed(), Nested()}; }

// A value a hostile writer would pick in place of `v`.
inline int64_t Interesting(Chooser& c, int64_t v) {
  static constexpr int64_t kValues[] = {0, 1, -1, 2, 3, 4, 7, 8, 255, 256, 65535, 65536,
                                        int64_t{1} << 28, int64_t{1} << 31,
                                        std::numeric_limits<int32_t>::max(),
                                        std::numeric_limits<int32_t>::min(),
                                        std::numeric_limits<int64_t>::max(),
                                        std::numeric_limits<int64_t>::min(), int64_t{1} << 62};
  switch (c.Next(4)) {
    case 0: return v + 1;
    case 1: return v - 1;
    case 2: return v * 2;
    default: return kValues[c.Next(sizeof(kValues) / sizeof(kValues[0]))];
  }
}
inline int32_t Interesting32(Chooser& c, int32_t v) {
  const int64_t w = Interesting(c, v);
  return static_cast<int32_t>(std::clamp<int64_t>(w, std::numeric_limits<int32_t>::min(),
                                                  std::numeric_limits<int32_t>::max()));
}

template <typename F>
void Then(std::function<void(F*)>* hook, std::function<void(F*)> more) {
  std::function<void(F*)> before = *hook;
  *hook = [before, more](F* x) {
    if (before) before(x);
    more(x);
  };
}

}  // namespace mutants

// One mutation of `spec`. Returns whether it may make statistics lie (pushed-down results may then
// differ from a full scan's, as with any reader).
inline bool Mutate(FileSpec* spec, Chooser& c) {
  using namespace mutants;
  if (spec->groups.empty()) return false;
  GroupSpec& group = spec->groups[c.Next(spec->groups.size())];
  ChunkSpec* chunk = group.chunks.empty() ? nullptr : &group.chunks[c.Next(group.chunks.size())];
  const uint64_t salt = c.Next(1u << 30);  // for the hooks, which run later
  switch (c.Next(14)) {
    case 0:  // the row count
      group.num_rows = Interesting(c, group.num_rows);
      return false;
    case 1:  // many copies of a row group
      for (uint64_t k = 0, n = 1 + c.Next(2000); k < n; ++k) spec->groups.push_back(spec->groups.front());
      return false;
    case 2: {  // a field of a chunk's metadata
      if (!chunk) return false;
      const uint64_t field = c.Next(9);
      const int64_t v = Interesting(c, static_cast<int64_t>(salt));
      Then<ColumnMetaData>(&chunk->edit_meta, [field, v](ColumnMetaData* m) {
        switch (field) {
          case 0: m->num_values = v; break;
          case 1: m->total_compressed_size = v; break;
          case 2: m->data_page_offset = v; break;
          case 3: m->dictionary_page_offset = v; break;
          case 4: m->type = static_cast<PhysicalType>(v & 7); break;
          case 5: m->codec = static_cast<CompressionCodec>(v & 7); break;
          case 6: m->encodings = {Encoding::kRleDictionary}; break;
          case 7: m->bloom_filter_offset = v, m->bloom_filter_length = static_cast<int32_t>(v); break;
          default: m->path_in_schema.push_back("extra"); break;
        }
      });
      return false;
    }
    case 3: {  // a page header
      if (!chunk || chunk->pages.empty()) return false;
      PageHeader& h = chunk->pages[c.Next(chunk->pages.size())].header;
      switch (c.Next(8)) {
        case 0: h.uncompressed_page_size = Interesting32(c, h.uncompressed_page_size); break;
        case 1: h.compressed_page_size = Interesting32(c, h.compressed_page_size); break;
        case 2: h.type = static_cast<PageType>(c.Next(5)); break;
        case 3: h.crc = Interesting32(c, 0); break;
        case 4:
          if (h.data_page_header) h.data_page_header->num_values = Interesting32(c, h.data_page_header->num_values);
          if (h.dictionary_page_header) {
            h.dictionary_page_header->num_values = Interesting32(c, h.dictionary_page_header->num_values);
          }
          break;
        case 5:
          if (h.data_page_header) h.data_page_header->encoding = static_cast<Encoding>(c.Next(11));
          if (h.dictionary_page_header) h.dictionary_page_header->encoding = static_cast<Encoding>(c.Next(11));
          break;
        case 6:
          if (h.data_page_header) {
            h.data_page_header->definition_level_encoding = c.Coin() ? Encoding::kBitPacked : Encoding::kPlain;
          }
          break;
        default:
          if (h.data_page_header) {
            // The same page as a v2 page, its levels said to be the first bytes.
            DataPageHeaderV2 v2;
            v2.num_values = h.data_page_header->num_values;
            v2.num_rows = Interesting32(c, v2.num_values);
            v2.encoding = h.data_page_header->encoding;
            v2.definition_levels_byte_length = static_cast<int32_t>(c.Next(8));
            v2.is_compressed = false;
            h.type = PageType::kDataPageV2;
            h.data_page_header.reset();
            h.data_page_header_v2 = v2;
          }
          break;
      }
      return false;
    }
    case 4: {  // a page's bytes
      if (!chunk || chunk->pages.empty()) return false;
      PageSpec& p = chunk->pages[c.Next(chunk->pages.size())];
      if (p.stored.empty()) return false;
      switch (c.Next(3)) {
        case 0: p.stored.resize(c.Next(p.stored.size())); break;
        case 1: p.stored[c.Next(p.stored.size())] ^= static_cast<char>(1 + c.Next(255)); break;
        default: p.stored += std::string(c.Next(64), static_cast<char>(c.Next(256))); break;
      }
      p.header.compressed_page_size = p.header.uncompressed_page_size = static_cast<int32_t>(p.stored.size());
      return false;
    }
    case 5: {  // the page list: a page twice, a page gone, the dictionary moved
      if (!chunk || chunk->pages.empty()) return false;
      const size_t i = c.Next(chunk->pages.size());
      switch (c.Next(3)) {
        case 0: chunk->pages.insert(chunk->pages.begin() + static_cast<ptrdiff_t>(i), chunk->pages[i]); break;
        case 1: chunk->pages.erase(chunk->pages.begin() + static_cast<ptrdiff_t>(i)); break;
        default: std::rotate(chunk->pages.begin(), chunk->pages.begin() + 1, chunk->pages.end()); break;
      }
      return false;
    }
    case 6: {  // the OffsetIndex
      if (!chunk) return false;
      if (chunk->first_rows.empty()) chunk->first_rows.assign(chunk->pages.size(), 0);
      const uint64_t what = c.Next(4);
      const int64_t v = Interesting(c, 1);
      Then<OffsetIndex>(&chunk->edit_offset_index, [what, v, salt](OffsetIndex* oi) {
        if (oi->page_locations.empty()) return;
        PageLocation& loc = oi->page_locations[salt % oi->page_locations.size()];
        switch (what) {
          case 0: loc.first_row_index += v; break;
          case 1: loc.offset += v; break;
          case 2: oi->page_locations.erase(oi->page_locations.begin() + static_cast<ptrdiff_t>(salt % oi->page_locations.size())); break;
          default: oi->page_locations.push_back(loc); break;
        }
      });
      return false;
    }
    case 7: {  // the ColumnIndex: its lists, or the bounds (a lie)
      if (!chunk || !chunk->column_index) return false;
      ColumnIndex& ci = *chunk->column_index;
      switch (c.Next(3)) {
        case 0: ci.null_pages.push_back(true); return false;
        case 1: if (!ci.null_pages.empty()) ci.null_pages[0] = !ci.null_pages[0]; return true;
        default: std::swap(ci.min_values, ci.max_values); return true;
      }
    }
    case 8: {  // the schema
      SchemaElement& e = spec->schema[c.Next(spec->schema.size())];
      switch (c.Next(7)) {
        case 0: e.num_children = Interesting32(c, e.num_children.value_or(0)); break;
        case 1: e.repetition_type = static_cast<Repetition>(c.Next(4)); break;
        case 2: e.type = static_cast<PhysicalType>(c.Next(9)); break;
        case 3: e.type_length = Interesting32(c, 1); break;
        case 4: e.name = spec->schema[c.Next(spec->schema.size())].name; break;
        case 5:
          e.logical_type.emplace();
          e.logical_type->kind = static_cast<LogicalType::Kind>(c.Next(20));
          break;
        default: e.converted_type = static_cast<ConvertedType>(c.Next(22)); break;
      }
      return false;
    }
    case 9: {  // row-group statistics (a lie)
      if (!chunk) return false;
      const int64_t v = Interesting(c, 20);
      Then<ColumnMetaData>(&chunk->edit_meta, [v](ColumnMetaData* m) {
        m->statistics.emplace();
        m->statistics->min_value = PlainInt64({v});
        m->statistics->max_value = PlainInt64({v});
      });
      return true;
    }
    case 10: {  // a second dictionary page, or one after the data
      if (!chunk || chunk->pages.empty() || chunk->pages[0].header.type != PageType::kDictionaryPage) return false;
      const PageSpec dictionary = chunk->pages[0];
      chunk->pages.insert(chunk->pages.begin() + static_cast<ptrdiff_t>(1 + c.Next(chunk->pages.size())), dictionary);
      return false;
    }
    case 11: {  // many key/value pairs in the footer
      const uint64_t n = 1 + c.Next(100000);
      Then<FileMetaData>(&spec->edit, [n](FileMetaData* md) {
        md->key_value_metadata.resize(n, KeyValue{"k", std::string(16, 'v')});
      });
      return false;
    }
    case 12: {  // a chunk gone from its row group, or the chunks in another order
      if (group.chunks.size() < 2) return false;
      if (c.Coin()) {
        group.chunks.erase(group.chunks.begin());
      } else {
        std::swap(group.chunks.front(), group.chunks.back());
      }
      return false;
    }
    default: {  // a page's codec claim: compressed bytes that are not
      if (!chunk) return false;
      const auto codec = static_cast<CompressionCodec>(1 + c.Next(7));
      Then<ColumnMetaData>(&chunk->edit_meta, [codec](ColumnMetaData* m) { m->codec = codec; });
      return false;
    }
  }
}

// A mutant: a base file with 1 to 3 mutations; *lies when one of them lied in statistics.
inline std::string MutantFile(Chooser& c, bool* lies) {
  std::vector<FileSpec> bases = mutants::Bases();
  FileSpec spec = bases[c.Next(bases.size())];
  *lies = false;
  for (uint64_t k = 0, n = 1 + c.Next(3); k < n; ++k) *lies = Mutate(&spec, c) || *lies;
  return BuildFile(spec);
}

// ---- Running a mutant ----------------------------------------------------------------------------

struct MutantOutcome {
  std::string error;     // "" when the full scan gave rows
  std::string filtered;  // the pushed-down scan's error, or ""
  bool disagree = false;  // the pushed-down scan gave other rows than the full scan's that satisfy the term
  std::string detail;
};

namespace mutants {

// Every cell of every row of `scanner` as text, rows in order.
inline Result<std::vector<std::vector<SqlValue>>> AllRows(TableScanner& scanner, size_t fields) {
  std::vector<std::vector<SqlValue>> rows;
  std::string scratch;
  while (true) {
    PQ_ASSIGN_OR_RETURN(int64_t n, scanner.NextBatch());
    if (n == 0) break;
    for (int64_t r = 0; r < n; ++r) {
      std::vector<SqlValue> row;
      for (size_t f = 0; f < fields; ++f) {
        row.push_back(SqlValue::FromCell(scanner.GetCell(static_cast<int>(f), r, &scratch)));
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

inline std::string RowsText(const std::vector<std::vector<SqlValue>>& rows) {
  std::string out;
  for (const auto& row : rows) {
    for (const SqlValue& v : row) {
      out += v.type == CellType::kNull ? std::string("NULL") : v.type == CellType::kInteger ? std::to_string(v.i) : v.bytes;
      out += "|";
    }
    out += "\n";
  }
  return out;
}

}  // namespace mutants

// Opens `bytes` as a table would (max_memory 64 MiB), scans every field, then scans again with an
// equality on a value of the first flat field that the full scan returned.
inline MutantOutcome CheckMutant(const std::string& bytes, bool lies) {
  using namespace mutants;
  MutantOutcome out;
  ReaderOptions options;
  options.memory = std::make_shared<MemoryBudget>(int64_t{64} << 20);
  auto opened = FileReader::Open(RandomAccessFile::FromBytes("mutant.parquet", bytes), options);
  if (!opened.ok()) {
    out.error = opened.status().ToString();
    return out;
  }
  std::shared_ptr<const FileReader> file = std::move(opened).value();
  Status counts = CheckRowCounts(*file);
  if (!counts.ok()) {
    out.error = counts.ToString();
    return out;
  }
  const Schema& schema = file->schema();
  std::vector<int> fields;
  std::vector<Affinity> affinity;
  for (size_t f = 0; f < schema.fields().size(); ++f) {
    fields.push_back(static_cast<int>(f));
    auto declared = TableScanner::DeclaredType(schema, static_cast<int>(f), ValueOptions{});
    affinity.push_back(AffinityOfDeclaredType(declared.ok() ? *declared : "BLOB"));
  }
  std::vector<int> groups;
  for (int g = 0; g < file->num_row_groups(); ++g) groups.push_back(g);
  auto scanner = TableScanner::Make(file, fields, groups, ValueOptions{});
  if (!scanner.ok()) {
    out.error = scanner.status().ToString();
    return out;
  }
  auto rows = AllRows(**scanner, fields.size());
  if (!rows.ok()) {
    out.error = rows.status().ToString();
    return out;
  }
  // The term: the first flat field equal to the value of its first non-NULL row.
  int field = -1;
  SqlValue literal;
  for (size_t f = 0; f < fields.size() && field < 0; ++f) {
    const SchemaNode& node = *schema.fields()[f];
    if (!node.is_leaf || node.is_repeated()) continue;
    for (const auto& row : *rows) {
      if (row[f].type != CellType::kNull) {
        field = static_cast<int>(f);
        literal = row[f];
        break;
      }
    }
  }
  if (field < 0) return out;
  Predicate predicate;
  predicate.terms.push_back(PredicateTerm{field, PredicateOp::kEq, {literal}});
  ScanCounters stats;
  auto plan = PlanScan(*file, predicate, affinity, ValueOptions{}, {}, &stats);
  if (!plan.ok()) {
    out.filtered = plan.status().ToString();
  } else {
    ScanRequest request;
    request.fields = fields;
    request.plan = std::move(plan).value();
    request.filter = &predicate;
    request.affinity = affinity;
    auto filtered = TableScanner::Make(file, request, ValueOptions{});
    auto got = filtered.ok() ? AllRows(**filtered, fields.size())
                             : Result<std::vector<std::vector<SqlValue>>>(filtered.status());
    if (!got.ok()) {
      out.filtered = got.status().ToString();
    } else {
      std::vector<std::vector<SqlValue>> want;
      for (const auto& row : *rows) {
        if (ValueSatisfies(row[static_cast<size_t>(field)].AsCell(), predicate.terms[0],
                           affinity[static_cast<size_t>(field)])) {
          want.push_back(row);
        }
      }
      if (RowsText(*got) != RowsText(want) && !lies) {
        out.disagree = true;
        out.detail = "full scan, filtered:\n" + RowsText(want) + "pushed down:\n" + RowsText(*got);
      }
    }
  }
  // A full scan that read every page without a contradiction leaves none for the pushed-down scan.
  if (!out.filtered.empty() && !lies) {
    out.disagree = true;
    out.detail = "the full scan gave rows, the pushed-down scan failed: " + out.filtered;
  }
  return out;
}

}  // namespace pq::hostile
