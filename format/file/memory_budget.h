// MemoryBudget: a cap on the bytes the readers of one table hold at once in page buffers.
//
// PageReader charges every buffer it allocates by size (the column chunk bytes it reads, decrypted
// and decompressed pages) before allocating it, and the charge is returned when the buffer is freed,
// so `used` is what the table's scans hold right now. A charge that would pass the limit is refused
// with OutOfMemory: a file whose pages claim more than the table may hold fails with a clear error
// instead of being allocated. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>

#include "format/encoding/values.h"
#include "format/util/status.h"

namespace pq {

class MemoryBudget {
 public:
  // `limit_bytes` <= 0: no limit (the charges are still counted).
  explicit MemoryBudget(int64_t limit_bytes) : limit_(limit_bytes) {}

  // Counts `bytes` as held; OutOfMemory naming `what` and the limit when that passes the limit.
  Status Reserve(int64_t bytes, std::string_view what);
  void Release(int64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }

  int64_t used() const { return used_.load(std::memory_order_relaxed); }
  int64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  int64_t limit() const { return limit_; }

 private:
  int64_t limit_;
  std::atomic<int64_t> used_{0};
  std::atomic<int64_t> peak_{0};
};

// `buffer`, charged to `budget` (which may be null: then `buffer` itself) until its last owner
// lets go. The charge is `bytes` (-1: buffer->size()), reserved before this is called (Reserve).
BufferPtr ChargedBuffer(BufferPtr buffer, std::shared_ptr<MemoryBudget> budget, int64_t bytes = -1);

}  // namespace pq
