// ColumnBatch: the decoded levels and values of one leaf column for a run of whole records. Values
// are compact (nulls take no slot) and a flat column's batch may stay dictionary-coded, so a filter
// can test each dictionary entry once and each row by its index, and only rows that pass are ever
// gathered.
#pragma once

#include <cstdint>
#include <vector>

#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/file/memory_budget.h"
#include "format/util/pod_vector.h"

namespace pq {

// Values are compact (nulls take no slot). For a flat column (max repetition level 0) one level
// entry is one record, and value_index maps a record to its value slot (-1 for NULL) so that random
// access by row is O(1); it stays empty while no record of the batch is NULL (record r is then slot
// r), so that the common batch without NULL costs no index. ByteArray values point into buffers
// held in `pins`.
//
// A flat column's batch may instead be dictionary-coded
// (ColumnChunkReader::set_keep_dictionary_indices): its values then stay dictionary indices, one
// per value slot, and the typed arrays are filled only where the caller gathers them
// (GatherDictionary, GatherDictionaryRows). A filter can so test each dictionary entry once and
// each row by its index, and only the rows that pass are ever gathered.
struct ColumnBatch {
  PhysicalType type = PhysicalType::kInt32;
  int64_t num_records = 0;
  int64_t num_levels = 0;
  int64_t num_values = 0;
  PodVector<int16_t> def_levels;  // filled when the leaf's max definition level > 0
  PodVector<int16_t> rep_levels;  // filled when the leaf's max repetition level > 0
  PodVector<int32_t> value_index; // flat optional columns: record -> value slot or -1; empty: slot = record

  PodVector<uint8_t> bools;
  PodVector<int32_t> i32;
  PodVector<int64_t> i64;
  PodVector<Int96> i96;
  PodVector<float> f32;
  PodVector<double> f64;
  PodVector<ByteArray> bytes;
  std::vector<BufferPtr> pins;

  // Dictionary-coded (dictionary != null): value slot k is dictionary[dict_indices[k]], every index
  // below dictionary_size. `dictionary` is the column chunk's dictionary, an array of values of the
  // batch's type owned by the column reader: valid while that reader lives (ByteArray entries point
  // into a buffer held in `pins`). The typed arrays hold only the slots gathered so far.
  PodVector<uint32_t> dict_indices;
  const void* dictionary = nullptr;
  int64_t dictionary_size = 0;
  // A dictionary-coded batch whose every index came from the column reader's dictionary probe
  // (ColumnChunkReader::set_dictionary_probe): how many are the probe's target, the others holding
  // an entry the probing filter rejects. -1 for any other batch.
  int64_t probe_found = -1;
  // BYTE_ARRAY values (and dictionary entries) that are C strings: each followed by a NUL byte and
  // holding none (every value came from a dictionary the column reader so copied). False for
  // every other batch.
  bool c_strings = false;

  // What the arrays above hold (their capacity stays across Clear), charged by the column reader
  // that fills them to the table's max_memory before they grow.
  BudgetCharge charge;

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
    dict_indices.clear();
    dictionary = nullptr;
    dictionary_size = 0;
    probe_found = -1;
    c_strings = false;
  }

  template <typename T>
  PodVector<T>& values();

  // Fills the typed array's slots for every value from the dictionary; the batch stops being
  // dictionary-coded. Nothing to do for a batch that is not.
  void GatherDictionary();
  // Fills the typed array's slots of the values of flat-column records rows[0, n) (each below
  // num_records; NULL records have none) from the dictionary; the other slots stay unset and the
  // batch stays dictionary-coded. Requires a dictionary-coded batch of a flat column.
  void GatherDictionaryRows(const int32_t* rows, size_t n);

 private:
  // Calls fn(T{}) with T the value type of `type`.
  template <typename Fn>
  static void WithValueType(PhysicalType type, Fn&& fn);
  // Sizes the typed array to num_values and calls fn(slots, dictionary entries, dict_indices).
  template <typename Fn>
  void WithDictionarySlots(Fn&& fn);
};

template <> inline PodVector<uint8_t>& ColumnBatch::values<uint8_t>() { return bools; }
template <> inline PodVector<int32_t>& ColumnBatch::values<int32_t>() { return i32; }
template <> inline PodVector<int64_t>& ColumnBatch::values<int64_t>() { return i64; }
template <> inline PodVector<Int96>& ColumnBatch::values<Int96>() { return i96; }
template <> inline PodVector<float>& ColumnBatch::values<float>() { return f32; }
template <> inline PodVector<double>& ColumnBatch::values<double>() { return f64; }
template <> inline PodVector<ByteArray>& ColumnBatch::values<ByteArray>() { return bytes; }

template <typename Fn>
void ColumnBatch::WithValueType(PhysicalType type, Fn&& fn) {
  switch (type) {
    case PhysicalType::kBoolean: return fn(uint8_t{});
    case PhysicalType::kInt32: return fn(int32_t{});
    case PhysicalType::kInt64: return fn(int64_t{});
    case PhysicalType::kInt96: return fn(Int96{});
    case PhysicalType::kFloat: return fn(float{});
    case PhysicalType::kDouble: return fn(double{});
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: return fn(ByteArray{});
  }
}

template <typename Fn>
void ColumnBatch::WithDictionarySlots(Fn&& fn) {
  WithValueType(type, [&](auto zero) {
    using T = decltype(zero);
    PodVector<T>& out = values<T>();
    out.resize(static_cast<size_t>(num_values));
    // Slot k takes dictionary entry idx[k].
    fn(out.data(), static_cast<const T*>(dictionary), dict_indices.data());
  });
}

inline void ColumnBatch::GatherDictionary() {
  if (!dictionary) return;
  WithDictionarySlots([&](auto* dst, const auto* dict, const uint32_t* idx) {
    for (int64_t k = 0; k < num_values; ++k) dst[k] = dict[idx[k]];
  });
  dict_indices.clear();
  dictionary = nullptr;
  dictionary_size = 0;
  probe_found = -1;
}

inline void ColumnBatch::GatherDictionaryRows(const int32_t* rows, size_t n) {
  WithDictionarySlots([&](auto* dst, const auto* dict, const uint32_t* idx) {
    if (!value_index.empty()) {
      const int32_t* vi = value_index.data();
      for (size_t i = 0; i < n; ++i) {
        const int32_t k = vi[rows[i]];
        if (k >= 0) dst[k] = dict[idx[k]];
      }
    } else {
      for (size_t i = 0; i < n; ++i) dst[rows[i]] = dict[idx[rows[i]]];
    }
  });
}

// fn(the value in slot k of the batch's typed array); not for a dictionary-coded batch.
template <typename Fn>
auto VisitValue(const ColumnBatch& b, int64_t k, Fn&& fn) {
  switch (b.type) {
    case PhysicalType::kBoolean: return fn(b.bools[k]);
    case PhysicalType::kInt32: return fn(b.i32[k]);
    case PhysicalType::kInt64: return fn(b.i64[k]);
    case PhysicalType::kInt96: return fn(b.i96[k]);
    case PhysicalType::kFloat: return fn(b.f32[k]);
    case PhysicalType::kDouble: return fn(b.f64[k]);
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: return fn(b.bytes[k]);
  }
  return fn(b.i64[k]);
}

// fn(values[k]) for an array of values of physical type `type` (a ColumnBatch dictionary).
template <typename Fn>
auto VisitArray(PhysicalType type, const void* values, int64_t k, Fn&& fn) {
  switch (type) {
    case PhysicalType::kBoolean: return fn(static_cast<const uint8_t*>(values)[k]);
    case PhysicalType::kInt32: return fn(static_cast<const int32_t*>(values)[k]);
    case PhysicalType::kInt64: return fn(static_cast<const int64_t*>(values)[k]);
    case PhysicalType::kInt96: return fn(static_cast<const Int96*>(values)[k]);
    case PhysicalType::kFloat: return fn(static_cast<const float*>(values)[k]);
    case PhysicalType::kDouble: return fn(static_cast<const double*>(values)[k]);
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: return fn(static_cast<const ByteArray*>(values)[k]);
  }
  return fn(static_cast<const int64_t*>(values)[k]);
}

// The typed value array of a batch that is not dictionary-coded.
inline const void* ValueArray(const ColumnBatch& b) {
  switch (b.type) {
    case PhysicalType::kBoolean: return b.bools.data();
    case PhysicalType::kInt32: return b.i32.data();
    case PhysicalType::kInt64: return b.i64.data();
    case PhysicalType::kInt96: return b.i96.data();
    case PhysicalType::kFloat: return b.f32.data();
    case PhysicalType::kDouble: return b.f64.data();
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: return b.bytes.data();
  }
  return nullptr;
}

}  // namespace pq
