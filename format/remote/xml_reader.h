// XmlElement and ParseXml: the small XML reader the S3 client needs for its answers (ListObjectsV2,
// multipart upload, errors), bounded for untrusted bytes. Elements, their text, the five named
// entities and numeric character references. Attributes are skipped, comments, processing
// instructions and CDATA handled, a DOCTYPE refused (no entity definitions are ever expanded).
// Depth and element count are capped; the document's size is capped by whoever fetched it. Names
// are kept as written; Child() matches the local name (after any ':').
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "format/util/status.h"

namespace pq::remote {

struct XmlElement {
  std::string name;
  std::string text;  // the character data directly inside this element, concatenated
  std::vector<XmlElement> children;

  // The first child whose local name is `name`, or null.
  const XmlElement* Child(std::string_view name) const;
  // The text of Child(name), or "" when there is none.
  std::string ChildText(std::string_view name) const;
  // Every child whose local name is `name`.
  std::vector<const XmlElement*> Children(std::string_view name) const;
};

struct XmlLimits {
  int max_depth = 64;
  int64_t max_elements = 1 << 20;
};

// The root element of `document`; Corruption with the byte offset when it is not well-formed.
Result<XmlElement> ParseXml(std::string_view document, const XmlLimits& limits = {});

}  // namespace pq::remote
