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
#include <cstdint>
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

// Uninitialized 64-bit words in pages mapped for them alone, unmapped when they go: unlike malloc's
// memory, they never stay in the process's heap, where blocks of a few MiB freed and allocated
// again query after query left the heap growing (malloc, having unmapped one such block, serves
// later ones of that size from its heap). From 4 MiB on aligned to 2 MiB and offered for
// transparent huge pages, as RowArray's.
class MappedWords {
 public:
  explicit MappedWords(size_t words) : words_(words) {
    const size_t bytes = words * sizeof(uint64_t);
    const bool huge = bytes >= kLargeBytes;
    map_bytes_ = bytes + (huge ? kHugePage : 0);
    void* map =
        mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) throw std::bad_alloc();
    map_ = static_cast<char*>(map);
    char* data = map_;
    if (huge) {
      data = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(map_) + kHugePage - 1) &
                                     ~(kHugePage - 1));
      madvise(data, bytes, MADV_HUGEPAGE);  // advice only
    }
    data_ = reinterpret_cast<uint64_t*>(data);
  }
  MappedWords(MappedWords&& o) noexcept
      : map_(o.map_), map_bytes_(o.map_bytes_), data_(o.data_), words_(o.words_) {
    o.map_ = nullptr;
  }
  MappedWords& operator=(MappedWords&& o) noexcept {
    std::swap(map_, o.map_);
    std::swap(map_bytes_, o.map_bytes_);
    std::swap(data_, o.data_);
    std::swap(words_, o.words_);
    return *this;
  }
  MappedWords(const MappedWords&) = delete;
  MappedWords& operator=(const MappedWords&) = delete;
  ~MappedWords() {
    if (map_ != nullptr) munmap(map_, map_bytes_);
  }
  uint64_t* data() const { return data_; }
  size_t size() const { return words_; }
  // Bytes mapped (the words and, from 4 MiB on, up to 2 MiB of alignment never touched).
  size_t mapped_bytes() const { return map_bytes_; }

 private:
  static constexpr size_t kHugePage = size_t{2} << 20;
  static constexpr size_t kLargeBytes = size_t{4} << 20;
  char* map_ = nullptr;
  size_t map_bytes_ = 0;
  uint64_t* data_ = nullptr;
  size_t words_ = 0;
};

}  // namespace pq::ext
