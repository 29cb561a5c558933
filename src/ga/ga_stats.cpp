#include "ga/ga_stats.hpp"

#include <cstdio>

#include "ga/ga_memory.hpp"
#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {

constexpr int kStats = static_cast<int>(Stat::Count);
uint64_t calls[kStats] = {};
uint64_t bytes_moved[kStats] = {};
const char* const kNames[kStats] = {"put",         "get",      "accumulate", "scatter", "gather",
                                    "scatter_acc", "read_inc", "access",     "sync"};

}  // namespace

void stat_record(Stat stat, size_t bytes) {
  const int k = static_cast<int>(stat);
  ++calls[k];
  bytes_moved[k] += bytes;
}

void stats_print() {
  std::printf("GA statistics for process %4d\n", remora_rank());
  std::printf("%-12s %14s %16s\n", "operation", "calls", "bytes");
  for (int k = 0; k < kStats; ++k)
    std::printf("%-12s %14llu %16llu\n", kNames[k], static_cast<unsigned long long>(calls[k]),
                static_cast<unsigned long long>(bytes_moved[k]));
  std::printf("memory in use by GA arrays: %zu bytes\n", memory_in_use());
  std::fflush(stdout);
}

}  // namespace remora::ga
