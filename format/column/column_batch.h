// ColumnBatch: the decoded levels and values of one leaf column for a run of whole records.
//
// Values are compact (nulls take no slot). For a flat column (max repetition level 0) one level entry is
// one record, and value_index maps a record to its value slot (-1 for NULL) so that random access by row
// is O(1). ByteArray values point into buffers held in `pins`.
#pragma once

#include <cstdint>
#include <vector>

#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/util/pod_vector.h"

namespace pq {

struct ColumnBatch {
  PhysicalType type = PhysicalType::kInt32;
  int64_t num_records = 0;
  int64_t num_levels = 0;
  int64_t num_values = 0;
  PodVector<int16_t> def_levels;  // filled when the leaf's max definition level > 0
  PodVector<int16_t> rep_levels;  // filled when the leaf's max repetition level > 0
  PodVector<int32_t> value_index; // flat optional columns: record -> value slot or -1

  PodVector<uint8_t> bools;
  PodVector<int32_t> i32;
  PodVector<int64_t> i64;
  PodVector<Int96> i96;
  PodVector<float> f32;
  PodVector<double> f64;
  PodVector<ByteArray> bytes;
  std::vector<BufferPtr> pins;

  void Clear() {
    num_records = num_levels = num_values = 0;
    def_levels.clear();
    rep_levels.clear();
    value_index.clear();
    bools.clear();
    i32.clear();
    i64.clear();
    i96.clear();
    f32.clear();
    f64.clear();
    bytes.clear();
    pins.clear();
  }

  template <typename T>
  PodVector<T>& values();
};

template <> inline PodVector<uint8_t>& ColumnBatch::values<uint8_t>() { return bools; }
template <> inline PodVector<int32_t>& ColumnBatch::values<int32_t>() { return i32; }
template <> inline PodVector<int64_t>& ColumnBatch::values<int64_t>() { return i64; }
template <> inline PodVector<Int96>& ColumnBatch::values<Int96>() { return i96; }
template <> inline PodVector<float>& ColumnBatch::values<float>() { return f32; }
template <> inline PodVector<double>& ColumnBatch::values<double>() { return f64; }
template <> inline PodVector<ByteArray>& ColumnBatch::values<ByteArray>() { return bytes; }

}  // namespace pq
