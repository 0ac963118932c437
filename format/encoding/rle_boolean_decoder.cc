// RLE-encoded BOOLEAN values of a data page (the Parquet spec, "Run Length Encoding / Bit-Packing
// Hybrid": boolean values, length prepended in v1 and v2 pages alike): a 4-byte little-endian
// length, then that many bytes of hybrid runs with bit width 1.

#include <string>

#include "format/encoding/rle_bit_packed.h"
#include "format/encoding/typed_decoders.h"

namespace pq::encoding {
namespace {

class RleBooleanDecoder final : public StreamValuesDecoder<uint8_t, RleBitPackedDecoder> {
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
    stream_.Reset(reader.rest().first(length), /*bit_width=*/1);
    values_left_ = num_values;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<TypedDecoder<uint8_t>> MakeRleBooleanDecoder() {
  return std::make_unique<RleBooleanDecoder>();
}

}  // namespace pq::encoding
