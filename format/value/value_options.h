// ValueOptions: the table options that change how Parquet values are presented to SQLite.
//
// They are the `binary_as_string`, `decimal=`, `timestamp=` and `variant=` options of the virtual
// table (docs/reading.md). Parsing the option text is the SQLite layer's job; this struct holds
// the parsed result and is all the value layer sees.
#pragma once

#include <cstdint>

namespace pq {

struct ValueOptions {
  // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY without annotation: BLOB (false) or TEXT (true).
  bool binary_as_string = false;

  enum class Decimal : uint8_t {
    kReal,  // the double nearest to the exact decimal value (default)
    kText,  // the exact decimal as text, `scale` digits after the point
  };
  Decimal decimal = Decimal::kReal;

  enum class Timestamp : uint8_t {
    kText,     // 'YYYY-MM-DD HH:MM:SS[.fraction]' (default)
    kInteger,  // the stored integer (INT96: nanoseconds since the epoch)
  };
  Timestamp timestamp = Timestamp::kText;

  // A top-level VARIANT column: TEXT holding its JSON (false), or a BLOB holding the Variant's
  // metadata followed by its value, rebuilt from the shredded columns where it was shredded, so
  // every value keeps its Variant type (json_assembler.h, variant_as_binary).
  bool variant_binary = false;
};

}  // namespace pq
