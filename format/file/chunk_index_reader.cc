#include "format/file/chunk_index_reader.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "format/crypto/aes_cipher.h"
#include "format/metadata/metadata_io.h"
#include "format/util/byte_reader.h"

namespace pq {
namespace {

// Bytes read first at a Bloom filter whose length the metadata does not give (its header), and the
// most a plain header is read with when the first read was too short for it.
constexpr int64_t kBloomHeaderProbe = 256;
constexpr int64_t kMaxBloomHeaderBytes = 4096;
// The most an encrypted header module may claim.
constexpr int64_t kMaxHeaderModuleBytes = int64_t{1} << 20;
// Bytes read first for a page index structure whose length the footer does not give.
constexpr int64_t kIndexWindow = int64_t{64} << 10;

// Checks a stored structure's offset and length (from the footer) against the file of `size` bytes
// and the cap: Corruption for an offset outside the file, a length that is not positive or runs past
// the end; NotSupported for a length over `cap`.
Status CheckStored(const char* what, int64_t offset, std::optional<int64_t> length, int64_t size, int64_t cap) {
  if (offset < 0 || offset >= size) {
    return Status::Corruption(std::string(what) + " offset " + std::to_string(offset) +
                              " is outside the file (size " + std::to_string(size) + ")");
  }
  if (!length) return Status::OK();
  if (*length <= 0) {
    return Status::Corruption(std::string(what) + " length " + std::to_string(*length) + " is not positive");
  }
  if (*length > size - offset) {
    return Status::Corruption(std::string(what) + " of " + std::to_string(*length) + " bytes at offset " +
                              std::to_string(offset) + " runs past the end of the file (size " +
                              std::to_string(size) + ")");
  }
  if (*length > cap) {
    return Status::NotSupported(std::string(what) + " of " + std::to_string(*length) +
                                " bytes is over the limit of " + std::to_string(cap));
  }
  return Status::OK();
}

ByteSpan SpanOf(const BufferPtr& b) { return ByteSpan(b->data(), b->size()); }

// Parses (and decrypts) one page index structure from the start of `bytes`. Read without a stored
// length, the bytes run past an encrypted module: its length field says where it ends.
// What the parsed structure may take in memory is `max_memory` (a list of empty strings is a byte
// each in the file and dozens in memory): OutOfMemory past it.
Status ParseIndex(ByteSpan bytes, bool exact, const std::optional<crypto::ColumnDecryptor>& decryptor,
                  int64_t max_memory, OffsetIndex* out) {
  if (!decryptor) return ReadOffsetIndex(bytes, out, nullptr, max_memory);
  if (!exact) {
    auto size = crypto::ModuleSizeAt(bytes, "page index");
    if (size.ok() && *size < bytes.size()) bytes = bytes.first(*size);
  }
  return decryptor->ReadOffsetIndex(bytes, out, max_memory);
}
Status ParseIndex(ByteSpan bytes, bool exact, const std::optional<crypto::ColumnDecryptor>& decryptor,
                  int64_t max_memory, ColumnIndex* out) {
  Status s;
  if (!decryptor) {
    s = ReadColumnIndex(bytes, out, nullptr, max_memory);
  } else {
    if (!exact) {
      auto size = crypto::ModuleSizeAt(bytes, "page index");
      if (size.ok() && *size < bytes.size()) bytes = bytes.first(*size);
    }
    s = decryptor->ReadColumnIndex(bytes, out, max_memory);
  }
  if (!s.ok()) return s;
  const size_t n = out->null_pages.size();
  if (out->min_values.size() != n || out->max_values.size() != n ||
      (out->null_counts && out->null_counts->size() != n)) {
    return Status::Corruption("ColumnIndex lists differ in length: " + std::to_string(n) + " null_pages, " +
                              std::to_string(out->min_values.size()) + " min_values, " +
                              std::to_string(out->max_values.size()) + " max_values" +
                              (out->null_counts ? ", " + std::to_string(out->null_counts->size()) + " null_counts"
                                                : std::string()));
  }
  return Status::OK();
}

size_t PagesOf(const OffsetIndex& index) { return index.page_locations.size(); }
size_t PagesOf(const ColumnIndex& index) { return index.null_pages.size(); }

}  // namespace

bool BloomFiltersUsable(const std::optional<std::string>& created_by) {
  return !created_by || created_by->find("parquetjs") == std::string::npos;
}

ChunkIndexReader::ChunkIndexReader(const FileReader& file, int row_group, int leaf,
                                   std::optional<crypto::ColumnDecryptor> decryptor, int64_t* bytes_read)
    : file_(file),
      chunk_(file.metadata().row_groups[static_cast<size_t>(row_group)].columns[static_cast<size_t>(leaf)]),
      row_group_(row_group),
      leaf_(leaf),
      decryptor_(std::move(decryptor)),
      bytes_read_(bytes_read) {}

Result<BufferPtr> ChunkIndexReader::Read(int64_t offset, int64_t length) const {
  for (const auto& [at, held] : held_) {
    if (offset < at || length > static_cast<int64_t>(held->size()) - (offset - at)) continue;
    if (offset == at && length == static_cast<int64_t>(held->size())) return held;
    const uint8_t* from = held->data() + (offset - at);
    return BufferPtr(std::make_shared<const Buffer>(from, from + length));
  }
  PQ_ASSIGN_OR_RETURN(BufferPtr bytes, file_.file().ReadAt(offset, length));
  if (bytes_read_ != nullptr) *bytes_read_ += length;
  return bytes;
}

Status ChunkIndexReader::PrefetchPageIndexes(const FileReader& file, std::span<const int> row_groups,
                                             int64_t* bytes_read) {
  const int64_t size = file.file().size(), cap = file.options().limits.max_footer_size;
  struct Chunk {
    int row_group, leaf;
  };
  std::vector<Chunk> chunks;
  std::vector<ByteRange> ranges;
  for (int rg : row_groups) {
    if (rg < 0 || rg >= file.num_row_groups()) continue;
    const RowGroup& group = file.metadata().row_groups[static_cast<size_t>(rg)];
    for (size_t leaf = 0; leaf < group.columns.size(); ++leaf) {
      const ColumnChunk& c = group.columns[leaf];
      if (!c.offset_index_offset || !c.offset_index_length || !c.column_index_offset || !c.column_index_length) {
        continue;
      }
      const ByteRange oi{*c.offset_index_offset, *c.offset_index_length};
      const ByteRange ci{*c.column_index_offset, *c.column_index_length};
      if (!CheckStored("OffsetIndex", oi.offset, oi.length, size, cap).ok() ||
          !CheckStored("ColumnIndex", ci.offset, ci.length, size, cap).ok()) {
        continue;
      }
      if (file.offset_index_cache().Find({oi.offset, oi.length}) &&
          file.column_index_cache().Find({ci.offset, ci.length})) {
        continue;
      }
      chunks.push_back({rg, static_cast<int>(leaf)});
      ranges.push_back(oi);
      ranges.push_back(ci);
    }
  }
  if (chunks.empty()) return Status::OK();
  std::vector<BufferPtr> bytes;
  PQ_RETURN_IF_ERROR(file.file().ReadRanges(ranges, &bytes));
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (bytes_read != nullptr) *bytes_read += ranges[2 * i].length + ranges[2 * i + 1].length;
    auto decryptor = file.ChunkDecryptor(chunks[i].row_group, chunks[i].leaf);
    if (!decryptor.ok()) continue;
    ChunkIndexReader reader(file, chunks[i].row_group, chunks[i].leaf, std::move(decryptor).value(), nullptr);
    reader.held_ = {{ranges[2 * i].offset, bytes[2 * i]}, {ranges[2 * i + 1].offset, bytes[2 * i + 1]}};
    (void)reader.ReadPageIndex();  // parsed into the caches; a broken one is its reader's to report
  }
  return Status::OK();
}

Status ChunkIndexReader::PrefetchOffsetIndexes(const FileReader& file, std::span<const int> row_groups,
                                               std::span<const int> leaves, int64_t* bytes_read) {
  const int64_t size = file.file().size(), cap = file.options().limits.max_footer_size;
  std::vector<std::pair<int, int>> chunks;  // (row group, leaf)
  std::vector<ByteRange> ranges;
  const auto add = [&](int rg, const RowGroup& group, int leaf) {
    if (leaf < 0 || static_cast<size_t>(leaf) >= group.columns.size()) return;
    const ColumnChunk& c = group.columns[static_cast<size_t>(leaf)];
    if (!c.offset_index_offset || !c.offset_index_length) return;
    const ByteRange oi{*c.offset_index_offset, *c.offset_index_length};
    if (!CheckStored("OffsetIndex", oi.offset, oi.length, size, cap).ok()) return;
    if (file.offset_index_cache().Find({oi.offset, oi.length})) return;
    chunks.emplace_back(rg, leaf);
    ranges.push_back(oi);
  };
  for (int rg : row_groups) {
    if (rg < 0 || rg >= file.num_row_groups()) continue;
    const RowGroup& group = file.metadata().row_groups[static_cast<size_t>(rg)];
    if (leaves.empty()) {
      for (size_t leaf = 0; leaf < group.columns.size(); ++leaf) add(rg, group, static_cast<int>(leaf));
    } else {
      for (int leaf : leaves) add(rg, group, leaf);
    }
  }
  if (chunks.empty()) return Status::OK();
  std::vector<BufferPtr> bytes;
  PQ_RETURN_IF_ERROR(file.file().ReadRanges(ranges, &bytes));
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (bytes_read != nullptr) *bytes_read += ranges[i].length;
    auto decryptor = file.ChunkDecryptor(chunks[i].first, chunks[i].second);
    if (!decryptor.ok()) continue;
    ChunkIndexReader reader(file, chunks[i].first, chunks[i].second, std::move(decryptor).value(), nullptr);
    reader.held_ = {{ranges[i].offset, bytes[i]}};
    (void)reader.ReadOffsetIndex();  // parsed into the cache; a broken one is its reader's to report
  }
  return Status::OK();
}

Status ChunkIndexReader::PrefetchBloomFilters(const FileReader& file, int leaf, std::span<const int> row_groups,
                                              int64_t* bytes_read) {
  if (!BloomFiltersUsable(file.metadata().created_by)) return Status::OK();
  const int64_t size = file.file().size();
  std::vector<int> groups;
  std::vector<ByteRange> ranges;
  for (int rg : row_groups) {
    if (rg < 0 || rg >= file.num_row_groups() || leaf < 0 || leaf >= file.schema().num_leaves()) continue;
    if (file.bloom_filter_cache().Find(rg, leaf) != nullptr) continue;
    auto meta = file.ColumnMeta(rg, leaf);
    if (!meta.ok() || !(*meta)->bloom_filter_offset || !(*meta)->bloom_filter_length) continue;
    const ByteRange r{*(*meta)->bloom_filter_offset, *(*meta)->bloom_filter_length};
    if (!CheckStored("Bloom filter", r.offset, r.length, size,
                     kMaxBloomHeaderBytes + SplitBlockBloomFilter::kMaxBytes + 2 * int64_t{crypto::kGcmModuleOverhead})
             .ok()) {
      continue;
    }
    groups.push_back(rg);
    ranges.push_back(r);
  }
  if (groups.empty()) return Status::OK();
  // The filters' bytes are held all at once: read ahead only what the table's budget has room for
  // (else each is read when it is wanted).
  int64_t total = 0;
  for (const ByteRange& r : ranges) total += r.length;
  BudgetCharge charge(file.options().memory);
  if (!charge.Set(total, "Bloom filters read ahead").ok()) return Status::OK();
  std::vector<BufferPtr> bytes;
  PQ_RETURN_IF_ERROR(file.file().ReadRanges(ranges, &bytes));
  for (size_t i = 0; i < groups.size(); ++i) {
    if (bytes_read != nullptr) *bytes_read += ranges[i].length;
    auto decryptor = file.ChunkDecryptor(groups[i], leaf);
    if (!decryptor.ok()) continue;
    ChunkIndexReader reader(file, groups[i], leaf, std::move(decryptor).value(), nullptr);
    reader.held_ = {{ranges[i].offset, bytes[i]}};
    (void)reader.ReadBloomFilter(**file.ColumnMeta(groups[i], leaf));  // into the cache
  }
  return Status::OK();
}

// ---- Bloom filter ------------------------------------------------------------------------------

namespace {
// A filter and its charge to the table's budget, returned when the last holder lets go.
struct ChargedBloomFilter {
  SplitBlockBloomFilter filter;
  BudgetCharge charge;
};
}  // namespace

Result<std::shared_ptr<const SplitBlockBloomFilter>> ChunkIndexReader::ReadBloomFilter(
    const ColumnMetaData& meta) const {
  using Filter = std::shared_ptr<const SplitBlockBloomFilter>;
  if (!meta.bloom_filter_offset || !BloomFiltersUsable(file_.metadata().created_by)) return Filter();
  if (Filter cached = file_.bloom_filter_cache().Find(row_group_, leaf_)) return cached;
  // Charged to the table's budget (ReaderOptions::memory) while it is read and for as long as it
  // is held: the kept filters of a table's many files stay within its max_memory.
  BudgetCharge charge(file_.options().memory);
  auto read = decryptor_ ? ReadEncryptedBloomFilter(meta, &charge) : ReadPlainBloomFilter(meta, &charge);
  // A filter is an optional aid: one that is out of the file, does not parse, states a size it
  // cannot have or that the budget has no room for (OutOfMemory) is not used (by pruning or
  // parquet_bloom_probe), as such a page index is not. A failed read and a failed authentication
  // stay errors.
  if (!read.ok() && read.status().code() != StatusCode::kIOError &&
      read.status().code() != StatusCode::kCrypto) {
    return Filter();
  }
  PQ_ASSIGN_OR_RETURN(std::optional<SplitBlockBloomFilter> filter, std::move(read));
  if (!filter) return Filter();
  const int64_t bytes = filter->num_bytes();
  if (!charge.Set(bytes, "a Bloom filter").ok()) return Filter();  // the bytes read are gone
  auto held = std::make_shared<ChargedBloomFilter>(ChargedBloomFilter{std::move(*filter), std::move(charge)});
  Filter stored(held, &held->filter);
  // Kept for later scans only while the table holds at most a quarter of its budget, so that
  // filters kept for pruning never leave its scans without room; one not kept is read again when
  // a scan wants it.
  const std::shared_ptr<MemoryBudget>& budget = file_.options().memory;
  if (budget == nullptr || budget->limit() <= 0 || budget->used() <= budget->limit() / 4) {
    file_.bloom_filter_cache().Store(row_group_, leaf_, stored, bytes);
  }
  return stored;
}

Result<std::optional<SplitBlockBloomFilter>> ChunkIndexReader::ReadPlainBloomFilter(
    const ColumnMetaData& meta, BudgetCharge* charge) const {
  using Filter = std::optional<SplitBlockBloomFilter>;
  // A filter of an algorithm, hash or compression this reader does not know, or over the size any
  // filter may take, is not used (@dsnp/parquetjs leaves the header's unions empty).
  auto usable = [](Result<SplitBlockBloomFilter> f) -> Result<Filter> {
    if (f.ok()) return Filter(std::move(f).value());
    if (f.status().IsNotSupported()) return Filter();
    return std::move(f).TakeStatus().WithContext("Bloom filter");
  };
  const int64_t offset = *meta.bloom_filter_offset;
  const int64_t size = file_.file().size();
  if (meta.bloom_filter_length) {
    Status s = CheckStored("Bloom filter", offset, int64_t{*meta.bloom_filter_length}, size,
                           kMaxBloomHeaderBytes + SplitBlockBloomFilter::kMaxBytes);
    if (s.IsNotSupported()) return Filter();
    PQ_RETURN_IF_ERROR(s);
    // The bytes read and the filter copied from them.
    PQ_RETURN_IF_ERROR(charge->Set(2 * int64_t{*meta.bloom_filter_length}, "a Bloom filter"));
    PQ_ASSIGN_OR_RETURN(BufferPtr bytes, Read(offset, *meta.bloom_filter_length));
    return usable(SplitBlockBloomFilter::Read(SpanOf(bytes)));
  }
  // Header first, then the bitset it announces.
  PQ_RETURN_IF_ERROR(CheckStored("Bloom filter", offset, std::nullopt, size, 0));
  const int64_t available = size - offset;
  BloomFilterHeader header;
  size_t header_size = 0;
  PQ_ASSIGN_OR_RETURN(BufferPtr head, Read(offset, std::min(kBloomHeaderProbe, available)));
  Status s = ReadBloomFilterHeader(SpanOf(head), &header, &header_size);
  if (!s.ok() && available > kBloomHeaderProbe) {
    // A header longer than the probe (fields this reader does not know): once more, with more.
    header = BloomFilterHeader();
    PQ_ASSIGN_OR_RETURN(head, Read(offset, std::min(kMaxBloomHeaderBytes, available)));
    s = ReadBloomFilterHeader(SpanOf(head), &header, &header_size);
  }
  if (!s.ok()) return std::move(s).WithContext("Bloom filter header");
  const int64_t bitset_offset = offset + static_cast<int64_t>(header_size);
  if (header.num_bytes <= 0 || header.num_bytes > SplitBlockBloomFilter::kMaxBytes ||
      header.num_bytes > size - bitset_offset) {
    // FromHeader says what is wrong with the size (with no bitset, "runs past" the bytes).
    return usable(SplitBlockBloomFilter::FromHeader(header, ByteSpan()));
  }
  PQ_RETURN_IF_ERROR(charge->Set(2 * header.num_bytes, "a Bloom filter"));
  PQ_ASSIGN_OR_RETURN(BufferPtr bitset, Read(bitset_offset, header.num_bytes));
  return usable(SplitBlockBloomFilter::FromHeader(header, SpanOf(bitset)));
}

Result<std::optional<SplitBlockBloomFilter>> ChunkIndexReader::ReadEncryptedBloomFilter(
    const ColumnMetaData& meta, BudgetCharge* charge) const {
  using Filter = std::optional<SplitBlockBloomFilter>;
  const crypto::ColumnDecryptor& decryptor = *decryptor_;
  const int64_t offset = *meta.bloom_filter_offset;
  const int64_t size = file_.file().size();
  // Reads [at, at + length), which must lie inside the file.
  auto read = [&](int64_t at, int64_t length, const char* what) -> Result<BufferPtr> {
    if (at < 0 || length < 0 || at > size || length > size - at) {
      return Status::Corruption(std::string(what) + " range [" + std::to_string(at) + ", +" +
                                std::to_string(length) + ") is outside the file (size " +
                                std::to_string(size) + ")");
    }
    return Read(at, length);
  };
  if (offset < 0 || offset >= size) {
    return Status::Corruption("Bloom filter offset " + std::to_string(offset) +
                              " is outside the file (size " + std::to_string(size) + ")");
  }
  const int64_t overhead = static_cast<int64_t>(crypto::kGcmModuleOverhead);
  const int64_t max_length = SplitBlockBloomFilter::kMaxBytes + kBloomHeaderProbe + 2 * overhead;
  // Both modules in one read when the length is known, else the header module first.
  BufferPtr bytes;
  if (meta.bloom_filter_length) {
    const int64_t length = *meta.bloom_filter_length;
    if (length <= 0) return Status::Corruption("Bloom filter length is not positive");
    if (length > max_length) return Filter();  // over what any filter may hold: not read
    // The bytes read, the bitset decrypted from them and the filter copied from that.
    PQ_RETURN_IF_ERROR(charge->Set(3 * length, "a Bloom filter"));
    PQ_ASSIGN_OR_RETURN(bytes, read(offset, length, "Bloom filter"));
  } else {
    const int64_t probe = std::min(kBloomHeaderProbe, size - offset);
    PQ_ASSIGN_OR_RETURN(bytes, read(offset, probe, "Bloom filter header"));
    // The module's length field says how much to read when the probe was short (fewer than 4
    // bytes: the header's decryption below reports the truncation).
    if (bytes->size() >= 4) {
      const int64_t claimed = int64_t{LoadLE<uint32_t>(bytes->data())} + 4;
      if (claimed > static_cast<int64_t>(bytes->size())) {
        if (claimed > kMaxHeaderModuleBytes || claimed > size - offset) {
          return Status::Corruption("encrypted Bloom filter header claims " +
                                    std::to_string(claimed) + " bytes");
        }
        PQ_ASSIGN_OR_RETURN(bytes, read(offset, claimed, "Bloom filter header"));
      }
    }
  }
  const ByteSpan data(bytes->data(), bytes->size());
  BloomFilterHeader header;
  size_t header_size = 0;
  Status s = decryptor.ReadBloomFilterHeader(data, &header, &header_size);
  if (!s.ok()) return s;
  if (header.num_bytes <= 0 || header.num_bytes > SplitBlockBloomFilter::kMaxBytes) {
    return Status::Corruption("Bloom filter of " + std::to_string(header.num_bytes) + " bytes");
  }
  // The bitset module: its plaintext is num_bytes.
  const int64_t bitset_module = header.num_bytes + overhead;
  if (!meta.bloom_filter_length) PQ_RETURN_IF_ERROR(charge->Set(3 * bitset_module, "a Bloom filter"));
  ByteSpan bitset_bytes = data.subspan(header_size);
  BufferPtr more;
  if (static_cast<int64_t>(bitset_bytes.size()) < bitset_module) {
    if (meta.bloom_filter_length) {
      return Status::Corruption("Bloom filter length " + std::to_string(*meta.bloom_filter_length) +
                                " leaves no room for its bitset");
    }
    PQ_ASSIGN_OR_RETURN(more, read(offset + static_cast<int64_t>(header_size), bitset_module,
                                   "Bloom filter bitset"));
    bitset_bytes = ByteSpan(more->data(), more->size());
  }
  std::vector<uint8_t> bitset;
  size_t bitset_size = 0;
  s = decryptor.DecryptBloomFilterBitset(bitset_bytes, &bitset, &bitset_size);
  if (!s.ok()) return s;
  if (static_cast<int64_t>(bitset.size()) != header.num_bytes) {
    return Status::Corruption("encrypted Bloom filter bitset holds " +
                              std::to_string(bitset.size()) + " bytes, its header says " +
                              std::to_string(header.num_bytes));
  }
  auto f = SplitBlockBloomFilter::FromHeader(header, ByteSpan(bitset.data(), bitset.size()));
  if (!f.ok()) {
    if (f.status().IsNotSupported()) return Filter();
    return std::move(f).TakeStatus().WithContext("Bloom filter");
  }
  return Filter(std::move(f).value());
}

// ---- page index --------------------------------------------------------------------------------

template <typename T>
Result<std::shared_ptr<const T>> ChunkIndexReader::ReadIndex(const char* what, const std::optional<int64_t>& offset,
                                                             const std::optional<int32_t>& length,
                                                             ChunkCache<T, std::pair<int64_t, int64_t>>& cache,
                                                             BufferPtr stored) const {
  using Index = std::shared_ptr<const T>;
  if (!offset) return Index();
  const int64_t cap = file_.options().limits.max_footer_size;
  const int64_t max_memory = PageIndexMemoryLimit(file_.options());
  const std::optional<int64_t> stored_length = length ? std::optional<int64_t>(*length) : std::nullopt;
  PQ_RETURN_IF_ERROR(CheckStored(what, *offset, stored_length, file_.file().size(), cap));
  auto parsed = std::make_shared<T>();
  if (length) {
    const std::pair<int64_t, int64_t> at(*offset, *length);
    if (Index hit = cache.Find(at)) return hit;
    if (stored == nullptr) {
      PQ_ASSIGN_OR_RETURN(stored, Read(*offset, *length));
    }
    Status s = ParseIndex(SpanOf(stored), true, decryptor_, max_memory, parsed.get());
    if (!s.ok()) return OverMetadataLimit(std::move(s), file_.options()).WithContext(what);
    cache.Store(at, parsed, 3 * int64_t{*length});
    return Index(std::move(parsed));
  }
  // Without a stored length the structure's end is unknown: parse what is there, and read more
  // while the parse fails and the file has more.
  const int64_t available = file_.file().size() - *offset;
  for (int64_t window = kIndexWindow;; window *= 16) {
    const int64_t n = std::min({window, cap, available});
    PQ_ASSIGN_OR_RETURN(BufferPtr bytes, Read(*offset, n));
    *parsed = T{};
    Status s = ParseIndex(SpanOf(bytes), false, decryptor_, max_memory, parsed.get());
    if (s.ok()) return Index(std::move(parsed));
    if (s.code() == StatusCode::kOutOfMemory || n == available || n == cap) {
      return OverMetadataLimit(std::move(s), file_.options()).WithContext(what);
    }
  }
}

Result<std::shared_ptr<const OffsetIndex>> ChunkIndexReader::ReadOffsetIndex() const {
  const bool cached = chunk_.offset_index_offset && chunk_.offset_index_length &&
                      file_.offset_index_cache().Find({*chunk_.offset_index_offset, *chunk_.offset_index_length});
  if (held_.empty() && file_.file().remote() && !cached) {
    // The row group's other chunks will want theirs too; their ColumnIndex only a filter wants.
    const int row_group[1] = {row_group_};
    PQ_RETURN_IF_ERROR(PrefetchOffsetIndexes(file_, row_group, {}, bytes_read_));
  }
  return ReadIndex<OffsetIndex>("OffsetIndex", chunk_.offset_index_offset, chunk_.offset_index_length,
                                file_.offset_index_cache(), nullptr);
}

Result<std::shared_ptr<const ColumnIndex>> ChunkIndexReader::ReadColumnIndex() const {
  if (held_.empty() && file_.file().remote()) {
    const int row_group[1] = {row_group_};
    PQ_RETURN_IF_ERROR(PrefetchPageIndexes(file_, row_group, bytes_read_));
  }
  return ReadIndex<ColumnIndex>("ColumnIndex", chunk_.column_index_offset, chunk_.column_index_length,
                                file_.column_index_cache(), nullptr);
}

Result<ChunkPageIndex> ChunkIndexReader::ReadPageIndex() const {
  if (held_.empty() && file_.file().remote()) {
    const int row_group[1] = {row_group_};
    PQ_RETURN_IF_ERROR(PrefetchPageIndexes(file_, row_group, bytes_read_));
  }
  BufferPtr offsets_bytes, columns_bytes;
  const ColumnChunk& c = chunk_;
  // Both stored with their lengths, inside the file and not cached yet: one call for the two ranges.
  if (c.offset_index_offset && c.offset_index_length && c.column_index_offset && c.column_index_length) {
    const ByteRange ranges[2] = {{*c.offset_index_offset, *c.offset_index_length},
                                 {*c.column_index_offset, *c.column_index_length}};
    const int64_t size = file_.file().size(), cap = file_.options().limits.max_footer_size;
    const bool readable = CheckStored("OffsetIndex", ranges[0].offset, ranges[0].length, size, cap).ok() &&
                          CheckStored("ColumnIndex", ranges[1].offset, ranges[1].length, size, cap).ok();
    if (readable && held_.empty() && !file_.offset_index_cache().Find({ranges[0].offset, ranges[0].length}) &&
        !file_.column_index_cache().Find({ranges[1].offset, ranges[1].length})) {
      std::vector<BufferPtr> bytes;
      PQ_RETURN_IF_ERROR(file_.file().ReadRanges(ranges, &bytes));
      if (bytes_read_ != nullptr) *bytes_read_ += ranges[0].length + ranges[1].length;
      offsets_bytes = std::move(bytes[0]);
      columns_bytes = std::move(bytes[1]);
    }
  }
  ChunkPageIndex index;
  PQ_ASSIGN_OR_RETURN(index.offsets, ReadIndex<OffsetIndex>("OffsetIndex", c.offset_index_offset, c.offset_index_length,
                                                            file_.offset_index_cache(), std::move(offsets_bytes)));
  PQ_ASSIGN_OR_RETURN(index.columns, ReadIndex<ColumnIndex>("ColumnIndex", c.column_index_offset, c.column_index_length,
                                                            file_.column_index_cache(), std::move(columns_bytes)));
  if (index.offsets) index.num_pages = PagesOf(*index.offsets);
  if (index.columns) {
    const size_t n = PagesOf(*index.columns);
    if (index.offsets && n != index.num_pages) {
      return Status::Corruption("the OffsetIndex has " + std::to_string(index.num_pages) + " pages, the ColumnIndex " +
                                std::to_string(n));
    }
    index.num_pages = n;
  }
  return index;
}

}  // namespace pq
