// ExportProgress: what a long export has done so far, written where a person sees it (stderr), at
// most once a second, when the option `progress=1` asks for it.
//
//   SELECT parquet_export('big.parquet', 'SELECT * FROM trips', 'progress=1');
//   stderr:  parquet_export 'big.parquet': 1,048,576 rows, 1.0 s, 1,048,576 rows/s
//            parquet_export 'big.parquet': 2,097,152 rows, 2.0 s, 1,048,576 rows/s
//            parquet_export 'big.parquet': done, 2,500,000 rows in 2.4 s (1,041,666 rows/s)
//
// Rows counts the rows handed to the writer; the rate is the average since the start. Row(), called
// for every row, reads the clock once every 1024 rows, so reporting costs nothing measurable. The
// clock and the output are parameters so that tests can drive them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace pq::ext {

class ExportProgress {
 public:
  // `what` starts every line ("parquet_export 'big.parquet'"). `now_ns` is a monotonic clock in
  // nanoseconds (default: std::chrono::steady_clock); `out` where lines go (default: stderr).
  explicit ExportProgress(std::string what, std::function<int64_t()> now_ns = nullptr,
                          std::FILE* out = nullptr);

  // One more row.
  void Row() {
    if ((++rows_ & 1023) == 0) Check();
  }
  // The last line, once: the rows (`final_rows` when given: rows taken back do not count), the time
  // and the rate.
  void Done(int64_t final_rows = -1);

  int64_t rows() const { return rows_; }
  // "1,234,567".
  static std::string Grouped(int64_t n);

 private:
  void Check();
  std::string Rate(int64_t elapsed_ns) const;

  std::string what_;
  std::function<int64_t()> now_ns_;
  std::FILE* out_;
  int64_t start_ns_;
  int64_t last_report_ns_;
  int64_t rows_ = 0;
  bool done_ = false;
};

}  // namespace pq::ext
