// PageReader: walks the pages of one column chunk. For each page it parses the PageHeader, checks
// its sizes against the chunk and the configured limits, verifies the CRC-32 when present (and
// enabled), decrypts an encrypted chunk's modules and decompresses; index pages and page types it
// does not know are skipped. A chunk is walked in order, or by location with an OffsetIndex (Seek),
// so that the bytes of pages a scan skips are never read; and a header is parsed apart from its
// body (NextHeader, LoadBody), so a page whose rows are not needed costs its header only, never a
// CRC pass or a decompression. Errors name file, row group, column and page. A scan of a remote
// file may hand a reader the bytes it will need, read in one call with other readers' (Provide).
#pragma once

#include <chrono>

#include <memory>
#include <string>
#include <vector>

#include "format/crypto/column_decryptor.h"
#include "format/encoding/values.h"
#include "format/file/file_reader.h"
#include "format/metadata/metadata.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq {

// The uncompressed bytes a page may take beyond what its values can need (PageReader::set_page_bounds):
// block headers of the delta encodings, padding writers add.
inline constexpr int64_t kPageSlack = int64_t{1} << 20;
// The entries a dictionary may hold beyond its column chunk's values (set_page_bounds).
inline constexpr int64_t kMaxUnusedDictionaryEntries = int64_t{1} << 20;

// The bytes one PLAIN value of `type` takes (BOOLEAN counted as a byte), for set_page_bounds; 0 for
// BYTE_ARRAY, whose values have no fixed width.
inline int64_t FixedValueWidth(PhysicalType type, int32_t type_length) {
  switch (type) {
    case PhysicalType::kBoolean: return 1;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: return 8;
    case PhysicalType::kInt96: return 12;
    case PhysicalType::kFixedLenByteArray: return type_length > 0 ? type_length : 1;
    default: return 0;
  }
}

struct Page {
  PageHeader header;
  PageType type = PageType::kDataPage;
  int ordinal = 0;             // data pages counted from 0 within the chunk (dictionary excluded)
  int64_t num_values = 0;      // level entries (data pages) or dictionary entries
  Encoding encoding = Encoding::kPlain;
  // v1 data page and dictionary page: the whole decompressed body.
  // v2 data page: the decompressed values only; levels are in rep_levels/def_levels.
  // Empty after NextHeader until LoadBody.
  ByteSpan body;
  ByteSpan rep_levels;  // v2 only
  ByteSpan def_levels;  // v2 only
  BufferPtr owner;      // keeps `body` (and the level and stored spans) alive
  BufferPtr owner2;
  // A PLAIN data page a worker loaded for a reader that asked for C strings
  // (PageReader::set_c_strings): the values, which start at c_strings_of in `body`, each without its
  // length and followed by a NUL byte, none holding one. Empty when not made.
  ByteSpan c_strings;
  const uint8_t* c_strings_of = nullptr;
  BufferPtr c_strings_owner;
  const Statistics* statistics() const;

  // Set by NextHeader, used by LoadBody.
  ByteSpan stored;         // the page's bytes after its header, as stored (CRC input)
  ByteSpan stored_values;  // the part of `stored` that holds the (maybe compressed) values
  size_t values_size = 0;  // decompressed size of the values part
  bool values_compressed = false;
  bool encrypted = false;    // `stored` is a page module: LoadBody decrypts it before the rest
  bool crc_checked = false;  // LoadBody verified the CRC (before decrypting, for an encrypted page)
  bool loaded = false;       // LoadBody done (a second call does nothing)
  bool body_owned = false;   // LoadBody put the body in a buffer of its own (decompressed or decrypted)
  int header_ordinal = 0;  // all pages counted from 0 within the chunk, for messages
  int64_t offset = -1;     // file offset of the page header
  int64_t end = -1;        // file offset just past the page (header and stored bytes)
};

// The file bytes column chunk `meta` may occupy, [*begin, *end): from its dictionary page (when it
// has one before its first data page) or first data page, total_compressed_size bytes, `slack`
// more when the file has them (FileReader::chunk_size_slack). Corruption when that is not inside a
// file of `file_size` bytes.
Status ChunkByteRange(const ColumnMetaData& meta, int64_t file_size, int64_t slack, int64_t* begin,
                      int64_t* end);

// What is wrong with `index` as the OffsetIndex of the chunk at [chunk_begin, chunk_end) of a row
// group of `num_rows` rows, or "" when nothing is. An index that is used must
// describe the chunk's data pages one after another (the Parquet spec, "Page Index"): at least one
// page, the first at the chunk's data_page_offset (or after it when data_page_offset is the chunk's
// start and no dictionary_page_offset is given, as parquet-mr writes a dictionary page there: then
// *dictionary_first is set, and a reader must find exactly one dictionary page before the first
// indexed page before it reads through the index), each next one where the one before ends, all
// inside the chunk; the first row 0, then strictly increasing, each below num_rows. An index that
// leaves out a page, or places one where none is, would make a lookup read other rows than a scan
// that walks the pages: such an index is not used at all (by pruning or by lookups), so that every
// query reads the chunk the same way. What this cannot see without reading every page (a page
// holding other rows than its entry says, pages after the last entry) the column reader checks on
// every page it reads (column_reader.h).
std::string OffsetIndexProblem(const OffsetIndex& index, const ColumnMetaData& meta,
                               int64_t chunk_begin, int64_t chunk_end, int64_t num_rows,
                               bool* dictionary_first = nullptr);

class PageReader {
 public:
  // `context` names file, row group and column for error messages. `slack` extends the chunk past
  // total_compressed_size (see FileReader::chunk_size_slack). `decryptor` (null for a plaintext
  // chunk) decrypts the modules of an encrypted chunk; it must outlive the reader.
  PageReader(const RandomAccessFile& file, const ColumnMetaData& meta, const ReaderOptions& options,
             std::string context, int64_t slack = 0,
             const crypto::ColumnDecryptor* decryptor = nullptr);
  // Waits for the page being read ahead, if any: the worker uses this reader.
  ~PageReader();
  PageReader(const PageReader&) = delete;
  PageReader& operator=(const PageReader&) = delete;

  // Reads the next data or dictionary page into *page, body included. Returns false at the end of
  // the chunk.
  Result<bool> Next(Page* page);

  // Parses the header of the next data or dictionary page and moves past the page, leaving its body
  // unread (page->body empty): everything but the CRC and the decompression is checked. Returns
  // false at the end of the chunk.
  Result<bool> NextHeader(Page* page);
  // Verifies the CRC, decrypts (encrypted chunk) and decompresses the body of a page NextHeader
  // returned. The page holds the bytes it needs, so this may come after later NextHeader or Seek
  // calls. Once per page: a second call returns OK and changes nothing.
  //
  // Encrypted chunks (crypto/column_decryptor.h) store each header and each page as a module:
  // NextHeader decrypts the header module (the dictionary page's at dictionary_page_offset, else
  // that of data page `ordinal`, counted from 0, also after a Seek, which names it), and LoadBody
  // checks the CRC over the page module as stored, decrypts it, then splits and decompresses the
  // plaintext as for a plaintext page. A failed authentication is Crypto naming the module.
  //
  // Reading ahead (ReaderOptions::task_pool, the table option `threads`): once two pages in a row
  // were loaded (a scan, not a lookup), each NextHeader also parses the next kPagesAhead headers and
  // hands those pages' LoadBody work to the pool; LoadBody then takes the result. A page no worker
  // has started yet is loaded by LoadBody itself; when one under way takes longer than kHelpAfter,
  // the calling thread runs other queued page loads meanwhile, so that every thread decompresses.
  // Only bytes already in memory are read ahead, so the extra memory is kPagesAhead + 1
  // decompressed pages per column. A page read ahead that fails is loaded again on the calling
  // thread, so errors are the same either way.
  //
  // With ReaderOptions::page_cache (page_cache.h), LoadBody first looks the page up there, and
  // after a Seek keeps the first page of each run it loads, so a lookup landing on it again neither
  // verifies nor decompresses it.
  Status LoadBody(Page* page) const;

  // With `on` (off by default), a worker that loads a PLAIN data page ahead of the scan also copies
  // its BYTE_ARRAY values as C strings (Page::c_strings), so that the calling thread hands them to
  // SQLite without searching each for a NUL and copying it on the way. `rep_levels`/`def_levels`:
  // whether a v1 page's body starts with repetition / definition levels. Set before the first page.
  void set_c_strings(bool on, bool rep_levels, bool def_levels) {
    c_strings_ = on;
    c_strings_rep_ = rep_levels;
    c_strings_def_ = def_levels;
  }

  // What a page of this chunk can hold, known to the column reader: `max_values`, the level entries
  // of one data page at most (a column without repetition: its row group's rows; 0: no bound), and
  // `value_width`, the bytes of one value of a fixed-width type (0: variable, as BYTE_ARRAY). A page
  // header that claims more values, a dictionary of more than kMaxUnusedDictionaryEntries entries
  // beyond the chunk's values, or more uncompressed bytes than its values can take (each value with
  // its levels and run headers, within kPageSlack), is Corruption before anything is
  // decompressed: a page of one INT64 value claiming a gigabyte, which a file of a thousand row groups
  // pointing at the same 32 KB could make the scan decompress a thousand times. Set before the first
  // page.
  void set_page_bounds(int64_t max_values, int64_t value_width) {
    bounded_ = true;
    max_page_values_ = max_values;
    value_width_ = value_width;
  }

  // Moves to the page header at file offset `offset` (a PageLocation), which is data page number
  // `data_ordinal` of the chunk. Unless the bytes at `offset` are already in memory, reads
  // [min(load_begin, offset), max(load_end, offset + 1)) clipped to the chunk in one read: the
  // caller names the pages it is about to walk so that they come in one read. Corruption when
  // `offset` is outside the chunk. After a Seek, NextHeader no longer stops at the chunk's value
  // count (the caller knows where the pages are).
  Status Seek(int64_t offset, int64_t load_begin, int64_t load_end, int data_ordinal);
  // File bytes [begin, begin + bytes->size()) read for this reader (see above; counted in
  // bytes_read() here, charged to the memory budget by the caller).
  void Provide(int64_t begin, BufferPtr bytes);
  // Hands what was provided to `other` too (a second reader of the same chunk).
  void ShareProvided(PageReader* other) const { other->provided_ = provided_; }

  // Whether file bytes [begin, end) are in memory (a Seek within them reads nothing).
  bool Contains(int64_t begin, int64_t end) const {
    return buffer_ && begin >= buffer_begin_ &&
           end - buffer_begin_ <= static_cast<int64_t>(buffer_->size());
  }

  // The file bytes the chunk may occupy: [chunk_begin, chunk_end). Valid once any call succeeded;
  // EnsureBounds() computes and checks them against the file.
  Status EnsureBounds();
  int64_t chunk_begin() const { return chunk_begin_; }
  int64_t chunk_end() const { return chunk_end_; }

  const std::string& context() const { return context_; }
  int64_t bytes_read() const { return bytes_read_; }
  // Pages handed to the pool ahead of the scan (reading ahead), whichever thread then loaded them.
  int64_t pages_read_ahead() const { return pages_read_ahead_; }
  // Pages LoadBody took from the page cache.
  int64_t pages_from_cache() const { return pages_from_cache_; }

 private:
  // set_page_bounds's rules for a page whose header NextHeader parsed.
  Status CheckPageBounds(const Page& page) const;
  struct ReadAhead;  // a page handed to a worker, and what came of it

  Status Load(int64_t begin, int64_t end);
  // LoadBody's work, without looking at pages read ahead; what the workers run.
  Status LoadBodyNow(Page* page) const;
  // Parses the header after the current position without moving (no file read: nothing when those
  // bytes are not in memory) and hands that page to a worker. `current` is the page NextHeader is
  // returning: its own read-ahead, if any, stays for LoadBody; any other is dropped.
  void ReadNextAhead(const Page& current);
  // set_c_strings's work for a page just loaded; leaves it without when the values do not parse to
  // the end of the page, one holds a NUL, or the copy would take the budget past half its limit.
  void MakeCStrings(Page* page) const;
  // Waits until `r`'s work is done, running queued tasks of the pool meanwhile.
  void Wait(ReadAhead& r) const;
  // Cancels `r`'s work, or waits for it when it is under way.
  void Drop(ReadAhead& r) const;
  static bool SamePage(const Page& a, const Page& b);
  Status Fail(Status s, int page_ordinal) const;
  // Points a v2 page's level and value spans into `body` (levels, then values); the level lengths
  // were checked against the body's size by NextHeader.
  static void SplitLevels(ByteSpan body, Page* page);
  // The page cache's part of LoadBody: fills *page from the cache, or keeps a freshly loaded page.
  bool LoadFromCache(Page* page) const;
  void KeepInCache(const Page& page) const;

  const RandomAccessFile& file_;
  const ColumnMetaData& meta_;
  const ReaderOptions& options_;
  std::string context_;
  int64_t slack_ = 0;
  const crypto::ColumnDecryptor* decryptor_ = nullptr;  // null: a plaintext chunk
  bool bounds_known_ = false;
  int64_t chunk_begin_ = 0;
  int64_t chunk_end_ = 0;
  std::vector<std::pair<int64_t, BufferPtr>> provided_;  // (file offset, bytes) read ahead by the caller
  BufferPtr buffer_;          // file bytes [buffer_begin_, buffer_begin_ + buffer_->size())
  int64_t buffer_begin_ = 0;
  int64_t pos_ = 0;           // file offset of the next page header
  bool positioned_ = false;   // pos_ set (first call, or Seek)
  bool sequential_ = true;    // no Seek so far: stop once the chunk's values were all seen
  int data_page_ordinal_ = 0;
  int page_index_ = 0;   // all pages, for messages
  int64_t values_seen_ = 0;
  int64_t bytes_read_ = 0;
  bool peeking_ = false;                        // inside ReadNextAhead: never read the file
  bool c_strings_ = false;  // set_c_strings
  bool bounded_ = false;          // set_page_bounds
  int64_t max_page_values_ = 0;
  int64_t value_width_ = 0;
  bool c_strings_rep_ = false;
  bool c_strings_def_ = false;
  // Pages read ahead of the scan, per column: one, so that the workers take pages in about the
  // order the scan needs them (with two, a worker busy with pages needed later left the scan to
  // load the ones it needed now itself: a ten-column scan with threads=2 10% slower).
  static constexpr size_t kPagesAhead = 1;
  // How long a wait for a page under way watches before the waiting thread helps with queued pages.
  static constexpr std::chrono::microseconds kHelpAfter{20};
  // Pages handed to workers, until LoadBody takes them: at most the page NextHeader returned last
  // and the kPagesAhead after it.
  mutable std::vector<std::shared_ptr<ReadAhead>> ahead_;
  mutable int last_loaded_ = -2;                // header_ordinal of the last page LoadBody loaded
  mutable int64_t pages_read_ahead_ = 0;
  mutable int64_t pages_from_cache_ = 0;
};

}  // namespace pq
