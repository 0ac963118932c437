// Encoder -> decoder round trips for every legal (physical type, encoding) pair, the legality
// matrix of both factories, and truncated / corrupted pages for every pair.

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "encoding_test_util.h"
#include "format/encoding/decoder.h"
#include "format/encoding/encoder.h"

namespace pq {
namespace {

using testing::DecodeAll;
using testing::ExactCopy;
using testing::ExpectSameValues;
using testing::RandomValues;
using P = PhysicalType;
using E = Encoding;

struct Pair {
  P type;
  E encoding;
  int32_t type_length;  // FLBA only
};

const std::vector<Pair>& LegalPairs() {
  static const std::vector<Pair> pairs = {
      {P::kBoolean, E::kPlain, 0},
      {P::kBoolean, E::kRle, 0},
      {P::kInt32, E::kPlain, 0},
      {P::kInt32, E::kDeltaBinaryPacked, 0},
      {P::kInt32, E::kByteStreamSplit, 0},
      {P::kInt64, E::kPlain, 0},
      {P::kInt64, E::kDeltaBinaryPacked, 0},
      {P::kInt64, E::kByteStreamSplit, 0},
      {P::kInt96, E::kPlain, 0},
      {P::kFloat, E::kPlain, 0},
      {P::kFloat, E::kByteStreamSplit, 0},
      {P::kDouble, E::kPlain, 0},
      {P::kDouble, E::kByteStreamSplit, 0},
      {P::kByteArray, E::kPlain, 0},
      {P::kByteArray, E::kDeltaLengthByteArray, 0},
      {P::kByteArray, E::kDeltaByteArray, 0},
      {P::kFixedLenByteArray, E::kPlain, 5},
      {P::kFixedLenByteArray, E::kDeltaByteArray, 5},
      {P::kFixedLenByteArray, E::kByteStreamSplit, 5},
      {P::kFixedLenByteArray, E::kPlain, 1},
      {P::kFixedLenByteArray, E::kDeltaByteArray, 16},
      {P::kFixedLenByteArray, E::kByteStreamSplit, 3},
  };
  return pairs;
}

std::string Name(const Pair& p) {
  return "type " + std::to_string(static_cast<int>(p.type)) + " encoding " +
         std::to_string(static_cast<int>(p.encoding)) + " width " + std::to_string(p.type_length);
}

// Calls f.template operator()<T>() with T the value type of `type`.
template <typename F>
void WithValueType(P type, F&& f) {
  switch (type) {
    case P::kBoolean:
      f.template operator()<uint8_t>();
      break;
    case P::kInt32:
      f.template operator()<int32_t>();
      break;
    case P::kInt64:
      f.template operator()<int64_t>();
      break;
    case P::kInt96:
      f.template operator()<Int96>();
      break;
    case P::kFloat:
      f.template operator()<float>();
      break;
    case P::kDouble:
      f.template operator()<double>();
      break;
    case P::kByteArray:
    case P::kFixedLenByteArray:
      f.template operator()<ByteArray>();
      break;
  }
}

template <typename T>
Buffer EncodePage(const Pair& p, const std::vector<T>& values, uint32_t seed) {
  auto enc = MakeEncoder<T>(p.type, p.encoding, p.type_length);
  EXPECT_TRUE(enc.ok()) << enc.status().ToString();
  if (!enc.ok()) return {};
  EXPECT_EQ((*enc)->encoding(), p.encoding);
  // Put in uneven batches.
  std::mt19937 rng(seed);
  size_t pos = 0;
  while (pos < values.size()) {
    size_t k = std::min<size_t>(values.size() - pos, 1 + rng() % 300);
    EXPECT_TRUE((*enc)->Put(values.data() + pos, static_cast<int64_t>(k)).ok());
    pos += k;
  }
  EXPECT_EQ((*enc)->num_values(), static_cast<int64_t>(values.size()));
  int64_t estimate = (*enc)->EstimatedDataSize();
  Buffer page = (*enc)->FlushValues();
  EXPECT_GE(estimate, static_cast<int64_t>(page.size()));
  if (p.encoding == E::kPlain || p.encoding == E::kByteStreamSplit) {
    EXPECT_EQ(estimate, static_cast<int64_t>(page.size()));
  }
  EXPECT_EQ((*enc)->num_values(), 0);
  return page;
}

template <typename T>
void RoundTrip(const Pair& p, size_t n, uint32_t seed) {
  SCOPED_TRACE(Name(p) + " n " + std::to_string(n));
  auto set = RandomValues<T>(n, seed, p.type == P::kFixedLenByteArray ? p.type_length : 0);
  Buffer page = EncodePage<T>(p, set.values, seed);
  auto exact = ExactCopy(page);
  ByteSpan span(exact.get(), page.size());

  auto dec = MakeDecoder<T>(p.type, p.encoding, p.type_length);
  ASSERT_TRUE(dec.ok()) << dec.status().ToString();
  TypedDecoder<T>& d = **dec;

  // 1. Everything in batches of 1000.
  ASSERT_TRUE(d.SetData(span, static_cast<int64_t>(n)).ok());
  EXPECT_EQ(d.values_left(), static_cast<int64_t>(n));
  std::vector<T> out;
  Status st = DecodeAll(&d, &out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(out.size(), n);
  ExpectSameValues(set.values, out);
  T extra{};
  auto none = d.Decode(&extra, 1);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, 0);

  // 2. Skip interleaved with Decode, random lengths.
  ASSERT_TRUE(d.SetData(span, static_cast<int64_t>(n)).ok());
  std::mt19937 rng(seed + 1);
  size_t pos = 0;
  while (pos < n) {
    int64_t k = 1 + static_cast<int64_t>(rng() % (rng() % 4 == 0 ? 700 : 40));
    if (rng() % 2) {
      auto skipped = d.Skip(k);
      ASSERT_TRUE(skipped.ok()) << skipped.status().ToString();
      ASSERT_EQ(*skipped, std::min<int64_t>(k, static_cast<int64_t>(n - pos)));
      pos += static_cast<size_t>(*skipped);
    } else {
      std::vector<T> chunk(static_cast<size_t>(k));
      auto got = d.Decode(chunk.data(), k);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      ASSERT_EQ(*got, std::min<int64_t>(k, static_cast<int64_t>(n - pos)));
      chunk.resize(static_cast<size_t>(*got));
      ExpectSameValues(set.values, chunk, pos);
      pos += chunk.size();
    }
    ASSERT_EQ(d.values_left(), static_cast<int64_t>(n - pos));
  }

  // 3. Values decoded from a page stay valid after the next SetData while its storage is held.
  if constexpr (std::is_same_v<T, ByteArray>) {
    if (n > 0) {
      ASSERT_TRUE(d.SetData(span, static_cast<int64_t>(n)).ok());
      std::vector<ByteArray> first(n);
      ASSERT_TRUE(d.Decode(first.data(), static_cast<int64_t>(n)).ok());
      BufferPtr pinned = d.storage();
      auto other =
          RandomValues<T>(50, seed + 9, p.type == P::kFixedLenByteArray ? p.type_length : 0);
      Buffer other_page = EncodePage<T>(p, other.values, seed + 9);
      ASSERT_TRUE(d.SetData(other_page, 50).ok());
      std::vector<ByteArray> second;
      ASSERT_TRUE(DecodeAll(&d, &second).ok());
      ExpectSameValues(other.values, second);
      ExpectSameValues(set.values, first);  // still readable (ASan checks the memory)
    }
  }
}

TEST(RoundTripTest, EveryLegalPairManySizes) {
  uint32_t seed = 1;
  for (const Pair& p : LegalPairs()) {
    for (size_t n : {0, 1, 7, 8, 127, 128, 129, 1000, 100000}) {
      WithValueType(p.type, [&]<typename T>() { RoundTrip<T>(p, n, seed++); });
    }
  }
}

TEST(RoundTripTest, SpecialFloatingPointValuesSurviveBitExact) {
  std::vector<double> values = {0.0,
                                -0.0,
                                std::numeric_limits<double>::quiet_NaN(),
                                -std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::denorm_min(),
                                1e308};
  for (E e : {E::kPlain, E::kByteStreamSplit}) {
    auto enc = MakeEncoder<double>(P::kDouble, e, 0);
    ASSERT_TRUE((*enc)->Put(values.data(), 6).ok());
    Buffer page = (*enc)->FlushValues();
    auto dec = MakeDecoder<double>(P::kDouble, e, 0);
    ASSERT_TRUE((*dec)->SetData(page, 6).ok());
    std::vector<double> out;
    ASSERT_TRUE(DecodeAll(dec->get(), &out).ok());
    ExpectSameValues(values, out);
  }
}

// ---------------------------------------------------------------------------------------------
// Legality

bool IsLegal(P type, E encoding) {
  switch (encoding) {
    case E::kPlain:
      return true;
    case E::kRle:
      return type == P::kBoolean;
    case E::kDeltaBinaryPacked:
      return type == P::kInt32 || type == P::kInt64;
    case E::kDeltaLengthByteArray:
      return type == P::kByteArray;
    case E::kDeltaByteArray:
      return type == P::kByteArray || type == P::kFixedLenByteArray;
    case E::kByteStreamSplit:
      return type == P::kFloat || type == P::kDouble || type == P::kInt32 || type == P::kInt64 ||
             type == P::kFixedLenByteArray;
    default:
      return false;
  }
}

TEST(FactoryTest, DecoderAndEncoderAgreeWithTheLegalityTable) {
  std::vector<E> encodings = {E::kPlain,
                              E::kPlainDictionary,
                              E::kRle,
                              E::kBitPacked,
                              E::kDeltaBinaryPacked,
                              E::kDeltaLengthByteArray,
                              E::kDeltaByteArray,
                              E::kRleDictionary,
                              E::kByteStreamSplit,
                              E::kAlp,
                              static_cast<E>(1),
                              static_cast<E>(42)};
  for (int t = 0; t <= 7; ++t) {
    P type = static_cast<P>(t);
    for (E e : encodings) {
      WithValueType(type, [&]<typename T>() {
        SCOPED_TRACE("type " + std::to_string(t) + " encoding " +
                     std::to_string(static_cast<int>(e)));
        auto dec = MakeDecoder<T>(type, e, 4);
        auto enc = MakeEncoder<T>(type, e, 4);
        if (IsLegal(type, e)) {
          EXPECT_TRUE(dec.ok()) << dec.status().ToString();
          EXPECT_TRUE(enc.ok()) << enc.status().ToString();
        } else {
          ASSERT_FALSE(dec.ok());
          ASSERT_FALSE(enc.ok());
          EXPECT_TRUE(dec.status().IsNotSupported()) << dec.status().ToString();
          EXPECT_TRUE(enc.status().IsNotSupported());
          EXPECT_NE(dec.status().message().find("is not valid for physical type"),
                    std::string::npos);
          EXPECT_EQ(dec.status().message(), enc.status().message());
        }
      });
    }
  }
}

TEST(FactoryTest, SpecificRefusalsNameBothSides) {
  auto a = MakeDecoder<float>(P::kFloat, E::kDeltaBinaryPacked, 0);
  ASSERT_FALSE(a.ok());
  EXPECT_TRUE(a.status().IsNotSupported());
  EXPECT_EQ(a.status().message(),
            "encoding DELTA_BINARY_PACKED is not valid for physical type FLOAT");
  auto b = MakeDecoder<uint8_t>(P::kBoolean, E::kByteStreamSplit, 0);
  EXPECT_TRUE(b.status().IsNotSupported());
  auto c = MakeDecoder<int32_t>(P::kInt32, E::kDeltaLengthByteArray, 0);
  EXPECT_TRUE(c.status().IsNotSupported());
  auto d = MakeDecoder<int64_t>(P::kInt64, E::kRle, 0);
  EXPECT_TRUE(d.status().IsNotSupported());
  auto e = MakeDecoder<int32_t>(P::kInt32, E::kRleDictionary, 0);
  EXPECT_TRUE(e.status().IsNotSupported());
  EXPECT_NE(e.status().message().find("RLE_DICTIONARY"), std::string::npos);
  auto f = MakeDecoder<double>(P::kDouble, E::kAlp, 0);
  EXPECT_TRUE(f.status().IsNotSupported());
  auto g = MakeDecoder<int32_t>(P::kInt32, E::kBitPacked, 0);
  EXPECT_TRUE(g.status().IsNotSupported());
}

TEST(FactoryTest, ValueTypeMustMatchAndFixedWidthMustBePositive) {
  EXPECT_TRUE(MakeDecoder<int64_t>(P::kInt32, E::kPlain, 0).status().IsInvalidArgument());
  EXPECT_TRUE(MakeEncoder<float>(P::kDouble, E::kPlain, 0).status().IsInvalidArgument());
  EXPECT_TRUE(MakeDecoder<ByteArray>(P::kFixedLenByteArray, E::kPlain, 0).status().IsCorruption());
  EXPECT_TRUE(MakeDecoder<ByteArray>(P::kFixedLenByteArray, E::kPlain, -3).status().IsCorruption());
  EXPECT_TRUE(MakeDecoder<ByteArray>(P::kByteArray, E::kPlain, 0).ok());
}

TEST(FactoryTest, FixedLenValuesOfTheWrongLengthAreRefusedByEncoders) {
  std::string s = "abc";
  ByteArray v = testing::BA(s);
  for (E e : {E::kPlain, E::kDeltaByteArray, E::kByteStreamSplit}) {
    auto enc = MakeEncoder<ByteArray>(P::kFixedLenByteArray, e, 4);
    ASSERT_TRUE(enc.ok());
    EXPECT_TRUE((*enc)->Put(&v, 1).IsInvalidArgument());
    EXPECT_EQ((*enc)->num_values(), 0);
  }
}

// ---------------------------------------------------------------------------------------------
// Truncated and corrupted pages

template <typename T>
void TruncateEverywhere(const Pair& p) {
  SCOPED_TRACE(Name(p));
  const size_t n = 300;
  auto set = RandomValues<T>(n, 99, p.type == P::kFixedLenByteArray ? p.type_length : 0);
  Buffer page = EncodePage<T>(p, set.values, 99);
  auto dec = MakeDecoder<T>(p.type, p.encoding, p.type_length);
  ASSERT_TRUE(dec.ok());
  for (size_t len = 0; len < page.size(); ++len) {
    auto exact = ExactCopy(ByteSpan(page.data(), len));
    Status st = (*dec)->SetData(ByteSpan(exact.get(), len), static_cast<int64_t>(n));
    std::vector<T> out;
    if (st.ok()) st = DecodeAll(dec->get(), &out);
    if (st.ok()) {
      // Only bytes no value needed were cut (e.g. padding of a last miniblock).
      ASSERT_EQ(out.size(), n) << "truncated to " << len;
      ExpectSameValues(set.values, out);
    } else {
      EXPECT_TRUE(st.IsCorruption()) << "truncated to " << len << ": " << st.ToString();
    }
  }
}

TEST(CorruptInputTest, TruncationAtEveryOffsetIsAnErrorNotACrash) {
  for (const Pair& p : LegalPairs()) {
    WithValueType(p.type, [&]<typename T>() { TruncateEverywhere<T>(p); });
  }
}

template <typename T>
void FlipBytes(const Pair& p) {
  SCOPED_TRACE(Name(p));
  const size_t n = 200;
  auto set = RandomValues<T>(n, 7, p.type == P::kFixedLenByteArray ? p.type_length : 0);
  Buffer page = EncodePage<T>(p, set.values, 7);
  auto dec = MakeDecoder<T>(p.type, p.encoding, p.type_length);
  std::mt19937 rng(static_cast<uint32_t>(page.size()));
  for (int iter = 0; iter < 300 && !page.empty(); ++iter) {
    Buffer bad = page;
    for (int k = 0; k < 1 + iter % 4; ++k)
      bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    auto exact = ExactCopy(bad);
    Status st = (*dec)->SetData(ByteSpan(exact.get(), bad.size()), static_cast<int64_t>(n));
    std::vector<T> out;
    if (st.ok()) st = DecodeAll(dec->get(), &out, 1 + iter % 97);
    if (!st.ok()) {
      EXPECT_TRUE(st.IsCorruption()) << st.ToString();
    }
  }
}

TEST(CorruptInputTest, RandomByteFlipsNeverCrash) {
  for (const Pair& p : LegalPairs()) {
    WithValueType(p.type, [&]<typename T>() { FlipBytes<T>(p); });
  }
}

}  // namespace
}  // namespace pq
