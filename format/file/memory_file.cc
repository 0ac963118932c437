#include "format/file/memory_file.h"

#include <cstring>
#include <utility>

namespace pq {

MemoryFile::MemoryFile(std::string name, std::string bytes)
    : RandomAccessFile(std::move(name), static_cast<int64_t>(bytes.size())), bytes_(std::move(bytes)) {}

Status MemoryFile::ReadBytes(int64_t offset, int64_t length, uint8_t* out) const {
  if (length > 0) std::memcpy(out, bytes_.data() + offset, static_cast<size_t>(length));
  return Status::OK();
}

}  // namespace pq
