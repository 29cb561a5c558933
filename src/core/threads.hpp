// Thread levels (remora_init_thread) and the rank's library lock.
//
// At REMORA_THREAD_MULTIPLE every public entry point holds one per-process mutex (the library
// lock) while it runs, as MPICH's global critical section does. The one wait loop
// (Transport::wait_until) lets it go while it backs off (spins, yields or sleeps) and hands it
// to a contending thread after each round of progress, so a thread that waits for a lock, a
// flush, a collective or a remote rank never keeps the other threads of its rank out. At the
// other levels nothing is locked: each entry point pays one load and a not-taken branch.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

namespace remora::threads {

// The levels of include/remora/runtime.h (REMORA_THREAD_SINGLE..MULTIPLE, 0..3).
enum Level : int { Single = 0, Funneled = 1, Serialized = 2, Multiple = 3 };

namespace detail {
// Written by remora_init and remora_finalize only; loaded relaxed (a plain load on x86) by
// every entry point and by the progress thread's wait loop.
extern std::atomic<bool> multiple;
extern thread_local int depth;     // this thread's nesting of locked entry points
extern thread_local bool holding;  // this thread holds the library lock now
struct LibraryLock {
  std::mutex mutex;
  std::atomic<int> contenders{0};  // threads blocked in lock()
  std::atomic<uint64_t> acquisitions{0};
  std::atomic<int> inside{0};  // threads between entry and exit of a public call (waiting too)
};
LibraryLock& library_lock();
void acquire();
void release();
void hand_over();
}  // namespace detail

// The level this process runs at, and setting it (init and finalize only).
int level();
void set_level(int level);

inline bool multiple() {
  return detail::multiple.load(std::memory_order_relaxed);
}

// Held by a public entry point for its whole run. Takes the library lock at the multiple level,
// unless this thread already holds it (a public call made by the library itself, or by an
// active-message handler running inside this thread's call) or skip() is true (a handler on the
// progress thread: handlers never take the lock, so that a thread waiting for handlers to end
// cannot deadlock with one).
class Scope {
 public:
  template <typename Skip>
  explicit Scope(const Skip& skip) {
    if (multiple()) [[unlikely]]
      if (!skip()) state_ = enter();
  }
  ~Scope() {
    if (state_ != None) [[unlikely]]
      leave(state_);
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  enum State : unsigned char { None, Nested, Outermost };
  // Static, so that the object's address never escapes: at the levels below multiple, state_
  // stays a register known to be None and the entry point keeps its frame-less fast path.
  [[gnu::cold, gnu::noinline]] static State enter();
  [[gnu::cold, gnu::noinline]] static void leave(State state);
  State state_ = None;
};

// The number of other threads of this rank inside a public call; kept at the multiple level only.
int other_threads_inside();

// For the wait loop: lets the lock go for the lifetime of the object if this thread holds it.
class Unlocked {
 public:
  Unlocked() : released_(multiple() && detail::holding) {
    if (released_) detail::release();
  }
  ~Unlocked() {
    if (released_) detail::acquire();
  }
  Unlocked(const Unlocked&) = delete;
  Unlocked& operator=(const Unlocked&) = delete;

 private:
  bool released_;
};

// For the wait loop after a round of progress: if this thread holds the lock and another
// thread waits for it, lets that thread have it before continuing.
inline void yield_if_contended() {
  if (multiple() && detail::holding &&
      detail::library_lock().contenders.load(std::memory_order_relaxed) > 0)
    detail::hand_over();
}

}  // namespace remora::threads
