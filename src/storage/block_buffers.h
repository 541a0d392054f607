// The memory of the table blocks RocksDB reads: large blocks (a long article's record) come from
// a bounded pool of buffers kept from read to read instead of fresh pages from the system.
// Included only by the storage layer's own sources (and its tests).
#ifndef ALIGNDB_STORAGE_BLOCK_BUFFERS_H_
#define ALIGNDB_STORAGE_BLOCK_BUFFERS_H_

#include <rocksdb/memory_allocator.h>

#include <cstddef>
#include <mutex>
#include <vector>

namespace aligndb {

// A lookup reads one record of up to megabytes: into a fresh buffer each time, its page faults
// (and the allocator returning the pages to the system after it) cost more than the read itself
// (docs/benchmarks.md, Lookup). Blocks of at least kMinPooled bytes get a buffer of a power-of-two
// size; a freed one is kept for the next block of its size while the pool holds under
// kMaxPooledBytes. Smaller blocks use the process's allocator as before. Thread-safe.
class BlockBufferPool : public rocksdb::MemoryAllocator {
 public:
  static constexpr size_t kMinPooled = size_t{32} << 10;
  static constexpr size_t kMaxPooledClass = size_t{32} << 20;  // larger blocks are not pooled
  static constexpr size_t kMaxPooledBytes = size_t{32} << 20;  // free buffers kept, in all

  BlockBufferPool() = default;
  ~BlockBufferPool() override;
  BlockBufferPool(const BlockBufferPool&) = delete;
  BlockBufferPool& operator=(const BlockBufferPool&) = delete;

  const char* Name() const override { return "aligndb.BlockBufferPool"; }
  void* Allocate(size_t size) override;
  void Deallocate(void* p) override;
  size_t UsableSize(void* p, size_t allocation_size) const override;

  // Bytes of free buffers the pool holds now.
  size_t pooled_bytes() const;

 private:
  static constexpr int kClasses = 64;
  mutable std::mutex mu_;
  std::vector<void*> free_[kClasses];  // by log2 of the buffer's size
  size_t pooled_bytes_ = 0;
};

}  // namespace aligndb

#endif  // ALIGNDB_STORAGE_BLOCK_BUFFERS_H_
