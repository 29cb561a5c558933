// Copies between this process and another process's memory with one kernel copy
// (process_vm_readv/writev): the single-copy path for memory that is not in a shared segment.
#pragma once

#include <sys/types.h>

#include <cstddef>

namespace remora::shm {

// Lets every process of this user read and write our memory with process_vm_*; needed where
// the Yama LSM restricts ptrace to descendants. Harmless elsewhere.
void allow_process_memory_access();

// Copy bytes from `remote` in process pid into `local` (read) or back (write). Returns 0 or an
// errno value; EPERM/ENOSYS mean the operating system does not allow it.
int read_process_memory(pid_t pid, const void* remote, void* local, size_t bytes);
int write_process_memory(pid_t pid, void* remote, const void* local, size_t bytes);

}  // namespace remora::shm
