#include "format/page/page_cache.h"

#include <utility>

#include "format/util/mix_hash.h"

namespace pq {

size_t PageCache::KeyHash::operator()(const Key& k) const {
  return static_cast<size_t>(MixHash64(k.file_id * 0x9e3779b97f4a7c15ULL ^ static_cast<uint64_t>(k.offset)));
}

int64_t PageCache::BytesOf(const CachedPage& page) {
  const size_t owner = page.owner ? page.owner->size() : page.body.size();
  return static_cast<int64_t>(owner + page.levels.size());
}

std::shared_ptr<const CachedPage> PageCache::Find(uint64_t file_id, int64_t page_offset) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(Key{file_id, page_offset});
  if (it == index_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  ++hits_;
  return it->second->page;
}

void PageCache::Store(uint64_t file_id, int64_t page_offset, std::shared_ptr<const CachedPage> page) {
  if (page == nullptr) return;
  const int64_t bytes = BytesOf(*page);
  if (bytes > budget_) return;
  const Key key{file_id, page_offset};
  std::lock_guard<std::mutex> lock(mu_);
  if (index_.count(key) != 0) return;
  while (used_ + bytes > budget_ && !lru_.empty()) {
    used_ -= lru_.back().bytes;
    index_.erase(lru_.back().key);
    lru_.pop_back();
  }
  lru_.push_front(Entry{key, std::move(page), bytes});
  index_.emplace(key, lru_.begin());
  used_ += bytes;
}

int64_t PageCache::used_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return used_;
}

size_t PageCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return lru_.size();
}

int64_t PageCache::hits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return hits_;
}

}  // namespace pq
