// Dictionary indices of a data page (the Parquet spec, "Dictionary Encoding"): one byte of bit width
// (at most 32), then RLE/bit-packed hybrid runs with no length prefix.
//
// Bit width 0 means a one-entry dictionary: every index is 0 whatever follows (some writers emit no
// runs at all then), so nothing after the width byte is read. A page with no values may be empty.

#include <algorithm>
#include <string>

#include "format/encoding/bit_unpack.h"
#include "format/encoding/decoder.h"
#include "format/encoding/rle_bit_packed.h"

namespace pq {

struct DictionaryIndexDecoder::Impl {
  RleBitPackedDecoder runs;
  PackedValueMatcher matcher;  // Probe's, for the page's width
  int bit_width = 0;
  int64_t values_left = 0;
};

DictionaryIndexDecoder::DictionaryIndexDecoder() : impl_(std::make_unique<Impl>()) {}
DictionaryIndexDecoder::~DictionaryIndexDecoder() = default;

Status DictionaryIndexDecoder::SetData(ByteSpan data, int64_t num_values) {
  if (num_values < 0) return Status::InvalidArgument("negative value count");
  impl_->values_left = 0;
  if (data.empty() && num_values == 0) {
    impl_->bit_width = 0;
    return Status::OK();
  }
  ByteReader reader(data);
  PQ_ASSIGN_OR_RETURN(uint8_t bit_width, reader.ReadU8());
  if (bit_width > 32) {
    return Status::Corruption("dictionary index bit width " + std::to_string(bit_width) +
                              " exceeds 32");
  }
  impl_->bit_width = bit_width;
  impl_->runs.Reset(reader.rest(), bit_width);
  impl_->values_left = num_values;
  return Status::OK();
}

Result<int64_t> DictionaryIndexDecoder::Decode(uint32_t* out, int64_t n, uint32_t dictionary_size) {
  int64_t k = std::clamp<int64_t>(n, 0, impl_->values_left);
  if (k == 0) return k;
  if (impl_->bit_width == 0) {
    std::fill_n(out, k, 0u);
  } else {
    PQ_RETURN_IF_ERROR(impl_->runs.Decode(out, k));
  }
  // Decoded indices are below 2^bit_width (RLE values are checked when read), so only a
  // dictionary smaller than that needs the (vectorized) pass over the batch.
  const int width = impl_->bit_width;
  uint32_t max_index = 0;
  if (width == 32 || dictionary_size < (uint64_t{1} << width)) {
    max_index = bitpack::MaxValue(out, static_cast<size_t>(k));
  }
  if (max_index >= dictionary_size) {
    return Status::Corruption("dictionary index " + std::to_string(max_index) +
                              " out of range for a dictionary of " +
                              std::to_string(dictionary_size) + " entries");
  }
  impl_->values_left -= k;
  return k;
}

Result<int64_t> DictionaryIndexDecoder::Probe(uint32_t* out, int64_t n, int64_t target, uint32_t other,
                                              int64_t* found) {
  const int64_t k = std::clamp<int64_t>(n, 0, impl_->values_left);
  if (k == 0) return k;
  const int width = impl_->bit_width;
  const bool fits = target >= 0 && (width == 32 || (target >> width) == 0);
  if (!fits) {
    // No index of the page can be the target.
    if (width != 0) PQ_RETURN_IF_ERROR(impl_->runs.Skip(k));
    std::fill_n(out, k, other);
  } else if (width == 0) {  // every index is 0, which is the target
    std::fill_n(out, k, 0u);
    *found += k;
  } else {
    const auto t = static_cast<uint32_t>(target);
    if (impl_->matcher.bit_width() != width || impl_->matcher.target() != t) impl_->matcher.Reset(t, width);
    PQ_RETURN_IF_ERROR(impl_->runs.Probe(impl_->matcher, other, out, k, found));
  }
  impl_->values_left -= k;
  return k;
}

Result<int64_t> DictionaryIndexDecoder::Skip(int64_t n) {
  int64_t k = std::clamp<int64_t>(n, 0, impl_->values_left);
  if (impl_->bit_width != 0) PQ_RETURN_IF_ERROR(impl_->runs.Skip(k));
  impl_->values_left -= k;
  return k;
}

int64_t DictionaryIndexDecoder::values_left() const {
  return impl_->values_left;
}

}  // namespace pq
