// Test helper: a small strict JSON (RFC 8259) parser and a comparison of parsed values.
//
// Variant tests compare the JSON the engine writes with expected JSON written by other tools, so
// they compare values, not text: objects keep their member order (the order is part of what is
// checked), numbers compare by their exact decimal value (1.50 equals 1.5 and 15e-1, but 0.1
// never equals 0.1000000001), strings after unescaping (\u escapes and surrogate pairs to UTF-8).
// Parse() also serves as a validity check of text the engine wrote.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pq::testing {

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;              // kNumber: the literal; kString: the unescaped string
  std::vector<JsonValue> items;  // kArray
  std::vector<std::pair<std::string, JsonValue>> members;  // kObject, in text order

  const JsonValue* Find(std::string_view name) const {
    for (const auto& [k, v] : members) {
      if (k == name) return &v;
    }
    return nullptr;
  }
  double AsDouble() const { return std::strtod(text.c_str(), nullptr); }
};

class JsonParser {
 public:
  // The value of `text` (the whole text), or nullopt when it is not valid JSON.
  static std::optional<JsonValue> Parse(std::string_view text) {
    JsonParser p(text);
    JsonValue v;
    if (!p.Value(&v, 0)) return std::nullopt;
    p.Space();
    if (p.pos_ != text.size()) return std::nullopt;
    return v;
  }

 private:
  explicit JsonParser(std::string_view text) : s_(text) {}

  void Space() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) {
      ++pos_;
    }
  }
  bool Eat(char c) {
    Space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool Literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool Value(JsonValue* v, int depth) {
    if (depth > 1000) return false;
    Space();
    if (pos_ >= s_.size()) return false;
    const char c = s_[pos_];
    if (c == 'n') {
      v->kind = JsonValue::Kind::kNull;
      return Literal("null");
    }
    if (c == 't' || c == 'f') {
      v->kind = JsonValue::Kind::kBool;
      v->boolean = c == 't';
      return Literal(c == 't' ? "true" : "false");
    }
    if (c == '"') {
      v->kind = JsonValue::Kind::kString;
      return String(&v->text);
    }
    if (c == '[') {
      ++pos_;
      v->kind = JsonValue::Kind::kArray;
      if (Eat(']')) return true;
      do {
        v->items.emplace_back();
        if (!Value(&v->items.back(), depth + 1)) return false;
      } while (Eat(','));
      return Eat(']');
    }
    if (c == '{') {
      ++pos_;
      v->kind = JsonValue::Kind::kObject;
      if (Eat('}')) return true;
      do {
        Space();
        std::string name;
        if (pos_ >= s_.size() || s_[pos_] != '"' || !String(&name) || !Eat(':')) return false;
        v->members.emplace_back(std::move(name), JsonValue());
        if (!Value(&v->members.back().second, depth + 1)) return false;
      } while (Eat(','));
      return Eat('}');
    }
    v->kind = JsonValue::Kind::kNumber;
    return Number(&v->text);
  }

  bool Number(std::string* out) {
    const size_t start = pos_;
    auto digits = [&] {
      const size_t d = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ > d;
    };
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    if (pos_ < s_.size() && s_[pos_] == '0') {
      ++pos_;
    } else if (!digits()) {
      return false;
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (!digits()) return false;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (!digits()) return false;
    }
    *out = std::string(s_.substr(start, pos_ - start));
    return true;
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  bool Hex4(uint32_t* v) {
    if (s_.size() - pos_ < 4) return false;
    *v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      *v <<= 4;
      if (c >= '0' && c <= '9') {
        *v |= static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        *v |= static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        *v |= static_cast<uint32_t>(c - 'A' + 10);
      } else {
        return false;
      }
    }
    return true;
  }

  bool String(std::string* out) {
    ++pos_;  // the opening quote
    while (pos_ < s_.size()) {
      const char c = s_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) return false;
      const char e = s_[pos_++];
      switch (e) {
        case '"':
          out->push_back('"');
          break;
        case '\\':
          out->push_back('\\');
          break;
        case '/':
          out->push_back('/');
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          uint32_t cp;
          if (!Hex4(&cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            uint32_t low;
            if (!Hex4(&low) || low < 0xDC00 || low >= 0xE000) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(cp, out);
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

// The exact value of a JSON number literal as (sign, significant digits, exponent): the value is
// sign * 0.digits * 10^exponent with no leading or trailing zero digits; zero is ("", 0, +).
inline std::string CanonicalNumber(std::string_view literal) {
  bool negative = false;
  size_t i = 0;
  if (i < literal.size() && literal[i] == '-') {
    negative = true;
    ++i;
  }
  std::string digits;
  int64_t point = 0;  // digits before the decimal point
  bool seen_point = false;
  for (; i < literal.size() && literal[i] != 'e' && literal[i] != 'E'; ++i) {
    if (literal[i] == '.') {
      seen_point = true;
      continue;
    }
    digits.push_back(literal[i]);
    if (!seen_point) ++point;
  }
  int64_t exponent = 0;
  if (i < literal.size())
    exponent = std::strtoll(std::string(literal.substr(i + 1)).c_str(), nullptr, 10);
  size_t lead = 0;
  while (lead < digits.size() && digits[lead] == '0') ++lead;
  digits.erase(0, lead);
  point -= static_cast<int64_t>(lead);
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  if (digits.empty()) return "0";
  return std::string(negative ? "-" : "+") + "0." + digits + "e" + std::to_string(point + exponent);
}

// Why two values differ ("" when they are equal), with the path of the first difference.
inline std::string JsonDifference(const JsonValue& a, const JsonValue& b,
                                  const std::string& path = "$") {
  if (a.kind != b.kind) return path + ": kinds differ";
  switch (a.kind) {
    case JsonValue::Kind::kNull:
      return "";
    case JsonValue::Kind::kBool:
      return a.boolean == b.boolean ? "" : path + ": booleans differ";
    case JsonValue::Kind::kNumber:
      return CanonicalNumber(a.text) == CanonicalNumber(b.text)
                 ? ""
                 : path + ": " + a.text + " != " + b.text;
    case JsonValue::Kind::kString:
      return a.text == b.text ? "" : path + ": \"" + a.text + "\" != \"" + b.text + "\"";
    case JsonValue::Kind::kArray:
      if (a.items.size() != b.items.size()) return path + ": array sizes differ";
      for (size_t i = 0; i < a.items.size(); ++i) {
        std::string d =
            JsonDifference(a.items[i], b.items[i], path + "[" + std::to_string(i) + "]");
        if (!d.empty()) return d;
      }
      return "";
    case JsonValue::Kind::kObject:
      if (a.members.size() != b.members.size()) return path + ": member counts differ";
      for (size_t i = 0; i < a.members.size(); ++i) {
        if (a.members[i].first != b.members[i].first) {
          return path + ": member " + std::to_string(i) + " is '" + a.members[i].first + "' vs '" +
                 b.members[i].first + "'";
        }
        std::string d = JsonDifference(a.members[i].second, b.members[i].second,
                                       path + "." + a.members[i].first);
        if (!d.empty()) return d;
      }
      return "";
  }
  return path + ": unknown kind";
}

}  // namespace pq::testing
