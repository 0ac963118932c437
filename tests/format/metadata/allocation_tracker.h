// The largest single heap allocation a test binary made since the last reset, so that tests can
// show that hostile container sizes are refused before anything is allocated for them. The global
// operator new that records it lives in allocation_tracker_test.cc (a separate translation unit, so
// that the compiler never sees it and a caller's delete together).
#pragma once

#include <cstddef>

namespace pq::alloc_tracker {

void ResetLargestAllocation();
size_t LargestAllocationSinceReset();

}  // namespace pq::alloc_tracker
