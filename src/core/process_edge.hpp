// An in-process happens-before edge for ThreadSanitizer only. Some threads of one process are
// ordered only through other processes (the application thread's accesses to its own window
// memory and the progress thread's updates of it for other ranks: the causal chain runs through
// the origins' atomics in shared memory, which order them for the hardware and the C++ model
// alike), and ThreadSanitizer cannot follow an edge across processes. Both sides then touch one
// atomic of the process (acquire and release). Other builds need no such edge: it costs a
// locked instruction per touch, two per accumulate onto a rank's own memory.
#pragma once

#include <atomic>
#include <cstdint>

namespace remora {

#if defined(__SANITIZE_THREAD__)
inline constexpr bool kThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool kThreadSanitizer = true;
#else
inline constexpr bool kThreadSanitizer = false;
#endif
#else
inline constexpr bool kThreadSanitizer = false;
#endif

inline void touch_process_edge(std::atomic<uint64_t>& edge) {
  if constexpr (kThreadSanitizer) edge.fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace remora
