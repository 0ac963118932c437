// RemoteRandomAccessFile: a RandomAccessFile whose bytes are an object behind HTTP(S) or S3
// (remote/remote_file.h), so the footer, page indexes, Bloom filters and pages of a remote file
// are read by the same code as those of a local one.
//
// Every read is a round trip, so remote() is true: readers that need several ranges at once ask
// for them in one ReadRanges call, which joins neighbouring ranges and fetches the rest in
// parallel. The footer comes from the tail the object's opening request brought along.
//
// Change detection is cheap and lazy: Unchanged() makes no request and is false once any answer
// showed the object changed (range answers carry If-Match and are checked for ETag, Last-Modified
// and size); confirmations() counts the answers that showed it unchanged, and Revalidate() asks with
// a HEAD request. A changed object is an IOError naming it, never bytes of two versions.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "format/file/random_access_file.h"
#include "format/remote/remote_file.h"

namespace pq {

class RemoteRandomAccessFile final : public RandomAccessFile {
 public:
  // `location` is the URL as given (what opens it again).
  RemoteRandomAccessFile(std::unique_ptr<remote::RemoteFile> file, std::string location);

  Status ReadRanges(std::span<const ByteRange> ranges, std::vector<BufferPtr>* out) const override;
  bool Unchanged() const override { return !file_->changed_seen(); }
  bool remote() const override { return true; }
  uint64_t confirmations() const override { return file_->confirmations(); }

  const std::string& location() const override { return location_; }
  const remote::RemoteFile& object() const { return *file_; }

 protected:
  Status ReadBytes(int64_t offset, int64_t length, uint8_t* out) const override;

 private:
  std::unique_ptr<remote::RemoteFile> file_;
  std::string location_;
};

}  // namespace pq
