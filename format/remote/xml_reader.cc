#include "format/remote/xml_reader.h"

#include <charconv>
#include <cstring>

#include "format/remote/server_text.h"
#include "format/util/utf8.h"

namespace pq::remote {

namespace {

std::string_view LocalName(std::string_view name) {
  const size_t colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

bool IsNameChar(char c) {
  return !(c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '/' || c == '>' || c == '=' || c == '<' ||
           c == '\0');
}

class Parser {
 public:
  Parser(std::string_view doc, const XmlLimits& limits) : doc_(doc), limits_(limits) {}

  Result<XmlElement> Document() {
    PQ_RETURN_IF_ERROR(SkipMisc());
    if (pos_ >= doc_.size() || doc_[pos_] != '<') return Error("no root element");
    XmlElement root;
    PQ_RETURN_IF_ERROR(Element(&root, 1));
    PQ_RETURN_IF_ERROR(SkipMisc());
    if (pos_ != doc_.size()) return Error("content after the root element");
    return root;
  }

 private:
  Status Error(const std::string& what) const {
    return Status::Corruption("malformed XML at byte " + std::to_string(pos_) + ": " + what);
  }
  bool StartsWith(std::string_view s) const { return doc_.substr(pos_, s.size()) == s; }
  Status SkipPast(std::string_view end, const char* what) {
    const size_t at = doc_.find(end, pos_);
    if (at == std::string_view::npos) return Error(std::string("unterminated ") + what);
    pos_ = at + end.size();
    return Status::OK();
  }
  void SkipSpace() {
    while (pos_ < doc_.size() && std::strchr(" \t\r\n", doc_[pos_]) != nullptr) ++pos_;
  }
  // Whitespace, comments and processing instructions outside the root; a DOCTYPE is refused.
  Status SkipMisc() {
    while (true) {
      SkipSpace();
      if (StartsWith("<?")) {
        PQ_RETURN_IF_ERROR(SkipPast("?>", "processing instruction"));
      } else if (StartsWith("<!--")) {
        PQ_RETURN_IF_ERROR(SkipPast("-->", "comment"));
      } else if (StartsWith("<!")) {
        return Error("DOCTYPE declarations are not accepted");
      } else {
        return Status::OK();
      }
    }
  }

  Status Name(std::string* out) {
    const size_t start = pos_;
    while (pos_ < doc_.size() && IsNameChar(doc_[pos_])) ++pos_;
    if (pos_ == start) return Error("a name was expected");
    *out = std::string(doc_.substr(start, pos_ - start));
    return Status::OK();
  }

  // Text up to the next '<', entities decoded, appended to `out`.
  Status Text(std::string* out) {
    while (pos_ < doc_.size() && doc_[pos_] != '<') {
      const char c = doc_[pos_];
      if (c != '&') {
        out->push_back(c);
        ++pos_;
        continue;
      }
      const size_t semi = doc_.find(';', pos_);
      if (semi == std::string_view::npos || semi - pos_ > 12) return Error("unterminated entity");
      std::string_view entity = doc_.substr(pos_ + 1, semi - pos_ - 1);
      if (entity == "lt") {
        out->push_back('<');
      } else if (entity == "gt") {
        out->push_back('>');
      } else if (entity == "amp") {
        out->push_back('&');
      } else if (entity == "quot") {
        out->push_back('"');
      } else if (entity == "apos") {
        out->push_back('\'');
      } else if (entity.size() > 1 && entity[0] == '#') {
        const bool hex = entity[1] == 'x' || entity[1] == 'X';
        std::string_view digits = entity.substr(hex ? 2 : 1);
        uint32_t cp = 0;
        auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
        if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size() || cp == 0 ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
          return Error("bad character reference");
        }
        AppendUtf8(cp, out);
      } else {
        return Error("unknown entity '&" + ServerText(entity) + ";'");
      }
      pos_ = semi + 1;
    }
    return Status::OK();
  }

  // Parses the element starting at '<' into `e`.
  Status Element(XmlElement* e, int depth) {
    if (depth > limits_.max_depth) return Error("elements nested deeper than " + std::to_string(limits_.max_depth));
    if (++elements_ > limits_.max_elements) return Error("more elements than the limit");
    ++pos_;  // '<'
    PQ_RETURN_IF_ERROR(Name(&e->name));
    // Attributes: name="value" or name='value', skipped.
    while (true) {
      SkipSpace();
      if (pos_ >= doc_.size()) return Error("unterminated start tag");
      if (StartsWith("/>")) {
        pos_ += 2;
        return Status::OK();
      }
      if (doc_[pos_] == '>') {
        ++pos_;
        break;
      }
      std::string attribute;
      PQ_RETURN_IF_ERROR(Name(&attribute));
      SkipSpace();
      if (pos_ >= doc_.size() || doc_[pos_] != '=') return Error("attribute without a value");
      ++pos_;
      SkipSpace();
      if (pos_ >= doc_.size() || (doc_[pos_] != '"' && doc_[pos_] != '\'')) return Error("unquoted attribute");
      const char quote = doc_[pos_++];
      const size_t end = doc_.find(quote, pos_);
      if (end == std::string_view::npos) return Error("unterminated attribute value");
      pos_ = end + 1;
    }
    // Content.
    while (true) {
      PQ_RETURN_IF_ERROR(Text(&e->text));
      if (pos_ >= doc_.size()) return Error("element '" + e->name + "' is not closed");
      if (StartsWith("</")) {
        pos_ += 2;
        std::string closing;
        PQ_RETURN_IF_ERROR(Name(&closing));
        if (closing != e->name) return Error("'" + closing + "' closes '" + e->name + "'");
        SkipSpace();
        if (pos_ >= doc_.size() || doc_[pos_] != '>') return Error("unterminated end tag");
        ++pos_;
        return Status::OK();
      }
      if (StartsWith("<!--")) {
        PQ_RETURN_IF_ERROR(SkipPast("-->", "comment"));
      } else if (StartsWith("<![CDATA[")) {
        const size_t start = pos_ + 9;
        PQ_RETURN_IF_ERROR(SkipPast("]]>", "CDATA section"));
        e->text.append(doc_.substr(start, pos_ - 3 - start));
      } else if (StartsWith("<?")) {
        PQ_RETURN_IF_ERROR(SkipPast("?>", "processing instruction"));
      } else if (StartsWith("<!")) {
        return Error("declarations are not accepted inside elements");
      } else {
        e->children.emplace_back();
        PQ_RETURN_IF_ERROR(Element(&e->children.back(), depth + 1));
      }
    }
  }

  std::string_view doc_;
  XmlLimits limits_;
  size_t pos_ = 0;
  int64_t elements_ = 0;
};

}  // namespace

const XmlElement* XmlElement::Child(std::string_view child) const {
  for (const XmlElement& c : children) {
    if (LocalName(c.name) == child) return &c;
  }
  return nullptr;
}

std::string XmlElement::ChildText(std::string_view child) const {
  const XmlElement* c = Child(child);
  return c == nullptr ? std::string() : c->text;
}

std::vector<const XmlElement*> XmlElement::Children(std::string_view child) const {
  std::vector<const XmlElement*> out;
  for (const XmlElement& c : children) {
    if (LocalName(c.name) == child) out.push_back(&c);
  }
  return out;
}

Result<XmlElement> ParseXml(std::string_view document, const XmlLimits& limits) {
  return Parser(document, limits).Document();
}

}  // namespace pq::remote
