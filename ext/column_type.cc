#include "ext/column_type.h"

#include <cctype>
#include <charconv>
#include <string>
#include <vector>

#include "ext/options.h"
#include "format/writer/text_to_value.h"

namespace pq::ext {

namespace {

// Upper case, runs of white space as one space, no space around parentheses and commas.
std::string Normalize(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : TrimSpace(s)) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty() && c != '(' && c != ')' && c != ',' && out.back() != '(' &&
        out.back() != ',') {
      out.push_back(' ');
    }
    space = false;
    out.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  }
  return out;
}

bool ParseSmallInt(std::string_view s, int* out) {
  s = TrimSpace(s);
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

// The arguments of TIME and TIMESTAMP: (unit[, UTC|LOCAL]). Sets t->unit, and
// t->adjusted_to_utc when UTC or LOCAL is given.
Status ParseTimeArguments(std::string_view base, const std::vector<std::string>& args,
                          ColumnType* t) {
  auto bad = [base]() {
    return Status::InvalidArgument("type " + std::string(base) +
                                   " takes a unit (MILLIS, MICROS or NANOS), then optionally "
                                   "UTC or LOCAL");
  };
  if (args.empty()) return Status::OK();
  if (args.size() > 2) return bad();
  const std::string& u = args[0];
  if (u == "MILLIS" || u == "MS" || u == "3") {
    t->unit = TimeUnit::kMillis;
  } else if (u == "MICROS" || u == "US" || u == "6") {
    t->unit = TimeUnit::kMicros;
  } else if (u == "NANOS" || u == "NS" || u == "9") {
    t->unit = TimeUnit::kNanos;
  } else {
    return bad();
  }
  if (args.size() == 2) {
    if (args[1] == "UTC") {
      t->adjusted_to_utc = true;
    } else if (args[1] == "LOCAL") {
      t->adjusted_to_utc = false;
    } else {
      return bad();
    }
  }
  return Status::OK();
}

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

}  // namespace

PhysicalType ColumnType::physical_type() const {
  switch (kind) {
    case ColumnKind::kBoolean:
      return PhysicalType::kBoolean;
    case ColumnKind::kInteger:
      return bit_width == 64 ? PhysicalType::kInt64 : PhysicalType::kInt32;
    case ColumnKind::kDouble:
      return PhysicalType::kDouble;
    case ColumnKind::kFloat:
      return PhysicalType::kFloat;
    case ColumnKind::kInfer:
    case ColumnKind::kNull:
    case ColumnKind::kDate:
      return PhysicalType::kInt32;
    case ColumnKind::kTime:  // TIME(MILLIS) is INT32 (types spec, "TIME")
      return unit == TimeUnit::kMillis ? PhysicalType::kInt32 : PhysicalType::kInt64;
    case ColumnKind::kTimestamp:
      return PhysicalType::kInt64;
    case ColumnKind::kDecimal:
      return precision <= 9    ? PhysicalType::kInt32
             : precision <= 18 ? PhysicalType::kInt64
                               : PhysicalType::kFixedLenByteArray;
    case ColumnKind::kUuid:
      return PhysicalType::kFixedLenByteArray;
    case ColumnKind::kString:
    case ColumnKind::kBlob:
    case ColumnKind::kJson:
    case ColumnKind::kList:
    case ColumnKind::kMap:
    case ColumnKind::kStruct:
      return PhysicalType::kByteArray;
  }
  return PhysicalType::kByteArray;
}

int32_t ColumnType::type_length() const {
  if (kind == ColumnKind::kUuid) return 16;
  if (kind == ColumnKind::kDecimal && precision > 18) return DecimalByteWidth(precision);
  return 0;
}

namespace {

// The primitive types of the table in column_type.h, and SQLite's affinity rules.
Result<ColumnType> ParsePrimitiveType(std::string_view name) {
  const std::string norm = Normalize(name);
  std::string base = norm;
  std::vector<std::string> args;
  const size_t open = norm.find('(');
  if (open != std::string::npos) {
    base = std::string(TrimSpace(std::string_view(norm).substr(0, open)));
    const size_t close = norm.rfind(')');
    if (close == std::string::npos || close < open) {
      return Status::InvalidArgument("type '" + std::string(TrimSpace(name)) + "' has an unclosed '('");
    }
    std::string inner = norm.substr(open + 1, close - open - 1);
    size_t start = 0;
    while (start <= inner.size()) {
      size_t comma = inner.find(',', start);
      if (comma == std::string::npos) comma = inner.size();
      args.emplace_back(TrimSpace(std::string_view(inner).substr(start, comma - start)));
      start = comma + 1;
    }
  }
  const std::string& b = base;
  if (b == "BOOLEAN" || b == "BOOL") return ColumnType::Of(ColumnKind::kBoolean);
  if (b == "TINYINT" || b == "INT1") return ColumnType::Integer(8, true);
  if (b == "SMALLINT" || b == "INT2") return ColumnType::Integer(16, true);
  if (b == "MEDIUMINT" || b == "INT4" || b == "INT32") return ColumnType::Integer(32, true);
  if (b == "INTEGER" || b == "INT" || b == "BIGINT" || b == "INT8" || b == "INT64" || b == "LONG") {
    return ColumnType::Integer(64, true);
  }
  if (b == "UTINYINT" || b == "UINT8") return ColumnType::Integer(8, false);
  if (b == "USMALLINT" || b == "UINT16") return ColumnType::Integer(16, false);
  if (b == "UINTEGER" || b == "UINT32") return ColumnType::Integer(32, false);
  if (b == "UBIGINT" || b == "UINT64") return ColumnType::Integer(64, false);
  if (b == "REAL" || b == "DOUBLE" || b == "DOUBLE PRECISION" || b == "FLOAT" || b == "FLOAT8" ||
      b == "FLOAT64") {
    return ColumnType::Of(ColumnKind::kDouble);
  }
  if (b == "FLOAT4" || b == "FLOAT32") return ColumnType::Of(ColumnKind::kFloat);
  if (b == "JSON") return ColumnType::Of(ColumnKind::kJson);
  if (b == "UUID") return ColumnType::Of(ColumnKind::kUuid);
  if (b == "DATE") return ColumnType::Of(ColumnKind::kDate);
  if (b == "TIME" || b == "TIMETZ" || b == "TIME WITH TIME ZONE" ||
      b == "TIME WITHOUT TIME ZONE") {
    ColumnType t = ColumnType::Of(ColumnKind::kTime);
    t.adjusted_to_utc = b == "TIMETZ" || b == "TIME WITH TIME ZONE";
    PQ_RETURN_IF_ERROR(ParseTimeArguments(b, args, &t));
    return t;
  }
  if (b == "TIMESTAMP" || b == "DATETIME" || b == "TIMESTAMPTZ" ||
      b == "TIMESTAMP WITH TIME ZONE" || b == "TIMESTAMP WITHOUT TIME ZONE") {
    ColumnType t = ColumnType::Of(ColumnKind::kTimestamp);
    t.adjusted_to_utc = b != "TIMESTAMP WITHOUT TIME ZONE";
    PQ_RETURN_IF_ERROR(ParseTimeArguments(b, args, &t));
    return t;
  }
  if (b == "TIMESTAMP_MS" || b == "TIMESTAMP_US" || b == "TIMESTAMP_NS") {
    ColumnType t = ColumnType::Of(ColumnKind::kTimestamp);
    t.adjusted_to_utc = true;
    t.unit = b == "TIMESTAMP_MS"   ? TimeUnit::kMillis
             : b == "TIMESTAMP_US" ? TimeUnit::kMicros
                                   : TimeUnit::kNanos;
    return t;
  }
  if ((b == "DECIMAL" || b == "NUMERIC") && !args.empty()) {
    ColumnType t = ColumnType::Of(ColumnKind::kDecimal);
    const std::string shown = std::string(TrimSpace(name));
    if (args.size() > 2 || !ParseSmallInt(args[0], &t.precision) ||
        (args.size() == 2 && !ParseSmallInt(args[1], &t.scale))) {
      return Status::InvalidArgument("type '" + shown + "' must be DECIMAL(precision[, scale])");
    }
    if (t.precision < 1 || t.precision > 38) {
      return Status::InvalidArgument("type '" + shown +
                                     "': the precision must be between 1 and 38");
    }
    if (t.scale < 0 || t.scale > t.precision) {
      return Status::InvalidArgument("type '" + shown +
                                     "': the scale must be between 0 and the precision");
    }
    return t;
  }
  if (b == "TEXT" || b == "STRING" || b == "VARCHAR" || b == "CHAR" || b == "CLOB") {
    return ColumnType::Of(ColumnKind::kString);
  }
  if (b == "BLOB" || b == "BYTEA" || b == "BINARY" || b == "VARBINARY")
    return ColumnType::Of(ColumnKind::kBlob);
  // SQLite's affinity rules (https://sqlite.org/datatype3.html, "Determination Of Column
  // Affinity").
  if (Contains(b, "INT")) return ColumnType::Integer(64, true);
  if (Contains(b, "CHAR") || Contains(b, "CLOB") || Contains(b, "TEXT"))
    return ColumnType::Of(ColumnKind::kString);
  if (Contains(b, "BLOB")) return ColumnType::Of(ColumnKind::kBlob);
  if (Contains(b, "REAL") || Contains(b, "FLOA") || Contains(b, "DOUB"))
    return ColumnType::Of(ColumnKind::kDouble);
  return ColumnType::Of(ColumnKind::kInfer);
}

bool IsIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// The keyword of a nested type at the start of `text` (LIST, MAP, STRUCT, any case) when '<'
// follows it: its kind, and the position after the '<'.
bool NestedKeyword(std::string_view text, ColumnKind* kind, size_t* after) {
  size_t i = 0;
  while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
  std::string word(text.substr(0, i));
  for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i >= text.size() || text[i] != '<') return false;
  if (word == "LIST") {
    *kind = ColumnKind::kList;
  } else if (word == "MAP") {
    *kind = ColumnKind::kMap;
  } else if (word == "STRUCT") {
    *kind = ColumnKind::kStruct;
  } else {
    return false;
  }
  *after = i + 1;
  return true;
}

// Recursive descent over a nested type name (grammar in column_type.h):
//   type   := LIST '<' type '>' | MAP '<' type ',' type '>' | STRUCT '<' field {',' field} '>'
//           | primitive
//   field  := name type          (name: an identifier, or quoted with "", ``, [])
//   primitive: the text up to the next ',' or '>' outside parentheses
class NestedTypeParser {
 public:
  explicit NestedTypeParser(std::string_view text) : s_(text) {}

  Result<ColumnType> Parse() {
    PQ_ASSIGN_OR_RETURN(ColumnType t, Type(0));
    SkipSpace();
    if (i_ != s_.size()) return Error("unexpected '" + std::string(s_.substr(i_, 1)) + "'");
    return t;
  }

 private:
  static constexpr int kMaxDepth = 64;

  Status Error(const std::string& what) const {
    return Status::InvalidArgument("type '" + std::string(TrimSpace(s_)) + "': " + what);
  }
  void SkipSpace() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  Status Expect(char c) {
    SkipSpace();
    if (i_ >= s_.size() || s_[i_] != c) {
      return Error(
          std::string("expected '") + c + "'" +
          (i_ < s_.size() ? " at '" + std::string(s_.substr(i_, 10)) + "'" : " at the end"));
    }
    ++i_;
    return Status::OK();
  }

  Result<ColumnType> Type(int depth) {
    if (depth > kMaxDepth) return Error("nested more than " + std::to_string(kMaxDepth) + " deep");
    SkipSpace();
    ColumnKind kind;
    size_t after = 0;
    if (!NestedKeyword(s_.substr(i_), &kind, &after)) return Primitive();
    i_ += after;
    ColumnType t;
    t.kind = kind;
    if (kind == ColumnKind::kStruct) {
      while (true) {
        PQ_ASSIGN_OR_RETURN(std::string name, FieldName());
        for (const std::string& other : t.field_names) {
          if (EqualsIgnoringCase(other, name)) return Error("field '" + name + "' is given twice");
        }
        PQ_ASSIGN_OR_RETURN(ColumnType field, Type(depth + 1));
        t.field_names.push_back(std::move(name));
        t.children.push_back(std::move(field));
        SkipSpace();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        break;
      }
    } else {
      PQ_ASSIGN_OR_RETURN(ColumnType first, Type(depth + 1));
      t.children.push_back(std::move(first));
      if (kind == ColumnKind::kMap) {
        const ColumnType& key = t.children[0];
        if (key.is_nested() || key.kind == ColumnKind::kJson) {
          return Error("a MAP key must be a primitive type other than JSON, not " +
                       ColumnTypeName(key));
        }
        PQ_RETURN_IF_ERROR(Expect(','));
        PQ_ASSIGN_OR_RETURN(ColumnType value, Type(depth + 1));
        t.children.push_back(std::move(value));
      }
    }
    PQ_RETURN_IF_ERROR(Expect('>'));
    return t;
  }

  Result<ColumnType> Primitive() {
    const size_t start = i_;
    int parens = 0;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '(') ++parens;
      if (c == ')') --parens;
      if (parens <= 0 && (c == ',' || c == '>' || c == '<')) break;
      ++i_;
    }
    const std::string_view text = TrimSpace(s_.substr(start, i_ - start));
    if (text.empty()) return Error("a type is missing");
    if (i_ < s_.size() && s_[i_] == '<') {
      return Error("unknown type '" + std::string(text) +
                   "<' (nested types are LIST, MAP, STRUCT)");
    }
    Result<ColumnType> t = ParsePrimitiveType(text);
    if (!t.ok()) return Error(t.status().message());
    if (t->kind == ColumnKind::kInfer) return Error("unknown type '" + std::string(text) + "'");
    return t;
  }

  Result<std::string> FieldName() {
    SkipSpace();
    if (i_ >= s_.size()) return Error("a field name is missing");
    const char open = s_[i_];
    if (open == '"' || open == '`' || open == '[') {
      const char close = open == '[' ? ']' : open;
      std::string name;
      for (++i_; i_ < s_.size(); ++i_) {
        if (s_[i_] == close) {
          if (close != ']' && i_ + 1 < s_.size() && s_[i_ + 1] == close) {
            name.push_back(close);
            ++i_;
            continue;
          }
          break;
        }
        name.push_back(s_[i_]);
      }
      if (i_ >= s_.size()) return Error("unclosed quote in a field name");
      ++i_;
      if (name.empty()) return Error("a field name is empty");
      return name;
    }
    const size_t start = i_;
    while (i_ < s_.size() && IsIdentifierChar(s_[i_])) ++i_;
    if (i_ == start)
      return Error("a field name is missing at '" + std::string(s_.substr(i_, 10)) + "'");
    return std::string(s_.substr(start, i_ - start));
  }

  static bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t k = 0; k < a.size(); ++k) {
      if (std::tolower(static_cast<unsigned char>(a[k])) !=
          std::tolower(static_cast<unsigned char>(b[k]))) {
        return false;
      }
    }
    return true;
  }

  std::string_view s_;
  size_t i_ = 0;
};

bool IsPlainIdentifier(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) return false;
  for (char c : name) {
    if (!IsIdentifierChar(c)) return false;
  }
  return true;
}

}  // namespace

Result<ColumnType> ParseColumnType(std::string_view name) {
  ColumnKind kind;
  size_t after = 0;
  if (NestedKeyword(TrimSpace(name), &kind, &after)) return NestedTypeParser(name).Parse();
  return ParsePrimitiveType(name);
}

std::string ColumnTypeName(const ColumnType& t) {
  static const char* const kUnit[] = {"", "MILLIS", "MICROS", "NANOS"};
  switch (t.kind) {
    case ColumnKind::kInfer:
      return "";
    case ColumnKind::kNull:
      return "NULL";
    case ColumnKind::kBoolean:
      return "BOOLEAN";
    case ColumnKind::kInteger:
      switch (t.bit_width) {
        case 8:
          return t.is_signed ? "TINYINT" : "UTINYINT";
        case 16:
          return t.is_signed ? "SMALLINT" : "USMALLINT";
        case 32:
          return t.is_signed ? "INT32" : "UINTEGER";
        default:
          return t.is_signed ? "INTEGER" : "UBIGINT";
      }
    case ColumnKind::kDouble:
      return "REAL";
    case ColumnKind::kFloat:
      return "FLOAT4";
    case ColumnKind::kString:
      return "TEXT";
    case ColumnKind::kBlob:
      return "BLOB";
    case ColumnKind::kJson:
      return "JSON";
    case ColumnKind::kDate:
      return "DATE";
    case ColumnKind::kTime:  // a time of day is local unless it says otherwise
      return std::string("TIME(") + kUnit[static_cast<int>(t.unit)] +
             (t.adjusted_to_utc ? ", UTC)" : ")");
    case ColumnKind::kTimestamp:  // an instant is UTC unless it says otherwise
      return std::string("TIMESTAMP(") + kUnit[static_cast<int>(t.unit)] +
             (t.adjusted_to_utc ? ")" : ", LOCAL)");
    case ColumnKind::kDecimal:
      return "DECIMAL(" + std::to_string(t.precision) + "," + std::to_string(t.scale) + ")";
    case ColumnKind::kUuid:
      return "UUID";
    case ColumnKind::kList:
      return "LIST<" + ColumnTypeName(t.children.at(0)) + ">";
    case ColumnKind::kMap:
      return "MAP<" + ColumnTypeName(t.children.at(0)) + ", " + ColumnTypeName(t.children.at(1)) +
             ">";
    case ColumnKind::kStruct: {
      std::string out = "STRUCT<";
      for (size_t i = 0; i < t.children.size(); ++i) {
        if (i) out += ", ";
        const std::string& name = t.field_names.at(i);
        if (IsPlainIdentifier(name)) {
          out += name;
        } else {
          out += '"';
          for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
          out += '"';
        }
        out += " " + ColumnTypeName(t.children[i]);
      }
      return out + ">";
    }
  }
  return "";
}

namespace {

// Whether SQLite's grammar takes `name` as a column type as it is (parse.y, "typetoken"): words,
// then optionally one or two signed numbers in parentheses.
bool IsSqlTypeName(std::string_view name) {
  size_t i = 0;
  auto space = [&]() {
    while (i < name.size() && name[i] == ' ') ++i;
  };
  auto word = [&]() {
    const size_t start = i;
    if (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) return false;
    while (i < name.size() && IsIdentifierChar(name[i])) ++i;
    return i > start;
  };
  auto number = [&]() {
    space();
    if (i < name.size() && (name[i] == '+' || name[i] == '-')) ++i;
    const size_t start = i;
    while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
    space();
    return i > start;
  };
  if (!word()) return false;
  while (true) {
    space();
    if (i == name.size()) return true;
    if (name[i] == '(') break;
    if (!word()) return false;
  }
  ++i;
  if (!number()) return false;
  if (i < name.size() && name[i] == ',') {
    ++i;
    if (!number()) return false;
  }
  return i + 1 == name.size() && name[i] == ')';
}

}  // namespace

std::string DeclaredTypeText(const ColumnType& t) {
  const std::string name = ColumnTypeName(t);
  if (IsSqlTypeName(name)) return name;
  std::string out = "'";
  for (char c : name) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

int LeafCount(const ColumnType& t) {
  if (!t.is_nested()) return 1;
  int n = 0;
  for (const ColumnType& c : t.children) n += LeafCount(c);
  return n;
}

void AppendSchemaElements(const std::string& name, const ColumnType& t,
                          std::vector<SchemaElement>* out) {
  if (!t.is_nested()) {
    out->push_back(ToSchemaElement(name, t));
    return;
  }
  // The Parquet type spec, "Nested Types": the 3-level LIST and the MAP layouts.
  auto group = [out](const std::string& n, Repetition rep, size_t children,
                     LogicalType::Kind logical) {
    SchemaElement e;
    e.name = n;
    e.repetition_type = rep;
    e.num_children = static_cast<int32_t>(children);
    if (logical != LogicalType::Kind::kNone) {
      LogicalType l;
      l.kind = logical;
      e.logical_type = l;
    }
    out->push_back(std::move(e));
  };
  switch (t.kind) {
    case ColumnKind::kList:
      group(name, Repetition::kOptional, 1, LogicalType::Kind::kList);
      group("list", Repetition::kRepeated, 1, LogicalType::Kind::kNone);
      AppendSchemaElements("element", t.children.at(0), out);
      break;
    case ColumnKind::kMap: {
      group(name, Repetition::kOptional, 1, LogicalType::Kind::kMap);
      group("key_value", Repetition::kRepeated, 2, LogicalType::Kind::kNone);
      AppendSchemaElements("key", t.children.at(0), out);
      out->back().repetition_type = Repetition::kRequired;  // a primitive: the key is one leaf
      AppendSchemaElements("value", t.children.at(1), out);
      break;
    }
    default:
      group(name, Repetition::kOptional, t.children.size(), LogicalType::Kind::kNone);
      for (size_t i = 0; i < t.children.size(); ++i) {
        AppendSchemaElements(t.field_names.at(i), t.children[i], out);
      }
      break;
  }
}

SchemaElement ToSchemaElement(const std::string& name, const ColumnType& t) {
  SchemaElement e;
  e.name = name;
  e.repetition_type = Repetition::kOptional;
  e.type = t.physical_type();
  if (t.type_length() > 0) e.type_length = t.type_length();
  LogicalType logical;
  switch (t.kind) {
    case ColumnKind::kInfer:
    case ColumnKind::kNull:
      logical.kind = LogicalType::Kind::kUnknown;
      break;
    case ColumnKind::kBoolean:
    case ColumnKind::kDouble:
    case ColumnKind::kFloat:
    case ColumnKind::kBlob:
      break;
    case ColumnKind::kInteger:
      if (t.bit_width < 64 || !t.is_signed) {
        logical.kind = LogicalType::Kind::kInteger;
        logical.bit_width = static_cast<int8_t>(t.bit_width);
        logical.is_signed = t.is_signed;
      }
      break;
    case ColumnKind::kString:
      logical.kind = LogicalType::Kind::kString;
      break;
    case ColumnKind::kJson:
      logical.kind = LogicalType::Kind::kJson;
      break;
    case ColumnKind::kDate:
      logical.kind = LogicalType::Kind::kDate;
      break;
    case ColumnKind::kTime:
    case ColumnKind::kTimestamp:
      logical.kind =
          t.kind == ColumnKind::kTime ? LogicalType::Kind::kTime : LogicalType::Kind::kTimestamp;
      logical.unit = t.unit;
      // By default instants are UTC and a time of day is local (DuckDB reads an adjusted TIME as
      // TIME WITH TIME ZONE, a TIMESTAMP that is not adjusted as TIMESTAMP).
      logical.is_adjusted_to_utc = t.adjusted_to_utc;
      break;
    case ColumnKind::kDecimal:
      logical.kind = LogicalType::Kind::kDecimal;
      logical.decimal_precision = t.precision;
      logical.decimal_scale = t.scale;
      e.precision = t.precision;
      e.scale = t.scale;
      break;
    case ColumnKind::kUuid:
      logical.kind = LogicalType::Kind::kUuid;
      break;
    case ColumnKind::kList:
    case ColumnKind::kMap:
    case ColumnKind::kStruct:
      break;  // groups: AppendSchemaElements
  }
  if (logical.kind != LogicalType::Kind::kNone) e.logical_type = logical;
  return e;
}

}  // namespace pq::ext
