#include "format/util/task_pool.h"

#include <algorithm>
#include <system_error>
#include <thread>
#include <utility>

namespace pq {

TaskPool::TaskPool(int workers) : workers_(std::max(workers, 1)) {}

TaskPool::~TaskPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    stopping_now_.store(true, std::memory_order_relaxed);
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void TaskPool::Submit(std::function<void()> task) {
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (threads_.empty()) {
      threads_.reserve(static_cast<size_t>(workers_));
      try {
        for (int i = 0; i < workers_; ++i) threads_.emplace_back([this] { Run(); });
      } catch (const std::system_error&) {
        // Fewer threads than asked (the system is out of them): the ones started do the work.
      }
    }
    if (!threads_.empty()) {
      queue_.push_back(std::move(task));
      queued_.store(queue_.size(), std::memory_order_relaxed);
      task = nullptr;
      wake = sleeping_ > 0;
    }
  }
  if (task) {
    task();
    return;
  }
  // A dozing worker finds the task by itself: no system call on the submitting thread.
  if (wake) wake_.notify_one();
}

bool TaskPool::RunOne() {
  if (queued_.load(std::memory_order_relaxed) == 0) return false;
  std::function<void()> task;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (queue_.empty()) return false;
    task = std::move(queue_.front());
    queue_.pop_front();
    queued_.store(queue_.size(), std::memory_order_relaxed);
  }
  task();
  return true;
}

int TaskPool::started() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(threads_.size());
}

void TaskPool::Doze() const {
  const auto end = std::chrono::steady_clock::now() + kDozeFor;
  do {
    std::this_thread::sleep_for(kDozeSlice);
    doze_slices_.fetch_add(1, std::memory_order_relaxed);
    if (queued_.load(std::memory_order_relaxed) > 0 || stopping_now_.load(std::memory_order_relaxed)) return;
  } while (std::chrono::steady_clock::now() < end);
}

void TaskPool::Run() {
  // Whether to watch for the next task before dozing: as long as tasks have been coming within
  // the watch (a scan of small pages); not while they come further apart (a scan whose caller takes
  // longer per page than the worker), where watching would only burn the core.
  bool watch = true;
  // Whether to doze before sleeping: while tasks have been coming within kDozeWhenWithin. Tasks
  // further apart (a scan of small pages) find the worker asleep: dozing until they came would wake
  // it several times a task, where waking it costs the submitting thread one system call a task.
  bool doze = true;
  while (true) {
    std::function<void()> task;
    const auto idle_start = std::chrono::steady_clock::now();
    auto queued = [this] { return queued_.load(std::memory_order_relaxed) > 0; };
    if (!queued() && !(watch && SpinUntil(queued)) && doze) Doze();
    watch = std::chrono::steady_clock::now() - idle_start < kSpinBeforeSleep;
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (!stopping_ && queue_.empty()) {
        ++sleeping_;
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        --sleeping_;
        watch = false;
      }
      if (queue_.empty()) return;  // stopping, and nothing left to run
      task = std::move(queue_.front());
      queue_.pop_front();
      queued_.store(queue_.size(), std::memory_order_relaxed);
    }
    doze = std::chrono::steady_clock::now() - idle_start < kDozeWhenWithin;
    task();
  }
}

}  // namespace pq
