// Process-shared futex wait/wake on 32-bit words in shared memory.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <ctime>

namespace remora::shm {

// Sleeps while *word == expected, at most timeout_ns. Spurious returns are allowed. True when
// the sleep ended because the timeout passed.
inline bool futex_wait(std::atomic<uint32_t>* word, uint32_t expected, uint64_t timeout_ns) {
  timespec timeout;
  timeout.tv_sec = static_cast<time_t>(timeout_ns / 1000000000ull);
  timeout.tv_nsec = static_cast<long>(timeout_ns % 1000000000ull);
  return syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT, expected, &timeout,
                 nullptr, 0) != 0 &&
         errno == ETIMEDOUT;
}

inline void futex_wake_all(std::atomic<uint32_t>* word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

}  // namespace remora::shm
