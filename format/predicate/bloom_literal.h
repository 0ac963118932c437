// BloomLiteral: the Bloom filter hashes of a value, for probing a column chunk's filter (the
// Parquet spec, "Bloom Filter": XXH64, seed 0, of the stored value's PLAIN encoding): the one home
// for mapping a value to the stored value it stands for, so pruning (BloomHashOfLiteral, an
// equality of the query compared as SQLite compares) and parquet_bloom_probe (BloomProbeHashes, a
// value given for a column by its Parquet types) cannot disagree. Where the mapping is not exact
// and unique there is no hash, and the filter is not used.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <vector>

#include "format/predicate/predicate.h"
#include "format/schema/schema.h"
#include "format/util/status.h"
#include "format/value/leaf_converter.h"

namespace pq {

// The hash of the stored value equal to `literal` (as given in the query, before affinity) in a
// column read by `converter` whose table affinity is `affinity`; nullopt when there is none to
// probe (the table below), including a NULL literal. The affinity must be the one of
// converter.declared_type(): any other (a caller's mistake) gives nullopt.
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
std::optional<uint64_t> BloomHashOfLiteral(const SqlValue& literal, const LeafConverter& converter,
                                           Affinity affinity);

// A value given to parquet_bloom_probe, as SQLite hands it over.
struct ProbeValue {
  CellType type = CellType::kNull;  // its storage class
  std::string bytes;                // TEXT and BLOB
  SqlValue number;                  // what SQLite's numeric affinity makes of it: INTEGER, REAL or NULL
  std::string printed;              // an INTEGER or REAL as SQLite prints it
};

// The hashes to probe for `v` (not NULL) in a Bloom filter of `leaf`, by the rules of
// docs/functions.md ("Page index and Bloom filters"): the stored value of the column's physical
// type that the value stands for (a zero of a FLOAT or DOUBLE column: both signs). InvalidArgument
// saying why the value does not fit, without the column (the caller names it).
Result<std::vector<uint64_t>> BloomProbeHashes(const SchemaNode& leaf, const ProbeValue& v);

}  // namespace pq
