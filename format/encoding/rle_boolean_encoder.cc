// RLE-encoded BOOLEAN values: a 4-byte little-endian length, then hybrid runs of bit width 1.
// The mirror of rle_boolean_decoder.cc.

#include "format/encoding/bit_pack.h"
#include "format/encoding/rle_bit_packed.h"
#include "format/encoding/typed_encoders.h"

namespace pq::encoding {
namespace {

class RleBooleanEncoder final : public TypedEncoder<uint8_t> {
 public:
  Encoding encoding() const override { return Encoding::kRle; }
  Status Put(const uint8_t* values, int64_t n) override {
    for (int64_t i = 0; i < n; ++i) runs_.Put(values[i] ? 1u : 0u);
    return Status::OK();
  }
  int64_t num_values() const override { return runs_.num_values(); }
  int64_t EstimatedDataSize() const override { return 4 + runs_.EstimatedSize(); }
  Buffer FlushValues() override {
    Buffer out(4);
    runs_.FlushTo(&out);
    bitpack::PatchU32LE(&out, 0, static_cast<uint32_t>(out.size() - 4));
    return out;
  }

 private:
  RleBitPackedEncoder runs_{1};
};

}  // namespace

std::unique_ptr<TypedEncoder<uint8_t>> MakeRleBooleanEncoder() {
  return std::make_unique<RleBooleanEncoder>();
}

}  // namespace pq::encoding
