#include "format/value/json_writer.h"

#include <charconv>
#include <cmath>

namespace pq {
namespace {

// True for the bytes a JSON string may not hold unescaped.
inline bool NeedsEscape(unsigned char c) {
  return c < 0x20 || c == '"' || c == '\\';
}

}  // namespace

void AppendJsonString(std::string_view text, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t run_start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (!NeedsEscape(c)) continue;
    out->append(text.data() + run_start, i - run_start);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
    } else {
      const char escape[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xf]};
      out->append(escape, sizeof(escape));
    }
    run_start = i + 1;
  }
  out->append(text.data() + run_start, text.size() - run_start);
  out->push_back('"');
}

void AppendJsonInt(int64_t v, std::string* out) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr);
}

void AppendJsonUInt(uint64_t v, std::string* out) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr);
}

void AppendJsonDouble(double v, std::string* out) {
  if (std::isnan(v)) {
    AppendJsonNull(out);
    return;
  }
  if (std::isinf(v)) {
    out->append(v > 0 ? "9e999" : "-9e999");
    return;
  }
  char buf[32];  // the shortest form of any double fits in 24 characters
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr);
  for (const char* p = buf; p < r.ptr; ++p) {
    if (*p == '.' || *p == 'e') return;
  }
  out->append(".0");  // "3" would read back as an integer
}

void AppendBase64(std::string_view bytes, std::string* out) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
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

void AppendJsonBase64(std::string_view bytes, std::string* out) {
  out->push_back('"');
  AppendBase64(bytes, out);
  out->push_back('"');
}

}  // namespace pq
