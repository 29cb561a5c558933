#include "core/asymmetric_fence.hpp"

#if defined(__linux__)
#include <linux/membarrier.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace remora {

std::atomic<bool> detail::asymmetric_registered{false};

bool enable_asymmetric_fences() {
  static const bool registered = [] {
    const bool ok = detail::register_asymmetric_fences();
    detail::asymmetric_registered.store(ok, std::memory_order_relaxed);
    return ok;
  }();
  return registered;
}

#if defined(__linux__) && defined(SYS_membarrier)
namespace {

long membarrier(int command) {
  return syscall(SYS_membarrier, command, 0, 0);
}

// Whether the kernel takes MEMBARRIER_CMD_GLOBAL_EXPEDITED (asked once).
bool kernel_has_global_expedited() {
  static const bool has = [] {
    const long commands = membarrier(MEMBARRIER_CMD_QUERY);
    return commands > 0 && (commands & MEMBARRIER_CMD_GLOBAL_EXPEDITED) != 0 &&
           (commands & MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED) != 0;
  }();
  return has;
}

// A forked child gets a new address space: register it too (the parent's flag is copied).
// A child that cannot register (the call refused, say by a seccomp filter of its own) falls
// back to full fences: with the parent's flag copied it would pair a compiler barrier with
// heavy fences that never reach it.
void register_child() {
  if (membarrier(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED) != 0)
    detail::asymmetric_registered.store(false, std::memory_order_relaxed);
}

}  // namespace

bool detail::register_asymmetric_fences() {
  if (!kernel_has_global_expedited() || membarrier(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED) != 0)
    return false;
  pthread_atfork(nullptr, nullptr, register_child);
  return true;
}

void heavy_fence() {
  // A failing call (it does not fail once QUERY listed it) still leaves the full fence.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (kernel_has_global_expedited()) membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED);
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

#else

bool detail::register_asymmetric_fences() {
  return false;
}

void heavy_fence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

#endif

}  // namespace remora
