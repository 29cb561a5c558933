// Asymmetric fences for Dekker-style handshakes between a frequent side and a rare side, across
// the processes of a node: the frequent side (a lock release: store, then load the waiter
// count) pays a compiler barrier, the rare side (a waiter: register, then re-check the lock)
// pays a membarrier(2) system call that makes every running thread of every registered
// process execute a full fence. Either side's load then sees the other's store, exactly as
// with two sequentially consistent fences (the kernel's guarantee for MEMBARRIER_CMD_GLOBAL_
// EXPEDITED; threads that are not running pass a full barrier when they are scheduled).
//
// Without the system call (another OS, a kernel without it, a seccomp filter that refuses it)
// both sides fall back to full fences. The frequent side uses the light form only after its
// process registered; the rare side issues the system call whenever the kernel has it, so a
// light releaser always meets a heavy waiter (every process of a node runs the same kernel).
#pragma once

#include <atomic>

namespace remora {

namespace detail {
bool register_asymmetric_fences();
// Set once this process is registered (enable_asymmetric_fences); a relaxed load is a plain
// load, so light_fence() costs no guard check of a function-local static.
extern std::atomic<bool> asymmetric_registered;
}  // namespace detail

// Registers this process for the heavy side's barriers (once; again in a forked child) and
// returns whether it is registered. Called where a handshake's frequent side is set up (window
// creation, which is collective), before any waiter of it can exist: a process that registered
// later could miss a heavy fence issued before.
bool enable_asymmetric_fences();
inline bool asymmetric_fences() {
  return detail::asymmetric_registered.load(std::memory_order_relaxed);
}

// The frequent side, between its store and its load: a compiler barrier once registered, else
// a full fence.
inline void light_fence() {
  if (asymmetric_fences())
    std::atomic_signal_fence(std::memory_order_seq_cst);
  else
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

// The rare side, between its store (a read-modify-write) and its load.
void heavy_fence();

}  // namespace remora
