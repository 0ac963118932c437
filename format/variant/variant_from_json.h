// JSON text (RFC 8259) as a Variant value: what a VARIANT column stores for a row given as JSON.
//
//   JSON                          Variant
//   null, true, false             null, boolean
//   an integer literal            the narrowest of int8/16/32/64; beyond int64, decimal16 with
//                                 scale 0 while it has at most 38 digits, else double
//   a number with a fraction      decimal (decimal4/8/16 by its digit count) with as many scale
//   and no exponent               digits as it was written with, while it has at most 38 digits,
//                                 so 1.50 reads back as 1.50; else (and -0.0) double
//   a number with an exponent     double (1e400 is +infinity)
//   a string                      string (a short string under 64 bytes)
//   an array, an object           array, object (fields sorted by name as the spec requires)
//
// Errors are InvalidArgument and say where: "invalid JSON at offset 7: expected ',' or '}'",
// "the object has the field 'a' twice", "a string is not valid UTF-8" (escapes included: a lone
// surrogate \ud800 is refused), nesting deeper than kMaxVariantNesting.
#pragma once

#include <string_view>

#include "format/util/status.h"
#include "format/variant/variant_encoder.h"

namespace pq {

// Adds the one JSON value of `json` (white space around it allowed) to `encoder` as a Variant
// value. On error the encoder must be Reset before its next use.
Status AddJsonToVariant(std::string_view json, VariantEncoder* encoder);

}  // namespace pq
