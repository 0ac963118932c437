// Decimal digits two at a time: the text of 00 to 99, for writers of numbers that produce two
// digits a step (one table lookup and one 2-byte copy in place of a division and two stores).
#pragma once

namespace pq {

// kDigitPairs[2 * n], kDigitPairs[2 * n + 1]: the two digits of n, 0 <= n < 100.
inline constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

}  // namespace pq
