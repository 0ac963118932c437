// OutputFile: the file a FileWriter appends to, through a small buffer. Create() creates or
// truncates the file; Truncate() cuts it back to an earlier position. Close() writes out what is
// buffered, fsyncs and closes; only then is the content durable. Remove() closes and unlinks (for a
// writer that gives up). The destructor of a file neither closed nor removed closes it and leaves
// it on disk.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "format/encoding/values.h"
#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq {

class OutputFile {
 public:
  static Result<std::unique_ptr<OutputFile>> Create(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // IOError naming the path when the system refuses; the file is then unusable.
  Status Append(ByteSpan data);
  // Bytes appended so far: the offset the next Append writes at.
  int64_t position() const { return position_; }
  // Cuts the file back to its first `position` bytes (at most position()); the next Append writes
  // there. IOError naming the path when the system refuses; the file is then unusable.
  Status Truncate(int64_t position);
  // Writes the buffer out, fsyncs and closes.
  Status Close();
  // Closes (if open) and deletes the file. Errors are ignored: this is the cleanup path.
  void Remove();
  const std::string& path() const { return path_; }

 private:
  OutputFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  Status WriteAll(const uint8_t* data, size_t n);
  Status FlushBuffer();

  int fd_;
  std::string path_;
  Buffer buffer_;
  int64_t position_ = 0;
  Status failure_;
};

// Publishing a finished file or folder by rename(2): the temporary it is written as, beside the
// target, and the folder syncs that make the rename durable. The one home of both for the export
// and its partitioned form.
//
// The path of a temporary beside `target`, in the same folder so that a rename publishes it:
// ".NAME.tmp-PID-RANDOM" (16 random hex digits). Its leading '.' keeps globs and `**` from seeing it.
std::string TemporaryPathBeside(const std::string& target);
// The folder holding `path`: "." for a bare name, "/" for an entry of the root.
std::string FolderOf(const std::string& path);
// fsync(2) of `folder`, so that renames in it are durable. Best effort: errors are ignored.
void SyncFolder(const std::string& folder);

}  // namespace pq
