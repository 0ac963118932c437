#include "format/column/column_reader.h"

#include <algorithm>
#include <array>
#include <optional>
#include <type_traits>
#include <vector>

#include "format/encoding/decoder.h"
#include "format/file/chunk_index_reader.h"
#include "format/metadata/metadata_io.h"
#include "format/page/page_reader.h"

namespace pq {

namespace {

// A page may not claim more level entries than this; a few bytes of RLE can describe billions.
constexpr int64_t kMaxPageValues = int64_t{1} << 28;
// What the scan holds for one leaf besides its reader (its batch, converter, context strings,
// the buffers of its first page): charged with each reader.
constexpr int64_t kLeafStateBytes = 2048;
// What one read of a local file takes beyond the page it needs, at most, when an OffsetIndex says
// where pages are: a scan reads on in windows of this, a lookup reads little more than its page.
constexpr int64_t kLocalReadBytes = int64_t{64} << 10;

// The number of entries of levels[0, n) equal to `level`. Blocks of a fixed length with a narrow
// counter are what the compiler vectorizes at -O2; a page's levels are counted once per page.
int64_t CountLevel(const int16_t* levels, int64_t n, int16_t level) {
  constexpr int64_t kBlock = 128;
  int64_t count = 0;
  int64_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    uint16_t block = 0;
    for (int64_t k = 0; k < kBlock; ++k) block = static_cast<uint16_t>(block + (levels[i + k] == level));
    count += block;
  }
  for (; i < n; ++i) count += levels[i] == level;
  return count;
}

template <typename T>
class TypedColumnChunkReader final : public ColumnChunkReader {
 public:
  TypedColumnChunkReader(std::shared_ptr<const FileReader> file, const SchemaNode* leaf,
                         const ColumnMetaData* meta, const ColumnChunk* chunk, int row_group, int leaf_index,
                         int64_t num_rows, std::string context, std::optional<crypto::ColumnDecryptor> decryptor)
      : ColumnChunkReader(std::move(file), leaf),
        meta_(meta),
        chunk_(chunk),
        row_group_(row_group),
        leaf_index_(leaf_index),
        num_rows_(num_rows),
        context_(context),
        decryptor_(std::move(decryptor)),
        pages_(file_->file(), *meta, file_->options(), std::move(context), file_->chunk_size_slack(),
               decryptor_ ? &*decryptor_ : nullptr) {
    page_reader_ = &pages_;
    max_def_ = leaf->max_definition_level;
    max_rep_ = leaf->max_repetition_level;
    // Without repetition a page's values are its rows; a fixed-width value bounds a page's bytes.
    pages_.set_page_bounds(max_rep_ == 0 && num_rows_ > 0 ? num_rows_ : 0,
                           FixedValueWidth(leaf->physical_type, leaf->type_length));
    levels_charge_ = BudgetCharge(budget());
    indices_charge_ = BudgetCharge(budget());
    storage_charge_ = BudgetCharge(budget());
    index_charge_ = BudgetCharge(budget());
  }

  int64_t footprint() const override { return static_cast<int64_t>(sizeof(*this)); }

  Result<int64_t> ReadRecords(int64_t max_records, ColumnBatch* batch) override {
    return Consume(max_records, batch);
  }

  Result<int64_t> SkipRecords(int64_t n) override {
    if (n <= 0) return 0;
    if (!indexed_ && !index_tried_ && !io_started_ && position_ == 0) {
      PQ_RETURN_IF_ERROR(TryOffsetIndex({}, /*all_rows=*/true));
    }
    return Consume(n, nullptr);
  }

  Status PlanReads(std::span<const RowRange> rows) override {
    if (index_tried_ || io_started_ || position_ != 0) return Status::OK();
    const bool all = num_rows_ <= 0 ||
                     (rows.size() == 1 && rows[0].begin <= 0 && rows[0].end >= num_rows_);
    if (all) return Status::OK();
    return TryOffsetIndex(rows, /*all_rows=*/false);
  }

  int64_t pages_skipped() const override {
    if (indexed_) return static_cast<int64_t>(page_offset_.size()) - pages_read_;
    return pages_skipped_;
  }

  Result<std::vector<ByteRange>> PlannedRanges() override {
    PQ_RETURN_IF_ERROR(pages_.EnsureBounds());
    const int64_t begin = pages_.chunk_begin();
    const int64_t end = pages_.chunk_end();
    if (!indexed_) return std::vector<ByteRange>{{begin, end - begin}};
    // Runs of planned pages, as OpenIndexedPage reads them.
    std::vector<ByteRange> ranges;
    const size_t n = page_offset_.size();
    bool dictionary_needed = false;
    for (size_t i = 0; i < n; ++i) {
      if (!planned_[i] || (i > 0 && planned_[i - 1])) continue;
      size_t last = i;
      while (last + 1 < n && planned_[last + 1]) ++last;
      const int64_t run_begin = i == 0 ? begin : page_offset_[i];
      ranges.push_back({run_begin, page_offset_[last] + page_size_[last] - run_begin});
      dictionary_needed = dictionary_needed || i > 0;
    }
    // The bytes before the first data page (a dictionary page) when no run starts with them.
    if (dictionary_needed && (ranges.empty() || ranges[0].offset != begin) && page_offset_[0] > begin) {
      ranges.insert(ranges.begin(), ByteRange{begin, page_offset_[0] - begin});
    }
    return ranges;
  }

 private:
  Status PageError(Status s) const {
    return std::move(s).WithContext(context_ + ", page " + std::to_string(page_.ordinal));
  }

  // The chunk's OffsetIndex, read once per file (ChunkIndexReader keeps it in the FileReader's
  // cache, parsed within PageIndexMemoryLimit) and checked here against the chunk as if just read:
  // null when the chunk has none, or one that is out of the file, does not parse or does not
  // describe the chunk's pages (OffsetIndexProblem). Such an index is not used: pages are found by
  // their headers. Nor is one the table's budget has no room for: this reader holds it (the
  // file's cache may not), so it is charged to index_charge_. An encrypted index that fails
  // authentication was altered (or the key is wrong): an error, not a reason to fall back to the
  // headers.
  Result<std::shared_ptr<const OffsetIndex>> LoadOffsetIndex() {
    using Index = std::shared_ptr<const OffsetIndex>;
    if (!chunk_->offset_index_offset || !chunk_->offset_index_length) return Index();
    auto read = ChunkIndexReader(*file_, row_group_, leaf_index_, decryptor_, &extra_bytes_read_).ReadOffsetIndex();
    if (!read.ok()) {
      const StatusCode code = read.status().code();
      if (code == StatusCode::kCrypto) return std::move(read).TakeStatus().WithContext(context_);
      if (code == StatusCode::kIOError || code == StatusCode::kInterrupted) {
        return std::move(read).TakeStatus().WithContext(context_ + ", OffsetIndex");
      }
      return Index();
    }
    Index cached = std::move(read).value();
    if (cached == nullptr) return Index();
    PQ_RETURN_IF_ERROR(pages_.EnsureBounds());
    if (cached->page_locations.size() > static_cast<size_t>(kMaxPageValues) ||
        !OffsetIndexProblem(*cached, *meta_, pages_.chunk_begin(), pages_.chunk_end(), num_rows_,
                            &dictionary_first_)
             .empty()) {
      return std::shared_ptr<const OffsetIndex>();
    }
    const int64_t bytes =
        static_cast<int64_t>(cached->page_locations.size() * sizeof(PageLocation) +
                             cached->unencoded_byte_array_data_bytes.size() * sizeof(int64_t));
    if (!index_charge_.Set(bytes, "the chunk's OffsetIndex").ok()) return Index();
    return cached;
  }

  // Loads the chunk's OffsetIndex and, when it is usable, switches to reading pages by location.
  // `rows` (unless all_rows) are the rows that will be read: their pages are read in runs.
  Status TryOffsetIndex(std::span<const RowRange> rows, bool all_rows) {
    index_tried_ = true;
    PQ_ASSIGN_OR_RETURN(std::shared_ptr<const OffsetIndex> loaded, LoadOffsetIndex());
    if (loaded == nullptr) return Status::OK();
    const std::vector<PageLocation>& locs = loaded->page_locations;
    const size_t n = locs.size();
    // The copy below is held as long as this reader; both are charged while the copy is made.
    const int64_t copy_bytes = static_cast<int64_t>(
        n * (sizeof(int64_t) + sizeof(int32_t) + sizeof(int64_t) + sizeof(uint8_t)) + sizeof(int64_t));
    if (!index_charge_.Set(index_charge_.bytes() + copy_bytes, "the chunk's page locations").ok()) {
      index_charge_ = BudgetCharge(budget());
      return Status::OK();  // no room: the pages are found by their headers
    }
    page_offset_.resize(n);
    page_size_.resize(n);
    page_first_row_.resize(n + 1);
    for (size_t i = 0; i < n; ++i) {
      page_offset_[i] = locs[i].offset;
      page_size_[i] = locs[i].compressed_page_size;
      page_first_row_[i] = locs[i].first_row_index;
    }
    page_first_row_[n] = num_rows_;
    loaded.reset();
    PQ_RETURN_IF_ERROR(index_charge_.Set(copy_bytes, "the chunk's page locations"));  // shrinks: never refused
    planned_.assign(n, all_rows ? 1 : 0);
    if (!all_rows) {
      size_t s = 0;
      for (size_t i = 0; i < n; ++i) {
        const int64_t a = page_first_row_[i], b = page_first_row_[i + 1];
        while (s < rows.size() && rows[s].end <= a) ++s;
        planned_[i] = a < b && s < rows.size() && rows[s].begin < b;
      }
    }
    indexed_ = true;
    next_page_ = 0;
    return Status::OK();
  }

  Status DictionaryError(Status s) const {
    return std::move(s).WithContext(context_ + ", dictionary page");
  }

  Status LoadDictionary(const Page& page) {
    if (page.encoding != Encoding::kPlain && page.encoding != Encoding::kPlainDictionary) {
      return DictionaryError(Status::NotSupported("dictionary page encoding " +
                                                  EncodingName(page.encoding) + " is not supported"));
    }
    // A PLAIN entry takes at least this many bits (a BYTE_ARRAY its 4-byte length): a claim the
    // bytes cannot hold is refused before anything is allocated for it.
    int64_t entry_bits = 8 * static_cast<int64_t>(sizeof(T));
    if constexpr (std::is_same_v<T, uint8_t>) entry_bits = 1;
    if constexpr (std::is_same_v<T, ByteArray>) {
      entry_bits = leaf_->physical_type == PhysicalType::kFixedLenByteArray
                       ? 8 * std::max<int64_t>(leaf_->type_length, 1)
                       : 32;
    }
    if (page.num_values > static_cast<int64_t>(page.body.size()) * 8 / entry_bits) {
      return DictionaryError(Status::Corruption(
          "dictionary claims " + std::to_string(page.num_values) + " values in " +
          std::to_string(page.body.size()) + " bytes"));
    }
    Status charged = dictionary_charge_.Set(budget(), page.num_values * static_cast<int64_t>(sizeof(T)),
                                            "a decoded dictionary");
    if (!charged.ok()) return DictionaryError(std::move(charged));
    PQ_ASSIGN_OR_RETURN(auto decoder, MakeDecoder<T>(leaf_->physical_type, Encoding::kPlain,
                                                     leaf_->type_length));
    Status s = decoder->SetData(page.body, page.num_values);
    if (!s.ok()) return DictionaryError(std::move(s));
    dictionary_.resize(static_cast<size_t>(page.num_values));
    auto n = decoder->Decode(dictionary_.data(), page.num_values);
    if (!n.ok()) return DictionaryError(std::move(n).TakeStatus());
    if (*n != page.num_values) {
      return DictionaryError(Status::Corruption("dictionary page holds fewer values than its header says"));
    }
    dictionary_owner_ = page.owner2 ? page.owner2 : page.owner;
    dictionary_c_strings_ = false;
    dictionary_values_used_ = 0;
    has_dictionary_ = true;
    return Status::OK();
  }

  // Copies a BYTE_ARRAY dictionary whose entries hold no NUL byte into a buffer of its own, each
  // entry followed by one: values taken from it are C strings (ColumnBatch::c_strings), which the
  // extension hands to SQLite without searching them for a NUL or copying them on the way. Done
  // once the values gathered from the dictionary outnumber its entries (a selective read that
  // takes a few values of a large dictionary would pay for the copy and gain nothing), and only
  // for values gathered here: a batch that keeps dictionary indices refers to the entries as they
  // are. A dictionary with a NUL inside is left as it is, and so is one of more than
  // kMaxTerminatedDictionary bytes (a copy would hold them twice).
  Status MaybeTerminateDictionary(int64_t values) {
    if (dictionary_c_strings_ || dictionary_values_used_ < 0) return Status::OK();
    dictionary_values_used_ += values;
    if (dictionary_values_used_ < static_cast<int64_t>(dictionary_.size())) return Status::OK();
    dictionary_values_used_ = -1;  // tried once
    return TerminateDictionary();
  }

  Status TerminateDictionary() {
    constexpr size_t kMaxTerminatedDictionary = size_t{8} << 20;
    size_t bytes = 0;
    for (const ByteArray& v : dictionary_) {
      if (v.len > 0 && std::memchr(v.ptr, 0, v.len) != nullptr) return Status::OK();
      bytes += static_cast<size_t>(v.len) + 1;
      if (bytes > kMaxTerminatedDictionary) return Status::OK();
    }
    PQ_RETURN_IF_ERROR(dictionary_charge_.Set(
        budget(), static_cast<int64_t>(dictionary_.size() * sizeof(ByteArray) + bytes), "a decoded dictionary"));
    auto copy = std::make_shared<Buffer>(bytes);
    uint8_t* out = copy->data();
    for (ByteArray& v : dictionary_) {
      if (v.len > 0) std::memcpy(out, v.ptr, v.len);
      out[v.len] = 0;
      v.ptr = out;
      out += v.len + 1;
    }
    dictionary_owner_ = std::move(copy);
    dictionary_c_strings_ = true;
    return Status::OK();
  }

  // A batch's values are C strings while every value appended to it came from a terminated
  // dictionary (TerminateDictionary) or a page's C strings (PageReader::set_c_strings).
  void NoteCStrings(ColumnBatch* batch) const {
    const bool c_strings = use_dictionary_ ? dictionary_c_strings_ : page_c_strings_;
    batch->c_strings = batch->num_values == 0 ? c_strings : batch->c_strings && c_strings;
  }

  // Decodes the chunk's dictionary, the first time a page needs it: the dictionary page met while
  // walking pages in order, or (pages read by location) the page before the first data page.
  Status EnsureDictionary() {
    if (has_dictionary_) return Status::OK();
    if (dict_pending_) {
      dict_pending_ = false;
      PQ_RETURN_IF_ERROR(pages_.LoadBody(&dict_page_));
      return LoadDictionary(dict_page_);
    }
    if (!indexed_ || page_offset_[0] <= pages_.chunk_begin()) {
      return PageError(Status::Corruption("dictionary-encoded page but the chunk has no dictionary"));
    }
    PQ_RETURN_IF_ERROR(ReadLeadingDictionaryHeader());
    dict_pending_ = false;
    PQ_RETURN_IF_ERROR(pages_.LoadBody(&dict_page_));
    return LoadDictionary(dict_page_);
  }

  // Reading by the OffsetIndex: parses the header of the page before the first indexed page into
  // dict_page_ (dict_pending_: its body not loaded), which must be the one dictionary page there.
  Status ReadLeadingDictionaryHeader() {
    if (dict_pending_) return Status::OK();
    const int64_t begin = pages_.chunk_begin();
    // The dictionary page sits between the chunk's start and its first data page. When those bytes
    // are not in memory, a reader of its own reads them, so that the pages in memory stay there.
    std::unique_ptr<PageReader> own;
    PageReader* reader = &pages_;
    if (!pages_.Contains(begin, page_offset_[0])) {
      own = std::make_unique<PageReader>(file_->file(), *meta_, file_->options(), context_,
                                         file_->chunk_size_slack(),
                                         decryptor_ ? &*decryptor_ : nullptr);
      pages_.ShareProvided(own.get());
      reader = own.get();
    }
    PQ_RETURN_IF_ERROR(reader->Seek(begin, begin, page_offset_[0], 0));
    auto found = reader->NextHeader(&dict_page_);
    if (found.ok() && *found && own && dict_page_.type == PageType::kDictionaryPage) {
      // Its body is in this reader's bytes, which go with it: loaded now, not read again later.
      Status loaded = own->LoadBody(&dict_page_);
      if (!loaded.ok()) found = std::move(loaded);
    }
    if (own) extra_bytes_read_ += own->bytes_read();
    if (!found.ok()) return std::move(found).TakeStatus();
    if (!*found || dict_page_.type != PageType::kDictionaryPage) {
      return PageError(Status::Corruption(
          "the chunk's first bytes, before the first page of its OffsetIndex, are no dictionary page"));
    }
    // Nothing but the dictionary page lies before the first data page: a second dictionary page
    // there is refused here as it is by a scan that walks the pages.
    const int64_t dictionary_end = dict_page_.end;
    if (dictionary_end != page_offset_[0]) {
      return DictionaryError(Status::Corruption(
          "the dictionary page ends at offset " + std::to_string(dictionary_end) +
          ", not where the first data page starts (" + std::to_string(page_offset_[0]) +
          "): a second dictionary page, or bytes that are no page"));
    }
    dict_pending_ = true;
    return Status::OK();
  }

  // Moves on to a data page with at least one level entry and starts it. When `skip` > 0 (skipping
  // with known page row counts), pages holding at most the rows left to skip are passed over
  // unread, their rows added to *records; returns true without a page once `skip` rows were passed.
  // Returns false at the end of the chunk.
  Result<bool> AdvancePage(int64_t skip, int64_t* records) {
    io_started_ = true;
    int64_t left = skip;
    if (indexed_) {
      const size_t n = page_offset_.size();
      while (true) {
        if (skip > 0 && left == 0) return true;
        if (next_page_ >= n) return false;
        const int64_t rows = page_first_row_[next_page_ + 1] - page_first_row_[next_page_];
        if (rows <= left || rows == 0) {
          left -= rows;
          *records += rows;
          ++next_page_;
          continue;
        }
        PQ_RETURN_IF_ERROR(OpenIndexedPage(next_page_++));
        if (level_pos_ < page_levels_) return true;
      }
    }
    if (!check_loaded_) {
      // Walking the pages in order: a usable OffsetIndex is checked against every page met, so
      // that a scan refuses the index's contradictions as a lookup through it does.
      check_loaded_ = true;
      PQ_ASSIGN_OR_RETURN(check_index_, LoadOffsetIndex());
    }
    while (true) {
      if (skip > 0 && left == 0) return true;
      PQ_ASSIGN_OR_RETURN(bool more, pages_.NextHeader(&page_));
      if (!more) {
        if (check_index_ && check_pages_ != check_index_->page_locations.size()) {
          return Status::Corruption("the chunk has " + std::to_string(check_pages_) +
                                    " data pages, its OffsetIndex " +
                                    std::to_string(check_index_->page_locations.size()))
              .WithContext(context_);
        }
        return false;
      }
      if (page_.type == PageType::kDictionaryPage) {
        if (seen_data_page_) {
          return PageError(Status::Corruption("dictionary page after a data page"));
        }
        if (dict_seen_) {
          return DictionaryError(Status::Corruption("a second dictionary page in the column chunk"));
        }
        dict_seen_ = true;
        dict_page_ = page_;
        dict_pending_ = true;
        has_dictionary_ = false;
        continue;
      }
      seen_data_page_ = true;
      if (check_index_) {
        ++check_pages_;
        PQ_RETURN_IF_ERROR(CheckIndexedPlace());
        // A flat page holds one row per level entry; a nested page's rows are counted from its
        // repetition levels once read (StartPage).
        if (max_rep_ == 0 || page_.num_values == 0) PQ_RETURN_IF_ERROR(CheckIndexedRows(page_.num_values));
      }
      if (page_.num_values == 0) {
        ++pages_read_;
        continue;
      }
      if (max_rep_ == 0 && page_.num_values <= left) {
        // A flat page holds one row per level entry: pass it without reading its body.
        left -= page_.num_values;
        *records += page_.num_values;
        ++pages_skipped_;
        continue;
      }
      ++pages_read_;
      PQ_RETURN_IF_ERROR(StartPage());
      return true;
    }
  }

  // Reads data page `i` of the OffsetIndex and starts it; with the pages planned after it, in one
  // read. The page must hold exactly the rows the index gives it, starting on a row boundary.
  Status OpenIndexedPage(size_t i) {
    const size_t n = page_offset_.size();
    size_t last = i;
    if (planned_[i]) {
      while (last + 1 < n && planned_[last + 1]) ++last;
    }
    const int64_t load_begin = i == 0 ? pages_.chunk_begin() : page_offset_[i];
    int64_t load_end = page_offset_[last] + page_size_[last];
    const bool walking = opened_any_ && i == last_opened_ + 1;
    opened_any_ = true;
    last_opened_ = i;
    if (!walking && !file_->file().remote()) {
      // A local read is no round trip: a jump to a page (the few rows a filter kept) reads the page
      // and at most kLocalReadBytes after it, not the whole run of planned pages. Walking on from
      // the page before reads the run in one go, so that the pages ahead are there to be read
      // ahead (PageReader::LoadBody).
      const int64_t page_end = page_offset_[i] + page_size_[i];
      load_end = pages_.Contains(page_offset_[i], page_end)
                     ? page_end
                     : std::min(load_end, std::max(page_end, load_begin + kLocalReadBytes));
    }
    PQ_RETURN_IF_ERROR(pages_.Seek(page_offset_[i], load_begin, load_end, static_cast<int>(i)));
    if (dictionary_first_) {
      // Bytes before the first indexed page that the chunk's metadata does not call a dictionary:
      // they must be one, or the index left a data page out. Checked after the load above, which
      // holds them when page 0 is read (so they are read once), then back to page i.
      dictionary_first_ = false;
      PQ_RETURN_IF_ERROR(ReadLeadingDictionaryHeader());
      PQ_RETURN_IF_ERROR(pages_.Seek(page_offset_[i], load_begin, load_end, static_cast<int>(i)));
    }
    PQ_ASSIGN_OR_RETURN(bool found, pages_.NextHeader(&page_));
    page_.ordinal = static_cast<int>(i);
    if (!found || page_.type == PageType::kDictionaryPage) {
      return PageError(Status::Corruption("no data page at offset " + std::to_string(page_offset_[i]) +
                                          ", where the OffsetIndex puts it"));
    }
    ++pages_read_;
    seen_data_page_ = true;
    level_pos_ = page_levels_ = 0;
    const int64_t rows = page_first_row_[i + 1] - page_first_row_[i];
    int64_t page_rows = 0;
    if (page_.num_values > 0) {
      PQ_RETURN_IF_ERROR(StartPage());
      page_rows = page_levels_;
      if (max_rep_ > 0) {
        page_rows = 0;
        const int16_t* rep = page_rep_.data();
        for (int64_t k = 0; k < page_levels_; ++k) page_rows += rep[k] == 0;
      }
    }
    if (page_rows != rows) return RowsDisagree(page_rows, rows);
    return Status::OK();
  }

  Status RowsDisagree(int64_t page_rows, int64_t index_rows) const {
    return PageError(Status::Corruption("page holds " + std::to_string(page_rows) +
                                        " rows, its OffsetIndex entry says " +
                                        std::to_string(index_rows)));
  }

  // Walking in order with check_index_: page_ (data page number page_.ordinal) is where the index
  // puts that page.
  Status CheckIndexedPlace() const {
    const std::vector<PageLocation>& locs = check_index_->page_locations;
    const size_t i = static_cast<size_t>(page_.ordinal);
    if (i >= locs.size()) {
      return PageError(Status::Corruption("the OffsetIndex lists " + std::to_string(locs.size()) +
                                          " data pages, the chunk has more"));
    }
    if (page_.offset != locs[i].offset) {
      return PageError(Status::Corruption("page at offset " + std::to_string(page_.offset) +
                                          ", its OffsetIndex entry says " +
                                          std::to_string(locs[i].offset)));
    }
    return Status::OK();
  }

  // ... and holds the rows the index gives it.
  Status CheckIndexedRows(int64_t page_rows) const {
    const std::vector<PageLocation>& locs = check_index_->page_locations;
    const size_t i = static_cast<size_t>(page_.ordinal);
    const int64_t end = i + 1 < locs.size() ? locs[i + 1].first_row_index : num_rows_;
    const int64_t rows = end - locs[i].first_row_index;
    return page_rows == rows ? Status::OK() : RowsDisagree(page_rows, rows);
  }

  // Reads the body of page_ (a data page with entries) and prepares its levels and value decoder.
  Status StartPage() {
    const int64_t n = page_.num_values;
    if (n > kMaxPageValues) {
      return PageError(Status::OutOfMemory("page claims " + std::to_string(n) +
                                           " values, over the limit of " + std::to_string(kMaxPageValues) + " (2^28)"));
    }
    // The page's levels are decoded at once: charged first (a few bytes of RLE may claim 2^28).
    const int64_t level_arrays = (max_rep_ > 0 ? 1 : 0) + (max_def_ > 0 ? 1 : 0);
    Status charged = levels_charge_.AtLeast(level_arrays * n * static_cast<int64_t>(sizeof(int16_t)),
                                            "decoded levels");
    if (!charged.ok()) return PageError(std::move(charged));
    PQ_RETURN_IF_ERROR(pages_.LoadBody(&page_));
    ByteSpan values;
    level_pos_ = 0;
    page_levels_ = 0;
    if (page_.type == PageType::kDataPage) {
      const DataPageHeader& h = *page_.header.data_page_header;
      ByteReader r(page_.body);
      if (max_rep_ > 0) {
        LevelDecoder d;
        Status s = d.InitV1(h.repetition_level_encoding, max_rep_, n, &r);
        if (!s.ok()) return PageError(std::move(s).WithContext("repetition levels"));
        PQ_RETURN_IF_ERROR(DecodeLevels(&d, &page_rep_, n, "repetition"));
      }
      if (max_def_ > 0) {
        LevelDecoder d;
        Status s = d.InitV1(h.definition_level_encoding, max_def_, n, &r);
        if (!s.ok()) return PageError(std::move(s).WithContext("definition levels"));
        PQ_RETURN_IF_ERROR(DecodeLevels(&d, &page_def_, n, "definition"));
      }
      values = r.rest();
    } else {
      if (max_rep_ > 0) {
        LevelDecoder d;
        Status s = d.InitV2(max_rep_, n, page_.rep_levels);
        if (!s.ok()) return PageError(std::move(s).WithContext("repetition levels"));
        PQ_RETURN_IF_ERROR(DecodeLevels(&d, &page_rep_, n, "repetition"));
      }
      if (max_def_ > 0) {
        LevelDecoder d;
        Status s = d.InitV2(max_def_, n, page_.def_levels);
        if (!s.ok()) return PageError(std::move(s).WithContext("definition levels"));
        PQ_RETURN_IF_ERROR(DecodeLevels(&d, &page_def_, n, "definition"));
      }
      values = page_.body;
    }
    if (max_rep_ > 0 && (!started_ || indexed_ || check_index_) && page_rep_[0] != 0) {
      return PageError(Status::Corruption(indexed_ || check_index_
                                              ? "page of an OffsetIndex does not start a row"
                                              : "first repetition level of the column chunk is not 0"));
    }
    if (max_rep_ > 0 && check_index_ && !indexed_) {
      int64_t rows = 0;
      const int16_t* rep = page_rep_.data();
      for (int64_t k = 0; k < n; ++k) rows += rep[k] == 0;
      PQ_RETURN_IF_ERROR(CheckIndexedRows(rows));
    }
    int64_t non_null = n;
    if (max_def_ > 0) {
      non_null = CountLevel(page_def_.data(), n, max_def_);
    }
    page_all_present_ = non_null == n;
    page_values_left_ = non_null;
    values_owner_ = page_.owner2 ? page_.owner2 : page_.owner;
    page_c_strings_ = false;
    const Encoding enc = page_.encoding;
    use_dictionary_ = enc == Encoding::kRleDictionary || enc == Encoding::kPlainDictionary;
    if (use_dictionary_) {
      PQ_RETURN_IF_ERROR(EnsureDictionary());
      Status s = index_decoder_.SetData(values, non_null);
      if (!s.ok()) return PageError(std::move(s));
      decoder_ = nullptr;
      page_levels_ = n;
      return Status::OK();
    }
    size_t slot = static_cast<size_t>(enc);
    if (static_cast<int32_t>(enc) < 0 || slot >= decoders_.size()) {
      return PageError(Status::NotSupported("unknown encoding " + EncodingName(enc)));
    }
    if (!decoders_[slot]) {
      auto d = MakeDecoder<T>(leaf_->physical_type, enc, leaf_->type_length);
      if (!d.ok()) return PageError(std::move(d).TakeStatus());
      decoders_[slot] = std::move(d).value();
      decoders_[slot]->SetStorageReserve(
          [this](int64_t bytes) { return storage_charge_.Set(bytes, "the values a page's decoder rebuilds"); });
    }
    decoder_ = decoders_[slot].get();
    Status s = decoder_->SetData(values, non_null);
    if (!s.ok()) return PageError(std::move(s));
    // The worker's C strings, when it made them of these very bytes.
    page_c_strings_ = !page_.c_strings.empty() && page_.c_strings_of == values.data() &&
                      decoder_->UseCStrings(page_.c_strings.data());
    if (page_c_strings_) values_owner_ = page_.c_strings_owner;
    page_levels_ = n;
    return Status::OK();
  }

  Status DecodeLevels(LevelDecoder* d, PodVector<int16_t>* out, int64_t n, const char* what) {
    out->resize(static_cast<size_t>(n));
    auto got = d->Decode(out->data(), n);
    if (!got.ok()) return PageError(std::move(got).TakeStatus().WithContext(std::string(what) + " levels"));
    if (*got != n) {
      return PageError(Status::Corruption(std::string(what) + " levels end after " +
                                          std::to_string(*got) + " of " + std::to_string(n) +
                                          " values"));
    }
    return Status::OK();
  }

  // Reads (batch != null) or skips up to max_records whole records.
  Result<int64_t> Consume(int64_t max_records, ColumnBatch* batch) {
    int64_t records = 0;
    // Pages start on record boundaries in a flat column, and in any column read by OffsetIndex.
    const bool page_starts_record = max_rep_ == 0 || indexed_;
    const bool pass_pages = batch == nullptr && page_starts_record;
    while (true) {
      if (level_pos_ == page_levels_) {
        if (page_starts_record && records == max_records) break;
        PQ_ASSIGN_OR_RETURN(bool more, AdvancePage(pass_pages ? max_records - records : 0, &records));
        if (!more) break;
        continue;
      }
      const int64_t avail = page_levels_ - level_pos_;
      int64_t take;
      if (max_rep_ == 0) {
        take = std::min(avail, max_records - records);
        records += take;
      } else {
        const int16_t* rep = page_rep_.data() + level_pos_;
        take = 0;
        while (take < avail) {
          if (rep[take] == 0) {
            if (records == max_records) break;
            ++records;
          }
          ++take;
        }
      }
      if (take == 0) break;
      started_ = true;
      int64_t non_null = take;
      if (max_def_ > 0 && !page_all_present_) {
        non_null = CountLevel(page_def_.data() + level_pos_, take, max_def_);
      }
      if (non_null > page_values_left_) {
        return PageError(Status::Corruption("levels promise more values than the page holds"));
      }
      if (batch) {
        PQ_RETURN_IF_ERROR(ChargeBatch(batch, batch->num_levels + take, batch->num_values + non_null));
        PQ_RETURN_IF_ERROR(AppendLevels(batch, take));
        PQ_RETURN_IF_ERROR(DecodeValues(batch, non_null));
      } else {
        PQ_RETURN_IF_ERROR(SkipValues(non_null));
      }
      page_values_left_ -= non_null;
      level_pos_ += take;
      if (take < avail) break;  // stopped at the start of a record past the limit
    }
    if (batch) batch->num_records += records;
    position_ += records;
    return records;
  }

  // Charges what `batch` holds once it has `levels` level entries and `values` values (in its
  // arrays of levels, value slots, values and dictionary indices): a record of a nested column may
  // hold any number of them.
  Status ChargeBatch(ColumnBatch* batch, int64_t levels, int64_t values) {
    const int64_t level_bytes = (max_def_ > 0 ? 2 : 0) + (max_rep_ > 0 ? 2 : 0) +
                                (max_def_ > 0 && max_rep_ == 0 ? 4 : 0);
    const int64_t value_bytes = static_cast<int64_t>(sizeof(T)) + 4;
    const int64_t bytes = levels * level_bytes + values * value_bytes;
    if (bytes <= batch->charge.bytes() && batch->charge.budget() == budget()) return Status::OK();
    Status s = batch->charge.Set(budget(), 2 * bytes, "holding a batch of levels and values");
    return s.ok() ? s : PageError(std::move(s));
  }

  Status AppendLevels(ColumnBatch* batch, int64_t take) {
    const size_t n = static_cast<size_t>(take);
    if (max_def_ > 0) {
      std::memcpy(batch->def_levels.extend(n), page_def_.data() + level_pos_, n * sizeof(int16_t));
      if (max_rep_ == 0) AppendValueIndex(batch, n);
    }
    if (max_rep_ > 0) {
      std::memcpy(batch->rep_levels.extend(n), page_rep_.data() + level_pos_, n * sizeof(int16_t));
    }
    batch->num_levels += take;
    return Status::OK();
  }

  // Appends the value slots of the next n records of a flat column to batch->value_index, which
  // stays empty while every record of the batch has a value (record r is then slot r): a page
  // without NULL costs nothing here, and the first NULL fills in the slots of the records before.
  void AppendValueIndex(ColumnBatch* batch, size_t n) {
    PodVector<int32_t>& index = batch->value_index;
    if (page_all_present_ && index.empty()) return;
    if (index.empty() && batch->num_levels > 0) {
      int32_t* vi = index.extend(static_cast<size_t>(batch->num_levels));
      for (int32_t r = 0; r < static_cast<int32_t>(batch->num_levels); ++r) vi[r] = r;
    }
    int32_t* vi = index.extend(n);
    int32_t slot = static_cast<int32_t>(batch->num_values);
    if (page_all_present_) {
      for (size_t i = 0; i < n; ++i) vi[i] = slot + static_cast<int32_t>(i);
      return;
    }
    const int16_t* def = page_def_.data() + level_pos_;
    for (size_t i = 0; i < n; ++i) {
      const bool present = def[i] == max_def_;
      vi[i] = present ? slot : -1;
      slot += present;
    }
  }

  Status DecodeValues(ColumnBatch* batch, int64_t n) {
    batch->type = leaf_->physical_type;
    if (n == 0) return Status::OK();
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (use_dictionary_ && !keep_dictionary_indices_ && leaf_->physical_type == PhysicalType::kByteArray) {
        Status terminated = MaybeTerminateDictionary(n);
        if (!terminated.ok()) return DictionaryError(std::move(terminated));
      }
      NoteCStrings(batch);
    }
    if (use_dictionary_ && keep_dictionary_indices_ && max_rep_ == 0 &&
        (batch->dictionary ? batch->dictionary == dictionary_.data() : batch->num_values == 0)) {
      return DecodeIndices(batch, n);
    }
    batch->GatherDictionary();  // a batch that was dictionary-coded goes on with values
    PodVector<T>& out = batch->values<T>();
    T* dst = out.extend(static_cast<size_t>(n));
    if (use_dictionary_) {
      Status charged = indices_charge_.AtLeast(n * static_cast<int64_t>(sizeof(uint32_t)), "dictionary indices");
      if (!charged.ok()) return PageError(std::move(charged));
      indices_.resize(static_cast<size_t>(n));
      auto got = index_decoder_.Decode(indices_.data(), n, static_cast<uint32_t>(dictionary_.size()));
      if (!got.ok()) return PageError(std::move(got).TakeStatus());
      if (*got != n) return PageError(Status::Corruption("page holds fewer values than its levels say"));
      const T* dict = dictionary_.data();
      const uint32_t* idx = indices_.data();
      for (int64_t i = 0; i < n; ++i) dst[i] = dict[idx[i]];
      if constexpr (std::is_same_v<T, ByteArray>) PinOnce(batch, dictionary_owner_);
    } else {
      auto got = decoder_->Decode(dst, n);
      if (!got.ok()) return PageError(std::move(got).TakeStatus());
      if (*got != n) return PageError(Status::Corruption("page holds fewer values than its levels say"));
      if constexpr (std::is_same_v<T, ByteArray>) {
        BufferPtr storage = decoder_->storage();
        PinOnce(batch, storage ? storage : values_owner_);
      }
    }
    batch->num_values += n;
    values_decoded_ += n;
    return Status::OK();
  }

  // Appends the next n values of a dictionary-encoded page to a dictionary-coded batch.
  Status DecodeIndices(ColumnBatch* batch, int64_t n) {
    uint32_t* idx = batch->dict_indices.extend(static_cast<size_t>(n));
    const bool first = batch->num_values == 0;
    batch->dictionary = dictionary_.data();
    batch->dictionary_size = static_cast<int64_t>(dictionary_.size());
    if (probe_ && probe_dictionary_ != dictionary_.data()) {
      probe_dictionary_ = dictionary_.data();
      probe_answer_ = probe_(*batch);
    }
    Result<int64_t> got = 0;
    if (probe_answer_) {  // (asked just above for this dictionary)
      int64_t found = 0;
      got = index_decoder_.Probe(idx, n, probe_answer_->target, probe_answer_->other, &found);
      if (first) batch->probe_found = 0;
      if (batch->probe_found >= 0) batch->probe_found += found;
    } else {
      got = index_decoder_.Decode(idx, n, static_cast<uint32_t>(dictionary_.size()));
      batch->probe_found = -1;
    }
    if (!got.ok()) return PageError(std::move(got).TakeStatus());
    if (*got != n) return PageError(Status::Corruption("page holds fewer values than its levels say"));
    if constexpr (std::is_same_v<T, ByteArray>) PinOnce(batch, dictionary_owner_);
    batch->num_values += n;
    values_decoded_ += n;
    return Status::OK();
  }

  static void PinOnce(ColumnBatch* batch, const BufferPtr& buffer) {
    if (!buffer) return;
    if (batch->pins.empty() || batch->pins.back() != buffer) batch->pins.push_back(buffer);
  }

  Status SkipValues(int64_t n) {
    if (n == 0) return Status::OK();
    auto got = use_dictionary_ ? index_decoder_.Skip(n) : decoder_->Skip(n);
    if (!got.ok()) return PageError(std::move(got).TakeStatus());
    if (*got != n) return PageError(Status::Corruption("page holds fewer values than its levels say"));
    return Status::OK();
  }

  const ColumnMetaData* meta_;
  const ColumnChunk* chunk_;
  int row_group_;     // the chunk's row group ...
  int leaf_index_;    // ... and leaf column
  int64_t num_rows_;  // of the row group
  std::string context_;
  std::optional<crypto::ColumnDecryptor> decryptor_;  // an encrypted chunk's; before pages_
  PageReader pages_;
  Page page_;
  int16_t max_def_ = 0;
  int16_t max_rep_ = 0;
  bool started_ = false;
  bool seen_data_page_ = false;
  bool io_started_ = false;  // a page was asked for
  int64_t pages_skipped_ = 0;
  PodVector<int16_t> page_def_;
  PodVector<int16_t> page_rep_;
  int64_t level_pos_ = 0;
  int64_t page_levels_ = 0;
  int64_t page_values_left_ = 0;
  bool page_all_present_ = false;  // every level entry of the page holds a value (no NULL)
  BufferPtr values_owner_;
  // Pages by location (OffsetIndex), once indexed_.
  bool index_tried_ = false;
  bool indexed_ = false;
  // Pages in order: the chunk's usable OffsetIndex (null: none), which every page met must agree
  // with, and the data pages met so far.
  bool check_loaded_ = false;
  std::shared_ptr<const OffsetIndex> check_index_;
  size_t check_pages_ = 0;
  std::vector<int64_t> page_offset_;
  std::vector<int32_t> page_size_;
  std::vector<int64_t> page_first_row_;  // one more entry: the row group's row count
  std::vector<uint8_t> planned_;         // pages holding rows the caller will read
  size_t next_page_ = 0;
  bool opened_any_ = false;  // OpenIndexedPage: a page was opened, last_opened_ the last one
  size_t last_opened_ = 0;
  // Dictionary of the chunk, decoded once, when a page first needs it.
  Page dict_page_;
  bool dict_pending_ = false;  // dict_page_ met in order, body not read yet
  bool dict_seen_ = false;     // a dictionary page was met in order
  bool dictionary_first_ = false;  // OffsetIndexProblem's: check the bytes before the first page
  bool has_dictionary_ = false;
  PodVector<T> dictionary_;
  BufferPtr dictionary_owner_;
  bool dictionary_c_strings_ = false;  // TerminateDictionary made every entry a C string
  bool page_c_strings_ = false;        // decoder_ hands out the page's C strings (Page::c_strings)
  int64_t dictionary_values_used_ = 0;  // values gathered from dictionary_; -1: termination tried
  bool use_dictionary_ = false;
  DictionaryIndexDecoder index_decoder_;
  PodVector<uint32_t> indices_;
  // One decoder per encoding, made on first use.
  std::array<std::unique_ptr<TypedDecoder<T>>, 11> decoders_;
  TypedDecoder<T>* decoder_ = nullptr;
  // What the arrays above hold, charged to the table's max_memory (FileReader's ReaderOptions).
  BudgetCharge levels_charge_;      // page_def_, page_rep_
  BudgetCharge dictionary_charge_;  // dictionary_
  BudgetCharge indices_charge_;     // indices_
  BudgetCharge storage_charge_;     // the current page's decoder_->storage()
  BudgetCharge index_charge_;       // check_index_, or page_offset_ ... planned_
};

}  // namespace

std::string ColumnContext(const FileReader& file, int row_group, const SchemaNode& leaf) {
  return file.path() + ", row group " + std::to_string(row_group) + ", column '" +
         leaf.DottedPath() + "'";
}

void ColumnChunkReader::set_c_strings(bool on) {
  if (page_reader_ == nullptr) return;
  page_reader_->set_c_strings(on && leaf_->physical_type == PhysicalType::kByteArray,
                              leaf_->max_repetition_level > 0, leaf_->max_definition_level > 0);
}

int64_t ColumnChunkReader::pages_from_cache() const {
  return page_reader_ ? page_reader_->pages_from_cache() : 0;
}

int64_t ColumnChunkReader::pages_read_ahead() const {
  return page_reader_ ? page_reader_->pages_read_ahead() : 0;
}

void ColumnChunkReader::Provide(int64_t offset, BufferPtr bytes) {
  if (page_reader_ != nullptr) page_reader_->Provide(offset, std::move(bytes));
}

int64_t ColumnChunkReader::bytes_read() const {
  return (page_reader_ ? page_reader_->bytes_read() : 0) + extra_bytes_read_;
}

Result<std::unique_ptr<ColumnChunkReader>> ColumnChunkReader::Make(
    std::shared_ptr<const FileReader> file, int row_group, int leaf) {
  if (row_group < 0 || row_group >= file->num_row_groups() || leaf < 0 ||
      leaf >= file->schema().num_leaves()) {
    return Status::InvalidArgument("no column chunk (" + std::to_string(row_group) + ", " +
                                   std::to_string(leaf) + ")");
  }
  const SchemaNode& node = file->schema().leaf(leaf);
  std::string context = ColumnContext(*file, row_group, node);
  auto meta_result = file->ColumnMeta(row_group, leaf);
  if (!meta_result.ok()) return std::move(meta_result).TakeStatus().WithContext(context);
  const ColumnMetaData* meta = *meta_result;
  if (meta->type != node.physical_type) {
    return Status::Corruption("column chunk type " + PhysicalTypeName(meta->type) +
                              " differs from the schema's " + PhysicalTypeName(node.physical_type))
        .WithContext(context);
  }
  const RowGroup& rg = file->metadata().row_groups[static_cast<size_t>(row_group)];
  const ColumnChunk* chunk = &rg.columns[static_cast<size_t>(leaf)];
  const int64_t rows = rg.num_rows;
  auto decryptor = file->ChunkDecryptor(row_group, leaf);
  if (!decryptor.ok()) return std::move(decryptor).TakeStatus().WithContext(context);
  std::optional<crypto::ColumnDecryptor> d = std::move(decryptor).value();
  std::unique_ptr<ColumnChunkReader> r;
  switch (node.physical_type) {
    case PhysicalType::kBoolean:
      r.reset(new TypedColumnChunkReader<uint8_t>(file, &node, meta, chunk, row_group, leaf, rows, context, std::move(d)));
      break;
    case PhysicalType::kInt32:
      r.reset(new TypedColumnChunkReader<int32_t>(file, &node, meta, chunk, row_group, leaf, rows, context, std::move(d)));
      break;
    case PhysicalType::kInt64:
      r.reset(new TypedColumnChunkReader<int64_t>(file, &node, meta, chunk, row_group, leaf, rows, context, std::move(d)));
      break;
    case PhysicalType::kInt96:
      r.reset(new TypedColumnChunkReader<Int96>(file, &node, meta, chunk, row_group, leaf, rows, context, std::move(d)));
      break;
    case PhysicalType::kFloat:
      r.reset(new TypedColumnChunkReader<float>(file, &node, meta, chunk, row_group, leaf, rows, context, std::move(d)));
      break;
    case PhysicalType::kDouble:
      r.reset(new TypedColumnChunkReader<double>(file, &node, meta, chunk, row_group, leaf, rows, context, std::move(d)));
      break;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      r.reset(new TypedColumnChunkReader<ByteArray>(file, &node, meta, chunk, row_group, leaf, rows, context, std::move(d)));
      break;
  }
  if (!r) return Status::Corruption("unknown physical type").WithContext(context);
  // What a reader holds whatever its pages: itself, its batch, the scan's state for its leaf. A
  // struct of a hundred thousand leaves opens as many readers.
  Status charged = r->footprint_charge_.Set(file->options().memory, r->footprint() + kLeafStateBytes,
                                            "a column reader");
  if (!charged.ok()) return std::move(charged).WithContext(context);
  return r;
}

}  // namespace pq
