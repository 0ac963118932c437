#include "format/file/memory_budget.h"

#include <string>
#include <utility>

namespace pq {

Status MemoryBudget::Reserve(int64_t bytes, std::string_view what) {
  const int64_t now = used_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (limit_ > 0 && now > limit_) {
    used_.fetch_sub(bytes, std::memory_order_relaxed);
    return Status::OutOfMemory(std::string(what) + " of " + std::to_string(bytes) +
                               " bytes would make " + holder_ + " hold " + std::to_string(now) +
                               " bytes, over its limit of " + std::to_string(limit_) + " (" +
                               setting_ + ")");
  }
  int64_t peak = peak_.load(std::memory_order_relaxed);
  while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  return Status::OK();
}

BufferPtr ChargedBuffer(BufferPtr buffer, std::shared_ptr<MemoryBudget> budget, int64_t bytes) {
  if (budget == nullptr || buffer == nullptr) return buffer;
  if (bytes < 0) bytes = static_cast<int64_t>(buffer->size());
  const Buffer* raw = buffer.get();
  // Shares ownership of the original buffer and returns the charge when the last owner goes.
  return BufferPtr(raw, [owned = std::move(buffer), budget = std::move(budget), bytes](const Buffer*) mutable {
    owned.reset();
    budget->Release(bytes);
  });
}

BudgetCharge& BudgetCharge::operator=(BudgetCharge&& other) noexcept {
  if (this != &other) {
    if (budget_) budget_->Release(bytes_);
    budget_ = std::move(other.budget_);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

Status BudgetCharge::Set(const std::shared_ptr<MemoryBudget>& budget, int64_t bytes, std::string_view what) {
  if (budget != budget_) {
    if (budget_) budget_->Release(bytes_);
    budget_ = budget;
    bytes_ = 0;
  }
  if (budget_) {
    if (bytes > bytes_) PQ_RETURN_IF_ERROR(budget_->Reserve(bytes - bytes_, what));
    if (bytes < bytes_) budget_->Release(bytes_ - bytes);
  }
  bytes_ = bytes;
  return Status::OK();
}

}  // namespace pq
