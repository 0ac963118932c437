// DELTA_BINARY_PACKED values of INT32 and INT64 columns: blocks of 128 values in 4 miniblocks
// (delta_binary_packed.h). The mirror of delta_binary_packed_decoder.cc.

#include <type_traits>

#include "format/encoding/delta_binary_packed.h"
#include "format/encoding/typed_encoders.h"

namespace pq::encoding {
namespace {

template <typename T>
class DeltaBinaryPackedEncoder final : public TypedEncoder<T> {
  using U = std::make_unsigned_t<T>;

 public:
  Encoding encoding() const override { return Encoding::kDeltaBinaryPacked; }
  Status Put(const T* values, int64_t n) override {
    if (n > 0) stream_.Put(reinterpret_cast<const U*>(values), n);
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
  delta::DeltaBinaryPackedWriter<U> stream_;
};

}  // namespace

template <typename T>
std::unique_ptr<TypedEncoder<T>> MakeDeltaBinaryPackedEncoder() {
  return std::make_unique<DeltaBinaryPackedEncoder<T>>();
}

template std::unique_ptr<TypedEncoder<int32_t>> MakeDeltaBinaryPackedEncoder<int32_t>();
template std::unique_ptr<TypedEncoder<int64_t>> MakeDeltaBinaryPackedEncoder<int64_t>();

}  // namespace pq::encoding
