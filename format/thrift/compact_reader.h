// CompactReader: reads values of the Thrift compact protocol from untrusted bytes.
//
// Every Parquet metadata structure is a Thrift struct in the compact protocol
// (the Thrift compact protocol specification). This reader knows the wire format only, not the
// Parquet structs: format/metadata/metadata_io.cc drives it field by field. It reads through a
// ByteReader, so no read goes past the end of its input; it checks container sizes against the
// bytes left before a caller allocates, refuses over-long varints, and caps the nesting depth of
// structs, lists, sets and maps (kMaxDepth) so that a hostile input cannot exhaust the stack while
// skipping. After a read fails the reader's position and depth are unspecified: callers stop and
// report.
//
// The common cases (one-byte field headers, varints of up to 4 or 9 bytes with the end of the input
// not in reach) are decoded inline; everything else, including every error, goes through
// ByteReader.
//
// Memory. Checking sizes against the bytes left bounds what a caller allocates by the input's
// length, but not by much: an element of three bytes may become a struct of hundreds. So the
// reader also keeps an allowance for what the caller builds from the input (ChargeMemory, which
// ReadString and the metadata readers call before they allocate): once the charges pass
// memory_limit(), they fail with OutOfMemory, before the allocation is made.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq::thrift {

// Field and element types of the compact protocol ("Structs and unions", "Lists and sets").
enum class CompactType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,   // as a field: a bool true; as a list element type: bool (either 1 or 2)
  kBoolFalse = 2,  // as a field: a bool false
  kI8 = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
  kUuid = 13,
};

// A name for messages ("i32", "struct", ...); unknown values print as their number.
std::string CompactTypeName(CompactType type);

// True for the two encodings of a bool (as a field type or as a list element type).
inline bool IsBoolType(CompactType t) {
  return t == CompactType::kBoolTrue || t == CompactType::kBoolFalse;
}

// One field header. `type` is kStop at the end of a struct (and `id` is then 0).
struct FieldHeader {
  CompactType type = CompactType::kStop;
  int16_t id = 0;
  // For a bool field, its value (the compact protocol keeps it in the header's type nibble).
  bool bool_value() const { return type == CompactType::kBoolTrue; }
};

// A list or set header. `size` has been checked: size * (minimum bytes of one element) <= bytes
// left.
struct ListHeader {
  CompactType element_type = CompactType::kStop;  // bool elements report kBoolTrue
  uint32_t size = 0;
};

// A map header; for an empty map the key and value types are kStop.
struct MapHeader {
  CompactType key_type = CompactType::kStop;
  CompactType value_type = CompactType::kStop;
  uint32_t size = 0;
};

class CompactReader {
 public:
  // Nesting beyond this many structs/containers is Corruption.
  static constexpr int kMaxDepth = 64;

  explicit CompactReader(ByteSpan data, int64_t memory_limit = INT64_MAX)
      : in_(data), memory_limit_(memory_limit) {}

  size_t position() const { return in_.position(); }
  size_t remaining() const { return in_.remaining(); }

  // Struct framing. BeginStruct enters one nesting level (Corruption beyond kMaxDepth); EndStruct,
  // called once the stop field was read, leaves it. Field ids are relative to the previous field of
  // the same struct: the caller keeps that id and passes it to ReadFieldHeader.
  Status BeginStruct() {
    if (depth_ >= kMaxDepth) return TooDeep();
    ++depth_;
    return Status::OK();
  }
  void EndStruct() { --depth_; }

  // Reads a field header (short form: delta 1..15 from `previous_id`; long form: delta 0 then the
  // id as a zigzag i16). Returns type kStop at the end of the struct. Types outside 1..13 are
  // Corruption.
  Result<FieldHeader> ReadFieldHeader(int16_t previous_id) {
    // Fast path: a stop byte, or a short-form header whose id stays in i16 range.
    if (in_.remaining() > 0) {
      const uint8_t byte = *in_.current();
      const uint8_t type = byte & 0x0f;
      const uint8_t delta = byte >> 4;
      if (type == 0 || (type <= 13 && delta != 0 && previous_id <= INT16_MAX - 15)) {
        (void)in_.Skip(1);
        FieldHeader h;
        if (type != 0) {
          h.type = static_cast<CompactType>(type);
          h.id = static_cast<int16_t>(previous_id + delta);
        }
        return h;
      }
    }
    return ReadFieldHeaderSlow(previous_id);
  }

  Result<int8_t> ReadI8();
  Result<int16_t> ReadI16();
  Result<int32_t> ReadI32() {
    uint64_t zz;
    if (TryReadShortVarint<4>(&zz)) return static_cast<int32_t>((zz >> 1) ^ (~(zz & 1) + 1));
    return in_.ReadZigZag32();  // 5-byte varints, the end of the input and all errors
  }
  Result<int64_t> ReadI64() {
    uint64_t zz;
    if (TryReadShortVarint<9>(&zz)) return static_cast<int64_t>((zz >> 1) ^ (~(zz & 1) + 1));
    return in_.ReadZigZag64();
  }
  Result<double> ReadDouble();
  // A bool list element: one byte, 1 is true (anything else false, as Thrift reads it).
  Result<bool> ReadBoolElement();
  // binary/string: a varint length, checked against the bytes left, then the bytes. The span points
  // into the input and lives as long as it.
  Result<ByteSpan> ReadBinary();
  // ReadBinary into a string (reuses its capacity); charges the bytes a string holds beyond its
  // own object (ChargeMemory).
  Status ReadString(std::string* out);
  // 16 raw bytes.
  Result<ByteSpan> ReadUuid();

  // A list or set header. Refuses element types outside 1..13 when the size is not 0 and sizes
  // larger than the remaining bytes allow (an element takes at least MinimumSize(type) bytes), so a
  // caller may reserve `size` elements without further checks.
  Result<ListHeader> ReadListHeader();
  // A map header, sizes checked the same way (a pair takes at least two bytes).
  Result<MapHeader> ReadMapHeader();

  // Counts `bytes` the caller is about to allocate for what it parses; OutOfMemory when the total
  // would pass memory_limit().
  Status ChargeMemory(size_t bytes) {
    if (bytes > static_cast<uint64_t>(memory_limit_ - memory_charged_)) return OverMemoryLimit(bytes);
    memory_charged_ += static_cast<int64_t>(bytes);
    return Status::OK();
  }
  int64_t memory_charged() const { return memory_charged_; }
  int64_t memory_limit() const { return memory_limit_; }

  // Skips one value of `type` (as met in a field header; kBoolTrue/kBoolFalse take no bytes),
  // recursing into structs and containers up to kMaxDepth.
  Status SkipField(CompactType type);
  // Skips one list element of `type` (bool elements take one byte).
  Status SkipElement(CompactType type);

  // The fewest bytes one element of `type` can take (bool elements: 1, double: 8, uuid: 16, ...).
  static size_t MinimumSize(CompactType element_type);

 private:
  // The fast path of varint decoding: a varint of at most kBytes bytes (too few to overflow the
  // type being read) that ends before the input does. Returns false, consuming nothing, otherwise;
  // the caller then takes the checked path of ByteReader, which also reports the errors.
  template <size_t kBytes>
  bool TryReadShortVarint(uint64_t* out) {
    const uint8_t* p = in_.current();
    const size_t n = in_.remaining() < kBytes ? in_.remaining() : kBytes;
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) {
      v |= uint64_t{p[i] & 0x7fu} << (7 * i);
      if ((p[i] & 0x80) == 0) {
        (void)in_.Skip(i + 1);  // i + 1 <= remaining()
        *out = v;
        return true;
      }
    }
    return false;
  }
  Result<FieldHeader> ReadFieldHeaderSlow(int16_t previous_id);
  Status TooDeep() const;
  Status OverMemoryLimit(size_t bytes) const;
  Status SkipStruct();
  Status SkipList();
  Status SkipMap();
  Result<uint32_t> ReadSize(const char* what);

  ByteReader in_;
  int depth_ = 0;
  int64_t memory_limit_;
  int64_t memory_charged_ = 0;
};

}  // namespace pq::thrift
