// BufferPool: recycles the large buffers pages are decompressed into. A scan reads column chunks
// and decompresses page after page into buffers of a few hundred KB. Taken from the allocator each
// time, every such buffer is fresh memory: the kernel faults its pages in and zeroes them, and
// std::vector zeroes them again, which costs more than decompressing into them for small queries.
// The pool keeps a few released buffers (process-wide, bounded) and hands them out again with their
// old contents, which the caller overwrites.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "format/encoding/values.h"

namespace pq {

// Limits of the process-wide pool.
struct BufferPoolLimits {
  static constexpr size_t kMinPooledBytes = size_t{64} << 10;  // smaller requests: plain allocation
  static constexpr size_t kMaxPooledBytes = size_t{16} << 20;  // larger buffers are never kept
  // Enough for a threads=2 scan of many columns (two decompressed pages per column in flight, and
  // the bytes read): with 16, buffers kept going back to malloc from another thread than the one
  // that allocated them, and glibc's per-thread arenas then returned and faulted the memory in
  // again on every page (a 10-column equality scan 113 -> 251 ms after other scans had run).
  static constexpr size_t kMaxKeptBuffers = 64;
  static constexpr size_t kMaxKeptBytes = size_t{64} << 20;
};

// A buffer of at least `n` bytes (size() may be larger) with unspecified contents. When its last
// owner lets go it returns to the pool (if the pool has room) instead of to the allocator.
// Thread-safe.
std::shared_ptr<Buffer> AcquirePooledBuffer(size_t n);
// The same with size() exactly `n` (for bytes read from a file, whose length is the buffer's size).
std::shared_ptr<Buffer> AcquireExactPooledBuffer(size_t n);

// Buffers the pool holds now, and their bytes (capacities; for tests).
size_t PooledBufferCount();
size_t PooledBufferBytes();

}  // namespace pq
