#include "format/geo/geospatial_statistics_builder.h"

#include <algorithm>

namespace pq::geo {

void GeospatialStatisticsBuilder::Update(ByteSpan wkb) {
  any_ = true;
  if (invalid_) return;
  CoordinateBounds value;
  Result<uint32_t> code = ScanWkb(wkb, &value);
  if (!code.ok()) {
    invalid_ = true;
    return;
  }
  bounds_.Merge(value);
  const auto t = static_cast<int32_t>(*code);
  auto it = std::lower_bound(types_.begin(), types_.end(), t);
  if (it == types_.end() || *it != t) types_.insert(it, t);
}

std::optional<GeospatialStatistics> GeospatialStatisticsBuilder::Finish() const {
  if (!any_ || invalid_) return std::nullopt;
  GeospatialStatistics out;
  out.geospatial_types = types_;
  using A = CoordinateBounds::Axis;
  if (bounding_box_ && bounds_.has(A::kX) && bounds_.has(A::kY)) {
    BoundingBox box;
    box.xmin = bounds_.min[A::kX];
    box.xmax = bounds_.max[A::kX];
    box.ymin = bounds_.min[A::kY];
    box.ymax = bounds_.max[A::kY];
    if (bounds_.has(A::kZ)) {
      box.zmin = bounds_.min[A::kZ];
      box.zmax = bounds_.max[A::kZ];
    }
    if (bounds_.has(A::kM)) {
      box.mmin = bounds_.min[A::kM];
      box.mmax = bounds_.max[A::kM];
    }
    out.bbox = box;
  }
  return out;
}

void GeospatialStatisticsBuilder::Reset() {
  any_ = false;
  invalid_ = false;
  bounds_ = CoordinateBounds();
  types_.clear();
}

}  // namespace pq::geo
