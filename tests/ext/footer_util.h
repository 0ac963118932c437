// Files with a rewritten footer: a file written by the extension, its metadata changed by a test,
// for cases a writer would not produce (bad offsets, missing statistics, hand-made structures).
#pragma once

#include <cstdint>
#include <string>

#include "format/metadata/metadata.h"
#include "format/metadata/metadata_io.h"

namespace pq::testing {

// A Parquet file of `body` (the bytes before a footer: the original file's first
// size - 8 - footer_length bytes, plus anything appended) with `md` serialized as its footer.
inline std::string WithFooter(std::string body, const FileMetaData& md) {
  std::string footer;
  WriteFileMetaData(md, &footer);
  body += footer;
  const auto n = static_cast<uint32_t>(footer.size());
  for (int k = 0; k < 4; ++k) body.push_back(static_cast<char>((n >> (8 * k)) & 0xff));
  body += "PAR1";
  return body;
}

}  // namespace pq::testing
