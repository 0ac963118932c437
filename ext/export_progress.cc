#include "ext/export_progress.h"

#include <chrono>

namespace pq::ext {

namespace {

constexpr int64_t kSecondNs = 1'000'000'000;

int64_t SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string Seconds(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(ns) / kSecondNs);
  return buf;
}

}  // namespace

ExportProgress::ExportProgress(std::string what, std::function<int64_t()> now_ns, std::FILE* out)
    : what_(std::move(what)),
      now_ns_(now_ns ? std::move(now_ns) : SteadyNowNs),
      out_(out ? out : stderr),
      start_ns_(now_ns_()),
      last_report_ns_(start_ns_) {}

std::string ExportProgress::Grouped(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return n < 0 ? "-" + out : out;
}

std::string ExportProgress::Rate(int64_t elapsed_ns) const {
  if (elapsed_ns <= 0) return "-";
  const double per_second = static_cast<double>(rows_) * kSecondNs / static_cast<double>(elapsed_ns);
  return Grouped(static_cast<int64_t>(per_second)) + " rows/s";
}

void ExportProgress::Check() {
  const int64_t now = now_ns_();
  if (now - last_report_ns_ < kSecondNs) return;
  last_report_ns_ = now;
  const int64_t elapsed = now - start_ns_;
  std::fprintf(out_, "%s: %s rows, %s, %s\n", what_.c_str(), Grouped(rows_).c_str(),
               Seconds(elapsed).c_str(), Rate(elapsed).c_str());
  std::fflush(out_);
}

void ExportProgress::Done(int64_t final_rows) {
  if (done_) return;
  done_ = true;
  if (final_rows >= 0) rows_ = final_rows;
  const int64_t elapsed = now_ns_() - start_ns_;
  std::fprintf(out_, "%s: done, %s rows in %s (%s)\n", what_.c_str(), Grouped(rows_).c_str(),
               Seconds(elapsed).c_str(), Rate(elapsed).c_str());
  std::fflush(out_);
}

}  // namespace pq::ext
