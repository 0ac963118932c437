// RLE-encoded BOOLEAN values of a data page (file-format.txt, "Run Length Encoding / Bit-Packing
// Hybrid": boolean values, length prepended in v1 and v2 pages alike): a 4-byte little-endian
// length, then that many bytes of hybrid runs with bit width 1.

#include <algorithm>
#include <string>

#include "format/encoding/rle_bit_packed.h"
#include "format/encoding/typed_decoders.h"

namespace pq::encoding {
namespace {

class RleBooleanDecoder final : public TypedDecoder<uint8_t> {
 public:
  Status SetData(ByteSpan data, int64_t num_values) override {
    PQ_RETURN_IF_ERROR(CheckValueCount(num_values));
    ByteReader reader(data);
    PQ_ASSIGN_OR_RETURN(uint32_t length, reader.ReadLE<uint32_t>());
    if (length > reader.remaining()) {
      return Status::Corruption("RLE BOOLEAN length prefix " + std::to_string(length) +
                                " exceeds the " + std::to_string(reader.remaining()) +
                                " bytes of the page");
    }
    runs_.Reset(reader.rest().first(length), /*bit_width=*/1);
    values_left_ = num_values;
    return Status::OK();
  }
  Result<int64_t> Decode(uint8_t* out, int64_t n) override {
    int64_t k = std::clamp<int64_t>(n, 0, values_left_);
    PQ_RETURN_IF_ERROR(runs_.Decode(out, k));
    values_left_ -= k;
    return k;
  }
  Result<int64_t> Skip(int64_t n) override {
    int64_t k = std::clamp<int64_t>(n, 0, values_left_);
    PQ_RETURN_IF_ERROR(runs_.Skip(k));
    values_left_ -= k;
    return k;
  }
  int64_t values_left() const override { return values_left_; }

 private:
  RleBitPackedDecoder runs_;
  int64_t values_left_ = 0;
};

}  // namespace

std::unique_ptr<TypedDecoder<uint8_t>> MakeRleBooleanDecoder() {
  return std::make_unique<RleBooleanDecoder>();
}

}  // namespace pq::encoding
