#include "format/file/remote_random_access_file.h"

#include <utility>

#include "format/file/buffer_pool.h"

namespace pq {

RemoteRandomAccessFile::RemoteRandomAccessFile(std::unique_ptr<remote::RemoteFile> file, std::string location)
    : RandomAccessFile(file->display_name(), file->size()), file_(std::move(file)), location_(std::move(location)) {}

Status RemoteRandomAccessFile::ReadBytes(int64_t offset, int64_t length, uint8_t* out) const {
  return file_->ReadInto(offset, length, out);
}

Status RemoteRandomAccessFile::ReadRanges(std::span<const ByteRange> ranges, std::vector<BufferPtr>* out) const {
  for (const ByteRange& r : ranges) {
    if (r.offset < 0 || r.length < 0 || r.offset > size() || r.length > size() - r.offset) {
      return Status::Corruption("byte range [" + std::to_string(r.offset) + ", +" + std::to_string(r.length) +
                                ") is outside the file (size " + std::to_string(size()) + ")");
    }
  }
  std::vector<std::shared_ptr<Buffer>> buffers;
  std::vector<remote::ReadRange> reads;
  buffers.reserve(ranges.size());
  reads.reserve(ranges.size());
  for (const ByteRange& r : ranges) {
    buffers.push_back(AcquireExactPooledBuffer(static_cast<size_t>(r.length)));
    reads.push_back({r.offset, r.length, buffers.back()->data()});
  }
  PQ_RETURN_IF_ERROR(file_->ReadRanges(reads));
  out->clear();
  out->reserve(buffers.size());
  for (auto& b : buffers) out->push_back(std::move(b));
  return Status::OK();
}

}  // namespace pq
