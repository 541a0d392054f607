#include "util/fault.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

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

void PausePoint(const char* name) {
  static const char* const at = std::getenv("ALIGNDB_TEST_PAUSE");
  static std::atomic<bool> paused{false};
  if (!at || std::strcmp(at, name) != 0 || paused.exchange(true)) return;
  std::string line = std::string("paused at ") + name + "\n";
  (void)!write(STDERR_FILENO, line.data(), line.size());
  for (;;) pause();  // until a signal ends the process
}

}  // namespace aligndb
