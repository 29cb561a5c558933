#include "ga/ga_memory.hpp"

#include <atomic>
#include <cstdint>

#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {
// Written by GA_Initialize_ltd and by creation and destruction (collective, single-threaded);
// atomics because queries (GA_Inquire_memory, GA_Memory_avail) may come from any thread.
std::atomic<size_t> limit_bytes{0};
std::atomic<size_t> used_bytes{0};
std::atomic<size_t> pool_bytes{0};

void subtract(std::atomic<size_t>& counter, size_t bytes) {
  const size_t used = counter;
  counter = bytes > used ? 0 : used - bytes;
}
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
  const size_t used = used_bytes + pool_bytes, limit = limit_bytes;
  return used >= limit ? 0 : limit - used;
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
  subtract(used_bytes, bytes);
}

void pool_add(size_t bytes) {
  pool_bytes += bytes;
}

void pool_remove(size_t bytes) {
  subtract(pool_bytes, bytes);
}

}  // namespace remora::ga
