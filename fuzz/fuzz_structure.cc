// Fuzz target: structure-aware. The input is not a file but the choices that make one: which valid
// base file (tests/hostile/mutator.h), which of its structures to change (footer fields, page
// headers, the page list, the page index, the schema, key/value metadata) and to what, the changed
// structures encoded again through the project's Thrift writer. libFuzzer's byte mutations so
// become structural ones, and every input is a file that parses as far as its changes.
//
// Each mutant is opened and checked the way a table reads it (CheckMutant: open within a 64 MiB
// max_memory, the row counts, a full scan, a pushed-down equality). Besides crashes, sanitizer
// reports, time-outs and the RSS limit, a pushed-down scan that disagrees with the full scan
// (rows the full scan gave, without a statistics lie) aborts: one query, one answer.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "tests/hostile/mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pq::hostile::ByteChooser chooser(data, size);
  bool lies = false;
  const std::string bytes = pq::hostile::MutantFile(chooser, &lies);
  const pq::hostile::MutantOutcome o = pq::hostile::CheckMutant(bytes, lies);
  if (o.disagree) {
    std::fprintf(stderr, "pushed-down scan disagrees with the full scan: %s\n", o.detail.c_str());
    std::abort();
  }
  return 0;
}
