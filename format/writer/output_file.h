// OutputFile: what a FileWriter appends to. LocalOutputFile is a file of the local file system,
// written through a small buffer: Create() creates or truncates it, Truncate() cuts it back to an
// earlier position, Close() writes out what is buffered, fsyncs and closes (only then is the
// content durable), Remove() closes and unlinks (for a writer that gives up); the destructor of a
// file neither closed nor removed closes it and leaves it on disk. S3 objects plug in the same way
// (writer/s3_output_file_adapter.h).
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
  // A LocalOutputFile at `path`.
  static Result<std::unique_ptr<OutputFile>> Create(const std::string& path);
  OutputFile() = default;
  virtual ~OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // An error naming the file when it cannot be written; the file is then unusable.
  virtual Status Append(ByteSpan data) = 0;
  // Bytes appended so far: the offset the next Append writes at.
  virtual int64_t position() const = 0;
  // Cuts the file back to its first `position` bytes (at most position()); the next Append writes
  // there. An error naming the path when that cannot be done; the file is then unusable.
  virtual Status Truncate(int64_t position) = 0;
  // Stores everything appended, durably.
  virtual Status Close() = 0;
  // Gives up: nothing of the file remains. Errors are ignored: this is the cleanup path.
  virtual void Remove() = 0;
  virtual const std::string& path() const = 0;
};

class LocalOutputFile final : public OutputFile {
 public:
  static Result<std::unique_ptr<LocalOutputFile>> Create(const std::string& path);
  ~LocalOutputFile() override;

  // IOError naming the path when the system refuses.
  Status Append(ByteSpan data) override;
  int64_t position() const override { return position_; }
  Status Truncate(int64_t position) override;
  // Writes the buffer out, fsyncs and closes.
  Status Close() override;
  // Closes (if open) and deletes the file.
  void Remove() override;
  const std::string& path() const override { return path_; }

 private:
  LocalOutputFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
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
