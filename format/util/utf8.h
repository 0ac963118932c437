// UTF-8 well-formedness (RFC 3629): where text must be UTF-8 by a format's rules (Variant strings
// and field names), the writer checks it here rather than storing bytes that readers may refuse.
#pragma once

#include <string_view>

namespace pq {

// True when `s` is well-formed UTF-8: no overlong forms, no surrogates (U+D800..U+DFFF), nothing
// above U+10FFFF, no truncated sequence.
bool IsValidUtf8(std::string_view s);

}  // namespace pq
