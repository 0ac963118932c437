#include "format/writer/output_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

namespace pq {
namespace {

// Small appends (page headers, index structs) are gathered up to this size; larger ones go
// straight to the system.
constexpr size_t kBufferBytes = size_t{256} << 10;

std::string ErrnoText(int err) {
  return std::strerror(err);
}

}  // namespace

Result<std::unique_ptr<OutputFile>> OutputFile::Create(const std::string& path) {
  PQ_ASSIGN_OR_RETURN(std::unique_ptr<LocalOutputFile> file, LocalOutputFile::Create(path));
  return std::unique_ptr<OutputFile>(std::move(file));
}

Result<std::unique_ptr<LocalOutputFile>> LocalOutputFile::Create(const std::string& path) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Status::IOError("cannot create '" + path + "': " + ErrnoText(errno));
  return std::unique_ptr<LocalOutputFile>(new LocalOutputFile(fd, path));
}

LocalOutputFile::~LocalOutputFile() {
  if (fd_ >= 0) ::close(fd_);
}

Status LocalOutputFile::WriteAll(const uint8_t* data, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd_, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      failure_ = Status::IOError("cannot write '" + path_ + "': " + ErrnoText(errno));
      return failure_;
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return Status::OK();
}

Status LocalOutputFile::FlushBuffer() {
  if (buffer_.empty()) return Status::OK();
  Status s = WriteAll(buffer_.data(), buffer_.size());
  buffer_.clear();
  return s;
}

Status LocalOutputFile::Append(ByteSpan data) {
  if (!failure_.ok()) return failure_;
  if (fd_ < 0) return Status::IOError("'" + path_ + "' is closed");
  if (buffer_.size() + data.size() <= kBufferBytes) {
    buffer_.insert(buffer_.end(), data.begin(), data.end());
  } else {
    PQ_RETURN_IF_ERROR(FlushBuffer());
    if (data.size() < kBufferBytes) {
      buffer_.insert(buffer_.end(), data.begin(), data.end());
    } else {
      PQ_RETURN_IF_ERROR(WriteAll(data.data(), data.size()));
    }
  }
  position_ += static_cast<int64_t>(data.size());
  return Status::OK();
}

Status LocalOutputFile::Truncate(int64_t position) {
  if (!failure_.ok()) return failure_;
  if (fd_ < 0) return Status::IOError("'" + path_ + "' is closed");
  if (position < 0 || position > position_) {
    return Status::InvalidArgument("cannot truncate '" + path_ + "' to " +
                                   std::to_string(position) + " bytes: it has " +
                                   std::to_string(position_));
  }
  PQ_RETURN_IF_ERROR(FlushBuffer());
  int rc;
  do {
    rc = ::ftruncate(fd_, static_cast<off_t>(position));
  } while (rc != 0 && errno == EINTR);
  if (rc != 0 || ::lseek(fd_, static_cast<off_t>(position), SEEK_SET) < 0) {
    failure_ = Status::IOError("cannot truncate '" + path_ + "': " + ErrnoText(errno));
    return failure_;
  }
  position_ = position;
  return Status::OK();
}

Status LocalOutputFile::Close() {
  if (!failure_.ok()) return failure_;
  if (fd_ < 0) return Status::IOError("'" + path_ + "' is closed");
  PQ_RETURN_IF_ERROR(FlushBuffer());
  if (::fsync(fd_) != 0) {
    failure_ = Status::IOError("cannot sync '" + path_ + "': " + ErrnoText(errno));
    return failure_;
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    failure_ = Status::IOError("cannot close '" + path_ + "': " + ErrnoText(errno));
    return failure_;
  }
  return Status::OK();
}

void LocalOutputFile::Remove() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  buffer_.clear();
  ::unlink(path_.c_str());
}

std::string TemporaryPathBeside(const std::string& target) {
  const size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : target.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
  std::random_device rd;
  char random[17];
  std::snprintf(random, sizeof random, "%08x%08x", rd(), rd());
  return dir + "." + name + ".tmp-" + std::to_string(::getpid()) + "-" + random;
}

std::string FolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

void SyncFolder(const std::string& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace pq
