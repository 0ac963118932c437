// Reading JSON text (RFC 8259), the counterpart of json_writer.h.
#pragma once

#include <string_view>

namespace pq {

// Whether `text` is one JSON value surrounded by white space only. Nesting deeper than 1000 levels
// is refused rather than risking the stack.
bool IsValidJson(std::string_view text);

}  // namespace pq
