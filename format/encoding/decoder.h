// Decoders: one per encoding, behind one interface per value type, chosen by (physical type,
// encoding). Usage: SetData() with one page's value bytes (levels already removed) and the number
// of non-null values in it, then Decode()/Skip() until all are consumed. Decoders never read
// outside the span given to SetData, and report Corruption when the bytes run out or contradict the
// encoding.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq {

template <typename T>
class TypedDecoder {
 public:
  virtual ~TypedDecoder() = default;
  // `data` must stay valid until the next SetData or the decoder's destruction.
  virtual Status SetData(ByteSpan data, int64_t num_values) = 0;
  // Decodes min(n, values left) values into out[0..). Returns how many were decoded.
  virtual Result<int64_t> Decode(T* out, int64_t n) = 0;
  // Skips min(n, values left) values. Returns how many were skipped.
  virtual Result<int64_t> Skip(int64_t n);
  // Values left in the current page.
  virtual int64_t values_left() const = 0;
  // For ByteArray decoders that build values in their own memory (DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT
  // of FIXED_LEN_BYTE_ARRAY): the buffer the values of the current page point into; pin it to keep
  // decoded ByteArrays valid past the next SetData. Null when values point into the page data.
  virtual BufferPtr storage() const { return nullptr; }
  // PLAIN BYTE_ARRAY only: `copy` holds the values of the span SetData was just given, in order,
  // each followed by a NUL byte (Page::c_strings). Decode then points each value into it, as a C
  // string; until the next SetData. False (nothing changes) for every other decoder.
  virtual bool UseCStrings(const uint8_t* /*copy*/) { return false; }
  // Asked by such decoders, in SetData, for the bytes a page's values need before they allocate
  // them (a few hundred bytes of DELTA_BYTE_ARRAY can claim a gigabyte of values); an error stops
  // SetData with it. Unset: nothing is asked.
  void SetStorageReserve(std::function<Status(int64_t bytes)> reserve) { reserve_ = std::move(reserve); }

 protected:
  Status ReserveStorage(int64_t bytes) const { return reserve_ ? reserve_(bytes) : Status::OK(); }

 private:
  std::function<Status(int64_t bytes)> reserve_;
};

// Builds the decoder for a value encoding. `type_length` is the FIXED_LEN_BYTE_ARRAY width (else 0).
// Dictionary encodings are not handled here (see DictionaryIndexDecoder). Illegal pairs, e.g.
// DELTA_BINARY_PACKED on DOUBLE, are NotSupported/Corruption with a message naming both.
template <typename T>
Result<std::unique_ptr<TypedDecoder<T>>> MakeDecoder(PhysicalType type, Encoding encoding,
                                                     int32_t type_length);

// Dictionary indices of a RLE_DICTIONARY / PLAIN_DICTIONARY data page: one bit-width byte, then the
// RLE/bit-packed hybrid without length prefix.
class DictionaryIndexDecoder {
 public:
  Status SetData(ByteSpan data, int64_t num_values);
  // Decodes indices; every index is checked against dictionary_size (Corruption when out of range).
  Result<int64_t> Decode(uint32_t* out, int64_t n, uint32_t dictionary_size);
  // Like Decode, for a filter that only one entry can satisfy: each index equal to `target` is
  // written as `target`, every other as `other` (an entry the filter rejects), and *found counts
  // the targets. A target of -1 (or one too wide for the page) matches nothing. Only the targets
  // are checked against dictionary_size (the caller's `target` and `other` are below it): an index
  // that no row will read is not looked at, and most are never unpacked.
  Result<int64_t> Probe(uint32_t* out, int64_t n, int64_t target, uint32_t other, int64_t* found);
  Result<int64_t> Skip(int64_t n);
  int64_t values_left() const;
  ~DictionaryIndexDecoder();
  DictionaryIndexDecoder();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Definition or repetition levels of one data page.
class LevelDecoder {
 public:
  LevelDecoder();
  ~LevelDecoder();
  // Data page v1: `data` starts at the levels; RLE levels carry a 4-byte little-endian length prefix,
  // BIT_PACKED levels take ceil(num_values * bit_width / 8) bytes. Advances `data` past the levels.
  Status InitV1(Encoding encoding, int16_t max_level, int64_t num_values, ByteReader* data);
  // Data page v2: exactly `data` holds the RLE levels, no length prefix.
  Status InitV2(int16_t max_level, int64_t num_values, ByteSpan data);
  // Decodes min(n, left) levels; each is checked to be <= max_level.
  Result<int64_t> Decode(int16_t* out, int64_t n);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pq
