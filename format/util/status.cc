#include "format/util/status.h"

namespace pq {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kCorruption: return "Corruption";
    case StatusCode::kNotSupported: return "Not supported";
    case StatusCode::kInvalidArgument: return "Invalid argument";
    case StatusCode::kIOError: return "I/O error";
    case StatusCode::kOutOfMemory: return "Out of memory";
    case StatusCode::kCrypto: return "Crypto error";
    case StatusCode::kChecksum: return "Checksum mismatch";
    case StatusCode::kInterrupted: return "Interrupted";
  }
  return "Unknown";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(StatusCodeName(code_)) + ": " + message_;
}

Status Status::WithContext(std::string_view where) const& {
  Status copy = *this;
  return std::move(copy).WithContext(where);
}

Status Status::WithContext(std::string_view where) && {
  if (ok() || where.empty()) return std::move(*this);
  message_ = std::string(where) + ": " + message_;
  return std::move(*this);
}

}  // namespace pq
