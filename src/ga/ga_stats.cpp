#include "ga/ga_stats.hpp"

#include <atomic>
#include <cstdio>

#include "ga/ga_memory.hpp"
#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {

constexpr int kStats = static_cast<int>(Stat::Count);
// Atomics: threads of a rank may count at the same time (relaxed: only the totals matter).
std::atomic<uint64_t> calls[kStats] = {};
std::atomic<uint64_t> bytes_moved[kStats] = {};
const char* const kNames[kStats] = {"put",         "get",      "accumulate", "scatter", "gather",
                                    "scatter_acc", "read_inc", "access",     "sync"};

}  // namespace

void stat_record(Stat stat, size_t bytes) {
  const int k = static_cast<int>(stat);
  calls[k].fetch_add(1, std::memory_order_relaxed);
  bytes_moved[k].fetch_add(bytes, std::memory_order_relaxed);
}

void stats_print() {
  std::printf("GA statistics for process %4d\n", remora_rank());
  std::printf("%-12s %14s %16s\n", "operation", "calls", "bytes");
  for (int k = 0; k < kStats; ++k)
    std::printf("%-12s %14llu %16llu\n", kNames[k],
                static_cast<unsigned long long>(calls[k].load(std::memory_order_relaxed)),
                static_cast<unsigned long long>(bytes_moved[k].load(std::memory_order_relaxed)));
  std::printf("memory in use by GA arrays: %zu bytes\n", memory_in_use());
  std::fflush(stdout);
}

}  // namespace remora::ga
