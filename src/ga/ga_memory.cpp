#include "ga/ga_memory.hpp"

#include <cstdint>

#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {
size_t limit_bytes = 0;
size_t used_bytes = 0;
}  // namespace

void memory_set_limit(size_t limit) {
  limit_bytes = limit;
}

bool memory_limited() {
  return limit_bytes != 0;
}

size_t memory_in_use() {
  return used_bytes;
}

size_t memory_available() {
  if (!memory_limited()) return SIZE_MAX;
  return used_bytes >= limit_bytes ? 0 : limit_bytes - used_bytes;
}

bool memory_admits_everywhere(size_t bytes, MPI_Comm comm) {
  if (!memory_limited()) return true;  // the same on every rank: set by GA_Initialize_ltd
  int fits = bytes <= memory_available() ? 1 : 0, all = 0;
  MPI_Allreduce(&fits, &all, 1, MPI_INT, MPI_MIN, comm);
  return all == 1;
}

void memory_add(size_t bytes) {
  used_bytes += bytes;
}

void memory_remove(size_t bytes) {
  used_bytes = bytes > used_bytes ? 0 : used_bytes - bytes;
}

}  // namespace remora::ga
