// The batch filter: the kernels that test a term of the scan's filter (predicate.h, TermMatcher)
// against a whole batch of decoded values at once, keeping a selection of rows (`sel`, row numbers
// in increasing order) without building a Cell per row: plain numbers and byte arrays compared with
// the term's literals, and dictionary-coded batches tested once per dictionary entry then per row
// by index. Each gives the same answer as TermMatcher::Matches on the converted value, row by row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "format/column/column_batch.h"
#include "format/metadata/metadata.h"
#include "format/predicate/predicate.h"
#include "format/value/leaf_converter.h"

namespace pq {

// Filters sel[0..n) by `m` on the values `vals` (physical type `type`) of a flat field whose values
// reach SQLite unchanged (INTEGER from INT32 or INT64, REAL from FLOAT or DOUBLE, TEXT or BLOB from
// BYTE_ARRAY), comparing the raw values with the term's literals; the same answer as m.Matches of
// the converted value row by row. Row r's value is vals[vi[r]] (-1: NULL), or vals[r] when vi is
// null. `dense` says sel[i] == i for every i. -1 when the field or the term is not such a case.
int64_t FilterPlainValues(PhysicalType type, const void* vals, const int32_t* vi, const LeafConverter& conv,
                          const TermMatcher& m, int32_t* sel, size_t n, bool dense);

// Sets mask[e] to whether entry e of batch b's dictionary satisfies `m`; returns how many do.
int64_t BuildDictionaryMask(const ColumnBatch& b, const LeafConverter& conv, const TermMatcher& m,
                            std::vector<uint8_t>* mask, std::string* scratch);

// Keeps the rows of sel[0..n) whose value's dictionary index (idx[vi[r]], or idx[r] when vi is null)
// is set in `mask`; a NULL row (vi[r] < 0) when null_matches. Returns how many are kept. `dense`
// says sel[i] == i for every i (sel is then only written). `only`, when not -1, is the one entry
// set in `mask` (an equality on a dictionary of distinct entries): the indices are compared with it,
// sixteen at a time, instead of looking each up in the mask.
size_t FilterByMask(int32_t* sel, size_t n, const uint32_t* idx, const int32_t* vi, const uint8_t* mask,
                    bool null_matches, bool dense, int64_t only);

}  // namespace pq
