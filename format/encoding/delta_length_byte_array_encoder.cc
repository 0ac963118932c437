// DELTA_LENGTH_BYTE_ARRAY values of BYTE_ARRAY columns: the lengths (DELTA_BINARY_PACKED), then
// the bytes. The mirror of delta_length_byte_array_decoder.cc.

#include "format/encoding/delta_length_byte_array.h"
#include "format/encoding/typed_encoders.h"

namespace pq::encoding {
namespace {

class DeltaLengthByteArrayEncoder final : public TypedEncoder<ByteArray> {
 public:
  Encoding encoding() const override { return Encoding::kDeltaLengthByteArray; }
  Status Put(const ByteArray* values, int64_t n) override {
    if (n > 0) stream_.Put(values, n);
    return Status::OK();
  }
  int64_t num_values() const override { return stream_.num_values(); }
  int64_t EstimatedDataSize() const override { return stream_.EstimatedSize(); }
  Buffer FlushValues() override {
    Buffer out;
    stream_.FinishTo(&out);
    return out;
  }

 private:
  delta::DeltaLengthByteArrayWriter stream_;
};

}  // namespace

std::unique_ptr<TypedEncoder<ByteArray>> MakeDeltaLengthByteArrayEncoder() {
  return std::make_unique<DeltaLengthByteArrayEncoder>();
}

}  // namespace pq::encoding
