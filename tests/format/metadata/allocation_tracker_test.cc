// Replaces the global operator new of the test binary to record the largest allocation
// (allocation_tracker.h). It holds no test: a test here would let the compiler inline this operator
// new and a std::allocator's delete together and warn that they do not match.
#include "tests/format/metadata/allocation_tracker.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<size_t> g_largest_allocation{0};
}  // namespace

void* operator new(size_t n) {
  size_t prev = g_largest_allocation.load(std::memory_order_relaxed);
  while (n > prev &&
         !g_largest_allocation.compare_exchange_weak(prev, n, std::memory_order_relaxed)) {
  }
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, size_t) noexcept {
  std::free(p);
}

namespace pq::alloc_tracker {

void ResetLargestAllocation() {
  g_largest_allocation = 0;
}
size_t LargestAllocationSinceReset() {
  return g_largest_allocation.load();
}

}  // namespace pq::alloc_tracker
