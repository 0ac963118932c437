// DELTA_BINARY_PACKED streams (the Parquet spec, "Delta Encoding (DELTA_BINARY_PACKED = 5)"): the
// reader and writer shared by the DELTA_BINARY_PACKED value decoder/encoder and by the length
// streams of DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY. Arithmetic is in the unsigned type U
// (uint32_t for INT32, uint64_t for INT64) so that deltas wrap in two's complement as the spec
// requires, with no signed overflow.
#pragma once

#include <cstdint>

#include "format/encoding/values.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq::delta {

//   header := varint(block size) varint(miniblocks per block) varint(total values) zigzag(first)
//   block  := zigzag(min delta) <one bit-width byte per miniblock> <miniblocks, bit-packed LSB
//   first>
//
// Reads one stream. Validates the header (block size a positive multiple of 128, miniblock size a
// positive multiple of 32) and every bit width it needs (at most kMaxWidth); bit widths of
// miniblocks after the last value are ignored, whatever they hold. The last miniblock may lack its
// padding bytes when the stream is the end of the page.
//
// INT32 streams may hold 33-bit miniblocks: a writer that computes INT32 deltas in 64 bits (DuckDB
// with PARQUET_VERSION V2, on values spanning more than 2^31) needs 33 bits for them, and the
// format's discussion of the case (PARQUET-2435) asks readers to accept it. Values are sums modulo
// 2^32, so only the low 32 bits of each such delta count.
template <typename U>
class DeltaBinaryPackedReader {
 public:
  // Reads the header from the start of `data`, which may extend past the stream's end.
  Status Init(ByteSpan data);
  // The "total value count" of the header.
  uint32_t total_values() const { return total_values_; }
  // Values not yet decoded or skipped.
  uint64_t values_left() const { return values_left_; }
  // Decodes exactly min(n, values_left()) values. (Values as U; callers reinterpret as signed.)
  // Whole miniblocks are unpacked and summed in one pass per miniblock, straight into `out`.
  Status Decode(U* out, int64_t n);
  Status Skip(int64_t n);
  // Offset in `data` just past the stream: after the last miniblock holding a value, padding
  // included (the padding must be present, since more data follows). Only valid right after Init;
  // walks the block headers without decoding values.
  Result<size_t> StreamEnd() const;

 private:
  // The width of U; one more for INT32 (above).
  static constexpr int kValueWidth = static_cast<int>(sizeof(U) * 8);
  static constexpr int kMaxWidth = kValueWidth == 32 ? 33 : kValueWidth;
  // Reads the next block's minimum delta and bit widths.
  Status StartBlock();
  // Moves to the next miniblock (and block): sets mini_* to it, mini_present_ to the values whose
  // bits are all in the data.
  Status NextMiniblock();
  static Status WidthError(int width);

  ByteReader reader_;
  uint32_t miniblocks_per_block_ = 0;
  uint32_t values_per_miniblock_ = 0;
  uint32_t total_values_ = 0;
  uint64_t values_left_ = 0;
  bool first_pending_ = false;           // the header's first value has not been returned yet
  U last_ = 0;                           // the last value returned (or the first value)
  U min_delta_ = 0;                      // the current block's frame of reference
  const uint8_t* bit_widths_ = nullptr;  // the current block's bit-width bytes
  uint32_t next_miniblock_ = 0;          // index in the block of the next miniblock
  const uint8_t* mini_data_ = nullptr;   // the current miniblock's packed values
  int mini_width_ = 0;
  uint64_t mini_next_ = 0;     // index of the next value in the current miniblock
  uint64_t mini_present_ = 0;  // values of the current miniblock present in the data
};

// Writes one stream with blocks of 128 values in 4 miniblocks of 32. Unused miniblocks of the last
// block get bit width 0 and no bytes; the last used miniblock is padded with zeros.
template <typename U>
class DeltaBinaryPackedWriter {
 public:
  static constexpr uint32_t kBlockSize = 128;
  static constexpr uint32_t kMiniblocks = 4;
  static constexpr uint32_t kMiniblockSize = kBlockSize / kMiniblocks;

  void Put(const U* values, int64_t n);
  void Put(U value) { Put(&value, 1); }
  int64_t num_values() const { return total_values_; }
  // An upper bound of the bytes Finish would produce now.
  int64_t EstimatedSize() const;
  // Appends the whole stream (header and blocks) to `out` and starts a new, empty stream.
  void FinishTo(Buffer* out);

 private:
  void FlushBlock();

  int64_t total_values_ = 0;
  U first_ = 0;
  U last_ = 0;
  U deltas_[kBlockSize] = {};
  uint32_t num_deltas_ = 0;
  Buffer blocks_;  // finished blocks
};

}  // namespace pq::delta
