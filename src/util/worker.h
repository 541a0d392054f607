// A thread kept for a sequence of tasks run one at a time.
#ifndef ALIGNDB_UTIL_WORKER_H_
#define ALIGNDB_UTIL_WORKER_H_

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace aligndb {

// Ingest hands work to other threads batch after batch. A thread started for each batch and ended
// after it cost more than a small batch's work: each ending thread returns its allocator caches to
// the system, page by page (docs/benchmarks.md). A Worker starts its thread on first use and keeps
// it until destroyed. Tasks must not throw. Not thread-safe: one thread gives tasks and waits.
class Worker {
 public:
  Worker() = default;
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Runs `task` on the worker's thread after waiting for the task before. When no thread can be
  // started (process or address-space limits), `task` runs here, before Run returns.
  void Run(std::function<void()> task);
  // Waits until the last task given has run.
  void Wait();

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable cv_;
  std::function<void()> task_;  // the task to run; empty once taken
  bool busy_ = false;           // a task is given and has not finished
  bool stop_ = false;
  bool no_thread_ = false;  // starting the thread failed: tasks run on the caller
  std::thread thread_;
};

}  // namespace aligndb

#endif  // ALIGNDB_UTIL_WORKER_H_
