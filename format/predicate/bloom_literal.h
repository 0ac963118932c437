// BloomLiteral: the Bloom filter hash of a literal, for probing a column chunk's filter with an
// equality (the Parquet spec, "Bloom Filter": XXH64, seed 0, of the value's PLAIN encoding).
//
// The filter holds the hashes of the stored (physical) values, so the literal must first become
// the one stored value that the table would show as equal to it. That is only done where the
// mapping is exact and unique; everywhere else there is no hash and the filter cannot be used:
//
//   table value kind (LeafConverter)      literal (after the column's affinity)  stored value
//   INT32 / INT64 integers                INTEGER (or an integral REAL) in range  the integer
//   UINT8..UINT32 (INT32 read unsigned)   INTEGER in [0, 2^32)                    its bits
//   UINT64 (INT64 read unsigned)          INTEGER >= 0                            its bits
//   TIMESTAMP as INTEGER                  INTEGER                                 the integer
//   TEXT (STRING, ENUM, JSON, ...)        TEXT                                    the bytes
//   BLOB                                  BLOB                                    the bytes
//   DATE text                             TEXT exactly as the column prints it    days (INT32)
//   TIMESTAMP text                        TEXT exactly as the column prints it    the INT64
//   UUID text                             TEXT in the canonical lower-case form   the 16 bytes
//
// Not hashed: BOOLEAN (no filters), floating point (-0.0/+0.0 and NaN payloads hash differently
// while comparing equal), DECIMAL (many encodings of one value), TIME, INT96, INTERVAL, UINT64
// above 2^63-1 (read as REAL, not unique), and any literal whose conversion is unsure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "format/predicate/predicate.h"
#include "format/value/leaf_converter.h"

namespace pq {

// The hash of the stored value equal to `literal` (as given in the query, before affinity) in a
// column read by `converter` whose table affinity is `affinity`; nullopt when there is none to
// probe (see above), including a NULL literal. The affinity must be the one of
// converter.declared_type(): any other (a caller's mistake) gives nullopt.
std::optional<uint64_t> BloomHashOfLiteral(const SqlValue& literal, const LeafConverter& converter,
                                           Affinity affinity);

}  // namespace pq
