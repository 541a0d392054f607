#include "util/fault.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>

namespace aligndb {
namespace {

long KillAt() {
  static const long at = [] {
    const char* v = std::getenv("ALIGNDB_TEST_KILL_AT");
    return v ? std::atol(v) : 0L;
  }();
  return at;
}

}  // namespace

void CrashPoint() {
  static std::atomic<long> calls{0};
  long n = ++calls;
  if (KillAt() > 0 && n == KillAt()) kill(getpid(), SIGKILL);
}

bool SmallBatches() {
  static const bool small = std::getenv("ALIGNDB_TEST_SMALL_BATCHES") != nullptr;
  return small;
}

}  // namespace aligndb
