#include "format/encoding/rle_bit_packed.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <string>

#include "format/encoding/bit_pack.h"
#include "format/encoding/bit_unpack.h"

namespace pq {

// ---------------------------------------------------------------------------------------------
// Decoder

void RleBitPackedDecoder::Reset(ByteSpan data, int bit_width) {
  assert(bit_width >= 0 && bit_width <= 32);
  reader_ = ByteReader(data);
  bit_width_ = bit_width;
  rle_ = true;
  run_left_ = 0;
  rle_value_ = 0;
  packed_ = nullptr;
  packed_next_ = 0;
}

Status RleBitPackedDecoder::NextRun() {
  if (reader_.empty()) {
    return Status::Corruption("RLE/bit-packed data ends before all values were read");
  }
  // Most run headers are one byte (runs shorter than 64 values or 8 groups).
  uint32_t header = *reader_.current();
  if (header < 0x80) {
    PQ_RETURN_IF_ERROR(reader_.Skip(1));
  } else {
    PQ_ASSIGN_OR_RETURN(header, reader_.ReadUleb128U32());
  }
  if (header & 1) {
    // Bit-packed run: groups of 8 values, bit_width bytes per group. A final group may be cut
    // short by the end of the data; only the values wholly present can be read.
    uint64_t values = uint64_t{header >> 1} * 8;
    uint64_t bytes = uint64_t{header >> 1} * static_cast<uint64_t>(bit_width_);
    uint64_t present = std::min<uint64_t>(bytes, reader_.remaining());
    rle_ = false;
    packed_ = reader_.current();
    packed_next_ = 0;
    run_left_ = bit_width_ == 0 ? values : std::min(values, present * 8 / bit_width_);
    PQ_RETURN_IF_ERROR(reader_.Skip(static_cast<size_t>(present)));
  } else {
    size_t value_bytes = static_cast<size_t>((bit_width_ + 7) / 8);
    PQ_ASSIGN_OR_RETURN(ByteSpan raw, reader_.ReadBytes(value_bytes));
    uint32_t value = 0;
    for (size_t i = 0; i < value_bytes; ++i) value |= uint32_t{raw[i]} << (8 * i);
    if (bit_width_ < 32 && (value >> bit_width_) != 0) {
      return Status::Corruption("RLE run value " + std::to_string(value) + " does not fit in " +
                                std::to_string(bit_width_) + " bits");
    }
    rle_ = true;
    rle_value_ = value;
    run_left_ = header >> 1;
  }
  return Status::OK();
}

template <typename Out>
Status RleBitPackedDecoder::Decode(Out* out, int64_t n) {
  assert(bit_width_ <= bitpack::kMaxBitWidth<Out>);
  while (n > 0) {
    if (run_left_ == 0) {
      PQ_RETURN_IF_ERROR(NextRun());
      continue;  // a run may be empty
    }
    size_t take = static_cast<size_t>(std::min<uint64_t>(run_left_, static_cast<uint64_t>(n)));
    if (rle_) {
      // Filling up to a multiple of 8 keeps the stores in whole vectors; values past `take`
      // (still inside out[0, n)) are overwritten by the runs that follow.
      size_t fill = std::min<size_t>((take + 7) & ~size_t{7}, static_cast<size_t>(n));
      bitpack::FillValues(out, fill, static_cast<Out>(rle_value_));
    } else {
      // Readable bytes run from the start of the run to the end of the data.
      size_t readable = static_cast<size_t>(reader_.current() - packed_) + reader_.remaining();
      bitpack::UnpackRange(packed_, readable, bit_width_, packed_next_, take, out);
      packed_next_ += take;
    }
    run_left_ -= take;
    out += take;
    n -= static_cast<int64_t>(take);
  }
  return Status::OK();
}

Status RleBitPackedDecoder::Skip(int64_t n) {
  while (n > 0) {
    if (run_left_ == 0) {
      PQ_RETURN_IF_ERROR(NextRun());
      continue;
    }
    uint64_t take = std::min<uint64_t>(run_left_, static_cast<uint64_t>(n));
    if (!rle_) packed_next_ += take;
    run_left_ -= take;
    n -= static_cast<int64_t>(take);
  }
  return Status::OK();
}

void PackedValueMatcher::Reset(uint32_t target, int bit_width) {
  assert(bit_width >= 1 && bit_width <= 32);
  assert(bit_width == 32 || (target >> bit_width) == 0);
  target_ = target;
  bit_width_ = bit_width;
  std::fill_n(pattern_, 32, 0);
  std::fill_n(low_, 32, 0);
  std::fill_n(high_, 32, 0);
  auto put = [this](uint64_t* words, uint32_t value, int field) {
    const int bit = field * bit_width_;
    const int word = bit / 64, shift = bit % 64;
    words[word] |= uint64_t{value} << shift;
    if (shift + bit_width_ > 64) words[word + 1] |= uint64_t{value} >> (64 - shift);
  };
  for (int field = 0; field < 64; ++field) {
    put(pattern_, target, field);
    put(low_, 1, field);
    put(high_, uint32_t{1} << (bit_width - 1), field);
  }
}

Status RleBitPackedDecoder::Probe(const PackedValueMatcher& m, uint32_t other, uint32_t* out,
                                  int64_t n, int64_t* found) {
  assert(m.bit_width() == bit_width_);
  const uint32_t target = m.target();
  const uint64_t width = static_cast<uint64_t>(bit_width_);
  int64_t hits = 0;
  while (n > 0) {
    if (run_left_ == 0) {
      PQ_RETURN_IF_ERROR(NextRun());
      continue;
    }
    const size_t take = static_cast<size_t>(std::min<uint64_t>(run_left_, static_cast<uint64_t>(n)));
    if (rle_) {
      const bool hit = rle_value_ == target;
      size_t fill = std::min<size_t>((take + 7) & ~size_t{7}, static_cast<size_t>(n));
      bitpack::FillValues(out, fill, hit ? target : other);
      hits += hit ? static_cast<int64_t>(take) : 0;
    } else {
      const size_t readable = static_cast<size_t>(reader_.current() - packed_) + reader_.remaining();
      uint32_t values[64];
      uint32_t others[64];
      std::fill_n(others, 64, other);
      size_t done = 0;
      while (done < take) {
        const uint64_t pos = packed_next_ + done;
        size_t chunk = static_cast<size_t>(std::min<uint64_t>(take - done, 64 - pos % 64));
        // A whole block of 64 lies within the run's present bytes (run_left_ counts only those).
        if (chunk == 64 && !m.MayHold(packed_ + pos / 8 * width)) {
          std::memcpy(out + done, others, sizeof(others));
          done += 64;
          continue;
        }
        bitpack::UnpackRange(packed_, readable, bit_width_, pos, chunk, values);
        for (size_t i = 0; i < chunk; ++i) {
          const bool hit = values[i] == target;
          out[done + i] = hit ? target : other;
          hits += hit;
        }
        done += chunk;
      }
      packed_next_ += take;
    }
    run_left_ -= take;
    out += take;
    n -= static_cast<int64_t>(take);
  }
  *found += hits;
  return Status::OK();
}

template Status RleBitPackedDecoder::Decode<uint8_t>(uint8_t* out, int64_t n);
template Status RleBitPackedDecoder::Decode<int16_t>(int16_t* out, int64_t n);
template Status RleBitPackedDecoder::Decode<uint32_t>(uint32_t* out, int64_t n);

// ---------------------------------------------------------------------------------------------
// Encoder

RleBitPackedEncoder::RleBitPackedEncoder(int bit_width) : bit_width_(bit_width) {
  assert(bit_width >= 0 && bit_width <= 32);
  literals_.reserve(kMaxLiteralRun + 16);
}

void RleBitPackedEncoder::PutSlow(uint32_t value) {
  if (run_count_ > 0) EndRun();
  run_value_ = value;
  run_count_ = 1;
}

void RleBitPackedEncoder::EndRun() {
  if (run_count_ >= 8) {
    // Literals must stay a multiple of 8 before an RLE run: lend them some of the run's values.
    uint32_t pad = static_cast<uint32_t>((8 - literals_.size() % 8) % 8);
    if (run_count_ - pad >= 8) {
      literals_.insert(literals_.end(), pad, run_value_);
      WriteLiterals(/*final=*/true);
      WriteRleRun(run_value_, run_count_ - pad);
      run_count_ = 0;
      return;
    }
  }
  if (run_count_ == 1) {
    literals_.push_back(run_value_);
  } else {
    literals_.insert(literals_.end(), run_count_, run_value_);
  }
  run_count_ = 0;
  if (literals_.size() >= kMaxLiteralRun) WriteLiterals(/*final=*/false);
}

void RleBitPackedEncoder::WriteLiterals(bool final) {
  size_t n = final ? literals_.size() : literals_.size() / 8 * 8;
  if (n == 0) return;
  size_t groups = (n + 7) / 8;
  bitpack::AppendUleb128(&out_, (uint64_t{groups} << 1) | 1);
  if (final) {
    literals_.resize(groups * 8, 0);  // pad the last group with zeros
    bitpack::PackBits(literals_.data(), groups * 8, bit_width_, &out_);
    literals_.clear();
  } else {
    bitpack::PackBits(literals_.data(), n, bit_width_, &out_);
    literals_.erase(literals_.begin(), literals_.begin() + static_cast<std::ptrdiff_t>(n));
  }
}

void RleBitPackedEncoder::WriteRleRun(uint32_t value, uint32_t count) {
  bitpack::AppendUleb128(&out_, uint64_t{count} << 1);
  for (int i = 0; i < (bit_width_ + 7) / 8; ++i)
    out_.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

int64_t RleBitPackedEncoder::EstimatedSize() const {
  // Pending values: the literals, plus the current run when it may still end up among them (fewer
  // than 16 values: EndRun can lend up to 7 of them to the literals and keep fewer than 8), plus
  // up to 7 values lent or padded, bit-packed in at most two runs (headers of at most 2 bytes
  // each); then possibly one RLE run (header at most 5 bytes).
  uint64_t pending = literals_.size() + (run_count_ < 16 ? run_count_ : 0) + 8;
  int64_t size = static_cast<int64_t>(out_.size()) +
                 static_cast<int64_t>(bitpack::PackedBytes(pending, bit_width_)) + 4;
  if (run_count_ >= 8) size += 5 + (bit_width_ + 7) / 8;
  return size;
}

void RleBitPackedEncoder::FlushTo(Buffer* out) {
  if (run_count_ > 0) EndRun();
  WriteLiterals(/*final=*/true);
  out->insert(out->end(), out_.begin(), out_.end());
  out_.clear();
  num_values_ = 0;
}

}  // namespace pq
