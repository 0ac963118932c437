// MemoryFile: a RandomAccessFile whose bytes are held in memory under a display name (tests and
// fuzzing read files they built or altered this way). It never changes.
#pragma once

#include <cstdint>
#include <string>

#include "format/file/random_access_file.h"

namespace pq {

class MemoryFile final : public RandomAccessFile {
 public:
  MemoryFile(std::string name, std::string bytes);
  bool Unchanged() const override { return true; }

 protected:
  Status ReadBytes(int64_t offset, int64_t length, uint8_t* out) const override;

 private:
  std::string bytes_;
};

}  // namespace pq
