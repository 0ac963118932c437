// LocalFile: a RandomAccessFile of the local file system, read with pread(2). A dataset
// may have more files than the process may hold descriptors (often 1024), so LocalFile keeps at
// most MaxOpenFiles() descriptors open across the process (by default a quarter of the process's
// descriptor limit, between 16 and 512): opening one more closes the least recently read one, which
// opens its path again at its next read and checks that it is still the same file (device, inode,
// size and modification time); a file replaced in between is an IOError naming it, never bytes of
// another file. An open that finds the process out of descriptors closes half of those held here
// and tries once more.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "format/file/random_access_file.h"

namespace pq {

class LocalFile final : public RandomAccessFile {
 public:
  // IOError naming `path` when it cannot be opened or is a directory.
  static Result<std::unique_ptr<LocalFile>> Open(const std::string& path);
  ~LocalFile() override;

  int64_t mtime_ns() const override { return mtime_ns_; }
  // A fresh stat(2) of the path shows the size, modification time, device and inode it had when
  // this file was opened.
  bool Unchanged() const override;
  // Whether this file holds a descriptor now.
  bool descriptor_open() const;

  // The most descriptors all LocalFiles of the process hold at once (at least 1).
  static void SetMaxOpenFiles(size_t n);
  static size_t MaxOpenFiles();
  static size_t OpenDescriptors();

 protected:
  Status ReadBytes(int64_t offset, int64_t length, uint8_t* out) const override;

 private:
  friend class OpenFileList;
  LocalFile(int fd, std::string path, int64_t size, int64_t mtime_ns, uint64_t device, uint64_t inode)
      : RandomAccessFile(std::move(path), size), fd_(fd), mtime_ns_(mtime_ns), device_(device), inode_(inode) {}
  // Opens path() again (fd_ closed by the open-file list) and checks it is the same file. Holds
  // mu_.
  Status Reopen() const;

  mutable std::mutex mu_;  // fd_: reads, reopening, and closing by the open-file list
  mutable int fd_;         // -1: closed until the next read
  int64_t mtime_ns_;
  uint64_t device_;
  uint64_t inode_;
};

}  // namespace pq
