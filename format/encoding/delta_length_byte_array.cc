#include "format/encoding/delta_length_byte_array.h"

#include <algorithm>
#include <string>

namespace pq::delta {

Status DeltaLengthByteArrayReader::Init(ByteSpan data) {
  PQ_RETURN_IF_ERROR(lengths_.Init(data));
  PQ_ASSIGN_OR_RETURN(size_t end, lengths_.StreamEnd());
  bytes_ = data.data() + end;
  bytes_size_ = data.size() - end;
  pos_ = 0;
  return Status::OK();
}

Status DeltaLengthByteArrayReader::Decode(ByteArray* out, int64_t n) {
  uint32_t lengths[kBatch];
  n = std::min<int64_t>(n, static_cast<int64_t>(lengths_.values_left()));
  while (n > 0) {
    int64_t k = std::min(n, kBatch);
    PQ_RETURN_IF_ERROR(lengths_.Decode(lengths, k));
    size_t pos = pos_;
    for (int64_t i = 0; i < k; ++i) {
      uint32_t len = lengths[i];
      if (len > static_cast<uint32_t>(INT32_MAX)) {
        return Status::Corruption("DELTA_LENGTH_BYTE_ARRAY negative length " +
                                  std::to_string(static_cast<int32_t>(len)));
      }
      if (len > bytes_size_ - pos) {
        return Status::Corruption("DELTA_LENGTH_BYTE_ARRAY value of " + std::to_string(len) +
                                  " bytes runs past the end of the page");
      }
      out[i] = ByteArray{bytes_ + pos, len};
      pos += len;
    }
    pos_ = pos;
    out += k;
    n -= k;
  }
  return Status::OK();
}

Status DeltaLengthByteArrayReader::Skip(int64_t n) {
  ByteArray scratch[kBatch];
  n = std::min<int64_t>(n, static_cast<int64_t>(lengths_.values_left()));
  while (n > 0) {
    int64_t k = std::min(n, kBatch);
    PQ_RETURN_IF_ERROR(Decode(scratch, k));
    n -= k;
  }
  return Status::OK();
}

void DeltaLengthByteArrayWriter::Put(const ByteArray* values, int64_t n) {
  uint32_t lengths[256];
  while (n > 0) {
    int64_t k = std::min<int64_t>(n, 256);
    for (int64_t i = 0; i < k; ++i) {
      lengths[i] = values[i].len;
      bytes_.insert(bytes_.end(), values[i].ptr, values[i].ptr + values[i].len);
    }
    lengths_.Put(lengths, k);
    values += k;
    n -= k;
  }
}

void DeltaLengthByteArrayWriter::FinishTo(Buffer* out) {
  lengths_.FinishTo(out);
  out->insert(out->end(), bytes_.begin(), bytes_.end());
  bytes_.clear();
}

}  // namespace pq::delta
