// RandomAccessFile: the bytes of one file, read by range. Every reader of the engine (footer, pages,
// page indexes, Bloom filters) reads through this interface and nothing else, so where the bytes
// live is the implementation's business: LocalFile (local_file.h) reads the local file system,
// MemoryFile (memory_file.h) a string, RemoteRandomAccessFile (remote_random_access_file.h) an
// object behind an http(s):// URL or an s3:// URI. Implementations are safe to use from several
// threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "format/encoding/values.h"
#include "format/util/status.h"

namespace pq {

namespace remote {
class RemoteAccess;
}  // namespace remote

// The bytes [offset, offset + length) of a file.
struct ByteRange {
  int64_t offset = 0;
  int64_t length = 0;
};

class RandomAccessFile {
 public:
  // The file at `path` of the local file system (a LocalFile), or, for an http(s):// URL or an
  // s3:// URI, the object it names, reached through `remote` (a RemoteRandomAccessFile; null:
  // default settings, from the AWS environment).
  static Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path,
                                                        remote::RemoteAccess* remote = nullptr);
  // `bytes` held in memory under a display name (a MemoryFile: tests, fuzzing).
  static std::unique_ptr<RandomAccessFile> FromBytes(std::string name, std::string bytes);

  virtual ~RandomAccessFile() = default;
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  // Reads exactly `length` bytes at `offset`; Corruption if the range is outside the file.
  Result<BufferPtr> ReadAt(int64_t offset, int64_t length) const;
  Status ReadInto(int64_t offset, int64_t length, uint8_t* out) const;
  // Reads several ranges in one call: (*out)[i] gets the bytes of ranges[i]. Corruption, before
  // anything is read, when one is outside the file. A reader that needs several ranges at once (a
  // chunk's ColumnIndex and OffsetIndex) asks for them here, so that an implementation for which
  // every read is a round trip can merge neighbouring ranges and fetch the others in parallel. The
  // default reads them one by one.
  virtual Status ReadRanges(std::span<const ByteRange> ranges, std::vector<BufferPtr>* out) const;

  int64_t size() const { return size_; }
  // What messages call the file: its path (or URL, without password and query string).
  const std::string& path() const { return path_; }
  // What opens it again: the path, or the URL as given (a signed query string included). Never
  // shown in messages.
  virtual const std::string& location() const { return path_; }
  // A number no other RandomAccessFile of the process has or had (keys of PageCache).
  uint64_t id() const { return id_; }
  // Its modification time when it was opened, in nanoseconds since 1970; 0 when unknown.
  virtual int64_t mtime_ns() const { return 0; }
  // Change detection: whether what path() names still holds the bytes this file was opened on.
  // False when it was replaced, rewritten, truncated or removed since (a table then opens it again).
  // A remote file answers from what its requests have shown so far, without asking (see below).
  virtual bool Unchanged() const = 0;

  // True when every read is a round trip to a server (a remote object): callers then ask for the
  // ranges they will need together (ReadRanges), and check it per scan lazily: a read answered by
  // the server confirms the version opened (confirmations() grows); Revalidate asks.
  virtual bool remote() const { return false; }
  virtual uint64_t confirmations() const { return 0; }
  // Asks the servers whether the remote files among `files` are still the versions opened (one
  // HEAD request each, sent together); local files are not asked (Unchanged() is their check).
  // IOError naming the first that changed or cannot be asked.
  static Status Revalidate(std::span<const RandomAccessFile* const> files);

 protected:
  RandomAccessFile(std::string path, int64_t size);
  // Reads [offset, offset + length), which the caller checked lies inside the file, into `out`.
  virtual Status ReadBytes(int64_t offset, int64_t length, uint8_t* out) const = 0;

 private:
  // Corruption naming the range when it is not inside the file.
  Status CheckRange(int64_t offset, int64_t length) const;

  std::string path_;
  int64_t size_;
  uint64_t id_;
};

}  // namespace pq
