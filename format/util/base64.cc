#include "format/util/base64.h"

#include <cstdint>

namespace pq {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

void AppendBase64(std::string_view bytes, std::string* out) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  const size_t start = out->size();
  out->resize(start + (n + 2) / 3 * 4);
  char* dst = out->data() + start;
  size_t i = 0;
  for (; n - i >= 3; i += 3) {
    const uint32_t triple = (uint32_t{p[i]} << 16) | (uint32_t{p[i + 1]} << 8) | p[i + 2];
    *dst++ = kAlphabet[triple >> 18];
    *dst++ = kAlphabet[(triple >> 12) & 0x3f];
    *dst++ = kAlphabet[(triple >> 6) & 0x3f];
    *dst++ = kAlphabet[triple & 0x3f];
  }
  if (n - i == 1) {
    const uint32_t triple = uint32_t{p[i]} << 16;
    *dst++ = kAlphabet[triple >> 18];
    *dst++ = kAlphabet[(triple >> 12) & 0x3f];
    *dst++ = '=';
    *dst++ = '=';
  } else if (n - i == 2) {
    const uint32_t triple = (uint32_t{p[i]} << 16) | (uint32_t{p[i + 1]} << 8);
    *dst++ = kAlphabet[triple >> 18];
    *dst++ = kAlphabet[(triple >> 12) & 0x3f];
    *dst++ = kAlphabet[(triple >> 6) & 0x3f];
    *dst++ = '=';
  }
}

bool DecodeBase64(std::string_view text, std::string* out) {
  size_t n = text.size();
  size_t padding = 0;
  while (padding < 2 && n > 0 && text[n - 1] == '=') {
    --n;
    ++padding;
  }
  if (padding > 0 && text.size() % 4 != 0) return false;  // padding only completes a quantum
  if (n % 4 == 1) return false;                           // 6 bits cannot end a byte
  const size_t start = out->size();
  out->reserve(start + n / 4 * 3 + 2);
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; ++i) {
    const int v = Base64Value(text[i]);
    if (v < 0) {
      out->resize(start);
      return false;
    }
    acc = (acc << 6 | static_cast<uint32_t>(v)) & 0xFFFFFF;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  // What is left of the last character must be zero bits (the canonical encoding).
  if (bits > 0 && (acc & ((1u << bits) - 1)) != 0) {
    out->resize(start);
    return false;
  }
  return true;
}

}  // namespace pq
