#include "format/variant/variant_from_json.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "format/util/utf8.h"

namespace pq {

namespace {

__extension__ typedef unsigned __int128 UInt128;

constexpr int kMaxDecimalDigits = 38;

class JsonToVariant {
 public:
  JsonToVariant(std::string_view text, VariantEncoder* encoder) : s_(text), enc_(encoder) {}

  Status Run() {
    SkipSpace();
    PQ_RETURN_IF_ERROR(Value(0));
    SkipSpace();
    if (i_ != s_.size()) return Syntax("text after the value");
    return Status::OK();
  }

 private:
  Status Syntax(const std::string& what) const {
    return Status::InvalidArgument("invalid JSON at offset " + std::to_string(i_) + ": " + what);
  }
  void SkipSpace() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  bool Consume(char c) {
    SkipSpace();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  Status Literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return Syntax("expected a value");
    i_ += word.size();
    return Status::OK();
  }

  Status Value(int depth) {
    if (i_ >= s_.size()) return Syntax("expected a value");
    const char c = s_[i_];
    switch (c) {
      case '{':
      case '[':
        if (depth >= kMaxVariantNesting) {
          return Syntax("arrays and objects nested more than " +
                        std::to_string(kMaxVariantNesting) + " levels deep");
        }
        return c == '{' ? Object(depth) : Array(depth);
      case '"': {
        PQ_RETURN_IF_ERROR(String(&scratch_));
        return enc_->AddString(scratch_);
      }
      case 't':
        PQ_RETURN_IF_ERROR(Literal("true"));
        enc_->AddBoolean(true);
        return Status::OK();
      case 'f':
        PQ_RETURN_IF_ERROR(Literal("false"));
        enc_->AddBoolean(false);
        return Status::OK();
      case 'n':
        PQ_RETURN_IF_ERROR(Literal("null"));
        enc_->AddNull();
        return Status::OK();
      default:
        return Number();
    }
  }

  Status Array(int depth) {
    ++i_;
    enc_->BeginArray();
    if (!Consume(']')) {
      while (true) {
        SkipSpace();
        PQ_RETURN_IF_ERROR(Value(depth + 1));
        if (Consume(',')) continue;
        if (Consume(']')) break;
        return Syntax("expected ',' or ']'");
      }
    }
    return enc_->EndArray();
  }

  Status Object(int depth) {
    ++i_;
    enc_->BeginObject();
    if (!Consume('}')) {
      while (true) {
        SkipSpace();
        if (i_ >= s_.size() || s_[i_] != '"') return Syntax("expected a field name");
        PQ_RETURN_IF_ERROR(String(&scratch_));
        PQ_RETURN_IF_ERROR(enc_->Key(scratch_));
        if (!Consume(':')) return Syntax("expected ':'");
        SkipSpace();
        PQ_RETURN_IF_ERROR(Value(depth + 1));
        if (Consume(',')) continue;
        if (Consume('}')) break;
        return Syntax("expected ',' or '}'");
      }
    }
    return enc_->EndObject();
  }

  static int Hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  Status Hex4(uint32_t* out) {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k, ++i_) {
      const int h = i_ < s_.size() ? Hex(s_[i_]) : -1;
      if (h < 0) return Syntax("\\u needs four hex digits");
      v = v * 16 + static_cast<uint32_t>(h);
    }
    *out = v;
    return Status::OK();
  }

  // The string at s_[i_] (the opening quote), unescaped. Its UTF-8 is checked by the encoder.
  Status String(std::string* out) {
    out->clear();
    ++i_;
    while (true) {
      if (i_ >= s_.size()) return Syntax("unterminated string");
      const auto c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        return Status::OK();
      }
      if (c < 0x20) return Syntax("a control character in a string");
      if (c != '\\') {
        out->push_back(static_cast<char>(c));
        ++i_;
        continue;
      }
      if (++i_ >= s_.size()) return Syntax("unterminated string");
      const char e = s_[i_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out->push_back(e);
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
          PQ_RETURN_IF_ERROR(Hex4(&cp));
          if (cp >= 0xD800 && cp <= 0xDBFF) {  // a high surrogate: its low one must follow
            uint32_t low = 0;
            if (s_.substr(i_, 2) != "\\u") return Syntax("a lone surrogate in \\u escapes");
            i_ += 2;
            PQ_RETURN_IF_ERROR(Hex4(&low));
            if (low < 0xDC00 || low > 0xDFFF) return Syntax("a lone surrogate in \\u escapes");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return Syntax("a lone surrogate in \\u escapes");
          }
          AppendUtf8(cp, out);
          break;
        }
        default:
          return Syntax(std::string("unknown escape \\") + e);
      }
    }
  }

  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }

  // A JSON number: see the table in variant_from_json.h.
  Status Number() {
    const size_t start = i_;
    const bool negative = i_ < s_.size() && s_[i_] == '-';
    if (negative) ++i_;
    const size_t int_start = i_;
    if (i_ < s_.size() && s_[i_] == '0') {
      ++i_;
    } else {
      while (i_ < s_.size() && IsDigit(s_[i_])) ++i_;
    }
    if (i_ == int_start) {
      i_ = start;
      return Syntax("expected a value");
    }
    const size_t int_end = i_;
    size_t frac_start = i_, frac_end = i_;
    if (i_ < s_.size() && s_[i_] == '.') {
      frac_start = ++i_;
      while (i_ < s_.size() && IsDigit(s_[i_])) ++i_;
      frac_end = i_;
      if (frac_end == frac_start) return Syntax("a number needs digits after '.'");
    }
    bool exponent = false, exponent_negative = false;
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      exponent = true;
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) exponent_negative = s_[i_++] == '-';
      const size_t exp_start = i_;
      while (i_ < s_.size() && IsDigit(s_[i_])) ++i_;
      if (i_ == exp_start) return Syntax("a number needs digits in its exponent");
    }
    const std::string_view text = s_.substr(start, i_ - start);
    if (!exponent) {
      // The digits without leading zeros, as one unscaled integer.
      UInt128 unscaled = 0;
      int digits = 0;
      bool fits = true;
      auto take = [&](size_t from, size_t to) {
        for (size_t k = from; k < to && fits; ++k) {
          if (digits == 0 && s_[k] == '0') continue;
          if (++digits > kMaxDecimalDigits) fits = false;
          unscaled = unscaled * 10 + static_cast<unsigned>(s_[k] - '0');
        }
      };
      take(int_start, int_end);
      take(frac_start, frac_end);
      const int scale = static_cast<int>(frac_end - frac_start);
      if (fits && scale <= kMaxDecimalDigits &&
          !(negative && unscaled == 0 && scale > 0)) {  // -0.0 is a double
        if (scale == 0 && unscaled <= UInt128{std::numeric_limits<int64_t>::max()} + negative) {
          const int64_t v = negative ? static_cast<int64_t>(UInt128{0} - unscaled)
                                     : static_cast<int64_t>(unscaled);
          enc_->AddInteger(v);
          return Status::OK();
        }
        AddDecimal(unscaled, negative, digits, static_cast<uint8_t>(scale));
        return Status::OK();
      }
    }
    double d = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (p != text.data() + text.size()) return Syntax("not a number");
    if (ec == std::errc::result_out_of_range) {
      // from_chars leaves d alone: beyond the double range is an infinity, below it a zero.
      d = exponent_negative ? 0.0 : std::numeric_limits<double>::infinity();
      if (negative) d = -d;
    }
    enc_->AddDouble(d);
    return Status::OK();
  }

  void AddDecimal(UInt128 unscaled, bool negative, int digits, uint8_t scale) {
    if (digits <= 9) {
      const auto v = static_cast<int32_t>(static_cast<int64_t>(unscaled) * (negative ? -1 : 1));
      enc_->AddDecimal4(v, scale);
    } else if (digits <= 18) {
      const auto v = static_cast<int64_t>(unscaled) * (negative ? -1 : 1);
      enc_->AddDecimal8(v, scale);
    } else {
      const UInt128 twos = negative ? UInt128{0} - unscaled : unscaled;
      uint8_t big_endian[16];
      for (int k = 0; k < 16; ++k) big_endian[15 - k] = static_cast<uint8_t>(twos >> (8 * k));
      enc_->AddDecimal16(big_endian, scale);
    }
  }

  std::string_view s_;
  size_t i_ = 0;
  VariantEncoder* enc_;
  std::string scratch_;
};

}  // namespace

Status AddJsonToVariant(std::string_view json, VariantEncoder* encoder) {
  return JsonToVariant(json, encoder).Run();
}

}  // namespace pq
