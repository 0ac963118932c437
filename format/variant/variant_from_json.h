// JSON text (RFC 8259) as a Variant value: what a VARIANT column stores for a row given as JSON
// (the forms are documented in docs/writing.md, "VARIANT columns"). Numbers keep what was written:
// integers take the narrowest integer type, a number with a fraction and no exponent a decimal with
// as many scale digits as written (so 1.50 reads back as 1.50), one with an exponent a double.
#pragma once

#include <string_view>

#include "format/util/status.h"
#include "format/variant/variant_encoder.h"

namespace pq {

// Adds the one JSON value of `json` (white space around it allowed) to `encoder` as a Variant
// value: null, boolean; an integer literal the narrowest of int8/16/32/64, beyond int64 decimal16
// with scale 0 while it has at most 38 digits, else double; a number with a fraction and no
// exponent decimal4/8/16 by its digit count while it has at most 38 digits, else (and -0.0)
// double; a number with an exponent double (1e400 is +infinity); strings; arrays; objects (fields
// sorted by name as the spec requires). InvalidArgument saying where: "invalid JSON at offset 7:
// expected ',' or '}'", "the object has the field 'a' twice", "a string is not valid UTF-8" (a lone
// surrogate \ud800 too), nesting deeper than kMaxVariantNesting. On error the encoder must be Reset
// before its next use.
Status AddJsonToVariant(std::string_view json, VariantEncoder* encoder);

}  // namespace pq
