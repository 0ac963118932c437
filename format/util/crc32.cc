#include "format/util/crc32.h"

#include <zlib.h>

#include <array>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PQ_CRC32_CLMUL 1
#endif

namespace pq {
namespace {

// zlib's table-driven CRC for what the folding below leaves (and where it is not available).
uint32_t Zlib(uint32_t crc, const uint8_t* p, size_t n) {
  if (n == 0) return crc;  // zlib treats a null buffer as "return the initial value"
  return static_cast<uint32_t>(crc32_z(crc, p, n));
}

#ifdef PQ_CRC32_CLMUL

// Folding with carry-less multiplication (Gopal et al., "Fast CRC Computation for Generic
// Polynomials Using PCLMULQDQ Instruction", Intel 2009). The CRC of a message is its polynomial
// times x^32 modulo P; a 128-bit block A followed by D more bits of message can be replaced by
// A * x^D mod P added into the block D bits later, without changing the CRC. With A's high and low
// 64-bit halves Ah, Al: A * x^D = Ah * x^(D+64) + Al * x^D, each a 64-bit half times a 32-bit
// constant, so one fold is two carry-less products and two xors. Folding 64 bytes at a time in four
// independent lanes, then the lanes into one block, leaves a 16-byte block whose CRC (from a zero
// register, which zlib's crc32 starts from when handed 0xFFFFFFFF) is the message's.
//
// The CRC is reflected: byte k's bit j is the coefficient of degree 8k + j counted from the front,
// so 16 bytes loaded little-endian hold the block's highest degree in bit 0. A reflected 64-bit
// half times a reflected constant rev64(c) gives the reflected product one bit short; the
// constants are taken one degree lower (x^(D-1), x^(D+63)) to make up for it.

// x^k mod P, P = x^32 + 0x04C11DB7 (not reflected: bit i is the coefficient of x^i).
uint64_t XPowerModP(int k) {
  uint64_t r = 1;
  for (int i = 0; i < k; ++i) {
    r <<= 1;
    if (r & (uint64_t{1} << 32)) r ^= uint64_t{0x104C11DB7};
  }
  return r;
}

uint64_t Reflect64(uint64_t v) {
  uint64_t r = 0;
  for (int i = 0; i < 64; ++i) r |= ((v >> i) & 1) << (63 - i);
  return r;
}

// The constants of a fold over D bits: for the low 64 bits of the loaded block (its high half as
// a polynomial) and for the high 64 bits.
struct FoldConstants {
  uint64_t low;
  uint64_t high;
};

FoldConstants ConstantsFor(int d) { return {Reflect64(XPowerModP(d + 63)), Reflect64(XPowerModP(d - 1))}; }

struct Constants {
  FoldConstants by512 = ConstantsFor(512);  // a lane over the three others' blocks
  FoldConstants by128 = ConstantsFor(128);  // a block into the next
};

const Constants& TheConstants() {
  static const Constants constants;
  return constants;
}

__attribute__((target("pclmul,sse4.1"))) inline __m128i Fold(__m128i a, __m128i k, __m128i next) {
  const __m128i lo = _mm_clmulepi64_si128(a, k, 0x00);
  const __m128i hi = _mm_clmulepi64_si128(a, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}

__attribute__((target("pclmul,sse4.1"))) inline __m128i Load(const uint8_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

// The CRC of p[0, n), n >= 64, continuing `crc`.
__attribute__((target("pclmul,sse4.1"))) uint32_t FoldedCrc(uint32_t crc, const uint8_t* p, size_t n) {
  const Constants& c = TheConstants();
  const __m128i k512 = _mm_set_epi64x(static_cast<long long>(c.by512.high), static_cast<long long>(c.by512.low));
  const __m128i k128 = _mm_set_epi64x(static_cast<long long>(c.by128.high), static_cast<long long>(c.by128.low));
  // The register's starting value (zlib's convention: the complement of the CRC so far) is added
  // into the message's first 32 bits.
  __m128i x0 = _mm_xor_si128(Load(p), _mm_cvtsi32_si128(static_cast<int>(~crc)));
  __m128i x1 = Load(p + 16);
  __m128i x2 = Load(p + 32);
  __m128i x3 = Load(p + 48);
  p += 64;
  n -= 64;
  for (; n >= 64; p += 64, n -= 64) {
    x0 = Fold(x0, k512, Load(p));
    x1 = Fold(x1, k512, Load(p + 16));
    x2 = Fold(x2, k512, Load(p + 32));
    x3 = Fold(x3, k512, Load(p + 48));
  }
  x1 = Fold(x0, k128, x1);
  x2 = Fold(x1, k128, x2);
  x3 = Fold(x2, k128, x3);
  for (; n >= 16; p += 16, n -= 16) x3 = Fold(x3, k128, Load(p));
  uint8_t block[16];
  _mm_storeu_si128(reinterpret_cast<__m128i*>(block), x3);
  return Zlib(Zlib(0xFFFFFFFFu, block, sizeof block), p, n);
}

bool HasClmul() {
  static const bool has = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  return has;
}

#endif  // PQ_CRC32_CLMUL

}  // namespace

uint32_t Crc32(ByteSpan data, uint32_t crc) {
#ifdef PQ_CRC32_CLMUL
  // Below a few blocks the table is as quick and the folding has nothing to fold.
  if (data.size() >= 256 && HasClmul()) return FoldedCrc(crc, data.data(), data.size());
#endif
  return Zlib(crc, data.data(), data.size());
}

}  // namespace pq
