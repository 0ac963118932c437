#include "ext/export_types.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "ext/options.h"
#include "format/value/temporal.h"
#include "format/writer/file_writer.h"
#include "format/writer/json_shredder.h"
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

ColumnType Make(ColumnKind kind) {
  ColumnType t;
  t.kind = kind;
  return t;
}

ColumnType MakeInt(int bits, bool is_signed) {
  ColumnType t = Make(ColumnKind::kInteger);
  t.bit_width = bits;
  t.is_signed = is_signed;
  return t;
}

Result<TimeUnit> ParseUnit(std::string_view base, const std::vector<std::string>& args) {
  if (args.empty()) return TimeUnit::kMicros;
  if (args.size() == 1) {
    if (args[0] == "MILLIS" || args[0] == "MS" || args[0] == "3") return TimeUnit::kMillis;
    if (args[0] == "MICROS" || args[0] == "US" || args[0] == "6") return TimeUnit::kMicros;
    if (args[0] == "NANOS" || args[0] == "NS" || args[0] == "9") return TimeUnit::kNanos;
  }
  return Status::InvalidArgument("type " + std::string(base) +
                                 " takes one unit: MILLIS, MICROS or NANOS");
}

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// Text spelling an integer of type T (spaces around it and a leading '+' allowed), exactly.
template <typename T>
bool ParseIntegerText(std::string_view s, T* out) {
  s = TrimSpace(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

// Text that reads as a finite number (as SQLite's REAL affinity would take it).
bool ParseDoubleText(std::string_view s, double* out) {
  s = TrimSpace(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  const char c = s.front();
  if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.')) return false;
  if (c == '-' &&
      (s.size() < 2 || !(std::isdigit(static_cast<unsigned char>(s[1])) || s[1] == '.'))) {
    return false;
  }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out, std::chars_format::general);
  return ec == std::errc() && p == s.data() + s.size() && std::isfinite(*out);
}

// The shortest text that reads back as `d` ("0.1", "1e+20"). With `scientific`, always in
// scientific notation, which keeps the fewest digits: 1.2345678901234567e+19, where the plain form
// would spell out the double's exact value 12345678901234567168.
std::string ShortestText(double d, bool scientific = false) {
  char buf[64];
  auto [p, ec] = scientific ? std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific)
                            : std::to_chars(buf, buf + sizeof buf, d);
  return ec == std::errc() ? std::string(buf, p) : std::string("?");
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A recursive-descent check of JSON text (RFC 8259): one value, surrounded by white space only.
// Nesting deeper than kMaxJsonDepth is refused rather than risking the stack.
class JsonChecker {
 public:
  explicit JsonChecker(std::string_view text) : s_(text) {}
  bool Valid() {
    SkipSpace();
    if (!Value(0)) return false;
    SkipSpace();
    return i_ == s_.size();
  }

 private:
  static constexpr int kMaxJsonDepth = 1000;
  void SkipSpace() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  bool Literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }
  bool Digits() {
    const size_t start = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    return i_ > start;
  }
  bool Number() {
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    if (i_ < s_.size() && s_[i_] == '0') {
      ++i_;
    } else if (!Digits()) {
      return false;
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (!Digits()) return false;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (!Digits()) return false;
    }
    return true;
  }
  bool String() {
    ++i_;  // the opening quote
    while (i_ < s_.size()) {
      const auto c = static_cast<unsigned char>(s_[i_++]);
      if (c == '"') return true;
      if (c < 0x20) return false;
      if (c != '\\') continue;
      if (i_ >= s_.size()) return false;
      const char e = s_[i_++];
      if (e == 'u') {
        for (int k = 0; k < 4; ++k, ++i_) {
          if (i_ >= s_.size() || HexValue(s_[i_]) < 0) return false;
        }
      } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
        return false;
      }
    }
    return false;
  }
  bool Value(int depth) {
    if (i_ >= s_.size() || depth > kMaxJsonDepth) return false;
    const char c = s_[i_];
    if (c == '"') return String();
    if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      ++i_;
      SkipSpace();
      if (i_ < s_.size() && s_[i_] == close) {
        ++i_;
        return true;
      }
      while (true) {
        if (c == '{') {
          if (i_ >= s_.size() || s_[i_] != '"' || !String()) return false;
          SkipSpace();
          if (i_ >= s_.size() || s_[i_++] != ':') return false;
          SkipSpace();
        }
        if (!Value(depth + 1)) return false;
        SkipSpace();
        if (i_ >= s_.size()) return false;
        const char next = s_[i_++];
        if (next == close) return true;
        if (next != ',') return false;
        SkipSpace();
      }
    }
    if (c == 't') return Literal("true");
    if (c == 'f') return Literal("false");
    if (c == 'n') return Literal("null");
    return Number();
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

PhysicalType ColumnType::physical_type() const {
  switch (kind) {
    case ColumnKind::kBoolean:
      return PhysicalType::kBoolean;
    case ColumnKind::kInteger:
      return bit_width == 64 ? PhysicalType::kInt64 : PhysicalType::kInt32;
    case ColumnKind::kDouble:
      return PhysicalType::kDouble;
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

// The primitive types of the table in export_types.h, and SQLite's affinity rules.
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
  if (b == "BOOLEAN" || b == "BOOL") return Make(ColumnKind::kBoolean);
  if (b == "TINYINT" || b == "INT1") return MakeInt(8, true);
  if (b == "SMALLINT" || b == "INT2") return MakeInt(16, true);
  if (b == "MEDIUMINT" || b == "INT4" || b == "INT32") return MakeInt(32, true);
  if (b == "INTEGER" || b == "INT" || b == "BIGINT" || b == "INT8" || b == "INT64" || b == "LONG") {
    return MakeInt(64, true);
  }
  if (b == "UTINYINT" || b == "UINT8") return MakeInt(8, false);
  if (b == "USMALLINT" || b == "UINT16") return MakeInt(16, false);
  if (b == "UINTEGER" || b == "UINT32") return MakeInt(32, false);
  if (b == "UBIGINT" || b == "UINT64") return MakeInt(64, false);
  if (b == "REAL" || b == "DOUBLE" || b == "DOUBLE PRECISION" || b == "FLOAT" || b == "FLOAT8" ||
      b == "FLOAT64") {
    return Make(ColumnKind::kDouble);
  }
  if (b == "JSON") return Make(ColumnKind::kJson);
  if (b == "UUID") return Make(ColumnKind::kUuid);
  if (b == "DATE") return Make(ColumnKind::kDate);
  if (b == "TIME") {
    ColumnType t = Make(ColumnKind::kTime);
    PQ_ASSIGN_OR_RETURN(t.unit, ParseUnit(b, args));
    return t;
  }
  if (b == "TIMESTAMP" || b == "DATETIME" || b == "TIMESTAMPTZ" ||
      b == "TIMESTAMP WITH TIME ZONE") {
    ColumnType t = Make(ColumnKind::kTimestamp);
    PQ_ASSIGN_OR_RETURN(t.unit, ParseUnit(b, args));
    return t;
  }
  if (b == "TIMESTAMP_MS" || b == "TIMESTAMP_US" || b == "TIMESTAMP_NS") {
    ColumnType t = Make(ColumnKind::kTimestamp);
    t.unit = b == "TIMESTAMP_MS"   ? TimeUnit::kMillis
             : b == "TIMESTAMP_US" ? TimeUnit::kMicros
                                   : TimeUnit::kNanos;
    return t;
  }
  if ((b == "DECIMAL" || b == "NUMERIC") && !args.empty()) {
    ColumnType t = Make(ColumnKind::kDecimal);
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
    return Make(ColumnKind::kString);
  }
  if (b == "BLOB" || b == "BYTEA" || b == "BINARY" || b == "VARBINARY")
    return Make(ColumnKind::kBlob);
  // SQLite's affinity rules (https://sqlite.org/datatype3.html, "Determination Of Column
  // Affinity").
  if (Contains(b, "INT")) return MakeInt(64, true);
  if (Contains(b, "CHAR") || Contains(b, "CLOB") || Contains(b, "TEXT"))
    return Make(ColumnKind::kString);
  if (Contains(b, "BLOB")) return Make(ColumnKind::kBlob);
  if (Contains(b, "REAL") || Contains(b, "FLOA") || Contains(b, "DOUB"))
    return Make(ColumnKind::kDouble);
  return Make(ColumnKind::kInfer);
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

// Recursive descent over a nested type name (grammar in export_types.h):
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
    case ColumnKind::kString:
      return "TEXT";
    case ColumnKind::kBlob:
      return "BLOB";
    case ColumnKind::kJson:
      return "JSON";
    case ColumnKind::kDate:
      return "DATE";
    case ColumnKind::kTime:
      return std::string("TIME(") + kUnit[static_cast<int>(t.unit)] + ")";
    case ColumnKind::kTimestamp:
      return std::string("TIMESTAMP(") + kUnit[static_cast<int>(t.unit)] + ")";
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

std::string DeclaredTypeText(const ColumnType& t) {
  const std::string name = ColumnTypeName(t);
  if (!t.is_nested()) return name;
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
      // Instants are UTC; a time of day is local (DuckDB reads an adjusted TIME as TIME WITH TIME
      // ZONE).
      logical.is_adjusted_to_utc = t.kind == ColumnKind::kTimestamp;
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

Result<ColumnType> InferColumnType(unsigned classes) {
  constexpr unsigned kInt = 1u << SQLITE_INTEGER, kReal = 1u << SQLITE_FLOAT,
                     kText = 1u << SQLITE_TEXT, kBlob = 1u << SQLITE_BLOB;
  ColumnType t;
  if (classes == 0) {
    t.kind = ColumnKind::kNull;
  } else if (classes == kInt) {
    t = MakeInt(64, true);
  } else if ((classes & ~(kInt | kReal)) == 0) {
    t.kind = ColumnKind::kDouble;
  } else if (classes == kText) {
    t.kind = ColumnKind::kString;
  } else if (classes == kBlob) {
    t.kind = ColumnKind::kBlob;
  } else {
    return Status::InvalidArgument("values of different kinds (INTEGER/REAL, TEXT, BLOB)");
  }
  t.strict = true;
  return t;
}

std::string DescribeValue(sqlite3_value* v) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
      return "NULL";
    case SQLITE_INTEGER:
      return "integer " + std::to_string(sqlite3_value_int64(v));
    case SQLITE_FLOAT:
      return "real " + ShortestText(sqlite3_value_double(v));
    case SQLITE_TEXT: {
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      std::string s(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v)));
      if (s.size() > 40) {
        size_t cut = 37;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
          --cut;  // whole UTF-8
        s = s.substr(0, cut) + "...";
      }
      return "text '" + s + "'";
    }
    default:
      return "a " + std::to_string(sqlite3_value_bytes(v)) + "-byte BLOB";
  }
}

// ---------------------------------------------------------------------------------------------
// ColumnBuilder

ColumnBuilder::ColumnBuilder(ColumnType type) : type_(std::move(type)) {
  switch (type_.kind) {
    case ColumnKind::kInteger:
      fast_ = type_.bit_width == 64 && type_.is_signed ? FastPath::kInt64 : FastPath::kInt32;
      break;
    case ColumnKind::kDouble:
      fast_ = FastPath::kDouble;
      break;
    case ColumnKind::kString:
      fast_ = FastPath::kString;
      break;
    case ColumnKind::kTimestamp:
      fast_ = FastPath::kTimestamp;
      break;
    case ColumnKind::kDecimal:
      if (type_.precision <= 18) fast_ = FastPath::kDecimal;
      break;
    case ColumnKind::kBoolean:
      fast_ = FastPath::kBoolean;
      break;
    default:
      break;
  }
  row_bytes_ = sizeof(int16_t);
  switch (type_.physical_type()) {
    case PhysicalType::kBoolean:
      row_bytes_ += 1;
      break;
    case PhysicalType::kInt32:
      row_bytes_ += 4;
      break;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      row_bytes_ += 8;
      break;
    default:
      row_bytes_ += sizeof(size_t);  // ends_
      break;
  }
  if (!type_.is_nested()) return;
  std::vector<SchemaElement> elements;
  AppendSchemaElements("value", type_, &elements);
  Result<std::unique_ptr<JsonShredder>> made = JsonShredder::Make(std::move(elements));
  if (made.ok()) {
    nested_ = std::move(made).value();
  } else {
    nested_error_ = made.status();
  }
}

ColumnBuilder::~ColumnBuilder() = default;
ColumnBuilder::ColumnBuilder(ColumnBuilder&&) noexcept = default;
ColumnBuilder& ColumnBuilder::operator=(ColumnBuilder&&) noexcept = default;

int64_t ColumnBuilder::rows() const {
  return nested_ ? nested_->rows() : static_cast<int64_t>(def_.size());
}

size_t ColumnBuilder::NestedBytes() const {
  return nested_->bytes();
}

void ColumnBuilder::PushInt(int64_t v) {
  if (type_.physical_type() == PhysicalType::kInt32) {
    i32_.push_back(static_cast<int32_t>(v));
  } else {
    i64_.push_back(v);
  }
}

void ColumnBuilder::PushBytes(const void* p, size_t n) {
  if (n > 0) bytes_.append(static_cast<const char*>(p), n);
  ends_.push_back(bytes_.size());
}

Status ColumnBuilder::Append(sqlite3_value* v) {
  if (nested_ || type_.is_nested()) return AppendNested(v);
  const int cls = sqlite3_value_type(v);
  if (cls == SQLITE_NULL) {
    def_.push_back(0);
    return Status::OK();
  }
  if (!AppendFast(v, cls)) PQ_RETURN_IF_ERROR(AppendNonNull(v));
  def_.push_back(1);
  return Status::OK();
}

bool ColumnBuilder::TryAppend(sqlite3_value* v) {
  if (fast_ == FastPath::kNone) return false;
  const int cls = sqlite3_value_type(v);
  if (cls == SQLITE_NULL) {
    def_.push_back(0);
    return true;
  }
  if (!AppendFast(v, cls)) return false;
  def_.push_back(1);
  return true;
}

namespace {

// Powers of ten exact as doubles and as int64 (10^0 .. 10^18).
constexpr double kPow10Double[19] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8, 1e9,
                                     1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
constexpr int64_t kPow10Int[19] = {1,
                                   10,
                                   100,
                                   1000,
                                   10000,
                                   100000,
                                   1000000,
                                   10000000,
                                   100000000,
                                   1000000000,
                                   10000000000,
                                   100000000000,
                                   1000000000000,
                                   10000000000000,
                                   100000000000000,
                                   1000000000000000,
                                   10000000000000000,
                                   100000000000000000,
                                   1000000000000000000};

// The unscaled value of DECIMAL(precision, scale), precision <= 18, that the REAL `d` means, when
// this can be told without printing it: `d` must be the double nearest to r / 10^scale for an
// integer r with fewer than 2^52 / ... see below. False: take the slow path (ParseDecimalText of
// the shortest text), which also gives the errors.
//
// Why this is the slow path's answer: with |d| * 10^scale < 2^52, the spacing of doubles near d is
// below 10^-scale, so at most one decimal with `scale` fraction digits rounds to d; r / 10^scale
// (both exact doubles, the division correctly rounded) equal to d says r * 10^-scale is that
// decimal. The shortest text of d, which the slow path parses, lies in the same rounding interval
// and has no more fraction digits than it (no shorter decimal can sit at a finer position within
// an interval narrower than 10^-scale), so it is that same decimal.
bool UnscaledFromDouble(double d, int precision, int scale, int64_t* out) {
  const double scaled = d * kPow10Double[scale];
  if (!(std::fabs(scaled) < 4503599627370496.0)) return false;  // 2^52; also NaN, infinities
  const double r = std::nearbyint(scaled);
  if (r / kPow10Double[scale] != d) return false;  // more fraction digits than the scale holds
  if (!(std::fabs(r) < kPow10Double[precision])) return false;  // more than `precision` digits
  *out = static_cast<int64_t>(r);
  return true;
}

// 'YYYY-MM-DD HH:MM:SS' exactly (what SQLite's datetime() prints), as units since the epoch; false
// for anything else, which ParseIsoTimestamp then reads (it takes every form, this one included,
// with the same result).
bool FastIsoTimestamp(std::string_view s, TimeUnit unit, int64_t* out) {
  if (s.size() != 19 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' ||
      s[16] != ':') {
    return false;
  }
  int digits[14];
  static constexpr int kPositions[14] = {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18};
  for (int i = 0; i < 14; ++i) {
    const int c = static_cast<unsigned char>(s[static_cast<size_t>(kPositions[i])]) - '0';
    if (c < 0 || c > 9) return false;
    digits[i] = c;
  }
  const int64_t year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3];
  const int month = digits[4] * 10 + digits[5];
  const int day = digits[6] * 10 + digits[7];
  const int hour = digits[8] * 10 + digits[9];
  const int minute = digits[10] * 10 + digits[11];
  const int second = digits[12] * 10 + digits[13];
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) || hour > 23 ||
      minute > 59 || second > 59) {
    return false;
  }
  const int64_t seconds =
      DaysFromCivil(year, month, day) * kSecondsPerDay + hour * 3600 + minute * 60 + second;
  // Nanoseconds since 1970 overflow int64 past 2262: the slow path says so.
  constexpr int64_t kMaxNanosSeconds = 9'223'372'035;
  if (unit == TimeUnit::kNanos && (seconds > kMaxNanosSeconds || seconds < -kMaxNanosSeconds)) {
    return false;
  }
  *out = seconds * UnitsPerSecond(unit);
  return true;
}

}  // namespace

bool ColumnBuilder::AppendFast(sqlite3_value* v, int cls) {
  switch (fast_) {
    case FastPath::kNone:
      return false;
    case FastPath::kInt64:
      if (cls != SQLITE_INTEGER) return false;
      i64_.push_back(sqlite3_value_int64(v));
      return true;
    case FastPath::kInt32: {
      if (cls != SQLITE_INTEGER) return false;
      const int64_t i = sqlite3_value_int64(v);
      const int bits = type_.bit_width;
      const int64_t lo = type_.is_signed ? -(int64_t{1} << (bits - 1)) : 0;
      const int64_t hi = type_.is_signed ? (int64_t{1} << (bits - 1)) - 1
                                         : (bits == 64 ? std::numeric_limits<int64_t>::max()
                                                       : (int64_t{1} << bits) - 1);
      if (i < lo || i > hi) return false;
      PushInt(i);
      return true;
    }
    case FastPath::kDouble:
      if (cls == SQLITE_INTEGER) {
        // Beyond 2^53 an integer may not survive as a double: AppendNonNull decides.
        const int64_t i = sqlite3_value_int64(v);
        if (i < -(int64_t{1} << 53) || i > (int64_t{1} << 53)) return false;
        f64_.push_back(static_cast<double>(i));
        return true;
      }
      if (cls != SQLITE_FLOAT) return false;
      f64_.push_back(sqlite3_value_double(v));
      return true;
    case FastPath::kString: {
      if (cls != SQLITE_TEXT) return false;
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      PushBytes(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v)));
      return true;
    }
    case FastPath::kTimestamp: {
      if (cls != SQLITE_TEXT) return false;
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      int64_t t = 0;
      if (p == nullptr ||
          !FastIsoTimestamp(std::string_view(p, static_cast<size_t>(sqlite3_value_bytes(v))),
                            type_.unit, &t)) {
        return false;
      }
      i64_.push_back(t);
      return true;
    }
    case FastPath::kDecimal: {
      int64_t unscaled = 0;
      if (cls == SQLITE_INTEGER) {
        const int64_t i = sqlite3_value_int64(v);
        const int64_t limit = kPow10Int[type_.precision - type_.scale];  // |i| < 10^(p-s)
        if (i <= -limit || i >= limit) return false;
        unscaled = i * kPow10Int[type_.scale];
      } else if (cls != SQLITE_FLOAT ||
                 !UnscaledFromDouble(sqlite3_value_double(v), type_.precision, type_.scale,
                                     &unscaled)) {
        return false;
      }
      PushInt(unscaled);
      return true;
    }
    case FastPath::kBoolean: {
      if (cls != SQLITE_INTEGER) return false;
      const int64_t i = sqlite3_value_int64(v);
      if (i != 0 && i != 1) return false;
      bools_.push_back(static_cast<uint8_t>(i));
      return true;
    }
  }
  return false;
}

Status ColumnBuilder::AppendNested(sqlite3_value* v) {
  if (!nested_) return nested_error_;
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
      return nested_->AppendNull();
    case SQLITE_TEXT: {
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      return nested_->Append(
          std::string_view(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v))));
    }
    default:
      return Status::InvalidArgument(DescribeValue(v) + " cannot be stored as " +
                                     ColumnTypeName(type_) + ", which takes JSON text");
  }
}

Status ColumnBuilder::AppendInteger(sqlite3_value* v) {
  const int bits = type_.bit_width;
  const bool is_signed = type_.is_signed;
  // The accepted range as [lo, hi]; for UBIGINT hi is 2^64-1, held as a double bound below.
  const int64_t lo =
      is_signed ? (bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (bits - 1)))
                : 0;
  const int64_t hi = bits == 64
                         ? std::numeric_limits<int64_t>::max()
                         : (is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1);
  auto out_of_range = [&]() {
    return Status::InvalidArgument(DescribeValue(v) + " is out of range for " +
                                   ColumnTypeName(type_));
  };
  int64_t i = 0;
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
      i = sqlite3_value_int64(v);
      break;
    case SQLITE_FLOAT: {
      if (type_.strict) {
        return Status::InvalidArgument(
            DescribeValue(v) +
            " in a column of integers (its type was "
            "inferred from the first rows; declare it REAL with schema=)");
      }
      const double d = sqlite3_value_double(v);
      if (!std::isfinite(d) || std::floor(d) != d) {
        return Status::InvalidArgument(DescribeValue(v) + " is not an integer, as " +
                                       ColumnTypeName(type_) + " needs");
      }
      if (bits == 64 && !is_signed && d >= 9223372036854775808.0 && d < 18446744073709551616.0) {
        PushInt(static_cast<int64_t>(static_cast<uint64_t>(d)));  // UBIGINT above 2^63-1: the bits
        return Status::OK();
      }
      if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return out_of_range();
      i = static_cast<int64_t>(d);
      break;
    }
    case SQLITE_TEXT: {
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      std::string_view s(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v)));
      uint64_t u = 0;
      if (!type_.strict && bits == 64 && !is_signed && ParseIntegerText(s, &u) &&
          u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        PushInt(static_cast<int64_t>(u));  // UBIGINT above 2^63-1, which SQLite has only as text: the bits
        return Status::OK();
      }
      if (type_.strict || !ParseIntegerText(s, &i)) {
        return Status::InvalidArgument(DescribeValue(v) + " is not an integer, as " +
                                       ColumnTypeName(type_) + " needs");
      }
      break;
    }
    default:
      return Status::InvalidArgument(DescribeValue(v) + " cannot be stored as " +
                                     ColumnTypeName(type_));
  }
  if (i < lo || i > hi) return out_of_range();
  PushInt(i);
  return Status::OK();
}

Status ColumnBuilder::AppendDecimal(sqlite3_value* v) {
  UnscaledDecimal unscaled;
  Status parsed;
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
      parsed = ParseDecimalText(std::to_string(sqlite3_value_int64(v)), type_.precision,
                                type_.scale, &unscaled);
      break;
    case SQLITE_FLOAT: {
      const double d = sqlite3_value_double(v);
      parsed =
          std::isfinite(d)
              ? ParseDecimalText(ShortestText(d, true), type_.precision, type_.scale, &unscaled)
              : Status::InvalidArgument("cannot be stored as " + ColumnTypeName(type_));
      break;
    }
    case SQLITE_TEXT: {
      const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      parsed = ParseDecimalText(
          std::string_view(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v))),
          type_.precision, type_.scale, &unscaled);
      break;
    }
    default:
      parsed = Status::InvalidArgument("cannot be stored as " + ColumnTypeName(type_));
  }
  if (!parsed.ok()) return Status::InvalidArgument(DescribeValue(v) + " " + parsed.message());
  switch (type_.physical_type()) {
    case PhysicalType::kInt32:
      i32_.push_back(static_cast<int32_t>(unscaled.ToInt64()));
      break;
    case PhysicalType::kInt64:
      i64_.push_back(unscaled.ToInt64());
      break;
    default: {
      // Big-endian two's complement in type_length bytes.
      const std::string_view bytes = unscaled.Bytes(type_.type_length());
      PushBytes(bytes.data(), bytes.size());
      break;
    }
  }
  return Status::OK();
}

Status ColumnBuilder::AppendNonNull(sqlite3_value* v) {
  const int cls = sqlite3_value_type(v);
  auto text = [v]() {
    const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
    return std::string_view(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v)));
  };
  auto cannot = [&](std::string_view expected) {
    return Status::InvalidArgument(DescribeValue(v) + " cannot be stored as " +
                                   ColumnTypeName(type_) +
                                   (expected.empty() ? "" : " (" + std::string(expected) + ")"));
  };
  switch (type_.kind) {
    case ColumnKind::kList:
    case ColumnKind::kMap:
    case ColumnKind::kStruct:
      return AppendNested(v);
    case ColumnKind::kInfer:
    case ColumnKind::kNull:
      return Status::InvalidArgument(
          DescribeValue(v) +
          " in a column that held only NULLs in the first rows, from which its "
          "type was inferred; declare its type with schema=");
    case ColumnKind::kBoolean: {
      if (cls == SQLITE_INTEGER || cls == SQLITE_FLOAT) {
        const double d = sqlite3_value_double(v);
        if (d == 0 || d == 1) {
          bools_.push_back(d == 1);
          return Status::OK();
        }
      } else if (cls == SQLITE_TEXT) {
        std::string s(TrimSpace(text()));
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (s == "0" || s == "1" || s == "true" || s == "false") {
          bools_.push_back(s == "1" || s == "true");
          return Status::OK();
        }
      }
      return cannot("0 or 1");
    }
    case ColumnKind::kInteger:
      return AppendInteger(v);
    case ColumnKind::kDouble: {
      if (cls == SQLITE_INTEGER && type_.strict) {
        // A column of no declared type keeps every value in SQLite: an integer the inferred DOUBLE
        // would round (beyond 2^53) is refused, not changed. A declared REAL rounds it, as SQLite's
        // REAL affinity does.
        const int64_t i = sqlite3_value_int64(v);
        const double d = static_cast<double>(i);
        if (!(d < 9223372036854775808.0 && static_cast<int64_t>(d) == i)) {
          return Status::InvalidArgument(
              DescribeValue(v) + " cannot be stored exactly as " + ColumnTypeName(type_) +
              " (the column's type was inferred from the first rows, which mix integers and reals; "
              "declare it with schema=: REAL rounds it, TEXT keeps its digits)");
        }
        f64_.push_back(d);
        return Status::OK();
      }
      if (cls == SQLITE_INTEGER || cls == SQLITE_FLOAT) {
        f64_.push_back(sqlite3_value_double(v));
        return Status::OK();
      }
      double d = 0;
      if (cls == SQLITE_TEXT && !type_.strict && ParseDoubleText(text(), &d)) {
        f64_.push_back(d);
        return Status::OK();
      }
      return cannot(
          type_.strict
              ? "the column's type was inferred from the first rows; declare it with schema="
              : "a number");
    }
    case ColumnKind::kString:
    case ColumnKind::kJson: {
      if (cls == SQLITE_TEXT || (!type_.strict && (cls == SQLITE_INTEGER || cls == SQLITE_FLOAT))) {
        const std::string_view s = text();  // numbers as SQLite prints them
        if (type_.kind == ColumnKind::kJson && !JsonChecker(s).Valid())
          return cannot("it is not valid JSON");
        PushBytes(s.data(), s.size());
        return Status::OK();
      }
      return cannot(
          type_.strict
              ? "the column's type was inferred from the first rows; declare it with schema="
              : "CAST it to TEXT to store its bytes as text");
    }
    case ColumnKind::kBlob: {
      if (cls == SQLITE_BLOB) {
        PushBytes(sqlite3_value_blob(v), static_cast<size_t>(sqlite3_value_bytes(v)));
        return Status::OK();
      }
      if (cls == SQLITE_TEXT && !type_.strict) {
        const std::string_view s = text();
        PushBytes(s.data(), s.size());
        return Status::OK();
      }
      return cannot(
          type_.strict
              ? "the column's type was inferred from the first rows; declare it with schema="
              : "");
    }
    case ColumnKind::kDate: {
      if (cls != SQLITE_TEXT) return cannot("text 'YYYY-MM-DD'");
      Result<int32_t> days = ParseIsoDate(TrimSpace(text()));
      if (!days.ok()) return cannot("text 'YYYY-MM-DD'");
      i32_.push_back(*days);
      return Status::OK();
    }
    case ColumnKind::kTime: {
      if (cls != SQLITE_TEXT) return cannot("text 'HH:MM:SS[.fraction]'");
      Result<int64_t> t = ParseIsoTime(TrimSpace(text()), type_.unit);
      if (!t.ok())
        return cannot("text 'HH:MM:SS[.fraction]' with at most " +
                      std::to_string(FractionDigits(type_.unit)) + " fraction digits");
      PushInt(*t);
      return Status::OK();
    }
    case ColumnKind::kTimestamp: {
      if (cls == SQLITE_INTEGER) {
        i64_.push_back(sqlite3_value_int64(v));
        return Status::OK();
      }
      if (cls != SQLITE_TEXT) return cannot("text 'YYYY-MM-DD HH:MM:SS[.fraction]' or an integer");
      Result<int64_t> t = ParseIsoTimestampUtc(TrimSpace(text()), type_.unit);
      if (!t.ok())
        return cannot("text 'YYYY-MM-DD HH:MM:SS[.fraction][Z|+HH:MM|-HH:MM]' with at most " +
                      std::to_string(FractionDigits(type_.unit)) + " fraction digits");
      i64_.push_back(*t);
      return Status::OK();
    }
    case ColumnKind::kDecimal:
      return AppendDecimal(v);
    case ColumnKind::kUuid: {
      uint8_t b[16];
      if (cls == SQLITE_BLOB && sqlite3_value_bytes(v) == 16) {
        PushBytes(sqlite3_value_blob(v), 16);
        return Status::OK();
      }
      if (cls == SQLITE_TEXT && ParseUuidText(TrimSpace(text()), b)) {
        PushBytes(b, 16);
        return Status::OK();
      }
      return cannot("text xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx or a 16-byte BLOB");
    }
  }
  return cannot("");
}

void ColumnBuilder::Truncate(int64_t rows) {
  if (rows >= this->rows()) return;
  if (nested_) {
    nested_->Truncate(rows);
    return;
  }
  int64_t drop_values = 0;
  for (size_t i = static_cast<size_t>(rows); i < def_.size(); ++i) drop_values += def_[i];
  def_.resize(static_cast<size_t>(rows));
  auto shrink = [drop_values](auto& vec) {
    vec.resize(vec.size() - static_cast<size_t>(drop_values));
  };
  switch (type_.physical_type()) {
    case PhysicalType::kBoolean:
      shrink(bools_);
      break;
    case PhysicalType::kInt32:
      shrink(i32_);
      break;
    case PhysicalType::kInt64:
      shrink(i64_);
      break;
    case PhysicalType::kDouble:
      shrink(f64_);
      break;
    default:
      shrink(ends_);
      bytes_.resize(ends_.empty() ? 0 : ends_.back());
      break;
  }
}

Status ColumnBuilder::WriteTo(FileWriter* writer, int leaf) {
  if (nested_) return nested_->WriteTo(writer, leaf);
  const int64_t n = rows();
  Status s;
  switch (type_.physical_type()) {
    case PhysicalType::kBoolean:
      s = writer->WriteColumn<uint8_t>(leaf, n, def_.data(), nullptr, bools_.data(),
                                       static_cast<int64_t>(bools_.size()));
      break;
    case PhysicalType::kInt32:
      s = writer->WriteColumn<int32_t>(leaf, n, def_.data(), nullptr, i32_.data(),
                                       static_cast<int64_t>(i32_.size()));
      break;
    case PhysicalType::kInt64:
      s = writer->WriteColumn<int64_t>(leaf, n, def_.data(), nullptr, i64_.data(),
                                       static_cast<int64_t>(i64_.size()));
      break;
    case PhysicalType::kDouble:
      s = writer->WriteColumn<double>(leaf, n, def_.data(), nullptr, f64_.data(),
                                      static_cast<int64_t>(f64_.size()));
      break;
    default: {
      arrays_.resize(ends_.size());
      size_t start = 0;
      const auto* base = reinterpret_cast<const uint8_t*>(bytes_.data());
      for (size_t i = 0; i < ends_.size(); ++i) {
        const size_t len = ends_[i] - start;
        if (len > std::numeric_limits<uint32_t>::max()) {
          return Status::InvalidArgument("a value of " + std::to_string(len) +
                                         " bytes is too long for Parquet");
        }
        arrays_[i] = ByteArray{base + start, static_cast<uint32_t>(len)};
        start = ends_[i];
      }
      s = writer->WriteColumn<ByteArray>(leaf, n, def_.data(), nullptr, arrays_.data(),
                                         static_cast<int64_t>(arrays_.size()));
      break;
    }
  }
  PQ_RETURN_IF_ERROR(s);
  Truncate(0);
  return Status::OK();
}

}  // namespace pq::ext
