#include "util/worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

namespace aligndb {
namespace {

TEST(WorkerTest, TasksRunOneAtATimeOnOneKeptThread) {
  std::set<std::thread::id> ids;
  std::vector<int> order;
  {
    Worker worker;
    for (int k = 0; k < 200; ++k) {
      worker.Run([&, k] {
        ids.insert(std::this_thread::get_id());
        order.push_back(k);
      });
      if (k % 3 == 0) worker.Wait();
    }
    worker.Wait();
    ASSERT_EQ(order.size(), 200u);
  }
  for (int k = 0; k < 200; ++k) EXPECT_EQ(order[k], k);
  ASSERT_EQ(ids.size(), 1u);  // one thread for all of them, not this one
  EXPECT_NE(*ids.begin(), std::this_thread::get_id());
}

TEST(WorkerTest, WaitReturnsOnlyOnceTheTaskHasRun) {
  Worker worker;
  std::atomic<bool> done{false};
  worker.Run([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    done = true;
  });
  worker.Wait();
  EXPECT_TRUE(done.load());
  // The destructor waits for a task still running.
  std::atomic<bool> late{false};
  {
    Worker w2;
    w2.Run([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      late = true;
    });
  }
  EXPECT_TRUE(late.load());
  Worker unused;  // never started: destroyed without a thread
}

}  // namespace
}  // namespace aligndb
