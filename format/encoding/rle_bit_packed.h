// The RLE / bit-packing hybrid (the Parquet spec, "Run Length Encoding / Bit-Packing Hybrid"):
// definition and repetition levels, dictionary indices and RLE booleans are all stored this way.
// Both classes handle the runs only; the 4-byte length prefix some pages put in front is read or
// written by the caller, who also knows how many values to ask for (the runs carry no total).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "format/encoding/values.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq {

// One value sought among bit-packed values of one width, in their packed form: 64 values of
// bit_width w fill exactly w little-endian 64-bit words, so the block XOR the target repeated 64
// times holds a zero field exactly where a value equals the target, and the subtraction of 1 from
// every field (with the borrow carried from word to word) tells whether any field is zero without
// separating them: about as many operations per block as it has words.
class PackedValueMatcher {
 public:
  // `target` must fit in `bit_width` (1..32).
  void Reset(uint32_t target, int bit_width);
  uint32_t target() const { return target_; }
  int bit_width() const { return bit_width_; }
  // Whether the 64 values packed at block[0, 8 * bit_width) include the target (exactly; which of
  // them is for the caller to find by unpacking the block).
  bool MayHold(const uint8_t* block) const {
    // Field f of x = block ^ pattern is zero iff value f is the target. Subtracting 1 from each
    // field borrows out of a field only when it is zero, so with no zero field no borrow crosses
    // fields and (x - low) & ~x has no field's top bit set; the lowest zero field sets its own top
    // bit there (fields above it may too, through its borrow: the answer stays "some field").
    uint64_t any = 0;
#if defined(__x86_64__)
    unsigned char borrow = 0;
    for (int w = 0; w < bit_width_; ++w) {
      uint64_t word;
      std::memcpy(&word, block + 8 * w, 8);
      const uint64_t x = word ^ pattern_[w];
      unsigned long long d;
      borrow = _subborrow_u64(borrow, x, low_[w], &d);
      any |= d & ~x & high_[w];
    }
#else
    uint64_t borrow = 0;
    for (int w = 0; w < bit_width_; ++w) {
      uint64_t word;
      std::memcpy(&word, block + 8 * w, 8);
      const uint64_t x = word ^ pattern_[w];
      const uint64_t d = x - low_[w] - borrow;
      borrow = (x < low_[w]) | ((x - low_[w]) < borrow);
      any |= d & ~x & high_[w];
    }
#endif
    return any != 0;
  }

 private:
  uint32_t target_ = 0;
  int bit_width_ = 0;
  uint64_t pattern_[32] = {};  // the target in every field
  uint64_t low_[32] = {};      // 1 in every field
  uint64_t high_[32] = {};     // each field's top bit
};

//   encoded-data := <run>*
//   run := varint(count << 1) <value: ceil(bit_width / 8) bytes LE>            RLE run
//        | varint(groups << 1 | 1) <groups * bit_width bytes, LSB first>      bit-packed run
//
// Decodes hybrid runs from a byte span. Never reads outside the span.
//
// Lenient where real writers are sloppy and nothing is lost: a final bit-packed group cut short by
// the end of the data is accepted as long as it holds the values asked for, and a run of length 0
// is skipped. Strict where a value could be wrong: an RLE value wider than bit_width is Corruption,
// and asking for values past the last run is Corruption.
class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  // `bit_width` must be 0..32 (callers check the width they read from a page).
  RleBitPackedDecoder(ByteSpan data, int bit_width) { Reset(data, bit_width); }
  void Reset(ByteSpan data, int bit_width);

  // Decodes exactly `n` values into out[0, n). Out is uint8_t, int16_t or uint32_t; with int16_t
  // and uint8_t the bit width must fit the type (16 / 8 bits).
  template <typename Out>
  Status Decode(Out* out, int64_t n);
  // Skips exactly `n` values, a run at a time.
  Status Skip(int64_t n);
  // Reads exactly `n` values like Decode, but writes each as `m.target()` where it equals that and as
  // `other` elsewhere, and adds the number of targets to *found: a filter that asks which values are
  // one value. RLE runs are compared once; bit-packed values are unpacked only in blocks of 64 that
  // may hold the target (PackedValueMatcher). The other values are checked against nothing but the
  // bit width. m.bit_width() must be this decoder's (at least 1).
  Status Probe(const PackedValueMatcher& m, uint32_t other, uint32_t* out, int64_t n, int64_t* found);

  int bit_width() const { return bit_width_; }

 private:
  Status NextRun();

  ByteReader reader_;
  int bit_width_ = 0;
  bool rle_ = true;                  // current run is RLE (else bit-packed)
  uint64_t run_left_ = 0;            // values left in the current run that can be read
  uint32_t rle_value_ = 0;           // RLE run: the repeated value
  const uint8_t* packed_ = nullptr;  // bit-packed run: its first byte
  uint64_t packed_next_ = 0;         // bit-packed run: index of the next value in the run
};

// Encodes values into hybrid runs. Runs of 8 or more equal values become RLE runs; everything else
// is bit-packed in groups of 8, the last group padded with zeros (readers stop at the page's value
// count). Run lengths stay within [1, 2^31 - 1] as the spec requires.
class RleBitPackedEncoder {
 public:
  // `bit_width` 0..32; every value put must fit in it.
  explicit RleBitPackedEncoder(int bit_width);

  void Put(uint32_t value) {
    ++num_values_;
    if (run_count_ > 0 && value == run_value_ && run_count_ < kMaxRunLength) {
      ++run_count_;
      return;
    }
    PutSlow(value);
  }
  // `count` copies of `value`.
  void PutRun(uint32_t value, uint64_t count) {
    num_values_ += static_cast<int64_t>(count);
    while (count > 0) {
      if (run_count_ == 0 || value != run_value_ || run_count_ == kMaxRunLength) {
        if (run_count_ > 0) EndRun();
        run_value_ = value;
      }
      const uint64_t take = std::min<uint64_t>(count, kMaxRunLength - run_count_);
      run_count_ += static_cast<uint32_t>(take);
      count -= take;
    }
  }
  // The same as Put of each value in turn, a run of equal values at a time.
  template <typename In>
  void PutBatch(const In* values, int64_t n) {
    int64_t i = 0;
    while (i < n) {
      const In v = values[i];
      int64_t j = i + 1;
      while (j < n && values[j] == v) ++j;
      PutRun(static_cast<uint32_t>(v), static_cast<uint64_t>(j - i));
      i = j;
    }
  }

  // Values put since the last Flush.
  int64_t num_values() const { return num_values_; }
  // Bytes Flush would append now, an upper bound within a few bytes.
  int64_t EstimatedSize() const;
  // Appends the runs of every value put so far to `out` and starts over.
  void FlushTo(Buffer* out);
  Buffer Flush() {
    Buffer b;
    FlushTo(&b);
    return b;
  }
  int bit_width() const { return bit_width_; }

 private:
  static constexpr uint32_t kMaxRunLength = (uint32_t{1} << 31) - 1;
  // Literal values are written out as a bit-packed run once this many are pending (a multiple of
  // 8).
  static constexpr size_t kMaxLiteralRun = 512;

  void PutSlow(uint32_t value);
  // Ends the current run of equal values: as an RLE run if long enough, else into the literals.
  void EndRun();
  void WriteLiterals(bool final);
  void WriteRleRun(uint32_t value, uint32_t count);

  int bit_width_;
  Buffer out_;                      // finished runs
  std::vector<uint32_t> literals_;  // values waiting to be bit-packed
  uint32_t run_value_ = 0;          // the value of the current run of equal values
  uint32_t run_count_ = 0;          // its length so far (0: none yet)
  int64_t num_values_ = 0;
};

}  // namespace pq
