// Wall-clock time as records store it (run manifests, pairing summaries).
#ifndef ALIGNDB_UTIL_CLOCK_H_
#define ALIGNDB_UTIL_CLOCK_H_

#include <chrono>
#include <cstdint>

namespace aligndb {

// Milliseconds since the Unix epoch.
inline int64_t NowUnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace aligndb

#endif  // ALIGNDB_UTIL_CLOCK_H_
