// MemoryBudget: a cap on the bytes the readers of one table hold at once. Everything a scan holds
// that grows with what a file claims (chunk bytes, decrypted and decompressed pages, levels,
// batches, dictionaries, assembled JSON) is charged here before it is allocated and returned when
// freed, so a file whose pages claim more than the table may hold fails with OutOfMemory naming
// what was charged and the setting that limits it, instead of being allocated. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "format/encoding/values.h"
#include "format/util/status.h"

namespace pq {

class MemoryBudget {
 public:
  // `limit_bytes` <= 0: no limit (the charges are still counted). `setting` names what the user
  // changes to allow more, for messages: "(table option max_memory, in MiB)"; `holder` what holds
  // the charges ("... would make the table's scans hold ...").
  explicit MemoryBudget(int64_t limit_bytes, std::string setting = "table option max_memory, in MiB",
                        std::string holder = "the table's scans")
      : limit_(limit_bytes), setting_(std::move(setting)), holder_(std::move(holder)) {}

  // Counts `bytes` as held; OutOfMemory naming `what`, the limit and the setting when that passes
  // the limit.
  Status Reserve(int64_t bytes, std::string_view what);
  void Release(int64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }

  int64_t used() const { return used_.load(std::memory_order_relaxed); }
  int64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  int64_t limit() const { return limit_; }
  const std::string& setting() const { return setting_; }

 private:
  int64_t limit_;
  std::string setting_;
  std::string holder_;
  std::atomic<int64_t> used_{0};
  std::atomic<int64_t> peak_{0};
};

// `buffer`, charged to `budget` (which may be null: then `buffer` itself) until its last owner
// lets go. The charge is `bytes` (-1: buffer->size()), reserved before this is called (Reserve).
BufferPtr ChargedBuffer(BufferPtr buffer, std::shared_ptr<MemoryBudget> budget, int64_t bytes = -1);

// Bytes charged to a MemoryBudget for as long as their holder lives. Without a budget (null) it
// only counts. Movable, not copyable.
// BudgetCharge holds one such charge and follows what its holder holds (Set), returning it on
// destruction.
class BudgetCharge {
 public:
  BudgetCharge() = default;
  explicit BudgetCharge(std::shared_ptr<MemoryBudget> budget) : budget_(std::move(budget)) {}
  BudgetCharge(const BudgetCharge&) = delete;
  BudgetCharge& operator=(const BudgetCharge&) = delete;
  BudgetCharge(BudgetCharge&& other) noexcept
      : budget_(std::move(other.budget_)), bytes_(std::exchange(other.bytes_, 0)) {}
  BudgetCharge& operator=(BudgetCharge&& other) noexcept;
  ~BudgetCharge() {
    if (budget_) budget_->Release(bytes_);
  }
  // Makes the charge `bytes` (to `budget`, replacing an earlier budget); OutOfMemory, with the
  // charge unchanged, when the budget refuses the growth.
  Status Set(const std::shared_ptr<MemoryBudget>& budget, int64_t bytes, std::string_view what);
  // The same on the budget this charge already has.
  Status Set(int64_t bytes, std::string_view what) { return Set(budget_, bytes, what); }
  // Grows the charge to at least `bytes`, to twice that when it grows, so that a holder growing
  // a little at a time asks the budget only now and then.
  Status AtLeast(int64_t bytes, std::string_view what) {
    return bytes <= bytes_ ? Status::OK() : Set(budget_, 2 * bytes, what);
  }
  int64_t bytes() const { return bytes_; }
  const std::shared_ptr<MemoryBudget>& budget() const { return budget_; }

 private:
  std::shared_ptr<MemoryBudget> budget_;
  int64_t bytes_ = 0;
};

}  // namespace pq
