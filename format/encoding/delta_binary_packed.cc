#include "format/encoding/delta_binary_packed.h"

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <type_traits>
#include <utility>

#include "format/encoding/bit_pack.h"
#include "format/encoding/bit_unpack.h"

namespace pq::delta {

// ---------------------------------------------------------------------------------------------
// Reader

template <typename U>
Status DeltaBinaryPackedReader<U>::Init(ByteSpan data) {
  reader_ = ByteReader(data);
  PQ_ASSIGN_OR_RETURN(uint32_t block_size, reader_.ReadUleb128U32());
  PQ_ASSIGN_OR_RETURN(uint32_t miniblocks, reader_.ReadUleb128U32());
  PQ_ASSIGN_OR_RETURN(total_values_, reader_.ReadUleb128U32());
  PQ_ASSIGN_OR_RETURN(int64_t first, reader_.ReadZigZag64());
  if (block_size == 0 || block_size % 128 != 0) {
    return Status::Corruption("DELTA_BINARY_PACKED block size " + std::to_string(block_size) +
                              " is not a positive multiple of 128");
  }
  if (miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0) {
    return Status::Corruption("DELTA_BINARY_PACKED block of " + std::to_string(block_size) +
                              " values cannot hold " + std::to_string(miniblocks) +
                              " miniblocks of a multiple of 32 values");
  }
  miniblocks_per_block_ = miniblocks;
  values_per_miniblock_ = block_size / miniblocks;
  values_left_ = total_values_;
  first_pending_ = total_values_ > 0;
  last_ = static_cast<U>(static_cast<uint64_t>(first));  // INT32: keep the low 32 bits
  min_delta_ = 0;
  bit_widths_ = nullptr;
  next_miniblock_ = miniblocks_per_block_;  // the next miniblock starts a new block
  mini_data_ = nullptr;
  mini_width_ = 0;
  mini_next_ = values_per_miniblock_;  // the current (no) miniblock is used up
  mini_present_ = values_per_miniblock_;
  return Status::OK();
}

template <typename U>
Status DeltaBinaryPackedReader<U>::StartBlock() {
  PQ_ASSIGN_OR_RETURN(int64_t min_delta, reader_.ReadZigZag64());
  min_delta_ = static_cast<U>(static_cast<uint64_t>(min_delta));
  PQ_ASSIGN_OR_RETURN(ByteSpan widths, reader_.ReadBytes(miniblocks_per_block_));
  bit_widths_ = widths.data();
  next_miniblock_ = 0;
  return Status::OK();
}

template <typename U>
Status DeltaBinaryPackedReader<U>::WidthError(int width) {
  return Status::Corruption("DELTA_BINARY_PACKED miniblock bit width " + std::to_string(width) +
                            " exceeds " + std::to_string(kMaxWidth));
}

template <typename U>
Status DeltaBinaryPackedReader<U>::NextMiniblock() {
  if (next_miniblock_ == miniblocks_per_block_) PQ_RETURN_IF_ERROR(StartBlock());
  int width = bit_widths_[next_miniblock_++];
  if (width > kMaxWidth) return WidthError(width);
  const uint64_t bytes = bitpack::PackedBytes(values_per_miniblock_, width);
  mini_data_ = reader_.current();
  mini_width_ = width;
  mini_next_ = 0;
  if (bytes <= reader_.remaining()) {  // the whole miniblock is there (the usual case: no division)
    mini_present_ = values_per_miniblock_;
    return reader_.Skip(static_cast<size_t>(bytes));
  }
  // The end of the page cuts the miniblock: only the values whose bits are all there are present.
  const uint64_t present = reader_.remaining();
  mini_present_ = std::min<uint64_t>(present * 8 / static_cast<uint64_t>(width),
                                     values_per_miniblock_);
  return reader_.Skip(static_cast<size_t>(present));
}

namespace {

// Unpacks `groups` groups of 8 deltas of width BW (relative to the block's minimum) from `in` and
// turns them into values on the way, without storing the deltas first: value i is the previous
// value plus min_delta plus delta i, modulo 2^bits (U is unsigned). `last` is the value before
// the first; returns the last one written. Requires in[0, groups * BW + 8) readable, as
// bitpack::UnpackGroups.
template <int BW, typename U>
U UnpackDeltasFixed(const uint8_t* in, size_t groups, U min_delta, U last, U* out) {
  for (; groups > 0; --groups, in += BW, out += 8) {
    U deltas[8];
    if constexpr (BW == 0) {
      std::fill_n(deltas, 8, U{0});
    } else {
      bitpack::internal::UnpackFixed<BW, 8>(in, deltas);
    }
    [&]<int... J>(std::integer_sequence<int, J...>) {
      ((last += min_delta + deltas[J], out[J] = last), ...);
    }
    (std::make_integer_sequence<int, 8>{});
  }
  return last;
}

template <typename U>
using UnpackDeltasFn = U (*)(const uint8_t*, size_t, U, U, U*);

template <typename U, int... BW>
constexpr std::array<UnpackDeltasFn<U>, sizeof...(BW)> MakeUnpackDeltasTable(
    std::integer_sequence<int, BW...>) {
  return {&UnpackDeltasFixed<BW, U>...};
}

// One instantiation per bit width 0..bits of U, picked once per miniblock.
template <typename U>
inline constexpr auto kUnpackDeltas =
    MakeUnpackDeltasTable<U>(std::make_integer_sequence<int, bitpack::kMaxBitWidth<U> + 1>{});

// Turns out[0, n), unpacked deltas relative to the block's minimum, into values: value i is the
// previous value plus min_delta plus out[i], modulo 2^bits (U is unsigned: the sums wrap as the
// spec requires). `last` is the value before out[0]; returns the value of out[n - 1].
template <typename U>
inline U AddDeltas(U* out, size_t n, U min_delta, U last) {
  for (size_t i = 0; i < n; ++i) {
    last += min_delta + out[i];
    out[i] = last;
  }
  return last;
}

}  // namespace

template <typename U>
Status DeltaBinaryPackedReader<U>::Decode(U* out, int64_t n) {
  uint64_t want = std::min<uint64_t>(static_cast<uint64_t>(std::max<int64_t>(n, 0)), values_left_);
  if (want == 0) return Status::OK();
  values_left_ -= want;
  if (first_pending_) {
    *out++ = last_;
    --want;
    first_pending_ = false;
  }
  const uint64_t per_mini = values_per_miniblock_;
  while (want > 0) {
    // Whole miniblocks while the caller wants them, one after another: each needs its bytes plus
    // the 8 the fixed-width unpacker may read past them, and is unpacked and summed in one pass
    // straight into `out`, one table lookup per miniblock. The rest goes the careful way below.
    while (want >= per_mini && mini_next_ == mini_present_ && mini_present_ == per_mini) {
      if (next_miniblock_ == miniblocks_per_block_) PQ_RETURN_IF_ERROR(StartBlock());
      const int width = bit_widths_[next_miniblock_];
      if (width > kMaxWidth) return WidthError(width);
      if (width > kValueWidth) break;  // 33-bit INT32 deltas: the careful way
      const size_t bytes = static_cast<size_t>(per_mini / 8) * static_cast<size_t>(width);
      if (reader_.remaining() < 8 || bytes > reader_.remaining() - 8) break;
      ++next_miniblock_;
      mini_data_ = reader_.current();
      mini_width_ = width;
      PQ_RETURN_IF_ERROR(reader_.Skip(bytes));
      last_ = kUnpackDeltas<U>[width](mini_data_, per_mini / 8, min_delta_, last_, out);
      out += per_mini;
      want -= per_mini;
    }
    if (want == 0) break;
    if (mini_next_ == mini_present_) {
      if (mini_present_ < values_per_miniblock_) {
        return Status::Corruption("DELTA_BINARY_PACKED data ends inside a miniblock");
      }
      PQ_RETURN_IF_ERROR(NextMiniblock());
      continue;
    }
    // Part of a miniblock, or one near the end of the data: UnpackRange reads only its bytes.
    const size_t take = static_cast<size_t>(std::min<uint64_t>(want, mini_present_ - mini_next_));
    const size_t readable = static_cast<size_t>(reader_.current() - mini_data_) + reader_.remaining();
    if (mini_width_ <= kValueWidth) {
      bitpack::UnpackRange(mini_data_, readable, mini_width_, mini_next_, take, out);
    } else {
      // Deltas wider than U (33-bit INT32 ones): unpacked as 64-bit, kept modulo 2^32.
      uint64_t wide[64];
      for (size_t done = 0; done < take;) {
        const size_t k = std::min<size_t>(take - done, 64);
        bitpack::UnpackRange(mini_data_, readable, mini_width_, mini_next_ + done, k, wide);
        for (size_t i = 0; i < k; ++i) out[done + i] = static_cast<U>(wide[i]);
        done += k;
      }
    }
    last_ = AddDeltas(out, take, min_delta_, last_);
    mini_next_ += take;
    out += take;
    want -= take;
  }
  return Status::OK();
}

template <typename U>
Status DeltaBinaryPackedReader<U>::Skip(int64_t n) {
  uint64_t want = std::min<uint64_t>(static_cast<uint64_t>(std::max<int64_t>(n, 0)), values_left_);
  U scratch[256];
  while (want > 0) {
    // A run of zero-width deltas adds min_delta per value: skip it without unpacking.
    if (!first_pending_ && mini_next_ < mini_present_ && mini_width_ == 0) {
      uint64_t take = std::min<uint64_t>(want, mini_present_ - mini_next_);
      last_ += static_cast<U>(take) * min_delta_;
      mini_next_ += take;
      values_left_ -= take;
      want -= take;
      continue;
    }
    uint64_t take = std::min<uint64_t>(want, 256);
    PQ_RETURN_IF_ERROR(Decode(scratch, static_cast<int64_t>(take)));
    want -= take;
  }
  return Status::OK();
}

template <typename U>
Result<size_t> DeltaBinaryPackedReader<U>::StreamEnd() const {
  ByteReader r = reader_;
  uint64_t left = total_values_ > 0 ? total_values_ - 1 : 0;  // values stored in blocks
  while (left > 0) {
    PQ_RETURN_IF_ERROR(r.ReadZigZag64().status());
    PQ_ASSIGN_OR_RETURN(ByteSpan widths, r.ReadBytes(miniblocks_per_block_));
    for (uint32_t m = 0; m < miniblocks_per_block_ && left > 0; ++m) {
      if (widths[m] > kMaxWidth) {
        return Status::Corruption("DELTA_BINARY_PACKED miniblock bit width " +
                                  std::to_string(widths[m]) + " exceeds " +
                                  std::to_string(kMaxWidth));
      }
      PQ_RETURN_IF_ERROR(
          r.Skip(static_cast<size_t>(bitpack::PackedBytes(values_per_miniblock_, widths[m]))));
      left -= std::min<uint64_t>(left, values_per_miniblock_);
    }
  }
  return r.position();
}

template class DeltaBinaryPackedReader<uint32_t>;
template class DeltaBinaryPackedReader<uint64_t>;

// ---------------------------------------------------------------------------------------------
// Writer

template <typename U>
void DeltaBinaryPackedWriter<U>::Put(const U* values, int64_t n) {
  int64_t i = 0;
  if (n > 0 && total_values_ == 0) {
    first_ = last_ = values[0];
    i = 1;
  }
  for (; i < n; ++i) {
    deltas_[num_deltas_++] = values[i] - last_;  // wraps: unsigned
    last_ = values[i];
    if (num_deltas_ == kBlockSize) FlushBlock();
  }
  total_values_ += n;
}

template <typename U>
void DeltaBinaryPackedWriter<U>::FlushBlock() {
  if (num_deltas_ == 0) return;
  using S = std::make_signed_t<U>;
  S min_delta = static_cast<S>(deltas_[0]);
  for (uint32_t i = 1; i < num_deltas_; ++i)
    min_delta = std::min(min_delta, static_cast<S>(deltas_[i]));
  for (uint32_t i = 0; i < num_deltas_; ++i) deltas_[i] -= static_cast<U>(min_delta);
  std::fill(deltas_ + num_deltas_, deltas_ + kBlockSize, U{0});  // padding of the last miniblock

  uint8_t widths[kMiniblocks] = {};
  uint32_t used = (num_deltas_ + kMiniblockSize - 1) / kMiniblockSize;
  for (uint32_t m = 0; m < used; ++m) {
    U bits = 0;
    for (uint32_t i = 0; i < kMiniblockSize; ++i) bits |= deltas_[m * kMiniblockSize + i];
    widths[m] = static_cast<uint8_t>(std::bit_width(bits));
  }
  bitpack::AppendZigZag(&blocks_, static_cast<int64_t>(min_delta));
  blocks_.insert(blocks_.end(), widths, widths + kMiniblocks);
  for (uint32_t m = 0; m < used; ++m) {
    bitpack::PackBits(deltas_ + m * kMiniblockSize, kMiniblockSize, widths[m], &blocks_);
  }
  num_deltas_ = 0;
}

template <typename U>
int64_t DeltaBinaryPackedWriter<U>::EstimatedSize() const {
  // Header (at most 4 varints) + finished blocks + the pending block at full width.
  return 5 + 5 + 5 + 10 + static_cast<int64_t>(blocks_.size()) +
         (num_deltas_ > 0 ? 10 + kMiniblocks + static_cast<int64_t>(kBlockSize * sizeof(U)) : 0);
}

template <typename U>
void DeltaBinaryPackedWriter<U>::FinishTo(Buffer* out) {
  FlushBlock();
  using S = std::make_signed_t<U>;
  bitpack::AppendUleb128(out, kBlockSize);
  bitpack::AppendUleb128(out, kMiniblocks);
  bitpack::AppendUleb128(out, static_cast<uint64_t>(total_values_));
  bitpack::AppendZigZag(out, static_cast<int64_t>(static_cast<S>(first_)));
  out->insert(out->end(), blocks_.begin(), blocks_.end());
  blocks_.clear();
  total_values_ = 0;
  first_ = last_ = 0;
}

template class DeltaBinaryPackedWriter<uint32_t>;
template class DeltaBinaryPackedWriter<uint64_t>;

}  // namespace pq::delta
