#include "format/writer/page_index_builder.h"

namespace pq {

ColumnIndexBuilder::ColumnIndexBuilder(const StatisticsFormat& format, int16_t max_def,
                                       int16_t max_rep)
    : format_(format),
      max_def_(max_def),
      max_rep_(max_rep),
      valid_(format.order != SortOrder::kNone) {
  index_.null_counts.emplace();
  if (format_.floating) index_.nan_counts.emplace();
}

void ColumnIndexBuilder::AddPage(const ValueStatistics& page,
                                 const std::vector<int64_t>& def_histogram,
                                 const std::vector<int64_t>& rep_histogram) {
  const bool null_page = page.value_count == 0;
  if (!null_page && !page.has_min_max) valid_ = false;  // only NaNs (or no order)
  index_.null_pages.push_back(null_page);
  index_.null_counts->push_back(page.null_count);
  if (index_.nan_counts) index_.nan_counts->push_back(page.nan_count);
  if (null_page || !page.has_min_max) {
    index_.min_values.emplace_back();
    index_.max_values.emplace_back();
  } else if (format_.type == PhysicalType::kByteArray &&
             format_.order == SortOrder::kUnsignedBytes && format_.truncate_bytes > 0) {
    index_.min_values.push_back(TruncateMin(page.min, format_.truncate_bytes, format_.utf8));
    index_.max_values.push_back(
        TruncateMax(page.max, format_.truncate_bytes, format_.utf8).value_or(page.max));
  } else {
    index_.min_values.push_back(page.min);
    index_.max_values.push_back(page.max);
  }
  if (max_def_ > 0) {
    index_.definition_level_histograms.insert(index_.definition_level_histograms.end(),
                                              def_histogram.begin(), def_histogram.end());
  }
  if (max_rep_ > 0) {
    index_.repetition_level_histograms.insert(index_.repetition_level_histograms.end(),
                                              rep_histogram.begin(), rep_histogram.end());
  }
}

std::optional<ColumnIndex> ColumnIndexBuilder::Finish() const {
  if (!valid_) return std::nullopt;
  ColumnIndex out = index_;
  bool ascending = true, descending = true;
  int64_t previous = -1;
  for (size_t i = 0; i < out.null_pages.size(); ++i) {
    if (out.null_pages[i]) continue;
    if (previous >= 0) {
      const size_t p = static_cast<size_t>(previous);
      const int min_cmp =
          CompareStatValues(format_.order, format_.type, out.min_values[i], out.min_values[p]);
      const int max_cmp =
          CompareStatValues(format_.order, format_.type, out.max_values[i], out.max_values[p]);
      if (min_cmp < 0 || max_cmp < 0) ascending = false;
      if (min_cmp > 0 || max_cmp > 0) descending = false;
    }
    previous = static_cast<int64_t>(i);
  }
  out.boundary_order = ascending    ? BoundaryOrder::kAscending
                       : descending ? BoundaryOrder::kDescending
                                    : BoundaryOrder::kUnordered;
  return out;
}

void OffsetIndexBuilder::AddPage(int64_t offset, int32_t size_with_header, int64_t first_row,
                                 std::optional<int64_t> unencoded_byte_array_bytes) {
  index_.page_locations.push_back(PageLocation{offset, size_with_header, first_row});
  if (unencoded_byte_array_bytes)
    index_.unencoded_byte_array_data_bytes.push_back(*unencoded_byte_array_bytes);
}

void OffsetIndexBuilder::Shift(int64_t delta) {
  for (PageLocation& p : index_.page_locations) p.offset += delta;
}

}  // namespace pq
