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
    case ColumnKind::kFloat16:
    case ColumnKind::kInterval:
      return PhysicalType::kFixedLenByteArray;
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
    case ColumnKind::kEnum:
    case ColumnKind::kBson:
    case ColumnKind::kGeometry:
    case ColumnKind::kGeography:
    case ColumnKind::kVariant:
    case ColumnKind::kList:
    case ColumnKind::kMap:
    case ColumnKind::kStruct:
      return PhysicalType::kByteArray;
  }
  return PhysicalType::kByteArray;
}

int32_t ColumnType::type_length() const {
  if (kind == ColumnKind::kUuid) return 16;
  if (kind == ColumnKind::kFloat16) return 2;
  if (kind == ColumnKind::kInterval) return 12;
  if (kind == ColumnKind::kDecimal && precision > 18) return DecimalByteWidth(precision);
  return 0;
}

namespace {

// The text of a quoted string starting at s[*i] (the opening quote, one of ' " ` or [ whose close
// is ]), the closing quote doubled inside standing for itself (not for ]). *i ends after the
// closing quote. False when the string is not closed.
bool ReadQuoted(std::string_view s, size_t* i, std::string* out) {
  const char open = s[*i];
  const char close = open == '[' ? ']' : open;
  out->clear();
  for (++*i; *i < s.size(); ++*i) {
    if (s[*i] == close) {
      if (close != ']' && *i + 1 < s.size() && s[*i + 1] == close) {
        out->push_back(close);
        ++*i;
        continue;
      }
      ++*i;
      return true;
    }
    out->push_back(s[*i]);
  }
  return false;
}

// GEOMETRY[('crs')] and GEOGRAPHY[('crs')][, ALGORITHM]: `name` starts with one of the two words
// (any case). The CRS keeps its case and may hold commas and parentheses: it is a quoted string
// ('...' or "...", the quote doubled inside).
Result<ColumnType> ParseGeoType(std::string_view name, ColumnKind kind) {
  const std::string shown(TrimSpace(name));
  auto error = [&](const std::string& why) {
    return Status::InvalidArgument("type '" + shown + "': " + why);
  };
  ColumnType t = Make(kind);
  std::string_view rest = TrimSpace(TrimSpace(name).substr(kind == ColumnKind::kGeometry ? 8 : 9));
  if (rest.empty()) return t;
  if (rest.front() != '(' || rest.back() != ')') return error("expected ('crs')");
  rest = TrimSpace(rest.substr(1, rest.size() - 2));
  if (!rest.empty() && (rest.front() == '\'' || rest.front() == '"')) {
    size_t i = 0;
    std::string crs;
    if (!ReadQuoted(rest, &i, &crs)) return error("the CRS string is not closed");
    t.crs = std::move(crs);
    rest = TrimSpace(rest.substr(i));
    if (!rest.empty()) {
      if (rest.front() != ',') return error("expected ',' after the CRS");
      rest = TrimSpace(rest.substr(1));
      if (rest.empty()) return error("expected an edge interpolation algorithm after ','");
    }
  }
  if (!rest.empty()) {
    if (kind == ColumnKind::kGeometry) return error("GEOMETRY takes a CRS only");
    std::string algo(rest);
    for (char& c : algo) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    static constexpr std::pair<std::string_view, EdgeInterpolationAlgorithm> kAlgorithms[] = {
        {"SPHERICAL", EdgeInterpolationAlgorithm::kSpherical},
        {"VINCENTY", EdgeInterpolationAlgorithm::kVincenty},
        {"THOMAS", EdgeInterpolationAlgorithm::kThomas},
        {"ANDOYER", EdgeInterpolationAlgorithm::kAndoyer},
        {"KARNEY", EdgeInterpolationAlgorithm::kKarney}};
    for (const auto& [word, a] : kAlgorithms) {
      if (algo == word) t.algorithm = a;
    }
    if (!t.algorithm) {
      return error("unknown edge interpolation algorithm '" + std::string(rest) +
                   "' (SPHERICAL, VINCENTY, THOMAS, ANDOYER, KARNEY)");
    }
  }
  return t;
}

// True when `text` starts with `word` (any case) followed by nothing, white space or '('.
bool StartsWithWord(std::string_view text, std::string_view word) {
  text = TrimSpace(text);
  if (text.size() < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(text[i])) != word[i]) return false;
  }
  return text.size() == word.size() || text[word.size()] == '(' ||
         std::isspace(static_cast<unsigned char>(text[word.size()]));
}

// The primitive types of the table in column_type.h, and SQLite's affinity rules.
Result<ColumnType> ParsePrimitiveType(std::string_view name) {
  if (StartsWithWord(name, "GEOMETRY")) return ParseGeoType(name, ColumnKind::kGeometry);
  if (StartsWithWord(name, "GEOGRAPHY")) return ParseGeoType(name, ColumnKind::kGeography);
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
  if (b == "FLOAT4" || b == "FLOAT32") return Make(ColumnKind::kFloat);
  if (b == "FLOAT16" || b == "HALF") return Make(ColumnKind::kFloat16);
  if (b == "ENUM") return Make(ColumnKind::kEnum);
  if (b == "BSON") return Make(ColumnKind::kBson);
  if (b == "INTERVAL") return Make(ColumnKind::kInterval);
  if (b == "VARIANT") return Make(ColumnKind::kVariant);
  if (b == "UNKNOWN") return Make(ColumnKind::kNull);
  if (b == "JSON") return Make(ColumnKind::kJson);
  if (b == "UUID") return Make(ColumnKind::kUuid);
  if (b == "DATE") return Make(ColumnKind::kDate);
  if (b == "TIME" || b == "TIMETZ" || b == "TIME WITH TIME ZONE") {
    ColumnType t = Make(ColumnKind::kTime);
    PQ_ASSIGN_OR_RETURN(t.unit, ParseUnit(b, args));
    t.adjusted_to_utc = b != "TIME";
    return t;
  }
  if (b == "TIMESTAMP" || b == "DATETIME" || b == "TIMESTAMPTZ" ||
      b == "TIMESTAMP WITH TIME ZONE" || b == "TIMESTAMP_NTZ" ||
      b == "TIMESTAMP WITHOUT TIME ZONE") {
    ColumnType t = Make(ColumnKind::kTimestamp);
    PQ_ASSIGN_OR_RETURN(t.unit, ParseUnit(b, args));
    t.adjusted_to_utc = b != "TIMESTAMP_NTZ" && b != "TIMESTAMP WITHOUT TIME ZONE";
    return t;
  }
  if (b == "TIMESTAMP_MS" || b == "TIMESTAMP_US" || b == "TIMESTAMP_NS") {
    ColumnType t = Make(ColumnKind::kTimestamp);
    t.adjusted_to_utc = true;
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

// The keyword of a nested type at the start of `text` (LIST, MAP, STRUCT, VARIANT, any case) when
// '<' follows it: its kind, and the position after the '<'.
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
  } else if (word == "VARIANT") {
    *kind = ColumnKind::kVariant;
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
                   "<' (nested types are LIST, MAP, STRUCT, VARIANT)");
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
      std::string name;
      if (!ReadQuoted(s_, &i_, &name)) return Error("unclosed quote in a field name");
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

namespace {

// A type T of VARIANT<T>: what typed_value columns can hold (the Parquet type spec, "Shredded
// Value Types"; variant_shredder.h).
Status CheckShreddingType(const ColumnType& t, const std::string& shown) {
  auto refuse = [&](const std::string& why) {
    return Status::InvalidArgument("type '" + shown + "': " + why);
  };
  switch (t.kind) {
    case ColumnKind::kBoolean:
    case ColumnKind::kDouble:
    case ColumnKind::kFloat:
    case ColumnKind::kDecimal:
    case ColumnKind::kDate:
    case ColumnKind::kString:
    case ColumnKind::kBlob:
    case ColumnKind::kUuid:
      return Status::OK();
    case ColumnKind::kInteger:
      if (t.is_signed) return Status::OK();
      break;
    case ColumnKind::kTime:
      if (t.unit == TimeUnit::kMicros && !t.adjusted_to_utc) return Status::OK();
      return refuse("a Variant time is TIME(MICROS)");
    case ColumnKind::kTimestamp:
      if (t.unit != TimeUnit::kMillis) return Status::OK();
      return refuse("a Variant timestamp is in MICROS or NANOS");
    case ColumnKind::kVariant:
      if (t.children.empty()) return Status::OK();  // kept whole in `value`
      return refuse("a field or element is shredded by its own type, not VARIANT<...>");
    case ColumnKind::kList:
    case ColumnKind::kStruct:
      for (const ColumnType& c : t.children) PQ_RETURN_IF_ERROR(CheckShreddingType(c, shown));
      return Status::OK();
    default:
      break;
  }
  return refuse(ColumnTypeName(t) + " is not a type a Variant value can be shredded as");
}

// The types a column of type `t` holds where they may stand: FLOAT16, BSON, INTERVAL, GEOMETRY,
// GEOGRAPHY and VARIANT only at the top (the JSON of a nested column has no form for them), and the
// shredding types of VARIANT<T>.
Status CheckPlacement(const ColumnType& t, bool top, const std::string& shown) {
  if (!top) {
    switch (t.kind) {
      case ColumnKind::kFloat16:
      case ColumnKind::kBson:
      case ColumnKind::kInterval:
      case ColumnKind::kGeometry:
      case ColumnKind::kGeography:
      case ColumnKind::kVariant:
        return Status::InvalidArgument("type '" + shown + "': " + ColumnTypeName(t) +
                                       " can only be the type of a column, not inside LIST, "
                                       "MAP or STRUCT");
      default:
        break;
    }
  }
  if (t.kind == ColumnKind::kVariant) {
    return t.children.empty() ? Status::OK() : CheckShreddingType(t.children[0], shown);
  }
  for (const ColumnType& c : t.children) PQ_RETURN_IF_ERROR(CheckPlacement(c, false, shown));
  return Status::OK();
}

}  // namespace

Result<ColumnType> ParseColumnType(std::string_view name) {
  ColumnKind kind;
  size_t after = 0;
  if (!NestedKeyword(TrimSpace(name), &kind, &after)) return ParsePrimitiveType(name);
  PQ_ASSIGN_OR_RETURN(ColumnType t, NestedTypeParser(name).Parse());
  PQ_RETURN_IF_ERROR(CheckPlacement(t, true, std::string(TrimSpace(name))));
  return t;
}

std::string ColumnTypeName(const ColumnType& t) {
  static const char* const kUnit[] = {"", "MILLIS", "MICROS", "NANOS"};
  switch (t.kind) {
    case ColumnKind::kInfer:
      return "";
    case ColumnKind::kNull:
      return "UNKNOWN";
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
      return std::string(t.adjusted_to_utc ? "TIMETZ(" : "TIME(") + kUnit[static_cast<int>(t.unit)] +
             ")";
    case ColumnKind::kTimestamp:
      return std::string(t.adjusted_to_utc ? "TIMESTAMP(" : "TIMESTAMP_NTZ(") +
             kUnit[static_cast<int>(t.unit)] + ")";
    case ColumnKind::kFloat:
      return "FLOAT4";
    case ColumnKind::kFloat16:
      return "FLOAT16";
    case ColumnKind::kEnum:
      return "ENUM";
    case ColumnKind::kBson:
      return "BSON";
    case ColumnKind::kInterval:
      return "INTERVAL";
    case ColumnKind::kGeometry:
    case ColumnKind::kGeography: {
      std::string out = t.kind == ColumnKind::kGeometry ? "GEOMETRY" : "GEOGRAPHY";
      std::vector<std::string> args;
      if (t.crs) {
        std::string quoted = "'";
        for (char c : *t.crs) quoted += c == '\'' ? std::string("''") : std::string(1, c);
        args.push_back(quoted + "'");
      }
      if (t.algorithm) {
        static const char* const kAlgorithm[] = {"SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER",
                                                 "KARNEY"};
        const auto a = static_cast<size_t>(*t.algorithm);
        args.push_back(a < 5 ? kAlgorithm[a] : std::to_string(a));
      }
      if (args.empty()) return out;
      out += "(" + args[0];
      if (args.size() > 1) out += ", " + args[1];
      return out + ")";
    }
    case ColumnKind::kVariant:
      return t.children.empty() ? "VARIANT" : "VARIANT<" + ColumnTypeName(t.children[0]) + ">";
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
  if (!t.is_group() && name.find('\'') == std::string::npos) return name;
  std::string out = "'";
  for (char c : name) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

namespace {

// Leaves of the group holding value and (for a shredding type) typed_value.
int ShreddedLeafCount(const ColumnType& typed) {
  if (typed.kind == ColumnKind::kVariant) return 1;  // value only
  int n = 1;                                          // value
  if (typed.kind == ColumnKind::kList || typed.kind == ColumnKind::kStruct) {
    for (const ColumnType& c : typed.children) n += ShreddedLeafCount(c);
  } else {
    n += 1;
  }
  return n;
}

}  // namespace

int LeafCount(const ColumnType& t) {
  if (t.kind == ColumnKind::kVariant) {
    return 1 + (t.children.empty() ? 1 : ShreddedLeafCount(t.children[0]));  // metadata + ...
  }
  if (!t.is_nested()) return 1;
  int n = 0;
  for (const ColumnType& c : t.children) n += LeafCount(c);
  return n;
}

namespace {

SchemaElement GroupElement(const std::string& name, Repetition rep, size_t children,
                           LogicalType::Kind logical = LogicalType::Kind::kNone) {
  SchemaElement e;
  e.name = name;
  e.repetition_type = rep;
  e.num_children = static_cast<int32_t>(children);
  if (logical != LogicalType::Kind::kNone) {
    LogicalType l;
    l.kind = logical;
    e.logical_type = l;
  }
  return e;
}

SchemaElement BinaryElement(const std::string& name, Repetition rep) {
  SchemaElement e;
  e.name = name;
  e.repetition_type = rep;
  e.type = PhysicalType::kByteArray;
  return e;
}

// The typed_value of a shredding type (the Parquet type spec, "Variant Shredding"): a primitive,
// a LIST of required element groups, or a group of required field groups; each group holds an
// optional binary value and, unless its type is VARIANT, a typed_value.
void AppendTypedValue(const ColumnType& t, std::vector<SchemaElement>* out);

void AppendShreddedGroup(const std::string& name, const ColumnType& t,
                         std::vector<SchemaElement>* out) {
  const bool typed = t.kind != ColumnKind::kVariant;
  out->push_back(GroupElement(name, Repetition::kRequired, typed ? 2 : 1));
  out->push_back(BinaryElement("value", Repetition::kOptional));
  if (typed) AppendTypedValue(t, out);
}

void AppendTypedValue(const ColumnType& t, std::vector<SchemaElement>* out) {
  switch (t.kind) {
    case ColumnKind::kList:
      out->push_back(GroupElement("typed_value", Repetition::kOptional, 1, LogicalType::Kind::kList));
      out->push_back(GroupElement("list", Repetition::kRepeated, 1));
      AppendShreddedGroup("element", t.children.at(0), out);
      break;
    case ColumnKind::kStruct:
      out->push_back(GroupElement("typed_value", Repetition::kOptional, t.children.size()));
      for (size_t i = 0; i < t.children.size(); ++i) {
        AppendShreddedGroup(t.field_names.at(i), t.children[i], out);
      }
      break;
    default:
      out->push_back(ToSchemaElement("typed_value", t));
      break;
  }
}

}  // namespace

void AppendSchemaElements(const std::string& name, const ColumnType& t,
                          std::vector<SchemaElement>* out) {
  if (t.kind == ColumnKind::kVariant) {
    // The Parquet type spec, "VARIANT": metadata and value, value optional beside a typed_value.
    const bool shredded = !t.children.empty();
    SchemaElement group =
        GroupElement(name, Repetition::kOptional, shredded ? 3 : 2, LogicalType::Kind::kVariant);
    group.logical_type->variant_specification_version = 1;
    out->push_back(std::move(group));
    out->push_back(BinaryElement("metadata", Repetition::kRequired));
    out->push_back(
        BinaryElement("value", shredded ? Repetition::kOptional : Repetition::kRequired));
    if (shredded) AppendTypedValue(t.children[0], out);
    return;
  }
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
      logical.is_adjusted_to_utc = t.adjusted_to_utc;
      break;
    case ColumnKind::kFloat:
      break;
    case ColumnKind::kFloat16:
      logical.kind = LogicalType::Kind::kFloat16;
      break;
    case ColumnKind::kEnum:
      logical.kind = LogicalType::Kind::kEnum;
      break;
    case ColumnKind::kBson:
      logical.kind = LogicalType::Kind::kBson;
      break;
    case ColumnKind::kInterval:
      e.converted_type = ConvertedType::kInterval;  // the format has no INTERVAL logical type
      break;
    case ColumnKind::kGeometry:
    case ColumnKind::kGeography:
      logical.kind = t.kind == ColumnKind::kGeometry ? LogicalType::Kind::kGeometry
                                                      : LogicalType::Kind::kGeography;
      logical.crs = t.crs;
      logical.algorithm = t.algorithm;
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
    case ColumnKind::kVariant:
    case ColumnKind::kList:
    case ColumnKind::kMap:
    case ColumnKind::kStruct:
      break;  // groups: AppendSchemaElements
  }
  if (logical.kind != LogicalType::Kind::kNone) e.logical_type = logical;
  return e;
}

}  // namespace pq::ext
