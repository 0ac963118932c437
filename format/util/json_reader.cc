#include "format/util/json_reader.h"

#include <cstdint>

#include "format/util/hex.h"

namespace pq {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | cp >> 6));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | cp >> 12));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | cp >> 18));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

size_t JsonNumberLength(std::string_view s, size_t i) {
  const size_t start = i;
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (i < s.size() && IsDigit(s[i])) {
    while (i < s.size() && IsDigit(s[i])) ++i;
  } else {
    return 0;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (i >= s.size() || !IsDigit(s[i])) return 0;
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (i >= s.size() || !IsDigit(s[i])) return 0;
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  return i - start;
}

bool IsJsonNumber(std::string_view s) { return !s.empty() && JsonNumberLength(s, 0) == s.size(); }

void JsonReader::SkipSpace() {
  while (pos < text.size() && IsJsonSpace(text[pos])) ++pos;
}

bool JsonReader::ConsumeClose(char close) {
  SkipSpace();
  if (pos >= text.size() || text[pos] != close) return false;
  ++pos;
  return true;
}

JsonReader::AfterValue JsonReader::ReadAfterValue(char close) {
  SkipSpace();
  if (pos >= text.size()) return AfterValue::kNeither;
  const char c = text[pos];
  if (c != ',' && c != close) return AfterValue::kNeither;
  ++pos;
  return c == close ? AfterValue::kClose : AfterValue::kComma;
}

bool JsonReader::AtString() {
  SkipSpace();
  return pos < text.size() && text[pos] == '"';
}

Status JsonReader::Error(const std::string& what) const {
  return Status::InvalidArgument("invalid JSON at offset " + std::to_string(pos) + ": " + what);
}

Status JsonReader::Expect(char c, const char* what) {
  SkipSpace();
  if (pos >= text.size() || text[pos] != c) return Error(std::string("expected ") + what);
  ++pos;
  return Status::OK();
}

Status JsonReader::ReadLiteral(std::string_view word) {
  if (text.substr(pos, word.size()) != word) return Error("unexpected character");
  pos += word.size();
  return Status::OK();
}

Status JsonReader::ReadNumber(std::string_view* raw) {
  const size_t n = JsonNumberLength(text, pos);
  if (n == 0) return Error("malformed number");
  *raw = text.substr(pos, n);
  pos += n;
  return Status::OK();
}

Status JsonReader::ReadString(std::string_view* value, std::string* scratch, std::string_view* raw) {
  const size_t start = pos++;
  // Fast path: no escape.
  size_t i = pos;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\' || c < 0x20) break;
    ++i;
  }
  if (i < text.size() && text[i] == '"') {
    *value = text.substr(pos, i - pos);
    pos = i + 1;
    *raw = text.substr(start, pos - start);
    return Status::OK();
  }
  scratch->assign(text.substr(pos, i - pos));
  pos = i;
  auto read_hex4 = [this](uint32_t* cp) {
    if (text.size() - pos < 4) return false;
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const int h = HexDigitValue(text[pos + static_cast<size_t>(k)]);
      if (h < 0) return false;
      v = v << 4 | static_cast<uint32_t>(h);
    }
    pos += 4;
    *cp = v;
    return true;
  };
  while (true) {
    if (pos >= text.size()) return Error("unterminated string");
    const auto c = static_cast<unsigned char>(text[pos]);
    if (c == '"') {
      ++pos;
      break;
    }
    if (c < 0x20) return Error("control character in a string");
    if (c != '\\') {
      scratch->push_back(static_cast<char>(c));
      ++pos;
      continue;
    }
    if (++pos >= text.size()) return Error("unterminated string");
    const char e = text[pos++];
    switch (e) {
      case '"':
      case '\\':
      case '/':
        scratch->push_back(e);
        break;
      case 'b':
        scratch->push_back('\b');
        break;
      case 'f':
        scratch->push_back('\f');
        break;
      case 'n':
        scratch->push_back('\n');
        break;
      case 'r':
        scratch->push_back('\r');
        break;
      case 't':
        scratch->push_back('\t');
        break;
      case 'u': {
        uint32_t cp = 0;
        if (!read_hex4(&cp)) return Error("bad \\u escape");
        if (lone_surrogates_ok) break;  // checked, not decoded
        if (cp >= 0xDC00 && cp <= 0xDFFF) return Error("unpaired surrogate in a \\u escape");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          uint32_t low = 0;
          if (text.substr(pos, 2) != "\\u") return Error("unpaired surrogate in a \\u escape");
          pos += 2;
          if (!read_hex4(&low)) return Error("bad \\u escape");
          if (low < 0xDC00 || low > 0xDFFF) return Error("unpaired surrogate in a \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        AppendUtf8(cp, scratch);
        break;
      }
      default:
        --pos;
        return Error("bad escape in a string");
    }
  }
  *value = *scratch;
  *raw = text.substr(start, pos - start);
  return Status::OK();
}

Status JsonReader::SkipValue(int depth) {
  SkipSpace();
  if (pos >= text.size()) return Error("expected a value");
  if (depth > kMaxDepth) return Error("nested too deeply");
  const char c = text[pos];
  if (c == '"') {
    std::string_view value, raw;
    return ReadString(&value, &scratch_, &raw);
  }
  if (c == '{' || c == '[') {
    const char close = c == '{' ? '}' : ']';
    ++pos;
    if (ConsumeClose(close)) return Status::OK();
    while (true) {
      if (c == '{') {
        if (!AtString()) return Error("expected a string");
        std::string_view value, raw;
        PQ_RETURN_IF_ERROR(ReadString(&value, &scratch_, &raw));
        PQ_RETURN_IF_ERROR(Expect(':', "':'"));
      }
      PQ_RETURN_IF_ERROR(SkipValue(depth + 1));
      const AfterValue after = ReadAfterValue(close);
      if (after == AfterValue::kClose) return Status::OK();
      if (after == AfterValue::kNeither) return Error(std::string("expected ',' or '") + close + "'");
    }
  }
  if (c == 't') return ReadLiteral("true");
  if (c == 'f') return ReadLiteral("false");
  if (c == 'n') return ReadLiteral("null");
  if (c != '-' && !IsDigit(c)) return Error("expected a value");
  std::string_view raw;
  return ReadNumber(&raw);
}

bool IsValidJson(std::string_view text) {
  JsonReader reader;
  reader.text = text;
  reader.lone_surrogates_ok = true;
  if (!reader.SkipValue(0).ok()) return false;
  reader.SkipSpace();
  return reader.pos == text.size();
}

}  // namespace pq
