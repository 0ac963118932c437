// Test helper: builds Variant metadata and value bytes by hand, following
// The Parquet type spec ("Variant Binary Encoding"), with every size choice the
// encoding allows (1-4 byte field ids and offsets, 1 or 4 byte element counts, field values stored
// in any order) so that tests can reach each decoding path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace pq::testing {

// n little-endian bytes of v.
inline std::string LittleEndian(uint64_t v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  return s;
}

template <typename T>
std::string RawBytes(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

inline std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (unsigned char c : bytes) {
    s.push_back(kHex[c >> 4]);
    s.push_back(kHex[c & 0xF]);
  }
  return s;
}

inline std::string FromHex(std::string_view hex) {
  std::string s;
  auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    s.push_back(static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1])));
  }
  return s;
}

// Metadata: header (version 1, sorted flag, offset size), dictionary size, offsets, strings.
inline std::string Metadata(const std::vector<std::string>& names, int offset_size = 1,
                            bool sorted = false) {
  std::string s;
  s.push_back(static_cast<char>(1 | (sorted ? 0x10 : 0) | ((offset_size - 1) << 6)));
  s += LittleEndian(names.size(), offset_size);
  uint64_t offset = 0;
  s += LittleEndian(0, offset_size);
  for (const std::string& n : names) {
    offset += n.size();
    s += LittleEndian(offset, offset_size);
  }
  for (const std::string& n : names) s += n;
  return s;
}

inline std::string Primitive(uint8_t type_id, std::string_view payload = {}) {
  return std::string(1, static_cast<char>(type_id << 2)) + std::string(payload);
}
inline std::string ShortString(std::string_view text) {
  return std::string(1, static_cast<char>(1 | (text.size() << 2))) + std::string(text);
}
inline std::string LongString(std::string_view text) {
  return Primitive(16, LittleEndian(text.size(), 4) + std::string(text));
}

struct FieldBytes {
  uint32_t id;
  std::string value;
};

// The bytes an unsigned value needs (1 to 4).
inline int BytesFor(uint64_t v) {
  int n = 1;
  while (n < 4 && v >= (uint64_t{1} << (8 * n))) ++n;
  return n;
}

// Sizes a container is written with; an offset size too small for the data is widened.
struct ContainerSizes {
  int id_size = 1;
  int offset_size = 1;
  bool large = false;
  bool values_reversed = false;  // store the values last to first (offsets then decrease)
};

// Fields are written in the order given (the spec wants them sorted by name; tests choose).
inline std::string Object(const std::vector<FieldBytes>& fields, ContainerSizes z = {}) {
  uint64_t total = 0;
  for (const FieldBytes& f : fields) total += f.value.size();
  z.offset_size = std::max(z.offset_size, BytesFor(total));
  std::string s;
  const int header = (z.large ? 0x10 : 0) | ((z.id_size - 1) << 2) | (z.offset_size - 1);
  s.push_back(static_cast<char>(2 | (header << 2)));
  s += LittleEndian(fields.size(), z.large ? 4 : 1);
  for (const FieldBytes& f : fields) s += LittleEndian(f.id, z.id_size);
  std::vector<uint64_t> offsets(fields.size());
  std::string data;
  for (size_t k = 0; k < fields.size(); ++k) {
    const size_t i = z.values_reversed ? fields.size() - 1 - k : k;
    offsets[i] = data.size();
    data += fields[i].value;
  }
  for (uint64_t o : offsets) s += LittleEndian(o, z.offset_size);
  s += LittleEndian(data.size(), z.offset_size);
  return s + data;
}

inline std::string Array(const std::vector<std::string>& elements, ContainerSizes z = {}) {
  uint64_t total = 0;
  for (const std::string& e : elements) total += e.size();
  z.offset_size = std::max(z.offset_size, BytesFor(total));
  std::string s;
  const int header = (z.large ? 0x4 : 0) | (z.offset_size - 1);
  s.push_back(static_cast<char>(3 | (header << 2)));
  s += LittleEndian(elements.size(), z.large ? 4 : 1);
  uint64_t offset = 0;
  for (const std::string& e : elements) {
    s += LittleEndian(offset, z.offset_size);
    offset += e.size();
  }
  s += LittleEndian(offset, z.offset_size);
  for (const std::string& e : elements) s += e;
  return s;
}

}  // namespace pq::testing
