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
  // Starts `workers` threads (at least one).
  explicit TaskPool(int workers);
  // Runs the tasks still queued, then joins the workers.
  ~TaskPool();
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  void Submit(std::function<void()> task);
  int workers() const { return static_cast<int>(threads_.size()); }

 private:
  void Run();

  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace pq
