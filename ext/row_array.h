// RowArray: the vector type of a sorted scan's per-row arrays (ext/sorted_scan.h), which for a scan
// of millions of rows hold tens of MB each and are filled once, front to back or by a permutation.
// Two things of std::vector cost there more than the filling: each new 4 KiB page of memory is a
// fault (the kernel maps and zeroes it), and resize() writes zeroes over memory about to be
// written. So blocks of 4 MiB or more are aligned to 2 MiB and offered to the kernel for
// transparent huge pages (madvise(MADV_HUGEPAGE): one fault per 2 MiB where the system allows it,
// nothing changes where it does not), and elements are default-initialized: resize() leaves new
// numbers unwritten, for the caller to write before reading them.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace pq::ext {

template <typename T>
class RowArrayAllocator {
 public:
  using value_type = T;

  RowArrayAllocator() = default;
  template <typename U>
  RowArrayAllocator(const RowArrayAllocator<U>&) noexcept {}  // NOLINT: rebinding

  T* allocate(size_t n) {
    if (n > std::allocator_traits<std::allocator<T>>::max_size(std::allocator<T>())) throw std::bad_alloc();
    const size_t bytes = n * sizeof(T);
    if (bytes < kLargeBytes) return std::allocator<T>().allocate(n);
    void* p = std::aligned_alloc(kHugePage, Rounded(bytes));
    if (p == nullptr) throw std::bad_alloc();
    madvise(p, Rounded(bytes), MADV_HUGEPAGE);  // advice only: refused or off, pages stay small
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n * sizeof(T) < kLargeBytes) {
      std::allocator<T>().deallocate(p, n);
      return;
    }
    std::free(p);
  }

  // Default-initialization: no zeroes written for numbers.
  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  template <typename U>
  bool operator==(const RowArrayAllocator<U>&) const noexcept {
    return true;
  }

 private:
  static constexpr size_t kHugePage = size_t{2} << 20;
  static constexpr size_t kLargeBytes = size_t{4} << 20;
  static size_t Rounded(size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }
};

template <typename T>
using RowArray = std::vector<T, RowArrayAllocator<T>>;

}  // namespace pq::ext
