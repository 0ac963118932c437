// RemoteFile: one object behind HTTP(S) or S3, read by byte ranges with few requests: the tail in
// one suffix-range request at Open (so a footer that fits costs nothing more), then several ranges
// at once, joined where they are close and sent together. Every answer must come from the version
// opened (ETag, Last-Modified, size), so a reader never gets bytes of two versions of an object.
// Thread-safe: reads from several threads share the immutable tail and the HttpClient. Every
// request and body byte counts in the file's counters and in the calling thread's RequestTally, if
// one is installed.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "format/remote/http_client.h"
#include "format/remote/s3_client.h"

namespace pq::remote {

struct RemoteFileOptions {
  // The tail Open asks for. A round trip to an object store (20-100 ms to the first byte) costs more
  // than a few hundred kilobytes of transfer (256 KiB is ~3 ms at 100 MB/s), and a file with many row
  // groups or columns keeps its page indexes just before a footer that alone can pass 64 KiB: 256 KiB
  // brings both in the common case, so a scan needs no request for them.
  int64_t footer_guess = 256 << 10;
  // Ranges closer than this are joined into one request, the gap's bytes fetched and dropped. The
  // requests of one read go out 8 at a time, so joining saves requests (which object stores bill
  // and rate-limit) more than time; a gap is joined only while it stays small next to a page.
  int64_t coalesce_gap = 32 << 10;
  int64_t max_request_bytes = int64_t{16} << 20;
  int64_t max_unranged_bytes = int64_t{1} << 30;
};

// How to reach one object: its display name, the client to send with, and a request of a given
// method to it (signed for S3) to which RemoteFile adds the range.
struct RemoteLocation {
  std::string display_name;
  std::shared_ptr<HttpClient> http;
  std::function<HttpRequest(std::string_view method)> make_request;
};

// An http(s) URL (the client's extra headers and bearer token go along).
RemoteLocation HttpLocation(std::shared_ptr<HttpClient> http, const std::string& url);
// An S3 object, named "s3://bucket/key".
RemoteLocation S3Location(std::shared_ptr<S3Client> s3, const std::string& bucket, const std::string& key);

// One range to read and where its bytes go (`length` bytes at `out`).
struct ReadRange {
  int64_t offset = 0;
  int64_t length = 0;
  uint8_t* out = nullptr;
};

// Requests and body bytes counted for whoever installed the tally.
struct RequestTally {
  int64_t requests = 0;
  int64_t bytes = 0;
};

// Installs `tally` (may be null: none) on the calling thread for this object's lifetime, restoring
// the one installed before.
class ScopedRequestTally {
 public:
  explicit ScopedRequestTally(RequestTally* tally);
  ~ScopedRequestTally();
  ScopedRequestTally(const ScopedRequestTally&) = delete;
  ScopedRequestTally& operator=(const ScopedRequestTally&) = delete;

 private:
  RequestTally* previous_;
};

// Open() asks for the object's last `footer_guess` bytes in one suffix-range request
// ("bytes=-262144"), which also gives the object's size (Content-Range) and version (ETag,
// Last-Modified); those tail bytes are kept, so a Parquet footer that fits in them is parsed with
// no further request, and a larger one costs one more request for the part before the tail. A
// server that ignores Range answers the whole object: it is then kept whole (up to
// `max_unranged_bytes`) and every read is served from memory.
//
// ReadRanges() reads several ranges at once: bytes held in the tail are copied, the rest sorted and
// joined where the gap between two ranges is at most `coalesce_gap` (the gap's bytes are fetched
// and dropped: one round trip costs more than a few kilobytes), ranges over `max_request_bytes`
// split, and the requests sent together, a few at a time (HttpClient::SendAll). Every answer must
// come from the version opened: an ETag, Last-Modified or size that differs is an IOError naming
// the object ("changed since it was opened"), never bytes of two versions; strong ETags are also
// sent as If-Match, so servers that check it refuse a changed object themselves (412). Changed()
// asks again (HEAD, or GET of one byte) for a per-scan check.
class RemoteFile {
 public:
  static Result<std::unique_ptr<RemoteFile>> Open(RemoteLocation location, RemoteFileOptions options = {});

  // Reads exactly `length` bytes at `offset`; Corruption when the range is outside the object.
  Status ReadInto(int64_t offset, int64_t length, uint8_t* out) const;
  Status ReadRanges(std::span<const ReadRange> ranges) const;

  int64_t size() const { return size_; }
  const std::string& display_name() const { return location_.display_name; }
  const std::string& etag() const { return etag_; }
  const std::string& last_modified() const { return last_modified_; }
  // The bytes Open kept: [tail_offset(), size()).
  int64_t tail_offset() const { return tail_offset_; }
  // True when the server ignores Range and the whole object is held.
  bool held_whole() const { return tail_offset_ == 0 && whole_; }

  // Whether the object now differs (ETag, else Last-Modified, and size) from the version opened:
  // one HEAD request, or where the server refuses HEAD (405, 403, 501) one more, a GET of the first
  // byte (bytes=0-0), whose answer carries the version too. A changed object stays known as
  // changed (changed_seen()).
  Result<bool> Changed() const;
  // Changed() of several files at once: the requests go out together, a few at a time.
  static std::vector<Result<bool>> ChangedAll(std::span<const RemoteFile* const> files);

  // True once any answer showed the object is no longer the version opened (a range answer with
  // another ETag or size, a 412, a HEAD): no request is made here.
  bool changed_seen() const { return changed_seen_.load(std::memory_order_relaxed); }
  // What showed the first change seen ("ETag \"a\" became \"b\"", "HTTP 404 to HEAD"); "" while none.
  std::string change() const;
  // Answers that confirmed the version opened: grows with every range answer checked and every HEAD
  // that found the object unchanged, when the answer carries the ETag the object was opened with
  // (else its Last-Modified, if it had one): an answer without it confirms nothing. A scan that
  // sees it grow knows the object was checked.
  uint64_t confirmations() const { return confirmations_.load(std::memory_order_relaxed); }

  // Requests sent (every try) and body bytes received for this file, Open's included.
  int64_t requests() const { return requests_.load(std::memory_order_relaxed); }
  int64_t bytes_fetched() const { return bytes_fetched_.load(std::memory_order_relaxed); }

 private:
  RemoteFile(RemoteLocation location, RemoteFileOptions options)
      : location_(std::move(location)), options_(options) {}
  // Checks that `response` (to a range request) comes from the version opened (ETag, Last-Modified
  // where the ETag is missing on either side, size); counts a confirmation, or remembers the change
  // (and sets *changed_now). An answer with none of the validators the object was opened with is an
  // IOError too, not a change: nothing shows which version it is.
  Status CheckVersion(const HttpResponse& response, bool* changed_now = nullptr) const;
  // Remembers that the object changed, and the first `what` that showed it.
  void NoteChange(const std::string& what) const;
  // Judges the answer to Changed()'s HEAD or GET of the first byte: true when the object changed.
  Result<bool> JudgeCheck(const std::string& method, const std::string& url, HttpResponse response) const;
  HttpRequest RangeRequest(int64_t offset, int64_t length, uint8_t* out) const;
  void Count(const HttpResponse& response) const;

  RemoteLocation location_;
  RemoteFileOptions options_;
  int64_t size_ = 0;
  std::string etag_;
  std::string last_modified_;
  std::string tail_;  // bytes [tail_offset_, size_)
  int64_t tail_offset_ = 0;
  bool whole_ = false;
  mutable std::atomic<int64_t> requests_{0};
  mutable std::atomic<int64_t> bytes_fetched_{0};
  mutable std::atomic<uint64_t> confirmations_{0};
  mutable std::atomic<bool> changed_seen_{false};
  mutable std::mutex change_mu_;
  mutable std::string change_;  // guarded by change_mu_
};

}  // namespace pq::remote
