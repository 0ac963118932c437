// Encoders: the writer's side of decoder.h. One encoder per encoding behind one interface per value
// type, chosen by (physical type, encoding) under the same rules as MakeDecoder (encoding_rules.h);
// the dictionary and the levels have their own classes, as on the reading side. Usage for values:
// Put() the non-null values of a page in batches, watch EstimatedDataSize() to decide when the page
// is full, then FlushValues() for the page's value bytes (what a decoder's SetData takes) and carry
// on with the next page. Encoders own everything they buffer: ByteArray bytes are copied by Put, so
// the caller's memory may be reused as soon as Put returns.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>

#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/util/status.h"

namespace pq {

template <typename T>
class TypedEncoder {
 public:
  virtual ~TypedEncoder() = default;
  virtual Encoding encoding() const = 0;
  // Appends `n` values to the page. InvalidArgument (and nothing appended) when a
  // FIXED_LEN_BYTE_ARRAY value is not type_length bytes long.
  virtual Status Put(const T* values, int64_t n) = 0;
  // Values put since the last flush.
  virtual int64_t num_values() const = 0;
  // Bytes FlushValues would return now: exact for PLAIN and BYTE_STREAM_SPLIT, a close upper bound
  // for the others.
  virtual int64_t EstimatedDataSize() const = 0;
  // Returns the page's value bytes and starts an empty page.
  virtual Buffer FlushValues() = 0;
};

// Builds the encoder for a value encoding. `type_length` is the FIXED_LEN_BYTE_ARRAY width (else
// ignored). Illegal pairs are refused exactly as by MakeDecoder (NotSupported); dictionary
// encodings are not handled here (see DictionaryEncoder). Instantiated for uint8_t, int32_t,
// int64_t, Int96, float, double and ByteArray.
template <typename T>
Result<std::unique_ptr<TypedEncoder<T>>> MakeEncoder(PhysicalType type, Encoding encoding,
                                                     int32_t type_length);

// Bits of an RLE_DICTIONARY index into a dictionary of `entries` entries (0 for one entry or none).
inline int DictionaryIndexBitWidth(uint64_t entries) {
  return entries <= 1 ? 0 : static_cast<int>(std::bit_width(entries - 1));
}

// Dictionary encoding of one column chunk (the Parquet spec, "Dictionary Encoding"): Put() looks
// each value up (bit-exact: 0.0 and -0.0 are different entries, as are NaNs with different bits)
// and appends its index to the current data page. FlushIndices() gives a page's RLE_DICTIONARY
// bytes; DictionaryPage() the PLAIN dictionary page body, written before the data pages. When
// dictionary_byte_size() grows past the writer's limit, the writer flushes the indices it has,
// writes the dictionary page, and continues the chunk with a value encoder (the fallback).
// T is int32_t, int64_t, Int96, float, double or ByteArray (not BOOLEAN: two values never pay).
template <typename T>
class DictionaryEncoder {
 public:
  // Fails for a type T does not hold (InvalidArgument) or a bad FLBA type_length.
  static Result<std::unique_ptr<DictionaryEncoder>> Make(PhysicalType type, int32_t type_length);
  ~DictionaryEncoder();

  // Adds `n` values (ByteArray bytes are copied into the dictionary's own memory). InvalidArgument
  // (and nothing added) when a FIXED_LEN_BYTE_ARRAY value is not type_length bytes long.
  Status Put(const T* values, int64_t n);
  // Indices buffered for the current data page.
  int64_t num_values() const;
  // Upper bound of the bytes FlushIndices would return now.
  int64_t EstimatedDataSize() const;
  // The current data page's values: one bit-width byte (bits for the largest index), then
  // RLE/bit-packed runs. Starts the next page; the dictionary is kept.
  Buffer FlushIndices();
  // What FlushIndices would return now, without flushing (the writer's encoding trial measures it).
  Buffer PeekIndices() const;

  // Distinct values so far.
  int32_t num_entries() const;
  // Size of DictionaryPage(): the dictionary's PLAIN encoding.
  int64_t dictionary_byte_size() const;
  // The entries in index order, PLAIN-encoded.
  Buffer DictionaryPage() const;

 private:
  struct Impl;
  explicit DictionaryEncoder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Definition or repetition levels of one data page, always RLE/bit-packed hybrid with the bit width
// of max_level. With max_level 0 the levels are not written at all (both flushes return nothing).
class LevelEncoder {
 public:
  explicit LevelEncoder(int16_t max_level);
  ~LevelEncoder();
  // InvalidArgument (and nothing added) for a level outside [0, max_level].
  Status Put(const int16_t* levels, int64_t n);
  int64_t num_values() const;
  // Upper bound of the bytes FlushV1 would return now.
  int64_t EstimatedSize() const;
  // Data page v1 layout: 4-byte little-endian length, then the runs. Starts over.
  Buffer FlushV1();
  // Data page v2 layout: the runs alone (their length goes in the page header). Starts over.
  Buffer FlushV2();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The deprecated BIT_PACKED level layout of data page v1 (the Parquet spec, "Bit-packed
// (Deprecated)"): ceil(n * width / 8) bytes, values packed MSB first. No writer should produce it;
// it exists to test readers of old files. Levels must be within [0, max_level].
Buffer EncodeBitPackedLevels(int16_t max_level, const int16_t* levels, int64_t n);

}  // namespace pq
