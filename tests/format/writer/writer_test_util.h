// Helpers for the writer tests: schema elements, one leaf's records (levels + values) as plain
// vectors, writing them through a FileWriter in batches and reading them back with the project's
// reader.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "format/column/column_reader.h"
#include "format/file/file_reader.h"
#include "format/metadata/metadata_io.h"
#include "format/record/json_assembler.h"
#include "format/value/leaf_converter.h"
#include "format/writer/file_writer.h"

namespace pq::testing {

inline SchemaElement Root(int children) {
  SchemaElement e;
  e.name = "schema";
  e.num_children = children;
  return e;
}

inline SchemaElement Leaf(const std::string& name, PhysicalType type, Repetition rep,
                          std::optional<LogicalType> logical = std::nullopt,
                          int32_t type_length = 0) {
  SchemaElement e;
  e.name = name;
  e.type = type;
  e.repetition_type = rep;
  e.logical_type = logical;
  if (type == PhysicalType::kFixedLenByteArray) e.type_length = type_length;
  return e;
}

inline SchemaElement Group(const std::string& name, Repetition rep, int children,
                           std::optional<LogicalType> logical = std::nullopt) {
  SchemaElement e;
  e.name = name;
  e.repetition_type = rep;
  e.num_children = children;
  e.logical_type = logical;
  return e;
}

inline LogicalType Logical(LogicalType::Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}
inline LogicalType IntType(int bits, bool is_signed) {
  LogicalType t = Logical(LogicalType::Kind::kInteger);
  t.bit_width = static_cast<int8_t>(bits);
  t.is_signed = is_signed;
  return t;
}
inline LogicalType DecimalType(int precision, int scale) {
  LogicalType t = Logical(LogicalType::Kind::kDecimal);
  t.decimal_precision = precision;
  t.decimal_scale = scale;
  return t;
}
inline LogicalType TimestampType(TimeUnit unit, bool utc) {
  LogicalType t = Logical(LogicalType::Kind::kTimestamp);
  t.unit = unit;
  t.is_adjusted_to_utc = utc;
  return t;
}

// One leaf's records: levels (empty when the max level is 0) and non-null values. Byte arrays are
// kept as strings.
struct LeafData {
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  std::vector<uint8_t> bools;
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
  std::vector<Int96> i96;
  std::vector<float> f32;
  std::vector<double> f64;
  std::vector<std::string> bytes;

  template <typename T>
  std::vector<T>& values();
  template <typename T>
  const std::vector<T>& values() const {
    return const_cast<LeafData*>(this)->values<T>();
  }
};
template <>
inline std::vector<uint8_t>& LeafData::values<uint8_t>() {
  return bools;
}
template <>
inline std::vector<int32_t>& LeafData::values<int32_t>() {
  return i32;
}
template <>
inline std::vector<int64_t>& LeafData::values<int64_t>() {
  return i64;
}
template <>
inline std::vector<Int96>& LeafData::values<Int96>() {
  return i96;
}
template <>
inline std::vector<float>& LeafData::values<float>() {
  return f32;
}
template <>
inline std::vector<double>& LeafData::values<double>() {
  return f64;
}
template <>
inline std::vector<std::string>& LeafData::values<std::string>() {
  return bytes;
}

// Bit-exact comparison of floating values (NaN == NaN, -0.0 != 0.0).
template <typename T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

inline void ExpectSameLeaf(const LeafData& want, const LeafData& got, const std::string& what) {
  EXPECT_EQ(want.def, got.def) << what;
  EXPECT_EQ(want.rep, got.rep) << what;
  EXPECT_EQ(want.bools, got.bools) << what;
  EXPECT_EQ(want.i32, got.i32) << what;
  EXPECT_EQ(want.i64, got.i64) << what;
  EXPECT_TRUE(SameBits(want.i96, got.i96)) << what;
  EXPECT_TRUE(SameBits(want.f32, got.f32)) << what;
  EXPECT_TRUE(SameBits(want.f64, got.f64)) << what;
  EXPECT_EQ(want.bytes, got.bytes) << what;
}

// Number of records in `d` for a leaf with these max levels.
inline int64_t RecordCount(const LeafData& d, int16_t max_rep, int64_t num_levels) {
  if (max_rep == 0) return num_levels;
  int64_t n = 0;
  for (int16_t r : d.rep) n += r == 0;
  return n;
}

// Writes records [r0, r1) of `d` to leaf `leaf`.
inline Status WriteRecords(FileWriter* w, int leaf, const LeafData& d, int64_t r0, int64_t r1) {
  const SchemaNode& node = w->schema().leaf(leaf);
  const int16_t max_def = node.max_definition_level, max_rep = node.max_repetition_level;
  // Level range of the records.
  auto level_of_record = [&](int64_t r) -> int64_t {
    if (max_rep == 0) return r;
    int64_t seen = -1;
    for (size_t i = 0; i < d.rep.size(); ++i) {
      if (d.rep[i] == 0 && ++seen == r) return static_cast<int64_t>(i);
    }
    return static_cast<int64_t>(d.rep.size());
  };
  const int64_t l0 = level_of_record(r0), l1 = level_of_record(r1);
  auto values_before = [&](int64_t l) -> int64_t {
    if (max_def == 0) return l;
    int64_t n = 0;
    for (int64_t i = 0; i < l; ++i) n += d.def[static_cast<size_t>(i)] == max_def;
    return n;
  };
  const int64_t v0 = values_before(l0), v1 = values_before(l1);
  const int16_t* def = max_def > 0 ? d.def.data() + l0 : nullptr;
  const int16_t* rep = max_rep > 0 ? d.rep.data() + l0 : nullptr;
  const int64_t nl = l1 - l0, nv = v1 - v0;
  switch (node.physical_type) {
    case PhysicalType::kBoolean:
      return w->WriteColumn<uint8_t>(leaf, nl, def, rep, d.bools.data() + v0, nv);
    case PhysicalType::kInt32:
      return w->WriteColumn<int32_t>(leaf, nl, def, rep, d.i32.data() + v0, nv);
    case PhysicalType::kInt64:
      return w->WriteColumn<int64_t>(leaf, nl, def, rep, d.i64.data() + v0, nv);
    case PhysicalType::kInt96:
      return w->WriteColumn<Int96>(leaf, nl, def, rep, d.i96.data() + v0, nv);
    case PhysicalType::kFloat:
      return w->WriteColumn<float>(leaf, nl, def, rep, d.f32.data() + v0, nv);
    case PhysicalType::kDouble:
      return w->WriteColumn<double>(leaf, nl, def, rep, d.f64.data() + v0, nv);
    default: {
      std::vector<ByteArray> arrays;
      for (int64_t i = v0; i < v1; ++i) {
        const std::string& s = d.bytes[static_cast<size_t>(i)];
        arrays.push_back(
            ByteArray{reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())});
      }
      return w->WriteColumn<ByteArray>(leaf, nl, def, rep, arrays.data(), nv);
    }
  }
}

// Writes all leaves' records in batches of `batch` records, calling EndBatch after each.
inline Status WriteTable(FileWriter* w, const std::vector<LeafData>& leaves, int64_t num_records,
                         int64_t batch) {
  for (int64_t r = 0; r < num_records; r += batch) {
    const int64_t end = std::min(num_records, r + batch);
    for (int i = 0; i < static_cast<int>(leaves.size()); ++i) {
      PQ_RETURN_IF_ERROR(WriteRecords(w, i, leaves[static_cast<size_t>(i)], r, end));
    }
    PQ_RETURN_IF_ERROR(w->EndBatch());
  }
  return Status::OK();
}

// Every row group of leaf `leaf`, concatenated.
inline LeafData ReadLeaf(const std::shared_ptr<const FileReader>& file, int leaf) {
  LeafData out;
  const SchemaNode& node = file->schema().leaf(leaf);
  for (int rg = 0; rg < file->num_row_groups(); ++rg) {
    auto reader = ColumnChunkReader::Make(file, rg, leaf);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return out;
    ColumnBatch batch;
    auto n = (*reader)->ReadRecords(INT64_MAX / 2, &batch);
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    if (!n.ok()) return out;
    EXPECT_EQ(*n, file->metadata().row_groups[static_cast<size_t>(rg)].num_rows);
    if (node.max_definition_level > 0)
      out.def.insert(out.def.end(), batch.def_levels.begin(), batch.def_levels.end());
    if (node.max_repetition_level > 0)
      out.rep.insert(out.rep.end(), batch.rep_levels.begin(), batch.rep_levels.end());
    switch (node.physical_type) {
      case PhysicalType::kBoolean:
        out.bools.insert(out.bools.end(), batch.bools.begin(), batch.bools.end());
        break;
      case PhysicalType::kInt32:
        out.i32.insert(out.i32.end(), batch.i32.begin(), batch.i32.end());
        break;
      case PhysicalType::kInt64:
        out.i64.insert(out.i64.end(), batch.i64.begin(), batch.i64.end());
        break;
      case PhysicalType::kInt96:
        out.i96.insert(out.i96.end(), batch.i96.begin(), batch.i96.end());
        break;
      case PhysicalType::kFloat:
        out.f32.insert(out.f32.end(), batch.f32.begin(), batch.f32.end());
        break;
      case PhysicalType::kDouble:
        out.f64.insert(out.f64.end(), batch.f64.begin(), batch.f64.end());
        break;
      default:
        for (const ByteArray& b : batch.bytes) out.bytes.emplace_back(b.view());
        break;
    }
  }
  return out;
}

inline std::shared_ptr<const FileReader> OpenForTest(
    const std::string& path, const ReaderOptions& options = ReaderOptions{}) {
  auto r = FileReader::Open(path, options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::shared_ptr<const FileReader>(*r) : nullptr;
}

inline std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline bool FileExists(const std::string& path) {
  return ::access(path.c_str(), F_OK) == 0;
}

// A fresh path in the test's temporary directory.
inline std::string TempPath(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string dir = ::testing::TempDir();
  if (!dir.empty() && dir.back() != '/') dir += '/';
  std::string file = "pq_writer_" + std::to_string(::getpid()) + "_" + info->test_suite_name() +
                     "_" + info->name() + "_" + name;
  for (char& c : file) {
    if (c == '/') c = '_';
  }
  const std::string path = dir + file;
  ::unlink(path.c_str());
  return path;
}

// Records of a nested field as JSON text; nullopt: a null record.
using JsonRecords = std::vector<std::optional<std::string>>;

// The first field of the file at `path`, read and assembled as the reader does: one JSON text per
// record.
inline JsonRecords ReadBackJson(const std::string& path) {
  JsonRecords out;
  auto file = OpenForTest(path);
  if (!file) return out;
  const Schema& schema = file->schema();
  auto assembler = NestedJsonAssembler::Make(schema, *schema.fields()[0]);
  EXPECT_TRUE(assembler.ok()) << assembler.status().ToString();
  if (!assembler.ok()) return out;
  const int n = schema.num_leaves();
  std::vector<LeafData> data;
  std::vector<LeafConverter> converters;
  for (int i = 0; i < n; ++i) {
    data.push_back(ReadLeaf(file, i));
    auto conv = LeafConverter::Make(schema.leaf(i), ValueOptions{});
    EXPECT_TRUE(conv.ok());
    if (!conv.ok()) return out;
    converters.push_back(*conv);
  }
  std::vector<LeafLevels> levels(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const LeafData& d = data[static_cast<size_t>(i)];
    const LeafConverter& conv = converters[static_cast<size_t>(i)];
    LeafLevels& l = levels[static_cast<size_t>(i)];
    l.def_levels = d.def.data();
    l.rep_levels = schema.leaf(i).max_repetition_level > 0 ? d.rep.data() : nullptr;
    l.num_levels = static_cast<int64_t>(d.def.size());
    const PhysicalType type = schema.leaf(i).physical_type;
    l.value_bytes = [&d, type](int64_t k) -> ByteSpan {
      const size_t j = static_cast<size_t>(k);
      switch (type) {
        case PhysicalType::kBoolean:
          return LeafValueBytes(d.bools[j]);
        case PhysicalType::kInt32:
          return LeafValueBytes(d.i32[j]);
        case PhysicalType::kInt64:
          return LeafValueBytes(d.i64[j]);
        case PhysicalType::kFloat:
          return LeafValueBytes(d.f32[j]);
        case PhysicalType::kDouble:
          return LeafValueBytes(d.f64[j]);
        default:
          return AsBytes(d.bytes[j]);
      }
    };
    l.append_value_json = [&d, &conv, type](int64_t k, std::string* o) {
      const size_t j = static_cast<size_t>(k);
      switch (type) {
        case PhysicalType::kBoolean:
          return conv.AppendJson(d.bools[j], o);
        case PhysicalType::kInt32:
          return conv.AppendJson(d.i32[j], o);
        case PhysicalType::kInt64:
          return conv.AppendJson(d.i64[j], o);
        case PhysicalType::kFloat:
          return conv.AppendJson(d.f32[j], o);
        case PhysicalType::kDouble:
          return conv.AppendJson(d.f64[j], o);
        default:
          return conv.AppendJson(ByteArray{reinterpret_cast<const uint8_t*>(d.bytes[j].data()),
                                           static_cast<uint32_t>(d.bytes[j].size())},
                                 o);
      }
    };
  }
  JsonColumn column;
  Status s = (*assembler)->Assemble(levels, file->metadata().num_rows, &column);
  EXPECT_TRUE(s.ok()) << s.ToString();
  for (int64_t r = 0; r < column.size(); ++r) {
    out.push_back(column.null_at(r) ? std::nullopt : std::optional<std::string>(column.at(r)));
  }
  return out;
}

inline ColumnIndex ReadColumnIndexOf(const std::string& bytes, const ColumnChunk& chunk) {
  ColumnIndex ci;
  EXPECT_TRUE(chunk.column_index_offset.has_value());
  if (!chunk.column_index_offset) return ci;
  Status s = ReadColumnIndex(
      AsBytes(std::string_view(bytes).substr(static_cast<size_t>(*chunk.column_index_offset),
                                             static_cast<size_t>(*chunk.column_index_length))),
      &ci);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return ci;
}

inline OffsetIndex ReadOffsetIndexOf(const std::string& bytes, const ColumnChunk& chunk) {
  OffsetIndex oi;
  EXPECT_TRUE(chunk.offset_index_offset.has_value());
  if (!chunk.offset_index_offset) return oi;
  Status s = ReadOffsetIndex(
      AsBytes(std::string_view(bytes).substr(static_cast<size_t>(*chunk.offset_index_offset),
                                             static_cast<size_t>(*chunk.offset_index_length))),
      &oi);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return oi;
}

}  // namespace pq::testing
