// TaskPool: a fixed set of worker threads that run submitted tasks, oldest first.
//
// The reader's `threads` option (ReaderOptions::task_pool) uses one to decompress pages ahead of
// the scan: while the calling thread decodes a page and hands its values to SQLite, a worker
// checks, decrypts and decompresses the next one (page/page_reader.h). A task must not submit to
// or destroy its own pool; it may block only on work that does not need the pool.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pq {

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
  // Threads running now (0 until the first Submit).
  int started() const;

 private:
  void Run();

  const int workers_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace pq
