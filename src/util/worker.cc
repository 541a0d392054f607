#include "util/worker.h"

#include <exception>
#include <utility>

namespace aligndb {

Worker::~Worker() {
  if (!thread_.joinable()) return;
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return !busy_; });
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Worker::Run(std::function<void()> task) {
  Wait();
  if (!thread_.joinable() && !no_thread_) {
    try {
      thread_ = std::thread([this] { Loop(); });
    } catch (const std::exception&) {  // std::system_error, or bad_alloc for its state
      no_thread_ = true;
    }
  }
  if (no_thread_) {
    task();
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    task_ = std::move(task);
    busy_ = true;
  }
  cv_.notify_all();
}

void Worker::Wait() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return !busy_; });
}

void Worker::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || task_; });
    if (!task_) return;  // stopped, nothing given
    std::function<void()> task = std::move(task_);
    task_ = nullptr;
    lock.unlock();
    task();
    task = nullptr;  // what the task holds goes on this thread, before the caller is told
    lock.lock();
    busy_ = false;
    cv_.notify_all();
  }
}

}  // namespace aligndb
