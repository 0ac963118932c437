// Status and Result<T>: every failure in the engine is a value, never an exception. A Status
// carries a code (what kind of failure) and a message that names where it happened: file, row
// group, column and page, added by each layer on the way up with WithContext(). The SQLite layer
// turns a Status into an SQLite error in one place (ext/guard.h).
#pragma once

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace pq {

enum class StatusCode {
  kOk = 0,
  kCorruption,       // the bytes contradict the format
  kNotSupported,     // valid Parquet that this engine does not handle (e.g. LZO)
  kInvalidArgument,  // a bad option, a bad call, a value that does not fit
  kIOError,          // the operating system said no
  kOutOfMemory,      // an allocation over a configured cap
  kCrypto,           // a missing or wrong key, a failed authentication tag
  kChecksum,         // a page CRC-32 that does not match
  kInterrupted,      // the caller asked to stop (SQLite's interrupt) while a request waited
};

const char* StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status OK() { return Status(); }
  static Status Corruption(std::string m) { return Status(StatusCode::kCorruption, std::move(m)); }
  static Status NotSupported(std::string m) { return Status(StatusCode::kNotSupported, std::move(m)); }
  static Status InvalidArgument(std::string m) {
    return Status(StatusCode::kInvalidArgument, std::move(m));
  }
  static Status IOError(std::string m) { return Status(StatusCode::kIOError, std::move(m)); }
  static Status OutOfMemory(std::string m) { return Status(StatusCode::kOutOfMemory, std::move(m)); }
  static Status Crypto(std::string m) { return Status(StatusCode::kCrypto, std::move(m)); }
  static Status Checksum(std::string m) { return Status(StatusCode::kChecksum, std::move(m)); }
  static Status Interrupted(std::string m) { return Status(StatusCode::kInterrupted, std::move(m)); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  bool IsCorruption() const { return code_ == StatusCode::kCorruption; }
  bool IsNotSupported() const { return code_ == StatusCode::kNotSupported; }
  bool IsInvalidArgument() const { return code_ == StatusCode::kInvalidArgument; }

  // "Corruption: <message>"
  std::string ToString() const;

  // Prefixes the message with where the failure happened: "file.parquet, row group 2: ...".
  // A no-op on OK.
  Status WithContext(std::string_view where) const&;
  Status WithContext(std::string_view where) &&;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Either a value or a failed Status. Accessing value() of a failed Result is a programming error.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit on purpose
  Result(Status status) : v_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(v_).ok() && "Result built from an OK status");
  }

  bool ok() const { return v_.index() == 0; }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<1>(v_);
  }
  Status TakeStatus() && { return ok() ? Status() : std::move(std::get<1>(v_)); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace pq

#define PQ_CONCAT_INNER(a, b) a##b
#define PQ_CONCAT(a, b) PQ_CONCAT_INNER(a, b)

// Returns the Status from the enclosing function if `expr` (a Status) failed.
#define PQ_RETURN_IF_ERROR(expr)              \
  do {                                        \
    ::pq::Status pq_status_ = (expr);         \
    if (!pq_status_.ok()) return pq_status_;  \
  } while (0)

#define PQ_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)   \
  auto tmp = (expr);                               \
  if (!tmp.ok()) return std::move(tmp).TakeStatus(); \
  lhs = std::move(tmp).value()

// `PQ_ASSIGN_OR_RETURN(auto x, ReadThing());` declares/assigns x or returns the failure.
#define PQ_ASSIGN_OR_RETURN(lhs, expr) \
  PQ_ASSIGN_OR_RETURN_IMPL(PQ_CONCAT(pq_result_, __LINE__), lhs, expr)
