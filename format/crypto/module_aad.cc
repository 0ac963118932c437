#include "format/crypto/module_aad.h"

#include "format/util/byte_reader.h"

namespace pq::crypto {
namespace {

constexpr int64_t kMaxOrdinal = 32767;  // int16

Status CheckOrdinal(int64_t value, const char* name, ModuleType type) {
  if (value < 0 || value > kMaxOrdinal) {
    return Status::InvalidArgument(std::string(name) + " ordinal " + std::to_string(value) +
                                   " of an encrypted " + ModuleTypeName(type) +
                                   " is outside 0..32767 (the AAD stores it as int16)");
  }
  return Status::OK();
}

void AppendInt16(std::string* out, int64_t value) {
  uint8_t le[2];
  StoreLE<uint16_t>(le, static_cast<uint16_t>(value));
  out->append(reinterpret_cast<const char*>(le), 2);
}

}  // namespace

const char* ModuleTypeName(ModuleType type) {
  switch (type) {
    case ModuleType::kFooter:
      return "footer";
    case ModuleType::kColumnMetaData:
      return "column metadata";
    case ModuleType::kDataPage:
      return "data page";
    case ModuleType::kDictionaryPage:
      return "dictionary page";
    case ModuleType::kDataPageHeader:
      return "data page header";
    case ModuleType::kDictionaryPageHeader:
      return "dictionary page header";
    case ModuleType::kColumnIndex:
      return "column index";
    case ModuleType::kOffsetIndex:
      return "offset index";
    case ModuleType::kBloomFilterHeader:
      return "Bloom filter header";
    case ModuleType::kBloomFilterBitset:
      return "Bloom filter bitset";
  }
  return "module";
}

std::string FooterAad(std::string_view file_aad) {
  std::string aad;
  aad.reserve(file_aad.size() + 1);
  aad.append(file_aad);
  aad.push_back(static_cast<char>(ModuleType::kFooter));
  return aad;
}

Result<std::string> ModuleAad(std::string_view file_aad, ModuleType type, int64_t row_group_ordinal,
                              int64_t column_ordinal, int64_t page_ordinal) {
  if (type == ModuleType::kFooter) {
    return Status::InvalidArgument("the footer AAD has no ordinals: use FooterAad");
  }
  if (static_cast<uint8_t>(type) > static_cast<uint8_t>(ModuleType::kBloomFilterBitset)) {
    return Status::InvalidArgument("unknown module type " + std::to_string(static_cast<int>(type)));
  }
  PQ_RETURN_IF_ERROR(CheckOrdinal(row_group_ordinal, "row group", type));
  PQ_RETURN_IF_ERROR(CheckOrdinal(column_ordinal, "column", type));
  const bool with_page = HasPageOrdinal(type);
  if (with_page) PQ_RETURN_IF_ERROR(CheckOrdinal(page_ordinal, "page", type));
  std::string aad;
  aad.reserve(file_aad.size() + 7);
  aad.append(file_aad);
  aad.push_back(static_cast<char>(type));
  AppendInt16(&aad, row_group_ordinal);
  AppendInt16(&aad, column_ordinal);
  if (with_page) AppendInt16(&aad, page_ordinal);
  return aad;
}

}  // namespace pq::crypto
