// PageCache: decompressed pages kept for lookups that come back to them. SQLite runs a join against
// a virtual table as one lookup per outer row, and users run the same point query again: each
// lookup jumps to one page per column through the page index and decompresses it, which is most of
// its cost. The cache keeps those pages decompressed (decrypted, checksum verified), so the next
// lookup that lands on them decodes straight away, while a full scan neither fills it nor evicts
// what lookups put there. Thread-safe.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "format/encoding/values.h"
#include "format/util/byte_reader.h"

namespace pq {

// One loaded page, as PageReader::LoadBody leaves it in a Page.
struct CachedPage {
  BufferPtr owner;     // keeps `body` alive
  ByteSpan body;       // v1 and dictionary pages: the whole body; v2: the values
  std::string levels;  // v2 only: the repetition levels, then the definition levels
  size_t rep_levels_size = 0;
  bool v2 = false;
  ByteSpan rep_levels() const { return ByteSpan(reinterpret_cast<const uint8_t*>(levels.data()), rep_levels_size); }
  ByteSpan def_levels() const {
    return ByteSpan(reinterpret_cast<const uint8_t*>(levels.data()) + rep_levels_size,
                    levels.size() - rep_levels_size);
  }
};

// What goes in: only pages a PageReader reached by location (a Seek) and loaded without having
// loaded the page before them, i.e. the first page of each run a lookup reads. Pages a scan walks
// through in order never go in, so a full scan neither fills the cache nor evicts what lookups put
// there. Pages whose body is a slice of the chunk bytes read from the file (stored uncompressed and
// unencrypted) cost nothing to load and are not kept either.
//
// Entries are keyed by (RandomAccessFile::id(), file offset of the page header), so one cache can
// serve every file of a table; ids are never reused within a process. An entry is immutable and
// shared: a page handed out stays valid for as long as its holder keeps it, also after eviction.
// The least recently used entries go when a new one would exceed the byte budget. Thread-safe.
class PageCache {
 public:
  // `budget_bytes`: what the entries may hold in all (their owners' sizes plus levels).
  explicit PageCache(int64_t budget_bytes) : budget_(budget_bytes) {}
  PageCache(const PageCache&) = delete;
  PageCache& operator=(const PageCache&) = delete;

  std::shared_ptr<const CachedPage> Find(uint64_t file_id, int64_t page_offset);
  // Keeps `page` (replacing nothing: a page already present stays), evicting the least recently
  // used entries as needed. A page larger than the whole budget is not kept.
  void Store(uint64_t file_id, int64_t page_offset, std::shared_ptr<const CachedPage> page);

  int64_t budget() const { return budget_; }
  int64_t used_bytes() const;
  size_t size() const;
  int64_t hits() const;

 private:
  struct Key {
    uint64_t file_id;
    int64_t offset;
    bool operator==(const Key& o) const { return file_id == o.file_id && offset == o.offset; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  struct Entry {
    Key key;
    std::shared_ptr<const CachedPage> page;
    int64_t bytes;
  };
  static int64_t BytesOf(const CachedPage& page);

  mutable std::mutex mu_;
  const int64_t budget_;
  int64_t used_ = 0;
  int64_t hits_ = 0;
  std::list<Entry> lru_;  // most recently used first
  std::unordered_map<Key, std::list<Entry>::iterator, KeyHash> index_;
};

}  // namespace pq
