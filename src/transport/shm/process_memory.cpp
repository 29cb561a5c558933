#include "transport/shm/process_memory.hpp"

#include <sys/prctl.h>
#include <sys/uio.h>

#include <cerrno>
#include <cstdint>

namespace remora::shm {
namespace {

// The kernel may copy less than asked (a page boundary, a signal): continue where it stopped.
template <typename Transfer>
int copy_all(Transfer transfer, size_t bytes) {
  size_t done = 0;
  while (done < bytes) {
    const ssize_t copied = transfer(done, bytes - done);
    if (copied < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (copied == 0) return EFAULT;
    done += static_cast<size_t>(copied);
  }
  return 0;
}

}  // namespace

void allow_process_memory_access() {
#ifdef PR_SET_PTRACER
  prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#endif
}

int read_process_memory(pid_t pid, const void* remote, void* local, size_t bytes) {
  return copy_all(
      [&](size_t offset, size_t length) {
        iovec mine{static_cast<uint8_t*>(local) + offset, length};
        iovec theirs{const_cast<uint8_t*>(static_cast<const uint8_t*>(remote)) + offset, length};
        return process_vm_readv(pid, &mine, 1, &theirs, 1, 0);
      },
      bytes);
}

int write_process_memory(pid_t pid, void* remote, const void* local, size_t bytes) {
  return copy_all(
      [&](size_t offset, size_t length) {
        iovec mine{const_cast<uint8_t*>(static_cast<const uint8_t*>(local)) + offset, length};
        iovec theirs{static_cast<uint8_t*>(remote) + offset, length};
        return process_vm_writev(pid, &mine, 1, &theirs, 1, 0);
      },
      bytes);
}

}  // namespace remora::shm
