// PodVector<T>: a growable array of trivially copyable values that does not zero new elements.
// Column batches are refilled constantly; std::vector::resize would clear every slot before the
// decoder overwrites it. Capacity is kept across Clear() so steady-state scans allocate nothing.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>

namespace pq {

template <typename T>
class PodVector {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }

  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (n <= capacity_) return;
    size_t cap = capacity_ ? capacity_ : 16;
    while (cap < n) cap *= 2;
    std::unique_ptr<T[]> grown(new T[cap]);
    if (size_) std::memcpy(grown.get(), data_.get(), size_ * sizeof(T));
    data_ = std::move(grown);
    capacity_ = cap;
  }
  // New elements are uninitialized.
  void resize(size_t n) {
    reserve(n);
    size_ = n;
  }
  // Grows by n uninitialized elements and returns a pointer to the first.
  T* extend(size_t n) {
    size_t old = size_;
    resize(size_ + n);
    return data_.get() + old;
  }
  void push_back(const T& v) { *extend(1) = v; }

 private:
  std::unique_ptr<T[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace pq
