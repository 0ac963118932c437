#include "ext/shredded_columns.h"

#include <cctype>

#include "ext/options.h"

namespace pq::ext {
namespace {

// Letters, digits and '_', not starting with a digit: a name that needs no quoting in a JSON path
// and has no '.' to confuse the column name.
bool PlainName(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80 || (!std::isalnum(c) && c != '_')) return false;
  }
  return true;
}

// The VARIANT group of table column `column` in `file`, or null.
const SchemaNode* VariantOf(const DatasetFile& file, int column) {
  if (column < 0 || static_cast<size_t>(column) >= file.columns.field_of_column.size())
    return nullptr;
  const int field = file.columns.field_of_column[static_cast<size_t>(column)];
  if (field < 0) return nullptr;
  const SchemaNode* node = file.reader->schema().fields()[static_cast<size_t>(field)];
  return node->logical_type.kind == LogicalType::Kind::kVariant && !node->is_leaf ? node : nullptr;
}

}  // namespace

std::vector<ShreddedColumn> FindShreddedColumns(const DatasetSnapshot& data,
                                                const std::vector<DatasetColumn>& columns,
                                                const std::vector<std::string>& taken) {
  std::vector<std::string> names;  // lower-cased, every name taken so far
  for (const std::string& name : taken) names.push_back(LowerAscii(name));
  std::vector<ShreddedColumn> out;
  for (size_t c = 0; c < columns.size(); ++c) {
    for (const DatasetFile& file : data.files) {
      const SchemaNode* variant = VariantOf(file, static_cast<int>(c));
      if (variant == nullptr) continue;
      for (const ShreddedField& field : ShreddedFieldsOf(*variant)) {
        ShreddedColumn column;
        column.name = columns[c].name;
        column.variant_column = static_cast<int>(c);
        column.path = field.path;
        column.json_path = "$";
        bool plain = true;
        for (const std::string& part : field.path) {
          plain = plain && PlainName(part);
          column.name += "." + part;
          column.json_path += "." + part;
        }
        if (field.path.empty()) column.name += ".$";
        if (!plain) continue;
        const std::string lowered = LowerAscii(column.name);
        bool seen = false;
        for (const std::string& n : names) seen = seen || n == lowered;
        if (seen) continue;
        names.push_back(lowered);
        out.push_back(std::move(column));
      }
    }
  }
  return out;
}

std::optional<ShreddedField> ShreddedFieldIn(const DatasetFile& file,
                                             const ShreddedColumn& column) {
  const SchemaNode* variant = VariantOf(file, column.variant_column);
  if (variant == nullptr) return std::nullopt;
  for (ShreddedField& field : ShreddedFieldsOf(*variant)) {
    if (field.path == column.path) return std::move(field);
  }
  return std::nullopt;
}

}  // namespace pq::ext
