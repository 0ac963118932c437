#include "format/encoding/delta_binary_packed.h"

#include <algorithm>
#include <bit>
#include <string>
#include <type_traits>

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
Status DeltaBinaryPackedReader<U>::NextMiniblock() {
  if (next_miniblock_ == miniblocks_per_block_) {
    PQ_ASSIGN_OR_RETURN(int64_t min_delta, reader_.ReadZigZag64());
    min_delta_ = static_cast<U>(static_cast<uint64_t>(min_delta));
    PQ_ASSIGN_OR_RETURN(ByteSpan widths, reader_.ReadBytes(miniblocks_per_block_));
    bit_widths_ = widths.data();
    next_miniblock_ = 0;
  }
  int width = bit_widths_[next_miniblock_++];
  if (width > kMaxWidth) {
    return Status::Corruption("DELTA_BINARY_PACKED miniblock bit width " + std::to_string(width) +
                              " exceeds " + std::to_string(kMaxWidth));
  }
  uint64_t bytes = bitpack::PackedBytes(values_per_miniblock_, width);
  uint64_t present = std::min<uint64_t>(bytes, reader_.remaining());
  mini_data_ = reader_.current();
  mini_width_ = width;
  mini_next_ = 0;
  mini_present_ = width == 0 ? values_per_miniblock_ : present * 8 / static_cast<uint64_t>(width);
  mini_present_ = std::min<uint64_t>(mini_present_, values_per_miniblock_);
  return reader_.Skip(static_cast<size_t>(present));
}

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
  while (want > 0) {
    if (mini_next_ == mini_present_) {
      if (mini_present_ < values_per_miniblock_) {
        return Status::Corruption("DELTA_BINARY_PACKED data ends inside a miniblock");
      }
      PQ_RETURN_IF_ERROR(NextMiniblock());
      continue;
    }
    size_t take = static_cast<size_t>(std::min<uint64_t>(want, mini_present_ - mini_next_));
    size_t readable = static_cast<size_t>(reader_.current() - mini_data_) + reader_.remaining();
    bitpack::UnpackRange(mini_data_, readable, mini_width_, mini_next_, take, out);
    U last = last_;
    const U min_delta = min_delta_;
    for (size_t i = 0; i < take; ++i) {
      last += min_delta + out[i];
      out[i] = last;
    }
    last_ = last;
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
