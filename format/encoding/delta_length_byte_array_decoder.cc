// DELTA_LENGTH_BYTE_ARRAY values of BYTE_ARRAY columns. Values point into the page data.
// As for DELTA_BINARY_PACKED, the decoder offers min(page values, lengths in the stream).

#include "format/encoding/delta_length_byte_array.h"
#include "format/encoding/typed_decoders.h"

namespace pq::encoding {
namespace {

class DeltaLengthByteArrayDecoder final
    : public StreamValuesDecoder<ByteArray, delta::DeltaLengthByteArrayReader> {
 public:
  Status SetData(ByteSpan data, int64_t num_values) override {
    return StartCountedStream(data, num_values);
  }
};

}  // namespace

std::unique_ptr<TypedDecoder<ByteArray>> MakeDeltaLengthByteArrayDecoder() {
  return std::make_unique<DeltaLengthByteArrayDecoder>();
}

}  // namespace pq::encoding
