#include "format/predicate/scan_counters.h"

namespace pq {

ScanCounters& ScanCounters::operator+=(const ScanCounters& o) {
  for (const ScanCounterField& f : kScanCounterFields) this->*f.member += o.*f.member;
  return *this;
}

void ScanCounters::AddPruning(const ScanCounters& plan) {
  row_groups_skipped_by_statistics += plan.row_groups_skipped_by_statistics;
  row_groups_skipped_by_dictionary += plan.row_groups_skipped_by_dictionary;
  row_groups_skipped_by_bloom_filter += plan.row_groups_skipped_by_bloom_filter;
  row_groups_skipped_by_page_index += plan.row_groups_skipped_by_page_index;
  pages_considered += plan.pages_considered;
  pages_skipped_by_page_index += plan.pages_skipped_by_page_index;
  bytes_read += plan.bytes_read;
}

}  // namespace pq
