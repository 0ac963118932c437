// Module types and the AAD (additional authenticated data) of each encrypted module (the Parquet
// spec "Parquet Modular Encryption"): the AAD binds a module to its file, its kind and its place
// (row group, column, page), so modules moved or swapped between places fail authentication.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "format/metadata/metadata.h"
#include "format/util/status.h"

namespace pq::crypto {

// The Parquet spec "Parquet Modular Encryption" 4.4: a module's AAD is
//   aad_prefix | aad_file_unique | module type (1 byte)
//     | row group ordinal (int16 LE) | column ordinal (int16 LE)   -- all modules but the footer
//     | page ordinal (int16 LE)                                    -- data pages and their headers
//     only
// aad_prefix + aad_file_unique is the "file AAD" (FileAad below). The ordinals are the row group's
// position in the file (RowGroup.ordinal when set), the column chunk's position in its row group,
// and the data page's position among the chunk's data pages (from 0; the dictionary page does not
// count). Ordinals outside 0..32767 cannot be written in an int16 and are InvalidArgument.
enum class ModuleType : uint8_t {
  kFooter = 0,
  kColumnMetaData = 1,
  kDataPage = 2,
  kDictionaryPage = 3,
  kDataPageHeader = 4,
  kDictionaryPageHeader = 5,
  kColumnIndex = 6,
  kOffsetIndex = 7,
  kBloomFilterHeader = 8,
  kBloomFilterBitset = 9,
};

// "data page header", "offset index", ... for messages.
const char* ModuleTypeName(ModuleType type);

// True for the module types whose AAD ends with a page ordinal.
inline bool HasPageOrdinal(ModuleType type) {
  return type == ModuleType::kDataPage || type == ModuleType::kDataPageHeader;
}

// The file AAD: prefix then the file's unique part.
inline std::string FileAad(std::string_view aad_prefix, std::string_view aad_file_unique) {
  std::string aad;
  aad.reserve(aad_prefix.size() + aad_file_unique.size());
  aad.append(aad_prefix);
  aad.append(aad_file_unique);
  return aad;
}

// The footer's AAD: file AAD then the type byte 0.
std::string FooterAad(std::string_view file_aad);

// The AAD of a non-footer module. `page_ordinal` is used only when HasPageOrdinal(type).
// InvalidArgument for kFooter (use FooterAad) and for any ordinal outside 0..32767.
Result<std::string> ModuleAad(std::string_view file_aad, ModuleType type, int64_t row_group_ordinal,
                              int64_t column_ordinal, int64_t page_ordinal = 0);

// The row group ordinal to use in AADs: RowGroup.ordinal when the writer stored it, else the row
// group's index in FileMetaData.row_groups.
inline int64_t RowGroupOrdinal(const RowGroup& row_group, int64_t index) {
  return row_group.ordinal ? int64_t{*row_group.ordinal} : index;
}

}  // namespace pq::crypto
