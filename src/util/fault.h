// Test hooks for crash testing (tests/crash_test.cc). Both read the environment once.
//   ALIGNDB_TEST_KILL_AT=N      the N-th call of CrashPoint() in the process sends SIGKILL to the
//                               process itself: a crash right after a commit (or before the next).
//   ALIGNDB_TEST_SMALL_BATCHES=1  commit after a few pages/records, so that small inputs pass
//                               through many commit points.
//   ALIGNDB_TEST_PAUSE=NAME     the first call of PausePoint(NAME) writes "paused at NAME" to
//                               stderr and waits for a signal: a test signals a process known to
//                               be mid-way (an export with its temporary files open).
// Without these variables CrashPoint() is a counter increment, SmallBatches() is false and
// PausePoint() returns at once.
#ifndef ALIGNDB_UTIL_FAULT_H_
#define ALIGNDB_UTIL_FAULT_H_

namespace aligndb {

void CrashPoint();
bool SmallBatches();
void PausePoint(const char* name);

}  // namespace aligndb

#endif  // ALIGNDB_UTIL_FAULT_H_
