#include "format/page/page_reader.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>

#include "format/codec/codec.h"
#include "format/file/buffer_pool.h"
#include "format/metadata/metadata_io.h"
#include "format/page/page_cache.h"
#include "format/util/crc32.h"
#include "format/util/task_pool.h"

namespace pq {

const Statistics* Page::statistics() const {
  if (header.data_page_header && header.data_page_header->statistics) {
    return &*header.data_page_header->statistics;
  }
  if (header.data_page_header_v2 && header.data_page_header_v2->statistics) {
    return &*header.data_page_header_v2->statistics;
  }
  return nullptr;
}

PageReader::PageReader(const RandomAccessFile& file, const ColumnMetaData& meta,
                       const ReaderOptions& options, std::string context, int64_t slack,
                       const crypto::ColumnDecryptor* decryptor)
    : file_(file),
      meta_(meta),
      options_(options),
      context_(std::move(context)),
      slack_(slack),
      decryptor_(decryptor) {}

struct PageReader::ReadAhead {
  Page page;  // as NextHeader returned it; whoever claims it loads it
  std::mutex mu;
  std::condition_variable finished;
  std::atomic<bool> claimed{false};  // a thread took the work: a worker, or the reader itself
  std::atomic<bool> done{false};     // set (release) once page and status are final
  Status status;
};

PageReader::~PageReader() {
  for (const auto& r : ahead_) Drop(*r);
}

void PageReader::Drop(ReadAhead& r) const {
  // Work nobody started is cancelled: the task finds it claimed and returns without touching this
  // reader. Work under way may still use it, so it is waited for.
  if (!ClaimWork(r.claimed)) Wait(r);
}

void PageReader::Wait(ReadAhead& r) const {
  auto done = [&] { return r.done.load(std::memory_order_acquire); };
  // The other thread is usually about done (a scan whose calling thread is the slower one): watch
  // it a while. If it is not, the workers are the slower ones (pages that take longer to
  // decompress than to decode): the calling thread loads pages still queued (of any column of the
  // scan) instead of idling, so that both decompress. A task of the pool only loads a page, so
  // running one here cannot wait on this thread.
  if (done() || SpinUntil(done, kHelpAfter)) return;
  while (!done() && options_.task_pool && options_.task_pool->RunOne()) {
  }
  if (done() || SpinUntil(done)) return;
  std::unique_lock<std::mutex> lock(r.mu);
  r.finished.wait(lock, [&] { return r.done.load(std::memory_order_acquire); });
}

bool PageReader::SamePage(const Page& a, const Page& b) {
  return a.stored.data() == b.stored.data() && a.stored.size() == b.stored.size() &&
         a.header_ordinal == b.header_ordinal;
}

void PageReader::ReadNextAhead(const Page& current) {
  const int64_t pos = pos_;
  const int data_page_ordinal = data_page_ordinal_;
  const int page_index = page_index_;
  const int64_t values_seen = values_seen_;
  std::vector<std::shared_ptr<ReadAhead>> next;
  peeking_ = true;
  while (next.size() < kPagesAhead) {
    auto r = std::make_shared<ReadAhead>();
    Result<bool> found = NextHeader(&r->page);
    // A header that does not parse is reported when the scan reaches it, by NextHeader itself.
    if (!found.ok() || !*found) break;
    next.push_back(std::move(r));
  }
  peeking_ = false;
  pos_ = pos;
  data_page_ordinal_ = data_page_ordinal;
  page_index_ = page_index;
  values_seen_ = values_seen;
  std::vector<std::shared_ptr<ReadAhead>> kept;
  for (auto& r : ahead_) {
    bool wanted = SamePage(r->page, current);
    for (auto& n : next) {
      if (n && SamePage(r->page, n->page)) {
        wanted = true;
        n.reset();  // already in flight
      }
    }
    if (wanted) {
      kept.push_back(std::move(r));
    } else {
      Drop(*r);  // a page the caller passed over
    }
  }
  ahead_ = std::move(kept);
  for (auto& n : next) {
    if (!n) continue;
    ahead_.push_back(n);
    options_.task_pool->Submit([this, n] {
      if (!ClaimWork(n->claimed)) return;  // cancelled, or loaded by the reader itself
      Status s = LoadBodyNow(&n->page);
      if (s.ok() && c_strings_) MakeCStrings(&n->page);
      std::lock_guard<std::mutex> lock(n->mu);
      n->status = std::move(s);
      n->done.store(true, std::memory_order_release);
      // Notified under the lock: once the reader sees `done` it may be destroyed, and this task
      // touches nothing of it after unlocking.
      n->finished.notify_all();
    });
  }
}

void PageReader::SplitLevels(ByteSpan body, Page* page) {
  const DataPageHeaderV2& v2 = *page->header.data_page_header_v2;
  const size_t rep = static_cast<size_t>(v2.repetition_levels_byte_length);
  const size_t def = static_cast<size_t>(v2.definition_levels_byte_length);
  page->rep_levels = body.first(rep);
  page->def_levels = body.subspan(rep, def);
  page->stored_values = body.subspan(rep + def);
}

Status PageReader::Fail(Status s, int page_ordinal) const {
  return std::move(s).WithContext(context_ + ", page " + std::to_string(page_ordinal));
}

Status ChunkByteRange(const ColumnMetaData& meta, int64_t file_size, int64_t slack, int64_t* begin,
                      int64_t* end) {
  int64_t start = meta.data_page_offset;
  // The dictionary page, when there is one, comes first. Some writers store 0 for "no dictionary".
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 &&
      *meta.dictionary_page_offset < start) {
    start = *meta.dictionary_page_offset;
  }
  int64_t length = meta.total_compressed_size;
  if (slack > 0 && start >= 0 && length >= 0 && start <= file_size && length <= file_size - start) {
    length = std::min(length + slack, file_size - start);
  }
  if (start < 0 || length < 0 || start > file_size || length > file_size - start) {
    return Status::Corruption("column chunk range [" + std::to_string(start) + ", +" +
                              std::to_string(length) + ") is outside the file (size " +
                              std::to_string(file_size) + ")");
  }
  *begin = start;
  *end = start + length;
  return Status::OK();
}

std::string OffsetIndexProblem(const OffsetIndex& index, const ColumnMetaData& meta,
                               int64_t chunk_begin, int64_t chunk_end, int64_t num_rows,
                               bool* dictionary_first) {
  const std::vector<PageLocation>& locs = index.page_locations;
  if (locs.empty()) return "it lists no page";
  // parquet-mr (1.11 at least) gives no dictionary_page_offset and points data_page_offset at the
  // dictionary page: its first data page comes after that.
  const bool after_dictionary = meta.data_page_offset == chunk_begin && !meta.dictionary_page_offset &&
                                locs[0].offset > chunk_begin;
  if (dictionary_first != nullptr) *dictionary_first = after_dictionary;
  if (locs[0].offset != meta.data_page_offset && !after_dictionary) {
    return "its first page is at offset " + std::to_string(locs[0].offset) +
           ", the chunk's first data page at " + std::to_string(meta.data_page_offset);
  }
  int64_t expected = locs[0].offset;
  for (size_t i = 0; i < locs.size(); ++i) {
    const PageLocation& loc = locs[i];
    if (loc.offset != expected || loc.compressed_page_size <= 0 || loc.offset < chunk_begin ||
        loc.offset >= chunk_end || loc.compressed_page_size > chunk_end - loc.offset) {
      return "page " + std::to_string(i) + " at [" + std::to_string(loc.offset) + ", +" +
             std::to_string(loc.compressed_page_size) + ") is not where the page before it ends (" +
             std::to_string(expected) + ") inside the chunk [" + std::to_string(chunk_begin) + ", " +
             std::to_string(chunk_end) + ")";
    }
    expected = loc.offset + loc.compressed_page_size;
    const bool rows_ok = i == 0 ? loc.first_row_index == 0
                                : loc.first_row_index > locs[i - 1].first_row_index &&
                                      loc.first_row_index < num_rows;
    if (!rows_ok) {
      return "page " + std::to_string(i) + " starts at row " + std::to_string(loc.first_row_index);
    }
  }
  return "";
}

Status PageReader::EnsureBounds() {
  if (bounds_known_) return Status::OK();
  Status s = ChunkByteRange(meta_, file_.size(), slack_, &chunk_begin_, &chunk_end_);
  if (!s.ok()) return std::move(s).WithContext(context_);
  bounds_known_ = true;
  return Status::OK();
}

void PageReader::Provide(int64_t begin, BufferPtr bytes) {
  bytes_read_ += static_cast<int64_t>(bytes->size());
  provided_.emplace_back(begin, std::move(bytes));
}

// Reads file bytes [begin, end) (within the chunk) as the current buffer.
Status PageReader::Load(int64_t begin, int64_t end) {
  for (const auto& [at, bytes] : provided_) {
    if (begin >= at && end - at <= static_cast<int64_t>(bytes->size())) {
      buffer_ = bytes;  // read ahead: already counted and charged
      buffer_begin_ = at;
      return Status::OK();
    }
  }
  if (options_.memory) {
    // The bytes this reader held so far go when buffer_ is replaced: free them before charging.
    buffer_.reset();
    PQ_RETURN_IF_ERROR(options_.memory->Reserve(end - begin, "reading column chunk bytes").WithContext(context_));
  }
  auto bytes = file_.ReadAt(begin, end - begin);
  if (!bytes.ok()) {
    if (options_.memory) options_.memory->Release(end - begin);
    return std::move(bytes).TakeStatus().WithContext(context_);
  }
  buffer_ = ChargedBuffer(std::move(bytes).value(), options_.memory);
  buffer_begin_ = begin;
  bytes_read_ += end - begin;
  return Status::OK();
}

Status PageReader::Seek(int64_t offset, int64_t load_begin, int64_t load_end, int data_ordinal) {
  PQ_RETURN_IF_ERROR(EnsureBounds());
  if (offset < chunk_begin_ || offset >= chunk_end_) {
    return Status::Corruption("page offset " + std::to_string(offset) +
                              " is outside the column chunk [" + std::to_string(chunk_begin_) +
                              ", " + std::to_string(chunk_end_) + ")")
        .WithContext(context_);
  }
  sequential_ = false;
  positioned_ = true;
  pos_ = offset;
  data_page_ordinal_ = data_ordinal;
  page_index_ = data_ordinal;
  const int64_t begin = std::clamp(std::min(load_begin, offset), chunk_begin_, offset);
  const int64_t end = std::clamp(std::max(load_end, offset + 1), offset + 1, chunk_end_);
  if (Contains(begin, end)) return Status::OK();
  return Load(begin, end);
}

Result<bool> PageReader::Next(Page* page) {
  PQ_ASSIGN_OR_RETURN(bool more, NextHeader(page));
  if (!more) return false;
  PQ_RETURN_IF_ERROR(LoadBody(page));
  return true;
}

Result<bool> PageReader::NextHeader(Page* page) {
  PQ_RETURN_IF_ERROR(EnsureBounds());
  if (!positioned_) {
    pos_ = chunk_begin_;
    positioned_ = true;
  }
  const ReaderLimits& limits = options_.limits;
  while (true) {
    if (pos_ >= chunk_end_) return false;
    if (sequential_ && values_seen_ >= meta_.num_values && meta_.num_values >= 0) {
      // All values the metadata promises were read: whatever follows is padding, not pages.
      return false;
    }
    auto in_buffer = [&]() {
      return buffer_ && pos_ >= buffer_begin_ &&
             pos_ - buffer_begin_ < static_cast<int64_t>(buffer_->size());
    };
    if (!in_buffer()) {
      if (peeking_) return false;
      PQ_RETURN_IF_ERROR(Load(pos_, chunk_end_));
    }
    const int ordinal = page_index_++;
    const int64_t header_offset = pos_;
    auto rest_of_buffer = [&]() {
      const size_t at = static_cast<size_t>(pos_ - buffer_begin_);
      return ByteSpan(buffer_->data() + at, buffer_->size() - at);
    };
    ByteSpan rest = rest_of_buffer();
    // In an encrypted chunk the header is a module whose AAD says whether it is the dictionary
    // page's (the page at dictionary_page_offset) or which data page's.
    const bool dictionary_module = decryptor_ && crypto::ExpectDictionaryPage(meta_) &&
                                   pos_ == *meta_.dictionary_page_offset;
    auto parse_header = [&](ByteSpan bytes, PageHeader* h, size_t* size) -> Status {
      if (decryptor_ == nullptr) return ReadPageHeader(bytes, h, size);
      return decryptor_->ReadPageHeader(bytes, dictionary_module, data_page_ordinal_, h, size);
    };
    PageHeader header;
    size_t header_size = 0;
    Status s = parse_header(rest, &header, &header_size);
    const bool buffer_short = buffer_begin_ + static_cast<int64_t>(buffer_->size()) < chunk_end_;
    if (buffer_short && (!s.ok() || (header.compressed_page_size >= 0 &&
                                     static_cast<size_t>(header.compressed_page_size) >
                                         rest.size() - header_size))) {
      // The bytes read so far (a window the caller chose) end inside this page: read on to the end
      // of the chunk and parse again.
      if (peeking_) return false;
      PQ_RETURN_IF_ERROR(Load(pos_, chunk_end_));
      rest = rest_of_buffer();
      header = PageHeader();
      header_size = 0;
      s = parse_header(rest, &header, &header_size);
    }
    if (!s.ok()) return Fail(std::move(s).WithContext("page header"), ordinal);
    rest = rest.subspan(header_size);
    if (header.compressed_page_size < 0 || header.uncompressed_page_size < 0) {
      return Fail(Status::Corruption("negative page size"), ordinal);
    }
    if (static_cast<size_t>(header.compressed_page_size) > rest.size()) {
      return Fail(Status::Corruption("page of " + std::to_string(header.compressed_page_size) +
                                     " bytes runs past the column chunk (" +
                                     std::to_string(rest.size()) + " bytes left)"),
                  ordinal);
    }
    if (header.uncompressed_page_size > limits.max_page_size ||
        header.compressed_page_size > limits.max_page_size) {
      return Fail(Status::OutOfMemory("page claims " +
                                      std::to_string(std::max(header.uncompressed_page_size,
                                                              header.compressed_page_size)) +
                                      " bytes, over the page size limit of " +
                                      std::to_string(limits.max_page_size) + " bytes"),
                  ordinal);
    }
    ByteSpan stored = rest.first(static_cast<size_t>(header.compressed_page_size));
    pos_ += static_cast<int64_t>(header_size + stored.size());

    const bool is_data = header.type == PageType::kDataPage || header.type == PageType::kDataPageV2;
    const bool is_dict = header.type == PageType::kDictionaryPage;
    if (!is_data && !is_dict) continue;  // index pages and unknown page types are skipped
    // The page bytes once decrypted: a page module is its plaintext plus the module overhead.
    size_t body_size = stored.size();
    if (decryptor_) {
      if (is_dict != dictionary_module) {
        return Fail(Status::Corruption(std::string("an encrypted ") +
                                           (is_dict ? "dictionary" : "data") +
                                           " page header where the chunk's layout puts a " +
                                           (dictionary_module ? "dictionary" : "data") + " page"),
                    ordinal);
      }
      if (decryptor_->page_overhead() > stored.size()) {
        return Fail(Status::Corruption("encrypted page of " + std::to_string(stored.size()) +
                                       " bytes is smaller than its module overhead"),
                    ordinal);
      }
      body_size -= decryptor_->page_overhead();
    }

    page->header = std::move(header);
    const PageHeader& h = page->header;
    page->type = h.type;
    page->header_ordinal = ordinal;
    page->offset = header_offset;
    page->end = pos_;
    page->body_owned = false;
    page->owner = buffer_;
    page->owner2.reset();
    page->c_strings = {};
    page->c_strings_of = nullptr;
    page->c_strings_owner.reset();
    page->body = {};
    page->rep_levels = {};
    page->def_levels = {};
    page->stored = stored;
    page->stored_values = stored;
    page->encrypted = decryptor_ != nullptr;
    page->loaded = false;
    page->crc_checked = false;
    page->values_compressed = meta_.codec != CompressionCodec::kUncompressed;
    page->values_size = static_cast<size_t>(h.uncompressed_page_size);

    if (is_dict) {
      if (!h.dictionary_page_header) {
        return Fail(Status::Corruption("dictionary page without a dictionary page header"), ordinal);
      }
      page->num_values = h.dictionary_page_header->num_values;
      page->encoding = h.dictionary_page_header->encoding;
      if (page->num_values < 0) return Fail(Status::Corruption("negative dictionary size"), ordinal);
      if (h.uncompressed_page_size > limits.max_dictionary_size) {
        return Fail(Status::OutOfMemory("dictionary page over the dictionary size limit"), ordinal);
      }
    } else if (h.type == PageType::kDataPage) {
      if (!h.data_page_header) {
        return Fail(Status::Corruption("data page without a data page header"), ordinal);
      }
      page->num_values = h.data_page_header->num_values;
      page->encoding = h.data_page_header->encoding;
      page->ordinal = data_page_ordinal_++;
    } else {
      if (!h.data_page_header_v2) {
        return Fail(Status::Corruption("data page v2 without a v2 header"), ordinal);
      }
      const DataPageHeaderV2& v2 = *h.data_page_header_v2;
      page->num_values = v2.num_values;
      page->encoding = v2.encoding;
      page->ordinal = data_page_ordinal_++;
      if (v2.repetition_levels_byte_length < 0 || v2.definition_levels_byte_length < 0) {
        return Fail(Status::Corruption("negative level byte length"), ordinal);
      }
      // Every row and every NULL is one of the page's level entries.
      if (v2.num_rows < 0 || v2.num_rows > v2.num_values || v2.num_nulls < 0 || v2.num_nulls > v2.num_values) {
        return Fail(Status::Corruption("data page v2 claims " + std::to_string(v2.num_rows) + " rows and " +
                                       std::to_string(v2.num_nulls) + " NULLs in " +
                                       std::to_string(v2.num_values) + " values"),
                    ordinal);
      }
      size_t levels = size_t(v2.repetition_levels_byte_length) + size_t(v2.definition_levels_byte_length);
      if (levels > body_size || levels > page->values_size) {
        return Fail(Status::Corruption("level byte lengths exceed the page size"), ordinal);
      }
      // An encrypted page's levels are inside its module: LoadBody splits the plaintext.
      if (!page->encrypted) SplitLevels(stored, page);
      page->values_size -= levels;
      if (!v2.is_compressed) page->values_compressed = false;
    }
    if (page->num_values < 0) return Fail(Status::Corruption("negative value count"), ordinal);
    if (Status bounded = CheckPageBounds(*page); !bounded.ok()) return Fail(std::move(bounded), ordinal);
    if (is_data) values_seen_ += page->num_values;
    // The page before this one was loaded: a scan walking the chunk, worth reading ahead for.
    if (options_.task_pool && !peeking_ && last_loaded_ == ordinal - 1) ReadNextAhead(*page);
    return true;
  }
}

Status PageReader::CheckPageBounds(const Page& page) const {
  if (!bounded_) return Status::OK();
  const bool dictionary = page.type == PageType::kDictionaryPage;
  const int64_t n = page.num_values;
  if (!dictionary && max_page_values_ > 0 && n > max_page_values_) {
    return Status::Corruption("page claims " + std::to_string(n) + " values, more than the " +
                              std::to_string(max_page_values_) + " rows of its row group");
  }
  // A dictionary may hold entries its chunk does not use (pyarrow writes every category of a
  // categorical, in every row group), but a few million beyond the chunk's values is no writer's.
  if (dictionary && meta_.num_values >= 0 && n - meta_.num_values > kMaxUnusedDictionaryEntries) {
    return Status::Corruption("dictionary page claims " + std::to_string(n) + " entries, more than the " +
                              std::to_string(meta_.num_values) + " values of its column chunk and " +
                              std::to_string(kMaxUnusedDictionaryEntries) + " more");
  }
  if (value_width_ <= 0) return Status::OK();
  // A dictionary holds its entries PLAIN; a data page's values take at most their width, or a
  // dictionary index or a delta, with a run header each, and its levels as much again: 24 bytes a
  // value beyond the width covers every encoding, and kPageSlack their block headers.
  const int64_t per_value = value_width_ + (dictionary ? 0 : 24);
  const int64_t claimed = page.header.uncompressed_page_size;
  if (n < (claimed - kPageSlack) / per_value) {
    return Status::Corruption(std::string(dictionary ? "dictionary page" : "page") + " of " + std::to_string(n) +
                              " values claims " + std::to_string(claimed) + " uncompressed bytes, more than " +
                              std::to_string(n) + " values of " + std::to_string(value_width_) + " bytes can take");
  }
  return Status::OK();
}

Status PageReader::LoadBody(Page* page) const {
  if (page->loaded) return Status::OK();
  auto it = std::find_if(ahead_.begin(), ahead_.end(),
                         [&](const std::shared_ptr<ReadAhead>& r) { return SamePage(r->page, *page); });
  if (it != ahead_.end()) {
    std::shared_ptr<ReadAhead> r = std::move(*it);
    ahead_.erase(it);
    if (ClaimWork(r->claimed)) {
      // No worker has started it (they are busy with other pages): load it here rather than wait.
      if (LoadFromCache(page)) return Status::OK();
      Status s = LoadBodyNow(page);
      if (s.ok()) {
        last_loaded_ = page->header_ordinal;
        ++pages_read_ahead_;
      }
      return s;
    }
    Wait(*r);
    if (r->status.ok()) {
      const Page& done = r->page;
      page->body = done.body;
      page->rep_levels = done.rep_levels;
      page->def_levels = done.def_levels;
      page->owner = done.owner;
      page->owner2 = done.owner2;
      page->c_strings = done.c_strings;
      page->c_strings_of = done.c_strings_of;
      page->c_strings_owner = done.c_strings_owner;
      page->stored = done.stored;
      page->stored_values = done.stored_values;
      page->encrypted = done.encrypted;
      page->crc_checked = done.crc_checked;
      page->body_owned = done.body_owned;
      page->loaded = true;
      last_loaded_ = page->header_ordinal;
      ++pages_read_ahead_;
      return Status::OK();
    }
    // Loaded again here: the same error, or success where the worker met a passing condition
    // (a memory cap reached while other pages were held).
  }
  if (LoadFromCache(page)) return Status::OK();
  // The first page loaded after a Seek, or after pages skipped: a lookup's page, worth keeping.
  const bool keep = options_.page_cache && !sequential_ && last_loaded_ != page->header_ordinal - 1;
  Status s = LoadBodyNow(page);
  if (s.ok()) {
    last_loaded_ = page->header_ordinal;
    if (keep) KeepInCache(*page);
  }
  return s;
}

bool PageReader::LoadFromCache(Page* page) const {
  if (!options_.page_cache || page->offset < 0) return false;
  std::shared_ptr<const CachedPage> hit = options_.page_cache->Find(file_.id(), page->offset);
  if (hit == nullptr) return false;
  // The page's owner shares ownership of the whole entry, whose levels the spans point into.
  page->owner = BufferPtr(hit, hit->owner.get());
  page->owner2.reset();
  page->body = hit->body;
  page->rep_levels = hit->v2 ? hit->rep_levels() : ByteSpan();
  page->def_levels = hit->v2 ? hit->def_levels() : ByteSpan();
  page->encrypted = false;
  page->crc_checked = true;
  page->body_owned = true;
  page->loaded = true;
  last_loaded_ = page->header_ordinal;
  ++pages_from_cache_;
  return true;
}

void PageReader::KeepInCache(const Page& page) const {
  // A body that is a slice of the chunk's file bytes cost nothing to load; keeping it would hold
  // the whole read window.
  if (!page.body_owned || page.offset < 0) return;
  auto entry = std::make_shared<CachedPage>();
  entry->owner = page.owner2 ? page.owner2 : page.owner;
  entry->body = page.body;
  // A recycled buffer may be far larger than the page it holds: keep a copy of the right size.
  if (entry->owner == nullptr || entry->owner->size() > page.body.size() + page.body.size() / 4 + 4096) {
    auto copy = std::make_shared<Buffer>(page.body.begin(), page.body.end());
    entry->body = ByteSpan(copy->data(), copy->size());
    entry->owner = std::move(copy);
  }
  if (page.type == PageType::kDataPageV2) {
    entry->v2 = true;
    entry->levels.assign(reinterpret_cast<const char*>(page.rep_levels.data()), page.rep_levels.size());
    entry->levels.append(reinterpret_cast<const char*>(page.def_levels.data()), page.def_levels.size());
    entry->rep_levels_size = page.rep_levels.size();
  }
  options_.page_cache->Store(file_.id(), page.offset, std::move(entry));
}

void PageReader::MakeCStrings(Page* page) const {
  if (page->type == PageType::kDictionaryPage || page->encoding != Encoding::kPlain) return;
  ByteSpan values = page->body;
  if (page->type == PageType::kDataPage) {
    // Past the levels, as the column reader finds them: RLE levels after their 4-byte length. (The
    // deprecated BIT_PACKED levels carry no length: no copy for them.)
    const DataPageHeader& h = *page->header.data_page_header;
    for (const auto& [present, encoding] : {std::pair{c_strings_rep_, h.repetition_level_encoding},
                                            std::pair{c_strings_def_, h.definition_level_encoding}}) {
      if (!present) continue;
      if (encoding != Encoding::kRle || values.size() < 4) return;
      const uint32_t length = LoadLE<uint32_t>(values.data());
      if (length > values.size() - 4) return;
      values = values.subspan(4 + length);
    }
  }
  // Every value loses its 4-byte length and gains a NUL, so the copy is smaller than the values.
  const size_t size = values.size();
  if (size == 0) return;
  if (const std::shared_ptr<MemoryBudget>& memory = options_.memory) {
    // A copy only saves time: it never takes room a scan near its limit may need (under half of it).
    const int64_t limit = memory->limit();
    if (limit > 0 && memory->used() + static_cast<int64_t>(size) > limit / 2) return;
    if (!memory->Reserve(static_cast<int64_t>(size), "a page's C strings").ok()) return;
  }
  std::shared_ptr<Buffer> out = AcquirePooledBuffer(size);
  BufferPtr owned = ChargedBuffer(out, options_.memory, static_cast<int64_t>(size));
  const uint8_t* in = values.data();
  uint8_t* c = out->data();
  size_t pos = 0;
  while (pos < size) {
    if (size - pos < 4) return;
    const uint32_t length = LoadLE<uint32_t>(in + pos);
    pos += 4;
    if (length > size - pos) return;
    const uint8_t* value = in + pos;
    if (std::memchr(value, 0, length) != nullptr) return;
    std::memcpy(c, value, length);
    c[length] = 0;
    c += length + 1;
    pos += length;
  }
  page->c_strings = ByteSpan(out->data(), static_cast<size_t>(c - out->data()));
  page->c_strings_of = values.data();
  page->c_strings_owner = std::move(owned);
}

Status PageReader::LoadBodyNow(Page* page) const {
  if (page->loaded) return Status::OK();
  const int ordinal = page->header_ordinal;
  const PageHeader& h = page->header;
  if (h.crc && options_.verify_checksums && !page->crc_checked) {
    // Over the bytes as stored: for an encrypted page, the page module (length field included).
    uint32_t actual = Crc32(page->stored);
    if (actual != static_cast<uint32_t>(*h.crc)) {
      return Fail(Status::Checksum("page checksum mismatch (CRC-32 stored " +
                                   std::to_string(static_cast<uint32_t>(*h.crc)) + ", computed " +
                                   std::to_string(actual) + "); read with verify_checksums=0 to ignore"),
                  ordinal);
    }
    page->crc_checked = true;
  }
  if (page->encrypted) {
    if (decryptor_ == nullptr) {
      return Fail(Status::InvalidArgument("encrypted page given to a reader without its decryptor"),
                  ordinal);
    }
    auto plain = std::make_shared<Buffer>();
    const bool dictionary = page->type == PageType::kDictionaryPage;
    Status s = decryptor_->DecryptPage(page->stored, dictionary, dictionary ? 0 : page->ordinal,
                                       plain.get());
    if (!s.ok()) return Fail(std::move(s), ordinal);
    if (options_.memory) {
      Status charged = options_.memory->Reserve(static_cast<int64_t>(plain->size()), "a decrypted page");
      if (!charged.ok()) return Fail(std::move(charged), ordinal);
    }
    // From here on the page is its plaintext, as a plaintext chunk would store it; the file bytes
    // are no longer needed.
    const ByteSpan body(plain->data(), plain->size());
    page->owner = ChargedBuffer(std::move(plain), options_.memory);
    page->owner2.reset();
    page->stored = body;
    page->stored_values = body;
    page->encrypted = false;
    page->body_owned = true;
    if (page->type == PageType::kDataPageV2) SplitLevels(body, page);
  }
  const ByteSpan compressed = page->stored_values;
  const size_t uncompressed_size = page->values_size;
  // A page whose stored values are empty is never handed to the codec.
  if (!page->values_compressed || compressed.empty()) {
    if (compressed.size() != uncompressed_size && !(compressed.empty() && page->values_compressed)) {
      return Fail(Status::Corruption("uncompressed page size " + std::to_string(uncompressed_size) +
                                     " differs from its stored size " +
                                     std::to_string(compressed.size())),
                  ordinal);
    }
    if (compressed.empty() && uncompressed_size != 0) {
      return Fail(Status::Corruption("empty page claims " + std::to_string(uncompressed_size) +
                                     " uncompressed bytes"),
                  ordinal);
    }
    page->body = compressed;
    page->loaded = true;
    return Status::OK();
  }
  // A page of a few bytes may claim a gigabyte: settle the claim before allocating it.
  Status plausible = CheckDecompressedSize(meta_.codec, compressed, uncompressed_size);
  if (!plausible.ok()) return Fail(std::move(plausible), ordinal);
  if (options_.memory) {
    Status charged = options_.memory->Reserve(static_cast<int64_t>(uncompressed_size), "a decompressed page");
    if (!charged.ok()) return Fail(std::move(charged), ordinal);
  }
  // A recycled buffer (possibly larger than the page): no fresh memory to fault in and zero.
  std::shared_ptr<Buffer> out = AcquirePooledBuffer(uncompressed_size);
  // Returns the charge however this ends.
  BufferPtr owned = ChargedBuffer(out, options_.memory, static_cast<int64_t>(uncompressed_size));
  Status s = Decompress(meta_.codec, compressed, std::span<uint8_t>(out->data(), uncompressed_size));
  if (!s.ok()) return Fail(std::move(s), ordinal);
  page->body = ByteSpan(out->data(), uncompressed_size);
  page->owner2 = std::move(owned);
  page->body_owned = true;
  page->loaded = true;
  return Status::OK();
}

}  // namespace pq
