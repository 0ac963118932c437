// Fuzz target: one page's journey below the column reader: decompression with every codec, level
// decoding, and value decoding with every (physical type, encoding) pair, dictionary indices too.
// Input: 4 control bytes (codec, physical type, encoding, max level), then the page bytes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "format/codec/codec.h"
#include "format/encoding/decoder.h"

namespace {

constexpr pq::CompressionCodec kCodecs[] = {
    pq::CompressionCodec::kUncompressed, pq::CompressionCodec::kSnappy, pq::CompressionCodec::kGzip,
    pq::CompressionCodec::kBrotli,       pq::CompressionCodec::kZstd,   pq::CompressionCodec::kLz4,
    pq::CompressionCodec::kLz4Raw,       pq::CompressionCodec::kLzo};
constexpr pq::Encoding kEncodings[] = {
    pq::Encoding::kPlain,           pq::Encoding::kRle,
    pq::Encoding::kDeltaBinaryPacked, pq::Encoding::kDeltaLengthByteArray,
    pq::Encoding::kDeltaByteArray,  pq::Encoding::kByteStreamSplit};

template <typename T>
void DecodeAll(pq::PhysicalType type, pq::Encoding encoding, int32_t type_length, pq::ByteSpan data,
               int64_t num_values) {
  auto decoder = pq::MakeDecoder<T>(type, encoding, type_length);
  if (!decoder.ok()) return;
  if (!(*decoder)->SetData(data, num_values).ok()) return;
  std::vector<T> out(256);
  for (int round = 0; (*decoder)->values_left() > 0 && round < 4096; ++round) {
    auto n = (round % 3 == 2) ? (*decoder)->Skip(97) : (*decoder)->Decode(out.data(), 256);
    if (!n.ok() || *n == 0) return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const pq::CompressionCodec codec = kCodecs[data[0] % std::size(kCodecs)];
  const int type_index = data[1] % 8;
  const pq::Encoding encoding = kEncodings[data[2] % std::size(kEncodings)];
  const int16_t max_level = data[3] % 8;
  pq::ByteSpan page(data + 4, size - 4);

  // Decompress to a size taken from the input (as a page header would claim), capped.
  std::vector<uint8_t> plain;
  if (codec != pq::CompressionCodec::kUncompressed && page.size() >= 2) {
    const size_t claimed = (size_t{page[0]} | (size_t{page[1]} << 8)) * 16;
    plain.resize(claimed);
    if (!pq::Decompress(codec, page.subspan(2), std::span<uint8_t>(plain)).ok()) return 0;
    page = pq::ByteSpan(plain.data(), plain.size());
  }

  // Levels (v1 layout), then the values after them.
  const int64_t num_values = static_cast<int64_t>(page.size() % 1024);
  pq::ByteReader reader(page);
  if (max_level > 0) {
    pq::LevelDecoder levels;
    if (levels.InitV1(pq::Encoding::kRle, max_level, num_values, &reader).ok()) {
      std::vector<int16_t> out(static_cast<size_t>(num_values));
      (void)levels.Decode(out.data(), num_values);
    }
    pq::LevelDecoder v2;
    if (v2.InitV2(max_level, num_values, page).ok()) {
      std::vector<int16_t> out(static_cast<size_t>(num_values));
      (void)v2.Decode(out.data(), num_values);
    }
  }
  const pq::ByteSpan values = page;
  switch (type_index) {
    case 0: DecodeAll<uint8_t>(pq::PhysicalType::kBoolean, encoding, 0, values, num_values); break;
    case 1: DecodeAll<int32_t>(pq::PhysicalType::kInt32, encoding, 0, values, num_values); break;
    case 2: DecodeAll<int64_t>(pq::PhysicalType::kInt64, encoding, 0, values, num_values); break;
    case 3: DecodeAll<pq::Int96>(pq::PhysicalType::kInt96, encoding, 0, values, num_values); break;
    case 4: DecodeAll<float>(pq::PhysicalType::kFloat, encoding, 0, values, num_values); break;
    case 5: DecodeAll<double>(pq::PhysicalType::kDouble, encoding, 0, values, num_values); break;
    case 6: DecodeAll<pq::ByteArray>(pq::PhysicalType::kByteArray, encoding, 0, values, num_values); break;
    default:
      DecodeAll<pq::ByteArray>(pq::PhysicalType::kFixedLenByteArray, encoding, 1 + data[3] % 16, values,
                               num_values);
      break;
  }
  pq::DictionaryIndexDecoder indices;
  if (indices.SetData(values, num_values).ok()) {
    std::vector<uint32_t> out(static_cast<size_t>(num_values));
    (void)indices.Decode(out.data(), num_values, 1000);
  }
  return 0;
}
