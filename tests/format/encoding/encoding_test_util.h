// Helpers shared by the encoding tests: random values per value type with fixed seeds, decoding a
// whole page, and owned ByteArray sets.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "format/encoding/decoder.h"
#include "format/encoding/encoder.h"
#include "format/encoding/values.h"

namespace pq::testing {

inline Buffer Bytes(std::initializer_list<int> bytes) {
  Buffer b;
  for (int x : bytes) b.push_back(static_cast<uint8_t>(x));
  return b;
}

inline ByteArray BA(const std::string& s) {
  return ByteArray{reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())};
}

// A copy of `data` in a heap block of exactly its size, so that AddressSanitizer sees any read
// past the end.
inline std::unique_ptr<uint8_t[]> ExactCopy(ByteSpan data) {
  auto p = std::make_unique<uint8_t[]>(data.size() == 0 ? 1 : data.size());
  if (!data.empty()) std::memcpy(p.get(), data.data(), data.size());
  return p;
}

// Values of type T plus whatever memory ByteArrays point into.
template <typename T>
struct ValueSet {
  std::vector<T> values;
  std::vector<std::string> strings;  // ByteArray only: owns the bytes

  // ByteArrays must be re-pointed after strings is filled.
  void Point() {
    if constexpr (std::is_same_v<T, ByteArray>) {
      values.clear();
      for (const auto& s : strings) values.push_back(BA(s));
    }
  }
};

// Random values for a type. `fixed_width` > 0 makes ByteArrays of exactly that length; otherwise
// lengths vary in [0, 40) and values share prefixes (so DELTA_BYTE_ARRAY has work to do).
template <typename T>
ValueSet<T> RandomValues(size_t n, uint32_t seed, int32_t fixed_width = 0) {
  std::mt19937_64 rng(seed);
  ValueSet<T> set;
  if constexpr (std::is_same_v<T, uint8_t>) {
    // Booleans in runs of varying length, so RLE sees both runs and literals.
    uint8_t v = 0;
    while (set.values.size() < n) {
      size_t run = 1 + rng() % (rng() % 2 ? 3 : 40);
      for (size_t i = 0; i < run && set.values.size() < n; ++i) set.values.push_back(v);
      v = static_cast<uint8_t>(rng() & 1);
    }
  } else if constexpr (std::is_same_v<T, ByteArray>) {
    std::string prev;
    for (size_t i = 0; i < n; ++i) {
      size_t len = fixed_width > 0 ? static_cast<size_t>(fixed_width) : rng() % 40;
      size_t keep =
          std::min<size_t>(prev.size(), len) == 0 ? 0 : rng() % (std::min(prev.size(), len) + 1);
      std::string s = prev.substr(0, keep);
      while (s.size() < len) s.push_back(static_cast<char>(rng() & 0xff));
      set.strings.push_back(s);
      prev = s;
    }
    set.Point();
  } else if constexpr (std::is_same_v<T, Int96>) {
    for (size_t i = 0; i < n; ++i) {
      Int96 v;
      for (auto& w : v.value) w = static_cast<uint32_t>(rng());
      set.values.push_back(v);
    }
  } else if constexpr (std::is_floating_point_v<T>) {
    std::normal_distribution<T> dist(0, 1000);
    for (size_t i = 0; i < n; ++i) set.values.push_back(dist(rng));
  } else {
    // Integers: mostly small steps, sometimes anything, so deltas vary in width.
    T v = 0;
    for (size_t i = 0; i < n; ++i) {
      if (rng() % 16 == 0) {
        v = static_cast<T>(rng());
      } else {
        v = static_cast<T>(v + static_cast<T>(rng() % 200) - 100);
      }
      set.values.push_back(v);
    }
  }
  return set;
}

template <typename T>
bool SameValue(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;  // bit-exact, NaN-safe
  } else {
    return a == b;
  }
}

template <typename T>
std::string Show(const T& v) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return "\"" + std::string(v.view()) + "\"";
  } else if constexpr (std::is_same_v<T, Int96>) {
    return std::to_string(v.value[0]) + ":" + std::to_string(v.value[1]) + ":" +
           std::to_string(v.value[2]);
  } else {
    return std::to_string(v);
  }
}

// Decodes everything the decoder offers (in batches of `batch`) and returns the status of the
// first failure, if any.
template <typename T>
Status DecodeAll(TypedDecoder<T>* decoder, std::vector<T>* out, int64_t batch = 1000) {
  out->clear();
  while (decoder->values_left() > 0) {
    size_t at = out->size();
    out->resize(at + static_cast<size_t>(batch));
    PQ_ASSIGN_OR_RETURN(int64_t got, decoder->Decode(out->data() + at, batch));
    out->resize(at + static_cast<size_t>(got));
    if (got == 0) return Status::Corruption("decoder made no progress");
  }
  return Status::OK();
}

template <typename T>
void ExpectSameValues(const std::vector<T>& expected, const std::vector<T>& actual,
                      size_t offset = 0) {
  ASSERT_LE(offset + actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    ASSERT_TRUE(SameValue(expected[offset + i], actual[i]))
        << "value " << offset + i << ": expected " << Show(expected[offset + i]) << ", got "
        << Show(actual[i]);
  }
}

}  // namespace pq::testing
