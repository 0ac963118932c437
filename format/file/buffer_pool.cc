// BufferPool: see buffer_pool.h.
#include "format/file/buffer_pool.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace pq {
namespace {

class Pool {
 public:
  // The smallest kept buffer with room for n bytes, or null. Sizes here are capacities: a buffer
  // handed out at an exact size keeps the memory it had.
  std::unique_ptr<Buffer> Take(size_t n) {
    std::lock_guard<std::mutex> lock(mu_);
    size_t best = kept_.size();
    for (size_t i = 0; i < kept_.size(); ++i) {
      if (kept_[i]->capacity() >= n &&
          (best == kept_.size() || kept_[i]->capacity() < kept_[best]->capacity())) {
        best = i;
      }
    }
    if (best == kept_.size()) return nullptr;
    std::unique_ptr<Buffer> b = std::move(kept_[best]);
    kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(best));
    bytes_ -= b->capacity();
    return b;
  }

  // Keeps `b` when there is room; otherwise it is freed (the smallest kept buffer makes way for a
  // larger one, so the pool ends up holding the sizes a scan needs).
  void Give(std::unique_ptr<Buffer> b) {
    const size_t size = b->capacity();
    std::lock_guard<std::mutex> lock(mu_);
    while (!kept_.empty() && (kept_.size() >= BufferPoolLimits::kMaxKeptBuffers ||
                              bytes_ + size > BufferPoolLimits::kMaxKeptBytes)) {
      auto smallest = std::min_element(kept_.begin(), kept_.end(), [](const auto& x, const auto& y) {
        return x->capacity() < y->capacity();
      });
      if ((*smallest)->capacity() >= size) return;  // b is the one to drop
      bytes_ -= (*smallest)->capacity();
      kept_.erase(smallest);
    }
    bytes_ += size;
    kept_.push_back(std::move(b));
  }

  size_t count() const {
    std::lock_guard<std::mutex> lock(mu_);
    return kept_.size();
  }
  size_t bytes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return bytes_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<Buffer>> kept_;
  size_t bytes_ = 0;
};

// Never destroyed: buffers may be released during static destruction.
Pool& ThePool() {
  static Pool* pool = new Pool();
  return *pool;
}

}  // namespace

namespace {

// A kept buffer with room for n bytes, or a new one (rounded up to 64 KiB, so that pages of slightly
// different sizes reuse one another's buffers); its size is unspecified.
std::unique_ptr<Buffer> TakeOrMake(size_t n) {
  std::unique_ptr<Buffer> b = ThePool().Take(n);
  if (b == nullptr) {
    const size_t step = BufferPoolLimits::kMinPooledBytes;
    b = std::make_unique<Buffer>((n + step - 1) / step * step);
  }
  return b;
}

std::shared_ptr<Buffer> HandOut(std::unique_ptr<Buffer> b) {
  Buffer* raw = b.release();
  return std::shared_ptr<Buffer>(raw, [](Buffer* p) { ThePool().Give(std::unique_ptr<Buffer>(p)); });
}

bool Pooled(size_t n) { return n >= BufferPoolLimits::kMinPooledBytes && n <= BufferPoolLimits::kMaxPooledBytes; }

}  // namespace

std::shared_ptr<Buffer> AcquirePooledBuffer(size_t n) {
  if (!Pooled(n)) return std::make_shared<Buffer>(n);
  std::unique_ptr<Buffer> b = TakeOrMake(n);
  // Grows only a buffer last handed out at a smaller exact size, within its capacity.
  if (b->size() < n) b->resize(b->capacity());
  return HandOut(std::move(b));
}

std::shared_ptr<Buffer> AcquireExactPooledBuffer(size_t n) {
  if (!Pooled(n)) return std::make_shared<Buffer>(n);
  std::unique_ptr<Buffer> b = TakeOrMake(n);
  b->resize(n);  // within the capacity: no allocation, and no writes when shrinking
  return HandOut(std::move(b));
}

size_t PooledBufferCount() { return ThePool().count(); }
size_t PooledBufferBytes() { return ThePool().bytes(); }

}  // namespace pq
