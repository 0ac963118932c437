// DELTA_BYTE_ARRAY values of BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY columns (the Parquet spec, "Delta
// Strings"): prefix lengths (DELTA_BINARY_PACKED), then the suffixes (DELTA_LENGTH_BYTE_ARRAY).
// Value i is the first prefix[i] bytes of value i-1 followed by suffix i.
//
// The values do not exist anywhere in the page, so the decoder rebuilds them into one Buffer per
// page (storage()). SetData first walks all lengths of the page on copies of the streams: it checks
// every prefix against the previous value's length, every suffix against the data and, for
// FIXED_LEN_BYTE_ARRAY, every length against type_length, and sizes the buffer exactly (refusing
// more than kMaxDecodedPageBytes). Decode then copies bytes into the buffer, never reallocating it,
// so every value decoded from the page stays valid for as long as the buffer is held. (The buffer
// ends with 16 spare bytes so that short prefixes and suffixes are moved with one fixed-size copy.)

#include <algorithm>
#include <cstring>
#include <string>

#include "format/encoding/delta_length_byte_array.h"
#include "format/encoding/typed_decoders.h"

namespace pq::encoding {
namespace {

class DeltaByteArrayDecoder final : public TypedDecoder<ByteArray> {
 public:
  explicit DeltaByteArrayDecoder(int32_t fixed_width) : fixed_width_(fixed_width) {}

  Status SetData(ByteSpan data, int64_t num_values) override {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    values_left_ = 0;
    PQ_RETURN_IF_ERROR(prefixes_.Init(data));
    PQ_ASSIGN_OR_RETURN(size_t prefixes_end, prefixes_.StreamEnd());
    PQ_RETURN_IF_ERROR(suffixes_.Init(data.subspan(prefixes_end)));
    int64_t count = std::min<int64_t>(
        {num_values, prefixes_.total_values(), static_cast<int64_t>(suffixes_.total_values())});
    PQ_ASSIGN_OR_RETURN(uint64_t total_bytes, MeasureValues(count));
    PQ_RETURN_IF_ERROR(ReserveStorage(static_cast<int64_t>(total_bytes + kSlack)));
    // Reuse the buffer when no one else holds it; otherwise the old page's values must survive.
    if (!storage_ || storage_.use_count() != 1) storage_ = std::make_shared<Buffer>();
    storage_->resize(static_cast<size_t>(total_bytes) + kSlack);
    page_end_ = data.data() + data.size();
    written_ = 0;
    previous_ = ByteArray{storage_->data(), 0};
    values_left_ = count;
    return Status::OK();
  }

  Result<int64_t> Decode(ByteArray* out, int64_t n) override {
    int64_t k = std::clamp<int64_t>(n, 0, values_left_);
    PQ_RETURN_IF_ERROR(Rebuild(out, k));
    values_left_ -= k;
    return k;
  }

  Result<int64_t> Skip(int64_t n) override {
    // Later values copy their prefix from the previous one, so skipped values are rebuilt too.
    int64_t k = std::clamp<int64_t>(n, 0, values_left_);
    ByteArray scratch[kBatch];
    for (int64_t done = 0; done < k;) {
      int64_t b = std::min(k - done, kBatch);
      PQ_RETURN_IF_ERROR(Rebuild(scratch, b));
      done += b;
    }
    values_left_ -= k;
    return k;
  }

  int64_t values_left() const override { return values_left_; }
  BufferPtr storage() const override { return storage_; }

 private:
  static constexpr int64_t kBatch = 256;
  // Bytes after the values in storage_, so that short copies can move a whole 16 bytes.
  static constexpr size_t kSlack = 16;

  // Copies 16 bytes; `src` and `dst` may overlap (load, then store).
  static void Copy16(uint8_t* dst, const uint8_t* src) {
    uint8_t tmp[16];
    std::memcpy(tmp, src, 16);
    std::memcpy(dst, tmp, 16);
  }

  static Status PrefixTooLong(uint32_t prefix, uint32_t previous) {
    return Status::Corruption("DELTA_BYTE_ARRAY prefix length " + std::to_string(prefix) +
                              " exceeds the previous value's " + std::to_string(previous) +
                              " bytes");
  }

  // Checks the lengths of the next `count` values and returns the bytes they take when rebuilt.
  Result<uint64_t> MeasureValues(int64_t count) const {
    delta::DeltaBinaryPackedReader<uint32_t> prefixes = prefixes_;
    delta::DeltaLengthByteArrayReader suffixes = suffixes_;
    uint32_t prefix[kBatch];
    ByteArray suffix[kBatch];
    uint64_t total = 0;
    uint64_t previous = 0;
    for (int64_t done = 0; done < count;) {
      int64_t b = std::min(count - done, kBatch);
      PQ_RETURN_IF_ERROR(prefixes.Decode(prefix, b));
      PQ_RETURN_IF_ERROR(suffixes.Decode(suffix, b));
      for (int64_t i = 0; i < b; ++i) {
        if (prefix[i] > previous) return PrefixTooLong(prefix[i], static_cast<uint32_t>(previous));
        uint64_t length = uint64_t{prefix[i]} + suffix[i].len;
        if (fixed_width_ > 0 && length != static_cast<uint64_t>(fixed_width_)) {
          return Status::Corruption("DELTA_BYTE_ARRAY value of " + std::to_string(length) +
                                    " bytes in a FIXED_LEN_BYTE_ARRAY(" +
                                    std::to_string(fixed_width_) + ") column");
        }
        total += length;
        if (total > kMaxDecodedPageBytes) {
          return Status::OutOfMemory("DELTA_BYTE_ARRAY page rebuilds to more than " +
                                     std::to_string(kMaxDecodedPageBytes) + " bytes");
        }
        previous = length;
      }
      done += b;
    }
    return total;
  }

  // Rebuilds the next `n` values into storage_ (n <= values_left_).
  Status Rebuild(ByteArray* out, int64_t n) {
    uint32_t prefix[kBatch];
    ByteArray suffix[kBatch];
    uint8_t* base = storage_->data();
    const size_t capacity = storage_->size() - kSlack;
    while (n > 0) {
      int64_t b = std::min(n, kBatch);
      PQ_RETURN_IF_ERROR(prefixes_.Decode(prefix, b));
      PQ_RETURN_IF_ERROR(suffixes_.Decode(suffix, b));
      for (int64_t i = 0; i < b; ++i) {
        // SetData checked all of this; checked again so that no input can write out of bounds.
        if (prefix[i] > previous_.len) return PrefixTooLong(prefix[i], previous_.len);
        uint64_t length = uint64_t{prefix[i]} + suffix[i].len;
        if (length > capacity - written_) {
          return Status::Corruption("DELTA_BYTE_ARRAY values outgrow the page's measured size");
        }
        // Short copies move 16 bytes: the excess lands in the slack or in the next value's
        // place, which later copies overwrite. Reads stay inside storage_ or the page.
        uint8_t* dst = base + written_;
        if (prefix[i] <= 16) {
          Copy16(dst, previous_.ptr);
        } else {
          std::memcpy(dst, previous_.ptr, prefix[i]);
        }
        if (suffix[i].len <= 16 && page_end_ - suffix[i].ptr >= 16) {
          Copy16(dst + prefix[i], suffix[i].ptr);
        } else if (suffix[i].len > 0) {
          std::memcpy(dst + prefix[i], suffix[i].ptr, suffix[i].len);
        }
        out[i] = ByteArray{dst, static_cast<uint32_t>(length)};
        previous_ = out[i];
        written_ += static_cast<size_t>(length);
      }
      out += b;
      n -= b;
    }
    return Status::OK();
  }

  int32_t fixed_width_;  // FIXED_LEN_BYTE_ARRAY width, 0 for BYTE_ARRAY
  delta::DeltaBinaryPackedReader<uint32_t> prefixes_;
  delta::DeltaLengthByteArrayReader suffixes_;
  std::shared_ptr<Buffer> storage_;    // the current page's rebuilt values, then kSlack bytes
  const uint8_t* page_end_ = nullptr;  // end of the page data given to SetData
  size_t written_ = 0;                 // bytes of storage_ filled so far
  ByteArray previous_;                 // the last value rebuilt
  int64_t values_left_ = 0;
};

}  // namespace

std::unique_ptr<TypedDecoder<ByteArray>> MakeDeltaByteArrayDecoder(int32_t fixed_width) {
  return std::make_unique<DeltaByteArrayDecoder>(fixed_width);
}

}  // namespace pq::encoding
