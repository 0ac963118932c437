// DistinctCounter: an estimate of how many distinct values a stream of 64-bit hashes came from, in
// 4 KiB whatever the stream's length (HyperLogLog: Flajolet, Fusy, Gandouet and Meunier, 2007, with
// linear counting for small counts). The column writer uses it to watch a chunk that the encoding
// trial wrote without a dictionary for repeats the trial's first values could not show
// (column_writer.h). The relative standard error is about 1.04 / sqrt(4096) = 1.6%.
#pragma once

#include <array>
#include <cstdint>

namespace pq {

class DistinctCounter {
 public:
  // `hash` must spread its bits (MixHash64 or better): the first 12 bits pick a register.
  void Add(uint64_t hash) {
    const uint32_t reg = static_cast<uint32_t>(hash >> (64 - kPrecision));
    // The rank of the rest: leading zeros + 1, at most 64 - kPrecision + 1 (a guard bit ends it).
    const uint64_t rest = (hash << kPrecision) | (uint64_t{1} << (kPrecision - 1));
    const auto rank = static_cast<uint8_t>(__builtin_clzll(rest) + 1);
    if (rank > registers_[reg]) registers_[reg] = rank;
  }
  double Estimate() const;
  void Reset() { registers_.fill(0); }

 private:
  static constexpr int kPrecision = 12;
  static constexpr int kRegisters = 1 << kPrecision;
  std::array<uint8_t, kRegisters> registers_{};

 public:
  // The estimate's relative standard error, 1.04 / sqrt(registers) (HyperLogLog's).
  static constexpr double kRelativeError = 1.04 / (1 << (kPrecision / 2));
};

}  // namespace pq
