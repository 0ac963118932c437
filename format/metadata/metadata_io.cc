#include "format/metadata/metadata_io.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "format/thrift/compact_reader.h"
#include "format/thrift/compact_writer.h"

// How the readers are built: each struct has a table of its fields (id, wire type, required, name),
// copied from parquet.thrift, and a ReadValue overload that runs ReadStruct with
// that table and a switch over the ids. ReadStruct does what every struct shares: the field-header
// loop, skipping unknown ids and ids of an unexpected wire type, the nesting depth, the check of
// required fields and the context of error messages. Lists, optionals, enums and scalars are
// generic ReadValue overloads, so a field's case is usually one line. The writers mirror this with
// WriteValue/WriteField.

namespace pq {
namespace {

using thrift::CompactReader;
using thrift::CompactType;
using thrift::CompactWriter;
using thrift::FieldHeader;
using thrift::ListHeader;

constexpr CompactType kBool = CompactType::kBoolTrue;  // in a FieldSpec: either bool encoding
constexpr CompactType kI8 = CompactType::kI8;
constexpr CompactType kI16 = CompactType::kI16;
constexpr CompactType kI32 = CompactType::kI32;
constexpr CompactType kI64 = CompactType::kI64;
constexpr CompactType kDouble = CompactType::kDouble;
constexpr CompactType kBinary = CompactType::kBinary;
constexpr CompactType kList = CompactType::kList;
constexpr CompactType kStruct = CompactType::kStruct;

constexpr bool kRequired = true;
constexpr bool kOptional = false;

// A list's vector grows as its elements are read, doubling from this many, each growth charged to
// the reader's memory allowance before it is made (CompactReader::ChargeMemory): memory stays
// proportional to the elements actually parsed, and within the caller's limit.
constexpr size_t kFirstReserve = 4;

// One field of a Thrift struct (parquet.thrift).
struct FieldSpec {
  int16_t id;
  CompactType type;
  bool required;
  const char* name;
};

// The fields of one struct, in increasing id order (at most 32).
template <size_t N>
struct StructSpec {
  static_assert(N <= 32, "the seen-field mask has 32 bits");
  const char* name;
  FieldSpec fields[N];

  // The slot of field `id`, or -1. Ids are nearly dense, so the direct guess almost always hits.
  int Find(int16_t id) const {
    if (id >= 1 && static_cast<size_t>(id) <= N && fields[id - 1].id == id) return id - 1;
    for (size_t i = 0; i < N; ++i) {
      if (fields[i].id == id) return static_cast<int>(i);
    }
    return -1;
  }
};

bool TypeMatches(CompactType expected, CompactType actual) {
  if (expected == kBool) return thrift::IsBoolType(actual);
  return expected == actual;
}

// The struct loop shared by every reader. `on_field(header)` is called for each field whose id is
// in `spec` and whose wire type is the expected one; it must consume the field's value. Other
// fields are skipped; the id of the first of them goes to *unknown_id when given (unions report
// it). On success every required field of `spec` has been seen.
template <size_t N, typename OnField>
Status ReadStruct(CompactReader& r, const StructSpec<N>& spec, OnField&& on_field,
                  int16_t* unknown_id = nullptr, bool* missing_required = nullptr) {
  PQ_RETURN_IF_ERROR(r.BeginStruct());
  uint32_t seen = 0;
  int16_t last_id = 0;
  for (;;) {
    Result<FieldHeader> header = r.ReadFieldHeader(last_id);
    if (!header.ok()) return header.status().WithContext(spec.name);
    const FieldHeader field = *header;
    if (field.type == CompactType::kStop) break;
    last_id = field.id;
    const int slot = spec.Find(field.id);
    if (slot >= 0 && TypeMatches(spec.fields[slot].type, field.type)) {
      seen |= uint32_t{1} << slot;
      Status st = on_field(field);
      if (!st.ok()) {
        return std::move(st).WithContext(std::string(spec.name) + "." + spec.fields[slot].name);
      }
    } else {
      if (unknown_id != nullptr && *unknown_id == 0) *unknown_id = field.id;
      Status st = r.SkipField(field.type);
      if (!st.ok()) return std::move(st).WithContext(spec.name);
    }
  }
  r.EndStruct();
  for (size_t i = 0; i < N; ++i) {
    if (spec.fields[i].required && (seen & (uint32_t{1} << i)) == 0) {
      if (missing_required != nullptr) {
        *missing_required = true;
        return Status::OK();
      }
      return Status::Corruption(std::string(spec.name) + "." + spec.fields[i].name + " missing");
    }
  }
  return Status::OK();
}

// Skips an empty marker struct (StringType, MilliSeconds, ...), and any fields a newer writer put
// in it.
Status ReadEmptyStruct(CompactReader& r) {
  return r.SkipField(kStruct);
}

// The wire type of a C++ value type.
template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};

template <typename T>
constexpr CompactType WireTypeOf() {
  if constexpr (std::is_same_v<T, bool>) {
    return kBool;
  } else if constexpr (std::is_same_v<T, int8_t>) {
    return kI8;
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return kI16;
  } else if constexpr (std::is_same_v<T, int32_t> || std::is_enum_v<T>) {
    return kI32;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return kI64;
  } else if constexpr (std::is_same_v<T, double>) {
    return kDouble;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return kBinary;
  } else if constexpr (IsVector<T>::value) {
    return kList;
  } else {
    return kStruct;
  }
}

// ---------------------------------------------------------------------------------------------------
// Readers: scalars, enums, optionals and lists.

Status ReadValue(CompactReader& r, int8_t* v) {
  PQ_ASSIGN_OR_RETURN(*v, r.ReadI8());
  return Status::OK();
}
Status ReadValue(CompactReader& r, int16_t* v) {
  PQ_ASSIGN_OR_RETURN(*v, r.ReadI16());
  return Status::OK();
}
Status ReadValue(CompactReader& r, int32_t* v) {
  PQ_ASSIGN_OR_RETURN(*v, r.ReadI32());
  return Status::OK();
}
Status ReadValue(CompactReader& r, int64_t* v) {
  PQ_ASSIGN_OR_RETURN(*v, r.ReadI64());
  return Status::OK();
}
Status ReadValue(CompactReader& r, double* v) {
  PQ_ASSIGN_OR_RETURN(*v, r.ReadDouble());
  return Status::OK();
}
Status ReadValue(CompactReader& r, std::string* v) {
  return r.ReadString(v);
}

// Enums keep values metadata.h does not name: the caller decides what it supports.
template <typename E>
requires std::is_enum_v<E> Status ReadValue(CompactReader& r, E* v) {
  PQ_ASSIGN_OR_RETURN(int32_t raw, r.ReadI32());
  *v = static_cast<E>(raw);
  return Status::OK();
}

// Every struct of metadata.h that appears inside another one.
Status ReadValue(CompactReader& r, SizeStatistics* out);
Status ReadValue(CompactReader& r, GeospatialStatistics* out);
Status ReadValue(CompactReader& r, Statistics* out);
Status ReadValue(CompactReader& r, LogicalType* out);
Status ReadValue(CompactReader& r, SchemaElement* out);
Status ReadValue(CompactReader& r, DataPageHeader* out);
Status ReadValue(CompactReader& r, DictionaryPageHeader* out);
Status ReadValue(CompactReader& r, DataPageHeaderV2* out);
Status ReadValue(CompactReader& r, BloomFilterHeader* out);
Status ReadValue(CompactReader& r, PageHeader* out);
Status ReadValue(CompactReader& r, KeyValue* out);
Status ReadValue(CompactReader& r, SortingColumn* out);
Status ReadValue(CompactReader& r, PageEncodingStats* out);
Status ReadValue(CompactReader& r, ColumnMetaData* out);
Status ReadValue(CompactReader& r, ColumnCryptoMetaData* out);
Status ReadValue(CompactReader& r, ColumnChunk* out);
Status ReadValue(CompactReader& r, RowGroup* out);
Status ReadValue(CompactReader& r, ColumnOrder* out);
Status ReadValue(CompactReader& r, PageLocation* out);
Status ReadValue(CompactReader& r, OffsetIndex* out);
Status ReadValue(CompactReader& r, ColumnIndex* out);
Status ReadValue(CompactReader& r, EncryptionAlgorithm* out);
Status ReadValue(CompactReader& r, FileMetaData* out);
Status ReadValue(CompactReader& r, FileCryptoMetaData* out);
template <typename T>
Status ReadValue(CompactReader& r, std::optional<T>* v);
template <typename T>
Status ReadValue(CompactReader& r, std::vector<T>* out);
Status ReadValue(CompactReader& r, std::vector<bool>* out);

template <typename T>
Status ReadValue(CompactReader& r, std::optional<T>* v) {
  v->emplace();
  return ReadValue(r, &**v);
}

Status CheckListType(const ListHeader& h, CompactType expected) {
  if (h.size > 0 && h.element_type != expected) {
    return Status::Corruption("list of " + thrift::CompactTypeName(h.element_type) +
                              " where a list of " + thrift::CompactTypeName(expected) +
                              " is expected");
  }
  return Status::OK();
}

template <typename T>
Status ReadValue(CompactReader& r, std::vector<T>* out) {
  PQ_ASSIGN_OR_RETURN(ListHeader h, r.ReadListHeader());
  PQ_RETURN_IF_ERROR(CheckListType(h, WireTypeOf<T>()));
  out->clear();
  for (uint32_t i = 0; i < h.size; ++i) {
    if (out->size() == out->capacity()) {
      // h.size is already bounded by the bytes left (ReadListHeader).
      const size_t grown = std::min<size_t>(h.size, std::max(kFirstReserve, 2 * out->capacity()));
      Status charged = r.ChargeMemory((grown - out->capacity()) * sizeof(T));
      if (!charged.ok()) return std::move(charged).WithContext("element " + std::to_string(i));
      out->reserve(grown);
    }
    out->emplace_back();
    Status st = ReadValue(r, &out->back());
    if (!st.ok()) return std::move(st).WithContext("element " + std::to_string(i));
  }
  return Status::OK();
}

Status ReadValue(CompactReader& r, std::vector<bool>* out) {
  PQ_ASSIGN_OR_RETURN(ListHeader h, r.ReadListHeader());
  PQ_RETURN_IF_ERROR(CheckListType(h, kBool));
  PQ_RETURN_IF_ERROR(r.ChargeMemory(h.size / 8 + 1));
  out->assign(h.size, false);  // one byte per element, checked by ReadListHeader
  for (uint32_t i = 0; i < h.size; ++i) {
    PQ_ASSIGN_OR_RETURN(bool b, r.ReadBoolElement());
    (*out)[i] = b;
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------------------------------
// Readers: one per struct, in the order of parquet.thrift. Each requires *out to be freshly
// default-constructed (optionals are emplaced, list elements appended, top-level outputs reset), so
// defaults such as DataPageHeaderV2.is_compressed = true hold for absent fields.

constexpr StructSpec<3> kSizeStatisticsSpec{
    "SizeStatistics",
    {{1, kI64, kOptional, "unencoded_byte_array_data_bytes"},
     {2, kList, kOptional, "repetition_level_histogram"},
     {3, kList, kOptional, "definition_level_histogram"}}};

Status ReadValue(CompactReader& r, SizeStatistics* out) {
  return ReadStruct(r, kSizeStatisticsSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->unencoded_byte_array_data_bytes);
      case 2:
        return ReadValue(r, &out->repetition_level_histogram);
      default:
        return ReadValue(r, &out->definition_level_histogram);
    }
  });
}

constexpr StructSpec<8> kBoundingBoxSpec{"BoundingBox",
                                         {{1, kDouble, kRequired, "xmin"},
                                          {2, kDouble, kRequired, "xmax"},
                                          {3, kDouble, kRequired, "ymin"},
                                          {4, kDouble, kRequired, "ymax"},
                                          {5, kDouble, kOptional, "zmin"},
                                          {6, kDouble, kOptional, "zmax"},
                                          {7, kDouble, kOptional, "mmin"},
                                          {8, kDouble, kOptional, "mmax"}}};

Status ReadBoundingBoxField(CompactReader& r, const FieldHeader& f, BoundingBox* out) {
  switch (f.id) {
    case 1:
      return ReadValue(r, &out->xmin);
    case 2:
      return ReadValue(r, &out->xmax);
    case 3:
      return ReadValue(r, &out->ymin);
    case 4:
      return ReadValue(r, &out->ymax);
    case 5:
      return ReadValue(r, &out->zmin);
    case 6:
      return ReadValue(r, &out->zmax);
    case 7:
      return ReadValue(r, &out->mmin);
    default:
      return ReadValue(r, &out->mmax);
  }
}

constexpr StructSpec<2> kGeospatialStatisticsSpec{
    "GeospatialStatistics",
    {{1, kStruct, kOptional, "bbox"}, {2, kList, kOptional, "geospatial_types"}}};

// GeospatialStatistics are optional: a bounding box that lacks a required coordinate (or holds
// one of another wire type) is left out, as if the writer had written none, instead of making the
// whole footer unreadable. Bytes that do not parse as a struct at all still fail.
Status ReadValue(CompactReader& r, GeospatialStatistics* out) {
  return ReadStruct(r, kGeospatialStatisticsSpec, [&](const FieldHeader& f) -> Status {
    if (f.id == 2) return ReadValue(r, &out->geospatial_types);
    bool incomplete = false;
    out->bbox.emplace();
    auto field = [&](const FieldHeader& g) { return ReadBoundingBoxField(r, g, &*out->bbox); };
    PQ_RETURN_IF_ERROR(ReadStruct(r, kBoundingBoxSpec, field, nullptr, &incomplete));
    if (incomplete) out->bbox.reset();
    return Status::OK();
  });
}

constexpr StructSpec<9> kStatisticsSpec{"Statistics",
                                        {{1, kBinary, kOptional, "max"},
                                         {2, kBinary, kOptional, "min"},
                                         {3, kI64, kOptional, "null_count"},
                                         {4, kI64, kOptional, "distinct_count"},
                                         {5, kBinary, kOptional, "max_value"},
                                         {6, kBinary, kOptional, "min_value"},
                                         {7, kBool, kOptional, "is_max_value_exact"},
                                         {8, kBool, kOptional, "is_min_value_exact"},
                                         {9, kI64, kOptional, "nan_count"}}};

Status ReadValue(CompactReader& r, Statistics* out) {
  return ReadStruct(r, kStatisticsSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->max);
      case 2:
        return ReadValue(r, &out->min);
      case 3:
        return ReadValue(r, &out->null_count);
      case 4:
        return ReadValue(r, &out->distinct_count);
      case 5:
        return ReadValue(r, &out->max_value);
      case 6:
        return ReadValue(r, &out->min_value);
      case 7:
        out->is_max_value_exact = f.bool_value();
        return Status::OK();
      case 8:
        out->is_min_value_exact = f.bool_value();
        return Status::OK();
      default:
        return ReadValue(r, &out->nan_count);
    }
  });
}

constexpr StructSpec<2> kDecimalTypeSpec{
    "DecimalType", {{1, kI32, kRequired, "scale"}, {2, kI32, kRequired, "precision"}}};

Status ReadDecimalType(CompactReader& r, LogicalType* out) {
  return ReadStruct(r, kDecimalTypeSpec, [&](const FieldHeader& f) -> Status {
    if (f.id == 1) return ReadValue(r, &out->decimal_scale);
    return ReadValue(r, &out->decimal_precision);
  });
}

constexpr StructSpec<3> kTimeUnitSpec{"TimeUnit",
                                      {{1, kStruct, kOptional, "MILLIS"},
                                       {2, kStruct, kOptional, "MICROS"},
                                       {3, kStruct, kOptional, "NANOS"}}};

// TimeUnit union: the alternative's id is the TimeUnit value; an unknown alternative keeps its id,
// an empty union gives 0.
Status ReadTimeUnit(CompactReader& r, TimeUnit* out) {
  int16_t unknown_id = 0;
  bool known = false;
  PQ_RETURN_IF_ERROR(ReadStruct(
      r, kTimeUnitSpec,
      [&](const FieldHeader& f) -> Status {
        *out = static_cast<TimeUnit>(f.id);
        known = true;
        return ReadEmptyStruct(r);
      },
      &unknown_id));
  if (!known) *out = static_cast<TimeUnit>(unknown_id);
  return Status::OK();
}

constexpr StructSpec<2> kTimeTypeSpec{
    "TimeType", {{1, kBool, kRequired, "isAdjustedToUTC"}, {2, kStruct, kRequired, "unit"}}};
constexpr StructSpec<2> kTimestampTypeSpec{
    "TimestampType", {{1, kBool, kRequired, "isAdjustedToUTC"}, {2, kStruct, kRequired, "unit"}}};

template <size_t N>
Status ReadTimeOrTimestampType(CompactReader& r, const StructSpec<N>& spec, LogicalType* out) {
  return ReadStruct(r, spec, [&](const FieldHeader& f) -> Status {
    if (f.id == 1) {
      out->is_adjusted_to_utc = f.bool_value();
      return Status::OK();
    }
    return ReadTimeUnit(r, &out->unit);
  });
}

constexpr StructSpec<2> kIntTypeSpec{
    "IntType", {{1, kI8, kRequired, "bitWidth"}, {2, kBool, kRequired, "isSigned"}}};

Status ReadIntType(CompactReader& r, LogicalType* out) {
  return ReadStruct(r, kIntTypeSpec, [&](const FieldHeader& f) -> Status {
    if (f.id == 1) return ReadValue(r, &out->bit_width);
    out->is_signed = f.bool_value();
    return Status::OK();
  });
}

constexpr StructSpec<1> kVariantTypeSpec{"VariantType",
                                         {{1, kI8, kOptional, "specification_version"}}};

Status ReadVariantType(CompactReader& r, LogicalType* out) {
  return ReadStruct(r, kVariantTypeSpec, [&](const FieldHeader&) -> Status {
    return ReadValue(r, &out->variant_specification_version);
  });
}

constexpr StructSpec<1> kGeometryTypeSpec{"GeometryType", {{1, kBinary, kOptional, "crs"}}};
constexpr StructSpec<2> kGeographyTypeSpec{
    "GeographyType", {{1, kBinary, kOptional, "crs"}, {2, kI32, kOptional, "algorithm"}}};

Status ReadGeometryType(CompactReader& r, LogicalType* out) {
  return ReadStruct(r, kGeometryTypeSpec,
                    [&](const FieldHeader&) -> Status { return ReadValue(r, &out->crs); });
}

Status ReadGeographyType(CompactReader& r, LogicalType* out) {
  return ReadStruct(r, kGeographyTypeSpec, [&](const FieldHeader& f) -> Status {
    if (f.id == 1) return ReadValue(r, &out->crs);
    return ReadValue(r, &out->algorithm);
  });
}

constexpr StructSpec<18> kLogicalTypeSpec{"LogicalType",
                                          {{1, kStruct, kOptional, "STRING"},
                                           {2, kStruct, kOptional, "MAP"},
                                           {3, kStruct, kOptional, "LIST"},
                                           {4, kStruct, kOptional, "ENUM"},
                                           {5, kStruct, kOptional, "DECIMAL"},
                                           {6, kStruct, kOptional, "DATE"},
                                           {7, kStruct, kOptional, "TIME"},
                                           {8, kStruct, kOptional, "TIMESTAMP"},
                                           {10, kStruct, kOptional, "INTEGER"},
                                           {11, kStruct, kOptional, "UNKNOWN"},
                                           {12, kStruct, kOptional, "JSON"},
                                           {13, kStruct, kOptional, "BSON"},
                                           {14, kStruct, kOptional, "UUID"},
                                           {15, kStruct, kOptional, "FLOAT16"},
                                           {16, kStruct, kOptional, "VARIANT"},
                                           {17, kStruct, kOptional, "GEOMETRY"},
                                           {18, kStruct, kOptional, "GEOGRAPHY"},
                                           {19, kStruct, kOptional, "FILE"}}};

// LogicalType union: the alternative's field id is the Kind. An alternative this reader does not
// know leaves kind kNone and records its id, so the caller can fall back to the physical type.
Status ReadValue(CompactReader& r, LogicalType* out) {
  int16_t unknown_id = 0;
  PQ_RETURN_IF_ERROR(ReadStruct(
      r, kLogicalTypeSpec,
      [&](const FieldHeader& f) -> Status {
        out->kind = static_cast<LogicalType::Kind>(f.id);
        switch (out->kind) {
          case LogicalType::Kind::kDecimal:
            return ReadDecimalType(r, out);
          case LogicalType::Kind::kTime:
            return ReadTimeOrTimestampType(r, kTimeTypeSpec, out);
          case LogicalType::Kind::kTimestamp:
            return ReadTimeOrTimestampType(r, kTimestampTypeSpec, out);
          case LogicalType::Kind::kInteger:
            return ReadIntType(r, out);
          case LogicalType::Kind::kVariant:
            return ReadVariantType(r, out);
          case LogicalType::Kind::kGeometry:
            return ReadGeometryType(r, out);
          case LogicalType::Kind::kGeography:
            return ReadGeographyType(r, out);
          default:
            return ReadEmptyStruct(r);  // the marker alternatives
        }
      },
      &unknown_id));
  if (out->kind == LogicalType::Kind::kNone) out->unknown_field_id = unknown_id;
  return Status::OK();
}

constexpr StructSpec<10> kSchemaElementSpec{"SchemaElement",
                                            {{1, kI32, kOptional, "type"},
                                             {2, kI32, kOptional, "type_length"},
                                             {3, kI32, kOptional, "repetition_type"},
                                             {4, kBinary, kRequired, "name"},
                                             {5, kI32, kOptional, "num_children"},
                                             {6, kI32, kOptional, "converted_type"},
                                             {7, kI32, kOptional, "scale"},
                                             {8, kI32, kOptional, "precision"},
                                             {9, kI32, kOptional, "field_id"},
                                             {10, kStruct, kOptional, "logicalType"}}};

Status ReadValue(CompactReader& r, SchemaElement* out) {
  return ReadStruct(r, kSchemaElementSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->type);
      case 2:
        return ReadValue(r, &out->type_length);
      case 3:
        return ReadValue(r, &out->repetition_type);
      case 4:
        return ReadValue(r, &out->name);
      case 5:
        return ReadValue(r, &out->num_children);
      case 6:
        return ReadValue(r, &out->converted_type);
      case 7:
        return ReadValue(r, &out->scale);
      case 8:
        return ReadValue(r, &out->precision);
      case 9:
        return ReadValue(r, &out->field_id);
      default:
        return ReadValue(r, &out->logical_type);
    }
  });
}

constexpr StructSpec<5> kDataPageHeaderSpec{"DataPageHeader",
                                            {{1, kI32, kRequired, "num_values"},
                                             {2, kI32, kRequired, "encoding"},
                                             {3, kI32, kRequired, "definition_level_encoding"},
                                             {4, kI32, kRequired, "repetition_level_encoding"},
                                             {5, kStruct, kOptional, "statistics"}}};

Status ReadValue(CompactReader& r, DataPageHeader* out) {
  return ReadStruct(r, kDataPageHeaderSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->num_values);
      case 2:
        return ReadValue(r, &out->encoding);
      case 3:
        return ReadValue(r, &out->definition_level_encoding);
      case 4:
        return ReadValue(r, &out->repetition_level_encoding);
      default:
        return ReadValue(r, &out->statistics);
    }
  });
}

constexpr StructSpec<3> kDictionaryPageHeaderSpec{"DictionaryPageHeader",
                                                  {{1, kI32, kRequired, "num_values"},
                                                   {2, kI32, kRequired, "encoding"},
                                                   {3, kBool, kOptional, "is_sorted"}}};

Status ReadValue(CompactReader& r, DictionaryPageHeader* out) {
  return ReadStruct(r, kDictionaryPageHeaderSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->num_values);
      case 2:
        return ReadValue(r, &out->encoding);
      default:
        out->is_sorted = f.bool_value();
        return Status::OK();
    }
  });
}

constexpr StructSpec<8> kDataPageHeaderV2Spec{
    "DataPageHeaderV2",
    {{1, kI32, kRequired, "num_values"},
     {2, kI32, kRequired, "num_nulls"},
     {3, kI32, kRequired, "num_rows"},
     {4, kI32, kRequired, "encoding"},
     {5, kI32, kRequired, "definition_levels_byte_length"},
     {6, kI32, kRequired, "repetition_levels_byte_length"},
     {7, kBool, kOptional, "is_compressed"},
     {8, kStruct, kOptional, "statistics"}}};

Status ReadValue(CompactReader& r, DataPageHeaderV2* out) {
  return ReadStruct(r, kDataPageHeaderV2Spec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->num_values);
      case 2:
        return ReadValue(r, &out->num_nulls);
      case 3:
        return ReadValue(r, &out->num_rows);
      case 4:
        return ReadValue(r, &out->encoding);
      case 5:
        return ReadValue(r, &out->definition_levels_byte_length);
      case 6:
        return ReadValue(r, &out->repetition_levels_byte_length);
      case 7:
        out->is_compressed = f.bool_value();
        return Status::OK();
      default:
        return ReadValue(r, &out->statistics);
    }
  });
}

constexpr StructSpec<1> kBloomFilterAlgorithmSpec{"BloomFilterAlgorithm",
                                                  {{1, kStruct, kOptional, "BLOCK"}}};
constexpr StructSpec<1> kBloomFilterHashSpec{"BloomFilterHash",
                                             {{1, kStruct, kOptional, "XXHASH"}}};
constexpr StructSpec<1> kBloomFilterCompressionSpec{"BloomFilterCompression",
                                                    {{1, kStruct, kOptional, "UNCOMPRESSED"}}};

// A union of one known alternative: *out becomes its id (1), or 0 when the writer chose another.
Status ReadSingleAlternativeUnion(CompactReader& r, const StructSpec<1>& spec, int16_t* out) {
  *out = 0;
  return ReadStruct(r, spec, [&](const FieldHeader& f) -> Status {
    *out = f.id;
    return ReadEmptyStruct(r);
  });
}

constexpr StructSpec<4> kBloomFilterHeaderSpec{"BloomFilterHeader",
                                               {{1, kI32, kRequired, "numBytes"},
                                                {2, kStruct, kRequired, "algorithm"},
                                                {3, kStruct, kRequired, "hash"},
                                                {4, kStruct, kRequired, "compression"}}};

Status ReadValue(CompactReader& r, BloomFilterHeader* out) {
  return ReadStruct(r, kBloomFilterHeaderSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->num_bytes);
      case 2:
        return ReadSingleAlternativeUnion(r, kBloomFilterAlgorithmSpec, &out->algorithm);
      case 3:
        return ReadSingleAlternativeUnion(r, kBloomFilterHashSpec, &out->hash);
      default:
        return ReadSingleAlternativeUnion(r, kBloomFilterCompressionSpec, &out->compression);
    }
  });
}

constexpr StructSpec<8> kPageHeaderSpec{"PageHeader",
                                        {{1, kI32, kRequired, "type"},
                                         {2, kI32, kRequired, "uncompressed_page_size"},
                                         {3, kI32, kRequired, "compressed_page_size"},
                                         {4, kI32, kOptional, "crc"},
                                         {5, kStruct, kOptional, "data_page_header"},
                                         {6, kStruct, kOptional, "index_page_header"},
                                         {7, kStruct, kOptional, "dictionary_page_header"},
                                         {8, kStruct, kOptional, "data_page_header_v2"}}};

Status ReadValue(CompactReader& r, PageHeader* out) {
  return ReadStruct(r, kPageHeaderSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->type);
      case 2:
        return ReadValue(r, &out->uncompressed_page_size);
      case 3:
        return ReadValue(r, &out->compressed_page_size);
      case 4:
        return ReadValue(r, &out->crc);
      case 5:
        return ReadValue(r, &out->data_page_header);
      case 6:
        out->has_index_page_header = true;
        return ReadEmptyStruct(r);
      case 7:
        return ReadValue(r, &out->dictionary_page_header);
      default:
        return ReadValue(r, &out->data_page_header_v2);
    }
  });
}

constexpr StructSpec<2> kKeyValueSpec{
    "KeyValue", {{1, kBinary, kRequired, "key"}, {2, kBinary, kOptional, "value"}}};

Status ReadValue(CompactReader& r, KeyValue* out) {
  return ReadStruct(r, kKeyValueSpec, [&](const FieldHeader& f) -> Status {
    if (f.id == 1) return ReadValue(r, &out->key);
    return ReadValue(r, &out->value);
  });
}

constexpr StructSpec<3> kSortingColumnSpec{"SortingColumn",
                                           {{1, kI32, kRequired, "column_idx"},
                                            {2, kBool, kRequired, "descending"},
                                            {3, kBool, kRequired, "nulls_first"}}};

Status ReadValue(CompactReader& r, SortingColumn* out) {
  return ReadStruct(r, kSortingColumnSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->column_idx);
      case 2:
        out->descending = f.bool_value();
        return Status::OK();
      default:
        out->nulls_first = f.bool_value();
        return Status::OK();
    }
  });
}

constexpr StructSpec<3> kPageEncodingStatsSpec{"PageEncodingStats",
                                               {{1, kI32, kRequired, "page_type"},
                                                {2, kI32, kRequired, "encoding"},
                                                {3, kI32, kRequired, "count"}}};

Status ReadValue(CompactReader& r, PageEncodingStats* out) {
  return ReadStruct(r, kPageEncodingStatsSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->page_type);
      case 2:
        return ReadValue(r, &out->encoding);
      default:
        return ReadValue(r, &out->count);
    }
  });
}

constexpr StructSpec<17> kColumnMetaDataSpec{"ColumnMetaData",
                                             {{1, kI32, kRequired, "type"},
                                              {2, kList, kRequired, "encodings"},
                                              {3, kList, kRequired, "path_in_schema"},
                                              {4, kI32, kRequired, "codec"},
                                              {5, kI64, kRequired, "num_values"},
                                              {6, kI64, kRequired, "total_uncompressed_size"},
                                              {7, kI64, kRequired, "total_compressed_size"},
                                              {8, kList, kOptional, "key_value_metadata"},
                                              {9, kI64, kRequired, "data_page_offset"},
                                              {10, kI64, kOptional, "index_page_offset"},
                                              {11, kI64, kOptional, "dictionary_page_offset"},
                                              {12, kStruct, kOptional, "statistics"},
                                              {13, kList, kOptional, "encoding_stats"},
                                              {14, kI64, kOptional, "bloom_filter_offset"},
                                              {15, kI32, kOptional, "bloom_filter_length"},
                                              {16, kStruct, kOptional, "size_statistics"},
                                              {17, kStruct, kOptional, "geospatial_statistics"}}};

Status ReadValue(CompactReader& r, ColumnMetaData* out) {
  return ReadStruct(r, kColumnMetaDataSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->type);
      case 2:
        return ReadValue(r, &out->encodings);
      case 3:
        return ReadValue(r, &out->path_in_schema);
      case 4:
        return ReadValue(r, &out->codec);
      case 5:
        return ReadValue(r, &out->num_values);
      case 6:
        return ReadValue(r, &out->total_uncompressed_size);
      case 7:
        return ReadValue(r, &out->total_compressed_size);
      case 8:
        return ReadValue(r, &out->key_value_metadata);
      case 9:
        return ReadValue(r, &out->data_page_offset);
      case 10:
        return ReadValue(r, &out->index_page_offset);
      case 11:
        return ReadValue(r, &out->dictionary_page_offset);
      case 12:
        return ReadValue(r, &out->statistics);
      case 13:
        return ReadValue(r, &out->encoding_stats);
      case 14:
        return ReadValue(r, &out->bloom_filter_offset);
      case 15:
        return ReadValue(r, &out->bloom_filter_length);
      case 16:
        return ReadValue(r, &out->size_statistics);
      default:
        return ReadValue(r, &out->geospatial_statistics);
    }
  });
}

constexpr StructSpec<2> kEncryptionWithColumnKeySpec{
    "EncryptionWithColumnKey",
    {{1, kList, kRequired, "path_in_schema"}, {2, kBinary, kOptional, "key_metadata"}}};
constexpr StructSpec<2> kColumnCryptoMetaDataSpec{
    "ColumnCryptoMetaData",
    {{1, kStruct, kOptional, "ENCRYPTION_WITH_FOOTER_KEY"},
     {2, kStruct, kOptional, "ENCRYPTION_WITH_COLUMN_KEY"}}};

Status ReadValue(CompactReader& r, ColumnCryptoMetaData* out) {
  return ReadStruct(r, kColumnCryptoMetaDataSpec, [&](const FieldHeader& f) -> Status {
    if (f.id == 1) {
      out->kind = ColumnCryptoMetaData::Kind::kFooterKey;
      return ReadEmptyStruct(r);
    }
    out->kind = ColumnCryptoMetaData::Kind::kColumnKey;
    return ReadStruct(r, kEncryptionWithColumnKeySpec, [&](const FieldHeader& g) -> Status {
      if (g.id == 1) return ReadValue(r, &out->path_in_schema);
      return ReadValue(r, &out->key_metadata);
    });
  });
}

constexpr StructSpec<9> kColumnChunkSpec{"ColumnChunk",
                                         {{1, kBinary, kOptional, "file_path"},
                                          {2, kI64, kRequired, "file_offset"},
                                          {3, kStruct, kOptional, "meta_data"},
                                          {4, kI64, kOptional, "offset_index_offset"},
                                          {5, kI32, kOptional, "offset_index_length"},
                                          {6, kI64, kOptional, "column_index_offset"},
                                          {7, kI32, kOptional, "column_index_length"},
                                          {8, kStruct, kOptional, "crypto_metadata"},
                                          {9, kBinary, kOptional, "encrypted_column_metadata"}}};

Status ReadValue(CompactReader& r, ColumnChunk* out) {
  return ReadStruct(r, kColumnChunkSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->file_path);
      case 2:
        return ReadValue(r, &out->file_offset);
      case 3:
        return ReadValue(r, &out->meta_data);
      case 4:
        return ReadValue(r, &out->offset_index_offset);
      case 5:
        return ReadValue(r, &out->offset_index_length);
      case 6:
        return ReadValue(r, &out->column_index_offset);
      case 7:
        return ReadValue(r, &out->column_index_length);
      case 8:
        return ReadValue(r, &out->crypto_metadata);
      default:
        return ReadValue(r, &out->encrypted_column_metadata);
    }
  });
}

constexpr StructSpec<7> kRowGroupSpec{"RowGroup",
                                      {{1, kList, kRequired, "columns"},
                                       {2, kI64, kRequired, "total_byte_size"},
                                       {3, kI64, kRequired, "num_rows"},
                                       {4, kList, kOptional, "sorting_columns"},
                                       {5, kI64, kOptional, "file_offset"},
                                       {6, kI64, kOptional, "total_compressed_size"},
                                       {7, kI16, kOptional, "ordinal"}}};

Status ReadValue(CompactReader& r, RowGroup* out) {
  return ReadStruct(r, kRowGroupSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->columns);
      case 2:
        return ReadValue(r, &out->total_byte_size);
      case 3:
        return ReadValue(r, &out->num_rows);
      case 4:
        return ReadValue(r, &out->sorting_columns);
      case 5:
        return ReadValue(r, &out->file_offset);
      case 6:
        return ReadValue(r, &out->total_compressed_size);
      default:
        return ReadValue(r, &out->ordinal);
    }
  });
}

constexpr StructSpec<3> kColumnOrderSpec{"ColumnOrder",
                                         {{1, kStruct, kOptional, "TYPE_ORDER"},
                                          {2, kStruct, kOptional, "IEEE_754_TOTAL_ORDER"},
                                          {3, kStruct, kOptional, "INT96_TIMESTAMP_ORDER"}}};

Status ReadValue(CompactReader& r, ColumnOrder* out) {
  return ReadStruct(r, kColumnOrderSpec, [&](const FieldHeader& f) -> Status {
    out->kind = static_cast<ColumnOrder::Kind>(f.id);
    return ReadEmptyStruct(r);
  });
}

constexpr StructSpec<3> kPageLocationSpec{"PageLocation",
                                          {{1, kI64, kRequired, "offset"},
                                           {2, kI32, kRequired, "compressed_page_size"},
                                           {3, kI64, kRequired, "first_row_index"}}};

Status ReadValue(CompactReader& r, PageLocation* out) {
  return ReadStruct(r, kPageLocationSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->offset);
      case 2:
        return ReadValue(r, &out->compressed_page_size);
      default:
        return ReadValue(r, &out->first_row_index);
    }
  });
}

constexpr StructSpec<2> kOffsetIndexSpec{
    "OffsetIndex",
    {{1, kList, kRequired, "page_locations"},
     {2, kList, kOptional, "unencoded_byte_array_data_bytes"}}};

Status ReadValue(CompactReader& r, OffsetIndex* out) {
  return ReadStruct(r, kOffsetIndexSpec, [&](const FieldHeader& f) -> Status {
    if (f.id == 1) return ReadValue(r, &out->page_locations);
    return ReadValue(r, &out->unencoded_byte_array_data_bytes);
  });
}

constexpr StructSpec<8> kColumnIndexSpec{"ColumnIndex",
                                         {{1, kList, kRequired, "null_pages"},
                                          {2, kList, kRequired, "min_values"},
                                          {3, kList, kRequired, "max_values"},
                                          {4, kI32, kRequired, "boundary_order"},
                                          {5, kList, kOptional, "null_counts"},
                                          {6, kList, kOptional, "repetition_level_histograms"},
                                          {7, kList, kOptional, "definition_level_histograms"},
                                          {8, kList, kOptional, "nan_counts"}}};

Status ReadValue(CompactReader& r, ColumnIndex* out) {
  return ReadStruct(r, kColumnIndexSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->null_pages);
      case 2:
        return ReadValue(r, &out->min_values);
      case 3:
        return ReadValue(r, &out->max_values);
      case 4:
        return ReadValue(r, &out->boundary_order);
      case 5:
        return ReadValue(r, &out->null_counts);
      case 6:
        return ReadValue(r, &out->repetition_level_histograms);
      case 7:
        return ReadValue(r, &out->definition_level_histograms);
      default:
        return ReadValue(r, &out->nan_counts);
    }
  });
}

constexpr StructSpec<3> kAesGcmV1Spec{"AesGcmV1",
                                      {{1, kBinary, kOptional, "aad_prefix"},
                                       {2, kBinary, kOptional, "aad_file_unique"},
                                       {3, kBool, kOptional, "supply_aad_prefix"}}};
constexpr StructSpec<3> kAesGcmCtrV1Spec{"AesGcmCtrV1",
                                         {{1, kBinary, kOptional, "aad_prefix"},
                                          {2, kBinary, kOptional, "aad_file_unique"},
                                          {3, kBool, kOptional, "supply_aad_prefix"}}};
constexpr StructSpec<2> kEncryptionAlgorithmSpec{
    "EncryptionAlgorithm",
    {{1, kStruct, kOptional, "AES_GCM_V1"}, {2, kStruct, kOptional, "AES_GCM_CTR_V1"}}};

Status ReadValue(CompactReader& r, EncryptionAlgorithm* out) {
  return ReadStruct(r, kEncryptionAlgorithmSpec, [&](const FieldHeader& f) -> Status {
    out->kind = static_cast<EncryptionAlgorithm::Kind>(f.id);
    // Both alternatives have the same fields.
    return ReadStruct(r, f.id == 1 ? kAesGcmV1Spec : kAesGcmCtrV1Spec,
                      [&](const FieldHeader& g) -> Status {
                        switch (g.id) {
                          case 1:
                            return ReadValue(r, &out->aad_prefix);
                          case 2:
                            return ReadValue(r, &out->aad_file_unique);
                          default:
                            out->supply_aad_prefix = g.bool_value();
                            return Status::OK();
                        }
                      });
  });
}

constexpr StructSpec<9> kFileMetaDataSpec{"FileMetaData",
                                          {{1, kI32, kRequired, "version"},
                                           {2, kList, kRequired, "schema"},
                                           {3, kI64, kRequired, "num_rows"},
                                           {4, kList, kRequired, "row_groups"},
                                           {5, kList, kOptional, "key_value_metadata"},
                                           {6, kBinary, kOptional, "created_by"},
                                           {7, kList, kOptional, "column_orders"},
                                           {8, kStruct, kOptional, "encryption_algorithm"},
                                           {9, kBinary, kOptional, "footer_signing_key_metadata"}}};

Status ReadValue(CompactReader& r, FileMetaData* out) {
  return ReadStruct(r, kFileMetaDataSpec, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        return ReadValue(r, &out->version);
      case 2:
        return ReadValue(r, &out->schema);
      case 3:
        return ReadValue(r, &out->num_rows);
      case 4:
        return ReadValue(r, &out->row_groups);
      case 5:
        out->has_key_value_metadata = true;
        return ReadValue(r, &out->key_value_metadata);
      case 6:
        return ReadValue(r, &out->created_by);
      case 7:
        return ReadValue(r, &out->column_orders);
      case 8:
        return ReadValue(r, &out->encryption_algorithm);
      default:
        return ReadValue(r, &out->footer_signing_key_metadata);
    }
  });
}

constexpr StructSpec<2> kFileCryptoMetaDataSpec{
    "FileCryptoMetaData",
    {{1, kStruct, kRequired, "encryption_algorithm"}, {2, kBinary, kOptional, "key_metadata"}}};

Status ReadValue(CompactReader& r, FileCryptoMetaData* out) {
  return ReadStruct(r, kFileCryptoMetaDataSpec, [&](const FieldHeader& f) -> Status {
    if (f.id == 1) {
      out->encryption_algorithm =
          EncryptionAlgorithm{};  // a plain member: reset if the field repeats
      return ReadValue(r, &out->encryption_algorithm);
    }
    return ReadValue(r, &out->key_metadata);
  });
}

template <typename T>
Status ReadTopLevel(ByteSpan data, T* out, size_t* consumed, int64_t max_memory,
                    int64_t* memory_used = nullptr) {
  CompactReader r(data, max_memory);
  *out = T{};
  PQ_RETURN_IF_ERROR(r.ChargeMemory(sizeof(T)));
  PQ_RETURN_IF_ERROR(ReadValue(r, out));
  if (consumed != nullptr) *consumed = r.position();
  if (memory_used != nullptr) *memory_used = r.memory_charged();
  return Status::OK();
}

// ---------------------------------------------------------------------------------------------------
// Writers: scalars, enums, optionals and lists.

void WriteValue(CompactWriter& w, int8_t v) {
  w.WriteI8(v);
}
void WriteValue(CompactWriter& w, int16_t v) {
  w.WriteI16(v);
}
void WriteValue(CompactWriter& w, int32_t v) {
  w.WriteI32(v);
}
void WriteValue(CompactWriter& w, int64_t v) {
  w.WriteI64(v);
}
void WriteValue(CompactWriter& w, double v) {
  w.WriteDouble(v);
}
void WriteValue(CompactWriter& w, const std::string& v) {
  w.WriteBinary(v);
}

template <typename E>
requires std::is_enum_v<E>
void WriteValue(CompactWriter& w, E v) {
  w.WriteI32(static_cast<int32_t>(v));
}

void WriteValue(CompactWriter& w, const SizeStatistics& in);
void WriteValue(CompactWriter& w, const BoundingBox& in);
void WriteValue(CompactWriter& w, const GeospatialStatistics& in);
void WriteValue(CompactWriter& w, const Statistics& in);
void WriteValue(CompactWriter& w, const LogicalType& in);
void WriteValue(CompactWriter& w, const SchemaElement& in);
void WriteValue(CompactWriter& w, const DataPageHeader& in);
void WriteValue(CompactWriter& w, const DictionaryPageHeader& in);
void WriteValue(CompactWriter& w, const DataPageHeaderV2& in);
void WriteValue(CompactWriter& w, const BloomFilterHeader& in);
void WriteValue(CompactWriter& w, const PageHeader& in);
void WriteValue(CompactWriter& w, const KeyValue& in);
void WriteValue(CompactWriter& w, const SortingColumn& in);
void WriteValue(CompactWriter& w, const PageEncodingStats& in);
void WriteValue(CompactWriter& w, const ColumnMetaData& in);
void WriteValue(CompactWriter& w, const ColumnCryptoMetaData& in);
void WriteValue(CompactWriter& w, const ColumnChunk& in);
void WriteValue(CompactWriter& w, const RowGroup& in);
void WriteValue(CompactWriter& w, const ColumnOrder& in);
void WriteValue(CompactWriter& w, const PageLocation& in);
void WriteValue(CompactWriter& w, const OffsetIndex& in);
void WriteValue(CompactWriter& w, const ColumnIndex& in);
void WriteValue(CompactWriter& w, const EncryptionAlgorithm& in);
void WriteValue(CompactWriter& w, const FileMetaData& in);
void WriteValue(CompactWriter& w, const FileCryptoMetaData& in);

template <typename T>
void WriteValue(CompactWriter& w, const std::vector<T>& v) {
  w.WriteListHeader(WireTypeOf<T>(), static_cast<uint32_t>(v.size()));
  for (const T& e : v) WriteValue(w, e);
}

void WriteValue(CompactWriter& w, const std::vector<bool>& v) {
  w.WriteListHeader(kBool, static_cast<uint32_t>(v.size()));
  for (bool b : v) w.WriteBoolElement(b);
}

// A field: its header, then its value.
template <typename T>
void WriteField(CompactWriter& w, int16_t id, const T& v) {
  w.WriteFieldHeader(WireTypeOf<T>(), id);
  WriteValue(w, v);
}
void WriteField(CompactWriter& w, int16_t id, bool v) {
  w.WriteBoolField(id, v);
}
// An optional field: nothing when absent.
template <typename T>
void WriteField(CompactWriter& w, int16_t id, const std::optional<T>& v) {
  if (v.has_value()) WriteField(w, id, *v);
}
// An optional list held as a plain vector: nothing when empty.
template <typename T>
void WriteListIfAny(CompactWriter& w, int16_t id, const std::vector<T>& v) {
  if (!v.empty()) WriteField(w, id, v);
}
// An empty struct (a union's marker alternative).
void WriteEmptyStructField(CompactWriter& w, int16_t id) {
  w.WriteFieldHeader(kStruct, id);
  w.BeginStruct();
  w.EndStruct();
}

// ---------------------------------------------------------------------------------------------------
// Writers: one per struct.

void WriteValue(CompactWriter& w, const SizeStatistics& in) {
  w.BeginStruct();
  WriteField(w, 1, in.unencoded_byte_array_data_bytes);
  WriteListIfAny(w, 2, in.repetition_level_histogram);
  WriteListIfAny(w, 3, in.definition_level_histogram);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const BoundingBox& in) {
  w.BeginStruct();
  WriteField(w, 1, in.xmin);
  WriteField(w, 2, in.xmax);
  WriteField(w, 3, in.ymin);
  WriteField(w, 4, in.ymax);
  WriteField(w, 5, in.zmin);
  WriteField(w, 6, in.zmax);
  WriteField(w, 7, in.mmin);
  WriteField(w, 8, in.mmax);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const GeospatialStatistics& in) {
  w.BeginStruct();
  WriteField(w, 1, in.bbox);
  WriteListIfAny(w, 2, in.geospatial_types);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const Statistics& in) {
  w.BeginStruct();
  WriteField(w, 1, in.max);
  WriteField(w, 2, in.min);
  WriteField(w, 3, in.null_count);
  WriteField(w, 4, in.distinct_count);
  WriteField(w, 5, in.max_value);
  WriteField(w, 6, in.min_value);
  WriteField(w, 7, in.is_max_value_exact);
  WriteField(w, 8, in.is_min_value_exact);
  WriteField(w, 9, in.nan_count);
  w.EndStruct();
}

// A union alternative that is an empty struct, or none when `id` is 0.
void WriteMarkerUnion(CompactWriter& w, int16_t id) {
  w.BeginStruct();
  if (id != 0) WriteEmptyStructField(w, id);
  w.EndStruct();
}

void WriteTimeOrTimestampType(CompactWriter& w, const LogicalType& in) {
  w.BeginStruct();
  w.WriteBoolField(1, in.is_adjusted_to_utc);
  w.WriteFieldHeader(kStruct, 2);
  WriteMarkerUnion(w, static_cast<int16_t>(in.unit));
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const LogicalType& in) {
  w.BeginStruct();
  const auto id = static_cast<int16_t>(in.kind);
  switch (in.kind) {
    case LogicalType::Kind::kNone:
      // An alternative this reader did not know is written back as an empty struct under its id.
      if (in.unknown_field_id != 0) WriteEmptyStructField(w, in.unknown_field_id);
      break;
    case LogicalType::Kind::kDecimal:
      w.WriteFieldHeader(kStruct, id);
      w.BeginStruct();
      WriteField(w, 1, in.decimal_scale);
      WriteField(w, 2, in.decimal_precision);
      w.EndStruct();
      break;
    case LogicalType::Kind::kTime:
    case LogicalType::Kind::kTimestamp:
      w.WriteFieldHeader(kStruct, id);
      WriteTimeOrTimestampType(w, in);
      break;
    case LogicalType::Kind::kInteger:
      w.WriteFieldHeader(kStruct, id);
      w.BeginStruct();
      WriteField(w, 1, in.bit_width);
      w.WriteBoolField(2, in.is_signed);
      w.EndStruct();
      break;
    case LogicalType::Kind::kVariant:
      w.WriteFieldHeader(kStruct, id);
      w.BeginStruct();
      WriteField(w, 1, in.variant_specification_version);
      w.EndStruct();
      break;
    case LogicalType::Kind::kGeometry:
      w.WriteFieldHeader(kStruct, id);
      w.BeginStruct();
      WriteField(w, 1, in.crs);
      w.EndStruct();
      break;
    case LogicalType::Kind::kGeography:
      w.WriteFieldHeader(kStruct, id);
      w.BeginStruct();
      WriteField(w, 1, in.crs);
      WriteField(w, 2, in.algorithm);
      w.EndStruct();
      break;
    default:
      WriteEmptyStructField(w, id);
      break;
  }
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const SchemaElement& in) {
  w.BeginStruct();
  WriteField(w, 1, in.type);
  WriteField(w, 2, in.type_length);
  WriteField(w, 3, in.repetition_type);
  WriteField(w, 4, in.name);
  WriteField(w, 5, in.num_children);
  WriteField(w, 6, in.converted_type);
  WriteField(w, 7, in.scale);
  WriteField(w, 8, in.precision);
  WriteField(w, 9, in.field_id);
  WriteField(w, 10, in.logical_type);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const DataPageHeader& in) {
  w.BeginStruct();
  WriteField(w, 1, in.num_values);
  WriteField(w, 2, in.encoding);
  WriteField(w, 3, in.definition_level_encoding);
  WriteField(w, 4, in.repetition_level_encoding);
  WriteField(w, 5, in.statistics);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const DictionaryPageHeader& in) {
  w.BeginStruct();
  WriteField(w, 1, in.num_values);
  WriteField(w, 2, in.encoding);
  WriteField(w, 3, in.is_sorted);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const DataPageHeaderV2& in) {
  w.BeginStruct();
  WriteField(w, 1, in.num_values);
  WriteField(w, 2, in.num_nulls);
  WriteField(w, 3, in.num_rows);
  WriteField(w, 4, in.encoding);
  WriteField(w, 5, in.definition_levels_byte_length);
  WriteField(w, 6, in.repetition_levels_byte_length);
  WriteField(w, 7,
             in.is_compressed);  // always written: readers of old editions assume true otherwise
  WriteField(w, 8, in.statistics);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const BloomFilterHeader& in) {
  w.BeginStruct();
  WriteField(w, 1, in.num_bytes);
  w.WriteFieldHeader(kStruct, 2);
  WriteMarkerUnion(w, in.algorithm);
  w.WriteFieldHeader(kStruct, 3);
  WriteMarkerUnion(w, in.hash);
  w.WriteFieldHeader(kStruct, 4);
  WriteMarkerUnion(w, in.compression);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const PageHeader& in) {
  w.BeginStruct();
  WriteField(w, 1, in.type);
  WriteField(w, 2, in.uncompressed_page_size);
  WriteField(w, 3, in.compressed_page_size);
  WriteField(w, 4, in.crc);
  WriteField(w, 5, in.data_page_header);
  if (in.has_index_page_header) WriteEmptyStructField(w, 6);
  WriteField(w, 7, in.dictionary_page_header);
  WriteField(w, 8, in.data_page_header_v2);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const KeyValue& in) {
  w.BeginStruct();
  WriteField(w, 1, in.key);
  WriteField(w, 2, in.value);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const SortingColumn& in) {
  w.BeginStruct();
  WriteField(w, 1, in.column_idx);
  WriteField(w, 2, in.descending);
  WriteField(w, 3, in.nulls_first);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const PageEncodingStats& in) {
  w.BeginStruct();
  WriteField(w, 1, in.page_type);
  WriteField(w, 2, in.encoding);
  WriteField(w, 3, in.count);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const ColumnMetaData& in) {
  w.BeginStruct();
  WriteField(w, 1, in.type);
  WriteField(w, 2, in.encodings);
  WriteField(w, 3, in.path_in_schema);
  WriteField(w, 4, in.codec);
  WriteField(w, 5, in.num_values);
  WriteField(w, 6, in.total_uncompressed_size);
  WriteField(w, 7, in.total_compressed_size);
  WriteListIfAny(w, 8, in.key_value_metadata);
  WriteField(w, 9, in.data_page_offset);
  WriteField(w, 10, in.index_page_offset);
  WriteField(w, 11, in.dictionary_page_offset);
  WriteField(w, 12, in.statistics);
  WriteField(w, 13, in.encoding_stats);
  WriteField(w, 14, in.bloom_filter_offset);
  WriteField(w, 15, in.bloom_filter_length);
  WriteField(w, 16, in.size_statistics);
  WriteField(w, 17, in.geospatial_statistics);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const ColumnCryptoMetaData& in) {
  w.BeginStruct();
  switch (in.kind) {
    case ColumnCryptoMetaData::Kind::kFooterKey:
      WriteEmptyStructField(w, 1);
      break;
    case ColumnCryptoMetaData::Kind::kColumnKey:
      w.WriteFieldHeader(kStruct, 2);
      w.BeginStruct();
      WriteField(w, 1, in.path_in_schema);
      WriteField(w, 2, in.key_metadata);
      w.EndStruct();
      break;
    default:
      break;
  }
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const ColumnChunk& in) {
  w.BeginStruct();
  WriteField(w, 1, in.file_path);
  WriteField(w, 2, in.file_offset);
  WriteField(w, 3, in.meta_data);
  WriteField(w, 4, in.offset_index_offset);
  WriteField(w, 5, in.offset_index_length);
  WriteField(w, 6, in.column_index_offset);
  WriteField(w, 7, in.column_index_length);
  WriteField(w, 8, in.crypto_metadata);
  WriteField(w, 9, in.encrypted_column_metadata);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const RowGroup& in) {
  w.BeginStruct();
  WriteField(w, 1, in.columns);
  WriteField(w, 2, in.total_byte_size);
  WriteField(w, 3, in.num_rows);
  WriteField(w, 4, in.sorting_columns);
  WriteField(w, 5, in.file_offset);
  WriteField(w, 6, in.total_compressed_size);
  WriteField(w, 7, in.ordinal);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const ColumnOrder& in) {
  WriteMarkerUnion(w, static_cast<int16_t>(in.kind));
}

void WriteValue(CompactWriter& w, const PageLocation& in) {
  w.BeginStruct();
  WriteField(w, 1, in.offset);
  WriteField(w, 2, in.compressed_page_size);
  WriteField(w, 3, in.first_row_index);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const OffsetIndex& in) {
  w.BeginStruct();
  WriteField(w, 1, in.page_locations);
  WriteListIfAny(w, 2, in.unencoded_byte_array_data_bytes);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const ColumnIndex& in) {
  w.BeginStruct();
  WriteField(w, 1, in.null_pages);
  WriteField(w, 2, in.min_values);
  WriteField(w, 3, in.max_values);
  WriteField(w, 4, in.boundary_order);
  WriteField(w, 5, in.null_counts);
  WriteListIfAny(w, 6, in.repetition_level_histograms);
  WriteListIfAny(w, 7, in.definition_level_histograms);
  WriteField(w, 8, in.nan_counts);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const EncryptionAlgorithm& in) {
  w.BeginStruct();
  if (in.kind != EncryptionAlgorithm::Kind::kNone) {
    w.WriteFieldHeader(kStruct, static_cast<int16_t>(in.kind));
    w.BeginStruct();
    WriteField(w, 1, in.aad_prefix);
    WriteField(w, 2, in.aad_file_unique);
    WriteField(w, 3, in.supply_aad_prefix);
    w.EndStruct();
  }
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const FileMetaData& in) {
  w.BeginStruct();
  WriteField(w, 1, in.version);
  WriteField(w, 2, in.schema);
  WriteField(w, 3, in.num_rows);
  WriteField(w, 4, in.row_groups);
  if (in.has_key_value_metadata || !in.key_value_metadata.empty())
    WriteField(w, 5, in.key_value_metadata);
  WriteField(w, 6, in.created_by);
  WriteField(w, 7, in.column_orders);
  WriteField(w, 8, in.encryption_algorithm);
  WriteField(w, 9, in.footer_signing_key_metadata);
  w.EndStruct();
}

void WriteValue(CompactWriter& w, const FileCryptoMetaData& in) {
  w.BeginStruct();
  WriteField(w, 1, in.encryption_algorithm);
  WriteField(w, 2, in.key_metadata);
  w.EndStruct();
}

template <typename T>
void WriteTopLevel(const T& in, std::string* out) {
  CompactWriter w(out);
  WriteValue(w, in);
}

}  // namespace

Status ReadFileMetaData(ByteSpan data, FileMetaData* out, size_t* consumed, int64_t max_memory,
                        int64_t* memory_used) {
  return ReadTopLevel(data, out, consumed, max_memory, memory_used);
}
Status ReadPageHeader(ByteSpan data, PageHeader* out, size_t* consumed) {
  return ReadTopLevel(data, out, consumed, kDefaultMetadataMemory);
}
Status ReadColumnIndex(ByteSpan data, ColumnIndex* out, size_t* consumed, int64_t max_memory) {
  return ReadTopLevel(data, out, consumed, max_memory);
}
Status ReadOffsetIndex(ByteSpan data, OffsetIndex* out, size_t* consumed, int64_t max_memory) {
  return ReadTopLevel(data, out, consumed, max_memory);
}
Status ReadBloomFilterHeader(ByteSpan data, BloomFilterHeader* out, size_t* consumed) {
  return ReadTopLevel(data, out, consumed, kDefaultMetadataMemory);
}
Status ReadFileCryptoMetaData(ByteSpan data, FileCryptoMetaData* out, size_t* consumed) {
  return ReadTopLevel(data, out, consumed, kDefaultMetadataMemory);
}
Status ReadColumnMetaData(ByteSpan data, ColumnMetaData* out, size_t* consumed, int64_t max_memory) {
  return ReadTopLevel(data, out, consumed, max_memory);
}

void WriteFileMetaData(const FileMetaData& in, std::string* out) {
  WriteTopLevel(in, out);
}
void WritePageHeader(const PageHeader& in, std::string* out) {
  WriteTopLevel(in, out);
}
void WriteColumnIndex(const ColumnIndex& in, std::string* out) {
  WriteTopLevel(in, out);
}
void WriteOffsetIndex(const OffsetIndex& in, std::string* out) {
  WriteTopLevel(in, out);
}
void WriteBloomFilterHeader(const BloomFilterHeader& in, std::string* out) {
  WriteTopLevel(in, out);
}
void WriteFileCryptoMetaData(const FileCryptoMetaData& in, std::string* out) {
  WriteTopLevel(in, out);
}
void WriteColumnMetaData(const ColumnMetaData& in, std::string* out) {
  WriteTopLevel(in, out);
}

}  // namespace pq
