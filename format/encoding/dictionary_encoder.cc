// DictionaryEncoder: builds a column chunk's dictionary and the RLE_DICTIONARY indices of its data
// pages (the Parquet spec, "Dictionary Encoding").
//
// The dictionary is an open-addressing hash table (linear probing, at most half full) over the
// entries' bytes, so equality is bit-exact for every type. ByteArray entries are copied into one
// arena and referred to by offset, so growing the arena never invalidates anything.

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>
#include <vector>

#include "format/encoding/bit_pack.h"
#include "format/encoding/bit_unpack.h"
#include "format/encoding/encoder.h"
#include "format/encoding/encoding_rules.h"
#include "format/encoding/rle_bit_packed.h"
#include "format/encoding/typed_encoders.h"
#include "format/util/mix_hash.h"

namespace pq {
template <typename T>
struct DictionaryEncoder<T>::Impl {
  static constexpr bool kBytes = std::is_same_v<T, ByteArray>;
  struct Span {
    uint64_t offset;
    uint32_t len;
  };

  // Bytes of a value to hash and compare.
  static ByteSpan KeyOf(const T& v) {
    if constexpr (kBytes) {
      return ByteSpan(v.ptr, v.len);
    } else {
      return ByteSpan(reinterpret_cast<const uint8_t*>(&v), sizeof(T));
    }
  }
  ByteSpan EntryBytes(uint32_t index) const {
    if constexpr (kBytes) {
      return ByteSpan(arena.data() + spans[index].offset, spans[index].len);
    } else {
      return ByteSpan(reinterpret_cast<const uint8_t*>(&values[index]), sizeof(T));
    }
  }
  uint32_t size() const { return static_cast<uint32_t>(hashes.size()); }

  // Index of `v`, inserting it when new.
  uint32_t IndexOf(const T& v) {
    ByteSpan key = KeyOf(v);
    uint64_t h = HashBytes(key.data(), key.size());
    size_t mask = slots.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      uint32_t slot = slots[i];
      if (slot == 0) {
        uint32_t index = Insert(v, key, h);
        slots[i] = index + 1;
        if (uint64_t{size()} * 2 > slots.size()) Grow();
        return index;
      }
      uint32_t index = slot - 1;
      if (hashes[index] == h) {
        ByteSpan e = EntryBytes(index);
        if (e.size() == key.size() &&
            (key.empty() || std::memcmp(e.data(), key.data(), key.size()) == 0)) {
          return index;
        }
      }
    }
  }

  uint32_t Insert(const T& v, ByteSpan key, uint64_t h) {
    uint32_t index = size();
    hashes.push_back(h);
    if constexpr (kBytes) {
      spans.push_back(Span{arena.size(), v.len});
      arena.insert(arena.end(), key.begin(), key.end());
      dictionary_bytes += (fixed_width > 0 ? 0 : 4) + int64_t{v.len};
    } else {
      values.push_back(v);
      dictionary_bytes += static_cast<int64_t>(sizeof(T));
    }
    return index;
  }

  void Grow() {
    std::vector<uint32_t> bigger(slots.size() * 2, 0);
    size_t mask = bigger.size() - 1;
    for (uint32_t index = 0; index < size(); ++index) {
      size_t i = hashes[index] & mask;
      while (bigger[i] != 0) i = (i + 1) & mask;
      bigger[i] = index + 1;
    }
    slots.swap(bigger);
  }

  int32_t fixed_width = 0;  // FIXED_LEN_BYTE_ARRAY width, 0 otherwise
  std::vector<uint32_t> slots = std::vector<uint32_t>(1024, 0);  // 0: empty, else index + 1
  std::vector<uint64_t> hashes;                                  // per entry
  std::vector<T> values;                                         // entries of fixed-width types
  std::vector<Span> spans;        // entries of ByteArray: where in the arena
  Buffer arena;                   // ByteArray entries' bytes
  int64_t dictionary_bytes = 0;   // PLAIN size of the entries
  std::vector<uint32_t> indices;  // the current data page
};

template <typename T>
Result<std::unique_ptr<DictionaryEncoder<T>>> DictionaryEncoder<T>::Make(PhysicalType type,
                                                                         int32_t type_length) {
  PQ_RETURN_IF_ERROR(encoding::CheckValueType<T>(type, type_length));
  auto impl = std::make_unique<Impl>();
  impl->fixed_width = type == PhysicalType::kFixedLenByteArray ? type_length : 0;
  return std::unique_ptr<DictionaryEncoder<T>>(new DictionaryEncoder<T>(std::move(impl)));
}

template <typename T>
DictionaryEncoder<T>::DictionaryEncoder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

template <typename T>
DictionaryEncoder<T>::~DictionaryEncoder() = default;

template <typename T>
Status DictionaryEncoder<T>::Put(const T* values, int64_t n) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    PQ_RETURN_IF_ERROR(encoding::CheckFixedWidth(values, n, impl_->fixed_width));
  }
  for (int64_t i = 0; i < n; ++i) impl_->indices.push_back(impl_->IndexOf(values[i]));
  return Status::OK();
}

template <typename T>
int64_t DictionaryEncoder<T>::num_values() const {
  return static_cast<int64_t>(impl_->indices.size());
}

template <typename T>
int64_t DictionaryEncoder<T>::EstimatedDataSize() const {
  // Bit-packing every index is the worst case of the hybrid, plus a run header per 512 values.
  int64_t n = num_values();
  return 1 +
         static_cast<int64_t>(bitpack::PackedBytes(static_cast<uint64_t>(n) + 8,
                                                   DictionaryIndexBitWidth(impl_->size()))) +
         2 * (n / 512 + 1);
}

template <typename T>
Buffer DictionaryEncoder<T>::PeekIndices() const {
  int width = DictionaryIndexBitWidth(impl_->size());
  Buffer out;
  out.reserve(static_cast<size_t>(EstimatedDataSize()));
  out.push_back(static_cast<uint8_t>(width));
  RleBitPackedEncoder runs(width);
  runs.PutBatch(impl_->indices.data(), static_cast<int64_t>(impl_->indices.size()));
  runs.FlushTo(&out);
  return out;
}

template <typename T>
Buffer DictionaryEncoder<T>::FlushIndices() {
  Buffer out = PeekIndices();
  impl_->indices.clear();
  return out;
}

template <typename T>
int32_t DictionaryEncoder<T>::num_entries() const {
  return static_cast<int32_t>(impl_->size());
}

template <typename T>
int64_t DictionaryEncoder<T>::dictionary_byte_size() const {
  return impl_->dictionary_bytes;
}

template <typename T>
Buffer DictionaryEncoder<T>::DictionaryPage() const {
  Buffer out;
  out.reserve(static_cast<size_t>(impl_->dictionary_bytes));
  if constexpr (std::is_same_v<T, ByteArray>) {
    for (uint32_t i = 0; i < impl_->size(); ++i) {
      ByteSpan e = impl_->EntryBytes(i);
      if (impl_->fixed_width == 0) bitpack::AppendU32LE(&out, static_cast<uint32_t>(e.size()));
      out.insert(out.end(), e.begin(), e.end());
    }
  } else {
    const auto* bytes = reinterpret_cast<const uint8_t*>(impl_->values.data());
    out.insert(out.end(), bytes, bytes + impl_->values.size() * sizeof(T));
  }
  return out;
}

template class DictionaryEncoder<int32_t>;
template class DictionaryEncoder<int64_t>;
template class DictionaryEncoder<Int96>;
template class DictionaryEncoder<float>;
template class DictionaryEncoder<double>;
template class DictionaryEncoder<ByteArray>;

}  // namespace pq
