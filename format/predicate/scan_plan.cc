#include "format/predicate/scan_plan.h"

#include <algorithm>
#include <optional>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/encoding/decoder.h"
#include "format/file/chunk_index_reader.h"
#include "format/metadata/metadata_io.h"
#include "format/page/page_reader.h"
#include "format/predicate/bloom_literal.h"
#include "format/predicate/statistics_range.h"

namespace pq {
namespace {

// Bytes read first at a Bloom filter whose length the metadata does not give (its header: see
// ChunkIndexReader).
constexpr int64_t kBloomHeaderProbe = 256;
// Bytes read first for a data page header when walking a chunk without a page index, and the
// most a header (with its statistics) may take.
constexpr int64_t kPageHeaderProbe = 256;
constexpr int64_t kMaxPageHeaderBytes = int64_t{1} << 20;
// Dictionary entries decoded per batch.
constexpr int64_t kDictionaryBatch = 256;

// A term on a flat top-level leaf, with what it needs to read that leaf's metadata.
struct TermColumn {
  const PredicateTerm* term = nullptr;
  Affinity affinity = Affinity::kBlob;
  int leaf = -1;
  // A LeafTerm's: the leaf is used only in row groups where this one is empty, and so is each
  // enclosing object's, or the object's typed_value is never null where the object is present.
  int value_leaf = -1;
  std::vector<LeafTerm::Enclosing> enclosing;
  // The affinity the Bloom filter's literal mapping is asked with (BloomHashOfLiteral wants the
  // converter's own): a LeafTerm's value compares without affinity, yet a literal equal to one of
  // its values is equal to it under the converter's affinity too.
  Affinity bloom_affinity = Affinity::kBlob;
  std::optional<StatisticsRangeMapper> mapper;
  std::optional<TermMatcher> matcher;  // for dictionary entries
};

// Whether every non-NULL value satisfying the term is equal to one of its literals (so a set of
// stored values without them cannot satisfy it): =, IN, IS with a non-NULL literal.
bool IsEqualityTerm(const PredicateTerm& t) {
  if (t.op == PredicateOp::kEq || t.op == PredicateOp::kIn) return true;
  return t.op == PredicateOp::kIs && !t.values.empty() && t.values[0].type != CellType::kNull;
}

// One row group being planned: the file, the row group, and messages that name both.
class RowGroupPlanner {
 public:
  RowGroupPlanner(const FileReader& file, int row_group, ScanCounters* stats)
      : file_(file),
        row_group_(row_group),
        group_(file.metadata().row_groups[static_cast<size_t>(row_group)]),
        stats_(stats) {}

  int64_t num_rows() const { return group_.num_rows; }

  // Whether the term's leaf speaks for its values in this row group: always, except for a
  // LeafTerm whose `value` column holds a value here (or whose statistics do not say it does not).
  bool Usable(const TermColumn& t) const {
    if (t.value_leaf >= 0 && !AllNull(t.value_leaf)) return false;
    for (const LeafTerm::Enclosing& e : t.enclosing) {
      if (AllNull(e.value_leaf)) continue;
      const ColumnMetaData* meta = Meta(t.leaf);
      if (meta == nullptr || !meta->size_statistics) return false;
      const std::vector<int64_t>& histogram = meta->size_statistics->definition_level_histogram;
      const auto level = static_cast<size_t>(e.typed_null_level);
      if (histogram.size() != static_cast<size_t>(file_.schema().leaf(t.leaf).max_definition_level) + 1 ||
          histogram[level] != 0) {
        return false;
      }
    }
    return true;
  }
  // Whether the chunk of `leaf` holds no value: its statistics count as many nulls as values.
  bool AllNull(int leaf) const {
    const ColumnMetaData* meta = Meta(leaf);
    return meta != nullptr && meta->statistics && meta->statistics->null_count &&
           *meta->statistics->null_count == meta->num_values;
  }

  // The chunk's metadata, or null when it cannot be read here (encrypted): then the chunk is not
  // used for pruning.
  const ColumnMetaData* Meta(int leaf) const {
    auto m = file_.ColumnMeta(row_group_, leaf);
    return m.ok() ? *m : nullptr;
  }
  // Dictionary pages, Bloom filters and page indexes of an encrypted chunk are modules under its
  // key. *out gets the chunk's decryptor (nullopt: a plaintext chunk); false when the chunk cannot
  // be decrypted (no key for it): then it is not used for pruning, and the scan reports it.
  bool Decryptor(int leaf, std::optional<crypto::ColumnDecryptor>* out) const {
    auto d = file_.ChunkDecryptor(row_group_, leaf);
    if (!d.ok()) return false;
    *out = std::move(d).value();
    return true;
  }

  bool StatisticsMaySatisfy(const TermColumn& t) const;
  Result<bool> DictionaryMaySatisfy(const TermColumn& t) const;
  Result<bool> BloomFilterMaySatisfy(const TermColumn& t) const;
  // Whether the chunk has a Bloom filter that is fewer bytes to read than its dictionary page (one
  // already in the file's DictionaryCache costs nothing).
  bool BloomCheaperThanDictionary(const TermColumn& t) const;
  // The rows of pages that may satisfy the term; nullopt when the chunk has no page index.
  Result<std::optional<RowRanges>> PageIndexRows(const TermColumn& t) const;
  // The same from the statistics in the data page headers, for a chunk without a page index;
  // nullopt when the headers cannot be walked or say nothing useful.
  std::optional<RowRanges> PageHeaderRows(const TermColumn& t) const;
  bool HasPageIndex(int leaf) const {
    const ColumnChunk& c = Chunk(leaf);
    return c.column_index_offset && c.column_index_length && c.offset_index_offset &&
           c.offset_index_length;
  }

 private:
  const ColumnChunk& Chunk(int leaf) const { return group_.columns[static_cast<size_t>(leaf)]; }
  std::string Where(int leaf) const {
    return file_.path() + ", row group " + std::to_string(row_group_) + ", column '" +
           file_.schema().leaf(leaf).DottedPath() + "'";
  }
  Status Fail(int leaf, Status s) const { return std::move(s).WithContext(Where(leaf)); }
  // Reads [offset, offset + length) of the file, which must lie inside it; counts the bytes.
  Result<BufferPtr> Read(int leaf, int64_t offset, int64_t length, const char* what) const;
  // Reads the header module of an encrypted chunk at `pos` (before `end`) and parses it.
  // `dictionary` / `data_page_ordinal` identify the module (column_decryptor.h). *module_size
  // gets its size in the file.
  // The page header at `pos` (within [pos, end)), read in small probes, or through the decryptor
  // for an encrypted chunk (`dictionary`: the module is the dictionary page's; `data_pages`: the
  // data pages before it). False when it cannot be read or parsed.
  bool ReadHeaderAt(int leaf, const std::optional<crypto::ColumnDecryptor>& decryptor, int64_t pos,
                    int64_t end, bool dictionary, int64_t data_pages, PageHeader* header,
                    size_t* header_size) const;
  Status ReadEncryptedPageHeader(int leaf, const crypto::ColumnDecryptor& decryptor, int64_t pos,
                                 int64_t end, bool dictionary, int64_t data_page_ordinal,
                                 PageHeader* header, size_t* module_size) const;

  template <typename T>
  Result<bool> DictionaryHasMatch(const TermColumn& t, const CachedDictionary& page) const;

  const FileReader& file_;
  int row_group_;
  const RowGroup& group_;
  ScanCounters* stats_;
};

Result<BufferPtr> RowGroupPlanner::Read(int leaf, int64_t offset, int64_t length,
                                        const char* what) const {
  const int64_t size = file_.file().size();
  if (offset < 0 || length < 0 || offset > size || length > size - offset) {
    return Fail(leaf,
                Status::Corruption(std::string(what) + " range [" + std::to_string(offset) + ", +" +
                                   std::to_string(length) + ") is outside the file (size " +
                                   std::to_string(size) + ")"));
  }
  auto bytes = file_.file().ReadAt(offset, length);
  if (!bytes.ok()) return Fail(leaf, std::move(bytes).TakeStatus());
  stats_->bytes_read += length;
  return bytes;
}

bool RowGroupPlanner::StatisticsMaySatisfy(const TermColumn& t) const {
  const ColumnMetaData* meta = Meta(t.leaf);
  if (meta == nullptr) return true;
  const Statistics* s = meta->statistics ? &*meta->statistics : nullptr;
  return RangeMaySatisfy(t.mapper->FromStatistics(s, meta->num_values), *t.term, t.affinity);
}

// ---- dictionary --------------------------------------------------------------------------------

// Whether every data page of the chunk is dictionary-encoded, so the dictionary holds every
// non-NULL value. With encoding_stats this is what they say; without, only a chunk whose encodings
// list names nothing but dictionary encodings and the level encodings (a PLAIN entry may be a
// fallback data page, so it disqualifies the chunk).
bool FullyDictionaryEncoded(const ColumnMetaData& m) {
  auto is_dictionary = [](Encoding e) {
    return e == Encoding::kPlainDictionary || e == Encoding::kRleDictionary;
  };
  if (m.encoding_stats && !m.encoding_stats->empty()) {
    bool any_data_page = false;
    for (const PageEncodingStats& s : *m.encoding_stats) {
      if (s.page_type != PageType::kDataPage && s.page_type != PageType::kDataPageV2) continue;
      if (!is_dictionary(s.encoding)) return false;
      any_data_page = true;
    }
    return any_data_page;
  }
  bool any_dictionary = false;
  for (Encoding e : m.encodings) {
    if (is_dictionary(e)) {
      any_dictionary = true;
    } else if (e != Encoding::kRle && e != Encoding::kBitPacked) {
      return false;
    }
  }
  return any_dictionary;
}

template <typename T>
Result<bool> RowGroupPlanner::DictionaryHasMatch(const TermColumn& t,
                                                 const CachedDictionary& page) const {
  const SchemaNode& leaf = file_.schema().leaf(t.leaf);
  auto decoder = MakeDecoder<T>(leaf.physical_type, Encoding::kPlain, leaf.type_length);
  if (!decoder.ok()) return Fail(t.leaf, std::move(decoder).TakeStatus().WithContext("dictionary"));
  Status set = (*decoder)->SetData(page.body, page.num_values);
  if (!set.ok()) return Fail(t.leaf, std::move(set).WithContext("dictionary page"));
  const LeafConverter& converter = t.mapper->converter();
  T values[kDictionaryBatch];
  std::string scratch;
  int64_t left = page.num_values;
  while (left > 0) {
    auto n = (*decoder)->Decode(values, std::min(left, kDictionaryBatch));
    if (!n.ok()) return Fail(t.leaf, std::move(n).TakeStatus().WithContext("dictionary"));
    if (*n <= 0) {
      return Fail(t.leaf, Status::Corruption("dictionary page holds fewer values than its header "
                                             "says (" +
                                             std::to_string(page.num_values) + ")"));
    }
    for (int64_t i = 0; i < *n; ++i) {
      if (t.matcher->Matches(converter.Convert(values[i], &scratch))) return true;
    }
    left -= *n;
  }
  return false;
}

Result<bool> RowGroupPlanner::DictionaryMaySatisfy(const TermColumn& t) const {
  std::optional<crypto::ColumnDecryptor> decryptor;
  if (!IsEqualityTerm(*t.term) || !Decryptor(t.leaf, &decryptor)) return true;
  const ColumnMetaData* meta = Meta(t.leaf);
  if (meta == nullptr || meta->num_values <= 0 || meta->type == PhysicalType::kBoolean ||
      meta->type != file_.schema().leaf(t.leaf).physical_type || !FullyDictionaryEncoded(*meta)) {
    return true;
  }
  // The dictionary page is what lies between its offset and the first data page.
  if (!meta->dictionary_page_offset || *meta->dictionary_page_offset <= 0 ||
      *meta->dictionary_page_offset >= meta->data_page_offset) {
    return true;
  }
  const ReaderOptions& options = file_.options();
  const int64_t begin = *meta->dictionary_page_offset;
  const int64_t length = meta->data_page_offset - begin;
  // The header takes a few bytes beyond the page; anything much larger is not worth reading here.
  if (length > options.limits.max_dictionary_size + (int64_t{1} << 16)) return true;
  if (length > file_.file().size() - begin) {
    return Fail(t.leaf,
                Status::Corruption("dictionary page range [" + std::to_string(begin) + ", +" +
                                   std::to_string(length) + ") is outside the file"));
  }
  std::shared_ptr<const CachedDictionary> cached = file_.dictionary_cache().Find(row_group_, t.leaf);
  if (cached == nullptr) {
    ColumnMetaData dictionary_only;
    dictionary_only.type = meta->type;
    dictionary_only.codec = meta->codec;
    dictionary_only.num_values = meta->num_values;
    dictionary_only.dictionary_page_offset = begin;
    dictionary_only.data_page_offset = meta->data_page_offset;
    dictionary_only.total_compressed_size = length;
    PageReader reader(file_.file(), dictionary_only, options, Where(t.leaf), 0,
                      decryptor ? &*decryptor : nullptr);
    const SchemaNode& leaf = file_.schema().leaf(t.leaf);
    reader.set_page_bounds(0, FixedValueWidth(leaf.physical_type, leaf.type_length));
    Page page;
    auto got = reader.Next(&page);
    stats_->bytes_read += reader.bytes_read();
    if (!got.ok()) return std::move(got).TakeStatus();
    if (!*got || page.type != PageType::kDictionaryPage) return true;
    if (page.encoding != Encoding::kPlain && page.encoding != Encoding::kPlainDictionary) {
      return true;
    }
    // The dictionary a scan decodes: the only page before the first data page, which is no
    // dictionary page either. Anything else there (a second dictionary page, which the scan
    // refuses) and the dictionary says nothing.
    if (page.end != meta->data_page_offset) return true;
    if (!decryptor) {
      const int64_t probe = std::min(kPageHeaderProbe, file_.file().size() - meta->data_page_offset);
      if (probe <= 0) return true;
      PQ_ASSIGN_OR_RETURN(BufferPtr next, Read(t.leaf, meta->data_page_offset, probe, "page header"));
      PageHeader header;
      size_t header_size = 0;
      if (!ReadPageHeader(ByteSpan(next->data(), next->size()), &header, &header_size).ok() ||
          header.type == PageType::kDictionaryPage) {
        return true;
      }
    }
    auto entry = std::make_shared<CachedDictionary>();
    // The body may point into a buffer the reader shares with the stored bytes: keep that buffer.
    entry->owner = page.owner;
    entry->owner2 = page.owner2;
    entry->body = page.body;
    entry->num_values = page.num_values;
    cached = entry;
    file_.dictionary_cache().Store(row_group_, t.leaf, cached, static_cast<int64_t>(cached->body.size()));
  }
  const CachedDictionary& page = *cached;
  switch (meta->type) {
    case PhysicalType::kInt32:
      return DictionaryHasMatch<int32_t>(t, page);
    case PhysicalType::kInt64:
      return DictionaryHasMatch<int64_t>(t, page);
    case PhysicalType::kInt96:
      return DictionaryHasMatch<Int96>(t, page);
    case PhysicalType::kFloat:
      return DictionaryHasMatch<float>(t, page);
    case PhysicalType::kDouble:
      return DictionaryHasMatch<double>(t, page);
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      return DictionaryHasMatch<ByteArray>(t, page);
    default:
      return true;
  }
}

// ---- Bloom filter ------------------------------------------------------------------------------

bool RowGroupPlanner::BloomCheaperThanDictionary(const TermColumn& t) const {
  const ColumnMetaData* meta = Meta(t.leaf);
  if (meta == nullptr || !meta->bloom_filter_offset) return false;
  if (file_.bloom_filter_cache().Find(row_group_, t.leaf) != nullptr) return true;
  if (!meta->dictionary_page_offset || *meta->dictionary_page_offset <= 0 ||
      *meta->dictionary_page_offset >= meta->data_page_offset) {
    return true;  // no dictionary to compare with
  }
  if (file_.dictionary_cache().Find(row_group_, t.leaf) != nullptr) return false;
  const int64_t dictionary_bytes = meta->data_page_offset - *meta->dictionary_page_offset;
  // Without a stored length, the header probe plus a typical filter.
  const int64_t bloom_bytes = meta->bloom_filter_length.value_or(kBloomHeaderProbe + 4096);
  return bloom_bytes < dictionary_bytes;
}

Result<bool> RowGroupPlanner::BloomFilterMaySatisfy(const TermColumn& t) const {
  std::optional<crypto::ColumnDecryptor> decryptor;
  if (!IsEqualityTerm(*t.term) || !Decryptor(t.leaf, &decryptor)) return true;
  const ColumnMetaData* meta = Meta(t.leaf);
  if (meta == nullptr || !meta->bloom_filter_offset) return true;
  // Every literal needs a hash before reading anything.
  std::vector<uint64_t> hashes;
  for (const SqlValue& v : t.term->values) {
    if (v.type == CellType::kNull) continue;  // never equal to anything
    const auto h = BloomHashOfLiteral(v, t.mapper->converter(), t.bloom_affinity);
    if (!h) return true;
    hashes.push_back(*h);
    if (t.term->op != PredicateOp::kIn) break;
  }
  if (hashes.empty()) return true;

  auto filter = ChunkIndexReader(file_, row_group_, t.leaf, decryptor, &stats_->bytes_read).ReadBloomFilter(*meta);
  if (!filter.ok()) return Fail(t.leaf, std::move(filter).TakeStatus());
  if (*filter == nullptr) return true;
  for (uint64_t h : hashes) {
    if ((*filter)->Check(h)) return true;
  }
  return false;
}

// ---- page index --------------------------------------------------------------------------------

Result<std::optional<RowRanges>> RowGroupPlanner::PageIndexRows(const TermColumn& t) const {
  std::optional<crypto::ColumnDecryptor> decryptor;
  if (!HasPageIndex(t.leaf) || !Decryptor(t.leaf, &decryptor)) return std::optional<RowRanges>();
  // The index is read (and parsed) once per file (ChunkIndexReader keeps it in the FileReader's
  // caches), then checked here on every use as if just read.
  //
  // A page index is an optional aid: one that is out of the file, does not parse, or contradicts
  // itself is not used (nullopt), and the chunk's pages are read as if it had none; the data may be
  // fine (@dsnp/parquetjs writes first_row_index 0 for every page, parquetjs-lite leaves out the
  // required null_pages). Only a failed read or a failed authentication (an altered encrypted
  // index, or a wrong key) stays an error.
  auto index = ChunkIndexReader(file_, row_group_, t.leaf, decryptor, &stats_->bytes_read).ReadPageIndex();
  if (!index.ok()) {
    const StatusCode code = index.status().code();
    if (code == StatusCode::kCrypto || code == StatusCode::kIOError || code == StatusCode::kInterrupted) return Fail(t.leaf, std::move(index).TakeStatus());
    return std::optional<RowRanges>();
  }
  if (!index->offsets || !index->columns) return std::optional<RowRanges>();
  const ColumnIndex& ci = *index->columns;
  const OffsetIndex& oi = *index->offsets;

  const std::vector<PageLocation>& pages = oi.page_locations;
  const size_t n = pages.size();
  if (n == 0 || ci.null_pages.size() != n || ci.min_values.size() != n ||
      ci.max_values.size() != n) {
    return std::optional<RowRanges>();
  }
  // The OffsetIndex must describe the chunk's pages as the column reader requires before it reads
  // through it (page_reader.h, OffsetIndexProblem): an index it would not use does not prune
  // either, so that the rows a query finds do not depend on whether its plan used the index.
  const ColumnMetaData* meta = Meta(t.leaf);
  int64_t chunk_begin = 0, chunk_end = 0;
  bool dictionary_first = false;
  if (meta == nullptr ||
      !ChunkByteRange(*meta, file_.file().size(), file_.chunk_size_slack(), &chunk_begin, &chunk_end).ok() ||
      !OffsetIndexProblem(oi, *meta, chunk_begin, chunk_end, num_rows(), &dictionary_first).empty()) {
    return std::optional<RowRanges>();
  }
  if (dictionary_first) {
    // The index starts after bytes the metadata does not call a dictionary (parquet-mr's way): the
    // reader uses it only when they are one dictionary page, so only then does it prune.
    PageHeader header;
    size_t header_size = 0;
    const int64_t first = pages[0].offset;
    if (!ReadHeaderAt(t.leaf, decryptor, chunk_begin, first, true, 0, &header, &header_size) ||
        header.type != PageType::kDictionaryPage || header.compressed_page_size < 0 ||
        chunk_begin + static_cast<int64_t>(header_size) + header.compressed_page_size != first) {
      return std::optional<RowRanges>();
    }
  }
  const int64_t rows = num_rows();
  RowRanges keep;
  for (size_t i = 0; i < n; ++i) {
    const int64_t begin = pages[i].first_row_index;
    const int64_t end = i + 1 < n ? pages[i + 1].first_row_index : rows;
    const ValueRange range = t.mapper->FromColumnIndex(ci, i, end - begin);
    ++stats_->pages_considered;
    if (RangeMaySatisfy(range, *t.term, t.affinity)) {
      keep.Add(begin, end);
    } else {
      ++stats_->pages_skipped_by_page_index;
    }
  }
  return std::optional<RowRanges>(std::move(keep));
}

// ---- page header statistics -------------------------------------------------------------------

std::optional<RowRanges> RowGroupPlanner::PageHeaderRows(const TermColumn& t) const {
  const ColumnMetaData* meta = Meta(t.leaf);
  std::optional<crypto::ColumnDecryptor> decryptor;
  if (meta == nullptr || HasPageIndex(t.leaf) || !Decryptor(t.leaf, &decryptor)) {
    return std::nullopt;
  }
  // Walking the headers is one small read per page: over a network, one round trip per page, more
  // than reading the chunk it would spare. Remote files are pruned by the other layers only.
  if (file_.file().remote()) return std::nullopt;
  // Without bounds only the NULL counts could help, and only NULL tests use those alone.
  const PredicateOp op = t.term->op;
  const bool null_test = op == PredicateOp::kIsNull || op == PredicateOp::kIsNotNull ||
                         ((op == PredicateOp::kIs || op == PredicateOp::kIsNot) &&
                          !t.term->values.empty() && t.term->values[0].type == CellType::kNull);
  if (!t.mapper->may_have_bounds() && !null_test) return std::nullopt;
  int64_t pos = meta->data_page_offset;
  if (meta->dictionary_page_offset && *meta->dictionary_page_offset > 0 &&
      *meta->dictionary_page_offset < pos) {
    pos = *meta->dictionary_page_offset;
  }
  const int64_t size = file_.file().size();
  if (pos < 0 || meta->total_compressed_size < 0 || pos > size ||
      meta->total_compressed_size > size - pos) {
    return std::nullopt;  // the scan reports the broken chunk
  }
  const int64_t end = pos + meta->total_compressed_size;
  const int64_t rows = num_rows();
  int64_t row = 0, considered = 0, skipped = 0, data_pages = 0;
  RowRanges keep;
  while (pos < end && row < rows) {
    // Read enough for the header: a small probe, larger only for headers with long statistics.
    PageHeader header;
    size_t header_size = 0;
    // A header module; the chunk's first one is its dictionary page's when it has one.
    const bool dictionary = decryptor && crypto::ExpectDictionaryPage(*meta) &&
                            pos == *meta->dictionary_page_offset;
    if (!ReadHeaderAt(t.leaf, decryptor, pos, end, dictionary, data_pages, &header,
                      &header_size)) {
      return std::nullopt;  // the scan reports the broken chunk
    }
    if (header.compressed_page_size < 0 ||
        header.compressed_page_size > end - pos - static_cast<int64_t>(header_size)) {
      return std::nullopt;
    }
    pos += static_cast<int64_t>(header_size) + header.compressed_page_size;
    int64_t page_rows;
    const Statistics* page_stats;
    if (header.type == PageType::kDataPage && header.data_page_header) {
      page_rows = header.data_page_header->num_values;  // a flat leaf: one value per row
      page_stats =
          header.data_page_header->statistics ? &*header.data_page_header->statistics : nullptr;
    } else if (header.type == PageType::kDataPageV2 && header.data_page_header_v2) {
      page_rows = header.data_page_header_v2->num_rows;
      page_stats = header.data_page_header_v2->statistics ? &*header.data_page_header_v2->statistics
                                                          : nullptr;
    } else {
      continue;  // dictionary and index pages
    }
    ++data_pages;
    if (page_rows < 0 || page_rows > rows - row) return std::nullopt;
    ++considered;
    if (RangeMaySatisfy(t.mapper->FromStatistics(page_stats, page_rows), *t.term, t.affinity)) {
      keep.Add(row, row + page_rows);
    } else {
      ++skipped;
    }
    row += page_rows;
  }
  if (row != rows) return std::nullopt;
  stats_->pages_considered += considered;
  stats_->pages_skipped_by_page_index += skipped;
  return keep;
}

bool RowGroupPlanner::ReadHeaderAt(int leaf, const std::optional<crypto::ColumnDecryptor>& decryptor,
                                   int64_t pos, int64_t end, bool dictionary, int64_t data_pages,
                                   PageHeader* header, size_t* header_size) const {
  if (decryptor) {
    return ReadEncryptedPageHeader(leaf, *decryptor, pos, end, dictionary, data_pages, header,
                                   header_size)
        .ok();
  }
  // Enough for the header: a small probe, larger only for headers with long statistics.
  for (int64_t probe = kPageHeaderProbe;; probe *= 8) {
    probe = std::min(probe, end - pos);
    if (probe <= 0) return false;
    auto bytes = file_.file().ReadAt(pos, probe);
    if (!bytes.ok()) return false;
    stats_->bytes_read += probe;
    if (ReadPageHeader(ByteSpan((*bytes)->data(), (*bytes)->size()), header, header_size).ok()) {
      return true;
    }
    if (probe >= std::min(kMaxPageHeaderBytes, end - pos)) return false;
  }
}

Status RowGroupPlanner::ReadEncryptedPageHeader(int leaf, const crypto::ColumnDecryptor& decryptor,
                                                int64_t pos, int64_t end, bool dictionary,
                                                int64_t data_page_ordinal, PageHeader* header,
                                                size_t* module_size) const {
  const int64_t probe = std::min(kPageHeaderProbe, end - pos);
  PQ_ASSIGN_OR_RETURN(BufferPtr bytes, Read(leaf, pos, probe, "page header"));
  if (bytes->size() >= 4) {
    // The module's length field says how much to read when the probe was short.
    const int64_t claimed = int64_t{LoadLE<uint32_t>(bytes->data())} + 4;
    if (claimed > static_cast<int64_t>(bytes->size())) {
      if (claimed > kMaxPageHeaderBytes || claimed > end - pos) {
        return Status::Corruption("encrypted page header claims " + std::to_string(claimed) +
                                  " bytes");
      }
      PQ_ASSIGN_OR_RETURN(bytes, Read(leaf, pos, claimed, "page header"));
    }
  }
  return decryptor.ReadPageHeader(ByteSpan(bytes->data(), bytes->size()), dictionary,
                                  data_page_ordinal, header, module_size);
}

}  // namespace

Result<ScanPlan> PlanScan(const FileReader& file, const Predicate& predicate,
                          const std::vector<Affinity>& affinity, const ValueOptions& options,
                          const std::vector<int>& row_groups, ScanCounters* stats,
                          const std::vector<LeafTerm>& leaf_terms) {
  ScanCounters local;
  if (stats == nullptr) stats = &local;
  const Schema& schema = file.schema();
  const int num_fields = static_cast<int>(schema.fields().size());

  // Terms this file can prune on: those on flat top-level leaves.
  std::vector<TermColumn> columns;
  for (const PredicateTerm& term : predicate.terms) {
    if (term.field < 0 || term.field >= num_fields ||
        static_cast<size_t>(term.field) >= affinity.size()) {
      return Status::InvalidArgument("predicate term on field " + std::to_string(term.field) +
                                     " of a file with " + std::to_string(num_fields) + " fields (" +
                                     std::to_string(affinity.size()) + " affinities)")
          .WithContext(file.path());
    }
    const SchemaNode& field = *schema.fields()[static_cast<size_t>(term.field)];
    if (!field.is_leaf || field.is_repeated() || field.max_repetition_level != 0) continue;
    auto mapper = StatisticsRangeMapper::Make(file.metadata(), field, options);
    if (!mapper.ok()) continue;  // a column the scan cannot read either; it reports that
    TermColumn& c = columns.emplace_back();
    c.term = &term;
    c.affinity = affinity[static_cast<size_t>(term.field)];
    c.bloom_affinity = c.affinity;
    c.leaf = field.leaf_index;
    c.mapper.emplace(std::move(mapper).value());
    c.matcher.emplace(term, c.affinity);
  }
  for (const LeafTerm& term : leaf_terms) {
    bool leaves_exist = term.leaf >= 0 && term.leaf < schema.num_leaves() && term.value_leaf < schema.num_leaves();
    for (const LeafTerm::Enclosing& e : term.enclosing) {
      leaves_exist = leaves_exist && e.value_leaf >= 0 && e.value_leaf < schema.num_leaves() && e.typed_null_level >= 0 &&
                     e.typed_null_level <= schema.leaf(term.leaf).max_definition_level;
    }
    if (!leaves_exist) {
      return Status::InvalidArgument("predicate term on leaf " + std::to_string(term.leaf) + " of a file with " +
                                     std::to_string(schema.num_leaves()) + " leaves")
          .WithContext(file.path());
    }
    const SchemaNode& leaf = schema.leaf(term.leaf);
    if (leaf.max_repetition_level != 0) continue;
    auto mapper = StatisticsRangeMapper::Make(file.metadata(), leaf, ValueOptions());
    if (!mapper.ok()) continue;
    TermColumn& c = columns.emplace_back();
    c.term = &term.term;
    c.affinity = term.affinity;
    c.bloom_affinity = AffinityOfDeclaredType(mapper->converter().declared_type());
    c.leaf = term.leaf;
    c.value_leaf = term.value_leaf;
    c.enclosing = term.enclosing;
    c.mapper.emplace(std::move(mapper).value());
    c.matcher.emplace(term.term, c.affinity);
  }

  std::vector<int> candidates;
  if (row_groups.empty()) {
    for (int rg = 0; rg < file.num_row_groups(); ++rg) candidates.push_back(rg);
  } else {
    for (int rg : row_groups) {
      if (rg < 0 || rg >= file.num_row_groups()) {
        return Status::InvalidArgument("row group " + std::to_string(rg) + " of a file with " +
                                       std::to_string(file.num_row_groups()))
            .WithContext(file.path());
      }
    }
    candidates = row_groups;
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  }

  ++stats->files_considered;
  // Layer by layer over all candidates, so that a remote file's Bloom filters and page indexes of
  // the row groups still in play are read together (one ReadRanges call each) before they are
  // used; a local file reads each where it is used. Each row group is judged by the same layers in
  // the same order either way.
  const bool remote = file.file().remote();
  std::vector<int> kept;  // candidates no layer has excluded so far
  for (int rg : candidates) {
    RowGroupPlanner planner(file, rg, stats);
    const int64_t rows = planner.num_rows();
    ++stats->row_groups_considered;
    stats->rows_considered += rows;
    if (rows == 0) continue;  // nothing to read
    bool skip = false;
    for (const TermColumn& c : columns) {
      if (planner.Usable(c) && !planner.StatisticsMaySatisfy(c)) {
        ++stats->row_groups_skipped_by_statistics;
        skip = true;
        break;
      }
    }
    if (skip) {
      stats->rows_skipped += rows;
      continue;
    }
    kept.push_back(rg);
  }
  if (remote && !kept.empty()) {
    for (const TermColumn& c : columns) {
      if (!IsEqualityTerm(*c.term)) continue;
      PQ_RETURN_IF_ERROR(ChunkIndexReader::PrefetchBloomFilters(file, c.leaf, kept, &stats->bytes_read)
                             .WithContext(file.path()));
    }
  }
  std::vector<int> next;
  for (int rg : kept) {
    RowGroupPlanner planner(file, rg, stats);
    bool skip = false;
    // Dictionary, then Bloom filter; but where a column's Bloom filter is fewer bytes to read than
    // its dictionary (high-cardinality columns), the Bloom filter is asked first.
    for (int pass = 0; pass < 2 && !skip; ++pass) {
      for (size_t i = 0; i < columns.size() && !skip; ++i) {
        if (!planner.Usable(columns[i])) continue;
        const bool bloom_first = planner.BloomCheaperThanDictionary(columns[i]);
        if (bloom_first == (pass == 0)) {
          PQ_ASSIGN_OR_RETURN(bool may, planner.BloomFilterMaySatisfy(columns[i]));
          if (!may) {
            ++stats->row_groups_skipped_by_bloom_filter;
            skip = true;
          }
        } else {
          PQ_ASSIGN_OR_RETURN(bool may, planner.DictionaryMaySatisfy(columns[i]));
          if (!may) {
            ++stats->row_groups_skipped_by_dictionary;
            skip = true;
          }
        }
      }
    }
    if (skip) {
      stats->rows_skipped += planner.num_rows();
      continue;
    }
    next.push_back(rg);
  }
  kept = std::move(next);
  if (remote && !kept.empty() && !columns.empty()) {
    PQ_RETURN_IF_ERROR(ChunkIndexReader::PrefetchPageIndexes(file, kept, &stats->bytes_read).WithContext(file.path()));
  }
  ScanPlan plan;
  for (int rg : kept) {
    RowGroupPlanner planner(file, rg, stats);
    const int64_t rows = planner.num_rows();
    bool skip = false;
    RowRanges keep = RowRanges::All(rows);
    for (size_t i = 0; i < columns.size() && !skip; ++i) {
      if (!planner.Usable(columns[i])) continue;
      PQ_ASSIGN_OR_RETURN(std::optional<RowRanges> pages, planner.PageIndexRows(columns[i]));
      if (!pages) pages = planner.PageHeaderRows(columns[i]);
      if (!pages) continue;
      keep = keep.Intersect(*pages);
      if (keep.empty()) {
        ++stats->row_groups_skipped_by_page_index;
        skip = true;
      }
    }
    if (skip) {
      stats->rows_skipped += rows;
      continue;
    }
    stats->rows_skipped += rows - keep.row_count();
    plan.row_groups.push_back({rg, std::move(keep)});
  }
  if (plan.row_groups.empty()) ++stats->files_skipped;
  return plan;
}

}  // namespace pq
