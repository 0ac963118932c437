#include "format/value/json_reader.h"

#include <cstddef>
#include <string_view>

namespace pq {

namespace {

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

bool IsValidJson(std::string_view text) { return JsonChecker(text).Valid(); }

}  // namespace pq
