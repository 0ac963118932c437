// DELTA_LENGTH_BYTE_ARRAY streams (the Parquet spec, "Delta-length byte array"): the lengths as one
// DELTA_BINARY_PACKED stream, then all the bytes back to back. The reader and writer here are
// shared by the DELTA_LENGTH_BYTE_ARRAY value decoder/encoder and by the suffixes of
// DELTA_BYTE_ARRAY.
#pragma once

#include <cstdint>

#include "format/encoding/delta_binary_packed.h"
#include "format/encoding/values.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq::delta {

// Reads values as ByteArrays pointing into the data given to Init. Lengths are decoded a batch at
// a time as values are asked for; a negative length or one running past the data is Corruption.
// Copyable: a copy reads the same stream independently (DELTA_BYTE_ARRAY validates with one).
class DeltaLengthByteArrayReader {
 public:
  // Reads the lengths header and walks to the start of the bytes. `data` runs to the end of the
  // page; the bytes of the values are everything after the lengths.
  Status Init(ByteSpan data);
  // The lengths stream's total value count.
  uint32_t total_values() const { return lengths_.total_values(); }
  // Decodes exactly min(n, values left) values.
  Status Decode(ByteArray* out, int64_t n);
  Status Skip(int64_t n);

 private:
  static constexpr int64_t kBatch = 256;

  DeltaBinaryPackedReader<uint32_t> lengths_;
  const uint8_t* bytes_ = nullptr;  // the values' bytes
  size_t bytes_size_ = 0;
  size_t pos_ = 0;  // offset in bytes_ of the next value
};

// Writes lengths (DELTA_BINARY_PACKED) then the concatenated bytes.
class DeltaLengthByteArrayWriter {
 public:
  void Put(const ByteArray* values, int64_t n);
  int64_t num_values() const { return lengths_.num_values(); }
  int64_t EstimatedSize() const {
    return lengths_.EstimatedSize() + static_cast<int64_t>(bytes_.size());
  }
  // Appends the stream to `out` and starts a new one.
  void FinishTo(Buffer* out);

 private:
  DeltaBinaryPackedWriter<uint32_t> lengths_;
  Buffer bytes_;
};

}  // namespace pq::delta
