// TaskPool: a fixed set of worker threads that run submitted tasks, oldest first. The reader's
// `threads` option (ReaderOptions::task_pool) uses one to decompress pages ahead of the scan: while
// the calling thread decodes a page and hands its values to SQLite, a worker checks, decrypts and
// decompresses the next one (page/page_reader.h). A task must not submit to or destroy its own
// pool; it may block only on work that does not need the pool.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pq {

// How long a thread that waits on another watches for it before going to sleep. A scan hands a
// page over every few tens of microseconds, and putting a thread to sleep and waking it costs about
// as much (two futex calls and a context switch, more under a hypervisor), so a short watch makes
// most hand-overs free; a longer wait sleeps as before.
inline constexpr std::chrono::microseconds kSpinBeforeSleep{50};

// How long an idle worker of a TaskPool dozes (polls the queue between short sleeps) before it
// sleeps until woken, and the length of one of those sleeps. A scan submits a page every few
// hundred microseconds; waking a sleeping worker costs the submitting thread a system call and an
// interrupt to the other core (about 17 us under this hypervisor, 3% of a scan's calling thread),
// while a dozing worker finds the page by itself a slice later, at a small cost to its own core.
inline constexpr std::chrono::microseconds kDozeFor{2000};
inline constexpr std::chrono::microseconds kDozeSlice{200};
// A worker dozes only while its tasks come within this of each other (of its going idle). Tasks
// further apart (a scan of small pages, one a millisecond) found it dozing through five to ten
// slices each for nothing: CPU time (the worker of a scan of 10,000,000 dictionary-coded dates took
// 26 ms a query, 3 ms sleeping instead) and, with the other core busy, up to 10% of the scan's
// wall-clock time. A scan of doubles, a page every 450 us, keeps dozing.
inline constexpr std::chrono::microseconds kDozeWhenWithin{600};

// Polls `ready` until it returns true (then true) or `limit` has passed (then false).
template <typename Ready>
bool SpinUntil(Ready&& ready, std::chrono::microseconds limit = kSpinBeforeSleep) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (true) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    if (std::chrono::steady_clock::now() >= end) return ready();
  }
}

// Takes a piece of work handed to a pool for the calling thread: true for the first caller (a
// worker starting it, or its owner cancelling it or doing it itself), false for every later one.
inline bool ClaimWork(std::atomic<bool>& claimed) {
  bool expected = false;
  return claimed.compare_exchange_strong(expected, true, std::memory_order_acq_rel);
}

class TaskPool {
 public:
  // A pool of `workers` threads (at least one), started by the first Submit: a table that only
  // ever looks rows up never starts them.
  explicit TaskPool(int workers);
  // Runs the tasks still queued, then joins the workers.
  ~TaskPool();
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  // Queues `task`. Runs it on the calling thread instead when no worker could be started.
  void Submit(std::function<void()> task);
  int workers() const { return workers_; }
  // Runs the oldest queued task on the calling thread, if there is one; false when none is queued.
  // For a thread waiting on a task's result: it helps rather than idles. Only for pools whose tasks
  // never wait on the caller.
  bool RunOne();
  // Threads running now (0 until the first Submit).
  int started() const;
  // The slices its workers have dozed so far (kDozeSlice each).
  int64_t doze_slices() const { return doze_slices_.load(std::memory_order_relaxed); }

 private:
  void Run();
  // Polls for a queued task between sleeps of kDozeSlice, for about kDozeFor at most.
  void Doze() const;

  const int workers_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  std::atomic<size_t> queued_{0};  // queue_.size(), for workers watching without the lock
  int sleeping_ = 0;  // workers waiting on wake_ (until Submit notifies them)
  bool stopping_ = false;
  std::atomic<bool> stopping_now_{false};  // stopping_, for dozing workers watching without the lock
  mutable std::atomic<int64_t> doze_slices_{0};
  std::vector<std::thread> threads_;
};

}  // namespace pq
