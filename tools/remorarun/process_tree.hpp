// Finds the processes a rank started itself (`sh -c 'prog > out'`, a wrapper like valgrind),
// so that stopping the job stops them too.
#pragma once

#include <sys/types.h>

#include <vector>

namespace remorarun {

// Every live descendant of the given processes (not including them), from /proc.
std::vector<pid_t> descendants_of(const std::vector<pid_t>& roots);

}  // namespace remorarun
