#include "storage/block_buffers.h"

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace aligndb {

namespace {

// Every buffer starts with a header naming its size class (0: not pooled), so that Deallocate,
// which is given no size, knows where it goes. 16 bytes keep the block 16-byte aligned.
constexpr size_t kHeader = 16;

int ClassOf(size_t size) {
  if (size + kHeader < BlockBufferPool::kMinPooled ||
      size + kHeader > BlockBufferPool::kMaxPooledClass)
    return 0;
  return std::bit_width(size + kHeader - 1);  // the smallest power of two that holds it
}

unsigned char* Header(void* p) { return static_cast<unsigned char*>(p) - kHeader; }

}  // namespace

BlockBufferPool::~BlockBufferPool() {
  for (auto& list : free_)
    for (void* b : list) std::free(b);
}

void* BlockBufferPool::Allocate(size_t size) {
  const int c = ClassOf(size);
  void* base = nullptr;
  if (c) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!free_[c].empty()) {
      base = free_[c].back();
      free_[c].pop_back();
      pooled_bytes_ -= size_t{1} << c;
    }
  }
  if (!base) base = std::malloc(c ? size_t{1} << c : size + kHeader);
  if (!base) throw std::bad_alloc();  // as RocksDB's default allocation (new[]) would
  auto* h = static_cast<unsigned char*>(base);
  h[0] = static_cast<unsigned char>(c);
  return h + kHeader;
}

void BlockBufferPool::Deallocate(void* p) {
  if (!p) return;
  unsigned char* base = Header(p);
  const int c = base[0];
  if (c) {
    std::lock_guard<std::mutex> lock(mu_);
    if (pooled_bytes_ + (size_t{1} << c) <= kMaxPooledBytes) {
      free_[c].push_back(base);
      pooled_bytes_ += size_t{1} << c;
      return;
    }
  }
  std::free(base);
}

size_t BlockBufferPool::UsableSize(void* p, size_t allocation_size) const {
  const int c = Header(p)[0];
  return c ? (size_t{1} << c) - kHeader : allocation_size;
}

size_t BlockBufferPool::pooled_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return pooled_bytes_;
}

}  // namespace aligndb
