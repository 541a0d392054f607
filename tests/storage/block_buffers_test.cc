#include "storage/block_buffers.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

namespace aligndb {
namespace {

TEST(BlockBufferPoolTest, AFreedLargeBufferIsReusedForTheNextOfItsSize) {
  BlockBufferPool pool;
  void* a = pool.Allocate(100 << 10);
  std::memset(a, 1, 100 << 10);
  pool.Deallocate(a);
  EXPECT_EQ(pool.pooled_bytes(), size_t{128} << 10);
  void* b = pool.Allocate(90 << 10);  // the same power-of-two class
  EXPECT_EQ(b, a);
  EXPECT_EQ(pool.pooled_bytes(), 0u);
  EXPECT_GE(pool.UsableSize(b, 90 << 10), size_t{90} << 10);
  void* c = pool.Allocate(300 << 10);  // another class: a new buffer
  EXPECT_NE(c, a);
  pool.Deallocate(b);
  pool.Deallocate(c);
  pool.Deallocate(nullptr);
}

TEST(BlockBufferPoolTest, SmallBlocksAreNotPooledAndThePoolIsBounded) {
  BlockBufferPool pool;
  void* small = pool.Allocate(4096);
  EXPECT_EQ(pool.UsableSize(small, 4096), 4096u);
  pool.Deallocate(small);
  EXPECT_EQ(pool.pooled_bytes(), 0u);
  std::vector<void*> big;
  for (int i = 0; i < 60; ++i) big.push_back(pool.Allocate(1 << 20));  // 2 MB buffers
  for (void* p : big) pool.Deallocate(p);
  EXPECT_EQ(pool.pooled_bytes(), BlockBufferPool::kMaxPooledBytes);
  void* huge = pool.Allocate(BlockBufferPool::kMaxPooledClass + 1);  // not pooled
  EXPECT_EQ(pool.UsableSize(huge, BlockBufferPool::kMaxPooledClass + 1),
            BlockBufferPool::kMaxPooledClass + 1);
  pool.Deallocate(huge);
  EXPECT_EQ(pool.pooled_bytes(), BlockBufferPool::kMaxPooledBytes);
}

// review11: a block of up to kMaxPooledClass bytes whose header takes it past that size (the
// last 16 bytes below it) gets a 64 MB class-26 buffer, never pooled (64 MB > kMaxPooledBytes),
// and reports twice its size to the block cache's charge. It should get a plain allocation,
// as a block one byte larger does.
TEST(BlockBufferPoolTest, ABlockNearTheLargestClassTakesNoBufferTwiceItsSize) {
  BlockBufferPool pool;
  for (size_t size : {BlockBufferPool::kMaxPooledClass - 8, BlockBufferPool::kMaxPooledClass}) {
    void* p = pool.Allocate(size);
    EXPECT_LE(pool.UsableSize(p, size), BlockBufferPool::kMaxPooledClass) << size;
    pool.Deallocate(p);
  }
}

// Random sizes, allocated and freed in random order on several threads: every live buffer is
// 16-byte aligned, as large as asked, and keeps what was written into it (no two live buffers
// share memory), as with plain allocations.
TEST(BlockBufferPoolTest, LiveBuffersNeverOverlapOnRandomWorkloads) {
  BlockBufferPool pool;
  auto work = [&pool](unsigned seed) {
    std::mt19937 rng(seed);
    struct Live {
      unsigned char* p;
      size_t size;
      unsigned char fill;
    };
    std::vector<Live> live;
    for (int op = 0; op < 3000; ++op) {
      if (live.size() < 24 && (live.empty() || rng() % 2)) {
        const size_t sizes[] = {1, 100, 4096, 32 << 10, (32 << 10) - 16, 70000, 1 << 20, 3 << 20};
        size_t size = sizes[rng() % 8] + rng() % 64;
        auto* p = static_cast<unsigned char*>(pool.Allocate(size));
        ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u);
        ASSERT_GE(pool.UsableSize(p, size), size);
        unsigned char fill = static_cast<unsigned char>(rng());
        std::memset(p, fill, size);
        live.push_back({p, size, fill});
      } else {
        size_t k = rng() % live.size();
        for (size_t i = 0; i < live[k].size; i += 997) ASSERT_EQ(live[k].p[i], live[k].fill);
        ASSERT_EQ(live[k].p[live[k].size - 1], live[k].fill);
        pool.Deallocate(live[k].p);
        live.erase(live.begin() + static_cast<long>(k));
      }
    }
    for (auto& l : live) pool.Deallocate(l.p);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 4; ++t) threads.emplace_back(work, 17 + t);
  for (auto& t : threads) t.join();
  EXPECT_LE(pool.pooled_bytes(), BlockBufferPool::kMaxPooledBytes);
}

}  // namespace
}  // namespace aligndb
