// DELTA_BINARY_PACKED values of INT32 and INT64 columns (the Parquet spec, "Delta Encoding").
//
// The header's total value count is what the stream holds; the page's count of non-null values is
// what the caller wants. When they differ the decoder offers the smaller of the two: extra encoded
// values are ignored, and a stream holding fewer values than the page needs shows as a short
// values_left() that the column reader reports.

#include <type_traits>

#include "format/encoding/delta_binary_packed.h"
#include "format/encoding/typed_decoders.h"

namespace pq::encoding {
namespace {

// The stream reads the unsigned twin of T: int32_t / uint32_t (and the 64-bit pair) may alias
// each other.
template <typename T>
class DeltaBinaryPackedDecoder final
    : public StreamValuesDecoder<T, delta::DeltaBinaryPackedReader<std::make_unsigned_t<T>>,
                                 std::make_unsigned_t<T>> {
 public:
  Status SetData(ByteSpan data, int64_t num_values) override {
    return this->StartCountedStream(data, num_values);
  }
};

}  // namespace

template <typename T>
std::unique_ptr<TypedDecoder<T>> MakeDeltaBinaryPackedDecoder() {
  return std::make_unique<DeltaBinaryPackedDecoder<T>>();
}

template std::unique_ptr<TypedDecoder<int32_t>> MakeDeltaBinaryPackedDecoder<int32_t>();
template std::unique_ptr<TypedDecoder<int64_t>> MakeDeltaBinaryPackedDecoder<int64_t>();

}  // namespace pq::encoding
