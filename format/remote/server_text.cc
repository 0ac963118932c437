#include "format/remote/server_text.h"

#include "format/util/hex.h"

namespace pq::remote {

std::string ServerText(std::string_view text) {
  const bool cut = text.size() > kMaxServerTextBytes;
  if (cut) text = text.substr(0, kMaxServerTextBytes);
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(ch);
    } else {
      out += "\\x";
      out.push_back(kUpperHexDigits[c >> 4]);
      out.push_back(kUpperHexDigits[c & 15]);
    }
  }
  if (cut) out += "...";
  return out;
}

}  // namespace pq::remote
