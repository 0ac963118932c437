#include "format/file/random_access_file.h"

#include <atomic>
#include <utility>

#include "format/file/buffer_pool.h"
#include "format/file/local_file.h"
#include "format/file/memory_file.h"
#include "format/file/remote_random_access_file.h"
#include "format/remote/remote_access.h"
#include "format/remote/remote_url.h"

namespace pq {

namespace {
std::atomic<uint64_t> next_file_id{1};
}  // namespace

RandomAccessFile::RandomAccessFile(std::string path, int64_t size)
    : path_(std::move(path)), size_(size), id_(next_file_id.fetch_add(1, std::memory_order_relaxed)) {}

Result<std::unique_ptr<RandomAccessFile>> RandomAccessFile::Open(const std::string& path,
                                                                 remote::RemoteAccess* remote) {
  if (remote::IsRemoteLocation(path)) {
    std::unique_ptr<remote::RemoteAccess> defaults;
    if (remote == nullptr) {
      defaults = std::make_unique<remote::RemoteAccess>(nullptr, std::vector<remote::Setting>());
      remote = defaults.get();
    }
    PQ_ASSIGN_OR_RETURN(std::unique_ptr<remote::RemoteFile> object, remote->Open(path));
    return std::unique_ptr<RandomAccessFile>(std::make_unique<RemoteRandomAccessFile>(std::move(object), path));
  }
  PQ_ASSIGN_OR_RETURN(std::unique_ptr<LocalFile> file, LocalFile::Open(path));
  return std::unique_ptr<RandomAccessFile>(std::move(file));
}

Status RandomAccessFile::Revalidate(std::span<const RandomAccessFile* const> files) {
  std::vector<const remote::RemoteFile*> objects;
  for (const RandomAccessFile* f : files) {
    if (f->remote()) objects.push_back(&static_cast<const RemoteRandomAccessFile*>(f)->object());
  }
  if (objects.empty()) return Status::OK();
  std::vector<Result<bool>> changed = remote::RemoteFile::ChangedAll(objects);
  for (size_t i = 0; i < changed.size(); ++i) {
    if (!changed[i].ok()) return changed[i].status();
    if (*changed[i]) {
      const std::string what = objects[i]->change();
      return Status::IOError(objects[i]->display_name() + " changed since its footer was read" +
                             (what.empty() ? "" : " (" + what + ")") + "; the next scan reads it again");
    }
  }
  return Status::OK();
}

std::unique_ptr<RandomAccessFile> RandomAccessFile::FromBytes(std::string name, std::string bytes) {
  return std::make_unique<MemoryFile>(std::move(name), std::move(bytes));
}

Status RandomAccessFile::CheckRange(int64_t offset, int64_t length) const {
  if (offset < 0 || length < 0 || offset > size_ || length > size_ - offset) {
    return Status::Corruption("byte range [" + std::to_string(offset) + ", +" +
                              std::to_string(length) + ") is outside the file (size " +
                              std::to_string(size_) + ")");
  }
  return Status::OK();
}

Status RandomAccessFile::ReadInto(int64_t offset, int64_t length, uint8_t* out) const {
  PQ_RETURN_IF_ERROR(CheckRange(offset, length));
  return ReadBytes(offset, length, out);
}

Result<BufferPtr> RandomAccessFile::ReadAt(int64_t offset, int64_t length) const {
  PQ_RETURN_IF_ERROR(CheckRange(offset, length));
  // A recycled buffer: fresh memory would be faulted in and zeroed before the read overwrites it.
  std::shared_ptr<Buffer> buf = AcquireExactPooledBuffer(static_cast<size_t>(length));
  PQ_RETURN_IF_ERROR(ReadBytes(offset, length, buf->data()));
  return BufferPtr(std::move(buf));
}

Status RandomAccessFile::ReadRanges(std::span<const ByteRange> ranges, std::vector<BufferPtr>* out) const {
  for (const ByteRange& r : ranges) PQ_RETURN_IF_ERROR(CheckRange(r.offset, r.length));
  out->clear();
  out->reserve(ranges.size());
  for (const ByteRange& r : ranges) {
    PQ_ASSIGN_OR_RETURN(BufferPtr bytes, ReadAt(r.offset, r.length));
    out->push_back(std::move(bytes));
  }
  return Status::OK();
}

}  // namespace pq
