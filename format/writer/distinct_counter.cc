#include "format/writer/distinct_counter.h"

#include <cmath>

namespace pq {

double DistinctCounter::Estimate() const {
  constexpr double m = kRegisters;
  double sum = 0;
  int zeros = 0;
  for (uint8_t r : registers_) {
    sum += std::ldexp(1.0, -static_cast<int>(r));
    zeros += r == 0;
  }
  const double alpha = 0.7213 / (1 + 1.079 / m);
  const double raw = alpha * m * m / sum;
  // Few distinct values leave registers empty: linear counting is exact-er there.
  if (raw <= 2.5 * m && zeros > 0) return m * std::log(m / zeros);
  return raw;
}

}  // namespace pq
