#include "core/threads.hpp"

#include <thread>

namespace remora::threads {
namespace detail {

std::atomic<bool> multiple{false};
thread_local int depth = 0;
thread_local bool holding = false;

LibraryLock& library_lock() {
  static LibraryLock lock;
  return lock;
}

void acquire() {
  LibraryLock& lock = library_lock();
  if (!lock.mutex.try_lock()) {
    lock.contenders.fetch_add(1, std::memory_order_relaxed);
    lock.mutex.lock();
    lock.contenders.fetch_sub(1, std::memory_order_relaxed);
  }
  lock.acquisitions.fetch_add(1, std::memory_order_relaxed);
  holding = true;
}

void release() {
  holding = false;
  library_lock().mutex.unlock();
}

// Releases the lock and waits until another thread has taken it (or nobody wants it any more),
// then takes it back: a plain unlock-lock would usually win the race against the woken thread.
void hand_over() {
  LibraryLock& lock = library_lock();
  const uint64_t seen = lock.acquisitions.load(std::memory_order_relaxed);
  release();
  while (lock.contenders.load(std::memory_order_relaxed) > 0 &&
         lock.acquisitions.load(std::memory_order_relaxed) == seen)
    std::this_thread::yield();
  acquire();
}

}  // namespace detail

namespace {
std::atomic<int> current_level{Single};
}

int level() {
  return current_level.load(std::memory_order_relaxed);
}

void set_level(int new_level) {
  current_level.store(new_level, std::memory_order_relaxed);
  detail::multiple.store(new_level == Multiple, std::memory_order_relaxed);
}

Scope::State Scope::enter() {
  if (detail::depth++ > 0) return Nested;  // nested: the outermost call holds the lock
  detail::acquire();
  ++detail::library_lock().inside;
  return Outermost;
}

void Scope::leave(State state) {
  --detail::depth;
  if (state == Nested) return;
  --detail::library_lock().inside;
  detail::release();
}

int other_threads_inside() {
  const int inside = detail::library_lock().inside.load(std::memory_order_relaxed);
  return inside - (detail::depth > 0 ? 1 : 0);
}

}  // namespace remora::threads
