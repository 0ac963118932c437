#include "format/util/json_writer.h"

#include <charconv>
#include <cmath>

#include "format/util/base64.h"
#include "format/util/hex.h"

namespace pq {
namespace {

// True for the bytes a JSON string may not hold unescaped.
inline bool NeedsEscape(unsigned char c) {
  return c < 0x20 || c == '"' || c == '\\';
}

}  // namespace

void AppendJsonString(std::string_view text, std::string* out) {
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
      const char escape[6] = {'\\', 'u', '0', '0', kLowerHexDigits[c >> 4], kLowerHexDigits[c & 0xf]};
      out->append(escape, sizeof(escape));
    }
    run_start = i + 1;
  }
  out->append(text.data() + run_start, text.size() - run_start);
  out->push_back('"');
}

size_t JsonStringLength(std::string_view text) {
  size_t n = text.size() + 2;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (NeedsEscape(c)) n += c == '"' || c == '\\' ? 1 : 5;
  }
  return n;
}

void AppendJsonInt(int64_t v, std::string* out) {
  char buf[kMaxJsonIntChars];
  out->append(buf, static_cast<size_t>(WriteJsonInt(v, buf) - buf));
}

void AppendJsonUInt(uint64_t v, std::string* out) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, static_cast<size_t>(r.ptr - buf));
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
  out->append(buf, static_cast<size_t>(r.ptr - buf));
  for (const char* p = buf; p < r.ptr; ++p) {
    if (*p == '.' || *p == 'e') return;
  }
  out->append(".0");  // "3" would read back as an integer
}

void AppendJsonBase64(std::string_view bytes, std::string* out) {
  out->push_back('"');
  AppendBase64(bytes, out);
  out->push_back('"');
}

}  // namespace pq
